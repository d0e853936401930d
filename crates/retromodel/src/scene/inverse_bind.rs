//! The bind placement a skin's inverse bind matrix stands for, and the
//! one rule by which the compilers refuse a matrix that stands for none.

use glam::{DMat3, DMat4, Mat4};

use super::Scene;
use crate::error::{Error, Result};

/// The largest condition number `κ = ‖L‖·‖L⁻¹‖` (Frobenius norms; 3 for
/// a rotation, 3 for any uniform scale) the linear part `L` of an
/// inverse bind matrix may have.
///
/// Why this number: the matrix is stored as 32-bit floats, each entry
/// rounded by up to `u = 2⁻²⁴ ≈ 6e-8` of itself, and the inverse of a
/// matrix known to `u` is known only to about `κ·u`. A matrix that is
/// singular (it flattens the points it binds onto a plane, a line or a
/// point) keeps, once rounded to `f32`, only the rounding as its rank: its
/// `κ` comes out near `1/u ≈ 1.7e7` or more, and its inverse is noise (a
/// fuzzed file put such a joint tens of millions of units away). At
/// `κ > 1e6` the inverse keeps fewer than two of `f32`'s seven digits
/// (`κ·u > 6 %`): refused, which takes every rounded singular matrix with
/// a margin of 17, while a joint bound with a scale of 1000 to 1
/// (`κ ≈ 1.4e3`) is far inside.
pub(crate) const MAX_CONDITION: f64 = 1e6;

/// A joint's inverse bind matrix and the bind transform it stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct InverseBind {
    /// The inverse bind matrix as stored (the identity when the skin has
    /// none for the joint).
    pub ibm: DMat4,
    /// Its affine part's inverse: the joint's bind transform (glTF: the
    /// fourth row MUST be `[0, 0, 0, 1]`; a different one only matters
    /// here, where it could make the inverse explode).
    pub bind: DMat4,
}

/// The condition number `‖L‖·‖L⁻¹‖` (Frobenius) of `m`'s linear part;
/// infinite when it has no inverse.
pub(crate) fn condition(m: &DMat4) -> f64 {
    let linear = DMat3::from_mat4(*m);
    let inverse = linear.inverse();
    let norm = |a: &DMat3| a.to_cols_array().iter().map(|x| x * x).sum::<f64>().sqrt();
    let k = norm(&linear) * norm(&inverse);
    if inverse.is_finite() && k.is_finite() {
        k
    } else {
        f64::INFINITY
    }
}

/// The inverse bind matrix `k` of skin `s` of `scene` (both in range)
/// and its bind transform. Refused (an error naming
/// `skins[S].inverseBindMatrices[K]`, the joint and its node) when it is
/// not finite or its condition number is over [`MAX_CONDITION`].
pub(crate) fn inverse_bind(scene: &Scene, s: usize, k: usize) -> Result<InverseBind> {
    let skin = &scene.skins[s];
    let Some(m) = skin.inverse_bind_matrices.get(k) else {
        return Ok(InverseBind {
            ibm: DMat4::IDENTITY,
            bind: DMat4::IDENTITY,
        });
    };
    let refused = |why: &str| {
        let node = skin.joints.get(k).copied();
        let name = node
            .and_then(|n| scene.nodes.get(n))
            .map_or("", |n| n.name.as_str());
        let node = node.map_or_else(String::new, |n| format!(" (node {n})"));
        Error::InvalidScene {
            path: format!("skins[{s}].inverseBindMatrices[{k}]"),
            message: format!(
                "the inverse bind matrix of joint {name:?}{node} {why}: it is the inverse of no bind pose (it flattens the points it binds onto a plane, a line or a point, or so nearly that its inverse keeps too few digits of the 32-bit numbers it is stored in), so the joint has no bind placement the written file could hold; export the skin again from the modelling tool"
            ),
        }
    };
    if !m.iter().all(|x| x.is_finite()) {
        return Err(refused("is not finite"));
    }
    let ibm = Mat4::from_cols_array(m).as_dmat4();
    if condition(&ibm) > MAX_CONDITION {
        return Err(refused("is singular"));
    }
    let affine = DMat4::from_cols(
        ibm.x_axis.truncate().extend(0.0),
        ibm.y_axis.truncate().extend(0.0),
        ibm.z_axis.truncate().extend(0.0),
        ibm.w_axis.truncate().extend(1.0),
    );
    Ok(InverseBind {
        ibm,
        bind: affine.inverse(),
    })
}
