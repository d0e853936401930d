//! An [`AsciiModel`] as the binary [`Ms3d`] MilkShape would save it: the
//! meshes' vertices concatenated, per-corner texture coordinates and
//! normals, one group per mesh, key frames turned into seconds.

use super::{AsciiModel, IndexedComment, Key as TextKey, Mesh, DEFAULT_FPS};
use super::{DEFAULT_FRAME, DEFAULT_TOTAL_FRAMES};
use crate::error::{Error, Result};
use crate::ms3d::{
    Comment, Comments, Extras, Group, Joint, Key, Material, ModelComment, Ms3d, Name128, Name32,
    Triangle, Vertex,
};

/// The vertex index a corner gets when its text index points nowhere:
/// past the end of any MS3D's vertices (they are counted in 16 bits).
pub(super) const NOWHERE: u16 = u16::MAX;

/// The most items a 16-bit count or index can address.
pub(super) const MAX_U16_ITEMS: usize = u16::MAX as usize;

/// The most groups a triangle's 8-bit group index can address.
pub(super) const MAX_GROUPS: usize = 256;

impl AsciiModel {
    /// The binary model, at the frame rate the text keeps in a
    /// `// retromodel fps: N` comment line (what [`AsciiModel::from_ms3d`]
    /// writes for a rate other than MilkShape's default), else at
    /// [`DEFAULT_FPS`] frames per second.
    pub fn to_ms3d(&self) -> Result<Ms3d> {
        self.to_ms3d_with_fps(self.fps().unwrap_or(DEFAULT_FPS))
    }

    /// The frame rate the text keeps in a `// retromodel fps: N` comment
    /// line, if any.
    pub fn fps(&self) -> Option<f32> {
        self.header.iter().find_map(|line| {
            line.strip_prefix(super::from_ms3d::FPS_COMMENT)?
                .trim()
                .parse::<f32>()
                .ok()
                .filter(|f| f.is_finite() && *f >= 1.0)
        })
    }

    /// The binary model MilkShape would save from this text, its key
    /// frames turned into seconds at `fps` (`seconds = frame / fps`).
    ///
    /// See [the module documentation](crate::ms3d::ascii) for the mapping
    /// (smoothing groups above 255 are kept modulo 256, in the binary's
    /// byte, as MilkShape's importer keeps them). A
    /// model [`AsciiModel::validate`] finds no error in always converts;
    /// the errors here are the binary format's limits (more than 65535
    /// vertices, triangles, materials, bones or keys of a bone, more than
    /// 256 meshes, a key frame whose seconds overflow an `f32`) and an
    /// `fps` that is not a finite number of at least 1 (MilkShape's viewer
    /// plays slower rates at 1).
    ///
    /// ```
    /// use retromodel::ms3d::ascii::AsciiModel;
    ///
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let text = "Bones: 1\n\"root\"\n\"\"\n0 0 0 0 0 0 0\n1\n15 1 2 3\n0\n";
    /// let model = AsciiModel::parse(text.as_bytes())?.to_ms3d_with_fps(30.0)?;
    /// assert_eq!(model.fps, 30.0);
    /// assert_eq!(model.joints[0].position_keys[0].time, 0.5);
    /// # Ok(()) }
    /// ```
    pub fn to_ms3d_with_fps(&self, fps: f32) -> Result<Ms3d> {
        if !(fps.is_finite() && fps >= 1.0) {
            return Err(Error::unwritable(
                "fps",
                format!("{fps} is not a finite rate of at least 1 frame per second"),
            ));
        }
        self.check_limits()?;
        let (vertices, triangles, groups) = self.geometry();
        let joints = self.joints(fps)?;
        let kept = self.kept();
        let mut materials = self.binary_materials();
        for (m, mode) in kept.material_modes {
            if let Some(m) = materials.get_mut(m) {
                m.mode = mode;
            }
        }
        let mut comments = self.binary_comments();
        if kept.vertices.is_some() && comments.is_none() {
            // The binary file's extras come in order: weights after the
            // comments.
            comments = Some(Comments {
                subversion: 1,
                groups: Vec::new(),
                materials: Vec::new(),
                joints: Vec::new(),
                model: ModelComment::None(0),
            });
        }
        Ok(Ms3d {
            version: 4,
            vertices,
            triangles,
            groups,
            materials,
            fps,
            current_time: self.frame.unwrap_or(DEFAULT_FRAME) as f32,
            total_frames: self.frames.unwrap_or(DEFAULT_TOTAL_FRAMES),
            joints,
            extras: Extras {
                comments,
                vertices: kept.vertices,
                joints: kept.joints,
                model: kept.model,
            },
            trailing: Vec::new(),
        })
    }

