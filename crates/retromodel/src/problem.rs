//! Problems found by `validate()`: what is wrong, where, and how bad.

use std::fmt;

/// How serious a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The model is usable as read (the reader repaired or ignored the
    /// fault), but the file is not what the format asks for. Strict
    /// validation treats warnings as failures.
    Warning,
    /// The model cannot be used as it is.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One fault found in a model, with a path to the offending value such as
/// `frames[12].vertices[301].normal_index` and, where it came from a file,
/// the byte offset of that value.
///
/// ```
/// use retromodel::{Problem, Severity};
///
/// let p = Problem {
///     severity: Severity::Warning,
///     path: "frames[12].vertices[301].normal_index".into(),
///     message: "normal index 200 out of range 0..162".into(),
///     offset: Some(0x1a2c),
/// };
/// assert_eq!(
///     p.to_string(),
///     "warning: frames[12].vertices[301].normal_index: normal index 200 out of range 0..162 at offset 0x1a2c"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Warning or error.
    pub severity: Severity,
    /// Where in the model, as a path of fields and indices.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// The byte offset of the value in the file it was read from.
    pub offset: Option<u64>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.severity, self.path, self.message)?;
        if let Some(offset) = self.offset {
            write!(f, " at offset {offset:#x}")?;
        }
        Ok(())
    }
}

/// Gathers the problems a `validate()` finds, in the order found.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    /// What was found so far.
    pub(crate) problems: Vec<Problem>,
}

impl Collector {
    /// Records a problem.
    pub(crate) fn push(
        &mut self,
        severity: Severity,
        path: String,
        message: String,
        offset: Option<u64>,
    ) {
        self.problems.push(Problem {
            severity,
            path,
            message,
            offset,
        });
    }

    /// Records a warning.
    pub(crate) fn warn(
        &mut self,
        path: impl Into<String>,
        message: impl Into<String>,
        offset: Option<u64>,
    ) {
        self.push(Severity::Warning, path.into(), message.into(), offset);
    }

    /// Records an error.
    pub(crate) fn error(
        &mut self,
        path: impl Into<String>,
        message: impl Into<String>,
        offset: Option<u64>,
    ) {
        self.push(Severity::Error, path.into(), message.into(), offset);
    }
}
