//! Levels of detail: the `NAME_lod1.iqm` and `NAME_lod2.iqm` Xonotic
//! draws in place of `NAME.iqm` at a distance, on DarkPlaces, and what
//! must agree between them.
//!
//! DarkPlaces itself loads no LOD files: the game does. Xonotic's
//! `CSQCPlayer_LOD_Apply` (`qcsrc/client/csqcmodel_hooks.qc`; later
//! `CSQCModel_LOD_Apply`) cuts the model's name's last four characters
//! (the `.iqm`: "this only supports 3-letter extensions"), tries
//! `NAME_lod1.EXT` and `NAME_lod2.EXT` with `fexists`, each on its own (a
//! missing level is the model itself), and each frame sets the entity's
//! `modelindex` to the level its distance picks (`cl_playerdetailreduction`,
//! `cl_loddistance1`, `cl_loddistance2`). Nothing else of the entity
//! changes, so the level is drawn with the base model's frame numbers and
//! skeleton object:
//!
//! - a frame number indexes the drawn model's animations (an IQM's frames
//!   in DarkPlaces are its animations, `Mod_INTERQUAKEMODEL_Load`:
//!   `numframes = max(num_anims, 1)`, or its `.framegroups`); one past
//!   the level's count plays its first (`VM_FrameBlendFromFrameGroupBlend`,
//!   `prvm_cmds.c`: "no such frame", `f = 0`), one at the same index but
//!   another animation plays that one;
//! - a skeleton object the game builds for the entity (`skel_create`,
//!   `skeletonindex`: Xonotic's aiming and ragdoll-free bone control) is
//!   applied to the drawn model bone by bone, by index, and only when its
//!   model has as many bones (`VM_UpdateEdictSkeleton`, `prvm_cmds.c`):
//!   with another count the level plays its own frames instead of the
//!   game's pose; with the same count but other bones, the pose lands on
//!   the wrong ones;
//! - attachments look their bone up by name again when the model index
//!   changes (`CSQCModel_AutoTagIndex_Apply`, `gettagindex`): a bone name
//!   the level lacks detaches what hangs from it.
//!
//! None of this makes the engine refuse a level: every problem is a
//! warning.
//!
//! Read at Xonotic's `xonotic-data.pk3dir` commit
//! `29af6ee750b1027a33ef36d3c85ab144d5ddb2ef` (later versions keep the
//! naming; map models' `LODmodel_attach`, `common/mapobjects/subs.qc`,
//! takes its LODs from the map's `lodmodel1`/`lodtarget1` keys instead)
//! and DarkPlaces commit `2f25af65533ac52fc5f1b526316cfb00dec8e28b`.

use super::Iqm;
use crate::problem::{Collector, Problem};

/// The file names Xonotic tries for `name`'s levels of detail, finest
/// first: `name` itself, then `NAME_lod1.EXT` and `NAME_lod2.EXT`, where
/// `.EXT` is the name's last four characters (Xonotic assumes a
/// three-letter extension); a name shorter than that gets the suffix at
/// its end.
///
/// ```
/// use retromodel::iqm::lod_file_names;
/// assert_eq!(
///     lod_file_names("models/player/erebus.iqm"),
///     ["models/player/erebus.iqm", "models/player/erebus_lod1.iqm", "models/player/erebus_lod2.iqm"]
/// );
/// ```
pub fn lod_file_names(name: &str) -> [String; 3] {
    let cut = name
        .char_indices()
        .rev()
        .nth(3)
        .map_or(name.len(), |(i, _)| i);
    let (stem, ext) = name.split_at(cut);
    [
        name.to_string(),
        format!("{stem}_lod1{ext}"),
        format!("{stem}_lod2{ext}"),
    ]
}

/// `frame A` or `frames A..B` (B excluded) in DarkPlaces' numbering.
fn frames(from: usize, to: usize) -> String {
    if to - from == 1 {
        format!("frame {from}")
    } else {
        format!("frames {from}..{}", to - 1)
    }
}

