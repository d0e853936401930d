//! MilkShape 1.8's extras, which the ASCII format has no place for, kept
//! in `//` lines of the header.
//!
//! Every reader of the text skips `//` lines before the first section:
//! MilkShape's own importer (`if (!strncmp (szLine, "//", 2)) continue;`
//! in its line loop), StepMania's `RageModelGeometry::LoadMilkshapeAscii`
//! (the same test) and the Blender 2.45 importer (`getNextLine` skips
//! them). Fields past the seventh on a vertex line would be another
//! place, but the Blender importer refuses a vertex line of more than
//! seven fields, and MilkShape reads lines into a 256-byte buffer. So the
//! weights go in the header, one short line per vertex that has any:
//!
//! ```text
//! // retromodel vertex extras: 3 14            subversion, record size
//! // retromodel weights: 0 5 2 -1 -1 60 40 0 0 0   mesh vertex, bone ids ×3,
//!                                               weights ×3, extra words ×2
//! // retromodel joint colours: 1               subversion
//! // retromodel joint colour: 0 1 0.5 0        joint, r g b
//! // retromodel model extras: 1 1 0 0.5        subversion, joint size,
//!                                               transparency mode, alpha ref
//! // retromodel material mode: 0 128           material, mode
//! ```
//!
//! A vertex without a `weights` line gets bone ids −1, weights 0 and no
//! extra words. Lines that do not parse, or point nowhere, are ignored
//! (and [`AsciiModel::validate`] warns about them).

use super::{AsciiModel, Mesh};
use crate::ms3d::{JointExtras, ModelExtras, Ms3d, VertexExtra, VertexExtras};

/// `// retromodel vertex extras: SUBVERSION RECORD_SIZE`.
pub(super) const VERTEX_EXTRAS: &str = "// retromodel vertex extras: ";
/// `// retromodel weights: MESH VERTEX B1 B2 B3 W0 W1 W2 E1 E2`.
pub(super) const WEIGHTS: &str = "// retromodel weights: ";
/// `// retromodel joint colours: SUBVERSION`.
pub(super) const JOINT_COLOURS: &str = "// retromodel joint colours: ";
/// `// retromodel joint colour: JOINT R G B`.
pub(super) const JOINT_COLOUR: &str = "// retromodel joint colour: ";
/// `// retromodel model extras: SUBVERSION JOINT_SIZE MODE ALPHA_REF`.
pub(super) const MODEL_EXTRAS: &str = "// retromodel model extras: ";
/// `// retromodel material mode: MATERIAL MODE`.
pub(super) const MATERIAL_MODE: &str = "// retromodel material mode: ";

/// The record a vertex without a `weights` line gets.
const NO_EXTRA: VertexExtra = VertexExtra {
    bone_ids: [-1; 3],
    weights: [0; 3],
    extra: [0; 2],
};

/// The header lines that keep `model`'s extras. `sources[m][v]` is the
/// binary vertex of text vertex `v` of mesh `m`.
pub(super) fn lines(model: &Ms3d, sources: &[Vec<u16>]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, m) in model.materials.iter().enumerate() {
        if m.mode != 0 {
            out.push(format!("{MATERIAL_MODE}{i} {}", m.mode));
        }
    }
    let Some(v) = &model.extras.vertices else {
        return out;
    };
    out.push(format!("{VERTEX_EXTRAS}{} {}", v.subversion, v.record_size));
    for (m, mesh) in sources.iter().enumerate() {
        for (t, &b) in mesh.iter().enumerate() {
            let r = v.records.get(usize::from(b)).copied().unwrap_or(NO_EXTRA);
            if r != NO_EXTRA {
                let [b1, b2, b3] = r.bone_ids;
                let [w0, w1, w2] = r.weights;
                let [e1, e2] = r.extra;
                out.push(format!(
                    "{WEIGHTS}{m} {t} {b1} {b2} {b3} {w0} {w1} {w2} {e1} {e2}"
                ));
            }
        }
    }
    if let Some(j) = &model.extras.joints {
        out.push(format!("{JOINT_COLOURS}{}", j.subversion));
        for (i, [r, g, b]) in j.colors.iter().enumerate() {
            if [r, g, b].iter().all(|x| x.is_finite()) {
                out.push(format!("{JOINT_COLOUR}{i} {r} {g} {b}"));
            }
        }
        if let Some(x) = &model.extras.model {
            if x.joint_size.is_finite() && x.alpha_ref.is_finite() {
                out.push(format!(
                    "{MODEL_EXTRAS}{} {} {} {}",
                    x.subversion, x.joint_size, x.transparency_mode, x.alpha_ref
                ));
            }
        }
    }
    out
}

