//! The line-oriented tokenizer the ASCII reader is built on: lines with
//! their numbers (LF or CRLF ends), blank and `//` lines skipped or read
//! raw, counts checked against the lines that remain, and fields parsed
//! into numbers with errors that name the line.

use crate::error::{Error, Result};

/// How much of a line an error message quotes.
const QUOTED_CHARS: usize = 60;

/// The lines of a text, read front to back.
pub(super) struct Lines<'a> {
    /// What has not been read yet.
    rest: &'a str,
    /// Whether `rest` still holds a line (a text ending in LF has an
    /// empty last line, which counts).
    more: bool,
    /// The number of the last line read (1-based); 0 before the first.
    line: usize,
    /// How many lines the text has.
    total: usize,
}

impl<'a> Lines<'a> {
    /// The lines of `text`.
    pub(super) fn new(text: &'a str) -> Self {
        let total = 1 + text.bytes().filter(|&b| b == b'\n').count();
        Lines {
            rest: text,
            more: true,
            line: 0,
            total,
        }
    }

    /// The number of the line read last (1-based; 1 before any).
    pub(super) fn line(&self) -> usize {
        self.line.max(1)
    }

    /// The number of the last line of the text.
    pub(super) fn last_line(&self) -> usize {
        self.total
    }

    /// How many lines are left: an upper bound on the items they hold.
    pub(super) fn remaining(&self) -> usize {
        self.total - self.line
    }