    /// The counts the binary format can address.
    fn check_limits(&self) -> Result<()> {
        let meshes = self.mesh_list();
        let vertices: usize = meshes.iter().map(|m| m.vertices.len()).sum();
        let triangles: usize = meshes.iter().map(|m| m.triangles.len()).sum();
        for (what, n, limit, noun, why) in [
            (
                "meshes",
                meshes.len(),
                MAX_GROUPS,
                "meshes",
                "a triangle's group index is 8 bits",
            ),
            (
                "meshes",
                vertices,
                MAX_U16_ITEMS,
                "vertices in all",
                "MS3D indexes vertices in 16 bits",
            ),
            (
                "meshes",
                triangles,
                MAX_U16_ITEMS,
                "triangles in all",
                "MS3D indexes triangles in 16 bits",
            ),
            (
                "materials",
                self.material_list().len(),
                MAX_U16_ITEMS,
                "materials",
                "MS3D counts them in 16 bits",
            ),
            (
                "bones",
                self.bone_list().len(),
                MAX_U16_ITEMS,
                "bones",
                "MS3D counts them in 16 bits",
            ),
        ] {
            if n > limit {
                return Err(Error::unwritable(
                    what,
                    format!("{n} {noun}: {why} (at most {limit})"),
                ));
            }
        }
        for (i, b) in self.bone_list().iter().enumerate() {
            for (what, n) in [
                ("position_keys", b.position_keys.len()),
                ("rotation_keys", b.rotation_keys.len()),
            ] {
                if n > MAX_U16_ITEMS {
                    return Err(Error::unwritable(
                        format!("bones[{i}].{what}"),
                        format!("{n} keys: MS3D counts them in 16 bits (at most {MAX_U16_ITEMS})"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Vertices, triangles and groups (counts checked by
    /// [`AsciiModel::check_limits`]).
    fn geometry(&self) -> (Vec<Vertex>, Vec<Triangle>, Vec<Group>) {
        let meshes = self.mesh_list();
        let nv: usize = meshes.iter().map(|m| m.vertices.len()).sum();
        let nt: usize = meshes.iter().map(|m| m.triangles.len()).sum();
        let mut vertices = Vec::with_capacity(nv);
        let mut triangles = Vec::with_capacity(nt);
        let mut groups = Vec::with_capacity(meshes.len());
        for (g, mesh) in meshes.iter().enumerate() {
            let base = vertices.len();
            let first_triangle = triangles.len();
            vertices.extend(mesh.vertices.iter().map(|v| Vertex {
                flags: v.flags,
                position: v.position,
                bone_id: v.bone,
                reference_count: 0,
            }));
            triangles.extend(
                mesh.triangles
                    .iter()
                    .map(|t| binary_triangle(mesh, t, base, g as u8)),
            );
            groups.push(Group {
                flags: mesh.flags,
                name: Name32::from_bytes(&self.encoding.encode(&mesh.name)),
                triangles: (first_triangle..triangles.len())
                    .map(|t| t as u16)
                    .collect(),
                material: mesh.material,
            });
        }
        count_references(&mut vertices, &triangles);
        (vertices, triangles, groups)
    }

    fn binary_materials(&self) -> Vec<Material> {
        let enc = self.encoding;
        self.material_list()
            .iter()
            .map(|m| Material {
                name: Name32::from_bytes(&enc.encode(&m.name)),
                ambient: m.ambient,
                diffuse: m.diffuse,
                specular: m.specular,
                emissive: m.emissive,
                shininess: m.shininess,
                transparency: m.transparency,
                mode: 0,
                texture: Name128::from_bytes(&enc.encode(&m.texture)),
                alphamap: Name128::from_bytes(&enc.encode(&m.alphamap)),
            })
            .collect()
    }

    fn joints(&self, fps: f32) -> Result<Vec<Joint>> {
        let mut out = Vec::with_capacity(self.bone_list().len());
        for (i, b) in self.bone_list().iter().enumerate() {
            out.push(Joint {
                flags: b.flags,
                name: Name32::from_bytes(&self.encoding.encode(&b.name)),
                parent: Name32::from_bytes(&self.encoding.encode(&b.parent)),
                rotation: b.rotation,
                position: b.position,
                rotation_keys: seconds(&b.rotation_keys, fps, i, "rotation_keys")?,
                position_keys: seconds(&b.position_keys, fps, i, "position_keys")?,
            });
        }
        Ok(out)
    }

    /// The comments extra, when the text has any comment section.
    fn binary_comments(&self) -> Option<Comments> {
        let any = self.group_comments.is_some()
            || self.material_comments.is_some()
            || self.bone_comments.is_some()
            || self.model_comment.is_some();
        if !any {
            return None;
        }
        let list = |c: &Option<Vec<IndexedComment>>| -> Vec<Comment> {
            c.as_deref()
                .unwrap_or(&[])
                .iter()
                .map(|c| Comment {
                    index: c.index,
                    text: self.encoding.encode(&c.text).into_owned(),
                })
                .collect()
        };
        Some(Comments {
            subversion: 1,
            groups: list(&self.group_comments),
            materials: list(&self.material_comments),
            joints: list(&self.bone_comments),
            model: match self.model_comment.as_ref().and_then(Option::as_ref) {
                Some(text) => ModelComment::LengthText(self.encoding.encode(text).into_owned()),
                None => ModelComment::None(0),
            },
        })
    }
}

/// A text triangle of `mesh` as a binary one: vertex indices offset by
/// `base` (or [`NOWHERE`]), each corner's texture coordinate from its
/// vertex and normal by value (zero when its index points nowhere).
fn binary_triangle(mesh: &Mesh, t: &super::Triangle, base: usize, group: u8) -> Triangle {
    let mut out = Triangle {
        flags: t.flags,
        // MilkShape's msTriangle_SetSmoothingGroup takes a byte.
        smoothing_group: t.smoothing_group as u8,
        group,
        ..Triangle::default()
    };
    for k in 0..3 {
        let v = t.vertices[k] as usize;
        if let Some(vertex) = mesh.vertices.get(v) {
            out.vertices[k] = (base + v) as u16;
            out.s[k] = vertex.uv[0];
            out.t[k] = vertex.uv[1];
        } else {
            out.vertices[k] = NOWHERE;
        }
        if let Some(n) = mesh.normals.get(t.normals[k] as usize) {
            out.normals[k] = *n;
        }
    }
    out
}

/// Sets each vertex's reference count: the number of triangles that use
/// it (a triangle once), at most 255.
fn count_references(vertices: &mut [Vertex], triangles: &[Triangle]) {
    let mut counts = vec![0u32; vertices.len()];
    for t in triangles {
        let [a, b, c] = t.vertices;
        for (k, v) in [a, b, c].into_iter().enumerate() {
            let repeat = (k >= 1 && v == a) || (k == 2 && v == b);
            if !repeat {
                if let Some(n) = counts.get_mut(v as usize) {
                    *n += 1;
                }
            }
        }
    }
    for (v, n) in vertices.iter_mut().zip(counts) {
        v.reference_count = n.min(255) as u8;
    }
}

/// Keys in frames as keys in seconds at `fps`.
fn seconds(keys: &[TextKey], fps: f32, bone: usize, what: &str) -> Result<Vec<Key>> {
    let fps = f64::from(fps);
    keys.iter()
        .enumerate()
        .map(|(k, key)| {
            let time = (key.frame / fps) as f32;
            if !time.is_finite() {
                return Err(Error::unwritable(
                    format!("bones[{bone}].{what}[{k}].frame"),
                    format!(
                        "frame {} is {} s at {fps} fps, beyond an f32",
                        key.frame,
                        key.frame / fps
                    ),
                ));
            }
            Ok(Key {
                time,
                value: key.value,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two meshes (a quad sharing vertex 0 and 2, and a triangle with a
    /// vertex index that points nowhere), written by hand, and the binary
    /// model expected of them, worked out by hand.
    #[test]
    fn meshes_become_groups_over_one_vertex_list() {
        let text = "Frames: 40\nFrame: 3\nMeshes: 2\n\
            \"quad\" 1 0\n4\n\
            0 0 0 0 0 1 0\n0 1 0 0 1 1 0\n0 1 1 0 1 0 -1\n2 0 1 0 0 0 1\n\
            2\n0 0 1\n0 0 -1\n2\n0 0 1 2 0 0 1 1\n4 0 2 3 1 1 0 2\n\
            \"tri\" 0 -1\n2\n0 5 5 5 0.5 0.5 -1\n0 6 6 6 0.25 0.75 -1\n\
            1\n1 0 0\n1\n0 0 1 7 0 3 0 0\n\
            Materials: 0\n";
        let m = AsciiModel::parse(text.as_bytes())
            .unwrap()
            .to_ms3d()
            .unwrap();
        assert_eq!(m.version, 4);
        assert_eq!((m.fps, m.current_time, m.total_frames), (24.0, 3.0, 40));
        let positions: Vec<[f32; 3]> = m.vertices.iter().map(|v| v.position).collect();
        assert_eq!(
            positions,
            [
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [5.0, 5.0, 5.0],
                [6.0, 6.0, 6.0]
            ]
        );
        let refs: Vec<u8> = m.vertices.iter().map(|v| v.reference_count).collect();
        assert_eq!(refs, [2, 1, 2, 1, 1, 1]);
        assert_eq!(m.vertices[3].flags, 2);
        assert_eq!(m.vertices[2].bone_id, -1);
        assert_eq!(m.triangles.len(), 3);
        let t = &m.triangles[1];
        assert_eq!(t.vertices, [0, 2, 3]);
        assert_eq!(t.flags, 4);
        assert_eq!(t.s, [0.0, 1.0, 0.0]);
        assert_eq!(t.t, [1.0, 0.0, 0.0]);
        assert_eq!(
            t.normals,
            [[0.0, 0.0, -1.0], [0.0, 0.0, -1.0], [0.0, 0.0, 1.0]]
        );
        assert_eq!((t.smoothing_group, t.group), (2, 0));
        let t = &m.triangles[2];
        assert_eq!(t.vertices, [4, 5, NOWHERE]);
        assert_eq!(t.s, [0.5, 0.25, 0.0]);
        assert_eq!(
            t.normals[1],
            [0.0, 0.0, 0.0],
            "normal index 3 points nowhere"
        );
        assert_eq!(t.group, 1);
        assert_eq!(m.groups.len(), 2);
        assert_eq!(m.groups[0].name.as_bytes(), b"quad");
        assert_eq!((m.groups[0].flags, m.groups[0].material), (1, 0));
        assert_eq!(m.groups[0].triangles, [0, 1]);
        assert_eq!(m.groups[1].triangles, [2]);
        assert_eq!(m.groups[1].material, -1);
        assert!(m.materials.is_empty() && m.joints.is_empty());
        assert_eq!(m.extras, Extras::default());
        // The binary writer accepts it; its validation reports the vertex
        // pointing nowhere and the bones and material the text does not
        // have.
        let bytes = m.to_bytes().unwrap();
        let back = Ms3d::from_bytes(&bytes).unwrap();
        let problems: Vec<String> = back.validate().iter().map(|p| p.path.clone()).collect();
        assert_eq!(
            problems,
            [
                "vertices[0].bone_id",
                "vertices[1].bone_id",
                "vertices[3].bone_id",
                "triangles[2].vertices[2]",
                "groups[0].material"
            ]
        );
    }

    #[test]
    fn keys_turn_into_seconds_and_comments_into_the_extra() {
        let text = "Bones: 1\n\"b\"\n\"\"\n0 0 0 0 0 0 0\n2\n1 0 0 0\n30 1 0 0\n1\n15 0 1 0\n\
            GroupComments: 1\n0\nx\\ny\nModelComment: 1\nmodel\n";
        let m = AsciiModel::parse(text.as_bytes())
            .unwrap()
            .to_ms3d_with_fps(30.0)
            .unwrap();
        let j = &m.joints[0];
        assert_eq!(j.position_keys[0].time, 1.0 / 30.0);
        assert_eq!(j.position_keys[1].time, 1.0);
        assert_eq!(j.rotation_keys[0].time, 0.5);
        let c = m.extras.comments.unwrap();
        assert_eq!(c.subversion, 1);
        assert_eq!(c.groups[0].text, b"x\r\ny");
        assert!(c.materials.is_empty() && c.joints.is_empty());
        assert_eq!(c.model, ModelComment::LengthText(b"model".to_vec()));
        // No Frames:/Frame: sections: MilkShape's defaults.
        assert_eq!((m.total_frames, m.current_time), (30, 1.0));
    }

    #[test]
    fn fps_must_be_a_rate_the_viewer_plays() {
        let model = AsciiModel::parse(b"Bones: 0\n").unwrap();
        for fps in [0.5, 0.0, -24.0, f32::NAN, f32::INFINITY] {
            assert!(model.to_ms3d_with_fps(fps).is_err(), "{fps}");
        }
        assert!(model.to_ms3d_with_fps(1.0).is_ok());
    }

    #[test]
    fn the_binary_limits_are_errors() {
        let model = AsciiModel {
            meshes: Some(vec![Mesh::default(); 257]),
            ..AsciiModel::default()
        };
        let err = model.to_ms3d().unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot write meshes: 257 meshes: a triangle's group index is 8 bits (at most 256)"
        );
    }
}
