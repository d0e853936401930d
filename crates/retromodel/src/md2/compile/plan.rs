//! Which poses become frames: the chosen animations sampled at `fps` (see
//! the shared `bake::plan`), or the standard player table filled from
//! them.
//!
//! # The player table
//!
//! With `player: true` the frames are the 198 of
//! [`PLAYER_ANIMATIONS`], in its order. Each entry takes the scene
//! animation of the same name (ASCII case-insensitive), else one of these
//! aliases: `idle` → `stand`; `pain` → `pain1`; `death` → `death1`;
//! `crouch`, `crouch_idle`, `crouch_stand` → `crstnd`; `crouch_walk`,
//! `crouch_run` → `crwalk`; `crattack`, `crouch_attack` → `crattak`; `crouch_pain` →
//! `crpain`; `crdeth`, `crouch_death` → `crdeath` (exact names before aliases, aliases in this
//! order). Its `N` frames are the
//! clip resampled evenly over its duration, first and last pose included
//! (`tⱼ = j · D / (N − 1)`). An entry the scene lacks is filled with the
//! first pose of `stand` (or the rest pose when `stand` is missing too),
//! with a warning; scene animations no entry takes are left out, with a
//! warning.

use super::report::CompileWarning;
use crate::bake::table::{Fill, FrameTable, TableNote};
use crate::md2::PLAYER_ANIMATIONS;
use crate::scene::Scene;

pub(crate) use crate::bake::plan::{animations_plan, Plan};

/// The entries of the player table: name and frame count.
const ENTRIES: [(&str, usize); PLAYER_ANIMATIONS.len()] = {
    let mut out = [("", 0); PLAYER_ANIMATIONS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = (PLAYER_ANIMATIONS[i].0, PLAYER_ANIMATIONS[i].2);
        i += 1;
    }
    out
};

/// The player table with its aliases (see the module documentation).
const TABLE: FrameTable<'static, &str> = FrameTable {
    entries: &ENTRIES,
    aliases: &[
        ("idle", "stand"),
        ("pain", "pain1"),
        ("death", "death1"),
        ("crouch", "crstnd"),
        ("crouch_idle", "crstnd"),
        ("crouch_stand", "crstnd"),
        ("crouch_walk", "crwalk"),
        ("crattack", "crattak"),
        ("crouch_attack", "crattak"),
        ("crouch_pain", "crpain"),
        ("crdeth", "crdeath"),
        ("crouch_death", "crdeath"),
        ("crouch_run", "crwalk"),
    ],
    fallbacks: &[],
    rest_entry: "stand",
};

/// The 198 frames of the standard player table (see the module
/// documentation).
pub(crate) fn player_plan(scene: &Scene, warnings: &mut Vec<CompileWarning>) -> Plan {
    let (plan, notes) = TABLE.plan(scene);
    for note in notes {
        warnings.push(match note {
            TableNote::Missing { entry, fill } => CompileWarning::PlayerAnimationMissing {
                name: ENTRIES[entry].0,
                filled_with: match fill {
                    Fill::RestPose => "the rest pose",
                    // The table has no fallbacks.
                    Fill::RestEntryFirstPose | Fill::Entry(_) => "the first pose of stand",
                },
            },
            TableNote::Unused { name } => CompileWarning::PlayerAnimationUnused { name },
        });
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Animation, Channel, Interpolation, Target};

    fn anim(name: &str, duration: f32) -> Animation {
        Animation {
            name: name.into(),
            channels: vec![Channel {
                target: Target::Translation { node: 0 },
                interpolation: Interpolation::Linear,
                times: vec![0.0, duration],
                values: vec![0.0; 6],
            }],
            extras: serde_json::Value::Null,
        }
    }

    #[test]
    fn player_table_matches_names_aliases_and_fills_the_rest() {
        let scene = Scene {
            animations: vec![
                anim("Idle", 3.9),
                anim("RUN", 1.0),
                anim("dance", 2.0),
                anim("crouch_walk", 0.5),
            ],
            ..Scene::default()
        };
        let mut warnings = Vec::new();
        let plan = player_plan(&scene, &mut warnings);
        assert_eq!(plan.frame_count(), 198);
        assert_eq!(plan.groups[0].source, "Idle");
        assert_eq!(plan.groups[1].source, "RUN");
        assert_eq!(plan.groups[13].source, "crouch_walk");
        // run: 6 frames evenly over 1 s, first and last included.
        let times: Vec<f32> = plan.groups[1].poses.iter().map(|p| p.time).collect();
        assert_eq!(times, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        // attack is missing: the first pose of stand.
        assert!(plan.groups[2]
            .poses
            .iter()
            .all(|p| p.animation == Some(0) && p.time == 0.0));
        let missing = warnings
            .iter()
            .filter(|w| matches!(w, CompileWarning::PlayerAnimationMissing { .. }))
            .count();
        assert_eq!(missing, 17);
        assert!(warnings.contains(&CompileWarning::PlayerAnimationUnused {
            name: "dance".into()
        }));
    }
}
