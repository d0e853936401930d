//! Posing an IQM: each frame's joint transforms from its 16-bit channels,
//! the joints' matrices, and skinned vertices, as lsalzman/iqm's demo
//! (`demo/demo.cpp`, `loadiqmanims` and `animateiqm`) and ioquake3
//! (`tr_model_iqm.c`, `ComputePoseMats`) compute them.

use glam::{Mat4, Quat, Vec3};

use super::{Iqm, Joint, Pose, CHANNELS};

/// A joint's transform relative to its parent: translation, rotation
/// (`[x, y, z, w]`) and scale, applied scale first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointTransform {
    /// Translation.
    pub translate: [f32; 3],
    /// Rotation quaternion `[x, y, z, w]`, as stored (not normalised).
    pub rotate: [f32; 4],
    /// Scale.
    pub scale: [f32; 3],
}

impl JointTransform {
    /// The matrix `T · R · S` (the rotation normalised, as the engines
    /// normalise it).
    pub fn matrix(&self) -> Mat4 {
        let q = Quat::from_array(self.rotate);
        let q = if q.length_squared() > 0.0 {
            q.normalize()
        } else {
            Quat::IDENTITY
        };
        Mat4::from_scale_rotation_translation(Vec3::from(self.scale), q, Vec3::from(self.translate))
    }

    /// The ten channels in pose order: translation, rotation, scale.
    pub fn channels(&self) -> [f32; CHANNELS] {
        let [tx, ty, tz] = self.translate;
        let [rx, ry, rz, rw] = self.rotate;
        let [sx, sy, sz] = self.scale;
        [tx, ty, tz, rx, ry, rz, rw, sx, sy, sz]
    }

    /// A transform from ten channels in pose order.
    pub fn from_channels(c: [f32; CHANNELS]) -> Self {
        JointTransform {
            translate: [c[0], c[1], c[2]],
            rotate: [c[3], c[4], c[5], c[6]],
            scale: [c[7], c[8], c[9]],
        }
    }
}

impl From<&Joint> for JointTransform {
    fn from(j: &Joint) -> Self {
        JointTransform {
            translate: j.translate,
            rotate: j.rotate,
            scale: j.scale,
        }
    }
}

/// One frame decoded: every pose's local transform.
#[derive(Debug, Clone, PartialEq)]
pub struct FramePose {
    /// One transform per pose, relative to its parent.
    pub locals: Vec<JointTransform>,
}

impl Pose {
    /// The channels of one frame, reading this pose's masked values from
    /// `values` (advanced past them); a value missing from a short frame
    /// counts as 0.
    pub fn decode(&self, values: &mut impl Iterator<Item = u16>) -> JointTransform {
        let mut c = self.channel_offset;
        for (k, slot) in c.iter_mut().enumerate() {
            if self.mask & (1 << k) != 0 {
                let v = values.next().unwrap_or(0);
                *slot += f32::from(v) * self.channel_scale[k];
            }
        }
        JointTransform::from_channels(c)
    }

    /// How many values this pose takes from each frame.
    pub fn channel_count(&self) -> u32 {
        (self.mask & 0x3ff).count_ones()
    }
}

/// A pose's transform from its values in one frame (`mine`: the masked
/// channels' values in channel order; a short one leaves the rest at
/// their offsets). Channel `k` takes the value at its rank among the
/// masked channels; every channel is computed on its own and the
/// transform written once, so the ten come out as independent
/// multiply-adds, with no scalar store read back as a vector (a
/// store-forwarding stall that made this twice as slow).
#[inline(always)]
pub(super) fn decoded(pose: &Pose, mine: &[u16]) -> JointTransform {
    let mask = pose.mask & 0x3ff;
    let channel = |k: usize| {
        let offset = pose.channel_offset[k];
        if mask & (1 << k) == 0 {
            return offset;
        }
        let rank = (mask & ((1 << k) - 1)).count_ones() as usize;
        match mine.get(rank) {
            Some(&v) => offset + f32::from(v) * pose.channel_scale[k],
            None => offset,
        }
    };
    JointTransform {
        translate: [channel(0), channel(1), channel(2)],
        rotate: [channel(3), channel(4), channel(5), channel(6)],
        scale: [channel(7), channel(8), channel(9)],
    }
}

