//! [`Renderer`]: a posed scene, a camera and options in, RGBA8 pixels out.

use glam::{DMat4, DVec3, Vec3};

use super::camera::Camera;
use super::raster::{draw_line, draw_triangle, ClipVertex, Fragment, Target, Write, VARYINGS};
use super::sampler::{encode_srgb, MipTexture};
use crate::error::{Error, Result};
use crate::scene::{AlphaMode, Material, Pose, Scene};

/// The largest width or height of an image, in pixels.
pub const MAX_SIDE: u32 = 8192;

/// The most pixels an image may have (64 Mi: 256 MiB of RGBA8 and as much
/// again of depth).
pub const MAX_PIXELS: u64 = 64 << 20;

/// The fixed light of [`Shading::Lit`].
///
/// A directional light fixed to the camera, coming from the viewer's
/// upper left (so every view is lit from the front), plus an ambient
/// term: a pixel's colour is, in linear light,
/// `albedo · (AMBIENT + DIFFUSE · max(0, n · LIGHT_DIRECTION)) + emissive`
/// with `n` the interpolated, renormalised vertex normal (turned round on
/// the back of a double-sided material), then encoded as sRGB. three.js
/// gives the same with a `MeshLambertMaterial`, an `AmbientLight` of
/// intensity `π · AMBIENT` and a `DirectionalLight` of intensity
/// `π · DIFFUSE` shining from the direction (its Lambert BRDF divides by
/// π).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Light;

impl Light {
    /// The direction towards the light in camera space (x right, y up, z
    /// towards the viewer), unit length: `normalize(−1, 1, 2)`.
    pub const DIRECTION: [f64; 3] = [
        -0.408_248_290_463_863,
        0.408_248_290_463_863,
        0.816_496_580_927_726,
    ];
    /// The ambient term (a fraction of the albedo).
    pub const AMBIENT: f32 = 0.35;
    /// The directional term at normal incidence.
    pub const DIFFUSE: f32 = 0.7;
}

/// How pixels are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shading {
    /// Texture × base colour, lit by [`Light`].
    #[default]
    Lit,
    /// Texture × base colour as it is (three.js `MeshBasicMaterial`): for
    /// comparing colours with another renderer.
    Unlit,
}

/// What to draw and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// Width in pixels (1 to [`MAX_SIDE`]).
    pub width: u32,
    /// Height in pixels (1 to [`MAX_SIDE`]; at most [`MAX_PIXELS`] in all).
    pub height: u32,
    /// The background, straight RGBA (`[0, 0, 0, 0]`: transparent).
    pub background: [u8; 4],
    /// Lit or unlit.
    pub shading: Shading,
    /// Draws every triangle's edges over the image in this colour
    /// (straight RGBA, blended), where they are not hidden.
    pub wireframe: Option<[u8; 4]>,
}

impl Default for RenderOptions {
    /// 512 × 512, transparent, lit, no wireframe.
    fn default() -> Self {
        RenderOptions {
            width: 512,
            height: 512,
            background: [0; 4],
            shading: Shading::Lit,
            wireframe: None,
        }
    }
}

/// An error unless `width` × `height` is a size this module draws: each
/// side 1 to [`MAX_SIDE`], at most [`MAX_PIXELS`] in all.
pub fn check_size(width: u32, height: u32) -> Result<()> {
    let pixels = u64::from(width) * u64::from(height);
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE || pixels > MAX_PIXELS {
        return Err(Error::InvalidOptions {
            message: format!(
                "image size {width}x{height}: each side must be 1 to {MAX_SIDE} pixels, \
                 and the image at most {} Mpixel",
                MAX_PIXELS >> 20
            ),
        });
    }
    Ok(())
}

/// Draws posed scenes; holds the scene's decoded textures and scratch
/// buffers, so drawing many frames of one scene decodes once and
/// allocates little.
#[derive(Debug, Clone)]
pub struct Renderer {
    /// Per scene texture, the decoded texture (`None`: no image or not
    /// decodable).
    textures: Vec<Option<MipTexture>>,
    warnings: Vec<String>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    /// Clip-space vertices of every mesh, one after the other.
    clip: Vec<ClipVertex>,
    depth: Vec<f32>,
    /// Blended triangles: (distance, mesh, first index).
    blended: Vec<(f64, usize, usize)>,
}

