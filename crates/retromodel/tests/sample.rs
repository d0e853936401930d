//! The sample model checked in under `examples/models/` is exactly what the
//! crate's own writer produces, and it has the structure the README promises.

use retromodel::md2::sample::{sample_model, sample_skin_pcx, SKIN_SIZE};
use retromodel::md2::Md2;
use std::path::PathBuf;

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/models")
}

#[test]
fn checked_in_sample_is_regenerated_byte_for_byte() {
    let on_disk =
        std::fs::read(models_dir().join("sample.md2")).expect("examples/models/sample.md2");
    assert_eq!(
        on_disk,
        sample_model().to_bytes().unwrap(),
        "run `cargo run -p retromodel --example make_sample`"
    );
    let skin = std::fs::read(models_dir().join("sample.pcx")).expect("examples/models/sample.pcx");
    assert_eq!(skin, sample_skin_pcx());
}

#[test]
fn sample_has_stand_and_run_and_a_skin() {
    let bytes = std::fs::read(models_dir().join("sample.md2")).unwrap();
    // Header facts read straight from the bytes.
    let field = |i: usize| i32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!(&bytes[..4], b"IDP2");
    assert_eq!(field(1), 8);
    assert_eq!(
        (field(2), field(3)),
        (SKIN_SIZE.0 as i32, SKIN_SIZE.1 as i32)
    );
    assert_eq!(field(5), 1, "one skin");
    assert_eq!(field(6), 48, "six boxes of eight vertices");
    assert_eq!(field(8), 72, "six boxes of twelve triangles");
    assert_eq!(field(10), 16, "ten stand and six run frames");
    assert_eq!(field(16) as usize, bytes.len(), "ofs_end is the file size");
    assert_eq!(&bytes[68..78], b"sample.pcx");

    let model = Md2::from_bytes(&bytes).unwrap();
    assert!(model.validate().is_empty(), "{:?}", model.validate());
    let anims: Vec<_> = model
        .animations()
        .into_iter()
        .map(|a| (a.name, a.first_frame, a.frame_count))
        .collect();
    assert_eq!(
        anims,
        [("stand".to_string(), 0, 10), ("run".to_string(), 10, 6)]
    );

    // The figure stands on the ground (z = 0) and is 50 units tall.
    let mut p = vec![[0.0f32; 3]; model.vertex_count()];
    model.frames[0].decode_positions(&mut p);
    let min_z = p.iter().map(|v| v[2]).fold(f32::INFINITY, f32::min);
    let max_z = p.iter().map(|v| v[2]).fold(f32::NEG_INFINITY, f32::max);
    assert!(min_z.abs() < 0.6, "feet at {min_z}");
    assert!((max_z - 50.0).abs() < 1.0, "head top at {max_z}");

    // The run frames differ from each other (the limbs swing).
    assert_ne!(model.frames[10].vertices, model.frames[13].vertices);
}

#[test]
fn sample_skin_is_a_valid_rle_pcx() {
    let pcx = sample_skin_pcx();
    let (w, h) = (SKIN_SIZE.0 as usize, SKIN_SIZE.1 as usize);
    assert_eq!(u16::from_le_bytes([pcx[8], pcx[9]]) as usize, w - 1);
    assert_eq!(u16::from_le_bytes([pcx[10], pcx[11]]) as usize, h - 1);
    // Decode the RLE stream by hand and count pixels.
    let data = &pcx[128..pcx.len() - 769];
    let (mut i, mut pixels) = (0, 0);
    while i < data.len() {
        if data[i] >= 0xc0 {
            pixels += (data[i] & 0x3f) as usize;
            i += 2;
        } else {
            pixels += 1;
            i += 1;
        }
    }
    assert_eq!(pixels, w * h);
}
