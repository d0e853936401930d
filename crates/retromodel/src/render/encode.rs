//! Images to files: PNG (with text chunks), animated PNG and GIF, all
//! written the same way every time (no time stamps, fixed compression).
//!
//! - PNG and APNG through the `png` crate (the `image` crate's own PNG
//!   codec; it writes `acTL`/`fcTL`/`fdAT` and `tEXt` chunks), with its
//!   `Fast` compression (`fdeflate`): at zlib's default level, deflating a
//!   corpus contact sheet (1808 × 1896) was a sixth of the sheet's whole
//!   time; `Fast` makes a sheet about twice as large and a still about as
//!   large (renders are mostly flat colour and transparency).
//! - GIF through the `gif` crate, with one global palette for all frames
//!   (so colours do not flicker from frame to frame) made by NeuQuant
//!   (`color_quant`, MIT, the quantiser the `image` and `gif` crates use;
//!   `imagequant` would give better palettes but is GPL-3.0 or
//!   commercial, which does not fit this MIT/Apache-2.0 crate) from the
//!   frames the caller samples, or exactly when they hold at most 255
//!   colours. Index 255 is transparent: pixels with alpha below 128 (GIF
//!   has no partial transparency).

use std::collections::BTreeSet;
use std::io::Write;

use crate::error::{Error, Result};

fn unwritable(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Unwritable {
        context: what.to_string(),
        message: e.to_string(),
    }
}

fn check_pixels(width: u32, height: u32, pixels: &[u8]) -> Result<()> {
    super::renderer::check_size(width, height)?;
    if pixels.len() as u64 != u64::from(width) * u64::from(height) * 4 {
        return Err(Error::InvalidOptions {
            message: format!(
                "{} bytes of pixels for a {width}x{height} RGBA8 image",
                pixels.len()
            ),
        });
    }
    Ok(())
}

fn png_encoder<W: Write>(
    writer: W,
    width: u32,
    height: u32,
    text: &[(&str, &str)],
) -> Result<png::Encoder<'static, W>> {
    let mut encoder = png::Encoder::new(writer, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    for (keyword, value) in text {
        encoder
            .add_text_chunk((*keyword).to_string(), (*value).to_string())
            .map_err(|e| unwritable("PNG text chunk", e))?;
    }
    Ok(encoder)
}

/// Writes `pixels` (`width × height` straight RGBA8, top row first) as an
/// 8-bit RGBA PNG to `writer`, with a `tEXt` chunk for each
/// `(keyword, text)` (Latin-1; keywords of 1 to 79 characters).
pub fn write_png<W: Write>(
    writer: W,
    width: u32,
    height: u32,
    pixels: &[u8],
    text: &[(&str, &str)],
) -> Result<()> {
    check_pixels(width, height, pixels)?;
    let mut w = png_encoder(writer, width, height, text)?
        .write_header()
        .map_err(|e| unwritable("PNG", e))?;
    w.write_image_data(pixels)
        .map_err(|e| unwritable("PNG", e))?;
    w.finish().map_err(|e| unwritable("PNG", e))
}

/// A frame duration as a fraction of a second for APNG: `1 / fps` exactly
/// for whole rates, else in milliseconds.
fn apng_delay(fps: f32) -> (u16, u16) {
    if fps.fract() == 0.0 && (1.0..=65535.0).contains(&fps) {
        (1, fps as u16)
    } else {
        let ms = (1000.0 / f64::from(fps)).round().clamp(1.0, 65535.0);
        (ms as u16, 1000)
    }
}

/// An animated PNG being written, frame by frame; it loops forever.
pub struct ApngWriter<W: Write> {
    writer: png::Writer<W>,
    width: u32,
    height: u32,
}

