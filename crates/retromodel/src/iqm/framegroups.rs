//! DarkPlaces' `.framegroups` files: animations for a model, beside it as
//! `MODEL.iqm.framegroups` (the model's full file name plus
//! `.framegroups`), which replace the model's own.
//!
//! DarkPlaces loads the file after any model (`model_shared.c`,
//! `Mod_LoadModel`: `FS_LoadFile(va("%s.framegroups", mod->name))`) and
//! parses it in `Mod_FrameGroupify_ParseGroups`: one group a line,
//! `start length [fps] [loop] [name]`, tokens as `COM_ParseToken_Simple`
//! reads them (`//` and `/* */` comments skipped, a quoted string is one
//! token, so a trailing `// name` is a comment and not the name). `start`
//! is 0-based (`atoi`); a line without `length` is skipped ("missing
//! number of frames"); `fps` defaults to 20 (`atof`), `loop` to true
//! (`atoi != 0`), the name to `groupified_N_anim` and keeps 63
//! characters; further tokens are ignored. No group: the file is ignored
//! ("no scene found"). Each group is stored
//! (`Mod_FrameGroupify_ParseGroups_Store`) with its first frame bounded to
//! `0..=poses − 1`, its length to `1..=poses − first`, and its rate to at
//! least 1, where an IQM's `poses` is `max(num_frames, 1)`.
//!
//! Xonotic's `models/player/erebus.iqm.framegroups` begins:
//!
//! ```
//! use retromodel::iqm::parse_framegroups;
//! let (groups, problems) = parse_framegroups(b"0 36 30.000000 0 // dieone\n36 20 25.000000 0 // dietwo\n");
//! assert!(problems.is_empty());
//! assert_eq!(groups.len(), 2);
//! assert_eq!((groups[1].first, groups[1].count, groups[1].fps), (36, 20, 25.0));
//! assert!(!groups[1].looped);
//! assert_eq!(groups[1].name, "groupified_1_anim");
//! ```

use super::{Anim, Iqm, LOOP};
use crate::problem::{Collector, Problem};

/// The largest `.framegroups` read (bigger: ignored, with a warning).
pub const MAX_FRAMEGROUPS_BYTES: usize = 1 << 20;
/// The most groups kept (more: ignored, with a warning).
pub const MAX_FRAMEGROUPS: usize = 65536;
/// The characters of a name DarkPlaces keeps (`char name[64]`).
pub const NAME_CHARS: usize = 63;
/// The rate of a group without one.
pub const DEFAULT_FPS: f32 = 20.0;

/// One line of a `.framegroups` file, as read (before it is fitted to a
/// model).
#[derive(Debug, Clone, PartialEq)]
pub struct FrameGroup {
    /// The first frame (0-based).
    pub first: i64,
    /// How many frames.
    pub count: i64,
    /// Frames per second.
    pub fps: f32,
    /// Whether it loops.
    pub looped: bool,
    /// Its name.
    pub name: String,
}

/// `atoi`: an optional sign and leading digits; anything else is 0.
fn atoi(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = digits
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0i64, |n, d| {
            n.saturating_mul(10).saturating_add(i64::from(d - b'0'))
        });
    if neg {
        -n
    } else {
        n
    }
}

/// `atof`: the longest leading number; 0 when there is none.
fn atof(s: &str) -> f32 {
    let t = s.trim_start();
    (1..=t.len())
        .rev()
        .filter(|&e| t.is_char_boundary(e))
        .find_map(|e| t[..e].parse::<f32>().ok())
        .filter(|v| v.is_finite())
        .unwrap_or(0.0)
}

/// Splits the text into lines of tokens as `COM_ParseToken_Simple` does
/// with comments parsed: `//` to the end of the line and `/* */` skipped,
/// a `"quoted string"` one token.
fn lines(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let (mut line, mut tokens, mut n) = (Vec::new(), String::new(), 1usize);
    let mut chars = text.chars().peekable();
    let flush = |tokens: &mut String, line: &mut Vec<String>| {
        if !tokens.is_empty() {
            line.push(std::mem::take(tokens));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                flush(&mut tokens, &mut line);
                out.push((n, std::mem::take(&mut line)));
                n += 1;
            }
            '/' if chars.peek() == Some(&'/') => {
                flush(&mut tokens, &mut line);
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                flush(&mut tokens, &mut line);
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        n += 1;
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                flush(&mut tokens, &mut line);
                let quoted: String = chars.by_ref().take_while(|&c| c != '"').collect();
                line.push(quoted);
            }
            c if c.is_whitespace() => flush(&mut tokens, &mut line),
            c => tokens.push(c),
        }
    }
    flush(&mut tokens, &mut line);
    out.push((n, line));
    out.retain(|(_, l)| !l.is_empty());
    out
}