impl Iqm {
    /// The problems of `lod`, level `level` (1 or 2) of this model, as
    /// Xonotic draws it in this model's place on DarkPlaces (its
    /// `CSQCPlayer_LOD_Apply` swaps the model index only): with this
    /// model's frame numbers, which index an IQM's animations in
    /// DarkPlaces (one past the level's count plays its first:
    /// `VM_FrameBlendFromFrameGroupBlend`), and with any skeleton object
    /// the game posed for this model, applied by bone index and only to a
    /// model of as many bones (`VM_UpdateEdictSkeleton`); attachments find
    /// their bone by name. Warnings, as the engine refuses none of it: for
    /// animations other than this model's in count, name, length, rate or
    /// looping, or present in one only, and for joints other than this
    /// model's in count, name or parent, or missing by name. Paths start
    /// `lod{level}.`.
    pub fn check_lod(&self, lod: &Iqm, level: usize) -> Vec<Problem> {
        let mut c = Collector::default();
        let p = format!("lod{level}");

        // Frames: DarkPlaces' frame numbers are the animations.
        let (na, la) = (self.anims.len().max(1), lod.anims.len().max(1));
        if la != na {
            let what = if la < na {
                format!(
                    "{} of LOD 0's {na} play{} this level's first animation instead (DarkPlaces draws a frame past a model's count as frame 0)",
                    frames(la, na),
                    if na - la == 1 { "s" } else { "" }
                )
            } else {
                format!(
                    "its {} never shown (the game plays LOD 0's {na})",
                    frames(na, la) + if la - na == 1 { " is" } else { " are" }
                )
            };
            c.warn(
                // No offset: a `.framegroups` beside the file may have
                // replaced the header's animations.
                format!("{p}.anims"),
                format!(
                    "{} animations but LOD 0 has {}: {what}",
                    lod.anims.len(),
                    self.anims.len()
                ),
                None,
            );
        }
        if self.anims.is_empty() != lod.anims.is_empty() {
            let (none, some) = if lod.anims.is_empty() {
                ("this level", "LOD 0")
            } else {
                ("LOD 0", "this level")
            };
            c.warn(
                format!("{p}.anims"),
                format!("{none} has no animations (its one frame is the bind pose) but {some} has: frame 0 poses one and animates the other"),
                None,
            );
        }
        for (i, (a, b)) in self.anims.iter().zip(&lod.anims).enumerate() {
            let (an, bn) = (self.name(a.name), lod.name(b.name));
            if an != bn {
                c.warn(
                    format!("{p}.anims[{i}].name"),
                    format!("frame {i} plays {bn:?} here but {an:?} in LOD 0: the level changes the animation"),
                    None,
                );
            }
            if a.num_frames != b.num_frames || a.framerate != b.framerate || a.loops() != b.loops()
            {
                c.warn(
                    format!("{p}.anims[{i}]"),
                    format!(
                        "frame {i} ({an:?} in LOD 0) runs {} frames at {} fps{} here but {} at {}{} in LOD 0: the pose jumps when the level changes",
                        b.num_frames,
                        b.framerate,
                        if b.loops() { ", looping" } else { "" },
                        a.num_frames,
                        a.framerate,
                        if a.loops() { ", looping" } else { "" },
                    ),
                    None,
                );
            }
        }

        // Joints: a game-built skeleton is applied by index, when the
        // counts agree; attachments by name.
        let (nj, lj) = (self.joints.len(), lod.joints.len());
        if lj != nj {
            c.warn(
                format!("{p}.header.num_joints"),
                format!(
                    "{lj} joints but LOD 0 has {nj}: a skeleton object the game poses for LOD 0 (skel_create, skeletonindex) is dropped at this level (DarkPlaces applies one only to a model with as many bones) and the level plays its own frames"
                ),
                Some(68),
            );
        } else {
            let differ: Vec<usize> = (0..nj)
                .filter(|&j| {
                    let (a, b) = (&self.joints[j], &lod.joints[j]);
                    self.name(a.name) != lod.name(b.name) || a.parent != b.parent
                })
                .collect();
            if let Some(&first) = differ.first() {
                c.warn(
                    format!("{p}.joints[{first}]"),
                    format!(
                        "{} of its {nj} joints differ from LOD 0's in name or parent (first: {:?} here, {:?} in LOD 0): a skeleton object the game poses for LOD 0 is applied here by index and moves the wrong bones",
                        differ.len(),
                        lod.name(lod.joints[first].name),
                        self.name(self.joints[first].name)
                    ),
                    None,
                );
            }
        }
        let names: std::collections::HashSet<String> =
            lod.joints.iter().map(|j| lod.name(j.name)).collect();
        let missing: Vec<String> = self
            .joints
            .iter()
            .map(|j| self.name(j.name))
            .filter(|n| !names.contains(n))
            .collect();
        if !missing.is_empty() {
            c.warn(
                format!("{p}.joints"),
                format!(
                    "LOD 0's joint{} {} {} missing here: what the game attaches to {} (gettagindex) is lost at this level",
                    if missing.len() == 1 { "" } else { "s" },
                    missing
                        .iter()
                        .take(5)
                        .map(|n| format!("{n:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                        + if missing.len() > 5 { ", …" } else { "" },
                    if missing.len() == 1 { "is" } else { "are" },
                    if missing.len() == 1 { "it" } else { "them" },
                ),
                None,
            );
        }
        c.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::lod_file_names;

    /// Xonotic's rule, `strcat(substring(m, 0, strlen(m) - 4), "_lod1",
    /// substring(m, -4, 4))`, worked by hand.
    #[test]
    fn names_cut_the_last_four_characters() {
        assert_eq!(lod_file_names("a.iqm")[1], "a_lod1.iqm");
        assert_eq!(lod_file_names("a.IQM")[2], "a_lod2.IQM");
        // Not an extension of three letters: still the last four.
        assert_eq!(lod_file_names("model.iqe2")[1], "model._lod1iqe2");
        assert_eq!(lod_file_names("é.iqm")[1], "é_lod1.iqm");
        // Shorter: the suffix at its end.
        assert_eq!(lod_file_names("iqm")[1], "iqm_lod1");
    }
}
