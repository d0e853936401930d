//! Wavefront OBJ + MTL export of a [`Scene`] in one pose: a static
//! snapshot, for tools that read nothing newer; and, with feature
//! `textures`, OBJ import ([`import_obj`]).
//!
//! Available with the `scene` feature. The OBJ is written in the scene's
//! axes (+Y up, counter-clockwise front faces, as OBJ readers expect), so a
//! model lands the same way as in the glTF export. Texture coordinates are
//! flipped to OBJ's bottom-up `v` (`vt u 1−v`).
//!
//! The writer draws each mesh in its base positions; to export another pose
//! first bake it in with [`apply_pose`] (any [`Pose`]: an animation at a
//! time, skinned or morphed) or [`apply_morph_target`] (an MD2 frame).
//!
//! ```
//! use retromodel::obj::{apply_morph_target, to_obj, ObjOptions};
//! use retromodel::scene::Scene;
//! use retromodel::md2::Md2SceneOptions;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let model = retromodel::md2::sample::sample_model();
//! let mut scene = Scene::from_md2(&model, &Md2SceneOptions::default());
//! apply_morph_target(&mut scene, 3)?; // frame 3
//! let files = to_obj(&scene, &ObjOptions {
//!     mtl_file: "model.mtl".into(),
//!     texture_files: vec![Some("model_texture0.png".into())],
//! });
//! assert!(files.obj.starts_with("# retromodel"));
//! assert!(files.mtl.contains("map_Kd model_texture0.png"));
//! # Ok(()) }
//! ```

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::scene::{Pose, Scene};

mod gzdoom;
pub use gzdoom::{gzdoom_problems, GZDOOM_MAX_FACE_VERTICES};
#[cfg(feature = "textures")]
mod import;
#[cfg(feature = "textures")]
pub use import::{import_obj, ObjImport, MAX_OBJ_BYTES};

/// What the OBJ refers to outside itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjOptions {
    /// The MTL file name written in the OBJ's `mtllib` line (the caller
    /// writes [`ObjFiles::mtl`] under this name beside the OBJ).
    pub mtl_file: String,
    /// For each entry of [`Scene::textures`], the image file the MTL names
    /// in `map_Kd` (e.g. a PNG the caller writes beside it), or `None` to
    /// leave materials using that texture untextured. Missing entries count
    /// as `None`.
    pub texture_files: Vec<Option<String>>,
}

/// The text of an OBJ file and of its MTL file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjFiles {
    /// The `.obj` text.
    pub obj: String,
    /// The `.mtl` text.
    pub mtl: String,
}

/// A name usable on an OBJ/MTL line: whitespace and control characters
/// become `_`.
fn clean(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// A finite number (non-finite ones, from a corrupt file, become 0).
fn num(x: f32) -> f32 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Unique MTL names for the scene's materials.
fn material_names(scene: &Scene) -> Vec<String> {
    let mut seen = HashSet::new();
    scene
        .materials
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let name = clean(&m.name);
            let name = if name.is_empty() || seen.contains(&name) {
                format!("material{i}")
            } else {
                name
            };
            let mut unique = name.clone();
            let mut k = 1;
            while !seen.insert(unique.clone()) {
                unique = format!("{name}_{k}");
                k += 1;
            }
            unique
        })
        .collect()
}

