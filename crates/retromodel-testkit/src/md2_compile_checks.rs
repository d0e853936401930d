//! The MD2 compiler's fuzz checks (`fuzz/fuzz_targets/gltf_to_md2.rs`),
//! shared with `crates/retromodel/tests/regression.rs`: any bytes that
//! import as glTF (with the fuzz limits), read as MS3D or read as MD2 make a
//! scene; compiling it, with options chosen from the bytes, is an error or
//! a model that:
//!
//! - read from its bytes as a `Model`, passes `validate_for` the engine
//!   compiled for (what `retromodel validate --engine` runs) without an
//!   error, each of its warnings passed on among the compile's (or
//!   counted in the first of those alike but for their indices);
//! - writes, and reads back as written;
//! - has every decoded position within half a grid step of the baked one
//!   (the report's step fraction) or within the f32 rounding of the
//!   decode, unless grids were given from outside;
//! - groups, by our own reading of its frame names, into exactly the
//!   animations (names, first frames, frame counts) the report lists,
//!   each under its source's name or the name a warning gives, unless a
//!   warning says the names are ambiguous;
//! - when compiled onto the MD2 record of the scene it came from, gives
//!   back that MD2's frames: the same grids, and the same position bytes
//!   (or bytes that decode to the very same floats) in every frame the
//!   scene holds to less than half a step.

use retromodel::md2::compile::{
    compile, CompileOptions, CompileWarning, Compiled, Grid, SkinFormat,
};
use retromodel::md2::{md2_axes, Md2SceneOptions};
use retromodel::md2::{Engine, Frame, Md2};
use retromodel::ms3d::Ms3d;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;
use retromodel::Severity;

use crate::import_checks::fuzz_options;

/// Scenes whose baking would pose more positions than this are not
/// compiled (the fuzzer wants speed; the compiler's own limits are tested
/// elsewhere).
const MAX_POSITIONS: usize = 2_000_000;

/// An upper bound on the positions a compile of `scene` at `fps` poses.
pub(crate) fn positions(scene: &Scene, fps: f32) -> usize {
    let vertices: usize = scene.meshes.iter().map(|m| m.positions.len()).sum();
    let frames: f64 = scene
        .animations
        .iter()
        .map(|a| f64::from(a.duration()) * f64::from(fps) + 2.0)
        .sum::<f64>()
        .max(1.0);
    if !frames.is_finite() || frames > 1e6 {
        return usize::MAX;
    }
    vertices.saturating_mul(frames as usize)
}

/// The options one compile uses, chosen by `seed` (so one input tries one
/// combination, and the fuzzer's mutations reach the others).
pub(crate) fn options_for(seed: u8) -> CompileOptions {
    let mut o = CompileOptions {
        grid: [Grid::Frame, Grid::Animation, Grid::Model][usize::from(seed % 3)],
        player: seed & 0x08 != 0,
        engine: Engine::MD2[usize::from(seed >> 4) % Engine::MD2.len()],
        ..CompileOptions::default()
    };
    // No palette in a fuzzer: PNG skins, so a scene with images still
    // compiles rather than stopping at the missing palette.
    o.skin.format = SkinFormat::Png;
    if seed & 0x04 != 0 {
        o.fps = 5.0;
    }
    o
}

/// A seed from the bytes: their sum, so that a change anywhere changes it.
pub(crate) fn seed_of(data: &[u8]) -> u8 {
    data.iter().fold(0u8, |s, &b| s.wrapping_add(b))
}

/// Compiles `scene` with `options`; when that succeeds, checks the model
/// (see the module documentation). Returns the compile, if it succeeded.
fn check(scene: &Scene, options: &CompileOptions) -> Option<Compiled> {
    if positions(scene, options.fps) > MAX_POSITIONS {
        return None;
    }
    let compiled = compile(scene, options).ok()?;
    let model = &compiled.model;
    let bytes = model.to_bytes().expect("a compiled model writes");
    // What `retromodel validate --engine ENGINE` says of the file written.
    let read = retromodel::Model::from_bytes(&bytes).expect("a compiled model reads as a model");
    for p in read.validate_for(options.engine) {
        // Errors refuse the compile; warnings (a skin size the engine
        // maps wrong) are passed on.
        assert_eq!(p.severity, Severity::Warning, "{p:?}");
        // Warnings alike but for their indices (a record's 434 degenerate
        // triangles) come as the first one, counting the others.
        let said = format!("{}: {}", p.path, p.message);
        let family = |path: &str| -> String {
            let mut inside = false;
            path.chars()
                .filter(|&c| {
                    inside = (inside || c == '[') && c != ']';
                    !(inside && c.is_ascii_digit())
                })
                .collect()
        };
        let grouped = |message: &str| {
            message.ends_with("like it)")
                && message
                    .split_once(": ")
                    .is_some_and(|(path, _)| family(path) == family(&p.path))
        };
        assert!(
            compiled.warnings.iter().any(|w| matches!(
                w,
                CompileWarning::Skin { message } if *message == said || grouped(message)
            )),
            "{said} is not among the warnings {:?}",
            compiled.warnings
        );
    }
    let mut back = Md2::from_bytes(&bytes).expect("a compiled model reads back");
    // What the reader learns of the file's layout is not in the model made.
    back.source = None;
    assert!(&back == model, "read back differs");
    let report = &compiled.report;
    assert_eq!(report.vertices, model.vertex_count());
    assert_eq!(report.triangles, model.triangles.len());
    let frames: usize = report.animations.iter().map(|a| a.frames).sum();
    assert_eq!(frames, model.frames.len(), "the report's frames");
    if options.grid_from.is_none() {
        for a in &report.animations {
            // Half a step, plus the rounding of the f32 decode on that
            // axis: where a step is finer than the numbers around it can
            // tell apart (a degenerate frame), the error is at the
            // numbers' resolution. The report keeps the largest fraction
            // of any axis, so the bound is the largest axis' bound.
            let frames = &model.frames[a.first_frame..a.first_frame + a.frames];
            let bound = frames
                .iter()
                .flat_map(|f| (0..3).map(move |k| (f.scale[k], f.translate[k])))
                .map(|(s, t)| {
                    let magnitude = t.abs().max((t + 255.0 * s).abs());
                    let rounding = 4.0 * f32::EPSILON * magnitude + 1e-43;
                    0.5 + 1e-3 + rounding / s.abs()
                })
                .fold(0.5 + 1e-3, f32::max);
            assert!(
                a.max_step_fraction <= bound,
                "animation {:?}: {} steps from its source, more than half a step and the f32 \
                 rounding of the decode ({bound} steps)",
                a.name,
                a.max_step_fraction
            );
        }
    }
    let ambiguous = compiled
        .warnings
        .iter()
        .any(|w| matches!(w, CompileWarning::AnimationsAmbiguous { .. }));
    if !ambiguous {
        let read: Vec<(String, usize, usize)> = model
            .animations()
            .into_iter()
            .map(|a| (a.name, a.first_frame, a.frame_count))
            .collect();
        let reported: Vec<(String, usize, usize)> = report
            .animations
            .iter()
            .map(|a| (a.name.clone(), a.first_frame, a.frames))
            .collect();
        assert_eq!(read, reported, "the frame names do not group back");
    }
    if !ambiguous && !options.player && !report.reused_md2_source {
        // Each animation is found under its source's name, or under the
        // name a warning gives.
        for a in report.animations.iter().filter(|a| !a.source.is_empty()) {
            let renamed = compiled.warnings.iter().any(|w| {
                matches!(w, CompileWarning::AnimationRenamed { from, to, .. }
                    if *from == a.source && *to == a.name)
            });
            assert!(
                a.name == a.source || renamed,
                "{:?} is read back as {:?}",
                a.source,
                a.name
            );
        }
    }
    Some(compiled)
}

