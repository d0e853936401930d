//! Keys of skinned glTF animations compiled to MS3D, for every glTF
//! interpolation (LINEAR, STEP, CUBICSPLINE, and all three in one action):
//! the rig of `retromodel_testkit::rig_gltf` (shaped as Blender's exporter
//! writes one; Blender itself is not needed) is compiled, written and read
//! back, and evaluated by `retromodel_testkit::milkshape`, an evaluator
//! written from `MS3D.md` (it reads the bytes itself; MilkShape's viewer:
//! Euler keys slerped, positions Hermite with looped tangents, key times
//! in seconds sampled in frames), which shares no code with the
//! library's. Every source vertex must be within
//! 1e-3 of the extent of the source's at every 1/30 s of every clip and
//! halfway between, and the bind pose within 1e-5:
//!
//! - against three.js (`acceptance/ms3d_three.mjs`: GLTFLoader +
//!   AnimationMixer) when node and `acceptance/node_modules` are there
//!   (required under CI);
//! - against `scene::Pose` (glTF's interpolation, itself tested against
//!   three.js in `scene_pose.rs`) always, also just before each step.

#![cfg(all(feature = "gltf", feature = "textures"))]

use std::path::{Path, PathBuf};

use glam::Vec3;
use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions, Ms3dCompiled};
use retromodel::scene::{Pose, Scene};
use retromodel_testkit::milkshape::{self, Milkshape};
use retromodel_testkit::node::node_with_three;
use serde_json::{json, Value};

/// The rig, written to a temporary folder, imported and compiled.
struct Case {
    _dir: tempfile::TempDir,
    file: PathBuf,
    scene: Scene,
    compiled: Ms3dCompiled,
    /// Read back from the written bytes by the test kit's evaluator.
    model: Milkshape,
    extent: f32,
}

fn case() -> Case {
    case_of(retromodel_testkit::rig_gltf::rig_glb())
}

/// Blender 3.4's own export of a chain with a "stepped", a "linear" and a
/// "cubic" action (STEP, LINEAR and CUBICSPLINE samplers as Blender writes
/// them), made by `tests/blender/interpolations.py`.
fn blender_case() -> Case {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/blender_interpolations.glb");
    case_of(std::fs::read(path).unwrap())
}

fn case_of(glb: Vec<u8>) -> Case {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rig.glb");
    std::fs::write(&file, &glb).unwrap();
    let scene = import(&glb, None, &ImportOptions::default()).unwrap().scene;
    let compiled = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let model = milkshape::parse(&compiled.model.to_bytes().unwrap()).unwrap();
    // The source's bind-pose box.
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for m in &scene.meshes {
        for p in &m.positions {
            lo = lo.min(Vec3::from(*p));
            hi = hi.max(Vec3::from(*p));
        }
    }
    Case {
        _dir: dir,
        file,
        scene,
        compiled,
        model,
        extent: (hi - lo).length(),
    }
}

/// Every 1/30 s of `duration` and halfway between, the end included.
fn times(duration: f32) -> Vec<f32> {
    let n = (f64::from(duration) * 60.0).round() as usize;
    (0..=n).map(|i| (i as f64 / 60.0) as f32).collect()
}

/// Where on the MS3D's timeline the clip of animation `a` starts, in
/// seconds (its first frame over the fps).
fn clip_start(model: &Milkshape, name: &str) -> f64 {
    model
        .clip_start(name)
        .unwrap_or_else(|| panic!("no clip {name}"))
}

/// The source's vertices (scene order, per mesh) at `t` of animation `a`.
fn source(scene: &Scene, pose: &mut Pose, a: Option<usize>, t: f32) -> Vec<Vec<[f32; 3]>> {
    match a {
        Some(a) => pose.sample(scene, a, t),
        None => pose.reset(scene),
    }
    (0..scene.meshes.len())
        .map(|m| {
            let n = scene.meshes[m].positions.len();
            let (mut p, mut nn) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
            pose.mesh_vertices(scene, m, &mut p, &mut nn);
            p
        })
        .collect()
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (Vec3::from(a) - Vec3::from(b)).length()
}

