//! Fuzz target: `Mdl::from_bytes` on arbitrary bytes and, when it parses,
//! everything a tool does with the model (validate, info, repair, write).
//!
//! The checks live in `retromodel_testkit::mdl_checks`
//! (`crates/retromodel-testkit/src/mdl_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`, which replays saved inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::mdl_checks;

fuzz_target!(|data: &[u8]| {
    let _ = mdl_checks::exercise_parse(data);
});
