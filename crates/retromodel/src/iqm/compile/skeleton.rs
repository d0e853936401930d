//! Which joints the IQM gets (see [`compile`](super)): one per scene
//! node, parents first, then an `origin` joint for meshes that neither a
//! skin nor a node moves; each with its bind placement in scene space.

use glam::{DMat4, DQuat, DVec3, Mat4};

use crate::error::Result;
use crate::scene::inverse_bind::inverse_bind;
use crate::scene::{Pose, Scene};

/// One IQM joint.
#[derive(Debug, Clone)]
pub(super) struct SkeletonJoint {
    /// The scene node it follows (`None`: the origin).
    pub node: Option<usize>,
    /// Its parent joint (an earlier one).
    pub parent: Option<usize>,
    /// Its name.
    pub name: String,
    /// Its bind placement in scene space.
    pub bind: DMat4,
}

/// The joints, and where nodes find theirs.
#[derive(Debug, Clone)]
pub(super) struct Skeleton {
    pub joints: Vec<SkeletonJoint>,
    /// Per scene node, its joint.
    pub of_node: Vec<usize>,
    /// The joint of meshes nothing moves.
    pub origin: Option<usize>,
}

/// Scene axes (glTF's: y up, z forward) as Quake's, the inverse of
/// [`iqm_axes`](crate::iqm::iqm_axes).
pub(super) fn quake_axes(v: [f32; 3]) -> [f32; 3] {
    [v[2], v[0], v[1]]
}

/// A transform's translation, rotation (`[x, y, z, w]`) and scale in
/// Quake's axes.
pub(super) fn quake_trs(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let [x, y, z] = quake_axes([r[0], r[1], r[2]]);
    (quake_axes(t), [x, y, z, r[3]], quake_axes(s))
}

impl Skeleton {
    pub(super) fn new(scene: &Scene) -> Result<Skeleton> {
        let pose = Pose::new(scene)?;
        let n = scene.nodes.len();
        let mut bind: Vec<Option<DMat4>> = vec![None; n];
        for (s, skin) in scene.skins.iter().enumerate() {
            for (k, &node) in skin.joints.iter().enumerate() {
                if node < n && bind[node].is_none() {
                    bind[node] = Some(inverse_bind(scene, s, k)?.bind);
                }
            }
        }
        let mut joints = Vec::with_capacity(n + 1);
        let mut of_node = vec![0; n];
        for &node in pose.node_order() {
            let rest = pose
                .node_matrix(node)
                .map_or(DMat4::IDENTITY, |m| Mat4::from_cols_array(&m).as_dmat4());
            of_node[node] = joints.len();
            joints.push(SkeletonJoint {
                node: Some(node),
                parent: scene.nodes[node].parent.map(|p| of_node[p]),
                name: scene.nodes[node].name.clone(),
                bind: bind[node].unwrap_or(rest),
            });
        }
        let loose = scene
            .meshes
            .iter()
            .any(|m| m.skin.is_none() && m.node.is_none_or(|x| x >= n));
        let origin = (n > 0 && loose).then(|| {
            joints.push(SkeletonJoint {
                node: None,
                parent: None,
                name: "origin".to_string(),
                bind: DMat4::IDENTITY,
            });
            joints.len() - 1
        });
        Ok(Skeleton {
            joints,
            of_node,
            origin,
        })
    }

    /// The joints' bind transforms relative to their parents, as IQM
    /// joints in Quake's axes.
    pub(super) fn write_joints(&self, model: &mut crate::iqm::Iqm) {
        for j in &self.joints {
            let parent = j.parent.map_or(DMat4::IDENTITY, |p| self.joints[p].bind);
            let local = parent.inverse() * j.bind;
            let (s, r, t) = decompose(&local);
            let (t, r, s) = quake_trs(t, r, s);
            let name = model.intern(&j.name);
            model.joints.push(crate::iqm::Joint {
                name,
                parent: j.parent.map_or(-1, |p| p as i32),
                translate: t,
                rotate: r,
                scale: s,
            });
        }
    }
}

/// A matrix's scale, rotation and translation (the nearest, for one with
/// shear), as `f32`.
pub(super) fn decompose(m: &DMat4) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let (s, r, t): (DVec3, DQuat, DVec3) = m.to_scale_rotation_translation();
    let r = if r.is_finite() {
        r.normalize()
    } else {
        DQuat::IDENTITY
    };
    (
        s.as_vec3().to_array(),
        r.as_quat().to_array(),
        t.as_vec3().to_array(),
    )
}
