//! The times a compile looks at: where the keys are fitted (samples) and
//! where the result is checked.
//!
//! MilkShape interpolates every key list (slerp, Hermite), so a source
//! channel that steps (glTF `STEP`) becomes, at each of its key times
//! `t`, keys at `t − 2ε` and `t − ε` (the value before the step) and at
//! `t` and `t + ε` (the value after it): MilkShape then moves from the
//! old value to the new one within the `ε` before `t` (glTF's step takes
//! the new value at `t`), and the outer pair keeps the viewer's looped
//! position tangents (which reach to the neighbouring keys) from
//! overshooting in the intervals next to the step. `ε` is
//! [`STEP_GAP`] seconds, more on a long timeline (so that the keys stay
//! apart in `f32` frames).
//!
//! Samples, per animation: every key time of its channels (and the step
//! times above), [`PER_FRAME`] evenly spread times per MilkShape frame,
//! its ends and two times `ε` apart next to each end (where MilkShape's
//! position tangents reach into the neighbouring clip), and the midpoint
//! between each two of these (but for the keys themselves, none within a
//! step, where the source itself jumps). The check looks at every frame
//! and half frame, the end included, and at [`CHECKS_PER_FRAME`] times
//! per frame a sixteenth of a frame after each quarter, between the
//! samples (a check only where the keys were fitted found 6.1e-4 of the
//! extent on a clip three.js found 1.07e-3 off between them), but never
//! within a step (`t − 2ε` to `t + ε`), where glTF jumps and MilkShape
//! cannot (a check there measured the step itself: 6.69e-1).
//! (Two per frame were not enough for Blender's own CUBICSPLINE export:
//! `tests/ms3d_compile_keys.rs` found it 1.3e-3 of the extent off at
//! 1/30 s, between the checked half frames.) Animations of more than
//! 15,000 frames get fewer samples, 5,000 frames fewer checks, spread
//! evenly: a bound on the work, for hostile files.

use crate::scene::{Animation, Interpolation, Target};

/// The time between a step's doubled keys, in seconds (at least).
pub(crate) const STEP_GAP: f64 = 1e-4;
/// Samples per MilkShape frame (besides the key times).
pub(crate) const PER_FRAME: f64 = 4.0;
/// Checks per MilkShape frame between the fitted samples (a sixteenth of
/// a frame after each quarter), besides the frame and its half.
pub(crate) const CHECKS_PER_FRAME: f64 = 4.0;
/// Most evenly spread samples per animation (an animation longer than
/// `MOST_SAMPLES / PER_FRAME` frames gets them further apart).
const MOST_SAMPLES: usize = 60_000;
/// Most checks per animation (likewise).
const MOST_CHECKS: usize = 20_000;

/// `t` as the scene is posed at it (`f32` seconds), so that targets and
/// the keys made of them agree to the last bit.
pub(crate) fn as_posed(t: f64) -> f64 {
    f64::from(t as f32)
}

/// The gap `ε` between a step's keys on a timeline that reaches `end`
/// seconds: [`STEP_GAP`], or 32 `f32` steps at `end` when that is more.
pub(crate) fn step_gap(end: f64) -> f64 {
    STEP_GAP.max(end.abs() * 4e-6)
}

/// Whether `c` steps (and moves a node).
fn steps(c: &crate::scene::Channel) -> bool {
    c.interpolation == Interpolation::Step && !matches!(c.target, Target::MorphWeights { .. })
}

/// The key times `[t − 2ε, t − ε, t, t + ε]` of a step at `t`, within
/// `[0, duration]`, as posed.
pub(crate) fn step_keys(t: f64, gap: f64, duration: f64) -> impl Iterator<Item = f64> {
    [t - 2.0 * gap, t - gap, t, t + gap]
        .into_iter()
        .filter(move |&x| x >= 0.0 && x <= duration)
        .map(as_posed)
}

