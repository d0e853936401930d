//! Fuzz target: any bytes imported as glTF (small limits,
//! `import_checks::fuzz_options`) or read as MS3D or IQM, and the scene
//! compiled by `iqm::compile` (frame rate and mesh limit chosen from the
//! bytes): an error or an IQM that writes, reads back as written,
//! validates without an error and holds the frames its report counts.
//!
//! The checks live in `retromodel_testkit::iqm_compile_checks`
//! (`crates/retromodel-testkit/src/iqm_compile_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`. Seeds: those of `gltf_import`,
//! `ms3d_parse` and `iqm_parse` (`fuzz/seed.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::iqm_compile_checks;

fuzz_target!(|data: &[u8]| {
    let _ = iqm_compile_checks::exercise_compile(data);
});
