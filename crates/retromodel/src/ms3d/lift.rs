//! MS3D → [`Scene`]: a mesh per group, materials, the skeleton as joints
//! with inverse bind matrices, and one animation over the timeline (or one
//! per clip) that reproduces MilkShape's viewer exactly.

use glam::{Quat, Vec3};
use serde_json::{json, Value};

use super::{self as ms3d, euler_to_quat, Clip, Comment, GroupMesh, Ms3d};
use crate::error::{Error, Result};
use crate::scene::{
    comment_extras, cut, repair_normals, AlphaMode, Animation, Channel, Interpolation, Material,
    Mesh, Node, Scene, Skin, SkinWeights, Target, Texture,
};

/// Maps a MilkShape vector to the scene's axes: the identity.
///
/// MilkShape 3D works in OpenGL's frame, right-handed with +Y up, and its
/// models face +Z, as glTF's do; its front faces are counter-clockwise
/// (checked against the stored normals of corpus models in
/// `tests/gltf_ms3d.rs`), so neither axes nor winding change.
///
/// ```
/// use retromodel::ms3d::ms3d_axes;
/// assert_eq!(ms3d_axes([1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
/// ```
pub fn ms3d_axes(v: [f32; 3]) -> [f32; 3] {
    v
}

/// Options for [`Scene::from_ms3d`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ms3dSceneOptions {
    /// Name of the scene.
    pub name: String,
    /// Name of the one animation covering the timeline (used when
    /// `clips` is empty).
    pub animation_name: String,
    /// Named frame ranges of the timeline, each made its own animation
    /// (in this order) instead of the one over the whole timeline; empty
    /// for that one. See [`Scene::from_ms3d`].
    pub clips: Vec<Clip>,
}

impl Default for Ms3dSceneOptions {
    fn default() -> Self {
        Ms3dSceneOptions {
            name: "ms3d".to_string(),
            animation_name: "timeline".to_string(),
            clips: Vec::new(),
        }
    }
}

/// The bytes of the comment on item `index`, if any.
fn comment_bytes(comments: Option<&[Comment]>, index: usize) -> Option<&[u8]> {
    comments
        .unwrap_or_default()
        .iter()
        .find(|c| usize::try_from(c.index).ok() == Some(index))
        .map(|c| c.text.as_slice())
}

/// The text of the comment on item `index`, if any (lossily decoded).
fn comment_on(comments: Option<&[Comment]>, index: usize) -> String {
    comment_bytes(comments, index)
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .unwrap_or_default()
}

/// Index of the texture with `path` in `textures`, added if new; `None`
/// for an empty path.
fn texture_index(textures: &mut Vec<Texture>, path: String) -> Option<usize> {
    if path.is_empty() {
        return None;
    }
    if let Some(i) = textures.iter().position(|t| t.path == path) {
        return Some(i);
    }
    textures.push(Texture { path, image: None });
    Some(textures.len() - 1)
}

