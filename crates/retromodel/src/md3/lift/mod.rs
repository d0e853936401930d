//! An MD3 as a [`Scene`]: each surface a mesh with its own material (from
//! a `.skin` file when one is given, else the surface's first shader),
//! frame 0 its base and every frame a morph target; each tag a node,
//! animated with the frames; animations from an `animation.cfg`, else
//! from runs of frame names, else one of every frame.
//!
//! [`player`](super::player) joins three of these into one player.

mod animations;
mod tags;

use serde_json::json;

pub(crate) use animations::specs;
pub use animations::{animation_frames, cfg_animations, AnimationSpec};
pub use tags::{tag_transform, ORTHONORMAL_TOLERANCE};

use super::{AnimationCfg, Md3, ShaderScripts, SkinFile, Surface};
use crate::scene::{
    Animation, Channel, Interpolation, Material, Mesh, MorphTarget, Node, Scene, Target, Texture,
};

/// Frames per second of the animation that plays every frame (Quake III's
/// `animation.cfg` files use 15 to 20; without one, 15).
pub const DEFAULT_FPS: f32 = 15.0;

/// The most bytes the morph targets of one model may take (1 GiB): a
/// hostile count of frames and vertices is an error, not an allocation.
pub const MAX_MORPH_BYTES: u64 = 1 << 30;

/// Which part of a Quake III player a model is (`lower.md3`, `upper.md3`,
/// `head.md3`): which of an `animation.cfg`'s animations play on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerPart {
    /// `lower.md3`: `BOTH_` and `LEGS_` animations.
    Lower,
    /// `upper.md3`: `BOTH_` and `TORSO_` animations.
    Upper,
    /// `head.md3`: none.
    Head,
}

impl PlayerPart {
    /// The part a file name stands for (`lower.md3`, `Upper_1.md3`, ...),
    /// by the name before the first `.` or `_`, without case.
    ///
    /// ```
    /// use retromodel::md3::PlayerPart;
    /// assert_eq!(PlayerPart::from_file_name("players/sarge/lower.md3"), Some(PlayerPart::Lower));
    /// assert_eq!(PlayerPart::from_file_name("HEAD.MD3"), Some(PlayerPart::Head));
    /// assert_eq!(PlayerPart::from_file_name("rocket.md3"), None);
    /// ```
    pub fn from_file_name(name: &str) -> Option<PlayerPart> {
        let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let stem = file.split(['.', '_']).next().unwrap_or(file);
        match stem.to_ascii_lowercase().as_str() {
            "lower" => Some(PlayerPart::Lower),
            "upper" => Some(PlayerPart::Upper),
            "head" => Some(PlayerPart::Head),
            _ => None,
        }
    }

    /// The part's file stem and node name: `lower`, `upper`, `head`.
    pub fn name(self) -> &'static str {
        match self {
            PlayerPart::Lower => "lower",
            PlayerPart::Upper => "upper",
            PlayerPart::Head => "head",
        }
    }
}

/// Options for [`Scene::from_md3`].
#[derive(Debug, Clone, PartialEq)]
pub struct Md3SceneOptions {
    /// Frames per second of animations without an `animation.cfg`
    /// ([`DEFAULT_FPS`]).
    pub fps: f32,
    /// The scene's name.
    pub name: String,
    /// A `.skin` file: the image each surface is drawn with (surfaces it
    /// does not name keep their shader).
    pub skin: Option<SkinFile>,
    /// An `animation.cfg` whose animations play on the model.
    pub animation_cfg: Option<AnimationCfg>,
    /// Which part of a player the model is (which of the cfg's animations
    /// play, and where `LEGS_` frames start); `None` plays every cfg
    /// animation whose frames the model has, as written.
    pub part: Option<PlayerPart>,
    /// Shader scripts (`scripts/*.shader`): a surface whose image or
    /// shader names a scripted shader gets that shader's image.
    pub shaders: Option<ShaderScripts>,
}

impl Default for Md3SceneOptions {
    fn default() -> Self {
        Md3SceneOptions {
            fps: DEFAULT_FPS,
            name: "md3".to_string(),
            skin: None,
            animation_cfg: None,
            part: None,
            shaders: None,
        }
    }
}

