//! `ms3d::compile` on made-up scenes: names over 31 bytes and taken
//! names, more than four influences (through a hand-made glTF and the
//! importer), scale in the bind pose, a rigidly animated node, a
//! morph-only animation, an empty scene, and hostile scenes (errors, never
//! panics). Motion is checked against `scene::Pose` (MilkShape's
//! evaluation of the result, `Skeleton` + `Influences`, at 10 times per
//! animation); weights against percentages worked out by hand.

#![cfg(feature = "gltf")]

use glam::{Mat4, Quat, Vec3};
use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions, Ms3dCompileWarning};
use retromodel::ms3d::{Influences, Ms3d, Skeleton};
use retromodel::scene::{
    Animation, Channel, Interpolation, Material, Mesh, MorphTarget, Node, Pose, Scene, Skin,
    SkinWeights, Target,
};
use retromodel_testkit::gltf_builder::{component, u16_bytes, Builder};
use serde_json::json;

/// A strip of `n` quads along +Y (two triangles each), `2 (n + 1)`
/// vertices.
fn strip(name: &str, n: usize) -> Mesh {
    let mut positions = Vec::new();
    for i in 0..=n {
        positions.push([0.0, i as f32, 0.0]);
        positions.push([1.0, i as f32, 0.0]);
    }
    let mut indices = Vec::new();
    for i in 0..n as u32 {
        let (a, b, c, d) = (2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3);
        indices.extend([a, b, d, a, d, c]);
    }
    let count = positions.len();
    Mesh {
        name: name.to_string(),
        positions,
        normals: vec![[0.0, 0.0, 1.0]; count],
        uvs: vec![[0.0, 0.0]; count],
        indices,
        ..Mesh::default()
    }
}

fn mat(m: Mat4) -> [f32; 16] {
    m.to_cols_array()
}

/// The largest distance, over the extent, between MilkShape's evaluation
/// of `model` and `scene::Pose`'s of `scene`, at 10 times of each
/// animation placed where the model's clips say; triangle corners
/// matched in order.
fn motion_error(scene: &Scene, model: &Ms3d) -> f32 {
    let skeleton = Skeleton::new(model).unwrap();
    let influences = Influences::new(model);
    let mut pose = Pose::new(scene).unwrap();
    let mut mats = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let mut skinned = vec![[0.0f32; 3]; model.vertices.len()];
    let (lo, hi) = model.vertices.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(v.position.into()), hi.max(v.position.into())),
    );
    let extent = (hi - lo).length();
    let clips = model.clips();
    assert_eq!(clips.len(), scene.animations.len(), "{clips:?}");
    let mut worst = 0.0f32;
    for (a, clip) in clips.iter().enumerate() {
        let duration = scene.animations[a].duration();
        for i in 0..10 {
            let t = duration * i as f32 / 9.0;
            pose.sample(scene, a, t);
            skeleton.pose_at_time(clip.first_frame / model.fps + t, &mut mats);
            skeleton.skinning_matrices(&mut mats);
            influences.skin_positions(model, &mats, &mut skinned);
            for (m, (mesh, group)) in scene.meshes.iter().zip(&model.groups).enumerate() {
                let n = mesh.positions.len();
                let (mut p, mut nn) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
                pose.mesh_vertices(scene, m, &mut p, &mut nn);
                for (k, &tri) in group.triangles.iter().enumerate() {
                    for c in 0..3 {
                        let v = model.triangles[tri as usize].vertices[c] as usize;
                        let d = Vec3::from(p[mesh.indices[3 * k + c] as usize])
                            - Vec3::from(skinned[v]);
                        worst = worst.max(d.length() / extent);
                    }
                }
            }
        }
    }
    worst
}

/// What MilkShape loads: our reader reads it back as written, strict
/// validation and MilkShape's limits find nothing.
fn assert_loadable(model: &Ms3d) {
    let back = Ms3d::from_bytes(&model.to_bytes().unwrap()).unwrap();
    assert_eq!(&back, model);
    assert!(back.validate().is_empty(), "{:?}", back.validate());
    assert!(
        back.validate_for_milkshape().is_empty(),
        "{:?}",
        back.validate_for_milkshape()
    );
}

