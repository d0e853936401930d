//! Quake's player frame table: the 143 frames of id's `progs/player.mdl`
//! in the order its QuakeC numbers them (`player: true`).
//!
//! The entries are the `$frame` lines of id's `player.qc` (QuakeWorld's
//! `QW/progs/player.qc` in id-Software/Quake, the same list as the
//! single-player progs): `axrun1`..`axrun6`, `rockrun1`..`rockrun6`,
//! `stand1`..`stand5`, ... `axattd1`..`axattd6`. QuakeC selects frames by
//! these numbers (`player_run` is `$rockrun1`, frame 6), so a replacement
//! player must keep every one in place.
//!
//! An entry takes the scene animation of its name (ASCII
//! case-insensitive), else of an alias (in this order): `idle` →
//! `stand`; `run`, then `walk` → `rockrun`; `death`, `death1` → `deatha`; `death2`..`death5` →
//! `deathb`..`deathe`; `pain1` → `pain`; `attack`, `shoot` → `shotatt`.
//! An entry the scene lacks shows its sibling's animation where the scene
//! has that: the axe's `axrun`, `axstnd`, `axpain`, `axdeth` the
//! `rockrun`, `stand`, `pain`, `deatha` ones; `deathb`..`deathe`
//! `deatha`; `nailatt`, `light`, `rockatt` `shotatt`; `axattb`..`axattd`
//! `axatt`. Otherwise it shows the first pose of `stand` (or the rest
//! pose). Every fill and every scene animation left out is a warning.

use super::report::CompileWarning;
use crate::bake::plan::Plan;
use crate::bake::table::FrameTable;
use crate::scene::Scene;

/// The entries of Quake's player table: animation name and frame count,
/// in frame order (the `$frame` lines of id's `player.qc`).
pub const PLAYER_FRAMES: [(&str, usize); 20] = [
    ("axrun", 6),
    ("rockrun", 6),
    ("stand", 5),
    ("axstnd", 12),
    ("axpain", 6),
    ("pain", 6),
    ("axdeth", 9),
    ("deatha", 11),
    ("deathb", 9),
    ("deathc", 15),
    ("deathd", 9),
    ("deathe", 9),
    ("nailatt", 2),
    ("light", 2),
    ("rockatt", 6),
    ("shotatt", 6),
    ("axatt", 6),
    ("axattb", 6),
    ("axattc", 6),
    ("axattd", 6),
];

/// A Quake player's height in Quake units: the box the game gives a
/// player runs from −24 to 32 in Z (`VEC_HULL_MIN`, `VEC_HULL_MAX` in
/// id's `defs.qc`).
pub const PLAYER_HEIGHT: f32 = 56.0;

/// The heights a player model may have without a
/// [`CompileWarning::PlayerSize`]: half to twice [`PLAYER_HEIGHT`] (a
/// death lies lower than the box, a jump reaches higher; a model outside
/// this range is in other units, such as a Blender scene in metres).
pub const PLAYER_HEIGHT_RANGE: std::ops::RangeInclusive<f32> =
    (PLAYER_HEIGHT / 2.0)..=(PLAYER_HEIGHT * 2.0);

const TABLE: FrameTable<'static, &str> = FrameTable {
    entries: &PLAYER_FRAMES,
    aliases: &[
        ("idle", "stand"),
        ("run", "rockrun"),
        ("walk", "rockrun"),
        ("death", "deatha"),
        ("death1", "deatha"),
        ("death2", "deathb"),
        ("death3", "deathc"),
        ("death4", "deathd"),
        ("death5", "deathe"),
        ("pain1", "pain"),
        ("attack", "shotatt"),
        ("shoot", "shotatt"),
    ],
    fallbacks: &[
        ("axrun", "rockrun"),
        ("axstnd", "stand"),
        ("axpain", "pain"),
        ("axdeth", "deatha"),
        ("deathb", "deatha"),
        ("deathc", "deatha"),
        ("deathd", "deatha"),
        ("deathe", "deatha"),
        ("nailatt", "shotatt"),
        ("light", "shotatt"),
        ("rockatt", "shotatt"),
        ("axattb", "axatt"),
        ("axattc", "axatt"),
        ("axattd", "axatt"),
    ],
    rest_entry: "stand",
};

/// The 143 frames of the player table filled from `scene`, and its
/// warnings (see the module documentation).
pub(super) fn player_plan(scene: &Scene, warnings: &mut Vec<CompileWarning>) -> Plan {
    super::table::table_plan(scene, &TABLE, "the player table", warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_143_frames() {
        assert_eq!(PLAYER_FRAMES.iter().map(|e| e.1).sum::<usize>(), 143);
        let (plan, _) = TABLE.plan(&Scene::default());
        assert_eq!(plan.frame_count(), 143);
    }
}