    /// The next line without its line end, or `None` at the end.
    pub(super) fn raw(&mut self) -> Option<&'a str> {
        if !self.more {
            return None;
        }
        self.line += 1;
        let (line, rest) = match self.rest.find('\n') {
            Some(at) => (&self.rest[..at], &self.rest[at + 1..]),
            None => {
                self.more = false;
                (self.rest, "")
            }
        };
        self.rest = rest;
        // CR before the LF belongs to the line end (all of them: a lone CR
        // left at the end of a comment text could not be written back).
        Some(line.trim_end_matches('\r'))
    }

    /// The next line that is neither blank nor a `//` comment, trimmed.
    pub(super) fn significant(&mut self) -> Option<&'a str> {
        while let Some(line) = self.raw() {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with("//") {
                return Some(line);
            }
        }
        None
    }

    /// The `//` lines (trimmed) before the next significant line, which is
    /// not read.
    pub(super) fn leading_comments(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let (saved_rest, saved_more, saved_line) = (self.rest, self.more, self.line);
            let Some(line) = self.raw() else { break };
            let line = line.trim();
            if line.starts_with("//") {
                out.push(line.to_string());
            } else if !line.is_empty() {
                (self.rest, self.more, self.line) = (saved_rest, saved_more, saved_line);
                break;
            }
        }
        out
    }

    /// The next significant line; at the end of the text an error saying
    /// that `what` was expected.
    pub(super) fn expect(&mut self, what: &str) -> Result<&'a str> {
        match self.significant() {
            Some(line) => Ok(line),
            None => Err(self.error_at(
                self.last_line(),
                format!("unexpected end of file, expected {what}"),
            )),
        }
    }

    /// The next line read raw (a comment text); at the end of the text an
    /// error saying that `what` was expected.
    pub(super) fn expect_raw(&mut self, what: &str) -> Result<&'a str> {
        match self.raw() {
            Some(line) => Ok(line),
            None => Err(self.error_at(
                self.last_line(),
                format!("unexpected end of file, expected {what}"),
            )),
        }
    }

    /// A count on a line of its own, for items of at least `lines_each`
    /// lines: checked against the lines that remain, so nothing is
    /// allocated for items the text cannot hold.
    pub(super) fn count(&mut self, what: &str, lines_each: usize) -> Result<usize> {
        let line = self.expect(&format!("the number of {what}"))?;
        let [field] = self.fields::<1>(line, &format!("the number of {what}"))?;
        self.check_count(field, what, lines_each)
    }

    /// `field` as a count of items of at least `lines_each` lines each,
    /// checked against the lines that remain.
    pub(super) fn check_count(&self, field: &str, what: &str, lines_each: usize) -> Result<usize> {
        let n: u64 = match field.parse() {
            Ok(n) => n,
            Err(_) => {
                return Err(self.error(format!(
                    "the number of {what} must be a whole number of at least 0, found {}",
                    quote(field)
                )))
            }
        };
        let needed = n.saturating_mul(lines_each as u64);
        if needed > self.remaining() as u64 {
            let remaining = self.remaining();
            return Err(self.error(format!(
                "{n} {what} announced, which need at least {needed} more line{}, but only \
                 {remaining} remain{}",
                if needed == 1 { "" } else { "s" },
                if remaining == 1 { "s" } else { "" }
            )));
        }
        Ok(n as usize)
    }

    /// The whitespace-separated fields of `line`: exactly `N` of them.
    pub(super) fn fields<const N: usize>(&self, line: &'a str, what: &str) -> Result<[&'a str; N]> {
        let mut out = [""; N];
        let mut words = line.split_ascii_whitespace();
        let mut found = 0;
        for slot in out.iter_mut() {
            match words.next() {
                Some(w) => {
                    *slot = w;
                    found += 1;
                }
                None => break,
            }
        }
        let extra = words.count();
        if found < N || extra > 0 {
            return Err(self.error(format!(
                "expected {N} field{} for {what}, found {}: {}",
                if N == 1 { "" } else { "s" },
                found + extra,
                quote(line)
            )));
        }
        Ok(out)
    }

    /// The first `N` fields of `line` (at least `N` are required) and the
    /// rest of the line, trimmed.
    pub(super) fn leading_fields<const N: usize>(
        &self,
        line: &'a str,
        what: &str,
    ) -> Result<([&'a str; N], &'a str)> {
        let mut out = [""; N];
        let mut rest = line;
        for (found, slot) in out.iter_mut().enumerate() {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
            if rest.is_empty() {
                return Err(self.error(format!(
                    "expected {N} fields for {what}, found {found}: {}",
                    quote(line)
                )));
            }
            let end = rest
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(rest.len());
            *slot = &rest[..end];
            rest = &rest[end..];
        }
        Ok((out, rest.trim()))
    }

    /// A `"quoted"` name at the start of `line` and what follows it.
    pub(super) fn quoted(&self, line: &'a str, what: &str) -> Result<(&'a str, &'a str)> {
        let Some(inner) = line.strip_prefix('"') else {
            return Err(self.error(format!(
                "expected {what} in double quotes, found {}",
                quote(line)
            )));
        };
        match inner.find('"') {
            Some(end) => Ok((&inner[..end], inner[end + 1..].trim())),
            None => Err(self.error(format!("unterminated quote in {what}: {}", quote(line)))),
        }
    }

    /// A line holding only a quoted name.
    pub(super) fn quoted_only(&self, line: &'a str, what: &str) -> Result<&'a str> {
        let (name, rest) = self.quoted(line, what)?;
        if !rest.is_empty() {
            return Err(self.error(format!("unexpected text after {what}: {}", quote(rest))));
        }
        Ok(name)
    }

    /// A finite `f32`.
    pub(super) fn f32(&self, field: &str, what: &str) -> Result<f32> {
        match field.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => Err(self.error(format!("{what} is not a finite number: {}", quote(field)))),
            Err(_) => Err(self.error(format!("{what} is not a number: {}", quote(field)))),
        }
    }

    /// Three finite `f32`s.
    pub(super) fn f32x3(&self, fields: &[&str], what: &str) -> Result<[f32; 3]> {
        Ok([
            self.f32(fields[0], what)?,
            self.f32(fields[1], what)?,
            self.f32(fields[2], what)?,
        ])
    }

    /// A finite `f64`.
    pub(super) fn f64(&self, field: &str, what: &str) -> Result<f64> {
        match field.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => Err(self.error(format!("{what} is not a finite number: {}", quote(field)))),
            Err(_) => Err(self.error(format!("{what} is not a number: {}", quote(field)))),
        }
    }

    /// A whole number that fits `T` (whose range is described as
    /// `range`, e.g. `0..=255`).
    pub(super) fn int<T: TryFrom<i64>>(&self, field: &str, what: &str, range: &str) -> Result<T> {
        let Ok(v) = field.parse::<i64>() else {
            return Err(self.error(format!("{what} is not a whole number: {}", quote(field))));
        };
        T::try_from(v).map_err(|_| self.error(format!("{what} {v} is out of range {range}")))
    }

    /// An error at the line read last.
    pub(super) fn error(&self, message: String) -> Error {
        self.error_at(self.line(), message)
    }

    /// An error at `line`.
    pub(super) fn error_at(&self, line: usize, message: String) -> Error {
        Error::Ms3dAscii {
            line: Some(line),
            message,
        }
    }
}

