//! `AsciiModel::validate`: what is wrong with a model read from text, with
//! a path to it. Errors are exactly what stops [`AsciiModel::to_ms3d`];
//! warnings are faults the binary model keeps (and its own validation
//! reports again) or that readers handle differently.

use std::collections::HashMap;

use super::super::hierarchy::evaluation_order;
use super::to_ms3d::{MAX_GROUPS, MAX_U16_ITEMS};
use super::{AsciiModel, Bone, Encoding, IndexedComment, Key, Mesh};
use crate::ms3d::limits;
use crate::problem::{Collector, Problem};

/// Bytes a binary name field holds.
const NAME_BYTES: usize = 32;
/// Bytes a binary path field holds.
const PATH_BYTES: usize = 128;

impl AsciiModel {
    /// Every problem in the model, with a path such as
    /// `meshes[2].triangles[7].vertices[1]` (the text has no byte offsets,
    /// so [`Problem::offset`] is `None`).
    ///
    /// Errors: counts the binary format cannot address (see
    /// [`AsciiModel::to_ms3d_with_fps`]), key frames beyond an `f32`, bones
    /// whose parents form a cycle. Warnings: indices that point nowhere
    /// (vertices, normals, materials and bones, the last two only when the
    /// text has that section), triangles that repeat a vertex, smoothing
    /// groups above 255 (one warning per mesh), vertex fields MilkShape
    /// ignores, names and paths longer than the binary
    /// fields, missing or duplicate bone names, keys out of order, before
    /// frame 0 or past `Frames:`, counts over MilkShape's limits, comments
    /// on items that do not exist, `// retromodel` header lines (the kept
    /// 1.8 extras) that do not parse or point nowhere.
    ///
    /// ```
    /// use retromodel::ms3d::ascii::AsciiModel;
    ///
    /// let text = "Meshes: 1\n\"m\" 0 -1\n2\n0 0 0 0 0 0 -1\n0 1 0 0 0 0 -1\n1\n0 0 1\n1\n0 0 1 1 0 0 0 1\n";
    /// let problems = AsciiModel::parse(text.as_bytes()).unwrap().validate();
    /// assert_eq!(problems[0].path, "meshes[0].triangles[0]");
    /// assert_eq!(problems[0].message, "repeats vertex 1 (a degenerate triangle)");
    /// ```
    pub fn validate(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        self.check_counts(&mut c);
        for (i, mesh) in self.mesh_list().iter().enumerate() {
            self.check_mesh(&mut c, i, mesh);
        }
        self.check_materials(&mut c);
        self.check_bones(&mut c);
        self.check_comments(&mut c);
        for (i, why) in self.unread_kept_lines() {
            c.warn(
                format!("header[{i}]"),
                format!("{} {why}: not used", super::lines::quote(&self.header[i])),
                None,
            );
        }
        c.finish()
    }

    /// Counts against what the binary can address (errors) and
    /// MilkShape's limits (warnings).
    fn check_counts(&self, c: &mut Collector) {
        let meshes = self.mesh_list();
        let vertices: usize = meshes.iter().map(|m| m.vertices.len()).sum();
        let triangles: usize = meshes.iter().map(|m| m.triangles.len()).sum();
        for (path, what, n, limit, max) in [
            ("meshes", "meshes", meshes.len(), limits::GROUPS, MAX_GROUPS),
            (
                "meshes",
                "vertices in all",
                vertices,
                limits::VERTICES,
                MAX_U16_ITEMS,
            ),
            (
                "meshes",
                "triangles in all",
                triangles,
                limits::TRIANGLES,
                MAX_U16_ITEMS,
            ),
            (
                "materials",
                "materials",
                self.material_list().len(),
                limits::MATERIALS,
                MAX_U16_ITEMS,
            ),
            (
                "bones",
                "bones",
                self.bone_list().len(),
                limits::JOINTS,
                MAX_U16_ITEMS,
            ),
        ] {
            if n > max {
                c.error(
                    path,
                    format!("{n} {what}: more than an MS3D can address ({max})"),
                    None,
                );
            } else if n > limit {
                c.warn(
                    path,
                    format!("{n} {what} exceed MilkShape's limit of {limit}"),
                    None,
                );
            }
        }
        if let Some(frames) = self.frames {
            if frames < 0 {
                c.warn("frames", format!("Frames: {frames} is negative"), None);
            }
        }
    }

