//! A binary [`Ms3d`] as text: each group a mesh with its own vertices
//! (split where the binary shares one across texture coordinates or
//! groups) and normals, key seconds turned into frames.

use std::collections::HashMap;

use super::write::{item_name, path};
use super::{
    AsciiModel, Bone, Encoding, IndexedComment, Key, Material, Mesh, Section, Triangle, Vertex,
};
use crate::ms3d::{Comment, Group, Ms3d};

/// The start of the comment line that keeps a frame rate other than
/// [`super::DEFAULT_FPS`].
pub(super) const FPS_COMMENT: &str = "// retromodel fps: ";

/// The header MilkShape writes.
const HEADER: &str = "// MilkShape 3D ASCII";

/// The text index of a corner whose binary vertex index points nowhere.
const NOWHERE: u32 = u32::MAX;

impl AsciiModel {
    /// The text of a binary model, as described in [the module
    /// documentation](crate::ms3d::ascii): one mesh per group, key seconds as
    /// frames at the model's fps (the rate the viewer plays it at, see
    /// [`Ms3d::effective_fps`]; an infinite fps counts as 1). Names are
    /// already as the text writes them (an empty mesh, material or bone
    /// name is `" "`, a `"` is `'`, an LF a space) and every value is
    /// finite (a non-finite one is 0), so `parse(to_text())` gives the
    /// result back exactly.
    ///
    /// ```
    /// use retromodel::ms3d::{ascii::AsciiModel, sample::sample_model};
    ///
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let binary = sample_model();
    /// let text = AsciiModel::from_ms3d(&binary).to_text();
    /// let back = AsciiModel::parse(text.as_bytes())?.to_ms3d_with_fps(binary.fps)?;
    /// assert_eq!(back.joints, binary.joints);
    /// // The sample's box corners carry several texture coordinates each:
    /// // the text has a vertex for each corner and coordinate.
    /// assert_eq!((binary.vertices.len(), back.vertices.len()), (24, 60));
    /// assert_eq!(back.triangles.len(), binary.triangles.len());
    /// # Ok(()) }
    /// ```
    pub fn from_ms3d(model: &Ms3d) -> AsciiModel {
        let fps = conversion_fps(model);
        let enc = encoding_of(model);
        let unused = unused_vertices(model);
        let (meshes, sources): (Vec<Mesh>, Vec<Vec<u16>>) = model
            .groups
            .iter()
            .zip(&unused)
            .map(|(group, unused)| mesh(model, group, unused, enc))
            .unzip();
        let mut header = vec![HEADER.to_string()];
        // The text has no frame rate; a rate other than MilkShape's default
        // is kept in a comment (MilkShape skips comments), so that the text
        // reads back at it (`AsciiModel::fps`).
        let rate = model.effective_fps();
        if rate.is_finite() && rate != super::DEFAULT_FPS {
            header.push(format!("{FPS_COMMENT}{rate}"));
        }
        // 1.8's weights, joint colours, model settings and material modes
        // have no place in the text: kept in comment lines too.
        header.extend(super::kept::lines(model, &sources));
        let mut out = AsciiModel {
            header,
            order: Vec::new(),
            frames: Some(model.total_frames),
            frame: Some(whole_frame(model.current_time)),
            meshes: Some(meshes),
            materials: Some(model.materials.iter().map(|m| material(m, enc)).collect()),
            bones: Some(model.joints.iter().map(|j| bone(j, fps, enc)).collect()),
            encoding: enc,
            ..AsciiModel::default()
        };
        if let Some(c) = &model.extras.comments {
            out.group_comments = Some(comments(&c.groups, enc));
            out.material_comments = Some(comments(&c.materials, enc));
            out.bone_comments = Some(comments(&c.joints, enc));
            out.model_comment = Some(c.model.text().map(|t| comment_text(t, enc)));
        }
        out.order = Section::ALL.into_iter().filter(|&s| out.has(s)).collect();
        out
    }
}

/// The rate key seconds are turned into frames at.
fn conversion_fps(model: &Ms3d) -> f64 {
    let fps = model.effective_fps();
    if fps.is_finite() {
        f64::from(fps)
    } else {
        1.0
    }
}

/// The current time as `Frame:` writes it: its integer part (MilkShape's
/// `msModel_GetFrame` is an int).
fn whole_frame(time: f32) -> i32 {
    if time.is_finite() {
        time as i32
    } else {
        0
    }
}

