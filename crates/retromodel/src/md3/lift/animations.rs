//! Which animations an MD3's scene gets: from an `animation.cfg`, from
//! runs of frame names, or one of every frame.

use serde_json::{json, Value};

use super::{Md3SceneOptions, PlayerPart, DEFAULT_FPS};
use crate::md3::{AnimationCfg, Md3, Part};

/// One animation to lift: its name, the frames it plays in order (frame
/// indices of the model), its rate and what to keep in its extras.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationSpec {
    /// The animation's name.
    pub name: String,
    /// The model's frames, one key each, in playing order.
    pub frames: Vec<usize>,
    /// Frames per second.
    pub fps: f32,
    /// The animation's extras (first frame, count, looping frames, fps).
    pub extras: Value,
}

/// The frames an animation plays: `count` from `first`, backwards when
/// `reversed`; `None` when any is not in `0..frames`.
///
/// ```
/// use retromodel::md3::animation_frames;
/// assert_eq!(animation_frames(2, 3, false, 10), Some(vec![2, 3, 4]));
/// assert_eq!(animation_frames(2, 3, true, 10), Some(vec![4, 3, 2]));
/// assert_eq!(animation_frames(8, 3, false, 10), None);
/// ```
pub fn animation_frames(
    first: i64,
    count: u32,
    reversed: bool,
    frames: usize,
) -> Option<Vec<usize>> {
    let first = usize::try_from(first).ok()?;
    let end = first.checked_add(count as usize)?;
    if end > frames || count == 0 {
        return None;
    }
    let mut v: Vec<usize> = (first..end).collect();
    if reversed {
        v.reverse();
    }
    Some(v)
}

/// The animations of `cfg` that play on a model of `frames` frames that
/// is `part` of a player: `BOTH_` and `LEGS_` on the lower part (`LEGS_`
/// frames less [`AnimationCfg::legs_skip`]), `BOTH_` and `TORSO_` on the
/// upper, none on the head, and with no part every animation at its
/// frames as written. Each keeps its first frame (in the model), frame
/// count, looping frames, fps and whether it is reversed in its extras.
/// Animations of no frames (OpenArena's merman has a `LEGS_TURN` of 0)
/// or whose frames the model lacks are left out, each with the reason in
/// the second list.
pub fn cfg_animations(
    cfg: &AnimationCfg,
    part: Option<PlayerPart>,
    frames: usize,
) -> (Vec<AnimationSpec>, Vec<String>) {
    let mut specs = Vec::new();
    let mut missing = Vec::new();
    for (i, a) in cfg.animations.iter().enumerate() {
        let plays = matches!(
            (part, a.part()),
            (None, _)
                | (_, Part::Both)
                | (Some(PlayerPart::Lower), Part::Legs)
                | (Some(PlayerPart::Upper), Part::Torso)
        );
        if !plays || part == Some(PlayerPart::Head) {
            continue;
        }
        let first = if part.is_some() {
            cfg.first_frame_in_part(i).unwrap_or(0)
        } else {
            i64::from(a.first_frame)
        };
        match animation_frames(first, a.frame_count(), a.reversed(), frames) {
            Some(list) => specs.push(AnimationSpec {
                name: a.name.to_string(),
                frames: list,
                fps: a.effective_fps(),
                extras: json!({
                    "first_frame": first,
                    "frame_count": a.frame_count(),
                    "looping_frames": a.looping_frames,
                    "fps": a.fps,
                    "reversed": a.reversed(),
                    "cfg_first_frame": a.first_frame,
                }),
            }),
            None if a.frame_count() == 0 => {
                missing.push(format!("{}: 0 frames; left out", a.name));
            }
            None => missing.push(format!(
                "{}: frames {first}..{} are not all in the model's {frames}; left out",
                a.name,
                first + i64::from(a.frame_count())
            )),
        }
    }
    (specs, missing)
}

/// The animations [`Scene::from_md3`](crate::scene::Scene::from_md3)
/// lifts, and the cfg's animations left out (with the reason).
pub(crate) fn specs(model: &Md3, options: &Md3SceneOptions) -> (Vec<AnimationSpec>, Vec<String>) {
    let frames = model.frames.len();
    if let Some(cfg) = &options.animation_cfg {
        return cfg_animations(cfg, options.part, frames);
    }
    if frames < 2 {
        return (Vec::new(), Vec::new());
    }
    let fps = if options.fps > 0.0 && options.fps.is_finite() {
        options.fps
    } else {
        DEFAULT_FPS
    };
    let names: Vec<String> = model
        .frames
        .iter()
        .map(|f| f.name.to_string_lossy())
        .collect();
    let runs = crate::quake::animations_from_runs(names.iter().map(String::as_str));
    let runs = if runs.len() > 1 {
        runs
    } else {
        vec![crate::quake::Animation {
            name: "frames".to_string(),
            first_frame: 0,
            frame_count: frames,
        }]
    };
    let specs = runs
        .into_iter()
        .map(|r| AnimationSpec {
            frames: r.frames().collect(),
            name: r.name,
            fps,
            extras: json!({ "first_frame": r.first_frame, "frame_count": r.frame_count, "fps": fps }),
        })
        .collect();
    (specs, Vec::new())
}
