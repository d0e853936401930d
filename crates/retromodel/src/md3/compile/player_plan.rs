//! Which frames a Quake III player's `lower.md3` and `upper.md3` hold,
//! and the `animation.cfg` lines that play them, from a scene's
//! animations.
//!
//! Two ways, the first when it applies:
//!
//! - **As it was.** When every one of the 25 animations the game needs
//!   (`BOTH_DEATH1` .. `LEGS_TURN`) is a scene animation of that name
//!   carrying the extras a player's lift gives it (`first_frame`,
//!   `frame_count`, `looping_frames`, `fps`, `reversed`,
//!   `cfg_first_frame`) and lasting what they say (within a frame: Blender's
//!   glTF exporter resamples at the scene's rate), each part's frames are
//!   laid out where they were and the cfg's lines are written back as
//!   they were: a player read and written comes back frame for frame.
//!   A line the lift left out (its frames were not in the model, or it
//!   had none: OpenArena's merman's `LEGS_TURN`) is written as the scene's
//!   extras recorded it (`md3_player.lines`). A frame no line plays (the
//!   lift keeps none) is the rest pose.
//! - **Laid out.** Otherwise each of the 25 (and any of Team Arena's six
//!   the scene has) takes the scene animation of its name (ASCII
//!   case-insensitive), else one of a few common names (`idle`, `run`,
//!   `walk`, `attack`, `death`, `jump`, ...), else borrows another's
//!   frames (`BOTH_DEAD1` the last frame of `BOTH_DEATH1`, `LEGS_WALKCR`
//!   `LEGS_WALK`'s, ...; [`FALLBACK`]), else the rest pose. Frames go in
//!   three runs, as id's players have them: the `BOTH_` animations' in
//!   both files, then the `TORSO_` ones' in `upper.md3` only and the
//!   `LEGS_` ones' in `lower.md3` only, each animation's frames once
//!   however many lines play them. `TORSO_GESTURE`'s frames start the
//!   torso's run and `LEGS_WALKCR`'s the legs', at the same frame: the
//!   game takes `first(LEGS_WALKCR) - first(TORSO_GESTURE)` off every
//!   `LEGS_` line (`CG_ParseAnimationFile` in ioquake3's
//!   `code/cgame/cg_players.c`), which is then the torso run's length.

use serde_json::Value;

use crate::bake::plan::{resample_times, sample_times, FramePose, Group, Plan};
use crate::md3::{limits, CfgAnimation, ANIMATION_NAMES, REQUIRED_ANIMATIONS};
use crate::scene::Scene;

/// Index of `TORSO_GESTURE` in [`ANIMATION_NAMES`].
const TORSO_GESTURE: usize = 6;
/// Index of `LEGS_WALKCR` in [`ANIMATION_NAMES`].
const LEGS_WALKCR: usize = 13;

/// For each required animation, whose frames it borrows when the scene
/// has none of its own (`None`: the rest pose). `BOTH_DEADn` take the
/// last frame of `BOTH_DEATHn`'s.
pub const FALLBACK: [Option<&str>; REQUIRED_ANIMATIONS] = [
    None,                 // BOTH_DEATH1
    Some("BOTH_DEATH1"),  // BOTH_DEAD1 (its last frame)
    Some("BOTH_DEATH1"),  // BOTH_DEATH2
    Some("BOTH_DEATH2"),  // BOTH_DEAD2 (its last frame)
    Some("BOTH_DEATH1"),  // BOTH_DEATH3
    Some("BOTH_DEATH3"),  // BOTH_DEAD3 (its last frame)
    Some("TORSO_STAND"),  // TORSO_GESTURE
    Some("TORSO_STAND"),  // TORSO_ATTACK
    Some("TORSO_ATTACK"), // TORSO_ATTACK2
    Some("TORSO_STAND"),  // TORSO_DROP
    Some("TORSO_STAND"),  // TORSO_RAISE
    None,                 // TORSO_STAND
    Some("TORSO_STAND"),  // TORSO_STAND2
    Some("LEGS_WALK"),    // LEGS_WALKCR
    Some("LEGS_RUN"),     // LEGS_WALK
    Some("LEGS_WALK"),    // LEGS_RUN
    Some("LEGS_RUN"),     // LEGS_BACK
    Some("LEGS_IDLE"),    // LEGS_SWIM
    Some("LEGS_IDLE"),    // LEGS_JUMP
    Some("LEGS_IDLE"),    // LEGS_LAND
    Some("LEGS_JUMP"),    // LEGS_JUMPB
    Some("LEGS_LAND"),    // LEGS_LANDB
    None,                 // LEGS_IDLE
    Some("LEGS_IDLE"),    // LEGS_IDLECR
    Some("LEGS_IDLE"),    // LEGS_TURN
];

