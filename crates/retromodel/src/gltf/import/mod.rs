//! glTF 2.0 import: a `.glb` or `.gltf` document into a [`Scene`].
//!
//! [`import`] reads the default scene (the document's `scene`, else scene 0,
//! else every root node) of a binary `.glb` or a JSON `.gltf` whose external
//! buffers and images come through a [`TextureSource`]:
//!
//! - **Nodes**: every node of the default scene, in document order, with its
//!   name, parent, translation, rotation, scale (a `matrix` is decomposed;
//!   one with shear, which TRS cannot hold, is approximated with a warning)
//!   and `extras`. Nodes outside the default scene are left out.
//! - **Meshes**: one scene [`Mesh`](crate::scene::Mesh) per node of the
//!   default scene and primitive of its mesh, placed by that node
//!   ([`Mesh::node`](crate::scene::Mesh::node)), with positions, normals
//!   (left empty when the primitive has none), the texture coordinates the
//!   base colour texture uses, triangles (strips and fans are turned into
//!   triangles with the winding the spec gives each; points and lines are
//!   skipped with a warning), morph targets (names from
//!   `extras.targetNames`) and default weights (the node's, else the
//!   mesh's), skin weights (every `JOINTS_n`/`WEIGHTS_n` set, the four
//!   largest weights kept), the mesh's `extras`, and application-specific
//!   scalar integer attributes (`_MD2_VERTEX` ...) as
//!   `extras["attributes"]["_NAME"]`.
//! - **Skins** of the nodes that use them, joints as scene nodes, inverse
//!   bind matrices (identity when absent).
//! - **Materials** (all, in order; a default one is added for primitives
//!   without): name, base colour factor and texture, alpha mode and cutoff,
//!   double-sidedness, emissive, metallic and roughness factors, `extras`,
//!   and the emissive map when it reads the base colour's texture
//!   coordinates (a Quake MDL's fullbright texels).
//!   `KHR_texture_transform` on the base colour texture is baked into the
//!   texture coordinates.
//! - **Textures**: the images that base colour and emissive textures use, in document
//!   order, as PNG: a PNG is kept as it is, after checking that it decodes
//!   within the limits (re-encoding would lose 16-bit channels and colour
//!   chunks for nothing); other formats (JPEG ...) are decoded and encoded
//!   as PNG, which needs the `textures` feature. The texture's path is the
//!   image's `name` (where our exporter keeps the model's own texture path),
//!   else its percent-decoded URI. An image that cannot be read or decoded
//!   is a warning and leaves the texture without PNG bytes.
//! - **Not imported** (the scene has no place for them): cameras, lights,
//!   vertex colours, tangents, texture maps other than the base colour,
//!   samplers (wrap modes), material extensions; a warning names them. A
//!   mesh's primitives all take the mesh's name.
//! - **Animations**: translation, rotation, scale and weights channels with
//!   their STEP, LINEAR or CUBICSPLINE keys as stored (not resampled).
//! - **Accessors** of every component type, normalised or not, strided,
//!   sparse; `KHR_mesh_quantization`; `EXT_meshopt_compression` (feature
//!   `meshopt`; without it, its fallback data when the file has some).
//!
//! The input is untrusted: nothing in it can make the import panic, loop
//! forever, recurse without bound or allocate more than the document's
//! bytes justify (and [`ImportOptions`] bounds even that). Every problem
//! is an [`Error::Gltf`] or a warning with a JSON pointer to the value
//! (`/accessors/12/count`).

mod accessor;
mod animations;
mod buffers;
mod container;
mod json;
mod materials;
mod meshes;
#[cfg(feature = "meshopt")]
mod meshopt;
mod nodes;
mod skin_weights;

use std::cell::{Cell, OnceCell, RefCell};

use serde_json::Value;

use crate::error::Result;
use crate::problem::{Collector, Problem};
use crate::scene::Scene;
use crate::texture::TextureSource;
use json::{err, At, Json};

