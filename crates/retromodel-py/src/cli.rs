//! The `retromodel` command the wheel installs (`[project.scripts]` in
//! pyproject.toml names `retromodel.retromodel:_cli_main`, this module's
//! function; the package re-exports no `_` names): the command line of
//! `crates/retromodel-cli`, the same code as the binary, so the same
//! output and exit status.

use pyo3::prelude::*;
use std::ffi::OsString;

/// Runs the command line on `argv` (without the program's name) and
/// returns its exit status. It prints straight to the process's standard
/// output and error (fd 1 and 2), after what Python buffered for them.
#[pyfunction]
#[pyo3(name = "_cli")]
pub fn cli(py: Python<'_>, argv: Vec<OsString>) -> PyResult<u8> {
    flush_python(py)?;
    let args = std::iter::once(OsString::from("retromodel")).chain(argv);
    // A panic is status 101, as the binary's; the message is the panic
    // hook's (one line under `_cli_main`).
    let status = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            retromodel_cli::run_from(args)
        }))
        .unwrap_or(101)
    });
    flush_python(py)?;
    Ok(status)
}

/// The console script: `retromodel ARGS...` runs [`cli`] on `sys.argv[1:]`
/// and the script exits with its status. The process is the command, so
/// Ctrl-C ends it as it ends the binary (Python's handler would wait for
/// the command to finish) and a panic is one line, as the binary prints it.
#[pyfunction]
#[pyo3(name = "_cli_main")]
pub fn cli_main(py: Python<'_>) -> PyResult<u8> {
    let signal = py.import("signal")?;
    signal.call_method1(
        "signal",
        (signal.getattr("SIGINT")?, signal.getattr("SIG_DFL")?),
    )?;
    retromodel_cli::set_panic_hook();
    let argv: Vec<OsString> = py.import("sys")?.getattr("argv")?.extract()?;
    cli(py, argv.into_iter().skip(1).collect())
}

/// Flushes Python's `sys.stdout` and `sys.stderr` (either may be None).
fn flush_python(py: Python<'_>) -> PyResult<()> {
    let sys = py.import("sys")?;
    for name in ["stdout", "stderr"] {
        let stream = sys.getattr(name)?;
        if !stream.is_none() {
            stream.call_method0("flush")?;
        }
    }
    Ok(())
}
