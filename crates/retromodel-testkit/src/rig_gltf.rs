//! A skinned glTF rig shaped as Blender's exporter writes one (an
//! `Armature` node holding the bone nodes and the skinned mesh node, one
//! animation per action, every action keying every bone's translation and
//! rotation at 24 fps key times), with actions of each glTF
//! interpolation: `Linear`, `Stepped`, `Cubic` (CUBICSPLINE, tangents
//! from Bezier-like handles) and `Mixed` (one channel of each). Made by
//! hand here because Blender cannot run on every machine the tests do.
//!
//! Bones: `Root` at the origin, `Spine` 1 up (rest rotation about Z),
//! `Arm` 1 up from it (rest rotation about X), `Hand` 1 up from that; the
//! mesh is a tube along Y from 0 to 3 with up to four influences per
//! vertex.
//!
//! ```
//! let glb = retromodel_testkit::rig_gltf::rig_glb();
//! assert_eq!(&glb[..4], b"glTF");
//! ```

use serde_json::json;

use crate::gltf_builder::{component, u16_bytes, Builder};

type Quat = [f64; 4];
type Mat = [[f64; 4]; 4];

/// The rotation of `angle` radians about unit `axis`, `[x, y, z, w]`.
fn axis_angle(axis: [f64; 3], angle: f64) -> Quat {
    let (s, c) = (0.5 * angle).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

fn qmul(a: Quat, b: Quat) -> Quat {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Column-major `[T · R]`.
fn rigid(q: Quat, t: [f64; 3]) -> Mat {
    let [x, y, z, w] = q;
    let mut m = [[0.0; 4]; 4];
    m[0] = [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + z * w),
        2.0 * (x * z - y * w),
        0.0,
    ];
    m[1] = [
        2.0 * (x * y - z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + x * w),
        0.0,
    ];
    m[2] = [
        2.0 * (x * z + y * w),
        2.0 * (y * z - x * w),
        1.0 - 2.0 * (x * x + y * y),
        0.0,
    ];
    m[3] = [t[0], t[1], t[2], 1.0];
    m
}

/// Column-major product `a · b`.
fn mul(a: &Mat, b: &Mat) -> Mat {
    let mut m = [[0.0; 4]; 4];
    for (c, col) in m.iter_mut().enumerate() {
        for (r, v) in col.iter_mut().enumerate() {
            *v = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    m
}

/// The inverse of a rigid column-major matrix.
fn rigid_inverse(m: &Mat) -> Mat {
    let mut out = [[0.0; 4]; 4];
    for c in 0..3 {
        for r in 0..3 {
            out[c][r] = m[r][c];
        }
    }
    let t: [f64; 3] = std::array::from_fn(|r| -(0..3).map(|k| out[k][r] * m[3][k]).sum::<f64>());
    out[3][..3].copy_from_slice(&t);
    out[3][3] = 1.0;
    out
}

/// Bone names, parents, rest translations and rest rotations.
const BONES: [(&str, Option<usize>); 4] = [
    ("Root", None),
    ("Spine", Some(0)),
    ("Arm", Some(1)),
    ("Hand", Some(2)),
];

fn rest(bone: usize) -> ([f64; 3], Quat) {
    match bone {
        0 => ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        1 => ([0.0, 1.0, 0.0], axis_angle([0.0, 0.0, 1.0], 0.2)),
        2 => ([0.0, 1.0, 0.0], axis_angle([1.0, 0.0, 0.0], -0.3)),
        _ => ([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
    }
}

/// Bone `bone`'s motion: the angle about its axis and its offset from its
/// rest translation at `t` seconds, for action `action` (smooth; the
/// stepped action holds its keys' values).
fn motion(action: usize, bone: usize, t: f64) -> (f64, [f64; 3]) {
    let w = std::f64::consts::TAU / 2.0;
    let phase = bone as f64 * 0.7 + action as f64 * 0.3;
    let amplitude = [0.6, 0.9, 1.2, 1.5][bone];
    let angle = amplitude * (w * t + phase).sin();
    let offset = if bone == 0 {
        [0.4 * (w * t).sin(), 0.2 * (2.0 * w * t).cos() - 0.2, 0.0]
    } else {
        [0.0, 0.1 * (w * t + phase).sin(), 0.0]
    };
    (angle, offset)
}

/// The time derivative of [`motion`].
fn motion_rate(action: usize, bone: usize, t: f64) -> (f64, [f64; 3]) {
    let w = std::f64::consts::TAU / 2.0;
    let phase = bone as f64 * 0.7 + action as f64 * 0.3;
    let amplitude = [0.6, 0.9, 1.2, 1.5][bone];
    let angle = amplitude * w * (w * t + phase).cos();
    let offset = if bone == 0 {
        [0.4 * w * (w * t).cos(), -0.4 * w * (2.0 * w * t).sin(), 0.0]
    } else {
        [0.0, 0.1 * w * (w * t + phase).cos(), 0.0]
    };
    (angle, offset)
}

fn axis(bone: usize) -> [f64; 3] {
    match bone {
        0 => [0.0, 1.0, 0.0],
        1 => [0.0, 0.0, 1.0],
        2 => [1.0, 0.0, 0.0],
        _ => [0.0, 0.6, 0.8],
    }
}

/// Interpolation of each bone's channels in each action.
fn interpolation(action: usize, bone: usize) -> &'static str {
    match action {
        0 => "LINEAR",
        1 => "STEP",
        2 => "CUBICSPLINE",
        _ => ["LINEAR", "STEP", "CUBICSPLINE", "STEP"][bone],
    }
}

/// The actions: names and key counts (keys every 6 frames at 24 fps,
/// i.e. 0.25 s).
const ACTIONS: [(&str, usize); 4] = [("Linear", 9), ("Stepped", 7), ("Cubic", 9), ("Mixed", 9)];

/// The rig as a GLB.
pub fn rig_glb() -> Vec<u8> {
    rig().glb()
}

/// One action of a rig made by [`rig_with`].
#[derive(Debug, Clone)]
pub struct Action {
    /// The animation's name.
    pub name: String,
    /// Its key times in seconds (every channel keys at all of them).
    pub times: Vec<f32>,
    /// The interpolation of each bone's channels (`LINEAR`, `STEP` or
    /// `CUBICSPLINE`).
    pub kinds: [&'static str; 4],
    /// Which motion it plays (shifts the bones' phases).
    pub motion: usize,
}

impl Action {
    /// An action of `LINEAR` channels keyed at `times`.
    pub fn linear(name: &str, times: Vec<f32>, motion: usize) -> Action {
        Action {
            name: name.to_string(),
            times,
            kinds: ["LINEAR"; 4],
            motion,
        }
    }
}

/// The rig's own actions ([`rig`]): `Linear`, `Stepped`, `Cubic` and
/// `Mixed`, keyed every 0.25 s.
pub fn actions() -> Vec<Action> {
    ACTIONS
        .iter()
        .enumerate()
        .map(|(action, (name, keys))| Action {
            name: name.to_string(),
            times: (0..*keys).map(|k| (k * 6) as f32 / 24.0).collect(),
            kinds: std::array::from_fn(|bone| interpolation(action, bone)),
            motion: action,
        })
        .collect()
}

/// The rig as a document.
pub fn rig() -> Builder {
    rig_with(&actions())
}

/// The rig with `actions` for animations.
pub fn rig_with(actions: &[Action]) -> Builder {
    rig_weighted(actions, 100.0)
}

/// The rig with `actions`, its weights whole multiples of `1 / parts`
/// (100: whole percents, which MilkShape stores exactly; 5: fifths, which
/// both whole percents and `gltf-transform quantize`'s 8-bit weights,
/// `k / 255`, hold exactly).
pub fn rig_weighted(actions: &[Action], parts: f64) -> Builder {
    let mut b = Builder::new();
    // Nodes: 0 Armature, 1..=4 bones, 5 the mesh.
    let mut globals: Vec<Mat> = Vec::new();
    for (i, (_, parent)) in BONES.iter().enumerate() {
        let (t, r) = rest(i);
        let local = rigid(r, t);
        let global = match parent {
            Some(p) => mul(&globals[*p], &local),
            None => local,
        };
        globals.push(global);
    }
    b.push("nodes", json!({"name": "Armature", "children": [1, 5]}));
    for (i, (name, _)) in BONES.iter().enumerate() {
        let (t, r) = rest(i);
        let mut node = json!({"name": name, "translation": t, "rotation": r});
        if i + 1 < BONES.len() {
            node["children"] = json!([i + 2]);
        }
        b.push("nodes", node);
    }
    // The tube.
    let (rings, around) = (13usize, 8usize);
    let (mut pos, mut nor, mut joints, mut weights) = (vec![], vec![], vec![], vec![]);
    for ring in 0..rings {
        let y = 3.0 * ring as f64 / (rings - 1) as f64;
        let mut w: Vec<f64> = (0..4)
            .map(|j| (1.0 - (y - j as f64).abs() / 1.6).max(0.0))
            .collect();
        // Whole percentages (MilkShape stores percent; the rig tests the
        // keys, not the rounding of weights).
        let sum: f64 = w.iter().sum();
        w.iter_mut().for_each(|x| *x = (*x / sum * parts).round());
        let (big, _) = w
            .iter()
            .enumerate()
            .fold((0, 0.0), |b, (i, &x)| if x > b.1 { (i, x) } else { b });
        w[big] += parts - w.iter().sum::<f64>();
        w.iter_mut().for_each(|x| *x /= parts);
        for k in 0..around {
            let a = std::f64::consts::TAU * k as f64 / around as f64;
            let (s, c) = a.sin_cos();
            pos.extend([0.3 * c, y, 0.3 * s].map(|x| x as f32));
            nor.extend([c as f32, 0.0, s as f32]);
            joints.extend([0u16, 1, 2, 3]);
            weights.extend(w.iter().map(|&x| x as f32));
        }
    }
    let mut indices: Vec<u16> = Vec::new();
    for ring in 0..rings - 1 {
        for k in 0..around {
            let a = (ring * around + k) as u16;
            let b2 = (ring * around + (k + 1) % around) as u16;
            let (c, d) = (a + around as u16, b2 + around as u16);
            indices.extend([a, c, b2, b2, c, d]);
        }
    }
    let p = b.floats(&pos, "VEC3");
    let (lo, hi) = ([-0.3f32, 0.0, -0.3], [0.3f32, 3.0, 0.3]);
    b.json["accessors"][p]["min"] = json!(lo);
    b.json["accessors"][p]["max"] = json!(hi);
    let n = b.floats(&nor, "VEC3");
    let jv = b.view(&u16_bytes(&joints), None);
    let j = b.accessor(Some(jv), 0, component::U16, "VEC4", joints.len() / 4, false);
    let w = b.floats(&weights, "VEC4");
    let i = b.u16s(&indices);
    let mesh = b.push(
        "meshes",
        json!({"name": "Body", "primitives": [{
            "attributes": {"POSITION": p, "NORMAL": n, "JOINTS_0": j, "WEIGHTS_0": w},
            "indices": i, "mode": 4}]}),
    );
    b.push("nodes", json!({"name": "Body", "mesh": mesh, "skin": 0}));
    let ibm: Vec<f32> = globals
        .iter()
        .flat_map(|g| rigid_inverse(g).concat())
        .map(|x| x as f32)
        .collect();
    let ibm = b.floats(&ibm, "MAT4");
    b.push(
        "skins",
        json!({"name": "Armature", "joints": [1, 2, 3, 4], "inverseBindMatrices": ibm}),
    );
    b.scene_root(0);
    for a in actions {
        let (name, times, action) = (&a.name, &a.times, a.motion);
        let input = b.floats(times, "SCALAR");
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for bone in 0..BONES.len() {
            let kind = a.kinds[bone];
            let cubic = kind == "CUBICSPLINE";
            let (rt, rr) = rest(bone);
            let (mut rot, mut tra) = (Vec::new(), Vec::new());
            for &time in times {
                let t = f64::from(time);
                let (angle, offset) = motion(action, bone, t);
                let q = qmul(rr, axis_angle(axis(bone), angle));
                let p = [rt[0] + offset[0], rt[1] + offset[1], rt[2] + offset[2]];
                if cubic {
                    // Tangents: the motion's rate, exaggerated (as a
                    // Bezier handle dragged out would be), so the curve
                    // is no Catmull-Rom spline.
                    let (rate, prate) = motion_rate(action, bone, t);
                    // d/dt of rr ⊗ (axis sin θ/2, cos θ/2).
                    let (s, c) = (0.5 * angle).sin_cos();
                    let a = axis(bone);
                    let d = [
                        a[0] * c * 0.5 * rate,
                        a[1] * c * 0.5 * rate,
                        a[2] * c * 0.5 * rate,
                        -s * 0.5 * rate,
                    ];
                    let dq = qmul(rr, d).map(|x| 1.3 * x);
                    let dp = prate.map(|x| 1.3 * x);
                    rot.extend(dq);
                    rot.extend(q);
                    rot.extend(dq);
                    tra.extend(dp);
                    tra.extend(p);
                    tra.extend(dp);
                } else {
                    rot.extend(q);
                    tra.extend(p);
                }
            }
            let rot: Vec<f32> = rot.into_iter().map(|x| x as f32).collect();
            let tra: Vec<f32> = tra.into_iter().map(|x| x as f32).collect();
            let r_out = b.floats(&rot, "VEC4");
            let t_out = b.floats(&tra, "VEC3");
            for (out, path) in [(t_out, "translation"), (r_out, "rotation")] {
                samplers.push(json!({"input": input, "output": out, "interpolation": kind}));
                channels.push(json!({"sampler": samplers.len() - 1,
                    "target": {"node": bone + 1, "path": path}}));
            }
        }
        b.push(
            "animations",
            json!({"name": name, "samplers": samplers, "channels": channels}),
        );
    }
    b
}

/// Adds to a rig of [`rig_with`] a prop held in the hand: a box mesh
/// `Sword` (not skinned) whose node is a child of the `Hand` bone, placed
/// off the bone's origin and turned, as a sword parented to a hand bone in
/// Blender is exported.
pub fn add_prop(b: &mut Builder) {
    let (lo, hi) = ([-0.05f32, 0.0, -0.1], [0.05f32, 1.2, 0.1]);
    let mut pos = Vec::new();
    for k in 0..8 {
        pos.extend([
            if k & 1 == 0 { lo[0] } else { hi[0] },
            if k & 2 == 0 { lo[1] } else { hi[1] },
            if k & 4 == 0 { lo[2] } else { hi[2] },
        ]);
    }
    let indices: Vec<u16> = vec![
        0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6,
        1, 3, 5, 3, 7, 5,
    ];
    let p = b.floats(&pos, "VEC3");
    b.json["accessors"][p]["min"] = json!(lo);
    b.json["accessors"][p]["max"] = json!(hi);
    let i = b.u16s(&indices);
    let mesh = b.push(
        "meshes",
        json!({"name": "Sword", "primitives": [{"attributes": {"POSITION": p}, "indices": i, "mode": 4}]}),
    );
    let r = axis_angle([0.6, 0.0, 0.8], 0.9);
    let node = b.push(
        "nodes",
        json!({"name": "Sword", "mesh": mesh, "translation": [0.15, 0.4, -0.05], "rotation": r, "scale": [0.2, 1.0, 0.4]}),
    );
    b.json["nodes"][4]["children"] = json!([node]);
}

/// Adds an animation `swing` that turns and moves only the prop of
/// [`add_prop`] (the last node), keyed every 0.25 s for 1 s, starting
/// away from its rest pose.
pub fn add_prop_swing(b: &mut Builder) {
    let node = b.json["nodes"].as_array().map_or(0, |n| n.len() - 1);
    let rest = axis_angle([0.6, 0.0, 0.8], 0.9);
    let times: Vec<f32> = (0..5).map(|k| k as f32 * 0.25).collect();
    let mut rot = Vec::new();
    let mut tra = Vec::new();
    for &t in &times {
        let a = 1.1 * (std::f64::consts::PI * f64::from(t) + 0.8).sin();
        rot.extend(qmul(rest, axis_angle([1.0, 0.0, 0.0], a)).map(|x| x as f32));
        tra.extend([0.15 + 0.2 * a, 0.4, -0.05].map(|x| x as f32));
    }
    let input = b.floats(&times, "SCALAR");
    let r = b.floats(&rot, "VEC4");
    let t = b.floats(&tra, "VEC3");
    b.push(
        "animations",
        json!({"name": "swing", "samplers": [
            {"input": input, "output": r, "interpolation": "LINEAR"},
            {"input": input, "output": t, "interpolation": "LINEAR"}],
            "channels": [
            {"sampler": 0, "target": {"node": node, "path": "rotation"}},
            {"sampler": 1, "target": {"node": node, "path": "translation"}}]}),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_bind_matrices_invert_the_rest_pose() {
        let g = mul(
            &rigid(axis_angle([0.0, 0.0, 1.0], 0.2), [0.0, 1.0, 0.0]),
            &rigid(axis_angle([1.0, 0.0, 0.0], -0.3), [0.0, 1.0, 0.0]),
        );
        let i = mul(&rigid_inverse(&g), &g);
        for (c, col) in i.iter().enumerate() {
            for (r, v) in col.iter().enumerate() {
                let want = if r == c { 1.0 } else { 0.0 };
                assert!((v - want).abs() < 1e-12);
            }
        }
    }
}
