//! The 8-bit grids positions are quantised to.
//!
//! An MD2 frame (or a whole MDL) stores each coordinate as a byte `b`,
//! decoded as `b · scale + translate` per axis. For a set of points (a
//! frame, an animation or the whole model), each axis gets its own grid:
//!
//! - An axis whose points all have one value gets `scale = 0` and
//!   `translate` = that value: exact.
//! - Otherwise, with `lo` and `hi` the smallest and largest value,
//!   `translate = lo` and `scale = (hi − lo) / k` for the `k` in
//!   255, 254, …, 240 whose grid has the smallest largest error over the
//!   points (ties go to the larger `k`). `k = 255` is qdata's grid, whose
//!   largest error is half a step, so the chosen grid is never worse; the
//!   smaller `k` win when the points lie on a coarser lattice (modelled
//!   on whole units, for example), where they can be exact.
//! - Each point takes the byte whose decoded value (computed in `f32`
//!   exactly as engines decode it) is nearest.
//!
//! So every coordinate is within half a step (of qdata's step
//! `(hi − lo) / 255`) of its source, plus `f32` rounding.

/// The 8-bit grid of one frame (or of a whole model): a position decodes
/// as `byte · scale + translate` per axis.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameGrid {
    /// Per-axis step.
    pub scale: [f32; 3],
    /// Per-axis position of byte 0.
    pub translate: [f32; 3],
}

/// The candidate divisions of an axis's extent.
const DIVISIONS: std::ops::RangeInclusive<u32> = 240..=255;

/// The byte nearest to `x` on the grid `(scale, translate)` of one axis,
/// judged by the decoded `f32` value; clamped to 0..=255.
pub(crate) fn quantize_axis(x: f32, scale: f32, translate: f32) -> u8 {
    // A negative scale (some files have one) works as well as a positive.
    if scale == 0.0 || !scale.is_finite() || !x.is_finite() {
        return 0;
    }
    // `q + 0.5` truncated is `q.round()` for the clamped, non-negative
    // `q` (up to a tie, which the neighbour test below settles), without
    // the call to libm's `roundf` that `f32::round` is on baseline x86-64.
    // A NaN (from `inf − inf`) clamps to NaN and converts to 0.
    let q = ((x - translate) / scale).clamp(0.0, 255.0);
    let q = (q + 0.5) as i32;
    // The decode is computed in `f32` as engines do, so the byte nearest
    // by decoded value may be a neighbour of `q`; only the neighbour on
    // the side of `x` can be nearer (the decode is monotonic in the byte).
    let here = decode_i32(q, scale, translate) - x;
    if here == 0.0 {
        return q as u8;
    }
    let toward_x = if (here > 0.0) == (scale > 0.0) {
        q - 1
    } else {
        q + 1
    };
    if (0..=255).contains(&toward_x)
        && (decode_i32(toward_x, scale, translate) - x).abs() < here.abs()
    {
        toward_x as u8
    } else {
        q as u8
    }
}

/// [`quantize_axis`] of `x` when its decoded value is within `tolerance`
/// of `x`, else `None`. Faster than [`quantize_axis`] for points expected
/// on the grid: within less than 0.4 of a step of a byte, no other byte
/// can be nearer, so the neighbours need no test.
pub(crate) fn on_grid(x: f32, scale: f32, translate: f32, tolerance: f32) -> Option<u8> {
    if !(scale.is_finite() && x.is_finite() && tolerance < 0.4 * scale.abs()) {
        let b = quantize_axis(x, scale, translate);
        return ((decode_axis(b, scale, translate) - x).abs() <= tolerance).then_some(b);
    }
    let q = (((x - translate) / scale).clamp(0.0, 255.0) + 0.5) as i32;
    ((decode_i32(q, scale, translate) - x).abs() <= tolerance).then_some(q as u8)
}

/// [`on_grid`] for one axis of a frame, its per-axis work done once:
/// the tolerance of a coordinate `x` is `fraction` of the step plus
/// `1e-5 · (1 + |x|)` (f32 noise).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OnGrid {
    scale: f32,
    translate: f32,
    /// `fraction · |scale|`.
    slack: f32,
    /// `0.4 · |scale|`: below it the nearest byte needs no neighbour test.
    fast_below: f32,
    /// Whether the scale is finite.
    finite: bool,
}

