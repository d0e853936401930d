//! Which joints the MD5 gets (see the module documentation of
//! [`compile`](super)): each is a scene node with a matrix taking bind
//! space to the node's space (a skin's inverse bind matrix; for a node
//! placing a rigid mesh, the inverse of its rest transform), its parent,
//! a unique name and its bind placement in MD5 space.

use glam::{DMat4, DQuat, DVec3, Mat4};

use super::axes;
use crate::error::Result;
use crate::scene::inverse_bind::{inverse_bind, InverseBind};
use crate::scene::{Pose, Scene};

/// One MD5 joint.
#[derive(Debug, Clone)]
pub(super) struct SkeletonJoint {
    /// The scene node whose transform it follows (`None`: the origin).
    pub node: Option<usize>,
    /// Bind space to the node's space.
    pub ibm: DMat4,
    /// Parent MD5 joint (always an earlier one).
    pub parent: Option<usize>,
    /// Unique name.
    pub name: String,
    /// Bind placement in MD5 space: position and orientation.
    pub bind: (DVec3, DQuat),
}

/// The joints, and where skins and rigid meshes find theirs.
#[derive(Debug, Clone)]
pub(super) struct Skeleton {
    pub joints: Vec<SkeletonJoint>,
    /// Per skin, per skin joint: the MD5 joint.
    pub skin_joints: Vec<Vec<usize>>,
    /// Per scene mesh: the MD5 joint of a mesh that is not skinned.
    pub rigid: Vec<Option<usize>>,
    /// The joint at the origin that holds skinned vertices with no weight
    /// on any joint (`None` when every skinned vertex has one).
    pub origin: Option<usize>,
}

fn dmat(m: &[f32; 16]) -> DMat4 {
    Mat4::from_cols_array(m).as_dmat4()
}

/// How many skinned vertices have no weight on a joint of their skin
/// (every weight 0, or naming a joint the skin lacks): `Pose` places
/// them at the origin.
pub(super) fn unweighted(scene: &Scene, skin_joints: &[Vec<usize>]) -> usize {
    (0..scene.meshes.len())
        .filter_map(|m| {
            let s = skinned(scene, m)?;
            let w = scene.meshes[m].skin.as_ref()?;
            let joints = skin_joints.get(s)?;
            Some(
                (0..scene.meshes[m].positions.len())
                    .filter(|&v| {
                        w.influences(v)
                            .all(|(joint, _)| joints.get(usize::from(joint)).is_none())
                    })
                    .count(),
            )
        })
        .sum()
}

/// Whether mesh `m` is skinned as `Pose::mesh_vertices` skins it.
pub(super) fn skinned(scene: &Scene, m: usize) -> Option<usize> {
    let mesh = scene.meshes.get(m)?;
    let s = mesh.skin.as_ref()?;
    (s.skin < scene.skins.len() && s.fits(mesh.positions.len())).then_some(s.skin)
}

/// The placement `(position, orientation)` as the md5mesh will hold it:
/// the position in `f32`, the orientation as its stored `x y z` with the
/// `w` the engines rebuild, so that weights computed against it put
/// every vertex where the file's joints do.
fn as_written((position, orientation): (DVec3, DQuat)) -> (DVec3, DQuat) {
    (
        position.as_vec3().as_dvec3(),
        super::finish::rebuilt(super::finish::stored(orientation)),
    )
}

/// A transform's rigid part (translation and rotation; a mirror's
/// rotation is what glam's decomposition gives).
pub(super) fn rigid(m: DMat4) -> (DVec3, DQuat) {
    let (_, q, t) = m.to_scale_rotation_translation();
    let q = if q.is_finite() && q.length() > 0.0 {
        q.normalize()
    } else {
        DQuat::IDENTITY
    };
    (if t.is_finite() { t } else { DVec3::ZERO }, q)
}