impl Iqm {
    /// Frame `frame`'s local transforms, one per pose; `None` past the
    /// last frame.
    ///
    /// ```
    /// let model = retromodel::iqm::sample::sample_model();
    /// let pose = model.frame_pose(1).unwrap();
    /// assert_eq!(pose.locals.len(), model.poses.len());
    /// ```
    pub fn frame_pose(&self, frame: usize) -> Option<FramePose> {
        let mut locals = vec![
            JointTransform {
                translate: [0.0; 3],
                rotate: [0.0, 0.0, 0.0, 1.0],
                scale: [1.0; 3],
            };
            self.poses.len()
        ];
        self.frame_into(frame, &mut locals)
            .then_some(FramePose { locals })
    }

    /// Frame `frame`'s local transforms written into `out` (one per pose;
    /// a shorter buffer gets the first ones), without allocating: what a
    /// game loop or an importer making animation keys calls for every
    /// frame. Returns `false`, writing nothing, past the last frame; a
    /// frame shorter than the masks ask reads the missing values as 0.
    ///
    /// ```
    /// use retromodel::iqm::JointTransform;
    /// let model = retromodel::iqm::sample::sample_model();
    /// let mut out = vec![JointTransform::from(&model.joints[0]); model.poses.len()];
    /// assert!(model.frame_into(1, &mut out));
    /// assert_eq!(out[1].rotate[3], std::f32::consts::FRAC_1_SQRT_2);
    /// assert!(!model.frame_into(2, &mut out));
    /// ```
    pub fn frame_into(&self, frame: usize, out: &mut [JointTransform]) -> bool {
        if frame >= self.num_frames as usize {
            return false;
        }
        let nc = self.num_framechannels as usize;
        let start = frame.saturating_mul(nc);
        let values = self
            .frames
            .get(start..start.saturating_add(nc))
            .unwrap_or(&[]);
        let mut at = 0;
        for (pose, slot) in self.poses.iter().zip(out.iter_mut()) {
            let mask = pose.mask & 0x3ff;
            let count = mask.count_ones() as usize;
            // The pose's values, or as many as the frame still has.
            let mine = values.get(at..).unwrap_or(&[]);
            let mine = &mine[..count.min(mine.len())];
            *slot = decoded(pose, mine);
            at += count;
        }
        true
    }

