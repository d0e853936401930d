//! The files' contents from the posed joints: the md5mesh's joints at
//! their bind placements, the anim's components relative to the parent
//! as the engine rebuilds it (so rounding does not add up down a chain),
//! only the components that change animated, bounds of the posed mesh,
//! and the `.md5scale`.

use glam::{DQuat, DVec3, Vec3};

use super::frames::Posed;
use super::joints::Skeleton;
use super::Md5CompileOptions;
use crate::md5::{BaseJoint, HierarchyJoint, Joint, JointScale, Md5Anim, Md5Mesh, Md5Scale, Mesh};

/// A scale this close to 1 is 1 (an `f32`'s rounding of a rotation).
const SCALE_ONE: f64 = 1e-6;

/// The stored `x y z` of `q` (made `w ≤ 0`, as the engines rebuild `w`).
pub(super) fn stored(q: DQuat) -> [f32; 3] {
    let q = if q.w > 0.0 { -q } else { q };
    q.xyz().as_vec3().to_array()
}

/// What stored `x y z` mean: `w = -√(1 − x² − y² − z²)` (exactly, here
/// in `f64`; the engines' `f32` rounds it once more).
pub(super) fn rebuilt(xyz: [f32; 3]) -> DQuat {
    let v = Vec3::from(xyz).as_dvec3();
    let w = -(1.0 - v.length_squared()).max(0.0).sqrt();
    DQuat::from_xyzw(v.x, v.y, v.z, w).normalize()
}

/// A joint scaled to 0 at every frame (how glTF hides a part, and
/// `Scene::from_ms3d`'s `weight_remainder`) moves its points to itself:
/// the same as points at the joint with scale 1, which needs no
/// `.md5scale` (and no scale of 0, which validation reports). Returns
/// how many vertices have a share on such a joint: their weights' points
/// no longer agree in the bind pose (a share of the vertex sits at the
/// joint, as the source places it at every frame).
fn unscale_hidden(posed: &mut Posed, meshes: &mut [Mesh]) -> usize {
    let n = posed.joints;
    let mut hidden_joints = vec![false; n];
    for (i, hidden_joint) in hidden_joints.iter_mut().enumerate() {
        let hidden =
            posed.count() > 0 && (0..posed.count()).all(|k| posed.frames[k * n + i].scale == 0.0);
        if !hidden {
            continue;
        }
        for k in 0..posed.count() {
            posed.frames[k * n + i].scale = 1.0;
        }
        *hidden_joint = true;
        for w in meshes.iter_mut().flat_map(|m| m.weights.iter_mut()) {
            if w.joint == i {
                w.position = [0.0; 3];
            }
        }
    }
    meshes
        .iter()
        .flat_map(|m| {
            m.vertices.iter().filter(|v| {
                m.weights
                    .get(v.first_weight..v.first_weight + v.weight_count)
                    .is_some_and(|ws| {
                        ws.iter().any(|w| {
                            w.bias > 0.0 && hidden_joints.get(w.joint).copied().unwrap_or(false)
                        })
                    })
            })
        })
        .count()
}