impl OnGrid {
    /// The check for the axis `(scale, translate)`.
    pub fn new(scale: f32, translate: f32, fraction: f32) -> OnGrid {
        OnGrid {
            scale,
            translate,
            slack: scale.abs() * fraction,
            fast_below: 0.4 * scale.abs(),
            finite: scale.is_finite(),
        }
    }

    /// `on_grid(x, scale, translate, tolerance)` with this axis'
    /// tolerance for `x` (the same answer, inlined), with the value the
    /// byte decodes to.
    #[inline(always)]
    pub fn byte(&self, x: f32) -> Option<(u8, f32)> {
        let tolerance = self.slack + 1e-5 * (1.0 + x.abs());
        if !(self.finite && x.is_finite() && tolerance < self.fast_below) {
            return on_grid(x, self.scale, self.translate, tolerance)
                .map(|b| (b, decode_axis(b, self.scale, self.translate)));
        }
        let q = (((x - self.translate) / self.scale).clamp(0.0, 255.0) + 0.5) as i32;
        let decoded = decode_i32(q, self.scale, self.translate);
        ((decoded - x).abs() <= tolerance).then_some((q as u8, decoded))
    }
}

/// Coordinates [`on_grid_fast`] works on at once: four points.
pub(crate) const LANES: usize = 12;

/// [`OnGrid::byte`] of every coordinate of `points` on the frame grid of
/// `axes`, into `bytes`, when every one takes the fast path (is within
/// its tolerance of the byte it rounds to, which is less than 0.4 of a
/// step); `false` (and `bytes` unspecified) when some coordinate needs
/// [`OnGrid::byte`]'s slow path or is off the grid. Four points at a time
/// with each axis' constants laid out alongside, so the compiler uses
/// vector instructions; `each(x, decoded, used)` sees every four in turn
/// (`used` lanes of them: fewer for the last of a count that is not a
/// multiple of four, whose other lanes hold 0 and decode to 0).
pub(crate) fn on_grid_fast(
    axes: &[OnGrid; 3],
    points: &[[f32; 3]],
    bytes: &mut Vec<[u8; 3]>,
    each: impl FnMut(&[f32; LANES], &[f32; LANES], usize),
) -> bool {
    const ROUND: f32 = 8_388_608.0;
    let lane = |f: fn(&OnGrid) -> f32| -> [f32; LANES] { std::array::from_fn(|j| f(&axes[j % 3])) };
    let scale = lane(|a| a.scale);
    let translate = lane(|a| a.translate);
    let slack = lane(|a| a.slack);
    let fast_below = lane(|a| if a.finite { a.fast_below } else { f32::NAN });
    // Four points' coordinates `x`: their bytes, decoded values and
    // whether each is plainly on the grid.
    let four = |x: &[f32; LANES]| {
        let mut b = [0u8; LANES];
        let mut d = [0.0f32; LANES];
        let mut ok = [true; LANES];
        for j in 0..LANES {
            let tolerance = slack[j] + 1e-5 * (1.0 + x[j].abs());
            // `v as i32` (v in 0.5..=255.5) without the saturating
            // conversion, which does not vectorise well: `v + 2^23` holds
            // the whole number nearest to `v` (ties to even) in its low
            // bits, one less where that rounded up.
            let v = ((x[j] - translate[j]) / scale[j]).clamp(0.0, 255.0) + 0.5;
            let m = v + ROUND;
            let up = (m - ROUND) > v;
            let q = (m - ROUND) - if up { 1.0 } else { 0.0 };
            d[j] = q * scale[j] + translate[j];
            b[j] = (m.to_bits().wrapping_sub(u32::from(up)) & 0x1FF) as u8;
            // A NaN limit (an infinite scale) or coordinate fails both
            // tests, as `byte` sends them to its slow path.
            ok[j] = tolerance < fast_below[j] && (d[j] - x[j]).abs() <= tolerance;
        }
        (b, d, ok)
    };
    let mut all = true;
    by_fours(
        points,
        bytes,
        |x, used| {
            let (b, d, ok) = four(x);
            all &= ok[..used].iter().all(|&o| o);
            (b, d)
        },
        each,
    );
    all
}

