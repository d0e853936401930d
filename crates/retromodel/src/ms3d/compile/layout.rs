//! The one MS3D timeline: where each scene animation goes on it.
//!
//! Animations are laid out one after another in the order chosen, each
//! starting on a whole frame after the last frame of the one before:
//! the first on frame 1 (MilkShape numbers frames from 1 and stores a key
//! set on frame `N` at `N / fps` seconds; see [`Clip`]), the next on
//! `⌊last⌋ + 1`. An animation of `D` seconds starting on frame `F` covers
//! frames `F` to `F + D · fps` (its keys keep their times, shifted by
//! `F / fps` seconds, so nothing is resampled) and is stored as the clip
//! `NAME F-(F + D · fps)` in the model comment's clip line
//! ([`CLIP_LINE_PREFIX`](crate::ms3d::CLIP_LINE_PREFIX)), from which
//! [`Ms3d::clips`](crate::ms3d::Ms3d::clips) and `Scene::from_ms3d` give
//! the animations back. `total_frames` is the last frame, rounded up.
//!
//! Animations that `Scene::from_ms3d` made keep their place: the whole
//! timeline (its extras' `total_frames`, no `first_frame`) starts at 0
//! with its keys' own times and is no clip; a clip (`first_frame`) goes
//! back to its first frame when that is free.
//!
//! The frame rate is [`Ms3dCompileOptions::fps`](super::Ms3dCompileOptions::fps),
//! else the MS3D's the scene came from, else 24, MilkShape's own default
//! for a new model (its untouched files in the corpus have 24 fps and 30
//! frames). A scene with nothing to animate gets the MS3D's timeline it
//! came from, else 30 frames.

use serde_json::Value;

use crate::ms3d::Clip;
use crate::scene::Scene;

/// MilkShape's frame rate for a new model.
pub(crate) const DEFAULT_FPS: f32 = 24.0;
/// MilkShape's timeline length for a new model, in frames.
pub(crate) const DEFAULT_FRAMES: i32 = 30;

/// One animation placed on the timeline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Placed {
    /// The scene animation.
    pub animation: usize,
    /// Its name.
    pub name: String,
    /// Where its time 0 lies on the timeline, in seconds.
    pub offset: f64,
    /// Its duration in seconds.
    pub duration: f64,
    /// The frames it covers.
    pub first_frame: f32,
    /// See `first_frame`.
    pub last_frame: f32,
    /// Whether it came from an MS3D (so its keys are MilkShape's already).
    pub from_ms3d: bool,
    /// Whether it is a whole MS3D timeline (then it is no clip).
    pub timeline: bool,
}

/// The timeline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    /// The frame rate stored in the file.
    pub fps: f32,
    /// The frame rate the viewer plays at (the stored one, at least 1).
    pub effective_fps: f32,
    /// The length in frames.
    pub total_frames: i32,
    /// The animations.
    pub placed: Vec<Placed>,
}

impl Layout {
    /// The clips the file stores (every placed animation but a whole
    /// timeline).
    pub fn clips(&self) -> Vec<Clip> {
        self.placed
            .iter()
            .filter(|p| !p.timeline)
            .map(|p| Clip {
                name: p.name.clone(),
                first_frame: p.first_frame,
                last_frame: p.last_frame,
            })
            .collect()
    }
}

fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64).filter(|x| x.is_finite())
}

/// Whether `scene` was made by `Scene::from_ms3d`.
pub(crate) fn from_ms3d(scene: &Scene) -> bool {
    scene.extras.get("source").and_then(Value::as_str) == Some("MS3D")
}

/// The first whole frame after an animation whose last frame is `last`
/// and whose last key is at `end` seconds: after `last`, and late enough
/// that a key there lies after the last one in the file's `f32` seconds
/// (`1 + 56 / 24` s ends, in `f32`, on `57 / 24` s exactly, where frame
/// 57 starts: the two clips would share a key time).
fn next_free_frame(end: f64, last: f64, fps: f64) -> f64 {
    let end = end as f32;
    let mut frame = last.floor() + 1.0;
    if end.is_finite() {
        // The next `f32` after the end, as a frame, rounded up: a start at
        // or after it stays after the end once rounded to `f32`.
        let after = f64::from(f32::from_bits(end.to_bits() + 1)) * fps;
        if end >= 0.0 && after.is_finite() {
            frame = frame.max(after.ceil());
        }
    }
    frame
}

/// Lays out animations `chosen` of `scene`; `reuse` says whether
/// animations from an MS3D keep their places.
pub(crate) fn layout(scene: &Scene, chosen: &[usize], fps: Option<f32>, reuse: bool) -> Layout {
    let ms3d = reuse && from_ms3d(scene);
    // The stored fps as the file had it (even below 1, which the viewer
    // plays at 1), else the one its animations were made at.
    let recorded_fps = ms3d
        .then(|| number(&scene.extras, "fps"))
        .flatten()
        .filter(|&f| f >= 0.0)
        .or_else(|| {
            chosen
                .iter()
                .find_map(|&a| number(&scene.animations[a].extras, "fps"))
                .filter(|&f| ms3d && f > 0.0)
        })
        .map(|f| f as f32);
    let stored_fps = fps.or(recorded_fps).unwrap_or(DEFAULT_FPS);
    let effective_fps = if stored_fps >= 1.0 { stored_fps } else { 1.0 };
    let fps64 = f64::from(effective_fps);
    let recorded_frames = ms3d
        .then(|| number(&scene.extras, "total_frames"))
        .flatten()
        .map(|f| f.clamp(0.0, f64::from(i32::MAX)) as i32);
    let mut placed = Vec::new();
    // The first frame the next animation may start on.
    let mut cursor = 1.0f64;
    let mut floor_frame = f64::NEG_INFINITY;
    let mut total = 0.0f64;
    for &a in chosen {
        let anim = &scene.animations[a];
        let duration = f64::from(anim.duration()).max(0.0);
        let extras = &anim.extras;
        let same_fps = number(extras, "fps").is_some_and(|f| f as f32 == effective_fps);
        let is_timeline = ms3d
            && same_fps
            && placed.is_empty()
            && extras.get("total_frames").is_some()
            && extras.get("first_frame").is_none();
        let clip_first =
            number(extras, "first_frame").filter(|&f| ms3d && same_fps && f > floor_frame);
        let (first, from_ms3d) = if is_timeline {
            (0.0, true)
        } else if let Some(f) = clip_first {
            (f, true)
        } else {
            (cursor.max(floor_frame.floor() + 1.0), false)
        };
        let mut last = first + duration * fps64;
        if is_timeline {
            last = last.max(f64::from(recorded_frames.unwrap_or(0)));
        } else if let Some(l) = number(extras, "last_frame").filter(|_| from_ms3d) {
            // A clip keeps its recorded end when its keys end sooner.
            last = last.max(l);
        }
        placed.push(Placed {
            animation: a,
            name: anim.name.clone(),
            offset: first / fps64,
            duration,
            first_frame: first as f32,
            last_frame: last as f32,
            from_ms3d,
            timeline: is_timeline,
        });
        floor_frame = last;
        cursor = next_free_frame(first / fps64 + duration, last, fps64);
        total = total.max(last);
    }
    let total_frames = if placed.is_empty() {
        recorded_frames.unwrap_or(DEFAULT_FRAMES)
    } else {
        (total.ceil().min(f64::from(i32::MAX)) as i32).max(recorded_frames.unwrap_or(0))
    };
    Layout {
        fps: stored_fps,
        effective_fps,
        total_frames,
        placed,
    }
}
