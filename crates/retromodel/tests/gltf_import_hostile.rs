//! Hostile glTF documents: each is an error or a warning with the JSON
//! pointer of the fault, never a panic, an unbounded allocation or a long
//! run (each case must finish in under 5 s, in a debug build).

#![cfg(feature = "gltf")]

use std::time::{Duration, Instant};

use retromodel::gltf::{import, Import, ImportOptions};
use retromodel::scene::Pose;
use retromodel_testkit::gltf_builder::{
    component as c, f32_bytes, glb_container, u16_bytes, Builder,
};
use serde_json::json;

const TRIANGLE: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// Imports within 5 s.
fn timed(bytes: &[u8], options: &ImportOptions) -> Result<Import, String> {
    let start = Instant::now();
    let r = import(bytes, None, options).map_err(|e| e.to_string());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    r
}

fn error(bytes: &[u8]) -> String {
    match timed(bytes, &ImportOptions::default()) {
        Ok(i) => panic!("imported; warnings {:?}", i.warnings),
        Err(e) => e,
    }
}

fn ok(bytes: &[u8]) -> Import {
    timed(bytes, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn triangle() -> Builder {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    b
}

#[test]
fn glb_container_faults() {
    let good = triangle().glb();
    // Declared length beyond the file, shorter than its chunks, a chunk
    // running past the end, the BIN first, not version 2.
    let mut long = good.clone();
    long[8..12].copy_from_slice(&(good.len() as u32 + 4).to_le_bytes());
    assert_eq!(
        error(&long),
        format!(
            "glTF GLB header: declares {} bytes but the file is {} bytes long",
            good.len() + 4,
            good.len()
        )
    );
    for cut in [0, 3, 11, 12, 19, 20, 40, good.len() - 1] {
        let mut short = good[..cut].to_vec();
        if short.len() >= 12 {
            let n = short.len() as u32;
            short[8..12].copy_from_slice(&n.to_le_bytes());
        }
        let e = error(&short);
        assert!(
            e.starts_with("glTF GLB") || e.starts_with("glTF document") || e.starts_with("glTF /"),
            "cut {cut}: {e}"
        );
    }
    let mut chunk = good.clone();
    chunk[12..16].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    assert!(error(&chunk)
        .starts_with("glTF GLB chunk 0: 4294967280 bytes at offset 20 run past the end"));
    let mut version = good.clone();
    version[4] = 1;
    assert_eq!(
        error(&version),
        "glTF GLB header: version 1 is not supported (only glTF 2)"
    );
    let bin_first = glb_container(b"{}", Some(b"abcd"));
    let mut swapped = bin_first.clone();
    swapped[16..20].copy_from_slice(b"BIN\0");
    assert!(error(&swapped).contains("the first chunk must be JSON"));
    // The BIN chunk shorter than buffer 0.
    let b = triangle();
    let mut doc = b.json.clone();
    doc["buffers"] = json!([{"byteLength": 4096}]);
    let glb = glb_container(
        serde_json::to_string(&doc).unwrap().as_bytes(),
        Some(&b.bin),
    );
    assert_eq!(
        error(&glb),
        "glTF /buffers/0/byteLength: 4096 bytes declared, but the data has 36"
    );
    // No BIN chunk at all.
    let glb = glb_container(serde_json::to_string(&doc).unwrap().as_bytes(), None);
    assert!(error(&glb).contains("no uri, and the document has no GLB BIN chunk"));
    // Not JSON, JSON that is not an object, too deep.
    assert!(error(b"{\"asset\": ").starts_with("glTF document: not valid JSON"));
    assert!(error(b"[1, 2]").starts_with("glTF document: expected a JSON object"));
    let deep = "[".repeat(100_000);
    assert!(error(deep.as_bytes()).contains("recursion limit"));
    let deep = format!(
        "{{\"asset\":{{\"version\":\"2.0\"}},\"extras\":{}{}}}",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    assert!(error(deep.as_bytes()).contains("recursion limit"));
    assert_eq!(
        error(br#"{"asset": {"version": "1.0"}}"#),
        "glTF /asset/version: glTF 1.0 is not supported (only 2.x)"
    );
    assert_eq!(error(br#"{}"#), "glTF /asset: missing (required)");
}

#[test]
fn accessors_are_checked_against_their_views() {
    // The brief's example: 900 VEC3 floats in a 512-byte view.
    let mut b = Builder::new();
    let v = b.view(&[0u8; 512], None);
    let pos = b.accessor(Some(v), 0, c::F32, "VEC3", 900, false);
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/count: 900 elements of 12 bytes (stride 12) from byte 0 need 10800 bytes but buffer view 0 has 512"
    );
    // A count that would overflow any multiplication.
    b.json["accessors"][0]["count"] = json!(u64::MAX);
    assert!(error(&b.glb()).starts_with("glTF /accessors/0/count: 18446744073709551615 elements"));
    // byteOffset past the view, a view past its buffer, a bad stride, a
    // stride shorter than the element.
    let mut b = triangle();
    b.json["accessors"][0]["byteOffset"] = json!(4);
    assert!(error(&b.glb()).starts_with(
        "glTF /accessors/0/count: 3 elements of 12 bytes (stride 12) from byte 4 need 40 bytes"
    ));
    let mut b = triangle();
    b.json["bufferViews"][0]["byteOffset"] = json!(8);
    assert_eq!(
        error(&b.glb()),
        "glTF /bufferViews/0: bytes 8..44 are past the end of buffer 0 (36 bytes)"
    );
    let mut b = triangle();
    b.json["bufferViews"][0]["byteStride"] = json!(6);
    assert_eq!(
        error(&b.glb()),
        "glTF /bufferViews/0/byteStride: 6 is not a multiple of 4 from 4 to 252"
    );
    let mut b = triangle();
    b.json["bufferViews"][0]["byteStride"] = json!(8);
    assert!(error(&b.glb()).starts_with(
        "glTF /bufferViews/0/byteStride: stride 8 is shorter than the 12-byte elements"
    ));
    // Bad types, references to nothing.
    let mut b = triangle();
    b.json["accessors"][0]["componentType"] = json!(5124);
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/componentType: 5124 is not a component type"
    );
    let mut b = triangle();
    b.json["accessors"][0]["type"] = json!("VEC5");
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/type: \"VEC5\" is not an accessor type"
    );
    let mut b = triangle();
    b.json["accessors"][0]["type"] = json!("VEC2");
    assert!(error(&b.glb()).contains("POSITION accessor 0 is VEC2, expected VEC3"));
    let mut b = triangle();
    b.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(7);
    assert_eq!(
        error(&b.glb()),
        "glTF /meshes/0/primitives/0/attributes/POSITION: accessor 7 does not exist (1 accessors)"
    );
    let mut b = triangle();
    b.json["accessors"][0]["bufferView"] = json!(3);
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/bufferView: buffer view 3 does not exist (1 bufferViews)"
    );
    let mut b = triangle();
    b.json["accessors"][0]["count"] = json!(0);
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/count: must be at least 1"
    );
    let mut b = triangle();
    b.json["accessors"][0]["normalized"] = json!(true);
    b.json["accessors"][0]["componentType"] = json!(c::U32);
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/normalized: UNSIGNED_INT data cannot be normalized"
    );
}

