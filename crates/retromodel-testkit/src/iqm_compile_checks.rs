//! The IQM compiler's fuzz checks (`fuzz/fuzz_targets/gltf_to_iqm.rs`),
//! shared with `crates/retromodel/tests/regression.rs`: any bytes that
//! import as glTF (with the fuzz limits), read as MS3D or IQM make a
//! scene; compiling it to an IQM (a frame rate and a mesh limit chosen
//! from the bytes) is an error or a model that:
//!
//! - writes, reads back from its bytes, and writes the same bytes again;
//! - passes `validate` without an error;
//! - has the frames its report counts, each animation where the report
//!   puts it, and a largest error that is a number.

use retromodel::iqm::compile::{compile, IqmCompileOptions};
use retromodel::iqm::{Iqm, Layout};
use retromodel::ms3d::{Ms3d, Ms3dSceneOptions};
use retromodel::scene::Scene;
use retromodel::Severity;

use crate::import_checks::fuzz_options;
use crate::md2_compile_checks::{positions, seed_of};

/// Scenes whose sampling would pose more positions than this are not
/// compiled (as for the other compilers' checks).
const MAX_POSITIONS: usize = 2_000_000;

fn options_for(seed: u8) -> IqmCompileOptions {
    IqmCompileOptions {
        fps: (seed & 1 != 0).then_some(12.0),
        max_mesh_vertices: (seed & 2 != 0).then_some(5 + usize::from(seed >> 4)),
        ..IqmCompileOptions::default()
    }
}

fn check(scene: &Scene, seed: u8) -> bool {
    // The rates an animation may be sampled at go up to 60.
    if positions(scene, 60.0) > MAX_POSITIONS {
        return false;
    }
    let Ok(compiled) = compile(scene, &options_for(seed)) else {
        return false;
    };
    let bytes = compiled
        .model
        .to_bytes_with(Layout::Standard)
        .expect("a compiled IQM writes");
    let read = Iqm::from_bytes(&bytes).expect("the IQM written reads back");
    assert_eq!(
        read.to_bytes_with(Layout::Original).ok(),
        Some(bytes),
        "IQM written again differs"
    );
    let errors: Vec<_> = read
        .validate()
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "validate: {errors:?}");
    let r = &compiled.report;
    let frames: usize = r.animations.iter().map(|a| a.frames).sum();
    assert_eq!(read.num_frames as usize, frames, "frames");
    let mut first = 0;
    for (a, anim) in read.anims.iter().zip(&r.animations) {
        assert_eq!(
            (a.first_frame as usize, a.num_frames as usize),
            (first, anim.frames)
        );
        first += anim.frames;
    }
    assert!(
        !r.largest_error.is_infinite(),
        "largest error {}",
        r.largest_error
    );
    true
}

/// Runs the IQM compile's checks on every scene `data` makes; returns how
/// many compiled.
pub fn exercise_compile(data: &[u8]) -> usize {
    let seed = seed_of(data);
    let mut n = 0;
    if let Ok(imported) = retromodel::gltf::import(data, None, &fuzz_options()) {
        n += usize::from(check(&imported.scene, seed));
    }
    if let Ok(model) = Ms3d::from_bytes(data) {
        if let Ok(scene) = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()) {
            n += usize::from(check(&scene, seed));
        }
    }
    if let Ok(model) = Iqm::from_bytes(data) {
        let work = u64::from(model.num_frames).saturating_mul(model.joints.len() as u64 + 1);
        if work < 1 << 20 {
            if let Ok(scene) = Scene::from_iqm(&model, "fuzz") {
                n += usize::from(check(&scene, seed));
            }
        }
    }
    n
}
