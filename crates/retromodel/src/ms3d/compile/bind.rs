//! A skin's bind shape: the constant transform that tools fold into
//! every inverse bind matrix of a skin, such as the dequantisation of
//! quantized positions (`gltf-transform quantize`, meshopt, gltfpack).
//!
//! glTF skins a vertex `v` by `Σ wᵢ · Gᵢ · IBMᵢ · v`. When every joint's
//! rest global `Gᵢ` times its `IBMᵢ` is one transform `W` (the
//! identity for an exporter whose rest pose is its bind pose; the
//! dequantisation `D` after `quantize`, which writes `IBMᵢ · D`), the
//! vertices' bind positions are `W · v`, and each joint's bind global is
//! its rest global: its motion relative to the bind is `Gᵢ(t) · Gᵢ⁻¹`,
//! rigid whenever the joints only move (a constant scale in `Gᵢ`
//! cancels). `W` is then not motion at all, and is baked into the
//! vertices.
//!
//! Joints whose `Gᵢ · IBMᵢ` differs (a joint scaled to nothing at rest,
//! or a rest pose that is not the bind pose) are bound where `W` says:
//! `W · IBMᵢ⁻¹`. When no two joints agree, `W` is the scale and shear
//! that every `IBMᵢ` shares (the symmetric factor of their polar
//! decompositions, when they have the same), placed to match the rest
//! pose best; else the identity.

use glam::{DMat3, DMat4, DVec3};

use super::rigid::polar_rotation;

/// Most candidates compared with all others when looking for the shape
/// most joints agree on (bounds the work for skins of many joints).
const CANDIDATES: usize = 64;

/// A skin's bind shape and which joints agree with it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shape {
    /// `W`: model space of the mesh's positions to the bind pose.
    pub w: DMat4,
    /// Per joint given: whether its rest global times its inverse bind
    /// matrix is `W` (its bind global is then its rest global).
    pub agrees: Vec<bool>,
}

/// The largest absolute entry of `m`'s linear part.
fn linear_size(m: &DMat4) -> f64 {
    DMat3::from_mat4(*m)
        .to_cols_array()
        .iter()
        .fold(0.0f64, |a, &b| a.max(b.abs()))
}

/// Whether `a` and `b` are one transform, to `eps` of their linear
/// parts' size and `eps · reach` in translation.
pub(crate) fn same(a: &DMat4, b: &DMat4, eps: f64, reach: f64) -> bool {
    let size = linear_size(a).max(linear_size(b));
    let (x, y) = (a.to_cols_array(), b.to_cols_array());
    let linear = [0, 1, 2, 4, 5, 6, 8, 9, 10]
        .iter()
        .all(|&k| (x[k] - y[k]).abs() <= eps * size);
    let t = eps * reach.max(size);
    linear && (12..15).all(|k| (x[k] - y[k]).abs() <= t)
}

/// Whether `m` is finite, affine and far from singular.
fn regular(m: &DMat4) -> bool {
    let size = linear_size(m);
    let det = DMat3::from_mat4(*m).determinant();
    m.is_finite() && size > 0.0 && det.abs() > 1e-9 * size * size * size
}

/// The bind shape of a skin whose joints have rest globals and inverse
/// bind matrices `joints` (`(G, IBM)`, every `IBM` invertible); `reach`
/// is the skeleton's size (for translation tolerances).
pub(crate) fn shape(joints: &[(DMat4, DMat4)], reach: f64) -> Shape {
    const EPS: f64 = 1e-5;
    let products: Vec<DMat4> = joints.iter().map(|(g, ibm)| *g * *ibm).collect();
    let usable: Vec<usize> = (0..products.len())
        .filter(|&k| regular(&products[k]))
        .collect();
    let mut best: Option<(usize, usize)> = None;
    for &k in usable.iter().take(CANDIDATES) {
        let count = usable
            .iter()
            .filter(|&&i| same(&products[i], &products[k], EPS, reach))
            .count();
        if best.is_none_or(|(_, c)| count > c) {
            best = Some((k, count));
        }
    }
    let w = match best {
        Some((k, count)) if count >= 2 || usable.len() == 1 => products[k],
        _ => shared_factor(joints).unwrap_or(DMat4::IDENTITY),
    };
    let w = if same(&w, &DMat4::IDENTITY, EPS, reach) {
        DMat4::IDENTITY
    } else {
        w
    };
    let agrees = products
        .iter()
        .map(|p| regular(p) && same(p, &w, EPS, reach))
        .collect();
    Shape { w, agrees }
}

