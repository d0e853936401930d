//! Quake III player `animation.cfg` files: the frames, looping frames and
//! frame rate of each of a player model's animations, and the optional
//! `sex`, `headoffset`, `footsteps`, `fixedlegs` and `fixedtorso` lines
//! before them.
//!
//! Read as ioquake3's `CG_ParseAnimationFile` (`code/cgame/cg_players.c`)
//! reads it: whitespace-separated tokens with `//` and `/* */` comments
//! skipped; keywords until the first token that starts with a digit; then
//! four numbers (`first num looping fps`) per animation in the order of
//! `animNumber_t` (`code/game/bg_public.h`): the 25 of [`ANIMATION_NAMES`]
//! from `BOTH_DEATH1` to `LEGS_TURN`, and optionally the six Team Arena
//! `TORSO_GETFLAG` .. `TORSO_NEGATIVE` (missing ones play `TORSO_GESTURE`).
//! A negative frame count plays the animation reversed.
//!
//! Frame numbers count the frames of `upper.md3` and `lower.md3` as one
//! sequence (both, then torso, then legs), but `lower.md3` holds no torso
//! frames: `CG_ParseAnimationFile` takes `skip = first(LEGS_WALKCR) -
//! first(TORSO_GESTURE)` off every `LEGS_` animation's first frame
//! ([`AnimationCfg::first_frame_in_part`]).
//!
//! ```
//! use retromodel::md3::{AnimationCfg, Part};
//!
//! let mut text = String::from("sex f\nheadoffset 0 0 0\nfootsteps boot\n");
//! for i in 0..25 {
//!     text.push_str(&format!("{} 2 0 15 // {i}\n", i * 2));
//! }
//! let cfg = AnimationCfg::parse(text.as_bytes())?;
//! assert_eq!(cfg.sex, Some('f'));
//! assert_eq!(cfg.animations.len(), 25);
//! assert_eq!(cfg.animations[13].name, "LEGS_WALKCR");
//! assert_eq!(cfg.animations[13].part(), Part::Legs);
//! // LEGS_WALKCR is written at 26; TORSO_GESTURE at 12: 14 torso frames
//! // are not in lower.md3.
//! assert_eq!(cfg.first_frame_in_part(13), Some(12));
//! # Ok::<(), retromodel::Error>(())
//! ```

/// The animations of `animNumber_t` in file order (ioquake3
/// `code/game/bg_public.h`): 25 in every Quake III player, then Team
/// Arena's six optional ones.
pub const ANIMATION_NAMES: [&str; 31] = [
    "BOTH_DEATH1",
    "BOTH_DEAD1",
    "BOTH_DEATH2",
    "BOTH_DEAD2",
    "BOTH_DEATH3",
    "BOTH_DEAD3",
    "TORSO_GESTURE",
    "TORSO_ATTACK",
    "TORSO_ATTACK2",
    "TORSO_DROP",
    "TORSO_RAISE",
    "TORSO_STAND",
    "TORSO_STAND2",
    "LEGS_WALKCR",
    "LEGS_WALK",
    "LEGS_RUN",
    "LEGS_BACK",
    "LEGS_SWIM",
    "LEGS_JUMP",
    "LEGS_LAND",
    "LEGS_JUMPB",
    "LEGS_LANDB",
    "LEGS_IDLE",
    "LEGS_IDLECR",
    "LEGS_TURN",
    "TORSO_GETFLAG",
    "TORSO_GUARDBASE",
    "TORSO_PATROL",
    "TORSO_FOLLOWME",
    "TORSO_AFFIRMATIVE",
    "TORSO_NEGATIVE",
];

/// How many animations every `animation.cfg` has (`BOTH_DEATH1` ..
/// `LEGS_TURN`).
pub const REQUIRED_ANIMATIONS: usize = 25;

/// Index of `TORSO_GESTURE` in [`ANIMATION_NAMES`].
const TORSO_GESTURE: usize = 6;
/// Index of `LEGS_WALKCR` in [`ANIMATION_NAMES`].
const LEGS_WALKCR: usize = 13;
/// Index of `TORSO_GETFLAG` in [`ANIMATION_NAMES`].
const TORSO_GETFLAG: usize = 25;

