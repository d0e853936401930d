//! Fuzz target: any bytes through the glTF importer (as a GLB or a
//! `.gltf`, without a resource source), with small limits
//! (`import_checks::fuzz_options`); an import that succeeds must give a
//! scene that poses, exports and imports again.
//!
//! The checks live in `retromodel_testkit::import_checks`
//! (`crates/retromodel-testkit/src/import_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`. Seeds: `fuzz/seed.sh` (our own
//! exports of the sample models, plain, quantized and compressed, and the
//! corpus's and assimp-testmodels' glTF files). A dictionary of glTF's
//! keys helps the mutator: `cargo fuzz run -s none gltf_import --
//! -dict=dictionaries/gltf_import.dict` (from `fuzz/`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::import_checks;

fuzz_target!(|data: &[u8]| {
    let _ = import_checks::exercise_import(data);
});
