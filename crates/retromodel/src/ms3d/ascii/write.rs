//! Writing an [`AsciiModel`] as text, in MilkShape's layout (its section
//! order, blank lines and quoting), with floats in their shortest exact
//! form.

use std::fmt::Write;

use super::{AsciiModel, Bone, IndexedComment, Key, Material, Mesh, Section};

impl AsciiModel {
    /// The model as MilkShape 3D ASCII text (LF line ends).
    ///
    /// Sections come in [`AsciiModel::sections`] order. Floats are written
    /// in the shortest form that reads back to the same value, so
    /// `AsciiModel::parse(model.to_text())` gives the model back exactly
    /// for any model `parse` or [`AsciiModel::from_ms3d`] made. Names and
    /// paths are written so that the text stays readable: a `"` in them
    /// becomes `'` and an LF a space; an empty mesh, material or
    /// bone name is written as `" "`, as MilkShape does (its importer, and
    /// StepMania's, reject `""`). Comment line breaks are written as `\n`.
    /// In a model of [`Encoding::Bytes`](super::Encoding::Bytes) each char
    /// stands for a byte of a code page: [`AsciiModel::to_bytes`] writes
    /// the file.
    ///
    /// ```
    /// use retromodel::ms3d::ascii::AsciiModel;
    ///
    /// let model = AsciiModel { frames: Some(30), frame: Some(1), ..Default::default() };
    /// assert_eq!(model.to_text(), "Frames: 30\nFrame: 1\n\n");
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.text_size_hint());
        for line in &self.header {
            out.push_str(line);
            out.push('\n');
        }
        if !self.header.is_empty() {
            out.push('\n');
        }
        for section in self.sections() {
            self.write_section(&mut out, section);
        }
        out
    }

    /// About how long the text will be (to size the buffer once).
    fn text_size_hint(&self) -> usize {
        let meshes: usize = self
            .mesh_list()
            .iter()
            .map(|m| 64 * m.vertices.len() + 32 * m.normals.len() + 24 * m.triangles.len())
            .sum();
        let keys: usize = self
            .bone_list()
            .iter()
            .map(|b| 40 * (b.position_keys.len() + b.rotation_keys.len()))
            .sum();
        256 + meshes + keys + 200 * self.material_list().len()
    }

    fn write_section(&self, out: &mut String, section: Section) {
        let keyword = section.keyword();
        match section {
            Section::Frames => {
                let _ = writeln!(out, "{keyword}: {}", self.frames.unwrap_or_default());
            }
            Section::Frame => {
                let _ = writeln!(out, "{keyword}: {}", self.frame.unwrap_or_default());
                out.push('\n');
            }
            Section::Meshes => {
                let meshes = self.mesh_list();
                let _ = writeln!(out, "{keyword}: {}", meshes.len());
                for mesh in meshes {
                    write_mesh(out, mesh);
                }
                out.push('\n');
            }
            Section::Materials => {
                let materials = self.material_list();
                let _ = writeln!(out, "{keyword}: {}", materials.len());
                for material in materials {
                    write_material(out, material);
                }
                out.push('\n');
            }
            Section::Bones => {
                let bones = self.bone_list();
                let _ = writeln!(out, "{keyword}: {}", bones.len());
                for bone in bones {
                    write_bone(out, bone);
                }
            }
            Section::GroupComments => write_comments(out, keyword, &self.group_comments),
            Section::MaterialComments => write_comments(out, keyword, &self.material_comments),
            Section::BoneComments => write_comments(out, keyword, &self.bone_comments),
            Section::ModelComment => match self.model_comment.as_ref().and_then(Option::as_ref) {
                None => {
                    let _ = writeln!(out, "{keyword}: 0");
                }
                Some(text) => {
                    let _ = writeln!(out, "{keyword}: 1");
                    out.push_str(&escape(text));
                    out.push('\n');
                }
            },
        }
    }
}

