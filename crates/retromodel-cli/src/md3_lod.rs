//! `validate` of an MD3 with its levels of detail: the `NAME_1.md3` and
//! `NAME_2.md3` ioquake3's `R_RegisterMD3` loads beside `NAME.md3`
//! (`retromodel::md3::lod_file_names`), found in the model's folder
//! without case (as in a pk3), each validated and checked against the
//! model it stands in for (`Md3::check_lod`).

use std::path::{Path, PathBuf};

use retromodel::md3::{lod_file_names, Md3};
use retromodel::{Engine, Problem, Severity};

use crate::md3_files::find;

/// The problems of the LOD files beside `path` (the base model `base`),
/// their paths starting `lod1.` and `lod2.`; none when there are none or
/// `path` is itself a LOD (`head_1.md3`). `engine`: validate each for it.
pub fn lod_problems(path: &Path, base: &Md3, engine: Option<Engine>) -> Vec<Problem> {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file.split('.').next().unwrap_or("");
    if stem.ends_with("_1") || stem.ends_with("_2") {
        return Vec::new();
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out = Vec::new();
    for (level, name) in lod_file_names(&file).iter().enumerate().skip(1) {
        let Some(lod_path) = find(&folder, name) else {
            continue;
        };
        let prefix = format!("lod{level}");
        let bytes = match std::fs::read(&lod_path) {
            Ok(b) => b,
            Err(e) => {
                out.push(problem(&prefix, format!("{name}: cannot read: {e}")));
                continue;
            }
        };
        match Md3::from_bytes(&bytes) {
            Ok(lod) => {
                let own = match engine {
                    Some(e) => lod.validate_for(e),
                    None => lod.validate(),
                };
                out.extend(own.into_iter().map(|mut p| {
                    p.path = format!("{prefix} ({name}).{}", p.path);
                    p
                }));
                out.extend(base.check_lod(&lod, level).into_iter().map(|mut p| {
                    p.message = format!("{name}: {}", p.message);
                    p
                }));
            }
            Err(e) => out.push(problem(
                &prefix,
                format!("{name}: not an MD3 the engine can load: {e}"),
            )),
        }
    }
    out
}

fn problem(path: &str, message: String) -> Problem {
    Problem {
        severity: Severity::Error,
        path: path.to_string(),
        message,
        offset: None,
    }
}
