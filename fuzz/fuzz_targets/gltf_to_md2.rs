//! Fuzz target: any bytes imported as glTF (small limits,
//! `import_checks::fuzz_options`), read as MS3D or read as MD2, and the
//! scene compiled by `md2::compile` (grid, player table, frame rate and
//! engine chosen from the bytes; an MD2 also onto its own record): an
//! error or a model whose written bytes validate for the engine (as
//! `retromodel validate --engine` does, a warning only where the compile
//! says so), reads back as written, is within half a grid step of the source and names its frames
//! so that they group back into the reported animations.
//!
//! The checks live in `retromodel_testkit::md2_compile_checks`
//! (`crates/retromodel-testkit/src/md2_compile_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`. Seeds: those of `gltf_import`,
//! `md2_parse` and `ms3d_parse` (`fuzz/seed.sh`); the glTF dictionary helps:
//! `cargo fuzz run -s none gltf_to_md2 -- -dict=dictionaries/gltf_import.dict`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md2_compile_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md2_compile_checks::exercise_compile(data);
});
