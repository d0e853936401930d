//! Compiles skinned glTF files to MS3D with retromodel and writes, for
//! `md2_three.mjs` to compare with three.js (`node md2_three.mjs DIR
//! ms3d_expectations.json`), the MS3D posed and skinned as MilkShape's
//! viewer does it (`ms3d::Skeleton` + `Influences`, on the model read back
//! from its bytes) at 10 times of every animation, at each clip's place on
//! MilkShape's one timeline, vertex by vertex of the source (through
//! `Ms3dCompiled::vertex_map`).
//!
//!   ms3d_accept OUT_DIR FILE.glb|FILE.gltf...
//!
//! writes `OUT_DIR/NAME.ms3d` (each passes strict validation and MilkShape's
//! limits with no problem, or the program fails) and
//! `OUT_DIR/ms3d_expectations.json`. The bound is 1e-3 of the
//! model's extent: `md2_three.mjs` allows `half_step` + 1e-4 × extent per
//! axis, so `half_step` is written as 9e-4 × extent.

use std::path::Path;

use glam::Mat4;
use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::ms3d::{Influences, Ms3d, Skeleton};
use retromodel::texture::TextureResolver;
use serde_json::{json, Value};

/// Times sampled per animation, its start and end included.
const TIMES: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, files)) = args.split_first() else {
        eprintln!("usage: ms3d_accept OUT_DIR FILE...");
        std::process::exit(2);
    };
    let mut entries = Vec::new();
    let mut failed = false;
    for file in files {
        let path = Path::new(file);
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let resolver = TextureResolver::for_model_file(path);
        let scene = match import(&bytes, Some(&resolver), &ImportOptions::default()) {
            Ok(i) => i.scene,
            Err(e) => {
                eprintln!("{file}: {e}");
                failed = true;
                continue;
            }
        };
        let compiled = match compile(&scene, &Ms3dCompileOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{file}: {e}");
                failed = true;
                continue;
            }
        };
        for w in &compiled.warnings {
            eprintln!("{file}: warning: {w}");
        }
        // Written and read back: what MilkShape would load.
        let ms3d_bytes = compiled.model.to_bytes().expect("writes");
        let stem = path.file_stem().unwrap().to_string_lossy();
        let ms3d_path = Path::new(out).join(format!("{stem}.ms3d"));
        std::fs::write(&ms3d_path, &ms3d_bytes).expect("write the MS3D");
        let model = Ms3d::from_bytes(&ms3d_bytes).expect("reads back");
        let problems: Vec<String> = model
            .validate()
            .iter()
            .chain(model.validate_for_milkshape().iter())
            .map(ToString::to_string)
            .collect();
        if !problems.is_empty() {
            eprintln!("{file}: the MS3D does not pass strict validation: {problems:?}");
            failed = true;
        }
        // Meshes as the importer made them: (glTF node, primitive).
        let mut seen = std::collections::HashMap::<usize, usize>::new();
        let meshes: Vec<Value> = scene
            .meshes
            .iter()
            .map(|m| {
                let node = m.node.expect("a mesh placed by a node");
                let primitive = seen.entry(node).or_default();
                let entry = json!({ "name": m.name, "node": node, "primitive": *primitive,
                                    "vertices": m.positions.len() });
                *primitive += 1;
                entry
            })
            .collect();
        let skeleton = Skeleton::new(&model).expect("a skeleton");
        let influences = Influences::new(&model);
        let mut matrices = vec![Mat4::IDENTITY; skeleton.joint_count()];
        let mut skinned = vec![[0.0f32; 3]; model.vertices.len()];
        let clips = model.clips();
        let mut frames = Vec::new();
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for (a, (animation, clip)) in scene.animations.iter().zip(&clips).enumerate() {
            let duration = animation.duration();
            let start = clip.first_frame / model.fps;
            for i in 0..TIMES {
                let time = duration * i as f32 / (TIMES - 1) as f32;
                skeleton.pose_at_time(start + time, &mut matrices);
                skeleton.skinning_matrices(&mut matrices);
                influences.skin_positions(&model, &matrices, &mut skinned);
                for p in &skinned {
                    for k in 0..3 {
                        lo[k] = lo[k].min(p[k]);
                        hi[k] = hi[k].max(p[k]);
                    }
                }
                let positions: Vec<Value> = compiled
                    .vertex_map
                    .iter()
                    .map(|map| {
                        let flat: Vec<Value> = map
                            .iter()
                            .flat_map(|v| match v {
                                Some(v) => skinned[*v as usize].map(|x| json!(x)).to_vec(),
                                None => vec![Value::Null; 3],
                            })
                            .collect();
                        Value::Array(flat)
                    })
                    .collect();
                frames.push(json!({
                    "name": format!("{}@{time:.3}", clip.name), "animation": a,
                    "animation_name": animation.name, "time": time, "positions": positions,
                }));
            }
        }
        let extent = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f32, f32::max);
        let allowance = 9e-4 * extent;
        for f in &mut frames {
            f["half_step"] = json!([allowance, allowance, allowance]);
        }
        println!(
            "{file}: {} joints, {} times, {} MS3D vertices, keys {} (source {})",
            model.joints.len(),
            frames.len(),
            model.vertices.len(),
            compiled.report.keys(),
            compiled.report.source_keys()
        );
        entries.push(json!({
            "file": std::fs::canonicalize(path).unwrap_or(path.to_path_buf()),
            "ms3d": ms3d_path,
            "extent": extent,
            "meshes": meshes,
            "frames": frames,
        }));
    }
    let out = Path::new(out).join("ms3d_expectations.json");
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