/// The longest file read (`CG_ParseAnimationFile`'s buffer is 20000
/// bytes and it refuses a file that does not fit).
pub const MAX_ANIMATION_CFG_BYTES: usize = 19_999;

/// Which part of a player an animation moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// `BOTH_`: the legs and the torso (frames in both files).
    Both,
    /// `TORSO_`: `upper.md3`.
    Torso,
    /// `LEGS_`: `lower.md3`.
    Legs,
}

/// One animation's line.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CfgAnimation {
    /// Its name from [`ANIMATION_NAMES`].
    pub name: &'static str,
    /// The first frame as written (in the joint numbering; see
    /// [`AnimationCfg::first_frame_in_part`]).
    pub first_frame: i32,
    /// The frame count as written (negative: played reversed).
    pub num_frames: i32,
    /// How many frames at the end loop (0: the last frame holds).
    pub looping_frames: i32,
    /// Frames per second (0 is read as 1, as the game does).
    pub fps: f32,
    /// The line of its first number (1-based).
    pub line: usize,
}

impl CfgAnimation {
    /// The number of frames (the absolute value of [`num_frames`](Self::num_frames)).
    pub fn frame_count(&self) -> u32 {
        self.num_frames.unsigned_abs()
    }

    /// Whether the frames play backwards (a negative count).
    pub fn reversed(&self) -> bool {
        self.num_frames < 0
    }

    /// The frame rate the game uses (`1` for 0).
    pub fn effective_fps(&self) -> f32 {
        if self.fps == 0.0 {
            1.0
        } else {
            self.fps
        }
    }

    /// The part it moves, from its name.
    pub fn part(&self) -> Part {
        if self.name.starts_with("BOTH_") {
            Part::Both
        } else if self.name.starts_with("LEGS_") {
            Part::Legs
        } else {
            Part::Torso
        }
    }
}

/// A parsed `animation.cfg` ([`AnimationCfg::parse`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimationCfg {
    /// `sex m|f|n`: the first letter, lower case (the game reads only it).
    pub sex: Option<char>,
    /// `headoffset x y z`.
    pub head_offset: Option<[f32; 3]>,
    /// `footsteps default|normal|boot|flesh|mech|energy`, as written.
    pub footsteps: Option<String>,
    /// `fixedlegs` was there.
    pub fixed_legs: bool,
    /// `fixedtorso` was there.
    pub fixed_torso: bool,
    /// The animations, in file order (25 to 31).
    pub animations: Vec<CfgAnimation>,
    /// Tokens the game would pass over with a message ("unknown token"),
    /// with their lines.
    pub unknown: Vec<(usize, String)>,
}

