//! MD5 → [`Scene`]: a mesh per md5mesh mesh (a material per shader), the
//! joints as nodes with a skin (inverse bind matrices from the md5mesh's
//! bind pose), every weight of every vertex (sets of four, as glTF's
//! `JOINTS_n`/`WEIGHTS_n`), and one animation per md5anim: per joint a
//! translation and a rotation key at every frame (and a scale key where a
//! `.md5scale` scales it), linear, `k / frameRate` seconds.
//!
//! Axes are Quake's, as the MD2's ([`md5_axes`]: the rerelease draws the
//! MD5 in the MD2's place), and triangles are reversed to
//! counter-clockwise (id Tech's front faces run clockwise: Q2PRO
//! `MD5_ComputeNormals` takes `(v2 − v0) × (v1 − v0)` as the normal).
//!
//! A glTF vertex has one bind position; an MD5 vertex has a point per
//! weight. They agree in files exporters make (each weight's point is the
//! vertex seen from its joint), and `validate` reports a vertex whose
//! points disagree, which the scene places at their weighted sum.
//!
//! A `.md5scale` scale multiplies the points a joint holds but not its
//! children (Q2PRO `calc_skel_vert`), while a glTF node's scale reaches
//! its children: a child's keys divide by its parent's scale (translation
//! `t / s_parent`, scale `s / s_parent`), which gives every joint exactly
//! the engine's transform.

use glam::{Mat4, Quat, Vec3};
use serde_json::json;

use super::{Animation as Md5Animation, Md5Model};
use crate::error::{Error, Result};
use crate::scene::{
    repair_normals, Animation, Channel, InfluenceSet, Interpolation, Material, Mesh, Node, Scene,
    Skin, SkinWeights, Target,
};

/// The most weights per vertex a scene gets (eight sets of four: each set
/// costs 32 bytes for every vertex of the mesh, so a cap keeps one vertex
/// with thousands of weights from making gigabytes).
pub const MAX_INFLUENCES: usize = 32;

/// Quake's axes (x forward, y left, z up) as the scene's (glTF's: y up,
/// z forward): the same turn the MD2 gets, as the rerelease draws the MD5
/// in the MD2's place.
///
/// ```
/// use retromodel::md5::md5_axes;
/// assert_eq!(md5_axes([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
/// ```
pub fn md5_axes(v: [f32; 3]) -> [f32; 3] {
    [v[1], v[2], v[0]]
}

fn axes_quat(q: Quat) -> Quat {
    let [x, y, z, w] = q.to_array();
    let [x, y, z] = md5_axes([x, y, z]);
    Quat::from_xyzw(x, y, z, w)
}

fn axes_vec(v: Vec3) -> Vec3 {
    Vec3::from(md5_axes(v.to_array()))
}

impl Md5Model {
    /// The model as a scene named `name` (see the module).
    ///
    /// Fails when an anim's hierarchy is not the mesh's (joint count or
    /// parents differ), or a skin would need more than 65,536 joints.
    pub fn to_scene(&self, name: &str) -> Result<Scene> {
        let joints = &self.mesh.joints;
        if joints.len() > usize::from(u16::MAX) + 1 {
            return Err(Error::unwritable(
                "skin",
                format!("{} joints: glTF joint indices are 16-bit", joints.len()),
            ));
        }
        for (m, part) in self.mesh.meshes.iter().enumerate() {
            if let Some((v, x)) = part
                .vertices
                .iter()
                .enumerate()
                .find(|(_, x)| x.weight_count > MAX_INFLUENCES)
            {
                return Err(Error::unwritable(
                    format!("meshes[{m}].vertices[{v}]"),
                    format!(
                        "{} weights: at most {MAX_INFLUENCES} per vertex are carried to a scene",
                        x.weight_count
                    ),
                ));
            }
        }
        let bind: Vec<(Vec3, Quat)> = self
            .mesh
            .bind_pose()
            .iter()
            .map(|j| (axes_vec(j.position), axes_quat(j.orientation)))
            .collect();
        let nodes: Vec<Node> = joints
            .iter()
            .enumerate()
            .map(|(i, j)| {
                let (p, q) = bind[i];
                let (translation, rotation) = match j.parent.and_then(|k| bind.get(k)) {
                    None => (p, q),
                    Some(&(pp, pq)) => {
                        let inv = pq.inverse();
                        (inv * (p - pp), (inv * q).normalize())
                    }
                };
                Node {
                    name: j.name.clone(),
                    parent: j.parent,
                    translation: translation.to_array(),
                    rotation: rotation.to_array(),
                    ..Node::default()
                }
            })
            .collect();
        let skin = Skin {
            name: format!("{name} skeleton"),
            joints: (0..joints.len()).collect(),
            inverse_bind_matrices: bind
                .iter()
                .map(|&(p, q)| {
                    Mat4::from_rotation_translation(q, p)
                        .inverse()
                        .to_cols_array()
                })
                .collect(),
            extras: serde_json::Value::Null,
        };
        let mut materials = Vec::new();
        let mut meshes = Vec::new();
        let bind_pose = self.mesh.bind_pose();
        for (m, part) in self.mesh.meshes.iter().enumerate() {
            let material = match materials
                .iter()
                .position(|x: &Material| x.name == part.shader)
            {
                Some(k) => k,
                None => {
                    materials.push(Material {
                        name: part.shader.clone(),
                        ..Material::default()
                    });
                    materials.len() - 1
                }
            };
            let positions: Vec<[f32; 3]> = self
                .mesh
                .posed_vertices(m, &bind_pose)
                .into_iter()
                .map(md5_axes)
                .collect();
            let indices: Vec<u32> = part
                .triangles
                .iter()
                .flat_map(|t| [t[0], t[2], t[1]])
                .collect();
            let mut normals = vec![[0.0; 3]; positions.len()];
            repair_normals(&positions, &indices, &mut normals);
            meshes.push(Mesh {
                name: part.shader.clone(),
                positions,
                normals,
                uvs: part.vertices.iter().map(|v| v.uv).collect(),
                indices,
                material: Some(material),
                skin: Some(skin_weights(part)),
                ..Mesh::default()
            });
        }
        let animations = self
            .animations
            .iter()
            .map(|a| self.animation(a))
            .collect::<Result<Vec<_>>>()?;
        Ok(Scene {
            name: name.to_string(),
            meshes,
            materials,
            textures: Vec::new(),
            nodes,
            skins: vec![skin],
            animations,
            extras: json!({ "md5": { "commandline": self.mesh.commandline } }),
        })
    }

