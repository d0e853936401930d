//! Fuzz target: parse → write → parse. `Layout::Original` must reproduce the
//! input byte for byte; `Layout::Standard` must give a file that parses into
//! an equal model (apart from `source`) and writes back to itself.
//!
//! The checks live in `crates/retromodel/tests/support/md2_checks.rs`, shared
//! with `tests/regression.rs`, which replays saved crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/retromodel/tests/support/md2_checks.rs"]
mod md2_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md2_checks::check_roundtrip(data);
});
