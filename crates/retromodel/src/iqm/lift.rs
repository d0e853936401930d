//! IQM → [`Scene`]: a mesh per IQM mesh (a material per material name,
//! its texture the name as the model stores it), the joints as nodes with
//! a skin (inverse bind matrices from the joints' bind pose), up to four
//! weights per vertex, and one animation per IQM animation: per joint a
//! translation, rotation and scale key at every frame, linear, `k / fps`
//! seconds, with the frame rate, frame count and loop flag in the
//! animation's extras.
//!
//! Axes are Quake's, as the other Quake formats' ([`iqm_axes`]: x
//! forward, y left, z up, which ioquake3 and the Quake ports draw an IQM
//! in), and triangles are reversed to counter-clockwise: an IQM's front
//! faces run clockwise, as id Tech's do (of mrfixit's 2,988 triangles,
//! 2,984 face along their vertices' stored normals when read clockwise).

use glam::{Mat4, Quat, Vec3};
use serde_json::json;

use super::{ArrayKind, Iqm, JointTransform};
use crate::error::{Error, Result};
use crate::scene::{
    repair_normals, Animation, Channel, Interpolation, Material, Mesh, Node, Scene, Skin,
    SkinWeights, Target, Texture,
};

/// The frame rate an animation of rate 0 (or not a number) plays at: the
/// reference compiler's default for IQE and MD5 input.
pub const DEFAULT_FPS: f32 = 24.0;

/// The most joint-frames (joints × frames of one animation) lifted to a
/// scene: keys grow with the product, which a small file can make huge.
pub const MAX_JOINT_FRAMES: usize = 1 << 24;

/// Quake's axes (x forward, y left, z up) as the scene's (glTF's: y up,
/// z forward).
///
/// ```
/// use retromodel::iqm::iqm_axes;
/// assert_eq!(iqm_axes([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
/// ```
pub fn iqm_axes(v: [f32; 3]) -> [f32; 3] {
    [v[1], v[2], v[0]]
}

/// A joint transform in the scene's axes: the turn [`iqm_axes`] makes is
/// a rotation, so translations, quaternion axes and scales turn alike.
fn scene_transform(t: &JointTransform) -> (Vec3, Quat, Vec3) {
    let [x, y, z, w] = t.rotate;
    let [x, y, z] = iqm_axes([x, y, z]);
    let q = Quat::from_xyzw(x, y, z, w);
    let q = if q.length_squared() > 0.0 {
        q.normalize()
    } else {
        Quat::IDENTITY
    };
    (
        Vec3::from(iqm_axes(t.translate)),
        q,
        Vec3::from(iqm_axes(t.scale)),
    )
}

