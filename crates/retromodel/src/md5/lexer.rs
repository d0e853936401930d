//! The tokens of id Tech 4's text files (`md5mesh`, `md5anim`): words,
//! quoted strings and the punctuation `( ) { }`, with `//` and `/* */`
//! comments skipped and the line of every token kept for errors.
//!
//! Each call consumes at least one byte or ends, so no input makes it
//! loop; it never allocates.

use crate::error::{Error, Result};

/// One token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    /// A run of bytes up to whitespace, punctuation or a quote.
    Word(&'a [u8]),
    /// The bytes between two `"`.
    Quoted(&'a [u8]),
    /// One of `( ) { }`.
    Punct(u8),
}

/// Reads tokens from the bytes of one file.
pub(crate) struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    /// `md5mesh` or `md5anim`, for errors.
    file: &'static str,
}

fn is_punct(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'{' | b'}')
}

/// Whether a byte is skipped between tokens as a blank: ASCII whitespace
/// other than a newline, and NUL.
const fn blanks() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c == 0 || (c.is_ascii_whitespace() && c != b'\n');
        b += 1;
    }
    t
}

/// Whether a byte ends a word: whitespace, NUL, punctuation, a quote, and
/// `/` (a word ends there only if a comment starts).
const fn stops() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c == 0
            || c.is_ascii_whitespace()
            || matches!(c, b'(' | b')' | b'{' | b'}' | b'"' | b'/');
        b += 1;
    }
    t
}

static BLANK: [bool; 256] = blanks();
static STOP: [bool; 256] = stops();

impl<'a> Lexer<'a> {
    pub(crate) fn new(bytes: &'a [u8], file: &'static str) -> Self {
        Lexer {
            bytes,
            pos: 0,
            line: 1,
            file,
        }
    }

    /// The line of the next token (after skipping blanks and comments,
    /// which may fail on an unterminated comment: then the current line).
    pub(crate) fn line(&mut self) -> usize {
        let _ = self.skip_blanks();
        self.line
    }

    /// Bytes not yet read: the most any count still to come can use.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// An error at `line`.
    pub(crate) fn error_at(&self, line: usize, message: impl Into<String>) -> Error {
        Error::Md5 {
            file: self.file,
            line: Some(line),
            message: message.into(),
        }
    }

