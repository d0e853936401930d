//! Choosing each joint's keys so that MilkShape's own evaluation
//! reproduces the source.
//!
//! For every animation on the timeline the scene is posed (`Pose`, as
//! glTF plays it) at its sample times (see `times`: every key time of its
//! channels, twice per MilkShape frame, the keys around each step,
//! and the midpoint between each two but inside a step).
//! At each, every joint's target local transform is the source's,
//! relative to its parent joint, in its bind frame:
//! `K(t) = L⁻¹ · C(parent)⁻¹ · P(t) · C` (`P` the product of the local
//! transforms of the nodes from below the parent joint down to the
//! joint, `C` the joint's bind correction, `L` its stored bind local),
//! split into a rotation key and a position key.
//!
//! Per joint and track (rotations, positions), keys start at the
//! source's key times of the channels that move it (for a joint that is
//! one node with no correction, rotations from its rotation channel and
//! positions from its translation channel; otherwise from all its path's
//! channels; a `STEP` channel's key at `t` as the four keys
//! `t − 2ε, t − ε, t, t + ε` of `times`), plus each animation's first and
//! last instant, then:
//!
//! 1. **Refine**: where MilkShape's curve (slerp between rotation keys;
//!    Hermite positions with the viewer's looped tangents, which differ
//!    from glTF's) strays from the target at any sample by more than the
//!    joint's tolerance, the sample where it strays most becomes a key;
//!    repeated until none does.
//! 2. **Reduce**: each key (but an animation's ends) that can go without
//!    any sample straying goes.
//!
//! A track that never leaves the bind pose gets no keys. Animations that
//! came from an MS3D (`Scene::from_ms3d`) keep their keys exactly: no key
//! is added at their ends nor removed (their keys reproduce MilkShape's
//! curve already; the refinement would add keys only where they do not).
//!
//! Tolerances: the whole model's error budget is `tolerance · extent`;
//! a joint gets it divided by twice the length of a chain of joints
//! (`chain`), half for its rotation (as an angle times the distance from
//! the joint of the farthest vertex it or its descendants move) and half
//! for its position. With the longest chain (`Targets::depth`) errors
//! added down any chain stay within the budget; the compile tries
//! shorter chains first (fewer keys) and keeps them when its check finds
//! the result within the tolerance.

use glam::{DMat4, DQuat, DVec3};

use super::joints::{trs, JointPlan};
use super::layout::Layout;
use super::poses::relative;
use super::rigid::{angle_between, quat_to_euler, same_hemisphere, Rigid};
use super::times;
use super::track::{position_at, rotation_at};
use crate::advice::{Advice, Limit, Quantity, Remedy};
use crate::error::{Error, Result};
use crate::ms3d::Key;
use crate::scene::{Animation, Interpolation, Pose, Scene, Target};

/// Most samples (joints × times) a compile evaluates: 56 bytes each.
const MAX_SAMPLES: usize = 4_000_000;
/// Most key times one animation may have.
const MAX_KEY_TIMES: usize = 65_535;

/// One sample of a joint's target.
#[derive(Debug, Clone, Copy)]
struct Sample {
    time: f64,
    rotation: DQuat,
    position: DVec3,
}

/// The keys of every joint, and what they cost.
#[derive(Debug, Clone, Default)]
pub(crate) struct Fitted {
    /// Per joint.
    pub rotation_keys: Vec<Vec<Key>>,
    /// Per joint.
    pub position_keys: Vec<Vec<Key>>,
    /// Per placed animation: keys its channels have in the source.
    pub source_keys: Vec<usize>,
    /// Per placed animation: keys written within its frames.
    pub written_keys: Vec<usize>,
    /// The largest distance the non-rigid part of the source's motion
    /// (scale, shear) moves a vertex, which MilkShape cannot store.
    pub nonrigid: f64,
    /// The joint where `nonrigid` is largest.
    pub nonrigid_joint: usize,
}

