//! `retromodel.Problem`: one problem `Model.validate()` found, as Python
//! sees it.

use pyo3::prelude::*;

/// One problem `Model.validate()` found.
#[pyclass(module = "retromodel", frozen, get_all)]
#[derive(Clone)]
pub struct Problem {
    /// `"warning"` (the model is usable as read) or `"error"`.
    pub severity: String,
    /// Where in the model, as a path of fields and indices, e.g.
    /// `frames[12].vertices[301].normal_index`.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// The byte offset of the value in the file, when known.
    pub offset: Option<u64>,
}

#[pymethods]
impl Problem {
    fn __str__(&self) -> String {
        self.problem().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem(severity={:?}, path={:?}, message={:?}, offset={})",
            self.severity,
            self.path,
            self.message,
            self.offset
                .map_or_else(|| "None".to_string(), |o| o.to_string())
        )
    }
}

impl Problem {
    fn problem(&self) -> retromodel::Problem {
        retromodel::Problem {
            severity: if self.severity == "error" {
                retromodel::Severity::Error
            } else {
                retromodel::Severity::Warning
            },
            path: self.path.clone(),
            message: self.message.clone(),
            offset: self.offset,
        }
    }
}

impl From<retromodel::Problem> for Problem {
    fn from(p: retromodel::Problem) -> Self {
        Problem {
            severity: match p.severity {
                retromodel::Severity::Warning => "warning",
                retromodel::Severity::Error => "error",
            }
            .to_string(),
            path: p.path,
            message: p.message,
            offset: p.offset,
        }
    }
}