/// Whether animation `index` takes the last frame of what it borrows.
fn last_frame_of(index: usize) -> bool {
    matches!(index, 1 | 3 | 5)
}

/// Common animation names and the lines they fill (ASCII
/// case-insensitive), after the cfg's own names.
const COMMON_NAMES: [(&str, &[&str]); 16] = [
    ("idle", &["LEGS_IDLE", "TORSO_STAND"]),
    ("stand", &["TORSO_STAND", "LEGS_IDLE"]),
    ("walk", &["LEGS_WALK"]),
    ("run", &["LEGS_RUN"]),
    ("back", &["LEGS_BACK"]),
    ("swim", &["LEGS_SWIM"]),
    ("jump", &["LEGS_JUMP"]),
    ("land", &["LEGS_LAND"]),
    ("crouch", &["LEGS_IDLECR"]),
    ("crouch_walk", &["LEGS_WALKCR"]),
    ("turn", &["LEGS_TURN"]),
    ("attack", &["TORSO_ATTACK"]),
    ("gesture", &["TORSO_GESTURE"]),
    ("taunt", &["TORSO_GESTURE"]),
    ("death", &["BOTH_DEATH1"]),
    ("die", &["BOTH_DEATH1"]),
];

/// The lines whose frames loop whole by default (id's players loop
/// these and no others).
const LOOPING: [&str; 8] = [
    "LEGS_WALKCR",
    "LEGS_WALK",
    "LEGS_RUN",
    "LEGS_BACK",
    "LEGS_SWIM",
    "LEGS_IDLE",
    "LEGS_IDLECR",
    "LEGS_TURN",
];

/// How one `animation.cfg` line got its frames.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LineSource {
    /// The scene animation of its name, as it was (its extras).
    AsItWas,
    /// The scene animation of its name.
    Named,
    /// The scene animation of a common name (`idle`, `run`, ...).
    CommonName(String),
    /// Another line's frames (the last of them: `last`).
    Borrowed {
        /// The line it borrows from.
        from: &'static str,
        /// Only its last frame.
        last: bool,
    },
    /// The rest pose, one frame.
    RestPose,
}

/// One line of the written `animation.cfg` and where its frames came
/// from.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayerLine {
    /// The line.
    pub line: CfgAnimation,
    /// Where its frames came from.
    pub source: LineSource,
}

/// The frames of a player's parts and the lines that play them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlayerPlan {
    /// `lower.md3`'s frames.
    pub lower: Plan,
    /// `upper.md3`'s frames.
    pub upper: Plan,
    /// `head.md3`'s one frame: the rest pose.
    pub head: Plan,
    /// The cfg's lines, in file order.
    pub lines: Vec<PlayerLine>,
    /// Frames of the parts no line plays, written as the rest pose.
    pub unplayed: usize,
}

fn rest() -> FramePose {
    FramePose {
        animation: None,
        time: 0.0,
    }
}

fn rest_plan(name: &str) -> Plan {
    Plan {
        groups: vec![Group {
            name: name.to_string(),
            source: String::new(),
            player_entry: None,
            kept: None,
            poses: vec![rest()],
        }],
    }
}

/// The scene animation named `name` (ASCII case-insensitive).
fn named(scene: &Scene, name: &str) -> Option<usize> {
    scene
        .animations
        .iter()
        .position(|a| a.name.eq_ignore_ascii_case(name))
}

