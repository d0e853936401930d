//! 256-colour palettes, and mapping true-colour images onto them.
//!
//! The nearest colour is chosen by Euclidean distance in the OKLab
//! colour space (Björn Ottosson's perceptual space: sRGB decoded to
//! linear light, then a fixed matrix, cube roots and a second matrix),
//! where equal distances look about equally different; plain RGB
//! distance over-weights blue and under-weights green. No dithering:
//! skins are small and hand-painted, and error diffusion turns their flat
//! areas into noise that 8-bit renderers then light unevenly. Ties go to
//! the lower index.

use std::collections::HashMap;

use super::Rgba8Image;
#[cfg(feature = "textures")]
use super::{ImageFormat, TextureError};

/// A palette of 256 RGB colours, as Quake II's PCX skins (and its
/// `pics/colormap.pcx`) carry at their end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    colors: [[u8; 3]; 256],
}

impl Palette {
    /// A palette from 256 colours.
    pub fn new(colors: [[u8; 3]; 256]) -> Palette {
        Palette { colors }
    }

    #[cfg(feature = "textures")]
    /// The palette at the end of an 8-bit PCX file: the `0x0C` marker
    /// and 768 bytes, the last 769 bytes of the file. Quake II's own
    /// palette is in `baseq2/pics/colormap.pcx` (retromodel does not ship
    /// it: it is id's game data).
    ///
    /// ```
    /// use retromodel::texture::Palette;
    /// let pcx = retromodel::md2::sample::sample_skin_pcx();
    /// let palette = Palette::from_pcx(&pcx).unwrap();
    /// assert_eq!(palette.colors()[1], [40, 90, 170]);
    /// assert!(Palette::from_pcx(b"not a pcx").is_err());
    /// ```
    pub fn from_pcx(data: &[u8]) -> Result<Palette, TextureError> {
        let header = super::pcx::Header::parse(data)?;
        if (header.bits_per_pixel, header.planes) != (8, 1) {
            return Err(TextureError::Unsupported {
                format: ImageFormat::Pcx,
                message: format!(
                    "{} bits per pixel in {} planes has no 256-colour palette",
                    header.bits_per_pixel, header.planes
                ),
            });
        }
        let Some(at) = data.len().checked_sub(769).filter(|&a| a >= 128) else {
            return Err(TextureError::truncated(
                ImageFormat::Pcx,
                "256-colour palette",
                128,
                769,
                data.len(),
            ));
        };
        if data[at] != super::pcx::PALETTE_MARKER {
            return Err(TextureError::invalid(
                ImageFormat::Pcx,
                format!(
                    "no 256-colour palette: the byte 769 bytes before the end is {:#04x}, expected 0x0c",
                    data[at]
                ),
                at as u64,
            ));
        }
        Palette::from_raw_768(&data[at + 1..])
    }

    #[cfg(feature = "textures")]
    /// A palette from 768 bytes of RGB triplets (a `.pal` or `.lmp`
    /// palette file, such as Quake's `palette.lmp`).
    pub fn from_raw_768(data: &[u8]) -> Result<Palette, TextureError> {
        if data.len() != 768 {
            return Err(TextureError::invalid(
                ImageFormat::Pcx,
                format!(
                    "a palette is 768 bytes (256 RGB colours), not {}",
                    data.len()
                ),
                0,
            ));
        }
        let mut colors = [[0u8; 3]; 256];
        for (c, rgb) in colors.iter_mut().zip(data.chunks_exact(3)) {
            *c = [rgb[0], rgb[1], rgb[2]];
        }
        Ok(Palette { colors })
    }

    /// The 256 colours.
    pub fn colors(&self) -> &[[u8; 3]; 256] {
        &self.colors
    }

    /// The 768 bytes of the palette.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// The index of the colour nearest to `rgb` (see the module
    /// documentation).
    ///
    /// ```
    /// use retromodel::texture::Palette;
    /// let mut colors = [[0u8; 3]; 256];
    /// colors[7] = [250, 10, 10];
    /// colors[9] = [10, 10, 250];
    /// let p = Palette::new(colors);
    /// assert_eq!(p.nearest([200, 0, 0]), 7);
    /// assert_eq!(p.nearest([0, 0, 0]), 0);
    /// ```
    pub fn nearest(&self, rgb: [u8; 3]) -> u8 {
        let lab = self.lab();
        nearest_in(&lab, oklab(rgb))
    }