/// `x`, or 0 when it is not finite (the text cannot hold it).
fn finite(x: f32) -> f32 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

fn finite3(v: [f32; 3]) -> [f32; 3] {
    v.map(finite)
}

/// The encoding that keeps every name, path and comment of `model`
/// byte for byte: UTF-8 when they all are, else one char per byte (the
/// text is then in the model's code page, as MilkShape writes it).
fn encoding_of(model: &Ms3d) -> Encoding {
    let mut texts: Vec<&[u8]> = Vec::new();
    texts.extend(model.groups.iter().map(|g| g.name.as_bytes()));
    for m in &model.materials {
        texts.extend([
            m.name.as_bytes(),
            m.texture.as_bytes(),
            m.alphamap.as_bytes(),
        ]);
    }
    for j in &model.joints {
        texts.extend([j.name.as_bytes(), j.parent.as_bytes()]);
    }
    if let Some(c) = &model.extras.comments {
        for list in [&c.groups, &c.materials, &c.joints] {
            texts.extend(list.iter().map(|c| &c.text[..]));
        }
        texts.extend(c.model.text());
    }
    Encoding::for_bytes(texts)
}

/// For each group, the binary vertices no grouped triangle uses that go
/// to its mesh: each goes with the nearest used vertex before it (after
/// it, for leading ones). None when no group uses any vertex.
fn unused_vertices(model: &Ms3d) -> Vec<Vec<u16>> {
    let mut owner: Vec<Option<usize>> = vec![None; model.vertices.len()];
    for (g, group) in model.groups.iter().enumerate() {
        for &t in &group.triangles {
            let Some(tri) = model.triangles.get(t as usize) else {
                continue;
            };
            for v in tri.vertices {
                if let Some(o) = owner.get_mut(v as usize) {
                    o.get_or_insert(g);
                }
            }
        }
    }
    let mut out = vec![Vec::new(); model.groups.len()];
    let mut last = owner.iter().flatten().next().copied();
    for (v, o) in owner.iter().enumerate() {
        match (o, last) {
            (Some(g), _) => last = Some(*g),
            (None, Some(g)) => out[g].push(v as u16),
            (None, None) => {}
        }
    }
    out
}

/// The mesh of group `g`.
/// The mesh of `group`, and the binary vertex of each of its vertices.
fn mesh(model: &Ms3d, group: &Group, unused: &[u16], enc: Encoding) -> (Mesh, Vec<u16>) {
    let triangles: Vec<&crate::ms3d::Triangle> = group
        .triangles
        .iter()
        .filter_map(|&t| model.triangles.get(t as usize))
        .collect();

    // Text vertices: one per (binary vertex, texture coordinate) used by
    // the group's corners, and one per unused vertex the group owns;
    // ordered by binary index, then by first use.
    let mut first_use: HashMap<(u16, u32, u32), usize> = HashMap::new();
    for t in &triangles {
        for k in 0..3 {
            let v = t.vertices[k];
            if (v as usize) < model.vertices.len() {
                let key = (v, finite(t.s[k]).to_bits(), finite(t.t[k]).to_bits());
                let next = first_use.len();
                first_use.entry(key).or_insert(next);
            }
        }
    }
    let mut keys: Vec<((u16, u32, u32), usize)> = first_use.into_iter().collect();
    keys.extend(
        unused
            .iter()
            .map(|&v| ((v, 0f32.to_bits(), 0f32.to_bits()), usize::MAX)),
    );
    keys.sort_unstable_by_key(|&((v, _, _), first)| (v, first));
    let mut index: HashMap<(u16, u32, u32), u32> = HashMap::with_capacity(keys.len());
    let vertices: Vec<Vertex> = keys
        .iter()
        .enumerate()
        .map(|(i, &((v, s, t), _))| {
            index.insert((v, s, t), i as u32);
            let b = &model.vertices[v as usize];
            Vertex {
                flags: b.flags,
                position: finite3(b.position),
                uv: [f32::from_bits(s), f32::from_bits(t)],
                bone: b.bone_id,
                extra: String::new(),
            }
        })
        .collect();

    // Normals: the corners' distinct normals in first-use order.
    let mut normal_index: HashMap<[u32; 3], u32> = HashMap::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let text_triangles = triangles
        .iter()
        .map(|t| {
            let mut out = Triangle {
                flags: t.flags,
                smoothing_group: u32::from(t.smoothing_group),
                ..Triangle::default()
            };
            for k in 0..3 {
                let key = (
                    t.vertices[k],
                    finite(t.s[k]).to_bits(),
                    finite(t.t[k]).to_bits(),
                );
                out.vertices[k] = index.get(&key).copied().unwrap_or(NOWHERE);
                let n = finite3(t.normals[k]);
                out.normals[k] = *normal_index.entry(n.map(f32::to_bits)).or_insert_with(|| {
                    normals.push(n);
                    (normals.len() - 1) as u32
                });
            }
            out
        })
        .collect();

    let sources = keys.iter().map(|&((v, _, _), _)| v).collect();
    let mesh = Mesh {
        name: item_name(&enc.decode(group.name.as_bytes())).into_owned(),
        flags: group.flags,
        material: group.material,
        vertices,
        normals,
        triangles: text_triangles,
    };
    (mesh, sources)
}

