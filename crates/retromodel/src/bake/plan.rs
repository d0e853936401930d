//! Which poses become frames: the chosen animations sampled at `fps`
//! (shared by the compilers of every frame format; a format's own frame
//! tables, such as Quake II's player table, build a [`Plan`] themselves).
//!
//! # Sampling an animation
//!
//! An animation lasting `D` seconds (its last key) becomes
//! `N = round(D · fps) + 1` frames at `tⱼ = j · D / (N − 1)`: evenly over
//! `[0, D]`, the first at 0 and the last exactly at `D`, the end pose.
//! When `D` is a whole number of frame intervals (within 0.1 % of one),
//! `tⱼ = j / fps` exactly, so frames land on keys sampled at `fps`. When
//! it is not, the frames are spread evenly rather than ending with a
//! short interval: playing the frames at `fps` then runs at most half a
//! frame longer or shorter than the source over the whole animation, but
//! never stutters. An animation without keys, or lasting 0, is one frame.
//!
//! # Keeping a frame format's frames
//!
//! An animation that a frame format's reader made (MD2, MDL, MD3: its
//! extras give the `frame_count` of the stored frames it plays, and every
//! channel has one key per frame at the same times) is taken frame for
//! frame when the compile keeps source frames (no frame rate asked for):
//! one frame per key, at the key's time, so a model's frame numbers (what
//! QuakeC, a mod's code or `animation.cfg` use) stay the same from one
//! frame format to another. With a frame rate given it is sampled as any
//! other.

use crate::error::{Error, Result};
use crate::scene::{Animation, Scene};

/// One frame to bake: a pose of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FramePose {
    /// The scene animation, or `None` for the rest pose.
    pub animation: Option<usize>,
    /// Seconds into it.
    pub time: f32,
}

/// A run of frames that form one animation of the compiled model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    /// The name it should have (before the format fits it to its frame
    /// names).
    pub name: String,
    /// The scene animation's name (empty for rest poses and fillers).
    pub source: String,
    /// Index of the entry of a format's standard frame table (Quake II's
    /// player table) when the plan follows one.
    pub player_entry: Option<usize>,
    /// The frames.
    pub poses: Vec<FramePose>,
    /// For a frame format's animation kept frame for frame: its frames'
    /// names and its frame rate (see the module documentation).
    pub kept: Option<KeptFrames>,
}

/// What a frame format's animation, kept frame for frame, brings beside
/// its poses.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct KeptFrames {
    /// Each frame's name in the source (its morph target's), when every
    /// frame has one.
    pub names: Option<Vec<String>>,
    /// The frames per second the source plays it at.
    pub fps: f32,
}

impl Group {
    /// The name of frame `k` (from 0) in the source, when kept and it
    /// fits a Quake frame name: 1 to 15 bytes of printable ASCII (16 with
    /// the NUL, as MD2, MDL and MD3 store them).
    pub fn kept_name(&self, k: usize) -> Option<&str> {
        let name = self.kept.as_ref()?.names.as_ref()?.get(k)?;
        (1..=15)
            .contains(&name.len())
            .then_some(name.as_str())
            .filter(|n| n.bytes().all(|b| b.is_ascii_graphic()))
    }
}

/// The frames of a compile.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Plan {
    /// The animations in frame order.
    pub groups: Vec<Group>,
}

impl Plan {
    /// Every frame in order.
    pub fn poses(&self) -> impl Iterator<Item = FramePose> + '_ {
        self.groups.iter().flat_map(|g| g.poses.iter().copied())
    }

    /// Number of frames.
    pub fn frame_count(&self) -> usize {
        self.groups.iter().map(|g| g.poses.len()).sum()
    }
}

/// The times of the `n` frames sampling `[0, duration]` (see the module
/// documentation).
pub(crate) fn sample_times(duration: f32, fps: f32) -> Vec<f32> {
    if !(duration.is_finite() && duration > 0.0 && fps.is_finite() && fps > 0.0) {
        return vec![0.0];
    }
    let intervals = f64::from(duration) * f64::from(fps);
    let m = intervals.round().max(1.0);
    // Bounded by the caller's frame limit check; at most a few thousand.
    let m = m.min(1e6) as usize;
    let whole = (intervals - m as f64).abs() <= 1e-3;
    (0..=m)
        .map(|j| {
            if j == m {
                duration
            } else if whole {
                j as f32 / fps
            } else {
                (j as f64 * f64::from(duration) / m as f64) as f32
            }
        })
        .collect()
}

/// `n` times evenly over `[0, duration]`, first and last included.
pub(crate) fn resample_times(duration: f32, n: usize) -> Vec<f32> {
    if n <= 1 || !(duration.is_finite() && duration > 0.0) {
        return vec![0.0; n.max(1)];
    }
    (0..n)
        .map(|j| {
            if j + 1 == n {
                duration
            } else {
                (j as f64 * f64::from(duration) / (n - 1) as f64) as f32
            }
        })
        .collect()
}

/// The key times of an animation that a frame format's reader made: its
/// extras' `frame_count` keys on every channel, at the same times, finite
/// and rising (see the module documentation); `None` for any other.
pub(crate) fn source_frame_times(animation: &Animation) -> Option<&[f32]> {
    let count = animation.extras.get("frame_count")?.as_u64()?;
    let first = animation.channels.first()?;
    let times = first.times.as_slice();
    let rising = times.windows(2).all(|w| w[0] < w[1]);
    let same = animation.channels.iter().all(|c| c.times == times);
    (usize::try_from(count).ok() == Some(times.len())
        && !times.is_empty()
        && times.iter().all(|t| t.is_finite())
        && rising
        && same)
        .then_some(times)
}

