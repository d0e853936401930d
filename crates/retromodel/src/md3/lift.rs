//! An MD3 as a [`Scene`]: a minimal lift. Each surface is a mesh (its
//! first frame the base, every frame a morph target), with a material
//! naming its first shader; one animation plays every frame in turn.
//! Tags are not lifted yet.

use serde_json::json;

use super::{Md3, Surface};
use crate::scene::{
    Animation, Channel, Interpolation, Material, Mesh, MorphTarget, Scene, Target, Texture,
};

/// Frames per second of the animation that plays every frame (Quake III's
/// `animation.cfg` files use 15 to 20; without one, 15).
pub const DEFAULT_FPS: f32 = 15.0;

/// The most bytes the morph targets of one model may take (1 GiB): a
/// hostile count of frames and vertices is an error, not an allocation.
pub const MAX_MORPH_BYTES: u64 = 1 << 30;

/// Options for [`Scene::from_md3`].
#[derive(Debug, Clone, PartialEq)]
pub struct Md3SceneOptions {
    /// Frames per second of the animation ([`DEFAULT_FPS`]).
    pub fps: f32,
    /// The scene's name.
    pub name: String,
}

impl Default for Md3SceneOptions {
    fn default() -> Self {
        Md3SceneOptions {
            fps: DEFAULT_FPS,
            name: "md3".to_string(),
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

/// The positions and normals of a surface's frame `k`, in the scene's
/// axes (none when the surface lacks the frame).
fn frame(s: &Surface, k: usize) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let v = s.frame(k).unwrap_or(&[]);
    (
        v.iter().map(|v| md3_axes(v.position())).collect(),
        v.iter().map(|v| md3_axes(v.decode_normal())).collect(),
    )
}

fn mesh(s: &Surface, material: usize, frames: usize) -> Mesh {
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
                MorphTarget {
                    name: k.to_string(),
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

impl Scene {
    /// The scene of an MD3 model: one mesh per surface, in the scene's
    /// axes ([`md3_axes`]), with frame 0 as its base and one morph target
    /// per frame (target `k` is frame `k` minus frame 0) when there is
    /// more than one frame; one material per surface whose texture is the
    /// surface's first shader name (no image is loaded); one animation,
    /// `frames`, playing every frame in turn at `options.fps`. Tags, LODs,
    /// `.skin` files and `animation.cfg` are not lifted yet.
    ///
    /// Fails when the morph targets would take more than
    /// [`MAX_MORPH_BYTES`].
    pub fn from_md3(model: &Md3, options: &Md3SceneOptions) -> crate::Result<Scene> {
        let frames = model.frames.len();
        let vertices: u64 = model.surfaces.iter().map(|s| s.vertex_count() as u64).sum();
        // Positions and normals of every target, and every key's weights.
        let weights = (frames as u64)
            .saturating_mul(frames as u64)
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
        let mut textures = Vec::new();
        let mut materials = Vec::new();
        let mut meshes = Vec::new();
        for (i, s) in model.surfaces.iter().enumerate() {
            let texture = s.shaders.first().map(|sh| {
                textures.push(Texture {
                    path: sh.name.to_string_lossy(),
                    image: None,
                });
                textures.len() - 1
            });
            materials.push(Material {
                name: s.name.to_string_lossy(),
                texture,
                ..Material::default()
            });
            meshes.push(mesh(s, i, frames));
        }
        let fps = if options.fps > 0.0 && options.fps.is_finite() {
            options.fps
        } else {
            DEFAULT_FPS
        };
        let animations = if frames > 1 {
            let times: Vec<f32> = (0..frames).map(|k| k as f32 / fps).collect();
            let mut values = vec![0.0f32; frames * frames];
            for k in 0..frames {
                values[k * frames + k] = 1.0;
            }
            vec![Animation {
                name: "frames".to_string(),
                channels: (0..meshes.len())
                    .map(|mesh| Channel {
                        target: Target::MorphWeights { mesh },
                        interpolation: Interpolation::Linear,
                        times: times.clone(),
                        values: values.clone(),
                    })
                    .collect(),
                extras: json!({ "first_frame": 0, "frame_count": frames, "fps": fps }),
            }]
        } else {
            Vec::new()
        };
        Ok(Scene {
            name: options.name.clone(),
            meshes,
            materials,
            textures,
            nodes: Vec::new(),
            skins: Vec::new(),
            animations,
            extras: json!({ "source": "MD3" }),
        })
    }
}
