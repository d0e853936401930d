//! Scene space (scaled) to MD5's Quake axes, the inverse of
//! [`md5_axes`](crate::md5::md5_axes).

use glam::{DMat4, DVec3, DVec4};

/// The matrix taking MD5 axes to the scene's (`md5_axes` as a matrix).
fn a() -> DMat4 {
    let c = |v: [f32; 3]| {
        let [x, y, z] = crate::md5::md5_axes(v);
        DVec4::new(f64::from(x), f64::from(y), f64::from(z), 0.0)
    };
    DMat4::from_cols(
        c([1.0, 0.0, 0.0]),
        c([0.0, 1.0, 0.0]),
        c([0.0, 0.0, 1.0]),
        DVec4::W,
    )
}

/// A scene-space transform `m` as one in MD5 space with scene units
/// multiplied by `scale`: `A⁻¹ · S · m · S⁻¹ · A`.
pub(super) fn transform(m: DMat4, scale: f64) -> DMat4 {
    let s = DMat4::from_scale(DVec3::splat(scale));
    let a = a();
    a.transpose() * s * m * s.inverse() * a
}

/// A scene-space point in MD5 space, scaled.
pub(super) fn point(p: [f32; 3], scale: f64) -> DVec3 {
    let v = DVec3::new(f64::from(p[0]), f64::from(p[1]), f64::from(p[2])) * scale;
    a().transpose().transform_point3(v)
}
