//! The skins of an MDL as scene textures: palette indices decoded to
//! RGBA, the fullbright texels of the first image as an emissive map, and
//! the indices kept where the colours would not give them back.

use serde_json::{json, Value};

use super::FLAG_HOLEY;
use crate::mdl::{Mdl, Skin, FIRST_FULLBRIGHT};
use crate::scene::{Texture, TextureImage};
use crate::texture::{Palette, Rgba8Image};

/// An image of palette indices as RGBA (index 255 transparent on a holey
/// model), and its fullbright texels (indices 224–255) on black, when it
/// has any. `None` when the pixel count is not the skin size.
fn decode_skin(
    indices: &[u8],
    width: i32,
    height: i32,
    palette: &Palette,
    holey: bool,
) -> Option<(Rgba8Image, Option<Rgba8Image>)> {
    let (w, h) = (u32::try_from(width).ok()?, u32::try_from(height).ok()?);
    if u64::from(w) * u64::from(h) != indices.len() as u64 {
        return None;
    }
    let colors = palette.colors();
    let mut rgba = Vec::with_capacity(4 * indices.len());
    let mut glow = Vec::with_capacity(4 * indices.len());
    let mut any_glow = false;
    for &i in indices {
        let c = colors[usize::from(i)];
        let alpha = if holey && i == 255 { 0 } else { 255 };
        rgba.extend_from_slice(&[c[0], c[1], c[2], alpha]);
        if i >= FIRST_FULLBRIGHT && alpha != 0 {
            any_glow = true;
            glow.extend_from_slice(&[c[0], c[1], c[2], 255]);
        } else {
            glow.extend_from_slice(&[0, 0, 0, 255]);
        }
    }
    let image = Rgba8Image::new(w, h, rgba)?;
    let glow = if any_glow {
        Rgba8Image::new(w, h, glow)
    } else {
        None
    };
    Some((image, glow))
}

/// Lower-case hex of `bytes`.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The skins as textures: every image of every skin, in file order (a
/// skin group's images one after the other), decoded with the palette;
/// the first image is the material's. Also the fullbright map of the
/// first image, when it has fullbright texels, and the skins' structure
/// (which textures each skin is, a group's intervals) for the extras.
pub(super) fn skin_textures(model: &Mdl, palette: Option<&Palette>, name: &str) -> SkinTextures {
    let holey = model.flags & FLAG_HOLEY != 0;
    let mut out = SkinTextures::default();
    let add = |indices: &[u8], label: String, out: &mut SkinTextures| {
        let decoded = palette
            .and_then(|p| decode_skin(indices, model.skin_width, model.skin_height, p, holey));
        let index = out.textures.len();
        if let (Some(p), Some(_)) = (palette, &decoded) {
            if !nearest_recovers(indices, p, holey) {
                out.indices.push((index, hex(indices)));
            }
        }
        match decoded {
            Some((image, glow)) => {
                out.textures.push(Texture {
                    path: label.clone(),
                    image: Some(TextureImage::Pixels(image)),
                });
                if index == 0 {
                    out.glow = glow.map(|g| (format!("{label}_fullbright"), g));
                }
            }
            None => {
                if palette.is_some() {
                    out.undecodable.push(index);
                }
                out.textures.push(Texture::default());
            }
        }
        index
    };
    for (i, skin) in model.skins.iter().enumerate() {
        match skin {
            Skin::Single(px) => {
                let t = add(px, format!("{name}_skin{i}"), &mut out);
                out.layout.push(json!({ "kind": 0, "textures": [t] }));
            }
            Skin::Group {
                kind,
                intervals,
                images,
            } => {
                let textures: Vec<usize> = images
                    .iter()
                    .enumerate()
                    .map(|(j, px)| add(px, format!("{name}_skin{i}_{j}"), &mut out))
                    .collect();
                out.layout.push(json!({
                    "kind": kind,
                    "intervals": intervals,
                    "textures": textures,
                }));
            }
        }
    }
    out
}

/// What [`skin_textures`] makes.
#[derive(Default)]
pub(super) struct SkinTextures {
    pub textures: Vec<Texture>,
    /// The first image's fullbright map and its name.
    pub glow: Option<(String, Rgba8Image)>,
    /// Per skin: its kind, intervals and textures.
    pub layout: Vec<Value>,
    /// Textures whose pixel count is not the skin size (malformed).
    pub undecodable: Vec<usize>,
    /// The palette indices (hex) of the images whose colours do not give
    /// them back: see [`nearest_recovers`].
    pub indices: Vec<(usize, String)>,
}

/// Whether mapping each decoded colour to the lowest palette index of
/// that colour (what a nearest-colour search that breaks ties towards the
/// lower index, as `Palette::nearest` does, finds) gives back `indices`.
/// Quake's palette holds 11 colours twice (0 and 48, 111 and 192, ...),
/// so a skin that uses the higher of a pair needs its indices kept.
/// Transparent texels (index 255 of a holey model) are index 255 again.
fn nearest_recovers(indices: &[u8], palette: &Palette, holey: bool) -> bool {
    let colors = palette.colors();
    let mut lowest = [0u8; 256];
    for (i, c) in colors.iter().enumerate() {
        lowest[i] = colors.iter().position(|d| d == c).unwrap_or(i) as u8;
    }
    indices
        .iter()
        .all(|&i| lowest[usize::from(i)] == i || (holey && i == 255))
}
