//! Skeletal animation exactly as MilkShape 3D's own model viewer evaluates
//! it (`msModel.cpp` of the "MilkShape 3D Model Viewer Sample"):
//!
//! - Key times are seconds; they are multiplied by the fps (clamped to at
//!   least 1) and sampled in frames.
//! - Bind local `L = [R(rotation) | position]` with `R = Rz·Ry·Rx`; bind
//!   global `G = G(parent) · L`, the parent found by exact name.
//! - Rotation keys: Euler angles to quaternions, slerped along the shorter
//!   arc between the two keys around the sample; before the first key the
//!   first, from the last key on the last.
//! - Position keys: Hermite interpolation with the viewer's looped
//!   tangents (zero tangents with two keys or fewer).
//! - Animated local `L(t) = L · [R(q(t)) | p(t)]`; `G(t) = G(parent, t) · L(t)`.
//!
//! Unlike the viewer, parents are always evaluated before their children,
//! whatever the order of the joints in the file.

use super::hierarchy::{cycle_message, evaluation_order, parents};
use super::layout::{joint, Offsets};
use super::{Key, Ms3d};
use crate::error::{Error, Result};
use glam::{Mat4, Quat, Vec3};

/// The rotation `Rz(z) · Ry(y) · Rx(x)` of Euler angles in radians, as a
/// quaternion (the viewer's `AngleQuaternion`). The sines and cosines are
/// `libm`'s, the same on every platform, so that the WebAssembly build
/// writes the same bytes as the native one (`sincosf`: one argument
/// reduction for both, the same bits as `sinf` and `cosf` apart, a third
/// fewer instructions).
pub fn euler_to_quat(angles: [f32; 3]) -> Quat {
    let sin_cos = |a: f32| libm::sincosf(a * 0.5);
    let (sr, cr) = sin_cos(angles[0]);
    let (sp, cp) = sin_cos(angles[1]);
    let (sy, cy) = sin_cos(angles[2]);
    Quat::from_xyzw(
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )
}

/// Spherical interpolation as the viewer's `QuaternionSlerp` does it: the
/// shorter arc, linear when the quaternions (nearly) coincide.
pub fn slerp(p: Quat, q: Quat, t: f32) -> Quat {
    let (pa, mut qa) = (p.to_array(), q.to_array());
    let (mut a, mut b) = (0.0f32, 0.0f32);
    for i in 0..4 {
        a += (pa[i] - qa[i]) * (pa[i] - qa[i]);
        b += (pa[i] + qa[i]) * (pa[i] + qa[i]);
    }
    if a > b {
        qa = qa.map(|v| -v);
    }
    let cosom: f32 = (0..4).map(|i| pa[i] * qa[i]).sum();
    let mut out = [0.0f32; 4];
    if 1.0 + cosom > 1e-8 {
        let (sclp, sclq) = if 1.0 - cosom > 1e-8 {
            let omega = libm::acosf(cosom);
            let sinom = libm::sinf(omega);
            (
                libm::sinf((1.0 - t) * omega) / sinom,
                libm::sinf(t * omega) / sinom,
            )
        } else {
            (1.0 - t, t)
        };
        for i in 0..4 {
            out[i] = sclp * pa[i] + sclq * qa[i];
        }
    } else {
        let perp = [-pa[1], pa[0], -pa[3], pa[2]];
        let sclp = libm::sinf((1.0 - t) * 0.5 * std::f32::consts::PI);
        let sclq = libm::sinf(t * 0.5 * std::f32::consts::PI);
        for i in 0..3 {
            out[i] = sclp * pa[i] + sclq * perp[i];
        }
        out[3] = perp[3];
    }
    Quat::from_array(out)
}

/// A joint's keys converted to frames, ready to sample.
#[derive(Debug, Clone, PartialEq)]
struct Track {
    rotations: Vec<(f32, Quat)>,
    positions: Vec<(f32, Vec3)>,
    /// `(in, out)` tangent per position key.
    tangents: Vec<(Vec3, Vec3)>,
    /// Whether both key lists have strictly increasing times, so the
    /// interval can be found by binary search.
    sorted: bool,
}

/// Whether the key times strictly increase.
fn strictly_increasing<T>(keys: &[(f32, T)]) -> bool {
    keys.windows(2).all(|w| w[0].0 < w[1].0)
}

