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
//! `crpain`; `crdeth`, `crouch_death` → `crdeath` (the first match in
//! scene order wins; exact names before aliases). Its `N` frames are the
//! clip resampled evenly over its duration, first and last pose included
//! (`tⱼ = j · D / (N − 1)`). An entry the scene lacks is filled with the
//! first pose of `stand` (or the rest pose when `stand` is missing too),
//! with a warning; scene animations no entry takes are left out, with a
//! warning.

use super::report::CompileWarning;
use crate::md2::PLAYER_ANIMATIONS;
use crate::scene::Scene;

use crate::bake::plan::resample_times;
pub(crate) use crate::bake::plan::{animations_plan, FramePose, Group, Plan};

/// The aliases of the player table (see the module documentation).
const ALIASES: [(&str, &str); 13] = [
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
];

/// The scene animation for table entry `entry`: exact name first, then
/// an alias; `None` when there is none.
fn player_source(scene: &Scene, entry: &str) -> Option<usize> {
    let names: Vec<String> = scene
        .animations
        .iter()
        .map(|a| a.name.to_ascii_lowercase())
        .collect();
    names.iter().position(|n| n == entry).or_else(|| {
        names.iter().position(|n| {
            ALIASES
                .iter()
                .any(|&(alias, target)| target == entry && n == alias)
        })
    })
}

/// The 198 frames of the standard player table (see the module
/// documentation).
pub(crate) fn player_plan(scene: &Scene, warnings: &mut Vec<CompileWarning>) -> Plan {
    let mut used = vec![false; scene.animations.len()];
    let stand = player_source(scene, "stand");
    let mut groups = Vec::with_capacity(PLAYER_ANIMATIONS.len());
    for (entry, &(name, _, count)) in PLAYER_ANIMATIONS.iter().enumerate() {
        let source = player_source(scene, name);
        let poses: Vec<FramePose> = match source {
            Some(i) => {
                used[i] = true;
                resample_times(scene.animations[i].duration(), count)
                    .into_iter()
                    .map(|time| FramePose {
                        animation: Some(i),
                        time,
                    })
                    .collect()
            }
            None => {
                warnings.push(CompileWarning::PlayerAnimationMissing {
                    name,
                    filled_with: if stand.is_some() {
                        "the first pose of stand"
                    } else {
                        "the rest pose"
                    },
                });
                vec![
                    FramePose {
                        animation: stand,
                        time: 0.0,
                    };
                    count
                ]
            }
        };
        groups.push(Group {
            name: name.to_string(),
            source: source.map_or(String::new(), |i| scene.animations[i].name.clone()),
            player_entry: Some(entry),
            poses,
        });
    }
    for (i, u) in used.iter().enumerate() {
        if !u {
            warnings.push(CompileWarning::PlayerAnimationUnused {
                name: scene.animations[i].name.clone(),
            });
        }
    }
    Plan { groups }
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