/// The md5mesh, md5anim and md5scale, and how many vertices keep a share
/// at a joint scaled to nothing (see `unscale_hidden`).
pub(super) fn assemble(
    skeleton: &Skeleton,
    mut meshes: Vec<Mesh>,
    mut posed: Posed,
    options: &Md5CompileOptions,
) -> (Md5Mesh, Md5Anim, Option<Md5Scale>, usize) {
    let shared = unscale_hidden(&mut posed, &mut meshes);
    let posed = &posed;
    let n = skeleton.joints.len();
    let joints: Vec<Joint> = skeleton
        .joints
        .iter()
        .map(|j| Joint {
            name: j.name.clone(),
            parent: j.parent,
            position: j.bind.0.as_vec3().to_array(),
            orientation: stored(j.bind.1),
            line: 0,
        })
        .collect();
    let frames = posed.count();
    // Every joint's six numbers at every frame.
    let mut values: Vec<[f32; 6]> = Vec::with_capacity(frames * n);
    let mut scales: Vec<Vec<f32>> = vec![Vec::with_capacity(frames); n];
    for k in 0..frames {
        let mut engine: Vec<(DVec3, DQuat)> = Vec::with_capacity(n);
        for (i, (j, p)) in skeleton.joints.iter().zip(posed.frame(k)).enumerate() {
            let (position, orientation) = match j.parent.and_then(|p| engine.get(p)) {
                None => (p.position, p.orientation),
                Some(&(pp, pq)) => {
                    let inv = pq.inverse();
                    (inv * (p.position - pp), inv * p.orientation)
                }
            };
            let pos = position.as_vec3().to_array();
            let q = stored(orientation);
            values.push([pos[0], pos[1], pos[2], q[0], q[1], q[2]]);
            let local = (Vec3::from(pos).as_dvec3(), rebuilt(q));
            engine.push(match j.parent.and_then(|p| engine.get(p)) {
                None => local,
                Some(&(pp, pq)) => (pp + pq * local.0, (pq * local.1).normalize()),
            });
            let s = if (p.scale - 1.0).abs() <= SCALE_ONE {
                1.0
            } else {
                p.scale as f32
            };
            scales[i].push(s);
        }
    }
    let first = |i: usize| values.get(i).copied().unwrap_or_default();
    let mut hierarchy = Vec::with_capacity(n);
    let mut start = 0;
    for (i, j) in skeleton.joints.iter().enumerate() {
        let base = first(i);
        let mut flags = 0u32;
        for c in 0..6 {
            if (0..frames).any(|k| values[k * n + i][c].to_bits() != base[c].to_bits()) {
                flags |= 1 << c;
            }
        }
        hierarchy.push(HierarchyJoint {
            name: j.name.clone(),
            parent: j.parent,
            flags,
            start_index: start,
            line: 0,
        });
        start += flags.count_ones() as usize;
    }
    let mut components = Vec::with_capacity(frames * start);
    for k in 0..frames {
        for (i, h) in hierarchy.iter().enumerate() {
            let v = values[k * n + i];
            components.extend((0..6).filter(|c| h.flags & (1 << c) != 0).map(|c| v[c]));
        }
    }
    let base_frame = (0..n)
        .map(|i| {
            let b = first(i);
            BaseJoint {
                position: [b[0], b[1], b[2]],
                orientation: [b[3], b[4], b[5]],
            }
        })
        .collect();
    let scale_joints: Vec<JointScale> = scales
        .iter()
        .enumerate()
        .filter(|(_, s)| s.iter().any(|&x| x != 1.0))
        .map(|(i, s)| JointScale {
            joint: skeleton.joints[i].name.clone(),
            index: Some(i),
            scale_positions: false,
            frames: s.iter().enumerate().map(|(k, &x)| (k as u64, x)).collect(),
        })
        .collect();
    let scale = (!scale_joints.is_empty()).then_some(Md5Scale {
        joints: scale_joints,
    });
    let mesh = Md5Mesh {
        commandline: options.commandline.clone(),
        joints,
        meshes,
    };
    let mut anim = Md5Anim {
        commandline: options.commandline.clone(),
        frame_rate: options.fps,
        num_animated_components: start,
        hierarchy,
        bounds: Vec::with_capacity(frames),
        base_frame,
        components,
        num_frames: frames,
    };
    anim.bounds = (0..frames)
        .map(|k| bounds(&mesh, &anim, scale.as_ref(), k))
        .collect();
    (mesh, anim, scale, shared)
}

/// The posed mesh's box at frame `k`, as the library's posing (the
/// engines') evaluates what is written.
fn bounds(mesh: &Md5Mesh, anim: &Md5Anim, scale: Option<&Md5Scale>, k: usize) -> [[f32; 3]; 2] {
    let pose = anim.pose(k, scale);
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for m in 0..mesh.meshes.len() {
        for p in mesh.posed_vertices(m, &pose) {
            for c in 0..3 {
                lo[c] = lo[c].min(p[c]);
                hi[c] = hi[c].max(p[c]);
            }
        }
    }
    if lo[0] > hi[0] {
        return [[0.0; 3]; 2];
    }
    [lo, hi]
}
