//! Reading back what [`Scene::from_md2`] records about the MD2 it came
//! from, so that compiling that scene gives the same model.
//!
//! `Scene::from_md2` puts into its mesh's `extras`:
//!
//! - `extras["attributes"]["_MD2_VERTEX"]`: for every scene vertex, the
//!   MD2 vertex it was made from (numbers). The glTF exporter writes it
//!   as the vertex attribute `_MD2_VERTEX` (SCALAR, UNSIGNED_SHORT), and
//!   the glTF importer gives `_`-attributes back in the same place, so a
//!   scene read back from glTF carries it too.
//! - `extras["md2"]`: `num_vertices`, `skin_width`, `skin_height`,
//!   `skins` (the skin names as text; the text wins when someone edited
//!   it), `skins_raw` (the 64-byte records as stored, in hexadecimal),
//!   `frame_headers`: for every frame its 40 header bytes as stored
//!   (scale, translate as little-endian `f32`, the raw 16-byte name) in
//!   hexadecimal; and, only when some MD2 vertices are in no triangle
//!   (so no scene vertex shows them), `unused_vertices` (their indices,
//!   ascending) and `unused_frames`: their 4 packed bytes (`x, y, z`,
//!   normal index) per frame, frame by frame, in hexadecimal; only when
//!   some normal index is past the 162-normal table (corrupt; the scene
//!   shows a normal repaired from the faces), `raw_normals`: `frame,
//!   vertex, index` numbers, three per such index.
//!
//! # What a compile keeps
//!
//! - **Frames.** The recorded grids, frame names and vertex order, when
//!   the scene still fits them (see `CompileOptions::reuse_md2_source`);
//!   the unused vertices are put back with their recorded bytes, and
//!   the recorded normal indices past the table too (so a corrupt file
//!   comes back as it was: `convert --repair` is how to mend it), and
//!   triangles whose corners are one MD2 vertex twice are kept, as the
//!   file had them.
//! - **Skins.** The skin names and size belong to the game the model was
//!   read from (`players/ogro/igdosh.pcx` and its 12 siblings are files
//!   of the game tree, seldom beside the model). So while the model drawn
//!   is the recorded mesh (edited or not) and no skin name is given, the
//!   compiled MD2 keeps **every recorded skin name, in order, and the
//!   recorded skin size**, and no skin file is written, even when the
//!   scene carries an image (a warning says it was not written): a
//!   modder who edits ogro in Blender and compiles it back gets a
//!   `tris.md2` that drops into `players/ogro/` beside its own skins.
//!   Texture coordinates are measured in the recorded size, as the
//!   game's skins are. Giving a skin name (`SkinOptions::name`) replaces
//!   them all: the model then names that one skin and the scene's image
//!   is written under it. The skin names are kept even when the frames
//!   cannot be (another vertex count, say), as long as the record's skin
//!   fields are readable and the scene draws only the recorded mesh; a
//!   scene with more meshes gets a new skin, packed from its textures
//!   and named after the model.
//!
//! [`Scene::from_md2`]: crate::scene::Scene::from_md2

use serde_json::Value;

use super::FrameGrid;
use crate::md2::{Frame, FrameName, PackedVertex, SkinName};
use crate::scene::Scene;

/// The key of the MD2 record in a mesh's extras.
pub(crate) const MD2_KEY: &str = "md2";
/// The vertex attribute naming each vertex's MD2 vertex.
pub(crate) const VERTEX_ATTRIBUTE: &str = "_MD2_VERTEX";
/// The record's key for the MD2 vertices no triangle uses.
pub(crate) const UNUSED_KEY: &str = "unused_vertices";
/// The record's key for their packed bytes, frame by frame.
pub(crate) const UNUSED_FRAMES_KEY: &str = "unused_frames";
/// The record's key for the normal indices past the table.
pub(crate) const RAW_NORMALS_KEY: &str = "raw_normals";

/// One frame as it was stored.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SourceFrame {
    /// Its grid.
    pub grid: FrameGrid,
    /// Its raw name.
    pub name: FrameName,
}

/// What the scene recorded about its MD2.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Md2Source {
    /// The mesh that carries it.
    pub mesh: usize,
    /// Per vertex of that mesh: its MD2 vertex.
    pub vertex_of: Vec<u32>,
    /// MD2 vertices.
    pub num_vertices: usize,
    /// Skin size.
    pub skin_size: (i32, i32),
    /// Skin names.
    pub skins: Vec<SkinName>,
    /// Frames.
    pub frames: Vec<SourceFrame>,
    /// The MD2 vertices no triangle uses, with their bytes.
    pub unused: Unused,
    /// Normal indices past the table: (frame, vertex, index).
    pub raw_normals: Vec<(usize, usize, u8)>,
}

