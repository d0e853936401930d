//! What the acceptance programs share: reading a glTF file into a scene,
//! listing its meshes as the importer made them, laying positions out per
//! source mesh, the extent of what was written, and writing the
//! expectations file the Node checks read.
//!
//! Each program (`import_accept`, `md2_accept`, `ms3d_accept`) turns glTF
//! files into JSON that a three.js script compares with its own reading of
//! the same files; the JSON keeps the same shape for all three.

use std::collections::HashMap;
use std::path::Path;

use retromodel::gltf::{import, Import, ImportOptions};
use retromodel::scene::Scene;
use retromodel::texture::TextureResolver;
use serde_json::{json, Value};

/// The command line `PROGRAM OUT_DIR FILE...`: the output folder and the
/// files, or the usage printed and exit status 2.
pub fn out_dir_and_files(program: &str) -> (String, Vec<String>) {
    let mut args = std::env::args().skip(1);
    match args.next() {
        Some(out) => (out, args.collect()),
        None => {
            eprintln!("usage: {program} OUT_DIR FILE...");
            std::process::exit(2);
        }
    }
}

/// The file's bytes and its import (textures resolved beside it), or the
/// error as a message.
pub fn import_file(file: &str) -> Result<(Vec<u8>, Import), String> {
    let path = Path::new(file);
    let bytes = std::fs::read(path).map_err(|e| format!("{file}: {e}"))?;
    let resolver = TextureResolver::for_model_file(path);
    let imported = import(&bytes, Some(&resolver), &ImportOptions::default())
        .map_err(|e| format!("{file}: {e}"))?;
    Ok((bytes, imported))
}

/// Each scene mesh as `{name, node, primitive, vertices}`: the glTF node
/// that placed it and its primitive's place among that node's, which is
/// how the three.js side finds the same mesh. `more(mesh, node)` adds
/// fields.
pub fn mesh_list(
    scene: &Scene,
    mut more: impl FnMut(&retromodel::scene::Mesh, usize, &mut Value),
) -> Vec<Value> {
    let mut seen = HashMap::<usize, usize>::new();
    scene
        .meshes
        .iter()
        .map(|m| {
            let node = m.node.expect("a mesh placed by a node");
            let primitive = seen.entry(node).or_default();
            let mut entry = json!({ "name": m.name, "node": node, "primitive": *primitive,
                                    "vertices": m.positions.len() });
            more(m, node, &mut entry);
            *primitive += 1;
            entry
        })
        .collect()
}

/// Per source mesh, its vertices' positions flattened (`[x, y, z, x, …]`),
/// taken from `positions` of the written model through `vertex_map` (per
/// mesh, per vertex: the written vertex, or `None` for one left out, which
/// becomes three `null`s).
pub fn positions_by_source(vertex_map: &[Vec<Option<u32>>], positions: &[[f32; 3]]) -> Vec<Value> {
    vertex_map
        .iter()
        .map(|map| {
            let flat: Vec<Value> = map
                .iter()
                .flat_map(|v| match v {
                    Some(v) => positions[*v as usize].map(|x| json!(x)).to_vec(),
                    None => vec![Value::Null; 3],
                })
                .collect();
            Value::Array(flat)
        })
        .collect()
}

/// The axis-aligned box of the points seen; its largest side is the
/// extent the checks' tolerances scale with.
#[derive(Debug, Clone, Copy)]
pub struct Extent {
    lo: [f32; 3],
    hi: [f32; 3],
}

impl Default for Extent {
    fn default() -> Self {
        Extent {
            lo: [f32::INFINITY; 3],
            hi: [f32::NEG_INFINITY; 3],
        }
    }
}

impl Extent {
    /// Takes in `points`.
    pub fn add(&mut self, points: impl IntoIterator<Item = [f32; 3]>) {
        for p in points {
            for ((lo, hi), x) in self.lo.iter_mut().zip(&mut self.hi).zip(p) {
                *lo = lo.min(x);
                *hi = hi.max(x);
            }
        }
    }

    /// The largest side (0 for nothing seen).
    pub fn largest_side(&self) -> f32 {
        (0..3)
            .map(|k| self.hi[k] - self.lo[k])
            .fold(0.0f32, f32::max)
    }
}

/// `file` made canonical when it can be (the Node side opens it again).
pub fn canonical(file: &str) -> Value {
    let path = Path::new(file);
    json!(std::fs::canonicalize(path).unwrap_or(path.to_path_buf()))
}

/// Writes `{"files": entries}` to `OUT_DIR/NAME`, says so, and exits with
/// status 1 when something `failed`.
pub fn finish(out: &str, name: &str, entries: Vec<Value>, failed: bool) {
    let out = Path::new(out).join(name);
    let json = serde_json::to_vec(&json!({ "files": entries })).expect("JSON of the expectations");
    std::fs::write(&out, json).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    println!("wrote {}", out.display());
    if failed {
        std::process::exit(1);
    }
}
