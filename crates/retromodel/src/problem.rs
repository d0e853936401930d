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

/// How many problems a `validate()` lists at most. Past it, problems are
/// only counted, and one last problem says how many were left out: a
/// hostile file can hold millions of bad indices (one problem, about 100
/// bytes, per 2-byte index), and a list of them helps nobody.
pub const MAX_LISTED_PROBLEMS: usize = 10_000;

/// Gathers the problems a `validate()` finds, in the order found, up to
/// [`MAX_LISTED_PROBLEMS`].
#[derive(Debug, Default)]
pub(crate) struct Collector {
    /// What was found so far (at most [`MAX_LISTED_PROBLEMS`]).
    problems: Vec<Problem>,
    /// Errors found past the limit.
    omitted_errors: usize,
    /// Warnings found past the limit.
    omitted_warnings: usize,
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
        if self.problems.len() < MAX_LISTED_PROBLEMS {
            self.problems.push(Problem {
                severity,
                path,
                message,
                offset,
            });
        } else if severity == Severity::Error {
            self.omitted_errors += 1;
        } else {
            self.omitted_warnings += 1;
        }
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

    /// The problems found, followed, when some were past the limit, by one
    /// that counts them (an error if any of them is one).
    pub(crate) fn finish(mut self) -> Vec<Problem> {
        let omitted = self.omitted_errors + self.omitted_warnings;
        if omitted > 0 {
            self.problems.push(Problem {
                severity: if self.omitted_errors > 0 {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                path: "(not listed)".to_string(),
                message: format!(
                    "{omitted} more problems ({} errors, {} warnings): only the first \
                     {MAX_LISTED_PROBLEMS} are listed",
                    self.omitted_errors, self.omitted_warnings
                ),
                offset: None,
            });
        }
        self.problems
    }
}

/// The `warnings` block of an `info` report: `none`, or how many, the
/// first `shown` of them and how many more there are.
pub(crate) fn write_warning_list(
    f: &mut fmt::Formatter<'_>,
    warnings: &[String],
    shown: usize,
) -> fmt::Result {
    if warnings.is_empty() {
        return writeln!(f, "  warnings      none");
    }
    writeln!(f, "  warnings      {}", warnings.len())?;
    for w in warnings.iter().take(shown) {
        writeln!(f, "                  {w}")?;
    }
    if warnings.len() > shown {
        writeln!(
            f,
            "                  … and {} more (see `retromodel validate`)",
            warnings.len() - shown
        )?;
    }
    Ok(())
}
