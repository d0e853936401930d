//! Checks of the exporters on any input (shared by the `export` fuzz target
//! and `crates/retromodel/tests/regression.rs`): whatever parses as MD2 or
//! MS3D is turned into a scene and exported to GLB (plain and quantized,
//! and with feature `meshopt` each also compressed), `.gltf` + `.bin` and
//! OBJ, and the GLB is checked for the structure glTF requires: a header
//! whose length is the file's, JSON that parses, every buffer view inside
//! the buffer, every accessor inside its view, every index below its
//! primitive's vertex count.
//!
//! Needs the library's `gltf` feature (this crate's feature `export`).
//!
//! Every check panics on failure: that is how the fuzzer notices.

use retromodel::gltf::{to_gltf_with, Glb, GltfOptions};
use retromodel::md2::Md2;
use retromodel::md2::Md2SceneOptions;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{Clip, Ms3d};
use retromodel::obj::{apply_morph_target, apply_pose, to_obj, ObjOptions};
use retromodel::scene::{Pose, Scene};
use serde_json::Value;

/// Exports whatever `data` parses as; returns how many scenes were
/// exported (0, 1 or 2).
pub fn exercise_export(data: &[u8]) -> usize {
    let mut exported = 0;
    if let Ok(model) = Md2::from_bytes(data) {
        let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        check_scene_exports(&scene);
        let mut posed = scene.clone();
        if apply_morph_target(&mut posed, model.frames.len().saturating_sub(1)).is_ok() {
            let _ = to_obj(&posed, &ObjOptions::default());
        }
        exported += 1;
    }
    if let Ok(model) = Ms3d::from_bytes(data) {
        // A cycle in the joints' parents is an error, not a scene.
        if let Ok(scene) = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()) {
            check_scene_exports(&scene);
            // Clips cut the timeline's curves: two overlapping halves (a
            // valid range whatever the timeline's length).
            let total = model.total_frames.max(0) as f32;
            let clips = vec![
                Clip {
                    name: "a".into(),
                    first_frame: 0.0,
                    last_frame: total / 2.0,
                },
                Clip {
                    name: "b".into(),
                    first_frame: total / 3.0,
                    last_frame: total,
                },
            ];
            let options = Ms3dSceneOptions {
                clips,
                ..Ms3dSceneOptions::default()
            };
            if let Ok(clipped) = Scene::from_ms3d(&model, &options) {
                check_scene_exports(&clipped);
            }
            if let Ok(mut pose) = Pose::new(&scene) {
                pose.sample(&scene, 0, 0.5);
                let mut posed = scene.clone();
                apply_pose(&mut posed, &pose);
                let _ = to_obj(&posed, &ObjOptions::default());
            }
            exported += 1;
        }
    }
    exported
}

/// GLB (plain and quantized, each also compressed with feature `meshopt`)
/// and `.gltf` of `scene`, the GLB checked.
pub fn check_scene_exports(scene: &Scene) {
    if has_non_finite(scene) {
        // A corrupt file (an MD2 frame whose scale overflows when decoded)
        // makes infinities, which glTF cannot hold: refused, with a reason.
        let Err(refused) = Glb::new(scene, &GltfOptions::default()) else {
            panic!("a scene with a number that is not finite was exported");
        };
        assert!(
            refused
                .to_string()
                .contains("glTF holds only finite numbers"),
            "{refused}"
        );
        return;
    }
    for quantize in [false, true] {
        let options = GltfOptions {
            quantize,
            ..GltfOptions::default()
        };
        let glb = Glb::new(scene, &options).expect("a scene from a parsed model exports");
        let bytes = glb.to_vec();
        assert_eq!(bytes.len(), glb.byte_len());
        check_glb(&bytes);
        let (json, bin) = to_gltf_with(scene, "model.bin", &options).expect(".gltf exports");
        let doc: Value = serde_json::from_str(&json).expect(".gltf JSON parses");
        check_document(&doc, &bin);
        // Compressed (EXT_meshopt_compression): exports; its views are
        // checked against the uncompressed ones in tests/gltf_meshopt.rs.
        // Without the library's `meshopt` feature compression is an error.
        #[cfg(feature = "meshopt")]
        {
            let compressed = GltfOptions {
                compress: true,
                ..options
            };
            let glb = Glb::new(scene, &compressed).expect("a compressed export");
            assert_eq!(glb.to_vec().len(), glb.byte_len());
        }
    }
}

