//! The MS3D compiler on skinned glTF as gltf-transform writes it
//! (`quantize`: integer positions, the dequantisation folded into the
//! skin's inverse bind matrices; `meshopt`: that and
//! EXT_meshopt_compression; `sparse`), made from the corpus's Blender
//! walker by `acceptance/gltf_transform_walker.sh` at test time (nothing
//! derived from a model is committed), and the walker itself; and
//! gltf-transform's `quantize` and `meshopt` of a rig of several clips
//! (`retromodel_testkit::rig_gltf`, with a prop in the hand, one clip
//! keyed from 1/24 s, CUBICSPLINE channels, whose rotation tangents
//! meshopt's quaternion filter rewrites). Per clip it also measures the
//! imported scene (`scene::Pose`, what the compile checks against)
//! against three.js: on those files the import agrees with three.js to
//! 2.1e-5 of the extent, so a disagreement between the compile's report
//! and three.js is the check's.
//!
//! The reference is three.js (`acceptance/skin_three.mjs`: GLTFLoader with
//! MeshoptDecoder, AnimationMixer, skinning on the CPU) at every 1/30 s of
//! every clip, the times chosen by the script, never the compiler's. The
//! MS3D is read back from its bytes and posed and skinned as MilkShape's
//! viewer does it by `retromodel_testkit::milkshape` (written from
//! MS3D.md; it reads the bytes itself and shares no code with the
//! library's `ms3d` module) at each clip's place on the file's timeline
//! (its clip line), corner by corner of the triangle lists. Bounds: the bind pose within 1e-5 of the extent of
//! three.js's rest pose, every pose within 1e-3; and no warning of scale
//! in the motion (the walker's joints only turn and move).
//!
//! Needs node, npx (the pinned @gltf-transform/cli) and
//! `acceptance/node_modules` (`npm ci`), and the corpus: skipped without
//! them, required under CI.

use std::path::{Path, PathBuf};
use std::process::Command;

use glam::Vec3;
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions, Ms3dCompileWarning};
use retromodel_testkit::milkshape;
use serde_json::Value;

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> PathBuf {
    std::env::var_os("RETROMODEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| here().join("../../shared/corpus"))
}

/// Whether the tools and the corpus are there (else skipped, but not
/// under CI).
fn ready() -> bool {
    let walker = corpus().join("gltf/blender_walker.glb");
    let three = here().join("node_modules/three");
    let npx = Command::new("npx").arg("--version").output().is_ok();
    let ok = walker.is_file() && three.is_dir() && npx;
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "needs {} (corpus), {} (npm ci) and npx",
            walker.display(),
            three.display()
        );
        eprintln!("note: corpus, acceptance/node_modules or npx missing; skipped");
    }
    ok
}

