//! Posing a [`Scene`] at any time: animation channels sampled as glTF 2.0
//! specifies, node transforms composed down the hierarchy, morph targets
//! blended and meshes skinned, into caller buffers.
//!
//! A [`Pose`] is made once per scene ([`Pose::new`] checks the node
//! hierarchy and allocates everything it needs); after that, sampling an
//! animation ([`Pose::sample`]) and computing a mesh's vertices
//! ([`Pose::mesh_vertices`]) allocate nothing, so a game loop or a renderer
//! can call them every frame.
//!
//! Sampling follows the glTF 2.0 specification (Appendix C): before the
//! first key and after the last the end values hold; `STEP` holds the
//! previous key; `LINEAR` interpolates linearly, rotations by spherical
//! linear interpolation along the shorter arc; `CUBICSPLINE` is the cubic
//! Hermite spline with per-second tangents scaled by the key interval, and
//! its rotations are normalised. Evaluation is in `f64`, rounded once.
//!
//! ```
//! use retromodel::scene::{Pose, Scene};
//! use retromodel::ms3d::Ms3dSceneOptions;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let model = retromodel::ms3d::sample::sample_model();
//! let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default())?;
//! let mut pose = Pose::new(&scene)?;
//! pose.sample(&scene, 0, 0.5); // animation 0, half a second in
//! let mesh = &scene.meshes[0];
//! let mut positions = vec![[0.0f32; 3]; mesh.positions.len()];
//! let mut normals = vec![[0.0f32; 3]; mesh.positions.len()];
//! pose.mesh_vertices(&scene, 0, &mut positions, &mut normals);
//! # Ok(()) }
//! ```

use glam::{DQuat, Mat3, Mat4, Quat, Vec3};

use super::{Animation, Channel, Interpolation, Scene, Target};
use crate::error::{Error, Result};

/// The state of a scene at one moment: every node's local and scene-space
/// transform, every mesh's morph weights and every skin's joint matrices.
///
/// Made for one scene by [`Pose::new`]; using it with another scene is not
/// an error, but what does not fit is left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    /// Node indices, every parent before its children.
    order: Vec<usize>,
    translations: Vec<Vec3>,
    rotations: Vec<Quat>,
    scales: Vec<Vec3>,
    globals: Vec<Mat4>,
    weights: Vec<Vec<f32>>,
    /// Per skin, per joint: `G(joint) · inverse bind`.
    skinning: Vec<Vec<Mat4>>,
}

impl Pose {
    /// The rest pose of `scene`: every node at its rest transform, every
    /// mesh at its default morph weights.
    ///
    /// Fails when a node's parent is not a node of the scene or the
    /// parents form a cycle.
    pub fn new(scene: &Scene) -> Result<Pose> {
        let order = node_order(scene)?;
        let n = scene.nodes.len();
        let mut pose = Pose {
            order,
            translations: vec![Vec3::ZERO; n],
            rotations: vec![Quat::IDENTITY; n],
            scales: vec![Vec3::ONE; n],
            globals: vec![Mat4::IDENTITY; n],
            weights: scene
                .meshes
                .iter()
                .map(|m| vec![0.0; m.morph_targets.len()])
                .collect(),
            skinning: scene
                .skins
                .iter()
                .map(|s| vec![Mat4::IDENTITY; s.joints.len()])
                .collect(),
        };
        pose.reset(scene);
        Ok(pose)
    }

    /// Back to the rest pose (rest transforms, default morph weights),
    /// with the scene-space transforms updated.
    pub fn reset(&mut self, scene: &Scene) {
        for (i, node) in scene.nodes.iter().enumerate().take(self.translations.len()) {
            self.translations[i] = Vec3::from(node.translation);
            self.rotations[i] = Quat::from_array(node.rotation);
            self.scales[i] = Vec3::from(node.scale);
        }
        for (weights, mesh) in self.weights.iter_mut().zip(&scene.meshes) {
            weights.fill(0.0);
            for (w, &d) in weights.iter_mut().zip(&mesh.morph_weights) {
                *w = d;
            }
        }
        self.update(scene);
    }

    /// The pose `seconds` into animation `animation` of `scene`: the rest
    /// pose, with every channel of the animation applied, and the
    /// scene-space transforms updated. An animation that does not exist
    /// gives the rest pose.
    pub fn sample(&mut self, scene: &Scene, animation: usize, seconds: f32) {
        self.reset(scene);
        if let Some(anim) = scene.animations.get(animation) {
            self.apply(scene, anim, seconds);
        }
    }