/// Each animation's sample times (seconds into it), sorted (see
/// `times`).
fn sample_times(anim: &Animation, duration: f64, fps: f64, gap: f64) -> Result<Vec<f64>> {
    let mut keys: Vec<f64> = anim
        .channels
        .iter()
        .flat_map(|c| c.times.iter())
        .map(|&t| f64::from(t))
        .filter(|t| t.is_finite() && *t >= 0.0 && *t <= duration)
        .collect();
    keys.push(0.0);
    keys.push(duration);
    keys.sort_by(f64::total_cmp);
    keys.dedup();
    if keys.len() > MAX_KEY_TIMES {
        return Err(Error::unwritable(
            format!("animation {:?}", anim.name),
            format!(
                "{} key times; an MS3D key list holds at most {MAX_KEY_TIMES}",
                keys.len()
            ),
        ));
    }
    Ok(times::samples(anim, &keys, duration, fps, gap))
}

/// The key times of the channels of `anim` that move joint `j`, for its
/// rotation and its position track.
fn candidate_times(
    anim: &Animation,
    plan: &JointPlan,
    j: usize,
    duration: f64,
    gap: f64,
) -> (Vec<f64>, Vec<f64>) {
    let joint = &plan.joints[j];
    let parent_exact = joint
        .parent
        .is_none_or(|p| plan.joints[p].correction.is_none());
    let split = joint.path.len() == 1 && joint.correction.is_none() && parent_exact;
    let (mut rot, mut pos) = (Vec::new(), Vec::new());
    for c in &anim.channels {
        let (node, kind) = match c.target {
            Target::Translation { node } => (node, 0),
            Target::Rotation { node } => (node, 1),
            Target::Scale { node } => (node, 2),
            Target::MorphWeights { .. } => continue,
        };
        if !joint.path.contains(&node) {
            continue;
        }
        let keys = c
            .times
            .iter()
            .map(|&t| f64::from(t))
            .filter(|t| t.is_finite() && *t >= 0.0 && *t <= duration);
        // A step becomes doubled keys on either side (see `times`).
        let times: Vec<f64> = if c.interpolation == Interpolation::Step {
            keys.flat_map(|t| times::step_keys(t, gap, duration))
                .collect()
        } else {
            keys.map(times::as_posed).collect()
        };
        let times = times.into_iter();
        match (split, kind) {
            (true, 0) => pos.extend(times),
            (true, 1) => rot.extend(times),
            // Scale does not move a rigid part.
            (true, _) => {}
            (false, _) => {
                let t: Vec<f64> = times.collect();
                rot.extend(&t);
                pos.extend(t);
            }
        }
    }
    for v in [&mut rot, &mut pos] {
        v.sort_by(f64::total_cmp);
        v.dedup();
    }
    (rot, pos)
}

/// The gap between a step's keys on the timeline of `layout` (see
/// `times`).
pub(crate) fn step_gap(layout: &Layout) -> f64 {
    let end = layout
        .placed
        .iter()
        .map(|p| p.offset + p.duration)
        .fold(0.0, f64::max);
    times::step_gap(end)
}

/// The index of `t` in sorted `times` (which hold it).
fn index_of(times: &[f64], t: f64) -> usize {
    times
        .partition_point(|&x| x < t)
        .min(times.len().saturating_sub(1))
}

/// A track being fitted: its samples and tolerance, and which samples
/// are keys.
struct Fit<'a> {
    samples: &'a [Sample],
    rotation: bool,
    /// Distance per radian (rotations) or 1 (positions).
    lever: f64,
    tolerance: f64,
}

