//! Fuzz target: any bytes imported as glTF (small limits,
//! `import_checks::fuzz_options`) or read as MS3D, MD2 or MD3, and the
//! scene compiled by `md3::compile` (frame rate, engine and scale chosen
//! from the bytes): an error or an MD3 that writes, reads back as
//! written, validates without an error (for the engine it was compiled
//! to as well), and lies within half of 1/64 unit of what was baked.
//!
//! The checks live in `retromodel_testkit::md3_compile_checks`
//! (`crates/retromodel-testkit/src/md3_compile_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`. Seeds: those of
//! `gltf_import`, `md2_parse`, `ms3d_parse` and `md3_parse`
//! (`fuzz/seed.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md3_compile_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md3_compile_checks::exercise_compile(data);
});
