//! Wavefront OBJ + MTL export of a [`Scene`] in one pose: a static
//! snapshot, for tools that read nothing newer.
//!
//! Available with the `scene` feature. The OBJ is written in the scene's
//! axes (+Y up, counter-clockwise front faces, as OBJ readers expect), so a
//! model lands the same way as in the glTF export. Texture coordinates are
//! flipped to OBJ's bottom-up `v` (`vt u 1−v`).
//!
//! The writer draws each mesh in its base positions; to export another pose
//! first apply it with [`apply_morph_target`] (an MD2 frame) or
//! [`apply_ms3d_pose`] (an MS3D skeleton at a time).
//!
//! ```
//! use retromodel::obj::{apply_morph_target, to_obj, ObjOptions};
//! use retromodel::scene::{Md2SceneOptions, Scene};
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

use glam::{Mat4, Vec3};

use crate::error::{Error, Result};
use crate::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use crate::scene::Scene;

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
/// colour), `d` (alpha), `Ke` (emissive) and `map_Kd` when its texture has
/// a file in `options`.
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
    }
    ObjFiles { obj, mtl }
}

/// Moves every mesh that has morph targets to target `target` (for an MD2
/// scene: frame `target`): positions and normals get the target's
/// displacements added (normals renormalised), and the morph targets are
/// dropped.
///
/// Fails when a mesh with morph targets has fewer than `target + 1`.
pub fn apply_morph_target(scene: &mut Scene, target: usize) -> Result<()> {
    for mesh in &mut scene.meshes {
        if mesh.morph_targets.is_empty() {
            continue;
        }
        let count = mesh.morph_targets.len();
        let t = mesh.morph_targets.get(target).ok_or_else(|| {
            Error::unwritable(
                "OBJ export",
                format!("frame {target} does not exist (the model has {count} frames)"),
            )
        })?;
        for (p, d) in mesh.positions.iter_mut().zip(&t.positions) {
            *p = (Vec3::from(*p) + Vec3::from(*d)).to_array();
        }
        for (n, d) in mesh.normals.iter_mut().zip(&t.normals) {
            let sum = Vec3::from(*n) + Vec3::from(*d);
            *n = sum.try_normalize().unwrap_or(Vec3::Y).to_array();
        }
        mesh.morph_targets.clear();
    }
    Ok(())
}

/// Poses the meshes of a scene made by [`Scene::from_ms3d`] from `model`
/// as MilkShape's viewer shows it `seconds` into the timeline
/// ([`Skeleton::pose_at_time`], skinned by [`Influences`]); a negative time
/// gives the bind pose. Normals are skinned and renormalised.
///
/// Fails when the joints' parents form a cycle, or when the scene's meshes
/// do not match the model's groups (a scene not made from `model`).
pub fn apply_ms3d_pose(scene: &mut Scene, model: &Ms3d, seconds: f32) -> Result<()> {
    let skeleton = Skeleton::new(model)?;
    if skeleton.joint_count() == 0 {
        return Ok(());
    }
    let groups = GroupMesh::build_all(model);
    let mismatch = || {
        Error::unwritable(
            "OBJ export",
            "the scene's meshes do not match the MS3D model's groups",
        )
    };
    if groups.len() != scene.meshes.len() {
        return Err(mismatch());
    }
    let influences = Influences::new(model);
    let mut joints = vec![Mat4::IDENTITY; skeleton.joint_count()];
    skeleton.pose_at_time(seconds, &mut joints);
    skeleton.skinning_matrices(&mut joints);
    let mut skinned = vec![[0.0f32; 3]; model.vertices.len()];
    influences.skin_positions(model, &joints, &mut skinned);
    for (mesh, group) in scene.meshes.iter_mut().zip(&groups) {
        if group.source_vertices.len() != mesh.positions.len() {
            return Err(mismatch());
        }
        for (i, &src) in group.source_vertices.iter().enumerate() {
            let src = src as usize;
            if let Some(p) = skinned.get(src) {
                mesh.positions[i] = *p;
            }
            if let Some(n) = mesh.normals.get_mut(i) {
                let s = Vec3::from(influences.skin_normal(src, &joints, *n));
                *n = s.try_normalize().unwrap_or(Vec3::Y).to_array();
            }
        }
        mesh.skin = None;
    }
    scene.nodes.clear();
    scene.skins.clear();
    scene.animations.clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Md2SceneOptions, Ms3dSceneOptions};

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
        apply_ms3d_pose(&mut posed, &model, -1.0).unwrap();
        for (a, b) in scene.meshes.iter().zip(&posed.meshes) {
            for (p, q) in a.positions.iter().zip(&b.positions) {
                assert!((0..3).all(|k| (p[k] - q[k]).abs() < 1e-3), "{p:?} {q:?}");
            }
        }
    }
}