impl AnimationCfg {
    /// Parses an `animation.cfg`. Fails, naming the line, where a number
    /// is expected and something else is there, when fewer than 25
    /// animations are complete, on more than 31, and on a file over
    /// [`MAX_ANIMATION_CFG_BYTES`] (which the game refuses).
    pub fn parse(bytes: &[u8]) -> crate::Result<AnimationCfg> {
        if bytes.len() > MAX_ANIMATION_CFG_BYTES {
            return Err(invalid(
                0,
                0,
                format!(
                    "{} bytes: the game reads at most {MAX_ANIMATION_CFG_BYTES}",
                    bytes.len()
                ),
            ));
        }
        let tokens = tokens(bytes);
        let mut cfg = AnimationCfg::default();
        let mut i = 0;
        while let Some(t) = tokens.get(i) {
            if t.text.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                break;
            }
            i += 1;
            let next = |i: usize| tokens.get(i);
            match t.text.to_ascii_lowercase().as_str() {
                "footsteps" => {
                    cfg.footsteps = next(i).map(|t| t.text.clone());
                    i += 1;
                }
                "headoffset" => {
                    let mut v = [0.0f32; 3];
                    for c in &mut v {
                        if let Some(t) = next(i) {
                            *c = number(t)?;
                            i += 1;
                        }
                    }
                    cfg.head_offset = Some(v);
                }
                "sex" => {
                    cfg.sex = next(i)
                        .and_then(|t| t.text.chars().next())
                        .map(|c| c.to_ascii_lowercase());
                    i += 1;
                }
                "fixedlegs" => cfg.fixed_legs = true,
                "fixedtorso" => cfg.fixed_torso = true,
                _ => cfg.unknown.push((t.line, t.text.clone())),
            }
        }
        let rest = tokens.get(i..).unwrap_or(&[]);
        for (k, chunk) in rest.chunks(4).enumerate() {
            let Some(&name) = ANIMATION_NAMES.get(k) else {
                return Err(invalid(
                    chunk[0].line,
                    chunk[0].offset,
                    format!("more than {} animations", ANIMATION_NAMES.len()),
                ));
            };
            let [first, num, looping, fps] = chunk else {
                let last = &chunk[chunk.len() - 1];
                return Err(invalid(
                    last.line,
                    last.offset,
                    format!(
                        "{name} needs four numbers (first num looping fps), found {}",
                        chunk.len()
                    ),
                ));
            };
            cfg.animations.push(CfgAnimation {
                name,
                first_frame: integer(first)?,
                num_frames: integer(num)?,
                looping_frames: integer(looping)?,
                fps: number(fps)?,
                line: first.line,
            });
        }
        if cfg.animations.len() < REQUIRED_ANIMATIONS {
            let (line, offset) = tokens.last().map_or((1, 0), |t| (t.line, t.offset));
            return Err(invalid(
                line,
                offset,
                format!(
                    "{} animations, the game needs {REQUIRED_ANIMATIONS} (BOTH_DEATH1 .. LEGS_TURN); {} is missing",
                    cfg.animations.len(),
                    ANIMATION_NAMES[cfg.animations.len()]
                ),
            ));
        }
        Ok(cfg)
    }

    /// The file's text, as Quake III's tools write it: the keyword lines
    /// (`sex`, `headoffset`, `footsteps`, `fixedlegs`, `fixedtorso`, those
    /// that are set), then one `first num looping fps` line per animation
    /// with its name in a comment. [`AnimationCfg::parse`] reads it back
    /// to the same values (line numbers aside; unknown tokens are not
    /// written).
    ///
    /// ```
    /// use retromodel::md3::AnimationCfg;
    ///
    /// let mut text = String::from("sex m\nfootsteps boot\n");
    /// for i in 0..25 {
    ///     text.push_str(&format!("{} 1 0 15\n", i));
    /// }
    /// let cfg = AnimationCfg::parse(text.as_bytes())?;
    /// let written = cfg.to_text();
    /// assert!(written.contains("0\t1\t0\t15\t\t// BOTH_DEATH1\n"));
    /// let again = AnimationCfg::parse(written.as_bytes())?;
    /// assert_eq!(again.sex, Some('m'));
    /// assert_eq!(again.animations.len(), 25);
    /// assert_eq!(again.animations[24].first_frame, 24);
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        if let Some(sex) = self.sex {
            let _ = writeln!(out, "sex {sex}");
        }
        if let Some([x, y, z]) = self.head_offset {
            let _ = writeln!(out, "headoffset {x} {y} {z}");
        }
        if let Some(f) = self.footsteps.as_deref().filter(|f| !f.is_empty()) {
            // One token: COM_Parse would split a name with spaces.
            let f: String = f.chars().filter(|c| c.is_ascii_graphic()).collect();
            let _ = writeln!(out, "footsteps {f}");
        }
        if self.fixed_legs {
            out.push_str("fixedlegs\n");
        }
        if self.fixed_torso {
            out.push_str("fixedtorso\n");
        }
        if !out.is_empty() {
            out.push('\n');
        }
        for a in &self.animations {
            let _ = writeln!(
                out,
                "{}\t{}\t{}\t{}\t\t// {}",
                a.first_frame, a.num_frames, a.looping_frames, a.fps, a.name
            );
        }
        out
    }

    /// How many frames `lower.md3` lacks before its `LEGS_` frames (the
    /// torso's): `first(LEGS_WALKCR) - first(TORSO_GESTURE)`.
    pub fn legs_skip(&self) -> i64 {
        let first = |i: usize| {
            self.animations
                .get(i)
                .map_or(0, |a| i64::from(a.first_frame))
        };
        first(LEGS_WALKCR) - first(TORSO_GESTURE)
    }

    /// The first frame of animation `index` in the file of the part it
    /// moves: as written for `BOTH_` and `TORSO_` animations, less
    /// [`legs_skip`](Self::legs_skip) for `LEGS_` ones (as
    /// `CG_ParseAnimationFile` does for `LEGS_WALKCR` .. `LEGS_TURN`).
    pub fn first_frame_in_part(&self, index: usize) -> Option<i64> {
        let a = self.animations.get(index)?;
        let first = i64::from(a.first_frame);
        Some(if (LEGS_WALKCR..TORSO_GETFLAG).contains(&index) {
            first - self.legs_skip()
        } else {
            first
        })
    }
}

