//! Posing a scene at any time (`scene::Pose`) against the evaluators it
//! must agree with: for every corpus MS3D, MilkShape's own skeleton and
//! skinning (`ms3d::Skeleton` + `Influences`, tested against the viewer's
//! source elsewhere); for every corpus MD2, the decoded frames.

#![cfg(feature = "scene")]

use glam::Mat4;
use retromodel::md2::Md2;
use retromodel::md2::{md2_axes, Md2SceneOptions};
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use retromodel::scene::{Pose, Scene};
use retromodel_testkit::corpus::{corpus_dir, ms3d_files};

/// The largest side of the bind pose's bounding box (at least 1e-6).
fn extent(points: &[[f32; 3]]) -> f32 {
    (0..3)
        .map(|k| {
            let lo = points.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
            let hi = points
                .iter()
                .map(|p| p[k])
                .fold(f32::NEG_INFINITY, f32::max);
            hi - lo
        })
        .fold(1e-6, f32::max)
}

/// Times to pose at: the start, inside the first key intervals, the
/// middle, the end of the timeline and past it.
fn times(model: &Ms3d) -> Vec<f32> {
    let end = model.total_frames.max(1) as f32 / model.effective_fps();
    vec![
        0.0,
        0.013,
        0.25,
        0.5,
        1.0,
        end / 3.0,
        end / 2.0,
        end * 0.9,
        end,
        end + 1.0,
    ]
}

#[test]
fn every_corpus_ms3d_posed_through_the_scene_is_milkshapes_skinning() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    for (name, path) in ms3d_files(&dir) {
        let model = Ms3d::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let Ok(skeleton) = Skeleton::new(&model) else {
            continue;
        };
        let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).unwrap();
        let mut pose = Pose::new(&scene).unwrap();
        let influences = Influences::new(&model);
        let groups = GroupMesh::build_all(&model);
        assert_eq!(groups.len(), scene.meshes.len(), "{name}");
        let bind: Vec<[f32; 3]> = model.vertices.iter().map(|v| v.position).collect();
        let tolerance = 1e-5 * extent(&bind);
        let mut joints = vec![Mat4::IDENTITY; skeleton.joint_count()];
        let mut expected = vec![[0.0f32; 3]; model.vertices.len()];
        for t in times(&model) {
            skeleton.pose_at_time(t, &mut joints);
            skeleton.skinning_matrices(&mut joints);
            influences.skin_positions(&model, &joints, &mut expected);
            if scene.animations.is_empty() {
                pose.reset(&scene);
            } else {
                pose.sample(&scene, 0, t);
            }
            let mut worst = 0.0f32;
            for (m, (mesh, group)) in scene.meshes.iter().zip(&groups).enumerate() {
                let n = mesh.positions.len();
                let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
                pose.mesh_vertices(&scene, m, &mut p, &mut nrm);
                for (got, &src) in p.iter().zip(&group.source_vertices) {
                    let want = expected[src as usize];
                    for k in 0..3 {
                        worst = worst.max((got[k] - want[k]).abs());
                    }
                }
                for n in &nrm {
                    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                    assert!((len - 1.0).abs() < 1e-3, "{name} t={t}: normal {n:?}");
                }
            }
            assert!(
                worst <= tolerance,
                "{name} at {t} s: {worst} off MilkShape's skinning (tolerance {tolerance})"
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} MS3D files checked");
}

#[test]
fn every_corpus_md2_frame_posed_through_the_scene_is_the_decoded_frame() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    for entry in std::fs::read_dir(dir.join("md2")).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "md2") {
            continue;
        }
        let model = Md2::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        let mut pose = Pose::new(&scene).unwrap();
        let mesh = &scene.meshes[0];
        let render = retromodel::md2::RenderMesh::new(&model);
        let n = mesh.positions.len();
        let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
        // Every animation at each of its keys is that frame, exactly.
        for (a, anim) in model.animations().iter().enumerate() {
            for (k, frame) in anim.frames().enumerate().step_by(3) {
                pose.sample(&scene, a, k as f32 / retromodel::md2::DEFAULT_FPS);
                pose.mesh_vertices(&scene, 0, &mut p, &mut nrm);
                let f = &model.frames[frame];
                for (got, &src) in p.iter().zip(&render.source_vertices) {
                    let want = md2_axes(f.position(src as usize).unwrap());
                    for c in 0..3 {
                        assert!(
                            (got[c] - want[c]).abs() <= 1e-5 * want[c].abs().max(1.0),
                            "{} {} frame {frame}: {got:?} vs {want:?}",
                            path.display(),
                            anim.name
                        );
                    }
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} MD2 files checked");
}
