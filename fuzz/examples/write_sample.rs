//! Writes the library's built-in sample models as fuzzing seeds into each
//! directory given: `sample.md2` (`md2::sample::sample_model()`) into the
//! directories of `md2_*` targets; `sample.ms3d`
//! (`ms3d::sample::sample_model()`, every 1.8 extra) and variants of it with
//! the extras in the other shapes real files have into those of `ms3d_*`
//! targets; our glTF exports of both (GLB plain, quantized and compressed,
//! and `.gltf` with the buffer as a `data:` URI) into those of `gltf_*`
//! targets (and `sample.txt`, the MS3D sample as MilkShape ASCII, into
//! `ms3d_ascii`'s); all the models into any other:
//!
//! ```text
//! cargo run --manifest-path fuzz/Cargo.toml --example write_sample -- fuzz/corpus/md2_parse fuzz/corpus/ms3d_parse
//! ```

use std::path::PathBuf;

use retromodel::ms3d::{Extras, ModelComment, Ms3d};

/// The MS3D sample and variants of its extras, by file name.
fn ms3d_samples() -> Result<Vec<(String, Vec<u8>)>, retromodel::Error> {
    let full = retromodel::ms3d::sample::sample_model();
    let mut variants: Vec<(&str, Ms3d)> = vec![("sample.ms3d", full.clone())];

    // Subversion-2 vertex extras (10-byte records), `{index, length, text}`
    // model comment.
    let mut m = full.clone();
    if let Some(v) = m.extras.vertices.as_mut() {
        v.subversion = 2;
        v.record_size = 10;
    }
    if let Some(c) = m.extras.comments.as_mut() {
        c.model = ModelComment::IndexLengthText {
            index: 0,
            text: b"wave:1-30".to_vec(),
        };
    }
    variants.push(("sample_vx2_indexed_comment.ms3d", m));

    // Subversion-1 vertex extras (6-byte records), nothing after them.
    let mut m = full.clone();
    if let Some(v) = m.extras.vertices.as_mut() {
        v.subversion = 1;
        v.record_size = 6;
    }
    m.extras.joints = None;
    m.extras.model = None;
    variants.push(("sample_vx1.ms3d", m));

    // Comments only, without a model comment, and some trailing bytes.
    let mut m = full.clone();
    m.extras.vertices = None;
    m.extras.joints = None;
    m.extras.model = None;
    if let Some(c) = m.extras.comments.as_mut() {
        c.model = ModelComment::None(0);
    }
    m.trailing = b"trailing".to_vec();
    variants.push(("sample_comments_only.ms3d", m));

    // Version 3, no extras.
    let mut m = full;
    m.version = 3;
    m.extras = Extras::default();
    variants.push(("sample_v3_core.ms3d", m));

    variants
        .into_iter()
        .map(|(name, m)| Ok((name.to_string(), m.to_bytes()?)))
        .collect()
}

/// GLB and `.gltf` exports of the sample models.
fn gltf_samples() -> Result<Vec<(String, Vec<u8>)>, retromodel::Error> {
    use retromodel::gltf::{to_glb_with, to_gltf_with, GltfOptions};
    use retromodel::md2::Md2SceneOptions;
    use retromodel::ms3d::Ms3dSceneOptions;
    use retromodel::scene::Scene;
    let scenes = [
        (
            "sample_md2",
            Scene::from_md2(
                &retromodel::md2::sample::sample_model(),
                &Md2SceneOptions::default(),
            ),
        ),
        (
            "sample_ms3d",
            Scene::from_ms3d(
                &retromodel::ms3d::sample::sample_model(),
                &Ms3dSceneOptions::default(),
            )?,
        ),
    ];
    let mut out = Vec::new();
    for (name, scene) in &scenes {
        for (suffix, quantize, compress) in
            [("", false, false), (".q", true, false), (".qc", true, true)]
        {
            let options = GltfOptions { quantize, compress };
            out.push((format!("{name}{suffix}.glb"), to_glb_with(scene, &options)?));
        }
        let (json, bin) = to_gltf_with(scene, "BIN", &GltfOptions::default())?;
        let uri = format!("data:application/octet-stream;base64,{}", base64(&bin));
        out.push((
            format!("{name}.gltf"),
            json.replace("\"uri\": \"BIN\"", &format!("\"uri\": \"{uri}\""))
                .into_bytes(),
        ));
    }
    Ok(out)
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            out.push(if k <= chunk.len() {
                ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let md2 = [(
        "sample.md2".to_string(),
        retromodel::md2::sample::sample_model().to_bytes()?,
    )];
    let ms3d = ms3d_samples()?;
    let gltf = gltf_samples()?;
    let ascii = [(
        "sample.txt".to_string(),
        retromodel::ms3d::ascii::AsciiModel::from_ms3d(&retromodel::ms3d::sample::sample_model())
            .to_text()
            .into_bytes(),
    )];
    for dir in std::env::args_os().skip(1).map(PathBuf::from) {
        std::fs::create_dir_all(&dir)?;
        let target = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let samples: Vec<&(String, Vec<u8>)> = if target.starts_with("md2_") {
            md2.iter().collect()
        } else if target == "ms3d_ascii" {
            ms3d.iter().chain(&ascii).collect()
        } else if target.starts_with("ms3d_") {
            ms3d.iter().collect()
        } else if target.starts_with("gltf_") {
            gltf.iter().collect()
        } else {
            md2.iter().chain(&ms3d).collect()
        };
        for (name, bytes) in samples {
            let path = dir.join(name);
            std::fs::write(&path, bytes)?;
            println!("{}: {} bytes", path.display(), bytes.len());
        }
    }
    Ok(())
}
