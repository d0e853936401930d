//! QuakeC's `$frame` list for a model: one `$frame` line per animation, so
//! that `$name` is the number of the frame of that name.
//!
//! The numbering is the compilers': each name on a `$frame` line takes the
//! next number from 0, in declaration order, over every `$frame` line of
//! the source file (id's qcc, `qcc/pr_lex.c`, `PR_ParseFrame`: the name's
//! index in `pr_framemacros`; FTEQCC's `QCC_PR_MacroFrame`, gmqcc's
//! `lex_parse_frame` and qfcc's `grab.c` count the same way). `$skin`
//! lines number nothing: every compiler skips the rest of the line
//! (qcc's `PR_LexGrab`, FTEQCC's `QCC_PR_LexGrab`).
//!
//! Names are written so that every compiler takes them: an identifier
//! (`[A-Za-z_][A-Za-z0-9_]*`: gmqcc's `lex_parse_frame` refuses a first
//! character that is not a letter or `_`, qfcc's lexer takes `$` `{ID}`
//! only), at most 15 characters (qcc copies names into
//! `pr_framemacros[][16]` with `strcpy`), unique even ignoring case
//! (FTEQCC's `QCC_PR_FindMacro` falls back to a case-insensitive match;
//! a duplicate takes a number but is never found in qcc and FTEQCC,
//! while gmqcc reassigns it), and no directive word (`frame`, `skin`,
//! `flush` ...: FTEQCC and gmqcc read `$flush` as a directive). A name
//! that is not is rewritten, and the rewrite is a [`QcNote`].
//!
//! ```
//! use retromodel::textfiles::{qc_frames, ModelFacts};
//!
//! let facts = ModelFacts {
//!     frame_names: vec!["stand1".into(), "stand2".into(), "1st-run".into()],
//!     animations: vec![],
//!     ..ModelFacts::default()
//! };
//! let qc = qc_frames(&facts, "progs/x.mdl");
//! assert!(qc.text.contains("$frame stand1 stand2 f1st_run\n"));
//! assert_eq!(qc.names, ["stand1", "stand2", "f1st_run"]);
//! assert_eq!(qc.notes.len(), 1);
//! ```

use std::collections::HashSet;

use super::{frame_lines, ModelFacts};

/// The longest name every compiler keeps (qcc's `char [16]` with its NUL).
pub const MAX_NAME_LEN: usize = 15;

/// id's qcc holds at most this many frame names per source file
/// (`MAX_FRAMES`, `qcc/pr_lex.c`; more overrun its table).
pub const ID_QCC_MAX_FRAMES: usize = 256;

/// The words a `$` line starts with as a directive in one compiler or
/// another (qcc, FTEQCC, gmqcc, qfcc): never frame names.
pub const DIRECTIVES: [&str; 13] = [
    "frame",
    "framesave",
    "framevalue",
    "framerestore",
    "flush",
    "frame_reset",
    "modelname",
    "cd",
    "origin",
    "base",
    "flags",
    "scale",
    "skin",
];

/// Why a frame name was rewritten.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameIssue {
    /// Empty.
    Empty,
    /// Not an identifier: a character other than a letter, digit or `_`,
    /// or a digit first.
    NotIdentifier,
    /// Longer than [`MAX_NAME_LEN`].
    TooLong,
    /// A directive word ([`DIRECTIVES`]).
    Directive,
    /// The same as an earlier frame's name, ignoring case.
    Duplicate,
}

/// What the `$frame` list could not write as the model has it.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QcNote {
    /// Frame `frame`'s name `from` is written `to`.
    Renamed {
        /// The frame's number.
        frame: usize,
        /// Its name in the model.
        from: String,
        /// Its name in the `$frame` list.
        to: String,
        /// Why.
        issue: NameIssue,
    },
    /// More frames than id's qcc holds in one source file
    /// ([`ID_QCC_MAX_FRAMES`]); FTEQCC, gmqcc and qfcc take them.
    TooManyForIdQcc {
        /// The model's frame count.
        frames: usize,
    },
}

/// A model's `$frame` list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QcFrames {
    /// The text of the `.qc` file.
    pub text: String,
    /// Each frame's name as written, in frame order.
    pub names: Vec<String>,
    /// What was rewritten.
    pub notes: Vec<QcNote>,
}

