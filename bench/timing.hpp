// What the Assimp harnesses share: timing an operation as the Rust
// harnesses do (bench/src/lib.rs, `time_per_op`), so the ratios compare
// like with like.
#pragma once
#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

// Median and fastest microseconds per call of `op`: warmed up, then run
// `iterations` times in batches of kBatch, each batch timed (the median
// resists other processes taking the CPU, which the mean does not).
static const long kBatch = 10;
template <class Op>
static std::pair<double, double> time_per_op(long iterations, Op op) {
    using clock = std::chrono::steady_clock;
    for (long i = 0; i < std::max(iterations / 10, 20L); ++i) op();
    std::vector<double> samples;
    for (long b = 0; b < std::max(iterations / kBatch, 1L); ++b) {
        auto t0 = clock::now();
        for (long i = 0; i < kBatch; ++i) op();
        auto t1 = clock::now();
        samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kBatch);
    }
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples[0]};
}
