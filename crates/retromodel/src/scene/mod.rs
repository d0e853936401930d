//! A format-neutral scene: meshes, materials, texture references, a node
//! hierarchy with skins, and animations.
//!
//! This module names no format: each format maps its models into a
//! [`Scene`] and back in its own module (`Scene::from_md2` and the MD2
//! compiler live in `md2`, `Scene::from_ms3d` and the MS3D compiler in
//! `ms3d`, the glTF importer and exporter in `gltf`), and exporters see only
//! the scene. Its conventions are glTF 2.0's, so an exporter copies rather
//! than converts:
//!
//! - Right-handed, +Y up, +Z forward (the front of a model faces +Z), metres
//!   or whatever unit the model uses (no scaling).
//! - Front faces are counter-clockwise.
//! - Texture coordinates `(u, v)` with `v` running top-down (as images are
//!   stored); no flip.
//! - Quaternions are `[x, y, z, w]`; matrices are column-major.
//!
//! The axis mapping of each format is one documented function in its
//! module: `md2::md2_axes` and `ms3d::ms3d_axes`.
//!
//! ```
//! use retromodel::md2::Md2SceneOptions;
//! use retromodel::scene::Scene;
//! let model = retromodel::md2::sample::sample_model();
//! let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
//! assert_eq!(scene.meshes[0].morph_targets.len(), model.frames.len());
//! assert_eq!(scene.animations.len(), model.animations().len());
//! ```

#[cfg(feature = "textures")]
mod attach;
pub(crate) mod cut;
mod finite;
#[cfg(feature = "textures")]
mod images;
mod influences;
mod info;
pub(crate) mod inverse_bind;
mod pose;

#[cfg(feature = "textures")]
pub use attach::{Consequence, TextureLookup, TextureWarning, UserSkin};
pub(crate) use finite::all_finite;
#[cfg(any(feature = "gltf", test))]
pub(crate) use finite::first_non_finite;
pub use info::{AnimationSummary, MeshInfo, SceneInfo};
pub use pose::Pose;

use serde_json::Value;

pub use crate::clip::Clip;

/// How a model of any format becomes a scene (`Model::to_scene`): the
/// options every format's mapping may use, as format-neutral data.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneOptions {
    /// Name of the scene (and of an MD2's mesh); empty for the format's
    /// default (`md2`, `ms3d`).
    pub name: String,
    /// Playback rate of formats whose animations have none of their own
    /// (MD2); `None` for the format's usual rate (10 for Quake II).
    pub fps: Option<f32>,
    /// Whether MD2 animations get a key back to their first frame, for
    /// looping players (`md2::Md2SceneOptions::close_loops`).
    pub close_loops: bool,
    /// Named ranges of a model's one timeline (MS3D), each made its own
    /// animation; formats with named animations of their own (MD2) ignore
    /// them (`Model::has_timeline` tells).
    pub clips: Vec<Clip>,
    /// The palette of skins stored as palette indices (a Quake MDL's:
    /// Quake's `gfx/palette.lmp`); `None` leaves them without an image.
    pub palette: Option<crate::texture::Palette>,
}

/// A whole model in format-neutral form.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// Name of the scene (the model's name when known, else empty).
    pub name: String,
    /// Meshes; each is drawn with one material.
    pub meshes: Vec<Mesh>,
    /// Materials, referenced by [`Mesh::material`].
    pub materials: Vec<Material>,
    /// Textures, referenced by [`Material::texture`] and
    /// [`Material::alpha_texture`].
    pub textures: Vec<Texture>,
    /// Transform nodes in a hierarchy: the joints of skins, and the nodes
    /// that place meshes ([`Mesh::node`]). A parent may come after its
    /// children.
    pub nodes: Vec<Node>,
    /// Skins: which nodes are the joints that skinned meshes
    /// ([`Mesh::skin`]) follow, with their inverse bind matrices.
    pub skins: Vec<Skin>,
    /// Animations.
    pub animations: Vec<Animation>,
    /// Anything else worth keeping (model comments ...); `Value::Null` for
    /// nothing.
    pub extras: Value,
}

