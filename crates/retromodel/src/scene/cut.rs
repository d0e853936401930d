//! Cutting an animation channel to a time range exactly (not by
//! resampling), shifted to start at time 0.
//!
//! A channel's curve is taken as glTF plays it: clamped to the first key's
//! value before the first key and to the last key's value after the last.
//! The cut keeps every key strictly inside the range and puts a key at
//! each end whose value is the curve's value there:
//!
//! - CUBICSPLINE: the inserted key's tangent is the curve's derivative
//!   with respect to time at the cut (per second, as glTF's tangents are).
//!   A cubic is fixed by its end values and end derivatives, so the piece
//!   between a cut and the next key is the very same cubic. Where the
//!   range reaches past the first or last key, that stretch is constant:
//!   the tangents facing it are 0.
//! - LINEAR: a rotation (4 components, [`Target::Rotation`]) gets the
//!   slerp of its interval at the cut; the slerp from there to the next
//!   key runs along the same arc at the same angular speed. Other values
//!   are lerped.
//! - STEP: the value that holds at the cut.
//!
//! Evaluation is done in `f64` and rounded once to `f32`.

use super::{Channel, Interpolation, Target};

/// The side of a cut point whose derivative a cubic key needs: the start
/// of a range looks forward (right), its end backward (left).
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Left,
    Right,
}

/// A channel read as a curve.
struct Curve<'a> {
    channel: &'a Channel,
    /// Numbers per value.
    n: usize,
    cubic: bool,
    rotation: bool,
}

