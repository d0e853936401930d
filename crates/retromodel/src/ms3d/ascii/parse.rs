//! Reading the text into an [`AsciiModel`], section by section.
//!
//! A UTF-8 text is read as such (a leading byte-order mark is skipped);
//! any other is in the writer's code page, read one char per byte
//! ([`Encoding::Bytes`]), so that names keep their bytes. Every
//! count is checked against the lines that remain, and lists grow with the
//! items actually read (at most a few thousand are allocated ahead), so
//! memory stays a small multiple of the input (a vertex takes 48 bytes in
//! memory and at least 14 in the text); every error names its line.

use std::borrow::Cow;

use super::lines::{quote, Lines};
use super::{
    AsciiModel, Bone, Encoding, IndexedComment, Key, Material, Mesh, Section, Triangle, Vertex,
};
use crate::error::Result;

/// The fewest lines a mesh takes: its header and three counts.
const MESH_LINES: usize = 4;
/// The fewest lines a material takes.
const MATERIAL_LINES: usize = 9;
/// The fewest lines a bone takes: name, parent, rest pose, two counts.
const BONE_LINES: usize = 5;
/// The lines an indexed comment takes: its index and its text.
const COMMENT_LINES: usize = 2;
/// The most items a list allocates room for before they are read.
const PREALLOCATED: usize = 4096;

impl AsciiModel {
    /// Parses a MilkShape 3D ASCII text.
    ///
    /// Any of the sections may be missing (but not all), in any order,
    /// each at most once; blank lines and `//` lines are skipped anywhere
    /// but in comment texts. Counts that the remaining lines cannot hold,
    /// a wrong number of fields, numbers that do not parse or are not
    /// finite (`NaN`, `inf`, `1e39` for an `f32`), integers out of the
    /// binary field's range and unterminated quotes are errors naming the
    /// line. A text that is not UTF-8 is in the writer's code page
    /// (MilkShape writes names as their bytes): it is read one char per
    /// byte ([`Encoding::Bytes`]).
    ///
    /// ```
    /// use retromodel::ms3d::ascii::AsciiModel;
    ///
    /// let err = AsciiModel::parse(b"Meshes: 1\n\"m\" 0 -1\n1\n0 1 2 3\n0\n0\n").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "ms3d ascii line 4: expected 7 fields for a vertex (flags x y z u v bone), found 4: \"0 1 2 3\""
    /// );
    /// ```
    pub fn parse(text: &[u8]) -> Result<AsciiModel> {
        // A text that is not UTF-8 is in the writer's code page: each
        // byte is held as one char, so that names keep their bytes.
        let (text, encoding) = match std::str::from_utf8(text) {
            Ok(t) => (
                Cow::Borrowed(t.strip_prefix('\u{feff}').unwrap_or(t)),
                Encoding::Utf8,
            ),
            Err(_) => {
                let t = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
                (Cow::Owned(Encoding::Bytes.decode(t)), Encoding::Bytes)
            }
        };
        let mut lines = Lines::new(&text);
        let mut model = AsciiModel {
            header: lines.leading_comments(),
            encoding,
            ..AsciiModel::default()
        };
        let mut first_line = [0usize; Section::ALL.len()];
        while let Some(line) = lines.significant() {
            let (section, value) = section_header(&lines, line)?;
            let slot = &mut first_line[section as usize];
            if *slot != 0 {
                return Err(lines.error(format!(
                    "a second {}: section (the first is on line {})",
                    section.keyword(),
                    slot
                )));
            }
            *slot = lines.line();
            model.order.push(section);
            read_section(&mut lines, &mut model, section, value)?;
        }
        if model.order.is_empty() {
            return Err(lines.error_at(
                lines.last_line(),
                "no MilkShape 3D ASCII section (Frames:, Frame:, Meshes:, Materials:, Bones:, \
                 GroupComments:, MaterialComments:, BoneComments: or ModelComment:)"
                    .into(),
            ));
        }
        Ok(model.canonical())
    }
}

/// A `Keyword: N` line: the section and its number.
fn section_header<'a>(lines: &Lines<'a>, line: &'a str) -> Result<(Section, &'a str)> {
    let unknown = || {
        lines.error(format!(
            "expected a section (Frames:, Frame:, Meshes:, Materials:, Bones:, GroupComments:, \
             MaterialComments:, BoneComments: or ModelComment:), found {}",
            quote(line)
        ))
    };
    let (word, rest) = line.split_once(':').ok_or_else(unknown)?;
    let section = Section::from_keyword(word.trim_end()).ok_or_else(unknown)?;
    let [value] = lines.fields::<1>(rest, &format!("{}:", section.keyword()))?;
    Ok((section, value))
}

