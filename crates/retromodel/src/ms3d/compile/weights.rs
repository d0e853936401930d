//! Vertex weights as MilkShape stores them: whole percentages.
//!
//! MilkShape 1.8's vertex extras hold `[own bone, bone ids 0–2]` with
//! percent weights `[w0, w1, w2]` and the fourth `100 − w0 − w1 − w2`
//! (see [`crate::ms3d::Influences`]). The source's fractions are turned
//! into whole percentages by largest remainder (Hamilton's method): each
//! gets the whole part of `fraction × total`, and the units left over go
//! to the largest remainders (earlier influences first on ties). That is
//! the rounding to a fixed total with the smallest largest error (below 1
//! percentage point, and below ½ unless the remainders force more).
//!
//! But the weight nearest weight by weight is not the vertex nearest: an
//! error of ½ point on a weight whose joint moves the vertex far from
//! where the others do costs more than one on a joint that moves it
//! alike. So where the animations tell the roundings apart, a vertex's
//! weights go to the rounding (each weight down or up, the same total)
//! that keeps it nearest to the source at the farthest of a few poses
//! ([`encode_by`], the poses from `poses`); a vertex of 8-bit quantized
//! weights (`k / 255`) this way lands nearest to where glTF puts it.

use crate::ms3d::VertexExtra;