    /// Applies every channel of `animation` at `seconds` on top of the
    /// current local transforms and weights, then updates the scene-space
    /// transforms. Channels whose values do not fit their keys, or whose
    /// target is not in the scene, are skipped.
    pub fn apply(&mut self, scene: &Scene, animation: &Animation, seconds: f32) {
        let t = f64::from(seconds);
        for channel in &animation.channels {
            match channel.target {
                Target::MorphWeights { mesh } => {
                    if let Some(w) = self.weights.get_mut(mesh) {
                        sample_into(channel, w.len(), false, t, w);
                    }
                }
                Target::Translation { node } => {
                    if let Some(v) = self.translations.get_mut(node) {
                        let mut out = v.to_array();
                        if sample_into(channel, 3, false, t, &mut out) {
                            *v = Vec3::from(out);
                        }
                    }
                }
                Target::Scale { node } => {
                    if let Some(v) = self.scales.get_mut(node) {
                        let mut out = v.to_array();
                        if sample_into(channel, 3, false, t, &mut out) {
                            *v = Vec3::from(out);
                        }
                    }
                }
                Target::Rotation { node } => {
                    if let Some(q) = self.rotations.get_mut(node) {
                        let mut out = q.to_array();
                        if sample_into(channel, 4, true, t, &mut out) {
                            *q = Quat::from_array(out);
                        }
                    }
                }
            }
        }
        self.update(scene);
    }

    /// Recomputes the scene-space transforms and skinning matrices from
    /// the local transforms (after changing them by hand).
    pub fn update(&mut self, scene: &Scene) {
        for &i in &self.order {
            let local = Mat4::from_scale_rotation_translation(
                self.scales[i],
                self.rotations[i],
                self.translations[i],
            );
            let parent = scene.nodes.get(i).and_then(|n| n.parent);
            self.globals[i] = match parent.and_then(|p| self.globals.get(p)) {
                Some(g) => *g * local,
                None => local,
            };
        }
        for (matrices, skin) in self.skinning.iter_mut().zip(&scene.skins) {
            for (k, m) in matrices.iter_mut().enumerate() {
                let global = skin.joints.get(k).and_then(|&j| self.globals.get(j));
                let inverse = skin.inverse_bind_matrices.get(k);
                *m = match (global, inverse) {
                    (Some(g), Some(ibm)) => *g * Mat4::from_cols_array(ibm),
                    (Some(g), None) => *g,
                    _ => Mat4::IDENTITY,
                };
            }
        }
    }

    /// The scene's node indices, every parent before its children.
    pub(crate) fn node_order(&self) -> &[usize] {
        &self.order
    }

    /// Node `node`'s local translation, rotation (`[x, y, z, w]`) and
    /// scale.
    pub fn local(&self, node: usize) -> Option<([f32; 3], [f32; 4], [f32; 3])> {
        Some((
            self.translations.get(node)?.to_array(),
            self.rotations.get(node)?.to_array(),
            self.scales.get(node)?.to_array(),
        ))
    }

    /// Sets node `node`'s local transform; call [`Pose::update`] after.
    pub fn set_local(
        &mut self,
        node: usize,
        translation: [f32; 3],
        rotation: [f32; 4],
        scale: [f32; 3],
    ) {
        if node < self.translations.len() {
            self.translations[node] = Vec3::from(translation);
            self.rotations[node] = Quat::from_array(rotation);
            self.scales[node] = Vec3::from(scale);
        }
    }

    /// Node `node`'s scene-space transform (column-major), as of the last
    /// update.
    pub fn node_matrix(&self, node: usize) -> Option<[f32; 16]> {
        self.globals.get(node).map(Mat4::to_cols_array)
    }

    /// Mesh `mesh`'s morph weights (empty for a mesh without targets or
    /// not in the scene).
    pub fn morph_weights(&self, mesh: usize) -> &[f32] {
        self.weights.get(mesh).map_or(&[], Vec::as_slice)
    }

    /// Mesh `mesh`'s morph weights, to set by hand (for example weight 1
    /// on one MD2 frame's target).
    pub fn morph_weights_mut(&mut self, mesh: usize) -> &mut [f32] {
        self.weights
            .get_mut(mesh)
            .map_or(&mut [], Vec::as_mut_slice)
    }