/// Limits of an import, so that a hostile document cannot make it use
/// unbounded memory, and how much of its images to check. The defaults
/// suit any real model.
///
/// ```
/// let mut options = retromodel::gltf::ImportOptions::default();
/// options.max_output_bytes = 64 << 20; // a tighter bound
/// assert_eq!(options.max_data_uri_bytes, 256 << 20);
/// assert!(options.check_images);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    /// Largest JSON document, in bytes (default 64 MiB).
    pub max_json_bytes: u64,
    /// Largest decoded `data:` URI, in bytes (default 256 MiB).
    pub max_data_uri_bytes: u64,
    /// Most bytes of buffer data loaded in all (the GLB's BIN chunk, `data:`
    /// URIs, external files, and buffer views decoded from
    /// `EXT_meshopt_compression`; default 1 GiB).
    pub max_buffer_bytes: u64,
    /// Most bytes of vertex, index, morph target, skin and animation data
    /// the scene may get (default 2 GiB). The buffers justify most of it;
    /// this bounds what they do not: accessors without a buffer view (all
    /// zeros), meshes instanced by many nodes, and the widening of bytes to
    /// floats.
    pub max_output_bytes: u64,
    /// Widest and tallest image decoded, in pixels (default 16384).
    pub max_image_side: u32,
    /// Largest decoded image, in bytes of RGBA8 (default 256 MiB).
    pub max_image_bytes: u64,
    /// Decode every PNG image to check it (default `true`): one that does
    /// not decode is a warning and gives a texture without an image. With
    /// `false`, a PNG is checked by its header only (a PNG, of a size
    /// within the limits above) and kept undecoded, for a caller that
    /// decodes the images it uses anyway and reports those that fail
    /// (the MD2 compiler does: the converter (`convert::Converter`)
    /// imports this way for an MD2 output, so each skin image is decoded
    /// once, not twice). Images of other formats are always decoded: they
    /// are kept as pixels.
    pub check_images: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            max_json_bytes: 64 << 20,
            max_data_uri_bytes: 256 << 20,
            max_buffer_bytes: 1 << 30,
            max_output_bytes: 2 << 30,
            max_image_side: 16384,
            max_image_bytes: 256 << 20,
            check_images: true,
        }
    }
}

/// An imported document: the scene, and what was wrong with the document
/// but did not stop the import.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The default scene of the document.
    pub scene: Scene,
    /// Warnings (severity [`Severity::Warning`](crate::Severity)), each
    /// with a JSON pointer as its path (`/meshes/0/primitives/1`) or a part
    /// of the GLB container (`GLB chunk 2`): what was skipped, approximated
    /// or ignored.
    pub warnings: Vec<Problem>,
}

/// Imports a glTF 2.0 document: a binary `.glb` or the JSON of a `.gltf`
/// (told by the bytes, not a name). `resources` provides the files that
/// the document names by relative URI (a `.gltf`'s `.bin` and images:
/// a [`TextureResolver`](crate::texture::TextureResolver) for the
/// document's folder reads them, confined to it); without it, a document
/// that names external files is an error. `data:` URIs are decoded.
///
/// Fails with [`Error::Gltf`](crate::Error::Gltf) on anything that would give a wrong model:
/// malformed JSON or container, references to missing parts, accessors
/// that do not fit their buffers, indices out of range, cycles in the node
/// hierarchy, non-finite values, an extension that the document requires
/// and retromodel does not support (Draco, Basis Universal ...). What can
/// be skipped (points and lines, unsupported optional extensions, images
/// that do not decode) is skipped with a warning.
///
/// ```
/// use retromodel::gltf::{import, to_glb, ImportOptions};
/// use retromodel::scene::Scene;
/// use retromodel::md2::Md2SceneOptions;
///
/// # fn main() -> Result<(), retromodel::Error> {
/// let scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
/// let glb = to_glb(&scene)?;
/// let imported = import(&glb, None, &ImportOptions::default())?;
/// assert!(imported.warnings.is_empty());
/// assert_eq!(imported.scene.meshes[0].positions, scene.meshes[0].positions);
/// assert_eq!(imported.scene.animations.len(), scene.animations.len());
///
/// // A .gltf beside its files: read them through a confined resolver.
/// # let dir = std::env::temp_dir().join(format!("retromodel-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let (json, bin) = retromodel::gltf::to_gltf(&scene, "sample.bin")?;
/// std::fs::write(dir.join("sample.bin"), bin).unwrap();
/// let resolver = retromodel::texture::TextureResolver::new(&dir);
/// let imported = import(json.as_bytes(), Some(&resolver), &ImportOptions::default())?;
/// assert_eq!(imported.scene.meshes[0].indices, scene.meshes[0].indices);
/// # std::fs::remove_dir_all(&dir).unwrap();
///
/// // Bad input is an error with a JSON pointer, never a panic.
/// let err = import(br#"{"asset": {"version": "2.0"}, "scene": 3}"#, None, &ImportOptions::default())
///     .unwrap_err();
/// assert_eq!(err.to_string(), "glTF /scene: scene 3 does not exist (0 scenes)");
/// # Ok(()) }
/// ```
pub fn import(
    bytes: &[u8],
    resources: Option<&dyn TextureSource>,
    options: &ImportOptions,
) -> Result<Import> {
    let mut warnings = Collector::default();
    let container = container::open(bytes, options.max_json_bytes, &mut warnings)?;
    // Valid UTF-8 (checked in one pass) is parsed as text, which spares the
    // parser checking every string again; otherwise as bytes, which gives
    // the parser's own error (where the bad bytes are).
    let parsed: serde_json::Result<Json> = match std::str::from_utf8(container.json) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(container.json),
    };
    let root = parsed.map_err(|e| err("document", format!("not valid JSON: {e}")))?;
    if !root.is_object() {
        return Err(err(
            "document",
            format!("expected a JSON object, found {}", json::describe(&root)),
        ));
    }
    let ctx = Ctx::new(&root, container.bin, resources, options, warnings)?;
    let scene = ctx.build()?;
    Ok(Import {
        scene,
        warnings: ctx.warnings.into_inner().finish(),
    })
}

