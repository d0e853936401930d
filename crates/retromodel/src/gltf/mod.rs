//! glTF 2.0 export of a [`Scene`]: a binary `.glb`, or a `.gltf` JSON
//! document with a separate `.bin`; and import of either into a [`Scene`]
//! ([`import`], with what it reads and how it treats bad input).
//!
//! What is written:
//! - A node per scene node (hierarchy by parent, rest TRS), a node per
//!   non-empty mesh (below the node that places it, if any), a skin per
//!   scene skin; names from the model. Where a skin's joints lie below
//!   several roots, one more node (`skeleton_root`, identity transform)
//!   gathers them, as glTF asks that a skin's joints have a common root.
//! - Meshes with `POSITION` (with min/max), `NORMAL`, `TEXCOORD_0`, skinned
//!   ones with `JOINTS_0`/`WEIGHTS_0`, morph targets (`POSITION` with
//!   min/max, `NORMAL`); all-zero targets share one buffer view of zeros.
//! - Materials (metallic-roughness). A texture is written only when the
//!   scene's [`Texture`](crate::scene::Texture) has an image (a PNG as it
//!   is, decoded pixels encoded as PNG, which needs feature `textures`), as an image
//!   in a buffer view with `mimeType: image/png` (in a `.glb`, and in the
//!   `.bin` of a `.gltf` from [`to_gltf`]) or as a PNG file beside a
//!   `.gltf` ([`to_gltf_files`]); otherwise the material stays untextured.
//! - Animations with their channels, interpolation as given.
//! - Extras (comments ...) on the asset, meshes, materials, joint nodes and
//!   animations.
//!
//! Every buffer view starts at a multiple of 4 bytes.
//!
//! With [`GltfOptions::quantize`], morph targets (and the base positions of
//! morphed meshes) are stored as 16-bit integers on a grid with
//! `KHR_mesh_quantization`, and the mesh node's scale and translation map
//! the grid back to model units; morph normals as normalised 8-bit
//! displacements (clamped to ±1 per component). Morph weight keys that are
//! all 0 or 1 (or other multiples of 1/255) are stored as normalised bytes,
//! which core glTF allows for weights. The base positions stay floats
//! (holding the grid coordinates), so that loaders without the extension,
//! such as assimp 5.2, still read the base mesh.
//!
//! ```
//! use retromodel::scene::Scene;
//! use retromodel::md2::Md2SceneOptions;
//! let scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
//! let glb = retromodel::gltf::to_glb(&scene).unwrap();
//! assert_eq!(&glb[..4], b"glTF");
//! ```

mod builder;
mod glb;
mod import;
#[cfg(feature = "meshopt")]
mod meshopt;
mod quantize;
mod write_animation;
mod write_mesh;

use gltf_json as json;
use json::accessor::Type;
use json::validation::{Checked::Valid, USize64};
use json::Index;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::scene::{AlphaMode, Material, Scene};
use builder::{Builder, Piece};
pub use glb::Glb;
pub use import::{import, Import, ImportOptions};
use write_animation::write_animation;
use write_mesh::write_mesh;

/// Options for the glTF exporter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GltfOptions {
    /// Store morphed meshes with `KHR_mesh_quantization` (16-bit positions
    /// and displacements on a grid, 8-bit normal displacements): smaller
    /// files, positions exact to 1/32767 of the model's extent, normal
    /// displacements to 1/127.
    pub quantize: bool,
    /// Compress vertex attributes and indices with
    /// `EXT_meshopt_compression` (meshoptimizer's lossless codecs): about
    /// half the size again with [`GltfOptions::quantize`]. The extension is
    /// then required, so loaders without it (assimp 5, the `gltf` crate)
    /// cannot read the file; three.js, Babylon.js and gltfpack can.
    /// Needs the `meshopt` feature (on by default); without it, export
    /// fails with [`Error::Unwritable`].
    pub compress: bool,
}

/// The scene as a binary glTF (`.glb`) with default options.
pub fn to_glb(scene: &Scene) -> Result<Vec<u8>> {
    to_glb_with(scene, &GltfOptions::default())
}

