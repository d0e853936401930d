//! Frame names, as Quake's own models have them: an animation `NAME` of
//! `n` frames is `NAME1` .. `NAMEn` (`run1`..`run8`, `stand1`..`stand9`).
//!
//! A name holds at most 15 bytes of text (16 with the NUL). A reader takes
//! the text before the trailing digits as the animation (`attack2` + `1`
//! would read back as `attack`), so a name cannot end in a digit: a
//! trailing number 1 to 26 becomes its letter, as id's own models name
//! their variants (`death1`, `death2` → `deatha`, `deathb`: id's player
//! has `deatha1`..`deathe9`); other trailing digits and separators are
//! dropped. Characters outside printable ASCII become `_`, an empty name
//! becomes `frame`; a name too long for its numbers is cut; a name
//! another animation already has gets a letter (`runb`, `runc` ...):
//! each change a [`CompileWarning::AnimationRenamed`].

use std::collections::HashSet;

use super::report::CompileWarning;
use crate::mdl::FrameName;

const MAX_TEXT: usize = 15;

fn clean(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
        .collect();
    let stem = mapped.trim_end_matches(|c: char| c.is_ascii_digit());
    let number = &mapped[stem.len()..];
    let stem = stem.trim_end_matches(|c: char| "_-. ".contains(c));
    let letter = number
        .parse::<u8>()
        .ok()
        .filter(|n| (1..=26).contains(n))
        .map(|n| char::from(b'a' + n - 1));
    match letter {
        Some(l) if !stem.is_empty() => format!("{stem}{l}"),
        _ if stem.is_empty() => "frame".to_string(),
        _ => stem.to_string(),
    }
}

/// The names the animations (name, simple frames) are written under.
pub(super) fn animation_names(
    animations: &[(String, usize)],
    warnings: &mut Vec<CompileWarning>,
) -> Vec<String> {
    let mut taken = HashSet::new();
    let mut out = Vec::with_capacity(animations.len());
    for (name, frames) in animations {
        let digits = frames.max(&1).to_string().len();
        let room = MAX_TEXT - digits;
        let base = clean(name);
        let mut reason = if base != *name {
            "frame names carry printable ASCII and no digit before the frame number (a trailing 1 to 26 becomes a to z)"
        } else {
            ""
        };
        let mut chosen: String = base.chars().take(room).collect();
        if chosen.len() < base.len() {
            reason = "too long for 16-byte frame names";
        }
        if taken.contains(&chosen) {
            reason = "another animation has this name";
            let head: String = base.chars().take(room - 1).collect();
            for letter in 'b'..='z' {
                let candidate = format!("{head}{letter}");
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

/// Frame `k` (1-based) of the animation written as `name`.
pub(super) fn frame_name(name: &str, k: usize) -> FrameName {
    FrameName::new(&format!("{name}{k}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_style_names_that_read_back() {
        let mut w = Vec::new();
        let names = animation_names(
            &[
                ("run".into(), 8),
                ("attack2".into(), 3),
                ("death1".into(), 3),
                ("death2".into(), 3),
                ("pose_".into(), 1),
                ("a_very_long_animation_name".into(), 12),
                ("run".into(), 2),
            ],
            &mut w,
        );
        assert_eq!(
            names,
            [
                "run",
                "attackb",
                "deatha",
                "deathb",
                "pose",
                "a_very_long_a",
                "runb"
            ]
        );
        assert_eq!(w.len(), 6);
        assert_eq!(frame_name("run", 8).to_string_lossy(), "run8");
        assert!(format!("{}12", names[2]).len() <= 15);
    }
}
