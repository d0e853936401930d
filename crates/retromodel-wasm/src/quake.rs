//! Quake MDL skins for the page: palette indices shown through the Quake
//! palette a user dropped with the model.

use retromodel::mdl::{Mdl, Skin};
use retromodel::texture::{MemorySource, Palette, Rgba8Image};

/// Where the Quake palette is looked for among the dropped files, in
/// order: a game folder's `gfx/palette.lmp` (the model in `progs/`
/// beside it), then any `palette.lmp`.
pub fn dropped_palette(files: &MemorySource) -> Option<(String, Palette)> {
    let mut paths: Vec<String> = files
        .paths()
        .filter(|p| {
            p.rsplit(['/', '\\'])
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case("palette.lmp"))
        })
        .collect();
    // gfx/palette.lmp first, then the shortest path.
    paths.sort_by_key(|p| {
        let lower = p.to_ascii_lowercase().replace('\\', "/");
        let gfx = lower.ends_with("gfx/palette.lmp");
        (!gfx, p.len(), p.clone())
    });
    paths.into_iter().find_map(|p| {
        let palette = Palette::from_raw_768(files.get(&p)?).ok()?;
        Some((p, palette))
    })
}

/// Skin image `index` of an MDL (skin groups flattened) as PNG, coloured
/// by the dropped Quake palette.
pub fn mdl_skin_png(mdl: &Mdl, index: usize, files: &MemorySource) -> Result<Vec<u8>, String> {
    let images: Vec<&Vec<u8>> = mdl
        .skins
        .iter()
        .flat_map(|s| match s {
            Skin::Single(image) => vec![image],
            Skin::Group { images, .. } => images.iter().collect(),
        })
        .collect();
    let image = images
        .get(index)
        .ok_or_else(|| format!("no skin {index}: the model holds {}", images.len()))?;
    let (_, palette) = dropped_palette(files).ok_or_else(|| {
        "the skins are palette indices: drop Quake's gfx/palette.lmp with the model to see them"
            .to_string()
    })?;
    let colors = palette.colors();
    let pixels: Vec<u8> = image
        .iter()
        .flat_map(|&i| {
            let [r, g, b] = colors[usize::from(i)];
            [r, g, b, 255]
        })
        .collect();
    let (w, h) = (
        u32::try_from(mdl.skin_width).unwrap_or(0),
        u32::try_from(mdl.skin_height).unwrap_or(0),
    );
    let rgba = Rgba8Image::new(w, h, pixels)
        .ok_or_else(|| format!("a skin of {} bytes is not {w} × {h} pixels", image.len()))?;
    rgba.to_png().map_err(|e| e.to_string())
}