/// The frames of the chosen animations (or all, in scene order), each
/// sampled at `fps`, or, with `keep_source_frames`, a frame format's
/// animation frame for frame (see the module documentation).
pub(crate) fn animations_plan(
    scene: &Scene,
    chosen: &[String],
    fps: f32,
    keep_source_frames: bool,
) -> Result<Plan> {
    if !(fps.is_finite() && fps > 0.0) {
        return Err(Error::InvalidOptions {
            message: format!("fps {fps} is not a positive number"),
        });
    }
    let indices: Vec<usize> = if chosen.is_empty() {
        (0..scene.animations.len()).collect()
    } else {
        chosen
            .iter()
            .map(|name| find_animation(scene, name))
            .collect::<Result<_>>()?
    };
    if indices.is_empty() {
        let name = if scene.name.is_empty() || scene.name == "md2" || scene.name == "ms3d" {
            "frame".to_string()
        } else {
            scene.name.clone()
        };
        return Ok(Plan {
            groups: vec![Group {
                name,
                source: String::new(),
                player_entry: None,
                kept: None,
                poses: vec![FramePose {
                    animation: None,
                    time: 0.0,
                }],
            }],
        });
    }
    let groups = indices
        .into_iter()
        .map(|i| {
            let a = &scene.animations[i];
            let (times, kept) = match source_frame_times(a).filter(|_| keep_source_frames) {
                Some(times) => (times.to_vec(), Some(kept_frames(scene, a, times))),
                None => (sample_times(a.duration(), fps), None),
            };
            Group {
                name: a.name.clone(),
                source: a.name.clone(),
                player_entry: None,
                kept,
                poses: times
                    .into_iter()
                    .map(|time| FramePose {
                        animation: Some(i),
                        time,
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(Plan { groups })
}

/// The names and rate of a frame format's animation played at `times`:
/// each key's name is that of the morph target its weights choose (the
/// one at weight 1, as the frame formats' readers key them), and the rate
/// is the extras' `fps`, else one over the first interval.
fn kept_frames(scene: &Scene, animation: &Animation, times: &[f32]) -> KeptFrames {
    let from_extras = animation
        .extras
        .get("fps")
        .and_then(serde_json::Value::as_f64)
        .map(|f| f as f32);
    let from_keys = match times {
        [a, b, ..] if b > a => Some(1.0 / (b - a)),
        _ => None,
    };
    let fps = from_extras
        .or(from_keys)
        .filter(|f| f.is_finite() && *f > 0.0)
        .unwrap_or(10.0);
    let names = animation.channels.iter().find_map(|c| {
        let crate::scene::Target::MorphWeights { mesh } = c.target else {
            return None;
        };
        let targets = &scene.meshes.get(mesh)?.morph_targets;
        let n = targets.len();
        if n == 0 || c.values.len() != n * times.len() {
            return None;
        }
        c.values
            .chunks_exact(n)
            .map(|w| {
                let t = w.iter().position(|&x| x == 1.0)?;
                let name = &targets[t].name;
                (!name.is_empty()).then(|| name.clone())
            })
            .collect::<Option<Vec<String>>>()
    });
    KeptFrames { names, fps }
}

pub(crate) fn find_animation(scene: &Scene, name: &str) -> Result<usize> {
    let exact = scene.animations.iter().position(|a| a.name == name);
    let loose = || {
        scene
            .animations
            .iter()
            .position(|a| a.name.eq_ignore_ascii_case(name))
    };
    exact.or_else(loose).ok_or_else(|| {
        let names: Vec<&str> = scene.animations.iter().map(|a| a.name.as_str()).collect();
        Error::InvalidOptions {
            message: format!(
                "the scene has no animation {name:?} (it has {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Animation, Channel, Interpolation, Target};

    fn anim(name: &str, duration: f32) -> Animation {
        Animation {
            name: name.into(),
            channels: vec![Channel {
                target: Target::Translation { node: 0 },
                interpolation: Interpolation::Linear,
                times: vec![0.0, duration],
                values: vec![0.0; 6],
            }],
            extras: serde_json::Value::Null,
        }
    }

    #[test]
    fn whole_durations_land_on_keys_and_others_spread_evenly() {
        // 0.5 s at 10 fps: 6 frames at exactly k / 10.
        let t = sample_times(0.5, 10.0);
        assert_eq!(t, [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]);
        assert_eq!(t[3], 3.0f32 / 10.0);
        // 0.53 s: round(5.3) = 5 intervals of 0.106 s, ending at 0.53.
        let t = sample_times(0.53, 10.0);
        assert_eq!(t.len(), 6);
        assert_eq!(*t.last().unwrap(), 0.53);
        for w in t.windows(2) {
            assert!((w[1] - w[0] - 0.106).abs() < 1e-6, "{t:?}");
        }
        // No duration: one frame.
        assert_eq!(sample_times(0.0, 10.0), [0.0]);
        // A tiny duration still ends on its end pose.
        assert_eq!(sample_times(0.01, 10.0), [0.0, 0.01]);
    }

    #[test]
    fn unknown_animation_names_are_errors_that_list_the_choices() {
        let scene = Scene {
            animations: vec![anim("walk", 1.0)],
            ..Scene::default()
        };
        let err = animations_plan(&scene, &["run".into()], 10.0, true).unwrap_err();
        assert!(err.to_string().contains("it has walk"), "{err}");
        let plan = animations_plan(&scene, &["WALK".into()], 10.0, true).unwrap();
        assert_eq!(plan.frame_count(), 11);
    }
}
