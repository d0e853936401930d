//! Tags as nodes: a tag's origin and axes in one frame as a translation
//! and a rotation in the scene's axes.

use glam::{Mat3, Quat, Vec3};

use super::md3_axes;
use crate::md3::Tag;

/// How far a tag's axes may be from orthonormal (the largest deviation of
/// `Aᵀ·A` from the identity) before the lift warns.
pub const ORTHONORMAL_TOLERANCE: f32 = 1e-3;

/// A tag's transform in one frame in the scene's axes: its origin
/// ([`md3_axes`]) and the rotation whose columns are its forward, left
/// and up axes in the scene's axes.
///
/// Quake III attaches a model at a tag by taking the tag's axes as the
/// child's (`CG_PositionRotatedEntityOnTag`, ioquake3
/// `code/cgame/cg_ents.c`: `MatrixMultiply(lerped.axis,
/// parent->axis, ...)`), so a child node with this translation and
/// rotation sits where the game draws it. The engine normalises each
/// axis of the tag it hands the game (`R_LerpTag`,
/// `code/renderergl1/tr_model.c`), so scaled axes (OpenArena's `sergei`
/// has axes 8.1 long) are normalised here too; axes still not orthogonal
/// then (hand-edited or damaged tags) are made so (Gram-Schmidt, forward
/// kept, a mirrored set's up axis flipped). Both are reported by the
/// returned flag (false: the stored axes were not orthonormal).
///
/// ```
/// use retromodel::md3::{tag_transform, Tag};
/// let tag = Tag { origin: [1.0, 2.0, 3.0], axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], ..Tag::default() };
/// let (t, r, orthonormal) = tag_transform(&tag);
/// assert_eq!(t, [2.0, 3.0, 1.0]);
/// assert!(orthonormal && (r[3] - 1.0).abs() < 1e-6);
/// ```
pub fn tag_transform(tag: &Tag) -> ([f32; 3], [f32; 4], bool) {
    // In Quake's axes: the tag's axes as columns.
    let axes = tag.axes.map(Vec3::from);
    let m = Mat3::from_cols(axes[0], axes[1], axes[2]);
    let deviation = (m.transpose() * m - Mat3::IDENTITY)
        .to_cols_array()
        .iter()
        .fold(0.0f32, |a, &b| a.max(b.abs()));
    let orthonormal = m.is_finite() && deviation <= ORTHONORMAL_TOLERANCE && m.determinant() > 0.0;
    // The engine normalises each axis of a tag (`R_LerpTag`); axes that
    // are then still not orthogonal are made so.
    let unit = axes.map(|a| a.try_normalize().unwrap_or(Vec3::ZERO));
    let n = Mat3::from_cols(unit[0], unit[1], unit[2]);
    let unit_deviation = (n.transpose() * n - Mat3::IDENTITY)
        .to_cols_array()
        .iter()
        .fold(0.0f32, |a, &b| a.max(b.abs()));
    let m = if orthonormal {
        Some(m)
    } else if n.is_finite() && unit_deviation <= ORTHONORMAL_TOLERANCE && n.determinant() > 0.0 {
        Some(n)
    } else {
        gram_schmidt(axes)
    };
    // In the scene's axes: P·M·Pᵀ, P the permutation of [`md3_axes`].
    let p = Mat3::from_cols(Vec3::Z, Vec3::X, Vec3::Y);
    let rotation = m
        .map(|m| Quat::from_mat3(&(p * m * p.transpose())).normalize())
        .filter(|q| q.is_finite())
        .unwrap_or(Quat::IDENTITY);
    let t = md3_axes(tag.origin);
    let t = if t.iter().all(|c| c.is_finite()) {
        t
    } else {
        [0.0; 3]
    };
    (t, rotation.to_array(), orthonormal)
}

/// The nearest right-handed orthonormal axes, forward kept; `None` for
/// degenerate ones.
fn gram_schmidt(a: [Vec3; 3]) -> Option<Mat3> {
    let x = a[0].try_normalize()?;
    let y = (a[1] - x * x.dot(a[1])).try_normalize()?;
    let z = x.cross(y);
    Some(Mat3::from_cols(x, y, z))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_and_damaged_axes() {
        // 90° about Quake's Z (up): forward becomes left.
        let tag = Tag {
            axes: [[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
            ..Tag::default()
        };
        let (_, r, ok) = tag_transform(&tag);
        assert!(ok);
        // Quake's forward (scene +Z) turns to Quake's left (scene +X).
        let v = Quat::from_array(r) * Vec3::Z;
        assert!((v - Vec3::X).length() < 1e-5, "{v}");
        // Scaled axes: not orthonormal, still a rotation.
        let tag = Tag {
            axes: [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]],
            ..Tag::default()
        };
        let (_, r, ok) = tag_transform(&tag);
        assert!(!ok && (r[3] - 1.0).abs() < 1e-6);
        // Mirrored, degenerate and non-finite axes.
        let tag = Tag {
            axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]],
            ..Tag::default()
        };
        assert!(!tag_transform(&tag).2);
        let tag = Tag {
            axes: [[f32::NAN; 3]; 3],
            origin: [f32::INFINITY; 3],
            ..Tag::default()
        };
        let (t, r, ok) = tag_transform(&tag);
        assert_eq!((t, r, ok), ([0.0; 3], [0.0, 0.0, 0.0, 1.0], false));
    }
}
