//! Writes what retromodel's glTF importer makes of glTF files, for
//! `import_three.mjs` to compare with three.js: for each file, every scene
//! mesh (with the glTF node, mesh and primitive it comes from), its triangles,
//! and its vertices posed by `scene::Pose` in the rest pose and at seven
//! times of every animation (scene space, morphed and skinned).
//!
//!   import_accept OUT_DIR FILE.glb|FILE.gltf...
//!
//! writes `OUT_DIR/import_expectations.json`.

use retromodel::scene::{Pose, Scene};
use retromodel_acceptance::{canonical, finish, import_file, mesh_list, out_dir_and_files, Extent};
use serde_json::{json, Value};

fn posed(pose: &Pose, scene: &Scene) -> Vec<Vec<f32>> {
    (0..scene.meshes.len())
        .map(|m| {
            let n = scene.meshes[m].positions.len();
            let (mut p, mut q) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
            pose.mesh_vertices(scene, m, &mut p, &mut q);
            p.into_iter().flatten().collect()
        })
        .collect()
}

/// The glTF document's JSON (of a GLB or a .gltf).
fn document(bytes: &[u8]) -> Value {
    let json = if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        &bytes[20..20 + len]
    } else {
        bytes
    };
    serde_json::from_slice(json).expect("JSON")
}

fn main() {
    let (out, files) = out_dir_and_files("import_accept");
    let mut entries = Vec::new();
    let mut failed = false;
    for file in &files {
        let (bytes, imported) = match import_file(file) {
            Ok(read) => read,
            Err(e) => {
                eprintln!("{e}");
                failed = true;
                continue;
            }
        };
        for w in &imported.warnings {
            eprintln!("{file}: {w}");
        }
        let scene = &imported.scene;
        let doc = document(&bytes);
        // Scene node → document node: every file here has all its nodes in
        // the default scene, in document order; checked by name.
        let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
        assert_eq!(
            nodes.len(),
            scene.nodes.len(),
            "{file}: every node in the scene"
        );
        let meshes = mesh_list(scene, |m, node, entry| {
            assert_eq!(
                nodes[node]["name"].as_str().unwrap_or(""),
                scene.nodes[node].name,
                "{file}: node order"
            );
            entry["mesh"] = nodes[node]["mesh"].clone();
            entry["indices"] = json!(m.indices);
        });
        let mut extent = Extent::default();
        let mut pose = Pose::new(scene).expect("pose");
        let mut samples =
            vec![json!({"animation": null, "time": null, "positions": posed(&pose, scene)})];
        for (a, anim) in scene.animations.iter().enumerate() {
            for k in 0..7 {
                let t = anim.duration() * k as f32 / 6.0 + if k % 2 == 1 { 0.011 } else { 0.0 };
                pose.sample(scene, a, t);
                samples.push(json!({
                    "animation": a,
                    "animation_name": anim.name,
                    "time": t,
                    "positions": posed(&pose, scene),
                }));
            }
        }
        for s in &samples {
            for m in s["positions"].as_array().unwrap() {
                let m: Vec<f32> = m
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap() as f32)
                    .collect();
                extent.add(m.chunks_exact(3).map(|p| [p[0], p[1], p[2]]));
            }
        }
        let extent = extent.largest_side();
        println!(
            "{file}: {} meshes, {} animations, {} samples",
            meshes.len(),
            scene.animations.len(),
            samples.len()
        );
        entries.push(json!({
            "file": canonical(file),
            "extent": extent,
            "meshes": meshes,
            "samples": samples,
        }));
    }
    finish(&out, "import_expectations.json", entries, failed);
}