/// `text` in quotes for a message, cut after [`QUOTED_CHARS`] characters
/// (a line can be gigabytes long).
pub(super) fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{:?}...", &text[..cut]),
        None => format!("{text:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(err: Error) -> (Option<usize>, String) {
        match err {
            Error::Ms3dAscii { line, message } => (line, message),
            other => panic!("unexpected error {other}"),
        }
    }

    #[test]
    fn lines_are_numbered_from_one_with_crlf_and_a_last_line_without_end() {
        let mut l = Lines::new("a\r\n\n  // c\r\n b \nlast");
        assert_eq!(l.last_line(), 5);
        assert_eq!(l.significant(), Some("a"));
        assert_eq!(l.line(), 1);
        assert_eq!(l.significant(), Some("b"));
        assert_eq!(l.line(), 4);
        assert_eq!(l.remaining(), 1);
        assert_eq!(l.raw(), Some("last"));
        assert_eq!(l.raw(), None);
        assert_eq!(l.significant(), None);
    }

    #[test]
    fn a_text_ending_in_lf_has_an_empty_last_line() {
        let mut l = Lines::new("x\n");
        assert_eq!(l.last_line(), 2);
        assert_eq!(l.raw(), Some("x"));
        assert_eq!(l.raw(), Some(""));
        assert_eq!(l.raw(), None);
    }

    #[test]
    fn leading_comments_stop_before_the_first_significant_line() {
        let mut l = Lines::new("// one\n\n  // two  \nFrames: 1\n// later\n");
        assert_eq!(l.leading_comments(), ["// one", "// two"]);
        assert_eq!(l.significant(), Some("Frames: 1"));
        assert_eq!(l.line(), 4);
    }

    #[test]
    fn counts_are_checked_against_the_lines_left() {
        let mut l = Lines::new("3\na\nb\nc");
        assert_eq!(l.count("things", 1).unwrap(), 3);
        let mut l = Lines::new("4000000000\na\nb");
        let (line, msg) = message(l.count("vertices", 1).unwrap_err());
        assert_eq!(line, Some(1));
        assert_eq!(
            msg,
            "4000000000 vertices announced, which need at least 4000000000 more lines, but only 2 \
             remain"
        );
        let mut l = Lines::new("\n-1\n");
        let (line, msg) = message(l.count("normals", 1).unwrap_err());
        assert_eq!(line, Some(2));
        assert!(msg.contains("at least 0, found \"-1\""), "{msg}");
        let mut l = Lines::new("18446744073709551615\n");
        assert!(l.count("keys", 4).is_err());
    }

    #[test]
    fn fields_must_be_exactly_as_many_as_asked() {
        let l = Lines::new("");
        assert_eq!(
            l.fields::<3>(" 1  2\t3 ", "a normal").unwrap(),
            ["1", "2", "3"]
        );
        let (_, msg) = message(l.fields::<3>("1 2", "a normal").unwrap_err());
        assert_eq!(msg, "expected 3 fields for a normal, found 2: \"1 2\"");
        let (_, msg) = message(l.fields::<3>("1 2 3 4", "a normal").unwrap_err());
        assert_eq!(msg, "expected 3 fields for a normal, found 4: \"1 2 3 4\"");
        let (fields, rest) = l.leading_fields::<2>("a b  c d ", "x").unwrap();
        assert_eq!((fields, rest), (["a", "b"], "c d"));
        assert!(l.leading_fields::<3>("a b", "x").is_err());
    }

    #[test]
    fn numbers_reject_nan_infinity_and_overflow() {
        let l = Lines::new("");
        assert_eq!(l.f32("-33.250000", "x").unwrap(), -33.25);
        for bad in ["nan", "NaN", "inf", "-infinity", "1e39"] {
            let (_, msg) = message(l.f32(bad, "a position").unwrap_err());
            assert!(
                msg.starts_with("a position is not a finite number"),
                "{msg}"
            );
        }
        assert!(l.f32("1,5", "x").is_err());
        assert!(l.f64("1e309", "x").is_err());
        assert_eq!(l.int::<u8>("255", "flags", "0..=255").unwrap(), 255);
        let (_, msg) = message(l.int::<u8>("256", "flags", "0..=255").unwrap_err());
        assert_eq!(msg, "flags 256 is out of range 0..=255");
        assert!(l.int::<i8>("1.0", "bone", "-128..=127").is_err());
    }

    #[test]
    fn quoted_names_end_at_the_next_quote() {
        let l = Lines::new("");
        assert_eq!(l.quoted("\"a b\" 0 1", "x").unwrap(), ("a b", "0 1"));
        assert_eq!(l.quoted("\"\"", "x").unwrap(), ("", ""));
        let (_, msg) = message(l.quoted("\"open", "a mesh name").unwrap_err());
        assert_eq!(msg, "unterminated quote in a mesh name: \"\\\"open\"");
        assert!(l.quoted("bare", "x").is_err());
        assert!(l.quoted_only("\"a\" b", "x").is_err());
    }

    #[test]
    fn quotes_of_long_lines_are_cut() {
        let long = "x".repeat(10_000);
        let q = quote(&long);
        assert_eq!(q.len(), QUOTED_CHARS + 2 + 3);
        assert!(q.ends_with("\"..."));
    }
}
