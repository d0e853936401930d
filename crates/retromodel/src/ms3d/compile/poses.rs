//! What each joint does to a vertex over the animations, for choosing how
//! its weights round to whole percents (see `weights`).
//!
//! MilkShape poses a joint as its parent's pose times its bind local
//! times its key; the keys are fitted (`keys`) so that this is the rigid
//! part of the source's motion relative to the parent joint,
//! `K(t) = L⁻¹ · C(parent)⁻¹ · P(t) · C` (see `keys`). So joint `j`'s
//! global pose is `G(t) = G(parent, t) · rigid(C(parent)⁻¹ · P(t) · C)`
//! and its skinning matrix `S(t) = G(t) · B⁻¹` (`B` its stored bind
//! global): what the written file will do, to the keys' tolerance,
//! computed here from the source without waiting for the keys.
//!
//! The poses are every MilkShape frame of every animation on the
//! timeline and each one's end, thinned evenly to at most
//! [`MOST_POSES`] in all (the error of a weight's rounding changes
//! smoothly with the pose: frames see its peaks well enough).

use glam::{DMat4, DVec3};

use super::joints::{trs, JointPlan};
use super::layout::Layout;
use super::rigid::Rigid;
use super::times::as_posed;
use crate::scene::{Pose, Scene};

/// Most poses the weights' rounding is chosen over.
pub(crate) const MOST_POSES: usize = 48;

/// Joint `j`'s motion relative to its parent joint's (`C(parent)⁻¹ ·
/// P(t) · C`, see the module documentation), from the nodes' local
/// transforms `locals` and the joints' inverse corrections.
pub(crate) fn relative(
    plan: &JointPlan,
    j: usize,
    locals: &[DMat4],
    inverse_corrections: &[Option<DMat4>],
) -> DMat4 {
    let joint = &plan.joints[j];
    let mut m = DMat4::IDENTITY;
    for &node in &joint.path {
        m *= locals[node];
    }
    if let Some(c) = joint.parent.and_then(|p| inverse_corrections[p]) {
        m = c * m;
    }
    if let Some(c) = joint.correction {
        m *= c;
    }
    m
}

/// The skinning matrices of every joint at a few poses of the source.
#[derive(Debug, Clone, Default)]
pub(crate) struct Poses {
    /// Pose after pose, `joints` matrices each.
    matrices: Vec<DMat4>,
    /// Joints per pose.
    joints: usize,
}

impl Poses {
    /// The poses (see the module documentation) of the joints of `plan`
    /// over the animations of `layout`. A pose that is not finite or is
    /// singular is left out (the keys' targets refuse it, saying where).
    pub(crate) fn new(scene: &Scene, plan: &JointPlan, layout: &Layout) -> Poses {
        let joints = plan.joints.len();
        let mut out = Poses {
            matrices: Vec::new(),
            joints,
        };
        if joints == 0 || layout.placed.is_empty() {
            return out;
        }
        let fps = f64::from(layout.effective_fps);
        let mut times: Vec<(usize, f64)> = Vec::new();
        for placed in &layout.placed {
            let d = placed.duration;
            let frames = (d * fps).floor();
            if !(frames.is_finite() && frames >= 0.0) {
                continue;
            }
            let n = (frames as usize).min(MOST_POSES);
            let step = if frames as usize > MOST_POSES {
                d / MOST_POSES as f64
            } else {
                1.0 / fps
            };
            times.extend((0..=n).map(|k| (placed.animation, as_posed(k as f64 * step))));
            if (n as f64 * step) < d {
                times.push((placed.animation, as_posed(d)));
            }
        }
        // Evenly thinned, the first and last kept.
        if times.len() > MOST_POSES {
            let last = times.len() - 1;
            times = (0..MOST_POSES)
                .map(|k| times[k * last / (MOST_POSES - 1)])
                .collect();
        }
        let Ok(mut pose) = Pose::new(scene) else {
            return out;
        };
        let mut locals = vec![DMat4::IDENTITY; scene.nodes.len()];
        let inverse_corrections: Vec<Option<DMat4>> = plan
            .joints
            .iter()
            .map(|j| j.correction.map(|c| c.inverse()))
            .collect();
        let mut globals = vec![Rigid::IDENTITY; joints];
        let mut matrices = Vec::with_capacity(joints);
        out.matrices.reserve(times.len() * joints);
        'poses: for (animation, t) in times {
            pose.sample(scene, animation, t as f32);
            for (i, local) in locals.iter_mut().enumerate() {
                if let Some((tr, r, s)) = pose.local(i) {
                    *local = trs(tr, r, s);
                }
            }
            matrices.clear();
            for (j, joint) in plan.joints.iter().enumerate() {
                let m = relative(plan, j, &locals, &inverse_corrections);
                let Some((rigid, _)) = Rigid::of_matrix(&m) else {
                    continue 'poses;
                };
                // Parents come first.
                let g = match joint.parent {
                    Some(p) if p < j => globals[p].mul(&rigid),
                    _ => rigid,
                };
                globals[j] = g;
                let s = g.mul(&joint.bind_global.inverse()).matrix();
                if !s.is_finite() {
                    continue 'poses;
                }
                matrices.push(s);
            }
            out.matrices.extend_from_slice(&matrices);
        }
        out
    }

    /// How many poses there are.
    pub(crate) fn len(&self) -> usize {
        self.matrices.len().checked_div(self.joints).unwrap_or(0)
    }

    /// Whether there is no pose (no animation, or no joint).
    pub(crate) fn is_empty(&self) -> bool {
        self.matrices.is_empty()
    }

    /// Where joint `joint` puts point `p` in pose `pose` (both in range).
    pub(crate) fn moved(&self, pose: usize, joint: usize, p: DVec3) -> DVec3 {
        self.matrices[pose * self.joints + joint].transform_point3(p)
    }

    /// Whether `joint` is a joint of every pose.
    pub(crate) fn has(&self, joint: usize) -> bool {
        joint < self.joints
    }
}