/// What one import works with: the document, the buffers loaded so far,
/// the budgets left and the warnings found. Its methods take `&self`
/// (caches and counters use cells), so that data borrowed from loaded
/// buffers can be read while the rest of the state changes.
pub(crate) struct Ctx<'a> {
    /// The document's root object.
    pub root: At<'a>,
    /// The GLB's BIN chunk.
    pub bin: Option<&'a [u8]>,
    /// Where external files come from.
    pub resources: Option<&'a dyn TextureSource>,
    /// The limits.
    pub options: &'a ImportOptions,
    /// Warnings found so far.
    pub warnings: RefCell<Collector>,
    /// The loaded data of each buffer (`None` for a fallback buffer with
    /// no data of its own).
    pub buffers: Vec<OnceCell<Option<std::borrow::Cow<'a, [u8]>>>>,
    /// The decoded data of each `EXT_meshopt_compression` buffer view.
    #[cfg(feature = "meshopt")]
    pub decoded: Vec<OnceCell<Vec<u8>>>,
    /// Buffer bytes loaded or decoded so far.
    pub buffer_bytes: Cell<u64>,
    /// Output bytes produced so far.
    pub output_bytes: Cell<u64>,
    /// Whether the document declares `KHR_mesh_quantization`.
    pub quantization: bool,
    /// Whether `EXT_meshopt_compression` views are decoded (the document
    /// uses it and the `meshopt` feature is on).
    pub meshopt: bool,
    /// Whether a warning about the quantized types of undeclared
    /// `KHR_mesh_quantization` was given.
    pub warned_quantization: Cell<bool>,
}

/// The extensions this importer implements.
const SUPPORTED: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_texture_transform",
    #[cfg(feature = "meshopt")]
    "EXT_meshopt_compression",
];

