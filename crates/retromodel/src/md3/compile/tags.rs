//! Tags from the scene's nodes named `tag_*`: each node's scene-space
//! transform at every frame, in Quake's axes.

use glam::{Mat4, Vec3};

use crate::bake::plan::Plan;
use crate::bake::to_quake;
use crate::error::Result;
use crate::md3::md3_axes;
use crate::md3::Tag;
use crate::scene::{Pose, Scene};

/// The nodes that become tags: those whose name starts with `tag_`
/// (ASCII case-insensitive), in node order, first of each name only,
/// among those `keep` takes.
pub(super) fn tag_nodes(scene: &Scene, keep: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (i, n) in scene.nodes.iter().enumerate() {
        if !keep(i) {
            continue;
        }
        let is_tag = n
            .name
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("tag_"));
        if is_tag && !seen.contains(&n.name.as_str()) {
            seen.push(&n.name);
            out.push(i);
        }
    }
    out
}

/// A tag from a node's scene-space matrix `m`, its origin multiplied by
/// `scale`: with `A` the lift's axes ([`md3_axes`]) the tag's frame is
/// `A⁻¹ · M · A`, so axis `k` is the node's transform of Quake's axis `k`
/// (forward, left, up) brought back to Quake's axes, normalised (a scaled
/// node's axes are unit vectors in the file).
pub(super) fn tag_of(name: crate::md3::QPath, m: &Mat4, scale: f32) -> Tag {
    let origin = to_quake(m.w_axis.truncate().to_array()).map(|c| c * scale);
    let mut axes = [[0.0f32; 3]; 3];
    for (k, axis) in axes.iter_mut().enumerate() {
        let mut e = [0.0f32; 3];
        e[k] = 1.0;
        let v = m.transform_vector3(Vec3::from(md3_axes(e)));
        let v = v.try_normalize().unwrap_or(Vec3::from(md3_axes(e)));
        *axis = to_quake(v.to_array());
    }
    Tag { name, origin, axes }
}

/// The tags of every frame of `plan`, frame after frame; with
/// `inverses` (per frame, a scene-space matrix: the inverse of the frame
/// the model is stored in), each tag relative to that frame.
pub(super) fn tag_frames(
    scene: &Scene,
    plan: &Plan,
    nodes: &[usize],
    names: &[crate::md3::QPath],
    scale: f32,
    inverses: Option<&[Mat4]>,
) -> Result<Vec<Tag>> {
    if nodes.is_empty() {
        return Ok(Vec::new());
    }
    let mut pose = Pose::new(scene)?;
    let mut tags = Vec::with_capacity(plan.frame_count() * nodes.len());
    for (f, fp) in plan.poses().enumerate() {
        let inverse = inverses
            .and_then(|i| i.get(f))
            .copied()
            .unwrap_or(Mat4::IDENTITY);
        match fp.animation {
            Some(a) => pose.sample(scene, a, fp.time),
            None => pose.reset(scene),
        }
        for (&node, &name) in nodes.iter().zip(names) {
            let m = pose
                .node_matrix(node)
                .map_or(Mat4::IDENTITY, |m| Mat4::from_cols_array(&m));
            tags.push(tag_of(name, &(inverse * m), scale));
        }
    }
    Ok(tags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md3::QPath;

    #[test]
    fn a_node_turned_a_quarter_about_scene_up_turns_forward_to_left() {
        // Scene +Y is Quake's up; a quarter turn about it (counter-
        // clockwise seen from above) takes Quake's forward (+X, scene +Z)
        // to Quake's left (+Y, scene +X).
        let m = Mat4::from_rotation_translation(
            glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            Vec3::new(1.0, 2.0, 3.0),
        );
        let t = tag_of(QPath::new("tag_weapon"), &m, 2.0);
        assert_eq!(t.origin, [6.0, 2.0, 4.0]);
        let near = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        assert!(near(t.axes[0], [0.0, 1.0, 0.0]), "{:?}", t.axes);
        assert!(near(t.axes[1], [-1.0, 0.0, 0.0]), "{:?}", t.axes);
        assert!(near(t.axes[2], [0.0, 0.0, 1.0]), "{:?}", t.axes);
    }
}
