//! `Ms3d::validate`: every problem in a model, with a path and an offset.

use super::hierarchy::{cycle_message, evaluation_order, parents};
use super::layout::{group, joint, keyframer, triangle, vertex, Offsets};
use super::{limits, Ms3d};
use crate::problem::{Collector, Problem, Severity};

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
        let warn = Severity::Warning;
        let (nv, nt, ng, nm, nj) = (
            self.vertices.len(),
            self.triangles.len(),
            self.groups.len(),
            self.materials.len(),
            self.joints.len(),
        );
        for (what, n, limit) in [
            ("vertices", nv, limits::VERTICES),
            ("triangles", nt, limits::TRIANGLES),
            ("groups", ng, limits::GROUPS),
            ("materials", nm, limits::MATERIALS),
            ("joints", nj, limits::JOINTS),
        ] {
            if n > limit {
                c.push(
                    warn,
                    what.into(),
                    format!("{n} {what} exceed MilkShape's limit of {limit}"),
                    None,
                );
            }
        }
        for (i, v) in self.vertices.iter().enumerate() {
            if v.position.iter().any(|x| !x.is_finite()) {
                c.push(
                    Severity::Error,
                    format!("vertices[{i}].position"),
                    "not a finite number".into(),
                    Some(o.vertex(i, vertex::POSITION)),
                );
            }
            if v.bone_id < -1 || (v.bone_id >= 0 && v.bone_id as usize >= nj) {
                c.push(
                    warn,
                    format!("vertices[{i}].bone_id"),
                    format!("joint index {} out of range -1..{nj}", v.bone_id),
                    Some(o.vertex(i, vertex::BONE_ID)),
                );
            }
        }
        for (i, t) in self.triangles.iter().enumerate() {
            for (k, &v) in t.vertices.iter().enumerate() {
                if v as usize >= nv {
                    c.push(
                        warn,
                        format!("triangles[{i}].vertices[{k}]"),
                        format!("vertex index {v} out of range 0..{nv}"),
                        Some(o.triangle(i, triangle::VERTICES + 2 * k)),
                    );
                }
            }
            if t.group as usize >= ng {
                c.push(
                    warn,
                    format!("triangles[{i}].group"),
                    format!("group index {} out of range 0..{ng}", t.group),
                    Some(o.triangle(i, triangle::GROUP)),
                );
            }
        }
        for (i, g) in self.groups.iter().enumerate() {
            for (k, &t) in g.triangles.iter().enumerate() {
                if t as usize >= nt {
                    c.push(
                        warn,
                        format!("groups[{i}].triangles[{k}]"),
                        format!("triangle index {t} out of range 0..{nt}"),
                        Some(o.group(i, group::triangle(k))),
                    );
                }
            }
            if g.material < -1 || (g.material >= 0 && g.material as usize >= nm) {
                c.push(
                    warn,
                    format!("groups[{i}].material"),
                    format!("material index {} out of range -1..{nm}", g.material),
                    Some(o.group(i, group::material(g.triangles.len()))),
                );
            }
        }
        if self.effective_fps() != self.fps {
            c.push(
                warn,
                "keyframer.fps".into(),
                format!("fps {} is below 1; animation plays at 1 fps", self.fps),
                Some(o.keyframer(keyframer::FPS)),
            );
        }
        let parents = parents(self);
        for (i, j) in self.joints.iter().enumerate() {
            if !j.parent.as_bytes().is_empty() && parents[i].is_none() {
                c.push(
                    warn,
                    format!("joints[{i}].parent"),
                    format!(
                        "parent {:?} is not a joint; treated as a root",
                        j.parent.to_string_lossy()
                    ),
                    Some(o.joint(i, joint::PARENT)),
                );
            }
            if j.rotation.iter().chain(&j.position).any(|x| !x.is_finite()) {
                c.push(
                    Severity::Error,
                    format!("joints[{i}]"),
                    "bind rotation or position is not a finite number".into(),
                    Some(o.joint(i, joint::ROTATION)),
                );
            }
            let rotation_key = |k| o.rotation_key(i, k);
            let position_key = |k| o.position_key(i, k);
            for (what, keys, at) in [
                (
                    "rotation_keys",
                    &j.rotation_keys,
                    &rotation_key as &dyn Fn(usize) -> u64,
                ),
                ("position_keys", &j.position_keys, &position_key),
            ] {
                for (k, pair) in keys.windows(2).enumerate() {
                    if pair[1].time.partial_cmp(&pair[0].time) != Some(std::cmp::Ordering::Greater)
                    {
                        c.push(
                            warn,
                            format!("joints[{i}].{what}[{}].time", k + 1),
                            format!("key time {} does not follow {}", pair[1].time, pair[0].time),
                            Some(at(k + 1)),
                        );
                    }
                }
                for (k, key) in keys.iter().enumerate() {
                    if !key.time.is_finite() || key.value.iter().any(|x| !x.is_finite()) {
                        c.push(
                            Severity::Error,
                            format!("joints[{i}].{what}[{k}]"),
                            "not a finite number".into(),
                            Some(at(k)),
                        );
                    }
                }
            }
        }
        if let Err(cycle) = evaluation_order(&parents) {
            c.push(
                Severity::Error,
                format!("joints[{}].parent", cycle[0]),
                cycle_message(self, &cycle),
                Some(o.joint(cycle[0], joint::PARENT)),
            );
        }
        if let Some(x) = &self.extras.vertices {
            for (i, r) in x.records.iter().enumerate() {
                for (k, &b) in r.bone_ids.iter().enumerate() {
                    if b < -1 || (b >= 0 && b as usize >= nj) {
                        c.push(
                            warn,
                            format!("extras.vertices[{i}].bone_ids[{k}]"),
                            format!("joint index {b} out of range -1..{nj}"),
                            None,
                        );
                    }
                }
                let sum: u32 = r.weights.iter().map(|&w| u32::from(w)).sum();
                if sum > 100 {
                    c.push(
                        warn,
                        format!("extras.vertices[{i}].weights"),
                        format!("weights add up to {sum} %"),
                        None,
                    );
                }
            }
        }
        if let Some(cm) = &self.extras.comments {
            for (what, list, n) in [
                ("groups", &cm.groups, ng),
                ("materials", &cm.materials, nm),
                ("joints", &cm.joints, nj),
            ] {
                for (k, cmt) in list.iter().enumerate() {
                    if cmt.index < 0 || cmt.index as usize >= n {
                        c.push(
                            warn,
                            format!("extras.comments.{what}[{k}].index"),
                            format!("index {} out of range 0..{n}", cmt.index),
                            None,
                        );
                    }
                }
            }
        }
        if !self.trailing.is_empty() {
            c.push(
                warn,
                "trailing".into(),
                format!("{} bytes after the known data (kept)", self.trailing.len()),
                None,
            );
        }
        c.finish()
    }
}
