//! The IQM's frames: which times each animation samples, every joint's
//! channels at each, their 16-bit quantisation, and the measured error
//! (see [`compile`](super)).

use glam::{Quat, Vec3};

use super::skeleton::{quake_axes, quake_trs, Skeleton};
use super::{IqmCompileOptions, DEFAULT_SAMPLE_FPS};
use crate::error::{Error, Result};
use crate::iqm::{Iqm, CHANNELS, MAX_JOINT_FRAMES};
use crate::scene::{Pose, Scene};

/// How one animation is sampled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct AnimPlan {
    pub fps: f32,
    pub count: usize,
    pub first_frame: usize,
    pub loops: bool,
}

/// The rates an animation's keys are tried against, in order.
const KEY_RATES: [f32; 10] = [10.0, 12.0, 15.0, 20.0, 24.0, 25.0, 30.0, 48.0, 50.0, 60.0];

/// The smallest of [`KEY_RATES`] every key time of `anim` falls on.
fn key_rate(anim: &crate::scene::Animation) -> Option<f32> {
    KEY_RATES.into_iter().find(|&r| {
        anim.channels.iter().flat_map(|c| &c.times).all(|&t| {
            (f64::from(t) * f64::from(r) - (f64::from(t) * f64::from(r)).round()).abs() < 1e-3
        })
    })
}

/// The most frames a compile makes (all animations together): over an
/// hour at 60 frames per second.
pub const MAX_FRAMES: usize = 1 << 18;

pub(super) fn plan(scene: &Scene, options: &IqmCompileOptions) -> Result<Vec<AnimPlan>> {
    let mut first_frame = 0usize;
    let plans: Vec<AnimPlan> = scene
        .animations
        .iter()
        .map(|a| {
            let own = a
                .extras
                .get("fps")
                .and_then(serde_json::Value::as_f64)
                .map(|f| f as f32)
                .filter(|f| f.is_finite() && *f > 0.0);
            let fps = options
                .fps
                .or(own)
                .or_else(|| key_rate(a))
                .unwrap_or(DEFAULT_SAMPLE_FPS);
            let stored = a
                .extras
                .get("frames")
                .and_then(serde_json::Value::as_u64)
                .map(|n| n as usize);
            let count = match (options.fps, own, stored) {
                (None, Some(_), Some(n)) if n > 0 => n.min(MAX_FRAMES + 1),
                _ => {
                    let n = (f64::from(a.duration()) * f64::from(fps)).round();
                    if n.is_finite() && n >= 0.0 && n < MAX_FRAMES as f64 {
                        n as usize + 1
                    } else {
                        MAX_FRAMES + 1
                    }
                }
            };
            let p = AnimPlan {
                fps,
                count,
                first_frame,
                loops: a
                    .extras
                    .get("loop")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false),
            };
            first_frame = first_frame.saturating_add(count);
            p
        })
        .collect();
    if first_frame > MAX_FRAMES {
        return Err(Error::unwritable(
            "animations",
            format!("{first_frame} frames at the rates chosen, more than the {MAX_FRAMES} a compile makes"),
        ));
    }
    Ok(plans)
}

/// Every frame's channels, joint by joint, in Quake's axes.
pub(super) fn sample(
    scene: &Scene,
    skeleton: &Skeleton,
    plan: &[AnimPlan],
) -> Result<Vec<Vec<[f32; CHANNELS]>>> {
    let frames: usize = plan.iter().map(|p| p.count).sum();
    let n = skeleton.joints.len();
    if n.saturating_mul(frames) > MAX_JOINT_FRAMES {
        return Err(Error::unwritable(
            "animations",
            format!("{n} joints × {frames} frames is more than {MAX_JOINT_FRAMES}"),
        ));
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut pose = Pose::new(scene)?;
    let mut out = Vec::with_capacity(frames);
    let mut previous: Vec<Option<Quat>> = vec![None; n];
    for (a, p) in plan.iter().enumerate() {
        for k in 0..p.count {
            pose.sample(scene, a, k as f32 / p.fps);
            let frame: Vec<[f32; CHANNELS]> = skeleton
                .joints
                .iter()
                .enumerate()
                .map(|(j, joint)| {
                    let (t, r, s) = joint.node.and_then(|node| pose.local(node)).unwrap_or((
                        [0.0; 3],
                        [0.0, 0.0, 0.0, 1.0],
                        [1.0; 3],
                    ));
                    let (t, r, s) = quake_trs(t, r, s);
                    let mut q = Quat::from_array(r);
                    if previous[j].is_some_and(|prev| prev.dot(q) < 0.0) {
                        q = -q;
                    }
                    previous[j] = Some(q);
                    let r = q.to_array();
                    [t[0], t[1], t[2], r[0], r[1], r[2], r[3], s[0], s[1], s[2]]
                })
                .collect();
            out.push(frame);
        }
    }
    Ok(out)
}

/// The worst distance between the written file's vertices, skinned as
/// the engines skin them, and the scene's at the same moments (every
/// frame, or the rest pose without frames); and the bind pose's extent.
pub(super) fn measure(
    scene: &Scene,
    model: &Iqm,
    plan: &[AnimPlan],
    sources: &[(usize, usize)],
) -> Result<(f32, f32)> {
    let bind = model.skinned_positions(&model.skin_matrices(None).unwrap_or_default());
    let extent = bind
        .iter()
        .map(|p| Vec3::from(*p).length())
        .fold(0.0, f32::max);
    let mut pose = Pose::new(scene)?;
    let mut scene_positions: Vec<Vec<[f32; 3]>> = scene
        .meshes
        .iter()
        .map(|m| vec![[0.0; 3]; m.positions.len()])
        .collect();
    let mut normals: Vec<Vec<[f32; 3]>> = scene_positions.clone();
    let mut worst = 0.0f32;
    let mut compare = |pose: &Pose, written: &[[f32; 3]]| {
        for (m, out) in scene_positions.iter_mut().enumerate() {
            pose.mesh_vertices(scene, m, out, &mut normals[m]);
        }
        for (v, &(m, i)) in sources.iter().enumerate() {
            let (Some(w), Some(s)) = (
                written.get(v),
                scene_positions.get(m).and_then(|x| x.get(i)),
            ) else {
                continue;
            };
            let d = (Vec3::from(*w) - Vec3::from(quake_axes(*s))).length();
            worst = worst.max(d);
        }
    };
    if model.num_frames == 0 {
        pose.reset(scene);
        compare(&pose, &bind);
    }
    for (a, p) in plan.iter().enumerate() {
        for k in 0..p.count {
            pose.sample(scene, a, k as f32 / p.fps);
            let m = model
                .skin_matrices(Some(p.first_frame + k))
                .unwrap_or_default();
            compare(&pose, &model.skinned_positions(&m));
        }
    }
    Ok((worst, extent))
}
