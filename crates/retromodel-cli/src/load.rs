//! Reading a model file of any supported format.

use anyhow::{Context, Result};
use retromodel::Model;
use std::path::Path;

/// Reads the whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))
}

/// Reads and parses the model at `path`; errors name the file.
pub fn load(path: &Path) -> Result<(Vec<u8>, Model)> {
    let bytes = read_file(path)?;
    let model = Model::from_bytes(&bytes).with_context(|| path.display().to_string())?;
    Ok((bytes, model))
}