#[test]
fn sparse_faults() {
    let mut b = triangle();
    let si = b.view(&[5, 0, 0, 0], None);
    let sv = b.view(&f32_bytes(&[1.0, 2.0, 3.0]), None);
    b.json["accessors"][0]["sparse"] = json!({"count": 1, "indices": {"bufferView": si, "componentType": c::U8}, "values": {"bufferView": sv}});
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/sparse/indices: index 0 is 5, out of range for the 3 elements"
    );
    b.json["accessors"][0]["sparse"]["count"] = json!(4);
    assert_eq!(
        error(&b.glb()),
        "glTF /accessors/0/sparse/count: 4 is not from 1 to the accessor's count 3"
    );
    b.json["accessors"][0]["sparse"]["count"] = json!(2);
    b.json["accessors"][0]["sparse"]["indices"]["componentType"] = json!(c::U32);
    assert!(error(&b.glb()).starts_with("glTF /accessors/0/sparse/indices: 2 indices of 4 bytes from byte 0 need 8 bytes but buffer view 1 has 4"));
    b.json["accessors"][0]["sparse"]["indices"]["componentType"] = json!(c::F32);
    assert!(error(&b.glb()).contains("is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT"));
    // Indices that do not increase: applied in order, with a warning.
    let mut b = triangle();
    let si = b.view(&[2, 1, 0, 0], None);
    let sv = b.view(&f32_bytes(&[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]), None);
    b.json["accessors"][0]["sparse"] = json!({"count": 2, "indices": {"bufferView": si, "componentType": c::U8}, "values": {"bufferView": sv}});
    let i = ok(&b.glb());
    assert_eq!(i.scene.meshes[0].positions[1], [2.0; 3]);
    assert!(i.warnings.iter().any(
        |w| w.path == "/accessors/0/sparse/indices" && w.message.contains("does not increase")
    ));
}