/// Whether any number of the scene that an export writes is infinite or
/// NaN (written here apart from the library's own check).
pub fn has_non_finite(scene: &Scene) -> bool {
    fn bad<'a>(xs: impl IntoIterator<Item = &'a f32>) -> bool {
        xs.into_iter().any(|x| !x.is_finite())
    }
    scene.meshes.iter().any(|m| {
        bad(m.positions.iter().flatten())
            || bad(m.normals.iter().flatten())
            || bad(m.uvs.iter().flatten())
            || bad(&m.morph_weights)
            || m.morph_targets
                .iter()
                .any(|t| bad(t.positions.iter().flatten()) || bad(t.normals.iter().flatten()))
            || m.skin
                .as_ref()
                .is_some_and(|s| s.sets().any(|(_, w)| bad(w.iter().flatten())))
    }) || scene
        .nodes
        .iter()
        .any(|n| bad(n.translation.iter().chain(&n.rotation).chain(&n.scale)))
        || scene
            .skins
            .iter()
            .any(|s| bad(s.inverse_bind_matrices.iter().flatten()))
        || scene.animations.iter().any(|a| {
            a.channels
                .iter()
                .any(|c| bad(c.times.iter().chain(&c.values)))
        })
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// The GLB container and its document.
pub fn check_glb(bytes: &[u8]) {
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(u32_at(bytes, 4), 2, "version");
    assert_eq!(u32_at(bytes, 8), bytes.len(), "header length");
    let json_len = u32_at(bytes, 12);
    assert_eq!(&bytes[16..20], b"JSON");
    assert_eq!(json_len % 4, 0);
    let doc: Value = serde_json::from_slice(&bytes[20..20 + json_len]).expect("JSON parses");
    let rest = &bytes[20 + json_len..];
    let bin = if rest.is_empty() {
        &rest[..0]
    } else {
        let len = u32_at(rest, 0);
        assert_eq!(&rest[4..8], b"BIN\0");
        assert_eq!(rest.len(), 8 + len, "one binary chunk, to the end");
        &rest[8..]
    };
    check_document(&doc, bin);
}

/// Bytes per component of a glTF component type.
fn component_size(t: u64) -> usize {
    match t {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        5125 | 5126 => 4,
        other => panic!("component type {other}"),
    }
}

/// Components per element of a glTF accessor type.
fn component_count(t: &str) -> usize {
    match t {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        other => panic!("accessor type {other}"),
    }
}

/// Every view inside the buffer, every accessor inside its view, every
/// index in range.
pub fn check_document(doc: &Value, bin: &[u8]) {
    let empty = Vec::new();
    let list = |key: &str| doc[key].as_array().unwrap_or(&empty).clone();
    let buffers = list("buffers");
    if let Some(b) = buffers.first() {
        let len = b["byteLength"].as_u64().unwrap() as usize;
        assert!(len <= bin.len() && bin.len() <= len + 3, "buffer length");
    }
    let views = list("bufferViews");
    for v in &views {
        let end = v["byteOffset"].as_u64().unwrap_or(0) + v["byteLength"].as_u64().unwrap();
        assert!(end as usize <= bin.len(), "view past the buffer");
    }
    let accessors = list("accessors");
    for a in &accessors {
        let count = a["count"].as_u64().unwrap() as usize;
        let elem = component_size(a["componentType"].as_u64().unwrap())
            * component_count(a["type"].as_str().unwrap());
        let Some(view) = a["bufferView"].as_u64() else {
            continue;
        };
        let v = &views[view as usize];
        let stride = v["byteStride"].as_u64().map_or(elem, |s| s as usize);
        let needed = a["byteOffset"].as_u64().unwrap_or(0) as usize
            + if count == 0 {
                0
            } else {
                stride * (count - 1) + elem
            };
        assert!(
            needed <= v["byteLength"].as_u64().unwrap() as usize,
            "accessor past its view"
        );
    }
    for mesh in list("meshes") {
        for p in mesh["primitives"].as_array().unwrap() {
            let position = p["attributes"]["POSITION"].as_u64().unwrap() as usize;
            let vertices = accessors[position]["count"].as_u64().unwrap();
            for a in p["attributes"].as_object().unwrap().values() {
                let count = accessors[a.as_u64().unwrap() as usize]["count"].as_u64();
                assert_eq!(count, Some(vertices), "attribute counts differ");
            }
            let Some(ix) = p["indices"].as_u64() else {
                continue;
            };
            let a = &accessors[ix as usize];
            let size = component_size(a["componentType"].as_u64().unwrap());
            let v = &views[a["bufferView"].as_u64().unwrap() as usize];
            let start = v["byteOffset"].as_u64().unwrap_or(0) as usize;
            let count = a["count"].as_u64().unwrap() as usize;
            for k in 0..count {
                let at = start + k * size;
                let index = match size {
                    2 => u64::from(u16::from_le_bytes([bin[at], bin[at + 1]])),
                    _ => u32_at(bin, at) as u64,
                };
                assert!(index < vertices, "index {index} of {vertices} vertices");
            }
        }
    }
}