/// The scene as a binary glTF (`.glb`). To write a file without holding
/// it whole in memory, use [`Glb::write_to`].
pub fn to_glb_with(scene: &Scene, options: &GltfOptions) -> Result<Vec<u8>> {
    Ok(Glb::new(scene, options)?.to_vec())
}

/// The scene as a glTF JSON document and its binary buffer, which the
/// document names `bin_name` (write it next to the `.gltf` under that
/// name). Default options.
pub fn to_gltf(scene: &Scene, bin_name: &str) -> Result<(String, Vec<u8>)> {
    to_gltf_with(scene, bin_name, &GltfOptions::default())
}

/// [`to_gltf`] with options.
pub fn to_gltf_with(
    scene: &Scene,
    bin_name: &str,
    options: &GltfOptions,
) -> Result<(String, Vec<u8>)> {
    let names = GltfFileNames {
        bin: bin_name.to_string(),
        images: Vec::new(),
    };
    to_gltf_files(scene, &names, options)
}

/// The names of the files a `.gltf` document refers to, relative to it
/// (plain file names; the document stores them percent-encoded, as URIs).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GltfFileNames {
    /// The binary buffer's file.
    pub bin: String,
    /// For each entry of [`Scene::textures`], the file its PNG bytes are to
    /// be written to (by the caller, beside the `.gltf`), or `None` to keep
    /// that image in the binary buffer. Missing entries count as `None`.
    pub images: Vec<Option<String>>,
}

/// The scene as a glTF JSON document and its binary buffer, the document
/// naming the buffer and the images as `names` says; the caller writes the
/// buffer and each named texture's image as PNG
/// ([`TextureImage::to_png`](crate::scene::TextureImage::to_png)) beside
/// the document under those names.
///
/// ```
/// use retromodel::gltf::{to_gltf_files, GltfFileNames, GltfOptions};
/// use retromodel::scene::{Scene, TextureImage};
/// use retromodel::md2::Md2SceneOptions;
/// let mut scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
/// // (a real PNG in practice)
/// scene.textures[0].image = Some(TextureImage::Png(vec![0x89, b'P', b'N', b'G']));
/// let names = GltfFileNames {
///     bin: "my model.bin".into(),
///     images: vec![Some("my model_texture0.png".into())],
/// };
/// let (json, _bin) = to_gltf_files(&scene, &names, &GltfOptions::default()).unwrap();
/// assert!(json.contains(r#""uri": "my%20model.bin""#));
/// assert!(json.contains(r#""uri": "my%20model_texture0.png""#));
/// ```
pub fn to_gltf_files(
    scene: &Scene,
    names: &GltfFileNames,
    options: &GltfOptions,
) -> Result<(String, Vec<u8>)> {
    let b = build(scene, options, Some(names))?;
    let text = b
        .root
        .to_string_pretty()
        .map_err(|e| Error::unwritable("glTF JSON", e.to_string()))?;
    Ok((text, b.bin.to_vec()))
}

