//! Textures for the rasteriser: sRGB images with a mipmap chain, sampled
//! as a GPU samples glTF's default sampler (trilinear, repeat).

use std::sync::OnceLock;

use crate::texture::Rgba8Image;

/// Textures larger than this on a side are box-filtered down (by halving)
/// before use: more detail than this never reaches an image of at most
/// 8192 pixels, and it bounds the memory a texture takes.
pub const MAX_TEXTURE_SIDE: u32 = 2048;

/// sRGB-encoded value (0–255) to linear light (0–1).
pub(crate) fn srgb_to_linear_table() -> &'static [f32; 256] {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0.0; 256];
        for (i, v) in t.iter_mut().enumerate() {
            let c = i as f64 / 255.0;
            *v = if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            } as f32;
        }
        t
    })
}

/// Entries of the linear-to-sRGB table.
const ENCODE_STEPS: usize = 4096;

/// Linear light (0–1) to sRGB-encoded, 0–1 (exact formula).
pub(crate) fn linear_to_srgb(l: f64) -> f64 {
    let l = l.clamp(0.0, 1.0);
    if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// The linear-to-sRGB table of [`encode_srgb`]: [`ENCODE_STEPS`] + 1
/// entries.
fn encode_table() -> &'static [f32] {
    static TABLE: OnceLock<Vec<f32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=ENCODE_STEPS)
            .map(|i| linear_to_srgb(i as f64 / ENCODE_STEPS as f64) as f32)
            .collect()
    })
}

/// [`encode_srgb`] through `table` ([`encode_table`]).
#[inline]
fn encode_with(table: &[f32], l: f32) -> f32 {
    let x = if l.is_nan() { 0.0 } else { l.clamp(0.0, 1.0) } * ENCODE_STEPS as f32;
    let i = (x as usize).min(ENCODE_STEPS - 1);
    let f = x - i as f32;
    match (table.get(i), table.get(i + 1)) {
        (Some(&a), Some(&b)) => a + (b - a) * f,
        _ => 0.0,
    }
}

/// Linear light (0–1) to sRGB-encoded (0–1), through a table of
/// [`ENCODE_STEPS`] entries with linear interpolation (within 1/1000 of a
/// level of the exact formula).
pub(crate) fn encode_srgb(l: f32) -> f32 {
    encode_with(encode_table(), l)
}

/// One mipmap level: RGBA, sRGB colour and linear alpha, 8 bits each.
#[derive(Debug, Clone)]
struct Level {
    width: usize,
    height: usize,
    pixels: Vec<[u8; 4]>,
}

/// A texture ready to sample.
#[derive(Debug, Clone)]
pub struct MipTexture {
    levels: Vec<Level>,
}

/// The half-size level of `level` (each pixel the mean of a 2×2 block in
/// linear light; of an odd size, the last row or column is left out, as
/// `floor(size / 2)` levels do, and a side of 1 stays 1).
fn halve(level: &Level) -> Level {
    let lin = srgb_to_linear_table();
    let table = encode_table();
    let (w, h) = ((level.width / 2).max(1), (level.height / 2).max(1));
    let to_u8 = |v: f32| (v * 255.0 + 0.5).clamp(0.0, 255.0) as u8;
    // The mean of `n` texels whose sums are `sum` (linear colour, alpha).
    let mean = |sum: [f32; 4], n: f32| {
        [
            to_u8(encode_with(table, sum[0] / n)),
            to_u8(encode_with(table, sum[1] / n)),
            to_u8(encode_with(table, sum[2] / n)),
            to_u8(sum[3] / n),
        ]
    };
    let mut pixels = Vec::with_capacity(w * h);
    if level.width >= 2 && level.height >= 2 {
        // Whole 2×2 blocks: texels summed in the order of the general
        // case below (row by row), so the result is the same.
        for y in 0..h {
            let top = &level.pixels[2 * y * level.width..][..2 * w];
            let bottom = &level.pixels[(2 * y + 1) * level.width..][..2 * w];
            for (t, b) in top.chunks_exact(2).zip(bottom.chunks_exact(2)) {
                let mut sum = [0.0f32; 4];
                for p in [t[0], t[1], b[0], b[1]] {
                    for k in 0..3 {
                        sum[k] += lin[usize::from(p[k])];
                    }
                    sum[3] += f32::from(p[3]) / 255.0;
                }
                pixels.push(mean(sum, 4.0));
            }
        }
    } else {
        return halve_by_blocks(level);
    }
    Level {
        width: w,
        height: h,
        pixels,
    }
}