impl Fit<'_> {
    fn rotation_keys(&self, keys: &[usize]) -> Vec<(f64, DQuat)> {
        keys.iter()
            .map(|&k| (self.samples[k].time, self.samples[k].rotation))
            .collect()
    }

    fn position_keys(&self, keys: &[usize]) -> Vec<(f64, DVec3)> {
        keys.iter()
            .map(|&k| (self.samples[k].time, self.samples[k].position))
            .collect()
    }

    /// Error at each sample of `range` with `keys`.
    fn errors(&self, keys: &[usize], range: std::ops::Range<usize>) -> Vec<(usize, f64)> {
        let mut out = Vec::with_capacity(range.len());
        if self.rotation {
            let k = self.rotation_keys(keys);
            for s in range {
                let q = rotation_at(&k, self.samples[s].time);
                out.push((s, angle_between(q, self.samples[s].rotation) * self.lever));
            }
        } else {
            let k = self.position_keys(keys);
            for s in range {
                let p = position_at(&k, self.samples[s].time);
                out.push((s, (p - self.samples[s].position).length()));
            }
        }
        out
    }

    /// Adds keys where the error is too large (the worst sample of each
    /// interval that has one), until none is.
    fn refine(&self, keys: &mut Vec<usize>) {
        for _ in 0..64 {
            let errors = self.errors(keys, 0..self.samples.len());
            let mut add: Vec<usize> = Vec::new();
            let mut worst: Option<(usize, f64)> = None;
            let mut segment = 0usize;
            for (s, e) in errors {
                // The interval of keys holding s.
                let seg = keys.partition_point(|&k| k <= s);
                if seg != segment {
                    if let Some((w, _)) = worst.take() {
                        add.push(w);
                    }
                    segment = seg;
                }
                if e > self.tolerance
                    && keys.binary_search(&s).is_err()
                    && worst.is_none_or(|(_, b)| e > b)
                {
                    worst = Some((s, e));
                }
            }
            if let Some((w, _)) = worst {
                add.push(w);
            }
            if add.is_empty() {
                return;
            }
            keys.extend(add);
            keys.sort_unstable();
            keys.dedup();
        }
    }

    /// Removes keys (but `pinned` ones) that can go without any sample
    /// straying too far.
    ///
    /// Each key in turn is tried without: the list tried is the keys kept
    /// so far and those not yet tried, and only the samples whose curve
    /// the key shapes are looked at (a rotation's two intervals; a
    /// position's four, as the viewer's tangents reach to the neighbouring
    /// keys). Those samples are evaluated on the few keys around them
    /// ([`Self::window`]), so that a track of `n` keys is reduced in
    /// `O(n)` key copies, not `O(n²)` (a fuzzed timeline of 10²² s made
    /// every one of 120,000 samples a key and took minutes).
    fn reduce(&self, keys: &mut Vec<usize>, pinned: &[usize]) {
        let n = keys.len();
        if n < 3 {
            return;
        }
        let mut kept: Vec<usize> = Vec::with_capacity(n);
        kept.push(keys[0]);
        for j in 1..n - 1 {
            if pinned.binary_search(&keys[j]).is_ok() {
                kept.push(keys[j]);
                continue;
            }
            // The keys with keys[j] left out: kept, then keys[j + 1..].
            let trial = Trial {
                kept: &kept,
                rest: &keys[j + 1..],
            };
            let (i, len) = (kept.len(), trial.len());
            // Positions: the tangents of the neighbours change, and they
            // shape the intervals next to them.
            let (lo, hi) = if self.rotation || len <= 3 {
                if len <= 3 {
                    (0, self.samples.len())
                } else {
                    (trial.at(i - 1), trial.at(i) + 1)
                }
            } else {
                let a = trial.at(i.saturating_sub(2));
                let b = trial.at((i + 1).min(len - 1));
                (a, b + 1)
            };
            let range = lo..hi.min(self.samples.len());
            let ok = match self.window(&trial, i) {
                Some(local) if len > 3 => self.within_tolerance(&local, range),
                _ => self.within_tolerance(&trial.to_vec(), range),
            };
            if !ok {
                kept.push(keys[j]);
            }
        }
        kept.push(keys[n - 1]);
        *keys = kept;
    }

    /// Whether every sample of `range` is within the tolerance with `keys`.
    fn within_tolerance(&self, keys: &[usize], range: std::ops::Range<usize>) -> bool {
        self.errors(keys, range)
            .iter()
            .all(|&(_, e)| e <= self.tolerance)
    }

    /// The keys of `trial` around its index `i` that evaluate the samples
    /// [`Self::reduce`] looks at exactly as the whole list does: each
    /// evaluated interval and the keys its tangents reach, and one more
    /// key on each side (so that no sample falls on the window's ends,
    /// where the viewer's looped tangents would wrap). `None` near the
    /// track's ends (the tangents do wrap there) or where two key times
    /// are not increasing: then the whole list is used.
    fn window(&self, trial: &Trial<'_>, i: usize) -> Option<Vec<usize>> {
        let (before, after) = if self.rotation { (2, 1) } else { (4, 3) };
        let first = i.checked_sub(before)?;
        let last = i + after;
        if last >= trial.len() {
            return None;
        }
        let local: Vec<usize> = (first..=last).map(|x| trial.at(x)).collect();
        local
            .windows(2)
            .all(|w| self.samples[w[0]].time < self.samples[w[1]].time)
            .then_some(local)
    }
}