/// [`FrameGrid::quantize`] of every point of `points` into `bytes` (each
/// coordinate the byte [`quantize_axis`] gives it), four points at a time
/// in vector instructions; `each(x, decoded, used)` sees every four in
/// turn as in [`on_grid_fast`] (lanes past `used` hold 0 and decode to 0).
pub(crate) fn quantize_fast(
    grid: &FrameGrid,
    points: &[[f32; 3]],
    bytes: &mut Vec<[u8; 3]>,
    each: impl FnMut(&[f32; LANES], &[f32; LANES], usize),
) {
    const ROUND: f32 = 8_388_608.0;
    let scale: [f32; LANES] = std::array::from_fn(|j| grid.scale[j % 3]);
    let translate: [f32; LANES] = std::array::from_fn(|j| grid.translate[j % 3]);
    let positive: [bool; LANES] = std::array::from_fn(|j| scale[j] > 0.0);
    // `quantize_axis` gives byte 0 on an axis with a zero or infinite
    // scale (or, as it works out, a translate that is not finite).
    let zero: [bool; LANES] = std::array::from_fn(|j| {
        scale[j] == 0.0 || !scale[j].is_finite() || !translate[j].is_finite()
    });
    let four = |x: &[f32; LANES]| {
        let mut b = [0u8; LANES];
        let mut d = [0.0f32; LANES];
        for j in 0..LANES {
            let (s, t) = (scale[j], translate[j]);
            // (q + 0.5) truncated, as `quantize_axis` rounds: `v + 2^23`
            // holds the whole number nearest to `v` in its low bits, one
            // less where that rounded up.
            let v = ((x[j] - t) / s).clamp(0.0, 255.0) + 0.5;
            let m = v + ROUND;
            let q = (m - ROUND) - if (m - ROUND) > v { 1.0 } else { 0.0 };
            // The neighbour on the side of x, when its decoded value is
            // nearer.
            let here = q * s + t - x[j];
            let toward = if (here > 0.0) == positive[j] {
                q - 1.0
            } else {
                q + 1.0
            };
            let there = toward * s + t - x[j];
            let take = here != 0.0 && (0.0..=255.0).contains(&toward) && there.abs() < here.abs();
            let q = if take { toward } else { q };
            let q = if zero[j] || !x[j].is_finite() { 0.0 } else { q };
            b[j] = ((q + ROUND).to_bits() & 0xFF) as u8;
            d[j] = q * s + t;
        }
        (b, d)
    };
    by_fours(points, bytes, |x, _| four(x), each);
}

/// Runs `four(x, used)` on the coordinates of every four points of
/// `points` (twelve lanes; the last four padded with 0, `used` lanes
/// real), puts the bytes it gives into `bytes` (one per point) and hands
/// `each(x, decoded, used)` every four in turn (padding lanes decode to 0).
#[inline(always)]
fn by_fours(
    points: &[[f32; 3]],
    bytes: &mut Vec<[u8; 3]>,
    mut four: impl FnMut(&[f32; LANES], usize) -> ([u8; LANES], [f32; LANES]),
    mut each: impl FnMut(&[f32; LANES], &[f32; LANES], usize),
) {
    bytes.clear();
    bytes.resize(points.len(), [0; 3]);
    let (whole, rest) = points.as_flattened().as_chunks::<LANES>();
    let (out, out_rest) = bytes.as_flattened_mut().as_chunks_mut::<LANES>();
    for (x, o) in whole.iter().zip(out) {
        let (b, d) = four(x, LANES);
        *o = b;
        each(x, &d, LANES);
    }
    if !rest.is_empty() {
        let used = rest.len();
        let mut x = [0.0f32; LANES];
        x[..used].copy_from_slice(rest);
        let (b, mut d) = four(&x, used);
        d[used..].fill(0.0);
        out_rest.copy_from_slice(&b[..used]);
        each(&x, &d, used);
    }
}

#[inline(always)]
fn decode_i32(b: i32, scale: f32, translate: f32) -> f32 {
    b as f32 * scale + translate
}

/// The value byte `b` decodes to (as engines compute it).
pub(crate) fn decode_axis(b: u8, scale: f32, translate: f32) -> f32 {
    f32::from(b) * scale + translate
}