/// A material's colour inputs, ready for the pixel shader.
struct Paint<'a> {
    base: [f32; 4],
    emissive: [f32; 3],
    texture: Option<&'a MipTexture>,
    /// Multiplies `emissive` (glTF's emissive texture).
    emissive_texture: Option<&'a MipTexture>,
    mode: AlphaMode,
    shading: Shading,
}

impl Paint<'_> {
    /// The straight, sRGB-encoded colour of a fragment, or `None` when an
    /// alpha test discards it.
    fn shade(&self, f: &Fragment) -> Option<[f32; 4]> {
        let sample = |t: &MipTexture| {
            let (w, h) = t.size();
            let (w, h) = (w as f32, h as f32);
            let d = f.uv_derivatives;
            let rho = ((d[0] * w).hypot(d[1] * h)).max((d[2] * w).hypot(d[3] * h));
            t.sample(f.varying[0], f.varying[1], rho)
        };
        let mut albedo = self.base;
        if let Some(t) = self.texture {
            let texel = sample(t);
            for k in 0..4 {
                albedo[k] *= texel[k];
            }
        }
        let mut emissive = self.emissive;
        if let Some(t) = self.emissive_texture {
            let texel = sample(t);
            for k in 0..3 {
                emissive[k] *= texel[k];
            }
        }
        let alpha = match self.mode {
            AlphaMode::Opaque => 1.0,
            AlphaMode::Mask { cutoff } => {
                if albedo[3] < cutoff {
                    return None;
                }
                1.0
            }
            AlphaMode::Blend => albedo[3],
        };
        let rgb = match self.shading {
            Shading::Unlit => [albedo[0], albedo[1], albedo[2]],
            Shading::Lit => {
                let n = Vec3::new(f.varying[2], f.varying[3], f.varying[4]);
                let n = n.try_normalize().unwrap_or(Vec3::Z) * if f.front { 1.0 } else { -1.0 };
                let l = DVec3::from(Light::DIRECTION).as_vec3();
                let k = Light::AMBIENT + Light::DIFFUSE * n.dot(l).max(0.0);
                [0, 1, 2].map(|c| albedo[c] * k + emissive[c])
            }
        };
        Some([
            encode_srgb(rgb[0]),
            encode_srgb(rgb[1]),
            encode_srgb(rgb[2]),
            alpha.clamp(0.0, 1.0),
        ])
    }
}

