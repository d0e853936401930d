//! Fuzz target: `Ms3d::from_bytes` on arbitrary bytes and, when it parses,
//! everything a renderer or tool does with the model (validate and strict
//! parsing, the skeleton posed at frames around its keys including negative,
//! NaN and infinite ones, skinning matrices, CPU skinning of positions and
//! normals, group meshes, the model comment, the timeline).
//!
//! The checks live in `crates/retromodel/tests/support/ms3d_checks.rs`,
//! shared with `tests/regression.rs`, which replays saved crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/retromodel/tests/support/ms3d_checks.rs"]
mod ms3d_checks;

fuzz_target!(|data: &[u8]| {
    let _ = ms3d_checks::exercise_parse(data);
});