/// `name` as a relative URI reference: every byte but the unreserved ones
/// of RFC 3986 (letters, digits, `-._~`) percent-encoded, so spaces, `#`,
/// `%` and non-ASCII names survive.
fn file_uri(name: &str) -> String {
    let mut uri = String::with_capacity(name.len());
    for &byte in name.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// `None` for `Value::Null`, else the value as glTF extras.
fn extras(value: &Value) -> json::Extras {
    if value.is_null() {
        return None;
    }
    serde_json::value::to_raw_value(value).ok()
}

/// Some(name) unless empty.
fn name(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

/// Builds the whole document.
/// Builds the whole document; `files` names the buffer and external images
/// of a `.gltf` (`None` for a GLB).
fn build<'a>(
    scene: &'a Scene,
    options: &GltfOptions,
    files: Option<&GltfFileNames>,
) -> Result<Builder<'a>> {
    if let Some((path, x)) = crate::scene::first_non_finite(scene) {
        return Err(Error::unwritable(
            "glTF",
            format!(
                "scene {path} is {x:?}: glTF holds only finite numbers (the source is corrupt)"
            ),
        ));
    }
    let mut b = Builder::new();
    b.root.extras = extras(&scene.extras);
    let image_names = files.map_or(&[][..], |f| f.images.as_slice());
    let textures = write_textures(&mut b, scene, image_names)?;
    for m in &scene.materials {
        let material = write_material(m, &textures);
        b.root.push(material);
    }
    let nodes = write_nodes(&mut b, scene);
    let mut mesh_nodes = vec![None; scene.meshes.len()];
    for (i, mesh) in scene.meshes.iter().enumerate() {
        mesh_nodes[i] = write_mesh(&mut b, scene, mesh, options)?;
    }
    let mut roots: Vec<Index<json::Node>> = scene
        .nodes
        .iter()
        .zip(&nodes)
        .filter(|(n, _)| n.parent.is_none())
        .map(|(_, &i)| i)
        .collect();
    // A mesh placed by a node hangs below it; the others are roots.
    for (mesh, node) in scene.meshes.iter().zip(&mesh_nodes) {
        let Some(node) = *node else { continue };
        match mesh.node.and_then(|p| nodes.get(p)) {
            Some(parent) if mesh.skin.is_none() => add_child(&mut b, *parent, node),
            _ => roots.push(node),
        }
    }
    let skin_roots = skin_root_nodes(scene);
    let skeletons = write_skin_roots(&mut b, &skin_roots, &mut roots, &nodes, scene.skins.len());
    for (skin, skeleton) in scene.skins.iter().zip(skeletons) {
        write_skin(&mut b, skin, &nodes, skeleton);
    }
    for anim in &scene.animations {
        write_animation(&mut b, scene, anim, &nodes, &mesh_nodes, options)?;
    }
    // A scene needs at least one node: a model with nothing to draw gets
    // one empty node, so that loaders still find a (empty) scene.
    if roots.is_empty() {
        roots.push(b.root.push(json::Node {
            name: name(&scene.name),
            ..Default::default()
        }));
    }
    let scene_index = b.root.push(json::Scene {
        extensions: None,
        extras: None,
        name: name(&scene.name),
        nodes: roots,
    });
    b.root.scene = Some(scene_index);
    let fallback = if options.compress {
        compress(&mut b)?
    } else {
        None
    };
    let bin_uri = files.map(|f| file_uri(&f.bin));
    finish_buffer(&mut b, bin_uri.as_deref())?;
    if let Some(fallback) = fallback {
        b.root.push(fallback);
    }
    Ok(b)
}

/// Compresses the buffer views (see [`GltfOptions::compress`]); returns
/// the fallback buffer to declare as buffer 1, after buffer 0.
#[cfg(feature = "meshopt")]
fn compress(b: &mut Builder) -> Result<Option<json::Buffer>> {
    Ok(meshopt::compress(b)?.map(meshopt::fallback_buffer))
}

/// Without the `meshopt` feature: an error.
#[cfg(not(feature = "meshopt"))]
fn compress(_: &mut Builder) -> Result<Option<json::Buffer>> {
    Err(Error::unwritable(
        "glTF compression",
        "retromodel was built without its `meshopt` feature",
    ))
}

/// Declares buffer 0 (padded to 4 bytes).
fn finish_buffer(b: &mut Builder, uri: Option<&str>) -> Result<()> {
    b.align();
    if b.bin.len() > u32::MAX as usize - 1024 {
        return Err(Error::unwritable(
            "glTF buffer",
            format!("{} bytes is more than a GLB can hold", b.bin.len()),
        ));
    }
    if b.bin.is_empty() {
        return Ok(());
    }
    b.root.push(json::Buffer {
        byte_length: USize64::from(b.bin.len()),
        name: None,
        uri: uri.map(str::to_string),
        extensions: None,
        extras: None,
    });
    Ok(())
}