#[test]
fn indices_out_of_range_and_non_finite_values() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let ix = b.u16s(&[0, 1, 3]);
    b.triangle_mesh(json!({"POSITION": pos}), Some(ix), 4);
    assert_eq!(error(&b.glb()), "glTF /meshes/0/primitives/0/indices: index 2 of accessor 1 is 3, out of range for the 3 vertices");
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut p = TRIANGLE;
        p[4] = bad;
        let mut b = Builder::new();
        let pos = b.floats(&p, "VEC3");
        b.triangle_mesh(json!({"POSITION": pos}), None, 4);
        assert_eq!(
            error(&b.glb()),
            format!("glTF /accessors/0: element 1 component 1 is {bad}, not a finite number")
        );
    }
    // In JSON, numbers out of f32's range.
    let mut b = triangle();
    b.json["nodes"][0]["translation"] = json!([1e39, 0, 0]);
    assert_eq!(error(&b.glb()), "glTF /nodes/0/translation: element 0: 1000000000000000000000000000000000000000 is not a finite 32-bit float");
    // Attribute counts that disagree.
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let nor = b.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC3");
    b.triangle_mesh(json!({"POSITION": pos, "NORMAL": nor}), None, 4);
    assert_eq!(error(&b.glb()), "glTF /meshes/0/primitives/0/attributes/NORMAL: accessor 1 has 2 elements, but POSITION has 3");
}

#[test]
fn node_graph_faults() {
    let mut b = triangle();
    b.json["nodes"] = json!([{"mesh": 0, "children": [1]}, {"children": [0]}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /nodes/1/children/0: node 0 is its own ancestor: the children form a cycle"
    );
    b.json["nodes"] = json!([{"mesh": 0, "children": [0]}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /nodes/0/children/0: node 0 is its own child"
    );
    b.json["nodes"] = json!([{"mesh": 0, "children": [2]}, {"children": [2]}, {}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /nodes/1/children/0: node 2 is already a child of node 0: a node has one parent"
    );
    b.json["nodes"] = json!([{"mesh": 0, "children": [9]}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /nodes/0/children/0: node 9 does not exist (1 nodes)"
    );
    b.json["nodes"] = json!([{"mesh": 0}]);
    b.json["scenes"] = json!([{"nodes": [4]}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /scenes/0/nodes/0: node 4 does not exist (1 nodes)"
    );
    b.json["scene"] = json!(2);
    assert_eq!(
        error(&b.glb()),
        "glTF /scene: scene 2 does not exist (1 scenes)"
    );
    // A cycle outside the default scene is still a broken document.
    let mut b = triangle();
    b.push("nodes", json!({"children": [2]}));
    b.push("nodes", json!({"children": [1]}));
    assert_eq!(
        error(&b.glb()),
        "glTF /nodes/2/children/0: node 1 is its own ancestor: the children form a cycle"
    );
}

/// 100,000 nodes in a chain: no recursion, no stack overflow, and posing
/// the deepest is the sum of the translations.
#[test]
fn a_chain_of_100000_nodes() {
    let n = 100_000;
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.json["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": pos}}]}]);
    let nodes: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut node = json!({"translation": [0.001, 0.0, 0.0]});
            if i + 1 < n {
                node["children"] = json!([i + 1]);
            } else {
                node["mesh"] = json!(0);
            }
            node
        })
        .collect();
    b.json["nodes"] = serde_json::Value::Array(nodes);
    b.json["scenes"] = json!([{"nodes": [0]}]);
    let i = ok(&b.glb());
    assert_eq!(i.scene.nodes.len(), n);
    let pose = Pose::new(&i.scene).unwrap();
    let m = pose.node_matrix(n - 1).unwrap();
    // (f32 matrices composed 100,000 times: rounding adds up.)
    assert!((m[12] - 100.0).abs() < 0.5, "{}", m[12]);
    // A cycle closing the chain is found just as well.
    b.json["nodes"][n - 1]["children"] = json!([0]);
    let e = error(&b.glb());
    assert!(e.contains("the children form a cycle"), "{e}");
}

