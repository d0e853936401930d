//! The MD3 compiler's fuzz checks (`fuzz/fuzz_targets/gltf_to_md3.rs`),
//! shared with `crates/retromodel/tests/regression.rs`: any bytes that
//! import as glTF (with the fuzz limits), read as MS3D, MD2 or MD3 make a
//! scene; compiling it to a Quake III MD3 (options chosen from the bytes:
//! frame rate, engine, a scale) is an error or a model that:
//!
//! - writes, reads back from its bytes as written, and writes the same
//!   bytes again;
//! - passes `validate` without a problem (no warning either), and `validate --engine` for the
//!   engine whose limits it was compiled to without an error;
//! - lies within half of 1/64 unit of what the compile baked (the
//!   report's largest error);
//! - has as many frames as the report counts, each surface holding every
//!   frame, every frame's bounds holding its vertices.
//!
//! A glTF scene is also compiled as a Quake III player (`check_player`).

use retromodel::md3::compile::{compile, CompileOptions};
use retromodel::md3::Md3;
use retromodel::ms3d::{Ms3d, Ms3dSceneOptions};
use retromodel::scene::Scene;
use retromodel::{Engine, Severity};

use crate::import_checks::fuzz_options;
use crate::md2_compile_checks::{positions, seed_of};

/// Scenes whose baking would pose more positions than this are not
/// compiled (as for the MD2 checks).
const MAX_POSITIONS: usize = 2_000_000;

/// The options one compile uses, chosen by `seed`.
fn options_for(seed: u8) -> CompileOptions {
    CompileOptions {
        fps: if seed & 1 != 0 { 5.0 } else { 15.0 },
        engine: match (seed >> 1) & 3 {
            0 => Some(Engine::Ioquake3),
            1 => Some(Engine::Ironwail),
            2 => Some(Engine::Vkquake),
            _ => None,
        },
        scale: (seed & 8 != 0).then_some(0.25),
        ..CompileOptions::default()
    }
}

/// Compiles `scene`; when that succeeds, checks the model (see the module
/// documentation). Returns whether it compiled.
fn check(scene: &Scene, seed: u8) -> bool {
    let options = options_for(seed);
    if positions(scene, options.fps) > MAX_POSITIONS {
        return false;
    }
    let Ok(compiled) = compile(scene, &options) else {
        return false;
    };
    let bytes = compiled.model.to_bytes().expect("a compiled MD3 writes");
    let read = Md3::from_bytes(&bytes).expect("the MD3 written reads back");
    assert_eq!(
        read.to_bytes().ok(),
        Some(bytes),
        "MD3 written again differs"
    );
    // `validate` finds nothing at all (no warning either); the engine's
    // profile no error.
    let problems = read.validate();
    assert!(problems.is_empty(), "validate: {problems:?}");
    let errors: Vec<_> = options
        .engine
        .map(|e| read.validate_for(e))
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "validate --engine: {errors:?}");
    let r = &compiled.report;
    assert!(
        r.max_error <= 1.0 / 128.0,
        "baked positions {} units from the fixed point",
        r.max_error
    );
    assert_eq!(read.frames.len(), r.frames, "frames");
    for (f, frame) in read.frames.iter().enumerate() {
        for s in &read.surfaces {
            let vertices = s.frame(f).expect("every surface holds every frame");
            for v in vertices {
                let p = v.position();
                let inside = (0..3).all(|a| p[a] >= frame.min[a] && p[a] <= frame.max[a]);
                assert!(inside, "frames[{f}] bounds");
            }
        }
    }
    true
}