/// Adds the textures that have an image, each as a file named in
/// `external` (by scene texture index) or else embedded in the buffer as
/// PNG (pixels encoded now); returns the glTF texture of each scene
/// texture (`None` for those without an image).
fn write_textures<'a>(
    b: &mut Builder<'a>,
    scene: &'a Scene,
    external: &[Option<String>],
) -> Result<Vec<Option<Index<json::Texture>>>> {
    scene
        .textures
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let Some(image) = &t.image else {
                return Ok(None);
            };
            let (view, uri) = match external.get(i).and_then(Option::as_deref) {
                Some(file) => (None, Some(file_uri(file))),
                None => {
                    let png = image.png_for_writing(&format!("textures[{i}] ({})", t.path))?;
                    (Some(b.view(Piece::Bytes(png), None, None)), None)
                }
            };
            let image = b.root.push(json::Image {
                buffer_view: view,
                mime_type: Some(json::image::MimeType("image/png".to_string())),
                name: name(&t.path),
                uri,
                extensions: None,
                extras: serde_json::value::to_raw_value(&serde_json::json!({ "path": t.path }))
                    .ok(),
            });
            Ok(Some(b.root.push(json::Texture {
                name: name(&t.path),
                sampler: None,
                source: image,
                extensions: None,
                extras: None,
            })))
        })
        .collect()
}

/// A glTF material.
fn write_material(m: &Material, textures: &[Option<Index<json::Texture>>]) -> json::Material {
    use json::material::{AlphaCutoff, EmissiveFactor, PbrBaseColorFactor, StrengthFactor};
    let texture = m.texture.and_then(|t| textures.get(t).copied().flatten());
    let emissive_texture = m
        .emissive_texture
        .and_then(|t| textures.get(t).copied().flatten());
    let (mode, cutoff) = match m.alpha_mode {
        AlphaMode::Opaque => (json::material::AlphaMode::Opaque, None),
        AlphaMode::Mask { cutoff } => (json::material::AlphaMode::Mask, Some(AlphaCutoff(cutoff))),
        AlphaMode::Blend => (json::material::AlphaMode::Blend, None),
    };
    json::Material {
        alpha_cutoff: cutoff,
        alpha_mode: Valid(mode),
        double_sided: m.double_sided,
        name: name(&m.name),
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_factor: PbrBaseColorFactor(m.base_color),
            base_color_texture: texture.map(|index| json::texture::Info {
                index,
                tex_coord: 0,
                extensions: None,
                extras: None,
            }),
            metallic_factor: StrengthFactor(m.metallic),
            roughness_factor: StrengthFactor(m.roughness),
            ..Default::default()
        },
        emissive_factor: EmissiveFactor(m.emissive),
        emissive_texture: emissive_texture.map(|index| json::texture::Info {
            index,
            tex_coord: 0,
            extensions: None,
            extras: None,
        }),
        extras: extras(&m.extras),
        ..Default::default()
    }
}

/// A glTF node per scene node, children by parent; returns each scene
/// node's glTF node.
fn write_nodes(b: &mut Builder, scene: &Scene) -> Vec<Index<json::Node>> {
    let first = b.root.nodes.len();
    let n = scene.nodes.len();
    let index = |i: usize| Index::new((first + i) as u32);
    for (k, node) in scene.nodes.iter().enumerate() {
        let children: Vec<Index<json::Node>> = scene
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.parent == Some(k))
            .map(|(i, _)| index(i))
            .collect();
        b.root.push(json::Node {
            children: (!children.is_empty()).then_some(children),
            name: name(&node.name),
            rotation: Some(json::scene::UnitQuaternion(node.rotation)),
            translation: Some(node.translation),
            scale: (node.scale != [1.0; 3]).then_some(node.scale),
            extras: extras(&node.extras),
            ..Default::default()
        });
    }
    (0..n).map(index).collect()
}

/// Makes `child` the last child of `parent`.
fn add_child(b: &mut Builder, parent: Index<json::Node>, child: Index<json::Node>) {
    if let Some(p) = b.root.nodes.get_mut(parent.value()) {
        p.children.get_or_insert_with(Vec::new).push(child);
    }
}

/// The topmost ancestor of scene node `i` (itself for a root); a walk
/// that meets a parent out of range or a cycle stops there.
fn top_ancestor(scene: &Scene, i: usize) -> usize {
    let mut at = i;
    for _ in 0..scene.nodes.len() {
        match scene.nodes.get(at).and_then(|n| n.parent) {
            Some(p) if p < scene.nodes.len() => at = p,
            _ => break,
        }
    }
    at
}

