//! How `ms3d::compile` rounds a vertex's weights to MilkShape's whole
//! percents: of the roundings the format can hold (each weight down or
//! up, summing to 100), the one that keeps the vertex nearest to the
//! source over the animation, not the one nearest weight by weight.
//!
//! The oracle is arithmetic done here by hand on a crafted vertex, and
//! the written file posed by the test kit's own MilkShape evaluator
//! (`retromodel_testkit::milkshape`, written from MS3D.md, sharing no
//! code with the library): with three joints that only translate, a
//! vertex weighted `w` by them goes to `v + Σ wᵢ·dᵢ`.

#![cfg(feature = "scene")]

use glam::DVec3;
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::scene::{
    Animation, Channel, Interpolation, Mesh, Node, Scene, Skin, SkinWeights, Target,
};
use retromodel_testkit::milkshape;

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// Three root joints: `still` (never moves), `far` (moves by
/// `(10, 0, 0)` over one second) and `near` (by `(0, 0.1, 0)`); one
/// triangle whose first vertex, at `(0, 0, 1)`, is weighted `weights`
/// by them, the others wholly by `still` (100 units away, so that the
/// model is large and its keys' tolerance small).
fn crafted(weights: [f32; 3]) -> Scene {
    let node = |name: &str| Node {
        name: name.into(),
        ..Node::default()
    };
    let moving = |node: usize, to: [f32; 3]| Channel {
        target: Target::Translation { node },
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: vec![0.0, 0.0, 0.0, to[0], to[1], to[2]],
    };
    Scene {
        nodes: vec![node("still"), node("far"), node("near")],
        skins: vec![Skin {
            name: "skin".into(),
            joints: vec![0, 1, 2],
            inverse_bind_matrices: vec![IDENTITY; 3],
            ..Skin::default()
        }],
        meshes: vec![Mesh {
            name: "tri".into(),
            positions: vec![[0.0, 0.0, 1.0], [100.0, 0.0, 0.0], [0.0, 100.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            uvs: vec![[0.0, 0.0]; 3],
            indices: vec![0, 1, 2],
            skin: Some(SkinWeights {
                skin: 0,
                joints: vec![[0, 1, 2, 0]; 3],
                weights: vec![
                    [weights[0], weights[1], weights[2], 0.0],
                    [1.0, 0.0, 0.0, 0.0],
                    [1.0, 0.0, 0.0, 0.0],
                ],
                more: Vec::new(),
            }),
            ..Mesh::default()
        }],
        animations: vec![Animation {
            name: "move".into(),
            channels: vec![moving(1, [10.0, 0.0, 0.0]), moving(2, [0.0, 0.1, 0.0])],
            ..Animation::default()
        }],
        ..Scene::default()
    }
}

/// The crafted vertex: its index in `model`, and where the test kit's
/// evaluator puts it at the end of the clip.
fn posed_end(model: &milkshape::Milkshape) -> (usize, DVec3) {
    let v = model
        .vertices
        .iter()
        .position(|v| v.position == [0.0, 0.0, 1.0])
        .unwrap();
    let start = model.clip_start("move").unwrap();
    let skinned = model.skin(Some((start + 1.0) as f32));
    (v, DVec3::from(skinned[v].map(f64::from)))
}

#[test]
fn weights_round_to_the_percents_that_keep_the_vertex_nearest() {
    // Quotas 33.2 %, 33.45 %, 33.35 %. At the end of the clip the source
    // puts the vertex at (0, 0, 1) + 0.3345·(10, 0, 0) + 0.3335·(0, 0.1, 0)
    // = (3.345, 0.03335, 1).
    let source = DVec3::new(3.345, 0.03335, 1.0);
    // Largest remainder (weight by weight the nearest, summing to 100)
    // gives the unit left over to `far` (remainder .45): 33 / 34 / 33,
    // the vertex at (3.4, 0.033, 1), off by √(0.055² + 0.00035²).
    let largest_remainder = (0.055f64.powi(2) + 0.00035f64.powi(2)).sqrt();
    // Each weight rounded alone: 33 / 33 / 33, 1 % left out (MilkShape
    // pulls that share to the origin): (3.3, 0.033, 0.99), off by
    // √(0.045² + 0.00035² + 0.01²).
    let alone = (0.045f64.powi(2) + 0.00035f64.powi(2) + 0.01f64.powi(2)).sqrt();
    // The unit to `still` instead: 34 / 33 / 33, (3.3, 0.033, 1), off by
    // √(0.045² + 0.00035²); `near`'s 34 / 33 / 33 → 33 / 33 / 34 gives
    // (3.3, 0.034, 1), off by √(0.045² + 0.00065²), a little more. The
    // least of all roundings to 100 (the others are a whole point off).
    let best = (0.045f64.powi(2) + 0.00035f64.powi(2)).sqrt();
    assert!(best < alone && alone < largest_remainder);

    let scene = crafted([0.332, 0.3345, 0.3335]);
    let compiled = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let bytes = compiled.model.to_bytes().unwrap();
    let mut model = milkshape::parse(&bytes).unwrap();
    let names: Vec<&[u8]> = model.joints.iter().map(|j| j.name.as_slice()).collect();
    assert_eq!(names, [&b"still"[..], b"far", b"near"]);
    let (v, at) = posed_end(&model);
    assert_eq!(model.vertices[v].bone_id, 0);
    assert_eq!(model.weights[v], ([1, 2, -1], [34, 33, 33]));
    let error = (at - source).length();
    assert!((error - best).abs() < 1e-5, "{error} vs {best}");

    // The same file with the other roundings, posed alike.
    for (weights, expected) in [([33, 34, 33], largest_remainder), ([33, 33, 33], alone)] {
        model.weights[v].1 = weights;
        let (_, at) = posed_end(&model);
        let error = (at - source).length();
        assert!(
            (error - expected).abs() < 1e-5,
            "{weights:?}: {error} vs {expected}"
        );
    }
}

/// Where no pose tells the roundings apart (no animation), weights round
/// by largest remainder, as before.
#[test]
fn without_motion_weights_round_by_largest_remainder() {
    let mut scene = crafted([0.332, 0.3345, 0.3335]);
    scene.animations.clear();
    let compiled = compile(&scene, &Ms3dCompileOptions::default()).unwrap();
    let model = milkshape::parse(&compiled.model.to_bytes().unwrap()).unwrap();
    let v = model
        .vertices
        .iter()
        .position(|v| v.position == [0.0, 0.0, 1.0])
        .unwrap();
    assert_eq!(model.weights[v], ([1, 2, -1], [33, 34, 33]));
}