impl Skeleton {
    pub(super) fn new(scene: &Scene, scale: f32) -> Result<Skeleton> {
        let rest = Pose::new(scene)?; // checks the hierarchy has no cycle
        let depth = |n: usize| {
            let mut d = 0;
            let mut at = scene.nodes.get(n).and_then(|x| x.parent);
            while let Some(p) = at {
                d += 1;
                at = scene.nodes.get(p).and_then(|x| x.parent);
                if d > scene.nodes.len() {
                    break;
                }
            }
            d
        };
        let mut joints: Vec<SkeletonJoint> = Vec::new();
        // Per joint: the bind transform in scene space.
        let mut binds: Vec<DMat4> = Vec::new();
        let mut skin_joints = Vec::with_capacity(scene.skins.len());
        for (s, skin) in scene.skins.iter().enumerate() {
            let mut order: Vec<usize> = (0..skin.joints.len()).collect();
            order.sort_by_key(|&k| depth(skin.joints[k]));
            let mut md5 = vec![usize::MAX; skin.joints.len()];
            for k in order {
                let node = skin.joints[k];
                // The nearest ancestor in this skin, placed already (it is
                // shallower).
                let mut parent = None;
                let mut at = scene.nodes.get(node).and_then(|x| x.parent);
                let mut steps = 0;
                while let (Some(p), None) = (at, parent) {
                    parent = skin
                        .joints
                        .iter()
                        .position(|&j| j == p)
                        .map(|kk| md5[kk])
                        .filter(|&j| j != usize::MAX);
                    at = scene.nodes.get(p).and_then(|x| x.parent);
                    steps += 1;
                    if steps > scene.nodes.len() {
                        break;
                    }
                }
                let name = scene
                    .nodes
                    .get(node)
                    .map(|n| n.name.clone())
                    .unwrap_or_default();
                // Refused when singular or not finite (the rule the MS3D
                // compile shares).
                let InverseBind { ibm, bind } = inverse_bind(scene, s, k)?;
                md5[k] = joints.len();
                binds.push(bind);
                joints.push(SkeletonJoint {
                    node: Some(node),
                    ibm,
                    parent,
                    name,
                    bind: (DVec3::ZERO, DQuat::IDENTITY),
                });
            }
            skin_joints.push(md5);
        }
        let mut rigid_of_node: Vec<Option<usize>> = vec![None; scene.nodes.len()];
        let mut origin = None;
        let mut rigid_meshes = vec![None; scene.meshes.len()];
        for (m, mesh) in scene.meshes.iter().enumerate() {
            if skinned(scene, m).is_some() {
                continue;
            }
            let node = mesh.node.filter(|&n| n < scene.nodes.len());
            let slot = match node {
                Some(n) => &mut rigid_of_node[n],
                None => &mut origin,
            };
            let j = *slot.get_or_insert_with(|| {
                let g = node
                    .and_then(|n| rest.node_matrix(n))
                    .map_or(DMat4::IDENTITY, |g| dmat(&g));
                let ibm = g.inverse();
                // What the meshes place the points with (`meshes`).
                binds.push(ibm.inverse());
                joints.push(SkeletonJoint {
                    node,
                    ibm,
                    parent: None,
                    name: node
                        .and_then(|n| scene.nodes.get(n))
                        .map_or_else(|| "origin".to_string(), |n| n.name.clone()),
                    bind: (DVec3::ZERO, DQuat::IDENTITY),
                });
                joints.len() - 1
            });
            rigid_meshes[m] = Some(j);
        }
        // A skinned vertex none of whose weights names a joint is where
        // glTF's skinning puts it, the origin (the sum of no matrices; three.js
        // alike): it hangs on the origin joint, made for it if no mesh made it.
        let unweighted_origin = (unweighted(scene, &skin_joints) > 0).then(|| {
            *origin.get_or_insert_with(|| {
                binds.push(DMat4::IDENTITY);
                joints.push(SkeletonJoint {
                    node: None,
                    ibm: DMat4::IDENTITY,
                    parent: None,
                    name: "origin".to_string(),
                    bind: (DVec3::ZERO, DQuat::IDENTITY),
                });
                joints.len() - 1
            })
        });
        let scale = f64::from(scale);
        for (j, b) in joints.iter_mut().zip(binds) {
            let b = if b.is_finite() { b } else { DMat4::IDENTITY };
            j.bind = as_written(rigid(axes::transform(b, scale)));
        }
        unique_names(&mut joints);
        Ok(Skeleton {
            joints,
            skin_joints,
            rigid: rigid_meshes,
            origin: unweighted_origin,
        })
    }
}

/// Names made unique (empty ones `joint_N`), a repeat getting `.N`.
fn unique_names(joints: &mut [SkeletonJoint]) {
    let mut seen = std::collections::HashSet::new();
    for (i, j) in joints.iter_mut().enumerate() {
        if j.name.is_empty() {
            j.name = format!("joint_{i}");
        }
        let mut name = j.name.clone();
        let mut n = 1;
        while !seen.insert(name.clone()) {
            name = format!("{}.{n}", j.name);
            n += 1;
        }
        j.name = name;
    }
}