/// The grid of one axis for the values `values` (see the module
/// documentation), non-finite ones left out; `(scale, translate)`.
fn axis_grid(values: &[f32]) -> (f32, f32) {
    let b = axis_box_grid(values);
    (b.scale, b.lo)
}

/// What [`axis_box_grid`] found on one axis.
struct AxisBox {
    /// The chosen step (0 for a flat axis or no finite value).
    scale: f32,
    /// The smallest finite value (the grid's translation).
    lo: f32,
    /// The largest finite value.
    hi: f32,
    /// The grid's largest error over the finite values (0 for a flat
    /// axis; infinite when none is finite).
    error: f32,
    /// Whether every value is finite.
    all_finite: bool,
}

/// [`axis_grid`], with the range and the largest error it found.
fn axis_box_grid(values: &[f32]) -> AxisBox {
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    let mut finite = 0usize;
    for &v in values {
        if v.is_finite() {
            lo = if v < lo { v } else { lo };
            hi = if v > hi { v } else { hi };
            finite += 1;
        }
    }
    let all_finite = finite == values.len();
    let flat = |lo: f32, error: f32| AxisBox {
        scale: 0.0,
        lo,
        hi,
        error,
        all_finite,
    };
    if finite == 0 {
        return flat(0.0, f32::INFINITY);
    }
    let extent = hi - lo;
    if extent <= 0.0 || !extent.is_finite() {
        return flat(lo, 0.0);
    }
    let kept: Vec<f32>;
    let values = if all_finite {
        values
    } else {
        kept = values.iter().copied().filter(|v| v.is_finite()).collect();
        &kept
    };
    let mut best = (f32::INFINITY, 0.0f32);
    for k in DIVISIONS.rev() {
        let scale = extent / k as f32;
        if scale <= 0.0 || !scale.is_finite() {
            continue;
        }
        let worst = largest_error(values, scale, lo, best.0);
        if worst < best.0 {
            best = (worst, scale);
        }
        if worst == 0.0 {
            break;
        }
    }
    AxisBox {
        scale: best.1,
        lo,
        hi,
        error: best.0,
        all_finite,
    }
}

/// The grid of one axis for one grid over a whole model (MDL): the best
/// of [`axis_grid`]'s candidates (`translate = lo`, `scale = extent / k`,
/// `k` in 240..=255) and the *centred* grid `scale = extent / 256`,
/// `translate = lo + scale / 2`, whose 256 bytes cover
/// `[lo − scale/2, hi + scale/2]`, so that its largest error is at most
/// `extent / 512`, below the bounding-box grid's bound `extent / 510`.
/// The one with the smaller largest error over `values` wins (the
/// bounding-box grid on a tie). `(scale, translate)`.
// Used by the MDL compile, which needs `textures` (it quantises skins).
#[cfg_attr(not(feature = "textures"), allow(dead_code))]
fn axis_grid_centred(values: &[f32]) -> (f32, f32) {
    let b = axis_box_grid(values);
    if b.scale <= 0.0 || !b.scale.is_finite() {
        return (b.scale, b.lo);
    }
    let s = (b.hi - b.lo) / 256.0;
    let t = b.lo + s / 2.0;
    if !(s > 0.0 && s.is_finite() && t.is_finite()) {
        return (b.scale, b.lo);
    }
    let kept: Vec<f32>;
    let values = if b.all_finite {
        values
    } else {
        kept = values.iter().copied().filter(|v| v.is_finite()).collect();
        &kept
    };
    if largest_error(values, s, t, b.error) < b.error {
        (s, t)
    } else {
        (b.scale, b.lo)
    }
}

/// The grid of every point of a whole model (one grid for all frames, as
/// an MDL has): per axis the best of the bounding-box and centred grids
/// ([`axis_grid_centred`]).
// Used by the MDL compile, which needs `textures` (it quantises skins).
#[cfg_attr(not(feature = "textures"), allow(dead_code))]
pub(crate) fn model_grid_of(positions: &[[f32; 3]]) -> FrameGrid {
    let mut scale = [0.0; 3];
    let mut translate = [0.0; 3];
    let mut values = Vec::with_capacity(positions.len());
    for k in 0..3 {
        values.clear();
        values.extend(positions.iter().map(|p| p[k]));
        (scale[k], translate[k]) = axis_grid_centred(&values);
    }
    FrameGrid { scale, translate }
}

