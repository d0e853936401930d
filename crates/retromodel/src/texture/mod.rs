//! Skins and textures: decoding to RGBA8, encoding PNG, and finding the
//! image file a model names, safely.
//!
//! Available with the `textures` feature (on by default). The resolver
//! ([`TextureSource`], [`TextureResolver`] and their types) and
//! [`Rgba8Image`] are also there with the `scene` feature alone (the glTF
//! importer loads a `.gltf`'s buffers and images through the resolver; a
//! scene's texture may hold decoded pixels); decoding and encoding need
//! `textures`.
//!
//! - [`decode`] turns the bytes of a PCX, PNG, JPEG, TGA or BMP image into
//!   an [`Rgba8Image`]. The format is told by the data's magic bytes, never
//!   by a file name. PCX (the Quake II skin format) is decoded by this
//!   crate's own bounds-checked [`pcx`] decoder; the other formats by the
//!   `image` crate. Hostile input gives a [`TextureError`], never a panic or
//!   an allocation beyond the [`DecodeLimits`].
//! - [`Rgba8Image::to_png`] encodes PNG, e.g. for embedding in glTF.
//! - [`apply_alpha_map`] puts an alpha map's opacity into a base image's
//!   alpha channel (glTF has no separate slot for alpha maps).
//! - [`TextureResolver`] finds the file that a skin or material name read
//!   from a model (untrusted: `players/male/grunt.pcx`, `.alientank`,
//!   `.\jeep1.jpg`, `../../etc/passwd`) stands for, and never opens anything
//!   outside the model's folder and the search roots the user gave. It is
//!   the only part of this module that touches the file system.
//! - [`MemorySource`] finds them by the same rules among files held in
//!   memory (the files dropped on a web page).
//!
//! ```
//! # #[cfg(feature = "textures")]
//! # fn main() -> Result<(), retromodel::Error> {
//! use retromodel::texture::{decode, ImageFormat, Rgba8Image};
//!
//! // A 2×1 PNG made here; real code reads a file found by a TextureResolver.
//! let image = Rgba8Image::new(2, 1, vec![255, 0, 0, 255, 0, 0, 255, 128]).unwrap();
//! let png = image.to_png()?;
//! assert_eq!(ImageFormat::detect(&png), Some(ImageFormat::Png));
//!
//! let decoded = decode(&png)?;
//! assert_eq!((decoded.width(), decoded.height()), (2, 1));
//! assert_eq!(decoded.pixel(1, 0), Some([0, 0, 255, 128]));
//! # Ok(()) }
//! # #[cfg(not(feature = "textures"))]
//! # fn main() {}
//! ```

#[cfg(feature = "textures")]
mod alpha_map;
#[cfg(feature = "textures")]
mod codecs;
#[cfg(feature = "textures")]
mod error;
mod lookup;
mod memory;
mod palette;
#[cfg(feature = "textures")]
pub mod pcx;
mod resolve;

#[cfg(feature = "textures")]
use std::fmt;

#[cfg(feature = "textures")]
pub use alpha_map::apply_alpha_map;
#[cfg(feature = "textures")]
pub use error::{CodecError, TextureError};
pub use memory::MemorySource;
pub use palette::Palette;
pub use resolve::{
    Refusal, ResolveError, ResolvedTexture, SkipReason, Skipped, TextureResolver, TextureSource,
    IMAGE_EXTENSIONS,
};

/// The image formats this module decodes.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg(feature = "textures")]
pub enum ImageFormat {
    /// ZSoft PCX (8-bit paletted, 24-bit and 32-bit).
    Pcx,
    /// Portable Network Graphics.
    Png,
    /// JPEG (baseline and progressive).
    Jpeg,
    /// Truevision TGA.
    Tga,
    /// Windows bitmap.
    Bmp,
}

