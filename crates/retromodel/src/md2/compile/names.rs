//! Frame names that group back into the source's animations.
//!
//! MD2 stores no animation list: readers group frames by name
//! ([`animations_from_names`], which follows what Quake II tools do). A
//! frame name holds at most 15 bytes of text (16 with the NUL). The
//! convention written here, for an animation `NAME` of `n` frames:
//!
//! - Frame `k` (1-based) is `NAME` followed by `k` in at least two digits
//!   (`stand01` .. `stand40`; `idle001` .. `idle120` when `n` has three
//!   digits). Frame numbers run on by one, so a reader never splits the
//!   run.
//! - A name that ends in a digit gets `_` before the frame number
//!   (`attack2_01`, `pain1_01`): readers that take the text before the
//!   trailing digits as the animation see `attack2_` (Maverick Model 3D,
//!   three.js), and ours strips the separator and keeps the `2`. (Writing
//!   `attack201` instead, as some tools do, reads back as `attack` with
//!   frame numbers from 201: the bug of Maverick Model 3D's issue #155.)
//! - Characters outside printable ASCII become `_`, separators (`_`, `-`,
//!   `.`, space) at the end of a name are dropped (readers drop them),
//!   an empty name becomes `anim`; each such change is a
//!   [`CompileWarning::AnimationRenamed`].
//! - A name too long for its frame numbers is cut at `15 − digits`
//!   bytes (one fewer when the cut ends in a digit); a name that is then
//!   (or was already) another animation's gets `_2`, `_3` ... (cut
//!   further to fit), so every animation keeps a name of its own.
//! - A one-frame animation is `NAME01`.
//! - Standard player models use id's own names instead
//!   ([`player_frame_names`]: `stand01`, `pain101`, `death308`), which
//!   the reader recognises as the player table by their structure.
//!
//! After naming, the names are grouped back with [`animations_from_names`]
//! and compared with what was meant; any difference is a
//! [`CompileWarning::AnimationsAmbiguous`].

use std::collections::HashSet;

use super::report::CompileWarning;
use crate::md2::{animations_from_names, FrameName, PLAYER_ANIMATIONS};

/// Text bytes a frame name holds (the 16th is the NUL).
const MAX_TEXT: usize = 15;

/// Separators readers strip from the end of a name.
const SEPARATORS: [char; 4] = ['_', ' ', '-', '.'];

/// The width of the frame numbers of an animation of `frames` frames.
fn number_width(frames: usize) -> usize {
    frames.max(1).to_string().len().max(2)
}

/// Printable ASCII only, no trailing separators, never empty.
fn sanitize(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '_' })
        .collect();
    let trimmed = mapped.trim_end_matches(SEPARATORS);
    if trimmed.is_empty() {
        "anim".to_string()
    } else {
        trimmed.to_string()
    }
}

fn ends_with_digit(s: &str) -> bool {
    s.ends_with(|c: char| c.is_ascii_digit())
}

/// `base` cut so that it, a separator when it ends in a digit, and
/// `width` digits fit in a frame name; `None` when nothing fits.
fn fit(base: &str, width: usize) -> Option<String> {
    let mut room = MAX_TEXT.checked_sub(width)?;
    loop {
        // `base` is ASCII, so any cut is at a character boundary.
        let cut = base[..room.min(base.len())].trim_end_matches(SEPARATORS);
        if cut.is_empty() {
            return None;
        }
        let sep = usize::from(ends_with_digit(cut));
        if cut.len() + sep + width <= MAX_TEXT {
            return Some(cut.to_string());
        }
        room -= 1;
    }
}

