//! Fuzz target: parse → write → parse. Whenever the input parses,
//! `to_bytes()` must reproduce it byte for byte (the lossless guarantee) and
//! parse again into the same model; without its trailing bytes, and without
//! its extras, the model must write the matching prefix of the input.
//!
//! The checks live in `retromodel_testkit::ms3d_checks`
//! (`crates/retromodel-testkit/src/ms3d_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::ms3d_checks;

fuzz_target!(|data: &[u8]| {
    let _ = ms3d_checks::check_roundtrip(data);
});
