//! Writes the library's built-in sample model (`sample::sample_model()`) as
//! an MD2 file into each directory given, as a fuzzing seed:
//!
//! ```text
//! cargo run --manifest-path fuzz/Cargo.toml --example write_sample -- fuzz/corpus/md2_parse
//! ```

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bytes = retromodel::md2::sample::sample_model().to_bytes()?;
    for dir in std::env::args_os().skip(1).map(PathBuf::from) {
        std::fs::create_dir_all(&dir)?;
        let path = dir.join("sample.md2");
        std::fs::write(&path, &bytes)?;
        println!("{}: {} bytes", path.display(), bytes.len());
    }
    Ok(())
}