impl<'a> Ctx<'a> {
    fn new(
        root: &'a Json<'a>,
        bin: Option<&'a [u8]>,
        resources: Option<&'a dyn TextureSource>,
        options: &'a ImportOptions,
        warnings: Collector,
    ) -> Result<Ctx<'a>> {
        let root = At::root(root);
        let warnings = RefCell::new(warnings);
        // glTF 2.x only.
        let asset = root
            .opt_object("asset")?
            .ok_or_else(|| err("/asset", "missing (required)"))?;
        let version = asset
            .opt_str("version")?
            .ok_or_else(|| err("/asset/version", "missing (required)"))?;
        if version.split('.').next() != Some("2") {
            return Err(err(
                "/asset/version",
                format!("glTF {version} is not supported (only 2.x)"),
            ));
        }
        let used = string_list(&root, "extensionsUsed")?;
        let required = string_list(&root, "extensionsRequired")?;
        for (i, name) in required.iter().enumerate() {
            if !SUPPORTED.contains(name) {
                let why = if *name == "EXT_meshopt_compression" {
                    "retromodel was built without its `meshopt` feature".to_string()
                } else {
                    "retromodel does not support it".to_string()
                };
                return Err(err(
                    format!("/extensionsRequired/{i}"),
                    format!("the document requires the extension {name}, but {why}"),
                ));
            }
        }
        for (i, name) in used.iter().enumerate() {
            if !SUPPORTED.contains(name) && !required.contains(name) {
                let what = if *name == "EXT_meshopt_compression" {
                    "not supported without the `meshopt` feature; the uncompressed fallback data is read"
                } else {
                    "not supported; ignored"
                };
                warnings.borrow_mut().warn(
                    format!("/extensionsUsed/{i}"),
                    format!("extension {name}: {what}"),
                    None,
                );
            }
        }
        let buffers = root.opt_array("buffers")?.map_or(0, <[Json]>::len);
        #[cfg(feature = "meshopt")]
        let views = root.opt_array("bufferViews")?.map_or(0, <[Json]>::len);
        let has = |n: &str| used.contains(&n) || required.contains(&n);
        Ok(Ctx {
            root,
            bin,
            resources,
            options,
            warnings,
            buffers: (0..buffers).map(|_| OnceCell::new()).collect(),
            #[cfg(feature = "meshopt")]
            decoded: (0..views).map(|_| OnceCell::new()).collect(),
            buffer_bytes: Cell::new(0),
            output_bytes: Cell::new(0),
            quantization: has("KHR_mesh_quantization"),
            meshopt: cfg!(feature = "meshopt") && has("EXT_meshopt_compression"),
            warned_quantization: Cell::new(false),
        })
    }

    /// Records a warning.
    pub fn warn(&self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.borrow_mut().warn(path, message, None);
    }

    /// The top-level array `key` (empty when absent).
    pub fn list(&self, key: &'static str) -> Result<&'a [Json<'a>]> {
        Ok(self.root.opt_array(key)?.unwrap_or(&[]))
    }

    /// Element `index` of the top-level array `key`, as an object with its
    /// path; `referrer` is the pointer of the reference, for the error when
    /// there is no such element.
    pub fn item(
        &self,
        key: &'static str,
        index: usize,
        referrer: impl FnOnce() -> String,
    ) -> Result<At<'a>> {
        let list = self.list(key)?;
        let value = json::element(list, key, index, referrer)?;
        Ok(At::item(key, index, value))
    }

    /// Takes `bytes` from the output budget ([`ImportOptions::max_output_bytes`]),
    /// or fails naming `path`.
    pub fn charge(&self, bytes: u64, path: impl FnOnce() -> String) -> Result<()> {
        let total = self.output_bytes.get().saturating_add(bytes);
        if total > self.options.max_output_bytes {
            let max = self.options.max_output_bytes;
            return Err(err(
                path(),
                format!("the scene would need more than the import's limit of {max} bytes"),
            )
            .advised(crate::advice::Advice::new(
                Some(crate::advice::Limit {
                    quantity: crate::advice::Quantity::GltfOutputBytes,
                    max,
                    actual: total,
                }),
                Vec::new(),
            )));
        }
        self.output_bytes.set(total);
        Ok(())
    }

    /// The whole scene.
    fn build(&self) -> Result<Scene> {
        let mut scene = Scene::default();
        let graph = nodes::Graph::new(self)?;
        let (scene_index, included) = graph.default_scene(self)?;
        if let Some(s) = scene_index {
            let at = self.item("scenes", s, || "/scene".into())?;
            scene.name = at.opt_str("name")?.unwrap_or_default().to_string();
        }
        scene.extras = self.document_extras()?;
        nodes::add_nodes(self, &graph, &included, &mut scene)?;
        let materials = materials::Materials::new(self, &mut scene)?;
        let instances = meshes::add_meshes(self, &included, &materials, &mut scene)?;
        materials.add_default_if_needed(&mut scene);
        animations::add_animations(self, &included, &instances, &mut scene)?;
        if !self.list("cameras")?.is_empty() {
            self.warn(
                "/cameras/0",
                "cameras are not imported (the scene has none)",
            );
        }
        Ok(scene)
    }

    /// The document's `extras`, else the asset's; when both have some, the
    /// asset's go to the key `asset` of the document's (if that is an
    /// object without one) or are dropped with a warning.
    fn document_extras(&self) -> Result<Value> {
        let own = self.root.extras();
        let asset = self
            .root
            .opt_object("asset")?
            .map_or(Value::Null, |a| a.extras());
        Ok(match (own, asset) {
            (own, Value::Null) => own,
            (Value::Null, asset) => asset,
            (Value::Object(mut own), asset) if !own.contains_key("asset") => {
                own.insert("asset".to_string(), asset);
                Value::Object(own)
            }
            (own, _) => {
                self.warn(
                    "/asset/extras",
                    "the document has extras of its own; the asset's are dropped",
                );
                own
            }
        })
    }
}

/// A top-level list of strings (`extensionsUsed`, ...).
fn string_list<'a>(root: &At<'a>, key: &'static str) -> Result<Vec<&'a str>> {
    let Some(items) = root.opt_array(key)? else {
        return Ok(Vec::new());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_str().ok_or_else(|| {
                err(
                    format!("/{key}/{i}"),
                    format!("expected a string, found {}", json::describe(v)),
                )
            })
        })
        .collect()
}
