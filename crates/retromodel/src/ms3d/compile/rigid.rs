//! Rigid transforms in `f64`, MilkShape's Euler angles, and the rigid
//! part of any affine transform.

use glam::{DMat3, DMat4, DQuat, DVec3};

/// A rotation then a translation: `x ↦ r·x + t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rigid {
    /// The rotation (unit).
    pub r: DQuat,
    /// The translation.
    pub t: DVec3,
}

impl Rigid {
    /// The identity.
    pub const IDENTITY: Rigid = Rigid {
        r: DQuat::IDENTITY,
        t: DVec3::ZERO,
    };

    /// `self · other`.
    pub fn mul(&self, other: &Rigid) -> Rigid {
        Rigid {
            r: (self.r * other.r).normalize(),
            t: self.r * other.t + self.t,
        }
    }

    /// The inverse.
    pub fn inverse(&self) -> Rigid {
        let r = self.r.conjugate();
        Rigid {
            r,
            t: -(r * self.t),
        }
    }

    /// As a matrix.
    pub fn matrix(&self) -> DMat4 {
        DMat4::from_rotation_translation(self.r, self.t)
    }

    /// The rigid part of `m` and how far `m`'s linear part is from that
    /// rotation (the largest entry of the difference): 0 for a rigid
    /// transform. `None` when `m` is not finite or is singular.
    pub fn of_matrix(m: &DMat4) -> Option<(Rigid, f64)> {
        let linear = DMat3::from_mat4(*m);
        let r = polar_rotation(&linear)?;
        let diff = linear - DMat3::from_quat(r);
        let residual = diff
            .to_cols_array()
            .iter()
            .fold(0.0f64, |a, &b| a.max(b.abs()));
        let t = m.w_axis.truncate();
        t.is_finite().then_some((Rigid { r, t }, residual))
    }
}

/// The rotation nearest to `m` (the orthogonal factor of its polar
/// decomposition), by Higham's scaled iteration
/// `X ← (γ·X + X⁻ᵀ/γ) / 2`, `γ = √(‖X⁻¹‖/‖X‖)` (the scaling makes a
/// nearly singular matrix, such as a joint scaled almost to nothing on
/// one axis, converge as fast as a rotation). A matrix that mirrors
/// (negative determinant) gives the rotation nearest to `−m`'s mirror
/// image. `None` when `m` is singular or not finite.
pub(crate) fn polar_rotation(m: &DMat3) -> Option<DQuat> {
    let det = m.determinant();
    if !(det.is_finite() && det.abs() > 1e-300) {
        return None;
    }
    let frobenius = |a: &DMat3| a.to_cols_array().iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut x = if det < 0.0 { -*m } else { *m };
    let mut scaled = true;
    for _ in 0..64 {
        let inv_t = x.inverse().transpose();
        let gamma = if scaled {
            (frobenius(&inv_t) / frobenius(&x)).sqrt()
        } else {
            1.0
        };
        if !(gamma.is_finite() && gamma > 0.0) {
            return None;
        }
        let next = (x * gamma + inv_t * (1.0 / gamma)) * 0.5;
        let change = (next - x)
            .to_cols_array()
            .iter()
            .fold(0.0f64, |a, &b| a.max(b.abs()));
        x = next;
        // Scaling only speeds up the first steps; the last converge
        // quadratically without it.
        scaled = change > 1e-3;
        if change < 1e-15 {
            break;
        }
    }
    let q = DQuat::from_mat3(&x);
    (q.is_finite() && q.length() > 0.5).then(|| q.normalize())
}

/// MilkShape's rotation `Rz(z) · Ry(y) · Rx(x)` of Euler angles in
/// radians (the `f64` twin of `ms3d::euler_to_quat`).
pub(crate) fn euler_to_quat(a: [f64; 3]) -> DQuat {
    DQuat::from_rotation_z(a[2]) * DQuat::from_rotation_y(a[1]) * DQuat::from_rotation_x(a[0])
}

