//! `Ms3d::validate`: every problem in a model, with a path and an offset.
//!
//! One check per part of the file, run in file order: counts against
//! MilkShape's limits, vertices, triangles, groups, the keyframer, joints
//! (parents, finiteness, key order, then cycles), vertex extras, comments
//! and trailing bytes.

use super::hierarchy::{cycle_message, evaluation_order, parents};
use super::layout::{group, joint, keyframer, triangle, vertex, Offsets};
use super::{limits, Key, Ms3d};
use crate::problem::{Collector, Problem};

impl Ms3d {
    /// Every problem in the model: what, a path to it such as
    /// `groups[2].triangles[7]`, and its byte offset in the file.
    ///
    /// Warnings are faults the model can be used despite (renderers here
    /// skip what points nowhere; a joint whose parent does not exist is a
    /// root); errors make it unusable (a cycle of parents, non-finite
    /// positions).
    ///
    /// At most [`MAX_LISTED_PROBLEMS`](crate::MAX_LISTED_PROBLEMS) problems
    /// are listed; past that a last problem, an error if any of the rest is
    /// one, counts the others, so a hostile file cannot make the list
    /// outgrow memory.
    ///
    /// ```
    /// use retromodel::ms3d::sample::sample_model;
    /// let mut model = sample_model();
    /// assert!(model.validate().is_empty());
    /// model.groups[0].material = 9;
    /// let p = &model.validate()[0];
    /// assert_eq!(p.path, "groups[0].material");
    /// ```
    pub fn validate(&self) -> Vec<Problem> {
        let o = Offsets::new(self);
        let mut c = Collector::default();
        self.check_counts(&mut c);
        self.check_vertices(&mut c, &o);
        self.check_triangles(&mut c, &o);
        self.check_groups(&mut c, &o);
        self.check_keyframer(&mut c, &o);
        let parents = parents(self);
        self.check_joints(&mut c, &o, &parents);
        self.check_cycles(&mut c, &o, &parents);
        self.check_vertex_extras(&mut c);
        self.check_comments(&mut c);
        self.check_trailing(&mut c);
        c.finish()
    }

    /// Section counts against MilkShape's limits.
    fn check_counts(&self, c: &mut Collector) {
        for (what, n, limit) in [
            ("vertices", self.vertices.len(), limits::VERTICES),
            ("triangles", self.triangles.len(), limits::TRIANGLES),
            ("groups", self.groups.len(), limits::GROUPS),
            ("materials", self.materials.len(), limits::MATERIALS),
            ("joints", self.joints.len(), limits::JOINTS),
        ] {
            if n > limit {
                c.warn(
                    what,
                    format!("{n} {what} exceed MilkShape's limit of {limit}"),
                    None,
                );
            }
        }
    }

    /// Vertex positions are finite and bone ids name a joint or none.
    fn check_vertices(&self, c: &mut Collector, o: &Offsets) {
        let nj = self.joints.len();
        for (i, v) in self.vertices.iter().enumerate() {
            if v.position.iter().any(|x| !x.is_finite()) {
                c.error(
                    format!("vertices[{i}].position"),
                    "not a finite number",
                    Some(o.vertex(i, vertex::POSITION)),
                );
            }
            if v.bone_id < -1 || (v.bone_id >= 0 && v.bone_id as usize >= nj) {
                c.warn(
                    format!("vertices[{i}].bone_id"),
                    format!("joint index {} out of range -1..{nj}", v.bone_id),
                    Some(o.vertex(i, vertex::BONE_ID)),
                );
            }
        }
    }

    /// Triangles' vertex and group indices are in range.
    fn check_triangles(&self, c: &mut Collector, o: &Offsets) {
        let (nv, ng) = (self.vertices.len(), self.groups.len());
        for (i, t) in self.triangles.iter().enumerate() {
            for (k, &v) in t.vertices.iter().enumerate() {
                if v as usize >= nv {
                    c.warn(
                        format!("triangles[{i}].vertices[{k}]"),
                        format!("vertex index {v} out of range 0..{nv}"),
                        Some(o.triangle(i, triangle::VERTICES + 2 * k)),
                    );
                }
            }
            if t.group as usize >= ng {
                c.warn(
                    format!("triangles[{i}].group"),
                    format!("group index {} out of range 0..{ng}", t.group),
                    Some(o.triangle(i, triangle::GROUP)),
                );
            }
        }
    }

    /// Groups' triangle and material indices are in range.
    fn check_groups(&self, c: &mut Collector, o: &Offsets) {
        let (nt, nm) = (self.triangles.len(), self.materials.len());
        for (i, g) in self.groups.iter().enumerate() {
            for (k, &t) in g.triangles.iter().enumerate() {
                if t as usize >= nt {
                    c.warn(
                        format!("groups[{i}].triangles[{k}]"),
                        format!("triangle index {t} out of range 0..{nt}"),
                        Some(o.group(i, group::triangle(k))),
                    );
                }
            }
            if g.material < -1 || (g.material >= 0 && g.material as usize >= nm) {
                c.warn(
                    format!("groups[{i}].material"),
                    format!("material index {} out of range -1..{nm}", g.material),
                    Some(o.group(i, group::material(g.triangles.len()))),
                );
            }
        }
    }