    /// The posed vertices of mesh `mesh` of `scene`, in scene space, into
    /// `positions` and `normals` (one entry per vertex each; entries past
    /// the mesh's vertices are left alone, and a shorter buffer gets only
    /// what fits).
    ///
    /// Morph targets are blended first (`base + Σ wₖ · targetₖ`, targets
    /// with weight 0 skipped), then a skinned mesh is skinned
    /// (`Σ wᵢ · G(jointᵢ) · inverse bindᵢ`, normals by the matrices'
    /// linear parts, as glTF viewers do), or a mesh placed by a node
    /// transformed by that node (normals by the inverse transpose; an
    /// identity transform leaves the numbers exactly as they are, `-0`
    /// included). Normals of a mesh that is morphed, skinned or placed by
    /// a node come out unit length (a zero one becomes +Y); a mesh
    /// nothing moves keeps its base normals as they are.
    pub fn mesh_vertices(
        &self,
        scene: &Scene,
        mesh: usize,
        positions: &mut [[f32; 3]],
        normals: &mut [[f32; 3]],
    ) {
        let Some(m) = scene.meshes.get(mesh) else {
            return;
        };
        let count = m.positions.len().min(positions.len());
        positions[..count].copy_from_slice(&m.positions[..count]);
        let count_n = m.positions.len().min(normals.len());
        if m.normals.len() == m.positions.len() {
            normals[..count_n].copy_from_slice(&m.normals[..count_n]);
        } else {
            normals[..count_n].fill([0.0; 3]);
        }
        // Whether anything moved the vertices (else the normals are the
        // base's, already unit length, and are left as they are).
        let mut moved = false;
        for (target, &w) in m.morph_targets.iter().zip(self.morph_weights(mesh)) {
            if w == 0.0 {
                continue;
            }
            moved = true;
            add_scaled(positions, &target.positions, w);
            add_scaled(normals, &target.normals, w);
        }
        let skinning = m
            .skin
            .as_ref()
            .and_then(|s| Some((s, self.skinning.get(s.skin)?)))
            .filter(|(s, _)| s.fits(m.positions.len()));
        if let Some((weights, matrices)) = skinning {
            moved = true;
            for (i, position) in positions.iter_mut().enumerate().take(count) {
                let p = Vec3::from(*position);
                let n = normals.get(i).map(|&n| Vec3::from(n));
                let (mut sp, mut sn) = (Vec3::ZERO, Vec3::ZERO);
                // Every influence, of every set of four.
                for (joint, w) in weights.influences(i) {
                    let Some(mat) = matrices.get(usize::from(joint)) else {
                        continue;
                    };
                    sp += mat.transform_point3(p) * w;
                    if let Some(n) = n {
                        sn += mat.transform_vector3(n) * w;
                    }
                }
                *position = sp.to_array();
                if let Some(out) = normals.get_mut(i) {
                    *out = sn.to_array();
                }
            }
        } else if let Some(g) = m.node.and_then(|n| self.globals.get(n)) {
            moved = true;
            // The identity moves nothing (multiplying by 1 and adding 0
            // would only turn -0 into 0).
            if *g != Mat4::IDENTITY {
                transform(g, &mut positions[..count], normals);
            }
        }
        if moved {
            for n in normals.iter_mut().take(m.positions.len()) {
                *n = Vec3::from(*n).try_normalize().unwrap_or(Vec3::Y).to_array();
            }
        }
    }
}

/// Positions by `g`, normals (as many as there are, up to the positions)
/// by its inverse transpose.
fn transform(g: &Mat4, positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) {
    let normal_matrix = Mat3::from_mat4(*g).inverse().transpose();
    for (i, p) in positions.iter_mut().enumerate() {
        *p = g.transform_point3(Vec3::from(*p)).to_array();
        if let Some(n) = normals.get_mut(i) {
            *n = (normal_matrix * Vec3::from(*n)).to_array();
        }
    }
}

/// `out[i] += w · add[i]` where both exist (component by component, over
/// the flat numbers, so the compiler uses vector instructions).
fn add_scaled(out: &mut [[f32; 3]], add: &[[f32; 3]], w: f32) {
    for (o, d) in out.as_flattened_mut().iter_mut().zip(add.as_flattened()) {
        *o += *d * w;
    }
}