/// Euler angles `[x, y, z]` with `euler_to_quat(angles) = q`: `x` and `z`
/// in (−π, π], `y` in [−π/2, π/2]. At `y = ±π/2`, where only `x ∓ z`
/// counts, `z` is 0.
pub(crate) fn quat_to_euler(q: DQuat) -> [f64; 3] {
    let m = DMat3::from_quat(q.normalize());
    // m = Rz·Ry·Rx: row 2 is (−sy, cy·sx, cy·cx), column 0 is
    // (cz·cy, sz·cy, −sy).
    let sy = (-m.x_axis.z).clamp(-1.0, 1.0);
    let y = sy.asin();
    let cy = (m.y_axis.z * m.y_axis.z + m.z_axis.z * m.z_axis.z).sqrt();
    if cy > 1e-9 {
        let x = m.y_axis.z.atan2(m.z_axis.z);
        let z = m.x_axis.y.atan2(m.x_axis.x);
        [x, y, z]
    } else {
        // Gimbal lock: Rz·Ry(±π/2)·Rx depends on x ∓ z only; take z = 0.
        // Then m = Ry(±π/2)·Rx(x): column 1 is (sy·sx, cx, ·).
        let x = (m.y_axis.x * sy).atan2(m.y_axis.y);
        [x, y, 0.0]
    }
}

/// `q` or `−q`, whichever lies on the side of `reference`.
pub(crate) fn same_hemisphere(q: DQuat, reference: DQuat) -> DQuat {
    if q.dot(reference) < 0.0 {
        -q
    } else {
        q
    }
}

/// The angle between two rotations, in radians (0..π).
pub(crate) fn angle_between(a: DQuat, b: DQuat) -> f64 {
    // 4·atan2(|a − b|, |a + b|) (b on a's side): exact near 0, where
    // 2·acos(a·b) loses half the digits.
    let b = if a.dot(b) < 0.0 { -b } else { b };
    4.0 * (a - b).length().atan2((a + b).length())
}

/// Slerp along the shorter arc, as MilkShape's viewer interpolates
/// rotation keys.
pub(crate) fn slerp(a: DQuat, b: DQuat, s: f64) -> DQuat {
    let b = same_hemisphere(b, a);
    let dot = a.dot(b).min(1.0);
    let (wa, wb) = if dot > 1.0 - 1e-12 {
        (1.0 - s, s)
    } else {
        let theta = dot.acos();
        let sin = theta.sin();
        (((1.0 - s) * theta).sin() / sin, (s * theta).sin() / sin)
    };
    (a * wa + b * wb).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_round_trips_through_milkshapes_convention() {
        for a in [
            [0.3, -0.7, 1.1],
            [3.1, 1.2, -3.0],
            [0.0, 0.0, 0.0],
            [-2.0, -1.5, 2.5],
        ] {
            let q = euler_to_quat(a);
            let back = quat_to_euler(q);
            assert!(
                angle_between(euler_to_quat(back), q) < 1e-9,
                "{a:?} {back:?}"
            );
            for k in 0..3 {
                assert!((back[k] - a[k]).abs() < 1e-9, "{a:?} {back:?}");
            }
            // The crate's f32 conversion is the same rotation.
            let f = crate::ms3d::euler_to_quat(a.map(|x| x as f32));
            let f = DQuat::from_xyzw(f.x.into(), f.y.into(), f.z.into(), f.w.into());
            assert!(angle_between(f, q) < 1e-6);
        }
        // Gimbal lock: the rotation, not the numbers, comes back.
        for a in [
            [0.4, std::f64::consts::FRAC_PI_2, -0.3],
            [1.0, -std::f64::consts::FRAC_PI_2, 0.5],
        ] {
            let q = euler_to_quat(a);
            assert!(angle_between(euler_to_quat(quat_to_euler(q)), q) < 1e-7);
        }
    }

    #[test]
    fn rigid_part_of_scaled_and_sheared_matrices() {
        let r = DQuat::from_rotation_y(0.8);
        let m =
            DMat4::from_scale_rotation_translation(DVec3::splat(2.0), r, DVec3::new(1.0, 2.0, 3.0));
        let (rigid, residual) = Rigid::of_matrix(&m).unwrap();
        assert!(angle_between(rigid.r, r) < 1e-12);
        assert!((residual - 1.0).abs() < 1e-9, "{residual}");
        let (same, zero) =
            Rigid::of_matrix(&DMat4::from_rotation_translation(r, DVec3::X)).unwrap();
        assert!(zero < 1e-12 && angle_between(same.r, r) < 1e-12);
        assert!(Rigid::of_matrix(&DMat4::ZERO).is_none());
        let inv = rigid.inverse().mul(&rigid);
        assert!(inv.t.length() < 1e-12 && angle_between(inv.r, DQuat::IDENTITY) < 1e-12);
    }
}
