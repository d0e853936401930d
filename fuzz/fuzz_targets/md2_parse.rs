//! Fuzz target: `Md2::from_bytes` on arbitrary bytes and, when it parses,
//! everything a renderer or tool does with the model (validate, animations,
//! GL commands, render mesh, frame decoding and blending).
//!
//! The checks live in `retromodel_testkit::md2_checks`
//! (`crates/retromodel-testkit/src/md2_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md2_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md2_checks::exercise_parse(data);
});
