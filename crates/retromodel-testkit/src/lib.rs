//! Test support for retromodel (not published): what the library's and the
//! CLI's integration tests and the fuzz targets share.
//!
//! - [`corpus`]: where the test corpus is, its MD2 and MS3D files and its
//!   `facts.json` oracle.
//! - [`md2_builder`] and [`ms3d_builder`]: hand-made files, byte by byte,
//!   from the format notes rather than the library's writers;
//!   [`md2_unused`]: one MD2 with what a glTF round trip must carry
//!   beyond what a scene shows (unused vertices, stale name bytes).
//! - `glb` (feature `glb`): an independent reader of GLB files, to check
//!   exports without the library's glTF code.
//! - [`md2_checks`], [`ms3d_checks`], [`ms3d_ascii_checks`] and
//!   `export_checks` (feature `export`): the property checks the fuzz
//!   targets run, replayed by `crates/retromodel/tests/regression.rs`.
//! - `md2_compile_checks` (feature `export`): the MD2 compiler's checks
//!   on any scene the glTF importer, the MS3D reader or the MD2 reader
//!   makes (the `gltf_to_md2` fuzz target); `md5_compile_checks` the
//!   same for the MD5 compiler (`gltf_to_md5`); `mdl_compile_checks`
//!   (features `export` and `textures`) for the MDL compiler (`gltf_to_mdl`).
//! - `import_checks` (feature `export`): the glTF importer's round trip of
//!   our own exports, compared field by field and posed; the checks of the
//!   `gltf_import` fuzz target.
//! - [`gltf_builder`]: hand-made glTF documents (JSON and a binary buffer,
//!   as GLB, `.gltf` with `data:` URIs or external files), written from
//!   the glTF 2.0 specification, not with the library's exporter.
//! - [`iqm_bytes`]: hand-made IQM files, byte by byte, from lsalzman/iqm's
//!   `iqm.txt`, not with the library's writer.
//! - [`cli`]: running the CLI binary.
//! - [`milkshape`]: an MS3D evaluator from the format notes: reads the
//!   bytes itself and poses and skins as MilkShape's viewer does, sharing
//!   no code with the library's `ms3d` module.
//!
//! The library is used with its default features off; this crate's
//! features turn on what a module needs (`export`: the library's `gltf`;
//! `meshopt`: its `meshopt` too), and the library's own features turn on
//! the matching ones here for its tests. So the tests of
//! `cargo test -p retromodel --no-default-features` see the library
//! without features.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod corpus;
#[cfg(feature = "export")]
pub mod export_checks;
#[cfg(feature = "glb")]
pub mod glb;
pub mod gltf_builder;
pub mod gltf_skin_cases;
#[cfg(feature = "export")]
pub mod import_checks;
pub mod iqm_bytes;
pub mod iqm_checks;
#[cfg(feature = "export")]
pub mod iqm_compile_checks;
pub mod md2_builder;
pub mod md2_checks;
#[cfg(feature = "export")]
pub mod md2_compile_checks;
pub mod md2_unused;
pub mod md3_bytes;
pub mod md3_checks;
#[cfg(feature = "export")]
pub mod md3_compile_checks;
pub mod md3_facts;
pub mod md3_player_checks;
pub mod md5_builder;
#[cfg(feature = "export")]
pub mod md5_compile_checks;
pub mod md5_sized;
pub mod mdl_bytes;
pub mod mdl_checks;
#[cfg(all(feature = "export", feature = "textures"))]
pub mod mdl_compile_checks;
pub mod milkshape;
pub mod ms3d_ascii_checks;
pub mod ms3d_builder;
pub mod ms3d_checks;
#[cfg(feature = "export")]
pub mod ms3d_compile_checks;
pub mod ms3d_fields;
pub mod node;
pub mod openarena;
pub mod rig_gltf;
