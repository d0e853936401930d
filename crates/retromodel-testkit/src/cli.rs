//! Helpers for the CLI's integration tests: running the built binary, and
//! where the repository and its sample model are. (The corpus is found by
//! [`crate::corpus::corpus_dir`].)

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the binary at `bin` with `args`; fails the test if it panicked.
///
/// The CLI's tests pass `env!("CARGO_BIN_EXE_retromodel")`, which Cargo
/// sets only for the binary's own package.
pub fn run_os<S: AsRef<OsStr>>(bin: impl AsRef<Path>, args: &[S]) -> Output {
    let out = Command::new(bin.as_ref())
        .args(args)
        .output()
        .expect("run retromodel");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    out
}

/// [`run_os`], giving the exit code and what the binary printed on
/// standard output.
pub fn run_stdout<S: AsRef<OsStr>>(bin: impl AsRef<Path>, args: &[S]) -> (Option<i32>, String) {
    let o = run_os(bin, args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The project's own sample model.
pub fn sample() -> PathBuf {
    repo().join("examples/models/sample.md2")
}