fn read_section(
    lines: &mut Lines,
    model: &mut AsciiModel,
    section: Section,
    value: &str,
) -> Result<()> {
    match section {
        Section::Frames => model.frames = Some(lines.int(value, "Frames:", "of an i32")?),
        Section::Frame => model.frame = Some(lines.int(value, "Frame:", "of an i32")?),
        Section::Meshes => {
            let n = lines.check_count(value, "meshes", MESH_LINES)?;
            model.meshes = Some(read_list(lines, n, read_mesh)?);
        }
        Section::Materials => {
            let n = lines.check_count(value, "materials", MATERIAL_LINES)?;
            model.materials = Some(read_list(lines, n, read_material)?);
        }
        Section::Bones => {
            let n = lines.check_count(value, "bones", BONE_LINES)?;
            model.bones = Some(read_list(lines, n, read_bone)?);
        }
        Section::GroupComments => model.group_comments = Some(read_comments(lines, value)?),
        Section::MaterialComments => {
            model.material_comments = Some(read_comments(lines, value)?);
        }
        Section::BoneComments => model.bone_comments = Some(read_comments(lines, value)?),
        Section::ModelComment => {
            let n: u64 = match value.parse() {
                Ok(n @ (0 | 1)) => n,
                _ => {
                    return Err(lines.error(format!(
                        "ModelComment: must be 0 or 1 (a model has one comment), found {}",
                        quote(value)
                    )))
                }
            };
            model.model_comment = Some(if n == 1 {
                Some(unescape(lines.expect_raw("the model comment")?))
            } else {
                None
            });
        }
    }
    Ok(())
}

/// `n` items read by `item` (`n` was checked against the remaining lines
/// already). At most [`PREALLOCATED`] items are allocated ahead: the
/// rest grows with what actually parses (blank lines count as lines but
/// hold no item), so memory follows the items read, not the count.
fn read_list<T>(
    lines: &mut Lines,
    n: usize,
    mut item: impl FnMut(&mut Lines) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(n.min(PREALLOCATED));
    for _ in 0..n {
        out.push(item(lines)?);
    }
    Ok(out)
}

fn read_mesh(lines: &mut Lines) -> Result<Mesh> {
    let line = lines.expect("a mesh (\"name\" flags material)")?;
    let (name, rest) = lines.quoted(line, "a mesh name")?;
    let [flags, material] = lines.fields::<2>(rest, "a mesh after its name (flags material)")?;
    let flags = lines.int(flags, "mesh flags", "0..=255")?;
    let material = lines.int(material, "mesh material index", "-128..=127")?;

    let n = lines.count("vertices", 1)?;
    let vertices = read_list(lines, n, read_vertex)?;
    let n = lines.count("normals", 1)?;
    let normals = read_list(lines, n, |lines| {
        let line = lines.expect("a normal (x y z)")?;
        let f = lines.fields::<3>(line, "a normal (x y z)")?;
        lines.f32x3(&f, "a normal")
    })?;
    let n = lines.count("triangles", 1)?;
    let triangles = read_list(lines, n, read_triangle)?;
    Ok(Mesh {
        name: name.to_string(),
        flags,
        material,
        vertices,
        normals,
        triangles,
    })
}

fn read_vertex(lines: &mut Lines) -> Result<Vertex> {
    const WHAT: &str = "a vertex (flags x y z u v bone)";
    let line = lines.expect(WHAT)?;
    let (f, extra) = lines.leading_fields::<7>(line, WHAT)?;
    Ok(Vertex {
        flags: lines.int(f[0], "vertex flags", "0..=255")?,
        position: lines.f32x3(&f[1..4], "a vertex position")?,
        uv: [
            lines.f32(f[4], "a texture coordinate")?,
            lines.f32(f[5], "a texture coordinate")?,
        ],
        bone: lines.int(f[6], "vertex bone index", "-128..=127")?,
        extra: if extra.is_empty() {
            String::new()
        } else {
            extra.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
        },
    })
}