/// Maps a Quake III vector to the scene's axes: Quake's X forward, Y
/// left, Z up become glTF's +Z forward, +X left, +Y up, so `(x, y, z)`
/// becomes `(y, z, x)` (as for MD2 and MDL).
///
/// ```
/// use retromodel::md3::md3_axes;
/// assert_eq!(md3_axes([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
/// ```
pub fn md3_axes(v: [f32; 3]) -> [f32; 3] {
    [v[1], v[2], v[0]]
}

/// What one MD3 put into a scene ([`add_model`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Lifted {
    /// Its meshes, one per surface.
    pub meshes: Vec<usize>,
    /// Its tag nodes, in the file's tag order.
    pub tags: Vec<usize>,
}

/// The morph-target budget check.
pub(crate) fn check_morph_size(model: &Md3, keys: usize) -> crate::Result<()> {
    let frames = model.frames.len();
    let vertices: u64 = model.surfaces.iter().map(|s| s.vertex_count() as u64).sum();
    // Positions and normals of every target, and every key's weights.
    let weights = (frames as u64)
        .saturating_mul(keys.max(frames) as u64)
        .saturating_mul(model.surfaces.len() as u64)
        .saturating_mul(4);
    let need = (frames as u64)
        .saturating_mul(vertices)
        .saturating_mul(24)
        .saturating_add(weights);
    if frames > 1 && need > MAX_MORPH_BYTES {
        return Err(crate::Error::InvalidScene {
            path: "meshes.morph_targets".to_string(),
            message: format!(
                "{frames} frames of {vertices} vertices would take {need} bytes, over the {} MiB limit",
                MAX_MORPH_BYTES >> 20
            ),
        });
    }
    Ok(())
}

/// Adds one MD3's surfaces (as meshes placed at `node`), their materials
/// and textures, and its tags (nodes below `node`, at frame 0) to
/// `scene`. Tags whose axes are not orthonormal in some frame are
/// reported in `warnings`.
pub(crate) fn add_model(
    scene: &mut Scene,
    model: &Md3,
    skin: Option<&SkinFile>,
    shaders: Option<&ShaderScripts>,
    node: Option<usize>,
    label: &str,
    warnings: &mut Vec<String>,
) -> Lifted {
    let frames = model.frames.len();
    let mut lifted = Lifted::default();
    for s in &model.surfaces {
        let surface = s.name.to_string_lossy();
        let path = match skin.and_then(|k| k.image_for(&surface)) {
            Some(image) => Some(image.to_string()),
            None => s.shaders.first().map(|sh| sh.name.to_string_lossy()),
        };
        let image = path.clone().unwrap_or_default();
        // A scripted shader draws its script's image.
        let scripted = shaders
            .and_then(|s| s.image_for(&image))
            .filter(|_| !image.is_empty())
            .map(str::to_string);
        let path = scripted.clone().or(path);
        let texture = path.filter(|p| !p.is_empty()).map(|path| {
            match scene.textures.iter().position(|t| t.path == path) {
                Some(i) => i,
                None => {
                    scene.textures.push(Texture { path, image: None });
                    scene.textures.len() - 1
                }
            }
        });
        let shader_names: Vec<String> = s
            .shaders
            .iter()
            .map(|sh| sh.name.to_string_lossy())
            .collect();
        scene.materials.push(Material {
            name: surface,
            texture,
            extras: match &scripted {
                Some(drawn) => json!({
                    "md3_shaders": shader_names,
                    "md3_image": image,
                    "md3_shader_image": drawn,
                }),
                None => json!({ "md3_shaders": shader_names, "md3_image": image }),
            },
            ..Material::default()
        });
        let mut mesh = mesh(s, scene.materials.len() - 1, model);
        mesh.node = node;
        scene.meshes.push(mesh);
        lifted.meshes.push(scene.meshes.len() - 1);
    }
    let num_tags = usize::try_from(model.num_tags).unwrap_or(0);
    for j in 0..num_tags {
        let Some(tag) = model.frame_tags(0).and_then(|t| t.get(j)) else {
            break;
        };
        let name = tag.name.to_string_lossy();
        let bad = (0..frames)
            .filter(|&k| {
                model
                    .frame_tags(k)
                    .and_then(|t| t.get(j))
                    .is_some_and(|t| !tag_transform(t).2)
            })
            .count();
        if bad > 0 {
            warnings.push(format!(
                "{label}tag {name}'s axes are not orthonormal in {bad} of {frames} frames; \
                 its rotation uses them normalised (as the engine's R_LerpTag does) and, where still \
                 not orthogonal, the nearest orthonormal axes"
            ));
        }
        let (translation, rotation, _) = tag_transform(tag);
        scene.nodes.push(Node {
            name,
            parent: node,
            translation,
            rotation,
            ..Node::default()
        });
        lifted.tags.push(scene.nodes.len() - 1);
    }
    lifted
}

