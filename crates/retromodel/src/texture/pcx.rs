//! A small, bounds-checked PCX decoder for the variants skins use.
//!
//! Supported: 8 bits per pixel in 1 plane with the 256-colour palette at
//! the end of the file (the Quake II skin format), and 8 bits per pixel in
//! 3 planes (24-bit RGB) or 4 planes (32-bit RGBA), RLE-compressed or not.
//! The 1-, 2- and 4-bit EGA/CGA variants are reported as
//! [`TextureError::Unsupported`].
//!
//! # Layout
//!
//! A 128-byte header (little-endian) is followed by the scanlines: for each
//! of `height` rows, `planes` planes of `bytes_per_line` bytes each (the
//! bytes after `width` are padding). With encoding 1 the scanline bytes
//! are run-length encoded: a byte with its two top bits set (`0xC0..=0xFF`)
//! repeats the next byte `byte & 0x3F` times, any other byte stands for
//! itself; runs may cross scanline boundaries. A paletted image ends with
//! the byte `0x0C` followed by 256 RGB triplets, always in the last 769
//! bytes of the file.
//!
//! # Strictness
//!
//! Every scanline, padding included, must be present in full, and for a
//! paletted image the pixel data must end before the palette: a file cut
//! short anywhere fails with an error instead of decoding to garbage. A run
//! that goes past the end of the last scanline is cut there (some encoders
//! write such runs). Bytes between the end of the pixel data and the
//! palette (or the end of the file) are ignored.

use super::{DecodeLimits, ImageFormat, Rgba8Image, TextureError};

/// The first byte of every PCX file ("manufacturer": ZSoft).
pub const MAGIC: u8 = 0x0a;
/// Length of the PCX header.
pub const HEADER_LEN: usize = 128;
/// The byte before the 256-colour palette at the end of a file.
pub const PALETTE_MARKER: u8 = 0x0c;
/// The palette marker and 256 RGB triplets.
const PALETTE_BLOCK_LEN: usize = 1 + 256 * 3;

const F: ImageFormat = ImageFormat::Pcx;

/// The fields of a PCX header that decoding uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version: 0, 2, 3, 4 or 5 (5 for every 256-colour and 24-bit
    /// file).
    pub version: u8,
    /// 1 for run-length encoding, 0 for raw scanlines.
    pub encoding: u8,
    /// Bits per pixel in each plane.
    pub bits_per_pixel: u8,
    /// Image width, `x_max - x_min + 1`.
    pub width: u32,
    /// Image height, `y_max - y_min + 1`.
    pub height: u32,
    /// Number of colour planes.
    pub planes: u8,
    /// Bytes of one plane of one scanline, padding included.
    pub bytes_per_line: u16,
}