/// Writes `scene`, every mesh in its base positions, as OBJ and MTL text.
///
/// Each mesh becomes an `o` object with its own `v`/`vt`/`vn` lines (one
/// per scene vertex) and `f v/vt/vn` triangles; triangles with an index out
/// of range are left out. Each material becomes a `newmtl` with `Kd` (base
/// colour), `d` (alpha), `Ke` (emissive), and `map_Kd` (and `map_Ke`, the
/// emissive map, e.g. a Quake skin's fullbrights) when its texture has a
/// file in `options`.
pub fn to_obj(scene: &Scene, options: &ObjOptions) -> ObjFiles {
    let names = material_names(scene);
    let mut obj = String::new();
    let _ = writeln!(obj, "# retromodel OBJ export: {}", clean(&scene.name));
    if !options.mtl_file.is_empty() {
        let _ = writeln!(obj, "mtllib {}", clean(&options.mtl_file));
    }
    let (mut v_base, mut vt_base, mut vn_base) = (1usize, 1usize, 1usize);
    for (mi, mesh) in scene.meshes.iter().enumerate() {
        let n = mesh.positions.len();
        let has_uv = mesh.uvs.len() == n;
        let has_normal = mesh.normals.len() == n;
        let name = clean(&mesh.name);
        let _ = writeln!(
            obj,
            "o {}",
            if name.is_empty() {
                format!("mesh{mi}")
            } else {
                name
            }
        );
        for p in &mesh.positions {
            let _ = writeln!(obj, "v {} {} {}", num(p[0]), num(p[1]), num(p[2]));
        }
        if has_uv {
            for t in &mesh.uvs {
                let _ = writeln!(obj, "vt {} {}", num(t[0]), num(1.0 - t[1]));
            }
        }
        if has_normal {
            for q in &mesh.normals {
                let _ = writeln!(obj, "vn {} {} {}", num(q[0]), num(q[1]), num(q[2]));
            }
        }
        if let Some(name) = mesh.material.and_then(|m| names.get(m)) {
            let _ = writeln!(obj, "usemtl {name}");
        }
        for tri in mesh.indices.chunks_exact(3) {
            if tri.iter().any(|&i| i as usize >= n) {
                continue;
            }
            obj.push('f');
            for &i in tri {
                let i = i as usize;
                let _ = match (has_uv, has_normal) {
                    (true, true) => write!(obj, " {}/{}/{}", v_base + i, vt_base + i, vn_base + i),
                    (true, false) => write!(obj, " {}/{}", v_base + i, vt_base + i),
                    (false, true) => write!(obj, " {}//{}", v_base + i, vn_base + i),
                    (false, false) => write!(obj, " {}", v_base + i),
                };
            }
            obj.push('\n');
        }
        v_base += n;
        if has_uv {
            vt_base += n;
        }
        if has_normal {
            vn_base += n;
        }
    }

    let mut mtl = String::from("# retromodel MTL export\n");
    for (m, name) in scene.materials.iter().zip(&names) {
        let c = m.base_color;
        let e = m.emissive;
        let _ = writeln!(mtl, "\nnewmtl {name}");
        let _ = writeln!(mtl, "Kd {} {} {}", num(c[0]), num(c[1]), num(c[2]));
        let _ = writeln!(mtl, "d {}", num(c[3]));
        let _ = writeln!(mtl, "Ke {} {} {}", num(e[0]), num(e[1]), num(e[2]));
        let _ = writeln!(mtl, "illum 1");
        let file = m
            .texture
            .and_then(|t| options.texture_files.get(t))
            .and_then(Option::as_ref);
        if let Some(file) = file {
            let _ = writeln!(mtl, "map_Kd {}", clean(file));
        }
        let glow = m
            .emissive_texture
            .and_then(|t| options.texture_files.get(t))
            .and_then(Option::as_ref);
        if let Some(file) = glow {
            let _ = writeln!(mtl, "map_Ke {}", clean(file));
        }
    }
    ObjFiles { obj, mtl }
}

/// Bakes `pose` into the scene: every mesh's positions and normals become
/// its posed vertices ([`Pose::mesh_vertices`]), in scene space, and
/// what made them (morph targets, skins, the placing node, nodes, skins
/// and animations) is dropped, leaving a static scene for [`to_obj`].
pub fn apply_pose(scene: &mut Scene, pose: &Pose) {
    type Vertices = (Vec<[f32; 3]>, Vec<[f32; 3]>);
    let posed: Vec<Vertices> = (0..scene.meshes.len())
        .map(|i| {
            let n = scene.meshes[i].positions.len();
            let mut positions = vec![[0.0; 3]; n];
            let mut normals = vec![[0.0; 3]; n];
            pose.mesh_vertices(scene, i, &mut positions, &mut normals);
            (positions, normals)
        })
        .collect();
    for (mesh, (positions, normals)) in scene.meshes.iter_mut().zip(posed) {
        let had_normals = mesh.normals.len() == mesh.positions.len();
        mesh.positions = positions;
        mesh.normals = if had_normals { normals } else { Vec::new() };
        mesh.morph_targets.clear();
        mesh.morph_weights.clear();
        mesh.skin = None;
        mesh.node = None;
    }
    scene.nodes.clear();
    scene.skins.clear();
    scene.animations.clear();
}