/// The times of the steps of `anim` (its `STEP` channels' key times
/// after 0, within its duration).
pub(crate) fn step_times(anim: &Animation, duration: f64) -> Vec<f64> {
    let mut out: Vec<f64> = anim
        .channels
        .iter()
        .filter(|c| steps(c))
        .flat_map(|c| c.times.iter().map(|&t| f64::from(t)))
        .filter(|&t| t.is_finite() && t > 0.0 && t <= duration)
        .collect();
    out.sort_by(f64::total_cmp);
    out.dedup();
    out
}

/// Whether `t` lies within a step at one of `steps` (between its outer
/// keys, exclusive), where the source jumps and MilkShape cannot follow.
fn within_step(steps: &[f64], gap: f64, t: f64) -> bool {
    let i = steps.partition_point(|&s| s + gap <= t);
    steps
        .get(i)
        .is_some_and(|&s| t > as_posed(s - 2.0 * gap) && t < as_posed(s + gap))
}

/// Evenly spread times `0, 1/rate, …` up to `duration`, and `duration`;
/// at most `most + 2` of them (then spread at `duration / most`).
fn grid(duration: f64, rate: f64, most: usize) -> impl Iterator<Item = f64> {
    let wanted = (duration * rate).floor();
    let (n, step) = if wanted.is_finite() && wanted >= 0.0 && wanted <= most as f64 {
        (wanted as usize, 1.0 / rate)
    } else {
        (most, duration / most as f64)
    };
    (0..=n)
        .map(move |i| i as f64 * step)
        .chain(std::iter::once(duration))
}