/// The MD2 vertices no scene vertex comes from, as recorded.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Unused {
    /// Their indices, ascending.
    pub vertices: Vec<u32>,
    /// Their packed vertices, frame by frame (`frames × vertices`).
    pub packed: Vec<PackedVertex>,
}

impl Md2Source {
    /// Whether MD2 vertex `v` is one the record carries bytes for.
    pub fn is_unused(&self, v: usize) -> bool {
        u32::try_from(v).is_ok_and(|v| self.unused.vertices.binary_search(&v).is_ok())
    }

    /// Puts what the scene cannot show back into `frames` (made on this
    /// record: one per recorded frame, `num_vertices` each): the unused
    /// vertices' recorded bytes and the normal indices past the table.
    pub fn restore(&self, frames: &mut [Frame]) {
        let k = self.unused.vertices.len();
        if k > 0 {
            for (frame, packed) in frames.iter_mut().zip(self.unused.packed.chunks_exact(k)) {
                for (&v, p) in self.unused.vertices.iter().zip(packed) {
                    if let Some(slot) = frame.vertices.get_mut(v as usize) {
                        *slot = *p;
                    }
                }
            }
        }
        for &(f, v, index) in &self.raw_normals {
            if let Some(slot) = frames.get_mut(f).and_then(|f| f.vertices.get_mut(v)) {
                slot.normal_index = index;
            }
        }
    }
}

/// The skin part of a record: what the MD2 named and measured its
/// skins, readable even when its vertices no longer fit the scene.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RecordedSkins {
    /// The mesh that carries the record.
    pub mesh: usize,
    /// Skin size.
    pub size: (i32, i32),
    /// Skin names, in order.
    pub names: Vec<SkinName>,
}

/// The 40 header bytes of a frame: scale, translate, name.
pub(crate) fn frame_header_bytes(grid: &FrameGrid, name: &FrameName) -> [u8; 40] {
    let mut out = [0u8; 40];
    for (k, v) in grid.scale.iter().chain(&grid.translate).enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
    }
    out[24..].copy_from_slice(&name.0);
    out
}

/// Hexadecimal as the record stores it (shared with MS3D's stored names).
pub(crate) use crate::name::{from_hex, to_hex};

/// The first mesh of `scene` that carries an MD2 record, and how many do.
fn carriers(scene: &Scene) -> (Option<usize>, usize) {
    let mut found = scene
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.extras.get(MD2_KEY).is_some())
        .map(|(i, _)| i);
    let first = found.next();
    (first, first.map_or(0, |_| 1 + found.count()))
}

