//! Skin weights of a primitive: every `JOINTS_n`/`WEIGHTS_n` set read,
//! checked and renormalised, and the largest joint index it uses.

use super::accessor::{allowed, Accessor, Allowed};
use super::json::{err, At};
use super::Ctx;
use crate::error::Result;
use crate::scene::{InfluenceSet, SkinWeights};

/// The skin weights of every `JOINTS_n`/`WEIGHTS_n` pair, each set kept
/// (renormalised over all sets when they do not sum to 1), and the
/// largest joint index with a weight with the attribute holding it.
#[allow(clippy::type_complexity)]
pub(super) fn skin_weights<'c>(
    ctx: &Ctx,
    attributes: &At,
    n: usize,
    attribute: &dyn Fn(&str, &Allowed) -> Result<Option<Accessor<'c>>>,
    apath: &dyn Fn(&str) -> String,
) -> Result<(Option<SkinWeights>, Option<MaxJoint>)> {
    let mut sets: Vec<u32> = Vec::new();
    for key in attributes.object()?.keys() {
        for prefix in ["JOINTS_", "WEIGHTS_"] {
            if let Some(set) = key.strip_prefix(prefix).and_then(|s| s.parse::<u32>().ok()) {
                if !sets.contains(&set) {
                    sets.push(set);
                }
            }
        }
    }
    sets.sort_unstable();
    // Per kept set: its number, joints and weights.
    let mut pairs: Vec<(u32, Vec<[u16; 4]>, Vec<[f32; 4]>)> = Vec::new();
    for set in sets {
        let (jk, wk) = (format!("JOINTS_{set}"), format!("WEIGHTS_{set}"));
        let joints = attribute(&jk, &allowed::JOINTS)?;
        let weights = attribute(&wk, &allowed::WEIGHTS)?;
        match (joints, weights) {
            (Some(j), Some(w)) => {
                ctx.charge(n as u64 * 24, || apath(&jk))?;
                let w_values = ctx.read_floats::<4>(&w)?;
                if let Some((i, _)) = w_values
                    .iter()
                    .enumerate()
                    .find(|(_, e)| e.iter().any(|&x| x < 0.0))
                {
                    return Err(err(apath(&wk), format!("vertex {i} has a negative weight")));
                }
                let flat = ctx.read_uints(&j)?;
                let mut j_values = Vec::with_capacity(n);
                for i in 0..n {
                    let mut e = [0u16; 4];
                    for (c, slot) in e.iter_mut().enumerate() {
                        let joint = flat.get(4 * i + c).copied().unwrap_or(0);
                        // JOINTS_n are unsigned bytes or shorts.
                        *slot = u16::try_from(joint).map_err(|_| {
                            err(
                                apath(&jk),
                                format!("vertex {i} has joint {joint}, past 65535"),
                            )
                        })?;
                    }
                    j_values.push(e);
                }
                pairs.push((set, j_values, w_values));
            }
            (Some(_), None) => ctx.warn(apath(&jk), format!("{jk} without {wk}; ignored")),
            (None, Some(_)) => ctx.warn(apath(&wk), format!("{wk} without {jk}; ignored")),
            (None, None) => {}
        }
    }
    if pairs.is_empty() {
        return Ok((None, None));
    }
    let mut max_joint: Option<MaxJoint> = None;
    let mut zero_vertices = 0usize;
    for i in 0..n {
        let mut sum = 0.0f32;
        for (set, j, w) in &pairs {
            for (&joint, &weight) in j[i].iter().zip(&w[i]) {
                if weight > 0.0 && max_joint.as_ref().is_none_or(|m| joint > m.joint) {
                    max_joint = Some(MaxJoint {
                        joint,
                        vertex: i,
                        path: apath(&format!("JOINTS_{set}")),
                    });
                }
                sum += weight;
            }
        }
        if sum == 0.0 {
            zero_vertices += 1;
        } else if (sum - 1.0).abs() > 1e-6 {
            for (_, _, w) in &mut pairs {
                for x in &mut w[i] {
                    *x /= sum;
                }
            }
        }
    }
    if zero_vertices > 0 {
        ctx.warn(
            apath("WEIGHTS_0"),
            format!("{zero_vertices} vertices have no non-zero weight"),
        );
    }
    let mut pairs = pairs.into_iter();
    let Some((_, joints, weights)) = pairs.next() else {
        return Ok((None, None));
    };
    let more = pairs
        .map(|(_, joints, weights)| InfluenceSet { joints, weights })
        .collect();
    Ok((
        Some(SkinWeights {
            skin: 0,
            joints,
            weights,
            more,
        }),
        max_joint,
    ))
}

/// The largest joint index a primitive's vertices use (with a weight):
/// where it is, for the error when it is past the skin's joints.
#[derive(Debug, Clone)]
pub(super) struct MaxJoint {
    /// The joint index.
    pub(super) joint: u16,
    /// The first vertex using it.
    pub(super) vertex: usize,
    /// The `JOINTS_n` attribute holding it.
    pub(super) path: String,
}
