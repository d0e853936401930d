//! Fuzz target: parse → write → parse. The original layout must
//! reproduce the input byte for byte, the packed one the same model.
//!
//! The checks live in `retromodel_testkit::md3_checks`
//! (`crates/retromodel-testkit/src/md3_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md3_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md3_checks::check_roundtrip(data);
});
