//! What a scene lifted from an MDL carries of its file (the extras under
//! `mdl`, see `Scene::from_mdl`), given back by the compile so that MDL →
//! glTF → MDL keeps what glTF cannot hold: the effect flags, the sync
//! type, the eye position, the raw 16-byte frame names (stale bytes
//! after the NUL included) and the frame groups (the engine plays a
//! group's frames by itself; glTF has them as animations). Options the
//! caller sets win over the record; frame names and groups are taken only
//! when the compile makes as many simple frames as the record has, and
//! groups only when the options ask for none.

use serde_json::Value;

use super::CompileOptions;
use crate::mdl::{Frame, FrameName, Mdl};
use crate::scene::Scene;

/// The extras key of the lift's record (`mdl::MDL_KEY`).
const KEY: &str = "mdl";

/// The header facts and frame names of the MDL a scene came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Record {
    flags: Option<i32>,
    sync_type: Option<i32>,
    eye_position: Option<[f32; 3]>,
    frame_names: Vec<[u8; 16]>,
    /// The frame list: `(stored type word, frames, intervals)`; a type
    /// word of 0 is a single frame.
    frames: Vec<(i32, usize, Vec<f32>)>,
}

/// Bytes from the lift's lower-case hex text; `None` for anything else.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

fn int(v: &Value) -> Option<i32> {
    v.as_i64().and_then(|n| i32::try_from(n).ok())
}

/// The record in `scene`'s extras, if the scene came from an MDL (values
/// of the wrong kind are left out, never trusted).
pub(super) fn record_of(scene: &Scene) -> Option<Record> {
    let r = scene.extras.get(KEY)?;
    let eye = r
        .get("eye_position")
        .and_then(Value::as_array)
        .and_then(|a| {
            let v: Vec<f32> = a
                .iter()
                .filter_map(Value::as_f64)
                .map(|x| x as f32)
                .filter(|x| x.is_finite())
                .collect();
            <[f32; 3]>::try_from(v).ok()
        });
    let frame_names = r
        .get("frame_names")
        .and_then(Value::as_str)
        .and_then(unhex)
        .filter(|b| b.len().is_multiple_of(16))
        .map(|b| {
            b.chunks_exact(16)
                .filter_map(|c| <[u8; 16]>::try_from(c).ok())
                .collect()
        })
        .unwrap_or_default();
    let frames = r
        .get("frames")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter()
                .map(|f| {
                    let kind = f.get("kind").and_then(int)?;
                    let count = f.get("count").and_then(Value::as_u64)?;
                    let intervals: Vec<f32> = match f.get("intervals") {
                        Some(v) => v
                            .as_array()?
                            .iter()
                            .map(|x| x.as_f64().map(|x| x as f32))
                            .collect::<Option<_>>()?,
                        None => Vec::new(),
                    };
                    Some((kind, usize::try_from(count).ok()?, intervals))
                })
                .collect::<Option<Vec<_>>>()
        })
        .unwrap_or_default();
    Some(Record {
        frames,
        flags: r.get("flags").and_then(int),
        sync_type: r.get("sync_type").and_then(int),
        eye_position: eye,
        frame_names,
    })
}

impl Record {
    /// The frame names and frame list of `model` (no header facts): what a
    /// compile laid out like `model` takes back (`frames_like`).
    pub(super) fn of_frames(model: &Mdl) -> Record {
        let frame_names = model.simple_frames().map(|f| f.name.0).collect();
        let frames = model
            .frames
            .iter()
            .map(|f| match f {
                Frame::Single(_) => (0, 1, Vec::new()),
                Frame::Group { kind, group: g } => (*kind, g.frames.len(), g.intervals.clone()),
            })
            .collect();
        Record {
            frame_names,
            frames,
            ..Record::default()
        }
    }

    /// Whether the compile puts `simple` frames, made with `options`,
    /// back into the record's frame groups: the record has groups, they
    /// are well formed, they hold `simple` frames in all, and the options
    /// ask for no groups of their own (a compile that makes groups itself
    /// is left as it is).
    fn regroups(&self, options: &CompileOptions, simple: usize) -> bool {
        let grouped = self.frames.iter().any(|&(kind, _, _)| kind != 0);
        // Intervals the engines take: positive, finite and increasing (a
        // damaged source's are not carried into a file `validate` would
        // refuse; the frames then stay single).
        let sound = |iv: &[f32]| {
            iv.iter().all(|t| t.is_finite() && *t > 0.0) && iv.windows(2).all(|w| w[0] < w[1])
        };
        let consistent = self
            .frames
            .iter()
            .all(|(kind, n, iv)| *kind == 0 || (*n > 0 && iv.len() == *n && sound(iv)));
        let total: usize = self
            .frames
            .iter()
            .map(|&(kind, n, _)| if kind == 0 { 1 } else { n })
            .sum();
        grouped && consistent && total == simple && options.frame_groups.is_empty()
    }

    /// When the compile regroups `simple` frames, the index of each
    /// frame-list entry's first frame (what `frame_times` gives for it).
    pub(super) fn entry_starts(
        &self,
        options: &CompileOptions,
        simple: usize,
    ) -> Option<Vec<usize>> {
        if !self.regroups(options, simple) {
            return None;
        }
        let mut at = 0;
        Some(
            self.frames
                .iter()
                .map(|&(kind, n, _)| {
                    let start = at;
                    at += if kind == 0 { 1 } else { n };
                    start
                })
                .collect(),
        )
    }
}

