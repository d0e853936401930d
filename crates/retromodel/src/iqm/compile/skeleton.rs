//! Which joints the IQM gets (see [`compile`](super)): one per scene node
//! that moves vertices (a skin's joint, a node placing a mesh that is not
//! skinned) and per ancestor of one that moves or stands anywhere but at
//! its parent's origin, parents first, then an `origin` joint for meshes
//! that neither a skin nor a node moves; each with its bind placement in
//! scene space. A node that only holds a skinned mesh (glTF ignores its
//! transform) or a still root at the identity (the common root a glTF
//! exporter adds above a skeleton) gets none: the file read back has the
//! source's joints, no more.

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
    /// Per scene node, its joint (or its nearest kept ancestor's).
    pub of_node: Vec<Option<usize>>,
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
        let needed = needed_nodes(scene, &bind);
        let mut joints = Vec::with_capacity(n + 1);
        // Per node, its joint or its nearest kept ancestor's.
        let mut of_node: Vec<Option<usize>> = vec![None; n];
        for &node in pose.node_order() {
            let parent = scene.nodes[node].parent.and_then(|p| of_node[p]);
            if !needed[node] {
                of_node[node] = parent;
                continue;
            }
            let rest = pose
                .node_matrix(node)
                .map_or(DMat4::IDENTITY, |m| Mat4::from_cols_array(&m).as_dmat4());
            of_node[node] = Some(joints.len());
            joints.push(SkeletonJoint {
                node: Some(node),
                parent,
                name: scene.nodes[node].name.clone(),
                bind: bind[node].unwrap_or(rest),
            });
        }
        let loose = scene
            .meshes
            .iter()
            .any(|m| m.skin.is_none() && m.node.is_none_or(|x| x >= n));
        let origin = (!joints.is_empty() && loose).then(|| {
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

    /// The joint that node `node` moves with (its own, or its nearest
    /// kept ancestor's).
    pub(super) fn joint_of(&self, node: usize) -> Option<usize> {
        self.of_node.get(node).copied().flatten()
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

/// Which nodes become joints (see the module documentation).
fn needed_nodes(scene: &Scene, bind: &[Option<DMat4>]) -> Vec<bool> {
    use crate::scene::Target;
    let n = scene.nodes.len();
    let mut needed: Vec<bool> = bind.iter().map(Option::is_some).collect();
    for m in &scene.meshes {
        if let (None, Some(node)) = (&m.skin, m.node) {
            if node < n {
                needed[node] = true;
            }
        }
    }
    let mut animated = vec![false; n];
    for c in scene.animations.iter().flat_map(|a| &a.channels) {
        if let Target::Translation { node } | Target::Rotation { node } | Target::Scale { node } =
            c.target
        {
            if node < n {
                animated[node] = true;
            }
        }
    }
    let still = |i: usize| {
        let x = &scene.nodes[i];
        !animated[i]
            && x.translation == [0.0; 3]
            && x.rotation == [0.0, 0.0, 0.0, 1.0]
            && x.scale == [1.0; 3]
    };
    // Ancestors of what is needed, unless they stand still at the origin
    // (the parents form no cycle: `Pose::new` checked).
    for i in 0..n {
        if !needed[i] {
            continue;
        }
        let mut at = scene.nodes[i].parent;
        while let Some(p) = at.filter(|&p| p < n) {
            if !still(p) {
                needed[p] = true;
            }
            at = scene.nodes[p].parent;
        }
    }
    needed
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
