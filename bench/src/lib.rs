//! What the benchmark harnesses share: timing an operation the way
//! `assimp_harness.cpp` and `assimp_md5_harness.cpp` (through
//! `timing.hpp`) time theirs, so the ratios compare like with like.

use std::time::Instant;

/// Operations per timed batch.
pub const BATCH: u32 = 10;

/// Median and fastest microseconds per call of `op`: warmed up, then run
/// `iterations` times in batches of [`BATCH`], each batch timed (the
/// median resists other processes taking the CPU, which the mean does
/// not).
///
/// ```
/// let (median, fastest) = retromodel_bench::time_per_op(20, || {
///     std::hint::black_box(1 + 1);
/// });
/// assert!(fastest <= median);
/// ```
pub fn time_per_op(iterations: u32, mut op: impl FnMut()) -> (f64, f64) {
    for _ in 0..(iterations / 10).max(20) {
        op();
    }
    let mut samples: Vec<f64> = (0..(iterations / BATCH).max(1))
        .map(|_| {
            let start = Instant::now();
            for _ in 0..BATCH {
                op();
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(BATCH)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], samples[0])
}
