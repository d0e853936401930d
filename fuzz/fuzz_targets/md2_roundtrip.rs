//! Fuzz target: parse → write → parse. `Layout::Original` must reproduce the
//! input byte for byte; `Layout::Standard` must give a file that parses into
//! an equal model (apart from `source`) and writes back to itself.
//!
//! The checks live in `retromodel_testkit::md2_checks`
//! (`crates/retromodel-testkit/src/md2_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md2_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md2_checks::check_roundtrip(data);
});
