//! `GltfOptions::compress` (EXT_meshopt_compression): every compressed view
//! decodes to exactly the bytes of the same view exported without
//! compression (triangles may be rotated by the index codec, so they are
//! compared up to rotation), and the document has the extension's layout:
//! buffer 0 with the data, buffer 1 the fallback. Decoded here with
//! meshoptimizer-rs's decoder (the encoder's crate: this checks the views'
//! offsets, strides and counts); accept.sh has three.js's MeshoptDecoder
//! (meshoptimizer's own, compiled to WebAssembly) load the same kind of
//! files and compare them with the uncompressed export.

#![cfg(feature = "meshopt")]

use meshoptimizer_rs::codec::{decode_index_buffer, decode_vertex_buffer};
use meshoptimizer_rs::{Limits, Workspace};
use retromodel::gltf::{to_glb_with, GltfOptions};
use retromodel::md2::sample::sample_model;
use retromodel::md2::Md2;
use retromodel::md2::Md2SceneOptions;
use retromodel::ms3d::Ms3d;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::glb::parse_glb;
use serde_json::Value;

/// Rotates each triangle to start at its smallest index (same winding).
fn canonical_triangles(indices: &[u32]) -> Vec<u32> {
    let mut out = indices.to_vec();
    for t in out.chunks_exact_mut(3) {
        while t[0] > t[1] || t[0] > t[2] {
            t.rotate_left(1);
        }
    }
    out
}

fn usize_of(v: &Value) -> usize {
    v.as_u64().expect("a count or offset") as usize
}

/// Decodes one compressed view (its extension object `ext`) from `bin`.
fn decode(ext: &Value, bin: &[u8]) -> Vec<u8> {
    let (offset, length) = (usize_of(&ext["byteOffset"]), usize_of(&ext["byteLength"]));
    let (stride, count) = (usize_of(&ext["byteStride"]), usize_of(&ext["count"]));
    let data = &bin[offset..offset + length];
    let mut workspace = Workspace::new(Limits::default());
    match ext["mode"].as_str() {
        Some("ATTRIBUTES") => decode_vertex_buffer(count, stride, data, &mut workspace)
            .expect("vertex stream decodes"),
        Some("TRIANGLES") => {
            decode_index_buffer(count, stride, data, &mut workspace).expect("index stream decodes")
        }
        mode => panic!("mode {mode:?}"),
    }
}

/// Exports `scene` with and without compression (both quantized or both
/// not) and checks the compressed one against the other, view by view.
/// Returns (compressed, uncompressed) sizes.
fn check(scene: &Scene, quantize: bool) -> (usize, usize) {
    let plain = to_glb_with(
        scene,
        &GltfOptions {
            quantize,
            compress: false,
        },
    )
    .unwrap();
    let packed = to_glb_with(
        scene,
        &GltfOptions {
            quantize,
            compress: true,
        },
    )
    .unwrap();
    let (plain_doc, doc) = (parse_glb(&plain), parse_glb(&packed));
    let required = doc.json["extensionsRequired"].as_array().unwrap();
    assert!(required.iter().any(|e| e == "EXT_meshopt_compression"));
    let buffers = doc.json["buffers"].as_array().unwrap();
    assert_eq!(buffers.len(), 2);
    assert_eq!(usize_of(&buffers[0]["byteLength"]), doc.bin.len());
    assert_eq!(
        buffers[1]["extensions"]["EXT_meshopt_compression"]["fallback"],
        true
    );
    assert!(buffers[1].get("uri").is_none());

    let views = doc.json["bufferViews"].as_array().unwrap();
    let plain_views = plain_doc.json["bufferViews"].as_array().unwrap();
    assert_eq!(views.len(), plain_views.len());
    let mut compressed = 0;
    for (i, (view, plain_view)) in views.iter().zip(plain_views).enumerate() {
        let offset = usize_of(&plain_view["byteOffset"]);
        let want = &plain_doc.bin[offset..offset + usize_of(&plain_view["byteLength"])];
        assert_eq!(view["byteLength"], plain_view["byteLength"], "view {i}");
        let ext = &view["extensions"]["EXT_meshopt_compression"];
        if ext.is_null() {
            assert_eq!(view["buffer"], 0, "view {i}");
            let at = usize_of(&view["byteOffset"]);
            assert_eq!(&doc.bin[at..at + want.len()], want, "view {i} kept as is");
            continue;
        }
        compressed += 1;
        assert_eq!(
            view["buffer"], 1,
            "view {i} points into the fallback buffer"
        );
        assert_eq!(ext["buffer"], 0);
        let got = decode(ext, &doc.bin);
        if ext["mode"] == "TRIANGLES" {
            let as_u32 = |b: &[u8]| -> Vec<u32> {
                match usize_of(&ext["byteStride"]) {
                    2 => b
                        .chunks_exact(2)
                        .map(|c| u16::from_le_bytes([c[0], c[1]]).into())
                        .collect(),
                    _ => b
                        .chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect(),
                }
            };
            assert_eq!(
                canonical_triangles(&as_u32(&got)),
                canonical_triangles(&as_u32(want)),
                "view {i}: triangles"
            );
        } else {
            assert_eq!(got, want, "view {i}: decoded bytes");
        }
    }
    assert!(compressed > 0, "some view was compressed");
    (packed.len(), plain.len())
}

#[test]
fn sample_md2_compressed_views_decode_to_the_uncompressed_bytes() {
    let scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    for quantize in [false, true] {
        let (packed, plain) = check(&scene, quantize);
        assert!(packed < plain, "quantize {quantize}: {packed} >= {plain}");
    }
}

#[test]
fn corpus_models_compressed_views_decode_to_the_uncompressed_bytes() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let md2 = std::fs::read(dir.join("md2/assimpdeb_faerie.md2")).unwrap();
    let scene = Scene::from_md2(&Md2::from_bytes(&md2).unwrap(), &Md2SceneOptions::default());
    let (packed, plain) = check(&scene, true);
    eprintln!(
        "faerie: md2 {} B, --quantize {plain} B, --quantize --compress {packed} B ({:.2}x the md2)",
        md2.len(),
        packed as f64 / md2.len() as f64
    );
    // Measured 2.47x (4.12x without compression); the aim in issue 4 is 2x.
    assert!(packed * 100 < md2.len() * 260);
    for name in ["glscene_Woman4.ms3d", "assimpdeb_jeep1.ms3d"] {
        let bytes = std::fs::read(dir.join("ms3d").join(name)).unwrap();
        let model = Ms3d::from_bytes(&bytes).unwrap();
        let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).unwrap();
        for quantize in [false, true] {
            let (packed, plain) = check(&scene, quantize);
            assert!(packed < plain, "{name}: {packed} >= {plain}");
        }
    }
}
