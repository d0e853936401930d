//! Which moments of an animation to draw: its rate, its frames at a rate,
//! and the keys of its channels.

use crate::error::{Error, Result};
use crate::scene::Animation;

/// The rate of an animation that does not say (a glTF's): frames per
/// second.
pub const DEFAULT_RATE: f32 = 30.0;

/// The most frames one animation may be drawn with.
pub const MAX_FRAMES: usize = 20_000;

/// The rate the model's animation plays at: `extras.fps` when the scene's
/// producer recorded one (MD2: 10 unless told otherwise; MS3D: the file's
/// frames per second), else [`DEFAULT_RATE`].
pub fn model_rate(animation: &Animation) -> f32 {
    animation
        .extras
        .get("fps")
        .and_then(serde_json::Value::as_f64)
        .map(|f| f as f32)
        .filter(|f| f.is_finite() && *f > 0.0)
        .unwrap_or(DEFAULT_RATE)
}

/// Whether the animation ends where it starts: every channel has at least
/// two keys and its last value is its first (an MD2 animation made with
/// `close_loops`). A looping player then skips the last moment, which is
/// the first again.
pub fn is_closed_loop(animation: &Animation) -> bool {
    !animation.channels.is_empty()
        && animation.channels.iter().all(|c| {
            let keys = c.times.len();
            if keys < 2 || c.values.len() % keys != 0 {
                return false;
            }
            let per_key = c.values.len() / keys;
            c.values[..per_key] == c.values[c.values.len() - per_key..]
        })
}

/// The times, in seconds, of the frames of `animation` played at `fps`
/// frames per second: `k / fps` for `k = 0, 1, ...` up to the animation's
/// duration (included, unless the animation is a closed loop, whose end is
/// its start). At least one frame (time 0).
///
/// Fails when `fps` is not a positive number or there would be more than
/// [`MAX_FRAMES`] frames.
pub fn frame_times(animation: &Animation, fps: f32) -> Result<Vec<f32>> {
    if !(fps.is_finite() && fps > 0.0) {
        return Err(Error::InvalidOptions {
            message: format!("{fps} frames per second: must be a positive number"),
        });
    }
    let duration = f64::from(animation.duration());
    let steps = duration * f64::from(fps);
    let closed = is_closed_loop(animation);
    // A step within a ten-thousandth of a frame of the end counts as the
    // end: key times are f32 (`k / fps`), whose rounding at a few seconds
    // is some millionths of a frame (IQM mrfixit's `idle`, 101 frames at
    // 24 fps, ends at 4.1666665 s: 99.999996 steps at 24 fps, where a
    // millionth's margin lost its last frame).
    let count = if closed {
        (steps - 1e-4).ceil().max(1.0)
    } else {
        (steps + 1e-4).floor().max(0.0) + 1.0
    };
    if !count.is_finite() || count > MAX_FRAMES as f64 {
        return Err(Error::InvalidOptions {
            message: format!(
                "animation {:?} lasts {duration:.3} s: {count} frames at {fps} fps is more than {MAX_FRAMES}",
                animation.name
            ),
        });
    }
    Ok((0..count as usize)
        .map(|k| (k as f64 / f64::from(fps)) as f32)
        .collect())
}

/// Every key time of any channel of `animation`, sorted, each once, and
/// every `1 / rate` seconds between 0 and the end, at most `max` of them
/// (evenly thinned when there are more): the moments at which to measure
/// how far the model reaches.
pub fn sample_times(animation: &Animation, rate: f32, max: usize) -> Vec<f32> {
    let mut times: Vec<f32> = animation
        .channels
        .iter()
        .flat_map(|c| c.times.iter().copied())
        .filter(|t| t.is_finite())
        .collect();
    let duration = f64::from(animation.duration());
    if rate > 0.0 && duration.is_finite() {
        let steps = (duration * f64::from(rate)).min(max as f64) as usize;
        times.extend((0..=steps).map(|k| (k as f64 / f64::from(rate)) as f32));
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    if times.len() > max && max > 0 {
        let n = times.len();
        times = (0..max)
            .map(|i| times[i * (n - 1) / (max - 1).max(1)])
            .collect();
        times.dedup();
    }
    times
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Channel, Interpolation, Target};

    fn weights(times: &[f32], values: &[f32], fps: Option<f64>) -> Animation {
        Animation {
            name: "a".into(),
            channels: vec![Channel {
                target: Target::MorphWeights { mesh: 0 },
                interpolation: Interpolation::Linear,
                times: times.to_vec(),
                values: values.to_vec(),
            }],
            extras: fps.map_or(serde_json::Value::Null, |f| serde_json::json!({ "fps": f })),
        }
    }

    #[test]
    fn open_animations_include_their_end_and_closed_loops_do_not() {
        // Three frames at 10 fps: keys 0, 0.1, 0.2.
        let open = weights(
            &[0.0, 0.1, 0.2],
            &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            Some(10.0),
        );
        assert!(!is_closed_loop(&open));
        assert_eq!(model_rate(&open), 10.0);
        assert_eq!(frame_times(&open, 10.0).unwrap(), [0.0, 0.1, 0.2]);
        assert_eq!(frame_times(&open, 20.0).unwrap().len(), 5);
        // The same closed: a fourth key back at frame 0.
        let closed = weights(
            &[0.0, 0.1, 0.2, 0.3],
            &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
            None,
        );
        assert!(is_closed_loop(&closed));
        assert_eq!(model_rate(&closed), DEFAULT_RATE);
        assert_eq!(frame_times(&closed, 10.0).unwrap(), [0.0, 0.1, 0.2]);
        assert_eq!(frame_times(&closed, 20.0).unwrap().len(), 6);
    }

    #[test]
    fn f32_key_times_keep_the_last_frame() {
        // 101 frames at 24 fps keyed at `k as f32 / 24.0` (as the IQM, MD2
        // and MDL lifts key them): the end, 4.1666665 s, is a hair short of
        // 100 / 24 in f64.
        let times: Vec<f32> = (0..=100).map(|k| k as f32 / 24.0).collect();
        let values: Vec<f32> = (0..=100).map(|k| k as f32).collect();
        let open = weights(&times, &values, Some(24.0));
        assert!(!is_closed_loop(&open));
        assert_eq!(frame_times(&open, 24.0).unwrap().len(), 101);
        assert_eq!(frame_times(&open, 12.0).unwrap().len(), 51);
        assert_eq!(frame_times(&open, 6.0).unwrap().len(), 26);
    }

    #[test]
    fn empty_and_absurd_animations() {
        let empty = Animation::default();
        assert_eq!(frame_times(&empty, 10.0).unwrap(), [0.0]);
        assert!(frame_times(&empty, 0.0).is_err());
        assert!(frame_times(&empty, f32::NAN).is_err());
        let long = weights(&[0.0, 1e9], &[0.0, 1.0], None);
        assert!(frame_times(&long, 10.0).is_err());
        assert!(sample_times(&long, 10.0, 100).len() <= 100);
    }
}