impl<W: Write> std::fmt::Debug for ApngWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApngWriter")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl<W: Write> ApngWriter<W> {
    /// Starts an APNG of `frames` frames of `width × height` at `fps`
    /// frames per second, with `text` chunks as [`write_png`].
    pub fn new(
        writer: W,
        width: u32,
        height: u32,
        frames: u32,
        fps: f32,
        text: &[(&str, &str)],
    ) -> Result<ApngWriter<W>> {
        super::renderer::check_size(width, height)?;
        if frames == 0 || !(fps.is_finite() && fps > 0.0) {
            return Err(Error::InvalidOptions {
                message: format!("an animated PNG of {frames} frames at {fps} fps"),
            });
        }
        let mut encoder = png_encoder(writer, width, height, text)?;
        let e = |e| unwritable("APNG", e);
        encoder.set_animated(frames, 0).map_err(e)?;
        let (num, den) = apng_delay(fps);
        encoder.set_frame_delay(num, den).map_err(e)?;
        encoder.set_dispose_op(png::DisposeOp::None).map_err(e)?;
        encoder.set_blend_op(png::BlendOp::Source).map_err(e)?;
        let writer = encoder.write_header().map_err(e)?;
        Ok(ApngWriter {
            writer,
            width,
            height,
        })
    }

    /// Adds the next frame (straight RGBA8, `width × height`).
    pub fn add_frame(&mut self, pixels: &[u8]) -> Result<()> {
        check_pixels(self.width, self.height, pixels)?;
        self.writer
            .write_image_data(pixels)
            .map_err(|e| unwritable("APNG frame", e))
    }

    /// Ends the file; fails if fewer frames were added than announced.
    pub fn finish(self) -> Result<()> {
        self.writer.finish().map_err(|e| unwritable("APNG", e))
    }
}

/// The transparent index of the GIF palette.
const TRANSPARENT: u8 = 255;

/// A GIF palette: up to 255 colours, index 255 transparent.
#[derive(Debug)]
pub struct GifPalette {
    /// RGB triples, 256 of them (the last is the transparent index's).
    rgb: Vec<u8>,
    map: Mapping,
}

enum Mapping {
    /// At most 255 colours: each exactly.
    Exact(Vec<[u8; 3]>),
    /// NeuQuant's network.
    Quantised(Box<color_quant::NeuQuant>),
}

impl std::fmt::Debug for Mapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mapping::Exact(c) => write!(f, "Exact({} colours)", c.len()),
            Mapping::Quantised(_) => f.write_str("Quantised"),
        }
    }
}

/// Whether a pixel is drawn in a GIF.
fn visible(p: &[u8]) -> bool {
    p[3] >= 128
}

impl GifPalette {
    /// The palette for frames like `samples` (straight RGBA8 each; any
    /// number, any size): their visible colours exactly when there are at
    /// most 255, else NeuQuant's 255 (sample factor 10).
    pub fn from_samples(samples: &[&[u8]]) -> GifPalette {
        let mut colours = BTreeSet::new();
        let mut exact = true;
        'outer: for s in samples {
            for p in s.chunks_exact(4).filter(|p| visible(p)) {
                colours.insert([p[0], p[1], p[2]]);
                if colours.len() > 255 {
                    exact = false;
                    break 'outer;
                }
            }
        }
        let mut rgb = vec![0u8; 256 * 3];
        if exact {
            let list: Vec<[u8; 3]> = colours.into_iter().collect();
            for (i, c) in list.iter().enumerate() {
                rgb[3 * i..3 * i + 3].copy_from_slice(c);
            }
            return GifPalette {
                rgb,
                map: Mapping::Exact(list),
            };
        }
        let mut training = Vec::new();
        for s in samples {
            for p in s.chunks_exact(4).filter(|p| visible(p)) {
                training.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
        let nq = color_quant::NeuQuant::new(10, 255, &training);
        for (i, c) in nq.color_map_rgb().chunks_exact(3).take(255).enumerate() {
            rgb[3 * i..3 * i + 3].copy_from_slice(c);
        }
        GifPalette {
            rgb,
            map: Mapping::Quantised(Box::new(nq)),
        }
    }

    /// The palette index of a straight RGBA8 pixel.
    fn index(&self, p: &[u8]) -> u8 {
        if !visible(p) {
            return TRANSPARENT;
        }
        match &self.map {
            Mapping::Exact(list) => list
                .binary_search(&[p[0], p[1], p[2]])
                .map_or(0, |i| i as u8),
            Mapping::Quantised(nq) => nq.index_of(&[p[0], p[1], p[2], 255]).min(254) as u8,
        }
    }
}

/// An animated GIF being written frame by frame; it loops forever.
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    palette: GifPalette,
    width: u16,
    height: u16,
    fps: f32,
    frames: u64,
    indices: Vec<u8>,
}