impl Header {
    /// Reads and checks the header at the start of `data`.
    ///
    /// Fails on data shorter than 128 bytes, a wrong first byte, an unknown
    /// version or encoding, an inverted bounding box, or a `bytes_per_line`
    /// too small for the width.
    pub fn parse(data: &[u8]) -> Result<Header, TextureError> {
        let Some(h) = data.get(..HEADER_LEN) else {
            return Err(TextureError::truncated(
                F,
                "header",
                0,
                HEADER_LEN as u64,
                data.len(),
            ));
        };
        let u16_at = |at: usize| u16::from_le_bytes([h[at], h[at + 1]]);
        if h[0] != MAGIC {
            return Err(TextureError::invalid(
                F,
                format!("first byte is {:#04x}, expected {MAGIC:#04x}", h[0]),
                0,
            ));
        }
        let version = h[1];
        if !matches!(version, 0 | 2 | 3 | 4 | 5) {
            return Err(TextureError::invalid(
                F,
                format!("unknown version {version} (expected 0, 2, 3, 4 or 5)"),
                1,
            ));
        }
        let encoding = h[2];
        if encoding > 1 {
            return Err(TextureError::invalid(
                F,
                format!("unknown encoding {encoding} (expected 0 or 1)"),
                2,
            ));
        }
        let (x_min, y_min, x_max, y_max) = (u16_at(4), u16_at(6), u16_at(8), u16_at(10));
        if x_max < x_min || y_max < y_min {
            return Err(TextureError::invalid(
                F,
                format!("bounding box ({x_min}, {y_min})-({x_max}, {y_max}) is inverted"),
                4,
            ));
        }
        let width = u32::from(x_max - x_min) + 1;
        let height = u32::from(y_max - y_min) + 1;
        let header = Header {
            version,
            encoding,
            bits_per_pixel: h[3],
            width,
            height,
            planes: h[65],
            bytes_per_line: u16_at(66),
        };
        let min_line = (u64::from(width) * u64::from(header.bits_per_pixel)).div_ceil(8);
        if u64::from(header.bytes_per_line) < min_line {
            return Err(TextureError::invalid(
                F,
                format!(
                    "bytes per line {} is less than the {min_line} that a width of {width} \
                     at {} bits per pixel needs",
                    header.bytes_per_line, header.bits_per_pixel
                ),
                66,
            ));
        }
        Ok(header)
    }
}

/// The pixel layouts this decoder supports.
#[derive(Clone, Copy)]
enum Layout {
    Paletted,
    Rgb,
    Rgba,
}

/// How a decoded scanline turns into pixels.
#[derive(Clone, Copy)]
enum Planes<'a> {
    /// One plane of indices into these 256 RGB triplets (768 bytes).
    Paletted(&'a [u8]),
    /// Red, green and blue planes.
    Rgb,
    /// Red, green, blue and alpha planes.
    Rgba,
}

/// Decodes a PCX image to RGBA8 (alpha 255 unless the file has a fourth
/// plane).
///
/// See the [module documentation](self) for the supported variants and how
/// strict the decoder is.
pub fn decode(data: &[u8], limits: &DecodeLimits) -> Result<Rgba8Image, TextureError> {
    let header = Header::parse(data)?;
    let layout = match (header.bits_per_pixel, header.planes) {
        (8, 1) => Layout::Paletted,
        (8, 3) => Layout::Rgb,
        (8, 4) => Layout::Rgba,
        (bits, planes) => {
            return Err(TextureError::Unsupported {
                format: F,
                message: format!(
                "{bits} bits per pixel in {planes} planes (supported: 8 bits in 1, 3 or 4 planes)"
            ),
            })
        }
    };
    let (width, height) = (header.width, header.height);
    limits.check(F, width, height)?;

    // Where the scanline data ends: before the palette, or at the end.
    let (pixel_end, planes) = match layout {
        Layout::Paletted => {
            let Some(at) = data
                .len()
                .checked_sub(PALETTE_BLOCK_LEN)
                .filter(|&at| at >= HEADER_LEN)
            else {
                return Err(TextureError::truncated(
                    F,
                    "256-colour palette",
                    HEADER_LEN as u64,
                    PALETTE_BLOCK_LEN as u64,
                    data.len(),
                ));
            };
            if data[at] != PALETTE_MARKER {
                return Err(TextureError::invalid(
                    F,
                    format!(
                        "no 256-colour palette: the byte 769 bytes before the end is {:#04x}, \
                         expected {PALETTE_MARKER:#04x}",
                        data[at]
                    ),
                    at as u64,
                ));
            }
            (at, Planes::Paletted(&data[at + 1..]))
        }
        Layout::Rgb => (data.len(), Planes::Rgb),
        Layout::Rgba => (data.len(), Planes::Rgba),
    };
    let paletted = matches!(planes, Planes::Paletted(_));
    let pixel_data = &data[HEADER_LEN..pixel_end];

    // Decoded size of all scanlines, padding included, and the least input
    // that can produce it: one byte per byte raw, two bytes per 63 with RLE.
    let line_len = usize::from(header.planes) * usize::from(header.bytes_per_line);
    let total = u64::from(height) * line_len as u64;
    let least_input = if header.encoding == 1 {
        total.div_ceil(63) * 2
    } else {
        total
    };
    if (pixel_data.len() as u64) < least_input {
        return Err(short_data(
            paletted,
            "scanlines",
            HEADER_LEN as u64,
            least_input,
            pixel_end,
            data.len(),
        ));
    }

    // Sizes are below the limits (checked above), so these fit in usize.
    let out_len = width as usize * height as usize * 4;
    let mut pixels = Vec::with_capacity(out_len);
    let mut line = vec![0u8; line_len];
    let mut rle = Rle {
        data: pixel_data,
        pos: 0,
        run_len: 0,
        run_value: 0,
        raw: header.encoding == 0,
    };
    let w = width as usize;
    let bpl = usize::from(header.bytes_per_line);
    for y in 0..height {
        if !rle.fill(&mut line) {
            return Err(short_data(
                paletted,
                &format!("scanline {y}"),
                (HEADER_LEN + rle.pos) as u64,
                1,
                pixel_end,
                data.len(),
            ));
        }
        // `line` holds `planes` planes of `bpl >= w` bytes each.
        match planes {
            Planes::Paletted(palette) => {
                for &index in &line[..w] {
                    let at = usize::from(index) * 3;
                    pixels.extend_from_slice(&palette[at..at + 3]);
                    pixels.push(255);
                }
            }
            Planes::Rgb => {
                for x in 0..w {
                    pixels.extend_from_slice(&[line[x], line[bpl + x], line[2 * bpl + x], 255]);
                }
            }
            Planes::Rgba => {
                for x in 0..w {
                    pixels.extend_from_slice(&[
                        line[x],
                        line[bpl + x],
                        line[2 * bpl + x],
                        line[3 * bpl + x],
                    ]);
                }
            }
        }
    }
    Rgba8Image::new(width, height, pixels)
        .ok_or_else(|| TextureError::invalid(F, "decoded size mismatch", 0))
}

