//! What the page draws: the scene that `retromodel convert MODEL STEM.glb`
//! exports, as a GLB without the images the library decoded, and those
//! images as RGBA pixels for the page to hand to three.js directly.
//!
//! The downloaded `.glb` embeds every texture as PNG (and is byte-identical
//! to the command line's); drawing it meant encoding the decoded skin as
//! PNG here and decoding it again in the browser. For display the PNG
//! round trip is skipped (PNG is lossless: the pixels are the same), and
//! the download is made only when asked for ([`Session::convert`]).
//!
//! The scene is the converter's own ([`Converter::scene`]), read with a
//! texture source that finds no texture ([`NoTextures`]: the model's
//! external buffers and images, which a `.gltf` names, are still read), so
//! nothing is decoded or encoded there; its textures are then found and
//! found and decoded by the library's [`Scene::attach_textures`] (as the
//! converter does; the scene keeps decoded pixels, which only a writer
//! encodes as PNG), taken out of the scene before it is exported.

use retromodel::convert::{ConvertOptions, Converter, OutputFormat, Warning};
use retromodel::gltf::GltfOptions;
use retromodel::scene::{Scene, TextureImage, TextureLookup};
use retromodel::texture::{MemorySource, ResolveError, ResolvedTexture, Rgba8Image, TextureSource};

use crate::options::WebOptions;
use crate::session::{warning_entry, Session, WarningEntry};

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
pub type BareScene = (ConvertOptions, Result<(Scene, Vec<Warning>), String>);

/// The scene `Converter::new(options).with_textures(files).scene(..)`
/// makes for a GLB, textures decoded but not encoded as PNG.
pub fn decoded_scene(session: &Session, options: &ConvertOptions) -> Result<DecodedScene, String> {
    decoded_scene_with(session, options, false)
}

