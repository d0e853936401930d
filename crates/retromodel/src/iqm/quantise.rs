//! Frames as 16-bit channels: every joint's ten channels over all frames
//! quantised per channel, as lsalzman/iqm's compiler does (`iqm.cpp`,
//! `calcanimdata`): a channel's offset is its smallest value, its scale
//! the range over 65,535, a value `u16(0.5 + (v − offset) / scale)`, and
//! a channel whose range is below 1e-10 (or no more than the `f32`
//! rounding of its values: 4 ε of the largest) leaves the mask, its
//! constant value the offset.

use super::{Iqm, Pose, CHANNELS};

impl Iqm {
    /// Every frame's channels, pose by pose, decoded (see
    /// [`Iqm::frame_pose`]).
    ///
    /// ```
    /// let model = retromodel::iqm::sample::sample_model();
    /// let frames = model.decoded_frames();
    /// assert_eq!(frames.len(), 2);
    /// assert_eq!(frames[1][1][6], std::f32::consts::FRAC_1_SQRT_2); // w of the arm's quarter turn
    /// ```
    pub fn decoded_frames(&self) -> Vec<Vec<[f32; CHANNELS]>> {
        (0..self.num_frames as usize)
            .filter_map(|f| self.frame_pose(f))
            .map(|p| p.locals.iter().map(|l| l.channels()).collect())
            .collect()
    }

    /// Replaces the poses and frames with `frames` (each frame one entry
    /// of ten channels per joint, the joints' parents the poses'),
    /// quantised per channel; no frames leaves no poses. Animations and
    /// bounds are the caller's to keep in step.
    ///
    /// ```
    /// let mut model = retromodel::iqm::sample::sample_model();
    /// let frames = model.decoded_frames();
    /// model.set_frames(&frames);
    /// assert_eq!(model.num_frames, 2);
    /// // The root stands still: only the arm's turning channels are stored.
    /// assert_eq!(model.num_framechannels, 2);
    /// ```
    pub fn set_frames(&mut self, frames: &[Vec<[f32; CHANNELS]>]) {
        self.poses.clear();
        self.frames.clear();
        self.num_frames = 0;
        self.num_framechannels = 0;
        if frames.is_empty() {
            return;
        }
        let n = self.joints.len();
        let value = |f: &Vec<[f32; CHANNELS]>, j: usize, c: usize| f.get(j).map_or(0.0, |x| x[c]);
        self.poses = (0..n)
            .map(|j| {
                let mut pose = Pose {
                    parent: self.joints[j].parent,
                    ..Pose::default()
                };
                for c in 0..CHANNELS {
                    let (lo, hi) =
                        frames
                            .iter()
                            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), f| {
                                let v = value(f, j, c);
                                (lo.min(v), hi.max(v))
                            });
                    let range = hi - lo;
                    pose.channel_offset[c] = lo;
                    // Still when the range is below the reference's 1e-10
                    // or within the `f32` rounding of the values (a
                    // quaternion's `w` rebuilt each frame from the same
                    // rotation varies by one rounding).
                    let rounding = 4.0 * f32::EPSILON * lo.abs().max(hi.abs());
                    if range >= 1e-10 && range > rounding {
                        pose.mask |= 1 << c;
                        pose.channel_scale[c] = range / 65535.0;
                    }
                }
                pose
            })
            .collect();
        self.num_framechannels = self.poses.iter().map(Pose::channel_count).sum();
        self.num_frames = frames.len() as u32;
        self.frames = Vec::with_capacity(frames.len() * self.num_framechannels as usize);
        for f in frames {
            for (j, pose) in self.poses.iter().enumerate() {
                for c in 0..CHANNELS {
                    if pose.mask & (1 << c) != 0 {
                        let q =
                            0.5 + (value(f, j, c) - pose.channel_offset[c]) / pose.channel_scale[c];
                        self.frames.push(q.clamp(0.0, 65535.0) as u16);
                    }
                }
            }
        }
    }

    /// Adds the animations of `other` (an animation-only file such as
    /// raylib's `guyanim.iqm`, or any IQM of the same skeleton) after
    /// this model's own: its frames re-quantised together with these,
    /// its animations' names, rates and flags kept, the bounds
    /// recomputed. The skeletons must agree: `other`'s poses (or joints)
    /// one per joint here, with the same parents.
    ///
    /// ```
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let mut model = retromodel::iqm::sample::sample_model();
    /// let other = retromodel::iqm::sample::sample_model();
    /// model.add_animations(&other)?;
    /// assert_eq!(model.num_frames, 4);
    /// assert_eq!(model.anims[1].first_frame, 2);
    /// # Ok(()) }
    /// ```
    pub fn add_animations(&mut self, other: &Iqm) -> crate::Result<()> {
        let parents: Vec<i32> = if other.poses.is_empty() {
            other.joints.iter().map(|j| j.parent).collect()
        } else {
            other.poses.iter().map(|p| p.parent).collect()
        };
        let ours: Vec<i32> = self.joints.iter().map(|j| j.parent).collect();
        if parents != ours {
            return Err(crate::Error::unwritable(
                "animations",
                format!(
                    "the animation file's skeleton ({} joints) is not this model's ({} joints): the counts or the parents differ",
                    parents.len(),
                    ours.len()
                ),
            ));
        }
        let mut frames = self.decoded_frames();
        let first = frames.len() as u32;
        frames.extend(other.decoded_frames());
        self.set_frames(&frames);
        for a in &other.anims {
            let name = self.intern(&other.name(a.name));
            self.anims.push(super::Anim {
                name,
                first_frame: a.first_frame.saturating_add(first),
                ..*a
            });
        }
        self.bounds = (!self.meshes.is_empty() && self.num_frames > 0).then(|| {
            (0..self.num_frames as usize)
                .filter_map(|k| self.compute_bounds(k))
                .collect()
        });
        Ok(())
    }
}
