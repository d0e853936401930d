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

use retromodel::md2::compile::{compile, CompileOptions, SkinFormat};
use retromodel::md2::md2_axes;
use retromodel::md2::{Engine, Md2};
use retromodel_acceptance::{
    canonical, finish, import_file, mesh_list, out_dir_and_files, positions_by_source, Extent,
};
use serde_json::json;

fn main() {
    let (out, files) = out_dir_and_files("md2_accept");
    let mut entries = Vec::new();
    let mut failed = false;
    for file in &files {
        let path = Path::new(file);
        let scene = match import_file(file) {
            Ok((_, i)) => i.scene,
            Err(e) => {
                eprintln!("{e}");
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
        let md2_path = Path::new(&out).join(format!("{stem}.md2"));
        std::fs::write(&md2_path, &md2_bytes).expect("write the MD2");
        let model = Md2::from_bytes(&md2_bytes).expect("reads back");
        let problems = model.validate_for(Engine::Quake2);
        if !problems.is_empty() {
            eprintln!("{file}: the MD2 does not pass validate --engine quake2: {problems:?}");
            failed = true;
        }
        let report = &compiled.report;
        let scale = report.scale;
        let meshes = mesh_list(&scene, |_, _, _| {});
        let mut frames = Vec::new();
        let mut extent = Extent::default();
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
                extent.add(decoded.iter().copied());
                // Half a grid step per axis, in glTF's axes and units.
                let half = md2_axes(f.scale).map(|s| s.abs() / 2.0 / scale);
                let positions = positions_by_source(&compiled.vertex_map, &decoded);
                frames.push(json!({
                    "name": a.name, "animation": animation, "animation_name": a.source,
                    "time": time, "half_step": half, "positions": positions,
                }));
            }
        }
        let extent = extent.largest_side();
        println!(
            "{file}: {} frames, {} MD2 vertices (from {}), largest error {:.5} ({:.2} step)",
            frames.len(),
            report.vertices,
            report.source_vertices,
            report.max_error(),
            report.max_step_fraction()
        );
        entries.push(json!({
            "file": canonical(file),
            "md2": md2_path,
            "extent": extent,
            "meshes": meshes,
            "frames": frames,
        }));
    }
    finish(&out, "md2_expectations.json", entries, failed);
}
