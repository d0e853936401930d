//! retromodel for web pages: the library compiled to WebAssembly, with
//! [wasm-bindgen] bindings for the viewer in `web/`.
//!
//! The page hands over the files a user dropped ([`DroppedFiles`]: paths
//! relative to the drop, and bytes); [`LoadedModel::load`] reads one of
//! them, finding its textures among the others by the library's own
//! lookup rules ([`retromodel::texture::MemorySource`]). Then, by the same
//! calls as the command line:
//!
//! - [`LoadedModel::info`]: the JSON of `retromodel info --json`;
//! - [`LoadedModel::validate`]: the problems of `retromodel validate`,
//!   with their paths, severities and offsets;
//! - [`LoadedModel::convert`] (and `to_glb`, `to_obj`, `to_md2`): the
//!   files of `retromodel convert MODEL STEM.EXT` with the options' flags;
//! - [`LoadedModel::md2_preview`]: the MD2 a model would become, as GLB,
//!   with each MD2 vertex's quantisation error;
//! - [`LoadedModel::display`]: what the page draws, the `.glb`'s scene
//!   with its decoded images as RGBA pixels instead of embedded PNG, an
//!   MD2's as typed arrays instead of a GLB ([`display`]).
//!
//! Errors become JavaScript exceptions (`Error`) with the library's
//! message. Nothing here touches the network or a file system: the bytes
//! come from the page and go back to it.
//!
//! The logic lives in plain Rust modules ([`session`], [`display`],
//! [`preview`], [`options`]) that are unit-tested natively; this file only binds them.
//!
//! [wasm-bindgen]: https://docs.rs/wasm-bindgen

pub mod decoded;
pub mod display;
pub mod md3;
pub mod options;
pub mod preview;
pub mod quake;
pub mod session;

use retromodel::texture::MemorySource;
use wasm_bindgen::prelude::*;

use options::WebOptions;
use preview::Md2Preview;
use session::{Output, Session};

/// A JavaScript `Error` with the message.
fn js_error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// JSON text of a value (the page parses it).
fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}

/// The extensions of the model formats the library reads.
const MODEL_EXTENSIONS: [&str; 8] = ["mdl", "md2", "md3", "ms3d", "iqm", "glb", "gltf", "obj"];

/// The files a user dropped or picked, by their paths relative to the
/// drop (`faerie.md2`, or `baseq2/players/male/tris.md2` for a folder).
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct DroppedFiles {
    inner: MemorySource,
}

#[wasm_bindgen]
impl DroppedFiles {
    /// No files yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> DroppedFiles {
        DroppedFiles::default()
    }

    /// Adds a file. Throws for a path that is absolute, has a `..`
    /// component or holds control characters.
    pub fn add(&mut self, path: &str, bytes: Vec<u8>) -> Result<(), JsError> {
        self.inner
            .add(path, bytes)
            .map_err(|e| js_error(format!("{path}: {e}")))
    }

    /// Every path, sorted.
    pub fn paths(&self) -> Vec<String> {
        self.inner.paths().collect()
    }

    /// The paths that look like models by their extension (MDL, MD2, MD3,
    /// MS3D and IQM first, then glTF and OBJ), for the page to pick one; a
    /// Quake III player's `lower.md3` (with `upper.md3` and `head.md3`
    /// beside it: the whole player, [`md3::is_player`]) before the other
    /// files of its rank.
    pub fn models(&self) -> Vec<String> {
        let rank = |p: &str| {
            let ext = p.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
            MODEL_EXTENSIONS
                .iter()
                .position(|m| Some(*m) == ext.as_deref())
        };
        let mut models: Vec<(usize, bool, String)> = self
            .inner
            .paths()
            .filter_map(|p| Some((rank(&p)?.min(5), !md3::is_player(&self.inner, &p), p)))
            .collect();
        models.sort();
        models.into_iter().map(|(_, _, p)| p).collect()
    }

    /// How many files.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.len()
    }
}

/// A model read from the dropped files.
#[wasm_bindgen]
#[derive(Debug)]
pub struct LoadedModel {
    session: Session,
}

