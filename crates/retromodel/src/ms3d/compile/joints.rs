//! Which scene nodes become MilkShape joints, in what order, with what
//! bind pose; and how each mesh's vertices are bound.
//!
//! - **Skins.** Every joint of every skin is one MS3D joint (skins that
//!   share a node must bind it alike: MilkShape has one bind pose per
//!   joint). The helper joints `Scene::from_ms3d` adds are recognised by
//!   their notes: `static` (vertices no joint moves) becomes "no bone"
//!   when it holds whole vertices only, `weight_remainder` (the share of
//!   weights MilkShape leaves out) becomes weights short of 100 %.
//! - **Rigid parts.** A mesh without a skin placed by a node that is
//!   animated (itself or an ancestor, by any chosen animation) is bound
//!   wholly to a joint for that node: a rigid prop, an object hierarchy.
//!   A mesh placed by a node nothing animates is baked where it rests,
//!   its vertices on no bone.
//! - **Hierarchy.** A joint's parent is its nearest ancestor node that is
//!   a joint; nodes between them, and the ancestors of root joints (an
//!   armature node, the exporter's `skeleton_root`), are folded into the
//!   joint's motion. Joints are ordered parents first (MilkShape's
//!   viewer evaluates in file order), keeping the source's order where it
//!   already is so.
//! - **Bind pose.** Each skin's bind shape `W` (see `bind`: the
//!   constant transform every joint's rest global times its inverse bind
//!   matrix gives, the identity for Blender's exports, the dequantisation
//!   for quantized files) is baked into its vertices, which are then the
//!   source's rest pose; a joint's bind global `X` is its rest global
//!   when it agrees with `W`, else `W · IBM⁻¹`; for a rigidly bound mesh,
//!   its node's rest global. The stored bind is `X`'s rigid part `B`
//!   (relative to the parent's stored bind; when every `X` is the rest
//!   global and the parent's is rigid, the rest transform between them,
//!   for a one-node path the node's own translation and rotation,
//!   exactly). What `X` has besides (a constant scale) stays in a
//!   per-joint correction `C = X⁻¹ · B` that the keys absorb: only a
//!   scale that changes over time is motion MilkShape cannot store.
//! - **Scale 0.** glTF hides a part by scaling it to 0. Scale factors
//!   below [`MIN_SCALE`] are taken as it, so that every pose has a rigid
//!   part (the node's rotation and position); a joint at rest at scale 0
//!   is bound where it would be at scale 1. A root joint at the origin
//!   without children scaled to 0 at every time is the `weight_remainder`
//!   helper (the share of weights MilkShape leaves out), note or not.

use std::collections::HashMap;

use glam::{DMat4, DQuat, DVec3};

use super::bind;
use super::rigid::{euler_to_quat, quat_to_euler, Rigid};
use crate::error::{Error, Result};
use crate::scene::inverse_bind::{inverse_bind, InverseBind};
use crate::scene::{Scene, Target};

/// What a skin joint becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// MS3D joint `i`.
    Joint(usize),
    /// `static`: no bone.
    Still,
    /// `weight_remainder`: a share MilkShape leaves out.
    Remainder,
}

/// How a mesh's vertices are bound.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Binding {
    /// By its skin's weights; vertices baked by `bake` (the skin's bind
    /// shape, see `bind`).
    Skinned {
        /// Mesh space to model space at bind time.
        bake: DMat4,
    },
    /// Wholly to one joint; vertices baked by `bake` (into the joint's
    /// bind space).
    Rigid {
        /// The MS3D joint.
        joint: usize,
        /// Mesh space to model space at bind time.
        bake: DMat4,
    },
    /// To no joint; vertices baked by `bake` (where the mesh rests).
    Static {
        /// Mesh space to model space.
        bake: DMat4,
    },
}

/// One MS3D joint.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlannedJoint {
    /// The scene node.
    pub node: usize,
    /// The MS3D parent.
    pub parent: Option<usize>,
    /// The nodes whose local transforms make this joint's local motion,
    /// top-down: below the parent joint's node down to this node (for a
    /// root joint, from the scene's root).
    pub path: Vec<usize>,
    /// The stored bind rotation (Euler angles) and position.
    pub euler: [f32; 3],
    /// See `euler`.
    pub position: [f32; 3],
    /// The stored bind local, read back in `f64`.
    pub bind_local: Rigid,
    /// The stored bind global (chain of stored locals).
    pub bind_global: Rigid,
    /// `C = IBM · B`; `None` when it is the identity (to 1e-5).
    pub correction: Option<DMat4>,
}

