//! A clip of `STEP` channels whose steps fall a twentieth of a
//! millisecond after MilkShape frames (as a source at another frame rate
//! puts them): MilkShape interpolates every key, so the compile writes
//! each step as keys `ε` apart and MilkShape moves from the old value to
//! the new within them. The compile must be exact away from the step
//! instants (MilkShape's math, `retromodel_testkit::milkshape`,
//! independent of the library, against glTF's, `scene::Pose`, itself
//! tested against three.js), and its report must measure there: not at
//! a frame lying within a step, where it measured the step itself (6.7e-1
//! of the extent on the rig) and warned.

#![cfg(feature = "gltf")]

use glam::Vec3;
use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions, Ms3dCompileWarning};
use retromodel::scene::{Pose, Scene};
use retromodel_testkit::milkshape;
use retromodel_testkit::rig_gltf::{rig_with, Action};

fn posed(scene: &Scene, pose: &mut Pose, t: Option<f32>) -> Vec<Vec<[f32; 3]>> {
    match t {
        Some(t) => pose.sample(scene, 0, t),
        None => pose.reset(scene),
    }
    (0..scene.meshes.len())
        .map(|m| {
            let mut p = vec![[0.0; 3]; scene.meshes[m].positions.len()];
            pose.mesh_vertices(scene, m, &mut p, &mut []);
            p
        })
        .collect()
}

#[test]
fn steps_just_after_frames_are_exact_away_from_the_steps_and_reported_so() {
    // Half the gap (1e-4 s) after every sixth frame at 24 fps.
    let half_gap = 0.5e-4;
    let times: Vec<f32> = (0..9)
        .map(|k| (f64::from(k) * 0.25 + half_gap) as f32)
        .collect();
    let mut stepped = Action::linear("stepped", times.clone(), 1);
    stepped.kinds = ["STEP"; 4];
    let glb = rig_with(&[stepped]).glb();
    let scene = import(&glb, None, &ImportOptions::default()).unwrap().scene;
    let compiled = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let report = &compiled.report.animations[0];
    assert_eq!(report.steps, 9, "every key time after 0 is a step");
    assert!(
        report.max_error <= 1e-3,
        "the report says {:.2e} of the extent",
        report.max_error
    );
    assert!(
        !compiled
            .warnings
            .iter()
            .any(|w| matches!(w, Ms3dCompileWarning::Inexact { .. })),
        "{:?}",
        compiled.warnings
    );
    // Measured independently, every 1/120 s (the frames just before the
    // steps included) and 0.3 ms either side of each step.
    let model = milkshape::parse(&compiled.model.to_bytes().unwrap()).unwrap();
    let start = model.clip_start("stepped").unwrap();
    let mut pose = Pose::new(&scene).unwrap();
    let rest = posed(&scene, &mut pose, None);
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in rest.iter().flatten() {
        lo = lo.min(Vec3::from(*p));
        hi = hi.max(Vec3::from(*p));
    }
    let extent = (hi - lo).length();
    let duration = f64::from(*times.last().unwrap());
    let mut at: Vec<f64> = (0..=(duration * 120.0) as usize)
        .map(|i| i as f64 / 120.0)
        .collect();
    for &s in &times[1..] {
        at.extend([f64::from(s) - 3e-4, f64::from(s) + 3e-4]);
    }
    let mut worst = (0.0f32, 0.0f64);
    // Not within a step (from 2ε before it to ε after, ε = 1e-4 s),
    // where MilkShape moves and glTF jumps.
    let within = |t: f64| {
        times[1..]
            .iter()
            .any(|&s| t > f64::from(s) - 2e-4 && t < f64::from(s) + 1e-4)
    };
    for t in at {
        if t > duration || within(t) {
            continue;
        }
        let src = posed(&scene, &mut pose, Some(t as f32));
        let skinned = model.skin(Some((start + t) as f32));
        for (m, map) in compiled.vertex_map.iter().enumerate() {
            for (i, v) in map.iter().enumerate() {
                if let Some(v) = v {
                    let e = (Vec3::from(src[m][i]) - Vec3::from(skinned[*v as usize])).length()
                        / extent;
                    if e > worst.0 {
                        worst = (e, t);
                    }
                }
            }
        }
    }
    eprintln!(
        "stepped: {:.2e} of the extent at {} s (report {:.2e})",
        worst.0, worst.1, report.max_error
    );
    assert!(worst.0 <= 1e-3, "{:.2e} at {} s", worst.0, worst.1);
}