#[wasm_bindgen]
impl LoadedModel {
    /// Reads the dropped file at `path`; its textures are looked for
    /// among the dropped files, its folder first. Throws with the
    /// library's message for a file it cannot read.
    pub fn load(files: &DroppedFiles, path: &str) -> Result<LoadedModel, JsError> {
        Session::load(&files.inner, path)
            .map(|session| LoadedModel { session })
            .map_err(js_error)
    }

    /// [`load`](Self::load), an MD3 with the `.skin` files of skin set
    /// `skin_set` (`red`: `lower_red.skin`, `upper_red.skin`,
    /// `head_red.skin` for a player; `STEM_red.skin` for one model).
    #[wasm_bindgen(js_name = loadWithSkinSet)]
    pub fn load_with_skin_set(
        files: &DroppedFiles,
        path: &str,
        skin_set: &str,
    ) -> Result<LoadedModel, JsError> {
        Session::load_with_skin_set(&files.inner, path, Some(skin_set))
            .map(|session| LoadedModel { session })
            .map_err(js_error)
    }

    /// JSON: the skin sets beside an MD3 (`["default", "blue", "red"]`),
    /// `[]` for other formats.
    #[wasm_bindgen(js_name = skinSets)]
    pub fn skin_sets(&self) -> String {
        json(&self.session.skin_sets())
    }

    /// The MD3 skin set asked for (`undefined`: `default`).
    #[wasm_bindgen(getter, js_name = skinSet)]
    pub fn skin_set(&self) -> Option<String> {
        self.session.skin_set().map(str::to_string)
    }

    /// Whether the model is a Quake III player's `lower.md3`, shown with
    /// `upper.md3` at its `tag_torso` and `head.md3` at that one's
    /// `tag_head`.
    #[wasm_bindgen(getter, js_name = isMd3Player)]
    pub fn is_md3_player(&self) -> bool {
        self.session.is_md3_player()
    }