    /// The world matrices of local transforms under `parent(i)` (each
    /// parent before its child; a parent that is not earlier is a root).
    pub fn world_matrices(locals: &[Mat4], parent: impl Fn(usize) -> i32) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(locals.len());
        for (i, m) in locals.iter().enumerate() {
            let p = parent(i);
            let world = match usize::try_from(p) {
                Ok(p) if p < i => out[p] * *m,
                _ => *m,
            };
            out.push(world);
        }
        out
    }

    /// The joints' bind-pose world matrices.
    pub fn bind_matrices(&self) -> Vec<Mat4> {
        let locals: Vec<Mat4> = self
            .joints
            .iter()
            .map(|j| JointTransform::from(j).matrix())
            .collect();
        Iqm::world_matrices(&locals, |i| self.joints[i].parent)
    }

    /// The skinning matrices of frame `frame` (`world · inverse bind`, one
    /// per joint), or of the bind pose (identities) for `None`; `None`
    /// past the last frame.
    pub fn skin_matrices(&self, frame: Option<usize>) -> Option<Vec<Mat4>> {
        let bind = self.bind_matrices();
        let Some(frame) = frame else {
            return Some(vec![Mat4::IDENTITY; bind.len()]);
        };
        let pose = self.frame_pose(frame)?;
        let locals: Vec<Mat4> = pose.locals.iter().map(JointTransform::matrix).collect();
        let world = Iqm::world_matrices(&locals, |i| self.poses[i].parent);
        Some(
            (0..bind.len())
                .map(|j| world.get(j).copied().unwrap_or(Mat4::IDENTITY) * bind[j].inverse())
                .collect(),
        )
    }

    /// Every vertex's position skinned by `matrices` (from
    /// [`skin_matrices`](Iqm::skin_matrices)): the weighted sum of up to
    /// four joints' matrices applied to the bind position, as the engines
    /// blend them. Vertices without blend arrays stay put.
    pub fn skinned_positions(&self, matrices: &[Mat4]) -> Vec<[f32; 3]> {
        use super::ArrayKind;
        let n = self.vertex_count();
        let (Some(pos), indexes, weights) = (
            self.array(ArrayKind::Position),
            self.array(ArrayKind::BlendIndexes),
            self.array(ArrayKind::BlendWeights),
        ) else {
            return Vec::new();
        };
        (0..n)
            .map(|v| {
                let p = pos.vertex4(v, false);
                let p = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
                let (Some(ix), Some(wt)) = (indexes, weights) else {
                    return p.to_array();
                };
                let ix = ix.vertex4(v, false);
                let wt = wt.vertex4(v, true);
                let mut m = Mat4::ZERO;
                let mut any = false;
                for k in 0..4 {
                    if wt[k] > 0.0 {
                        if let Some(j) = matrices.get(ix[k] as usize) {
                            m += *j * wt[k] as f32;
                            any = true;
                        }
                    }
                }
                if any { m.transform_point3(p) } else { p }.to_array()
            })
            .collect()
    }

    /// Every vertex's normal skinned by `matrices` (their blended linear
    /// parts, renormalised), as [`skinned_positions`](Iqm::skinned_positions)
    /// skins positions; empty without a normal array.
    pub fn skinned_normals(&self, matrices: &[Mat4]) -> Vec<[f32; 3]> {
        use super::ArrayKind;
        let Some(normals) = self.array(ArrayKind::Normal) else {
            return Vec::new();
        };
        let (indexes, weights) = (
            self.array(ArrayKind::BlendIndexes),
            self.array(ArrayKind::BlendWeights),
        );
        (0..self.vertex_count())
            .map(|v| {
                let n = normals.vertex4(v, false);
                let n = Vec3::new(n[0] as f32, n[1] as f32, n[2] as f32);
                let (Some(ix), Some(wt)) = (indexes, weights) else {
                    return n.to_array();
                };
                let (ix, wt) = (ix.vertex4(v, false), wt.vertex4(v, true));
                let mut out = Vec3::ZERO;
                for k in 0..4 {
                    if let Some(m) = matrices.get(ix[k] as usize).filter(|_| wt[k] > 0.0) {
                        out += m.transform_vector3(n) * wt[k] as f32;
                    }
                }
                out.try_normalize().unwrap_or(n).to_array()
            })
            .collect()
    }

    /// Frame `frame`'s bounds as the reference compiler computes them
    /// (`iqm.cpp`, `makebounds`): the box around the skinned positions,
    /// the largest distance from the Z axis and from the origin.
    pub fn compute_bounds(&self, frame: usize) -> Option<super::Bounds> {
        let m = self.skin_matrices(Some(frame))?;
        let points = self.skinned_positions(&m);
        let mut b = super::Bounds::default();
        let (mut xy, mut r) = (0.0f64, 0.0f64);
        for (i, p) in points.iter().enumerate() {
            if i == 0 {
                b.min = *p;
                b.max = *p;
            }
            for (k, &c) in p.iter().enumerate() {
                b.min[k] = b.min[k].min(c);
                b.max[k] = b.max[k].max(c);
            }
            let (x, y, z) = (f64::from(p[0]), f64::from(p[1]), f64::from(p[2]));
            xy = xy.max(x * x + y * y);
            r = r.max(x * x + y * y + z * z);
        }
        b.xy_radius = xy.sqrt() as f32;
        b.radius = r.sqrt() as f32;
        Some(b)
    }
}
