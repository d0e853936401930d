//! `retromodel`: inspect, validate, convert and render Quake MDL, Quake II
//! MD2 and MD5, Quake III MD3 and MilkShape 3D MS3D models.
//!
//! The command line lives in the `retromodel_cli` library (the Python
//! package runs the same one); the binary adds its allocator.

use std::process::ExitCode;

/// mimalloc keeps and reuses the memory a conversion frees (the file
/// read, the glTF JSON) for what it allocates next, where the system
/// allocator hands it back and faults fresh pages in: a third fewer page
/// faults and about a tenth less time for `faerie.glb → faerie.md2`
/// (docs/benchmarks-history.md, "Authoring MD2").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    retromodel_cli::set_panic_hook();
    ExitCode::from(retromodel_cli::run_from(std::env::args_os()))
}
