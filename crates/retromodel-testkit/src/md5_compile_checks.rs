//! The MD5 compiler's fuzz checks (`fuzz/fuzz_targets/gltf_to_md5.rs`),
//! shared with `crates/retromodel/tests/regression.rs`: any bytes that
//! import as glTF (with the fuzz limits), read as MS3D or read as an
//! md5mesh make a scene; compiling it into the rerelease's MD5 on the
//! frames the MD2 compile would make (options chosen from the bytes, as
//! `md2_compile_checks` chooses them) is an error or files that:
//!
//! - read back with the library's MD5 readers (`Md5Mesh::parse`,
//!   `Md5Anim::parse`, `Md5Scale::parse`);
//! - hold one anim frame per MD2 frame, and the mesh's joints in the
//!   anim's hierarchy;
//! - write the same bytes again when read back and written (the writer
//!   loses nothing it wrote);
//! - read back as a model with its anim, pass `validate` (what
//!   `retromodel validate --md5anim` runs) without a warning, but for the
//!   vertices the compile's `ShareAtHiddenJoint` counts (weights short
//!   of the whole, which no single bind point can hold).

use retromodel::md2::compile::frame_times;
use retromodel::md5::compile::{compile, FrameTime, Md5CompileOptions, Md5CompileWarning};
use retromodel::md5::{Md5Anim, Md5Mesh, Md5Model, Md5Scale};
use retromodel::ms3d::{Ms3d, Ms3dSceneOptions};
use retromodel::scene::Scene;

use crate::import_checks::fuzz_options;
use crate::md2_compile_checks::{options_for, positions, seed_of};

/// Scenes whose posing would take more positions than this are not
/// compiled (as for the MD2 checks).
const MAX_POSITIONS: usize = 2_000_000;

/// Compiles `scene` to MD5 on the MD2 frames of the options `seed`
/// chooses; when that succeeds, checks the files (see the module
/// documentation). Returns whether it compiled.
fn check(scene: &Scene, seed: u8) -> bool {
    let options = options_for(seed);
    if positions(scene, options.fps) > MAX_POSITIONS {
        return false;
    }
    let Ok(frames) = frame_times(scene, &options) else {
        return false;
    };
    let count = frames.len();
    let md5 = Md5CompileOptions {
        frames: frames
            .into_iter()
            .map(|(animation, seconds)| FrameTime { animation, seconds })
            .collect(),
        fps: options.fps,
        scale: 1.0,
        name: "fuzz".to_string(),
        ..Md5CompileOptions::default()
    };
    let Ok(compiled) = compile(scene, &md5) else {
        return false;
    };
    let Md5Model { mesh, animations } = compiled.model.clone();
    let mesh_bytes = mesh.to_bytes();
    let read_mesh = Md5Mesh::parse(&mesh_bytes).expect("the md5mesh written reads back");
    assert_eq!(
        read_mesh.to_bytes(),
        mesh_bytes,
        "md5mesh written again differs"
    );
    assert_eq!(animations.len(), 1, "one anim");
    // What `retromodel validate FILE.md5mesh --md5anim FILE.md5anim` says
    // of the files written: nothing, not even a warning.
    let Ok(retromodel::Model::Md5(mut read_model)) = retromodel::Model::from_bytes(&mesh_bytes)
    else {
        panic!("the md5mesh written reads as an MD5 model");
    };
    for a in &animations {
        let scale = a.scale.as_ref().map(|s| s.to_bytes());
        read_model
            .add_animation(&a.name, &a.anim.to_bytes(), scale.as_deref())
            .expect("the md5anim written goes with its md5mesh");
    }
    // But for vertices the compile says keep a share at a joint scaled to
    // nothing (weights short of the whole, as MilkShape leaves them): the
    // MD5 plays them as the MD2 does, and validation reports each.
    let shared = compiled
        .warnings
        .iter()
        .find_map(|w| match w {
            Md5CompileWarning::ShareAtHiddenJoint { vertices } => Some(*vertices),
            _ => None,
        })
        .unwrap_or(0);
    let problems = retromodel::Model::Md5(read_model).validate();
    let apart = problems
        .iter()
        .filter(|p| p.message.starts_with("its weights put it at points"))
        .count();
    assert!(apart <= shared, "validate: {problems:?}");
    assert!(problems.len() == apart, "validate: {problems:?}");
    for a in &animations {
        let anim_bytes = a.anim.to_bytes();
        let read = Md5Anim::parse(&anim_bytes).expect("the md5anim written reads back");
        assert_eq!(read.to_bytes(), anim_bytes, "md5anim written again differs");
        assert_eq!(read.num_frames, count, "one MD5 frame per MD2 frame");
        assert_eq!(
            read.hierarchy.len(),
            read_mesh.joints.len(),
            "the mesh's joints"
        );
        if let Some(scale) = &a.scale {
            let names: Vec<&str> = read.hierarchy.iter().map(|h| h.name.as_str()).collect();
            Md5Scale::parse(&scale.to_bytes(), &names).expect("the md5scale written reads back");
        }
    }
    true
}

/// Every way `data` makes a scene, compiled to MD5 and checked; returns
/// how many compiled.
///
/// ```
/// // Bytes that are no model compile nothing.
/// assert_eq!(retromodel_testkit::md5_compile_checks::exercise_compile(b"not a model"), 0);
/// ```
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
    if let Ok(mesh) = Md5Mesh::parse(data) {
        let model = Md5Model {
            mesh,
            animations: Vec::new(),
        };
        if let Ok(scene) = model.to_scene("fuzz") {
            n += usize::from(check(&scene, seed));
        }
    }
    n
}
