//! Fuzz target: whatever parses as MD2 or MS3D goes through the scene and
//! every exporter (GLB plain and quantized, `.gltf`, OBJ), and the GLB's
//! structure is checked (views inside the buffer, accessors inside their
//! views, indices in range).
//!
//! The checks live in `retromodel_testkit::export_checks`
//! (`crates/retromodel-testkit/src/export_checks.rs`), shared with
//! `crates/retromodel/tests/regression.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel_testkit::export_checks;

fuzz_target!(|data: &[u8]| {
    let _ = export_checks::exercise_export(data);
});