/// [`halve`] for any size, block by block (what it does for a side of 1).
fn halve_by_blocks(level: &Level) -> Level {
    let lin = srgb_to_linear_table();
    let (w, h) = ((level.width / 2).max(1), (level.height / 2).max(1));
    let to_u8 = |v: f32| (v * 255.0 + 0.5).clamp(0.0, 255.0) as u8;
    let mut pixels = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0.0f32; 4];
            let mut n = 0.0;
            for sy in (2 * y)..(2 * y + 2).min(level.height) {
                for sx in (2 * x)..(2 * x + 2).min(level.width) {
                    let p = level.pixels[sy * level.width + sx];
                    for k in 0..3 {
                        sum[k] += lin[usize::from(p[k])];
                    }
                    sum[3] += f32::from(p[3]) / 255.0;
                    n += 1.0;
                }
            }
            pixels.push([
                to_u8(encode_srgb(sum[0] / n)),
                to_u8(encode_srgb(sum[1] / n)),
                to_u8(encode_srgb(sum[2] / n)),
                to_u8(sum[3] / n),
            ]);
        }
    }
    Level {
        width: w,
        height: h,
        pixels,
    }
}

impl MipTexture {
    /// The texture of `image` with its whole mipmap chain down to 1×1
    /// (after halving it to at most [`MAX_TEXTURE_SIDE`] on a side).
    pub fn new(image: &Rgba8Image) -> MipTexture {
        let mut level = Level {
            width: image.width() as usize,
            height: image.height() as usize,
            pixels: image
                .pixels()
                .chunks_exact(4)
                .map(|p| [p[0], p[1], p[2], p[3]])
                .collect(),
        };
        while level.width.max(level.height) > MAX_TEXTURE_SIDE as usize {
            level = halve(&level);
        }
        let mut levels = vec![level];
        while let Some(last) = levels.last().filter(|l| l.width > 1 || l.height > 1) {
            let next = halve(last);
            levels.push(next);
        }
        MipTexture { levels }
    }

    /// The size of the largest level.
    pub fn size(&self) -> (usize, usize) {
        self.levels.first().map_or((1, 1), |l| (l.width, l.height))
    }

    /// Bilinear sample of level `level` at `(u, v)` (repeating), in
    /// linear light with linear alpha.
    fn bilinear(&self, level: usize, u: f32, v: f32) -> [f32; 4] {
        let Some(l) = self.levels.get(level) else {
            return [1.0; 4];
        };
        let lin = srgb_to_linear_table();
        let wrap = |i: i64, n: usize| i.rem_euclid(n as i64) as usize;
        let x = f64::from(u) * l.width as f64 - 0.5;
        let y = f64::from(v) * l.height as f64 - 0.5;
        let (x, y) = (
            if x.is_finite() { x } else { 0.0 },
            if y.is_finite() { y } else { 0.0 },
        );
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = ((x - x0) as f32, (y - y0) as f32);
        // Far outside [0, 1] the repeat is taken first, in f64, so that
        // the integer corners stay exact.
        let (x0, y0) = ((x0 % l.width as f64) as i64, (y0 % l.height as f64) as i64);
        let (xa, xb) = (wrap(x0, l.width), wrap(x0 + 1, l.width));
        let (ya, yb) = (wrap(y0, l.height), wrap(y0 + 1, l.height));
        let texel = |x: usize, y: usize| l.pixels[y * l.width + x];
        let corners = [
            (texel(xa, ya), (1.0 - fx) * (1.0 - fy)),
            (texel(xb, ya), fx * (1.0 - fy)),
            (texel(xa, yb), (1.0 - fx) * fy),
            (texel(xb, yb), fx * fy),
        ];
        let mut out = [0.0f32; 4];
        for (p, w) in corners {
            for k in 0..3 {
                out[k] += lin[usize::from(p[k])] * w;
            }
            out[3] += f32::from(p[3]) / 255.0 * w;
        }
        out
    }

