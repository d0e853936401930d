//! Texture decoding against independent sources: the corpus PCX skins
//! against the `.reference.png` files Pillow wrote, image sizes against the
//! files' own headers (read here by hand), an 8-bit BMP against a tiny BMP
//! reader in this file; and hostile input (every prefix of every PCX,
//! mutated headers, random bytes behind each magic) must give errors, never
//! panics.

#![cfg(feature = "textures")]

use std::path::{Path, PathBuf};

use image::ImageDecoder;
use retromodel::texture::{
    decode, decode_with_limits, pcx, DecodeLimits, ImageFormat, Rgba8Image, TextureError,
};
use retromodel_testkit::corpus::corpus_dir;

fn corpus() -> Option<PathBuf> {
    corpus_dir()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The corpus PCX files, sorted.
fn pcx_files(corpus: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus.join("skins"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pcx"))
        .collect();
    out.sort();
    assert!(
        out.len() >= 4,
        "expected the 4 corpus PCX skins, found {out:?}"
    );
    out
}

/// Decodes a reference PNG with the `image` crate's PNG decoder directly
/// (not through the code under test) to RGBA8.
fn reference_rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let bytes = read(path);
    let decoder = image::codecs::png::PngDecoder::new(std::io::Cursor::new(&bytes)).unwrap();
    let (w, h) = decoder.dimensions();
    let img = image::DynamicImage::from_decoder(decoder).unwrap();
    (w, h, img.into_rgba8().into_raw())
}

#[test]
fn corpus_pcx_skins_match_the_pillow_references_pixel_for_pixel() {
    let Some(corpus) = corpus() else { return };
    for path in pcx_files(&corpus) {
        let bytes = read(&path);
        assert_eq!(ImageFormat::detect(&bytes), Some(ImageFormat::Pcx));
        let img = decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (w, h, want) = reference_rgba(&path.with_extension("reference.png"));
        assert_eq!((img.width(), img.height()), (w, h), "{}", path.display());
        // The header's bounding box, read by hand.
        let le = |at: usize| u32::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
        assert_eq!((le(8) - le(4) + 1, le(10) - le(6) + 1), (w, h));
        if let Some(i) =
            (0..want.len() / 4).find(|&i| img.pixels()[i * 4..][..4] != want[i * 4..][..4])
        {
            panic!(
                "{}: pixel ({}, {}) is {:?}, Pillow says {:?}",
                path.display(),
                i as u32 % w,
                i as u32 / w,
                &img.pixels()[i * 4..][..4],
                &want[i * 4..][..4]
            );
        }
        assert_eq!(img.pixels(), &want[..]);
    }
}

#[test]
fn corpus_paletted_pcx_pixels_are_palette_entries() {
    // Independent of Pillow: each pixel of an 8-bit skin is one of the 256
    // triplets after the 0x0C marker in the last 769 bytes of the file.
    let Some(corpus) = corpus() else { return };
    let mut paletted = 0;
    for path in pcx_files(&corpus) {
        let bytes = read(&path);
        if bytes[65] != 1 {
            continue; // the 24-bit sample
        }
        paletted += 1;
        let pal = &bytes[bytes.len() - 769..];
        assert_eq!(pal[0], 0x0c, "{}", path.display());
        let img = decode(&bytes).unwrap();
        for p in img.pixels().chunks_exact(4) {
            assert_eq!(p[3], 255);
            assert!(
                pal[1..].chunks_exact(3).any(|c| c == &p[..3]),
                "{}: {p:?} is not in the palette",
                path.display()
            );
        }
    }
    assert_eq!(paletted, 3);
}

#[test]
fn every_prefix_of_every_corpus_pcx_is_an_error() {
    let Some(corpus) = corpus() else { return };
    for path in pcx_files(&corpus) {
        let bytes = read(&path);
        for len in 0..bytes.len() {
            if let Ok(img) = decode(&bytes[..len]) {
                panic!(
                    "{}: the first {len} of {} bytes decode to a {}x{} image",
                    path.display(),
                    bytes.len(),
                    img.width(),
                    img.height()
                );
            }
            // Also through the PCX decoder directly (no magic check first).
            assert!(pcx::decode(&bytes[..len], &DecodeLimits::default()).is_err());
        }
    }
}

/// A tiny xorshift generator, so runs are repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What a decode of hostile data may return: an error, or an image within
/// the limits whose buffer matches its size.
fn check_hostile(data: &[u8], limits: &DecodeLimits) -> bool {
    match decode_with_limits(data, limits) {
        Ok(img) => {
            assert!(img.width() <= limits.max_width && img.height() <= limits.max_height);
            assert!(u64::from(img.width()) * u64::from(img.height()) * 4 <= limits.max_bytes);
            assert_eq!(
                img.pixels().len() as u64,
                u64::from(img.width()) * u64::from(img.height()) * 4
            );
            true
        }
        Err(_) => false,
    }
}

#[test]
fn mutated_pcx_headers_never_panic() {
    let Some(corpus) = corpus() else { return };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Small limits keep the debug-build run short; the checks are the same.
    let mut limits = DecodeLimits::default();
    limits.max_bytes = 1 << 20;
    let (mut ok, mut err) = (0, 0);
    for path in pcx_files(&corpus) {
        let original = read(&path);
        for _ in 0..1000 {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.below(4) {
                // Mostly the header, sometimes the pixel data or palette.
                let at = if rng.below(4) == 0 {
                    rng.below(bytes.len())
                } else {
                    rng.below(128)
                };
                bytes[at] = rng.next() as u8;
            }
            if check_hostile(&bytes, &limits) {
                ok += 1;
            } else {
                err += 1;
            }
        }
    }
    // Both outcomes happen: the mutations are neither all harmless nor all
    // fatal, so the run exercises the decoder past the header checks.
    assert!(ok > 0 && err > 0, "ok {ok}, err {err}");
}

#[test]
fn random_bytes_behind_every_magic_never_panic() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut limits = DecodeLimits::default();
    limits.max_bytes = 4 << 20;
    let magics: [&[u8]; 7] = [
        b"\x89PNG\r\n\x1a\n",
        &[0xff, 0xd8, 0xff],
        b"BM",
        &[0x0a, 5, 1, 8],
        &[0x0a, 5, 0, 8],
        &[0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4, 0, 32, 8],
        &[],
    ];
    for magic in magics {
        for _ in 0..1500 {
            let len = rng.below(3000);
            let mut data = magic.to_vec();
            data.extend((0..len).map(|_| rng.next() as u8));
            check_hostile(&data, &limits);
        }
    }
    // Pure noise: with no magic in front, decoding says so.
    let noise: Vec<u8> = (0..64).map(|i| 0x10 + i).collect();
    assert!(matches!(
        decode(&noise),
        Err(TextureError::UnknownFormat { .. })
    ));
    assert!(matches!(
        decode(&[]),
        Err(TextureError::UnknownFormat { .. })
    ));
}

