//! MD5 files of a chosen size, written as text from the format's
//! description: for the engine-limit tests (a count at an engine's limit
//! and one past it) and the read benchmark (a player-sized model).
//!
//! The joints form a chain along +z (joint `i` at height `i`, parent
//! `i - 1`), every joint at the identity orientation. When a mesh's
//! weights are `k` times its vertices, vertex `v` has `k` equal weights on
//! joints `v, v + 1 ...` (modulo the joint count); otherwise vertex `v`
//! hangs on joint `v % joints` and the spare weights go to vertex 0, each
//! with an equal share.
//! The anim animates every component of every joint (flags 63) with a
//! small sway, so that posing works on every number.

/// The sizes of an md5mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct SizedMesh {
    /// Number of joints (at least 1).
    pub joints: usize,
    /// Length in bytes of every joint's name (at least as long as
    /// `j{index}` needs; padded with `x`).
    pub name_len: usize,
    /// Per mesh: vertices, triangles, weights (weights at least vertices,
    /// vertices at least 1 when there are triangles).
    pub meshes: Vec<(usize, usize, usize)>,
}

impl SizedMesh {
    /// `joints` joints with short names and one mesh.
    pub fn new(joints: usize, vertices: usize, triangles: usize, weights: usize) -> SizedMesh {
        SizedMesh {
            joints,
            name_len: 0,
            meshes: vec![(vertices, triangles, weights)],
        }
    }
}

/// Joint `i`'s name, padded to `len` bytes.
pub fn joint_name(i: usize, len: usize) -> String {
    let mut s = format!("j{i}");
    while s.len() < len {
        s.push('x');
    }
    s
}

/// A small deterministic generator (for texture coordinates and offsets).
fn noise(k: usize) -> f64 {
    let x = (k as u64)
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    ((x >> 33) % 10_000) as f64 / 10_000.0
}

/// The md5mesh of `spec`.
pub fn sized_md5mesh(spec: &SizedMesh) -> String {
    let j = spec.joints.max(1);
    let mut s = String::from("MD5Version 10\ncommandline \"testkit md5_sized\"\n\n");
    s += &format!(
        "numJoints {}\nnumMeshes {}\n\njoints {{\n",
        spec.joints,
        spec.meshes.len()
    );
    for i in 0..spec.joints {
        s += &format!(
            "\t\"{}\" {} ( 0 0 {i} ) ( 0 0 0 )\n",
            joint_name(i, spec.name_len),
            i as i64 - 1
        );
    }
    s += "}\n";
    for (m, &(verts, tris, weights)) in spec.meshes.iter().enumerate() {
        s += &format!("\nmesh {{\n\tshader \"skin{m}\"\n\n\tnumverts {verts}\n");
        let even = verts > 0 && weights > verts && weights % verts == 0;
        let per = if even { weights / verts } else { 1 };
        let spare = if even {
            0
        } else {
            weights.saturating_sub(verts)
        };
        for v in 0..verts {
            let (first, count) = if even {
                (v * per, per)
            } else if v == 0 {
                (0, 1 + spare)
            } else {
                (v + spare, 1)
            };
            s += &format!(
                "\tvert {v} ( {:.4} {:.4} ) {first} {count}\n",
                noise(2 * v),
                noise(2 * v + 1)
            );
        }
        s += &format!("\n\tnumtris {tris}\n");
        for t in 0..tris {
            let n = verts.max(1);
            s += &format!("\ttri {t} {} {} {}\n", t % n, (t + 1) % n, (t + 2) % n);
        }
        s += &format!("\n\tnumweights {}\n", weights.max(verts));
        let bias0 = 1.0 / (1 + spare) as f64;
        for w in 0..weights.max(verts) {
            let (joint, bias, v) = if even {
                let v = w / per;
                ((v + w % per) % j, 1.0 / per as f64, v)
            } else if w <= spare {
                ((w % j), bias0, 0)
            } else {
                let v = w - spare;
                (v % j, 1.0, v)
            };
            // The vertex at (x, y, v % joints + z), seen from its joint.
            let z = (v % j) as f64 + noise(3 * v + 2) * 0.5 - joint as f64;
            s += &format!(
                "\tweight {w} {joint} {bias:.6} ( {:.4} {:.4} {z:.4} )\n",
                noise(3 * v) - 0.5,
                noise(3 * v + 1) - 0.5,
            );
        }
        s += "}\n";
    }
    s
}

/// An md5anim of `joints` joints (named as [`sized_md5mesh`] names them,
/// `name_len` bytes) and `frames` frames at 24 fps, every component of
/// every joint animated, bounds wide enough for the sway.
pub fn sized_md5anim(joints: usize, name_len: usize, frames: usize) -> String {
    let mut s = String::from("MD5Version 10\ncommandline \"testkit md5_sized\"\n\n");
    s += &format!(
        "numFrames {frames}\nnumJoints {joints}\nframeRate 24\nnumAnimatedComponents {}\n\nhierarchy {{\n",
        6 * joints
    );
    for i in 0..joints {
        s += &format!(
            "\t\"{}\" {} 63 {}\n",
            joint_name(i, name_len),
            i as i64 - 1,
            6 * i
        );
    }
    let r = joints as f64 + 2.0;
    s += "}\n\nbounds {\n";
    for _ in 0..frames {
        s += &format!("\t( {} {} {} ) ( {r} {r} {r} )\n", -r, -r, -r);
    }
    s += "}\n\nbaseframe {\n";
    for i in 0..joints {
        s += &format!("\t( 0 0 {} ) ( 0 0 0 )\n", if i == 0 { 0 } else { 1 });
    }
    s += "}\n";
    for k in 0..frames {
        s += &format!("\nframe {k} {{\n\t");
        for i in 0..joints {
            let a = 0.02 * ((k + i) as f64 * 0.1).sin();
            let z = if i == 0 { 0.0 } else { 1.0 };
            s += &format!("0 0 {z} {a:.6} {:.6} 0 ", a * 0.5);
        }
        s += "\n}\n";
    }
    s
}