/// The skeleton plan.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct JointPlan {
    /// The joints, parents first.
    pub joints: Vec<PlannedJoint>,
    /// Per scene skin, per skin joint: what it became.
    pub slots: Vec<Vec<Slot>>,
    /// Per scene mesh.
    pub bindings: Vec<Binding>,
    /// Whether the bind pose is the scene's rest pose.
    pub rest_is_bind: bool,
}

/// Scale factors smaller than this (0 above all: how glTF hides a part)
/// are taken as this, so that a node scaled to nothing keeps its
/// rotation and the transforms below it stay invertible; what it moves
/// still collapses to within a billionth of its size.
pub(crate) const MIN_SCALE: f64 = 1e-9;

/// A node's local transform `T · R · S` (scale factors below
/// [`MIN_SCALE`] as `MIN_SCALE`).
pub(crate) fn trs(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> DMat4 {
    trs_with(
        t,
        r,
        s.map(|x| {
            if f64::from(x).abs() < MIN_SCALE {
                MIN_SCALE
            } else {
                f64::from(x)
            }
        }),
    )
}

/// [`trs`] with scale factors that are (nearly) 0 taken as 1: where a part
/// hidden by scale 0 would be.
fn trs_open(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> DMat4 {
    trs_with(
        t,
        r,
        s.map(|x| {
            if f64::from(x).abs() < MIN_SCALE {
                1.0
            } else {
                f64::from(x)
            }
        }),
    )
}

fn trs_with(t: [f32; 3], r: [f32; 4], s: [f64; 3]) -> DMat4 {
    let q = DQuat::from_xyzw(r[0].into(), r[1].into(), r[2].into(), r[3].into());
    let q = if q.length() > 0.0 {
        q.normalize()
    } else {
        DQuat::IDENTITY
    };
    DMat4::from_scale_rotation_translation(DVec3::from(s), q, DVec3::from(t.map(f64::from)))
}

/// Which helper joint of `Scene::from_ms3d` a node is, if any: by its
/// note, or, for `weight_remainder` without it (Blender drops notes), by
/// being [`collapsed`].
fn helper(scene: &Scene, node: usize, chosen: &[usize], at_origin: bool) -> Option<Slot> {
    let n = scene.nodes.get(node)?;
    let note = n.extras.get("note").and_then(|v| v.as_str());
    match (n.name.as_str(), note) {
        ("static", Some(crate::ms3d::STATIC_NOTE)) => Some(Slot::Still),
        ("weight_remainder", Some(crate::ms3d::REMAINDER_NOTE)) => Some(Slot::Remainder),
        _ => (at_origin && collapsed(scene, node, chosen)).then_some(Slot::Remainder),
    }
}

/// Whether `node`, a node without children at the origin (its parent
/// there and still, the caller checks), is scaled to nothing at every
/// time of the animations `chosen` (and at rest when one of them does
/// not scale it): its skinning matrix is zero, so the share of weights
/// on it is left out, which is MilkShape's weights short of 100 %,
/// exactly. Blender writes `weight_remainder` so.
fn collapsed(scene: &Scene, node: usize, chosen: &[usize]) -> bool {
    let Some(n) = scene.nodes.get(node) else {
        return false;
    };
    if n.translation != [0.0; 3] || scene.nodes.iter().any(|c| c.parent == Some(node)) {
        return false;
    }
    let zero = |v: &[f32]| !v.is_empty() && v.iter().all(|&x| x == 0.0);
    let mut rest_needed = chosen.is_empty();
    for &a in chosen {
        let Some(anim) = scene.animations.get(a) else {
            continue;
        };
        let mut scaled = false;
        for c in &anim.channels {
            let (Target::Scale { node: t } | Target::Translation { node: t }) = c.target else {
                continue;
            };
            if t != node {
                continue;
            }
            if !zero(&c.values) {
                return false;
            }
            scaled |= matches!(c.target, Target::Scale { .. });
        }
        rest_needed |= !scaled;
    }
    !rest_needed || n.scale == [0.0; 3]
}

/// Whether `m` is the identity to `eps` (linear part) and `eps · scale`
/// (translation).
fn near_identity(m: &DMat4, eps: f64, scale: f64) -> bool {
    let d = *m - DMat4::IDENTITY;
    let cols = d.to_cols_array();
    cols[..12].iter().all(|x| x.abs() <= eps) && cols[12..15].iter().all(|x| x.abs() <= eps * scale)
}

/// The nodes in an order with parents first (the caller has checked that
/// the hierarchy is valid with `Pose::new`).
fn parents_first(scene: &Scene) -> Vec<usize> {
    let n = scene.nodes.len();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at.filter(|&i| i < n && !placed[i]) {
            if chain.len() > n {
                break;
            }
            chain.push(i);
            at = scene.nodes[i].parent;
        }
        for &i in chain.iter().rev() {
            if !placed[i] {
                placed[i] = true;
                order.push(i);
            }
        }
    }
    order
}

/// The plan for `scene`, with `animated` the nodes that the animations
/// `chosen` move (their channels' targets).
pub(crate) fn plan(scene: &Scene, animated: &[bool], chosen: &[usize]) -> Result<JointPlan> {
    let n = scene.nodes.len();
    let order = parents_first(scene);
    let mut rest_global = vec![DMat4::IDENTITY; n];
    let mut rest_open = vec![DMat4::IDENTITY; n];
    let mut moves = vec![false; n];
    for &i in &order {
        let node = &scene.nodes[i];
        let local = trs(node.translation, node.rotation, node.scale);
        let open = trs_open(node.translation, node.rotation, node.scale);
        let parent = node.parent.filter(|&p| p < n);
        (rest_global[i], rest_open[i]) = match parent {
            Some(p) => (rest_global[p] * local, rest_open[p] * open),
            None => (local, open),
        };
        moves[i] = animated.get(i).copied().unwrap_or(false) || parent.is_some_and(|p| moves[p]);
    }
    let bad = |path: String, message: String| Error::InvalidScene { path, message };
    // The skeleton's size, for tolerances in translation.
    let reach = rest_global
        .iter()
        .map(|g| g.w_axis.truncate().length())
        .filter(|l| l.is_finite())
        .fold(0.0f64, f64::max);
    // Skin joints, with their bind globals (`X`, see `bind`): whether
    // each is its rest global.
    let mut joint_nodes: Vec<usize> = Vec::new();
    let mut bind_of: HashMap<usize, DMat4> = HashMap::new();
    let mut is_rest: HashMap<usize, bool> = HashMap::new();
    let mut slots: Vec<Vec<Option<Slot>>> = Vec::new();
    let mut shapes: Vec<DMat4> = Vec::with_capacity(scene.skins.len());
    for (s, skin) in scene.skins.iter().enumerate() {
        let mut skin_slots = Vec::with_capacity(skin.joints.len());
        let mut entries: Vec<(usize, usize, DMat4, DMat4)> = Vec::with_capacity(skin.joints.len());
        for (k, &node) in skin.joints.iter().enumerate() {
            if node >= n {
                return Err(bad(
                    format!("skins[{s}].joints[{k}]"),
                    format!("node {node} out of range 0..{n}"),
                ));
            }
            let parent = scene.nodes[node].parent.filter(|&p| p < n);
            let at_origin = parent.is_none_or(|p| {
                !moves[p] && rest_global[p].w_axis.truncate().length() <= 1e-9 * (1.0 + reach)
            });
            if let Some(h) = helper(scene, node, chosen, at_origin) {
                skin_slots.push(Some(h));
                continue;
            }
            // Refused when singular or not finite (the rule the MD5
            // compile shares).
            let InverseBind { ibm, bind } = inverse_bind(scene, s, k)?;
            entries.push((k, node, ibm, bind));
            skin_slots.push(None);
        }
        let pairs: Vec<(DMat4, DMat4)> = entries
            .iter()
            .map(|&(_, node, ibm, _)| (rest_global[node], ibm))
            .collect();
        let shape = bind::shape(&pairs, reach);
        for (&(k, node, _, bind), &agrees) in entries.iter().zip(&shape.agrees) {
            let x = if agrees {
                rest_global[node]
            } else {
                shape.w * bind
            };
            match bind_of.get(&node) {
                Some(other) => {
                    if !bind::same(&x, other, 1e-5, reach) {
                        return Err(bad(
                            format!("skins[{s}].inverseBindMatrices[{k}]"),
                            format!(
                                "node {node} ({:?}) is bound differently by another skin; an MS3D joint has one bind pose",
                                scene.nodes[node].name
                            ),
                        ));
                    }
                }
                None => {
                    bind_of.insert(node, x);
                    is_rest.insert(node, agrees);
                    joint_nodes.push(node);
                }
            }
        }
        shapes.push(shape.w);
        slots.push(skin_slots);
    }
    // `static` used for part of a vertex is a real joint after all.
    let mut still_is_joint = false;
    for (m, mesh) in scene.meshes.iter().enumerate() {
        let Some(sw) = &mesh.skin else { continue };
        let Some(skin_slots) = slots.get(sw.skin) else {
            return Err(bad(
                format!("meshes[{m}].skin.skin"),
                format!("skin {} out of range 0..{}", sw.skin, scene.skins.len()),
            ));
        };
        for i in 0..sw.joints.len() {
            // Every influence, of every set of four.
            let used = || sw.influences(i).filter(|&(_, w)| w > 0.0);
            let still = used()
                .filter(|&(j, _)| {
                    skin_slots.get(usize::from(j)).copied().flatten() == Some(Slot::Still)
                })
                .count();
            if still > 0 && still < used().count() {
                still_is_joint = true;
            }
        }
    }
    if still_is_joint {
        for (s, skin) in scene.skins.iter().enumerate() {
            for (k, &node) in skin.joints.iter().enumerate() {
                if slots[s][k] == Some(Slot::Still) {
                    slots[s][k] = None;
                    if let std::collections::hash_map::Entry::Vacant(e) = bind_of.entry(node) {
                        e.insert(rest_open[node]);
                        is_rest.insert(node, rest_open[node] == rest_global[node]);
                        joint_nodes.push(node);
                    }
                }
            }
        }
    }
    // Meshes without skins.
    let mut rigid_meshes: Vec<(usize, usize)> = Vec::new();
    let mut bindings = Vec::with_capacity(scene.meshes.len());
    for (m, mesh) in scene.meshes.iter().enumerate() {
        if let Some(sw) = &mesh.skin {
            bindings.push(Binding::Skinned {
                bake: shapes.get(sw.skin).copied().unwrap_or(DMat4::IDENTITY),
            });
            continue;
        }
        match mesh.node {
            Some(node) if node >= n => {
                return Err(bad(
                    format!("meshes[{m}].node"),
                    format!("node {node} out of range 0..{n}"),
                ))
            }
            Some(node) if moves[node] => {
                if let std::collections::hash_map::Entry::Vacant(e) = bind_of.entry(node) {
                    e.insert(rest_open[node]);
                    is_rest.insert(node, rest_open[node] == rest_global[node]);
                    joint_nodes.push(node);
                }
                rigid_meshes.push((m, node));
                bindings.push(Binding::Static {
                    bake: DMat4::IDENTITY,
                });
            }
            Some(node) => bindings.push(Binding::Static {
                bake: rest_global[node],
            }),
            None => bindings.push(Binding::Static {
                bake: DMat4::IDENTITY,
            }),
        }
    }
    // Parents first, keeping the listed order where it already is so.
    let is_joint: HashMap<usize, ()> = joint_nodes.iter().map(|&j| (j, ())).collect();
    let joint_parent = |node: usize| -> Option<usize> {
        let mut at = scene.nodes[node].parent;
        let mut steps = 0;
        while let Some(p) = at.filter(|&p| p < n) {
            if is_joint.contains_key(&p) {
                return Some(p);
            }
            at = scene.nodes[p].parent;
            steps += 1;
            if steps > n {
                break;
            }
        }
        None
    };
    let mut ordered: Vec<usize> = Vec::with_capacity(joint_nodes.len());
    let mut index_of: HashMap<usize, usize> = HashMap::new();
    for &j in &joint_nodes {
        let mut chain = vec![j];
        let mut at = joint_parent(j);
        while let Some(p) = at.filter(|p| !index_of.contains_key(p) && !chain.contains(p)) {
            chain.push(p);
            at = joint_parent(p);
        }
        for &c in chain.iter().rev() {
            if let std::collections::hash_map::Entry::Vacant(e) = index_of.entry(c) {
                e.insert(ordered.len());
                ordered.push(c);
            }
        }
    }
    let rest_is_bind = ordered.iter().all(|&j| is_rest[&j]);
    let mut joints: Vec<PlannedJoint> = Vec::with_capacity(ordered.len());
    for &node in &ordered {
        let parent_node = joint_parent(node);
        let parent = parent_node.and_then(|p| index_of.get(&p).copied());
        let mut path = vec![node];
        let mut at = scene.nodes[node].parent;
        while let Some(p) = at.filter(|&p| p < n && Some(p) != parent_node) {
            path.push(p);
            at = scene.nodes[p].parent;
            if path.len() > n {
                break;
            }
        }
        path.reverse();
        // Relative to a rigid parent's bind, the rest transform between
        // them; else the rigid part of the bind global relative to the
        // parent's stored one (a scale in the parent scales the offset).
        let parent_rigid = parent_node.is_none_or(|p| {
            Rigid::of_matrix(&bind_of[&p]).is_some_and(|(_, residual)| residual < 1e-9)
        });
        let wanted_local = if rest_is_bind && parent_rigid {
            let relative = match parent_node {
                Some(p) => rest_global[p].inverse() * rest_global[node],
                None => rest_global[node],
            };
            Rigid::of_matrix(&relative).map(|r| r.0)
        } else {
            let global = Rigid::of_matrix(&bind_of[&node]).map(|r| r.0);
            let parent_global = match parent {
                Some(p) => joints[p].bind_global,
                None => Rigid::IDENTITY,
            };
            global.map(|g| parent_global.inverse().mul(&g))
        };
        let local = wanted_local.ok_or_else(|| {
            bad(
                format!("nodes[{node}]"),
                "the joint's bind transform is singular or not finite".to_string(),
            )
        })?;
        let euler = quat_to_euler(local.r).map(|x| x as f32);
        let position = local.t.to_array().map(|x| x as f32);
        if euler.iter().chain(&position).any(|x| !x.is_finite()) {
            return Err(bad(
                format!("nodes[{node}]"),
                "the joint's bind transform does not fit 32-bit floats".to_string(),
            ));
        }
        let bind_local = Rigid {
            r: euler_to_quat(euler.map(f64::from)),
            t: DVec3::from(position.map(f64::from)),
        };
        let bind_global = match parent {
            Some(p) => joints[p].bind_global.mul(&bind_local),
            None => bind_local,
        };
        let c = bind_of[&node].inverse() * bind_global.matrix();
        let correction = (!near_identity(&c, 1e-5, 1.0 + bind_global.t.length())).then_some(c);
        joints.push(PlannedJoint {
            node,
            parent,
            path,
            euler,
            position,
            bind_local,
            bind_global,
            correction,
        });
    }
    for (m, node) in rigid_meshes {
        let joint = index_of[&node];
        bindings[m] = Binding::Rigid {
            joint,
            bake: bind_of[&node],
        };
    }
    let slots = slots
        .into_iter()
        .enumerate()
        .map(|(s, list)| {
            list.into_iter()
                .enumerate()
                .map(|(k, slot)| {
                    slot.unwrap_or_else(|| Slot::Joint(index_of[&scene.skins[s].joints[k]]))
                })
                .collect()
        })
        .collect();
    Ok(JointPlan {
        joints,
        slots,
        bindings,
        rest_is_bind,
    })
}

/// The nodes targeted by translation, rotation or scale channels of the
/// animations `chosen`.
pub(crate) fn animated_nodes(scene: &Scene, chosen: &[usize]) -> Vec<bool> {
    let mut out = vec![false; scene.nodes.len()];
    for &a in chosen {
        for c in scene.animations.get(a).map_or(&[][..], |a| &a.channels) {
            if let Target::Translation { node }
            | Target::Rotation { node }
            | Target::Scale { node } = c.target
            {
                if let Some(slot) = out.get_mut(node) {
                    *slot = true;
                }
            }
        }
    }
    out
}
