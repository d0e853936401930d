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

#[cfg(test)]
mod tests {
    use super::*;

    /// A palette whose colour `i` is `(i, 255 - i, i / 2)`, as 768 bytes.
    fn ramp() -> Vec<u8> {
        (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect()
    }

    fn two_by_two(skins: Vec<Skin>) -> Mdl {
        Mdl {
            skin_width: 2,
            skin_height: 2,
            skins,
            ..Mdl::default()
        }
    }

    #[test]
    fn gfx_palette_wins_over_another_palette_lmp() {
        let mut files = MemorySource::new();
        files.add("palette.lmp", vec![0u8; 768]).unwrap();
        files.add("id1/gfx/palette.lmp", ramp()).unwrap();
        files.add("id1/progs/x.mdl", vec![1]).unwrap();
        let (path, palette) = dropped_palette(&files).unwrap();
        assert_eq!(path, "id1/gfx/palette.lmp");
        assert_eq!(palette.colors()[7], [7, 248, 3]);
        // A file of the name that is no palette is passed over.
        let mut bad = MemorySource::new();
        bad.add("gfx/palette.lmp", vec![1, 2, 3]).unwrap();
        assert!(dropped_palette(&bad).is_none());
    }

    #[test]
    fn a_skin_png_has_the_palettes_colours_of_its_indices() {
        let mut files = MemorySource::new();
        files.add("palette.lmp", ramp()).unwrap();
        let mdl = two_by_two(vec![
            Skin::Single(vec![0, 1, 2, 3]),
            Skin::Group {
                kind: 1,
                intervals: vec![0.1, 0.2],
                images: vec![vec![4; 4], vec![250, 251, 252, 253]],
            },
        ]);
        let png = mdl_skin_png(&mdl, 2, &files).unwrap();
        let image = retromodel::texture::decode(&png).unwrap();
        assert_eq!((image.width(), image.height()), (2, 2));
        let pixels = image.pixels();
        for (k, i) in [250u8, 251, 252, 253].into_iter().enumerate() {
            assert_eq!(&pixels[4 * k..4 * k + 4], &[i, 255 - i, i / 2, 255]);
        }
        assert!(mdl_skin_png(&mdl, 3, &files)
            .unwrap_err()
            .contains("holds 3"));
        let none = MemorySource::new();
        assert!(mdl_skin_png(&mdl, 0, &none)
            .unwrap_err()
            .contains("gfx/palette.lmp"));
    }
}