impl<W: Write> std::fmt::Debug for GifWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GifWriter")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("fps", &self.fps)
            .finish_non_exhaustive()
    }
}

/// The highest GIF frame rate: delays are in hundredths of a second, and
/// browsers play delays under 2 as 10.
pub const MAX_GIF_FPS: f32 = 50.0;

impl<W: Write> GifWriter<W> {
    /// Starts a looping GIF of `width × height` at `fps` frames per second
    /// (at most [`MAX_GIF_FPS`]) with `palette` for every frame.
    pub fn new(
        writer: W,
        width: u32,
        height: u32,
        fps: f32,
        palette: GifPalette,
    ) -> Result<GifWriter<W>> {
        super::renderer::check_size(width, height)?;
        if !(fps.is_finite() && fps > 0.0 && fps <= MAX_GIF_FPS) {
            return Err(Error::InvalidOptions {
                message: format!(
                    "{fps} frames per second: a GIF plays at most {MAX_GIF_FPS} (its delays are hundredths of a second)"
                ),
            });
        }
        let e = |e| unwritable("GIF", e);
        let (w, h) = (width as u16, height as u16);
        let mut encoder = gif::Encoder::new(writer, w, h, &palette.rgb).map_err(e)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(e)?;
        Ok(GifWriter {
            encoder,
            palette,
            width: w,
            height: h,
            fps,
            frames: 0,
            indices: Vec::new(),
        })
    }

    /// Adds the next frame (straight RGBA8): shown for `1 / fps` seconds,
    /// rounded to hundredths so that the total stays on time.
    pub fn add_frame(&mut self, pixels: &[u8]) -> Result<()> {
        check_pixels(u32::from(self.width), u32::from(self.height), pixels)?;
        self.indices.clear();
        self.indices
            .extend(pixels.chunks_exact(4).map(|p| self.palette.index(p)));
        let at = |k: u64| (k as f64 * 100.0 / f64::from(self.fps)).round() as u64;
        let delay = (at(self.frames + 1) - at(self.frames)).clamp(2, 65535) as u16;
        self.frames += 1;
        let frame = gif::Frame {
            width: self.width,
            height: self.height,
            delay,
            dispose: gif::DisposalMethod::Background,
            transparent: Some(TRANSPARENT),
            buffer: std::borrow::Cow::Borrowed(&self.indices),
            ..gif::Frame::default()
        };
        self.encoder
            .write_frame(&frame)
            .map_err(|e| unwritable("GIF frame", e))
    }

    /// Ends the file.
    pub fn finish(self) -> Result<W> {
        self.encoder.into_inner().map_err(|e| unwritable("GIF", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apng_delays() {
        assert_eq!(apng_delay(10.0), (1, 10));
        assert_eq!(apng_delay(12.5), (80, 1000));
    }

    #[test]
    fn exact_palettes_keep_colours() {
        let px = [10, 20, 30, 255, 0, 0, 0, 0, 200, 100, 50, 255];
        let p = GifPalette::from_samples(&[&px]);
        // Sorted: (10, 20, 30) first.
        assert_eq!(p.index(&px[0..4]), 0);
        assert_eq!(p.index(&px[4..8]), TRANSPARENT);
        assert_eq!(p.index(&px[8..12]), 1);
        assert_eq!(&p.rgb[0..6], &[10, 20, 30, 200, 100, 50]);
    }
}
