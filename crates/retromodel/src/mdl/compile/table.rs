//! Frame tables: the frames laid out as a game expects them rather than
//! one animation after another. Quake's player table is fixed
//! (`player` module); a monster's is its model's own, read off the MDL it
//! replaces ([`FrameTable::of_model`], `frames_like`): QuakeC selects a
//! monster's frames by number (`ogre_stand1` is `$stand1`, frame 0), so a
//! replacement keeps every frame where the original has it.
//!
//! A model's table has one entry per animation the lift would make of it
//! (each run of single frames named alike, each frame group), with its
//! frame count. Each entry takes the scene animation of its name (ASCII
//! case-insensitive; `stand` also an `idle`), resampled evenly to its
//! count, first and last pose included (a frame group lifted from an MDL:
//! one frame per key); an entry the scene lacks shows the first pose of `stand`
//! (or the rest pose when there is no `stand`), with a warning; scene
//! animations no entry takes are left out, with a warning. The compiled
//! frames then take the model's raw frame names and its frame groups
//! (their type words and intervals) back.

use super::record::Record;
use super::report::CompileWarning;
use crate::bake::plan::Plan;
use crate::bake::table::{Fill, TableNote};
use crate::mdl::{Frame, Mdl};
use crate::quake::animations_from_runs;
use crate::scene::Scene;

/// The frame layout of an MDL a compile copies (`frames_like`).
///
/// ```
/// use retromodel::mdl::compile::FrameTable;
/// use retromodel::mdl::{Frame, Mdl, SimpleFrame, FrameName};
/// let frame = |n: &str| Frame::Single(SimpleFrame { name: FrameName::new(n), ..SimpleFrame::default() });
/// let ogre = Mdl {
///     frames: vec![frame("stand1"), frame("stand2"), frame("walk1"), frame("walk2"), frame("walk3")],
///     ..Mdl::default()
/// };
/// let table = FrameTable::of_model(&ogre, "ogre.mdl");
/// assert_eq!(table.entries(), [("stand".to_string(), 2), ("walk".to_string(), 3)]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FrameTable {
    title: String,
    entries: Vec<(String, usize)>,
    record: Record,
}

impl FrameTable {
    /// The table of `model` (see the module documentation); `title` names
    /// it in warnings (its file name).
    pub fn of_model(model: &Mdl, title: &str) -> FrameTable {
        let mut entries: Vec<(String, usize)> = Vec::new();
        let mut run: Vec<String> = Vec::new();
        let flush = |run: &mut Vec<String>, entries: &mut Vec<(String, usize)>| {
            for a in animations_from_runs(run.iter().map(String::as_str)) {
                entries.push((a.name, a.frame_count));
            }
            run.clear();
        };
        for (top, frame) in model.frames.iter().enumerate() {
            match frame {
                Frame::Single(f) => run.push(f.name.to_string_lossy()),
                Frame::Group { group, .. } => {
                    flush(&mut run, &mut entries);
                    if group.frames.is_empty() {
                        continue;
                    }
                    let names: Vec<String> = group
                        .frames
                        .iter()
                        .map(|f| f.name.to_string_lossy())
                        .collect();
                    let name = animations_from_runs(names.iter().map(String::as_str))
                        .into_iter()
                        .next()
                        .map_or_else(|| format!("group{top}"), |a| a.name);
                    entries.push((name, group.frames.len()));
                }
            }
        }
        flush(&mut run, &mut entries);
        FrameTable {
            title: format!("the frame table of {title}"),
            entries,
            record: Record::of_frames(model),
        }
    }

    /// The entries in frame order: animation name and frame count.
    pub fn entries(&self) -> &[(String, usize)] {
        &self.entries
    }

    /// The frames, filled from `scene`, and their warnings.
    pub(super) fn plan(&self, scene: &Scene, warnings: &mut Vec<CompileWarning>) -> Plan {
        let table = crate::bake::table::FrameTable {
            entries: &self.entries,
            aliases: &[("idle", "stand")],
            fallbacks: &[],
            rest_entry: "stand",
        };
        table_plan(scene, &table, &self.title, warnings)
    }

    /// The model's frame names and frame groups, for the compiled frames.
    pub(super) fn record(&self) -> &Record {
        &self.record
    }
}

/// The frames of `table` filled from `scene`, its notes worded as
/// warnings naming `title`.
pub(super) fn table_plan<S: AsRef<str>>(
    scene: &Scene,
    table: &crate::bake::table::FrameTable<'_, S>,
    title: &str,
    warnings: &mut Vec<CompileWarning>,
) -> Plan {
    let (plan, notes) = table.plan(scene);
    let name_of = |i: usize| {
        table
            .entries
            .get(i)
            .map_or_else(String::new, |e| e.0.as_ref().to_string())
    };
    for note in notes {
        warnings.push(match note {
            TableNote::Missing { entry, fill } => CompileWarning::TableAnimationMissing {
                name: name_of(entry),
                table: title.to_string(),
                filled_with: match fill {
                    Fill::Entry(other) => format!("the animation that fills {}", name_of(other)),
                    Fill::RestEntryFirstPose => "the first pose of stand".into(),
                    Fill::RestPose => "the rest pose".into(),
                },
            },
            TableNote::Unused { name } => CompileWarning::TableAnimationUnused {
                name,
                table: title.to_string(),
            },
        });
    }
    plan
}