/// An MD2's scene compiled onto its own record: when the record is used,
/// the frames' grids are the MD2's, and each frame that the scene holds
/// to less than half a step (its base plus the frame's morph target is
/// within 0.4 of a step of every decoded position) has the MD2's
/// position bytes, or bytes that decode to the very same floats. (A frame
/// far from the base in magnitude loses digits in the displacement, and
/// then only the report's half a step of the scene's positions holds.)
fn check_record(original: &Md2, scene: &Scene, compiled: &Compiled) {
    if !compiled.report.reused_md2_source {
        return;
    }
    let model = &compiled.model;
    assert_eq!(model.frames.len(), original.frames.len());
    assert_eq!(model.vertex_count(), original.vertex_count());
    let decode = |f: &Frame, p: [u8; 3]| -> [f32; 3] {
        std::array::from_fn(|j| f32::from(p[j]) * f.scale[j] + f.translate[j])
    };
    let bits = |v: [f32; 3]| v.map(f32::to_bits);
    let mesh = &scene.meshes[0];
    for (i, (a, b)) in model.frames.iter().zip(&original.frames).enumerate() {
        assert_eq!(
            (a.scale.map(f32::to_bits), a.translate.map(f32::to_bits)),
            (b.scale.map(f32::to_bits), b.translate.map(f32::to_bits)),
            "frame {i}: another grid than the record's"
        );
        let held_exactly = compiled.vertex_map[0].iter().enumerate().all(|(u, k)| {
            let Some(k) = k else { return true };
            let (Some(base), Some(d)) = (
                mesh.positions.get(u),
                mesh.morph_targets.get(i).and_then(|t| t.positions.get(u)),
            ) else {
                return false;
            };
            let posed = [base[0] + d[0], base[1] + d[1], base[2] + d[2]];
            let expected = md2_axes(decode(b, b.vertices[*k as usize].position));
            let step = md2_axes(b.scale);
            (0..3).all(|j| (posed[j] - expected[j]).abs() <= 0.4 * step[j].abs())
        });
        if !held_exactly {
            continue;
        }
        for (k, (va, vb)) in a.vertices.iter().zip(&b.vertices).enumerate() {
            // The same bytes, or bytes that decode to the same floats: a
            // translate that swamps the scale (1e28 against 0.01) decodes
            // every byte alike, and which byte it was cannot be known.
            assert!(
                va.position == vb.position
                    || bits(decode(b, va.position)) == bits(decode(b, vb.position)),
                "frame {i} vertex {k}: {:?}, the record's {:?}",
                va.position,
                vb.position
            );
        }
    }
}

/// Imports `data` as glTF, reads it as MS3D and as MD2, and compiles each
/// scene made; returns how many compiled.
pub fn exercise_compile(data: &[u8]) -> usize {
    let options = options_for(seed_of(data));
    let mut n = 0;
    if let Ok(imported) = retromodel::gltf::import(data, None, &fuzz_options()) {
        n += usize::from(check(&imported.scene, &options).is_some());
    }
    if let Ok(model) = Ms3d::from_bytes(data) {
        if let Ok(scene) = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()) {
            n += usize::from(check(&scene, &options).is_some());
        }
    }
    if let Ok(model) = Md2::from_bytes(data) {
        let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        // Onto the record, as `convert x.md2 x.glb` and back would.
        let record = CompileOptions {
            engine: options.engine,
            ..CompileOptions::default()
        };
        if let Some(compiled) = check(&scene, &record) {
            n += 1;
            check_record(&model, &scene, &compiled);
        }
        n += usize::from(check(&scene, &options).is_some());
    }
    n
}
