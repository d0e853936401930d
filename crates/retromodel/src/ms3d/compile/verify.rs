//! The compiled model checked against its source: MilkShape's own
//! evaluation (`ms3d::Skeleton` and `Influences`, as its viewer poses and
//! skins) against the scene's (`scene::Pose`, as glTF plays it).

use glam::{Mat4, Vec3};

use super::layout::Layout;
use super::times;
use crate::error::{Error, Result};
use crate::ms3d::{Influences, Ms3d, Skeleton};
use crate::scene::{Pose, Scene};

/// The errors of a compiled model, relative to `extent`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Checked {
    /// Per placed animation: the largest vertex error.
    pub animations: Vec<f32>,
    /// Per placed animation: the times it was checked at.
    pub times: Vec<usize>,
    /// Per placed animation: its steps (`STEP` key times), near which it
    /// was not checked.
    pub steps: Vec<usize>,
    /// The bind pose against the source's rest pose.
    pub rest: f32,
}

/// Compares `model` with `scene` at every frame of every animation of
/// `layout` and each quarter between two (its end included; see
/// `times::checks`), and its bind pose with
/// the scene's rest pose; `vertex_map` gives each scene vertex's MS3D
/// vertex.
pub(crate) fn check(
    scene: &Scene,
    model: &Ms3d,
    layout: &Layout,
    vertex_map: &[Vec<Option<u32>>],
    extent: f32,
) -> Result<Checked> {
    let skeleton = Skeleton::new(model)?;
    let influences = Influences::new(model);
    let mut pose = Pose::new(scene)?;
    let longest = scene
        .meshes
        .iter()
        .map(|m| m.positions.len())
        .max()
        .unwrap_or(0);
    let mut positions = vec![[0.0f32; 3]; longest];
    let mut matrices = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let mut skinned = vec![[0.0f32; 3]; model.vertices.len()];
    // The largest distance over the extent; a position that is not
    // finite is an error naming its side and place (`when`).
    let mut compare = |pose: &Pose,
                       skinned: &[[f32; 3]],
                       when: &dyn Fn() -> String|
     -> Result<f32> {
        let mut worst = 0.0f32;
        for (m, map) in vertex_map.iter().enumerate() {
            let n = scene.meshes[m].positions.len();
            // Positions only: no normals asked for (an empty slice), so
            // none are transformed or normalised; the positions are the
            // same numbers either way.
            pose.mesh_vertices(scene, m, &mut positions[..n], &mut []);
            for (i, v) in map.iter().enumerate() {
                if let Some(v) = v {
                    let (a, b) = (Vec3::from(positions[i]), Vec3::from(skinned[*v as usize]));
                    if !a.is_finite() {
                        return Err(Error::InvalidScene {
                            path: format!("meshes[{m}].positions[{i}]"),
                            message: format!(
                                "posed {}, the vertex is at {a}, not a finite position",
                                when()
                            ),
                        });
                    }
                    if !b.is_finite() {
                        return Err(Error::unwritable(
                            format!("vertices[{v}]"),
                            format!(
                                "MilkShape's evaluation puts the vertex at {b} {}, not a finite position (the motion is too large for 32-bit floats)",
                                when()
                            ),
                        ));
                    }
                    worst = worst.max((a - b).length());
                }
            }
        }
        let e = worst / extent;
        if !e.is_finite() {
            return Err(Error::unwritable(
                "vertices",
                format!(
                    "the error {} is not a finite fraction of the extent {extent}",
                    when()
                ),
            ));
        }
        Ok(e)
    };
    // MilkShape's bind pose: every skinning matrix the identity (weights
    // short of 100 % still pull their vertices towards the origin).
    matrices.fill(Mat4::IDENTITY);
    influences.skin_positions(model, &matrices, &mut skinned);
    pose.reset(scene);
    let rest = compare(&pose, &skinned, &|| "in the rest pose".to_string())?;
    let mut out = Checked {
        animations: Vec::with_capacity(layout.placed.len()),
        times: Vec::with_capacity(layout.placed.len()),
        steps: Vec::with_capacity(layout.placed.len()),
        rest,
    };
    let fps = f64::from(layout.effective_fps);
    let gap = super::keys::step_gap(layout);
    for placed in &layout.placed {
        let mut worst = 0.0f32;
        let (checks, steps) = times::checks(
            &scene.animations[placed.animation],
            placed.duration,
            fps,
            gap,
        );
        out.times.push(checks.len());
        out.steps.push(steps);
        for t in checks {
            pose.sample(scene, placed.animation, t as f32);
            skeleton.pose_at_time((placed.offset + t) as f32, &mut matrices);
            skeleton.skinning_matrices(&mut matrices);
            influences.skin_positions(model, &matrices, &mut skinned);
            let when = || format!("at {t} s of animation {:?}", placed.name);
            worst = worst.max(compare(&pose, &skinned, &when)?);
        }
        out.animations.push(worst);
    }
    Ok(out)
}
