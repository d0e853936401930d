//! Fuzz target: any bytes imported as glTF (small limits), read as MS3D
//! or read as an md5mesh, and the scene compiled into the Quake II
//! rerelease's MD5 on the frames the MD2 compile would make (options
//! chosen from the bytes): an error or files that read back, write the
//! same bytes again, hold one anim frame per MD2 frame and pass
//! `retromodel validate` (the library's `Model::validate`) without a
//! warning, but for the weights short of the whole the compile reports.
//!
//! The checks live in `retromodel_testkit::md5_compile_checks`, shared
//! with `crates/retromodel/tests/regression.rs`. Seeds: those of
//! `gltf_to_md2` and `md5_parse` (`fuzz/seed.sh`):
//! `cargo fuzz run -s none gltf_to_md5 -- -dict=dictionaries/gltf_import.dict`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::md5_compile_checks;

fuzz_target!(|data: &[u8]| {
    let _ = md5_compile_checks::exercise_compile(data);
});
