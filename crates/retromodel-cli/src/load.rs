//! Reading a model file of any supported format.

use anyhow::{bail, Context, Result};
use retromodel::md2::Md2;
use retromodel::ms3d::Ms3d;
use std::path::Path;

/// A model read from a file.
pub enum Model {
    /// A Quake II MD2 model.
    Md2(Md2),
    /// A MilkShape 3D model.
    Ms3d(Ms3d),
}

/// The format a file's first bytes announce.
pub fn sniff(bytes: &[u8]) -> Option<retromodel::Format> {
    if bytes.starts_with(&retromodel::md2::MAGIC) {
        Some(retromodel::Format::Md2)
    } else if bytes.starts_with(&retromodel::ms3d::MAGIC) {
        Some(retromodel::Format::Ms3d)
    } else {
        None
    }
}

/// Reads the whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))
}

/// Parses `bytes` as whichever format they announce.
pub fn parse(bytes: &[u8]) -> Result<Model> {
    match sniff(bytes) {
        Some(retromodel::Format::Md2) => Ok(Model::Md2(Md2::from_bytes(bytes)?)),
        Some(retromodel::Format::Ms3d) => Ok(Model::Ms3d(Ms3d::from_bytes(bytes)?)),
        _ => bail!(
            "unknown format: starts with {:?}, expected \"IDP2\" (MD2) or \"MS3D000000\" (MS3D)",
            String::from_utf8_lossy(&bytes[..bytes.len().min(10)])
        ),
    }
}

/// Reads and parses the model at `path`; errors name the file.
pub fn load(path: &Path) -> Result<(Vec<u8>, Model)> {
    let bytes = read_file(path)?;
    let model = parse(&bytes).with_context(|| path.display().to_string())?;
    Ok((bytes, model))
}