/// The channels that play `frames` (frame indices of `model`) of a lifted
/// model at `fps`, one key per frame: its meshes' morph weights (the
/// frame's target at 1) and its tags' translations and rotations.
pub(crate) fn channels(model: &Md3, lifted: &Lifted, frames: &[usize], fps: f32) -> Vec<Channel> {
    let count = model.frames.len();
    let times: Vec<f32> = (0..frames.len()).map(|k| k as f32 / fps).collect();
    let mut out = Vec::new();
    if count > 1 {
        let mut values = vec![0.0f32; frames.len() * count];
        for (k, &f) in frames.iter().enumerate() {
            if let Some(v) = values.get_mut(k * count + f) {
                *v = 1.0;
            }
        }
        for &mesh in &lifted.meshes {
            out.push(Channel {
                target: Target::MorphWeights { mesh },
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: values.clone(),
            });
        }
    }
    for (j, &node) in lifted.tags.iter().enumerate() {
        let mut translations = Vec::with_capacity(frames.len() * 3);
        let mut rotations = Vec::with_capacity(frames.len() * 4);
        for &f in frames {
            let tag = model
                .frame_tags(f)
                .and_then(|t| t.get(j))
                .copied()
                .unwrap_or_default();
            let (t, r, _) = tag_transform(&tag);
            translations.extend(t);
            rotations.extend(r);
        }
        out.push(Channel {
            target: Target::Translation { node },
            interpolation: Interpolation::Linear,
            times: times.clone(),
            values: translations,
        });
        out.push(Channel {
            target: Target::Rotation { node },
            interpolation: Interpolation::Linear,
            times: times.clone(),
            values: rotations,
        });
    }
    out
}

/// An animation of `spec`'s frames on one lifted model.
pub(crate) fn animation(model: &Md3, lifted: &Lifted, spec: &AnimationSpec) -> Animation {
    Animation {
        name: spec.name.clone(),
        channels: channels(model, lifted, &spec.frames, spec.fps),
        extras: spec.extras.clone(),
    }
}

