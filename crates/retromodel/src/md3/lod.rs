//! Levels of detail: the files ioquake3 loads beside a model
//! (`head.md3`, `head_1.md3`, `head_2.md3`) and what it requires of them.
//!
//! ioquake3's `R_RegisterMD3` (`code/renderergl1/tr_model.c`, the same in
//! renderergl2) cuts the name at its **first** `.`, then tries
//! `NAME_2.EXT`, `NAME_1.EXT` and `NAME.EXT` (`MD3_MAX_LODS` 3), from the
//! coarsest; a LOD that fails to load stops the search, and the levels
//! not loaded reuse the next coarser one. `R_AddMD3Surfaces`
//! (`tr_mesh.c`) checks the entity's frame against LOD 0's frame count and
//! then draws the chosen LOD's surfaces at that frame, so a LOD with
//! fewer frames is read past its end; `R_LerpTag` (`tr_animation.c`)
//! takes tags from LOD 0 only.

use super::Md3;
use crate::problem::{Collector, Problem};

/// The file names ioquake3 tries for `name`'s levels of detail, finest
/// first: `name` itself, then `NAME_1.EXT` and `NAME_2.EXT`, where `NAME`
/// is what comes before the first `.` and `EXT` what follows it (`md3`
/// when there is no `.`).
///
/// ```
/// use retromodel::md3::lod_file_names;
/// assert_eq!(
///     lod_file_names("models/players/sarge/head.md3"),
///     ["models/players/sarge/head.md3", "models/players/sarge/head_1.md3", "models/players/sarge/head_2.md3"]
/// );
/// ```
pub fn lod_file_names(name: &str) -> [String; 3] {
    let (stem, ext) = name.split_once('.').unwrap_or((name, "md3"));
    [
        format!("{stem}.{ext}"),
        format!("{stem}_1.{ext}"),
        format!("{stem}_2.{ext}"),
    ]
}

impl Md3 {
    /// The problems of `lod`, level `level` (1 or 2) of this model, as
    /// ioquake3 draws it in this model's place. ioquake3 loads a LOD
    /// whatever its frame count (`R_LoadMD3` compares no LOD with another),
    /// so a frame count other than this model's is a warning, naming the
    /// frames drawn past a shorter LOD's end (`R_AddMD3Surfaces` checks the
    /// frame against LOD 0's count only) or never shown of a longer one;
    /// each of its surfaces' frame counts likewise; tag names that differ
    /// from this model's (in any order) are a warning too (the engine uses
    /// LOD 0's). Paths start `lod{level}.`.
    pub fn check_lod(&self, lod: &Md3, level: usize) -> Vec<Problem> {
        let mut c = Collector::default();
        let p = format!("lod{level}");
        let (nf, lf) = (self.frames.len(), lod.frames.len());
        let past = |have: usize| -> String {
            match have.cmp(&nf) {
                std::cmp::Ordering::Less => format!(
                    "frames {have}..{} of LOD 0's {nf} are drawn past this level's end (ioquake3 loads it, checks the frame against LOD 0 only and reads beyond the file's frames: garbage or a crash at a distance)",
                    nf - 1
                ),
                _ => format!(
                    "its frames {nf}..{} are never shown (ioquake3 plays LOD 0's {nf})",
                    have.saturating_sub(1)
                ),
            }
        };
        if lf != nf {
            c.warn(
                format!("{p}.header.num_frames"),
                format!("{lf} frames but LOD 0 has {nf}: {}", past(lf)),
                Some(76),
            );
        }
        for ((i, s), start) in lod.surfaces.iter().enumerate().zip(lod.surface_starts()) {
            let have = usize::try_from(s.num_frames).unwrap_or(0);
            if have != nf {
                c.warn(
                    format!("{p}.surfaces[{i}].num_frames"),
                    format!("{} frames but LOD 0 has {nf}: {}", s.num_frames, past(have)),
                    start.map(|b| b + 72),
                );
            }
        }
        // Tags are looked up by name: their order does not matter.
        let names = |m: &Md3| -> Vec<Vec<u8>> {
            let mut v: Vec<Vec<u8>> = m
                .frame_tags(0)
                .unwrap_or(&[])
                .iter()
                .map(|t| t.name.as_bytes().to_vec())
                .collect();
            v.sort();
            v
        };
        if names(lod) != names(self) {
            c.warn(
                format!("{p}.tags"),
                "tags differ from LOD 0's: ioquake3 attaches by LOD 0's tags",
                Some(80),
            );
        }
        c.finish()
    }
}