/// Samples each animation the lift made of an MDL frame group (its
/// extras name the `frame_group` and its `frame_count`) at its keys, one
/// frame per key, rather than at the frame rate: the group's frames come
/// back one for one, on the record's intervals (`regroup`). With
/// `same_count` (a frame table's entries), only where the entry has as
/// many frames as the group.
pub(super) fn key_poses(scene: &Scene, plan: &mut crate::bake::plan::Plan, same_count: bool) {
    for g in &mut plan.groups {
        let Some(a) = g.poses.first().and_then(|p| p.animation) else {
            continue;
        };
        let Some(animation) = scene.animations.get(a) else {
            continue;
        };
        let extras = &animation.extras;
        if extras.get("frame_group").is_none() {
            continue;
        }
        let Some(n) = extras
            .get("frame_count")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
        else {
            continue;
        };
        let Some(times) = animation.channels.first().map(|c| &c.times) else {
            continue;
        };
        if n == 0 || times.len() < n || !times.iter().all(|t| t.is_finite()) {
            continue;
        }
        if same_count && n != g.poses.len() {
            continue;
        }
        g.poses = times[..n]
            .iter()
            .map(|&time| crate::bake::plan::FramePose {
                animation: Some(a),
                time,
            })
            .collect();
    }
}

/// Gives `model` the record's facts that `options` leave at their
/// defaults, and (unless a frame table lays the frames out) its frame
/// names and groups when the counts agree. Returns whether the frame
/// names were taken.
pub(super) fn apply(record: &Record, model: &mut Mdl, options: &CompileOptions) -> bool {
    if options.flags == 0 {
        if let Some(flags) = record.flags {
            model.flags = flags;
        }
    }
    if !options.random_sync {
        // Only the two sync types there are (0 in sync, 1 random).
        if let Some(sync) = record.sync_type.filter(|s| (0..=1).contains(s)) {
            model.sync_type = sync;
        }
    }
    if options.eye_position.is_none() {
        if let Some(eye) = record.eye_position {
            model.eye_position = eye;
        }
    }
    if options.player || options.frames_like.is_some() {
        // A frame table's frames are its own, whatever the source's.
        return false;
    }
    apply_frames(record, model, options)
}

/// Gives `model` the record's frame groups and frame names when the
/// counts agree; whether the names were taken.
pub(super) fn apply_frames(record: &Record, model: &mut Mdl, options: &CompileOptions) -> bool {
    let simple = model.simple_frames().count();
    regroup(record, model, options, simple);
    if simple == 0 || simple != record.frame_names.len() {
        return false;
    }
    let mut names = record.frame_names.iter();
    for frame in &mut model.frames {
        let frames = match frame {
            Frame::Single(f) => std::slice::from_mut(f),
            Frame::Group { group, .. } => &mut group.frames[..],
        };
        for f in frames {
            if let Some(n) = names.next() {
                f.name = FrameName(*n);
            }
        }
    }
    true
}

/// Puts the simple frames back into the record's frame groups, when the
/// compile made none, the options ask for none and the record's frame
/// list holds as many simple frames as the model (a group's bounding box
/// is its frames' together; its intervals and type word the record's).
fn regroup(record: &Record, model: &mut Mdl, options: &CompileOptions, simple: usize) {
    if model
        .frames
        .iter()
        .any(|f| matches!(f, Frame::Group { .. }))
        || !record.regroups(options, simple)
    {
        return;
    }
    let mut singles = std::mem::take(&mut model.frames)
        .into_iter()
        .filter_map(|f| match f {
            Frame::Single(s) => Some(s),
            Frame::Group { .. } => None,
        });
    for (kind, count, intervals) in &record.frames {
        if *kind == 0 {
            model.frames.extend(singles.next().map(Frame::Single));
            continue;
        }
        let frames: Vec<_> = singles.by_ref().take(*count).collect();
        let lo = |i: usize| {
            frames
                .iter()
                .map(|f| f.bbox_min.position[i])
                .min()
                .unwrap_or(0)
        };
        let hi = |i: usize| {
            frames
                .iter()
                .map(|f| f.bbox_max.position[i])
                .max()
                .unwrap_or(0)
        };
        let group = crate::mdl::FrameGroup {
            bbox_min: crate::mdl::TriVertex {
                position: [lo(0), lo(1), lo(2)],
                normal_index: 0,
            },
            bbox_max: crate::mdl::TriVertex {
                position: [hi(0), hi(1), hi(2)],
                normal_index: 0,
            },
            intervals: intervals.clone(),
            frames,
        };
        model.frames.push(Frame::Group { kind: *kind, group });
    }
    model.num_frames = model.frames.len() as i32;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_of_the_wrong_kind_is_left_out() {
        let scene = Scene {
            extras: json!({ "mdl": { "flags": "rotate", "eye_position": [1, 2], "frame_names": "zz" } }),
            ..Scene::default()
        };
        assert_eq!(record_of(&scene), Some(Record::default()));
        assert_eq!(unhex("0a1B"), Some(vec![0x0a, 0x1b]));
        assert_eq!(unhex("0"), None);
    }
}
