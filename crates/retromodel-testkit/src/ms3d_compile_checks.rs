//! The MS3D compiler's fuzz checks (`fuzz/fuzz_targets/gltf_to_ms3d.rs`),
//! shared with `crates/retromodel/tests/regression.rs`: any bytes that
//! import as glTF (with the fuzz limits) or read as MS3D make a scene;
//! compiling it is an error or a model that meets MilkShape's limits
//! (no error in `validate_for_milkshape`), validates without errors and
//! reads back as written, and whose bytes `retromodel validate` (the
//! library's `Model::validate`) passes without a warning (but for a frame
//! rate below 1 an MS3D recorded, kept as it was, and for damage the source
//! MS3D itself carried and the compile kept byte for byte, such as a parent
//! name that names no joint: the same warning, at the same place, that
//! `validate` gives the source).

use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::ms3d::Ms3d;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;
use retromodel::{Model, Problem, Severity};

use crate::import_checks::fuzz_options;

/// Scenes made of more vertices or keys than this are not compiled (the
/// compiler's refinement is linear in both; the fuzzer wants speed).
const MAX_WORK: usize = 200_000;

fn work(scene: &Scene) -> usize {
    let vertices: usize = scene.meshes.iter().map(|m| m.positions.len()).sum();
    let keys: usize = scene
        .animations
        .iter()
        .flat_map(|a| &a.channels)
        .map(|c| c.times.len())
        .sum();
    vertices.saturating_add(keys.saturating_mul(16))
}

/// The frame rate below 1 an MS3D recorded, which the compile keeps.
fn kept_fps(scene: &Scene) -> Option<f32> {
    (scene.extras.get("source").and_then(|s| s.as_str()) == Some("MS3D"))
        .then(|| scene.extras.get("fps").and_then(|f| f.as_f64()))
        .flatten()
        .map(|f| f as f32)
        .filter(|&f| f < 1.0)
}

/// Compiles `scene`; when that succeeds the model is one MilkShape takes
/// and our reader reads back as written. `carried`: what `validate` says of
/// the source file the scene was read from (nothing for a glTF).
fn check(scene: &Scene, carried: &[Problem]) -> bool {
    if work(scene) > MAX_WORK {
        return false;
    }
    let Ok(compiled) = compile(scene, &Ms3dCompileOptions::default()) else {
        return false;
    };
    let model = &compiled.model;
    // No error (`Ms3dCompiled::model`'s promise); warnings may stay, such
    // as a recorded frame rate below 1 kept as the file had it.
    let problems = model.validate_for_milkshape();
    assert!(
        problems.iter().all(|p| p.severity != Severity::Error),
        "{problems:?}"
    );
    let bytes = model.to_bytes().expect("a compiled model writes");
    let back = Ms3d::from_bytes(&bytes).expect("a compiled model reads back");
    assert!(&back == model, "read back differs");
    assert!(
        back.validate()
            .iter()
            .all(|p| p.severity != Severity::Error),
        "{:?}",
        back.validate()
    );
    assert!(compiled.report.max_error().is_finite() || model.joints.is_empty());
    // What `retromodel validate` says of the file: nothing (no warning),
    // but for a frame rate below 1 that an MS3D recorded and the compile
    // kept as the file had it (MilkShape plays it at 1 fps).
    let model_read = Model::from_bytes(&bytes).expect("a compiled model reads back as a model");
    let problems: Vec<_> = model_read
        .validate()
        .into_iter()
        .filter(|p| !(p.path == "keyframer.fps" && kept_fps(scene) == Some(model.fps)))
        .filter(|p| {
            !carried
                .iter()
                .any(|c| c.path == p.path && c.message == p.message && c.severity == p.severity)
        })
        .collect();
    assert!(problems.is_empty(), "validate: {problems:?}");
    true
}

/// Imports `data` as glTF and compiles it, and reads it as MS3D and
/// compiles that; returns how many compiled.
pub fn exercise_gltf_to_ms3d(data: &[u8]) -> usize {
    let mut n = 0;
    if let Ok(imported) = retromodel::gltf::import(data, None, &fuzz_options()) {
        n += usize::from(check(&imported.scene, &[]));
    }
    if let Ok(model) = Ms3d::from_bytes(data) {
        if let Ok(scene) = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()) {
            let carried = Model::from_bytes(data)
                .map(|m| m.validate())
                .unwrap_or_default();
            n += usize::from(check(&scene, &carried));
        }
    }
    n
}