    /// `mdl`, `md2`, `md3`, `ms3d`, `iqm`, `gltf` or `obj`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.session.format()
    }

    /// The model's file name.
    #[wasm_bindgen(getter, js_name = fileName)]
    pub fn file_name(&self) -> String {
        self.session.file_name().to_string()
    }

    /// The model's path among the dropped files.
    #[wasm_bindgen(getter)]
    pub fn path(&self) -> String {
        self.session.path().to_string()
    }

    /// The JSON object `retromodel info --json` prints.
    pub fn info(&self) -> String {
        self.session.info_json()
    }

    /// The text `retromodel info` prints.
    #[wasm_bindgen(js_name = infoText)]
    pub fn info_text(&self) -> String {
        self.session.info_text()
    }

    /// JSON: every problem `retromodel validate` finds, as
    /// `[{severity, path, message, offset, text}]`.
    pub fn validate(&self) -> String {
        json(&self.session.problems())
    }

    /// JSON: `[{name, first_frame, frames, seconds}]`, the animations as
    /// `info` lists them.
    pub fn animations(&self) -> String {
        json(&self.session.animations())
    }

    /// JSON: an MD2's skins, `[{name, file, error, embedded}]`: the name
    /// it stores, the dropped file found for it or why none was; an MDL's
    /// skin images (`embedded`: shown through the dropped Quake palette).
    pub fn skins(&self) -> String {
        json(&self.session.skins())
    }

    /// Skin `index` of an MD2 (decoded from the dropped file) or an MDL
    /// (coloured by the dropped `gfx/palette.lmp`), encoded as PNG.
    #[wasm_bindgen(js_name = skinPng)]
    pub fn skin_png(&self, index: usize) -> Result<Vec<u8>, JsError> {
        self.session.skin_png(index).map_err(js_error)
    }

    /// The dropped images, the model's folder first.
    pub fn images(&self) -> Vec<String> {
        self.session.images()
    }

    /// The dropped image to use as `--skin` when the model would be
    /// untextured without one.
    #[wasm_bindgen(js_name = suggestedSkin)]
    pub fn suggested_skin(&self) -> Option<String> {
        self.session.suggested_skin()
    }

    /// The files of `retromodel convert MODEL STEM.FORMAT` with the flags
    /// in `options` (JSON: `{quantize, compress, skin, frame, anim, time,
    /// clip, fps, player, scale, fit_height, engine}`). With `auto_skin`
    /// and no `skin`, the suggested skin is given when the model would be
    /// untextured.
    pub fn convert(
        &self,
        format: &str,
        options: &str,
        auto_skin: bool,
    ) -> Result<Converted, JsError> {
        let options = WebOptions::from_json(options).map_err(js_error)?;
        self.session
            .convert(format, &options, auto_skin)
            .map(|output| Converted { output })
            .map_err(js_error)
    }

    /// `convert("glb", options, auto_skin)`.
    #[wasm_bindgen(js_name = toGlb)]
    pub fn to_glb(&self, options: &str, auto_skin: bool) -> Result<Converted, JsError> {
        self.convert("glb", options, auto_skin)
    }

    /// `convert("obj", options, auto_skin)`: the OBJ, its MTL and PNG
    /// textures.
    #[wasm_bindgen(js_name = toObj)]
    pub fn to_obj(&self, options: &str, auto_skin: bool) -> Result<Converted, JsError> {
        self.convert("obj", options, auto_skin)
    }

    /// `convert("md2", options, auto_skin)`: the MD2 (compiled, for any
    /// model but an MD2 without compile options) and its skin.
    #[wasm_bindgen(js_name = toMd2)]
    pub fn to_md2(&self, options: &str, auto_skin: bool) -> Result<Converted, JsError> {
        self.convert("md2", options, auto_skin)
    }

    /// What the page draws: the scene `convert("glb", options, auto_skin)`
    /// exports, as a GLB without the images decoded here, which come as
    /// RGBA pixels (see [`Shown`]); an MD2's (without `quantize` and
    /// `compress`) as arrays, with no GLB ([`Shown::arrays`]). Faster than
    /// `convert`: no PNG is encoded here nor decoded by the browser.
    pub fn display(&self, options: &str, auto_skin: bool) -> Result<Shown, JsError> {
        let options = WebOptions::from_json(options).map_err(js_error)?;
        display::display(&self.session, &options, auto_skin)
            .map(|display| Shown { display })
            .map_err(js_error)
    }

    /// The MD2 this model would become with `options`, as GLB, with each
    /// MD2 vertex's quantisation error.
    #[wasm_bindgen(js_name = md2Preview)]
    pub fn md2_preview(&self, options: &str) -> Result<Preview, JsError> {
        let options = WebOptions::from_json(options).map_err(js_error)?;
        preview::md2_preview(&self.session, &options)
            .map(|preview| Preview { preview })
            .map_err(js_error)
    }
}

/// The files of a conversion.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Converted {
    output: Output,
}

#[wasm_bindgen]
impl Converted {
    /// How many files (the main one last).
    #[wasm_bindgen(getter, js_name = fileCount)]
    pub fn file_count(&self) -> usize {
        self.output.files.len()
    }

    /// The name of file `index`.
    #[wasm_bindgen(js_name = fileName)]
    pub fn file_name(&self, index: usize) -> Option<String> {
        self.output.files.get(index).map(|f| f.0.clone())
    }

    /// The bytes of file `index`.
    #[wasm_bindgen(js_name = fileBytes)]
    pub fn file_bytes(&self, index: usize) -> Option<Vec<u8>> {
        self.output.files.get(index).map(|f| f.1.clone())
    }

    /// JSON: `[{kind, message}]`, what the conversion passed over.
    pub fn warnings(&self) -> String {
        json(&self.output.warnings)
    }

    /// JSON of the MD2 compile report (as `convert --json` prints it),
    /// for a compiled .md2.
    pub fn report(&self) -> Option<String> {
        self.output.report.as_ref().map(json)
    }

    /// The dropped image given as `--skin`, if any.
    #[wasm_bindgen(getter)]
    pub fn skin(&self) -> Option<String> {
        self.output.skin.clone()
    }
}

/// What the page draws ([`LoadedModel::display`]).
#[wasm_bindgen]
#[derive(Debug)]
pub struct Shown {
    display: display::Display,
}

#[wasm_bindgen]
impl Shown {
    /// The GLB, without the images given as pixels; empty when the scene
    /// comes as arrays ([`Shown::arrays`]).
    pub fn glb(&self) -> Vec<u8> {
        self.display.glb.clone()
    }