struct Token {
    text: String,
    line: usize,
    offset: u64,
}

/// `COM_Parse`'s tokens: whitespace-separated, `//` and `/* */` comments
/// skipped, `"quoted strings"` one token.
fn tokens(bytes: &[u8]) -> Vec<Token> {
    let mut out = Vec::new();
    let (mut i, mut line) = (0usize, 1usize);
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c <= b' ' {
            i += 1;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                line += usize::from(bytes[i] == b'\n');
                i += 1;
            }
            i += 2;
        } else {
            let start = i;
            let quoted = c == b'"';
            if quoted {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += 1;
                }
                let text = String::from_utf8_lossy(&bytes[start + 1..i.min(bytes.len())]);
                out.push(Token {
                    text: text.into_owned(),
                    line,
                    offset: start as u64,
                });
                i += 1;
            } else {
                while i < bytes.len() && bytes[i] > b' ' {
                    i += 1;
                }
                out.push(Token {
                    text: String::from_utf8_lossy(&bytes[start..i]).into_owned(),
                    line,
                    offset: start as u64,
                });
            }
        }
    }
    out
}

fn integer(t: &Token) -> crate::Result<i32> {
    t.text.parse().map_err(|_| {
        invalid(
            t.line,
            t.offset,
            format!("expected a whole number, found {:?}", t.text),
        )
    })
}

fn number(t: &Token) -> crate::Result<f32> {
    t.text
        .parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            invalid(
                t.line,
                t.offset,
                format!("expected a number, found {:?}", t.text),
            )
        })
}

fn invalid(line: usize, offset: u64, message: String) -> crate::Error {
    crate::Error::Invalid {
        context: format!("animation.cfg line {line}"),
        message,
        offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg_text(n: usize) -> String {
        let mut t = String::from("/* made\n by hand */ sex m fixedtorso\n");
        for i in 0..n {
            t.push_str(&format!(
                "{} {} 0 20\n",
                i * 3,
                if i == 14 { -3 } else { 3 }
            ));
        }
        t
    }

    #[test]
    fn keywords_counts_and_errors() {
        let cfg = AnimationCfg::parse(cfg_text(31).as_bytes()).unwrap();
        assert_eq!(cfg.animations.len(), 31);
        assert!(cfg.fixed_torso && !cfg.fixed_legs);
        assert_eq!(cfg.animations[0].line, 3);
        assert!(cfg.animations[14].reversed());
        assert_eq!(cfg.animations[14].frame_count(), 3);
        assert_eq!(cfg.legs_skip(), 13 * 3 - 6 * 3);
        assert_eq!(cfg.first_frame_in_part(25), Some(75));
        let e = AnimationCfg::parse(cfg_text(24).as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 26") && e.contains("LEGS_TURN"), "{e}");
        let e = AnimationCfg::parse(cfg_text(32).as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 34"), "{e}");
        let bad = cfg_text(25).replace("9 3 0 20", "9 x 0 20");
        let e = AnimationCfg::parse(bad.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("line 6") && e.contains("\"x\""), "{e}");
    }
}