    /// The frame rate is one the viewer plays as stored.
    fn check_keyframer(&self, c: &mut Collector, o: &Offsets) {
        if self.effective_fps() != self.fps {
            c.warn(
                "keyframer.fps",
                format!("fps {} is below 1; animation plays at 1 fps", self.fps),
                Some(o.keyframer(keyframer::FPS)),
            );
        }
    }

    /// Each joint in turn: its parent exists, its bind pose is finite, its
    /// keys are in time order and finite.
    fn check_joints(&self, c: &mut Collector, o: &Offsets, parents: &[Option<usize>]) {
        for (i, j) in self.joints.iter().enumerate() {
            if !j.parent.as_bytes().is_empty() && parents[i].is_none() {
                c.warn(
                    format!("joints[{i}].parent"),
                    format!(
                        "parent {:?} is not a joint; treated as a root",
                        j.parent.to_string_lossy()
                    ),
                    Some(o.joint(i, joint::PARENT)),
                );
            }
            if j.rotation.iter().chain(&j.position).any(|x| !x.is_finite()) {
                c.error(
                    format!("joints[{i}]"),
                    "bind rotation or position is not a finite number",
                    Some(o.joint(i, joint::ROTATION)),
                );
            }
            check_keys(c, i, "rotation_keys", &j.rotation_keys, |k| {
                o.rotation_key(i, k)
            });
            check_keys(c, i, "position_keys", &j.position_keys, |k| {
                o.position_key(i, k)
            });
        }
    }

    /// The parents form no cycle.
    fn check_cycles(&self, c: &mut Collector, o: &Offsets, parents: &[Option<usize>]) {
        if let Err(cycle) = evaluation_order(parents) {
            c.error(
                format!("joints[{}].parent", cycle[0]),
                cycle_message(self, &cycle),
                Some(o.joint(cycle[0], joint::PARENT)),
            );
        }
    }

    /// Vertex extras name joints that exist and weigh at most 100 %.
    fn check_vertex_extras(&self, c: &mut Collector) {
        let Some(x) = &self.extras.vertices else {
            return;
        };
        let nj = self.joints.len();
        for (i, r) in x.records.iter().enumerate() {
            for (k, &b) in r.bone_ids.iter().enumerate() {
                if b < -1 || (b >= 0 && b as usize >= nj) {
                    c.warn(
                        format!("extras.vertices[{i}].bone_ids[{k}]"),
                        format!("joint index {b} out of range -1..{nj}"),
                        None,
                    );
                }
            }
            let sum: u32 = r.weights.iter().map(|&w| u32::from(w)).sum();
            if sum > 100 {
                c.warn(
                    format!("extras.vertices[{i}].weights"),
                    format!("weights add up to {sum} %"),
                    None,
                );
            }
        }
    }

    /// Comments belong to groups, materials and joints that exist.
    fn check_comments(&self, c: &mut Collector) {
        let Some(cm) = &self.extras.comments else {
            return;
        };
        for (what, list, n) in [
            ("groups", &cm.groups, self.groups.len()),
            ("materials", &cm.materials, self.materials.len()),
            ("joints", &cm.joints, self.joints.len()),
        ] {
            for (k, cmt) in list.iter().enumerate() {
                if cmt.index < 0 || cmt.index as usize >= n {
                    c.warn(
                        format!("extras.comments.{what}[{k}].index"),
                        format!("index {} out of range 0..{n}", cmt.index),
                        None,
                    );
                }
            }
        }
    }

    /// Bytes after everything known are kept, but worth a warning.
    fn check_trailing(&self, c: &mut Collector) {
        if !self.trailing.is_empty() {
            c.warn(
                "trailing",
                format!("{} bytes after the known data (kept)", self.trailing.len()),
                None,
            );
        }
    }
}

/// One key list (`what`) of joint `i`: times strictly increase, and every
/// key is finite. `at(k)` is the offset of key `k`.
fn check_keys(c: &mut Collector, i: usize, what: &str, keys: &[Key], at: impl Fn(usize) -> u64) {
    for (k, pair) in keys.windows(2).enumerate() {
        if pair[1].time.partial_cmp(&pair[0].time) != Some(std::cmp::Ordering::Greater) {
            c.warn(
                format!("joints[{i}].{what}[{}].time", k + 1),
                format!("key time {} does not follow {}", pair[1].time, pair[0].time),
                Some(at(k + 1)),
            );
        }
    }
    for (k, key) in keys.iter().enumerate() {
        if !key.time.is_finite() || key.value.iter().any(|x| !x.is_finite()) {
            c.error(
                format!("joints[{i}].{what}[{k}]"),
                "not a finite number",
                Some(at(k)),
            );
        }
    }
}
