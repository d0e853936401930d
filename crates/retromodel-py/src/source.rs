//! Where a model comes from: a file (whose folder holds the textures and
//! buffers it names) or bytes in memory.

use std::path::PathBuf;

use pyo3::prelude::*;

use crate::errors::io_to_py;

/// A path (`str` or `os.PathLike`) or the bytes of a file.
#[derive(FromPyObject)]
pub enum Source {
    /// `bytes`, `bytearray` or anything else that extracts as bytes.
    Bytes(Vec<u8>),
    /// A file to read.
    Path(PathBuf),
}

/// A model file's bytes, its name and, when it was read from disk, its
/// path (to find the files it names).
pub struct Loaded {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// The file name (`tris.md2`), or `name` given with bytes.
    pub file_name: String,
    /// The file's path, when read from one.
    pub path: Option<PathBuf>,
    /// An MD3's files found beside it by `load` (a player's parts, its
    /// `animation.cfg` and `.skin` files).
    pub md3: Option<retromodel::md3::Md3Companions>,
    /// What `md3` holds, for `info()`.
    pub md3_facts: Option<serde_json::Value>,
}

impl Source {
    /// Reads the file (without the GIL) or takes the bytes; `name` names
    /// bytes (their format is told by content, the name only names the
    /// scene).
    pub fn load(self, py: Python<'_>, name: Option<String>) -> PyResult<Loaded> {
        match self {
            Source::Bytes(bytes) => Ok(Loaded {
                bytes,
                file_name: name.unwrap_or_else(|| "model".to_string()),
                path: None,
                md3: None,
                md3_facts: None,
            }),
            Source::Path(path) => {
                let bytes = py
                    .detach(|| std::fs::read(&path))
                    .map_err(|e| io_to_py(&e, &path))?;
                let file_name = name.unwrap_or_else(|| {
                    path.file_name()
                        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
                });
                Ok(Loaded {
                    bytes,
                    file_name,
                    path: Some(path),
                    md3: None,
                    md3_facts: None,
                })
            }
        }
    }
}