/// The names the animations are written under, in order: unique, and
/// each fitting its frame names. Renames are added to `warnings`.
pub(crate) fn animation_names(
    animations: &[(String, usize)],
    warnings: &mut Vec<CompileWarning>,
) -> Vec<String> {
    let mut taken = HashSet::new();
    let mut out = Vec::with_capacity(animations.len());
    for (name, frames) in animations {
        let width = number_width(*frames);
        let clean = sanitize(name);
        let mut reason = if clean != *name {
            "frame names carry printable ASCII only and no separator at the end"
        } else {
            ""
        };
        let mut chosen = match fit(&clean, width) {
            Some(c) if c != clean => {
                reason = "too long for 15-byte frame names";
                c
            }
            Some(c) => c,
            None => {
                reason = "cut to fit 15-byte frame names, nothing but separators is left";
                "a".to_string()
            }
        };
        if taken.contains(&chosen) {
            reason = "another animation has this name";
            // At most `animations.len()` names are taken, so one of this
            // many suffixes is free: the search ends, whatever the names.
            for k in 2..animations.len() + 3 {
                let suffix = format!("_{k}");
                let room = width + 1 + suffix.len();
                // A name that leaves nothing when cut (separators first)
                // numbers `a`, as a name that fits nothing does above.
                let Some(head) = fit(&clean, room).or_else(|| fit("a", room)) else {
                    continue;
                };
                let candidate = format!("{head}{suffix}");
                if !taken.contains(&candidate) {
                    chosen = candidate;
                    break;
                }
            }
        }
        if !reason.is_empty() && chosen != *name {
            warnings.push(CompileWarning::AnimationRenamed {
                from: name.clone(),
                to: chosen.clone(),
                reason,
            });
        }
        taken.insert(chosen.clone());
        out.push(chosen);
    }
    out
}

/// The frame names of animation `name` (already from
/// [`animation_names`]) with `frames` frames.
pub(crate) fn frame_names(name: &str, frames: usize) -> Vec<FrameName> {
    let width = number_width(frames);
    let sep = if ends_with_digit(name) { "_" } else { "" };
    (1..=frames)
        .map(|k| FrameName::new(&format!("{name}{sep}{k:0width$}")))
        .collect()
}

/// id's frame names for the standard player table, entry `entry` of
/// [`PLAYER_ANIMATIONS`]: the entry's name and a two-digit frame number
/// (`stand01`, `pain104`, `death308`).
pub(crate) fn player_frame_names(entry: usize) -> Vec<FrameName> {
    let Some(&(name, _, count)) = PLAYER_ANIMATIONS.get(entry) else {
        return Vec::new();
    };
    (1..=count)
        .map(|k| FrameName::new(&format!("{name}{k:02}")))
        .collect()
}

