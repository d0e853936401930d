//! One skin for the whole model: the base colour textures packed into an
//! atlas (or, for an engine that needs a skin when no texture has an
//! image, the materials' colours), and the skin file written as PCX, PNG
//! or TGA.
//!
//! MD2 draws a model with one texture. When the meshes use one texture
//! (and one base colour, which tints it), it is the skin as it is and texture
//! coordinates are kept, even outside 0..1 (Quake II's renderers repeat
//! skins). Otherwise every distinct (texture, base colour) of the used
//! materials becomes a tile of an atlas, its pixels multiplied by the
//! base colour; a material without a texture image gets an 8×8 tile of
//! its colour. Each tile has a one-pixel border copied from its edge, so
//! filtering does not bleed neighbours in. Tiles are packed in shelves
//! (tallest first) into the width, among powers of two and the tiles'
//! own widths, that gives the smallest skin within the engine's skin size
//! limits (UFO:AI's skins are then made square, as its loader needs).
//! Texture coordinates are remapped into their tile; coordinates outside
//! 0..1 are clamped to the tile's edge (an atlas cannot repeat a tile),
//! with a warning.
//!
//! PCX skins are mapped to the given palette by
//! [`Palette::map_image`](crate::texture::Palette::map_image) (nearest
//! colour in OKLab, no dithering); their alpha is dropped, with a warning
//! when there was any.

use std::borrow::Cow;
use std::collections::HashMap;

use super::report::CompileWarning;
use super::{SkinFile, SkinFormat, SkinOptions};
use crate::error::{Error, Result};
use crate::md2::EngineLimits;
use crate::scene::{Scene, TextureImage};
use crate::texture::Rgba8Image;

/// The largest atlas a compile makes, in RGBA8 bytes (256 MiB, as
/// texture decoding allows).
const MAX_ATLAS_BYTES: u64 = 256 << 20;

/// Where a material's texture lies in the skin, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tile {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

/// The packed skin.
#[derive(Debug, Clone)]
pub(crate) struct Atlas {
    /// The skin image.
    pub image: Rgba8Image,
    /// Per material index (`None` for meshes without one): its tile, or
    /// `None` when the skin is one texture used as it is.
    tiles: HashMap<Option<usize>, Option<Tile>>,
    /// The image's size over the size the tiles were laid out in (1 unless
    /// [`Atlas::fit`] shrank it).
    scale: [f32; 2],
    /// The PNG file the image was decoded from, when the skin is one
    /// texture used as it is: a PNG skin is that file, byte for byte (no
    /// pixel lost or changed, and nothing to encode).
    png: Option<Vec<u8>>,
}

impl Atlas {
    /// `uv` of a vertex of a mesh with material `material`, in skin
    /// pixels; `clamped` is set when it had to be clamped into its tile.
    pub fn map(&self, material: Option<usize>, uv: [f32; 2], clamped: &mut bool) -> [f32; 2] {
        let (w, h) = (self.image.width() as f32, self.image.height() as f32);
        let [fx, fy] = self.scale;
        match self.tiles.get(&material).copied().flatten() {
            None => [uv[0] * w, uv[1] * h],
            Some(t) => {
                let mut c = |x: f32| {
                    if (0.0..=1.0).contains(&x) {
                        x
                    } else {
                        *clamped = true;
                        if x.is_nan() {
                            0.0
                        } else {
                            x.clamp(0.0, 1.0)
                        }
                    }
                };
                [
                    (t.x as f32 + c(uv[0]) * t.w as f32) * fx,
                    (t.y as f32 + c(uv[1]) * t.h as f32) * fy,
                ]
            }
        }
    }