fn material(m: &crate::ms3d::Material, enc: Encoding) -> Material {
    Material {
        name: item_name(&enc.decode(m.name.as_bytes())).into_owned(),
        ambient: m.ambient.map(finite),
        diffuse: m.diffuse.map(finite),
        specular: m.specular.map(finite),
        emissive: m.emissive.map(finite),
        shininess: finite(m.shininess),
        transparency: finite(m.transparency),
        texture: path(&enc.decode(m.texture.as_bytes())).into_owned(),
        alphamap: path(&enc.decode(m.alphamap.as_bytes())).into_owned(),
    }
}

fn bone(j: &crate::ms3d::Joint, fps: f64, enc: Encoding) -> Bone {
    let keys = |keys: &[crate::ms3d::Key]| -> Vec<Key> {
        keys.iter()
            .map(|k| {
                // Exact in f64 (24 × 24 bits of mantissa), so dividing by
                // the same fps gives the same f32 seconds back.
                let frame = f64::from(k.time) * fps;
                Key {
                    frame: if frame.is_finite() { frame } else { 0.0 },
                    value: finite3(k.value),
                }
            })
            .collect()
    };
    Bone {
        name: item_name(&enc.decode(j.name.as_bytes())).into_owned(),
        parent: path(&enc.decode(j.parent.as_bytes())).into_owned(),
        flags: j.flags,
        position: finite3(j.position),
        rotation: finite3(j.rotation),
        position_keys: keys(&j.position_keys),
        rotation_keys: keys(&j.rotation_keys),
    }
}

fn comments(list: &[Comment], enc: Encoding) -> Vec<IndexedComment> {
    list.iter()
        .map(|c| IndexedComment {
            index: c.index,
            text: comment_text(&c.text, enc),
        })
        .collect()
}