/// Adds a warning when `names` do not group back into `expected`
/// (name, frame count) pairs.
pub(crate) fn check_grouping(
    names: &[FrameName],
    expected: &[(String, usize)],
    warnings: &mut Vec<CompileWarning>,
) {
    let texts: Vec<String> = names.iter().map(FrameName::to_string_lossy).collect();
    let found: Vec<(String, usize)> = animations_from_names(texts.iter().map(String::as_str))
        .into_iter()
        .map(|a| (a.name, a.frame_count))
        .collect();
    if found != expected {
        warnings.push(CompileWarning::AnimationsAmbiguous { found });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_cut_to_nothing_still_get_names_of_their_own() {
        // Cut to fit, these leave only separators: the search for a free
        // `_k` name once went on for ever (found by the MD2 compile fuzz
        // target: a compile that never ended).
        let odd = "______________x".to_string();
        let animations = vec![(odd.clone(), 1), (odd.clone(), 1), (odd, 120)];
        let mut warnings = Vec::new();
        let names = animation_names(&animations, &mut warnings);
        assert_eq!(names, ["a", "a_2", "a_3"]);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
    }

    /// Names the animations, writes their frames, groups them back with
    /// the reader, and returns (written names, what the reader found).
    fn round_trip(anims: &[(&str, usize)]) -> (Vec<String>, Vec<(String, usize)>, usize) {
        let owned: Vec<(String, usize)> = anims.iter().map(|(n, c)| (n.to_string(), *c)).collect();
        let mut warnings = Vec::new();
        let names = animation_names(&owned, &mut warnings);
        let mut frames = Vec::new();
        for (n, (_, c)) in names.iter().zip(&owned) {
            frames.extend(frame_names(n, *c));
        }
        for f in &frames {
            assert!(!f.is_unterminated(), "{f:?} fills 16 bytes");
            assert!(f.as_bytes().len() <= MAX_TEXT);
        }
        let texts: Vec<String> = frames.iter().map(FrameName::to_string_lossy).collect();
        let found = animations_from_names(texts.iter().map(String::as_str))
            .into_iter()
            .map(|a| (a.name, a.frame_count))
            .collect();
        (names, found, warnings.len())
    }

    fn exact(anims: &[(&str, usize)]) {
        let (names, found, warnings) = round_trip(anims);
        let want: Vec<(String, usize)> = anims.iter().map(|(n, c)| (n.to_string(), *c)).collect();
        assert_eq!(found, want, "written as {names:?}");
        assert_eq!(warnings, 0);
    }

    #[test]
    fn plain_names_and_names_ending_in_digits_come_back_exactly() {
        exact(&[("idle", 3), ("attack2", 8), ("pain1", 4), ("walk", 1)]);
        exact(&[("attack2", 8)]);
        exact(&[("pain1", 4), ("pain2", 4), ("pain3", 4)]);
        exact(&[("death10", 12), ("x", 150), ("r2d2", 2)]);
        exact(&[("run_fast", 6), ("run-slow", 6), ("Jump", 2), ("jump", 2)]);
        exact(&[("2", 3), ("_a", 2), ("a_b_1", 5)]);
        exact(&[("abcdefghijklm", 9), ("abcdefghijk1", 1)]);
    }

    #[test]
    fn the_twenty_player_names_as_ordinary_animations() {
        // Not as the 198-frame table: one frame fewer in `stand`.
        let mut anims: Vec<(&str, usize)> =
            PLAYER_ANIMATIONS.iter().map(|&(n, _, c)| (n, c)).collect();
        anims[0].1 = 39;
        exact(&anims);
    }

    #[test]
    fn long_names_are_cut_uniquely_with_a_warning() {
        let anims = [
            ("a_very_long_animation_name", 10),
            ("a_very_long_animation_name_too", 10),
            ("a_very_long_animation_name", 120),
        ];
        let (names, found, warnings) = round_trip(&anims);
        assert_eq!(warnings, 3, "{names:?}");
        let counts: Vec<usize> = found.iter().map(|f| f.1).collect();
        assert_eq!(counts, [10, 10, 120]);
        let found_names: Vec<String> = found.into_iter().map(|f| f.0).collect();
        assert_eq!(found_names, names);
        let unique: HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), 3);
        assert_eq!(names, ["a_very_long_a", "a_very_lon_2", "a_very_long"]);
    }

    #[test]
    fn awkward_names_are_renamed_and_still_come_back_as_renamed() {
        let anims = [("wave_", 3), ("", 2), ("wäve", 2), ("wave", 2)];
        let (names, found, warnings) = round_trip(&anims);
        assert_eq!(warnings, 4, "{names:?}");
        assert_eq!(found.iter().map(|f| f.0.clone()).collect::<Vec<_>>(), names);
        assert_eq!(names, ["wave", "anim", "w_ve", "wave_2"]);
    }

    #[test]
    fn duplicate_names_are_kept_apart() {
        let (names, found, _) = round_trip(&[("run", 6), ("run", 6), ("run_2", 3)]);
        assert_eq!(names, ["run", "run_2", "run_2_2"]);
        assert_eq!(found.len(), 3);
        assert_eq!(found.iter().map(|f| f.0.clone()).collect::<Vec<_>>(), names);
    }

    #[test]
    fn player_names_are_ids() {
        let names = player_frame_names(3);
        assert_eq!(names[0].to_string(), "pain101");
        assert_eq!(names[3].to_string(), "pain104");
        let all: Vec<String> = (0..20)
            .flat_map(player_frame_names)
            .map(|n| n.to_string())
            .collect();
        assert_eq!(all.len(), 198);
        let anims = animations_from_names(all.iter().map(String::as_str));
        let got: Vec<(&str, usize)> = anims
            .iter()
            .map(|a| (a.name.as_str(), a.frame_count))
            .collect();
        let want: Vec<(&str, usize)> = PLAYER_ANIMATIONS.iter().map(|&(n, _, c)| (n, c)).collect();
        assert_eq!(got, want);
    }
}