    /// The atlas shrunk (keeping its aspect, with a triangle filter) to
    /// the largest size the engine's skin limits allow, with a warning,
    /// when it is larger; texture coordinates follow.
    pub fn fit(mut self, limits: &EngineLimits, warnings: &mut Vec<CompileWarning>) -> Atlas {
        let (w, h) = (self.image.width(), self.image.height());
        let limit =
            |m: Option<i32>, v: u32| m.map_or(1.0, |m| (m.max(1) as f64 / f64::from(v)).min(1.0));
        let f = limit(limits.max_skin_width, w).min(limit(limits.max_skin_height, h));
        if f >= 1.0 {
            return self;
        }
        let nw = ((f64::from(w) * f).floor() as u32).max(1);
        let nh = ((f64::from(h) * f).floor() as u32).max(1);
        let Some(buffer) = image::RgbaImage::from_raw(w, h, self.image.pixels().to_vec()) else {
            return self;
        };
        let small = image::imageops::resize(&buffer, nw, nh, image::imageops::FilterType::Triangle);
        let Some(image) = Rgba8Image::new(nw, nh, small.into_raw()) else {
            return self;
        };
        warnings.push(CompileWarning::SkinScaled {
            from: (w, h),
            to: (nw, nh),
        });
        self.scale = [
            self.scale[0] * nw as f32 / w as f32,
            self.scale[1] * nh as f32 / h as f32,
        ];
        self.image = image;
        self.png = None;
        self
    }
}

/// Linear colour to 8-bit sRGB.
fn srgb(c: f32) -> u8 {
    let c = if c.is_finite() {
        c.clamp(0.0, 1.0)
    } else {
        1.0
    };
    let s = if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// A tile's image: the texture times the base colour, or a flat colour.
fn tile_image(texture: Option<&Rgba8Image>, color: [f32; 4]) -> Option<Rgba8Image> {
    let factor = [
        srgb(color[0]),
        srgb(color[1]),
        srgb(color[2]),
        (color[3].clamp(0.0, 1.0) * 255.0).round() as u8,
    ];
    match texture {
        Some(img) => {
            if factor == [255; 4] {
                return Some(img.clone());
            }
            let pixels = img
                .pixels()
                .chunks_exact(4)
                .flat_map(|p| {
                    std::array::from_fn::<u8, 4, _>(|k| {
                        ((u16::from(p[k]) * u16::from(factor[k]) + 127) / 255) as u8
                    })
                })
                .collect();
            Rgba8Image::new(img.width(), img.height(), pixels)
        }
        None => Rgba8Image::new(8, 8, factor.repeat(64)),
    }
}

/// Shelf-packs slots of `sizes` into `width`: the positions and the
/// height used, or `None` when a slot is wider than `width`.
fn shelf_pack(sizes: &[(u32, u32)], width: u32) -> Option<(Vec<(u32, u32)>, u32)> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i].1));
    let mut at = vec![(0, 0); sizes.len()];
    let (mut x, mut y, mut shelf) = (0u32, 0u32, 0u32);
    for i in order {
        let (w, h) = sizes[i];
        if w > width {
            return None;
        }
        if x + w > width {
            y += shelf;
            x = 0;
            shelf = 0;
        }
        at[i] = (x, y);
        x += w;
        shelf = shelf.max(h);
    }
    Some((at, y + shelf))
}

/// A packing tried: (over the engine's size limits, area, width,
/// height, each slot's position).
type Packing = (bool, u64, u32, u32, Vec<(u32, u32)>);