    fn check_mesh(&self, c: &mut Collector, i: usize, mesh: &Mesh) {
        check_name(
            self.encoding,
            c,
            &format!("meshes[{i}].name"),
            &mesh.name,
            NAME_BYTES,
        );
        if let Some(materials) = &self.materials {
            let nm = materials.len();
            if mesh.material < -1 || (mesh.material >= 0 && mesh.material as usize >= nm) {
                c.warn(
                    format!("meshes[{i}].material"),
                    format!("material index {} out of range -1..{nm}", mesh.material),
                    None,
                );
            }
        }
        let bones = self.bones.as_ref().map(Vec::len);
        for (k, v) in mesh.vertices.iter().enumerate() {
            if let Some(nb) = bones {
                if v.bone < -1 || (v.bone >= 0 && v.bone as usize >= nb) {
                    c.warn(
                        format!("meshes[{i}].vertices[{k}].bone"),
                        format!("bone index {} out of range -1..{nb}", v.bone),
                        None,
                    );
                }
            }
            if !v.extra.is_empty() {
                c.warn(
                    format!("meshes[{i}].vertices[{k}]"),
                    format!(
                        "fields after the seventh ({:?}), which MilkShape ignores",
                        v.extra
                    ),
                    None,
                );
            }
        }
        let (nv, nn) = (mesh.vertices.len(), mesh.normals.len());
        let (mut wide_groups, mut first_wide) = (0usize, None);
        for (k, t) in mesh.triangles.iter().enumerate() {
            for (j, &v) in t.vertices.iter().enumerate() {
                if v as usize >= nv {
                    c.warn(
                        format!("meshes[{i}].triangles[{k}].vertices[{j}]"),
                        format!("vertex index {v} out of range 0..{nv}"),
                        None,
                    );
                }
            }
            for (j, &n) in t.normals.iter().enumerate() {
                if n as usize >= nn {
                    c.warn(
                        format!("meshes[{i}].triangles[{k}].normals[{j}]"),
                        format!("normal index {n} out of range 0..{nn} (a zero normal in MS3D)"),
                        None,
                    );
                }
            }
            if t.smoothing_group > 255 {
                wide_groups += 1;
                first_wide.get_or_insert((k, t.smoothing_group));
            }
            let [a, b, d] = t.vertices;
            if a == b || b == d || a == d {
                let repeated = if a == b || a == d { a } else { b };
                c.warn(
                    format!("meshes[{i}].triangles[{k}]"),
                    format!("repeats vertex {repeated} (a degenerate triangle)"),
                    None,
                );
            }
        }
        if let Some((k, group)) = first_wide {
            c.warn(
                format!("meshes[{i}].triangles"),
                format!(
                    "{wide_groups} smoothing groups above 255, which MS3D's byte keeps modulo 256 \
                     (triangle {k}: {group} becomes {})",
                    group % 256
                ),
                None,
            );
        }
    }

    fn check_materials(&self, c: &mut Collector) {
        for (i, m) in self.material_list().iter().enumerate() {
            check_name(
                self.encoding,
                c,
                &format!("materials[{i}].name"),
                &m.name,
                NAME_BYTES,
            );
            check_name(
                self.encoding,
                c,
                &format!("materials[{i}].texture"),
                &m.texture,
                PATH_BYTES,
            );
            check_name(
                self.encoding,
                c,
                &format!("materials[{i}].alphamap"),
                &m.alphamap,
                PATH_BYTES,
            );
        }
    }