/// The extras the header keeps, as [`AsciiModel::to_ms3d`] gives them.
#[derive(Debug, Default)]
pub(super) struct Kept {
    /// Vertex weights, one record per vertex of the meshes.
    pub vertices: Option<VertexExtras>,
    /// Joint colours (only with vertex weights, as the binary orders them).
    pub joints: Option<JointExtras>,
    /// Model settings (only with joint colours).
    pub model: Option<ModelExtras>,
    /// Material modes by material index.
    pub material_modes: Vec<(usize, u8)>,
}

/// The numbers after `prefix` on `line`, when there are exactly `N` and
/// they all parse.
fn numbers<T: std::str::FromStr, const N: usize>(line: &str, prefix: &str) -> Option<[T; N]> {
    let rest = line.strip_prefix(prefix)?;
    let parts: Vec<T> = rest
        .split_ascii_whitespace()
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    parts.try_into().ok()
}

impl AsciiModel {
    /// The header lines of [the kept extras](self) that do not parse or
    /// point nowhere, with why.
    pub(super) fn unread_kept_lines(&self) -> Vec<(usize, &'static str)> {
        let mut bad = Vec::new();
        let meshes = self.mesh_list();
        for (i, line) in self.header.iter().enumerate() {
            let why = if line.starts_with(WEIGHTS) {
                match numbers::<i64, 10>(line, WEIGHTS) {
                    Some(f) if weight_record(&f).is_some() => {
                        let fits = usize::try_from(f[0])
                            .ok()
                            .and_then(|m| meshes.get(m))
                            .is_some_and(|m| {
                                usize::try_from(f[1]).is_ok_and(|v| v < m.vertices.len())
                            });
                        (!fits).then_some("points at no vertex of the meshes")
                    }
                    _ => Some("is not a mesh, a vertex and 8 numbers in range"),
                }
            } else if line.starts_with(VERTEX_EXTRAS) {
                vertex_extras_header(line)
                    .is_none()
                    .then_some("is not a subversion and a record size of 6, 10 or 14")
            } else if line.starts_with(JOINT_COLOUR) {
                numbers::<f32, 4>(line, JOINT_COLOUR)
                    .filter(|f| f[0] >= 0.0 && (f[0] as usize) < self.bone_list().len())
                    .is_none()
                    .then_some("is not a bone index and 3 numbers")
            } else if line.starts_with(MODEL_EXTRAS) {
                numbers::<f32, 4>(line, MODEL_EXTRAS)
                    .is_none()
                    .then_some("is not 4 numbers")
            } else if line.starts_with(MATERIAL_MODE) {
                numbers::<usize, 2>(line, MATERIAL_MODE)
                    .filter(|f| f[0] < self.material_list().len() && f[1] <= 255)
                    .is_none()
                    .then_some("is not a material index and a byte")
            } else {
                None
            };
            if let Some(why) = why {
                bad.push((i, why));
            }
        }
        bad
    }

    /// The extras the header keeps, for the binary model of these meshes.
    pub(super) fn kept(&self) -> Kept {
        let mut out = Kept::default();
        let meshes = self.mesh_list();
        for line in &self.header {
            if let Some([m, mode]) = numbers::<usize, 2>(line, MATERIAL_MODE) {
                if let Ok(mode) = u8::try_from(mode) {
                    out.material_modes.push((m, mode));
                }
            }
        }
        let Some((subversion, record_size)) =
            self.header.iter().find_map(|l| vertex_extras_header(l))
        else {
            return out;
        };
        let total: usize = meshes.iter().map(|m| m.vertices.len()).sum();
        let mut records = vec![NO_EXTRA; total];
        let starts = mesh_starts(meshes);
        for line in &self.header {
            let Some(f) = numbers::<i64, 10>(line, WEIGHTS) else {
                continue;
            };
            let (Ok(m), Ok(v)) = (usize::try_from(f[0]), usize::try_from(f[1])) else {
                continue;
            };
            let Some(record) = weight_record(&f) else {
                continue;
            };
            if meshes.get(m).is_some_and(|mesh| v < mesh.vertices.len()) {
                records[starts[m] + v] = record;
            }
        }
        out.vertices = Some(VertexExtras {
            subversion,
            record_size,
            records,
        });
        let Some(joint_sub) = self
            .header
            .iter()
            .find_map(|l| numbers::<i32, 1>(l, JOINT_COLOURS))
        else {
            return out;
        };
        let mut colors = vec![[0.0f32; 3]; self.bone_list().len()];
        for line in &self.header {
            if let Some([j, r, g, b]) = numbers::<f32, 4>(line, JOINT_COLOUR) {
                if j >= 0.0 && j.fract() == 0.0 {
                    if let Some(c) = colors.get_mut(j as usize) {
                        *c = [r, g, b];
                    }
                }
            }
        }
        out.joints = Some(JointExtras {
            subversion: joint_sub[0],
            colors,
        });
        out.model = self.header.iter().find_map(|l| {
            let [s, size, mode, alpha] = numbers::<f32, 4>(l, MODEL_EXTRAS)?;
            Some(ModelExtras {
                subversion: s as i32,
                joint_size: size,
                transparency_mode: mode as i32,
                alpha_ref: alpha,
            })
        });
        out
    }
}