impl Renderer {
    /// A renderer for `scene`: prepares every texture's image for
    /// sampling ([`crate::scene::Texture::image`]: pixels as
    /// `Scene::attach_textures` leaves them, or a PNG, decoded here). A
    /// texture without an image leaves its materials untextured; one whose
    /// PNG does not decode too, with a warning ([`Renderer::warnings`]).
    pub fn new(scene: &Scene) -> Renderer {
        let mut warnings = Vec::new();
        let textures = scene
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let image = t.image.as_ref()?;
                match image.to_pixels() {
                    Ok(image) => Some(MipTexture::new(&image)),
                    Err(e) => {
                        warnings.push(format!("textures[{i}] ({}): {e}; drawn untextured", t.path));
                        None
                    }
                }
            })
            .collect();
        Renderer {
            textures,
            warnings,
            positions: Vec::new(),
            normals: Vec::new(),
            clip: Vec::new(),
            depth: Vec::new(),
            blended: Vec::new(),
        }
    }

    /// What went wrong preparing the textures.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Draws `scene` posed by `pose`, seen by `camera`, into `pixels`:
    /// `width × height × 4` bytes of straight (not premultiplied) RGBA8,
    /// row 0 at the top. The result depends only on the inputs: the same
    /// scene, pose, camera and options give the same bytes.
    ///
    /// Opaque and alpha-tested (`MASK`) triangles are drawn first, with a
    /// depth buffer; then blended ones (`BLEND`), sorted from the farthest
    /// to the nearest by the distance of their centre (ties in scene
    /// order), depth-tested but not writing depth, as three.js draws
    /// glTF's transparent materials. Single-sided materials show only
    /// their front faces (counter-clockwise). Triangles with a corner that
    /// is not finite or out of range are left out.
    ///
    /// Fails when the size is out of range ([`check_size`]), `pixels` is
    /// not `width × height × 4` bytes long or the camera is unusable
    /// ([`Camera::check`]).
    pub fn render(
        &mut self,
        scene: &Scene,
        pose: &Pose,
        camera: &Camera,
        options: &RenderOptions,
        pixels: &mut [u8],
    ) -> Result<()> {
        check_size(options.width, options.height)?;
        camera.check()?;
        let (width, height) = (options.width as usize, options.height as usize);
        if pixels.len() != width * height * 4 {
            return Err(Error::InvalidOptions {
                message: format!(
                    "pixel buffer of {} bytes for a {width}x{height} image (needs {})",
                    pixels.len(),
                    width * height * 4
                ),
            });
        }
        let bg = options.background;
        let a = f32::from(bg[3]) / 255.0;
        let premultiplied = [
            (f32::from(bg[0]) * a + 0.5) as u8,
            (f32::from(bg[1]) * a + 0.5) as u8,
            (f32::from(bg[2]) * a + 0.5) as u8,
            bg[3],
        ];
        for px in pixels.chunks_exact_mut(4) {
            px.copy_from_slice(&premultiplied);
        }
        self.depth.clear();
        self.depth.resize(width * height, f32::INFINITY);
        let view = camera.view_matrix();
        let projection = camera.projection_matrix(width as f64 / height as f64);
        let clip_from_scene = projection * view;
        self.transform(scene, pose, &view, &clip_from_scene);
        let mut offsets = Vec::with_capacity(scene.meshes.len() + 1);
        offsets.push(0);
        for m in &scene.meshes {
            offsets.push(offsets.last().copied().unwrap_or(0) + m.positions.len());
        }
        let mut target = Target {
            width,
            height,
            color: pixels,
            depth: &mut self.depth,
        };
        let default_material = Material::default();
        self.blended.clear();
        for (m, mesh) in scene.meshes.iter().enumerate() {
            let material = mesh
                .material
                .and_then(|i| scene.materials.get(i))
                .unwrap_or(&default_material);
            let vertices = &self.clip[offsets[m]..offsets[m + 1]];
            if material.alpha_mode == AlphaMode::Blend {
                for (t, tri) in mesh.indices.chunks_exact(3).enumerate() {
                    let Some(corners) = corners(vertices, tri) else {
                        continue;
                    };
                    let distance = corners.iter().map(|c| c.clip[3]).sum::<f64>() / 3.0;
                    if distance.is_finite() {
                        self.blended.push((distance, m, 3 * t));
                    }
                }
                continue;
            }
            let paint = paint(material, &self.textures, options.shading);
            let mut shade = |f: &Fragment| paint.shade(f);
            for tri in mesh.indices.chunks_exact(3) {
                if let Some(corners) = corners(vertices, tri) {
                    draw_triangle(
                        &mut target,
                        &corners,
                        !material.double_sided,
                        Write::Replace,
                        &mut shade,
                    );
                }
            }
        }
        // Farthest first; ties in scene order (the sort is stable).
        self.blended.sort_by(|a, b| b.0.total_cmp(&a.0));
        for &(_, m, first) in &self.blended {
            let mesh = &scene.meshes[m];
            let material = mesh
                .material
                .and_then(|i| scene.materials.get(i))
                .unwrap_or(&default_material);
            let vertices = &self.clip[offsets[m]..offsets[m + 1]];
            let paint = paint(material, &self.textures, options.shading);
            if let Some(corners) = corners(vertices, &mesh.indices[first..first + 3]) {
                draw_triangle(
                    &mut target,
                    &corners,
                    !material.double_sided,
                    Write::Blend,
                    &mut |f: &Fragment| paint.shade(f),
                );
            }
        }
        if let Some(colour) = options.wireframe {
            let rgba = [0, 1, 2, 3].map(|k| {
                let c = f32::from(colour[k]) / 255.0;
                if k < 3 {
                    c
                } else {
                    c.clamp(0.0, 1.0)
                }
            });
            // A depth bias of a thousandth of the depth range, so edges
            // show on the surfaces they border.
            let bias = 2e-3;
            for (m, mesh) in scene.meshes.iter().enumerate() {
                let vertices = &self.clip[offsets[m]..offsets[m + 1]];
                for tri in mesh.indices.chunks_exact(3) {
                    if let Some(c) = corners(vertices, tri) {
                        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
                            draw_line(&mut target, c[a].clip, c[b].clip, rgba, bias);
                        }
                    }
                }
            }
        }
        unpremultiply(pixels);
        Ok(())
    }

    /// Poses every mesh and transforms its vertices to clip space (normals
    /// to camera space) into `self.clip`.
    fn transform(&mut self, scene: &Scene, pose: &Pose, view: &DMat4, clip_from_scene: &DMat4) {
        self.clip.clear();
        for (m, mesh) in scene.meshes.iter().enumerate() {
            let n = mesh.positions.len();
            self.positions.clear();
            self.positions.resize(n, [0.0; 3]);
            self.normals.clear();
            self.normals.resize(n, [0.0; 3]);
            pose.mesh_vertices(scene, m, &mut self.positions, &mut self.normals);
            for i in 0..n {
                let p = DVec3::from(self.positions[i].map(f64::from));
                let clip = *clip_from_scene * p.extend(1.0);
                let normal = view.transform_vector3(DVec3::from(self.normals[i].map(f64::from)));
                let uv = mesh.uvs.get(i).copied().unwrap_or([0.0; 2]);
                let mut varying = [0.0f64; VARYINGS];
                varying[0] = f64::from(uv[0]);
                varying[1] = f64::from(uv[1]);
                varying[2] = normal.x;
                varying[3] = normal.y;
                varying[4] = normal.z;
                self.clip.push(ClipVertex {
                    clip: clip.to_array(),
                    varying,
                });
            }
        }
    }
}