/// Width and height from an image file's own header, read by hand.
fn header_size(bytes: &[u8]) -> (u32, u32) {
    let be32 = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    let le32 = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let be16 = |at: usize| u32::from(u16::from_be_bytes([bytes[at], bytes[at + 1]]));
    if bytes.starts_with(b"\x89PNG") {
        (be32(16), be32(20))
    } else if bytes.starts_with(b"BM") {
        (le32(18).unsigned_abs(), le32(22).unsigned_abs())
    } else if bytes.starts_with(&[0xff, 0xd8]) {
        // Walk the segments to the first start-of-frame marker.
        let mut at = 2;
        loop {
            assert_eq!(bytes[at], 0xff);
            let marker = bytes[at + 1];
            if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
                return (be16(at + 7), be16(at + 5));
            }
            at += 2 + be16(at + 2) as usize;
        }
    } else {
        panic!("unexpected format");
    }
}

#[test]
fn corpus_png_bmp_and_jpeg_skins_decode_with_their_header_sizes() {
    let Some(corpus) = corpus() else { return };
    // (file, format, size as `file(1)` reports it)
    let files = [
        (
            "gametrees/ufoai/models/aliens/alientank/alientank.png",
            ImageFormat::Png,
            (512, 512),
        ),
        (
            "gametrees/ufoai/models/objects/vegi/fern/fern.png",
            ImageFormat::Png,
            (256, 512),
        ),
        // A 1×1 16-bit RGB placeholder (the model says 512×512).
        (
            "gametrees/blobandconquer/textures/game/shotgunSpiderBlob.png",
            ImageFormat::Png,
            (1, 1),
        ),
        ("md2/faerie2.bmp", ImageFormat::Bmp, (220, 193)),
        ("md2/sydney.bmp", ImageFormat::Bmp, (308, 193)),
        // Progressive JPEG.
        ("ms3d/jeep1.jpg", ImageFormat::Jpeg, (512, 512)),
    ];
    for (file, format, size) in files {
        let bytes = read(&corpus.join(file));
        assert_eq!(ImageFormat::detect(&bytes), Some(format), "{file}");
        assert_eq!(header_size(&bytes), size, "{file}");
        let img = decode(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!((img.width(), img.height()), size, "{file}");
        assert_eq!(img.pixels().len(), (size.0 * size.1 * 4) as usize);
    }
}

/// An independent reader for uncompressed 8-bit BMPs (BITMAPINFOHEADER,
/// bottom-up rows padded to 4 bytes, BGRA palette after the header).
fn bmp8_rgba(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let le32 = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let le16 = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    assert_eq!(le16(28), 8, "bits per pixel");
    assert_eq!(le32(30), 0, "compression");
    let (w, h) = (le32(18) as usize, le32(22) as usize);
    let data = le32(10) as usize;
    let header_len = le32(14) as usize;
    let palette = &bytes[14 + header_len..data];
    let stride = w.div_ceil(4) * 4;
    let mut out = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        let row = &bytes[data + (h - 1 - y) * stride..][..w];
        for &i in row {
            let c = &palette[usize::from(i) * 4..][..4];
            out.extend_from_slice(&[c[2], c[1], c[0], 255]);
        }
    }
    (w as u32, h as u32, out)
}