    fn check_bones(&self, c: &mut Collector) {
        let bones = self.bone_list();
        let mut first: HashMap<&str, usize> = HashMap::with_capacity(bones.len());
        for (i, b) in bones.iter().enumerate() {
            if let Some(&j) = first.get(b.name.as_str()) {
                c.warn(
                    format!("bones[{i}].name"),
                    format!(
                        "{:?} is also bone {j}'s name; parents find bone {j}",
                        b.name
                    ),
                    None,
                );
            } else {
                first.insert(&b.name, i);
            }
        }
        let parents: Vec<Option<usize>> = bones
            .iter()
            .map(|b| match b.parent.as_str() {
                "" => None,
                name => first.get(name).copied(),
            })
            .collect();
        for (i, b) in bones.iter().enumerate() {
            check_name(
                self.encoding,
                c,
                &format!("bones[{i}].name"),
                &b.name,
                NAME_BYTES,
            );
            check_name(
                self.encoding,
                c,
                &format!("bones[{i}].parent"),
                &b.parent,
                NAME_BYTES,
            );
            if !b.parent.is_empty() && parents[i].is_none() {
                c.warn(
                    format!("bones[{i}].parent"),
                    format!("parent {:?} is not a bone; treated as a root", b.parent),
                    None,
                );
            }
            check_keys(c, i, "position_keys", &b.position_keys);
            check_keys(c, i, "rotation_keys", &b.rotation_keys);
            for (what, n) in [
                ("position_keys", b.position_keys.len()),
                ("rotation_keys", b.rotation_keys.len()),
            ] {
                if n > MAX_U16_ITEMS {
                    c.error(
                        format!("bones[{i}].{what}"),
                        format!("{n} keys: more than an MS3D can count ({MAX_U16_ITEMS})"),
                        None,
                    );
                }
            }
        }
        if let Err(cycle) = evaluation_order(&parents) {
            let names: Vec<&str> = cycle
                .iter()
                .chain(cycle.first())
                .map(|&i| bones[i].name.as_str())
                .collect();
            c.error(
                format!("bones[{}].parent", cycle[0]),
                format!("parents form a cycle: {}", names.join(" → ")),
                None,
            );
        }
        self.check_key_range(c, bones);
    }

    /// Keys before frame 0 or past `Frames:` (one warning each for the
    /// whole model: the Blender add-on writes one key past the end).
    fn check_key_range(&self, c: &mut Collector, bones: &[Bone]) {
        let frames = bones
            .iter()
            .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
            .map(|k| k.frame);
        let (min, max) = frames.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), f| {
            (a.min(f), b.max(f))
        });
        if min > max {
            return;
        }
        if min < 0.0 {
            c.warn(
                "bones",
                format!("a key at frame {min}, before frame 0"),
                None,
            );
        }
        if let Some(total) = self.frames {
            if max > f64::from(total) {
                c.warn(
                    "frames",
                    format!("keys run to frame {max}, past Frames: {total}"),
                    None,
                );
            }
        }
    }

    fn check_comments(&self, c: &mut Collector) {
        let meshes = self.mesh_list().len();
        let materials = self.material_list().len();
        let bones = self.bone_list().len();
        for (path, list, n) in [
            ("group_comments", &self.group_comments, meshes),
            ("material_comments", &self.material_comments, materials),
            ("bone_comments", &self.bone_comments, bones),
        ] {
            for (k, cm) in list.as_deref().unwrap_or(&[]).iter().enumerate() {
                check_comment(c, &format!("{path}[{k}].index"), cm, n);
            }
        }
    }
}

fn check_comment(c: &mut Collector, path: &str, cm: &IndexedComment, n: usize) {
    if cm.index < 0 || cm.index as usize >= n {
        c.warn(
            path,
            format!("index {} out of range 0..{n}", cm.index),
            None,
        );
    }
}

/// A name or path longer than the binary field it goes to.
fn check_name(enc: Encoding, c: &mut Collector, path: &str, name: &str, bytes: usize) {
    let len = enc.byte_len(name);
    if len > bytes {
        c.warn(
            path,
            format!("{len} bytes long; an MS3D keeps the first {bytes}"),
            None,
        );
    }
}

