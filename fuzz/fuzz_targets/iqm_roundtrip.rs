//! Fuzz target: parse → write → parse. The original layout must
//! reproduce the input byte for byte, the standard one the same model.
//!
//! The checks live in `retromodel_testkit::iqm_checks`
//! (`crates/retromodel-testkit/src/iqm_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::iqm_checks;

fuzz_target!(|data: &[u8]| {
    let _ = iqm_checks::check_roundtrip(data);
});