#[test]
fn skin_and_animation_faults() {
    // A joint outside the default scene.
    let mut b = triangle();
    b.json["nodes"][0]["skin"] = json!(0);
    b.push("nodes", json!({"name": "outside"}));
    b.json["skins"] = json!([{"joints": [0, 1]}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /skins/0/joints/1: joint node 1 is not a node of the default scene"
    );
    b.json["skins"] = json!([{"joints": []}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /skins/0/joints: a skin needs at least one joint"
    );
    b.json["skins"] = json!([{"joints": [0], "inverseBindMatrices": 0}]);
    assert!(error(&b.glb()).contains("inverseBindMatrices accessor 0 is VEC3, expected MAT4"));
    // Joints past the skin's joints.
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let jv = b.view(&u16_bytes(&[0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), None);
    let j = b.accessor(Some(jv), 0, c::U16, "VEC4", 3, false);
    let w = b.floats(
        &[0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    b.triangle_mesh(
        json!({"POSITION": pos, "JOINTS_0": j, "WEIGHTS_0": w}),
        None,
        4,
    );
    b.json["nodes"][0]["skin"] = json!(0);
    b.json["skins"] = json!([{"joints": [0]}]);
    assert_eq!(
        error(&b.glb()),
        "glTF /meshes/0/primitives/0/attributes/JOINTS_0: vertex 0 uses joint 3, but skin 0 (/nodes/0/skin) has 1 joints"
    );
    // Negative weights.
    let mut b2 = b.clone();
    let neg = b2.floats(
        &[-0.5, 1.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    b2.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(neg);
    assert_eq!(
        error(&b2.glb()),
        "glTF /meshes/0/primitives/0/attributes/WEIGHTS_0: vertex 0 has a negative weight"
    );

    // Samplers: decreasing and repeated times, wrong counts, bad targets.
    let anim = |times: &[f32], values: &[f32], path: &str, interpolation: &str| {
        let mut b = triangle();
        let t = b.floats(times, "SCALAR");
        let v = b.floats(values, if path == "rotation" { "VEC4" } else { "VEC3" });
        b.json["animations"] = json!([{"channels": [{"sampler": 0, "target": {"node": 0, "path": path}}],
            "samplers": [{"input": t, "output": v, "interpolation": interpolation}]}]);
        b.glb()
    };
    assert_eq!(
        error(&anim(&[0.0, 1.0, 0.5], &[0.0; 9], "translation", "LINEAR")),
        "glTF /animations/0/samplers/0/input: key 2 at 0.5 s comes before key 1 at 1 s (times must increase)"
    );
    let i = ok(&anim(&[0.0, 1.0, 1.0], &[0.0; 9], "translation", "LINEAR"));
    assert!(i
        .warnings
        .iter()
        .any(|w| w.path == "/animations/0/samplers/0/input" && w.message.contains("both at 1 s")));
    let i = ok(&anim(&[-1.0, 1.0, 2.0], &[0.0; 9], "translation", "LINEAR"));
    assert!(i.warnings.iter().any(|w| w.message.contains("before 0")));
    assert_eq!(
        error(&anim(
            &[0.0, 1.0, 2.0],
            &[0.0; 9],
            "translation",
            "CUBICSPLINE"
        )),
        "glTF /animations/0/samplers/0/output: accessor 2 has 9 values, but 3 keys of 9 need 27"
    );
    assert_eq!(
        error(&anim(&[0.0, 1.0, 2.0], &[0.0; 9], "translation", "BEZIER")),
        "glTF /animations/0/samplers/0/interpolation: \"BEZIER\" is not LINEAR, STEP or CUBICSPLINE"
    );
    let i = ok(&anim(&[0.0, 1.0, 2.0], &[0.0; 9], "pointer", "LINEAR"));
    assert!(i
        .warnings
        .iter()
        .any(|w| w.path == "/animations/0/channels/0/target/path"));
    let mut nan_times = anim(&[0.0, 1.0, 2.0], &[0.0; 9], "translation", "LINEAR");
    // The times are the second view of the BIN: put a NaN in.
    let bin_at = nan_times.len() - (36 + 12 + 36);
    nan_times[bin_at + 36 + 4..bin_at + 36 + 8].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(
        error(&nan_times),
        "glTF /accessors/1: element 1 component 0 is NaN, not a finite number"
    );

    // A weights channel for a node whose mesh has no targets: skipped.
    let i = ok(&{
        let mut b = triangle();
        let t = b.floats(&[0.0], "SCALAR");
        b.json["animations"] = json!([{"channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}],
            "samplers": [{"input": t, "output": t}]}]);
        b.glb()
    });
    assert!(i
        .warnings
        .iter()
        .any(|w| w.message.contains("no mesh with morph targets")));
}

#[test]
fn morph_target_count_faults() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let d = b.floats(&[0.0; 9], "VEC3");
    let with = json!({"attributes": {"POSITION": pos}, "targets": [{"POSITION": d}]});
    let without = json!({"attributes": {"POSITION": pos}});
    b.json["meshes"] = json!([{"primitives": [with, without]}]);
    b.push("nodes", json!({"mesh": 0}));
    b.scene_root(0);
    assert_eq!(
        error(&b.glb()),
        "glTF /meshes/0/primitives/1/targets: 0 morph targets, but primitive 0 has 1 (all primitives of a mesh have the same)"
    );
    b.json["meshes"] = json!([{"primitives": [with], "weights": [0.5, 0.5]}]);
    let i = ok(&b.glb());
    assert!(i
        .warnings
        .iter()
        .any(|w| w.path == "/meshes/0/weights"
            && w.message.contains("2 weights for 1 morph targets")));
    assert_eq!(i.scene.meshes[0].morph_weights, [0.5]);
    b.json["nodes"][0]["weights"] = json!([]);
    let i = ok(&b.glb());
    assert!(i.warnings.iter().any(|w| w.path == "/nodes/0/weights"));
    // A target of the wrong length.
    let short = b.floats(&[0.0; 6], "VEC3");
    b.json["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": pos}, "targets": [{"POSITION": short}]}]}]);
    assert_eq!(error(&b.glb()), "glTF /meshes/0/primitives/0/targets/0/POSITION: accessor 2 has 2 elements, but POSITION has 3");
}

/// Data the file does not have cannot be asked for: an accessor of a
/// billion zeros (no buffer view) and a mesh instanced by many nodes stop
/// at the output budget, at once, without allocating it.
#[test]
fn memory_is_bounded() {
    let mut b = Builder::new();
    let zeros = b.accessor(None, 0, c::F32, "VEC3", 1_000_000_000, false);
    b.triangle_mesh(json!({"POSITION": zeros}), None, 4);
    let e = error(&b.glb());
    assert_eq!(
        e,
        "glTF /accessors/0: the scene would need more than the import's limit of 2147483648 bytes"
    );
    // Sparse over no view with a huge count.
    let mut b = Builder::new();
    let zeros = b.accessor(None, 0, c::F32, "VEC3", 1_000_000_000, false);
    let si = b.view(&[0, 0, 0, 0], None);
    let sv = b.view(&f32_bytes(&[1.0; 3]), None);
    b.json["accessors"][zeros]["sparse"] = json!({"count": 1, "indices": {"bufferView": si, "componentType": c::U8}, "values": {"bufferView": sv}});
    b.triangle_mesh(json!({"POSITION": zeros}), None, 4);
    assert!(error(&b.glb()).contains("the import's limit of 2147483648 bytes"));
    // One mesh of 10,000 vertices shown by 20,000 nodes: 2.4 GB of copies
    // from a 1 MB document.
    let mut b = Builder::new();
    let big: Vec<f32> = (0..30_000).map(|k| k as f32).collect();
    let pos = b.floats(&big, "VEC3");
    b.json["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": pos}}]}]);
    b.json["nodes"] = serde_json::Value::Array((0..20_000).map(|_| json!({"mesh": 0})).collect());
    let mut o = ImportOptions::default();
    o.max_output_bytes = 64 << 20;
    let e = timed(&b.glb(), &o).unwrap_err();
    assert!(
        e.ends_with("the scene would need more than the import's limit of 67108864 bytes"),
        "{e}"
    );
    // Buffer data beyond the limit.
    let mut o = ImportOptions::default();
    o.max_buffer_bytes = 16;
    let e = timed(&triangle().glb(), &o).unwrap_err();
    assert_eq!(e, "glTF /buffers/0: 36 more bytes of buffer data would pass the import's limit of 16 bytes of buffer data");
    let mut o = ImportOptions::default();
    o.max_json_bytes = 10;
    assert!(timed(&triangle().glb(), &o)
        .unwrap_err()
        .contains("is more than the import's limit of 10 bytes of JSON"));
}