#[test]
fn corpus_8bit_bmps_match_an_independent_reader() {
    let Some(corpus) = corpus() else { return };
    for file in ["md2/faerie2.bmp", "md2/sydney.bmp"] {
        let bytes = read(&corpus.join(file));
        let (w, h, want) = bmp8_rgba(&bytes);
        let img = decode(&bytes).unwrap();
        assert_eq!((img.width(), img.height()), (w, h));
        assert!(img.pixels() == want, "{file}: pixels differ");
    }
}

/// How many leading bytes of a PNG or BMP hold all of its pixel data, read
/// by hand: a PNG up to the end of its last IDAT chunk's data less the 4
/// bytes of zlib checksum, a BMP up to the last pixel of its top row
/// (stored last).
fn pixel_data_end(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"\x89PNG") {
        let mut at = 8;
        let mut end = 0;
        while at + 8 <= bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            if &bytes[at + 4..at + 8] == b"IDAT" {
                end = at + 8 + len - 4;
            }
            at += 12 + len;
        }
        end
    } else {
        let le32 = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let le16 = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let (w, h) = (le32(18) as usize, le32(22).unsigned_abs() as usize);
        let row = (w * usize::from(le16(28))).div_ceil(8);
        let stride = row.div_ceil(4) * 4;
        le32(10) as usize + stride * (h - 1) + row
    }
}

#[test]
fn prefixes_of_other_corpus_images_never_panic() {
    let Some(corpus) = corpus() else { return };
    let files = [
        "gametrees/ufoai/models/objects/vegi/fern/fern.png",
        "gametrees/blobandconquer/textures/game/shotgunSpiderBlob.png",
        "md2/faerie2.bmp",
        "ms3d/jeep1.jpg",
    ];
    for file in files {
        let bytes = read(&corpus.join(file));
        // About 40 prefixes per file (decoding is slow in debug builds),
        // always including the short ones and the last few.
        let step = (bytes.len() / 40).max(1);
        let lens = (0..64.min(bytes.len()))
            .chain((64..bytes.len()).step_by(step))
            .chain(bytes.len().saturating_sub(16)..bytes.len());
        let essential = if file.ends_with(".jpg") {
            0 // JPEG decoders may fill in what is missing: only "no panic"
        } else {
            pixel_data_end(&bytes)
        };
        for len in lens {
            let result = decode(&bytes[..len]);
            if len < essential {
                assert!(
                    result.is_err(),
                    "{file}: the {len}-byte prefix decodes (pixel data ends at {essential})"
                );
            }
        }
    }
}

#[test]
fn png_encoding_round_trips_and_drops_alpha_only_when_opaque() {
    let Some(corpus) = corpus() else { return };
    for path in pcx_files(&corpus) {
        let img = decode(&read(&path)).unwrap();
        assert!(img.is_opaque());
        let png = img.to_png().unwrap();
        assert_eq!(ImageFormat::detect(&png), Some(ImageFormat::Png));
        // IHDR colour type 2 = RGB (opaque images are written without alpha).
        assert_eq!(png[25], 2, "{}", path.display());
        assert_eq!(header_size(&png), (img.width(), img.height()));
        let (w, h, back) = reference_rgba_from_bytes(&png);
        assert_eq!((w, h), (img.width(), img.height()));
        assert_eq!(back, img.pixels());
    }
    // With transparency: RGBA (colour type 6), alpha kept.
    let img = Rgba8Image::new(
        2,
        2,
        vec![1, 2, 3, 0, 4, 5, 6, 64, 7, 8, 9, 128, 10, 11, 12, 255],
    )
    .unwrap();
    let png = img.to_png().unwrap();
    assert_eq!(png[25], 6);
    assert_eq!(decode(&png).unwrap(), img);
}