impl<'a> Curve<'a> {
    /// `None` when the channel has no keys or its values do not fit its
    /// times.
    fn new(channel: &'a Channel) -> Option<Curve<'a>> {
        let keys = channel.times.len();
        let cubic = channel.interpolation == Interpolation::CubicSpline;
        let per_key = keys.checked_mul(if cubic { 3 } else { 1 })?;
        if keys == 0 || !channel.values.len().is_multiple_of(per_key) {
            return None;
        }
        let n = channel.values.len() / per_key;
        let rotation = matches!(channel.target, Target::Rotation { .. }) && n == 4;
        (n > 0).then_some(Curve {
            channel,
            n,
            cubic,
            rotation,
        })
    }

    fn last(&self) -> usize {
        self.channel.times.len() - 1
    }

    fn time(&self, k: usize) -> f64 {
        f64::from(self.channel.times[k])
    }

    /// Group `g` of key `k` (for CUBICSPLINE 0 in tangent, 1 value, 2 out
    /// tangent; else only 0, the value).
    fn group(&self, k: usize, g: usize) -> Vec<f64> {
        let at = if self.cubic {
            (3 * k + g) * self.n
        } else {
            k * self.n
        };
        self.channel.values[at..at + self.n]
            .iter()
            .map(|&x| f64::from(x))
            .collect()
    }

    fn value(&self, k: usize) -> Vec<f64> {
        self.group(k, usize::from(self.cubic))
    }

    /// Key `k`'s in tangent; 0 for the first key, whose left is constant.
    fn in_tangent(&self, k: usize) -> Vec<f64> {
        if self.cubic && k > 0 {
            self.group(k, 0)
        } else {
            vec![0.0; self.n]
        }
    }

    /// Key `k`'s out tangent; 0 for the last key, whose right is constant.
    fn out_tangent(&self, k: usize) -> Vec<f64> {
        if self.cubic && k < self.last() {
            self.group(k, 2)
        } else {
            vec![0.0; self.n]
        }
    }

    /// The value at `t` and the derivative on `side` of it (meaningful for
    /// CUBICSPLINE only; zeros elsewhere).
    fn at(&self, t: f32, side: Side) -> (Vec<f64>, Vec<f64>) {
        let zero = vec![0.0; self.n];
        let times = &self.channel.times;
        let last = self.last();
        if last == 0 {
            // One key: constant everywhere (also when its time is not a
            // number, which the comparisons below would not catch).
            return (self.value(0), zero);
        }
        // Where the curve is the constant before the first key or after
        // the last (a key on the cut counts for the side looked at).
        let before = match side {
            Side::Right => t < times[0],
            Side::Left => t <= times[0],
        };
        if before {
            return (self.value(0), zero);
        }
        let after = match side {
            Side::Right => t >= times[last],
            Side::Left => t > times[last],
        };
        if after {
            return (self.value(last), zero);
        }
        // The interval [k, k + 1] on the chosen side of `t`.
        let k = match side {
            Side::Right => times.partition_point(|&x| x <= t).saturating_sub(1),
            Side::Left => times.partition_point(|&x| x < t).saturating_sub(1),
        };
        let k = k.min(last.saturating_sub(1));
        if times[k] == t {
            return (self.value(k), self.out_tangent(k));
        }
        if times[k + 1] == t {
            return (self.value(k + 1), self.in_tangent(k + 1));
        }
        self.inside(k, f64::from(t))
    }

    /// Value and derivative at `t` strictly inside interval `[k, k + 1]`.
    fn inside(&self, k: usize, t: f64) -> (Vec<f64>, Vec<f64>) {
        let (t0, t1) = (self.time(k), self.time(k + 1));
        let d = t1 - t0;
        let s = (t - t0) / d;
        let (v0, v1) = (self.value(k), self.value(k + 1));
        match self.channel.interpolation {
            Interpolation::Step => (v0, vec![0.0; self.n]),
            Interpolation::Linear if self.rotation => (slerp(&v0, &v1, s), vec![0.0; self.n]),
            Interpolation::Linear => {
                let v = v0.iter().zip(&v1).map(|(a, b)| a + s * (b - a)).collect();
                (v, vec![0.0; self.n])
            }
            Interpolation::CubicSpline => {
                let (b0, a1) = (self.out_tangent(k), self.in_tangent(k + 1));
                let (s2, s3) = (s * s, s * s * s);
                let h = [
                    2.0 * s3 - 3.0 * s2 + 1.0,
                    s3 - 2.0 * s2 + s,
                    -2.0 * s3 + 3.0 * s2,
                    s3 - s2,
                ];
                let dh = [
                    6.0 * s2 - 6.0 * s,
                    3.0 * s2 - 4.0 * s + 1.0,
                    -6.0 * s2 + 6.0 * s,
                    3.0 * s2 - 2.0 * s,
                ];
                let combine = |w: [f64; 4], i: usize| {
                    w[0] * v0[i] + w[1] * d * b0[i] + w[2] * v1[i] + w[3] * d * a1[i]
                };
                let value = (0..self.n).map(|i| combine(h, i)).collect();
                let derivative = (0..self.n).map(|i| combine(dh, i) / d).collect();
                (value, derivative)
            }
        }
    }
}

/// Spherical linear interpolation along the shorter arc, normalised (the
/// evaluator's own, on four numbers).
fn slerp(a: &[f64], b: &[f64], s: f64) -> Vec<f64> {
    let q = |v: &[f64]| glam::DQuat::from_xyzw(v[0], v[1], v[2], v[3]);
    super::pose::slerp(q(a), q(b), s).to_array().to_vec()
}

/// `channel` cut to the seconds `start..=end` and shifted so that `start`
/// is time 0: keys at 0 and `end − start`, and every key strictly between
/// (a key whose shifted time rounds onto an end is left to the key the
/// cut puts there). A range of length 0 gives one LINEAR key. `None` when
/// the channel is malformed (no keys, values that do not fit the times)
/// or the range is reversed or not finite.
pub(crate) fn cut(channel: &Channel, start: f32, end: f32) -> Option<Channel> {
    let curve = Curve::new(channel)?;
    if !(start.is_finite() && end.is_finite() && start <= end) {
        return None;
    }
    let length = end - start;
    let (first, first_out) = curve.at(start, Side::Right);
    if length <= 0.0 {
        let interpolation = match channel.interpolation {
            Interpolation::Step => Interpolation::Step,
            _ => Interpolation::Linear,
        };
        return Some(Channel {
            target: channel.target,
            interpolation,
            times: vec![0.0],
            values: first.iter().map(|&x| x as f32).collect(),
        });
    }
    let mut times = vec![0.0f32];
    // (in tangent, value, out tangent) per key.
    let mut keys = vec![(first_out.clone(), first, first_out)];
    for (k, &t) in channel.times.iter().enumerate() {
        let shifted = t - start;
        if t > start && t < end && shifted > times[times.len() - 1] && shifted < length {
            times.push(shifted);
            keys.push((curve.in_tangent(k), curve.value(k), curve.out_tangent(k)));
        }
    }
    let (last, last_in) = curve.at(end, Side::Left);
    times.push(length);
    keys.push((last_in.clone(), last, last_in));
    let values = keys
        .into_iter()
        .flat_map(|(a, v, b)| if curve.cubic { [a, v, b].concat() } else { v })
        .map(|x| x as f32)
        .collect();
    Some(Channel {
        target: channel.target,
        interpolation: channel.interpolation,
        times,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1-component CUBICSPLINE channel.
    fn spline(times: &[f32], keys: &[[f32; 3]]) -> Channel {
        Channel {
            target: Target::Translation { node: 0 },
            interpolation: Interpolation::CubicSpline,
            times: times.to_vec(),
            values: keys.iter().flatten().copied().collect(),
        }
    }

    /// glTF's CUBICSPLINE value of a 1-component channel at `t` (spec,
    /// Appendix C), clamped outside the keys.
    fn play(c: &Channel, t: f64) -> f64 {
        let times: Vec<f64> = c.times.iter().map(|&x| f64::from(x)).collect();
        let v = |k: usize, g: usize| f64::from(c.values[3 * k + g]);
        let last = times.len() - 1;
        if t <= times[0] {
            return v(0, 1);
        }
        if t >= times[last] {
            return v(last, 1);
        }
        let k = times.iter().rposition(|&x| x <= t).unwrap_or(0);
        let d = times[k + 1] - times[k];
        let s = (t - times[k]) / d;
        let (s2, s3) = (s * s, s * s * s);
        (2.0 * s3 - 3.0 * s2 + 1.0) * v(k, 1)
            + d * (s3 - 2.0 * s2 + s) * v(k, 2)
            + (-2.0 * s3 + 3.0 * s2) * v(k + 1, 1)
            + d * (s3 - s2) * v(k + 1, 0)
    }

    #[test]
    fn a_cut_spline_is_the_same_curve() {
        // y = t³ on [0, 2] as one cubic: values 0 and 8, derivatives 0
        // and 12 (per second), then a second cubic to 3.
        let c = spline(
            &[0.0, 2.0, 3.0],
            &[[0.0, 0.0, 0.0], [12.0, 8.0, 1.0], [-2.0, 5.0, 0.0]],
        );
        for (start, end) in [
            (0.5f32, 1.5f32),
            (0.5, 2.5),
            (-1.0, 0.75),
            (1.0, 4.0),
            (2.0, 3.0),
        ] {
            let part = cut(&c, start, end).unwrap();
            assert_eq!(part.times[0], 0.0);
            assert_eq!(*part.times.last().unwrap(), end - start);
            for i in 0..=100 {
                let t = f64::from(end - start) * f64::from(i) / 100.0;
                let want = play(&c, f64::from(start) + t);
                let got = play(&part, t);
                assert!(
                    (want - got).abs() < 1e-5,
                    "{start}..{end} at {t}: {got} vs {want}"
                );
            }
        }
        // Inside the first cubic: t³ at 0.5 is 0.125, its slope 3t² = 0.75.
        let part = cut(&c, 0.5, 1.5).unwrap();
        assert_eq!(part.times, [0.0, 1.0]);
        assert!((part.values[1] - 0.125).abs() < 1e-7);
        assert!((part.values[2] - 0.75).abs() < 1e-6);
        assert!((part.values[4] - 3.375).abs() < 1e-6, "1.5³");
        assert!((part.values[3] - 6.75).abs() < 1e-6, "3 · 1.5²");
    }

    #[test]
    fn ranges_outside_the_keys_are_constant() {
        let c = spline(&[1.0, 2.0], &[[0.0, 1.0, 5.0], [5.0, 3.0, 0.0]]);
        let before = cut(&c, 0.0, 0.5).unwrap();
        assert_eq!(before.times, [0.0, 0.5]);
        assert_eq!(before.values, [0.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
        let after = cut(&c, 2.5, 3.0).unwrap();
        assert_eq!(after.values, [0.0, 3.0, 0.0, 0.0, 3.0, 0.0]);
        // Reaching over the first key: a flat piece, then the curve.
        let over = cut(&c, 0.5, 1.5).unwrap();
        assert_eq!(over.times, [0.0, 0.5, 1.0]);
        assert_eq!(
            &over.values[3..6],
            &[0.0, 1.0, 5.0],
            "the key's in tangent is 0"
        );
    }

    #[test]
    fn a_cut_rotation_stays_on_the_arc() {
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let c = Channel {
            target: Target::Rotation { node: 0 },
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            // Identity to 90° about z.
            values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, half, half],
        };
        let part = cut(&c, 0.5, 1.0).unwrap();
        let angle = std::f64::consts::FRAC_PI_8; // half of 45°
        let want = [0.0, 0.0, angle.sin(), angle.cos()];
        for (g, w) in part.values[..4].iter().zip(want) {
            assert!((f64::from(*g) - w).abs() < 1e-6, "{:?}", part.values);
        }
        assert_eq!(part.times, [0.0, 0.5]);
    }

    #[test]
    fn zero_length_and_bad_ranges() {
        let c = spline(&[0.0, 2.0], &[[0.0, 0.0, 0.0], [12.0, 8.0, 0.0]]);
        let point = cut(&c, 2.0, 2.0).unwrap();
        assert_eq!(point.interpolation, Interpolation::Linear);
        assert_eq!((point.times, point.values), (vec![0.0], vec![8.0]));
        assert!(cut(&c, 1.0, 0.5).is_none());
        assert!(cut(&c, f32::NAN, 0.5).is_none());
        let broken = Channel {
            values: vec![1.0; 4],
            ..c
        };
        assert!(cut(&broken, 0.0, 1.0).is_none());
    }
}