    /// The texture at `(u, v)` (repeating) for a pixel whose footprint is
    /// `rho` texels of the largest level across: bilinear when magnified
    /// (`rho ≤ 1`), else trilinear between the two nearest mipmap levels
    /// (OpenGL's `LINEAR` / `LINEAR_MIPMAP_LINEAR`). Linear light, linear
    /// alpha.
    pub fn sample(&self, u: f32, v: f32, rho: f32) -> [f32; 4] {
        let lambda = if rho.is_finite() && rho > 1.0 {
            rho.log2()
        } else {
            0.0
        };
        let last = self.levels.len().saturating_sub(1);
        if lambda <= 0.0 || last == 0 {
            return self.bilinear(0, u, v);
        }
        let l0 = (lambda.floor() as usize).min(last);
        let l1 = (l0 + 1).min(last);
        let f = if l0 == last {
            0.0
        } else {
            lambda - lambda.floor()
        };
        let a = self.bilinear(l0, u, v);
        if f == 0.0 {
            return a;
        }
        let b = self.bilinear(l1, u, v);
        [0, 1, 2, 3].map(|k| a[k] + (b[k] - a[k]) * f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_tables_match_the_formulas() {
        let lin = srgb_to_linear_table();
        assert_eq!(lin[0], 0.0);
        assert!((lin[255] - 1.0).abs() < 1e-6);
        // sRGB 128 is 21.6 % linear light (IEC 61966-2-1).
        assert!((lin[128] - 0.2158605).abs() < 1e-5);
        for i in 0..=255u8 {
            let back = encode_srgb(lin[usize::from(i)]) * 255.0;
            assert!((back - f32::from(i)).abs() < 0.01, "{i}: {back}");
        }
    }

    #[test]
    fn samples_repeat_and_filter() {
        // 2×1: black | white. The centre of texel 0 is black, halfway
        // between the centres is 50 % linear light, and u + 1 is u.
        let image = Rgba8Image::new(2, 1, vec![0, 0, 0, 255, 255, 255, 255, 255]).unwrap();
        let t = MipTexture::new(&image);
        assert_eq!(t.levels.len(), 2);
        assert_eq!(t.sample(0.25, 0.5, 1.0)[0], 0.0);
        assert!((t.sample(0.5, 0.5, 1.0)[0] - 0.5).abs() < 1e-6);
        assert_eq!(t.sample(1.25, 0.5, 1.0), t.sample(0.25, 0.5, 1.0));
        assert_eq!(t.sample(-0.75, 7.5, 1.0), t.sample(0.25, 0.5, 1.0));
        // Minified by 2 the pixel sees the 1×1 level: the mean in linear
        // light.
        assert!((t.sample(0.25, 0.5, 2.0)[0] - 0.5).abs() < 0.01);
        // No panic on anything.
        for x in [f32::NAN, f32::INFINITY, -1e30, 1e30] {
            let s = t.sample(x, x, x);
            assert!(s.iter().all(|v| v.is_finite()));
        }
    }

    #[test]
    fn halving_whole_blocks_is_halving_block_by_block() {
        // Pseudo-random texels (a fixed LCG), odd and even sizes.
        let mut seed = 12345u32;
        for (width, height) in [(2, 2), (7, 5), (64, 33), (3, 2)] {
            let pixels = (0..width * height)
                .map(|_| {
                    [0; 4].map(|_| {
                        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                        (seed >> 24) as u8
                    })
                })
                .collect();
            let level = Level {
                width,
                height,
                pixels,
            };
            let (a, b) = (halve(&level), halve_by_blocks(&level));
            assert_eq!((a.width, a.height), (b.width, b.height));
            assert_eq!(a.pixels, b.pixels, "{width}x{height}");
        }
    }

    #[test]
    fn large_textures_are_halved_first() {
        let image = Rgba8Image::new(4100, 1, vec![255; 4100 * 4]).unwrap();
        let t = MipTexture::new(&image);
        assert_eq!(t.size(), (1025, 1));
    }
}