impl Scene {
    /// The IQM as a scene named `name` (see the module).
    ///
    /// ```
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let model = retromodel::iqm::sample::sample_model();
    /// let scene = retromodel::scene::Scene::from_iqm(&model, "sample")?;
    /// assert_eq!(scene.nodes.len(), 2);
    /// assert_eq!(scene.animations[0].name, "wave");
    /// assert_eq!(scene.animations[0].extras["loop"], true);
    /// # Ok(()) }
    /// ```
    pub fn from_iqm(model: &Iqm, name: &str) -> Result<Scene> {
        let n = model.joints.len();
        if n > usize::from(u16::MAX) + 1 {
            return Err(Error::unwritable(
                "skin",
                format!("{n} joints: glTF joint indices are 16-bit"),
            ));
        }
        let parent = |i: usize| {
            usize::try_from(model.joints[i].parent)
                .ok()
                .filter(|&p| p < i)
        };
        let nodes: Vec<Node> = model
            .joints
            .iter()
            .enumerate()
            .map(|(i, j)| {
                let (t, r, s) = scene_transform(&JointTransform::from(j));
                Node {
                    name: model.name(j.name),
                    parent: parent(i),
                    translation: t.to_array(),
                    rotation: r.to_array(),
                    scale: s.to_array(),
                    ..Node::default()
                }
            })
            .collect();
        let locals: Vec<Mat4> = nodes
            .iter()
            .map(|n| {
                Mat4::from_scale_rotation_translation(
                    Vec3::from(n.scale),
                    Quat::from_array(n.rotation),
                    Vec3::from(n.translation),
                )
            })
            .collect();
        let world = Iqm::world_matrices(&locals, |i| nodes[i].parent.map_or(-1, |p| p as i32));
        let skins = if n > 0 {
            vec![Skin {
                name: format!("{name} skeleton"),
                joints: (0..n).collect(),
                inverse_bind_matrices: world.iter().map(|m| m.inverse().to_cols_array()).collect(),
                extras: serde_json::Value::Null,
            }]
        } else {
            Vec::new()
        };
        let (meshes, materials, textures) = lift_meshes(model, !skins.is_empty());
        let animations = model
            .anims
            .iter()
            .enumerate()
            .map(|(i, a)| lift_animation(model, i, a))
            .collect::<Result<Vec<_>>>()?;
        let comment = String::from_utf8_lossy(&model.comment)
            .trim_end_matches('\0')
            .to_string();
        Ok(Scene {
            name: name.to_string(),
            meshes,
            materials,
            textures,
            nodes,
            skins,
            animations,
            extras: if comment.is_empty() {
                serde_json::Value::Null
            } else {
                json!({ "iqm": { "comment": comment } })
            },
        })
    }
}

/// The meshes, with a material and a texture per material name.
fn lift_meshes(model: &Iqm, skinned: bool) -> (Vec<Mesh>, Vec<Material>, Vec<Texture>) {
    let array = |kind| model.array(kind);
    let (positions, texcoords, normals) = (
        array(ArrayKind::Position),
        array(ArrayKind::Texcoord),
        array(ArrayKind::Normal),
    );
    let (indexes, weights) = (
        array(ArrayKind::BlendIndexes),
        array(ArrayKind::BlendWeights),
    );
    let mut materials: Vec<Material> = Vec::new();
    let mut textures: Vec<Texture> = Vec::new();
    let mut meshes = Vec::new();
    let nv = model.vertex_count();
    for m in &model.meshes {
        let first = (m.first_vertex as usize).min(nv);
        let range = first..(first + m.num_vertexes as usize).min(nv);
        let material_name = model.name(m.material);
        let material = match materials.iter().position(|x| x.name == material_name) {
            Some(k) => k,
            None => {
                textures.push(Texture {
                    path: material_name.clone(),
                    image: None,
                });
                materials.push(Material {
                    name: material_name,
                    texture: Some(textures.len() - 1),
                    ..Material::default()
                });
                materials.len() - 1
            }
        };
        // Integer normals and texture coordinates are normalised (a short
        // normal's 32767 is 1); positions are taken as stored.
        let v3 = |a: Option<&super::VertexArray>, v: usize, unit: bool| {
            a.map_or([0.0; 3], |a| {
                let x = a.vertex4(v, unit);
                iqm_axes([x[0] as f32, x[1] as f32, x[2] as f32])
            })
        };
        let positions_out: Vec<[f32; 3]> = range.clone().map(|v| v3(positions, v, false)).collect();
        let uvs: Vec<[f32; 2]> = range
            .clone()
            .map(|v| {
                texcoords.map_or([0.0; 2], |a| {
                    let x = a.vertex4(v, true);
                    [x[0] as f32, x[1] as f32]
                })
            })
            .collect();
        let triangles = model
            .triangles
            .get(m.first_triangle as usize..(m.first_triangle as usize + m.num_triangles as usize))
            .unwrap_or_default();
        let indices: Vec<u32> = triangles
            .iter()
            .filter(|t| t.iter().all(|&v| range.contains(&(v as usize))))
            .flat_map(|t| [t[0], t[2], t[1]].map(|v| v - first as u32))
            .collect();
        let mut normals_out: Vec<[f32; 3]> = range.clone().map(|v| v3(normals, v, true)).collect();
        if normals.is_none() {
            repair_normals(&positions_out, &indices, &mut normals_out);
        }
        let skin = (skinned && indexes.is_some() && weights.is_some()).then(|| {
            let mut joints = Vec::with_capacity(range.len());
            let mut wts = Vec::with_capacity(range.len());
            for v in range.clone() {
                let ix = indexes.map_or([0.0; 4], |a| a.vertex4(v, false));
                let w = weights.map_or([0.0; 4], |a| a.vertex4(v, true));
                let sum: f64 = w.iter().sum();
                if sum.is_nan() || sum <= 0.0 {
                    joints.push([0; 4]);
                    wts.push([1.0, 0.0, 0.0, 0.0]);
                    continue;
                }
                joints.push(ix.map(|j| j.clamp(0.0, 65535.0) as u16));
                wts.push(w.map(|x| (x / sum) as f32));
            }
            SkinWeights {
                skin: 0,
                joints,
                weights: wts,
                more: Vec::new(),
            }
        });
        meshes.push(Mesh {
            name: model.name(m.name),
            positions: positions_out,
            normals: normals_out,
            uvs,
            indices,
            material: Some(material),
            skin,
            extras: super::carried::record(model, range.clone()),
            ..Mesh::default()
        });
    }
    (meshes, materials, textures)
}