/// The `$frame` (and `$skin`) declarations of a model whose file is
/// `model_path` (named in the comment at the top): one `$frame` line per
/// animation, frames in frame order, so that `$name` is its frame number.
pub fn qc_frames(facts: &ModelFacts, model_path: &str) -> QcFrames {
    let mut notes = Vec::new();
    let mut used: HashSet<String> = HashSet::new();
    let names: Vec<String> = facts
        .frame_names
        .iter()
        .enumerate()
        .map(|(frame, raw)| {
            let (name, issue) = portable_name(raw, &used);
            used.insert(name.to_ascii_lowercase());
            if let Some(issue) = issue {
                notes.push(QcNote::Renamed {
                    frame,
                    from: raw.clone(),
                    to: name.clone(),
                    issue,
                });
            }
            name
        })
        .collect();
    if names.len() > ID_QCC_MAX_FRAMES {
        notes.push(QcNote::TooManyForIdQcc {
            frames: names.len(),
        });
    }
    let mut text = String::new();
    let path = one_line(model_path);
    text.push_str(&format!(
        "// Frames of {path}: $name is the number of the frame of that name,\n\
         // counted from 0 over the $frame lines in order (keep them in order,\n\
         // and first in the file, before any other $frame line).\n\n"
    ));
    for (i, skin) in facts.skins.iter().enumerate() {
        text.push_str(&format!("// skin {i}: {}\n", one_line(skin)));
    }
    for i in 0..facts.skins.len() {
        text.push_str(&format!("$skin skin{i}\n"));
    }
    if !facts.skins.is_empty() {
        text.push('\n');
    }
    for (animation, range) in frame_lines(names.len(), &facts.animations) {
        text.push_str(&format!(
            "// {}: frames {}-{}\n$frame {}\n",
            one_line(&animation),
            range.start,
            range.end - 1,
            names[range.clone()].join(" ")
        ));
    }
    QcFrames { text, names, notes }
}

/// Text made safe for one comment line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `raw` as a name every compiler takes and none of `used` (lower case)
/// is; and why it had to change, if it did.
fn portable_name(raw: &str, used: &HashSet<String>) -> (String, Option<NameIssue>) {
    let mut issue = None;
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                issue.get_or_insert(NameIssue::NotIdentifier);
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        issue = Some(NameIssue::Empty);
        name = "frame0".to_string();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        issue.get_or_insert(NameIssue::NotIdentifier);
        name.insert(0, 'f');
    }
    if name.len() > MAX_NAME_LEN {
        issue.get_or_insert(NameIssue::TooLong);
        name.truncate(MAX_NAME_LEN);
    }
    if DIRECTIVES.contains(&name.to_ascii_lowercase().as_str()) {
        issue.get_or_insert(NameIssue::Directive);
        name = format!("{}_f", &name[..name.len().min(MAX_NAME_LEN - 2)]);
    }
    if used.contains(&name.to_ascii_lowercase()) {
        issue.get_or_insert(NameIssue::Duplicate);
        let base = name.clone();
        for n in 2usize.. {
            let suffix = format!("_{n}");
            let keep = base.len().min(MAX_NAME_LEN - suffix.len());
            let candidate = format!("{}{suffix}", &base[..keep]);
            if !used.contains(&candidate.to_ascii_lowercase()) {
                name = candidate;
                break;
            }
        }
    }
    (name, issue)
}

/// The note in words naming no front end's options (what the command
/// line, the Python package and the Blender add-on all show).
impl std::fmt::Display for QcNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QcNote::Renamed {
                frame,
                from,
                to,
                issue,
            } => {
                let why = match issue {
                    NameIssue::Empty => "it has no name",
                    NameIssue::NotIdentifier => {
                        "QuakeC compilers take letters, digits and _ only, not a digit first"
                    }
                    NameIssue::TooLong => "id's qcc keeps 15 characters",
                    NameIssue::Directive => "it is a $ directive word",
                    NameIssue::Duplicate => "an earlier frame has that name (ignoring case)",
                };
                write!(f, "frame {frame} {from:?} is declared as ${to}: {why}")
            }
            QcNote::TooManyForIdQcc { frames } => write!(
                f,
                "{frames} frames: id's qcc holds 256 $frame names a file (FTEQCC, gmqcc and qfcc take more)"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(names: &[&str]) -> ModelFacts {
        ModelFacts {
            frame_names: names.iter().map(|s| s.to_string()).collect(),
            ..ModelFacts::default()
        }
    }

    #[test]
    fn names_are_made_portable_and_unique() {
        let q = qc_frames(
            &facts(&["Run1", "run1", "skin", "", "a.b", "abcdefghijklmnopq"]),
            "x",
        );
        assert_eq!(
            q.names,
            [
                "Run1",
                "run1_2",
                "skin_f",
                "frame0",
                "a_b",
                "abcdefghijklmno"
            ]
        );
        for n in &q.names {
            assert!(n.len() <= MAX_NAME_LEN);
        }
        assert_eq!(q.notes.len(), 5);
    }

    #[test]
    fn a_line_per_animation() {
        let mut f = facts(&["a1", "a2", "b1"]);
        f.animations = crate::quake::animations_from_runs(["a1", "a2", "b1"]);
        let q = qc_frames(&f, "x");
        assert!(q.text.contains("$frame a1 a2\n"));
        assert!(q.text.contains("$frame b1\n"));
    }
}