/// The scale and shear every inverse bind matrix shares (`IBMᵢ = Rᵢ·P`
/// with `Rᵢ` rotations, `P` one symmetric matrix), placed so that the
/// joints' bind origins are nearest to their rest origins; `None` when
/// they share none.
fn shared_factor(joints: &[(DMat4, DMat4)]) -> Option<DMat4> {
    let mut p: Option<DMat3> = None;
    let mut offset = DVec3::ZERO;
    for (g, ibm) in joints {
        let a = DMat3::from_mat4(*ibm);
        if a.determinant() <= 0.0 {
            return None;
        }
        let u = DMat3::from_quat(polar_rotation(&a)?);
        let factor = u.transpose() * a;
        match p {
            None => p = Some(factor),
            Some(q) => {
                let size = q
                    .to_cols_array()
                    .iter()
                    .fold(0.0f64, |a, &b| a.max(b.abs()));
                let differs = (factor - q)
                    .to_cols_array()
                    .iter()
                    .any(|d| d.abs() > 1e-5 * size);
                if differs {
                    return None;
                }
            }
        }
        // The joint's origin at bind is `P·c + m` (`c` the origin of
        // `IBM⁻¹`); `m` by least squares against the rest origins.
        let c = ibm.inverse().w_axis.truncate();
        let q = p?;
        offset += g.w_axis.truncate() - q * c;
    }
    let p = p?;
    let m = offset / joints.len() as f64;
    let w = DMat4::from_cols(
        p.x_axis.extend(0.0),
        p.y_axis.extend(0.0),
        p.z_axis.extend(0.0),
        m.extend(1.0),
    );
    w.is_finite().then_some(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DQuat;

    fn rigid(angle: f64, t: [f64; 3]) -> DMat4 {
        DMat4::from_rotation_translation(DQuat::from_rotation_y(angle), DVec3::from(t))
    }

    #[test]
    fn a_dequantisation_folded_into_the_inverse_binds_is_the_bind_shape() {
        // D maps 16-bit integers to the model: scale and offset.
        let d = DMat4::from_scale_rotation_translation(
            DVec3::splat(1.0 / 32767.0),
            DQuat::IDENTITY,
            DVec3::new(0.5, -1.0, 2.0),
        );
        let rests = [rigid(0.3, [0.0, 1.0, 0.0]), rigid(-0.7, [0.2, 2.0, 0.1])];
        let joints: Vec<(DMat4, DMat4)> = rests.iter().map(|g| (*g, g.inverse() * d)).collect();
        let s = shape(&joints, 2.0);
        assert!(same(&s.w, &d, 1e-9, 2.0), "{:?}", s.w);
        assert_eq!(s.agrees, [true, true]);
        // A joint scaled to nothing at rest does not agree; the others
        // still give the shape.
        let mut zero = joints.clone();
        zero.push((DMat4::from_scale(DVec3::ZERO), d));
        let s = shape(&zero, 2.0);
        assert!(same(&s.w, &d, 1e-9, 2.0));
        assert_eq!(s.agrees, [true, true, false]);
        // A rest pose that is not the bind pose: the shared factor of the
        // inverse binds, placed at the rest origins.
        let moved: Vec<(DMat4, DMat4)> = joints
            .iter()
            .enumerate()
            .map(|(k, (g, ibm))| (rigid(0.1 * k as f64, [0.0; 3]) * *g, *ibm))
            .collect();
        let s = shape(&moved, 2.0);
        let lin = DMat3::from_mat4(s.w) - DMat3::from_mat4(d);
        assert!(lin.to_cols_array().iter().all(|x| x.abs() < 1e-12));
        // Rigid inverse binds of a rest pose that is the bind pose: the
        // identity, exactly.
        let plain: Vec<(DMat4, DMat4)> = rests.iter().map(|g| (*g, g.inverse())).collect();
        assert_eq!(shape(&plain, 2.0).w, DMat4::IDENTITY);
    }
}
