//! The md5mesh's meshes: one per material, each scene vertex with every
//! weight it has, its point seen from the joint's bind placement.

use glam::{DMat4, DVec3};

use super::joints::{skinned, Skeleton};
use super::{axes, Md5CompileOptions};
use crate::error::{Error, Result};
use crate::md5::{Mesh, Vertex, Weight};
use crate::scene::Scene;

/// A mesh's base positions with its default morph weights applied (what
/// `Pose` starts from when no animation sets them).
fn base_positions(mesh: &crate::scene::Mesh) -> Vec<[f32; 3]> {
    let mut out = mesh.positions.clone();
    for (t, &w) in mesh.morph_targets.iter().zip(&mesh.morph_weights) {
        if w == 0.0 {
            continue;
        }
        for (p, d) in out.iter_mut().zip(&t.positions) {
            for c in 0..3 {
                p[c] += w * d[c];
            }
        }
    }
    out
}

fn shader(scene: &Scene, material: Option<usize>, options: &Md5CompileOptions) -> String {
    if let Some(s) = &options.shader {
        return s.clone();
    }
    let m = material.and_then(|m| scene.materials.get(m));
    m.and_then(|m| m.texture)
        .and_then(|t| scene.textures.get(t))
        .map(|t| t.path.clone())
        .filter(|p| !p.is_empty())
        .or_else(|| m.map(|m| m.name.clone()).filter(|n| !n.is_empty()))
        .unwrap_or_else(|| "default".to_string())
}

/// Where each scene mesh went: (MD5 mesh, first vertex).
type Places = Vec<(usize, usize)>;

/// The meshes, and where each scene mesh went.
pub(super) fn build(
    scene: &Scene,
    skeleton: &Skeleton,
    options: &Md5CompileOptions,
) -> Result<(Vec<Mesh>, Places)> {
    let scale = f64::from(options.scale);
    let mut materials: Vec<Option<usize>> = Vec::new();
    let mut meshes: Vec<Mesh> = Vec::new();
    let mut places = Vec::with_capacity(scene.meshes.len());
    for (m, mesh) in scene.meshes.iter().enumerate() {
        let k = match materials.iter().position(|&x| x == mesh.material) {
            Some(k) => k,
            None => {
                materials.push(mesh.material);
                meshes.push(Mesh {
                    shader: shader(scene, mesh.material, options),
                    ..Mesh::default()
                });
                meshes.len() - 1
            }
        };
        let out = &mut meshes[k];
        let first = out.vertices.len();
        places.push((k, first));
        let count = mesh.positions.len();
        if u32::try_from(first + count).is_err() {
            return Err(Error::unwritable(
                format!("meshes[{m}]"),
                "more than 4,294,967,295 vertices in one material".to_string(),
            ));
        }
        let positions = base_positions(mesh);
        let to_weight = |j: usize, p: DVec3| -> [f32; 3] {
            let (pos, q) = skeleton.joints[j].bind;
            (q.inverse() * (p - pos)).as_vec3().to_array()
        };
        let skin = skinned(scene, m);
        for (v, p) in positions.iter().enumerate() {
            let first_weight = out.weights.len();
            match (skin, &mesh.skin) {
                (Some(s), Some(w)) => {
                    let p = axes::point(*p, scale);
                    for (joint, bias) in w.influences(v) {
                        let Some(&j) = skeleton.skin_joints[s].get(usize::from(joint)) else {
                            continue;
                        };
                        if bias == 0.0 {
                            continue;
                        }
                        out.weights.push(Weight {
                            joint: j,
                            bias,
                            position: to_weight(j, p),
                        });
                    }
                    // No weight on any joint: at the origin, as glTF poses it.
                    if let (true, Some(o)) = (out.weights.len() == first_weight, skeleton.origin) {
                        out.weights.push(Weight {
                            joint: o,
                            bias: 1.0,
                            position: to_weight(o, DVec3::ZERO),
                        });
                    }
                }
                _ => {
                    if let Some(j) = skeleton.rigid[m] {
                        let g: DMat4 = skeleton.joints[j].ibm.inverse();
                        let q = g.transform_point3(DVec3::new(
                            f64::from(p[0]),
                            f64::from(p[1]),
                            f64::from(p[2]),
                        ));
                        let p = axes::point(q.as_vec3().to_array(), scale);
                        out.weights.push(Weight {
                            joint: j,
                            bias: 1.0,
                            position: to_weight(j, p),
                        });
                    }
                }
            }
            out.vertices.push(Vertex {
                uv: mesh.uvs.get(v).copied().unwrap_or_default(),
                first_weight,
                weight_count: out.weights.len() - first_weight,
            });
        }
        for t in mesh.indices.chunks_exact(3) {
            if t.iter().any(|&i| i as usize >= count) {
                return Err(Error::InvalidScene {
                    path: format!("meshes[{m}].indices"),
                    message: format!("a triangle names a vertex past the {count} vertices"),
                });
            }
            // id Tech's front faces run clockwise (see `to_scene`).
            let o = first as u32;
            out.triangles.push([t[0] + o, t[2] + o, t[1] + o]);
        }
    }
    Ok((meshes, places))
}