/// Per MS3D vertex: every way MilkShape can store its weights as three.js
/// reads them (`skin` of the reference's meshes; joints found by name),
/// each weight's percent rounded down or up, summing to 100, a 0 % one
/// left out, as `(own bone, (bone ids, weights))` per MS3D.md; empty for
/// a vertex without weights or with a joint the MS3D lacks.
#[allow(clippy::type_complexity)]
fn roundings(
    model: &milkshape::Milkshape,
    meshes: &[Value],
    corners: &[(usize, usize, usize)],
) -> Vec<Vec<(i8, ([i8; 3], [u8; 3]))>> {
    let mut out = vec![Vec::new(); model.vertices.len()];
    let mut seen = vec![false; model.vertices.len()];
    for &(v, g, i) in corners {
        if std::mem::replace(&mut seen[v], true) {
            continue;
        }
        let skin = &meshes[g]["skin"];
        if skin.is_null() {
            continue;
        }
        let bones: Vec<&str> = skin["bones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap())
            .collect();
        let (joints, weights) = (floats(&skin["joints"]), floats(&skin["weights"]));
        let mut list: Vec<(i8, f64)> = Vec::new();
        let mut missing = false;
        for k in 0..4 {
            let w = f64::from(weights[4 * i + k]);
            if w <= 0.0 {
                continue;
            }
            let name = bones[joints[4 * i + k] as usize].as_bytes();
            match model.joints.iter().position(|j| j.name == name) {
                Some(j) => match list.iter_mut().find(|e| e.0 == j as i8) {
                    Some(e) => e.1 += w,
                    None => list.push((j as i8, w)),
                },
                None => missing = true,
            }
        }
        let sum: f64 = list.iter().map(|e| e.1).sum();
        if missing || list.is_empty() || sum <= 0.0 {
            continue;
        }
        let quotas: Vec<f64> = list.iter().map(|e| e.1 / sum * 100.0).collect();
        for mask in 0u32..1 << list.len() {
            let p: Vec<u32> = quotas
                .iter()
                .enumerate()
                .map(|(k, q)| {
                    if (q - q.round()).abs() < 1e-5 {
                        q.round() as u32
                    } else {
                        q.floor() as u32 + (mask >> k & 1)
                    }
                })
                .collect();
            if p.iter().sum::<u32>() != 100 {
                continue;
            }
            let kept: Vec<(i8, u8)> = list
                .iter()
                .zip(&p)
                .filter(|(_, &p)| p > 0)
                .map(|(e, &p)| (e.0, p as u8))
                .collect();
            let id = |k: usize| kept.get(k).map_or(-1, |e| e.0);
            let pct = |k: usize| kept.get(k).map_or(0, |e| e.1);
            let option = (id(0), ([id(1), id(2), id(3)], [pct(0), pct(1), pct(2)]));
            if !out[v].contains(&option) {
                out[v].push(option);
            }
        }
    }
    out
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

/// Compiles `file` and compares it with three.js's poses in `reference`;
/// returns the worst errors (bind, animation) relative to the extent.
fn check(file: &Path, reference: &Value) -> (f32, f32) {
    let what = file.display().to_string();
    let bytes = std::fs::read(file).unwrap();
    let resolver = retromodel::texture::TextureResolver::for_model_file(file);
    let scene = retromodel::gltf::import(&bytes, Some(&resolver), &Default::default())
        .unwrap_or_else(|e| panic!("{what}: import: {e}"))
        .scene;
    let compiled = compile(&scene, &Ms3dCompileOptions::default())
        .unwrap_or_else(|e| panic!("{what}: compile: {e}"));
    for w in &compiled.warnings {
        assert!(
            !matches!(w, Ms3dCompileWarning::NonRigidMotion { .. }),
            "{what}: {w}"
        );
    }
    let mut scene_pose = retromodel::scene::Pose::new(&scene).unwrap();
    let bytes = compiled.model.to_bytes().unwrap();
    let model = milkshape::parse(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    let meshes = reference["meshes"].as_array().unwrap();
    assert_eq!(model.groups.len(), meshes.len(), "{what}: groups");
    let rest: Vec<Vec<f32>> = reference["rest"]
        .as_array()
        .unwrap()
        .iter()
        .map(floats)
        .collect();
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in rest.iter().flat_map(|m| m.chunks_exact(3)) {
        lo = lo.min(Vec3::from_slice(p));
        hi = hi.max(Vec3::from_slice(p));
    }
    let extent = (hi - lo).length();
    // Corner by corner: (MS3D vertex, three.js mesh and vertex).
    let mut corners: Vec<(usize, usize, usize)> = Vec::new();
    for (g, (group, mesh)) in model.groups.iter().zip(meshes).enumerate() {
        let indices: Vec<usize> = mesh["indices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(
            group.triangles.len() * 3,
            indices.len(),
            "{what}: group {g}"
        );
        for (t, &tri) in group.triangles.iter().enumerate() {
            for c in 0..3 {
                let v = model.triangles[tri as usize][c] as usize;
                corners.push((v, g, indices[3 * t + c]));
            }
        }
    }
    let error = |skinned: &[[f32; 3]], three: &[Vec<f32>]| -> f32 {
        corners
            .iter()
            .map(|&(v, g, i)| {
                let want = Vec3::from_slice(&three[g][3 * i..3 * i + 3]);
                (Vec3::from(skinned[v]) - want).length() / extent
            })
            .fold(0.0, f32::max)
    };
    // The bind pose: the stored vertices, every skinning matrix the
    // identity.
    let skinned = model.skin(None);
    let stored: Vec<[f32; 3]> = model.vertices.iter().map(|v| v.position).collect();
    let bind = error(&stored, &rest).max(error(&skinned, &rest));
    assert!(
        bind <= 1e-5,
        "{what}: the bind pose is off the rest pose by {bind:.2e} of the extent"
    );
    let clips = model.clips();
    let animations = reference["animations"].as_array().unwrap();
    assert_eq!(clips.len(), animations.len(), "{what}: clips");
    let mut worst = 0.0f32;
    let mut failures = Vec::new();
    for (c, (clip, animation)) in clips.iter().zip(animations).enumerate() {
        assert_eq!(clip.name, animation["name"].as_str().unwrap(), "{what}");
        let start = clip.first_frame / model.fps;
        let times = floats(&animation["times"]);
        let (mut clip_worst, mut at) = (0.0f32, 0.0f32);
        let mut imported_worst = 0.0f32;
        let a = scene
            .animations
            .iter()
            .position(|a| a.name == clip.name)
            .unwrap();
        for (t, pose) in times.iter().zip(animation["poses"].as_array().unwrap()) {
            let three: Vec<Vec<f32>> = pose.as_array().unwrap().iter().map(floats).collect();
            let skinned = model.skin(Some(start + t));
            let e = error(&skinned, &three);
            if e > clip_worst {
                (clip_worst, at) = (e, *t);
            }
            // The imported scene as the library poses it, put on the MS3D's
            // vertices (what the compile's own check compares with).
            scene_pose.sample(&scene, a, *t);
            let mut posed = vec![[0.0f32; 3]; model.vertices.len()];
            for (m, map) in compiled.vertex_map.iter().enumerate() {
                let n = scene.meshes[m].positions.len();
                let mut p = vec![[0.0f32; 3]; n];
                scene_pose.mesh_vertices(&scene, m, &mut p, &mut []);
                for (i, v) in map.iter().enumerate() {
                    if let Some(v) = v {
                        posed[*v as usize] = p[i];
                    }
                }
            }
            imported_worst = imported_worst.max(error(&posed, &three));
        }
        eprintln!(
            "{what}: clip {:?}: three.js vs MilkShape's math {clip_worst:.2e} of the extent (at {at} s); the compile's report {:.2e}; three.js vs the imported scene {imported_worst:.2e}",
            clip.name, compiled.report.animations[c].max_error
        );
        worst = worst.max(clip_worst);
    }
    // Vertex by vertex: within 1e-3 of the extent wherever some rounding
    // of its weights to MilkShape's whole percents is, and never more
    // than 1e-4 worse than the best of them (`roundings`).
    let each = |m: &milkshape::Milkshape| -> Vec<f32> {
        let mut out = vec![0.0f32; m.vertices.len()];
        for (clip, animation) in clips.iter().zip(animations) {
            let start = clip.first_frame / m.fps;
            let times = floats(&animation["times"]);
            for (t, pose) in times.iter().zip(animation["poses"].as_array().unwrap()) {
                let three: Vec<Vec<f32>> = pose.as_array().unwrap().iter().map(floats).collect();
                let skinned = m.skin(Some(start + t));
                for &(v, g, i) in &corners {
                    let want = Vec3::from_slice(&three[g][3 * i..3 * i + 3]);
                    let e = (Vec3::from(skinned[v]) - want).length() / extent;
                    out[v] = out[v].max(e);
                }
            }
        }
        out
    };
    let written = each(&model);
    let options = roundings(&model, meshes, &corners);
    let slots = options.iter().map(Vec::len).max().unwrap_or(0);
    let mut best = vec![f32::INFINITY; model.vertices.len()];
    for slot in 0..slots {
        let mut m = model.clone();
        for (v, o) in options.iter().enumerate() {
            if let Some(&(bone, record)) = o.get(slot).or(o.last()) {
                m.vertices[v].bone_id = bone;
                m.weights[v] = record;
            }
        }
        for (b, e) in best.iter_mut().zip(each(&m)) {
            *b = b.min(e);
        }
    }
    let mut held = 0.0f32;
    for (v, &e) in written.iter().enumerate() {
        let b = if options[v].is_empty() { e } else { best[v] };
        if b > 1e-3 {
            held = held.max(b);
        }
        if e > (b + 1e-4).max(1e-3) {
            failures.push(format!(
                "vertex {v} off by {e:.2e} of the extent ({:?} {:?}), its best rounding {b:.2e} ({:?})",
                model.vertices[v].bone_id, model.weights[v], options[v]
            ));
        }
    }
    if held > 0.0 {
        eprintln!(
            "{what}: no rounding of some vertices' weights to whole percents comes within 1e-3 of the extent (the worst at best {held:.2e})"
        );
    }
    assert!(failures.is_empty(), "{what}: {failures:#?}");
    (bind, worst)
}

#[test]
fn gltf_transform_walkers_compile_to_what_three_js_plays() {
    if !ready() {
        return;
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gltf_transform_walker");
    let made = Command::new("bash")
        .arg(here().join("gltf_transform_walker.sh"))
        .arg(&out)
        .env("RETROMODEL_CORPUS", corpus())
        .status()
        .unwrap();
    assert!(made.success(), "gltf_transform_walker.sh failed");
    let mut files = vec![corpus().join("gltf/blender_walker.glb")];
    for name in ["quantize", "meshopt", "sparse"] {
        files.push(out.join(format!("walker_{name}.glb")));
    }
    for file in files {
        let json = out.join(format!(
            "{}.three.json",
            file.file_stem().unwrap().to_string_lossy()
        ));
        let ran = Command::new("node")
            .arg(here().join("skin_three.mjs"))
            .arg(&file)
            .arg(&json)
            .status()
            .unwrap();
        assert!(ran.success(), "skin_three.mjs {}", file.display());
        let reference: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let (bind, worst) = check(&file, &reference);
        eprintln!(
            "{}: bind pose within {bind:.2e}, every 1/30 s within {worst:.2e} of the extent",
            file.display()
        );
    }
}

/// A rig with several clips ("idle", "run", "death"; linear and cubic
/// keys, "death" keyed from 1/24 s as Blender writes an action that
/// starts on frame 1), written as a GLB into `dir`.
fn several_clips(dir: &Path) -> PathBuf {
    use retromodel_testkit::rig_gltf::{add_prop, rig_weighted, Action};
    let keyed = |frames: usize, from: usize| -> Vec<f32> {
        (0..=frames / 2)
            .map(|k| (from + 2 * k) as f32 / 24.0)
            .collect()
    };
    let mut death = Action::linear("death", keyed(30, 1), 3);
    death.kinds = ["CUBICSPLINE", "LINEAR", "CUBICSPLINE", "LINEAR"];
    // Weights in whole percents: gltf-transform's 8-bit weights (k / 255)
    // do not hold them, and MilkShape's percents do not hold those: each
    // vertex rounds twice (`roundings` in `check`).
    let mut b = rig_weighted(
        &[
            Action::linear("idle", keyed(24, 0), 0),
            Action::linear("run", keyed(16, 0), 1),
            death,
        ],
        100.0,
    );
    add_prop(&mut b);
    let file = dir.join("clips.glb");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&file, b.glb()).unwrap();
    file
}

#[test]
fn gltf_transform_rig_of_several_clips_compiles_to_what_three_js_plays() {
    if !ready() {
        return;
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gltf_transform_clips");
    let src = several_clips(&out);
    let mut files = vec![src.clone()];
    for name in ["meshopt", "quantize"] {
        let made = out.join(format!("clips_{name}.glb"));
        let ran = Command::new("npx")
            .args(["--yes", "@gltf-transform/cli@4.5.1", name])
            .arg(&src)
            .arg(&made)
            .output()
            .unwrap();
        assert!(ran.status.success(), "gltf-transform {name}: {ran:?}");
        files.push(made);
    }
    for file in files {
        let json = out.join(format!(
            "{}.three.json",
            file.file_stem().unwrap().to_string_lossy()
        ));
        let ran = Command::new("node")
            .arg(here().join("skin_three.mjs"))
            .arg(&file)
            .arg(&json)
            .status()
            .unwrap();
        assert!(ran.success(), "skin_three.mjs {}", file.display());
        let reference: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let (bind, worst) = check(&file, &reference);
        eprintln!(
            "{}: bind pose within {bind:.2e}, every 1/30 s within {worst:.2e} of the extent",
            file.display()
        );
    }
}
