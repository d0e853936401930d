//! Alpha maps: a second image whose intensity is a texture's opacity (a
//! MilkShape material names one beside its texture). glTF keeps opacity in
//! the base colour texture's alpha channel, so the two become one RGBA
//! image.

use image::imageops::{resize, FilterType};
use image::{GrayImage, Luma};

use super::Rgba8Image;

/// The luma of an 8-bit RGB colour with the Rec. 709 weights
/// `0.2126 R + 0.7152 G + 0.0722 B` (those of the `image` crate's grey
/// conversion), rounded; a grey `(v, v, v)` gives `v`.
fn luma(p: &[u8]) -> u8 {
    let [r, g, b] = [0, 1, 2].map(|i| u32::from(p.get(i).copied().unwrap_or(0)));
    let y = (2126 * r + 7152 * g + 722 * b + 5000) / 10000;
    u8::try_from(y).unwrap_or(u8::MAX)
}

/// The opacity each pixel of `alpha_map` gives: its luma, or, when the
/// image has transparent pixels, its alpha.
fn opacity(alpha_map: &Rgba8Image) -> GrayImage {
    let use_alpha = !alpha_map.is_opaque();
    let width = alpha_map.width();
    let pixels = alpha_map.pixels();
    GrayImage::from_fn(width, alpha_map.height(), |x, y| {
        let at = (y as usize * width as usize + x as usize) * 4;
        let p = pixels.get(at..at + 4).unwrap_or(&[0; 4]);
        Luma([if use_alpha { p[3] } else { luma(p) }])
    })
}

/// Applies an alpha map to a base colour image: the result has the base's
/// size and colours, and as alpha the opacity the alpha map gives.
///
/// - **Opacity** is the alpha map's luma (`0.2126 R + 0.7152 G + 0.0722 B`,
///   so a grey level `v` gives `v`): white is opaque, black clear. An alpha
///   map that has transparent pixels of its own carries its opacity in its
///   alpha channel instead, and that is used (such an image is usually a
///   texture with an alpha channel named again as its alpha map, whose
///   colours are not meant as opacity).
/// - **Size.** An alpha map of another size than the base is resized to it
///   first, bilinearly (the `image` crate's `Triangle` filter, which
///   averages over every pixel a target pixel covers when shrinking).
/// - **No base** (`None`: the material has no texture, or it cannot be
///   had) means a white base of the alpha map's size.
/// - The base's own alpha, if it has any, is replaced: the alpha map
///   decides. (Multiplying would square the alpha of the common case
///   where a texture with an alpha channel is named as its own alpha map.)
///
/// ```
/// use retromodel::texture::{apply_alpha_map, Rgba8Image};
///
/// let base = Rgba8Image::new(2, 1, vec![200, 100, 50, 255, 10, 20, 30, 255]).unwrap();
/// let alpha = Rgba8Image::new(2, 1, vec![0, 0, 0, 255, 128, 128, 128, 255]).unwrap();
/// let out = apply_alpha_map(Some(&base), &alpha);
/// assert_eq!(out.pixel(0, 0), Some([200, 100, 50, 0]));
/// assert_eq!(out.pixel(1, 0), Some([10, 20, 30, 128]));
/// let white = apply_alpha_map(None, &alpha);
/// assert_eq!(white.pixel(1, 0), Some([255, 255, 255, 128]));
/// ```
pub fn apply_alpha_map(base: Option<&Rgba8Image>, alpha_map: &Rgba8Image) -> Rgba8Image {
    let mut opacity = opacity(alpha_map);
    let (width, height, mut pixels) = match base {
        Some(b) => (b.width(), b.height(), b.pixels().to_vec()),
        None => (
            alpha_map.width(),
            alpha_map.height(),
            vec![u8::MAX; alpha_map.pixels().len()],
        ),
    };
    if opacity.dimensions() != (width, height) {
        opacity = resize(&opacity, width, height, FilterType::Triangle);
    }
    for (p, &a) in pixels.chunks_exact_mut(4).zip(opacity.as_raw()) {
        p[3] = a;
    }
    Rgba8Image {
        width,
        height,
        pixels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32, height: u32, pixels: &[[u8; 4]]) -> Rgba8Image {
        Rgba8Image::new(width, height, pixels.concat()).unwrap()
    }

    #[test]
    fn grey_levels_and_colours_give_their_luma() {
        let base = image(4, 1, &[[9, 8, 7, 255]; 4]);
        let map = image(
            4,
            1,
            &[
                [77, 77, 77, 255],
                [255, 0, 0, 255],
                [0, 255, 0, 255],
                [0, 0, 255, 255],
            ],
        );
        let out = apply_alpha_map(Some(&base), &map);
        // Rec. 709: 0.2126 × 255 = 54.2, 0.7152 × 255 = 182.4, 0.0722 × 255 = 18.4.
        let alphas: Vec<u8> = (0..4)
            .map(|x| out.pixel(x, 0).map_or(0, |p| p[3]))
            .collect();
        assert_eq!(alphas, [77, 54, 182, 18]);
        assert_eq!(out.pixel(2, 0), Some([9, 8, 7, 182]), "colours kept");
    }

    #[test]
    fn a_transparent_alpha_map_gives_its_alpha() {
        let map = image(2, 1, &[[0, 0, 0, 40], [255, 0, 0, 255]]);
        let out = apply_alpha_map(None, &map);
        assert_eq!(out.pixel(0, 0), Some([255, 255, 255, 40]));
        assert_eq!(out.pixel(1, 0), Some([255, 255, 255, 255]));
    }

    #[test]
    fn the_alpha_map_replaces_the_bases_alpha() {
        let base = image(2, 1, &[[1, 2, 3, 128], [4, 5, 6, 0]]);
        let map = image(2, 1, &[[200, 200, 200, 255], [255, 255, 255, 255]]);
        let out = apply_alpha_map(Some(&base), &map);
        assert_eq!(out.pixel(0, 0), Some([1, 2, 3, 200]));
        assert_eq!(out.pixel(1, 0), Some([4, 5, 6, 255]));
        // A texture with alpha named as its own alpha map keeps its alpha.
        assert_eq!(apply_alpha_map(Some(&base), &base), base);
    }

    #[test]
    fn an_alpha_map_of_another_size_is_resized_to_the_base() {
        let base = image(8, 2, &[[10, 20, 30, 255]; 16]);
        let map = image(2, 1, &[[0, 0, 0, 255], [255, 255, 255, 255]]);
        let out = apply_alpha_map(Some(&base), &map);
        assert_eq!((out.width(), out.height()), (8, 2));
        for y in 0..2 {
            let row: Vec<u8> = (0..8)
                .map(|x| out.pixel(x, y).map_or(0, |p| p[3]))
                .collect();
            // The outer pixels lie on the map's own pixels; in between
            // opacity rises monotonically.
            assert_eq!((row[0], row[7]), (0, 255), "{row:?}");
            assert!(row.windows(2).all(|w| w[0] <= w[1]), "{row:?}");
        }
        // A uniform map stays uniform, shrunk or grown.
        let grey = image(3, 5, &[[90, 90, 90, 255]; 15]);
        let out = apply_alpha_map(Some(&base), &grey);
        assert!(out.pixels().chunks_exact(4).all(|p| p[3] == 90));
    }
}