/// A comment's bytes as the text gives them back: every line break CRLF
/// (the text writes CRLF as `\n` and cannot hold a lone CR or LF), and a
/// literal `\n` too (MilkShape's importer reads it as CRLF).
fn comment_text(bytes: &[u8], enc: Encoding) -> String {
    let s = enc.decode(bytes);
    if !s.contains(['\r', '\n']) && !s.contains("\\n") {
        return s;
    }
    s.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace("\\n", "\n")
        .replace('\n', "\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms3d::{Name32, Triangle as BinTriangle, Vertex as BinVertex};

    fn vertex(x: f32) -> BinVertex {
        BinVertex {
            position: [x, 0.0, 0.0],
            bone_id: -1,
            ..BinVertex::default()
        }
    }

    fn triangle(v: [u16; 3], s: [f32; 3], group: u8) -> BinTriangle {
        BinTriangle {
            vertices: v,
            s,
            normals: [[0.0, 0.0, 1.0]; 3],
            group,
            ..BinTriangle::default()
        }
    }

    /// A vertex shared by two texture coordinates and by two groups is
    /// split; an unused vertex follows the vertex before it; normals are
    /// shared by value.
    #[test]
    fn shared_vertices_are_split_per_group_and_texture_coordinate() {
        let model = Ms3d {
            version: 4,
            fps: 10.0,
            vertices: (0..5).map(|i| vertex(i as f32)).collect(),
            triangles: vec![
                triangle([0, 1, 2], [0.0, 0.0, 0.0], 0),
                triangle([2, 1, 0], [0.5, 0.0, 0.0], 0),
                triangle([2, 3, 4], [0.0, 0.0, 0.0], 1),
            ],
            groups: vec![
                Group {
                    name: Name32::new("a"),
                    triangles: vec![0, 1],
                    material: -1,
                    ..Group::default()
                },
                Group {
                    name: Name32::new("b"),
                    triangles: vec![2, 9],
                    material: -1,
                    ..Group::default()
                },
            ],
            ..Ms3d::default()
        };
        let text = AsciiModel::from_ms3d(&model);
        let meshes = text.mesh_list();
        let xs = |m: &Mesh| -> Vec<(f32, f32)> {
            m.vertices
                .iter()
                .map(|v| (v.position[0], v.uv[0]))
                .collect()
        };
        // Vertex 2 is used at s = 0 and s = 0.5 in group a: two vertices.
        assert_eq!(
            xs(&meshes[0]),
            [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 0.5)]
        );
        assert_eq!(meshes[0].triangles[0].vertices, [0, 1, 2]);
        assert_eq!(meshes[0].triangles[1].vertices, [3, 1, 0]);
        // Group b also uses vertex 2: its own copy; triangle index 9 points
        // nowhere and is dropped.
        assert_eq!(xs(&meshes[1]), [(2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]);
        assert_eq!(meshes[1].triangles.len(), 1);
        assert_eq!(meshes[0].normals, [[0.0, 0.0, 1.0]]);
        assert_eq!(meshes[0].triangles[1].normals, [0, 0, 0]);
    }

    #[test]
    fn unused_vertices_stay_with_their_neighbours() {
        let mut model = Ms3d {
            vertices: (0..6).map(|i| vertex(i as f32)).collect(),
            triangles: vec![
                triangle([1, 1, 1], [0.0; 3], 0),
                triangle([4, 4, 4], [0.0; 3], 1),
            ],
            groups: vec![
                Group {
                    triangles: vec![0],
                    ..Group::default()
                },
                Group {
                    triangles: vec![1],
                    ..Group::default()
                },
            ],
            ..Ms3d::default()
        };
        model.version = 4;
        assert_eq!(unused_vertices(&model), [vec![0, 2, 3], vec![5]]);
        let text = AsciiModel::from_ms3d(&model);
        let counts: Vec<usize> = text.mesh_list().iter().map(|m| m.vertices.len()).collect();
        assert_eq!(counts, [4, 2]);
        // Concatenated, the meshes give the binary vertices back in order.
        let back = text.to_ms3d().unwrap();
        assert_eq!(back.vertices.len(), 6);
        for (a, b) in back.vertices.iter().zip(&model.vertices) {
            assert_eq!(a.position, b.position);
        }
    }

    #[test]
    fn keys_become_frames_exactly() {
        let model = crate::ms3d::sample::sample_model();
        let text = AsciiModel::from_ms3d(&model);
        let j = &model.joints[1];
        let b = &text.bone_list()[1];
        for (k, t) in j.rotation_keys.iter().zip(&b.rotation_keys) {
            assert_eq!(t.frame, f64::from(k.time) * f64::from(model.fps));
            assert_eq!((t.frame / f64::from(model.fps)) as f32, k.time);
        }
    }

    #[test]
    fn comment_line_breaks_become_crlf() {
        let utf8 = Encoding::Utf8;
        assert_eq!(comment_text(b"a\nb\r\nc\rd", utf8), "a\r\nb\r\nc\r\nd");
        assert_eq!(comment_text(b"literal \\n", utf8), "literal \r\n");
        assert_eq!(comment_text(b"plain", utf8), "plain");
        // Bytes of a code page are kept, one char each.
        assert_eq!(comment_text(b"\xe9t\xe9", Encoding::Bytes), "\u{e9}t\u{e9}");
    }

    #[test]
    fn numbers_the_text_cannot_hold_become_zero() {
        let mut model = crate::ms3d::sample::sample_model();
        model.vertices[0].position[1] = f32::NAN;
        model.current_time = 17.9;
        let text = AsciiModel::from_ms3d(&model);
        assert_eq!(text.mesh_list()[0].vertices[0].position[1], 0.0);
        assert_eq!(text.frame, Some(17));
        assert!(AsciiModel::parse(text.to_text().as_bytes()).is_ok());
    }
}