/// The error for pixel data that ends too early: truncation at the end of
/// the file, or a collision with the palette.
fn short_data(
    paletted: bool,
    context: &str,
    offset: u64,
    needed: u64,
    pixel_end: usize,
    len: usize,
) -> TextureError {
    if paletted {
        TextureError::invalid(
            F,
            format!(
                "the {context} need more bytes than lie between offset {offset:#x} and the \
                 256-colour palette at offset {pixel_end:#x} (file cut short?)"
            ),
            offset,
        )
    } else {
        TextureError::truncated(F, context, offset, needed, len)
    }
}

/// A run-length decoder over the scanline bytes, whose runs carry over from
/// one scanline to the next.
struct Rle<'a> {
    data: &'a [u8],
    pos: usize,
    run_len: u8,
    run_value: u8,
    raw: bool,
}

impl Rle<'_> {
    /// Fills `out` completely; false when the data runs out first.
    fn fill(&mut self, out: &mut [u8]) -> bool {
        if self.raw {
            let Some(src) = self
                .pos
                .checked_add(out.len())
                .and_then(|end| self.data.get(self.pos..end))
            else {
                return false;
            };
            out.copy_from_slice(src);
            self.pos += out.len();
            return true;
        }
        let mut filled = 0;
        while filled < out.len() {
            if self.run_len > 0 {
                let n = usize::from(self.run_len).min(out.len() - filled);
                out[filled..filled + n].fill(self.run_value);
                filled += n;
                // n <= run_len <= 63
                self.run_len -= n as u8;
                continue;
            }
            let Some(&byte) = self.data.get(self.pos) else {
                return false;
            };
            if byte & 0xc0 == 0xc0 {
                let Some(&value) = self.data.get(self.pos + 1) else {
                    return false;
                };
                self.pos += 2;
                self.run_len = byte & 0x3f;
                self.run_value = value;
            } else {
                self.pos += 1;
                out[filled] = byte;
                filled += 1;
            }
        }
        true
    }
}