#[test]
fn long_and_taken_names_are_shortened_and_made_unique_with_warnings() {
    let long = "a mesh name that is much longer than thirty-one bytes";
    let mut scene = Scene {
        meshes: vec![strip(long, 1), strip(long, 1), strip("short", 1)],
        materials: vec![
            Material {
                name: "dup".into(),
                ..Material::default()
            },
            Material {
                name: "dup".into(),
                ..Material::default()
            },
        ],
        ..Scene::default()
    };
    scene.meshes[0].material = Some(0);
    scene.meshes[1].material = Some(1);
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let names: Vec<Vec<u8>> = c
        .model
        .groups
        .iter()
        .map(|g| g.name.as_bytes().to_vec())
        .collect();
    for n in &names {
        assert!(
            !n.is_empty() && n.len() <= 31,
            "{:?}",
            String::from_utf8_lossy(n)
        );
    }
    assert_ne!(names[0], names[1]);
    assert_eq!(names[2], b"short");
    assert!(long.as_bytes().starts_with(&names[0][..20]));
    let m: Vec<&[u8]> = c
        .model
        .materials
        .iter()
        .map(|m| m.name.as_bytes())
        .collect();
    assert_ne!(m[0], m[1]);
    let renamed = c
        .warnings
        .iter()
        .filter(|w| matches!(w, Ms3dCompileWarning::NameShortened { .. }))
        .count();
    assert!(renamed >= 3, "{:?}", c.warnings);
    assert_loadable(&c.model);
}

/// A glTF of a 2-vertex-row strip skinned to six joints, every vertex
/// with six influences (JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1).
fn six_influences_glb() -> Vec<u8> {
    let mut b = Builder::new();
    let mesh = strip("m", 1);
    let flat: Vec<f32> = mesh.positions.iter().flatten().copied().collect();
    let pos = b.floats(&flat, "VEC3");
    let idx: Vec<u16> = mesh.indices.iter().map(|&i| i as u16).collect();
    let indices = b.u16s(&idx);
    let n = mesh.positions.len();
    let j0: Vec<u16> = (0..n).flat_map(|_| [0u16, 1, 2, 3]).collect();
    let j1: Vec<u16> = (0..n).flat_map(|_| [4u16, 5, 0, 0]).collect();
    let w0: Vec<f32> = (0..n).flat_map(|_| [0.15f32, 0.3, 0.2, 0.25]).collect();
    let w1: Vec<f32> = (0..n).flat_map(|_| [0.06f32, 0.04, 0.0, 0.0]).collect();
    let v0 = b.view(&u16_bytes(&j0), None);
    let joints0 = b.accessor(Some(v0), 0, component::U16, "VEC4", n, false);
    let v1 = b.view(&u16_bytes(&j1), None);
    let joints1 = b.accessor(Some(v1), 0, component::U16, "VEC4", n, false);
    let weights0 = b.floats(&w0, "VEC4");
    let weights1 = b.floats(&w1, "VEC4");
    let m = b.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": pos, "JOINTS_0": joints0,
            "JOINTS_1": joints1, "WEIGHTS_0": weights0, "WEIGHTS_1": weights1},
            "indices": indices}]}),
    );
    // Six joints in a chain, 0.2 apart along +Y.
    let mut ibm = Vec::new();
    for j in 0..6 {
        let node = b.push(
            "nodes",
            json!({"name": format!("j{j}"), "translation": [0.0, if j == 0 { 0.0 } else { 0.2 }, 0.0]}),
        );
        if j > 0 {
            b.json["nodes"][node - 1]["children"] = json!([node]);
        }
        ibm.extend(mat(Mat4::from_translation(Vec3::new(
            0.0,
            -0.2 * j as f32,
            0.0,
        ))));
    }
    let ibm = b.floats(&ibm, "MAT4");
    b.push(
        "skins",
        json!({"joints": [0, 1, 2, 3, 4, 5], "inverseBindMatrices": ibm}),
    );
    let holder = b.push("nodes", json!({"mesh": m, "skin": 0}));
    b.scene_root(0);
    b.scene_root(holder);
    b.glb()
}

