//! Animations from frame names.
//!
//! MD2 stores no animation list; animations are runs of frames whose names
//! share a prefix (`run1`..`run6`). The standard Quake II player table is
//! recognised as a whole, which names `pain101..pain104` `pain1`, not a
//! generic `pain`.

use super::Md2;
pub use crate::quake::frame_names::Animation;
use crate::quake::frame_names::{group_runs, split_digits};

/// Quake II plays model animations at 10 frames per second.
pub const DEFAULT_FPS: f32 = 10.0;

/// The standard Quake II player animations: name, first frame, frame count
/// (198 frames in all).
pub const PLAYER_ANIMATIONS: [(&str, usize, usize); 20] = [
    ("stand", 0, 40),
    ("run", 40, 6),
    ("attack", 46, 8),
    ("pain1", 54, 4),
    ("pain2", 58, 4),
    ("pain3", 62, 4),
    ("jump", 66, 6),
    ("flip", 72, 12),
    ("salute", 84, 11),
    ("taunt", 95, 17),
    ("wave", 112, 11),
    ("point", 123, 12),
    ("crstnd", 135, 19),
    ("crwalk", 154, 6),
    ("crattak", 160, 9),
    ("crpain", 169, 4),
    ("crdeath", 173, 5),
    ("death1", 178, 6),
    ("death2", 184, 6),
    ("death3", 190, 8),
];

/// Weapon models carry the player table up to `crpain`: 173 frames.
pub const WEAPON_FRAME_COUNT: usize = 173;

/// Number of entries in [`PLAYER_ANIMATIONS`].
const PLAYER_ENTRIES: usize = PLAYER_ANIMATIONS.len();

/// The alphabetic part of a table entry's name (`pain1` → `pain`).
fn table_prefix(name: &str) -> &str {
    split_digits(name).0
}

/// Whether the names follow the standard player table for its first
/// `entries` animations. Frames fall into runs of one name prefix; the runs
/// must start at least wherever the table's prefix changes (`pain1..3`
/// counting as one prefix) and nowhere but at the start of a table entry.
/// Spelling is not compared, so files with `crdeth`, `crattack`,
/// `pain1..pain12` or `pain1_01` all match.
fn matches_player_table(names: &[&str], entries: usize) -> bool {
    let table = &PLAYER_ANIMATIONS[..entries];
    let entry_starts: Vec<usize> = table.iter().map(|e| e.1).collect();
    let prefix_starts: Vec<usize> = table
        .windows(2)
        .filter(|w| table_prefix(w[0].0) != table_prefix(w[1].0))
        .map(|w| w[1].1)
        .collect();
    let run_starts: Vec<usize> = (1..names.len())
        .filter(|&i| split_digits(names[i - 1]).0 != split_digits(names[i]).0)
        .collect();
    prefix_starts.iter().all(|i| run_starts.contains(i))
        && run_starts.iter().all(|i| entry_starts.contains(i))
}

/// Groups frame names into animations.
///
/// - 198 frames that fall into runs of names exactly as the standard
///   player table does (173 for a weapon model) give the table's
///   animations and names (`pain1`, `death2`, `crdeath`, ...), even where
///   the file spells a name differently or numbers `pain1..pain12`
///   straight through.
/// - Otherwise contiguous frames with the same prefix (the name without
///   trailing digits) form an animation. A run is split where its frame
///   number restarts, so `pain101..pain104, pain201..pain204` give `pain1`
///   and `pain2` (the digits before the last two name the part).
/// - Frames whose names are all alike form one animation.
///
/// ```
/// use retromodel::md2::animations_from_names;
/// let names = ["stand01", "stand02", "pain101", "pain102", "pain201", "pain202", "walk1", "walk2"];
/// let anims = animations_from_names(names);
/// let summary: Vec<_> = anims.iter().map(|a| (a.name.as_str(), a.first_frame, a.frame_count)).collect();
/// assert_eq!(summary, [("stand", 0, 2), ("pain1", 2, 2), ("pain2", 4, 2), ("walk", 6, 2)]);
/// ```
pub fn animations_from_names<'a, I>(names: I) -> Vec<Animation>
where
    I: IntoIterator<Item = &'a str>,
{
    let names: Vec<&str> = names.into_iter().collect();
    let table_len = match names.len() {
        198 => Some(PLAYER_ENTRIES),
        WEAPON_FRAME_COUNT => Some(PLAYER_ENTRIES - 4),
        _ => None,
    };
    if let Some(entries) = table_len {
        if matches_player_table(&names, entries) {
            return PLAYER_ANIMATIONS[..entries]
                .iter()
                .map(|&(name, first_frame, frame_count)| Animation {
                    name: name.to_string(),
                    first_frame,
                    frame_count,
                })
                .collect();
        }
    }
    group_runs(&names)
}