/// The lines the scene fills: the 25, and those of Team Arena's six it
/// has animations of.
fn wanted(scene: &Scene) -> Vec<usize> {
    (0..ANIMATION_NAMES.len())
        .filter(|&i| i < REQUIRED_ANIMATIONS || named(scene, ANIMATION_NAMES[i]).is_some())
        .collect()
}

/// The plan for `scene`'s player (see the [module documentation](self));
/// `fps` samples animations that carry no rate of their own.
pub(crate) fn plan(scene: &Scene, fps: f32) -> PlayerPlan {
    as_it_was(scene).unwrap_or_else(|| laid_out(scene, fps))
}

/// One line as the lift's extras give it.
struct Kept {
    index: usize,
    /// The scene animation that plays it (`None`: a line the scene only
    /// recorded, whose frames the model did not have).
    animation: Option<usize>,
    /// First frame in its part's file.
    first: usize,
    count: usize,
    reversed: bool,
    fps: f32,
    line: CfgAnimation,
}

fn kept(scene: &Scene, index: usize) -> Option<Kept> {
    let name = ANIMATION_NAMES[index];
    let animation = named(scene, name)?;
    let extras = &scene.animations[animation].extras;
    let int = |key: &str| extras.get(key).and_then(Value::as_i64);
    let first = usize::try_from(int("first_frame")?).ok()?;
    let count = usize::try_from(int("frame_count")?).ok()?;
    let looping = i32::try_from(int("looping_frames")?).ok()?;
    let cfg_first = i32::try_from(int("cfg_first_frame")?).ok()?;
    let raw_fps = extras.get("fps").and_then(Value::as_f64)? as f32;
    let reversed = extras.get("reversed").and_then(Value::as_bool)?;
    if count == 0 || first.checked_add(count)? > limits::MAX_FRAMES || !raw_fps.is_finite() {
        return None;
    }
    let fps = if raw_fps == 0.0 { 1.0 } else { raw_fps };
    // It must last what its frames do, within a frame.
    let expected = (count - 1) as f32 / fps;
    let duration = scene.animations[animation].duration();
    // (A frame: Blender's glTF exporter samples at the scene's rate,
    // which can end an animation up to a frame early.)
    if !(fps > 0.0 && (duration - expected).abs() <= 1.0 / fps) {
        return None;
    }
    let count_i32 = i32::try_from(count).ok()?;
    Some(Kept {
        index,
        animation: Some(animation),
        first,
        count,
        reversed,
        fps,
        line: CfgAnimation {
            name,
            first_frame: cfg_first,
            num_frames: if reversed { -count_i32 } else { count_i32 },
            looping_frames: looping,
            fps: raw_fps,
            line: 0,
        },
    })
}

