//! Writes what retromodel's glTF importer makes of glTF files, for
//! `import_three.mjs` to compare with three.js: for each file, every scene
//! mesh (with the glTF node, mesh and primitive it comes from), its triangles,
//! and its vertices posed by `scene::Pose` in the rest pose and at seven
//! times of every animation (scene space, morphed and skinned).
//!
//!   import_accept OUT_DIR FILE.glb|FILE.gltf...
//!
//! writes `OUT_DIR/import_expectations.json`.

use std::path::Path;

use retromodel::gltf::{import, ImportOptions};
use retromodel::scene::{Pose, Scene};
use retromodel::texture::TextureResolver;
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, files)) = args.split_first() else {
        eprintln!("usage: import_accept OUT_DIR FILE...");
        std::process::exit(2);
    };
    let mut entries = Vec::new();
    let mut failed = false;
    for file in files {
        let path = Path::new(file);
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let resolver = TextureResolver::for_model_file(path);
        let imported = match import(&bytes, Some(&resolver), &ImportOptions::default()) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{file}: {e}");
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
        let mut seen = std::collections::HashMap::<usize, usize>::new();
        let meshes: Vec<Value> = scene
            .meshes
            .iter()
            .map(|m| {
                let node = m.node.expect("a mesh placed by a node");
                assert_eq!(
                    nodes[node]["name"].as_str().unwrap_or(""),
                    scene.nodes[node].name,
                    "{file}: node order"
                );
                let primitive = seen.entry(node).or_default();
                let entry = json!({
                    "name": m.name,
                    "node": node,
                    "mesh": nodes[node]["mesh"],
                    "primitive": *primitive,
                    "vertices": m.positions.len(),
                    "indices": m.indices,
                });
                *primitive += 1;
                entry
            })
            .collect();
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
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
                let m = m.as_array().unwrap();
                for (i, v) in m.iter().enumerate() {
                    let v = v.as_f64().unwrap() as f32;
                    lo[i % 3] = lo[i % 3].min(v);
                    hi[i % 3] = hi[i % 3].max(v);
                }
            }
        }
        let extent = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f32, f32::max);
        println!(
            "{file}: {} meshes, {} animations, {} samples",
            meshes.len(),
            scene.animations.len(),
            samples.len()
        );
        entries.push(json!({
            "file": std::fs::canonicalize(path).unwrap_or(path.to_path_buf()),
            "extent": extent,
            "meshes": meshes,
            "samples": samples,
        }));
    }
    let out = Path::new(out).join("import_expectations.json");
    std::fs::write(
        &out,
        serde_json::to_vec(&json!({ "files": entries })).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    println!("wrote {}", out.display());
    if failed {
        std::process::exit(1);
    }
}