#[test]
fn more_than_four_influences_keep_the_four_largest_in_whole_percents() {
    let scene = import(&six_influences_glb(), None, &ImportOptions::default())
        .unwrap()
        .scene;
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let model = &c.model;
    assert_eq!(model.joints.len(), 6);
    let name = |j: usize| String::from_utf8_lossy(model.joints[j].name.as_bytes()).into_owned();
    // By hand: the four largest are j1 0.3, j3 0.25, j2 0.2, j0 0.15 (sum
    // 0.9); renormalised 33.33, 27.78, 22.22, 16.67 %; whole percents by
    // largest remainder: 33, 28, 22, 17 (sum 100; largest error 1/3).
    let expected = [("j1", 33), ("j3", 28), ("j2", 22), ("j0", 17)];
    let influences = Influences::new(model);
    for inf in &influences.vertices {
        assert_eq!(inf.count, 4);
        let mut got: Vec<(String, u32)> = (0..4)
            .map(|k| {
                (
                    name(usize::from(inf.joints[k])),
                    (inf.weights[k] * 100.0).round() as u32,
                )
            })
            .collect();
        got.sort_by_key(|g| std::cmp::Reverse(g.1));
        let want: Vec<(String, u32)> = expected.iter().map(|(n, w)| (n.to_string(), *w)).collect();
        assert_eq!(got, want);
    }
    assert!(
        (c.report.weight_error - 1.0 / 3.0).abs() < 0.01,
        "{}",
        c.report.weight_error
    );
    assert_loadable(model);
}

/// A strip skinned to a root joint and a child at y = 1 that bends, with
/// `scale` in the root's bind pose and rest pose.
fn bending(scale: f32) -> Scene {
    let mut mesh = strip("arm", 2);
    let n = mesh.positions.len();
    // Vertices in the bind pose: the root scaled by `scale`.
    for p in &mut mesh.positions {
        p[1] *= scale;
        p[0] *= scale;
    }
    mesh.skin = Some(SkinWeights {
        skin: 0,
        joints: (0..n)
            .map(|i| if i < 2 { [0, 0, 0, 0] } else { [0, 1, 0, 0] })
            .collect(),
        weights: (0..n)
            .map(|i| match i {
                0 | 1 => [1.0, 0.0, 0.0, 0.0],
                2 | 3 => [0.5, 0.5, 0.0, 0.0],
                _ => [0.0, 1.0, 0.0, 0.0],
            })
            .collect(),
        more: Vec::new(),
    });
    let root = Mat4::from_scale(Vec3::splat(scale));
    let child = root * Mat4::from_translation(Vec3::Y);
    let nodes = vec![
        Node {
            name: "root".into(),
            scale: [scale; 3],
            ..Node::default()
        },
        Node {
            name: "child".into(),
            parent: Some(0),
            translation: [0.0, 1.0, 0.0],
            ..Node::default()
        },
    ];
    let q = Quat::from_rotation_z(0.8);
    Scene {
        meshes: vec![mesh],
        nodes,
        skins: vec![Skin {
            name: "skin".into(),
            joints: vec![0, 1],
            inverse_bind_matrices: vec![mat(root.inverse()), mat(child.inverse())],
            ..Skin::default()
        }],
        animations: vec![Animation {
            name: "bend".into(),
            channels: vec![Channel {
                target: Target::Rotation { node: 1 },
                interpolation: Interpolation::Linear,
                times: vec![0.0, 1.0],
                values: vec![0.0, 0.0, 0.0, 1.0, q.x, q.y, q.z, q.w],
            }],
            ..Animation::default()
        }],
        ..Scene::default()
    }
}

#[test]
fn a_bending_skin_plays_alike() {
    let scene = bending(1.0);
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    assert_eq!(c.model.joints.len(), 2);
    let e = motion_error(&scene, &c.model);
    assert!(e <= 1e-3, "{e}");
    assert_loadable(&c.model);
}

