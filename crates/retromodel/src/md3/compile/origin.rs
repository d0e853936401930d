//! A model compiled in the frame of one of the scene's nodes: a Quake III
//! player's part is stored relative to the tag the game draws it at, so
//! each frame's positions, normals and tags are brought from scene space
//! into that node's frame as it is posed in that frame.
//!
//! The frame is the node's rigid one: its origin and its axes normalised,
//! as the engine uses a tag (`R_LerpTag` in ioquake3's
//! `code/renderergl1/tr_model.c` normalises each lerped axis, and
//! `CG_PositionRotatedEntityOnTag` in `code/cgame/cg_ents.c` places the
//! child at that origin with those axes, never scaled).

use glam::{Mat3, Mat4, Vec3};

use crate::bake::plan::Plan;
use crate::error::Result;
use crate::scene::{Pose, Scene};

/// `m` with its axes normalised (an axis of length 0 left as it is).
pub(super) fn rigid(m: &Mat4) -> Mat4 {
    let axis = |v: glam::Vec4| {
        let v = v.truncate();
        v.try_normalize().unwrap_or(v).extend(0.0)
    };
    Mat4::from_cols(axis(m.x_axis), axis(m.y_axis), axis(m.z_axis), m.w_axis)
}

/// Per frame of `plan`: the inverse of `node`'s rigid frame, in scene
/// space (identity where it has none: a node whose axes are degenerate).
pub(super) fn inverse_frames(scene: &Scene, plan: &Plan, node: usize) -> Result<Vec<Mat4>> {
    let mut pose = Pose::new(scene)?;
    let mut out = Vec::with_capacity(plan.frame_count());
    for fp in plan.poses() {
        match fp.animation {
            Some(a) => pose.sample(scene, a, fp.time),
            None => pose.reset(scene),
        }
        let m = pose
            .node_matrix(node)
            .map_or(Mat4::IDENTITY, |m| Mat4::from_cols_array(&m));
        let r = rigid(&m);
        let inverse = if r.determinant().abs() > 1e-12 {
            r.inverse()
        } else {
            Mat4::IDENTITY
        };
        out.push(if inverse.is_finite() {
            inverse
        } else {
            Mat4::IDENTITY
        });
    }
    Ok(out)
}

/// Brings posed `positions` and `normals` (frames × `n`, in Quake's
/// axes, as the bake gives them) into the frames whose scene-space
/// inverses are `inverses`.
pub(super) fn apply(
    inverses: &[Mat4],
    positions: &mut [[f32; 3]],
    normals: &mut [[f32; 3]],
    n: usize,
) {
    if n == 0 {
        return;
    }
    // Quake's axes from the scene's (`bake::to_quake`) and back.
    let q = Mat4::from_mat3(Mat3::from_cols(Vec3::Y, Vec3::Z, Vec3::X));
    for (f, inverse) in inverses.iter().enumerate() {
        let c = q * *inverse * q.transpose();
        let range = f * n..(f + 1) * n;
        if let Some(ps) = positions.get_mut(range.clone()) {
            for p in ps {
                *p = c.transform_point3(Vec3::from(*p)).to_array();
            }
        }
        if let Some(ns) = normals.get_mut(range) {
            for v in ns {
                let t = c.transform_vector3(Vec3::from(*v));
                *v = t.try_normalize().unwrap_or(t).to_array();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::to_quake;

    #[test]
    fn a_point_in_a_turned_and_moved_frame_is_where_the_frame_puts_it() {
        // A frame a quarter turn about scene +Y at (1, 2, 3), scaled 2:
        // the rigid frame ignores the scale.
        let m = Mat4::from_scale_rotation_translation(
            Vec3::splat(2.0),
            glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            Vec3::new(1.0, 2.0, 3.0),
        );
        let r = rigid(&m);
        let local = Vec3::new(0.5, -1.0, 4.0);
        let world = r.transform_point3(local);
        let mut positions = [to_quake(world.to_array())];
        let mut normals = [to_quake([1.0, 0.0, 0.0])];
        apply(&[r.inverse()], &mut positions, &mut normals, 1);
        let expected = to_quake(local.to_array());
        for k in 0..3 {
            assert!(
                (positions[0][k] - expected[k]).abs() < 1e-5,
                "{positions:?}"
            );
        }
        // Scene +X turned back a quarter about +Y is scene +Z: Quake's +X.
        let n = normals[0];
        assert!(
            (n[0] - 1.0).abs() < 1e-6 && n[1].abs() < 1e-6 && n[2].abs() < 1e-6,
            "{n:?}"
        );
    }
}