/// How far a rounding of one vertex's weights puts it from where the
/// source's weights do, at the farthest of the poses.
#[derive(Debug, Clone)]
pub(crate) struct Near<'a> {
    poses: &'a Poses,
    /// The vertex's joints.
    joints: Vec<u8>,
    /// Per pose, per joint: where the joint puts the vertex.
    moved: Vec<DVec3>,
    /// Per pose: where the source's weights put the vertex.
    wanted: Vec<DVec3>,
    /// The largest coordinate of `wanted` (for rounding noise).
    size: f64,
}

impl<'a> Near<'a> {
    /// For vertices posed by `poses`.
    pub(crate) fn new(poses: &'a Poses) -> Near<'a> {
        Near {
            poses,
            joints: Vec::new(),
            moved: Vec::new(),
            wanted: Vec::new(),
            size: 0.0,
        }
    }

    /// Measures the vertex at `p` weighted `(joint, weight)` by `list`
    /// (every joint one of the poses').
    pub(crate) fn prepare(&mut self, p: DVec3, list: &[(u8, f64)]) {
        self.joints.clear();
        self.joints.extend(list.iter().map(|e| e.0));
        self.moved.clear();
        self.wanted.clear();
        self.size = 0.0;
        for pose in 0..self.poses.len() {
            let mut want = DVec3::ZERO;
            for &(j, w) in list {
                let u = self.poses.moved(pose, usize::from(j), p);
                self.moved.push(u);
                want += u * w;
            }
            self.size = self.size.max(want.abs().max_element());
            self.wanted.push(want);
        }
    }

    /// The largest distance over the poses between the vertex weighted
    /// by `stored` (`(joint, percent)`, joints of the prepared list) and
    /// by the prepared weights. Distances within the noise of 32-bit
    /// numbers (1e-7 of the coordinates) are 0, so that roundings no pose
    /// tells apart tie.
    pub(crate) fn distance(&self, stored: &[(u8, u32)]) -> f64 {
        let k = self.joints.len();
        let mut terms = [(0usize, 0.0f64); 4];
        let mut n = 0;
        for &(j, percent) in stored {
            if let Some(x) = self.joints.iter().position(|&e| e == j) {
                if n < terms.len() {
                    terms[n] = (x, f64::from(percent) / 100.0);
                    n += 1;
                }
            }
        }
        let mut worst = 0.0f64;
        for (pose, want) in self.wanted.iter().enumerate() {
            let row = &self.moved[pose * k..pose * k + k];
            let mut at = -*want;
            for &(x, w) in &terms[..n] {
                at += row[x] * w;
            }
            worst = worst.max(at.length_squared());
        }
        (worst.sqrt() - 1e-7 * self.size).max(0.0)
    }
}