fn reference_rgba_from_bytes(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = image::codecs::png::PngDecoder::new(std::io::Cursor::new(png)).unwrap();
    let (w, h) = decoder.dimensions();
    let img = image::DynamicImage::from_decoder(decoder).unwrap();
    (w, h, img.into_rgba8().into_raw())
}

#[test]
fn limits_stop_large_images_before_decoding() {
    let Some(corpus) = corpus() else { return };
    let bytes = read(&corpus.join("gametrees/ufoai/models/aliens/alientank/alientank.png"));
    let mut limits = DecodeLimits::default();
    limits.max_width = 511;
    let err = decode_with_limits(&bytes, &limits).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::TooLarge {
                width: 512,
                height: 512,
                ..
            }
        ),
        "{err}"
    );
    let mut limits = DecodeLimits::default();
    limits.max_bytes = 512 * 512 * 4 - 1;
    assert!(matches!(
        decode_with_limits(&bytes, &limits),
        Err(TextureError::TooLarge { .. })
    ));
    limits.max_bytes = 512 * 512 * 4;
    assert!(decode_with_limits(&bytes, &limits).is_ok());
}

#[test]
fn texture_errors_convert_into_the_crate_error() {
    let err: retromodel::Error = decode(&[0x0a, 5, 1, 8, 0, 0]).unwrap_err().into();
    assert!(
        matches!(
            err,
            retromodel::Error::Truncated {
                needed: 128,
                file_len: 6,
                ..
            }
        ),
        "{err}"
    );
    let err: retromodel::Error = decode(b"GIF89a......").unwrap_err().into();
    assert!(matches!(err, retromodel::Error::Invalid { .. }), "{err}");
}

/// An 18-byte TGA header for a true-colour image.
fn tga_header(image_type: u8, w: u16, h: u16, bits: u8, descriptor: u8) -> Vec<u8> {
    let mut b = vec![0, 0, image_type, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    b.extend_from_slice(&w.to_le_bytes());
    b.extend_from_slice(&h.to_le_bytes());
    b.extend_from_slice(&[bits, descriptor]);
    b
}

#[test]
fn hand_made_tgas_decode_with_their_origin_and_alpha() {
    // 2×2, 24-bit BGR, origin bottom-left: the first stored row is the
    // bottom one.
    let mut tga = tga_header(2, 2, 2, 24, 0);
    tga.extend_from_slice(&[
        3, 2, 1, 6, 5, 4, // bottom row: (1,2,3) (4,5,6)
        9, 8, 7, 12, 11, 10, // top row: (7,8,9) (10,11,12)
    ]);
    assert_eq!(ImageFormat::detect(&tga), Some(ImageFormat::Tga));
    let img = decode(&tga).unwrap();
    assert_eq!(
        img.pixels(),
        &[7, 8, 9, 255, 10, 11, 12, 255, 1, 2, 3, 255, 4, 5, 6, 255]
    );

    // RLE (type 10), 32-bit BGRA, origin top-left (descriptor bit 5) with 8
    // alpha bits: a run of 3 then a raw packet of 1.
    let mut tga = tga_header(10, 2, 2, 32, 0x28);
    tga.extend_from_slice(&[0x82, 30, 20, 10, 40, 0x00, 3, 2, 1, 0]);
    assert_eq!(ImageFormat::detect(&tga), Some(ImageFormat::Tga));
    let img = decode(&tga).unwrap();
    assert_eq!(img.pixel(0, 0), Some([10, 20, 30, 40]));
    assert_eq!(img.pixel(1, 1), Some([1, 2, 3, 0]));
    assert!(!img.is_opaque());

    // Cut short: an error.
    assert!(decode(&tga[..tga.len() - 2]).is_err());
}

#[test]
fn detection_tells_the_corpus_formats_apart() {
    let Some(corpus) = corpus() else { return };
    // No file of one format is taken for another (TGA has no magic, so
    // this checks its heuristic does not claim the others).
    for (dir, ext, format) in [
        ("skins", "pcx", ImageFormat::Pcx),
        ("skins", "png", ImageFormat::Png),
        ("md2", "bmp", ImageFormat::Bmp),
        ("ms3d", "jpg", ImageFormat::Jpeg),
    ] {
        for entry in std::fs::read_dir(corpus.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == ext) {
                assert_eq!(
                    ImageFormat::detect(&read(&path)),
                    Some(format),
                    "{}",
                    path.display()
                );
            }
        }
    }
    // Model files are no images.
    for file in ["md2/assimpdeb_faerie.md2", "ms3d/assimpdeb_jeep1.ms3d"] {
        assert_eq!(
            ImageFormat::detect(&read(&corpus.join(file))),
            None,
            "{file}"
        );
    }
}