/// The lines the scene's extras recorded (`md3_player.lines`: first,
/// count, looping, fps each), at most [`ANIMATION_NAMES`]' length.
fn recorded(scene: &Scene) -> Vec<Option<CfgAnimation>> {
    let Some(lines) = scene
        .extras
        .get("md3_player")
        .and_then(|p| p.get("lines"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    lines
        .iter()
        .zip(ANIMATION_NAMES)
        .map(|(l, name)| {
            let n = |k: usize| l.get(k).and_then(Value::as_f64);
            let int = |k: usize| {
                n(k).filter(|v| v.fract() == 0.0 && v.abs() < 1e9)
                    .map(|v| v as i32)
            };
            Some(CfgAnimation {
                name,
                first_frame: int(0)?,
                num_frames: int(1)?,
                looping_frames: int(2)?,
                fps: n(3).map(|f| f as f32).filter(|f| f.is_finite())?,
                line: 0,
            })
        })
        .collect()
}

/// The frames of one part from the kept lines that play on it.
fn part_frames(lines: &[&Kept]) -> (Plan, usize) {
    let lines: Vec<&&Kept> = lines.iter().filter(|k| k.animation.is_some()).collect();
    let n = lines.iter().map(|k| k.first + k.count).max().unwrap_or(0);
    let mut groups: Vec<Group> = Vec::new();
    let mut unplayed = 0;
    for f in 0..n {
        let player = lines
            .iter()
            .find(|k| (k.first..k.first + k.count).contains(&f));
        let (name, pose) = match player {
            Some(k) => {
                let step = if k.reversed {
                    k.first + k.count - 1 - f
                } else {
                    f - k.first
                };
                (
                    ANIMATION_NAMES[k.index],
                    FramePose {
                        animation: k.animation,
                        time: step as f32 / k.fps,
                    },
                )
            }
            None => {
                unplayed += 1;
                ("unplayed", rest())
            }
        };
        match groups.last_mut() {
            Some(g) if g.name == name => g.poses.push(pose),
            _ => groups.push(Group {
                name: name.to_string(),
                source: name.to_string(),
                player_entry: None,
                kept: None,
                poses: vec![pose],
            }),
        }
    }
    (Plan { groups }, unplayed)
}

/// The plan that writes a lifted player back as it was, when the scene
/// is one (see the module documentation).
fn as_it_was(scene: &Scene) -> Option<PlayerPlan> {
    let recorded = recorded(scene);
    let count = wanted(scene).len().max(recorded.len());
    let kept: Vec<Kept> = (0..count)
        .map(|i| {
            kept(scene, i).or_else(|| {
                let line = recorded.get(i)?.clone()?;
                Some(Kept {
                    index: i,
                    animation: None,
                    first: 0,
                    count: 0,
                    reversed: false,
                    fps: 1.0,
                    line,
                })
            })
        })
        .collect::<Option<_>>()?;
    // The legs' lines must all sit `skip` frames on from their place in
    // lower.md3, as the game reads them.
    let skip = i64::from(kept.get(LEGS_WALKCR)?.line.first_frame)
        - i64::from(kept.get(TORSO_GESTURE)?.line.first_frame);
    let legs = |k: &&Kept| ANIMATION_NAMES[k.index].starts_with("LEGS_");
    let torso = |k: &&Kept| ANIMATION_NAMES[k.index].starts_with("TORSO_");
    let both = |k: &&Kept| ANIMATION_NAMES[k.index].starts_with("BOTH_");
    let consistent = kept.iter().filter(|k| k.animation.is_some()).all(|k| {
        let offset = i64::from(k.line.first_frame) - k.first as i64;
        if legs(&k) {
            offset == skip
        } else {
            offset == 0
        }
    });
    if !consistent {
        return None;
    }
    let lower: Vec<&Kept> = kept.iter().filter(|k| both(k) || legs(k)).collect();
    let upper: Vec<&Kept> = kept.iter().filter(|k| both(k) || torso(k)).collect();
    let (lower, a) = part_frames(&lower);
    let (upper, b) = part_frames(&upper);
    // A line only recorded must be one the lift had to leave out: of no
    // frames, or of frames past its part's.
    let left_out = |k: &Kept| {
        let count = i64::from(k.line.num_frames.unsigned_abs());
        let first = i64::from(k.line.first_frame) - if legs(&k) { skip } else { 0 };
        let frames = if legs(&k) {
            lower.frame_count()
        } else {
            upper.frame_count()
        } as i64;
        count == 0 || first < 0 || first + count > frames
    };
    let animated = kept.iter().any(|k| k.animation.is_some());
    if !animated || !kept.iter().all(|k| k.animation.is_some() || left_out(k)) {
        return None;
    }
    Some(PlayerPlan {
        lower,
        upper,
        head: rest_plan("head"),
        lines: kept
            .into_iter()
            .map(|k| PlayerLine {
                line: k.line,
                source: LineSource::AsItWas,
            })
            .collect(),
        unplayed: a + b,
    })
}

/// Where a line's frames come from, resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Frames {
    Scene { animation: usize, fps: f32 },
    Rest,
}

/// A run of frames in one of the three runs.
struct Block {
    frames: Frames,
    poses: Vec<FramePose>,
    /// The name its frames are called by.
    name: &'static str,
}

/// The lines' sources: each line's own animation, a common name's, a
/// borrowed line's or the rest pose.
fn resolve(scene: &Scene, fps: f32) -> Vec<(usize, Frames, LineSource)> {
    let lines = wanted(scene);
    let rate = |a: usize| {
        let own = scene.animations[a]
            .extras
            .get("fps")
            .and_then(Value::as_f64)
            .map(|f| f as f32)
            .filter(|f| f.is_finite() && *f > 0.0 && *f <= 1000.0);
        own.unwrap_or(fps)
    };
    let mut direct: Vec<Option<(usize, LineSource)>> = vec![None; ANIMATION_NAMES.len()];
    for &i in &lines {
        if let Some(a) = named(scene, ANIMATION_NAMES[i]) {
            direct[i] = Some((a, LineSource::Named));
        }
    }
    for (common, fills) in COMMON_NAMES {
        let Some(a) = named(scene, common) else {
            continue;
        };
        for fill in fills {
            if let Some(i) = ANIMATION_NAMES.iter().position(|n| n == fill) {
                if direct[i].is_none() {
                    direct[i] = Some((a, LineSource::CommonName(scene.animations[a].name.clone())));
                }
            }
        }
    }
    lines
        .into_iter()
        .map(|i| {
            if let Some((a, source)) = direct[i].clone() {
                let frames = Frames::Scene {
                    animation: a,
                    fps: rate(a),
                };
                return (i, frames, source);
            }
            // Borrow along the fallbacks (at most the table's length:
            // walk and run borrow each other).
            let mut at = i;
            for _ in 0..REQUIRED_ANIMATIONS {
                let Some(from) = FALLBACK.get(at).copied().flatten() else {
                    break;
                };
                let Some(next) = ANIMATION_NAMES.iter().position(|n| *n == from) else {
                    break;
                };
                if let Some((a, _)) = &direct[next] {
                    let frames = Frames::Scene {
                        animation: *a,
                        fps: rate(*a),
                    };
                    let source = LineSource::Borrowed {
                        from: ANIMATION_NAMES[next],
                        last: last_frame_of(i),
                    };
                    return (i, frames, source);
                }
                at = next;
            }
            (i, Frames::Rest, LineSource::RestPose)
        })
        .collect()
}

fn poses_of(scene: &Scene, frames: Frames) -> Vec<FramePose> {
    match frames {
        Frames::Scene { animation, fps } => {
            let duration = scene
                .animations
                .get(animation)
                .map_or(0.0, |a| a.duration());
            // More frames than an MD3 holds fail the compile's frame check:
            // no need to lay out a million first.
            let times = if f64::from(duration) * f64::from(fps) > limits::MAX_FRAMES as f64 {
                resample_times(duration, limits::MAX_FRAMES + 1)
            } else {
                sample_times(duration, fps)
            };
            times
                .into_iter()
                .map(|time| FramePose {
                    animation: Some(animation),
                    time,
                })
                .collect()
        }
        Frames::Rest => vec![rest()],
    }
}

/// The block holding `frames` in `run` (added when new): its index.
fn block(scene: &Scene, run: &mut Vec<Block>, frames: Frames, name: &'static str) -> usize {
    if let Some(b) = run.iter().position(|b| b.frames == frames) {
        return b;
    }
    run.push(Block {
        frames,
        poses: poses_of(scene, frames),
        name,
    });
    run.len() - 1
}

fn start_of(run: &[Block], b: usize) -> usize {
    run[..b].iter().map(|b| b.poses.len()).sum()
}

fn groups(run: &[Block]) -> impl Iterator<Item = Group> + '_ {
    run.iter().map(|b| Group {
        name: b.name.to_string(),
        source: b.name.to_string(),
        player_entry: None,
        kept: None,
        poses: b.poses.clone(),
    })
}

