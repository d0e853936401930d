//! Fuzz target: `Ms3d::from_bytes` on arbitrary bytes and, when it parses,
//! everything a renderer or tool does with the model (validate and strict
//! parsing, the skeleton posed at frames around its keys including negative,
//! NaN and infinite ones, skinning matrices, CPU skinning of positions and
//! normals, group meshes, the model comment, the timeline).
//!
//! The checks live in `retromodel_testkit::ms3d_checks`
//! (`crates/retromodel-testkit/src/ms3d_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::ms3d_checks;

fuzz_target!(|data: &[u8]| {
    let _ = ms3d_checks::exercise_parse(data);
});