/// A compressed view whose decoded size the (data-less) fallback buffer
/// makes free to claim: bounded by the buffer budget, and the decoder
/// refuses a stream too short for its count.
#[cfg(feature = "meshopt")]
#[test]
fn meshopt_claims_are_bounded() {
    let mut b = triangle();
    b.json["extensionsUsed"] = json!(["EXT_meshopt_compression"]);
    b.json["extensionsRequired"] = json!(["EXT_meshopt_compression"]);
    let count = 1u64 << 31;
    b.json["bufferViews"][0] = json!({"buffer": 1, "byteLength": count * 12, "byteStride": 12, "extensions": {"EXT_meshopt_compression": {
        "buffer": 0, "byteOffset": 0, "byteLength": 36, "byteStride": 12, "count": count, "mode": "ATTRIBUTES"}}});
    b.json["accessors"][0]["count"] = json!(count);
    b.json["buffers"] = json!([{"byteLength": count * 12, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}]);
    let e = error(&b.glb());
    assert!(e.starts_with("glTF /bufferViews/0/extensions/EXT_meshopt_compression: 25769803776 more bytes of buffer data would pass the import's limit"), "{e}");
    b.json["bufferViews"][0]["byteLength"] = json!(1200);
    b.json["bufferViews"][0]["extensions"]["EXT_meshopt_compression"]["count"] = json!(100);
    b.json["accessors"][0]["count"] = json!(100);
    let e = error(&b.glb());
    assert!(
        e.ends_with("the compressed stream does not decode: invalid encoded stream"),
        "{e}"
    );
    b.json["bufferViews"][0]["extensions"]["EXT_meshopt_compression"]["mode"] = json!("BLOB");
    assert!(error(&b.glb()).contains("\"BLOB\" is not ATTRIBUTES, TRIANGLES or INDICES"));
    b.json["bufferViews"][0]["extensions"]["EXT_meshopt_compression"]["mode"] = json!("ATTRIBUTES");
    b.json["bufferViews"][0]["extensions"]["EXT_meshopt_compression"]["byteStride"] = json!(6);
    assert!(error(&b.glb()).contains("invalid vertex layout"));
    // A view reading the fallback buffer directly.
    let mut b = triangle();
    b.json["extensionsUsed"] = json!(["EXT_meshopt_compression"]);
    let doc = {
        let mut d = b.json.clone();
        d["buffers"] = json!([{"byteLength": 36}, {"byteLength": 36, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}]);
        d["bufferViews"][0]["buffer"] = json!(1);
        d
    };
    let glb = glb_container(
        serde_json::to_string(&doc).unwrap().as_bytes(),
        Some(&b.bin),
    );
    assert!(error(&glb).contains("fallback buffer without data"));
}

