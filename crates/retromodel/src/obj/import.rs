//! Wavefront OBJ (+ MTL) import into a [`Scene`]: positions, normals,
//! texture coordinates, one mesh per object, group and material, and each
//! material's diffuse colour, opacity, emission and diffuse texture.
//!
//! The OBJ text is parsed by the `tobj` crate (triangulated, one index per
//! vertex); the `mtllib` files and the textures they name are untrusted
//! names, looked up only through the caller's [`TextureSource`] (for files:
//! a [`TextureResolver`](crate::texture::TextureResolver), confined to the
//! OBJ's folder and the search roots). What cannot be had is a warning;
//! the geometry still imports.
//!
//! OBJ files are conventionally +Y up with counter-clockwise front faces,
//! the scene's own convention, so nothing is rotated; texture coordinates
//! are flipped to the scene's top-down `v` (`v = 1 − vt`).

use std::collections::HashMap;
use std::path::Path;

use serde_json::json;

use crate::error::{Error, Result};
use crate::problem::{Problem, Severity};
use crate::scene::{AlphaMode, Material, Mesh, Scene, Texture, TextureImage};
use crate::texture::{decode, TextureSource};

/// A scene read from an OBJ, and what was passed over.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjImport {
    /// The scene: one mesh per object/group/material, static (no nodes,
    /// skins or animations).
    pub scene: Scene,
    /// Problems that did not stop the import (a material library or a
    /// texture that could not be had), with the OBJ line where known.
    pub warnings: Vec<Problem>,
}

/// Longest OBJ accepted, in bytes (a model of millions of triangles fits).
pub const MAX_OBJ_BYTES: usize = 1 << 30;

fn warning(path: String, message: String) -> Problem {
    Problem {
        severity: Severity::Warning,
        path,
        message,
        offset: None,
    }
}

