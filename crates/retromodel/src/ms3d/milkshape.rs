//! `Ms3d::validate_for_milkshape`: will MilkShape 3D 1.8 itself load this
//! file?
//!
//! MilkShape's file format specification (the SDK's `MS3DFile.h`, from
//! version 1.7.3 to 1.8.5) declares its limits as `MAX_VERTICES 65534`,
//! `MAX_TRIANGLES 65534`, `MAX_GROUPS 255`, `MAX_MATERIALS 128` and
//! `MAX_JOINTS 128` (the 1.4 specification still had 8192 vertices,
//! 16384 triangles and 128 groups), names of 32 bytes with their NUL and
//! texture paths of 128. Maverick Model 3D's issue #29 ("Large poly
//! counts") reports that MS3D files with more polygons than that fail to
//! load in MilkShape. These are the numbers [`limits`] holds; a model
//! beyond any of them is refused here, where [`Ms3d::validate`] only warns.

use super::{limits, Ms3d};
use crate::problem::{Collector, Problem};

impl Ms3d {
    /// Every problem [`Ms3d::validate`] finds, with MilkShape 1.8's own
    /// limits as errors: counts over [`limits`] (vertices, triangles,
    /// groups, materials, joints), names that fill their 32-byte field
    /// (MilkShape reads them up to a NUL, so they need one: at most
    /// [`limits::NAME`] bytes), texture and alpha map paths without a NUL
    /// (at most [`limits::PATH`] bytes), and joint keys past
    /// [`limits::KEYS`] per list.
    ///
    /// ```
    /// use retromodel::ms3d::{sample::sample_model, Name32};
    /// let mut model = sample_model();
    /// assert!(model.validate_for_milkshape().is_empty());
    /// model.joints[0].name = Name32([b'a'; 32]);
    /// let p = &model.validate_for_milkshape()[0];
    /// assert_eq!(p.path, "joints[0].name");
    /// ```
    pub fn validate_for_milkshape(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        for (what, n, limit) in [
            ("vertices", self.vertices.len(), limits::VERTICES),
            ("triangles", self.triangles.len(), limits::TRIANGLES),
            ("groups", self.groups.len(), limits::GROUPS),
            ("materials", self.materials.len(), limits::MATERIALS),
            ("joints", self.joints.len(), limits::JOINTS),
        ] {
            if n > limit {
                c.error(
                    what,
                    format!(
                        "{n} {what} exceed MilkShape 1.8's limit of {limit} (by {})",
                        n - limit
                    ),
                    None,
                );
            }
        }
        let name = |c: &mut Collector, path: String, unterminated: bool| {
            if unterminated {
                c.error(
                    path,
                    format!(
                        "the name fills its 32 bytes; MilkShape needs a NUL (at most {} bytes)",
                        limits::NAME
                    ),
                    None,
                );
            }
        };
        for (i, g) in self.groups.iter().enumerate() {
            name(
                &mut c,
                format!("groups[{i}].name"),
                g.name.is_unterminated(),
            );
        }
        for (i, m) in self.materials.iter().enumerate() {
            name(
                &mut c,
                format!("materials[{i}].name"),
                m.name.is_unterminated(),
            );
            for (field, path) in [("texture", &m.texture), ("alphamap", &m.alphamap)] {
                if path.is_unterminated() {
                    c.error(
                        format!("materials[{i}].{field}"),
                        format!(
                            "the path fills its 128 bytes; MilkShape needs a NUL (at most {} bytes)",
                            limits::PATH
                        ),
                        None,
                    );
                }
            }
        }
        for (i, j) in self.joints.iter().enumerate() {
            name(
                &mut c,
                format!("joints[{i}].name"),
                j.name.is_unterminated(),
            );
            name(
                &mut c,
                format!("joints[{i}].parent"),
                j.parent.is_unterminated(),
            );
            for (what, n) in [
                ("rotation_keys", j.rotation_keys.len()),
                ("position_keys", j.position_keys.len()),
            ] {
                if n > limits::KEYS {
                    c.error(
                        format!("joints[{i}].{what}"),
                        format!("{n} keys exceed the file's 16-bit count"),
                        None,
                    );
                }
            }
        }
        let mut problems = c.finish();
        // The general checks, without their count warnings (errors above).
        problems.extend(self.validate().into_iter().filter(|p| {
            !matches!(
                p.path.as_str(),
                "vertices" | "triangles" | "groups" | "materials" | "joints"
            )
        }));
        problems
    }
}