/// The sample times of an animation of `duration` seconds (see the
/// module documentation), sorted, as posed; `key_times` are its channels'
/// key times, `fps` the frame rate MilkShape plays at, `gap` the steps'
/// `ε`.
pub(crate) fn samples(
    anim: &Animation,
    key_times: &[f64],
    duration: f64,
    fps: f64,
    gap: f64,
) -> Vec<f64> {
    let steps = step_times(anim, duration);
    let mut base: Vec<f64> = key_times.iter().copied().map(as_posed).collect();
    base.extend(
        grid(duration, fps * PER_FRAME, MOST_SAMPLES)
            .map(as_posed)
            .filter(|&t| !within_step(&steps, gap, t)),
    );
    for &s in &steps {
        base.extend(step_keys(s, gap, duration));
    }
    // Next to each end, where MilkShape's position tangents reach into the
    // neighbouring clip's keys: the fit sees what they do there.
    base.extend(
        [gap, 2.0 * gap, duration - 2.0 * gap, duration - gap]
            .into_iter()
            .filter(|&t| t > 0.0 && t < duration && !within_step(&steps, gap, t))
            .map(as_posed),
    );
    base.sort_by(f64::total_cmp);
    base.dedup();
    let mut times = base.clone();
    for w in base.windows(2) {
        let mid = as_posed(0.5 * (w[0] + w[1]));
        if !within_step(&steps, gap, mid) {
            times.push(mid);
        }
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
}

/// The times an animation of `duration` seconds is checked at: every
/// MilkShape frame of it and every midpoint between two, its end
/// included, and the times a sixteenth of a frame after each quarter
/// (between the samples the keys were fitted to, which lie on eighths:
/// checks only on fitted samples could not see the error between them),
/// as posed; but none within a step of `anim` (between `t − 2ε` and
/// `t + ε` of a step at `t`, where glTF jumps and MilkShape moves over
/// `ε` seconds; `gap` is `ε`). Returns them and the number of steps.
pub(crate) fn checks(anim: &Animation, duration: f64, fps: f64, gap: f64) -> (Vec<f64>, usize) {
    let steps = step_times(anim, duration);
    let rate = fps * CHECKS_PER_FRAME;
    let shift = 1.0 / (fps * 16.0);
    let mut times: Vec<f64> = grid(duration, fps * 2.0, MOST_CHECKS / 2)
        .chain(
            grid(duration, rate, MOST_CHECKS / 2)
                .map(|t| t + shift)
                .filter(|&t| t < duration),
        )
        .map(as_posed)
        .filter(|&t| !within_step(&steps, gap, t))
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    (times, steps.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Channel;

    fn stepped(times: &[f32]) -> Animation {
        Animation {
            channels: vec![Channel {
                target: Target::Rotation { node: 0 },
                interpolation: Interpolation::Step,
                times: times.to_vec(),
                values: vec![0.0; 4 * times.len()],
            }],
            ..Animation::default()
        }
    }

    #[test]
    fn steps_get_four_distinct_keys_and_no_sample_inside() {
        let anim = stepped(&[0.0, 0.5, 1.0]);
        let gap = step_gap(1.0);
        let keys: Vec<f64> = step_keys(0.5, gap, 1.0).collect();
        assert_eq!(keys.len(), 4);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!((keys[2] - 0.5).abs() < 1e-7);
        let times = samples(&anim, &[0.0, 0.5, 1.0], 1.0, 24.0, gap);
        for k in &keys {
            assert!(times.contains(k), "{k}");
        }
        // Nothing strictly between the outer keys but the keys themselves.
        let inside: Vec<f64> = times
            .iter()
            .copied()
            .filter(|&t| t > keys[0] && t < keys[3])
            .collect();
        assert_eq!(inside, keys[1..3].to_vec());
        // Also when a frame falls within a step.
        let near = 0.5 + 0.5 * gap;
        let anim = stepped(&[0.0, near as f32, 1.0]);
        let times = samples(&anim, &[0.0, near, 1.0], 1.0, 24.0, gap);
        let keys: Vec<f64> = step_keys(near, gap, 1.0).collect();
        let inside = times
            .iter()
            .filter(|&&t| t > keys[0] && t < keys[3])
            .count();
        assert_eq!(inside, 2, "{times:?}");
        // Half frames at least, and midpoints.
        assert!(times.len() > 4 * 24);
    }

    #[test]
    fn the_gap_keeps_keys_apart_in_f32_frames_on_long_timelines() {
        for end in [1.0f64, 100.0, 5000.0] {
            let gap = step_gap(end);
            let fps = 30.0f32;
            let a = ((end - gap) as f32) * fps;
            let b = (end as f32) * fps;
            assert!(a < b, "{end}");
        }
    }

    #[test]
    fn checks_cover_frames_halves_and_between_the_fitted_samples() {
        let none = Animation::default();
        let (c, steps) = checks(&none, 1.0, 24.0, STEP_GAP);
        assert_eq!(steps, 0);
        // 49 frames and halves, 96 shifted quarters.
        assert_eq!(c.len(), 49 + 96);
        assert_eq!(c[1], as_posed(1.0 / (24.0 * 16.0)));
        assert!(c.contains(&as_posed(0.5 / 24.0)));
        assert_eq!(*c.last().unwrap(), 1.0);
        // None on a fitted sample (eighths of a frame) but the frames and
        // halves.
        let fitted = samples(&none, &[0.0, 1.0], 1.0, 24.0, STEP_GAP);
        let on = c.iter().filter(|t| fitted.contains(t)).count();
        assert_eq!(on, 49);
        // Bounded, however long.
        assert!(checks(&none, 1e30, 24.0, STEP_GAP).0.len() <= MOST_CHECKS + 4);
        assert!(checks(&none, f64::INFINITY, 24.0, STEP_GAP).0.len() <= MOST_CHECKS + 4);
    }

    #[test]
    fn no_check_falls_within_a_step() {
        // Steps half a gap after each frame time: the frame before each
        // lies within the step, where MilkShape moves from the old value
        // to the new one.
        let gap = step_gap(1.0);
        let at: Vec<f32> = (0..5)
            .map(|k| (f64::from(k) * 0.25 + 0.5 * gap) as f32)
            .collect();
        let anim = stepped(&at);
        let end = f64::from(at[4]);
        let (c, steps) = checks(&anim, end, 24.0, gap);
        // Every key time after 0 is a step (the first holds from 0).
        assert_eq!(steps, 5);
        for &s in &at[1..] {
            let s = f64::from(s);
            assert!(c.iter().all(|&t| t <= s - 2.0 * gap || t >= s + gap), "{s}");
        }
    }
}
