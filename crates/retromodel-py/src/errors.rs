//! The Python exception the library's errors become.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

create_exception!(
    retromodel,
    Error,
    PyValueError,
    "A model that cannot be read, checked or converted, or options that do \
     not apply. The message is the library's: what is wrong, in which \
     section or field (a path such as `frames[3].vertices[7]`) and at \
     which byte offset."
);

/// A library error as a Python `retromodel.Error`.
pub fn to_py(e: retromodel::Error) -> PyErr {
    Error::new_err(e.to_string())
}

/// A file that cannot be read, as the `OSError` subclass its errno
/// stands for (`FileNotFoundError`, `PermissionError`, ...), naming it.
pub fn io_to_py(e: &std::io::Error, path: &std::path::Path) -> PyErr {
    let path = path.display().to_string();
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, e.to_string(), path)),
        None => PyOSError::new_err(format!("{path}: {e}")),
    }
}