/// Moves every mesh that has morph targets to target `target` (for an MD2
/// scene: frame `target`): weight 1 on that target, 0 on the others,
/// baked with [`apply_pose`] (positions get the target's displacements
/// added, normals too and renormalised).
///
/// Fails when a mesh with morph targets has fewer than `target + 1`, or
/// the scene's node hierarchy is broken.
pub fn apply_morph_target(scene: &mut Scene, target: usize) -> Result<()> {
    let mut pose = Pose::new(scene)?;
    for (i, mesh) in scene.meshes.iter().enumerate() {
        if mesh.morph_targets.is_empty() {
            continue;
        }
        let count = mesh.morph_targets.len();
        let weights = pose.morph_weights_mut(i);
        if target >= count {
            return Err(Error::unwritable(
                "OBJ export",
                format!("frame {target} does not exist (the model has {count} frames)"),
            ));
        }
        weights.fill(0.0);
        weights[target] = 1.0;
    }
    apply_pose(scene, &pose);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::Md2SceneOptions;
    use crate::ms3d::Ms3dSceneOptions;

    #[test]
    fn md2_frame_positions_match_the_decoded_frame() {
        let model = crate::md2::sample::sample_model();
        let mut scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        apply_morph_target(&mut scene, 5).unwrap();
        // Every OBJ position must be some vertex of frame 5, decoded
        // independently as scale * packed + translate, through (y, z, x).
        let f = &model.frames[5];
        let expected: Vec<[f32; 3]> = f
            .vertices
            .iter()
            .map(|v| {
                let q = [0, 1, 2].map(|k| f.scale[k] * f32::from(v.position[k]) + f.translate[k]);
                [q[1], q[2], q[0]]
            })
            .collect();
        for p in &scene.meshes[0].positions {
            assert!(
                expected
                    .iter()
                    .any(|e| (0..3).all(|k| (e[k] - p[k]).abs() < 1e-4)),
                "{p:?}"
            );
        }
        assert!(apply_morph_target(&mut scene, 0).is_ok());
        let mut fresh = Scene::from_md2(&model, &Md2SceneOptions::default());
        assert!(apply_morph_target(&mut fresh, model.frames.len()).is_err());
    }

    #[test]
    fn obj_lines_and_faces() {
        let model = crate::md2::sample::sample_model();
        let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        let files = to_obj(
            &scene,
            &ObjOptions {
                mtl_file: "x.mtl".into(),
                texture_files: vec![],
            },
        );
        let count = |p: &str| files.obj.lines().filter(|l| l.starts_with(p)).count();
        assert_eq!(count("f "), model.triangles.len());
        assert_eq!(count("v "), scene.meshes[0].positions.len());
        assert_eq!(count("vt "), count("v "));
        assert!(!files.mtl.contains("map_Kd"));
    }

    #[test]
    fn ms3d_bind_pose_keeps_positions() {
        let model = crate::ms3d::sample::sample_model();
        let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).unwrap();
        let mut posed = scene.clone();
        apply_pose(&mut posed, &Pose::new(&scene).unwrap());
        for (a, b) in scene.meshes.iter().zip(&posed.meshes) {
            for (p, q) in a.positions.iter().zip(&b.positions) {
                assert!((0..3).all(|k| (p[k] - q[k]).abs() < 1e-3), "{p:?} {q:?}");
            }
        }
    }
}
