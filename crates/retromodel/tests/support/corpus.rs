//! Where the test corpus is, for every integration test binary.

use std::path::{Path, PathBuf};

/// The corpus folder: `$RETROMODEL_CORPUS`, or `../shared/corpus` relative
/// to the repository root.
///
/// When the folder is missing the test is skipped with a note, except in CI
/// (environment variable `CI` set), where a missing corpus is a failure.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("RETROMODEL_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.join("facts.json").is_file() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "the test corpus is missing at {} (set RETROMODEL_CORPUS); CI must run the corpus tests",
            dir.display()
        );
    }
    eprintln!(
        "note: test corpus not found at {} (set RETROMODEL_CORPUS); skipping",
        dir.display()
    );
    None
}
