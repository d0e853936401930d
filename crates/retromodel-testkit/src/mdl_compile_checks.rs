//! The MDL compiler's fuzz checks (`fuzz/fuzz_targets/gltf_to_mdl.rs`),
//! shared with `crates/retromodel/tests/regression.rs`: any bytes that
//! import as glTF (with the fuzz limits), read as MS3D, MD2 or MDL make a
//! scene; compiling it to a Quake MDL (a grey-ramp palette, options chosen
//! from the bytes: frame rate, one animation as a frame group, effect
//! flags, limits) is an error or a model that:
//!
//! - writes, reads back from its bytes as written, and writes the same
//!   bytes again;
//! - passes `validate` without a problem (every file a compiler writes
//!   must: issue 29), and `validate --engine` for the engine whose limits
//!   it was compiled to without an error;
//! - decodes, read back from its bytes, within half a grid step of what
//!   the compile baked (the report's step fraction is at most one half,
//!   or its error within the f32 rounding of the decode where the
//!   coordinates dwarf the step or the step is subnormal);
//! - holds one entry in its frame list per pose `mdl::compile::frame_times`
//!   gives (what the rerelease's MD5 beside it plays), and as many simple
//!   frames as the report counts;
//! - uses no fullbright palette index in its skin (the sources the
//!   fuzzer makes are not emissive unless they say so; an emissive source
//!   may).

use retromodel::mdl::compile::{compile, frame_times, CompileOptions, Limits};
use retromodel::mdl::{Frame, Mdl, MdlSceneOptions, Skin, FIRST_FULLBRIGHT};
use retromodel::ms3d::{Ms3d, Ms3dSceneOptions};
use retromodel::scene::Scene;
use retromodel::texture::Palette;
use retromodel::Severity;

use crate::import_checks::fuzz_options;
use crate::md2_compile_checks::{positions, seed_of};

/// Scenes whose baking would pose more positions than this are not
/// compiled (as for the MD2 checks).
const MAX_POSITIONS: usize = 2_000_000;

/// Colour `i` is `(i, i, i)`: every index a distinct grey.
fn grey_palette() -> Palette {
    let mut colors = [[0u8; 3]; 256];
    for (i, c) in colors.iter_mut().enumerate() {
        *c = [i as u8; 3];
    }
    Palette::new(colors)
}

/// The options one compile uses, chosen by `seed`.
fn options_for(seed: u8, scene: &Scene) -> CompileOptions {
    let mut o = CompileOptions {
        palette: Some(grey_palette()),
        flags: i32::from(seed & 0x0f),
        random_sync: seed & 0x10 != 0,
        limits: if seed & 0x20 != 0 {
            Limits::UNLIMITED
        } else {
            Limits::QUAKE
        },
        ..CompileOptions::default()
    };
    if seed & 0x40 != 0 {
        o.fps = 5.0;
    }
    if seed & 0x80 != 0 {
        if let Some(a) = scene.animations.first() {
            o.frame_groups = vec![a.name.clone()];
        }
    }
    o
}

/// Whether any material of the scene glows (then fullbright indices are
/// the compile's to use).
fn emissive(scene: &Scene) -> bool {
    scene
        .materials
        .iter()
        .any(|m| m.emissive_texture.is_some() || m.emissive.iter().any(|&c| c > 0.0))
}

/// Compiles `scene`; when that succeeds, checks the model (see the module
/// documentation). Returns whether it compiled.
fn check(scene: &Scene, seed: u8) -> bool {
    let options = options_for(seed, scene);
    if positions(scene, options.fps) > MAX_POSITIONS {
        return false;
    }
    let Ok(compiled) = compile(scene, &options) else {
        return false;
    };
    let bytes = compiled.model.to_bytes().expect("a compiled MDL writes");
    let read = Mdl::from_bytes(&bytes).expect("the MDL written reads back");
    assert_eq!(
        read.to_bytes().ok(),
        Some(bytes.clone()),
        "MDL written again differs"
    );
    let problems = read.validate();
    assert!(problems.is_empty(), "validate: {problems:?}");
    let r = &compiled.report;
    // Half a step, or the f32 rounding of `byte × scale + origin` where
    // the coordinates dwarf the step (a few units in the last place of
    // the largest coordinate the grid reaches).
    let reach = (0..3)
        .map(|i| read.origin[i].abs() + 255.0 * read.scale[i].abs())
        .fold(0.0f32, f32::max);
    let widest = read.scale.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(
        r.max_step_fraction <= 0.5 + 1e-3
            || r.max_error <= widest / 2.0 + 4.0 * f32::EPSILON * reach
            // Subnormal steps have fewer bits than the step fraction needs.
            || r.max_error <= 4.0 * f32::MIN_POSITIVE,
        "baked positions {} of a step ({} units) from the grid",
        r.max_step_fraction,
        r.max_error
    );
    let simple = read.simple_frames().count();
    assert_eq!(simple, r.simple_frames, "simple frames");
    let entries = frame_times(scene, &options).expect("the frame list of a compile that worked");
    assert_eq!(
        entries.len(),
        read.frames.len(),
        "one frame-list entry per pose"
    );
    for (k, f) in read.frames.iter().enumerate() {
        if let Frame::Group { group, .. } = f {
            assert_eq!(
                group.intervals.len(),
                group.frames.len(),
                "frames[{k}] intervals"
            );
        }
    }
    if !emissive(scene) {
        for (s, skin) in read.skins.iter().enumerate() {
            let images: Vec<&Vec<u8>> = match skin {
                Skin::Single(i) => vec![i],
                Skin::Group { images, .. } => images.iter().collect(),
            };
            for image in images {
                assert!(
                    image.iter().all(|&i| i < FIRST_FULLBRIGHT),
                    "skins[{s}]: a fullbright index in a skin of no emissive material"
                );
            }
        }
    }
    let engine = retromodel::Engine::Glquake;
    if options.limits == Limits::QUAKE {
        let errors: Vec<_> = read
            .validate_for(engine)
            .into_iter()
            .filter(|p| p.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "validate --engine glquake: {errors:?}");
    }
    true
}

/// Every way `data` makes a scene, compiled to MDL and checked; returns
/// how many compiled.
///
/// ```
/// // Bytes that are no model compile nothing.
/// assert_eq!(retromodel_testkit::mdl_compile_checks::exercise_compile(b"not a model"), 0);
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
    if let Ok(model) = retromodel::md2::Md2::from_bytes(data) {
        let scene = Scene::from_md2(&model, &retromodel::md2::Md2SceneOptions::default());
        n += usize::from(check(&scene, seed));
    }
    if let Ok(model) = Mdl::from_bytes(data) {
        let options = MdlSceneOptions {
            palette: Some(grey_palette()),
            ..MdlSceneOptions::default()
        };
        if let Ok(scene) = Scene::from_mdl(&model, &options) {
            n += usize::from(check(&scene, seed));
        }
    }
    n
}