/// The largest error of [`quantize_axis`] over `values` (finite) on the
/// grid `(scale, translate)` (`scale` positive and finite), or some error
/// of at least `bound` as soon as one is found.
///
/// Each error is the smaller of the distances to the byte nearest to the
/// value's position on the grid and to that byte's neighbour on the side of
/// the value: exactly the distance to the byte [`quantize_axis`] picks
/// (whichever of two bytes at a tie is taken first, the other is the
/// neighbour). Worked out in `f32` only, without branches, a block of
/// values at a time, so the compiler uses vector instructions (the grid
/// search tries 16 grids per axis and frame).
fn largest_error(values: &[f32], scale: f32, translate: f32, bound: f32) -> f32 {
    const BLOCK: usize = 64;
    // Adding and taking away 2^23 rounds a value in 0..=255 to the nearest
    // whole number (ties to even) in one `f32` addition each.
    const ROUND: f32 = 8_388_608.0;
    // The errors are not negative, so their bit patterns as `i32` order
    // as they do: an integer maximum, which vectorises (a float one
    // cannot, for its NaN rules).
    let mut worst = 0i32;
    for block in values.chunks(BLOCK) {
        let mut block_worst = 0i32;
        for &x in block {
            let q = (((x - translate) / scale).clamp(0.0, 255.0) + ROUND) - ROUND;
            let here = q * scale + translate - x;
            let toward_x = if here > 0.0 { q - 1.0 } else { q + 1.0 };
            let there = if (0.0..=255.0).contains(&toward_x) {
                (toward_x * scale + translate - x).abs()
            } else {
                f32::INFINITY
            };
            let e = if there < here.abs() {
                there
            } else {
                here.abs()
            };
            block_worst = block_worst.max(e.to_bits() as i32);
        }
        worst = worst.max(block_worst);
        if f32::from_bits(worst as u32) >= bound {
            break;
        }
    }
    f32::from_bits(worst as u32)
}

/// The grid of a set of points.
pub(crate) fn grid_of<'a, I>(points: I) -> FrameGrid
where
    I: Iterator<Item = &'a [f32; 3]>,
{
    // Each axis's values side by side, read in one pass.
    let mut axes: [Vec<f32>; 3] = Default::default();
    let (size, _) = points.size_hint();
    for axis in &mut axes {
        axis.reserve(size);
    }
    for p in points {
        for (axis, &v) in axes.iter_mut().zip(p) {
            axis.push(v);
        }
    }
    let mut scale = [0.0; 3];
    let mut translate = [0.0; 3];
    for (k, values) in axes.iter().enumerate() {
        (scale[k], translate[k]) = axis_grid(values);
    }
    FrameGrid { scale, translate }
}

impl FrameGrid {
    /// The bytes of `p` on this grid.
    pub fn quantize(&self, p: [f32; 3]) -> [u8; 3] {
        std::array::from_fn(|k| quantize_axis(p[k], self.scale[k], self.translate[k]))
    }

    /// The position bytes `b` decode to.
    pub fn decode(&self, b: [u8; 3]) -> [f32; 3] {
        std::array::from_fn(|k| decode_axis(b[k], self.scale[k], self.translate[k]))
    }

    /// Whether every scale and translate is a finite number.
    pub fn is_valid(&self) -> bool {
        self.scale.iter().all(|s| s.is_finite()) && self.translate.iter().all(|t| t.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), so the test needs no
    /// crate and fails the same way every time.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    #[test]
    fn random_points_are_within_half_of_qdatas_step_on_every_axis() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..300 {
            let n = 1 + (rng.next() * 500.0) as usize;
            let spread = [1e-3, 1.0, 50.0, 4000.0][round % 4];
            let offset = (rng.next() - 0.5) * 2000.0;
            let points: Vec<[f32; 3]> = (0..n)
                .map(|_| std::array::from_fn(|k| offset + rng.next() * spread * (k + 1) as f32))
                .collect();
            let g = grid_of(points.iter());
            for k in 0..3 {
                let lo = points.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
                let hi = points
                    .iter()
                    .map(|p| p[k])
                    .fold(f32::NEG_INFINITY, f32::max);
                let qdata_step = (hi - lo) / 255.0;
                // Float rounding of the decode: a few ulps of the values.
                let noise = 4.0 * f32::EPSILON * lo.abs().max(hi.abs());
                for p in &points {
                    let d = g.decode(g.quantize(*p));
                    let err = (d[k] - p[k]).abs();
                    assert!(
                        err <= qdata_step / 2.0 + noise,
                        "round {round} axis {k}: error {err} > half step {}",
                        qdata_step / 2.0
                    );
                    assert!(err <= g.scale[k] / 2.0 + noise);
                }
            }
        }
    }