/// glTF asks that the joints of a skin have a common root. Where a skin's
/// joints lie below several root nodes (MilkShape models with several
/// parentless joints, or with the extra `static` joint beside their own
/// root), those roots are gathered under one new root node with the
/// identity transform, which moves nothing: one per set of roots that
/// skins tie together (two skins sharing a root share the new node). The
/// gathered roots leave `roots`, and each new node takes the place of
/// the first of them ([`write_skin_roots`]).
///
/// Returns, for each new root, the scene roots below it and the skins it
/// serves.
fn skin_root_nodes(scene: &Scene) -> Vec<SkinRoot> {
    let mut groups: Vec<SkinRoot> = Vec::new();
    for (k, skin) in scene.skins.iter().enumerate() {
        let mut tops: Vec<usize> = skin
            .joints
            .iter()
            .filter(|&&j| j < scene.nodes.len())
            .map(|&j| top_ancestor(scene, j))
            .collect();
        tops.sort_unstable();
        tops.dedup();
        if tops.len() < 2 {
            continue;
        }
        // Merge every group that shares a root with this skin's.
        let mut merged = SkinRoot {
            tops,
            skins: vec![k],
        };
        groups.retain(|g| {
            if g.tops.iter().any(|t| merged.tops.contains(t)) {
                merged.tops.extend(&g.tops);
                merged.skins.extend(&g.skins);
                false
            } else {
                true
            }
        });
        merged.tops.sort_unstable();
        merged.tops.dedup();
        merged.skins.sort_unstable();
        groups.push(merged);
    }
    groups.sort_by_key(|g| g.tops[0]);
    groups
}

/// A root node added so that skins' joints have a common root.
struct SkinRoot {
    /// The scene's root nodes below it, in index order.
    tops: Vec<usize>,
    /// The skins whose joints it holds.
    skins: Vec<usize>,
}

/// Writes the nodes of [`skin_root_nodes`]; returns each skin's
/// `skeleton` node (`None` for skins that needed none).
fn write_skin_roots(
    b: &mut Builder,
    groups: &[SkinRoot],
    roots: &mut Vec<Index<json::Node>>,
    nodes: &[Index<json::Node>],
    skin_count: usize,
) -> Vec<Option<Index<json::Node>>> {
    let mut skeletons = vec![None; skin_count];
    for g in groups {
        let children: Vec<Index<json::Node>> = g.tops.iter().map(|&t| nodes[t]).collect();
        let node = b.root.push(json::Node {
            children: Some(children.clone()),
            name: Some("skeleton_root".to_string()),
            extras: serde_json::value::to_raw_value(&serde_json::json!({
                "note": "gathers the roots of a skin's joints, which glTF asks to have a common root"
            }))
            .ok(),
            ..Default::default()
        });
        let first = roots.iter().position(|r| children.contains(r));
        roots.retain(|r| !children.contains(r));
        roots.insert(first.unwrap_or(roots.len()).min(roots.len()), node);
        for &k in &g.skins {
            skeletons[k] = Some(node);
        }
    }
    skeletons
}
/// The glTF index of scene skin `skin`: skins without joints are not
/// written (glTF needs at least one), so later ones move up.
fn skin_index(scene: &Scene, skin: usize) -> Option<u32> {
    let written = |s: &crate::scene::Skin| !s.joints.is_empty();
    if !scene.skins.get(skin).is_some_and(written) {
        return None;
    }
    Some(scene.skins[..skin].iter().filter(|s| written(s)).count() as u32)
}

/// A skin: its joints' nodes and inverse bind matrices, and the common
/// root of its joints when one had to be added; nothing for a skin
/// without joints.
fn write_skin(
    b: &mut Builder,
    skin: &crate::scene::Skin,
    nodes: &[Index<json::Node>],
    skeleton: Option<Index<json::Node>>,
) {
    if skin.joints.is_empty() {
        return;
    }
    let matrices: Vec<f32> = skin
        .inverse_bind_matrices
        .iter()
        .flatten()
        .copied()
        .collect();
    let ibm = b.floats(matrices, Type::Mat4, None, false);
    b.root.push(json::Skin {
        extensions: None,
        extras: extras(&skin.extras),
        inverse_bind_matrices: Some(ibm),
        joints: skin
            .joints
            .iter()
            .filter_map(|&j| nodes.get(j).copied())
            .collect(),
        name: name(&skin.name),
        skeleton,
    });
}