/// Node indices with every parent before its children, or an error
/// naming a parent out of range or a cycle.
fn node_order(scene: &Scene) -> Result<Vec<usize>> {
    let n = scene.nodes.len();
    let invalid = |i: usize, message: String| Error::InvalidScene {
        path: format!("nodes[{i}].parent"),
        message,
    };
    for (i, node) in scene.nodes.iter().enumerate() {
        if let Some(p) = node.parent.filter(|&p| p >= n) {
            return Err(invalid(i, format!("parent {p} out of range 0..{n}")));
        }
    }
    // 0 new, 1 on the current walk, 2 placed.
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    let mut chain = Vec::new();
    for start in 0..n {
        chain.clear();
        let mut at = Some(start);
        while let Some(i) = at {
            match state[i] {
                2 => break,
                1 => return Err(invalid(i, "the parents form a cycle".to_string())),
                _ => {
                    state[i] = 1;
                    chain.push(i);
                    at = scene.nodes[i].parent;
                }
            }
        }
        for &i in chain.iter().rev() {
            state[i] = 2;
            order.push(i);
        }
    }
    Ok(order)
}

/// Samples `channel` at `t` into `out` (`n` numbers per value); `false`
/// (and `out` untouched) when the channel's values do not fit its keys.
/// `rotation`: the values are quaternions (slerped, and normalised after a
/// cubic spline).
fn sample_into(channel: &Channel, n: usize, rotation: bool, t: f64, out: &mut [f32]) -> bool {
    let times = &channel.times;
    let cubic = channel.interpolation == Interpolation::CubicSpline;
    let per_key = if cubic { 3 * n } else { n };
    let keys = times.len();
    if keys == 0 || n == 0 || out.len() < n || channel.values.len() != keys * per_key {
        return false;
    }
    let rotation = rotation && n == 4;
    // The value group of key k (for a cubic spline: 0 in tangent, 1
    // value, 2 out tangent).
    let group = |k: usize, g: usize| -> &[f32] {
        let at = k * per_key + if cubic { g * n } else { 0 };
        &channel.values[at..at + n]
    };
    let put = |out: &mut [f32], v: &[f32]| out[..n].copy_from_slice(v);
    let last = keys - 1;
    let first_time = f64::from(times[0]);
    if t.is_nan() || t <= first_time || last == 0 {
        put(out, group(0, 1));
        return true;
    }
    if t >= f64::from(times[last]) {
        put(out, group(last, 1));
        return true;
    }
    let k = times
        .partition_point(|&x| f64::from(x) <= t)
        .saturating_sub(1)
        .min(last - 1);
    let (t0, t1) = (f64::from(times[k]), f64::from(times[k + 1]));
    let d = t1 - t0;
    if d.is_nan() || d <= 0.0 {
        put(out, group(k + 1, 1));
        return true;
    }
    let s = (t - t0) / d;
    match channel.interpolation {
        Interpolation::Step => put(out, group(k, 0)),
        Interpolation::Linear if rotation => {
            let q = slerp(quat(group(k, 0)), quat(group(k + 1, 0)), s);
            for (o, x) in out.iter_mut().zip(q.to_array()) {
                *o = x as f32;
            }
        }
        Interpolation::Linear => {
            let (a, b) = (group(k, 0), group(k + 1, 0));
            for i in 0..n {
                let (a, b) = (f64::from(a[i]), f64::from(b[i]));
                out[i] = (a + s * (b - a)) as f32;
            }
        }
        Interpolation::CubicSpline => {
            let (v0, b0) = (group(k, 1), group(k, 2));
            let (a1, v1) = (group(k + 1, 0), group(k + 1, 1));
            let (s2, s3) = (s * s, s * s * s);
            let h = [
                2.0 * s3 - 3.0 * s2 + 1.0,
                d * (s3 - 2.0 * s2 + s),
                -2.0 * s3 + 3.0 * s2,
                d * (s3 - s2),
            ];
            let value = |i: usize| {
                h[0] * f64::from(v0[i])
                    + h[1] * f64::from(b0[i])
                    + h[2] * f64::from(v1[i])
                    + h[3] * f64::from(a1[i])
            };
            if rotation {
                let q = DQuat::from_xyzw(value(0), value(1), value(2), value(3));
                let q = if q.length() > 0.0 { q.normalize() } else { q };
                for (o, x) in out.iter_mut().zip(q.to_array()) {
                    *o = x as f32;
                }
            } else {
                for (i, o) in out.iter_mut().enumerate().take(n) {
                    *o = value(i) as f32;
                }
            }
        }
    }
    true
}

fn quat(v: &[f32]) -> DQuat {
    DQuat::from_xyzw(
        f64::from(v[0]),
        f64::from(v[1]),
        f64::from(v[2]),
        f64::from(v[3]),
    )
}