    fn skip_blanks(&mut self) -> Result<()> {
        loop {
            let Some(&b) = self.bytes.get(self.pos) else {
                return Ok(());
            };
            match b {
                _ if BLANK[usize::from(b)] => self.pos += 1,
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                }
                b'/' if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                    while self.bytes.get(self.pos).is_some_and(|&c| c != b'\n') {
                        self.pos += 1;
                    }
                }
                b'/' if self.bytes.get(self.pos + 1) == Some(&b'*') => {
                    let start = self.line;
                    self.pos += 2;
                    loop {
                        match self.bytes.get(self.pos) {
                            None => return Err(self.error_at(start, "comment `/*` never closed")),
                            Some(b'*') if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(&c) => {
                                if c == b'\n' {
                                    self.line += 1;
                                }
                                self.pos += 1;
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The next token and its line; `None` at the end.
    pub(crate) fn next(&mut self) -> Result<Option<(Tok<'a>, usize)>> {
        self.skip_blanks()?;
        let line = self.line;
        let Some(&b) = self.bytes.get(self.pos) else {
            return Ok(None);
        };
        if is_punct(b) {
            self.pos += 1;
            return Ok(Some((Tok::Punct(b), line)));
        }
        if b == b'"' {
            let start = self.pos + 1;
            let rest = self.bytes.get(start..).unwrap_or_default();
            let Some(len) = rest.iter().position(|&c| c == b'"' || c == b'\n') else {
                return Err(self.error_at(line, "quoted string never closed"));
            };
            if rest[len] == b'\n' {
                return Err(self.error_at(line, "quoted string not closed on its line"));
            }
            self.pos = start + len + 1;
            return Ok(Some((Tok::Quoted(&rest[..len]), line)));
        }
        let start = self.pos;
        loop {
            let rest = self.bytes.get(self.pos..).unwrap_or_default();
            match rest.iter().position(|&c| STOP[usize::from(c)]) {
                None => {
                    self.pos = self.bytes.len();
                    break;
                }
                Some(n) => {
                    self.pos += n;
                    let slash = rest[n] == b'/';
                    let comment = matches!(self.bytes.get(self.pos + 1), Some(b'/' | b'*'));
                    if slash && !comment {
                        self.pos += 1;
                        continue;
                    }
                    break;
                }
            }
        }
        if self.pos == start {
            // A lone `/` not starting a comment.
            self.pos += 1;
        }
        Ok(Some((Tok::Word(&self.bytes[start..self.pos]), line)))
    }

    /// The next token, failing at the end with what was `expected` (only
    /// worded then: reading allocates nothing).
    fn token_or(&mut self, expected: impl FnOnce() -> String) -> Result<(Tok<'a>, usize)> {
        self.skip_blanks()?;
        let line = self.line;
        match self.next()? {
            Some(t) => Ok(t),
            None => {
                Err(self.error_at(line, format!("file ends where {} was expected", expected())))
            }
        }
    }

    /// The next token, failing at the end with what was `expected`.
    fn token(&mut self, expected: &str) -> Result<(Tok<'a>, usize)> {
        self.token_or(|| expected.to_string())
    }

    /// The word at the next token, if it is one that ends at whitespace,
    /// punctuation, a quote or the end (the common case, read without
    /// building a token; anything else takes the general path).
    fn plain_word(&mut self) -> Result<Option<&'a [u8]>> {
        self.skip_blanks()?;
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|&c| STOP[usize::from(c)])
            .unwrap_or(rest.len());
        if n == 0 || rest.get(n) == Some(&b'/') {
            return Ok(None);
        }
        Ok(Some(&rest[..n]))
    }

    /// The keyword `word`; returns its line.
    pub(crate) fn keyword(&mut self, word: &str) -> Result<usize> {
        if self.plain_word()? == Some(word.as_bytes()) {
            self.pos += word.len();
            return Ok(self.line);
        }
        match self.token_or(|| format!("`{word}`"))? {
            (Tok::Word(w), line) if w == word.as_bytes() => Ok(line),
            (t, line) => Err(self.error_at(line, format!("expected `{word}`, found {}", shown(t)))),
        }
    }

    /// The punctuation `c`.
    pub(crate) fn punct(&mut self, c: u8) -> Result<usize> {
        self.skip_blanks()?;
        if self.bytes.get(self.pos) == Some(&c) && is_punct(c) {
            self.pos += 1;
            return Ok(self.line);
        }
        match self.token_or(|| format!("`{}`", c as char))? {
            (Tok::Punct(p), line) if p == c => Ok(line),
            (t, line) => Err(self.error_at(
                line,
                format!("expected `{}`, found {}", c as char, shown(t)),
            )),
        }
    }

    /// Whether the next token is the punctuation `c` (not consumed).
    pub(crate) fn peek_punct(&mut self, c: u8) -> Result<bool> {
        let (pos, line) = (self.pos, self.line);
        let next = self.next()?;
        self.pos = pos;
        self.line = line;
        Ok(matches!(next, Some((Tok::Punct(p), _)) if p == c))
    }

    /// A word as text (a number's digits ...), with its line.
    fn word(&mut self, what: &str) -> Result<(&'a str, usize)> {
        match self.token(what)? {
            (Tok::Word(w), line) => std::str::from_utf8(w)
                .map(|s| (s, line))
                .map_err(|_| self.error_at(line, format!("{what}: not text"))),
            (t, line) => Err(self.error_at(line, format!("expected {what}, found {}", shown(t)))),
        }
    }

    /// A string: quoted, or a bare word (some exporters leave names
    /// unquoted); lossily decoded.
    pub(crate) fn string(&mut self, what: &str) -> Result<(String, usize)> {
        match self.token(what)? {
            (Tok::Quoted(w) | Tok::Word(w), line) => {
                Ok((String::from_utf8_lossy(w).into_owned(), line))
            }
            (t, line) => Err(self.error_at(line, format!("expected {what}, found {}", shown(t)))),
        }
    }

    /// A whole number in `0..=max`.
    pub(crate) fn uint(&mut self, what: &str, max: u64) -> Result<(u64, usize)> {
        if let Some(w) = self.plain_word()? {
            // Up to 18 digits cannot overflow; anything else (and errors)
            // takes the general path.
            if w.len() <= 18 && w.iter().all(u8::is_ascii_digit) {
                let v = w.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
                if v <= max {
                    self.pos += w.len();
                    return Ok((v, self.line));
                }
            }
        }
        let (w, line) = self.word(what)?;
        let v: u64 = w.parse().map_err(|_| {
            self.error_at(
                line,
                format!("{what}: expected a whole number, found {w:?}"),
            )
        })?;
        if v > max {
            return Err(self.error_at(line, format!("{what} {v} is more than {max}")));
        }
        Ok((v, line))
    }

    /// A whole number in `min..=max`.
    pub(crate) fn int(&mut self, what: &str, min: i64, max: i64) -> Result<(i64, usize)> {
        let (w, line) = self.word(what)?;
        let v: i64 = w.parse().map_err(|_| {
            self.error_at(
                line,
                format!("{what}: expected a whole number, found {w:?}"),
            )
        })?;
        if v < min || v > max {
            return Err(self.error_at(line, format!("{what} {v} is not in {min}..={max}")));
        }
        Ok((v, line))
    }

    /// A finite number.
    pub(crate) fn float(&mut self, what: &str) -> Result<f32> {
        if let Some(w) = self.plain_word()? {
            let v = std::str::from_utf8(w)
                .ok()
                .and_then(|t| t.parse::<f32>().ok());
            if let Some(v) = v.filter(|v| v.is_finite()) {
                self.pos += w.len();
                return Ok(v);
            }
        }
        let (w, line) = self.word(what)?;
        match w.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.error_at(
                line,
                format!("{what}: expected a finite number, found {w:?}"),
            )),
        }
    }

    /// `( a b c )`.
    pub(crate) fn vec3(&mut self, what: &str) -> Result<[f32; 3]> {
        self.punct(b'(')?;
        let v = [self.float(what)?, self.float(what)?, self.float(what)?];
        self.punct(b')')?;
        Ok(v)
    }

    /// The header both md5mesh and md5anim open with,
    /// `MD5Version 10 commandline "..."`: the command line, or an error
    /// for any other version.
    pub(crate) fn header(&mut self) -> Result<String> {
        self.keyword("MD5Version")?;
        let (version, line) = self.uint("MD5Version", u64::MAX)?;
        if version != super::MD5_VERSION {
            return Err(self.error_at(
                line,
                format!("MD5Version {version} is not supported (supported: 10)"),
            ));
        }
        self.keyword("commandline")?;
        Ok(self.string("the command line")?.0)
    }

    /// Fails unless only blanks and comments are left.
    pub(crate) fn end(&mut self) -> Result<()> {
        match self.next()? {
            None => Ok(()),
            Some((t, line)) => Err(self.error_at(
                line,
                format!("expected the end of the file, found {}", shown(t)),
            )),
        }
    }
}

/// A token as an error shows it.
fn shown(t: Tok) -> String {
    let text = |b: &[u8]| {
        let s = String::from_utf8_lossy(&b[..b.len().min(40)]).into_owned();
        if b.len() > 40 {
            format!("{s}…")
        } else {
            s
        }
    };
    match t {
        Tok::Word(w) => format!("`{}`", text(w)),
        Tok::Quoted(w) => format!("\"{}\"", text(w)),
        Tok::Punct(p) => format!("`{}`", p as char),
    }
}

/// Checks that `count` items of at least `min_bytes` each fit in the
/// `remaining` bytes, so that nothing is allocated for items the input
/// cannot hold.
pub(crate) fn check_count(
    lexer: &Lexer,
    line: usize,
    what: &str,
    count: u64,
    min_bytes: u64,
) -> Result<usize> {
    let room = lexer.remaining() as u64 / min_bytes.max(1);
    if count > room {
        return Err(lexer.error_at(
            line,
            format!(
                "{what} {count} cannot fit in the {} bytes left (each needs at least {min_bytes})",
                lexer.remaining()
            ),
        ));
    }
    usize::try_from(count).map_err(|_| lexer.error_at(line, format!("{what} {count} too large")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_lines_and_comments() {
        let mut l = Lexer::new(b"a // c\n/* x\ny */ \"q r\"(1.5)", "md5mesh");
        assert_eq!(l.next().unwrap(), Some((Tok::Word(b"a"), 1)));
        assert_eq!(l.next().unwrap(), Some((Tok::Quoted(b"q r"), 3)));
        assert_eq!(l.next().unwrap(), Some((Tok::Punct(b'('), 3)));
        assert_eq!(l.float("x").unwrap(), 1.5);
        assert_eq!(l.punct(b')').unwrap(), 3);
        assert_eq!(l.next().unwrap(), None);
        let mut l = Lexer::new(b"\n\"open", "md5anim");
        assert_eq!(
            l.next().unwrap_err().to_string(),
            "md5anim line 2: quoted string never closed"
        );
        let mut l = Lexer::new(b"nan", "md5anim");
        assert!(l.float("x").is_err());
    }

    #[test]
    fn the_fast_paths_fall_back_to_the_general_one() {
        // `+5` is a number to `str::parse`; `5/x` is one word, not `5`.
        let mut l = Lexer::new(b" +5 5/x 1e40 vert/x 19999999999999999999", "md5mesh");
        assert_eq!(l.uint("n", 9).unwrap(), (5, 1));
        assert!(l.uint("n", 9).unwrap_err().to_string().contains("\"5/x\""));
        assert!(l.float("f").is_err(), "1e40 is not a finite f32");
        assert!(l.keyword("vert").is_err());
        assert!(l.uint("n", u64::MAX).is_err(), "over u64");
        let mut l = Lexer::new(b"vert{ 7( -1.5e1)", "md5mesh");
        assert_eq!(l.keyword("vert").unwrap(), 1);
        assert_eq!(l.punct(b'{').unwrap(), 1);
        assert_eq!(l.uint("n", 7).unwrap(), (7, 1));
        assert!(l.punct(b')').is_err());
        let mut l = Lexer::new(b"( -1.5e1)", "md5mesh");
        assert_eq!(
            l.vec3("v").unwrap_err().to_string(),
            "md5mesh line 1: expected v, found `)`"
        );
    }
}