    /// The scene as arrays (an MD2 without `quantize` and `compress`), for
    /// the page to build three.js's objects from instead of loading a GLB;
    /// taken out: a second call gives `undefined`.
    pub fn arrays(&mut self) -> Option<ShownArrays> {
        self.display.morph.take().map(|mesh| ShownArrays { mesh })
    }

    /// Per material of the GLB (in order), the index of its base colour
    /// image among the images here, or -1 (none, or embedded in the GLB).
    #[wasm_bindgen(js_name = materialEmissiveImages)]
    /// Per material of the GLB (in order), the index of its emissive
    /// image among the images here (a Quake MDL skin's fullbright
    /// texels), or -1.
    pub fn material_emissive_images(&self) -> Vec<i32> {
        self.display
            .material_emissive_images
            .iter()
            .map(|i| i.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1))
            .collect()
    }

    #[wasm_bindgen(js_name = materialImages)]
    pub fn material_images(&self) -> Vec<i32> {
        self.display
            .material_images
            .iter()
            .map(|i| i.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1))
            .collect()
    }

    /// Width of image `index` (0 when there is none).
    #[wasm_bindgen(js_name = imageWidth)]
    pub fn image_width(&self, index: usize) -> u32 {
        self.image(index).map_or(0, |i| i.width())
    }

    /// Height of image `index` (0 when there is none).
    #[wasm_bindgen(js_name = imageHeight)]
    pub fn image_height(&self, index: usize) -> u32 {
        self.image(index).map_or(0, |i| i.height())
    }

    /// The pixels of image `index`: RGBA, 8 bits each, rows top first.
    #[wasm_bindgen(js_name = imagePixels)]
    pub fn image_pixels(&self, index: usize) -> Option<Vec<u8>> {
        self.image(index).map(|i| i.pixels().to_vec())
    }

    /// JSON: `[{kind, message}]`, what the conversion passed over.
    pub fn warnings(&self) -> String {
        json(&self.display.warnings)
    }

    /// The dropped image given as `--skin`, if any.
    #[wasm_bindgen(getter)]
    pub fn skin(&self) -> Option<String> {
        self.display.skin.clone()
    }
}

impl Shown {
    fn image(&self, index: usize) -> Option<&retromodel::texture::Rgba8Image> {
        self.display.images.get(index).and_then(Option::as_ref)
    }
}

/// A scene of one morphing mesh as arrays ([`display::MorphMesh`]). The
/// large arrays are moved out: each is given once, then empty.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ShownArrays {
    mesh: display::MorphMesh,
}