/// Where each mesh's vertices start among all the meshes' vertices.
fn mesh_starts(meshes: &[Mesh]) -> Vec<usize> {
    let mut at = 0;
    meshes
        .iter()
        .map(|m| {
            let start = at;
            at += m.vertices.len();
            start
        })
        .collect()
}

/// `(subversion, record_size)` of a `vertex extras` line whose record
/// size the binary writer takes.
fn vertex_extras_header(line: &str) -> Option<(i32, usize)> {
    let [s, size] = numbers::<i64, 2>(line, VERTEX_EXTRAS)?;
    let size = usize::try_from(size).ok()?;
    let sizes = crate::ms3d::layout::extras::VERTEX_RECORD_SIZES;
    Some((i32::try_from(s).ok()?, size)).filter(|_| sizes.contains(&size))
}

/// The record of a `weights` line's numbers (after mesh and vertex),
/// when each fits its field.
fn weight_record(f: &[i64; 10]) -> Option<VertexExtra> {
    let id = |x: i64| i8::try_from(x).ok();
    let w = |x: i64| u8::try_from(x).ok();
    let e = |x: i64| u32::try_from(x).ok();
    Some(VertexExtra {
        bone_ids: [id(f[2])?, id(f[3])?, id(f[4])?],
        weights: [w(f[5])?, w(f[6])?, w(f[7])?],
        extra: [e(f[8])?, e(f[9])?],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept lines that point nowhere or do not fit are skipped (and
    /// `validate` says so); those that fit are used, and the binary writes.
    #[test]
    fn hostile_kept_lines_are_skipped_and_named() {
        let text = "// retromodel vertex extras: 3 14\n\
            // retromodel weights: 0 1 0 -1 -1 60 40 0 0 0\n\
            // retromodel weights: 0 9 0 -1 -1 60 40 0 0 0\n\
            // retromodel weights: 0 0 0 -1 -1 600 0 0 0 0\n\
            // retromodel weights: 1 0 0 -1 -1 60 40 0 0 0\n\
            // retromodel joint colours: 1\n\
            // retromodel joint colour: 5 1 0 0\n\
            // retromodel model extras: 1 NaN 0 0.5\n\
            // retromodel material mode: 3 64\n\
            Meshes: 1\n\"m\" 0 -1\n2\n0 0 0 0 0 0 0\n0 1 0 0 0 0 0\n0\n0\n\
            Materials: 0\nBones: 1\n\"b\"\n\"\"\n0 0 0 0 0 0 0\n0\n0\n";
        let model = AsciiModel::parse(text.as_bytes()).unwrap();
        let problems = model.validate();
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "header[2]",
                "header[3]",
                "header[4]",
                "header[6]",
                "header[8]"
            ],
            "{problems:?}"
        );
        let binary = model.to_ms3d().unwrap();
        let v = binary.extras.vertices.as_ref().unwrap();
        assert_eq!((v.subversion, v.record_size), (3, 14));
        assert_eq!(v.records[1].weights, [60, 40, 0]);
        assert_eq!(v.records[0], NO_EXTRA);
        assert_eq!(binary.extras.joints.as_ref().unwrap().colors, [[0.0; 3]]);
        assert!(
            binary.extras.comments.is_some(),
            "weights come after comments"
        );
        let bytes = binary.to_bytes().unwrap();
        let read = Ms3d::from_bytes(&bytes).unwrap();
        assert_eq!(read.extras.vertices, binary.extras.vertices);
    }
}
