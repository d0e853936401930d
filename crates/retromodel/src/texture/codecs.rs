//! The bridge to the `image` crate: PNG, JPEG, TGA and BMP decoding, PNG
//! encoding.

use std::io::Cursor;

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{DynamicImage, ImageDecoder, ImageEncoder, ImageError, ImageReader};

use super::{CodecError, DecodeLimits, ImageFormat, Rgba8Image, TextureError};

/// Decodes `data`, already recognised as `format` (not PCX), to RGBA8.
pub(crate) fn decode(
    data: &[u8],
    format: ImageFormat,
    limits: &DecodeLimits,
) -> Result<Rgba8Image, TextureError> {
    let codec_format = match format {
        ImageFormat::Png => image::ImageFormat::Png,
        ImageFormat::Jpeg => image::ImageFormat::Jpeg,
        ImageFormat::Tga => image::ImageFormat::Tga,
        ImageFormat::Bmp => image::ImageFormat::Bmp,
        ImageFormat::Pcx => return super::pcx::decode(data, limits),
    };
    let err = |e: ImageError| codec_error(format, e);
    let mut reader = ImageReader::with_format(Cursor::new(data), codec_format);
    // Width and height are checked below, with this crate's error; the
    // codec's allocation cap leaves room for a 16-bit RGBA decode (8 bytes
    // per pixel) of an image whose RGBA8 output is within the limit.
    let mut codec_limits = image::Limits::default();
    codec_limits.max_image_width = None;
    codec_limits.max_image_height = None;
    codec_limits.max_alloc = Some(limits.max_bytes.saturating_mul(2));
    reader.limits(codec_limits);
    let decoder = reader.into_decoder().map_err(err)?;
    let (width, height) = decoder.dimensions();
    // Before the decoder allocates its buffer.
    limits.check(format, width, height)?;
    let image = DynamicImage::from_decoder(decoder).map_err(err)?;
    let rgba = image.into_rgba8();
    let (w, h) = rgba.dimensions();
    Rgba8Image::new(w, h, rgba.into_raw()).ok_or_else(|| TextureError::Codec {
        format,
        message: format!("decoder returned an image of {w}x{h} pixels with the wrong buffer size"),
        source: None,
    })
}

fn codec_error(format: ImageFormat, e: ImageError) -> TextureError {
    match e {
        ImageError::Limits(limit) => TextureError::Codec {
            format,
            message: format!("exceeds the decode limits: {limit}"),
            source: None,
        },
        ImageError::Unsupported(what) => TextureError::Unsupported {
            format,
            message: what.to_string(),
        },
        other => TextureError::Codec {
            format,
            message: other.to_string(),
            source: Some(CodecError(std::sync::Arc::new(other))),
        },
    }
}

/// Encodes `image` as an 8-bit RGB (opaque) or RGBA PNG.
pub(crate) fn encode_png(image: &Rgba8Image) -> Result<Vec<u8>, TextureError> {
    let mut out = Vec::new();
    let encoder =
        PngEncoder::new_with_quality(&mut out, CompressionType::Default, FilterType::Adaptive);
    let (w, h) = (image.width(), image.height());
    let result = if image.is_opaque() {
        let rgb: Vec<u8> = image
            .pixels()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        encoder.write_image(&rgb, w, h, image::ExtendedColorType::Rgb8)
    } else {
        encoder.write_image(image.pixels(), w, h, image::ExtendedColorType::Rgba8)
    };
    result.map_err(|e| TextureError::Encode {
        message: e.to_string(),
        source: Some(CodecError(std::sync::Arc::new(e))),
    })?;
    Ok(out)
}

/// Encodes `image` as a 32-bit RLE TGA (24-bit when opaque).
pub(crate) fn encode_tga(image: &Rgba8Image) -> Result<Vec<u8>, TextureError> {
    let mut out = Vec::new();
    let (w, h) = (image.width(), image.height());
    let encoder = image::codecs::tga::TgaEncoder::new(&mut out);
    let result = if image.is_opaque() {
        let rgb: Vec<u8> = image
            .pixels()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        encoder.write_image(&rgb, w, h, image::ExtendedColorType::Rgb8)
    } else {
        encoder.write_image(image.pixels(), w, h, image::ExtendedColorType::Rgba8)
    };
    result.map_err(|e| TextureError::Codec {
        format: ImageFormat::Tga,
        message: e.to_string(),
        source: Some(CodecError(std::sync::Arc::new(e))),
    })?;
    Ok(out)
}
