//! Reading a model file of any supported format.

use anyhow::{Context, Result};
use retromodel::texture::TextureResolver;
use retromodel::{Model, ReadContext};
use std::path::Path;

/// Reads the whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))
}

/// The file name of `path`, as text.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Parses `bytes`, the model file at `path`; the files it names (a glTF's
/// buffers, an OBJ's materials) are read from its folder only.
pub fn parse(path: &Path, bytes: &[u8]) -> retromodel::Result<Model> {
    let resolver = TextureResolver::for_model_file(path);
    let name = file_name(path);
    Model::read_with(
        bytes,
        &ReadContext {
            file_name: &name,
            resources: Some(&resolver),
        },
    )
}

/// Reads and parses the model at `path`; errors name the file.
pub fn load(path: &Path) -> Result<(Vec<u8>, Model)> {
    let bytes = read_file(path)?;
    let model = parse(path, &bytes).with_context(|| path.display().to_string())?;
    Ok((bytes, model))
}