#[test]
fn scale_in_the_bind_pose_is_baked_into_the_vertices() {
    let scene = bending(2.0);
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    // The bind-pose vertices are the source's.
    let mut stored: Vec<[f32; 3]> = c.model.vertices.iter().map(|v| v.position).collect();
    stored.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mut source = scene.meshes[0].positions.clone();
    source.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(stored, source);
    let e = motion_error(&scene, &c.model);
    let warned = c.warnings.iter().any(|w| {
        matches!(
            w,
            Ms3dCompileWarning::NonRigidMotion { .. } | Ms3dCompileWarning::Inexact { .. }
        )
    });
    assert!(
        e <= 1e-3 || warned,
        "{e} without a warning: {:?}",
        c.warnings
    );
    assert!(e <= 1e-3, "uniform scale is exact: {e}");
    assert_loadable(&c.model);
}

#[test]
fn a_rigidly_animated_node_becomes_a_joint() {
    let mut mesh = strip("box", 1);
    mesh.node = Some(1);
    let q = Quat::from_rotation_y(1.2);
    let scene = Scene {
        meshes: vec![mesh],
        nodes: vec![
            Node {
                name: "parent".into(),
                translation: [0.0, 0.0, 3.0],
                ..Node::default()
            },
            Node {
                name: "spinner".into(),
                parent: Some(0),
                translation: [1.0, 0.0, 0.0],
                ..Node::default()
            },
        ],
        animations: vec![Animation {
            name: "spin".into(),
            channels: vec![
                Channel {
                    target: Target::Rotation { node: 1 },
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 2.0],
                    values: vec![0.0, 0.0, 0.0, 1.0, q.x, q.y, q.z, q.w],
                },
                Channel {
                    target: Target::Translation { node: 1 },
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 2.0],
                    values: vec![1.0, 0.0, 0.0, 1.0, 2.0, 0.0],
                },
            ],
            ..Animation::default()
        }],
        ..Scene::default()
    };
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    assert!(!c.model.joints.is_empty());
    // Every vertex bound to one joint, wholly.
    for inf in &Influences::new(&c.model).vertices {
        assert_eq!((inf.count, inf.weights[0]), (1, 1.0));
    }
    let e = motion_error(&scene, &c.model);
    assert!(e <= 1e-3, "{e}");
    assert_loadable(&c.model);
}

#[test]
fn a_morph_only_animation_is_left_out_with_a_warning_naming_md2() {
    let mut mesh = strip("face", 1);
    mesh.morph_targets = vec![MorphTarget {
        name: "smile".into(),
        positions: vec![[0.0, 0.0, 0.5]; mesh.positions.len()],
        normals: Vec::new(),
    }];
    mesh.morph_weights = vec![0.0];
    let scene = Scene {
        meshes: vec![mesh],
        animations: vec![Animation {
            name: "talk".into(),
            channels: vec![Channel {
                target: Target::MorphWeights { mesh: 0 },
                interpolation: Interpolation::Linear,
                times: vec![0.0, 1.0],
                values: vec![0.0, 1.0],
            }],
            ..Animation::default()
        }],
        ..Scene::default()
    };
    let c = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let w = c
        .warnings
        .iter()
        .find(|w| matches!(w, Ms3dCompileWarning::MorphAnimations { .. }))
        .expect("a warning");
    let text = w.to_string();
    assert!(text.contains("talk") && text.contains("MD2"), "{text}");
    assert!(c.model.joints.is_empty());
    assert!(c.model.clips().is_empty());
    assert_eq!(c.model.vertices.len(), 4);
    assert_loadable(&c.model);
}

#[test]
fn an_empty_scene_is_an_empty_model() {
    let c = compile(&Scene::default(), &Ms3dCompileOptions::default()).unwrap();
    assert!(c.model.vertices.is_empty() && c.model.groups.is_empty());
    assert_loadable(&c.model);
}