/// Whole numbers summing to exactly `total`, as close to
/// `shares[i] / Σ shares × total` as a fixed sum allows (largest
/// remainder). All shares non-negative and finite; a zero sum gives all
/// the total to the first.
pub(crate) fn apportion(shares: &[f64], total: u32) -> Vec<u32> {
    let sum: f64 = shares.iter().sum();
    if shares.is_empty() {
        return Vec::new();
    }
    if !(sum > 0.0 && sum.is_finite()) {
        let mut out = vec![0; shares.len()];
        out[0] = total;
        return out;
    }
    let quotas: Vec<f64> = shares.iter().map(|s| s / sum * f64::from(total)).collect();
    let mut out: Vec<u32> = quotas.iter().map(|q| q.floor() as u32).collect();
    let given: u32 = out.iter().sum();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    // Largest remainder first; the earlier influence on ties.
    order.sort_by(|&a, &b| {
        let (ra, rb) = (quotas[a] - quotas[a].floor(), quotas[b] - quotas[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for &i in order
        .iter()
        .cycle()
        .take(total.saturating_sub(given) as usize)
    {
        out[i] += 1;
    }
    out
}

/// One vertex's influences as MilkShape stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Stored {
    /// The vertex's own bone, −1 for none (the vertex does not move).
    pub bone_id: i8,
    /// The vertex extra record.
    pub extra: VertexExtra,
}

/// What encoding one vertex's influences cost.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Encoded {
    /// The largest difference between a stored percentage and the
    /// source's, in percentage points.
    pub error: f64,
    /// Whether a share the source leaves out (weights short of 100 %)
    /// could not be stored and the weights were made whole.
    pub made_whole: bool,
}

/// Stores influences `(joint, fraction)` (in the source's order, zero
/// fractions and joints past 127 already removed, at most four) whose
/// fractions sum to `whole` or less: `whole − Σ` is a share MilkShape
/// leaves out (the vertex moves by less than all of its bones). An empty
/// list is a vertex no joint moves. Whole percentages by largest
/// remainder (see [`encode_by`]).
pub(crate) fn encode(influences: &[(u8, f64)]) -> (Stored, Encoded) {
    encode_by(influences, None)
}

/// The ways to round `quotas` to whole numbers summing to `total`, each
/// quota down or up (a whole quota as it is: within 1e-5, as whole
/// percents read from 32-bit weights are; an 8- or 16-bit weight
/// `k / 255`, `k / 65535` is never that near a whole percent but when it
/// is one), in the order of the bits that choose them.
fn roundings(quotas: &[f64], total: u32) -> Vec<Vec<u32>> {
    let floors: Vec<u32> = quotas.iter().map(|q| q.floor() as u32).collect();
    let whole: Vec<bool> = quotas
        .iter()
        .map(|q| (q - q.round()).abs() < 1e-5)
        .collect();
    let n = quotas.len();
    let mut out = Vec::new();
    for mask in 0u32..(1 << n) {
        let mut p = Vec::with_capacity(n);
        let mut ok = true;
        for k in 0..n {
            let up = mask & (1 << k) != 0;
            if whole[k] {
                ok &= !up;
                p.push(quotas[k].round() as u32);
            } else {
                p.push(floors[k] + u32::from(up));
            }
        }
        if ok && p.iter().sum::<u32>() == total {
            out.push(p);
        }
    }
    out
}

/// How far a stored `(joint, percent)` list puts a vertex from the source.
pub(crate) type Cost<'a> = dyn FnMut(&[(u8, u32)]) -> f64 + 'a;

/// [`encode`], choosing among the roundings of the weights to whole
/// percents that MilkShape can store (each weight rounded down or up, the
/// stored ones summing to the same total; a weight rounded to 0 leaves
/// the list) the one `cost` finds least: `cost` gets the stored
/// `(joint, percent)` list and says how far that puts the vertex from
/// where the source puts it (the largest distance over a few poses; see
/// `geometry`). Largest remainder is kept unless another rounding costs
/// less by more than a thousandth (so a vertex no pose tells apart, or
/// `cost` `None`, rounds as [`apportion`] does).
pub(crate) fn encode_by(
    influences: &[(u8, f64)],
    cost: Option<&mut Cost<'_>>,
) -> (Stored, Encoded) {
    let mut report = Encoded::default();
    if influences.is_empty() {
        let none = Stored {
            bone_id: -1,
            extra: VertexExtra {
                bone_ids: [-1; 3],
                weights: [0; 3],
                extra: [0; 2],
            },
        };
        return (none, report);
    }
    let sum: f64 = influences.iter().map(|i| i.1).sum();
    // A shortfall can be stored with up to three influences: the slot
    // after the last holds 0 % (or the implicit fourth an invalid bone),
    // where MilkShape stops. Four influences always make 100 %.
    let short = sum < 1.0 - 0.5e-2;
    let (total, shares): (u32, Vec<f64>) = if short && influences.len() < 4 {
        let total = (sum * 100.0).round().clamp(1.0, 100.0) as u32;
        (total, influences.iter().map(|i| i.1).collect())
    } else {
        report.made_whole = short;
        (100, influences.iter().map(|i| i.1).collect())
    };
    let percent = apportion(&shares, total);
    // Influences rounded to 0 % end the list where MilkShape would stop:
    // give their (under ½ %) share to nobody, but keep the order of the
    // rest by dropping them and apportioning again.
    let kept: Vec<usize> = (0..percent.len()).filter(|&k| percent[k] > 0).collect();
    let mut stored: Vec<(u8, u32)> = if kept.len() < percent.len() {
        let shares: Vec<f64> = kept.iter().map(|&k| shares[k]).collect();
        let again = apportion(&shares, total);
        kept.iter().map(|&k| influences[k].0).zip(again).collect()
    } else {
        influences.iter().map(|i| i.0).zip(percent).collect()
    };
    if let Some(cost) = cost {
        let share_sum: f64 = shares.iter().sum();
        let quotas: Vec<f64> = if share_sum > 0.0 && share_sum.is_finite() {
            shares
                .iter()
                .map(|s| s / share_sum * f64::from(total))
                .collect()
        } else {
            Vec::new()
        };
        let options = roundings(&quotas, total);
        if options.len() > 1 {
            let mut best = cost(&stored);
            for p in options {
                let list: Vec<(u8, u32)> = influences
                    .iter()
                    .zip(p)
                    .filter(|(_, p)| *p > 0)
                    .map(|(i, p)| (i.0, p))
                    .collect();
                if list == stored {
                    continue;
                }
                let c = cost(&list);
                if c < best * (1.0 - 1e-3) {
                    best = c;
                    stored = list;
                }
            }
        }
    }
    let scale = if report.made_whole && sum > 0.0 {
        1.0 / sum
    } else {
        1.0
    };
    for (joint, w) in influences {
        let s = stored
            .iter()
            .find(|s| s.0 == *joint)
            .map_or(0.0, |s| f64::from(s.1));
        report.error = report.error.max((s - w * 100.0 * scale).abs());
    }
    let id = |k: usize| stored.get(k).map_or(-1, |s| s.0 as i8);
    let pct = |k: usize| stored.get(k).map_or(0, |s| s.1 as u8);
    let stored = Stored {
        bone_id: id(0),
        extra: VertexExtra {
            bone_ids: [id(1), id(2), id(3)],
            weights: [pct(0), pct(1), pct(2)],
            extra: [0; 2],
        },
    };
    (stored, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms3d::Influence;

    #[test]
    fn largest_remainder_sums_exactly() {
        assert_eq!(apportion(&[1.0, 1.0, 1.0], 100), [34, 33, 33]);
        assert_eq!(apportion(&[0.125, 0.375, 0.5], 100), [13, 37, 50]);
        assert_eq!(apportion(&[0.334, 0.333, 0.333], 100), [34, 33, 33]);
        assert_eq!(apportion(&[0.0, 0.0], 100), [100, 0]);
        for shares in [
            [0.2501, 0.2499, 0.25, 0.25],
            [0.97, 0.01, 0.01, 0.01],
            [0.6, 0.3, 0.07, 0.03],
        ] {
            let p = apportion(&shares, 100);
            assert_eq!(p.iter().sum::<u32>(), 100);
            for (a, s) in p.iter().zip(shares) {
                assert!((f64::from(*a) - s * 100.0).abs() < 1.0);
            }
        }
    }

    /// What MilkShape's skinning (`Influence::from_stored`) reads back.
    fn read(s: &Stored) -> Vec<(u16, f32)> {
        let i = Influence::from_stored(s.bone_id, s.extra.bone_ids, s.extra.weights, 128);
        (0..i.count as usize)
            .map(|k| (i.joints[k], i.weights[k]))
            .collect()
    }

    #[test]
    fn encodings_read_back_as_milkshape_skins_them() {
        let (s, e) = encode(&[(3, 1.0)]);
        assert_eq!(read(&s), [(3, 1.0)]);
        assert_eq!(e.error, 0.0);
        let (s, _) = encode(&[(1, 0.5), (2, 0.25), (4, 0.125), (7, 0.125)]);
        assert_eq!(read(&s), [(1, 0.5), (2, 0.25), (4, 0.13), (7, 0.12)]);
        // Weights short of 100 %: MilkShape stops at the 0 % slot.
        let (s, e) = encode(&[(1, 0.6), (2, 0.2)]);
        assert_eq!(read(&s), [(1, 0.6), (2, 0.2)]);
        assert!(!e.made_whole);
        let (s, _) = encode(&[(1, 0.3), (2, 0.3), (5, 0.3)]);
        assert_eq!(read(&s), [(1, 0.3), (2, 0.3), (5, 0.3)]);
        // Four influences cannot fall short.
        let (s, e) = encode(&[(1, 0.2), (2, 0.2), (3, 0.2), (4, 0.2)]);
        assert_eq!(read(&s), [(1, 0.25), (2, 0.25), (3, 0.25), (4, 0.25)]);
        assert!(e.made_whole);
        // A weight that rounds to 0 % is left out, the rest keep 100 %.
        let (s, e) = encode(&[(1, 0.996), (2, 0.004)]);
        assert_eq!(read(&s), [(1, 1.0)]);
        assert!((e.error - 0.4).abs() < 1e-9, "{e:?}");
        let (s, _) = encode(&[]);
        assert!(read(&s).is_empty());
        assert_eq!(s.bone_id, -1);
    }
}