impl Scene {
    /// The scene of an MD3 model, in the scene's axes ([`md3_axes`]):
    ///
    /// - one mesh per surface, frame 0 its base and, with more than one
    ///   frame, one morph target per frame (target `k` is frame `k` minus
    ///   frame 0); Quake III's clockwise front faces turned
    ///   counter-clockwise;
    /// - one material per surface, named after it, whose texture is the
    ///   image `options.skin` gives the surface, else its first shader
    ///   name (no image is loaded here; `Scene::attach_textures` finds
    ///   them); all its shader names in the material's extras
    ///   (`md3_shaders`), and that image's path (`md3_image`: a glTF
    ///   keeps no texture whose image was not found);
    /// - one root node per tag, named after it, at frame 0's origin and
    ///   axes ([`tag_transform`]);
    /// - animations ([`cfg_animations`] from `options.animation_cfg`, else
    ///   one per run of frame names when there are several, else one,
    ///   `frames`, of every frame at `options.fps`), each keying every
    ///   mesh's morph weights and every tag's translation and rotation
    ///   once per frame.
    ///
    /// Tags whose axes are not orthonormal are listed in the scene's
    /// extras (`warnings`). Fails when the morph targets would take more
    /// than [`MAX_MORPH_BYTES`].
    ///
    /// ```
    /// use retromodel::md3::{Md3, Md3SceneOptions};
    /// use retromodel::scene::Scene;
    /// let scene = Scene::from_md3(&Md3::default(), &Md3SceneOptions::default())?;
    /// assert!(scene.meshes.is_empty() && scene.animations.is_empty());
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn from_md3(model: &Md3, options: &Md3SceneOptions) -> crate::Result<Scene> {
        let (specs, left_out) = animations::specs(model, options);
        let keys: usize = specs.iter().map(|s| s.frames.len()).sum();
        check_morph_size(model, keys)?;
        let mut scene = Scene {
            name: options.name.clone(),
            extras: json!({ "source": "MD3" }),
            ..Scene::default()
        };
        let mut warnings = left_out;
        let lifted = add_model(
            &mut scene,
            model,
            options.skin.as_ref(),
            options.shaders.as_ref(),
            None,
            "",
            &mut warnings,
        );
        for spec in &specs {
            scene.animations.push(animation(model, &lifted, spec));
        }
        if !warnings.is_empty() {
            scene.extras["warnings"] = json!(warnings);
        }
        Ok(scene)
    }
}

/// The positions and normals (unit length) of a surface's frame `k`, in
/// the scene's axes (none when the surface lacks the frame).
fn frame(s: &Surface, k: usize) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let v = s.frame(k).unwrap_or(&[]);
    (
        v.iter().map(|v| md3_axes(v.position())).collect(),
        v.iter()
            .map(|v| unit(md3_axes(v.decode_normal())))
            .collect(),
    )
}

/// `n` at unit length: ioquake3's table takes its "cosine" 0.09° off, so
/// a decoded normal is up to ~0.2% long or short, and glTF wants unit
/// normals (the Khronos validator and importers check).
fn unit(n: [f32; 3]) -> [f32; 3] {
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if l.is_finite() && l > 0.0 {
        n.map(|c| c / l)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Surface `s` as a mesh with one morph target per frame of `model`,
/// named as the frame is (its number when the name is empty).
fn mesh(s: &Surface, material: usize, model: &Md3) -> Mesh {
    let frames = model.frames.len();
    let nv = s.vertex_count();
    let (base_p, base_n) = frame(s, 0);
    let (base_p, base_n) = if base_p.len() == nv {
        (base_p, base_n)
    } else {
        (vec![[0.0; 3]; nv], vec![[0.0, 1.0, 0.0]; nv])
    };
    let sub = |a: [f32; 3], b: [f32; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let morph_targets = if frames > 1 {
        (0..frames)
            .map(|k| {
                let (p, n) = frame(s, k);
                let (p, n) = if p.len() == nv {
                    (p, n)
                } else {
                    (base_p.clone(), base_n.clone())
                };
                let name = model.frames[k].name.to_string_lossy();
                MorphTarget {
                    name: if name.is_empty() { k.to_string() } else { name },
                    positions: p
                        .into_iter()
                        .zip(&base_p)
                        .map(|(a, b)| sub(a, *b))
                        .collect(),
                    normals: n
                        .into_iter()
                        .zip(&base_n)
                        .map(|(a, b)| sub(a, *b))
                        .collect(),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    // Quake III draws clockwise triangles as front faces; the scene's run
    // counter-clockwise. Triangles with an index out of range are left out.
    let indices = s
        .triangles
        .iter()
        .filter(|t| t.iter().all(|&i| usize::try_from(i).is_ok_and(|i| i < nv)))
        .flat_map(|t| [t[0] as u32, t[2] as u32, t[1] as u32])
        .collect();
    Mesh {
        name: s.name.to_string_lossy(),
        positions: base_p,
        normals: base_n,
        uvs: s.texcoords.clone(),
        indices,
        material: Some(material),
        node: None,
        morph_targets,
        morph_weights: Vec::new(),
        skin: None,
        extras: serde_json::Value::Null,
    }
}
