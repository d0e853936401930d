//! Compiles skinned glTF files to MS3D with retromodel and writes, for
//! `md2_three.mjs` to compare with three.js (`node md2_three.mjs DIR
//! ms3d_expectations.json`), the MS3D posed and skinned as MilkShape's
//! viewer does it (`ms3d::Skeleton` + `Influences`, on the model read back
//! from its bytes) at every 1/30 s of every animation and halfway between
//! (its end included), at each clip's place on
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
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::ms3d::{Influences, Ms3d, Skeleton};
use retromodel_acceptance::{
    canonical, finish, import_file, mesh_list, out_dir_and_files, positions_by_source, Extent,
};
use serde_json::json;

/// Times sampled per second of every animation: every 1/30 s and halfway
/// between.
const PER_SECOND: f64 = 60.0;

fn main() {
    let (out, files) = out_dir_and_files("ms3d_accept");
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
        let ms3d_path = Path::new(&out).join(format!("{stem}.ms3d"));
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
        let meshes = mesh_list(&scene, |_, _, _| {});
        let skeleton = Skeleton::new(&model).expect("a skeleton");
        let influences = Influences::new(&model);
        let mut matrices = vec![Mat4::IDENTITY; skeleton.joint_count()];
        let mut skinned = vec![[0.0f32; 3]; model.vertices.len()];
        let clips = model.clips();
        let mut frames = Vec::new();
        let mut extent = Extent::default();
        for (a, (animation, clip)) in scene.animations.iter().zip(&clips).enumerate() {
            let duration = animation.duration();
            let start = clip.first_frame / model.fps;
            let n = (f64::from(duration) * PER_SECOND).floor() as usize;
            let times = (0..=n)
                .map(|i| (i as f64 / PER_SECOND) as f32)
                .chain((n as f64 / PER_SECOND < f64::from(duration)).then_some(duration));
            for time in times {
                skeleton.pose_at_time(start + time, &mut matrices);
                skeleton.skinning_matrices(&mut matrices);
                influences.skin_positions(&model, &matrices, &mut skinned);
                extent.add(skinned.iter().copied());
                let positions = positions_by_source(&compiled.vertex_map, &skinned);
                frames.push(json!({
                    "name": format!("{}@{time:.3}", clip.name), "animation": a,
                    "animation_name": animation.name, "time": time, "positions": positions,
                }));
            }
        }
        let extent = extent.largest_side();
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
            "file": canonical(file),
            "ms3d": ms3d_path,
            "extent": extent,
            "meshes": meshes,
            "frames": frames,
        }));
    }
    finish(&out, "ms3d_expectations.json", entries, failed);
}
