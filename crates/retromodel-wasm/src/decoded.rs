//! The scene the page shows, decoded: the converter's own scene
//! ([`Converter::scene`]), read with a texture source that finds no
//! texture ([`NoTextures`]: the model's external buffers and images, which
//! a `.gltf` names, are still read), so nothing is decoded or encoded
//! there; its textures are then found and decoded by the library's
//! [`Scene::attach_textures`] (as the converter does; the scene keeps
//! decoded pixels, which only a writer encodes as PNG), taken out of the
//! scene before it is exported. Used by the session (to suggest a skin)
//! and by the display (to draw the model).

use retromodel::convert::{ConvertOptions, Converter, OutputFormat, Warning};
use retromodel::scene::{Scene, TextureImage, TextureLookup};
use retromodel::texture::{MemorySource, ResolveError, ResolvedTexture, Rgba8Image, TextureSource};

/// The files dropped, for a model's external buffers and images only:
/// every texture it names is "not found", so that the converter attaches
/// none (and decodes and encodes nothing).
struct NoTextures<'a>(&'a MemorySource);

impl NoTextures<'_> {
    fn not_found(name: &str) -> ResolveError {
        ResolveError::NotFound {
            name: name.to_owned(),
            tried: Vec::new(),
            skipped: Vec::new(),
        }
    }
}

impl TextureSource for NoTextures<'_> {
    fn load(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        Err(Self::not_found(name))
    }

    fn load_resource(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        self.0.load_resource(name)
    }

    fn load_beside_model(&self, model_file_name: &str) -> Result<ResolvedTexture, ResolveError> {
        Err(Self::not_found(model_file_name))
    }
}

/// A scene as the converter makes it for `options`, with the decoded
/// image of each of its textures instead of PNG bytes.
#[derive(Debug, Clone)]
pub struct DecodedScene {
    /// The scene; the textures with a decoded image have no PNG bytes.
    pub scene: Scene,
    /// Per texture of the scene, the image the converter would embed as
    /// PNG (alpha maps baked in), or `None`.
    pub images: Vec<Option<Rgba8Image>>,
    /// What the conversion passed over, as the converter lists it.
    pub warnings: Vec<Warning>,
}

impl DecodedScene {
    /// Whether some texture has pixels: decoded here, or PNG bytes the
    /// model carried (a glTF's embedded images).
    pub fn textured(&self) -> bool {
        self.images.iter().any(Option::is_some) || self.scene.textures.iter().any(|t| t.has_image())
    }
}

/// The scene the converter makes with `options` (but its `--skin`) before
/// attaching textures, with the reader's warnings: `options` and the
/// scene, kept by the session for the next call with the same options.
pub type BareScene = (ConvertOptions, BareResult);

/// A bare scene with the reader's warnings, or why it could not be made.
pub type BareResult = Result<(Scene, Vec<Warning>), String>;

/// What a scene is decoded from: the dropped files and the model file.
pub struct SceneInput<'a> {
    /// The dropped files.
    pub files: &'a MemorySource,
    /// The model file's name.
    pub file_name: &'a str,
    /// The model file's bytes.
    pub bytes: &'a [u8],
    /// Whether the model's format looks for a skin named like the model.
    pub named_like_model: bool,
    /// An MD3's companions (a player's parts, `animation.cfg`, `.skin`).
    pub md3: Option<&'a retromodel::md3::Md3Companions>,
}

/// The scene `Converter::new(options).with_textures(files).scene(..)`
/// makes for a GLB, textures decoded but not encoded as PNG. The bare
/// scene (before textures) comes from `bare`, given the options it is
/// made for and how to make it (so that a caller can keep it for the next
/// call with the same options: see `Session::bare_scene`).
pub fn decoded_scene(
    input: &SceneInput,
    options: &ConvertOptions,
    bare: impl FnOnce(&ConvertOptions, &dyn Fn() -> BareResult) -> BareResult,
) -> Result<DecodedScene, String> {
    let name = input.file_name;
    // The user's skin is attached below, with the other textures.
    let skinless = ConvertOptions {
        skin: None,
        ..options.clone()
    };
    let make = || {
        let textures = NoTextures(input.files);
        let mut converter = Converter::new(&skinless).with_textures(&textures);
        if let Some(companions) = input.md3 {
            converter = converter.with_md3_companions(companions);
        }
        let (scene, warnings) = converter
            .scene(input.bytes, name, OutputFormat::Glb)
            .map_err(|e| format!("{name}: {e}"))?;
        // The reader's warnings; the texture lookup's are made again below.
        let warnings = warnings
            .into_iter()
            .filter(|w| !matches!(w, Warning::Texture(_)))
            .collect();
        Ok((scene, warnings))
    };
    let (mut scene, mut warnings) = bare(&skinless, &make)?;
    let texture_warnings = scene.attach_textures(&TextureLookup {
        source: input.files,
        model_file_name: name,
        named_like_model: input.named_like_model,
        user_skin: options.skin.as_ref(),
    });
    warnings.extend(texture_warnings.into_iter().map(Warning::Texture));
    // Decoded pixels go to the page as they are; PNG bytes the model
    // carried (a glTF's images) stay in the scene, for the GLB to embed.
    let images = scene
        .textures
        .iter_mut()
        .map(|t| match t.image.take() {
            Some(TextureImage::Pixels(pixels)) => Some(pixels),
            other => {
                t.image = other;
                None
            }
        })
        .collect();
    Ok(DecodedScene {
        scene,
        images,
        warnings,
    })
}