/// The three clip-space corners of triangle `tri`, or `None` when an index
/// is out of range.
fn corners(vertices: &[ClipVertex], tri: &[u32]) -> Option<[ClipVertex; 3]> {
    Some([
        *vertices.get(*tri.first()? as usize)?,
        *vertices.get(*tri.get(1)? as usize)?,
        *vertices.get(*tri.get(2)? as usize)?,
    ])
}

/// The paint of `material`.
fn paint<'a>(
    material: &Material,
    textures: &'a [Option<MipTexture>],
    shading: Shading,
) -> Paint<'a> {
    let finite = |v: f32, default: f32| if v.is_finite() { v } else { default };
    Paint {
        base: material.base_color.map(|c| finite(c, 1.0)),
        emissive: material.emissive.map(|c| finite(c, 0.0)),
        texture: material
            .texture
            .and_then(|t| textures.get(t))
            .and_then(Option::as_ref),
        emissive_texture: material
            .emissive_texture
            .and_then(|t| textures.get(t))
            .and_then(Option::as_ref),
        mode: match material.alpha_mode {
            AlphaMode::Mask { cutoff } => AlphaMode::Mask {
                cutoff: finite(cutoff, 0.5),
            },
            other => other,
        },
        shading,
    }
}

/// Premultiplied RGBA8 to straight RGBA8, in place.
fn unpremultiply(pixels: &mut [u8]) {
    for px in pixels.chunks_exact_mut(4) {
        let a = px[3];
        if a == 0 {
            px[..3].fill(0);
        } else if a < 255 {
            for c in &mut px[..3] {
                *c = ((u32::from(*c) * 255 + u32::from(a) / 2) / u32::from(a)).min(255) as u8;
            }
        }
    }
}
