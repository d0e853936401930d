//! One rule for a nearly singular inverse bind matrix, in the MS3D and
//! the MD5 compiler alike: a matrix whose linear part's condition number
//! `‖L‖·‖L⁻¹‖` (Frobenius) is over 1e6 is refused, naming
//! `skins[S].inverseBindMatrices[K]` and the joint; one just under it
//! compiles. The condition number is worked out here from the `f32`
//! entries the scene holds (the 3×3 inverse by cofactors), not by the
//! library.

#![cfg(feature = "scene")]

use retromodel::md5::compile::{compile as md5_compile, Md5CompileOptions};
use retromodel::ms3d::compile::{compile as ms3d_compile, Ms3dCompileOptions};
use retromodel::scene::{
    Animation, Channel, Interpolation, Mesh, Node, Scene, Skin, SkinWeights, Target,
};

/// Column-major 4×4 with linear part `l` (rows) and translation `t`.
fn matrix(l: [[f64; 3]; 3], t: [f64; 3]) -> [f32; 16] {
    let mut m = [0.0f32; 16];
    for c in 0..3 {
        for r in 0..3 {
            m[4 * c + r] = l[r][c] as f32;
        }
        m[12 + c] = t[c] as f32;
    }
    m[15] = 1.0;
    m
}

/// `‖L‖·‖L⁻¹‖` (Frobenius) of the stored matrix's linear part.
fn condition(m: &[f32; 16]) -> f64 {
    let a = |r: usize, c: usize| f64::from(m[4 * c + r]);
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1)
    };
    let det: f64 = (0..3).map(|c| a(0, c) * cof(0, c)).sum();
    let norm: f64 = (0..3)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .map(|(r, c)| a(r, c).powi(2))
        .sum::<f64>()
        .sqrt();
    let inverse: f64 = (0..3)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .map(|(r, c)| (cof(r, c) / det).powi(2))
        .sum::<f64>()
        .sqrt();
    norm * inverse
}

/// A joint's inverse bind matrix that nearly flattens z onto y: linear
/// part `[[1, 0, 0], [0, 1, 0], [0, 0.5, e]]` (rows; a shear and a
/// squeeze, no plain scale), on top of the inverse of the joint's rest
/// translation `(0, 1, 0)`. Its condition number is about `1.677 / e` (`√(2.25 · 1.25) / e`).
fn squeezed(e: f64) -> [f32; 16] {
    let l = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.5, e]];
    // L · translate(0, −1, 0): minus L's second column.
    matrix(l, [-l[0][1], -l[1][1], -l[2][1]])
}

/// A strip skinned to `root` and `arm` (which bends about z), `arm`'s
/// inverse bind matrix `ibm`.
fn scene(ibm: [f32; 16]) -> Scene {
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for i in 0..3u32 {
        positions.push([0.0, i as f32, 0.0]);
        positions.push([1.0, i as f32, 0.0]);
        if i > 0 {
            let b = 2 * i;
            indices.extend([b - 2, b - 1, b + 1, b - 2, b + 1, b]);
        }
    }
    let n = positions.len();
    let q = glam::Quat::from_rotation_z(0.8);
    Scene {
        nodes: vec![
            Node {
                name: "root".into(),
                ..Node::default()
            },
            Node {
                name: "arm".into(),
                parent: Some(0),
                translation: [0.0, 1.0, 0.0],
                ..Node::default()
            },
        ],
        skins: vec![Skin {
            name: "skin".into(),
            joints: vec![0, 1],
            inverse_bind_matrices: vec![
                matrix(
                    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    [0.0; 3],
                ),
                ibm,
            ],
            ..Skin::default()
        }],
        meshes: vec![Mesh {
            name: "strip".into(),
            normals: vec![[0.0, 0.0, 1.0]; n],
            uvs: vec![[0.0, 0.0]; n],
            skin: Some(SkinWeights {
                skin: 0,
                joints: vec![[0, 1, 0, 0]; n],
                weights: (0..n)
                    .map(|i| {
                        if i < 2 {
                            [1.0, 0.0, 0.0, 0.0]
                        } else {
                            [0.0, 1.0, 0.0, 0.0]
                        }
                    })
                    .collect(),
                more: Vec::new(),
            }),
            positions,
            indices,
            ..Mesh::default()
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
fn a_matrix_past_the_condition_limit_is_refused_by_both_compilers_one_at_it_compiles() {
    // Rounding to f32 moves the condition number of so squeezed a matrix
    // by a few percent: the squeeze is chosen by what the stored matrix's
    // condition number comes out as.
    let near = |lo: f64, hi: f64| {
        (0..2000)
            .map(|j| squeezed(1.6771 / 1e6 * (0.99 + j as f64 * 1e-5)))
            .find(|m| (lo..hi).contains(&condition(m)))
            .unwrap_or_else(|| panic!("no squeeze gives {lo}..{hi}"))
    };
    let at = near(0.9999e6, 1e6);
    let past = near(1.000_001e6, 1.0001e6);
    eprintln!(
        "condition numbers {} and {}",
        condition(&at),
        condition(&past)
    );

    let s = scene(at);
    ms3d_compile(&s, &Ms3dCompileOptions::default()).expect("MS3D at the limit");
    md5_compile(&s, &Md5CompileOptions::default()).expect("MD5 at the limit");

    let s = scene(past);
    let errors = [
        (
            "MS3D",
            ms3d_compile(&s, &Ms3dCompileOptions::default()).err(),
        ),
        ("MD5", md5_compile(&s, &Md5CompileOptions::default()).err()),
    ];
    let mut texts = Vec::new();
    for (what, e) in errors {
        let text = e
            .unwrap_or_else(|| panic!("{what}: compiled past the limit"))
            .to_string();
        assert!(
            text.contains("skins[0].inverseBindMatrices[1]")
                && text.contains("\"arm\"")
                && text.contains("singular"),
            "{what}: {text}"
        );
        assert!(!text.contains("::"), "{what}: {text}");
        texts.push(text);
    }
    // One rule, one message.
    assert_eq!(texts[0], texts[1]);
}
