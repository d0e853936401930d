//! Fuzz target: parse → write → parse. Both layouts must reproduce the
//! input byte for byte (an MDL has no offsets to lay out differently).
//!
//! The checks live in `retromodel_testkit::mdl_checks`
//! (`crates/retromodel-testkit/src/mdl_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::mdl_checks;

fuzz_target!(|data: &[u8]| {
    let _ = mdl_checks::check_roundtrip(data);
});
