//! `ms3d::compile` on skins as other tools write them
//! (`retromodel_testkit::gltf_skin_cases`, through the glTF importer):
//! quantized positions with the dequantisation in the inverse bind
//! matrices, a joint scaled to 0 at rest, one animated to 0 and back, and
//! `weight_remainder` as Blender exports it. The reference is the source
//! as glTF plays it (`scene::Pose`, tested against three.js), at 31 times
//! per animation chosen here; the MS3D is read back from its bytes and
//! posed and skinned as MilkShape's viewer does (`Skeleton` +
//! `Influences`) at the file's clip places; corners matched in the
//! triangle lists.

#![cfg(feature = "gltf")]

use glam::{Mat4, Vec3};
use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions, Ms3dCompileWarning};
use retromodel::ms3d::{Influences, Ms3d, Skeleton};
use retromodel::scene::{Pose, Scene};
use retromodel_testkit::gltf_skin_cases;

fn scene_of(glb: &[u8]) -> Scene {
    import(glb, None, &ImportOptions::default()).unwrap().scene
}

/// Per corner (over all groups): the source's position and the MS3D's,
/// in the bind pose against the rest pose and at `times` of every clip;
/// the largest distance over the rest pose's extent, for corners `keep`
/// accepts (by source vertex).
struct Errors {
    bind: f32,
    motion: f32,
}

fn errors(scene: &Scene, model: &Ms3d, keep: impl Fn(usize) -> bool) -> Errors {
    let skeleton = Skeleton::new(model).unwrap();
    let influences = Influences::new(model);
    let mut pose = Pose::new(scene).unwrap();
    let mut mats = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let mut skinned = vec![[0.0f32; 3]; model.vertices.len()];
    let source = |pose: &Pose, m: usize| {
        let n = scene.meshes[m].positions.len();
        let (mut p, mut nn) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
        pose.mesh_vertices(scene, m, &mut p, &mut nn);
        p
    };
    pose.reset(scene);
    let rest = source(&pose, 0);
    let (lo, hi) = rest.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min((*p).into()), hi.max((*p).into())),
    );
    let extent = (hi - lo).length().max(1.0);
    let compare = |p: &[[f32; 3]], skinned: &[[f32; 3]]| {
        let mut w = 0.0f32;
        for (k, &tri) in model.groups[0].triangles.iter().enumerate() {
            for c in 0..3 {
                let i = scene.meshes[0].indices[3 * k + c] as usize;
                if !keep(i) {
                    continue;
                }
                let v = model.triangles[tri as usize].vertices[c] as usize;
                let d = Vec3::from(p[i]) - Vec3::from(skinned[v]);
                w = w.max(d.length() / extent);
            }
        }
        w
    };
    influences.skin_positions(model, &mats, &mut skinned);
    let bind = compare(&rest, &skinned);
    let mut motion = 0.0f32;
    for (a, clip) in model.clips().iter().enumerate() {
        let duration = scene.animations[a].duration();
        for i in 0..=30 {
            let t = duration * i as f32 / 30.0;
            pose.sample(scene, a, t);
            skeleton.pose_at_time(clip.first_frame / model.fps + t, &mut mats);
            skeleton.skinning_matrices(&mut mats);
            influences.skin_positions(model, &mats, &mut skinned);
            motion = motion.max(compare(&source(&pose, 0), &skinned));
        }
    }
    Errors { bind, motion }
}

fn compiled(scene: &Scene) -> (Ms3d, Vec<Ms3dCompileWarning>) {
    let c = compile(scene, &Ms3dCompileOptions::default()).unwrap();
    let back = Ms3d::from_bytes(&c.model.to_bytes().unwrap()).unwrap();
    assert!(back.validate_for_milkshape().is_empty());
    (back, c.warnings)
}

fn non_rigid(warnings: &[Ms3dCompileWarning]) -> Option<String> {
    warnings.iter().find_map(|w| match w {
        Ms3dCompileWarning::NonRigidMotion { joint, .. } => Some(joint.clone()),
        _ => None,
    })
}

#[test]
fn dequantisation_in_the_inverse_binds_is_the_bind_pose_not_motion() {
    let scene = scene_of(&gltf_skin_cases::quantized());
    let (model, warnings) = compiled(&scene);
    assert_eq!(non_rigid(&warnings), None, "{warnings:?}");
    let e = errors(&scene, &model, |_| true);
    assert!(e.bind <= 1e-5, "bind pose off by {}", e.bind);
    assert!(e.motion <= 1e-3, "motion off by {}", e.motion);
    // The bind pose is the strip as it was before quantisation (rows at
    // y = 0..4, x = 0 and 1), from the file's dequantisation worked out
    // here.
    for v in &model.vertices {
        let p = v.position;
        assert!(
            (p[0] - p[0].round()).abs() < 1e-4 && (p[1] - p[1].round()).abs() < 1e-4,
            "{p:?}"
        );
        assert!((0.0..=4.0).contains(&p[1].round()), "{p:?}");
    }
}

#[test]
fn a_joint_scaled_to_zero_at_rest_compiles() {
    let scene = scene_of(&gltf_skin_cases::zero_scaled(false));
    let (model, _) = compiled(&scene);
    assert_eq!(model.joints.len(), 3);
    // Everything but the hidden row (vertices 8 and 9) plays alike.
    let e = errors(&scene, &model, |i| i < 8);
    assert!(
        e.bind <= 1e-5 && e.motion <= 1e-3,
        "{} {}",
        e.bind,
        e.motion
    );
    let all = errors(&scene, &model, |_| true);
    assert!(all.motion.is_finite() && all.bind.is_finite());
}

