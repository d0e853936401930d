//! Fuzz target: `Md3::from_bytes` on arbitrary bytes and, when it parses,
//! everything a tool does with the model (validate for every engine, info).
//!
//! The checks live in `retromodel_testkit::md3_checks`
//! (`crates/retromodel-testkit/src/md3_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md3_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md3_checks::exercise_parse(data);
});