fn write_mesh(out: &mut String, mesh: &Mesh) {
    let _ = writeln!(
        out,
        "\"{}\" {} {}",
        item_name(&mesh.name),
        mesh.flags,
        mesh.material
    );
    let _ = writeln!(out, "{}", mesh.vertices.len());
    for v in &mesh.vertices {
        let [x, y, z] = v.position;
        let [u, t] = v.uv;
        let _ = write!(out, "{} {x} {y} {z} {u} {t} {}", v.flags, v.bone);
        if !v.extra.is_empty() {
            out.push(' ');
            out.push_str(&one_line(&v.extra));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", mesh.normals.len());
    for [x, y, z] in &mesh.normals {
        let _ = writeln!(out, "{x} {y} {z}");
    }
    let _ = writeln!(out, "{}", mesh.triangles.len());
    for t in &mesh.triangles {
        let [a, b, c] = t.vertices;
        let [na, nb, nc] = t.normals;
        let _ = writeln!(
            out,
            "{} {a} {b} {c} {na} {nb} {nc} {}",
            t.flags, t.smoothing_group
        );
    }
}

fn write_material(out: &mut String, m: &Material) {
    let _ = writeln!(out, "\"{}\"", item_name(&m.name));
    for [r, g, b, a] in [m.ambient, m.diffuse, m.specular, m.emissive] {
        let _ = writeln!(out, "{r} {g} {b} {a}");
    }
    let _ = writeln!(out, "{}", m.shininess);
    let _ = writeln!(out, "{}", m.transparency);
    let _ = writeln!(out, "\"{}\"", path(&m.texture));
    let _ = writeln!(out, "\"{}\"", path(&m.alphamap));
}

fn write_bone(out: &mut String, b: &Bone) {
    let _ = writeln!(out, "\"{}\"", item_name(&b.name));
    let _ = writeln!(out, "\"{}\"", path(&b.parent));
    let [x, y, z] = b.position;
    let [rx, ry, rz] = b.rotation;
    let _ = writeln!(out, "{} {x} {y} {z} {rx} {ry} {rz}", b.flags);
    write_keys(out, &b.position_keys);
    write_keys(out, &b.rotation_keys);
}

fn write_keys(out: &mut String, keys: &[Key]) {
    let _ = writeln!(out, "{}", keys.len());
    for k in keys {
        let [x, y, z] = k.value;
        let _ = writeln!(out, "{} {x} {y} {z}", k.frame);
    }
}

fn write_comments(out: &mut String, keyword: &str, comments: &Option<Vec<IndexedComment>>) {
    let comments = comments.as_deref().unwrap_or(&[]);
    let _ = writeln!(out, "{keyword}: {}", comments.len());
    for c in comments {
        let _ = writeln!(out, "{}", c.index);
        out.push_str(&escape(&c.text));
        out.push('\n');
    }
}

/// A mesh, material or bone name: readable inside quotes, and never
/// empty (MilkShape writes `" "` for an empty name).
pub(super) fn item_name(name: &str) -> std::borrow::Cow<'_, str> {
    if name.is_empty() {
        " ".into()
    } else {
        path(name)
    }
}

/// A name or path readable inside quotes on one line: `"` becomes `'`,
/// LF a space.
pub(super) fn path(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains(['"', '\n']) {
        name.replace('"', "'").replace('\n', " ").into()
    } else {
        name.into()
    }
}

/// Free text on one line (LF becomes a space).
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\n') {
        text.replace('\n', " ").into()
    } else {
        text.into()
    }
}

/// A comment as MilkShape's exporter writes it: CRLF as `\n`, and a lone
/// LF (which would end the line) as `\n` too. A lone CR stays: only CRs
/// before the line end are part of it.
fn escape(text: &str) -> String {
    text.replace("\r\n", "\\n").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::super::{Triangle, Vertex};
    use super::*;

    /// Every section, with values whose shortest forms are known, against
    /// the text written out by hand.
    #[test]
    fn writes_milkshape_layout_with_shortest_floats() {
        let model = AsciiModel {
            header: vec!["// MilkShape 3D ASCII".into()],
            order: vec![],
            frames: Some(30),
            frame: Some(1),
            meshes: Some(vec![Mesh {
                name: String::new(),
                flags: 1,
                material: -1,
                vertices: vec![Vertex {
                    flags: 0,
                    position: [4.5, -33.25, 0.1],
                    uv: [0.083333, 1.0],
                    bone: 6,
                    extra: "7 100".into(),
                }],
                normals: vec![[0.0, -0.0, 1.0]],
                triangles: vec![Triangle {
                    flags: 2,
                    vertices: [0, 0, 0],
                    normals: [0, 0, 0],
                    smoothing_group: 3,
                }],
            }]),
            materials: Some(vec![Material {
                name: "say \"hi\"".into(),
                ambient: [0.2, 0.2, 0.2, 1.0],
                diffuse: [0.8, 0.8, 0.8, 1.0],
                specular: [0.0; 4],
                emissive: [0.0; 4],
                shininess: 12.5,
                transparency: 1.0,
                texture: "tex\\black.png".into(),
                alphamap: String::new(),
            }]),
            bones: Some(vec![Bone {
                name: "joint1".into(),
                parent: String::new(),
                flags: 8,
                position: [0.0, 0.0, 10.0],
                rotation: [0.02631, 0.000259, 0.0],
                position_keys: vec![Key {
                    frame: 1.0,
                    value: [0.0, 0.0, 0.0],
                }],
                rotation_keys: vec![Key {
                    frame: 15.000000357627869,
                    value: [0.401426, 0.0, 0.0],
                }],
            }]),
            group_comments: Some(vec![IndexedComment {
                index: 0,
                text: "two\r\nlines\nand\ra CR".into(),
            }]),
            material_comments: Some(vec![]),
            bone_comments: None,
            model_comment: Some(Some("model".into())),
            encoding: Default::default(),
        };
        let expected =
            "// MilkShape 3D ASCII\n\nFrames: 30\nFrame: 1\n\nMeshes: 1\n\" \" 1 -1\n1\n\
            0 4.5 -33.25 0.1 0.083333 1 6 7 100\n1\n0 -0 1\n1\n2 0 0 0 0 0 0 3\n\n\
            Materials: 1\n\"say 'hi'\"\n0.2 0.2 0.2 1\n0.8 0.8 0.8 1\n0 0 0 0\n0 0 0 0\n12.5\n1\n\
            \"tex\\black.png\"\n\"\"\n\n\
            Bones: 1\n\"joint1\"\n\"\"\n8 0 0 10 0.02631 0.000259 0\n1\n1 0 0 0\n1\n\
            15.000000357627869 0.401426 0 0\n\
            GroupComments: 1\n0\ntwo\\nlines\\nand\ra CR\nMaterialComments: 0\nModelComment: 1\nmodel\n";
        assert_eq!(model.to_text(), expected);
    }

    #[test]
    fn the_order_read_is_the_order_written() {
        let model = AsciiModel {
            order: vec![Section::Bones, Section::Frames],
            frames: Some(5),
            frame: Some(2),
            bones: Some(vec![]),
            ..AsciiModel::default()
        };
        assert_eq!(model.to_text(), "Bones: 0\nFrames: 5\nFrame: 2\n\n");
    }
}