/// An indexed triangle mesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Name.
    pub name: String,
    /// Base (rest) positions.
    pub positions: Vec<[f32; 3]>,
    /// Base unit normals, one per position.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates, one per position (`v` top-down).
    pub uvs: Vec<[f32; 2]>,
    /// Three indices per triangle, counter-clockwise front faces.
    pub indices: Vec<u32>,
    /// Index into [`Scene::materials`].
    pub material: Option<usize>,
    /// The node whose transform places the mesh (index into
    /// [`Scene::nodes`]); `None` for a mesh in scene space. A skinned mesh
    /// follows its joints instead, as in glTF.
    pub node: Option<usize>,
    /// Morph targets as **displacements** added to the base: with weights
    /// `w`, a vertex is at `position + Σ wₖ · targets[k].positions` (glTF's
    /// rule); normals likewise (and are then renormalised by a renderer).
    pub morph_targets: Vec<MorphTarget>,
    /// The morph weights when no animation sets them, one per target;
    /// empty for all zero.
    pub morph_weights: Vec<f32>,
    /// The skin the mesh follows, with joints and weights per vertex.
    pub skin: Option<SkinWeights>,
    /// Comments and other data worth keeping; `Value::Null` for nothing.
    pub extras: Value,
}

/// One morph target: displacements from the base mesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MorphTarget {
    /// Name (for MD2 the frame's name).
    pub name: String,
    /// Position displacements, one per vertex.
    pub positions: Vec<[f32; 3]>,
    /// Normal displacements, one per vertex (empty when not given).
    pub normals: Vec<[f32; 3]>,
}

/// Per-vertex skinning data: joints and weights in sets of four, as glTF's
/// `JOINTS_n`/`WEIGHTS_n` pairs. `joints`/`weights` are the first set
/// (`JOINTS_0`/`WEIGHTS_0`); [`more`](Self::more) holds the further sets
/// (`JOINTS_1`/`WEIGHTS_1`, …), for vertices with more than four
/// influences. A vertex's weights over **all** sets sum to 1, and a vertex
/// is posed with every one of them ([`SkinWeights::influences`]).
///
/// ```
/// use retromodel::scene::{InfluenceSet, SkinWeights};
/// // One vertex with six influences: four in the first set, two more.
/// let w = SkinWeights {
///     skin: 0,
///     joints: vec![[0, 1, 2, 3]],
///     weights: vec![[0.3, 0.2, 0.2, 0.1]],
///     more: vec![InfluenceSet {
///         joints: vec![[4, 5, 0, 0]],
///         weights: vec![[0.1, 0.1, 0.0, 0.0]],
///     }],
/// };
/// assert_eq!(w.influences(0).count(), 6);
/// assert!((w.influences(0).map(|(_, x)| x).sum::<f32>() - 1.0).abs() < 1e-6);
/// assert!(w.fits(1));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SkinWeights {
    /// Index into [`Scene::skins`].
    pub skin: usize,
    /// Indices into that skin's [`Skin::joints`], one entry per vertex (the
    /// first set of four).
    pub joints: Vec<[u16; 4]>,
    /// Weights, one entry per vertex (the first set of four; unused slots
    /// 0).
    pub weights: Vec<[f32; 4]>,
    /// Further sets of four influences, in order (glTF's `JOINTS_1` and
    /// `WEIGHTS_1` first); empty for at most four influences per vertex.
    pub more: Vec<InfluenceSet>,
}

/// Four further influences per vertex of a [`SkinWeights`]: joints and
/// weights, one entry per vertex each (unused slots weigh 0).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InfluenceSet {
    /// Indices into the skin's [`Skin::joints`], one entry per vertex.
    pub joints: Vec<[u16; 4]>,
    /// Weights, one entry per vertex.
    pub weights: Vec<[f32; 4]>,
}

/// How a material's alpha is used.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum AlphaMode {
    /// Alpha is ignored.
    #[default]
    Opaque,
    /// Alpha below the cutoff is fully transparent, above fully opaque.
    Mask {
        /// The cutoff (0–1).
        cutoff: f32,
    },
    /// Alpha blends.
    Blend,
}

