//! Compiles glTF files to MD2 with retromodel and writes, for
//! `md2_three.mjs` to compare with three.js, every frame of every MD2
//! decoded back to glTF's axes and units, vertex by vertex of the source
//! (through `Compiled::vertex_map`), with the frame's half grid step per
//! axis.
//!
//!   md2_accept OUT_DIR FILE.glb|FILE.gltf...
//!
//! writes `OUT_DIR/NAME.md2` (each passes `validate_for(Quake2)` with no
//! problem, or the program fails) and `OUT_DIR/md2_expectations.json`.

use std::path::Path;

use retromodel::gltf::{import, ImportOptions};
use retromodel::md2::compile::{compile, CompileOptions, SkinFormat};
use retromodel::md2::{Engine, Md2};
use retromodel::scene::md2_axes;
use retromodel::texture::TextureResolver;
use serde_json::{json, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, files)) = args.split_first() else {
        eprintln!("usage: md2_accept OUT_DIR FILE...");
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
        let mut options = CompileOptions::default();
        options.skin.format = SkinFormat::Png;
        let compiled = match compile(&scene, &options) {
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
        // Written and read back: what an engine would load.
        let md2_bytes = compiled.model.to_bytes().expect("writes");
        let stem = path.file_stem().unwrap().to_string_lossy();
        let md2_path = Path::new(out).join(format!("{stem}.md2"));
        std::fs::write(&md2_path, &md2_bytes).expect("write the MD2");
        let model = Md2::from_bytes(&md2_bytes).expect("reads back");
        let problems = model.validate_for(Engine::Quake2);
        if !problems.is_empty() {
            eprintln!("{file}: the MD2 does not pass validate --engine quake2: {problems:?}");
            failed = true;
        }
        let report = &compiled.report;
        let scale = report.scale;
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
        let mut frames = Vec::new();
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for a in &report.animations {
            let animation = scene.animations.iter().position(|x| x.name == a.source);
            for (j, &time) in a.times.iter().enumerate() {
                let f = &model.frames[a.first_frame + j];
                let decoded: Vec<[f32; 3]> = (0..model.vertex_count())
                    .map(|v| {
                        let q = f.position(v).expect("a vertex of the frame");
                        md2_axes(q).map(|x| x / scale)
                    })
                    .collect();
                for p in &decoded {
                    for k in 0..3 {
                        lo[k] = lo[k].min(p[k]);
                        hi[k] = hi[k].max(p[k]);
                    }
                }
                // Half a grid step per axis, in glTF's axes and units.
                let half = md2_axes(f.scale).map(|s| s.abs() / 2.0 / scale);
                let positions: Vec<Value> = compiled
                    .vertex_map
                    .iter()
                    .map(|map| {
                        let flat: Vec<Value> = map
                            .iter()
                            .flat_map(|v| match v {
                                Some(v) => decoded[*v as usize].map(|x| json!(x)).to_vec(),
                                None => vec![Value::Null; 3],
                            })
                            .collect();
                        Value::Array(flat)
                    })
                    .collect();
                frames.push(json!({
                    "name": a.name, "animation": animation, "animation_name": a.source,
                    "time": time, "half_step": half, "positions": positions,
                }));
            }
        }
        let extent = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f32, f32::max);
        println!(
            "{file}: {} frames, {} MD2 vertices (from {}), largest error {:.5} ({:.2} step)",
            frames.len(),
            report.vertices,
            report.source_vertices,
            report.max_error(),
            report.max_step_fraction()
        );
        entries.push(json!({
            "file": std::fs::canonicalize(path).unwrap_or(path.to_path_buf()),
            "md2": md2_path,
            "extent": extent,
            "meshes": meshes,
            "frames": frames,
        }));
    }
    let out = Path::new(out).join("md2_expectations.json");
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
