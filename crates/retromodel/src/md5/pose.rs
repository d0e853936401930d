//! Evaluating an MD5 model: the bind pose from the mesh's joints, a frame
//! of an anim from its hierarchy flags, start indices and base frame, and
//! vertices as weighted sums of points held by joints.
//!
//! Quaternions follow the engines: the file stores `x y z` and
//! `w = -√(1 − x² − y² − z²)` (0 when that is negative; Q2PRO
//! `src/refresh/main.c`, `Quat_ComputeW`), in Hamilton's convention (a
//! point `p` of a joint goes to `position + q p q⁻¹`).

use glam::{Quat, Vec3};

use super::anim::{Md5Anim, COMPONENT_BITS};
use super::mesh::Md5Mesh;
use super::scale::Md5Scale;

/// The quaternion an MD5 file's `x y z` stands for (see the module), made
/// unit length (it is already, unless `x² + y² + z² > 1`, which
/// validation reports).
///
/// ```
/// let q = retromodel::md5::quat([0.0, 0.0, 0.0]);
/// assert_eq!(q.to_array(), [0.0, 0.0, 0.0, -1.0]);
/// ```
pub fn quat(xyz: [f32; 3]) -> Quat {
    let [x, y, z] = xyz;
    let t = 1.0 - x * x - y * y - z * z;
    let w = if t < 0.0 { 0.0 } else { -t.sqrt() };
    let q = Quat::from_xyzw(x, y, z, w);
    let len = q.length();
    if len > 0.0 && len.is_finite() {
        q / len
    } else {
        Quat::IDENTITY
    }
}

/// A joint posed in model space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointPose {
    /// Position.
    pub position: Vec3,
    /// Orientation.
    pub orientation: Quat,
    /// Scale of the points the joint holds (the rerelease's `.md5scale`;
    /// 1 without one).
    pub scale: f32,
}

/// A joint of a frame in its parent's frame, as an anim's frame gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalJoint {
    /// Position relative to the parent (scaled by `scale` where the
    /// `.md5scale` says `scale_positions`).
    pub position: Vec3,
    /// Orientation relative to the parent.
    pub orientation: Quat,
    /// The joint's scale at this frame.
    pub scale: f32,
}

impl Md5Mesh {
    /// The bind pose: the joints as the md5mesh stores them (model space).
    pub fn bind_pose(&self) -> Vec<JointPose> {
        self.joints
            .iter()
            .map(|j| JointPose {
                position: Vec3::from(j.position),
                orientation: quat(j.orientation),
                scale: 1.0,
            })
            .collect()
    }

    /// The positions of mesh `mesh`'s vertices with the joints at `pose`:
    /// `Σ bias · (position + scale · orientation · weight)` over each
    /// vertex's weights (Q2PRO `src/refresh/mesh.c`, `calc_skel_vert`).
    /// Weights whose joint `pose` lacks are left out.
    ///
    /// ```
    /// use retromodel::md5::Md5Mesh;
    /// let text = "MD5Version 10 commandline \"\" numJoints 1 numMeshes 1
    /// joints { \"root\" -1 ( 1 0 0 ) ( 0 0 0 ) }
    /// mesh { shader \"s\" numverts 1 vert 0 ( 0 0 ) 0 1 numtris 0 numweights 1
    ///   weight 0 0 1 ( 0 2 0 ) }";
    /// let mesh = Md5Mesh::parse(text.as_bytes())?;
    /// assert_eq!(mesh.posed_vertices(0, &mesh.bind_pose()), vec![[1.0, 2.0, 0.0]]);
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn posed_vertices(&self, mesh: usize, pose: &[JointPose]) -> Vec<[f32; 3]> {
        let Some(m) = self.meshes.get(mesh) else {
            return Vec::new();
        };
        m.vertices
            .iter()
            .map(|v| {
                let weights = m
                    .weights
                    .get(v.first_weight..v.first_weight.saturating_add(v.weight_count))
                    .unwrap_or_default();
                weights
                    .iter()
                    .filter_map(|w| {
                        let j = pose.get(w.joint)?;
                        let p = j.position + j.scale * (j.orientation * Vec3::from(w.position));
                        Some(w.bias * p)
                    })
                    .sum::<Vec3>()
                    .to_array()
            })
            .collect()
    }
}

impl Md5Anim {
    /// Joint `joint`'s six components at `frame` (position x y z,
    /// orientation x y z): the base frame's, with those the hierarchy's
    /// flags mark taken from the frame in order from the start index.
    pub fn components_of(&self, frame: usize, joint: usize) -> [f32; 6] {
        let data = self.frame(frame);
        let (Some(h), Some(base)) = (self.hierarchy.get(joint), self.base_frame.get(joint)) else {
            return [0.0; 6];
        };
        let mut c = [
            base.position[0],
            base.position[1],
            base.position[2],
            base.orientation[0],
            base.orientation[1],
            base.orientation[2],
        ];
        let mut next = h.start_index;
        for (bit, value) in c.iter_mut().enumerate().take(COMPONENT_BITS as usize) {
            if h.flags & (1 << bit) != 0 {
                if let Some(&v) = data.get(next) {
                    *value = v;
                }
                next = next.saturating_add(1);
            }
        }
        c
    }

    /// Frame `frame`'s joints relative to their parents: the base frame
    /// with the components the hierarchy flags mark taken from the frame,
    /// in order from the joint's start index (Q2PRO
    /// `MD5_BuildFrameSkeleton`), and `scales`' scale for the frame.
    /// Empty past the last frame.
    pub fn local_pose(&self, frame: usize, scales: Option<&Md5Scale>) -> Vec<LocalJoint> {
        if frame >= self.num_frames {
            return Vec::new();
        }
        (0..self.hierarchy.len().min(self.base_frame.len()))
            .map(|i| {
                let c = self.components_of(frame, i);
                let (scale, scale_positions) =
                    scales.map_or((1.0, false), |s| (s.scale(i, frame), s.scales_positions(i)));
                let mut position = Vec3::new(c[0], c[1], c[2]);
                if scale_positions {
                    position *= scale;
                }
                LocalJoint {
                    position,
                    orientation: quat([c[3], c[4], c[5]]),
                    scale,
                }
            })
            .collect()
    }

    /// Frame `frame`'s joints in model space: each local joint composed
    /// with its parent's (`position = parent.position + parent.orientation ·
    /// local.position`, `orientation = parent.orientation · local.orientation`,
    /// normalised). Empty past the last frame.
    pub fn pose(&self, frame: usize, scales: Option<&Md5Scale>) -> Vec<JointPose> {
        let local = self.local_pose(frame, scales);
        let mut out: Vec<JointPose> = Vec::with_capacity(local.len());
        for (h, l) in self.hierarchy.iter().zip(&local) {
            let posed = match h.parent.and_then(|p| out.get(p)) {
                None => JointPose {
                    position: l.position,
                    orientation: l.orientation,
                    scale: l.scale,
                },
                Some(p) => JointPose {
                    position: p.position + p.orientation * l.position,
                    orientation: (p.orientation * l.orientation).normalize(),
                    scale: l.scale,
                },
            };
            out.push(posed);
        }
        out
    }
}