/// A metallic-roughness material.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Name.
    pub name: String,
    /// Base colour, linear RGBA (multiplies the texture).
    pub base_color: [f32; 4],
    /// Index into [`Scene::textures`] of the base colour texture.
    pub texture: Option<usize>,
    /// Index into [`Scene::textures`] of an alpha map: a greyscale image
    /// whose intensity is the opacity (MilkShape materials name one).
    /// glTF has no slot for it: `Scene::embed_images` (feature
    /// `textures`) bakes it into the alpha channel of a base colour texture
    /// made for this material; exporters otherwise ignore it.
    pub alpha_texture: Option<usize>,
    /// How alpha is used.
    pub alpha_mode: AlphaMode,
    /// Emissive colour, linear RGB; with an
    /// [`emissive_texture`](Self::emissive_texture) it multiplies the
    /// texture (glTF's `emissiveFactor`).
    pub emissive: [f32; 3],
    /// Index into [`Scene::textures`] of an emissive map: the light the
    /// surface gives off whatever the lighting (a Quake skin's fullbright
    /// texels, black elsewhere). glTF's `emissiveTexture`.
    pub emissive_texture: Option<usize>,
    /// Metalness, 0–1.
    pub metallic: f32,
    /// Roughness, 0–1.
    pub roughness: f32,
    /// Whether back faces are drawn too.
    pub double_sided: bool,
    /// Comments and other data worth keeping; `Value::Null` for nothing.
    pub extras: Value,
}

impl Default for Material {
    /// Opaque white, not metallic, fully rough, single-sided, untextured.
    fn default() -> Self {
        Material {
            name: String::new(),
            base_color: [1.0; 4],
            texture: None,
            alpha_texture: None,
            alpha_mode: AlphaMode::Opaque,
            emissive: [0.0; 3],
            emissive_texture: None,
            metallic: 0.0,
            roughness: 1.0,
            double_sided: false,
            extras: Value::Null,
        }
    }
}

/// A texture: the path the model names, and optionally its image.
///
/// Producers only fill [`Texture::path`]; finding and decoding the image
/// (PCX, BMP ...) is the caller's business ([`Scene::attach_textures`],
/// feature `textures`, does it through a texture source), who then sets
/// [`Texture::image`]. Writers use a texture only when it has an image:
/// the glTF exporter embeds it as PNG, the MD2 compiler packs it into the
/// skin, the renderer samples it.
///
/// ```
/// use retromodel::scene::{Texture, TextureImage};
/// use retromodel::texture::Rgba8Image;
///
/// let pixels = Rgba8Image::new(1, 1, vec![255, 0, 0, 255]).unwrap();
/// let texture = Texture { path: "red.pcx".into(), image: Some(TextureImage::Pixels(pixels)) };
/// assert!(texture.has_image());
/// assert!(!Texture { path: "missing.pcx".into(), image: None }.has_image());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Texture {
    /// The path as the model stores it (e.g. `players/male/grunt.pcx`).
    pub path: String,
    /// The image; `None` when not supplied (not found, not decodable, or
    /// not looked for).
    pub image: Option<TextureImage>,
}

impl Texture {
    /// Whether the texture has an image.
    pub fn has_image(&self) -> bool {
        self.image.is_some()
    }
}

/// A texture's image, in the form it was had: a PNG file's bytes, or
/// decoded pixels.
///
/// Each consumer takes the form it needs, converting only then: a writer
/// of files (the glTF exporter, the MS3D compiler's texture files, OBJ's
/// PNGs) encodes pixels as PNG when it writes them
/// ([`TextureImage::to_png`]); the renderer and the MD2 compiler's skin
/// packer decode a PNG ([`TextureImage::to_pixels`]). So a scene that is
/// only drawn never encodes a PNG, and one imported from a glTF keeps its
/// PNGs byte for byte. Two images are equal when they are the same form
/// with the same contents (a PNG never equals pixels).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum TextureImage {
    /// The bytes of a PNG file, kept as they are (what the glTF importer
    /// gives for a PNG it has checked decodes).
    Png(Vec<u8>),
    /// Decoded pixels (what [`Scene::attach_textures`] gives, and the glTF
    /// and OBJ importers for images other than PNG).
    Pixels(crate::texture::Rgba8Image),
}

