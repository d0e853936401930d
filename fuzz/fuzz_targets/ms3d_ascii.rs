//! Fuzz target: MilkShape 3D ASCII text. `AsciiModel::parse` on arbitrary
//! bytes and, when it parses, validate, to_bytes and re-parse (the same
//! model back), to_ms3d (which must succeed when validate finds no error)
//! through the binary writer and reader, from_ms3d and re-parse, and
//! combine. The same bytes as a binary MS3D go through from_ms3d → to_bytes
//! → parse.
//!
//! The checks live in `retromodel_testkit::ms3d_ascii_checks`
//! (`crates/retromodel-testkit/src/ms3d_ascii_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::ms3d_ascii_checks;

fuzz_target!(|data: &[u8]| {
    let _ = ms3d_ascii_checks::exercise_ascii(data);
    let _ = ms3d_ascii_checks::exercise_binary(data);
});