/// Inputs made of every prefix of a valid GLB, and of it with every
/// single byte of its JSON replaced: no panic, and an answer within the
/// time limit.
#[test]
fn every_prefix_and_every_json_byte() {
    let mut b = triangle();
    b.json["nodes"][0]["rotation"] = json!([0, 0, 0, 1]);
    b.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}]);
    b.json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let glb = b.glb();
    let start = Instant::now();
    for n in 0..glb.len() {
        let _ = import(&glb[..n], None, &ImportOptions::default());
    }
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    for at in 20..20 + json_len {
        for byte in [b'0', b'9', b'-', b'"', b'{', b']', b'e', 0xff] {
            let mut m = glb.clone();
            m[at] = byte;
            let _ = import(&m, None, &ImportOptions::default());
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

/// A skinned triangle with eight influences per vertex (JOINTS_0/1 and
/// WEIGHTS_0/1) on a skin of eight joints, valid as built.
fn eight_influences() -> Builder {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let j0 = b.view(&u16_bytes(&[0, 1, 2, 3].repeat(3)), None);
    let j1 = b.view(&u16_bytes(&[4, 5, 6, 7].repeat(3)), None);
    let ja = b.accessor(Some(j0), 0, c::U16, "VEC4", 3, false);
    let jb = b.accessor(Some(j1), 0, c::U16, "VEC4", 3, false);
    let wa = b.floats(&[0.125; 12], "VEC4");
    let wb = b.floats(&[0.125; 12], "VEC4");
    b.triangle_mesh(
        json!({"POSITION": pos, "JOINTS_0": ja, "WEIGHTS_0": wa, "JOINTS_1": jb, "WEIGHTS_1": wb}),
        None,
        4,
    );
    let joints: Vec<usize> = (0..8).map(|_| b.push("nodes", json!({}))).collect();
    for j in &joints {
        b.scene_root(*j);
    }
    b.json["nodes"][0]["skin"] = json!(0);
    b.json["skins"] = json!([{"joints": joints}]);
    b
}

/// The second set of influences is checked as strictly as the first:
/// element counts, joints past the skin, negative weights, a huge count,
/// the wrong type; each error names the attribute.
#[test]
fn a_second_set_of_influences_is_checked_like_the_first() {
    let good = ok(&eight_influences().glb());
    let s = good.scene.meshes[0].skin.as_ref().expect("skinned");
    assert_eq!(s.more.len(), 1);
    let at = |key: &str| format!("/meshes/0/primitives/0/attributes/{key}");
    let set = |b: &mut Builder, key: &str, accessor: usize| {
        b.json["meshes"][0]["primitives"][0]["attributes"][key] = json!(accessor);
    };
    // Fewer elements than POSITION.
    let mut b = eight_influences();
    let short = b.floats(&[0.125; 8], "VEC4");
    set(&mut b, "WEIGHTS_1", short);
    let e = error(&b.glb());
    assert!(
        e.starts_with(&format!(
            "glTF {}: accessor {short} has 2 elements, but POSITION has 3",
            at("WEIGHTS_1")
        )),
        "{e}"
    );
    let mut b = eight_influences();
    let v = b.view(&u16_bytes(&[4, 5, 6, 7].repeat(4)), None);
    let long = b.accessor(Some(v), 0, c::U16, "VEC4", 4, false);
    set(&mut b, "JOINTS_1", long);
    let e = error(&b.glb());
    assert!(
        e.starts_with(&format!(
            "glTF {}: accessor {long} has 4 elements, but POSITION has 3",
            at("JOINTS_1")
        )),
        "{e}"
    );
    // A joint past the skin's eight, on vertex 2 of the second set.
    let mut b = eight_influences();
    let v = b.view(&u16_bytes(&[4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 8, 7]), None);
    let past = b.accessor(Some(v), 0, c::U16, "VEC4", 3, false);
    set(&mut b, "JOINTS_1", past);
    assert_eq!(
        error(&b.glb()),
        format!(
            "glTF {}: vertex 2 uses joint 8, but skin 0 (/nodes/0/skin) has 8 joints",
            at("JOINTS_1")
        )
    );
    // A negative weight in the second set.
    let mut b = eight_influences();
    let mut w = [0.125f32; 12];
    w[5] = -0.125;
    let neg = b.floats(&w, "VEC4");
    set(&mut b, "WEIGHTS_1", neg);
    assert_eq!(
        error(&b.glb()),
        format!("glTF {}: vertex 1 has a negative weight", at("WEIGHTS_1"))
    );
    // A huge count over a small view: refused before anything is read.
    let mut b = eight_influences();
    let v = b.view(&u16_bytes(&[4, 5, 6, 7]), None);
    let huge = b.accessor(Some(v), 0, c::U16, "VEC4", 1 << 40, false);
    set(&mut b, "JOINTS_1", huge);
    let e = error(&b.glb());
    assert!(e.starts_with(&format!("glTF {}", at("JOINTS_1"))), "{e}");
    // Weights as unsigned ints (not allowed) and joints as floats.
    let mut b = eight_influences();
    let v = b.view(&u16_bytes(&[1; 12]), None);
    let ints = b.accessor(Some(v), 0, c::U16, "VEC4", 3, false);
    set(&mut b, "WEIGHTS_1", ints);
    let e = error(&b.glb());
    assert!(e.starts_with(&format!("glTF {}", at("WEIGHTS_1"))), "{e}");
    let mut b = eight_influences();
    let floats = b.floats(&[4.0; 12], "VEC4");
    set(&mut b, "JOINTS_1", floats);
    let e = error(&b.glb());
    assert!(e.starts_with(&format!("glTF {}", at("JOINTS_1"))), "{e}");
}
