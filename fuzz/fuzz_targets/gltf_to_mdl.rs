//! Fuzz target: any bytes imported as glTF (small limits,
//! `import_checks::fuzz_options`) or read as MS3D, MD2 or MDL, and the
//! scene compiled by `mdl::compile` (a grey-ramp palette; frame rate,
//! a frame group, effect flags and limits chosen from the bytes): an
//! error or an MDL that writes, reads back as written, validates without
//! a problem (and for GLQuake without an error when compiled to id's
//! limits), lies within half a grid step of what was baked, holds one
//! frame-list entry per pose the rerelease's MD5 would play and no
//! fullbright index in a skin of no emissive material.
//!
//! The checks live in `retromodel_testkit::mdl_compile_checks`
//! (`crates/retromodel-testkit/src/mdl_compile_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`. Seeds: those of
//! `gltf_import`, `md2_parse`, `ms3d_parse` and `mdl_parse`
//! (`fuzz/seed.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::mdl_compile_checks;

fuzz_target!(|data: &[u8]| {
    let _ = mdl_compile_checks::exercise_compile(data);
});