/// The used materials' skin, or `None` when no used material has a
/// texture image (then texture coordinates stay as they are), unless
/// the engine needs a skin and none is named (`unnamed`, which the
/// caller sets only when the skin can be written): then the skin
/// is the materials' colours, an 8×8 tile each, with a warning, so that
/// the model names a skin file that is written rather than one that is
/// not.
pub(crate) fn build_atlas(
    scene: &Scene,
    used: &[Option<usize>],
    limits: &EngineLimits,
    unnamed: bool,
    warnings: &mut Vec<CompileWarning>,
) -> Result<Option<Atlas>> {
    // The decoded texture of each used material, and its colour.
    let mut decoded: HashMap<usize, Option<Cow<'_, Rgba8Image>>> = HashMap::new();
    let mut looks = Vec::new();
    for &m in used {
        let material = m.and_then(|m| scene.materials.get(m));
        let texture = material.and_then(|mat| mat.texture);
        if let Some(t) = texture {
            if let std::collections::hash_map::Entry::Vacant(e) = decoded.entry(t) {
                let image = match scene.textures.get(t).and_then(|t| t.image.as_ref()) {
                    None => None,
                    Some(image) => match image.to_pixels() {
                        Ok(i) => Some(i),
                        Err(err) => {
                            warnings.push(CompileWarning::Skin {
                                message: format!("texture {t} cannot be decoded ({err}); its material is drawn untextured, in its base colour"),
                            });
                            None
                        }
                    },
                };
                e.insert(image);
            }
        }
        let texture = texture.filter(|t| decoded.get(t).is_some_and(Option::is_some));
        let color = material.map_or([1.0; 4], |mat| mat.base_color);
        looks.push((m, texture, color));
    }
    if looks.iter().all(|l| l.1.is_none()) {
        if !(unnamed && limits.min_skins > 0) {
            return Ok(None);
        }
        warnings.push(CompileWarning::Skin {
            message: "no texture image, and the engine needs a skin: it is made of the materials' colours".to_string(),
        });
    }
    // One texture and one colour: the skin is that texture (tinted by the
    // colour unless white), whole, UVs as they are: no tile, no border, so
    // a skin that fits the engine stays within its limits.
    let (first, first_color) = (looks[0].1, looks[0].2);
    if looks.iter().all(|l| l.1 == first && l.2 == first_color) {
        let texture = first
            .and_then(|t| decoded.get(&t))
            .and_then(Option::as_deref);
        let image = if first_color == [1.0; 4] {
            texture.cloned()
        } else {
            texture.and_then(|t| tile_image(Some(t), first_color))
        };
        if let Some(image) = image {
            let tiles = looks.iter().map(|l| (l.0, None)).collect();
            let png = match first.and_then(|t| scene.textures.get(t)?.image.as_ref()) {
                Some(TextureImage::Png(bytes)) if first_color == [1.0; 4] => Some(bytes.clone()),
                _ => None,
            };
            return Ok(Some(Atlas {
                image,
                tiles,
                scale: [1.0; 2],
                png,
            }));
        }
    }
    // Distinct looks become tiles.
    let mut keys: Vec<(Option<usize>, [u32; 4])> = Vec::new();
    let mut tile_of = HashMap::new();
    let mut images = Vec::new();
    for &(m, texture, color) in &looks {
        let key = (texture, color.map(f32::to_bits));
        let index = match keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                keys.push(key);
                let tex = texture
                    .and_then(|t| decoded.get(&t))
                    .and_then(Option::as_deref);
                images.push(tile_image(tex, color).ok_or_else(|| Error::InvalidOptions {
                    message: "cannot make a skin tile".to_string(),
                })?);
                keys.len() - 1
            }
        };
        tile_of.insert(m, index);
    }
    let slots: Vec<(u32, u32)> = images
        .iter()
        .map(|i| (i.width() + 2, i.height() + 2))
        .collect();
    let widest = slots.iter().map(|s| s.0).max().unwrap_or(1);
    let total: u32 = slots.iter().map(|s| s.0).sum();
    let mut widths: Vec<u32> = vec![widest, total];
    let mut p = widest.next_power_of_two();
    while p <= total.max(widest).next_power_of_two() && p <= 8192 {
        widths.push(p);
        p *= 2;
    }
    if let Some(w) = limits.max_skin_width {
        widths.push(w.max(0) as u32);
    }
    let fits = |w: u32, h: u32| {
        limits
            .max_skin_width
            .is_none_or(|m| i64::from(w) <= i64::from(m))
            && limits
                .max_skin_height
                .is_none_or(|m| i64::from(h) <= i64::from(m))
    };
    let mut best: Option<Packing> = None;
    for w in widths {
        let Some((at, h)) = shelf_pack(&slots, w) else {
            continue;
        };
        let used_w = at
            .iter()
            .zip(&slots)
            .map(|(a, s)| a.0 + s.0)
            .max()
            .unwrap_or(w);
        let (mut ww, mut hh) = (used_w, h);
        if limits.square_skin {
            ww = ww.max(hh);
            hh = ww;
        }
        let candidate = (!fits(ww, hh), u64::from(ww) * u64::from(hh), ww, hh, at);
        let better = match &best {
            None => true,
            Some(b) => {
                (candidate.0, candidate.1, candidate.2.max(candidate.3)) < (b.0, b.1, b.2.max(b.3))
            }
        };
        if better {
            best = Some(candidate);
        }
    }
    let Some((_, _, width, height, at)) = best else {
        return Err(Error::InvalidOptions {
            message: "cannot pack the skin".to_string(),
        });
    };
    let bytes = u64::from(width) * u64::from(height) * 4;
    if bytes > MAX_ATLAS_BYTES {
        return Err(Error::InvalidOptions {
            message: format!(
                "the textures pack into a {width}x{height} skin, over the {MAX_ATLAS_BYTES} bytes a compile allocates; use fewer or smaller textures"
            ),
        });
    }
    let mut pixels = vec![0u8; width as usize * height as usize * 4];
    let mut tiles_rect = Vec::new();
    for (img, &(sx, sy)) in images.iter().zip(&at) {
        let (w, h) = (img.width(), img.height());
        // Slot (w + 2) × (h + 2): the image at (1, 1), its edges repeated
        // into the border.
        for y in 0..h + 2 {
            for x in 0..w + 2 {
                let src_x = x.saturating_sub(1).min(w - 1);
                let src_y = y.saturating_sub(1).min(h - 1);
                let px = img.pixel(src_x, src_y).unwrap_or([0; 4]);
                let at = ((sy + y) as usize * width as usize + (sx + x) as usize) * 4;
                if let Some(dst) = pixels.get_mut(at..at + 4) {
                    dst.copy_from_slice(&px);
                }
            }
        }
        tiles_rect.push(Tile {
            x: sx + 1,
            y: sy + 1,
            w,
            h,
        });
    }
    let image = Rgba8Image::new(width, height, pixels).ok_or_else(|| Error::InvalidOptions {
        message: "skin size overflow".to_string(),
    })?;
    let tiles = tile_of
        .into_iter()
        .map(|(m, i)| (m, Some(tiles_rect[i])))
        .collect();
    Ok(Some(Atlas {
        image,
        tiles,
        scale: [1.0; 2],
        png: None,
    }))
}

