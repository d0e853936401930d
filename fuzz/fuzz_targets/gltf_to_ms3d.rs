//! Fuzz target: any bytes imported as glTF (small limits,
//! `import_checks::fuzz_options`) or read as MS3D, and the scene compiled
//! by `ms3d::compile`: an error or a model within MilkShape's limits that
//! reads back as written and whose bytes pass `retromodel validate` (the
//! library's `Model::validate`) without a warning (but for a frame rate
//! below 1 an MS3D recorded, kept).
//!
//! The checks live in `retromodel_testkit::ms3d_compile_checks`
//! (`crates/retromodel-testkit/src/ms3d_compile_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`. Seeds: those of `gltf_import`
//! and `ms3d_parse` (`fuzz/seed.sh`); the glTF dictionary helps:
//! `cargo fuzz run -s none gltf_to_ms3d -- -dict=dictionaries/gltf_import.dict`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::ms3d_compile_checks;

fuzz_target!(|data: &[u8]| {
    let _ = ms3d_compile_checks::exercise_gltf_to_ms3d(data);
});
