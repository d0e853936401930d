//! MilkShape's key interpolation, in `f64`, over keys given as indices
//! into a joint's samples: what the key fitting checks candidate keys
//! with. It is `ms3d::Skeleton`'s (the viewer's) rule: rotations slerped
//! between the two keys around the time, positions by Hermite
//! interpolation with the viewer's looped tangents (zero with two keys or
//! fewer), the first key before the keys and the last after them.

use glam::{DQuat, DVec3};

use super::rigid::slerp;

/// The rotation at `time` of keys `(time, value)`.
pub(crate) fn rotation_at(keys: &[(f64, DQuat)], time: f64) -> DQuat {
    let Some(i) = interval(keys.len(), |k| keys[k].0, time) else {
        return match keys.first() {
            Some(first) if time < first.0 => first.1,
            _ => keys.last().map_or(DQuat::IDENTITY, |k| k.1),
        };
    };
    let (a, b) = (keys[i], keys[i + 1]);
    slerp(a.1, b.1, (time - a.0) / (b.0 - a.0))
}

/// The viewer's `(in, out)` tangent of position key `k` of `keys`.
pub(crate) fn tangent(keys: &[(f64, DVec3)], k: usize) -> (DVec3, DVec3) {
    let n = keys.len();
    if n <= 2 {
        return (DVec3::ZERO, DVec3::ZERO);
    }
    let k0 = if k == 0 { n - 1 } else { k - 1 };
    let k2 = if k + 1 >= n { 0 } else { k + 1 };
    let dir = keys[k2].1 - keys[k0].1;
    let dt1 = keys[k].0 - keys[k0].0;
    let dt2 = keys[k2].0 - keys[k].0;
    let dt = dt1 + dt2;
    if dt == 0.0 {
        return (DVec3::ZERO, DVec3::ZERO);
    }
    (dir * dt1 / dt, dir * dt2 / dt)
}

/// The position at `time` of keys `(time, value)`.
pub(crate) fn position_at(keys: &[(f64, DVec3)], time: f64) -> DVec3 {
    let Some(i) = interval(keys.len(), |k| keys[k].0, time) else {
        return match keys.first() {
            Some(first) if time < first.0 => first.1,
            _ => keys.last().map_or(DVec3::ZERO, |k| k.1),
        };
    };
    position_in(keys, i, time)
}

/// The position at `time` within interval `i` of `keys`.
pub(crate) fn position_in(keys: &[(f64, DVec3)], i: usize, time: f64) -> DVec3 {
    let (p0, p1) = (keys[i], keys[i + 1]);
    let m0 = tangent(keys, i).1;
    let m1 = tangent(keys, i + 1).0;
    let t = (time - p0.0) / (p1.0 - p0.0);
    let (t2, t3) = (t * t, t * t * t);
    let h1 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h2 = -2.0 * t3 + 3.0 * t2;
    let h3 = t3 - 2.0 * t2 + t;
    let h4 = t3 - t2;
    p0.1 * h1 + m0 * h3 + p1.1 * h2 + m1 * h4
}

/// The interval `[i, i + 1)` holding `time` among `n` increasing key
/// times (`None` before the first and from the last on).
pub(crate) fn interval(n: usize, time_of: impl Fn(usize) -> f64, time: f64) -> Option<usize> {
    if n < 2 || time.is_nan() || time < time_of(0) || time >= time_of(n - 1) {
        return None;
    }
    // The last key with time ≤ `time`.
    let (mut lo, mut hi) = (0, n - 1);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if time_of(mid) <= time {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms3d::{Joint, Key, Ms3d, Skeleton};

    #[test]
    fn matches_the_viewers_evaluation() {
        let times = [0.1f32, 0.4, 0.5, 1.2, 1.3];
        let values = [
            [0.0f32, 1.0, 2.0],
            [1.0, -1.0, 0.5],
            [2.0, 0.0, 0.0],
            [0.5, 0.5, 3.0],
            [0.0, 2.0, 1.0],
        ];
        let keys: Vec<Key> = times
            .iter()
            .zip(values)
            .map(|(&t, v)| Key { time: t, value: v })
            .collect();
        let model = Ms3d {
            fps: 1.0,
            joints: vec![Joint {
                rotation_keys: keys.clone(),
                position_keys: keys.clone(),
                ..Joint::default()
            }],
            ..Ms3d::default()
        };
        let skeleton = Skeleton::new(&model).unwrap();
        let positions: Vec<(f64, DVec3)> = keys
            .iter()
            .map(|k| (f64::from(k.time), DVec3::from(k.value.map(f64::from))))
            .collect();
        let rotations: Vec<(f64, DQuat)> = keys
            .iter()
            .map(|k| {
                (
                    f64::from(k.time),
                    super::super::rigid::euler_to_quat(k.value.map(f64::from)),
                )
            })
            .collect();
        for i in 0..=150 {
            let t = f64::from(i) / 100.0;
            let (q, p) = skeleton.key_transform(0, t as f32).unwrap();
            let ours = position_at(&positions, t);
            assert!((ours - p.as_dvec3()).length() < 1e-5, "{t}: {ours} {p}");
            let r = rotation_at(&rotations, t);
            let q = DQuat::from_xyzw(q.x.into(), q.y.into(), q.z.into(), q.w.into());
            assert!(super::super::rigid::angle_between(r, q) < 1e-5, "{t}");
        }
    }
}
