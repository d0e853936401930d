//! Skinned glTFs compiled to MS3D: every skinned glTF in the corpus
//! (Blender's exports) and assimp's `simple_skin` test model (Debian's
//! assimp-testmodels; skipped when absent, required under CI). The MS3D,
//! posed and skinned as MilkShape's viewer does it (`ms3d::Skeleton` +
//! `Influences`) at each clip's place on the timeline, must put every
//! triangle corner where `scene::Pose` puts the imported source's, at 10
//! times per animation, within 1e-3 of the model's extent; it passes
//! strict validation and MilkShape's limits, and our reader loads it.
//!
//! The reference is the source scene evaluated by `scene::Pose` (glTF's
//! interpolation, tested against three.js in `scene_pose.rs`); corners
//! are matched by position in the triangle lists, not by anything the
//! compiler reports.

#![cfg(all(feature = "gltf", feature = "textures"))]

use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::ms3d::{Influences, Ms3d, Skeleton};
use retromodel::scene::{Pose, Scene};
use retromodel::texture::TextureResolver;
use retromodel_testkit::corpus::corpus_dir;

const SIMPLE_SKIN: &str = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";

fn load(path: &Path) -> Scene {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let resolver = TextureResolver::for_model_file(path);
    import(&bytes, Some(&resolver), &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .scene
}

/// The diagonal of the source's rest-pose bounding box.
fn extent(scene: &Scene) -> f32 {
    let mut pose = Pose::new(scene).unwrap();
    pose.reset(scene);
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for (m, mesh) in scene.meshes.iter().enumerate() {
        let n = mesh.positions.len();
        let (mut p, mut nn) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
        pose.mesh_vertices(scene, m, &mut p, &mut nn);
        for q in p {
            lo = lo.min(q.into());
            hi = hi.max(q.into());
        }
    }
    (hi - lo).length()
}

/// Checks `path`'s compile; returns a line for the log.
fn check(path: &Path) -> String {
    let what = path.display().to_string();
    let scene = load(path);
    assert!(!scene.skins.is_empty(), "{what}: not skinned");
    let compiled = compile(&scene, &Ms3dCompileOptions::default())
        .unwrap_or_else(|e| panic!("{what}: compile: {e}"));
    let model = &compiled.model;
    // What we write: strict validation, MilkShape's limits, our reader.
    let bytes = model.to_bytes().unwrap();
    let back = Ms3d::from_bytes(&bytes).unwrap_or_else(|e| panic!("{what}: read back: {e}"));
    assert_eq!(&back, model, "{what}: read back");
    assert!(back.validate().is_empty(), "{what}: {:?}", back.validate());
    assert!(
        back.validate_for_milkshape().is_empty(),
        "{what}: {:?}",
        back.validate_for_milkshape()
    );
    // One group per mesh, its triangles in the source's order.
    assert_eq!(back.groups.len(), scene.meshes.len(), "{what}: groups");
    for (g, mesh) in back.groups.iter().zip(&scene.meshes) {
        assert_eq!(
            g.triangles.len() * 3,
            mesh.indices.len(),
            "{what}: triangles"
        );
    }
    // The clips: one per animation, in order, as long as it.
    let clips = back.clips();
    assert_eq!(
        clips.len(),
        scene.animations.len(),
        "{what}: clips {clips:?}"
    );
    let extent = extent(&scene);
    let skeleton = Skeleton::new(&back).unwrap();
    let influences = Influences::new(&back);
    let mut pose = Pose::new(&scene).unwrap();
    let mut mats = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let mut skinned = vec![[0.0f32; 3]; back.vertices.len()];
    let mut worst = 0.0f32;
    let compare = |pose: &Pose, skinned: &[[f32; 3]]| {
        let mut w = 0.0f32;
        for (m, (mesh, group)) in scene.meshes.iter().zip(&back.groups).enumerate() {
            let n = mesh.positions.len();
            let (mut p, mut nn) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
            pose.mesh_vertices(&scene, m, &mut p, &mut nn);
            for (t, &tri) in group.triangles.iter().enumerate() {
                let tri = &back.triangles[tri as usize];
                for c in 0..3 {
                    let src = Vec3::from(p[mesh.indices[3 * t + c] as usize]);
                    let out = Vec3::from(skinned[tri.vertices[c] as usize]);
                    w = w.max((src - out).length() / extent);
                }
            }
        }
        w
    };
    // The bind pose (every skinning matrix the identity) is the source's
    // rest pose (for Blender's exports, whose rest pose is the bind pose,
    // the source's vertices exactly; assimp's simple_skin rests half a
    // unit from its inverse bind matrices' bind pose).
    influences.skin_positions(&back, &mats, &mut skinned);
    pose.reset(&scene);
    for (m, (mesh, group)) in scene.meshes.iter().zip(&back.groups).enumerate() {
        assert!(mesh.skin.is_some(), "{what}: a mesh without a skin");
        let n = mesh.positions.len();
        let (mut rest, mut nn) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
        pose.mesh_vertices(&scene, m, &mut rest, &mut nn);
        let blender = what.contains("blender_");
        for (t, &tri) in group.triangles.iter().enumerate() {
            for c in 0..3 {
                let v = back.triangles[tri as usize].vertices[c] as usize;
                let i = mesh.indices[3 * t + c] as usize;
                if blender {
                    assert_eq!(
                        back.vertices[v].position, mesh.positions[i],
                        "{what}: bind-pose vertex"
                    );
                }
                let d = (Vec3::from(back.vertices[v].position) - Vec3::from(rest[i])).length();
                assert!(
                    d <= 1e-6 * extent,
                    "{what}: bind-pose vertex {v} off the rest pose by {d}"
                );
                let d = (Vec3::from(skinned[v]) - Vec3::from(rest[i])).length();
                assert!(d <= 1e-6 * extent, "{what}: skinned in the bind pose: {d}");
            }
        }
    }
    for (a, (anim, clip)) in scene.animations.iter().zip(&clips).enumerate() {
        let duration = anim.duration();
        let clip_length = clip.duration(back.fps);
        assert!(
            (clip_length - duration).abs() <= 0.5 / back.fps,
            "{what}: clip {clip:?} for {} s",
            duration
        );
        let start = clip.first_frame / back.fps;
        for i in 0..10 {
            let t = duration * i as f32 / 9.0;
            pose.sample(&scene, a, t);
            skeleton.pose_at_time(start + t, &mut mats);
            skeleton.skinning_matrices(&mut mats);
            influences.skin_positions(&back, &mats, &mut skinned);
            let e = compare(&pose, &skinned);
            assert!(
                e <= 1e-3,
                "{what}: animation {:?} at {t} s off by {e:.3e} of the extent",
                anim.name
            );
            worst = worst.max(e);
        }
    }
    let r = &compiled.report;
    format!(
        "{what}: {} joints, {} keys written for {} in the source, largest error {worst:.2e} of the extent, weights rounded by up to {:.2} points",
        back.joints.len(),
        r.keys(),
        r.source_keys(),
        r.weight_error
    )
}

/// The skinned glTFs of the corpus.
fn corpus_skinned() -> Vec<PathBuf> {
    let Some(dir) = corpus_dir() else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("gltf"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
        })
        .filter(|p| !load(p).skins.is_empty())
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_skinned_gltfs_compile_to_what_milkshape_plays_alike() {
    let Some(_) = corpus_dir() else { return };
    let files = corpus_skinned();
    assert!(
        files.iter().any(|f| f.ends_with("blender_walker.glb")),
        "{files:?}"
    );
    for f in files {
        eprintln!("{}", check(&f));
    }
}

#[test]
fn assimp_simple_skin_compiles_to_what_milkshape_plays_alike() {
    let path = Path::new(SIMPLE_SKIN);
    if !path.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{SIMPLE_SKIN} is missing: CI installs assimp-testmodels"
        );
        eprintln!("note: {SIMPLE_SKIN} not found (assimp-testmodels); skipping");
        return;
    }
    eprintln!("{}", check(path));
}