/// A scene material from a MilkShape material: diffuse → base colour,
/// transparency → alpha (blended below 1), emissive kept, roughness
/// `√(2 / (shininess + 2))` (the usual Blinn-Phong to GGX match), not
/// metallic. Texture and alpha map paths become texture references (the
/// alpha map as [`Material::alpha_texture`], also noted in the extras). The
/// extras keep what the scene's material has no place for, so that
/// `ms3d::compile` can write the material back as it was: ambient,
/// specular, shininess, mode, the texture path, and the diffuse and
/// emissive colours as stored (unclamped, diffuse with its alpha), and
/// the name, paths and comment as stored where their text would not give
/// the same bytes back (`ms3d::stored`). The alpha mode follows the transparency alone: an alpha map counts once its
/// image is baked in (`Scene::embed_images`, which makes it blend).
fn material(m: &ms3d::Material, comment: Option<&[u8]>, textures: &mut Vec<Texture>) -> Material {
    let alpha = m.transparency.clamp(0.0, 1.0);
    let texture = texture_index(textures, m.texture.to_string_lossy());
    let alphamap = texture_index(textures, m.alphamap.to_string_lossy());
    let mut extras = json!({
        "ambient": m.ambient,
        "specular": m.specular,
        "shininess": m.shininess,
        "mode": m.mode,
    });
    if texture.is_some() {
        extras["texture"] = json!(m.texture.to_string_lossy());
    }
    extras["diffuse"] = json!(m.diffuse);
    extras["emissive"] = json!(m.emissive);
    if let Some(a) = alphamap {
        extras["alphamap"] = json!({ "texture": a, "path": m.alphamap.to_string_lossy() });
    }
    if let Some(c) = comment.filter(|c| !c.is_empty()) {
        extras["comment"] = json!(String::from_utf8_lossy(c));
    }
    ms3d::stored::attach(&mut extras, ms3d::stored::material(m, comment));
    let clamp = |x: f32| {
        if x.is_finite() {
            x.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    Material {
        name: m.name.to_string_lossy(),
        base_color: [
            clamp(m.diffuse[0]),
            clamp(m.diffuse[1]),
            clamp(m.diffuse[2]),
            alpha,
        ],
        texture,
        alpha_texture: alphamap,
        alpha_mode: if alpha < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        emissive: [
            clamp(m.emissive[0]),
            clamp(m.emissive[1]),
            clamp(m.emissive[2]),
        ],
        emissive_texture: None,
        metallic: 0.0,
        roughness: (2.0 / (m.shininess.max(0.0) + 2.0)).sqrt(),
        double_sided: false,
        extras,
    }
}

/// The extra joints that make glTF skinning reproduce the viewer: their
/// indices (right after the model's joints).
#[derive(Clone, Copy)]
struct ExtraJoints {
    /// Never moves (identity): holds vertices no MilkShape joint moves.
    still: u16,
    /// Scaled to nothing: takes the share of a vertex whose stored weights
    /// sum to less than 100 %, which the viewer leaves out (pulling the
    /// vertex towards the origin); glTF needs weights that sum to 1.
    zero: u16,
}

/// Skinning data for a group mesh. Weights as the viewer uses them; a
/// vertex whose weights sum to less than 1 gets the rest on the `zero`
/// joint (so it lands where the viewer puts it), one whose weights sum to
/// more than 1 (stored percentages over 100) is normalised, the closest
/// glTF can come; a vertex no joint moves gets weight 1 on `still`. `None`
/// when no vertex of the mesh is moved.
fn skin_weights(mesh: &GroupMesh, extra: ExtraJoints) -> Option<SkinWeights> {
    let moved = |w: &[f32; 4]| w.iter().sum::<f32>() > 0.0;
    if !mesh.vertices.iter().any(|v| moved(&v.weights)) {
        return None;
    }
    let (joints, weights) = mesh
        .vertices
        .iter()
        .map(|v| {
            let sum: f32 = v.weights.iter().sum();
            let free = v.weights.iter().position(|&w| w == 0.0);
            match free {
                _ if sum <= 0.0 => ([extra.still, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
                Some(k) if sum < 1.0 - WEIGHT_SUM_TOLERANCE => {
                    let (mut joints, mut weights) = (v.joints, v.weights);
                    joints[k] = extra.zero;
                    weights[k] = 1.0 - sum;
                    (joints, weights)
                }
                _ => (v.joints, v.weights.map(|w| w / sum)),
            }
        })
        .unzip();
    Some(SkinWeights {
        skin: 0,
        joints,
        weights,
        more: Vec::new(),
    })
}

/// How far from 1 a vertex's weights may sum and still count as whole
/// (the percentages are integers, so a real shortfall is at least 0.01).
const WEIGHT_SUM_TOLERANCE: f32 = 1e-4;

/// The scene mesh of one group (a mesh per group, each with its own
/// material).
fn group_mesh(model: &Ms3d, g: &GroupMesh, extra: ExtraJoints) -> Mesh {
    let comments = model.extras.comments.as_ref().map(|c| c.groups.as_slice());
    let skin = if model.joints.is_empty() {
        None
    } else {
        skin_weights(g, extra)
    };
    let positions: Vec<[f32; 3]> = g.vertices.iter().map(|v| ms3d_axes(v.position)).collect();
    let mut normals: Vec<[f32; 3]> = g.vertices.iter().map(|v| ms3d_axes(v.normal)).collect();
    repair_normals(&positions, &g.indices, &mut normals);
    let group = &model.groups[g.group];
    let mut extras = comment_extras(&comment_on(comments, g.group));
    let record = ms3d::stored::group(group, comment_bytes(comments, g.group));
    ms3d::stored::attach(&mut extras, record);
    Mesh {
        name: group.name.to_string_lossy(),
        positions,
        normals,
        uvs: g.vertices.iter().map(|v| v.uv).collect(),
        indices: g.indices.clone(),
        material: g.material,
        node: None,
        morph_targets: Vec::new(),
        morph_weights: Vec::new(),
        skin,
        extras,
    }
}

/// A node per joint: rest pose = bind local, parents from
/// [`ms3d::Skeleton`]; name and parent fields as stored where their text
/// would not give the same bytes back (`ms3d::stored`).
fn joint_nodes(model: &Ms3d, skeleton: &ms3d::Skeleton) -> Vec<Node> {
    let comments = model.extras.comments.as_ref().map(|c| c.joints.as_slice());
    model
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let parent = skeleton.parents()[i];
            let mut extras = comment_extras(&comment_on(comments, i));
            let record = ms3d::stored::joint(
                j,
                parent.and_then(|p| model.joints.get(p)),
                comment_bytes(comments, i),
            );
            ms3d::stored::attach(&mut extras, record);
            Node {
                name: j.name.to_string_lossy(),
                parent,
                translation: ms3d_axes(j.position),
                rotation: euler_to_quat(j.rotation).to_array(),
                scale: [1.0; 3],
                extras,
            }
        })
        .collect()
}

/// Whether key times are finite, non-negative and strictly increasing, as
/// glTF requires.
fn valid_times(keys: &[ms3d::Key]) -> bool {
    keys.iter().all(|k| k.time.is_finite() && k.time >= 0.0)
        && keys.windows(2).all(|w| w[0].time < w[1].time)
}

/// The rotation channel of joint `i`: `q(rotation) ⊗ q(key)` per key,
/// linear (slerp). Left-multiplying by a fixed rotation keeps angles, so
/// the slerp of the products is the product of the viewer's slerp. Signs
/// are made continuous (each quaternion on the same side as the previous
/// one) so that every slerp takes the shorter arc, as the viewer's does.
fn rotation_channel(j: &ms3d::Joint, i: usize) -> Channel {
    let bind = euler_to_quat(j.rotation);
    let mut values = Vec::with_capacity(4 * j.rotation_keys.len());
    let mut previous: Option<Quat> = None;
    for k in &j.rotation_keys {
        let mut q = bind * euler_to_quat(k.value);
        if previous.is_some_and(|p| p.dot(q) < 0.0) {
            q = -q;
        }
        previous = Some(q);
        values.extend_from_slice(&q.to_array());
    }
    Channel {
        target: Target::Rotation { node: i },
        interpolation: Interpolation::Linear,
        times: j.rotation_keys.iter().map(|k| k.time).collect(),
        values,
    }
}

/// The translation channel of joint `i`: `position + R(rotation)·p(t)`,
/// where `p` is the viewer's Hermite curve. A linear map of a Hermite curve
/// is the Hermite curve of the mapped values and tangents. The viewer's
/// tangents `m` are per normalised interval; glTF's CUBICSPLINE multiplies
/// its tangents by the interval's duration `Δ` in seconds, so glTF's out
/// tangent of key `k` is `m_out(k) / (t(k+1) − t(k))` and its in tangent
/// `m_in(k) / (t(k) − t(k−1))` (0 at the ends, where they are unused).
fn translation_channel(j: &ms3d::Joint, i: usize, tangents: &[(Vec3, Vec3)]) -> Channel {
    let bind = euler_to_quat(j.rotation);
    let position = Vec3::from(j.position);
    let keys = &j.position_keys;
    let mut values = Vec::with_capacity(9 * keys.len());
    for (k, key) in keys.iter().enumerate() {
        let (m_in, m_out) = tangents.get(k).copied().unwrap_or((Vec3::ZERO, Vec3::ZERO));
        let a = match k.checked_sub(1) {
            Some(p) => bind * m_in / (key.time - keys[p].time),
            None => Vec3::ZERO,
        };
        let b = match keys.get(k + 1) {
            Some(n) => bind * m_out / (n.time - key.time),
            None => Vec3::ZERO,
        };
        let v = position + bind * Vec3::from(key.value);
        for x in [a, v, b] {
            values.extend_from_slice(&ms3d_axes(x.to_array()));
        }
    }
    // glTF needs two keys for a spline; one key is a constant.
    let (interpolation, values) = if keys.len() == 1 {
        (Interpolation::Linear, values[3..6].to_vec())
    } else {
        (Interpolation::CubicSpline, values)
    };
    Channel {
        target: Target::Translation { node: i },
        interpolation,
        times: keys.iter().map(|k| k.time).collect(),
        values,
    }
}

/// One animation over the whole timeline: per joint a rotation and a
/// translation channel where it has keys. Joints without keys hold the
/// bind pose (their rest TRS). Key lists whose times glTF cannot carry
/// (negative, not finite, not strictly increasing) are left out and listed
/// in the animation's extras.
fn timeline(model: &Ms3d, skeleton: &ms3d::Skeleton, name: &str) -> Animation {
    let mut channels = Vec::new();
    let mut skipped = Vec::new();
    for (i, j) in model.joints.iter().enumerate() {
        if !j.rotation_keys.is_empty() {
            if valid_times(&j.rotation_keys) {
                channels.push(rotation_channel(j, i));
            } else {
                skipped.push(format!("joints[{i}].rotation_keys"));
            }
        }
        if !j.position_keys.is_empty() {
            if valid_times(&j.position_keys) {
                let tangents = skeleton.position_tangents(i).unwrap_or_default();
                channels.push(translation_channel(j, i, tangents));
            } else {
                skipped.push(format!("joints[{i}].position_keys"));
            }
        }
    }
    let mut extras = json!({
        "fps": model.effective_fps(),
        "total_frames": model.total_frames,
    });
    if !skipped.is_empty() {
        extras["skipped_keys"] = json!(skipped);
    }
    Animation {
        name: name.to_string(),
        channels,
        extras,
    }
}

/// The animation of `clip`: every channel of the timeline cut exactly to
/// the clip's seconds (see `scene::cut`) and shifted to start at 0.
/// Fails when the clip does not fit the timeline.
fn clip_animation(model: &Ms3d, timeline: &Animation, clip: &Clip) -> Result<Animation> {
    model.check_clip(clip)?;
    let fps = model.effective_fps();
    let (start, end) = (clip.start_time(fps), clip.end_time(fps));
    let channels = timeline
        .channels
        .iter()
        .map(|c| {
            cut::cut(c, start, end).ok_or_else(|| Error::InvalidClip {
                name: clip.name.clone(),
                first_frame: clip.first_frame,
                last_frame: clip.last_frame,
                message: format!("cannot cut the channel of {:?}", c.target),
            })
        })
        .collect::<Result<Vec<Channel>>>()?;
    let mut extras = json!({
        "fps": fps,
        "first_frame": clip.first_frame,
        "last_frame": clip.last_frame,
        "start_time": start,
    });
    if let Some(skipped) = timeline.extras.get("skipped_keys") {
        extras["skipped_keys"] = skipped.clone();
    }
    Ok(Animation {
        name: clip.name.clone(),
        channels,
        extras,
    })
}

/// The note (`extras.note`) of the extra joint `static`, by which
/// `ms3d::compile` recognises it.
pub(crate) const STATIC_NOTE: &str = "holds vertices that no MilkShape joint moves";

/// The note of the extra joint `weight_remainder`.
pub(crate) const REMAINDER_NOTE: &str = "scaled to nothing: takes the share of vertices whose MilkShape weights sum to less than 100 %, which MilkShape leaves out";

/// A joint that never moves (identity rest pose and inverse bind), for the
/// vertices of skinned meshes that no joint moves.
fn static_joint() -> Node {
    Node {
        name: "static".to_string(),
        extras: json!({ "note": STATIC_NOTE }),
        ..Node::default()
    }
}

/// The joint that takes the missing share of weights summing to less than
/// 100 %: scale 0, so its skinning matrix is zero (identity inverse bind).
fn zero_joint() -> Node {
    Node {
        name: "weight_remainder".to_string(),
        scale: [0.0; 3],
        extras: json!({ "note": REMAINDER_NOTE }),
        ..static_joint()
    }
}

impl Scene {
    /// The scene of a MilkShape model.
    ///
    /// - A mesh per group (each with its one material), vertices as
    ///   [`GroupMesh`] builds them, axes through [`ms3d_axes`].
    /// - Materials from MilkShape's (see the `material` notes there);
    ///   texture and alpha map paths become [`Texture`]s (paths only).
    /// - The skeleton: a joint per MilkShape joint, rest pose = bind local
    ///   `[R(rotation) | position]`, inverse bind matrices from
    ///   [`ms3d::Skeleton`]. Skinned meshes carry the viewer's influences.
    ///   Vertices no joint moves are bound to an extra joint, `static`,
    ///   appended after the model's joints (only when needed). Where a
    ///   vertex's weights sum to less than 100 %, which the viewer does not
    ///   make up for, the rest goes to a second extra joint,
    ///   `weight_remainder`, scaled to nothing, so glTF's weights sum to 1
    ///   and the vertex still lands where the viewer puts it; weights over
    ///   100 % (which glTF cannot express) are normalised.
    /// - One animation (`options.animation_name`) whose channels reproduce
    ///   the viewer: rotations linear (slerp) of `q(rotation) ⊗ q(key)`,
    ///   translations CUBICSPLINE carrying the viewer's Hermite curve; key
    ///   times are the stored seconds.
    /// - Or, with `options.clips` (when empty, the clips the file stores in
    ///   its model comment: [`Ms3d::clips`]), one animation per clip instead, named
    ///   after it: the timeline's curves cut exactly to the clip's seconds
    ///   `first_frame / fps ..= last_frame / fps` (see [`Clip`] for the
    ///   frame numbering) and shifted to start at 0, so that playing the
    ///   clip at `t` gives the viewer's pose at `first_frame / fps + t`.
    ///   Every channel has keys at 0 and at the clip's duration; inside a
    ///   key interval the cut adds a key with the curve's value there (and,
    ///   for CUBICSPLINE, its derivative as tangents), before the first key
    ///   and after the last the curve holds, as in the viewer.
    /// - Comments (model, group, material, joint) go into the extras; so do
    ///   the joint colours (`joint_colors`) and the model extras
    ///   (`model_extras`: joint size, transparency mode, alpha reference).
    /// - Names are the lossy UTF-8 text of MilkShape's byte fields; where
    ///   that text would not give the same bytes back (GBK names, bytes
    ///   after the NUL, a parent field such as `none` on a root, an empty
    ///   name, a comment that is not UTF-8) the field as stored goes into
    ///   the item's `extras["ms3d"]` in hexadecimal, for `ms3d::compile`.
    ///
    /// Fails when the joints' parents form a cycle, and with
    /// [`Error::InvalidClip`] when a clip is not within the timeline
    /// ([`Ms3d::check_clip`]).
    pub fn from_ms3d(model: &Ms3d, options: &Ms3dSceneOptions) -> Result<Scene> {
        let skeleton = ms3d::Skeleton::new(model)?;
        // Checked even when there is no skeleton to animate.
        for clip in &options.clips {
            model.check_clip(clip)?;
        }
        // No clips given: those the file stores (its model comment's clip
        // line), if any.
        let stored;
        let clips = if options.clips.is_empty() {
            stored = model.clips();
            &stored
        } else {
            &options.clips
        };
        let comments = model.extras.comments.as_ref();
        let mut textures = Vec::new();
        let materials = model
            .materials
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let comment = comment_bytes(comments.map(|c| c.materials.as_slice()), i);
                material(m, comment, &mut textures)
            })
            .collect();
        let still = u16::try_from(model.joints.len()).unwrap_or(u16::MAX);
        let extra = ExtraJoints {
            still,
            zero: still.saturating_add(1),
        };
        let meshes: Vec<Mesh> = GroupMesh::build_all(model)
            .iter()
            .map(|g| group_mesh(model, g, extra))
            .collect();
        let (nodes, skins, animations) = if model.joints.is_empty() {
            (Vec::new(), Vec::new(), Vec::new())
        } else {
            let mut nodes = joint_nodes(model, &skeleton);
            let mut inverse_bind_matrices: Vec<[f32; 16]> = skeleton
                .inverse_bind()
                .iter()
                .map(|m| m.to_cols_array())
                .collect();
            let uses = |joint: u16| {
                meshes.iter().any(|m| {
                    m.skin.as_ref().is_some_and(|s| {
                        s.joints
                            .iter()
                            .zip(&s.weights)
                            .any(|(j, w)| j.iter().zip(w).any(|(&j, &w)| j == joint && w > 0.0))
                    })
                })
            };
            let needs_zero = uses(extra.zero);
            let identity = glam::Mat4::IDENTITY.to_cols_array();
            if needs_zero || uses(extra.still) {
                nodes.push(static_joint());
                inverse_bind_matrices.push(identity);
            }
            if needs_zero {
                nodes.push(zero_joint());
                inverse_bind_matrices.push(identity);
            }
            let anim = timeline(model, &skeleton, &options.animation_name);
            let animations = if clips.is_empty() {
                vec![anim]
            } else {
                clips
                    .iter()
                    .map(|clip| clip_animation(model, &anim, clip))
                    .collect::<Result<_>>()?
            };
            let skin = Skin {
                name: "skeleton".to_string(),
                joints: (0..nodes.len()).collect(),
                inverse_bind_matrices,
                extras: Value::Null,
            };
            (nodes, vec![skin], animations)
        };
        let mut extras =
            json!({ "source": "MS3D", "fps": model.fps, "total_frames": model.total_frames });
        if let Some(c) = model.model_comment() {
            extras["comment"] = Value::String(c);
        }
        let comment = comments.and_then(|c| c.model.text());
        ms3d::stored::attach(&mut extras, ms3d::stored::model(comment));
        // What the scene has no place for, for `ms3d::compile`.
        if let Some(j) = &model.extras.joints {
            extras["joint_colors"] = json!(j.colors);
        }
        if let Some(m) = &model.extras.model {
            extras["model_extras"] = json!({
                "joint_size": m.joint_size,
                "transparency_mode": m.transparency_mode,
                "alpha_ref": m.alpha_ref,
            });
        }
        Ok(Scene {
            name: options.name.clone(),
            meshes,
            materials,
            textures,
            nodes,
            skins,
            animations,
            extras,
        })
    }
}