fn read_triangle(lines: &mut Lines) -> Result<Triangle> {
    const WHAT: &str = "a triangle (flags v1 v2 v3 n1 n2 n3 smoothing)";
    let line = lines.expect(WHAT)?;
    let f = lines.fields::<8>(line, WHAT)?;
    let index = |field: &str, what: &str| lines.int::<u32>(field, what, "0..=4294967295");
    Ok(Triangle {
        flags: lines.int(f[0], "triangle flags", "0..=65535")?,
        vertices: [
            index(f[1], "a vertex index")?,
            index(f[2], "a vertex index")?,
            index(f[3], "a vertex index")?,
        ],
        normals: [
            index(f[4], "a normal index")?,
            index(f[5], "a normal index")?,
            index(f[6], "a normal index")?,
        ],
        smoothing_group: lines.int(f[7], "smoothing group", "0..=4294967295")?,
    })
}

fn read_material(lines: &mut Lines) -> Result<Material> {
    let line = lines.expect("a material name")?;
    let name = lines.quoted_only(line, "a material name")?.to_string();
    let mut colour = |what: &str| -> Result<[f32; 4]> {
        let line = lines.expect(&format!("the {what} colour (r g b a)"))?;
        let f = lines.fields::<4>(line, &format!("the {what} colour (r g b a)"))?;
        let c = format!("the {what} colour");
        Ok([
            lines.f32(f[0], &c)?,
            lines.f32(f[1], &c)?,
            lines.f32(f[2], &c)?,
            lines.f32(f[3], &c)?,
        ])
    };
    let ambient = colour("ambient")?;
    let diffuse = colour("diffuse")?;
    let specular = colour("specular")?;
    let emissive = colour("emissive")?;
    let mut number = |what: &str| -> Result<f32> {
        let line = lines.expect(what)?;
        let [f] = lines.fields::<1>(line, what)?;
        lines.f32(f, what)
    };
    let shininess = number("the shininess")?;
    let transparency = number("the transparency")?;
    let line = lines.expect("the colour map (quoted)")?;
    let texture = lines.quoted_only(line, "the colour map")?.to_string();
    let line = lines.expect("the alpha map (quoted)")?;
    let alphamap = lines.quoted_only(line, "the alpha map")?.to_string();
    Ok(Material {
        name,
        ambient,
        diffuse,
        specular,
        emissive,
        shininess,
        transparency,
        texture,
        alphamap,
    })
}

fn read_bone(lines: &mut Lines) -> Result<Bone> {
    let line = lines.expect("a bone name")?;
    let name = lines.quoted_only(line, "a bone name")?.to_string();
    let line = lines.expect("a parent bone name")?;
    let parent = lines.quoted_only(line, "a parent bone name")?.to_string();
    const REST: &str = "a bone (flags x y z rx ry rz)";
    let line = lines.expect(REST)?;
    let f = lines.fields::<7>(line, REST)?;
    let flags = lines.int(f[0], "bone flags", "0..=255")?;
    let position = lines.f32x3(&f[1..4], "a bone position")?;
    let rotation = lines.f32x3(&f[4..7], "a bone rotation")?;
    let position_keys = read_keys(lines, "position keys", "a position key (frame x y z)")?;
    let rotation_keys = read_keys(lines, "rotation keys", "a rotation key (frame rx ry rz)")?;
    Ok(Bone {
        name,
        parent,
        flags,
        position,
        rotation,
        position_keys,
        rotation_keys,
    })
}

fn read_keys(lines: &mut Lines, what: &str, one: &str) -> Result<Vec<Key>> {
    let n = lines.count(what, 1)?;
    read_list(lines, n, |lines| {
        let line = lines.expect(one)?;
        let f = lines.fields::<4>(line, one)?;
        Ok(Key {
            frame: lines.f64(f[0], "a key frame")?,
            value: lines.f32x3(&f[1..4], "a key value")?,
        })
    })
}

fn read_comments(lines: &mut Lines, value: &str) -> Result<Vec<IndexedComment>> {
    let n = lines.check_count(value, "comments", COMMENT_LINES)?;
    read_list(lines, n, |lines| {
        let line = lines.expect("a comment's index")?;
        let [index] = lines.fields::<1>(line, "a comment's index")?;
        let index = lines.int(index, "a comment's index", "of an i32")?;
        let text = unescape(lines.expect_raw("a comment's text")?);
        Ok(IndexedComment { index, text })
    })
}