impl Track {
    fn new(rotation_keys: &[Key], position_keys: &[Key], fps: f32) -> Track {
        let rotations: Vec<(f32, Quat)> = rotation_keys
            .iter()
            .map(|k| (k.time * fps, euler_to_quat(k.value)))
            .collect();
        let positions: Vec<(f32, Vec3)> = position_keys
            .iter()
            .map(|k| (k.time * fps, Vec3::from(k.value)))
            .collect();
        let n = positions.len();
        let mut tangents = vec![(Vec3::ZERO, Vec3::ZERO); n];
        if n > 2 {
            for (k, tangent) in tangents.iter_mut().enumerate() {
                let k0 = if k == 0 { n - 1 } else { k - 1 };
                let k2 = if k + 1 >= n { 0 } else { k + 1 };
                let dir = positions[k2].1 - positions[k0].1;
                let dt1 = positions[k].0 - positions[k0].0;
                let dt2 = positions[k2].0 - positions[k].0;
                let dt = dt1 + dt2;
                *tangent = (dir * dt1 / dt, dir * dt2 / dt);
            }
        }
        let sorted = strictly_increasing(&rotations) && strictly_increasing(&positions);
        Track {
            rotations,
            positions,
            tangents,
            sorted,
        }
    }

    /// The interval `[i, i + 1)` of the keys holding `frame`, as the viewer
    /// finds it (the first match of a linear scan). With strictly
    /// increasing times at most one interval matches, so a binary search
    /// finds the same one.
    fn interval<T>(&self, keys: &[(f32, T)], frame: f32) -> Option<usize> {
        if keys.len() < 2 {
            return None;
        }
        if self.sorted {
            // The last key with time <= frame.
            let i = keys.partition_point(|k| k.0 <= frame).checked_sub(1)?;
            return (i + 1 < keys.len() && frame < keys[i + 1].0).then_some(i);
        }
        (0..keys.len() - 1).find(|&i| frame >= keys[i].0 && frame < keys[i + 1].0)
    }

    fn position(&self, frame: f32) -> Vec3 {
        let keys = &self.positions;
        let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
            return Vec3::ZERO;
        };
        match self.interval(keys, frame) {
            Some(i) => {
                let (p0, p1) = (keys[i], keys[i + 1]);
                let (m0, m1) = (self.tangents[i].1, self.tangents[i + 1].0);
                let t = (frame - p0.0) / (p1.0 - p0.0);
                let (t2, t3) = (t * t, t * t * t);
                let h1 = 2.0 * t3 - 3.0 * t2 + 1.0;
                let h2 = -2.0 * t3 + 3.0 * t2;
                let h3 = t3 - 2.0 * t2 + t;
                let h4 = t3 - t2;
                p0.1 * h1 + m0 * h3 + p1.1 * h2 + m1 * h4
            }
            None if frame < first.0 => first.1,
            None if frame >= last.0 => last.1,
            // Only a NaN frame gets here (between the first and last key
            // some interval always matches); the viewer leaves it at zero.
            None => Vec3::ZERO,
        }
    }

    fn rotation(&self, frame: f32) -> Quat {
        let keys = &self.rotations;
        let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
            return Quat::IDENTITY;
        };
        match self.interval(keys, frame) {
            Some(i) => {
                let t = (frame - keys[i].0) / (keys[i + 1].0 - keys[i].0);
                slerp(keys[i].1, keys[i + 1].1, t)
            }
            None if frame < first.0 => first.1,
            None if frame >= last.0 => last.1,
            None => Quat::IDENTITY,
        }
    }
}

/// A model's skeleton, prepared for sampling: parents resolved, bind
/// matrices and their inverses computed, keys converted to frames and
/// position tangents computed.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    parents: Vec<Option<usize>>,
    /// Joint indices with every parent before its children.
    order: Vec<usize>,
    bind_local: Vec<Mat4>,
    bind_global: Vec<Mat4>,
    inverse_bind: Vec<Mat4>,
    tracks: Vec<Track>,
    fps: f32,
}

/// `[R(rotation) | position]`.
fn rigid(rotation: Quat, position: Vec3) -> Mat4 {
    Mat4::from_rotation_translation(rotation, position)
}