    #[test]
    fn the_vectorised_largest_error_is_quantize_axis_error() {
        // Random values, lattice values and values at half steps (ties),
        // on every candidate grid: the branch-free search gives exactly
        // the largest error of the bytes `quantize_axis` picks.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..200 {
            let n = 1 + (rng.next() * 300.0) as usize;
            let lo = (rng.next() - 0.5) * 100.0;
            let extent = [1e-3, 0.7, 10.0, 3000.0][round % 4];
            let values: Vec<f32> = (0..n)
                .map(|i| match i % 3 {
                    0 => lo + rng.next() * extent,
                    1 => lo + (rng.next() * 250.0).floor() * extent / 250.0,
                    _ => lo + ((rng.next() * 254.0).floor() + 0.5) * extent / 255.0,
                })
                .collect();
            for k in DIVISIONS {
                let scale = extent / k as f32;
                let expected = values
                    .iter()
                    .map(|&x| (decode_axis(quantize_axis(x, scale, lo), scale, lo) - x).abs())
                    .fold(0.0f32, f32::max);
                let got = largest_error(&values, scale, lo, f32::INFINITY);
                assert_eq!(got.to_bits(), expected.to_bits(), "round {round} k {k}");
            }
        }
    }

    #[test]
    fn the_vectorised_grid_check_agrees_with_byte() {
        // Points on a grid, nudged by up to half a step, some not finite,
        // on grids with a zero, negative, tiny or infinite scale: when the
        // fast check takes every point, each byte and decoded value is
        // `OnGrid::byte`'s; when it refuses, some point needs the slow path.
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let (mut taken, mut refused) = (0, 0);
        for round in 0..400 {
            let scale = [0.37, -0.02, 0.0, 1e-30, f32::INFINITY][round % 5];
            let grids = [
                OnGrid::new(scale, 3.0, 0.25),
                OnGrid::new(0.11, -7.0, 0.25),
                OnGrid::new(2.5, 100.0, 0.25),
            ];
            let nudge = [0.0, 0.05, 0.2, 0.5][(round / 5) % 4];
            let n = (rng.next() * 40.0) as usize;
            let points: Vec<[f32; 3]> = (0..n)
                .map(|_| {
                    std::array::from_fn(|k| {
                        let g = &grids[k];
                        let b = (rng.next() * 255.0).floor();
                        let x =
                            b * g.scale + g.translate + (rng.next() - 0.5) * nudge * g.scale.abs();
                        if rng.next() < 0.01 {
                            f32::NAN
                        } else {
                            x
                        }
                    })
                })
                .collect();
            let (mut bytes, mut decoded) = (Vec::new(), Vec::new());
            let fast = on_grid_fast(&grids, &points, &mut bytes, |_, d, used| {
                decoded.extend(d[..used].chunks_exact(3).map(|d| [d[0], d[1], d[2]]));
            });
            if fast {
                taken += 1;
                assert_eq!(bytes.len(), n);
                for ((p, b), d) in points.iter().zip(&bytes).zip(&decoded) {
                    for k in 0..3 {
                        let (want_b, want_d) = grids[k].byte(p[k]).expect("on the grid");
                        assert_eq!((b[k], d[k].to_bits()), (want_b, want_d.to_bits()));
                    }
                }
            } else {
                refused += 1;
                assert!(points.iter().any(|p| (0..3).any(|k| {
                    let tolerance = grids[k].slack + 1e-5 * (1.0 + p[k].abs());
                    !(grids[k].finite && p[k].is_finite() && tolerance < grids[k].fast_below)
                        || grids[k].byte(p[k]).is_none()
                })));
            }
        }
        assert!(taken > 50 && refused > 50, "{taken} {refused}");
    }

    #[test]
    fn the_vectorised_quantize_is_quantize_axis() {
        // Random points, lattice points, half steps (ties) and points off
        // the ends, on grids with positive, negative, zero, tiny and
        // infinite scales and odd translates, some coordinates not finite.
        let mut rng = Rng(0x0bad_5eed_dead_beef);
        for round in 0..600 {
            let axes: [(f32, f32); 3] = std::array::from_fn(|k| {
                let scale = [0.37, -0.02, 0.0, 1e-30, f32::INFINITY, 3.5e-3, -7.0][(round + k) % 7];
                let translate = [3.0, -7.0, 100.0, f32::NAN, 1e20, -0.0][(round / 7 + k) % 6];
                (scale, translate)
            });
            let grid = FrameGrid {
                scale: axes.map(|a| a.0),
                translate: axes.map(|a| a.1),
            };
            let n = (rng.next() * 30.0) as usize;
            let points: Vec<[f32; 3]> = (0..n)
                .map(|_| {
                    std::array::from_fn(|k| {
                        let (s, t) = axes[k];
                        let b = (rng.next() * 300.0).floor() - 20.0;
                        let x = match (rng.next() * 4.0) as u32 {
                            0 => b * s + t,
                            1 => (b + 0.5) * s + t,
                            2 => (b + rng.next()) * s + t,
                            _ => (rng.next() - 0.5) * 1e3,
                        };
                        match (rng.next() * 100.0) as u32 {
                            0 => f32::NAN,
                            1 => f32::INFINITY,
                            _ => x,
                        }
                    })
                })
                .collect();
            let (mut bytes, mut decoded) = (Vec::new(), Vec::new());
            quantize_fast(&grid, &points, &mut bytes, |_, d, used| {
                decoded.extend(d[..used].chunks_exact(3).map(|d| [d[0], d[1], d[2]]));
            });
            assert_eq!(bytes.len(), n);
            for ((p, b), d) in points.iter().zip(&bytes).zip(&decoded) {
                let want = grid.quantize(*p);
                assert_eq!(*b, want, "round {round}: {p:?} on {grid:?}");
                let want_d = grid.decode(want);
                for k in 0..3 {
                    assert_eq!(d[k].to_bits(), want_d[k].to_bits(), "round {round}: {p:?}");
                }
            }
        }
    }

    #[test]
    fn lattices_become_exact_and_flat_axes_have_scale_zero() {
        // Whole units from 0 to 10 with 1: qdata's 10/255 grid misses 1 by
        // half a step; 10/250 hits every point.
        let points = [
            [0.0, 5.0, 0.0],
            [1.0, 5.0, 2.0],
            [2.0, 5.0, 10.0],
            [10.0, 5.0, 7.0],
        ];
        let g = grid_of(points.iter());
        assert_eq!(g.scale[1], 0.0);
        assert_eq!(g.translate[1], 5.0);
        for p in &points {
            let d = g.decode(g.quantize(*p));
            for k in 0..3 {
                // Exact up to f32 rounding; qdata's grid misses by 0.0196.
                assert!((d[k] - p[k]).abs() < 1e-5, "{d:?} vs {p:?}");
            }
        }
        assert!(g.scale[0] > 10.0 / 255.0);
    }

    #[test]
    fn the_centred_model_grid_is_never_worse_and_beats_the_box_on_dense_points() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let points: Vec<[f32; 3]> = (0..5000)
            .map(|_| [rng.next() * 100.0, rng.next() * 3.0 - 50.0, rng.next()])
            .collect();
        let boxed = grid_of(points.iter());
        let centred = model_grid_of(&points);
        for k in 0..3 {
            let values: Vec<f32> = points.iter().map(|p| p[k]).collect();
            let e_box = largest_error(&values, boxed.scale[k], boxed.translate[k], f32::INFINITY);
            let e_c = largest_error(
                &values,
                centred.scale[k],
                centred.translate[k],
                f32::INFINITY,
            );
            assert!(e_c <= e_box, "axis {k}: {e_c} > {e_box}");
            // Dense random values: the centred grid's bound, extent / 512.
            let (lo, hi) = values
                .iter()
                .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
            assert!(e_c <= (hi - lo) / 512.0 * 1.001, "axis {k}: {e_c}");
            assert!(
                e_box > (hi - lo) / 512.0 * 1.001,
                "axis {k}: the box was as good"
            );
        }
    }
}