/// The laid-out plan (see the module documentation).
fn laid_out(scene: &Scene, fps: f32) -> PlayerPlan {
    let resolved = resolve(scene, fps);
    let (mut both, mut torso, mut legs) = (Vec::new(), Vec::new(), Vec::new());
    // TORSO_GESTURE's frames first in the torso's run, LEGS_WALKCR's in
    // the legs'.
    for &(i, frames, _) in &resolved {
        if i == TORSO_GESTURE {
            block(scene, &mut torso, frames, ANIMATION_NAMES[i]);
        }
        if i == LEGS_WALKCR {
            block(scene, &mut legs, frames, ANIMATION_NAMES[i]);
        }
    }
    let mut placed = Vec::new();
    for (i, frames, source) in resolved {
        let name = ANIMATION_NAMES[i];
        let run = if name.starts_with("BOTH_") {
            &mut both
        } else if name.starts_with("LEGS_") {
            &mut legs
        } else {
            &mut torso
        };
        let b = block(scene, run, frames, name);
        placed.push((i, b, source));
    }
    let both_frames: usize = both.iter().map(|b| b.poses.len()).sum();
    let torso_frames: usize = torso.iter().map(|b| b.poses.len()).sum();
    let lines = placed
        .into_iter()
        .map(|(i, b, source)| {
            let name = ANIMATION_NAMES[i];
            let (run, base) = if name.starts_with("BOTH_") {
                (&both, 0)
            } else if name.starts_with("LEGS_") {
                (&legs, both_frames + torso_frames)
            } else {
                (&torso, both_frames)
            };
            let block = &run[b];
            let mut first = base + start_of(run, b);
            let mut count = block.poses.len();
            let last = matches!(source, LineSource::Borrowed { last: true, .. });
            if last {
                first += count - 1;
                count = 1;
            }
            let looping = if LOOPING.contains(&name) && !last {
                count
            } else {
                0
            };
            let fps = match block.frames {
                Frames::Scene { fps, .. } => fps,
                Frames::Rest => fps,
            };
            PlayerLine {
                line: CfgAnimation {
                    name,
                    first_frame: first as i32,
                    num_frames: count as i32,
                    looping_frames: looping as i32,
                    fps,
                    line: 0,
                },
                source,
            }
        })
        .collect();
    PlayerPlan {
        lower: Plan {
            groups: groups(&both).chain(groups(&legs)).collect(),
        },
        upper: Plan {
            groups: groups(&both).chain(groups(&torso)).collect(),
        },
        head: rest_plan("head"),
        lines,
        unplayed: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md3::AnimationCfg;
    use crate::scene::{Animation, Channel, Interpolation, Target};

    fn animation(name: &str, seconds: f32) -> Animation {
        Animation {
            name: name.to_string(),
            channels: vec![Channel {
                target: Target::Translation { node: 0 },
                interpolation: Interpolation::Linear,
                times: vec![0.0, seconds],
                values: vec![0.0; 6],
            }],
            extras: Value::Null,
        }
    }

    fn scene(animations: Vec<Animation>) -> Scene {
        Scene {
            nodes: vec![crate::scene::Node::default()],
            animations,
            ..Scene::default()
        }
    }

    fn cfg_of(plan: &PlayerPlan) -> AnimationCfg {
        AnimationCfg {
            animations: plan.lines.iter().map(|l| l.line.clone()).collect(),
            ..AnimationCfg::default()
        }
    }

    #[test]
    fn a_scene_with_no_animation_is_every_line_on_the_rest_pose() {
        let plan = plan(&scene(vec![]), 15.0);
        assert_eq!(plan.lines.len(), 25);
        // Both: one rest frame; torso and legs one each.
        assert_eq!(plan.lower.frame_count(), 2);
        assert_eq!(plan.upper.frame_count(), 2);
        let cfg = cfg_of(&plan);
        // The game's arithmetic: LEGS_ lines land inside lower.md3.
        for (i, name) in ANIMATION_NAMES[..25].iter().enumerate() {
            let first = cfg.first_frame_in_part(i).unwrap();
            assert!((0..2).contains(&first), "{name} {first}");
        }
        assert!(plan.lines.iter().all(|l| l.source == LineSource::RestPose));
    }

    #[test]
    fn run_and_idle_fill_their_lines_and_lend_frames_to_the_rest() {
        // run: 0.5 s at 10 fps is 6 frames; idle 1 s is 11.
        let mut s = scene(vec![animation("Run", 0.5), animation("idle", 1.0)]);
        s.animations[0].extras = serde_json::json!({ "fps": 10.0 });
        let plan = plan(&s, 10.0);
        let cfg = cfg_of(&plan);
        let line = |n: &str| plan.lines.iter().find(|l| l.line.name == n).unwrap();
        assert_eq!(
            line("LEGS_RUN").source,
            LineSource::CommonName("Run".into())
        );
        assert_eq!(line("LEGS_RUN").line.num_frames, 6);
        assert_eq!(line("LEGS_RUN").line.looping_frames, 6);
        assert_eq!(line("LEGS_IDLE").line.num_frames, 11);
        // Walk borrows run's frames, crouched walk walk's.
        assert_eq!(
            line("LEGS_WALKCR").source,
            LineSource::Borrowed {
                from: "LEGS_RUN",
                last: false
            }
        );
        assert_eq!(
            line("LEGS_WALKCR").line.first_frame,
            line("LEGS_RUN").line.first_frame
        );
        // Dead is death's last frame; death is the rest pose here.
        assert_eq!(line("BOTH_DEAD1").line.num_frames, 1);
        // Torso: stand from idle, gesture borrows stand: starts the torso run.
        let torso_start = cfg.animations[6].first_frame;
        assert_eq!(line("TORSO_STAND").line.first_frame, torso_start);
        // lower.md3 holds both + legs frames, and every legs line lands in it.
        let lower = plan.lower.frame_count() as i64;
        for i in 13..25 {
            let first = cfg.first_frame_in_part(i).unwrap();
            let n = i64::from(cfg.animations[i].num_frames);
            assert!(
                first >= 1 && first + n <= lower,
                "{i}: {first}+{n} of {lower}"
            );
        }
        // The legs' run is run's 6 then idle's 11 frames, after death's 1.
        assert_eq!(lower, 1 + 6 + 11);
        assert_eq!(plan.upper.frame_count(), 1 + 11);
    }

    #[test]
    fn extras_that_lie_about_the_length_are_laid_out_anew() {
        let mut animations: Vec<Animation> = ANIMATION_NAMES[..25]
            .iter()
            .map(|n| animation(n, 1.0))
            .collect();
        for (i, a) in animations.iter_mut().enumerate() {
            a.extras = serde_json::json!({
                "first_frame": i, "frame_count": 1, "looping_frames": 0,
                "fps": 15.0, "reversed": false, "cfg_first_frame": i,
            });
        }
        // One frame lasts 0 s, not 1 s.
        let plan = plan(&scene(animations), 15.0);
        assert!(plan.lines.iter().all(|l| l.source == LineSource::Named));
    }

    #[test]
    fn an_animation_of_years_lays_out_no_more_than_one_frame_past_the_limit() {
        let plan = plan(&scene(vec![animation("run", 3.0e7)]), 15.0);
        let most = limits::MAX_FRAMES + 1;
        assert!(plan.lower.groups.iter().all(|g| g.poses.len() <= most));
        assert!(plan.lower.frame_count() > limits::MAX_FRAMES);
    }

    #[test]
    fn extras_far_past_the_frame_limit_are_not_trusted() {
        let mut animations: Vec<Animation> = ANIMATION_NAMES[..25]
            .iter()
            .map(|n| animation(n, 0.0))
            .collect();
        for a in &mut animations {
            a.extras = serde_json::json!({
                "first_frame": 4_000_000_000u64, "frame_count": 1, "looping_frames": 0,
                "fps": 15.0, "reversed": false, "cfg_first_frame": 0,
            });
            a.channels[0].times = vec![0.0];
            a.channels[0].values = vec![0.0; 3];
        }
        let plan = plan(&scene(animations), 15.0);
        // Each its own one frame: 6 both, 12 legs, 7 torso.
        assert_eq!(plan.lower.frame_count(), 18);
        assert_eq!(plan.upper.frame_count(), 13);
    }
}