/// The keys [`Fit::reduce`] tries: those kept so far, then those not yet
/// tried.
struct Trial<'a> {
    kept: &'a [usize],
    rest: &'a [usize],
}

impl Trial<'_> {
    fn len(&self) -> usize {
        self.kept.len() + self.rest.len()
    }

    fn at(&self, x: usize) -> usize {
        match self.kept.get(x) {
            Some(&k) => k,
            None => self.rest[x - self.kept.len()],
        }
    }

    fn to_vec(&self) -> Vec<usize> {
        self.kept.iter().chain(self.rest).copied().collect()
    }
}

/// What the keys are fitted to: every joint's target at every sample
/// time of every placed animation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Targets {
    /// Per joint, per sample (animations one after another).
    samples: Vec<Vec<Sample>>,
    /// Per placed animation: its sample times.
    times: Vec<Vec<f64>>,
    /// Per placed animation: where its samples start.
    starts: Vec<usize>,
    /// The longest chain of joints.
    pub depth: usize,
    /// The gap between a step's keys.
    gap: f64,
    /// See `Fitted::nonrigid`.
    nonrigid: f64,
    /// See `Fitted::nonrigid_joint`.
    nonrigid_joint: usize,
}

/// Poses the scene at the sample times of every animation of `layout`
/// (see the module documentation) and takes each joint of `plan`'s
/// target; `radius[j]` is the distance from joint `j` of the farthest
/// vertex it or its descendants move.
pub(crate) fn targets(
    scene: &Scene,
    plan: &JointPlan,
    layout: &Layout,
    radius: &[f64],
) -> Result<Targets> {
    let joints = plan.joints.len();
    let mut fitted = Targets {
        depth: 1,
        ..Targets::default()
    };
    if joints == 0 || layout.placed.is_empty() {
        return Ok(fitted);
    }
    // Sample times, per animation.
    let mut times: Vec<Vec<f64>> = Vec::with_capacity(layout.placed.len());
    let mut total = 0usize;
    let fps = f64::from(layout.effective_fps);
    let gap = step_gap(layout);
    for p in &layout.placed {
        let t = sample_times(&scene.animations[p.animation], p.duration, fps, gap)?;
        total += t.len();
        times.push(t);
    }
    if total.saturating_mul(joints) > MAX_SAMPLES {
        let samples = total.saturating_mul(joints);
        return Err(Error::unwritable(
            "animations",
            format!(
                "{total} sample times × {joints} joints are more than the {MAX_SAMPLES} samples a compile evaluates"
            ),
        )
        .advised(Advice::new(
            Some(Limit {
                quantity: Quantity::Samples,
                max: MAX_SAMPLES as u64,
                actual: samples as u64,
            }),
            vec![Remedy::FewerAnimations],
        )));
    }
    // The targets.
    let mut pose = Pose::new(scene)?;
    let n = scene.nodes.len();
    let mut locals = vec![DMat4::IDENTITY; n];
    let mut samples: Vec<Vec<Sample>> = vec![Vec::with_capacity(total); joints];
    let inverse_corrections: Vec<Option<DMat4>> = plan
        .joints
        .iter()
        .map(|j| j.correction.map(|c| c.inverse()))
        .collect();
    for (p, placed) in layout.placed.iter().enumerate() {
        for &t in &times[p] {
            pose.sample(scene, placed.animation, t as f32);
            for (i, local) in locals.iter_mut().enumerate() {
                if let Some((tr, r, s)) = pose.local(i) {
                    *local = trs(tr, r, s);
                }
            }
            for (j, joint) in plan.joints.iter().enumerate() {
                let m = relative(plan, j, &locals, &inverse_corrections);
                let Some((rigid, residual)) = Rigid::of_matrix(&m) else {
                    return Err(Error::InvalidScene {
                        path: format!("animations[{}]", placed.animation),
                        message: format!(
                            "the pose of node {} at {t} s is not finite or is singular",
                            joint.node
                        ),
                    });
                };
                if residual * radius[j] > fitted.nonrigid {
                    fitted.nonrigid = residual * radius[j];
                    fitted.nonrigid_joint = j;
                }
                let key = joint.bind_local.inverse().mul(&rigid);
                let previous = samples[j].last().map_or(DQuat::IDENTITY, |s| s.rotation);
                samples[j].push(Sample {
                    // The time the key gets in the file.
                    time: f64::from((placed.offset + t) as f32),
                    rotation: same_hemisphere(key.r, previous),
                    position: key.t,
                });
            }
        }
    }
    // Where each animation's samples start.
    let mut starts = Vec::with_capacity(times.len());
    let mut at = 0;
    for t in &times {
        starts.push(at);
        at += t.len();
    }
    fitted.depth = (0..joints)
        .map(|mut j| {
            let mut d = 1;
            while let Some(p) = plan.joints[j].parent {
                j = p;
                d += 1;
                if d > joints {
                    break;
                }
            }
            d
        })
        .max()
        .unwrap_or(1);
    fitted.samples = samples;
    fitted.times = times;
    fitted.starts = starts;
    fitted.gap = gap;
    Ok(fitted)
}

