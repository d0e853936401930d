//! Writes the project's own sample model and its skin:
//! `examples/models/sample.md2` and `examples/models/sample.pcx`.
//!
//! ```text
//! cargo run -p retromodel --example make_sample [OUT_DIR]
//! ```
//!
//! The files are checked in; `tests/sample.rs` asserts they equal what
//! this writes, byte for byte.

use retromodel::md2::sample::{sample_model, sample_skin_pcx};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/models"));
    std::fs::create_dir_all(&dir)?;
    let md2 = sample_model().to_bytes()?;
    std::fs::write(dir.join("sample.md2"), &md2)?;
    std::fs::write(dir.join("sample.pcx"), sample_skin_pcx())?;
    println!(
        "wrote {} ({} bytes) and sample.pcx",
        dir.join("sample.md2").display(),
        md2.len()
    );
    Ok(())
}