/// Encodes an 8-bit paletted image as PCX the way Quake II's loaders
/// read it (`LoadPCX` in id's `ref_gl/gl_image.c`): version 5, RLE,
/// 8 bits in one plane, `bytes_per_line` equal to the width (id's reader
/// takes exactly `width` bytes per row, so rows are not padded to an even
/// length), runs that never cross a row, and the `0x0C` marker with the
/// 256 colours as the last 769 bytes. A run is `0xC0 | n` and the byte
/// (`n` up to 63); a single byte below `0xC0` stands for itself.
///
/// `indices` holds `width × height` palette indices, row by row. Fails
/// when a side is 0 or above 65535, or the indices do not fit the size.
///
/// ```
/// use retromodel::texture::{pcx, Palette};
/// let palette = Palette::new([[9, 8, 7]; 256]);
/// let bytes = pcx::encode(3, 1, &[5, 5, 0xc1], &palette).unwrap();
/// // Header, then the run of two 5s and the escaped 0xC1, then the palette.
/// assert_eq!(&bytes[128..132], &[0xc2, 5, 0xc1, 0xc1]);
/// assert_eq!(bytes[132], 0x0c);
/// assert_eq!(bytes.len(), 128 + 4 + 769);
/// ```
pub fn encode(
    width: u32,
    height: u32,
    indices: &[u8],
    palette: &super::Palette,
) -> Result<Vec<u8>, TextureError> {
    let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
        return Err(TextureError::invalid(
            F,
            format!("{width}x{height} does not fit PCX's 16-bit sizes"),
            0,
        ));
    };
    if w == 0 || h == 0 || indices.len() != usize::from(w) * usize::from(h) {
        return Err(TextureError::invalid(
            F,
            format!("{} indices for {width}x{height} pixels", indices.len()),
            0,
        ));
    }
    let mut out = Vec::with_capacity(HEADER_LEN + indices.len() + PALETTE_BLOCK_LEN);
    out.extend_from_slice(&[MAGIC, 5, 1, 8]);
    for v in [0, 0, w - 1, h - 1, 72, 72] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.resize(65, 0); // 16-colour palette and the reserved byte
    out.push(1); // one plane
    out.extend_from_slice(&w.to_le_bytes()); // bytes per line
    out.extend_from_slice(&1u16.to_le_bytes()); // palette type: colour
    out.resize(HEADER_LEN, 0);
    for row in indices.chunks_exact(usize::from(w)) {
        let mut i = 0;
        while i < row.len() {
            let v = row[i];
            let run = row[i..].iter().take(63).take_while(|&&p| p == v).count();
            if run > 1 || v >= 0xc0 {
                // run <= 63
                out.push(0xc0 | run as u8);
            }
            out.push(v);
            i += run;
        }
    }
    out.push(PALETTE_MARKER);
    out.extend_from_slice(&palette.to_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PCX header for an 8-bit image of `w`×`h` in `planes` planes.
    fn header(w: u16, h: u16, planes: u8, bpl: u16, encoding: u8) -> Vec<u8> {
        let mut b = vec![0u8; HEADER_LEN];
        b[0] = MAGIC;
        b[1] = 5;
        b[2] = encoding;
        b[3] = 8;
        b[8..10].copy_from_slice(&(w - 1).to_le_bytes());
        b[10..12].copy_from_slice(&(h - 1).to_le_bytes());
        b[65] = planes;
        b[66..68].copy_from_slice(&bpl.to_le_bytes());
        b
    }

    fn palette_block() -> Vec<u8> {
        let mut p = vec![PALETTE_MARKER];
        for i in 0..=255u8 {
            p.extend_from_slice(&[i, 255 - i, i / 2]);
        }
        p
    }

    #[test]
    fn paletted_rle_with_runs_across_scanlines_and_padding() {
        // 3×2, bytes per line 4 (one padding byte each). Row 1: literals 1,
        // 2, 3, then a run of two 0s whose first fills row 1's padding and
        // whose second is row 2's first pixel; row 2 goes on with a run of
        // two 4s and the literal padding byte 9.
        let mut f = header(3, 2, 1, 4, 1);
        f.extend_from_slice(&[1, 2, 3, 0xc2, 0, 0xc2, 4, 9]);
        f.extend(palette_block());
        let img = decode(&f, &DecodeLimits::default()).unwrap();
        assert_eq!((img.width(), img.height()), (3, 2));
        let idx = |i: u8| [i, 255 - i, i / 2, 255];
        let want: Vec<u8> = [1, 2, 3, 0, 4, 4].into_iter().flat_map(idx).collect();
        assert_eq!(img.pixels(), &want[..]);
    }

    #[test]
    fn rgb_raw_and_rgba() {
        // 2×1 raw RGB with bytes per line 2.
        let mut f = header(2, 1, 3, 2, 0);
        f.extend_from_slice(&[10, 11, 20, 21, 30, 31]);
        let img = decode(&f, &DecodeLimits::default()).unwrap();
        assert_eq!(img.pixels(), &[10, 20, 30, 255, 11, 21, 31, 255]);
        let mut f = header(1, 1, 4, 1, 1);
        f.extend_from_slice(&[1, 2, 3, 0xc1, 0xc8]);
        let img = decode(&f, &DecodeLimits::default()).unwrap();
        assert_eq!(img.pixels(), &[1, 2, 3, 0xc8]);
    }

    #[test]
    fn run_past_the_last_scanline_is_cut() {
        let mut f = header(2, 1, 3, 2, 1);
        f.extend_from_slice(&[0xff, 7]);
        let img = decode(&f, &DecodeLimits::default()).unwrap();
        assert_eq!(img.pixels(), &[7, 7, 7, 255, 7, 7, 7, 255]);
    }

    #[test]
    fn hostile_headers_error_before_allocating() {
        // 65536 × 65536 claims from 130 bytes.
        let mut f = header(u16::MAX, u16::MAX, 3, u16::MAX, 1);
        f.extend_from_slice(&[0, 0]);
        let err = decode(&f, &DecodeLimits::default()).unwrap_err();
        assert!(matches!(err, TextureError::TooLarge { .. }), "{err}");
        // Within the limits but not justified by the input.
        let mut f = header(4000, 4000, 3, 4000, 1);
        f.extend_from_slice(&[0xff, 0]);
        let err = decode(&f, &DecodeLimits::default()).unwrap_err();
        assert!(matches!(err, TextureError::Truncated { .. }), "{err}");
        // Bytes per line smaller than the width.
        let f = header(8, 1, 1, 7, 1);
        assert!(matches!(
            decode(&f, &DecodeLimits::default()),
            Err(TextureError::Invalid { offset: 66, .. })
        ));
        // Unsupported 4-bit.
        let mut f = header(8, 1, 1, 4, 1);
        f[3] = 4;
        assert!(matches!(
            decode(&f, &DecodeLimits::default()),
            Err(TextureError::Unsupported { .. })
        ));
    }

    #[test]
    fn limits_apply() {
        let mut f = header(3, 2, 3, 3, 0);
        f.extend_from_slice(&[0; 18]);
        let mut limits = DecodeLimits::default();
        assert!(decode(&f, &limits).is_ok());
        limits.max_width = 2;
        assert!(matches!(
            decode(&f, &limits),
            Err(TextureError::TooLarge { width: 3, .. })
        ));
        let limits = DecodeLimits {
            max_bytes: 23,
            ..DecodeLimits::default()
        };
        assert!(matches!(
            decode(&f, &limits),
            Err(TextureError::TooLarge { .. })
        ));
    }
}
