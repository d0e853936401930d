//! Fuzz target: `Iqm::from_bytes` on arbitrary bytes and, when it parses,
//! everything a tool does with the model (validate for every engine,
//! info, every frame posed, adjacency, bounds, the lift to a scene).
//!
//! The checks live in `retromodel_testkit::iqm_checks`
//! (`crates/retromodel-testkit/src/iqm_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::iqm_checks;

fuzz_target!(|data: &[u8]| {
    let _ = iqm_checks::exercise_parse(data);
});