/// The skin size and names of `record` (an `extras["md2"]`).
fn skins_of(record: &Value) -> Result<((i32, i32), Vec<SkinName>), String> {
    let number = |key: &str| record.get(key).and_then(Value::as_u64);
    let skin_size = (
        i32::try_from(number("skin_width").ok_or("no skin_width")?)
            .map_err(|_| "bad skin_width")?,
        i32::try_from(number("skin_height").ok_or("no skin_height")?)
            .map_err(|_| "bad skin_height")?,
    );
    let skins = record
        .get("skins")
        .and_then(Value::as_array)
        .ok_or("no skins")?
        .iter()
        .map(|s| {
            s.as_str()
                .map(SkinName::new)
                .ok_or("a skin name is not text")
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The raw 64-byte records (bytes after the NUL included), when they
    // agree with the text.
    let raw = record
        .get("skins_raw")
        .and_then(Value::as_str)
        .and_then(from_hex)
        .filter(|b| b.len() == 64 * skins.len());
    let skins = match raw {
        Some(raw) => {
            let exact: Vec<SkinName> = raw
                .chunks_exact(64)
                .map(|c| {
                    let mut a = [0u8; 64];
                    a.copy_from_slice(c);
                    SkinName(a)
                })
                .collect();
            if exact
                .iter()
                .zip(&skins)
                .all(|(a, b)| a.as_bytes() == b.as_bytes())
            {
                exact
            } else {
                skins
            }
        }
        None => skins,
    };
    Ok((skin_size, skins))
}

/// The recorded skins of `scene`: those of the first mesh that carries
/// an MD2 record, when its skin fields are readable (whatever the rest
/// of the record, or the scene, looks like).
pub(crate) fn recorded_skins(scene: &Scene) -> Option<RecordedSkins> {
    let mesh = carriers(scene).0?;
    let (size, names) = skins_of(&scene.meshes[mesh].extras[MD2_KEY]).ok()?;
    Some(RecordedSkins { mesh, size, names })
}

/// The skin size and names a compile keeps from the scene's MD2 record
/// (see the [module documentation](self)): when no skin name is given,
/// the record's skin fields are readable with a positive size, and every
/// vertex drawn (`drawn`: per used vertex, its mesh and vertex) is the
/// recording mesh's. A texture image the used materials carry is then
/// not written, with a warning (the game's own skins are named). A skin
/// size given (`SkinOptions::size`) wins over the recorded one.
pub(crate) fn kept_skins(
    scene: &Scene,
    drawn: &[(usize, u32)],
    used_materials: &[Option<usize>],
    options: &super::SkinOptions,
    warnings: &mut Vec<super::CompileWarning>,
) -> Option<((i32, i32), Vec<SkinName>)> {
    if options.name.is_some() {
        return None;
    }
    let r = recorded_skins(scene)?;
    if r.size.0 <= 0 || r.size.1 <= 0 || drawn.iter().any(|&(mesh, _)| mesh != r.mesh) {
        return None;
    }
    let size = match options.size {
        Some((w, h)) if w > 0 && h > 0 => (
            i32::try_from(w).unwrap_or(i32::MAX),
            i32::try_from(h).unwrap_or(i32::MAX),
        ),
        _ => r.size,
    };
    let imaged = used_materials
        .iter()
        .filter_map(|m| scene.materials.get((*m)?)?.texture)
        .any(|t| scene.textures.get(t).is_some_and(|t| t.has_image()));
    if imaged {
        let names = match r.names.first() {
            None => "names no skin, as it was read,".to_string(),
            Some(first) => format!(
                "keeps the {} skin name{} it was read with ({}{})",
                r.names.len(),
                if r.names.len() == 1 { "" } else { "s" },
                first.to_string_lossy(),
                if r.names.len() > 1 { ", ..." } else { "" }
            ),
        };
        warnings.push(super::CompileWarning::Skin {
            message: format!(
                "the skin image is not written: the model {names} and a {}x{} skin size; name a skin to write the image as its one skin",
                size.0, size.1
            ),
        });
    }
    Some((size, r.names))
}

/// The unused vertices of `record`, for `frames` frames of
/// `num_vertices` vertices (none when it lists none).
fn unused_of(record: &Value, num_vertices: usize, frames: usize) -> Result<Unused, String> {
    let Some(list) = record.get(UNUSED_KEY) else {
        return Ok(Unused::default());
    };
    let vertices: Vec<u32> = list
        .as_array()
        .ok_or("unused_vertices is not a list")?
        .iter()
        .map(|v| {
            v.as_u64()
                .filter(|&v| (v as usize) < num_vertices)
                .map(|v| v as u32)
        })
        .collect::<Option<_>>()
        .ok_or("an unused_vertices value is not a vertex index")?;
    if vertices.windows(2).any(|w| w[0] >= w[1]) {
        return Err("unused_vertices is not ascending".to_string());
    }
    let bytes = record
        .get(UNUSED_FRAMES_KEY)
        .and_then(Value::as_str)
        .and_then(from_hex)
        .filter(|b| Some(b.len()) == frames.checked_mul(4 * vertices.len()))
        .ok_or("unused_frames is not 4 hexadecimal bytes per unused vertex and frame")?;
    let packed = bytes
        .chunks_exact(4)
        .map(|p| PackedVertex {
            position: [p[0], p[1], p[2]],
            normal_index: p[3],
        })
        .collect();
    Ok(Unused { vertices, packed })
}

/// The normal indices past the table of `record`, for `frames` frames
/// of `num_vertices` vertices.
fn raw_normals_of(
    record: &Value,
    num_vertices: usize,
    frames: usize,
) -> Result<Vec<(usize, usize, u8)>, String> {
    let Some(list) = record.get(RAW_NORMALS_KEY) else {
        return Ok(Vec::new());
    };
    let numbers = list
        .as_array()
        .filter(|l| l.len() % 3 == 0)
        .ok_or("raw_normals is not a list of frame, vertex, index triples")?;
    numbers
        .chunks_exact(3)
        .map(|t| {
            let n = |k: usize| t[k].as_u64().map(|x| x as usize);
            match (n(0), n(1), n(2)) {
                (Some(f), Some(v), Some(i)) if f < frames && v < num_vertices => {
                    Some((f, v, u8::try_from(i).ok()?))
                }
                _ => None,
            }
        })
        .collect::<Option<_>>()
        .ok_or_else(|| "a raw_normals entry is out of range".to_string())
}

/// The MD2 record of `scene`: `Ok(None)` when no mesh carries one, or the
/// one that does has lost its vertex map (an editor's export),
/// `Err(reason)` when one does but it cannot be used as it is.
pub(crate) fn find(scene: &Scene) -> Result<Option<Md2Source>, String> {
    let (Some(mesh), count) = carriers(scene) else {
        return Ok(None);
    };
    let drawn = scene
        .meshes
        .iter()
        .filter(|m| !m.indices.is_empty())
        .count();
    if count > 1 || drawn > 1 {
        return Err("the scene has more meshes than the MD2 it came from".to_string());
    }
    let m = &scene.meshes[mesh];
    // A record without the vertex map is what an editor gives back (Blender
    // keeps the mesh's extras as custom properties, not the `_MD2_VERTEX`
    // attribute): the mesh is the user's now, and its frames are baked
    // from it as from any scene's. Nothing is wrong, so nothing is said;
    // the skins still come from the record (`recorded_skins`).
    let Some(map) = m
        .extras
        .get("attributes")
        .and_then(|a| a.get(VERTEX_ATTRIBUTE))
    else {
        return Ok(None);
    };
    let record = &m.extras[MD2_KEY];
    let number = |key: &str| record.get(key).and_then(Value::as_u64);
    let num_vertices = number("num_vertices").ok_or("no num_vertices")? as usize;
    let (skin_size, skins) = skins_of(record)?;
    let headers = record
        .get("frame_headers")
        .and_then(Value::as_str)
        .and_then(from_hex)
        .filter(|b| b.len() % 40 == 0)
        .ok_or("frame_headers is not hexadecimal 40-byte frame headers")?;
    let f32_at = |h: &[u8], k: usize| {
        f32::from_le_bytes([h[4 * k], h[4 * k + 1], h[4 * k + 2], h[4 * k + 3]])
    };
    let frames: Vec<SourceFrame> = headers
        .chunks_exact(40)
        .map(|h| {
            let mut name = [0u8; 16];
            name.copy_from_slice(&h[24..40]);
            SourceFrame {
                grid: FrameGrid {
                    scale: std::array::from_fn(|k| f32_at(h, k)),
                    translate: std::array::from_fn(|k| f32_at(h, 3 + k)),
                },
                name: FrameName(name),
            }
        })
        .collect();
    if frames.iter().any(|f| !f.grid.is_valid()) {
        return Err("a recorded frame grid is not finite".to_string());
    }
    let vertex_of: Vec<u32> = map
        .as_array()
        .ok_or("the mesh's MD2 vertex numbers are not a list")?
        .iter()
        .map(|v| {
            v.as_f64()
                .filter(|x| x.fract() == 0.0 && *x >= 0.0 && (*x as usize) < num_vertices)
                .map(|x| x as u32)
        })
        .collect::<Option<_>>()
        .ok_or("one of the mesh's MD2 vertex numbers is not an MD2 vertex")?;
    if vertex_of.len() != m.positions.len() {
        return Err(format!(
            "the mesh has {} MD2 vertex numbers for {} vertices",
            vertex_of.len(),
            m.positions.len()
        ));
    }
    let unused = unused_of(record, num_vertices, frames.len())?;
    let raw_normals = raw_normals_of(record, num_vertices, frames.len())?;
    // Each MD2 vertex needs a scene vertex or recorded bytes (checked
    // before counting them, so a huge count allocates nothing).
    if num_vertices > vertex_of.len() + unused.vertices.len() {
        return Err("some MD2 vertices have no scene vertex".to_string());
    }
    let mut seen = vec![false; num_vertices];
    for &v in vertex_of.iter().chain(&unused.vertices) {
        seen[v as usize] = true;
    }
    if !seen.iter().all(|&s| s) {
        return Err("some MD2 vertices have no scene vertex".to_string());
    }
    Ok(Some(Md2Source {
        mesh,
        vertex_of,
        num_vertices,
        skin_size,
        skins,
        frames,
        unused,
        raw_normals,
    }))
}
