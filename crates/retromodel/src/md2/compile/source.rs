//! Reading back what [`Scene::from_md2`] records about the MD2 it came
//! from, so that compiling that scene gives the same frames.
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
//!   it), `skins_raw` (the 64-byte records as stored, in hexadecimal) and
//!   `frame_headers`: for every
//!   frame its 40 header bytes as stored (scale, translate as
//!   little-endian `f32`, the raw 16-byte name) in hexadecimal.
//!
//! [`Scene::from_md2`]: crate::scene::Scene::from_md2

use serde_json::Value;

use super::FrameGrid;
use crate::md2::{FrameName, SkinName};
use crate::scene::Scene;

/// The key of the MD2 record in a mesh's extras.
pub(crate) const MD2_KEY: &str = "md2";
/// The vertex attribute naming each vertex's MD2 vertex.
pub(crate) const VERTEX_ATTRIBUTE: &str = "_MD2_VERTEX";

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

/// The MD2 record of `scene`: `Ok(None)` when no mesh carries one,
/// `Err(reason)` when one does but it cannot be used as it is.
pub(crate) fn find(scene: &Scene) -> Result<Option<Md2Source>, String> {
    let carriers: Vec<usize> = scene
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.extras.get(MD2_KEY).is_some())
        .map(|(i, _)| i)
        .collect();
    let Some(&mesh) = carriers.first() else {
        return Ok(None);
    };
    let drawn = scene
        .meshes
        .iter()
        .filter(|m| !m.indices.is_empty())
        .count();
    if carriers.len() > 1 || drawn > 1 {
        return Err("the scene has more meshes than the MD2 it came from".to_string());
    }
    let m = &scene.meshes[mesh];
    let record = &m.extras[MD2_KEY];
    let number = |key: &str| record.get(key).and_then(Value::as_u64);
    let num_vertices = number("num_vertices").ok_or("no num_vertices")? as usize;
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
    let vertex_of: Vec<u32> = m
        .extras
        .get("attributes")
        .and_then(|a| a.get(VERTEX_ATTRIBUTE))
        .and_then(Value::as_array)
        .ok_or("no _MD2_VERTEX attribute")?
        .iter()
        .map(|v| {
            v.as_f64()
                .filter(|x| x.fract() == 0.0 && *x >= 0.0 && (*x as usize) < num_vertices)
                .map(|x| x as u32)
        })
        .collect::<Option<_>>()
        .ok_or("an _MD2_VERTEX value is not a vertex index")?;
    if vertex_of.len() != m.positions.len() {
        return Err(format!(
            "_MD2_VERTEX has {} values for {} vertices",
            vertex_of.len(),
            m.positions.len()
        ));
    }
    let mut seen = vec![false; num_vertices];
    for &v in &vertex_of {
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
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let b = [0u8, 1, 0xab, 0xff, 0x10];
        assert_eq!(to_hex(&b), "0001abff10");
        assert_eq!(from_hex(&to_hex(&b)).unwrap(), b);
        assert_eq!(from_hex("0g"), None);
        assert_eq!(from_hex("abc"), None);
    }
}