impl Md2 {
    /// The model's animations, from its frame names (see
    /// [`animations_from_names`]).
    pub fn animations(&self) -> Vec<Animation> {
        let names: Vec<String> = self
            .frames
            .iter()
            .map(|f| f.name.to_string_lossy())
            .collect();
        animations_from_names(names.iter().map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(names: &[String]) -> Vec<(String, usize, usize)> {
        animations_from_names(names.iter().map(String::as_str))
            .into_iter()
            .map(|a| (a.name, a.first_frame, a.frame_count))
            .collect()
    }

    fn player_names(count: usize) -> Vec<String> {
        let mut names = Vec::new();
        for &(anim, _, n) in &PLAYER_ANIMATIONS[..PLAYER_ENTRIES] {
            let (prefix, digit) = split_digits(anim);
            for k in 1..=n {
                names.push(format!("{prefix}{digit}{k:02}"));
            }
        }
        names.truncate(count);
        names
    }

    #[test]
    fn player_table_is_recognised() {
        let anims = summary(&player_names(198));
        assert_eq!(anims.len(), 20);
        assert_eq!(anims[3], ("pain1".into(), 54, 4));
        assert_eq!(anims[19], ("death3".into(), 190, 8));
        assert_eq!(anims.iter().map(|a| a.2).sum::<usize>(), 198);
    }

    #[test]
    fn table_is_recognised_by_structure_not_spelling() {
        let mut names = player_names(198);
        // Sydney-style: pain and death numbered straight through, a typo.
        for (k, name) in names[54..66].iter_mut().enumerate() {
            *name = format!("pain{}", k + 1);
        }
        for (k, name) in names[178..198].iter_mut().enumerate() {
            *name = format!("death{}", k + 1);
        }
        for (k, name) in names[173..178].iter_mut().enumerate() {
            *name = format!("crdeth{}", k + 1);
        }
        let anims = summary(&names);
        assert_eq!(anims.len(), 20);
        assert_eq!(anims[5], ("pain3".into(), 62, 4));
        assert_eq!(anims[16], ("crdeath".into(), 173, 5));
        // One frame out of place and it is no longer the table.
        names.swap(0, 100);
        assert_ne!(summary(&names).len(), 20);
    }

    #[test]
    fn weapon_table_is_recognised() {
        let anims = summary(&player_names(173));
        assert_eq!(anims.len(), 16);
        assert_eq!(anims[15], ("crpain".into(), 169, 4));
    }

    #[test]
    fn table_with_wrong_names_falls_back_to_runs() {
        let names: Vec<String> = (0..198).map(|i| format!("frame{i}")).collect();
        assert_eq!(summary(&names), [("frame".to_string(), 0, 198)]);
    }

    #[test]
    fn numbers_restart_split_runs() {
        let names: Vec<String> = [
            "attack1", "attack2", "attack1", "attack2", "frame99", "frame100", "frame199",
            "frame200",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            summary(&names),
            [
                ("attack".to_string(), 0, 2),
                ("attack_2".to_string(), 2, 2),
                ("frame".to_string(), 4, 4)
            ]
        );
    }

    #[test]
    fn identical_names_form_one_animation() {
        let names = vec!["FRAME 000......".to_string(); 5];
        assert_eq!(summary(&names), [("FRAME".to_string(), 0, 5)]);
        let names = vec![String::new(); 3];
        assert_eq!(summary(&names), [("frames".to_string(), 0, 3)]);
    }
}