/// `scene` as a Quake III player: its first three nodes named `lower`,
/// `upper` and `head` when no node is named so already, compiled with
/// `compile_player`; when that succeeds, each part writes, reads back as
/// written and validates without an error (for the engine too), the
/// `animation.cfg` text reads back to the same lines, every line lands in
/// its file as the game's arithmetic reads it (`LEGS_` lines less
/// `first(LEGS_WALKCR) - first(TORSO_GESTURE)` in `lower.md3`, `TORSO_`
/// ones in `upper.md3`, `BOTH_` ones in both), and each `.skin` text
/// parses. Returns whether it compiled.
fn check_player(scene: &Scene, seed: u8) -> bool {
    use retromodel::md3::compile::{compile_player, PlayerOptions};
    use retromodel::md3::{AnimationCfg, SkinFile};
    let named = |n: &str| scene.nodes.iter().any(|x| x.name.eq_ignore_ascii_case(n));
    let mut scene = scene.clone();
    if !(named("lower") && named("upper") && named("head")) {
        if scene.nodes.len() < 3 {
            return false;
        }
        for (node, name) in scene.nodes.iter_mut().zip(["lower", "upper", "head"]) {
            node.name = name.to_string();
        }
    }
    let o = options_for(seed);
    // A player bakes each animation for two parts at most.
    if positions(&scene, o.fps) > MAX_POSITIONS / 2 {
        return false;
    }
    let options = PlayerOptions {
        fps: o.fps,
        engine: o.engine,
        scale: o.scale,
        ..PlayerOptions::default()
    };
    let Ok(player) = compile_player(&scene, &options) else {
        return false;
    };
    let mut frames = [0usize; 3];
    for (k, part) in [&player.lower, &player.upper, &player.head]
        .iter()
        .enumerate()
    {
        let bytes = part.model.to_bytes().expect("a compiled part writes");
        let read = Md3::from_bytes(&bytes).expect("the part written reads back");
        assert_eq!(
            read.to_bytes().ok(),
            Some(bytes),
            "part {k} written again differs"
        );
        let errors: Vec<_> = read
            .validate()
            .into_iter()
            .chain(
                options
                    .engine
                    .map(|e| read.validate_for(e))
                    .unwrap_or_default(),
            )
            .filter(|p| p.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "part {k}: {errors:?}");
        frames[k] = read.frames.len();
    }
    assert_eq!(frames[2], 1, "head.md3 is one frame");
    let text = player.animation_cfg.to_text();
    let cfg = AnimationCfg::parse(text.as_bytes()).expect("the cfg written reads back");
    assert_eq!(cfg.animations.len(), player.animation_cfg.animations.len());
    for (i, a) in cfg.animations.iter().enumerate() {
        let first = cfg.first_frame_in_part(i).expect("a line");
        let end = first + i64::from(a.frame_count());
        let legs = a.name.starts_with("LEGS_");
        let torso = a.name.starts_with("TORSO_");
        for (k, plays) in [(0, !torso), (1, !legs)] {
            if plays {
                assert!(
                    first >= 0 && end <= frames[k] as i64 && a.frame_count() >= 1,
                    "{}: {first}..{end} of part {k}'s {} frames",
                    a.name,
                    frames[k]
                );
            }
        }
    }
    for skin in &player.skins {
        SkinFile::parse(skin.as_bytes()).expect("a .skin written parses");
    }
    true
}

/// Every way `data` makes a scene, compiled to MD3 and checked; returns
/// how many compiled.
///
/// ```
/// // Bytes that are no model compile nothing.
/// assert_eq!(retromodel_testkit::md3_compile_checks::exercise_compile(b"not a model"), 0);
/// ```
pub fn exercise_compile(data: &[u8]) -> usize {
    let seed = seed_of(data);
    let mut n = 0;
    if let Ok(imported) = retromodel::gltf::import(data, None, &fuzz_options()) {
        n += usize::from(check(&imported.scene, seed));
        n += usize::from(check_player(&imported.scene, seed));
    }
    if let Ok(model) = Ms3d::from_bytes(data) {
        if let Ok(scene) = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()) {
            n += usize::from(check(&scene, seed));
        }
    }
    if let Ok(model) = retromodel::md2::Md2::from_bytes(data) {
        let scene = Scene::from_md2(&model, &retromodel::md2::Md2SceneOptions::default());
        n += usize::from(check(&scene, seed));
    }
    if let Ok(model) = Md3::from_bytes(data) {
        if let Ok(scene) = Scene::from_md3(&model, &Default::default()) {
            n += usize::from(check(&scene, seed));
        }
    }
    n
}