#[cfg(feature = "textures")]
impl ImageFormat {
    /// Tells the format from the first bytes of `data`, or `None`.
    ///
    /// PNG, JPEG, BMP and PCX have magic bytes (PCX: `0x0A`, then a known
    /// version, encoding and bit depth). TGA has none, so it is recognised
    /// last, by a header whose colour-map type, image type, sizes and pixel
    /// depth are all plausible.
    ///
    /// ```
    /// use retromodel::texture::ImageFormat;
    ///
    /// assert_eq!(ImageFormat::detect(b"\x89PNG\r\n\x1a\n...."), Some(ImageFormat::Png));
    /// assert_eq!(ImageFormat::detect(b"\x0a\x05\x01\x08"), Some(ImageFormat::Pcx));
    /// assert_eq!(ImageFormat::detect(b"GIF89a"), None);
    /// ```
    pub fn detect(data: &[u8]) -> Option<ImageFormat> {
        if data.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageFormat::Png)
        } else if data.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(ImageFormat::Jpeg)
        } else if data.starts_with(b"BM") {
            Some(ImageFormat::Bmp)
        } else if matches!(
            data,
            [pcx::MAGIC, 0 | 2 | 3 | 4 | 5, 0 | 1, 1 | 2 | 4 | 8, ..]
        ) {
            Some(ImageFormat::Pcx)
        } else if looks_like_tga(data) {
            Some(ImageFormat::Tga)
        } else {
            None
        }
    }

    /// The usual file extension, lower case, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Pcx => "pcx",
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpg",
            ImageFormat::Tga => "tga",
            ImageFormat::Bmp => "bmp",
        }
    }

    /// The MIME type (as glTF's `image.mimeType` uses it).
    pub fn mime_type(self) -> &'static str {
        match self {
            ImageFormat::Pcx => "image/x-pcx",
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Tga => "image/x-tga",
            ImageFormat::Bmp => "image/bmp",
        }
    }
}

#[cfg(feature = "textures")]
impl fmt::Display for ImageFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ImageFormat::Pcx => "PCX",
            ImageFormat::Png => "PNG",
            ImageFormat::Jpeg => "JPEG",
            ImageFormat::Tga => "TGA",
            ImageFormat::Bmp => "BMP",
        })
    }
}

/// A plausible 18-byte TGA header (TGA has no magic bytes).
#[cfg(feature = "textures")]
fn looks_like_tga(data: &[u8]) -> bool {
    let Some(h) = data.get(..18) else {
        return false;
    };
    let color_map_type = h[1];
    let image_type = h[2];
    let color_map_entry_bits = h[7];
    let width = u16::from_le_bytes([h[12], h[13]]);
    let height = u16::from_le_bytes([h[14], h[15]]);
    let pixel_bits = h[16];
    let descriptor = h[17];
    let color_mapped = matches!(image_type, 1 | 9);
    color_map_type <= 1
        && matches!(image_type, 1 | 2 | 3 | 9 | 10 | 11)
        && (!color_mapped || color_map_type == 1)
        && (color_map_type == 0 || matches!(color_map_entry_bits, 15 | 16 | 24 | 32))
        && width > 0
        && height > 0
        && matches!(pixel_bits, 8 | 15 | 16 | 24 | 32)
        && descriptor & 0xc0 == 0
}

/// How large an image decoding may produce.
///
/// Checked against the size an image's header claims **before** any pixel
/// buffer is allocated.
///
/// ```
/// use retromodel::texture::DecodeLimits;
///
/// let mut limits = DecodeLimits::default();
/// limits.max_width = 2048;
/// limits.max_height = 2048;
/// assert_eq!(limits.max_bytes, 256 << 20);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(feature = "textures")]
pub struct DecodeLimits {
    /// Largest width in pixels (default 16384).
    pub max_width: u32,
    /// Largest height in pixels (default 16384).
    pub max_height: u32,
    /// Largest RGBA8 output, `width × height × 4`, in bytes (default
    /// 256 MiB, e.g. 8192 × 8192). The `image` crate's decoders are also
    /// held to this for their own allocations.
    pub max_bytes: u64,
}

#[cfg(feature = "textures")]
impl Default for DecodeLimits {
    fn default() -> Self {
        DecodeLimits {
            max_width: 16384,
            max_height: 16384,
            max_bytes: 256 << 20,
        }
    }
}