/// One animation: every joint's transform at every frame.
fn lift_animation(model: &Iqm, index: usize, a: &super::Anim) -> Result<Animation> {
    let n = model.joints.len();
    let first = a.first_frame as usize;
    let frames = (a.num_frames as usize).min((model.num_frames as usize).saturating_sub(first));
    if n.saturating_mul(frames) > MAX_JOINT_FRAMES {
        return Err(Error::unwritable(
            format!("anims[{index}]"),
            format!(
                "{n} joints × {frames} frames is more than {MAX_JOINT_FRAMES} keys per channel set"
            ),
        ));
    }
    let fps = if a.framerate.is_finite() && a.framerate > 0.0 {
        a.framerate
    } else {
        DEFAULT_FPS
    };
    let times: Vec<f32> = (0..frames).map(|k| k as f32 / fps).collect();
    let mut t = vec![Vec::with_capacity(frames * 3); n];
    let mut r = vec![Vec::with_capacity(frames * 4); n];
    let mut s = vec![Vec::with_capacity(frames * 3); n];
    let mut previous: Vec<Option<Quat>> = vec![None; n];
    for k in 0..frames {
        let Some(pose) = model.frame_pose(first + k) else {
            break;
        };
        for i in 0..n {
            let local = pose
                .locals
                .get(i)
                .copied()
                .unwrap_or_else(|| JointTransform::from(&model.joints[i]));
            let (tt, mut q, ss) = scene_transform(&local);
            if previous[i].is_some_and(|p| p.dot(q) < 0.0) {
                q = -q;
            }
            previous[i] = Some(q);
            t[i].extend_from_slice(&tt.to_array());
            r[i].extend_from_slice(&q.to_array());
            s[i].extend_from_slice(&ss.to_array());
        }
    }
    let mut channels = Vec::new();
    if frames > 0 {
        for (i, ((t, r), s)) in t.into_iter().zip(r).zip(s).enumerate() {
            for (target, values) in [
                (Target::Translation { node: i }, t),
                (Target::Rotation { node: i }, r),
                (Target::Scale { node: i }, s),
            ] {
                channels.push(Channel {
                    target,
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values,
                });
            }
        }
    }
    Ok(Animation {
        name: model.name(a.name),
        channels,
        extras: json!({ "fps": fps, "frames": frames, "loop": a.loops(), "first_frame": a.first_frame }),
    })
}