/// Hostile scenes: every one an error or a model, never a panic.
#[test]
fn hostile_scenes_are_errors_not_panics() {
    let base = bending(1.0);
    let mut cases: Vec<(&str, Scene)> = Vec::new();
    let mut s = base.clone();
    s.meshes[0].indices.push(1000);
    s.meshes[0].indices.extend([0, 1]);
    cases.push(("index out of range", s));
    let mut s = base.clone();
    s.meshes[0].positions[0] = [f32::NAN, 0.0, f32::INFINITY];
    cases.push(("position not finite", s));
    let mut s = base.clone();
    s.nodes[0].parent = Some(1);
    cases.push(("cyclic nodes", s));
    let mut s = base.clone();
    s.nodes[1].parent = Some(99);
    cases.push(("parent out of range", s));
    let mut s = base.clone();
    s.skins[0].joints[1] = 99;
    cases.push(("skin joint out of range", s));
    let mut s = base.clone();
    s.skins[0].inverse_bind_matrices.truncate(1);
    cases.push(("inverse bind matrices short", s));
    let mut s = base.clone();
    s.skins[0].inverse_bind_matrices[1] = [0.0; 16];
    cases.push(("singular inverse bind matrix", s));
    let mut s = base.clone();
    if let Some(w) = &mut s.meshes[0].skin {
        w.joints.truncate(1);
        w.weights[2] = [f32::NAN, -1.0, 0.0, 0.0];
    }
    cases.push(("skin weights short and not finite", s));
    let mut s = base.clone();
    s.meshes[0].skin.as_mut().unwrap().skin = 7;
    cases.push(("skin index out of range", s));
    let mut s = base.clone();
    s.meshes[0].skin.as_mut().unwrap().joints[3] = [500, 9, 9, 9];
    cases.push(("weight joint out of range", s));
    let mut s = base.clone();
    s.animations[0].channels[0].values.truncate(3);
    cases.push(("channel values short", s));
    let mut s = base.clone();
    s.animations[0].channels[0].times = vec![1.0, f32::NAN];
    cases.push(("key times not finite", s));
    let mut s = base.clone();
    s.animations[0].channels[0].times = vec![5.0, 1.0];
    cases.push(("key times decreasing", s));
    let mut s = base.clone();
    s.animations[0].channels[0].target = Target::Rotation { node: 42 };
    cases.push(("channel node out of range", s));
    let mut s = base.clone();
    s.animations[0].channels[0].times = vec![0.0, 1e30];
    cases.push(("a huge time", s));
    let mut s = base.clone();
    s.meshes[0].material = Some(5);
    s.meshes[0].normals.clear();
    s.meshes[0].uvs.truncate(1);
    cases.push(("material out of range, attributes short", s));
    let mut s = base.clone();
    s.meshes[0].node = Some(77);
    s.meshes[0].skin = None;
    cases.push(("mesh node out of range", s));
    for (what, scene) in cases {
        match compile(&scene, &Ms3dCompileOptions::default()) {
            Ok(c) => {
                eprintln!("{what}: compiled, {:?}", c.warnings);
                assert_loadable(&c.model)
            }
            Err(e) => {
                eprintln!("{what}: {e}");
                assert!(e.to_string().contains("scene "), "{what}: {e}");
            }
        }
        let must_fail = [
            "position not finite",
            "cyclic nodes",
            "parent out of range",
            "skin joint out of range",
            "skin index out of range",
            "weight joint out of range",
            "mesh node out of range",
        ];
        if must_fail.contains(&what) {
            assert!(
                compile(&scene, &Ms3dCompileOptions::default()).is_err(),
                "{what}"
            );
        }
    }
}

#[test]
fn bad_options_are_errors() {
    let scene = bending(1.0);
    for options in [
        Ms3dCompileOptions {
            fps: Some(0.0),
            ..Ms3dCompileOptions::default()
        },
        Ms3dCompileOptions {
            tolerance: f32::NAN,
            ..Ms3dCompileOptions::default()
        },
        Ms3dCompileOptions {
            animations: vec!["nope".into()],
            ..Ms3dCompileOptions::default()
        },
    ] {
        assert!(compile(&scene, &options).is_err(), "{options:?}");
    }
}