/// The chain lengths a fit shares the budget out along, in the order
/// tried: 1, then more, up to `depth` (with which the errors stay within
/// the budget down any chain).
pub(crate) fn chains(depth: usize) -> Vec<f64> {
    let depth = depth.max(1) as f64;
    let mut out = vec![1.0];
    let mut c = 1.0;
    while c < depth {
        c = (c * 2.0).min(depth);
        out.push(c);
    }
    out
}

/// Fits the keys of every joint of `plan` to `targets` (see the module
/// documentation); `radius[j]` is the distance from joint `j` of the
/// farthest vertex it or its descendants move, `tolerance` the model's
/// error budget in scene units, shared out along chains of `chain`
/// joints (`targets.depth` makes sure of it; fewer give fewer keys,
/// which the check may still find within the tolerance).
pub(crate) fn fit(
    scene: &Scene,
    plan: &JointPlan,
    layout: &Layout,
    radius: &[f64],
    targets: &Targets,
    tolerance: f64,
    chain: f64,
) -> Fitted {
    let joints = plan.joints.len();
    let mut fitted = Fitted {
        rotation_keys: vec![Vec::new(); joints],
        position_keys: vec![Vec::new(); joints],
        nonrigid: targets.nonrigid,
        nonrigid_joint: targets.nonrigid_joint,
        ..Fitted::default()
    };
    if targets.samples.is_empty() {
        fitted.source_keys = vec![0; layout.placed.len()];
        fitted.written_keys = vec![0; layout.placed.len()];
        return fitted;
    }
    let (samples, times, starts, gap) = (
        &targets.samples,
        &targets.times,
        &targets.starts,
        targets.gap,
    );
    let budget = tolerance / (2.0 * chain.max(1.0));
    for j in 0..joints {
        let lever = radius[j].max(1e-12);
        for rotation in [true, false] {
            let fit = Fit {
                samples: &samples[j],
                rotation,
                lever: if rotation { lever } else { 1.0 },
                tolerance: budget / 2.0,
            };
            let moves = samples[j].iter().any(|s| {
                if rotation {
                    angle_between(s.rotation, DQuat::IDENTITY) * lever > fit.tolerance * 1e-3
                } else {
                    s.position.length() > fit.tolerance * 1e-3
                }
            });
            let mut keys: Vec<usize> = Vec::new();
            let mut pinned: Vec<usize> = Vec::new();
            for (p, placed) in layout.placed.iter().enumerate() {
                let anim = &scene.animations[placed.animation];
                let (rot, pos) = candidate_times(anim, plan, j, placed.duration, gap);
                let candidates = if rotation { rot } else { pos };
                let local = &times[p];
                keys.extend(candidates.iter().map(|&t| starts[p] + index_of(local, t)));
                if placed.from_ms3d {
                    pinned.extend(candidates.iter().map(|&t| starts[p] + index_of(local, t)));
                } else if moves {
                    let ends = [starts[p], starts[p] + local.len() - 1];
                    keys.extend(ends);
                    pinned.extend(ends);
                }
            }
            keys.sort_unstable();
            keys.dedup();
            pinned.sort_unstable();
            pinned.dedup();
            if !moves && !layout.placed.iter().any(|p| p.from_ms3d) {
                keys.clear();
            }
            if keys.is_empty() && !moves {
                continue;
            }
            if keys.is_empty() {
                keys = vec![0, samples[j].len() - 1];
            }
            fit.refine(&mut keys);
            fit.reduce(&mut keys, &pinned);
            let out: Vec<Key> = keys
                .iter()
                .map(|&k| {
                    let s = &samples[j][k];
                    let value = if rotation {
                        quat_to_euler(s.rotation).map(|x| x as f32)
                    } else {
                        s.position.to_array().map(|x| x as f32)
                    };
                    Key {
                        time: s.time as f32,
                        value,
                    }
                })
                .collect();
            if rotation {
                fitted.rotation_keys[j] = out;
            } else {
                fitted.position_keys[j] = out;
            }
        }
    }
    for placed in &layout.placed {
        let anim = &scene.animations[placed.animation];
        fitted.source_keys.push(
            anim.channels
                .iter()
                .filter(|c| !matches!(c.target, Target::MorphWeights { .. }))
                .map(|c| c.times.len())
                .sum(),
        );
        let (lo, hi) = (placed.offset - 1e-6, placed.offset + placed.duration + 1e-6);
        let within = |keys: &Vec<Key>| {
            keys.iter()
                .filter(|k| (lo..=hi).contains(&f64::from(k.time)))
                .count()
        };
        fitted.written_keys.push(
            fitted.rotation_keys.iter().map(within).sum::<usize>()
                + fitted.position_keys.iter().map(within).sum::<usize>(),
        );
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reduction as it was before the windowed evaluation: each trial
    /// is the whole key list, evaluated whole. The windowed one must keep
    /// exactly the same keys.
    fn reduce_whole(fit: &Fit<'_>, keys: &mut Vec<usize>, pinned: &[usize]) {
        let mut i = 1;
        while i + 1 < keys.len() {
            if pinned.binary_search(&keys[i]).is_ok() {
                i += 1;
                continue;
            }
            let mut trial = keys.clone();
            trial.remove(i);
            let (lo, hi) = if fit.rotation || trial.len() <= 3 {
                if trial.len() <= 3 {
                    (0, fit.samples.len())
                } else {
                    (trial[i - 1], trial[i] + 1)
                }
            } else {
                let a = trial[i.saturating_sub(2)];
                let b = trial[(i + 1).min(trial.len() - 1)];
                (a, b + 1)
            };
            if fit.within_tolerance(&trial, lo..hi.min(fit.samples.len())) {
                *keys = trial;
            } else {
                i += 1;
            }
        }
    }

    /// A wobbling track: smooth stretches (most keys can go), kinks and
    /// jumps (some must stay), from a fixed linear congruential sequence.
    fn track(n: usize, seed: u64) -> Vec<Sample> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut time = 0.0;
        (0..n)
            .map(|k| {
                time += 0.01 + 0.03 * next();
                let kink = if next() < 0.1 { next() } else { 0.0 };
                let x = k as f64 * 0.05;
                Sample {
                    time,
                    rotation: DQuat::from_rotation_y(x.sin() + kink)
                        * DQuat::from_rotation_x(0.3 * (2.0 * x).cos()),
                    position: DVec3::new(x.sin() + kink, (0.7 * x).cos(), 0.2 * x),
                }
            })
            .collect()
    }

    #[test]
    fn windowed_reduction_keeps_the_keys_the_whole_list_keeps() {
        for seed in 0..12u64 {
            let samples = track(300, seed);
            for rotation in [true, false] {
                for tolerance in [1e-4, 1e-2, 0.2] {
                    let fit = Fit {
                        samples: &samples,
                        rotation,
                        lever: 1.0,
                        tolerance,
                    };
                    let pinned: Vec<usize> = (0..samples.len()).step_by(37).collect();
                    let mut windowed: Vec<usize> = (0..samples.len()).collect();
                    let mut whole = windowed.clone();
                    fit.reduce(&mut windowed, &pinned);
                    reduce_whole(&fit, &mut whole, &pinned);
                    assert_eq!(
                        windowed, whole,
                        "seed {seed}, rotation {rotation}, tolerance {tolerance}"
                    );
                    assert!(windowed.len() < samples.len() || tolerance < 1e-3);
                }
            }
        }
    }
}
