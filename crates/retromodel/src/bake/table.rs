//! A standard frame table (the Quake II player's 198 frames, the Quake
//! player's 143) filled from a scene's animations: shared by the
//! compilers of the formats whose games expect one.
//!
//! Each entry takes the scene animation of the same name (ASCII
//! case-insensitive), else one whose name is an alias of the entry (the
//! first of the table's aliases the scene has; the first in scene order
//! of animations with one name). Its `N`
//! frames are the clip resampled evenly over its duration, first and last
//! pose included (`tⱼ = j · D / (N − 1)`). An entry the scene lacks takes
//! the animation of its fallback entry (Quake's `axrun` the clip that
//! fills `rockrun`) when the table names one and the scene has it; else
//! it shows the first pose of the table's rest entry (`stand`), or the
//! rest pose when that is missing too. Scene animations no entry takes
//! are left out. Every fill and every left-out animation is a
//! [`TableNote`], which each format words as its own warning.

use super::plan::{resample_times, FramePose, Group, Plan};
use crate::scene::Scene;

/// A game's standard frame table (or one read off a model).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrameTable<'a, S> {
    /// The entries in frame order: name and frame count.
    pub entries: &'a [(S, usize)],
    /// Scene names that also fill an entry: `(alias, entry)`.
    pub aliases: &'a [(&'a str, &'a str)],
    /// Entries filled from another entry's animation when the scene has
    /// none of their own: `(entry, fallback entry)`.
    pub fallbacks: &'a [(&'a str, &'a str)],
    /// The entry whose first pose fills what nothing else does.
    pub rest_entry: &'a str,
}

/// What an entry the scene lacks shows instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// The animation of the entry of this index.
    Entry(usize),
    /// The first pose of the rest entry.
    RestEntryFirstPose,
    /// The scene's rest pose.
    RestPose,
}

/// What filling the table did that the user should hear of.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TableNote {
    /// Entry `name` had no animation of its own.
    Missing {
        /// The entry's index.
        entry: usize,
        /// What its frames show.
        fill: Fill,
    },
    /// A scene animation no entry takes, left out.
    Unused {
        /// Its name.
        name: String,
    },
}

impl<S: AsRef<str>> FrameTable<'_, S> {
    /// The scene animation for entry `entry`: exact name first, then an
    /// alias; `None` when there is none.
    fn source(&self, lower_names: &[String], entry: &str) -> Option<usize> {
        lower_names.iter().position(|n| n == entry).or_else(|| {
            self.aliases
                .iter()
                .filter(|&&(_, target)| target == entry)
                .find_map(|&(alias, _)| lower_names.iter().position(|n| n == alias))
        })
    }

    /// The frames of the table filled from `scene` (see the module
    /// documentation), and what the user should hear of.
    pub fn plan(&self, scene: &Scene) -> (Plan, Vec<TableNote>) {
        let names: Vec<String> = scene
            .animations
            .iter()
            .map(|a| a.name.to_ascii_lowercase())
            .collect();
        let mut notes = Vec::new();
        let mut used = vec![false; scene.animations.len()];
        let rest = self.source(&names, self.rest_entry);
        let mut groups = Vec::with_capacity(self.entries.len());
        for (entry, (name, count)) in self.entries.iter().enumerate() {
            let count = *count;
            let name = name.as_ref();
            let own = self.source(&names, name);
            let fallback =
                self.fallbacks
                    .iter()
                    .find(|&&(e, _)| e == name)
                    .and_then(|&(_, other)| {
                        let index = self.entries.iter().position(|e| e.0.as_ref() == other)?;
                        Some((index, self.source(&names, other)?))
                    });
            let source = own.or(fallback.map(|(_, i)| i));
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
                None => vec![
                    FramePose {
                        animation: rest,
                        time: 0.0,
                    };
                    count
                ],
            };
            if own.is_none() {
                let fill = match (fallback, rest) {
                    (Some((other, _)), _) => Fill::Entry(other),
                    (None, Some(_)) => Fill::RestEntryFirstPose,
                    (None, None) => Fill::RestPose,
                };
                notes.push(TableNote::Missing { entry, fill });
            }
            groups.push(Group {
                name: name.to_string(),
                source: source.map_or(String::new(), |i| scene.animations[i].name.clone()),
                player_entry: Some(entry),
                kept: None,
                poses,
            });
        }
        for (i, u) in used.iter().enumerate() {
            if !u {
                notes.push(TableNote::Unused {
                    name: scene.animations[i].name.clone(),
                });
            }
        }
        (Plan { groups }, notes)
    }
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

    const TABLE: FrameTable<'static, &str> = FrameTable {
        entries: &[("stand", 2), ("run", 3), ("axrun", 3), ("pain", 2)],
        aliases: &[("idle", "stand")],
        fallbacks: &[("axrun", "run"), ("pain", "stand")],
        rest_entry: "stand",
    };

    #[test]
    fn entries_take_names_aliases_fallbacks_then_the_rest_entry() {
        let scene = Scene {
            animations: vec![anim("Idle", 1.0), anim("RUN", 0.5), anim("dance", 2.0)],
            ..Scene::default()
        };
        let (plan, notes) = TABLE.plan(&scene);
        assert_eq!(plan.frame_count(), 10);
        let sources: Vec<&str> = plan.groups.iter().map(|g| g.source.as_str()).collect();
        assert_eq!(sources, ["Idle", "RUN", "RUN", "Idle"]);
        let times: Vec<f32> = plan.groups[1].poses.iter().map(|p| p.time).collect();
        assert_eq!(times, [0.0, 0.25, 0.5]);
        assert_eq!(
            notes,
            [
                TableNote::Missing {
                    entry: 2,
                    fill: Fill::Entry(1)
                },
                TableNote::Missing {
                    entry: 3,
                    fill: Fill::Entry(0)
                },
                TableNote::Unused {
                    name: "dance".into()
                },
            ]
        );
    }

    #[test]
    fn nothing_to_fill_from_shows_the_rest_pose() {
        let (plan, notes) = TABLE.plan(&Scene::default());
        assert_eq!(plan.frame_count(), 10);
        assert!(plan.poses().all(|p| p.animation.is_none() && p.time == 0.0));
        assert!(notes.iter().all(|n| matches!(
            n,
            TableNote::Missing {
                fill: Fill::RestPose,
                ..
            }
        )));
    }
}