/// The skin file of `atlas` in the chosen format.
pub(crate) fn write_skin(
    atlas: &Atlas,
    name: String,
    options: &SkinOptions,
    warnings: &mut Vec<CompileWarning>,
) -> Result<SkinFile> {
    let err = |e| Error::Texture {
        context: format!("skin {name}"),
        source: e,
    };
    let image = &atlas.image;
    let bytes = match options.format {
        SkinFormat::Pcx => {
            let Some(palette) = &options.palette else {
                return Err(Error::InvalidOptions {
                    message: "a PCX skin needs a 256-colour palette".to_string(),
                }
                .advised(crate::advice::Advice::new(
                    None,
                    vec![
                        crate::advice::Remedy::Palette,
                        crate::advice::Remedy::SkinPngOrTga,
                    ],
                )));
            };
            if !image.is_opaque() {
                warnings.push(CompileWarning::Skin {
                    message: "the skin has transparent pixels; an 8-bit PCX skin has no alpha, so they are written opaque".to_string(),
                });
            }
            let indices = palette.map_image(image);
            crate::texture::pcx::encode(image.width(), image.height(), &indices, palette)
                .map_err(err)?
        }
        SkinFormat::Png => match &atlas.png {
            Some(png) => png.clone(),
            None => image.to_png().map_err(err)?,
        },
        SkinFormat::Tga => image.to_tga().map_err(err)?,
    };
    Ok(SkinFile {
        name,
        format: options.format,
        bytes,
    })
}