impl TextureImage {
    /// The image as a PNG file: a PNG's bytes as they are, pixels encoded
    /// now ([`Rgba8Image::to_png`](crate::texture::Rgba8Image::to_png):
    /// 8-bit RGB when opaque, else RGBA), as every writer of this crate
    /// embeds or writes it. Fails only if encoding fails, or for pixels
    /// when the crate is built without feature `textures` (which has the
    /// encoder).
    ///
    /// ```
    /// use retromodel::scene::TextureImage;
    /// use retromodel::texture::Rgba8Image;
    ///
    /// let pixels = Rgba8Image::new(2, 1, vec![1, 2, 3, 255, 4, 5, 6, 255]).unwrap();
    /// # #[cfg(feature = "textures")] {
    /// let png = TextureImage::Pixels(pixels.clone()).to_png()?.into_owned();
    /// assert_eq!(retromodel::texture::decode(&png)?, pixels);
    /// # }
    /// let kept = TextureImage::Png(b"\x89PNG...".to_vec());
    /// assert_eq!(kept.to_png()?.as_ref(), b"\x89PNG...");
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn to_png(&self) -> crate::Result<std::borrow::Cow<'_, [u8]>> {
        self.png_for_writing("texture")
    }

    /// [`TextureImage::to_png`], an encoding error naming `what`.
    pub(crate) fn png_for_writing(&self, what: &str) -> crate::Result<std::borrow::Cow<'_, [u8]>> {
        match self {
            TextureImage::Png(bytes) => Ok(bytes.as_slice().into()),
            #[cfg(feature = "textures")]
            TextureImage::Pixels(image) => {
                image
                    .to_png()
                    .map(Into::into)
                    .map_err(|source| crate::Error::Texture {
                        context: what.to_string(),
                        source,
                    })
            }
            #[cfg(not(feature = "textures"))]
            TextureImage::Pixels(_) => Err(crate::Error::unwritable(
                what,
                "decoded pixels need retromodel's `textures` feature to be encoded as PNG",
            )),
        }
    }
}

#[cfg(feature = "textures")]
impl TextureImage {
    /// The image as pixels: pixels as they are, a PNG decoded now (with
    /// [`decode`](crate::texture::decode)'s default limits). Fails when the
    /// PNG does not decode.
    pub fn to_pixels(
        &self,
    ) -> Result<std::borrow::Cow<'_, crate::texture::Rgba8Image>, crate::texture::TextureError>
    {
        match self {
            TextureImage::Png(bytes) => crate::texture::decode(bytes).map(std::borrow::Cow::Owned),
            TextureImage::Pixels(image) => Ok(std::borrow::Cow::Borrowed(image)),
        }
    }
}

/// A transform node: a joint of a skin, or a node placing meshes.
///
/// Its local transform is `T · R · S` (translation, rotation, scale), in
/// its parent's frame; a node without a parent is in scene space.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Name.
    pub name: String,
    /// Index of the parent node; `None` for a root.
    pub parent: Option<usize>,
    /// Rest translation relative to the parent.
    pub translation: [f32; 3],
    /// Rest rotation relative to the parent, `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Rest scale.
    pub scale: [f32; 3],
    /// Comments and other data worth keeping; `Value::Null` for nothing.
    pub extras: Value,
}

impl Default for Node {
    /// A root node with the identity transform.
    fn default() -> Self {
        Node {
            name: String::new(),
            parent: None,
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
            extras: Value::Null,
        }
    }
}

/// A skin: the joints a skinned mesh follows.
///
/// A vertex of a mesh bound to this skin with joints `j` and weights `w`
/// is at `Σ wᵢ · G(joints[jᵢ]) · inverse_bind_matrices[jᵢ] · p`, where `G`
/// is a node's scene-space transform (glTF's rule).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skin {
    /// Name.
    pub name: String,
    /// The joints: indices into [`Scene::nodes`].
    pub joints: Vec<usize>,
    /// One inverse bind matrix (scene space to joint space at bind time,
    /// column-major) per joint.
    pub inverse_bind_matrices: Vec<[f32; 16]>,
    /// Comments and other data worth keeping; `Value::Null` for nothing.
    pub extras: Value,
}

/// An animation: channels that play together.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Animation {
    /// Name.
    pub name: String,
    /// Channels.
    pub channels: Vec<Channel>,
    /// Comments and other data worth keeping; `Value::Null` for nothing.
    pub extras: Value,
}