/// The inverse of a rigid transform: `[Rᵀ | −Rᵀ·t]` (the viewer's
/// `VectorITransform`).
fn rigid_inverse(m: Mat4) -> Mat4 {
    let r = glam::Mat3::from_mat4(m).transpose();
    let t = -(r * m.w_axis.truncate());
    Mat4::from_cols(
        r.x_axis.extend(0.0),
        r.y_axis.extend(0.0),
        r.z_axis.extend(0.0),
        t.extend(1.0),
    )
}

impl Skeleton {
    /// Prepares the skeleton of `model`. Fails when the parents form a
    /// cycle (a parent that does not exist makes a root; `validate` warns).
    ///
    /// ```
    /// use retromodel::ms3d::{sample::sample_model, Skeleton};
    /// let model = sample_model();
    /// let skeleton = Skeleton::new(&model).unwrap();
    /// assert_eq!(skeleton.joint_count(), model.joints.len());
    /// ```
    pub fn new(model: &Ms3d) -> Result<Skeleton> {
        let parents = parents(model);
        let order = evaluation_order(&parents).map_err(|cycle| Error::Invalid {
            context: format!("joints[{}].parent", cycle[0]),
            message: cycle_message(model, &cycle),
            offset: Offsets::new(model).joint(cycle[0], joint::PARENT),
        })?;
        let fps = model.effective_fps();
        let n = model.joints.len();
        let bind_local: Vec<Mat4> = model
            .joints
            .iter()
            .map(|j| rigid(euler_to_quat(j.rotation), Vec3::from(j.position)))
            .collect();
        let mut bind_global = vec![Mat4::IDENTITY; n];
        for &i in &order {
            bind_global[i] = match parents[i] {
                Some(p) => bind_global[p] * bind_local[i],
                None => bind_local[i],
            };
        }
        let inverse_bind = bind_global.iter().map(|m| rigid_inverse(*m)).collect();
        let tracks = model
            .joints
            .iter()
            .map(|j| Track::new(&j.rotation_keys, &j.position_keys, fps))
            .collect();
        Ok(Skeleton {
            parents,
            order,
            bind_local,
            bind_global,
            inverse_bind,
            tracks,
            fps,
        })
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.parents.len()
    }

    /// The parent of each joint (`None` for roots).
    pub fn parents(&self) -> &[Option<usize>] {
        &self.parents
    }

    /// The frame rate keys are sampled at (the model's fps, at least 1).
    pub fn fps(&self) -> f32 {
        self.fps
    }

    /// The bind pose's joint-to-model matrices `G`.
    pub fn bind_pose(&self) -> &[Mat4] {
        &self.bind_global
    }

    /// The inverse bind matrices `G⁻¹` (model to joint space).
    pub fn inverse_bind(&self) -> &[Mat4] {
        &self.inverse_bind
    }

    /// The viewer's `(in, out)` Hermite tangents of a joint's position
    /// keys, in position units per normalised interval (one per key).
    #[cfg(feature = "scene")]
    pub(crate) fn position_tangents(&self, joint: usize) -> Option<&[(Vec3, Vec3)]> {
        self.tracks.get(joint).map(|t| t.tangents.as_slice())
    }

    /// The animated local transform `[R(q) | p]` a joint's keys give at
    /// `frame` (before the bind local is applied).
    pub fn key_transform(&self, joint: usize, frame: f32) -> Option<(Quat, Vec3)> {
        let track = self.tracks.get(joint)?;
        Some((track.rotation(frame), track.position(frame)))
    }

    /// Writes every joint's animated joint-to-model matrix `G(t)` at
    /// `frame` (key time × fps) into `out`, without allocating. A negative
    /// frame gives the bind pose (as in the viewer); outside the keys'
    /// range the first or last key holds.
    ///
    /// # Panics
    /// When `out.len()` differs from [`Skeleton::joint_count`].
    pub fn pose_at_frame(&self, frame: f32, out: &mut [Mat4]) {
        assert_eq!(out.len(), self.joint_count(), "joint buffer length");
        if frame < 0.0 {
            out.copy_from_slice(&self.bind_global);
            return;
        }
        for &i in &self.order {
            let track = &self.tracks[i];
            let local = self.bind_local[i] * rigid(track.rotation(frame), track.position(frame));
            out[i] = match self.parents[i] {
                Some(p) => out[p] * local,
                None => local,
            };
        }
    }