/// Spherical linear interpolation along the shorter arc, normalised
/// (linear where the two are nearly equal).
pub(super) fn slerp(a: DQuat, b: DQuat, s: f64) -> DQuat {
    let mut dot = a.dot(b);
    let b = if dot < 0.0 {
        dot = -dot;
        -b
    } else {
        b
    };
    let (wa, wb) = if dot > 1.0 - 1e-12 {
        (1.0 - s, s)
    } else {
        // libm's: the same on every platform (WebAssembly included).
        let theta = libm::acos(dot.min(1.0));
        let sin = libm::sin(theta);
        (
            libm::sin((1.0 - s) * theta) / sin,
            libm::sin(s * theta) / sin,
        )
    };
    let q = a * wa + b * wb;
    if q.length() > 0.0 {
        q.normalize()
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Mesh, MorphTarget, Node, Skin, SkinWeights};

    fn channel(
        target: Target,
        interpolation: Interpolation,
        times: &[f32],
        values: &[f32],
    ) -> Channel {
        Channel {
            target,
            interpolation,
            times: times.to_vec(),
            values: values.to_vec(),
        }
    }

    fn sample(c: &Channel, n: usize, t: f64) -> Vec<f32> {
        let mut out = vec![f32::NAN; n];
        assert!(sample_into(
            c,
            n,
            matches!(c.target, Target::Rotation { .. }),
            t,
            &mut out
        ));
        out
    }

    #[test]
    fn step_linear_and_clamping() {
        let t = Target::Translation { node: 0 };
        let lin = channel(
            t,
            Interpolation::Linear,
            &[1.0, 3.0],
            &[0.0, 0.0, 0.0, 4.0, 8.0, -2.0],
        );
        assert_eq!(
            sample(&lin, 3, 0.0),
            [0.0, 0.0, 0.0],
            "before the first key"
        );
        assert_eq!(sample(&lin, 3, 2.0), [2.0, 4.0, -1.0]);
        assert_eq!(sample(&lin, 3, 9.0), [4.0, 8.0, -2.0], "after the last key");
        assert_eq!(sample(&lin, 3, f64::NAN), [0.0, 0.0, 0.0]);
        let step = Channel {
            interpolation: Interpolation::Step,
            ..lin.clone()
        };
        assert_eq!(sample(&step, 3, 2.9), [0.0, 0.0, 0.0]);
        assert_eq!(sample(&step, 3, 3.0), [4.0, 8.0, -2.0]);
        // Values that do not fit the keys are not sampled.
        let broken = Channel {
            values: vec![1.0; 5],
            ..lin
        };
        assert!(!sample_into(&broken, 3, false, 1.0, &mut [0.0; 3]));
    }

    #[test]
    fn cubic_spline_is_the_specs_hermite_curve() {
        // y(t) = t³ on [0, 2]: values 0 and 8, slopes 0 and 12 per second.
        let c = channel(
            Target::Translation { node: 0 },
            Interpolation::CubicSpline,
            &[0.0, 2.0],
            &[0.0, 0.0, 0.0, 12.0, 8.0, 0.0],
        );
        for i in 0..=20 {
            let t = f64::from(i) / 10.0;
            let got = f64::from(sample(&c, 1, t)[0]);
            assert!((got - t * t * t).abs() < 1e-5, "{t}: {got}");
        }
    }

    #[test]
    fn rotations_slerp_along_the_shorter_arc() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // Identity to 90° about z, the second stored with the other sign.
        let c = channel(
            Target::Rotation { node: 0 },
            Interpolation::Linear,
            &[0.0, 1.0],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -h, -h],
        );
        let q = sample(&c, 4, 0.5);
        let a = std::f64::consts::FRAC_PI_8;
        let want = [0.0, 0.0, a.sin(), a.cos()];
        for (g, w) in q.iter().zip(want) {
            assert!((f64::from(*g) - w).abs() < 1e-6, "{q:?}");
        }
    }

    /// Two nodes, the child 1 unit along x of its parent, the parent
    /// turned about y by an animation; a mesh skinned half to each, one
    /// placed by the child, one morphed.
    fn scene() -> Scene {
        let ibm = |x: f32| Mat4::from_translation(Vec3::new(-x, 0.0, 0.0)).to_cols_array();
        let q = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2).to_array();
        let mesh = |name: &str| Mesh {
            name: name.into(),
            positions: vec![[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]],
            normals: vec![[0.0, 1.0, 0.0]; 2],
            indices: vec![],
            ..Mesh::default()
        };
        Scene {
            nodes: vec![
                Node {
                    name: "root".into(),
                    ..Node::default()
                },
                Node {
                    name: "arm".into(),
                    parent: Some(0),
                    translation: [1.0, 0.0, 0.0],
                    ..Node::default()
                },
            ],
            skins: vec![Skin {
                joints: vec![0, 1],
                inverse_bind_matrices: vec![ibm(0.0), ibm(1.0)],
                ..Skin::default()
            }],
            meshes: vec![
                Mesh {
                    skin: Some(SkinWeights {
                        skin: 0,
                        joints: vec![[0, 1, 0, 0]; 2],
                        weights: vec![[0.5, 0.5, 0.0, 0.0]; 2],
                        more: Vec::new(),
                    }),
                    ..mesh("skinned")
                },
                Mesh {
                    node: Some(1),
                    ..mesh("placed")
                },
                Mesh {
                    morph_targets: vec![MorphTarget {
                        name: "up".into(),
                        positions: vec![[0.0, 2.0, 0.0]; 2],
                        normals: vec![],
                    }],
                    morph_weights: vec![0.25],
                    ..mesh("morphed")
                },
            ],
            animations: vec![Animation {
                name: "turn".into(),
                channels: vec![
                    channel(
                        Target::Rotation { node: 0 },
                        Interpolation::Linear,
                        &[0.0, 1.0],
                        &[[0.0, 0.0, 0.0, 1.0], q].concat(),
                    ),
                    channel(
                        Target::MorphWeights { mesh: 2 },
                        Interpolation::Linear,
                        &[0.0, 1.0],
                        &[0.0, 1.0],
                    ),
                ],
                extras: serde_json::Value::Null,
            }],
            ..Scene::default()
        }
    }

    fn vertices(pose: &Pose, scene: &Scene, mesh: usize) -> Vec<[f32; 3]> {
        let mut p = vec![[0.0; 3]; 2];
        let mut n = vec![[0.0; 3]; 2];
        pose.mesh_vertices(scene, mesh, &mut p, &mut n);
        p
    }

    fn near(a: &[[f32; 3]], b: &[[f32; 3]]) -> bool {
        a.iter()
            .zip(b)
            .all(|(a, b)| (0..3).all(|k| (a[k] - b[k]).abs() < 1e-6))
    }

    #[test]
    fn nodes_skins_and_morphs_are_posed() {
        let scene = scene();
        let mut pose = Pose::new(&scene).unwrap();
        // Rest: skinned vertices stay, placed ones move 1 along x, morphed
        // ones by the default weight.
        assert!(near(
            &vertices(&pose, &scene, 0),
            &[[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
        ));
        assert!(near(
            &vertices(&pose, &scene, 1),
            &[[2.0, 0.0, 0.0], [3.0, 0.0, 0.0]]
        ));
        assert!(near(
            &vertices(&pose, &scene, 2),
            &[[1.0, 0.5, 0.0], [2.0, 0.5, 0.0]]
        ));
        // At 1 s the root has turned 90° about y: x goes to -z.
        pose.sample(&scene, 0, 1.0);
        assert!(near(
            &vertices(&pose, &scene, 0),
            &[[0.0, 0.0, -1.0], [0.0, 0.0, -2.0]]
        ));
        assert!(near(
            &vertices(&pose, &scene, 1),
            &[[0.0, 0.0, -2.0], [0.0, 0.0, -3.0]]
        ));
        assert!(near(
            &vertices(&pose, &scene, 2),
            &[[1.0, 2.0, 0.0], [2.0, 2.0, 0.0]]
        ));
        assert_eq!(pose.morph_weights(2), [1.0]);
        // A missing animation is the rest pose.
        pose.sample(&scene, 7, 1.0);
        assert!(near(
            &vertices(&pose, &scene, 1),
            &[[2.0, 0.0, 0.0], [3.0, 0.0, 0.0]]
        ));
    }

    #[test]
    fn bad_hierarchies_are_errors() {
        let mut s = scene();
        s.nodes[0].parent = Some(1);
        let err = Pose::new(&s).unwrap_err();
        assert!(err.to_string().contains("cycle"), "{err}");
        s.nodes[0].parent = Some(9);
        let err = Pose::new(&s).unwrap_err();
        assert_eq!(
            err.to_string(),
            "scene nodes[0].parent: parent 9 out of range 0..2"
        );
    }
}