    /// The image's pixels as palette indices, row by row (alpha is not
    /// looked at).
    pub fn map_image(&self, image: &Rgba8Image) -> Vec<u8> {
        let lab = self.lab();
        let mut cache: HashMap<[u8; 3], u8> = HashMap::new();
        image
            .pixels()
            .chunks_exact(4)
            .map(|p| {
                let rgb = [p[0], p[1], p[2]];
                *cache
                    .entry(rgb)
                    .or_insert_with(|| nearest_in(&lab, oklab(rgb)))
            })
            .collect()
    }

    /// [`Palette::nearest`] among the indices in `range` only (Quake's
    /// skins keep off the fullbright indices 224–255 unless a texel
    /// should glow): the index in `range` whose colour is nearest to
    /// `rgb`, ties to the lower index.
    ///
    /// ```
    /// use retromodel::texture::Palette;
    /// let mut colors = [[0u8; 3]; 256];
    /// colors[10] = [200, 0, 0];
    /// colors[230] = [250, 0, 0];
    /// let p = Palette::new(colors);
    /// assert_eq!(p.nearest([250, 0, 0]), 230);
    /// assert_eq!(p.nearest_in_range([250, 0, 0], 0..=223), 10);
    /// ```
    pub fn nearest_in_range(&self, rgb: [u8; 3], range: std::ops::RangeInclusive<u8>) -> u8 {
        let lab = self.lab();
        nearest_in_range(&lab, oklab(rgb), range)
    }

    /// [`Palette::map_image`] with every pixel mapped among the indices
    /// in `range` only ([`Palette::nearest_in_range`]).
    pub fn map_image_in_range(
        &self,
        image: &Rgba8Image,
        range: std::ops::RangeInclusive<u8>,
    ) -> Vec<u8> {
        let lab = self.lab();
        let mut cache: HashMap<[u8; 3], u8> = HashMap::new();
        image
            .pixels()
            .chunks_exact(4)
            .map(|p| {
                let rgb = [p[0], p[1], p[2]];
                *cache
                    .entry(rgb)
                    .or_insert_with(|| nearest_in_range(&lab, oklab(rgb), range.clone()))
            })
            .collect()
    }

    fn lab(&self) -> Vec<[f32; 3]> {
        self.colors.iter().map(|&c| oklab(c)).collect()
    }
}

fn nearest_in(lab: &[[f32; 3]], c: [f32; 3]) -> u8 {
    let mut best = (f32::INFINITY, 0usize);
    for (i, p) in lab.iter().enumerate() {
        let d = (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2) + (p[2] - c[2]).powi(2);
        if d < best.0 {
            best = (d, i);
        }
    }
    // At most 255: the palette has 256 entries.
    best.1 as u8
}

/// [`nearest_in`] among the indices of `range` (an empty range gives its
/// start).
fn nearest_in_range(lab: &[[f32; 3]], c: [f32; 3], range: std::ops::RangeInclusive<u8>) -> u8 {
    let start = *range.start();
    let mut best = (f32::INFINITY, start);
    for i in range {
        let p = lab[usize::from(i)];
        let d = (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2) + (p[2] - c[2]).powi(2);
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1
}

/// sRGB (8 bits per channel) to OKLab.
fn oklab(rgb: [u8; 3]) -> [f32; 3] {
    let lin = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (lin(rgb[0]), lin(rgb[1]), lin(rgb[2]));
    let l = 0.412_221_46 * r + 0.536_332_55 * g + 0.051_445_995 * b;
    let m = 0.211_903_5 * r + 0.680_699_5 * g + 0.107_396_96 * b;
    let s = 0.088_302_46 * r + 0.281_718_85 * g + 0.629_978_7 * b;
    let (l, m, s) = (l.cbrt(), m.cbrt(), s.cbrt());
    [
        0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
        1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
        0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oklab_of_white_and_black() {
        let w = oklab([255, 255, 255]);
        assert!((w[0] - 1.0).abs() < 1e-3 && w[1].abs() < 1e-3 && w[2].abs() < 1e-3);
        assert_eq!(oklab([0, 0, 0]), [0.0, 0.0, 0.0]);
    }

    #[test]
    fn perceptual_not_rgb_distance() {
        // Mid grey (128) is nearer, by RGB distance, to dark grey 60 (68
        // per channel) than to light grey 200 (72 per channel); to the
        // eye (and in OKLab, whose lightness follows perception) 128 is
        // nearer 200.
        let mut colors = [[255u8; 3]; 256];
        colors[0] = [60, 60, 60];
        colors[1] = [200, 200, 200];
        let p = Palette::new(colors);
        assert_eq!(p.nearest([128, 128, 128]), 1);
        assert_eq!(p.nearest([60, 60, 61]), 0);
    }
}