#[wasm_bindgen]
impl ShownArrays {
    /// The mesh's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.mesh.name.clone()
    }

    /// Base positions (x, y, z a vertex).
    pub fn positions(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.mesh.positions)
    }

    /// Base normals (x, y, z a vertex).
    pub fn normals(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.mesh.normals)
    }

    /// Texture coordinates (u, v a vertex; v top-down).
    pub fn uvs(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.mesh.uvs)
    }

    /// Three vertex indices a triangle.
    pub fn indices(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.mesh.indices)
    }

    /// The morph targets' names.
    #[wasm_bindgen(js_name = targetNames)]
    pub fn target_names(&self) -> Vec<String> {
        self.mesh.target_names.clone()
    }

    /// Every morph target's position displacements, target after target.
    #[wasm_bindgen(js_name = targetPositions)]
    pub fn target_positions(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.mesh.target_positions)
    }

    /// Every morph target's normal displacements, target after target
    /// (empty when the targets have none).
    #[wasm_bindgen(js_name = targetNormals)]
    pub fn target_normals(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.mesh.target_normals)
    }

    /// The default weight of each morph target.
    pub fn weights(&self) -> Vec<f32> {
        self.mesh.weights.clone()
    }

    /// The box holding every frame: min x, y, z, then max x, y, z.
    pub fn bounds(&self) -> Vec<f32> {
        let (lo, hi) = self.mesh.bounds;
        [lo, hi].concat()
    }

    /// JSON of the material, as the GLB stores it: `{name, baseColor,
    /// metallic, roughness, emissive, alphaMode, alphaCutoff,
    /// doubleSided}` (`alphaMode` `OPAQUE`, `MASK` or `BLEND`), or `null`
    /// for a mesh without one.
    pub fn material(&self) -> String {
        use retromodel::scene::AlphaMode;
        let Some(m) = &self.mesh.material else {
            return "null".to_string();
        };
        let (mode, cutoff) = match m.alpha_mode {
            AlphaMode::Opaque => ("OPAQUE", None),
            AlphaMode::Mask { cutoff } => ("MASK", Some(cutoff)),
            AlphaMode::Blend => ("BLEND", None),
        };
        json(&serde_json::json!({
            "name": m.name,
            "baseColor": m.base_color,
            "metallic": m.metallic,
            "roughness": m.roughness,
            "emissive": m.emissive,
            "alphaMode": mode,
            "alphaCutoff": cutoff,
            "doubleSided": m.double_sided,
        }))
    }

    /// The index of the mesh's material among the scene's (as in
    /// [`Shown::material_images`]), or -1 for none.
    #[wasm_bindgen(getter, js_name = materialIndex)]
    pub fn material_index(&self) -> i32 {
        self.mesh
            .material_index
            .and_then(|i| i32::try_from(i).ok())
            .unwrap_or(-1)
    }

    /// How many animations.
    #[wasm_bindgen(getter, js_name = clipCount)]
    pub fn clip_count(&self) -> usize {
        self.mesh.clips.len()
    }

    /// The name of animation `index` (empty for none).
    #[wasm_bindgen(js_name = clipName)]
    pub fn clip_name(&self, index: usize) -> String {
        self.mesh
            .clips
            .get(index)
            .map_or_else(String::new, |c| c.name.clone())
    }

    /// `LINEAR` or `STEP`: how animation `index` interpolates.
    #[wasm_bindgen(js_name = clipInterpolation)]
    pub fn clip_interpolation(&self, index: usize) -> String {
        self.mesh
            .clips
            .get(index)
            .map_or("LINEAR", |c| c.interpolation)
            .to_string()
    }

    /// Key times of animation `index`, in seconds.
    #[wasm_bindgen(js_name = clipTimes)]
    pub fn clip_times(&mut self, index: usize) -> Vec<f32> {
        self.mesh
            .clips
            .get_mut(index)
            .map(|c| std::mem::take(&mut c.times))
            .unwrap_or_default()
    }

    /// The weights of animation `index`: one per morph target, key after
    /// key.
    #[wasm_bindgen(js_name = clipValues)]
    pub fn clip_values(&mut self, index: usize) -> Vec<f32> {
        self.mesh
            .clips
            .get_mut(index)
            .map(|c| std::mem::take(&mut c.values))
            .unwrap_or_default()
    }
}

/// The MD2 a model would become.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Preview {
    preview: Md2Preview,
}

#[wasm_bindgen]
impl Preview {
    /// The MD2 as GLB (its mesh has `_MD2_VERTEX`, each vertex's MD2
    /// vertex).
    pub fn glb(&self) -> Vec<u8> {
        self.preview.glb.clone()
    }

    /// The MD2 file.
    pub fn md2(&self) -> Vec<u8> {
        self.preview.md2.clone()
    }

    /// The skin file's name, when there is one.
    #[wasm_bindgen(js_name = skinName)]
    pub fn skin_name(&self) -> Option<String> {
        self.preview.skin.as_ref().map(|s| s.0.clone())
    }

    /// The skin file's bytes.
    #[wasm_bindgen(js_name = skinBytes)]
    pub fn skin_bytes(&self) -> Option<Vec<u8>> {
        self.preview.skin.as_ref().map(|s| s.1.clone())
    }

    /// Per MD2 vertex: the largest error as a fraction of the grid step
    /// (at most 0.5 when rounding to the grid).
    #[wasm_bindgen(js_name = stepError)]
    pub fn step_error(&self) -> Vec<f32> {
        self.preview.step_error.clone()
    }

    /// Per MD2 vertex: the largest distance from the source, in its units.
    pub fn distance(&self) -> Vec<f32> {
        self.preview.distance.clone()
    }

    /// JSON of the compile report.
    pub fn report(&self) -> String {
        json(&self.preview.report)
    }

    /// JSON: `[{kind, message}]`.
    pub fn warnings(&self) -> String {
        json(&self.preview.warnings)
    }
}
