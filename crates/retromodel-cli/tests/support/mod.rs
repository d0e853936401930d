//! Helpers shared by the CLI integration tests: running the built binary,
//! and where the sample model and the test corpus are.

#![allow(dead_code)] // each test binary uses a subset

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the built `retromodel` with `args`; fails the test if it panicked.
pub fn run_os<S: AsRef<OsStr>>(args: &[S]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_retromodel"))
        .args(args)
        .output()
        .expect("run retromodel");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    out
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The project's own sample model.
pub fn sample() -> PathBuf {
    repo().join("examples/models/sample.md2")
}

/// The corpus folder: `$RETROMODEL_CORPUS` or `../shared/corpus`; a note
/// and `None` when missing, a failure under `CI`.
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("RETROMODEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/corpus"));
    if dir.join("facts.json").is_file() {
        Some(dir)
    } else if std::env::var_os("CI").is_some() {
        panic!(
            "corpus not found at {} (set RETROMODEL_CORPUS)",
            dir.display()
        );
    } else {
        eprintln!("corpus not found at {}; skipping", dir.display());
        None
    }
}