/// One key list of bone `i`: frames increase, and fit an `f32`.
fn check_keys(c: &mut Collector, i: usize, what: &str, keys: &[Key]) {
    for (k, pair) in keys.windows(2).enumerate() {
        if pair[1].frame <= pair[0].frame {
            c.warn(
                format!("bones[{i}].{what}[{}].frame", k + 1),
                format!(
                    "key frame {} does not follow {}",
                    pair[1].frame, pair[0].frame
                ),
                None,
            );
        }
    }
    for (k, key) in keys.iter().enumerate() {
        if key.frame.abs() > f64::from(f32::MAX) {
            c.error(
                format!("bones[{i}].{what}[{k}].frame"),
                format!("frame {} is beyond an f32", key.frame),
                None,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<(String, String)> {
        AsciiModel::parse(text.as_bytes())
            .unwrap()
            .validate()
            .into_iter()
            .map(|p| (format!("{}: {}", p.severity, p.path), p.message))
            .collect()
    }

    #[test]
    fn indices_that_point_nowhere_are_warnings() {
        let text = "Meshes: 1\n\"m\" 0 2\n1\n0 0 0 0 0 0 3\n1\n0 0 1\n1\n0 0 1 0 0 5 0 1\n\
            Materials: 1\n\"x\"\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0\n1\n\"\"\n\"\"\nBones: 0\n";
        assert_eq!(
            paths(text),
            [
                (
                    "warning: meshes[0].material".into(),
                    "material index 2 out of range -1..1".into()
                ),
                (
                    "warning: meshes[0].vertices[0].bone".into(),
                    "bone index 3 out of range -1..0".into()
                ),
                (
                    "warning: meshes[0].triangles[0].vertices[1]".into(),
                    "vertex index 1 out of range 0..1".into()
                ),
                (
                    "warning: meshes[0].triangles[0].normals[1]".into(),
                    "normal index 5 out of range 0..1 (a zero normal in MS3D)".into()
                ),
                (
                    "warning: meshes[0].triangles[0]".into(),
                    "repeats vertex 0 (a degenerate triangle)".into()
                ),
            ]
        );
    }

    #[test]
    fn indices_into_a_missing_section_are_not_checked() {
        // A meshes-only split file: materials and bones are elsewhere.
        let text = "Meshes: 1\n\"m\" 0 7\n1\n0 0 0 0 0 0 9\n0\n0\n";
        assert!(paths(text).is_empty());
    }

    #[test]
    fn bones_parents_keys_and_cycles() {
        let text = "Frames: 10\nBones: 3\n\
            \"a\"\n\"c\"\n0 0 0 0 0 0 0\n2\n5 0 0 0\n5 0 0 0\n0\n\
            \"c\"\n\"a\"\n0 0 0 0 0 0 0\n1\n12 0 0 0\n0\n\
            \"a\"\n\"ghost\"\n0 0 0 0 0 0 0\n0\n1\n-1 0 0 0\n";
        assert_eq!(
            paths(text),
            [
                (
                    "warning: bones[2].name".into(),
                    "\"a\" is also bone 0's name; parents find bone 0".into()
                ),
                (
                    "warning: bones[0].position_keys[1].frame".into(),
                    "key frame 5 does not follow 5".into()
                ),
                (
                    "warning: bones[2].parent".into(),
                    "parent \"ghost\" is not a bone; treated as a root".into()
                ),
                (
                    "error: bones[0].parent".into(),
                    "parents form a cycle: a → c → a".into()
                ),
                (
                    "warning: bones".into(),
                    "a key at frame -1, before frame 0".into()
                ),
                (
                    "warning: frames".into(),
                    "keys run to frame 12, past Frames: 10".into()
                ),
            ]
        );
    }

    #[test]
    fn comments_and_long_names() {
        let long = "n".repeat(33);
        let text = format!(
            "Meshes: 1\n\"{long}\" 0 -1\n0\n0\n0\nGroupComments: 2\n0\nok\n1\nnot a mesh\n"
        );
        assert_eq!(
            paths(&text),
            [
                (
                    "warning: meshes[0].name".into(),
                    "33 bytes long; an MS3D keeps the first 32".into()
                ),
                (
                    "warning: group_comments[1].index".into(),
                    "index 1 out of range 0..1".into()
                ),
            ]
        );
    }

    #[test]
    fn extra_vertex_fields_are_a_warning() {
        let text = "Meshes: 1\n\"m\" 0 -1\n1\n0 0 0 0 0 0 -1 1 100\n0\n0\n";
        let p = paths(text);
        assert_eq!(p.len(), 1);
        assert_eq!(
            p[0].1,
            "fields after the seventh (\"1 100\"), which MilkShape ignores"
        );
    }
}
