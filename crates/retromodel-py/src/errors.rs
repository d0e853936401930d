//! The Python exception the library's errors become.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
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

/// A library error as a Python `retromodel.Error`: the message, plus
/// `offset` (the byte offset, or `None`), `path` (the section, field or
/// JSON pointer it names, or `None`) and `line` (for text formats, or
/// `None`) as attributes.
///
/// An error the library advises on (a limit passed, a palette missing)
/// words the remedies with this module's keyword arguments (`fps`,
/// `engine="ufoai"` ...) and has them as data too: `reason` (the message
/// without the advice), `limit` (`{"quantity", "max", "actual", "over"}`
/// or `None`) and `remedies` (`[{"remedy": "lower_fps", "text": ...},
/// {"remedy": "engine", "engine": "ufoai", "allows": 1023, ...}]`), for a
/// caller to word them its own way.
pub fn to_py(e: retromodel::Error) -> PyErr {
    let reason = match e.unadvised() {
        retromodel::Error::Option(problem) => crate::advice::option_problem(problem),
        other => other.to_string(),
    };
    let err = Error::new_err(crate::advice::worded(reason.clone(), e.advice()));
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception cannot fail in
        // practice; if it did, the message still says it all.
        let _ = value.setattr("offset", e.offset());
        let _ = value.setattr("path", error_path(&e));
        let _ = value.setattr("line", error_line(&e));
        let _ = value.setattr("reason", reason);
        let advice = e.advice();
        if let Ok(limit) = crate::advice::limit_dict(py, advice.and_then(|a| a.limit.as_ref())) {
            let _ = value.setattr("limit", limit);
        }
        if let Ok(remedies) = crate::advice::remedies_list(py, advice) {
            let _ = value.setattr("remedies", remedies);
        }
    });
    err
}

/// The section, field or JSON pointer an error names, if any.
fn error_path(e: &retromodel::Error) -> Option<String> {
    use retromodel::Error as E;
    match e.unadvised() {
        E::Truncated { context, .. }
        | E::Invalid { context, .. }
        | E::Unwritable { context, .. } => Some(context.clone()),
        E::Rejected(problem) => Some(problem.path.clone()),
        E::Gltf { path, .. } | E::InvalidScene { path, .. } => Some(path.clone()),
        _ => None,
    }
}

/// The line of a text file an error is on, if any.
fn error_line(e: &retromodel::Error) -> Option<usize> {
    use retromodel::Error as E;
    match e {
        E::Obj { line, .. } | E::Ms3dAscii { line, .. } => *line,
        _ => None,
    }
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
