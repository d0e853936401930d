//! Fuzz target: `Iqe::parse` on arbitrary bytes and, when it parses, the
//! compile to IQM as lsalzman/iqm's compiler does it, the IQM written
//! and read back, and its IQE text written and parsed again.
//!
//! The checks live in `retromodel_testkit::iqm_checks::exercise_iqe`
//! (`crates/retromodel-testkit/src/iqm_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::iqm_checks;

fuzz_target!(|data: &[u8]| {
    let _ = iqm_checks::exercise_iqe(data);
});
