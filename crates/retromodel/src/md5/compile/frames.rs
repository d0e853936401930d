//! Every frame's joints in MD5 space: the scene posed at the frame's
//! time, each joint's skinning matrix (node transform × inverse bind)
//! carried by its bind placement, split into position, orientation and a
//! uniform scale.

use glam::{DMat3, DMat4, DQuat, DVec3, Mat4};

use super::joints::Skeleton;
use super::{axes, FrameTime, Md5CompileWarning};
use crate::error::Result;
use crate::md5::Mesh;
use crate::scene::{Pose, Scene};

/// A joint at one frame, in MD5 model space.
#[derive(Debug, Clone, Copy)]
pub(super) struct PosedJoint {
    pub position: DVec3,
    pub orientation: DQuat,
    pub scale: f64,
    /// The linear part the joint should have (to measure what a rotation
    /// times `scale` misses).
    pub linear: DMat3,
}

/// Frames × joints, frame after frame.
pub(super) struct Posed {
    pub joints: usize,
    pub frames: Vec<PosedJoint>,
}

impl Posed {
    pub(super) fn frame(&self, k: usize) -> &[PosedJoint] {
        &self.frames[k * self.joints..(k + 1) * self.joints]
    }

    pub(super) fn count(&self) -> usize {
        self.frames.len().checked_div(self.joints).unwrap_or(0)
    }
}

fn split(t: DMat4) -> PosedJoint {
    let linear = DMat3::from_mat4(t);
    let det = linear.determinant();
    let scale = det.abs().cbrt();
    let (_, q, position) = t.to_scale_rotation_translation();
    let orientation = if q.is_finite() && q.length() > 0.0 {
        q.normalize()
    } else {
        DQuat::IDENTITY
    };
    PosedJoint {
        position,
        orientation,
        scale: if scale.is_finite() { scale } else { 1.0 },
        linear,
    }
}

pub(super) fn pose(
    scene: &Scene,
    skeleton: &Skeleton,
    frames: &[FrameTime],
    scale: f32,
) -> Result<Posed> {
    let mut pose = Pose::new(scene)?;
    let scale = f64::from(scale);
    let n = skeleton.joints.len();
    let mut out = Vec::with_capacity(frames.len() * n);
    for f in frames {
        pose.sample(scene, f.animation.unwrap_or(usize::MAX), f.seconds);
        for j in &skeleton.joints {
            let g = j
                .node
                .and_then(|n| pose.node_matrix(n))
                .map_or(DMat4::IDENTITY, |g| Mat4::from_cols_array(&g).as_dmat4());
            let (p, q) = j.bind;
            let t = axes::transform(g * j.ibm, scale) * DMat4::from_rotation_translation(q, p);
            out.push(split(t));
        }
    }
    Ok(Posed {
        joints: n,
        frames: out,
    })
}

/// Joints whose transform is not a rotation times a uniform scale: the
/// worst distance a weight's point moves from where the scene puts it,
/// when more than rounding (1e-5 of the point's distance from the joint).
pub(super) fn uniformity_warnings(
    skeleton: &Skeleton,
    meshes: &[Mesh],
    posed: &Posed,
) -> Vec<Md5CompileWarning> {
    let mut warnings = Vec::new();
    for (i, joint) in skeleton.joints.iter().enumerate() {
        let points: Vec<DVec3> = meshes
            .iter()
            .flat_map(|m| m.weights.iter())
            .filter(|w| w.joint == i)
            .map(|w| glam::Vec3::from(w.position).as_dvec3())
            .collect();
        let mut worst = (0.0f64, 0usize);
        for k in 0..posed.count() {
            let j = posed.frame(k)[i];
            let nearest = DMat3::from_quat(j.orientation) * j.scale;
            let off = j.linear - nearest;
            let gap = off.x_axis.abs().max_element()
                + off.y_axis.abs().max_element()
                + off.z_axis.abs().max_element();
            if gap <= 1e-9 * j.scale.max(1e-9) {
                continue;
            }
            let error = points
                .iter()
                .map(|&p| (off * p).length())
                .fold(0.0, f64::max);
            if error > worst.0 {
                worst = (error, k);
            }
        }
        // f32 posing leaves rotations orthogonal to about 1e-7: a point
        // `r` from its joint moves that much times `r` without any shear.
        let radius = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        if worst.0 > 1e-5 * radius {
            warnings.push(Md5CompileWarning::NotUniform {
                joint: joint.name.clone(),
                frame: worst.1,
                error: worst.0 as f32,
            });
        }
    }
    warnings
}