/// A comment line as MilkShape's importer reads it: `\n` stands for CRLF.
pub(super) fn unescape(line: &str) -> String {
    line.replace("\\n", "\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn err(text: &str) -> (usize, String) {
        err_bytes(text.as_bytes())
    }

    fn err_bytes(text: &[u8]) -> (usize, String) {
        match AsciiModel::parse(text).unwrap_err() {
            Error::Ms3dAscii {
                line: Some(line),
                message,
            } => (line, message),
            other => panic!("unexpected error {other}"),
        }
    }

    /// A complete one-triangle model, written by hand in MilkShape's
    /// layout (`%f` numbers, the 1.8 comment sections).
    const ONE: &str = "// MilkShape 3D ASCII\r\n\r\nFrames: 30\r\nFrame: 1\r\n\r\n\
        Meshes: 1\r\n\"tri\" 0 0\r\n3\r\n\
        0 0.000000 0.000000 0.000000 0.000000 1.000000 0\r\n\
        1 1.000000 0.000000 0.000000 1.000000 1.000000 0\r\n\
        0 0.000000 1.000000 0.000000 0.000000 0.000000 -1\r\n\
        1\r\n0.000000 0.000000 1.000000\r\n1\r\n0 0 1 2 0 0 0 1\r\n\r\n\
        Materials: 1\r\n\"mat\"\r\n0.200000 0.200000 0.200000 1.000000\r\n\
        0.800000 0.800000 0.800000 1.000000\r\n0.000000 0.000000 0.000000 1.000000\r\n\
        0.000000 0.000000 0.000000 1.000000\r\n0.000000\r\n1.000000\r\n\"tex\\a b.png\"\r\n\"\"\r\n\r\n\
        Bones: 1\r\n\"joint1\"\r\n\"\"\r\n8 0.000000 0.000000 0.000000 0.000000 0.000000 1.250000\r\n\
        2\r\n1.000000 0.000000 0.000000 0.000000\r\n15.500000 1.000000 0.000000 0.000000\r\n\
        1\r\n1.000000 0.000000 0.000000 0.000000\r\n\
        GroupComments: 1\r\n0\r\n// not a comment line here\\nsecond\r\n\
        MaterialComments: 0\r\nBoneComments: 0\r\nModelComment: 1\r\n   spaced  \r\n";

    #[test]
    fn a_complete_model_reads_field_by_field() {
        let m = AsciiModel::parse(ONE.as_bytes()).unwrap();
        assert_eq!(m.header, ["// MilkShape 3D ASCII"]);
        assert_eq!(m.order, Section::ALL);
        assert_eq!((m.frames, m.frame), (Some(30), Some(1)));
        let mesh = &m.mesh_list()[0];
        assert_eq!(
            (mesh.name.as_str(), mesh.flags, mesh.material),
            ("tri", 0, 0)
        );
        assert_eq!(mesh.vertices.len(), 3);
        assert_eq!(
            mesh.vertices[1],
            Vertex {
                flags: 1,
                position: [1.0, 0.0, 0.0],
                uv: [1.0, 1.0],
                bone: 0,
                extra: String::new()
            }
        );
        assert_eq!(mesh.vertices[2].bone, -1);
        assert_eq!(mesh.normals, [[0.0, 0.0, 1.0]]);
        assert_eq!(
            mesh.triangles,
            [Triangle {
                flags: 0,
                vertices: [0, 1, 2],
                normals: [0, 0, 0],
                smoothing_group: 1
            }]
        );
        let mat = &m.material_list()[0];
        assert_eq!(mat.name, "mat");
        assert_eq!(mat.ambient, [0.2, 0.2, 0.2, 1.0]);
        assert_eq!(mat.diffuse, [0.8, 0.8, 0.8, 1.0]);
        assert_eq!((mat.shininess, mat.transparency), (0.0, 1.0));
        assert_eq!(
            (mat.texture.as_str(), mat.alphamap.as_str()),
            ("tex\\a b.png", "")
        );
        let bone = &m.bone_list()[0];
        assert_eq!(
            (bone.name.as_str(), bone.parent.as_str(), bone.flags),
            ("joint1", "", 8)
        );
        assert_eq!(bone.rotation, [0.0, 0.0, 1.25]);
        assert_eq!(bone.position_keys.len(), 2);
        assert_eq!(bone.position_keys[1].frame, 15.5);
        assert_eq!(bone.position_keys[1].value, [1.0, 0.0, 0.0]);
        assert_eq!(bone.rotation_keys.len(), 1);
        // The comment text is read raw (a `//` there is text), `\n` is CRLF.
        assert_eq!(
            m.group_comments,
            Some(vec![IndexedComment {
                index: 0,
                text: "// not a comment line here\r\nsecond".into()
            }])
        );
        assert_eq!(m.material_comments, Some(vec![]));
        assert_eq!(m.model_comment, Some(Some("   spaced  ".into())));
    }

    #[test]
    fn split_files_hold_one_section() {
        let m = AsciiModel::parse(b"Bones: 0\n").unwrap();
        assert_eq!(m.order, [Section::Bones]);
        assert!(m.header.is_empty());
        let m = AsciiModel::parse(b"\xef\xbb\xbfMaterials: 0").unwrap();
        assert_eq!(m.materials, Some(vec![]));
    }

    #[test]
    fn extra_vertex_fields_are_kept() {
        let m = AsciiModel::parse(b"Meshes: 1\n\"m\" 0 -1\n1\n0 1 2 3 4 5 -1   7  100\t-1\n0\n0\n")
            .unwrap();
        assert_eq!(m.mesh_list()[0].vertices[0].extra, "7 100 -1");
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            err("Frames: 30\n\nMeshes: 1\n\"m\" 0\n0\n0\n0\n"),
            (
                4,
                "expected 2 fields for a mesh after its name (flags material), found 1: \"0\""
                    .into()
            )
        );
        assert_eq!(
            err("Meshes: 1\n\"m\" 0 0\n1\n0 1 2 nan 4 5 0\n0\n0\n"),
            (
                4,
                "a vertex position is not a finite number: \"nan\"".into()
            )
        );
        assert_eq!(
            err("Meshes: 4000000000\n"),
            (
                1,
                "4000000000 meshes announced, which need at least 16000000000 more lines, but \
                 only 1 remains"
                    .into()
            )
        );
        assert_eq!(
            err("Meshes: 1\n\"m\" 0 0\n2\n0 1 2 3 4 5 0\n"),
            (
                5,
                "unexpected end of file, expected a vertex (flags x y z u v bone)".into()
            )
        );
        assert_eq!(
            err("Bones: 1\n\"b\n\n\n\n\n"),
            (2, "unterminated quote in a bone name: \"\\\"b\"".into())
        );
        assert_eq!(
            err("Frames: 30\nFrames: 31\n"),
            (
                2,
                "a second Frames: section (the first is on line 1)".into()
            )
        );
        assert_eq!(
            err("Frames: x\n"),
            (1, "Frames: is not a whole number: \"x\"".into())
        );
        assert_eq!(err("Vertices: 3\n").0, 1);
        assert_eq!(err("// only a comment\n\n").0, 3);
        assert_eq!(
            err("Materials: 1\n\"m\"\n1 1 1 1\n//\n//\n//\n//\n//\n//\n//\n"),
            (
                11,
                "unexpected end of file, expected the diffuse colour (r g b a)".into()
            )
        );
        assert_eq!(
            err("ModelComment: 2\na\nb\n"),
            (
                1,
                "ModelComment: must be 0 or 1 (a model has one comment), found \"2\"".into()
            )
        );
        // The line after the index is the comment, even an empty last one.
        let m = AsciiModel::parse(b"GroupComments: 1\n0\n").unwrap();
        assert_eq!(m.group_comments.unwrap()[0].text, "");
        assert_eq!(err("GroupComments: 1\n0").0, 1);
        assert_eq!(
            err_bytes(b"Frames: 1\nBones: 0\n\xff\n"),
            (
                3,
                "expected a section (Frames:, Frame:, Meshes:, Materials:, Bones:, GroupComments:, \
                 MaterialComments:, BoneComments: or ModelComment:), found \"\u{ff}\"".into()
            )
        );
        assert_eq!(
            err("Meshes: 1\n\"m\" 0 0\n0\n0\n1\n0 0 1 2 0 0 0 -1\n"),
            (
                6,
                "smoothing group -1 is out of range 0..=4294967295".into()
            )
        );
    }

    #[test]
    fn a_count_past_the_end_is_caught_before_reading() {
        // 2 vertices announced, 1 line left: caught at the count.
        let (line, msg) = err("Meshes: 1\n\"m\" 0 0\n5\n0 1 2 3 4 5 0\n0\n0");
        assert_eq!(line, 3);
        assert_eq!(
            msg,
            "5 vertices announced, which need at least 5 more lines, but only 3 remain"
        );
    }
}
