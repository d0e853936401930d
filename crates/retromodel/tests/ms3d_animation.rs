//! Skeletal animation, skinning and group meshes against values worked out
//! in the test from the formulas of MS3D.md (MilkShape's own viewer):
//! hand-computed points for small rigs, and a reference evaluator written
//! here in f64 (own matrices, quaternions, slerp and Hermite) for the
//! corpus models.

use std::collections::HashSet;
use std::f64::consts::FRAC_PI_2;

use retromodel::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use retromodel_testkit::corpus::{corpus_dir, load_ms3d, ms3d_files};
use retromodel_testkit::ms3d_builder::{
    field, SComments, SGroup, SJoint, SModelComment, STri, SVertex, SVertexExtras, Spec,
};

// ---------------------------------------------------------------------------
// The test's own math (f64)
// ---------------------------------------------------------------------------

type V3 = [f64; 3];
type M3 = [[f64; 3]; 3]; // rows

fn v3(a: [f32; 3]) -> V3 {
    a.map(f64::from)
}

fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: V3, s: f64) -> V3 {
    a.map(|x| x * s)
}

fn dist(a: V3, b: V3) -> f64 {
    let d = sub(a, b);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

fn mat_mul(a: M3, b: M3) -> M3 {
    let mut m = [[0.0; 3]; 3];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    m
}

fn mat_vec(a: M3, v: V3) -> V3 {
    [0, 1, 2].map(|i| a[i][0] * v[0] + a[i][1] * v[1] + a[i][2] * v[2])
}

fn transpose(a: M3) -> M3 {
    [0, 1, 2].map(|i| [a[0][i], a[1][i], a[2][i]])
}

fn rot_x(a: f64) -> M3 {
    let (s, c) = a.sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

fn rot_y(a: f64) -> M3 {
    let (s, c) = a.sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}

fn rot_z(a: f64) -> M3 {
    let (s, c) = a.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// `Rz(z) · Ry(y) · Rx(x)`.
fn euler_matrix(e: V3) -> M3 {
    mat_mul(rot_z(e[2]), mat_mul(rot_y(e[1]), rot_x(e[0])))
}

/// A rigid transform `x ↦ r·x + t`.
#[derive(Debug, Clone, Copy)]
struct Rigid {
    r: M3,
    t: V3,
}

impl Rigid {
    fn then(self, inner: Rigid) -> Rigid {
        // self · inner
        Rigid {
            r: mat_mul(self.r, inner.r),
            t: add(mat_vec(self.r, inner.t), self.t),
        }
    }
    fn inverse(self) -> Rigid {
        let rt = transpose(self.r);
        Rigid {
            r: rt,
            t: scale(mat_vec(rt, self.t), -1.0),
        }
    }
    fn point(self, v: V3) -> V3 {
        add(mat_vec(self.r, v), self.t)
    }
}

/// Quaternion `[w, x, y, z]`.
type Q = [f64; 4];

fn q_mul(a: Q, b: Q) -> Q {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

fn q_axis(axis: usize, angle: f64) -> Q {
    let (s, c) = (angle / 2.0).sin_cos();
    let mut q = [c, 0.0, 0.0, 0.0];
    q[1 + axis] = s;
    q
}

/// The quaternion of `Rz · Ry · Rx`.
fn euler_quat(e: V3) -> Q {
    q_mul(q_axis(2, e[2]), q_mul(q_axis(1, e[1]), q_axis(0, e[0])))
}

fn q_matrix(q: Q) -> M3 {
    let [w, x, y, z] = q;
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
        ],
        [
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
        ],
        [
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

/// Slerp along the shorter arc.
fn q_slerp(a: Q, b: Q, t: f64) -> Q {
    let mut dot: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let mut b = b;
    if dot < 0.0 {
        b = b.map(|x| -x);
        dot = -dot;
    }
    let (wa, wb) = if dot > 1.0 - 1e-12 {
        (1.0 - t, t)
    } else {
        let om = dot.acos();
        (((1.0 - t) * om).sin() / om.sin(), (t * om).sin() / om.sin())
    };
    [0, 1, 2, 3].map(|i| wa * a[i] + wb * b[i])
}

// ---------------------------------------------------------------------------
// Reference evaluator, straight from MS3D.md
// ---------------------------------------------------------------------------

struct RefJoint {
    parent: Option<usize>,
    local: Rigid,
    rot: Vec<(f64, Q)>,
    pos: Vec<(f64, V3)>,
    /// `(in, out)` per position key.
    tangents: Vec<(V3, V3)>,
}

struct Reference {
    joints: Vec<RefJoint>,
    bind: Vec<Rigid>,
}

fn name_bytes(raw: &[u8; 32]) -> &[u8] {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(32);
    &raw[..end]
}

impl Reference {
    fn new(m: &Ms3d) -> Reference {
        let fps = if m.fps < 1.0 { 1.0 } else { f64::from(m.fps) };
        let joints: Vec<RefJoint> = m
            .joints
            .iter()
            .map(|j| {
                let parent_name = name_bytes(&j.parent.0);
                let parent = if parent_name.is_empty() {
                    None
                } else {
                    m.joints
                        .iter()
                        .position(|p| name_bytes(&p.name.0) == parent_name)
                };
                let pos: Vec<(f64, V3)> = j
                    .position_keys
                    .iter()
                    .map(|k| (f64::from(k.time) * fps, v3(k.value)))
                    .collect();
                let n = pos.len();
                let mut tangents = vec![([0.0; 3], [0.0; 3]); n];
                if n > 2 {
                    for (k, tan) in tangents.iter_mut().enumerate() {
                        let k0 = (k + n - 1) % n;
                        let k2 = (k + 1) % n;
                        let dir = sub(pos[k2].1, pos[k0].1);
                        let dt1 = pos[k].0 - pos[k0].0;
                        let dt2 = pos[k2].0 - pos[k].0;
                        *tan = (scale(dir, dt1 / (dt1 + dt2)), scale(dir, dt2 / (dt1 + dt2)));
                    }
                }
                RefJoint {
                    parent,
                    local: Rigid {
                        r: euler_matrix(v3(j.rotation)),
                        t: v3(j.position),
                    },
                    rot: j
                        .rotation_keys
                        .iter()
                        .map(|k| (f64::from(k.time) * fps, euler_quat(v3(k.value))))
                        .collect(),
                    pos,
                    tangents,
                }
            })
            .collect();
        let bind = (0..joints.len())
            .map(|i| Self::chain(&joints, i, &|j| joints[j].local))
            .collect();
        Reference { joints, bind }
    }

    /// `G(i) = G(parent) · local(i)`, recursively.
    fn chain(joints: &[RefJoint], i: usize, local: &dyn Fn(usize) -> Rigid) -> Rigid {
        match joints[i].parent {
            Some(p) => Self::chain(joints, p, local).then(local(i)),
            None => local(i),
        }
    }

    fn interval<T>(keys: &[(f64, T)], frame: f64) -> Option<usize> {
        (0..keys.len().saturating_sub(1)).find(|&i| frame >= keys[i].0 && frame < keys[i + 1].0)
    }

    fn position(j: &RefJoint, frame: f64) -> V3 {
        let k = &j.pos;
        if k.is_empty() {
            return [0.0; 3];
        }
        match Self::interval(k, frame) {
            Some(i) => {
                let t = (frame - k[i].0) / (k[i + 1].0 - k[i].0);
                let (t2, t3) = (t * t, t * t * t);
                let h1 = 2.0 * t3 - 3.0 * t2 + 1.0;
                let h2 = -2.0 * t3 + 3.0 * t2;
                let h3 = t3 - 2.0 * t2 + t;
                let h4 = t3 - t2;
                let mut p = scale(k[i].1, h1);
                p = add(p, scale(j.tangents[i].1, h3));
                p = add(p, scale(k[i + 1].1, h2));
                add(p, scale(j.tangents[i + 1].0, h4))
            }
            None if frame < k[0].0 => k[0].1,
            None => k[k.len() - 1].1,
        }
    }

    fn rotation(j: &RefJoint, frame: f64) -> Q {
        let k = &j.rot;
        if k.is_empty() {
            return [1.0, 0.0, 0.0, 0.0];
        }
        match Self::interval(k, frame) {
            Some(i) => {
                let t = (frame - k[i].0) / (k[i + 1].0 - k[i].0);
                q_slerp(k[i].1, k[i + 1].1, t)
            }
            None if frame < k[0].0 => k[0].1,
            None => k[k.len() - 1].1,
        }
    }

    /// Joint-to-model transforms at `frame` (bind pose when negative).
    fn pose(&self, frame: f64) -> Vec<Rigid> {
        if frame < 0.0 {
            return self.bind.clone();
        }
        let local = |i: usize| {
            let j = &self.joints[i];
            j.local.then(Rigid {
                r: q_matrix(Self::rotation(j, frame)),
                t: Self::position(j, frame),
            })
        };
        (0..self.joints.len())
            .map(|i| Self::chain(&self.joints, i, &local))
            .collect()
    }

    /// Every vertex skinned at `frame`.
    fn skin(&self, m: &Ms3d, frame: f64) -> Vec<V3> {
        let pose = self.pose(frame);
        m.vertices
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let p = v3(v.position);
                let inf = expected_influence(m, i);
                if inf.is_empty() {
                    return p;
                }
                inf.iter().fold([0.0; 3], |acc, &(j, w)| {
                    let moved = pose[j].then(self.bind[j].inverse()).point(p);
                    add(acc, scale(moved, w))
                })
            })
            .collect()
    }
}

/// The influence rule of MS3D.md, written out: joints
/// `[bone, ids…]`, percentages `[w0, w1, w2, 100 − Σ]` (or 100 % own bone
/// when all three are 0), used up to the first zero weight or invalid
/// joint; none → 100 % the first; an invalid own bone → no influence.
fn expected_influence(m: &Ms3d, vertex: usize) -> Vec<(usize, f64)> {
    let nj = m.joints.len() as i32;
    let bone = i32::from(m.vertices[vertex].bone_id);
    if bone < 0 || bone >= nj {
        return Vec::new();
    }
    let (ids, w) = match &m.extras.vertices {
        Some(x) => (x.records[vertex].bone_ids, x.records[vertex].weights),
        None => ([-1; 3], [0; 3]),
    };
    let idx = [bone, ids[0].into(), ids[1].into(), ids[2].into()];
    let w = w.map(i32::from);
    let pct = if w == [0, 0, 0] {
        [100, 0, 0, 0]
    } else {
        [w[0], w[1], w[2], 100 - w[0] - w[1] - w[2]]
    };
    let mut out = Vec::new();
    for k in 0..4 {
        if pct[k] > 0 && idx[k] >= 0 && idx[k] < nj {
            out.push((idx[k] as usize, f64::from(pct[k]) / 100.0));
        } else {
            break;
        }
    }
    if out.is_empty() {
        out.push((bone as usize, 1.0));
    }
    out
}

// ---------------------------------------------------------------------------
// The library's pipeline
// ---------------------------------------------------------------------------

/// Skinned positions at `frame` through Skeleton + Influences.
fn skinned(m: &Ms3d, frame: f32) -> Vec<V3> {
    let s = Skeleton::new(m).unwrap();
    let mut joints = vec![glam::Mat4::IDENTITY; s.joint_count()];
    s.pose_at_frame(frame, &mut joints);
    s.skinning_matrices(&mut joints);
    let mut out = vec![[0.0f32; 3]; m.vertices.len()];
    Influences::new(m).skin_positions(m, &joints, &mut out);
    out.into_iter().map(v3).collect()
}

fn skinning_matrices(m: &Ms3d, frame: f32) -> Vec<glam::Mat4> {
    let s = Skeleton::new(m).unwrap();
    let mut joints = vec![glam::Mat4::IDENTITY; s.joint_count()];
    s.pose_at_frame(frame, &mut joints);
    s.skinning_matrices(&mut joints);
    joints
}

fn assert_close(got: V3, want: V3, tol: f64, what: &str) {
    assert!(
        dist(got, want) <= tol,
        "{what}: got {got:?}, expected {want:?}"
    );
}

/// A model with `joints` and one vertex per `(position, bone)`; no
/// triangles needed for skinning.
fn rig(joints: Vec<SJoint>, verts: &[([f32; 3], i8)], fps: f32) -> Ms3d {
    let spec = Spec {
        version: 4,
        verts: verts
            .iter()
            .map(|&(pos, bone)| SVertex {
                flags: 0,
                pos,
                bone,
                refs: 0,
            })
            .collect(),
        tris: vec![],
        groups: vec![],
        materials: vec![],
        fps,
        cur_time: 0.0,
        total_frames: 100,
        joints,
        comments: None,
        vertex_extras: None,
        joint_extras: None,
        model_extras: None,
        trailing: vec![],
    };
    Ms3d::from_bytes(&spec.build().0).unwrap()
}

const QUARTER: f32 = std::f32::consts::FRAC_PI_2;

// ---------------------------------------------------------------------------
// (a) A rotation key moves a vertex to a known point
// ---------------------------------------------------------------------------

#[test]
fn a_quarter_turn_key_moves_vertices_to_known_points() {
    let root = SJoint::new("root", "", [0.0; 3], [0.0; 3]);
    let mut arm = SJoint::new("arm", "root", [0.0; 3], [1.0, 0.0, 0.0]);
    arm.rot_keys = vec![(0.0, [0.0; 3]), (1.0, [0.0, 0.0, QUARTER])];
    let mut hand = SJoint::new("hand", "arm", [0.0; 3], [1.0, 0.0, 0.0]);
    hand.rot_keys = arm.rot_keys.clone();
    let m = rig(
        vec![root, arm, hand],
        &[
            ([2.0, 0.0, 0.0], 1),
            ([3.0, 0.0, 0.0], 2),
            ([0.5, 0.0, 0.0], 0),
        ],
        10.0,
    );
    // Key time 1 s at 10 fps is frame 10: the arm has turned 90° about z
    // around (1,0,0); the hand another 90° around its joint at (1,1,0).
    let p = skinned(&m, 10.0);
    assert_close(p[0], [1.0, 1.0, 0.0], 1e-5, "arm vertex");
    assert_close(p[1], [0.0, 1.0, 0.0], 1e-5, "hand vertex");
    assert_close(p[2], [0.5, 0.0, 0.0], 1e-6, "root vertex");
    // Half-way (frame 5, 0.5 s): 45° each.
    let (s, c) = (FRAC_PI_2 / 2.0).sin_cos();
    let p = skinned(&m, 5.0);
    assert_close(p[0], [1.0 + c, s, 0.0], 1e-5, "arm vertex at 45°");
    assert_close(p[1], [1.0 + c, s + 1.0, 0.0], 1e-5, "hand vertex at 90°");
    // pose_at_time works in seconds.
    let s = Skeleton::new(&m).unwrap();
    let (mut a, mut b) = (vec![glam::Mat4::IDENTITY; 3], vec![glam::Mat4::IDENTITY; 3]);
    s.pose_at_time(0.5, &mut a);
    s.pose_at_frame(5.0, &mut b);
    assert_eq!(a, b);
    // The normal turns with the joint (rotation only).
    let joints = skinning_matrices(&m, 10.0);
    let n = Influences::new(&m).skin_normal(0, &joints, [1.0, 0.0, 0.0]);
    assert_close(v3(n), [0.0, 1.0, 0.0], 1e-6, "normal");
}

// ---------------------------------------------------------------------------
// (b) Key translations live in the joint's bind frame
// ---------------------------------------------------------------------------

#[test]
fn key_translation_is_applied_in_the_bind_frame_not_the_parent_frame() {
    // A root joint at (1,0,0) turned 90° about z, with one position key
    // (1,0,0). The viewer: G(t) = [Rz90 | (1,0,0)] · [I | (1,0,0)], so the
    // joint's origin goes to (1,0,0) + Rz90·(1,0,0) = (1,1,0). Assimp adds
    // the key in the parent frame: (1,0,0) + (1,0,0) = (2,0,0).
    let mut j = SJoint::new("j", "", [0.0, 0.0, QUARTER], [1.0, 0.0, 0.0]);
    j.pos_keys = vec![(0.0, [1.0, 0.0, 0.0])];
    let m = rig(vec![j], &[([1.0, 0.0, 0.0], 0), ([1.0, 1.0, 0.0], 0)], 24.0);
    let p = skinned(&m, 3.0);
    let viewer = [1.0, 1.0, 0.0];
    let assimp = [2.0, 0.0, 0.0];
    assert_close(p[0], viewer, 1e-5, "joint-origin vertex");
    assert!(dist(p[0], assimp) > 1.0, "must not be assimp's {assimp:?}");
    // (1,1,0) is (1,0,0) in the joint's bind frame: it goes to
    // (1,0,0) + Rz90·(2,0,0) = (1,2,0).
    assert_close(p[1], [1.0, 2.0, 0.0], 1e-5, "second vertex");

    // The same under a parent: the child's bind frame is turned by both.
    let parent = SJoint::new("p", "", [0.0, 0.0, QUARTER], [0.0; 3]);
    let mut child = SJoint::new("c", "p", [0.0, 0.0, QUARTER], [1.0, 0.0, 0.0]);
    child.pos_keys = vec![(0.0, [1.0, 0.0, 0.0])];
    let m = rig(vec![parent, child], &[([0.0, 1.0, 0.0], 1)], 24.0);
    // Child origin in the bind pose: Rz90·(1,0,0) = (0,1,0); its frame is
    // turned 180°, so the key moves it by (−1,0,0): (−1,1,0). In the
    // parent's frame (assimp) it would move by Rz90·(1,0,0) = (0,1,0).
    let p = skinned(&m, 0.0);
    assert_close(p[0], [-1.0, 1.0, 0.0], 1e-5, "child-origin vertex");
    assert!(dist(p[0], [0.0, 2.0, 0.0]) > 1.0);
}

// ---------------------------------------------------------------------------
// (c) Hermite position keys with the viewer's looped tangents
// ---------------------------------------------------------------------------

#[test]
fn position_keys_use_hermite_with_looped_tangents() {
    let mut j = SJoint::new("j", "", [0.0; 3], [0.0; 3]);
    j.pos_keys = vec![
        (0.0, [0.0, 0.0, 0.0]),
        (1.0, [0.0, 1.0, 0.0]),
        (2.0, [0.0, 3.0, 0.0]),
        (3.0, [0.0, 0.0, 0.0]),
    ];
    let m = rig(vec![j], &[([0.0; 3], 0)], 1.0);
    // Frame 1.5, interval [1,2], t = ½: h1 = h2 = ½, h3 = ⅛, h4 = −⅛.
    // Out-tangent of key 1: (key2 − key0)·dt2/(dt1+dt2) = 3·½ = 1.5;
    // in-tangent of key 2: (key3 − key1)·½ = −0.5.
    // y = ½·1 + ⅛·1.5 + ½·3 − ⅛·(−0.5) = 2.25 (linear would give 2).
    let p = skinned(&m, 1.5);
    assert_close(p[0], [0.0, 2.25, 0.0], 1e-5, "frame 1.5");
    assert!((p[0][1] - 2.0).abs() > 0.2, "not linear");
    // Frame 0.5, interval [0,1]: key 0's neighbours loop to key 3:
    // dt1 = 0 − 3 = −3, dt2 = 1, so out = (key1 − key3)·1/(−2) = −0.5;
    // key 1's in-tangent = (key2 − key0)·1/2 = 1.5.
    // y = ½·0 + ⅛·(−0.5) + ½·1 − ⅛·1.5 = 0.25 (linear: 0.5).
    let p = skinned(&m, 0.5);
    assert_close(p[0], [0.0, 0.25, 0.0], 1e-5, "frame 0.5");
    // At the keys themselves the curve passes through them.
    for (f, y) in [(0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 0.0)] {
        assert_close(skinned(&m, f)[0], [0.0, y, 0.0], 1e-5, "at a key");
    }

    // Two keys: zero tangents, a smoothstep. Frame 0.5 of [0,2], t = ¼:
    // h2 = −2/64 + 3/16 = 0.15625, y = 4·0.15625 = 0.625 (linear: 1).
    let mut j = SJoint::new("j", "", [0.0; 3], [0.0; 3]);
    j.pos_keys = vec![(0.0, [0.0; 3]), (2.0, [0.0, 4.0, 0.0])];
    let m = rig(vec![j], &[([0.0; 3], 0)], 1.0);
    assert_close(skinned(&m, 0.5)[0], [0.0, 0.625, 0.0], 1e-5, "two keys");
}

// ---------------------------------------------------------------------------
// (d) Weighted influences
// ---------------------------------------------------------------------------

/// Four root joints, each moved by one position key `D[k]` (a pure
/// translation), and vertices with every weight pattern.
const D: [[f64; 3]; 4] = [
    [10.0, 0.0, 0.0],
    [0.0, 10.0, 0.0],
    [0.0, 0.0, 10.0],
    [-20.0, 0.0, 0.0],
];

/// `(bone, extra ids, weights, expected influences (joint, fraction))`.
type Case = (i8, [i8; 3], [u8; 3], &'static [(usize, f64)]);

const WEIGHT_CASES: [Case; 12] = [
    (0, [-1, -1, -1], [0, 0, 0], &[(0, 1.0)]),
    (0, [1, -1, -1], [60, 40, 0], &[(0, 0.6), (1, 0.4)]),
    (0, [1, 2, 3], [50, 30, 20], &[(0, 0.5), (1, 0.3), (2, 0.2)]),
    (
        0,
        [1, 2, 3],
        [40, 30, 20],
        &[(0, 0.4), (1, 0.3), (2, 0.2), (3, 0.1)],
    ),
    (0, [1, 2, 3], [0, 0, 0], &[(0, 1.0)]),
    (-1, [1, 2, 3], [40, 30, 20], &[]),
    (0, [1, 2, 3], [60, 0, 40], &[(0, 0.6)]),
    (0, [-1, 2, 3], [60, 40, 0], &[(0, 0.6)]),
    (5, [0, 1, 2], [40, 30, 20], &[]),
    (1, [9, -1, -1], [70, 30, 0], &[(1, 0.7)]),
    (2, [3, -1, -1], [100, 0, 0], &[(2, 1.0)]),
    (3, [2, 1, 0], [0, 50, 50], &[(3, 1.0)]),
];

fn weights_model() -> Ms3d {
    let joints = (0..4)
        .map(|k| {
            let mut j = SJoint::new(&format!("j{k}"), "", [0.0; 3], [0.0; 3]);
            j.pos_keys = vec![(0.0, D[k].map(|x| x as f32))];
            j
        })
        .collect();
    let n = WEIGHT_CASES.len();
    let verts: Vec<SVertex> = WEIGHT_CASES
        .iter()
        .enumerate()
        .map(|(i, c)| SVertex {
            flags: 0,
            pos: [i as f32, 1.0, -2.0],
            bone: c.0,
            refs: 1,
        })
        .collect();
    // One triangle per vertex triple, in one group, for the mesh test.
    let tris = (0..n as u16 / 3)
        .map(|k| STri {
            flags: 0,
            v: [3 * k, 3 * k + 1, 3 * k + 2],
            n: [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
            s: [0.0, 0.5, 1.0],
            t: [1.0, 0.5, 0.0],
            smoothing: 1,
            group: 0,
        })
        .collect();
    let spec = Spec {
        version: 4,
        verts,
        tris,
        groups: vec![SGroup {
            flags: 0,
            name: field(b"all"),
            tris: (0..n as u16 / 3).collect(),
            material: -1,
        }],
        materials: vec![],
        fps: 24.0,
        cur_time: 0.0,
        total_frames: 10,
        joints,
        comments: Some(SComments {
            subversion: 1,
            groups: vec![],
            materials: vec![],
            joints: vec![],
            model: SModelComment::Flag(0),
        }),
        vertex_extras: Some(SVertexExtras {
            subversion: 2,
            record_size: 10,
            records: WEIGHT_CASES.iter().map(|c| (c.1, c.2, [0, 0])).collect(),
        }),
        joint_extras: None,
        model_extras: None,
        trailing: vec![],
    };
    Ms3d::from_bytes(&spec.build().0).unwrap()
}

#[test]
fn weighted_influences_blend_as_the_viewer_does() {
    let m = weights_model();
    let p = skinned(&m, 1.0);
    let inf = Influences::new(&m);
    for (i, case) in WEIGHT_CASES.iter().enumerate() {
        let v = v3(m.vertices[i].position);
        // v' = Σ w · (v + D[j]); no influence: v stays.
        let want = if case.3.is_empty() {
            v
        } else {
            case.3
                .iter()
                .fold([0.0; 3], |acc, &(j, w)| add(acc, scale(add(v, D[j]), w)))
        };
        assert_close(p[i], want, 1e-4, &format!("vertex {i} {case:?}"));

        let got = &inf.vertices[i];
        assert_eq!(got.count as usize, case.3.len(), "vertex {i} count");
        for (k, &(j, w)) in case.3.iter().enumerate() {
            assert_eq!(got.joints[k] as usize, j, "vertex {i} joint {k}");
            assert!((f64::from(got.weights[k]) - w).abs() < 1e-6);
        }
        for k in case.3.len()..4 {
            assert_eq!(got.weights[k], 0.0, "vertex {i} unused weight {k}");
        }
        // The test's written-out rule agrees with the table.
        let rule = expected_influence(&m, i);
        assert_eq!(rule.len(), case.3.len());
    }
    // Without vertex extras every vertex is 100 % its own bone.
    let mut bare = m.clone();
    bare.extras = Default::default();
    let p = skinned(&bare, 1.0);
    for (i, case) in WEIGHT_CASES.iter().enumerate() {
        let v = v3(bare.vertices[i].position);
        let want = match case.0 {
            b @ 0..=3 => add(v, D[b as usize]),
            _ => v,
        };
        assert_close(p[i], want, 1e-4, &format!("bare vertex {i}"));
    }
}

// ---------------------------------------------------------------------------
// (e) Before the first key, after the last, negative frames
// ---------------------------------------------------------------------------

#[test]
fn sampling_clamps_to_the_first_and_last_key_and_negative_is_bind_pose() {
    let deg30 = std::f32::consts::FRAC_PI_6;
    let mut j = SJoint::new("j", "", [0.0; 3], [0.0; 3]);
    j.rot_keys = vec![(1.0, [0.0, 0.0, deg30]), (2.0, [0.0, 0.0, QUARTER])];
    j.pos_keys = vec![(1.0, [0.0, 1.0, 0.0]), (2.0, [0.0, 2.0, 0.0])];
    let m = rig(vec![j], &[([2.0, 0.0, 0.0], 0)], 10.0);
    // First key: R30·(2,0,0) + (0,1,0).
    let (s, c) = (FRAC_PI_2 / 3.0).sin_cos();
    let first = [2.0 * c, 2.0 * s + 1.0, 0.0];
    let last = [0.0, 4.0, 0.0];
    for frame in [0.0, 5.0, 9.99, 10.0] {
        assert_close(
            skinned(&m, frame)[0],
            first,
            1e-5,
            &format!("frame {frame}"),
        );
    }
    for frame in [20.0, 25.0, 1e6] {
        assert_close(skinned(&m, frame)[0], last, 1e-5, &format!("frame {frame}"));
    }
    // Negative: the bind pose, not the first key.
    for frame in [-0.001, -1.0, -50.0] {
        assert_close(skinned(&m, frame)[0], [2.0, 0.0, 0.0], 1e-6, "negative");
    }
    let s = Skeleton::new(&m).unwrap();
    let mut a = vec![glam::Mat4::IDENTITY; 1];
    s.pose_at_frame(-1.0, &mut a);
    assert_eq!(a, s.bind_pose());
}

// ---------------------------------------------------------------------------
// The reference evaluator against the library, on the sample and the corpus
// ---------------------------------------------------------------------------

fn extent(m: &Ms3d) -> f64 {
    let mut lo = [f64::MAX; 3];
    let mut hi = [f64::MIN; 3];
    for v in &m.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(f64::from(v.position[k]));
            hi[k] = hi[k].max(f64::from(v.position[k]));
        }
    }
    dist(lo, hi).max(1e-6)
}

fn compare_with_reference(name: &str, m: &Ms3d, frames: &[f64], rel_tol: f64) {
    let reference = Reference::new(m);
    let tol = rel_tol * extent(m);
    for &frame in frames {
        let want = reference.skin(m, frame);
        let got = skinned(m, frame as f32);
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| dist(*a, *b))
            .fold(0.0, f64::max);
        assert!(
            worst <= tol,
            "{name} frame {frame}: off by {worst} (tolerance {tol})"
        );
    }
}

#[test]
fn the_sample_model_matches_the_reference_evaluator() {
    let m = retromodel::ms3d::sample::sample_model();
    compare_with_reference(
        "sample",
        &m,
        &[
            -1.0, 0.0, 1.0, 2.5, 5.0, 9.0, 10.0, 14.2, 20.0, 25.0, 30.0, 31.0,
        ],
        1e-5,
    );
    compare_with_reference("weights", &weights_model(), &[-1.0, 0.0, 2.0], 1e-6);
    // And the reference itself is not trivially satisfied: the sample
    // moves at frame 10 (the elbow has turned 90°).
    let r = Reference::new(&m);
    let moved = r
        .skin(&m, 10.0)
        .iter()
        .zip(&m.vertices)
        .map(|(a, v)| dist(*a, v3(v.position)))
        .fold(0.0, f64::max);
    assert!(moved > 4.0, "{moved}");
}

/// Whether a joint's first rotation and position keys are (numerically)
/// identity.
fn first_keys_identity(j: &retromodel::ms3d::Joint) -> bool {
    let zero = |k: Option<&retromodel::ms3d::Key>| {
        k.is_none_or(|k| k.value.iter().all(|x| x.abs() < 1e-5))
    };
    zero(j.rotation_keys.first()) && zero(j.position_keys.first())
}

#[test]
fn corpus_skeletons_rest_before_the_first_key_and_match_the_reference() {
    let Some(corpus) = corpus_dir() else { return };
    let mut report = Vec::new();
    for (name, frames) in [
        (
            "nehe_lesson31_Model.ms3d",
            vec![0.5, 1.0, 7.3, 12.0, 18.5, 24.0, 30.0],
        ),
        (
            "mm3d_from_nehe_Model.ms3d",
            vec![0.5, 1.0, 7.3, 12.0, 18.5, 24.0, 30.0],
        ),
        (
            "glscene_Woman4.ms3d",
            vec![0.5, 1.0, 2.5, 100.3, 1066.6, 2132.0, 2200.0],
        ),
        (
            "mm3d_from_glscene_Woman4.ms3d",
            vec![0.5, 1.0, 2.5, 100.3, 1066.6, 2132.0, 2200.0],
        ),
    ] {
        let (_, m) = load_ms3d(&corpus, name);
        assert!(!m.joints.is_empty(), "{name}");
        let reference = Reference::new(&m);
        let s = Skeleton::new(&m).unwrap();
        // The library resolves the same parents as the test.
        let parents: Vec<Option<usize>> = reference.joints.iter().map(|j| j.parent).collect();
        assert_eq!(s.parents(), &parents[..], "{name}: parents");

        // At frame 0 (before or at every joint's first key), joints whose first keys are identity, with all their
        // ancestors, leave their vertices where they are.
        let first_frame = m
            .joints
            .iter()
            .flat_map(|j| {
                j.rotation_keys
                    .first()
                    .into_iter()
                    .chain(j.position_keys.first())
            })
            .map(|k| f64::from(k.time) * f64::from(m.effective_fps()))
            .fold(f64::MAX, f64::min);
        assert!(first_frame >= 0.0, "{name}: first key at {first_frame}");
        let still: Vec<bool> = (0..m.joints.len())
            .map(|mut j| loop {
                if !first_keys_identity(&m.joints[j]) {
                    break false;
                }
                match parents[j] {
                    Some(p) => j = p,
                    None => break true,
                }
            })
            .collect();
        let all_identity = m.joints.iter().all(first_keys_identity);
        let tol = 1e-4 * extent(&m);
        let at_rest = skinned(&m, 0.0);
        let mut qualifying = 0;
        for (i, v) in m.vertices.iter().enumerate() {
            let inf = expected_influence(&m, i);
            if inf.iter().all(|&(j, _)| still[j]) {
                qualifying += 1;
                assert_close(
                    at_rest[i],
                    v3(v.position),
                    tol,
                    &format!("{name} vertex {i}"),
                );
            }
        }
        if all_identity {
            assert_eq!(qualifying, m.vertices.len(), "{name}");
        }
        report.push(format!(
            "{name}: first keys all identity: {all_identity}; {qualifying}/{} vertices at rest at frame 0",
            m.vertices.len()
        ));

        // Frame 0 too, and the whole timeline, against the reference.
        let mut all_frames = vec![-1.0, 0.0];
        all_frames.extend(frames);
        compare_with_reference(name, &m, &all_frames, 2e-5);
    }
    for line in &report {
        eprintln!("{line}");
    }
}

// ---------------------------------------------------------------------------
// Group meshes
// ---------------------------------------------------------------------------

fn check_meshes(name: &str, m: &Ms3d) {
    let meshes = GroupMesh::build_all(m);
    assert_eq!(meshes.len(), m.groups.len(), "{name}");
    for (g, (mesh, group)) in meshes.iter().zip(&m.groups).enumerate() {
        assert_eq!(mesh.group, g);
        let material = (group.material >= 0 && (group.material as usize) < m.materials.len())
            .then_some(group.material as usize);
        assert_eq!(mesh.material, material, "{name} group {g}");
        let tris: Vec<_> = group
            .triangles
            .iter()
            .filter_map(|&t| m.triangles.get(t as usize))
            .filter(|t| t.vertices.iter().all(|&v| (v as usize) < m.vertices.len()))
            .collect();
        assert_eq!(mesh.indices.len(), 3 * tris.len(), "{name} group {g}");
        assert_eq!(mesh.vertices.len(), mesh.source_vertices.len());
        let mut distinct = HashSet::new();
        for (k, tri) in tris.iter().enumerate() {
            for c in 0..3 {
                let idx = mesh.indices[3 * k + c] as usize;
                let mv = &mesh.vertices[idx];
                let vi = tri.vertices[c] as usize;
                let what = format!("{name} group {g} triangle {k} corner {c}");
                assert_eq!(mv.position, m.vertices[vi].position, "{what}");
                assert_eq!(mv.normal, tri.normals[c], "{what}");
                assert_eq!(mv.uv, [tri.s[c], tri.t[c]], "{what}");
                assert_eq!(mesh.source_vertices[idx] as usize, vi, "{what}");
                let inf = expected_influence(m, vi);
                for (s, &(j, w)) in inf.iter().enumerate() {
                    assert_eq!(mv.joints[s] as usize, j, "{what}");
                    assert!((f64::from(mv.weights[s]) - w).abs() < 1e-6, "{what}");
                }
                for s in inf.len()..4 {
                    assert_eq!(mv.weights[s], 0.0, "{what}");
                }
                distinct.insert((
                    vi,
                    tri.normals[c].map(f32::to_bits),
                    tri.s[c].to_bits(),
                    tri.t[c].to_bits(),
                ));
            }
        }
        // Corners that agree in everything share one mesh vertex.
        assert_eq!(mesh.vertices.len(), distinct.len(), "{name} group {g}");
    }
}

#[test]
fn group_meshes_reproduce_every_group() {
    check_meshes("weights", &weights_model());
    check_meshes("sample", &retromodel::ms3d::sample::sample_model());
    // Faulty indices are skipped: a group naming a triangle that does not
    // exist, a triangle naming a vertex that does not exist.
    let mut m = weights_model();
    m.groups[0].triangles.push(99);
    m.triangles[1].vertices[2] = 500;
    let meshes = GroupMesh::build_all(&m);
    assert_eq!(meshes[0].indices.len(), 3 * (m.triangles.len() - 1));
    check_meshes("faulty", &m);
    if let Some(corpus) = corpus_dir() {
        for (_, path) in ms3d_files(&corpus) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let (_, m) = load_ms3d(&corpus, &name);
            check_meshes(&name, &m);
        }
    }
}