/// The largest distance between the MS3D's skinned vertices and the
/// source's, over the source's vertices.
fn worst(case: &Case, skinned: &[[f32; 3]], src: &[Vec<[f32; 3]>]) -> f32 {
    let mut worst = 0.0f32;
    for (m, map) in case.compiled.vertex_map.iter().enumerate() {
        for (i, v) in map.iter().enumerate() {
            if let Some(v) = v {
                worst = worst.max(distance(src[m][i], skinned[*v as usize]));
            }
        }
    }
    worst
}

#[test]
fn every_interpolation_matches_the_source_at_every_thirtieth_and_between() {
    matches_the_source(&case(), 4);
}

#[test]
fn blenders_stepped_linear_and_cubic_actions_match_the_source() {
    let case = blender_case();
    // The fixture is what its script says: one sampler kind per action.
    let document = retromodel_testkit::glb::parse_glb(
        &std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/blender_interpolations.glb"),
        )
        .unwrap(),
    )
    .json;
    let kinds: Vec<(String, Vec<String>)> = document["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut k: Vec<String> = a["samplers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["interpolation"].as_str().unwrap_or("LINEAR").to_string())
                .collect();
            k.dedup();
            (a["name"].as_str().unwrap().to_string(), k)
        })
        .collect();
    for (name, kind) in [
        ("stepped", "STEP"),
        ("linear", "LINEAR"),
        ("cubic", "CUBICSPLINE"),
    ] {
        assert!(
            kinds.contains(&(name.to_string(), vec![kind.to_string()])),
            "{kinds:?}"
        );
    }
    matches_the_source(&case, 3);
}

fn matches_the_source(case: &Case, animations: usize) {
    let mut pose = Pose::new(&case.scene).unwrap();
    let rest = worst(
        case,
        &case.model.skin(None),
        &source(&case.scene, &mut pose, None, 0.0),
    );
    assert!(rest <= 1e-5 * case.extent, "bind pose {rest}");
    assert_eq!(case.scene.animations.len(), animations);
    for (a, anim) in case.scene.animations.iter().enumerate() {
        let start = clip_start(&case.model, &anim.name);
        let mut t = times(anim.duration());
        // Just before each key time (the steps) too.
        t.extend((1..anim.channels[0].times.len()).map(|k| anim.channels[0].times[k] - 2e-3));
        let mut largest = 0.0f32;
        for &t in &t {
            let skinned = case.model.skin(Some((start + f64::from(t)) as f32));
            let e = worst(case, &skinned, &source(&case.scene, &mut pose, Some(a), t));
            assert!(
                e <= 1e-3 * case.extent,
                "{} at {t} s: {} of the extent",
                anim.name,
                e / case.extent
            );
            largest = largest.max(e);
        }
        // The compiler's report measured at frames and between: not less
        // than what we measure at every frame and halfway between.
        let report = &case.compiled.report.animations[a];
        let fps = f64::from(case.model.fps);
        let frames = (f64::from(anim.duration()) * fps * 2.0).floor() as usize;
        let mut at_frames = 0.0f32;
        for i in 0..=frames {
            let t = (i as f64 / (2.0 * fps)) as f32;
            let skinned = case.model.skin(Some((start + f64::from(t)) as f32));
            let e = worst(case, &skinned, &source(&case.scene, &mut pose, Some(a), t));
            at_frames = at_frames.max(e / case.extent);
        }
        assert!(
            report.max_error >= at_frames * 0.99 - 1e-6,
            "{}: the report says {}, measured {at_frames}",
            anim.name,
            report.max_error
        );
        assert!(
            report.max_error <= 1e-3,
            "{}: {}",
            anim.name,
            report.max_error
        );
        assert!(report.checked_times > frames, "{}", anim.name);
        eprintln!(
            "{}: {} keys ({} in the source), {:.2e} of the extent (report {:.2e})",
            anim.name,
            report.keys,
            report.source_keys,
            largest / case.extent,
            report.max_error
        );
    }
}

