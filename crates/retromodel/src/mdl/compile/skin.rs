//! The skin: the used materials' base colour textures (times their base
//! colour) side by side in one image, quantised to the palette.
//!
//! - **Layout.** One textured material: its texture is the skin, texture
//!   coordinates as they are (clamped to the skin: an MDL's coordinates
//!   are skin pixels, which the software renderer does not wrap). Several
//!   materials: each becomes a tile (its texture times its base colour,
//!   or an 8×8 tile of its colour when it has no image), placed left to
//!   right from the top-left corner; coordinates are clamped into their
//!   tile.
//! - **Height.** A skin taller than the engine loads (id's
//!   `MAX_LBM_HEIGHT`, 480) is scaled down, keeping its aspect (triangle
//!   filter), with a warning.
//! - **Width.** id's loader refuses a width that is not a multiple of 4:
//!   the skin is **padded** on the right with copies of its last column
//!   (not resampled), so every texel keeps its pixel coordinates.
//! - **Palette.** Each texel takes the nearest palette colour in OKLab
//!   ([`Palette::map_image_in_range`]), no dithering, among indices
//!   0–223 only: 224–255 are fullbright (drawn unlit) and would glow in
//!   the dark. The texels of an emissive material (an emissive colour
//!   other than black) take the nearest of the fullbright indices
//!   224–254 instead (255 is transparent in some ports). Alpha is
//!   dropped, with a warning when a used texel was not opaque.

use std::borrow::Cow;

use super::report::CompileWarning;
use crate::error::{Error, Result};
use crate::scene::Scene;
use crate::texture::{Palette, Rgba8Image};

/// The first fullbright index; the last index a skin uses.
const FULLBRIGHT: std::ops::RangeInclusive<u8> = 224..=254;
/// The indices a lit texel uses.
const LIT: std::ops::RangeInclusive<u8> = 0..=223;

/// A material's place in the skin, in pixels of the skin before scaling.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Tile {
    x: u32,
    w: u32,
    h: u32,
}

/// The skin made.
#[derive(Debug, Clone)]
pub(super) struct SkinImage {
    /// Palette indices, row by row.
    pub indices: Vec<u8>,
    /// Width written (a multiple of 4).
    pub width: u32,
    /// Height written.
    pub height: u32,
    /// Per used material (in `used` order), its tile.
    tiles: Vec<(Option<usize>, Tile)>,
    /// Skin pixels per tile pixel (below 1 when scaled down).
    factor: [f32; 2],
}

impl SkinImage {
    /// The skin texel `[s, t]` that `uv` on a triangle of material
    /// `material` falls in (`⌊u · w⌋` in its tile, so the texel's centre
    /// is within half a texel of `uv`), kept inside the tile (never in the
    /// padding nor a neighbour: `u = 1` is the last texel), and whether
    /// `uv` had to be clamped.
    pub fn texel(&self, material: Option<usize>, uv: [f32; 2]) -> ([i32; 2], bool) {
        let tile = self
            .tiles
            .iter()
            .find(|(m, _)| *m == material)
            .map(|(_, t)| *t)
            .unwrap_or(Tile { x: 0, w: 1, h: 1 });
        let mut clamped = false;
        let mut c = |x: f32| {
            if (0.0..=1.0).contains(&x) {
                x
            } else {
                clamped = true;
                if x.is_nan() {
                    0.0
                } else {
                    x.clamp(0.0, 1.0)
                }
            }
        };
        let (u, v) = (c(uv[0]), c(uv[1]));
        let [fx, fy] = self.factor;
        let (x0, x1) = (tile.x as f32 * fx, (tile.x + tile.w) as f32 * fx);
        let y1 = tile.h as f32 * fy;
        let s = ((tile.x as f32 + u * tile.w as f32) * fx).floor();
        let t = (v * tile.h as f32 * fy).floor();
        // The tile's texels: from the one its left edge is in to the one
        // before its right edge.
        let s = s.clamp(x0.floor(), (x1.ceil() - 1.0).max(x0.floor()));
        let t = t.clamp(0.0, (y1.ceil() - 1.0).max(0.0));
        ([s as i32, t as i32], clamped)
    }
}