#[cfg(feature = "textures")]
impl DecodeLimits {
    /// An error if a `width` × `height` image of `format` exceeds a limit
    /// or is empty.
    pub(crate) fn check(
        &self,
        format: ImageFormat,
        width: u32,
        height: u32,
    ) -> Result<(), TextureError> {
        let too_large = |message: String| TextureError::TooLarge {
            format,
            width: width.into(),
            height: height.into(),
            message,
        };
        if width == 0 || height == 0 {
            return Err(TextureError::Invalid {
                format,
                message: format!("image of {width}x{height} pixels is empty"),
                offset: 0,
            });
        }
        if width > self.max_width || height > self.max_height {
            return Err(too_large(format!(
                "the limit is {}x{}",
                self.max_width, self.max_height
            )));
        }
        let bytes = u64::from(width) * u64::from(height) * 4;
        if bytes > self.max_bytes || usize::try_from(bytes).is_err() {
            return Err(too_large(format!(
                "{bytes} bytes of RGBA8, the limit is {}",
                self.max_bytes
            )));
        }
        Ok(())
    }
}

/// A decoded image: 8-bit red, green, blue and alpha per pixel, rows from
/// top to bottom, pixels from left to right.
///
/// Available with the `scene` feature too (a scene's textures may hold
/// one); encoding it ([`Rgba8Image::to_png`], [`Rgba8Image::to_tga`])
/// needs `textures`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba8Image {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Rgba8Image {
    /// An image from its pixels, or `None` when a side is 0 or
    /// `pixels.len() != width × height × 4`.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Option<Rgba8Image> {
        let len = u64::from(width) * u64::from(height) * 4;
        (width > 0 && height > 0 && pixels.len() as u64 == len).then_some(Rgba8Image {
            width,
            height,
            pixels,
        })
    }

    /// Width in pixels (at least 1).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels (at least 1).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels: `width × height × 4` bytes, RGBA, row-major, top row
    /// first.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The pixel buffer, taken out of the image.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }

    /// The RGBA value at column `x`, row `y` (row 0 at the top), or `None`
    /// outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.pixels.get(at..at + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// Whether every pixel's alpha is 255.
    pub fn is_opaque(&self) -> bool {
        self.pixels.chunks_exact(4).all(|p| p[3] == 255)
    }

    /// Encodes the image as PNG: 8-bit RGB when [opaque](Self::is_opaque),
    /// 8-bit RGBA otherwise.
    #[cfg(feature = "textures")]
    pub fn to_png(&self) -> Result<Vec<u8>, TextureError> {
        codecs::encode_png(self)
    }

    /// Encodes the image as an RLE-compressed TGA: 24-bit when
    /// [opaque](Self::is_opaque), 32-bit otherwise (the variants Quake
    /// II engines' `LoadTGA` reads).
    #[cfg(feature = "textures")]
    pub fn to_tga(&self) -> Result<Vec<u8>, TextureError> {
        codecs::encode_tga(self)
    }
}

/// Decodes a PCX, PNG, JPEG, TGA or BMP image to RGBA8 with the default
/// [`DecodeLimits`]; the format is told by [`ImageFormat::detect`].
///
/// Grey, paletted and 16-bit images are converted to 8-bit RGBA; images
/// without alpha get alpha 255.
#[cfg(feature = "textures")]
pub fn decode(data: &[u8]) -> Result<Rgba8Image, TextureError> {
    decode_with_limits(data, &DecodeLimits::default())
}

/// Like [`decode`], with limits on the image size.
#[cfg(feature = "textures")]
pub fn decode_with_limits(data: &[u8], limits: &DecodeLimits) -> Result<Rgba8Image, TextureError> {
    match ImageFormat::detect(data) {
        Some(ImageFormat::Pcx) => pcx::decode(data, limits),
        Some(format) => codecs::decode(data, format, limits),
        None if data.is_empty() => Err(TextureError::UnknownFormat {
            found: "(no data)".to_owned(),
        }),
        None => Err(TextureError::UnknownFormat {
            found: data
                .iter()
                .take(8)
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" "),
        }),
    }
}