    fn animation(&self, a: &Md5Animation) -> Result<Animation> {
        let anim = &a.anim;
        let joints = &self.mesh.joints;
        let agrees = anim.hierarchy.len() == joints.len()
            && anim
                .hierarchy
                .iter()
                .zip(joints)
                .all(|(h, j)| h.parent == j.parent);
        if !agrees {
            return Err(Error::Md5 {
                file: "md5anim",
                line: None,
                message: format!(
                    "{:?}: its hierarchy is not the md5mesh's (joint count or parents differ)",
                    a.name
                ),
            });
        }
        if anim.frame_rate.is_nan() || anim.frame_rate <= 0.0 {
            return Err(Error::Md5 {
                file: "md5anim",
                line: None,
                message: format!(
                    "{:?}: frame rate {} is not positive",
                    a.name, anim.frame_rate
                ),
            });
        }
        let n = joints.len();
        let frames = anim.num_frames;
        if n.saturating_mul(frames) > super::MAX_JOINT_FRAMES {
            return Err(Error::unwritable(
                format!("animation {:?}", a.name),
                format!(
                    "{n} joints × {frames} frames is more than {} keys per channel set",
                    super::MAX_JOINT_FRAMES
                ),
            ));
        }
        let times: Vec<f32> = (0..frames).map(|k| k as f32 / anim.frame_rate).collect();
        let mut t = vec![Vec::with_capacity(frames * 3); n];
        let mut r = vec![Vec::with_capacity(frames * 4); n];
        let mut s = vec![Vec::new(); n];
        let mut previous: Vec<Option<Quat>> = vec![None; n];
        for k in 0..frames {
            let local = anim.local_pose(k, a.scale.as_ref());
            for (i, l) in local.iter().enumerate() {
                let parent_scale = anim.hierarchy[i]
                    .parent
                    .and_then(|p| local.get(p))
                    .map_or(1.0, |p| p.scale);
                let div = if parent_scale != 0.0 {
                    parent_scale
                } else {
                    1.0
                };
                t[i].extend_from_slice(&axes_vec(l.position / div).to_array());
                let mut q = axes_quat(l.orientation);
                if previous[i].is_some_and(|p| p.dot(q) < 0.0) {
                    q = -q;
                }
                previous[i] = Some(q);
                r[i].extend_from_slice(&q.to_array());
                if a.scale.is_some() {
                    s[i].extend_from_slice(&[l.scale / div; 3]);
                }
            }
        }
        let mut channels = Vec::new();
        let mut push = |target, values: Vec<f32>| {
            channels.push(Channel {
                target,
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values,
            })
        };
        for (i, ((t, r), s)) in t.into_iter().zip(r).zip(s).enumerate() {
            if frames == 0 {
                break;
            }
            push(Target::Translation { node: i }, t);
            push(Target::Rotation { node: i }, r);
            if !s.is_empty() {
                push(Target::Scale { node: i }, s);
            }
        }
        Ok(Animation {
            name: a.name.clone(),
            channels,
            extras: json!({ "fps": anim.frame_rate, "frames": frames }),
        })
    }
}

/// Every weight of every vertex, in sets of four; each vertex's weights
/// divided by their sum (glTF needs a sum of 1; a vertex without weights
/// gets joint 0 at weight 1, which `validate` reports).
fn skin_weights(part: &super::Mesh) -> SkinWeights {
    let sets = part
        .vertices
        .iter()
        .map(|v| v.weight_count.div_ceil(4))
        .max()
        .unwrap_or(1)
        .max(1);
    let count = part.vertices.len();
    let mut all: Vec<InfluenceSet> = (0..sets)
        .map(|_| InfluenceSet {
            joints: vec![[0; 4]; count],
            weights: vec![[0.0; 4]; count],
        })
        .collect();
    for (v, vertex) in part.vertices.iter().enumerate() {
        let weights = part
            .weights
            .get(vertex.first_weight..vertex.first_weight + vertex.weight_count)
            .unwrap_or_default();
        let sum: f32 = weights.iter().map(|w| w.bias).sum();
        if weights.is_empty() || sum.is_nan() || sum <= 0.0 {
            all[0].weights[v][0] = 1.0;
            continue;
        }
        for (k, w) in weights.iter().enumerate() {
            let set = &mut all[k / 4];
            set.joints[v][k % 4] = w.joint as u16;
            set.weights[v][k % 4] = w.bias / sum;
        }
    }
    let first = all.remove(0);
    SkinWeights {
        skin: 0,
        joints: first.joints,
        weights: first.weights,
        more: all,
    }
}