/// [`decoded_scene`]; with `last`, the session's copy of the scene is
/// taken, not copied.
fn decoded_scene_with(
    session: &Session,
    options: &ConvertOptions,
    last: bool,
) -> Result<DecodedScene, String> {
    let name = session.file_name();
    // The user's skin is attached below, with the other textures.
    let skinless = ConvertOptions {
        skin: None,
        ..options.clone()
    };
    let make = || {
        let (scene, warnings) = Converter::new(&skinless)
            .with_textures(&NoTextures(session.files()))
            .scene(session.bytes(), name, OutputFormat::Glb)
            .map_err(|e| format!("{name}: {e}"))?;
        // The reader's warnings; the texture lookup's are made again below.
        let warnings = warnings
            .into_iter()
            .filter(|w| !matches!(w, Warning::Texture(_)))
            .collect();
        Ok((scene, warnings))
    };
    let (mut scene, mut warnings) = if last {
        session.take_bare_scene(&skinless, make)?
    } else {
        session.bare_scene(&skinless, make)?
    };
    let texture_warnings = scene.attach_textures(&TextureLookup {
        source: session.files(),
        model_file_name: name,
        named_like_model: session.model().format().skin_named_like_model(),
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

/// What the page draws.
#[derive(Debug, Clone)]
pub struct Display {
    /// The scene as GLB, without the textures in [`images`](Self::images)
    /// (their materials have no base colour texture in it).
    pub glb: Vec<u8>,
    /// Per texture of the scene, its decoded image (`None` for one without,
    /// or one the GLB embeds).
    pub images: Vec<Option<Rgba8Image>>,
    /// Per material of the scene (= of the GLB, in order), the index in
    /// [`images`](Self::images) of its base colour image, if it has one
    /// there.
    pub material_images: Vec<Option<usize>>,
    /// What the conversion passed over (the `.glb` download's warnings).
    pub warnings: Vec<WarningEntry>,
    /// The dropped image given as `--skin`, if any.
    pub skin: Option<String>,
}

/// What `session` shows with `options`: the scene of
/// `convert MODEL STEM.glb` with those options (and, with `auto_skin`, the
/// suggested `--skin`).
pub fn display(
    session: &Session,
    options: &WebOptions,
    auto_skin: bool,
) -> Result<Display, String> {
    let mut options = options.clone();
    if auto_skin && options.skin.is_none() {
        options.skin = session.suggested_skin();
    }
    let convert_options = options.to_convert_options(session.files())?;
    let decoded = decoded_scene_with(session, &convert_options, true)?;
    let gltf = GltfOptions {
        quantize: convert_options.quantize,
        compress: convert_options.compress,
    };
    let glb = retromodel::gltf::to_glb_with(&decoded.scene, &gltf)
        .map_err(|e| format!("{}: cannot export: {e}", session.file_name()))?;
    let material_images = decoded
        .scene
        .materials
        .iter()
        .map(|m| {
            m.texture
                .filter(|&t| decoded.images.get(t).is_some_and(Option::is_some))
        })
        .collect();
    Ok(Display {
        glb,
        images: decoded.images,
        material_images,
        warnings: decoded.warnings.iter().map(warning_entry).collect(),
        skin: options.skin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use retromodel::texture::decode;

    fn sample_files() -> MemorySource {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/models");
        let mut files = MemorySource::new();
        for name in ["sample.md2", "sample.pcx"] {
            let bytes = std::fs::read(format!("{root}/{name}")).unwrap();
            files.add(name, bytes).unwrap();
        }
        files
    }

    /// The display's GLB and pixels against the download's: the same
    /// document but the images, and the images the download's PNGs
    /// decode to.
    #[test]
    fn the_display_is_the_download_without_the_png_round_trip() {
        let files = sample_files();
        let session = Session::load(&files, "sample.md2").unwrap();
        let options = WebOptions::default();
        let shown = display(&session, &options, true).unwrap();
        let download = session.convert("glb", &options, true).unwrap();
        assert_eq!(
            shown.warnings, download.warnings,
            "the same warnings as the download"
        );
        assert_eq!(shown.skin, download.skin);
        let (_, glb) = download.files.last().unwrap();
        let import = |bytes: &[u8]| {
            retromodel::gltf::import(bytes, None, &retromodel::gltf::ImportOptions::default())
                .unwrap()
                .scene
        };
        let (full, bare) = (import(glb), import(&shown.glb));
        assert_eq!(full.meshes, bare.meshes);
        assert_eq!(full.animations, bare.animations);
        // The GLB has no image at all: the one texture is given as pixels.
        assert_eq!((full.textures.len(), bare.textures.len()), (1, 0));
        assert!(shown.glb.len() < glb.len());
        // Material 0 draws texture 0, whose pixels are the download's PNG's.
        assert_eq!(shown.material_images, [Some(0)]);
        let png = match &full.textures[0].image {
            Some(TextureImage::Png(bytes)) => decode(bytes).unwrap(),
            other => panic!("the download embeds a PNG, not {other:?}"),
        };
        assert_eq!(shown.images[0].as_ref(), Some(&png));
    }

    #[test]
    fn a_dropped_image_is_the_skin_when_the_model_finds_none() {
        let mut files = MemorySource::new();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/models");
        files
            .add(
                "model.md2",
                std::fs::read(format!("{root}/sample.md2")).unwrap(),
            )
            .unwrap();
        files
            .add(
                "other.pcx",
                std::fs::read(format!("{root}/sample.pcx")).unwrap(),
            )
            .unwrap();
        let session = Session::load(&files, "model.md2").unwrap();
        let shown = display(&session, &WebOptions::default(), true).unwrap();
        let download = session
            .convert("glb", &WebOptions::default(), true)
            .unwrap();
        assert_eq!(shown.skin.as_deref(), Some("other.pcx"));
        assert_eq!(shown.skin, download.skin);
        assert_eq!(shown.warnings, download.warnings);
        assert!(shown.images[0].is_some());
        let plain = display(&session, &WebOptions::default(), false).unwrap();
        assert_eq!(plain.skin, None);
        assert!(plain.images.iter().all(Option::is_none));
    }
}