#[test]
fn a_joint_animated_to_zero_and_back_compiles_with_a_warning_naming_it() {
    let scene = scene_of(&gltf_skin_cases::zero_scaled(true));
    let (model, warnings) = compiled(&scene);
    assert_eq!(
        non_rigid(&warnings).as_deref(),
        Some("third"),
        "{warnings:?}"
    );
    let e = errors(&scene, &model, |i| i < 8);
    assert!(
        e.bind <= 1e-5 && e.motion <= 1e-3,
        "{} {}",
        e.bind,
        e.motion
    );
    // The hidden row is whole in the bind pose (the rest pose shows it).
    let all = errors(&scene, &model, |_| true);
    assert!(all.bind <= 1e-5, "{}", all.bind);
}

#[test]
fn weight_remainder_as_blender_writes_it_is_weights_short_of_100_percent() {
    let scene = scene_of(&gltf_skin_cases::remainder_as_blender_writes_it());
    let (model, warnings) = compiled(&scene);
    // Two joints: the remainder is the share MilkShape leaves out.
    assert_eq!(model.joints.len(), 2, "{warnings:?}");
    assert_eq!(non_rigid(&warnings), None, "{warnings:?}");
    let e = errors(&scene, &model, |_| true);
    assert!(e.motion <= 1e-3, "{}", e.motion);
}

/// Keeps the keys of `scene`'s animations up to `seconds` (the compile of
/// a whole long timeline is slow in a debug build).
fn first_seconds(scene: &mut Scene, seconds: f32) {
    for a in &mut scene.animations {
        for c in &mut a.channels {
            let keep = c.times.iter().filter(|&&t| t <= seconds).count().max(1);
            let per_key = c.values.len() / c.times.len().max(1);
            c.times.truncate(keep);
            c.values.truncate(keep * per_key);
        }
    }
}

#[test]
fn woman4_through_gltf_as_blender_writes_it_compiles() {
    use retromodel::ms3d::Ms3dSceneOptions;
    use retromodel::scene::{Channel, Interpolation, Target};
    let Some(dir) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let bytes = std::fs::read(dir.join("ms3d/glscene_Woman4.ms3d")).unwrap();
    let source = Ms3d::from_bytes(&bytes).unwrap();
    let scene = Scene::from_ms3d(&source, &Ms3dSceneOptions::default()).unwrap();
    let glb = retromodel::gltf::to_glb(&scene).unwrap();
    let mut scene = scene_of(&glb);
    first_seconds(&mut scene, 1.0);
    // What Blender's export changes: the helpers' notes are gone, the
    // remainder rests at scale 1 and every key scales it to 0.
    let remainder = scene
        .nodes
        .iter()
        .position(|n| n.name == "weight_remainder")
        .expect("Woman4 has weights short of 100 %");
    for n in &mut scene.nodes {
        n.extras = serde_json::Value::Null;
    }
    scene.nodes[remainder].scale = [1.0; 3];
    let times = scene.animations[0].channels[0].times.clone();
    scene.animations[0].channels.push(Channel {
        target: Target::Scale { node: remainder },
        interpolation: Interpolation::Linear,
        values: vec![0.0; 3 * times.len()],
        times,
    });
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let back = Ms3d::from_bytes(&c.model.to_bytes().unwrap()).unwrap();
    assert!(back.validate_for_milkshape().is_empty());
    // MilkShape's joints and `static` (without its note, a joint that
    // stays put); the remainder is a share left out again.
    assert_eq!(back.joints.len(), source.joints.len() + 1);
    assert!(back
        .joints
        .iter()
        .all(|j| j.name.as_bytes() != b"weight_remainder"));
    assert!(c.report.max_error() <= 1e-3, "{:?}", c.warnings);
}

/// The cases above saved in `tests/regression/` (replayed through every
/// fuzz target's checks by `tests/regression.rs` and `fuzz/check.sh`, and
/// seeds for `gltf_to_ms3d`) are the builders' bytes;
/// `RETROMODEL_BLESS=1` writes them.
#[test]
fn saved_regression_inputs_are_the_builders() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regression");
    let cases = [
        (
            "ms3d_compile_quantized_skin.glb",
            gltf_skin_cases::quantized(),
        ),
        (
            "ms3d_compile_zero_scale_joint.glb",
            gltf_skin_cases::zero_scaled(false),
        ),
        (
            "ms3d_compile_joint_scaled_to_zero_and_back.glb",
            gltf_skin_cases::zero_scaled(true),
        ),
        (
            "ms3d_compile_blender_weight_remainder.glb",
            gltf_skin_cases::remainder_as_blender_writes_it(),
        ),
    ];
    for (name, bytes) in cases {
        let path = dir.join(name);
        if std::env::var_os("RETROMODEL_BLESS").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name}");
    }
}

/// A motion too large for 32-bit floats (two joints each moved by 3e38,
/// so the source's posed vertices overflow): an error naming the vertex,
/// never a compile whose reported error is not finite (what the
/// `gltf_to_ms3d` fuzz target checks, run here on the same bytes).
#[test]
fn a_motion_that_overflows_is_an_error_not_an_infinite_error() {
    use retromodel::scene::{Channel, Interpolation, Target};
    let mut scene = scene_of(&gltf_skin_cases::zero_scaled(true));
    for node in [0, 1] {
        scene.animations[0].channels.push(Channel {
            target: Target::Translation { node },
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: vec![0.0, 0.0, 0.0, 3e38, 0.0, 0.0],
        });
    }
    match compile(&scene, &Ms3dCompileOptions::default()) {
        Err(e) => assert!(e.to_string().contains("not a finite"), "{e}"),
        Ok(c) => panic!("compiled with error {}", c.report.max_error()),
    }
    let glb = retromodel::gltf::to_glb(&scene).unwrap();
    retromodel_testkit::ms3d_compile_checks::exercise_gltf_to_ms3d(&glb);
}