/// Linear colour to 8-bit sRGB.
fn srgb(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// The largest skin made before scaling, in RGBA8 bytes (256 MiB).
const MAX_BYTES: u64 = 256 << 20;

/// The skin of the `used` materials (in order of first use), quantised to
/// `palette`, at most `max_height` tall.
pub(super) fn build(
    scene: &Scene,
    used: &[Option<usize>],
    palette: &Palette,
    max_height: Option<u32>,
    max_pixels: Option<u64>,
    warnings: &mut Vec<CompileWarning>,
) -> Result<SkinImage> {
    // Each material's tile image and whether it glows.
    let mut tiles: Vec<(Option<usize>, Cow<'_, Rgba8Image>, bool)> = Vec::new();
    for &m in used {
        let material = m.and_then(|m| scene.materials.get(m));
        let color = material.map_or([1.0; 4], |mat| mat.base_color);
        let emissive = material.is_some_and(|mat| mat.emissive.iter().any(|&e| e > 0.0));
        let texture = material
            .and_then(|mat| mat.texture)
            .and_then(|t| scene.textures.get(t).map(|tex| (t, tex)))
            .and_then(|(t, tex)| tex.image.as_ref().map(|i| (t, i)));
        let image = match texture.map(|(t, i)| (t, i.to_pixels())) {
            Some((_, Ok(image))) => Some(image),
            Some((t, Err(err))) => {
                warnings.push(CompileWarning::Skin {
                    message: format!(
                        "texture {t} cannot be decoded ({err}); its material is drawn in its base colour"
                    ),
                });
                None
            }
            None => None,
        };
        let factor = [
            srgb(color[0]),
            srgb(color[1]),
            srgb(color[2]),
            (color[3].clamp(0.0, 1.0) * 255.0).round() as u8,
        ];
        let tile = match image {
            Some(img) if factor == [255; 4] => img,
            Some(img) => {
                let pixels = img
                    .pixels()
                    .chunks_exact(4)
                    .flat_map(|p| {
                        std::array::from_fn::<u8, 4, _>(|k| {
                            ((u16::from(p[k]) * u16::from(factor[k]) + 127) / 255) as u8
                        })
                    })
                    .collect();
                Cow::Owned(
                    Rgba8Image::new(img.width(), img.height(), pixels)
                        .ok_or_else(|| Error::unwritable("skin", "a tinted texture's size"))?,
                )
            }
            None => Cow::Owned(
                Rgba8Image::new(8, 8, factor.repeat(64))
                    .ok_or_else(|| Error::unwritable("skin", "a colour tile's size"))?,
            ),
        };
        tiles.push((m, tile, emissive));
    }
    if tiles.is_empty() {
        tiles.push((
            None,
            Cow::Owned(
                Rgba8Image::new(8, 8, [255u8; 4].repeat(64))
                    .ok_or_else(|| Error::unwritable("skin", "a colour tile's size"))?,
            ),
            false,
        ));
    }
    // Side by side, top-aligned.
    let mut placed = Vec::with_capacity(tiles.len());
    let (mut width, mut height) = (0u32, 0u32);
    for (m, img, _) in &tiles {
        placed.push((
            *m,
            Tile {
                x: width,
                w: img.width(),
                h: img.height(),
            },
        ));
        width = width.saturating_add(img.width());
        height = height.max(img.height());
    }
    if u64::from(width) * u64::from(height) * 4 > MAX_BYTES {
        return Err(Error::unwritable(
            "skin",
            format!("a skin of {width}x{height} pixels is more than {MAX_BYTES} bytes"),
        ));
    }
    // The RGBA skin and, per pixel, whether it glows.
    let mut rgba = vec![0u8; width as usize * height as usize * 4];
    let mut glows = vec![false; width as usize * height as usize];
    let mut translucent = false;
    for ((_, img, emissive), (_, tile)) in tiles.iter().zip(&placed) {
        for y in 0..img.height() {
            let row =
                &img.pixels()[(y * img.width() * 4) as usize..((y + 1) * img.width() * 4) as usize];
            let at = ((y * width + tile.x) * 4) as usize;
            rgba[at..at + row.len()].copy_from_slice(row);
            let g = (y * width + tile.x) as usize;
            glows[g..g + img.width() as usize].fill(*emissive);
            translucent |= row.chunks_exact(4).any(|p| p[3] < 255);
        }
    }
    if translucent {
        warnings.push(CompileWarning::Skin {
            message: "the textures have translucent texels; MDL skins are opaque, so their alpha is dropped".into(),
        });
    }
    let mut image = Rgba8Image::new(width, height, rgba)
        .ok_or_else(|| Error::unwritable("skin", "the skin's size"))?;
    let mut factor = [1.0f32, 1.0];
    // Scaled down, keeping its aspect, to the engine's height and pixel
    // count (after padding the width to a multiple of 4).
    let mut f = 1.0f64;
    if let Some(max) = max_height.filter(|&m| height > m && m > 0) {
        f = f.min(f64::from(max) / f64::from(height));
    }
    let pixels = u64::from(width) * u64::from(height);
    if let Some(max) = max_pixels.filter(|&m| m > 0 && pixels > m) {
        f = f.min((max as f64 / pixels as f64).sqrt());
    }
    if f < 1.0 {
        let nh = ((f64::from(height) * f).floor() as u32).clamp(1, height);
        let mut nw = ((f64::from(width) * f).floor() as u32).clamp(1, width);
        if let Some(max) = max_pixels.filter(|&m| m > 0) {
            while nw > 4 && u64::from(nw.div_ceil(4) * 4) * u64::from(nh) > max {
                nw -= 4;
            }
        }
        if let Some(buffer) = image::RgbaImage::from_raw(width, height, image.pixels().to_vec()) {
            let small =
                image::imageops::resize(&buffer, nw, nh, image::imageops::FilterType::Triangle);
            if let Some(small) = Rgba8Image::new(nw, nh, small.into_raw()) {
                warnings.push(CompileWarning::SkinScaled {
                    from: (width, height),
                    to: (nw, nh),
                });
                glows = (0..nh)
                    .flat_map(|y| {
                        let glows = &glows;
                        (0..nw).map(move |x| {
                            let sx = (u64::from(x) * u64::from(width) / u64::from(nw)) as u32;
                            let sy = (u64::from(y) * u64::from(height) / u64::from(nh)) as u32;
                            glows[(sy * width + sx) as usize]
                        })
                    })
                    .collect();
                factor = [nw as f32 / width as f32, nh as f32 / height as f32];
                image = small;
            }
        }
    }
    let (w, h) = (image.width(), image.height());
    let lit = palette.map_image_in_range(&image, LIT);
    let indices: Vec<u8> = if glows.iter().any(|&g| g) {
        let bright = palette.map_image_in_range(&image, FULLBRIGHT);
        lit.iter()
            .zip(&bright)
            .zip(&glows)
            .map(|((&l, &b), &g)| if g { b } else { l })
            .collect()
    } else {
        lit
    };
    // Pad to a multiple of 4 with the last column.
    let padded = w.div_ceil(4) * 4;
    let indices = if padded == w {
        indices
    } else {
        warnings.push(CompileWarning::SkinPadded {
            from: w,
            to: padded,
        });
        let mut out = Vec::with_capacity(padded as usize * h as usize);
        for row in indices.chunks_exact(w as usize) {
            out.extend_from_slice(row);
            let last = row.last().copied().unwrap_or(0);
            out.resize(out.len() + (padded - w) as usize, last);
        }
        out
    };
    Ok(SkinImage {
        indices,
        width: padded,
        height: h,
        tiles: placed,
        factor,
    })
}