/// Reads a `.framegroups` file leniently: the groups, and a warning for
/// each line DarkPlaces skips or reads other than it looks (a number that
/// is not one), for an oversized file or too many groups. Never fails.
pub fn parse_framegroups(text: &[u8]) -> (Vec<FrameGroup>, Vec<Problem>) {
    let mut c = Collector::default();
    let mut groups = Vec::new();
    if text.len() > MAX_FRAMEGROUPS_BYTES {
        c.warn(
            "framegroups",
            format!(
                "{} bytes, more than {MAX_FRAMEGROUPS_BYTES}: not read",
                text.len()
            ),
            None,
        );
        return (groups, c.finish());
    }
    let text = String::from_utf8_lossy(text);
    for (n, tokens) in lines(&text) {
        let path = format!("framegroups.line[{n}]");
        if groups.len() == MAX_FRAMEGROUPS {
            c.warn(
                path,
                format!("more than {MAX_FRAMEGROUPS} groups: the rest are ignored"),
                None,
            );
            break;
        }
        let Some(count) = tokens.get(1) else {
            c.warn(
                path,
                "missing number of frames: DarkPlaces skips the line",
                None,
            );
            continue;
        };
        for (what, t) in [("start", &tokens[0]), ("length", count)] {
            if t.parse::<i64>().is_err() {
                c.warn(
                    path.clone(),
                    format!(
                        "{what} {t:?} is not a whole number: DarkPlaces reads {}",
                        atoi(t)
                    ),
                    None,
                );
            }
        }
        let fps = tokens.get(2).map_or(DEFAULT_FPS, |t| {
            if t.parse::<f32>().is_err() {
                c.warn(
                    path.clone(),
                    format!("fps {t:?} is not a number: DarkPlaces reads {}", atof(t)),
                    None,
                );
            }
            atof(t)
        });
        let looped = tokens.get(3).is_none_or(|t| atoi(t) != 0);
        let name = match tokens.get(4) {
            Some(t) => {
                let kept: String = t.chars().take(NAME_CHARS).collect();
                if kept.len() < t.len() {
                    c.warn(
                        path,
                        format!(
                            "name longer than {NAME_CHARS} characters: DarkPlaces keeps {kept:?}"
                        ),
                        None,
                    );
                }
                kept
            }
            None => format!("groupified_{}_anim", groups.len()),
        };
        groups.push(FrameGroup {
            first: atoi(&tokens[0]),
            count: atoi(count),
            fps,
            looped,
            name,
        });
    }
    (groups, c.finish())
}

impl Iqm {
    /// Replaces the model's animations with a `.framegroups` file's
    /// groups, as DarkPlaces does: each group's first frame bounded to the
    /// model's frames, its length to at least 1 and at most what is left,
    /// its rate to at least 1. Returns warnings (never fails): lines
    /// DarkPlaces skips, values it bounds; with no group at all, one
    /// warning, and the model's animations stay.
    ///
    /// ```
    /// let mut model = retromodel::iqm::sample::sample_model();
    /// let problems = model.apply_framegroups(b"0 2 10 1 wave2\n");
    /// assert!(problems.is_empty(), "{problems:?}");
    /// assert_eq!(model.name(model.anims[0].name), "wave2");
    /// assert_eq!(model.anims[0].framerate, 10.0);
    /// ```
    pub fn apply_framegroups(&mut self, text: &[u8]) -> Vec<Problem> {
        let (groups, mut problems) = parse_framegroups(text);
        if groups.is_empty() {
            problems.push(Problem {
                severity: crate::Severity::Warning,
                path: "framegroups".into(),
                message:
                    "no group in the file: DarkPlaces ignores it (the model's own animations stay)"
                        .into(),
                offset: None,
            });
            return problems;
        }
        let poses = i64::from(self.num_frames.max(1));
        let mut anims = Vec::with_capacity(groups.len());
        for (i, g) in groups.iter().enumerate() {
            let first = g.first.clamp(0, poses - 1);
            let count = g.count.clamp(1, poses - first);
            if (first, count) != (g.first, g.count) {
                problems.push(Problem {
                    severity: crate::Severity::Warning,
                    path: format!("framegroups[{i}]"),
                    message: format!(
                        "frames {}..{} do not fit the model's {poses}: DarkPlaces plays {first}..{}",
                        g.first,
                        g.first.saturating_add(g.count),
                        first + count
                    ),
                    offset: None,
                });
            }
            let name = self.intern(&g.name);
            anims.push(Anim {
                name,
                first_frame: first as u32,
                num_frames: count as u32,
                framerate: g.fps.max(1.0),
                flags: if g.looped { LOOP } else { 0 },
            });
        }
        self.anims = anims;
        problems
    }
}
