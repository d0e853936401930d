//! `validate` of an IQM with its levels of detail: the `NAME_lod1.iqm`
//! and `NAME_lod2.iqm` Xonotic draws in its place on DarkPlaces
//! (`retromodel::iqm::lod_file_names`), found in the model's folder
//! without case (as in a pk3), each read as the model is (with a
//! `.framegroups` beside it), validated, and checked against the model it
//! stands in for (`Iqm::check_lod`).

use std::path::{Path, PathBuf};

use retromodel::iqm::{lod_file_names, Iqm};
use retromodel::{Engine, Model, Problem, Severity};

use crate::md3_files::find;

/// The problems of the LOD files beside `path` (the base model `base`),
/// their paths starting `lod1.` and `lod2.`; none when there are none or
/// `path` is itself a LOD (`NAME_lod1.iqm`). `engine`: validate each for
/// it.
pub fn lod_problems(path: &Path, base: &Iqm, engine: Option<Engine>) -> Vec<Problem> {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let [_, lod1, lod2] = lod_file_names(&file);
    // A LOD's own name: what comes before its (four-character) extension
    // ends `_lod1` or `_lod2`.
    let cut = file
        .char_indices()
        .rev()
        .nth(3)
        .map_or(file.len(), |(i, _)| i);
    let stem = file[..cut].to_ascii_lowercase();
    if stem.ends_with("_lod1") || stem.ends_with("_lod2") {
        return Vec::new();
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out = Vec::new();
    for (level, name) in [(1, lod1), (2, lod2)] {
        let Some(lod_path) = find(&folder, &name) else {
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
        match crate::load::parse(&lod_path, &bytes) {
            Ok(Model::Iqm(lod)) => {
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
            Ok(other) => out.push(problem(
                &prefix,
                format!("{name}: not an IQM but {:?}", other.format()),
            )),
            Err(e) => out.push(problem(
                &prefix,
                format!("{name}: not an IQM the engine can load: {e}"),
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