/// The OBJ line (1-based) of the first face corner whose index points at
/// no vertex, texture coordinate or normal (or is not a number), and what
/// is wrong.
fn bad_face_line(text: &str) -> Option<(usize, String)> {
    let (mut v, mut vt, mut vn) = (0i64, 0i64, 0i64);
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => v += 1,
            Some("vt") => vt += 1,
            Some("vn") => vn += 1,
            Some("f") => {
                for corner in words {
                    for (k, part) in corner.split('/').enumerate().take(3) {
                        if part.is_empty() {
                            continue;
                        }
                        let (count, what) =
                            [(v, "vertex"), (vt, "texture coordinate"), (vn, "normal")][k];
                        let ok = part
                            .parse::<i64>()
                            .is_ok_and(|i| (i > 0 && i <= count) || (i < 0 && -i <= count));
                        if !ok {
                            return Some((
                                n + 1,
                                format!(
                                    "face {what} index {part} out of range (1..={count} so far)"
                                ),
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

fn obj_error(text: &str, err: tobj::LoadError) -> Error {
    let (line, message) = match err {
        tobj::LoadError::FaceVertexOutOfBounds
        | tobj::LoadError::FaceTexCoordOutOfBounds
        | tobj::LoadError::FaceNormalOutOfBounds => match bad_face_line(text) {
            Some((line, message)) => (Some(line), message),
            None => (None, err.to_string()),
        },
        other => (None, other.to_string()),
    };
    Error::Obj { line, message }
}

/// A scene material from an MTL material.
fn material(
    m: &tobj::Material,
    textures: &mut Vec<Texture>,
    source: Option<&dyn TextureSource>,
    warnings: &mut Vec<Problem>,
) -> Material {
    let alpha = m.dissolve.unwrap_or(1.0).clamp(0.0, 1.0);
    let [r, g, b] = m.diffuse.unwrap_or([1.0; 3]);
    let unit = |x: f32| {
        if x.is_finite() {
            x.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let texture = m.diffuse_texture.as_ref().and_then(|name| {
        let path = format!("materials[{:?}].map_Kd", m.name);
        let Some(source) = source else {
            warnings.push(warning(
                path,
                format!("texture {name:?} not loaded: no file access given"),
            ));
            return None;
        };
        let found = match source.load(name) {
            Ok(found) => found,
            Err(e) => {
                warnings.push(warning(path, format!("{e}; material left untextured")));
                return None;
            }
        };
        match decode(&found.bytes) {
            Ok(image) => {
                textures.push(Texture {
                    path: name.clone(),
                    image: Some(TextureImage::Pixels(image)),
                });
                Some(textures.len() - 1)
            }
            Err(e) => {
                warnings.push(warning(
                    path,
                    format!(
                        "texture {name:?} ({}): cannot decode: {e}; material left untextured",
                        found.path.display()
                    ),
                ));
                None
            }
        }
    });
    Material {
        name: m.name.clone(),
        base_color: [unit(r), unit(g), unit(b), alpha],
        texture,
        alpha_mode: if alpha < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        emissive: m.emissive.map_or([0.0; 3], |e| e.map(unit)),
        roughness: m
            .shininess
            .map_or(1.0, |s| (2.0 / (s.max(0.0) + 2.0)).sqrt()),
        ..Material::default()
    }
}

/// Reads an OBJ. `file_name` (the OBJ's own name) names the scene;
/// `source` finds the `mtllib` files and their textures (`None`: no file
/// is read and materials keep their colours only).
///
/// Fails on text that is not UTF-8 … where it matters, a face index that
/// points at no vertex (with its line), or an OBJ larger than
/// [`MAX_OBJ_BYTES`].
///
/// ```
/// use retromodel::obj::import_obj;
/// let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n";
/// let import = import_obj(obj, "tri.obj", None)?;
/// let mesh = &import.scene.meshes[0];
/// assert_eq!((mesh.positions.len(), mesh.indices.len()), (3, 3));
/// assert_eq!(mesh.uvs[2], [0.0, 0.0]); // vt 0 1 is the top-left corner
/// # Ok::<(), retromodel::Error>(())
/// ```
pub fn import_obj(
    bytes: &[u8],
    file_name: &str,
    source: Option<&dyn TextureSource>,
) -> Result<ObjImport> {
    if bytes.len() > MAX_OBJ_BYTES {
        return Err(Error::Obj {
            line: None,
            message: format!(
                "{} bytes is more than the {MAX_OBJ_BYTES} accepted",
                bytes.len()
            ),
        });
    }
    let text = String::from_utf8_lossy(bytes);
    // tobj drops some out-of-range indices silently (a texture coordinate
    // index in a file without any): every corner is checked first.
    if let Some((line, message)) = bad_face_line(&text) {
        return Err(Error::Obj {
            line: Some(line),
            message,
        });
    }
    let options = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut warnings = Vec::new();
    let mut mtl_problems: Vec<Problem> = Vec::new();
    let loaded = {
        let mtl_problems = std::cell::RefCell::new(&mut mtl_problems);
        let loader = |path: &Path| -> tobj::MTLLoadResult {
            let name = path.to_string_lossy().into_owned();
            let problem = |message: String| warning(format!("mtllib {name:?}"), message);
            let Some(source) = source else {
                mtl_problems
                    .borrow_mut()
                    .push(problem("not loaded: no file access given".to_string()));
                return Ok((Vec::new(), HashMap::new()));
            };
            match source.load(&name) {
                Ok(found) => tobj::load_mtl_buf(&mut found.bytes.as_slice()).or_else(|e| {
                    mtl_problems
                        .borrow_mut()
                        .push(problem(format!("cannot read: {e}")));
                    Ok((Vec::new(), HashMap::new()))
                }),
                Err(e) => {
                    mtl_problems
                        .borrow_mut()
                        .push(problem(format!("{e}; materials keep default colours")));
                    Ok((Vec::new(), HashMap::new()))
                }
            }
        };
        tobj::load_obj_buf(&mut text.as_bytes(), &options, loader)
    };
    warnings.extend(mtl_problems);
    let (models, materials) = loaded.map_err(|e| obj_error(&text, e))?;
    let materials = materials.unwrap_or_default();
    let mut textures = Vec::new();
    let mut scene_materials: Vec<Material> = materials
        .iter()
        .map(|m| material(m, &mut textures, source, &mut warnings))
        .collect();
    let mut default_material = None;
    let mut meshes = Vec::with_capacity(models.len());
    for model in models {
        let m = model.mesh;
        let n = m.positions.len() / 3;
        if n == 0 || m.indices.is_empty() {
            continue;
        }
        let triples = |v: &[f32]| -> Vec<[f32; 3]> {
            v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
        };
        let positions = triples(&m.positions);
        let normals = if m.normals.len() == m.positions.len() {
            triples(&m.normals)
        } else {
            Vec::new()
        };
        let uvs = if m.texcoords.len() == 2 * n {
            m.texcoords
                .chunks_exact(2)
                .map(|c| [c[0], 1.0 - c[1]])
                .collect()
        } else {
            Vec::new()
        };
        let material = match m.material_id.filter(|&i| i < scene_materials.len()) {
            Some(i) => i,
            None => *default_material.get_or_insert_with(|| {
                scene_materials.push(Material {
                    name: "default".to_string(),
                    ..Material::default()
                });
                scene_materials.len() - 1
            }),
        };
        meshes.push(Mesh {
            name: model.name,
            positions,
            normals,
            uvs,
            indices: m.indices,
            material: Some(material),
            ..Mesh::default()
        });
    }
    let name = Path::new(file_name)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    Ok(ObjImport {
        scene: Scene {
            name,
            meshes,
            materials: scene_materials,
            textures,
            extras: json!({ "source": "OBJ" }),
            ..Scene::default()
        },
        warnings,
    })
}