impl Animation {
    /// The time of the last key of any channel, in seconds (0 without
    /// keys).
    pub fn duration(&self) -> f32 {
        self.channels
            .iter()
            .filter_map(|c| c.times.last())
            .fold(0.0, |a, &b| a.max(b))
    }
}

/// What a channel animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// The morph target weights of mesh `mesh` (one value per target).
    MorphWeights {
        /// Index into [`Scene::meshes`].
        mesh: usize,
    },
    /// A node's translation (3 values).
    Translation {
        /// Index into [`Scene::nodes`].
        node: usize,
    },
    /// A node's rotation (4 values, `[x, y, z, w]`).
    Rotation {
        /// Index into [`Scene::nodes`].
        node: usize,
    },
    /// A node's scale (3 values).
    Scale {
        /// Index into [`Scene::nodes`].
        node: usize,
    },
}

/// How values between keys are found (glTF's three modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Interpolation {
    /// Linear (spherical linear for rotations).
    #[default]
    Linear,
    /// The value of the previous key holds.
    Step,
    /// Cubic Hermite spline with tangents per key (glTF's form: tangents
    /// are per second and get multiplied by the interval's duration).
    CubicSpline,
}

/// Keys for one property.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Channel {
    /// What is animated.
    pub target: Target,
    /// How to interpolate.
    pub interpolation: Interpolation,
    /// Key times in seconds, non-negative and strictly increasing.
    pub times: Vec<f32>,
    /// The values, flat: for each key, [`Channel::components`] numbers
    /// (for [`Interpolation::CubicSpline`] three groups of them per key: in
    /// tangent, value, out tangent, as glTF stores them).
    pub values: Vec<f32>,
}

impl Default for Target {
    fn default() -> Self {
        Target::Translation { node: 0 }
    }
}

impl Channel {
    /// Numbers per value: 3 for translation and scale, 4 for rotation, and
    /// `morph_targets` for weights.
    pub fn components(&self, morph_targets: usize) -> usize {
        match self.target {
            Target::MorphWeights { .. } => morph_targets,
            Target::Translation { .. } | Target::Scale { .. } => 3,
            Target::Rotation { .. } => 4,
        }
    }
}

/// `Value::Null` when `text` is empty, else `{"comment": text}`.
pub(crate) fn comment_extras(text: &str) -> Value {
    if text.is_empty() {
        Value::Null
    } else {
        serde_json::json!({ "comment": text })
    }
}

/// Makes every normal usable: one whose length is far from 1 is
/// normalised, and one that is zero or not finite (a corrupt MD2 normal
/// index, a MilkShape triangle saved without normals) is replaced by the
/// normalised sum of the normals of the counter-clockwise triangles that
/// use the vertex (area-weighted), or +Y when that sum is zero.
pub(crate) fn repair_normals(positions: &[[f32; 3]], indices: &[u32], normals: &mut [[f32; 3]]) {
    use glam::Vec3;
    let bad = |n: &[f32; 3]| {
        let l = Vec3::from(*n).length();
        !(l.is_finite() && l > 0.5)
    };
    let mut faces: Option<Vec<Vec3>> = None;
    for (i, normal) in normals.iter_mut().enumerate() {
        let n = Vec3::from(*normal);
        if !bad(normal) {
            if (n.length() - 1.0).abs() > 1e-3 {
                *normal = n.normalize().to_array();
            }
            continue;
        }
        let sums = faces.get_or_insert_with(|| face_normal_sums(positions, indices));
        let s = sums.get(i).copied().unwrap_or(Vec3::ZERO);
        *normal = s.try_normalize().unwrap_or(Vec3::Y).to_array();
    }
}

/// For each vertex, the sum of the (area-weighted) normals of the
/// counter-clockwise triangles using it.
fn face_normal_sums(positions: &[[f32; 3]], indices: &[u32]) -> Vec<glam::Vec3> {
    use glam::Vec3;
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for t in indices.chunks_exact(3) {
        let p = |k: usize| positions.get(t[k] as usize).map(|&p| Vec3::from(p));
        let (Some(a), Some(b), Some(c)) = (p(0), p(1), p(2)) else {
            continue;
        };
        let n = (b - a).cross(c - a);
        if !n.is_finite() {
            continue;
        }
        for &v in t {
            if let Some(s) = sums.get_mut(v as usize) {
                *s += n;
            }
        }
    }
    sums
}