    /// [`Skeleton::pose_at_frame`] at `seconds` into the timeline.
    pub fn pose_at_time(&self, seconds: f32, out: &mut [Mat4]) {
        self.pose_at_frame(seconds * self.fps, out);
    }

    /// Turns joint-to-model matrices `G(t)` (from a `pose_*` call) into
    /// skinning matrices `G(t) · G⁻¹` in place.
    ///
    /// # Panics
    /// When `joints.len()` differs from [`Skeleton::joint_count`].
    pub fn skinning_matrices(&self, joints: &mut [Mat4]) {
        assert_eq!(joints.len(), self.joint_count(), "joint buffer length");
        for (m, inv) in joints.iter_mut().zip(&self.inverse_bind) {
            *m *= *inv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sincosf_gives_the_bits_of_sinf_and_cosf() {
        // Every 331st f32 bit pattern of the half angles a rotation key can
        // have (|x| up to 8π, past several argument reductions), and the
        // edge values: one call must not change a written byte.
        let check = |x: f32| {
            let (s, c) = libm::sincosf(x);
            assert_eq!(s.to_bits(), libm::sinf(x).to_bits(), "sin {x}");
            assert_eq!(c.to_bits(), libm::cosf(x).to_bits(), "cos {x}");
        };
        let limit = (8.0 * std::f32::consts::PI).to_bits();
        for bits in (0..limit).step_by(331) {
            check(f32::from_bits(bits));
            check(-f32::from_bits(bits));
        }
        for x in [
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
        ] {
            let (s, c) = libm::sincosf(x);
            assert_eq!(s.to_bits(), libm::sinf(x).to_bits());
            assert_eq!(c.to_bits(), libm::cosf(x).to_bits());
        }
    }

    fn linear_scan(keys: &[(f32, Vec3)], frame: f32) -> Option<usize> {
        (0..keys.len().saturating_sub(1)).find(|&i| frame >= keys[i].0 && frame < keys[i + 1].0)
    }

    #[test]
    fn binary_search_finds_the_viewers_interval() {
        let times = [0.5f32, 1.0, 2.0, 2.5, 7.0, 7.25];
        let keys: Vec<Key> = times
            .iter()
            .map(|&t| Key {
                time: t,
                value: [t; 3],
            })
            .collect();
        let track = Track::new(&[], &keys, 1.0);
        assert!(track.sorted);
        let mut frame = -1.0f32;
        while frame < 9.0 {
            assert_eq!(
                track.interval(&track.positions, frame),
                linear_scan(&track.positions, frame),
                "frame {frame}"
            );
            frame += 0.125;
        }
        for &t in &times {
            assert_eq!(
                track.interval(&track.positions, t),
                linear_scan(&track.positions, t)
            );
        }
    }

    #[test]
    fn unsorted_keys_use_the_viewers_scan() {
        let keys: Vec<Key> = [2.0f32, 1.0, 3.0]
            .iter()
            .map(|&t| Key {
                time: t,
                value: [t; 3],
            })
            .collect();
        let track = Track::new(&[], &keys, 1.0);
        assert!(!track.sorted);
        // The viewer's first matching interval, even where times go back.
        assert_eq!(track.interval(&track.positions, 1.5), Some(1));
        assert_eq!(
            track.position(0.5),
            Vec3::splat(2.0),
            "before the first key"
        );
        assert_eq!(
            track.interval(&track.positions, 2.5),
            Some(1)
                .filter(|_| false)
                .or(linear_scan(&track.positions, 2.5))
        );
    }

    #[test]
    fn euler_quaternion_matches_the_matrix_convention() {
        let angles = [0.3f32, -0.7, 1.1];
        let q = euler_to_quat(angles);
        let m = glam::Mat3::from_rotation_z(angles[2])
            * glam::Mat3::from_rotation_y(angles[1])
            * glam::Mat3::from_rotation_x(angles[0]);
        let v = Vec3::new(0.2, -1.5, 3.0);
        assert!((q * v - m * v).length() < 1e-5);
    }
}