#[test]
fn a_step_becomes_keys_a_tiny_time_apart_and_key_counts_stay_small() {
    let case = case();
    let spine = case
        .model
        .joints
        .iter()
        .find(|j| j.name == b"Spine")
        .expect("a Spine joint");
    let start = clip_start(&case.model, "Stepped");
    // The Stepped action's keys are every 0.25 s; each step after 0 has a
    // key at it and one less than a millisecond before it.
    for k in 1..7 {
        let t = start + 0.25 * f64::from(k);
        let at = |lo: f64, hi: f64| {
            spine
                .rotation_keys
                .iter()
                .any(|key| (lo..=hi).contains(&f64::from(key.time)))
        };
        assert!(at(t - 1e-6, t + 1e-6), "no key at the step at {t}");
        assert!(at(t - 1e-3, t - 1e-5), "no key just before the step at {t}");
    }
    // No key per millisecond: at most 60 a second per track (2.5 a
    // frame), though the Cubic action's curves are far from MilkShape's.
    let tracks = 2 * case.model.joints.len();
    for (a, anim) in case
        .compiled
        .report
        .animations
        .iter()
        .zip(&case.scene.animations)
    {
        let most = 60.0 * tracks as f32 * anim.duration();
        assert!(
            a.keys as f32 <= most,
            "{}: {} keys, {} source keys",
            a.name,
            a.keys,
            a.source_keys
        );
        assert!(a.keys >= a.source_keys / 2, "{}: {} keys", a.name, a.keys);
    }
    // A step needs no more than its four keys: the Stepped action's keys
    // stay within a few per source key.
    let stepped = &case.compiled.report.animations[1];
    assert!(stepped.keys <= 4 * stepped.source_keys, "{stepped:?}");
}

#[test]
fn every_interpolation_matches_three_js_at_every_thirtieth_and_between() {
    matches_three_js(case);
}

#[test]
fn blenders_stepped_linear_and_cubic_actions_match_three_js() {
    matches_three_js(blender_case);
}

fn matches_three_js(case: fn() -> Case) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if !node_with_three(&root) {
        eprintln!("skipped: node or acceptance/node_modules missing");
        return;
    }
    let case = case();
    let mut frames = vec![json!({
        "name": "rest", "animation": Value::Null, "time": 0.0,
        "positions": by_source(&case, &case.model.skin(None)),
        "allowed": 1e-5 * case.extent,
    })];
    for (a, anim) in case.scene.animations.iter().enumerate() {
        let start = clip_start(&case.model, &anim.name);
        for t in times(anim.duration()) {
            let skinned = case.model.skin(Some((start + f64::from(t)) as f32));
            frames.push(json!({
                "name": format!("{}@{t}", anim.name), "animation": a,
                "animation_name": anim.name, "time": t,
                "positions": by_source(&case, &skinned),
                "allowed": 1e-3 * case.extent,
            }));
        }
    }
    let meshes: Vec<Value> = case
        .scene
        .meshes
        .iter()
        .enumerate()
        .map(|(m, mesh)| {
            // One primitive per mesh node in the rig.
            let _ = m;
            json!({"name": mesh.name, "node": mesh.node, "primitive": 0,
                   "vertices": mesh.positions.len()})
        })
        .collect();
    let expectations = case.file.with_extension("json");
    std::fs::write(
        &expectations,
        serde_json::to_vec(&json!({"files": [{
            "file": case.file, "extent": case.extent, "meshes": meshes, "frames": frames,
        }]}))
        .unwrap(),
    )
    .unwrap();
    let out = std::process::Command::new("node")
        .arg(root.join("acceptance/ms3d_three.mjs"))
        .arg(&expectations)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "three.js disagrees:\n{text}");
}

/// Per source mesh, its vertices' MS3D positions flattened (`null` for a
/// vertex no triangle uses).
fn by_source(case: &Case, skinned: &[[f32; 3]]) -> Vec<Value> {
    case.compiled
        .vertex_map
        .iter()
        .map(|map| {
            Value::Array(
                map.iter()
                    .flat_map(|v| match v {
                        Some(v) => skinned[*v as usize].map(|x| json!(x)).to_vec(),
                        None => vec![Value::Null; 3],
                    })
                    .collect(),
            )
        })
        .collect()
}
