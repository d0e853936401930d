//! Attaching a scene's textures: every texture path the model names is
//! looked up through a caller's [`TextureSource`] (the file system,
//! confined; the files a user dropped on a web page; memory) and decoded
//! into the scene (feature `textures`). Nothing that goes wrong stops
//! the conversion: each failure is a [`TextureWarning`] saying what the
//! material does without it.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use super::{Scene, Texture};
use crate::texture::{
    decode, ResolveError, Rgba8Image, Skipped, TextureError, TextureSource, IMAGE_EXTENSIONS,
};

/// An image the user gives to use instead of the model's first skin or
/// texture (the command line's `--skin FILE`), read by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserSkin {
    /// How the user named it (shown in warnings), e.g. `skins/hero.pcx`.
    pub path: String,
    /// The file name, kept as the texture's path, e.g. `hero.pcx`.
    pub name: String,
    /// The image file's bytes, or why they could not be read.
    pub data: Result<Arc<[u8]>, String>,
}

/// What a material does without a texture that could not be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consequence {
    /// It is drawn untextured.
    Untextured,
    /// The texture was only its alpha map: it keeps its base texture.
    AlphaMapIgnored,
    /// The user's skin could not be used: the model's own skins stay.
    KeptModelSkins,
}

impl fmt::Display for Consequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Consequence::Untextured => "material left untextured",
            Consequence::AlphaMapIgnored => {
                "alpha map ignored; the material keeps its base texture, if any"
            }
            Consequence::KeptModelSkins => "left as the model names it",
        })
    }
}

/// Something about a texture that a user should know; the conversion
/// goes on. `Display` gives one line, without the model's name.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum TextureWarning {
    /// The user's skin could not be read or decoded.
    UserSkin {
        /// The skin as the user named it.
        path: String,
        /// Why (`cannot read: ...` or `cannot decode: ...`).
        reason: String,
    },
    /// A model that names no skin, and no image named like it beside it
    /// (an MD2's usual skin).
    NoSkin {
        /// The model's file name.
        model_file_name: String,
        /// Matching files passed over.
        skipped: Vec<Skipped>,
    },
    /// A texture was not found, or refused (a path leading outside the
    /// allowed folders).
    Unresolved {
        /// Why.
        error: ResolveError,
        /// What the material does without it.
        consequence: Consequence,
    },
    /// A texture was found, but only after passing over other matches (a
    /// symbolic link leading outside the allowed folders, say).
    PassedOver {
        /// The texture's name as the model stores it.
        name: String,
        /// The file used.
        path: PathBuf,
        /// The matches passed over.
        skipped: Vec<Skipped>,
    },
    /// The model's skins are palette indices (a Quake MDL's), no palette
    /// was given and none was found (Quake's `gfx/palette.lmp`): the skins
    /// have no image. [`TextureWarning::advice`] says what helps.
    NoPalette {
        /// Why the palette file was not found; `None` when there was no
        /// folder to look in.
        error: Option<ResolveError>,
    },
    /// A palette file was found but holds no palette (768 bytes of RGB,
    /// or an 8-bit PCX's): the skins have no image.
    BadPalette {
        /// The file.
        path: PathBuf,
        /// Why.
        error: TextureError,
    },
    /// A texture was found but could not be decoded.
    Undecodable {
        /// The name the model stores (`None` for a skin found beside the
        /// model by its name).
        name: Option<String>,
        /// The file.
        path: PathBuf,
        /// Why.
        error: TextureError,
        /// What the material does without it.
        consequence: Consequence,
    },
}

/// `"; passed over: A; B"` for a non-empty list.
fn skipped_note(skipped: &[Skipped]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let list: Vec<String> = skipped.iter().map(ToString::to_string).collect();
    format!("; passed over: {}", list.join("; "))
}

impl fmt::Display for TextureWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextureWarning::UserSkin { path, reason } => {
                write!(f, "skin {path}: {reason}; {}", Consequence::KeptModelSkins)
            }
            TextureWarning::NoSkin {
                model_file_name,
                skipped,
            } => {
                let stem = std::path::Path::new(model_file_name)
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                write!(
                    f,
                    "the model names no skin and no image named like it ({stem}.{}) is beside \
                     it{}; {}",
                    IMAGE_EXTENSIONS.join("|"),
                    skipped_note(skipped),
                    Consequence::Untextured
                )
            }
            TextureWarning::Unresolved { error, consequence } => {
                let skipped = match error {
                    ResolveError::Refused { skipped, .. }
                    | ResolveError::NotFound { skipped, .. } => skipped.as_slice(),
                };
                write!(f, "{error}{}; {consequence}", skipped_note(skipped))
            }
            TextureWarning::NoPalette { error } => {
                f.write_str("no palette for the model's 8-bit skins")?;
                match error {
                    Some(e) => write!(f, " ({e})")?,
                    None => f.write_str(" (no folder to look for gfx/palette.lmp in)")?,
                }
                write!(f, "; skins left untextured")
            }
            TextureWarning::BadPalette { path, error } => write!(
                f,
                "palette {}: {error}; skins left untextured",
                path.display()
            ),
            TextureWarning::PassedOver {
                name,
                path,
                skipped,
            } => write!(
                f,
                "texture {name:?}: using {}{}",
                path.display(),
                skipped_note(skipped)
            ),
            TextureWarning::Undecodable {
                name: Some(name),
                path,
                error,
                consequence,
            } => write!(
                f,
                "texture {name:?} ({}): cannot decode: {error}; {consequence}",
                path.display()
            ),
            TextureWarning::Undecodable {
                name: None,
                path,
                error,
                consequence,
            } => write!(
                f,
                "skin {}: cannot decode: {error}; {consequence}",
                path.display()
            ),
        }
    }
}

impl TextureWarning {
    /// What the user can do about the warning, when something helps: a
    /// missing or bad palette asks for Quake's.
    pub fn advice(&self) -> Option<crate::advice::Advice> {
        use crate::advice::{Advice, Remedy};
        match self {
            TextureWarning::NoPalette { .. } | TextureWarning::BadPalette { .. } => {
                Some(Advice::new(None, vec![Remedy::QuakePalette]))
            }
            _ => None,
        }
    }
}

/// Where a scene's textures come from and what replaces them.
#[derive(Clone, Copy)]
pub struct TextureLookup<'a> {
    /// Finds the files the texture names stand for.
    pub source: &'a dyn TextureSource,
    /// The model's file name (`tris.md2`), for a skin named like it.
    pub model_file_name: &'a str,
    /// Whether a model that names no texture takes an image named like
    /// the model from beside it (`Format::skin_named_like_model`).
    pub named_like_model: bool,
    /// An image to use as the first texture instead of the model's own.
    pub user_skin: Option<&'a UserSkin>,
}

impl fmt::Debug for TextureLookup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TextureLookup")
            .field("model_file_name", &self.model_file_name)
            .field("named_like_model", &self.named_like_model)
            .field("user_skin", &self.user_skin)
            .finish_non_exhaustive()
    }
}

/// Makes `image` the first texture, or the only one (used by every
/// untextured material) when the scene names none.
fn set_first_texture(
    scene: &mut Scene,
    images: &mut Vec<Option<Rgba8Image>>,
    path: String,
    image: Rgba8Image,
) {
    if scene.textures.is_empty() {
        scene.textures.push(Texture { path, image: None });
        for m in &mut scene.materials {
            m.texture.get_or_insert(0);
        }
    }
    images.resize(scene.textures.len(), None);
    images[0] = Some(image);
}

/// What a material does without texture `index`: a texture only used as
/// an alpha map leaves its materials with their base texture.
fn consequence(scene: &Scene, index: usize) -> Consequence {
    let as_base = scene.materials.iter().any(|m| m.texture == Some(index));
    let as_alpha = scene
        .materials
        .iter()
        .any(|m| m.alpha_texture == Some(index));
    if as_alpha && !as_base {
        Consequence::AlphaMapIgnored
    } else {
        Consequence::Untextured
    }
}

impl Scene {
    /// Finds and decodes every texture of the scene (alpha maps included;
    /// see [`Scene::embed_images`]) through `lookup.source`, leaving each
    /// image as decoded pixels ([`TextureImage::Pixels`](super::TextureImage::Pixels):
    /// a writer encodes them as PNG if and when it needs a file); returns
    /// what went wrong, in order. Textures that already have an image are
    /// left alone.
    ///
    /// - With `lookup.user_skin`, that image is the first texture (or the
    ///   only one, used by every untextured material, when the scene
    ///   names none).
    /// - Else, with `lookup.named_like_model` and no texture named, an
    ///   image named like the model is looked for beside it
    ///   ([`TextureSource::load_beside_model`]).
    ///
    /// ```
    /// use retromodel::scene::{Scene, TextureLookup, TextureWarning};
    /// use retromodel::md2::Md2SceneOptions;
    /// use retromodel::texture::TextureResolver;
    ///
    /// let mut scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
    /// let source = TextureResolver::new("/nowhere");
    /// let warnings = scene.attach_textures(&TextureLookup {
    ///     source: &source,
    ///     model_file_name: "sample.md2",
    ///     named_like_model: true,
    ///     user_skin: None,
    /// });
    /// assert!(matches!(warnings[0], TextureWarning::Unresolved { .. }), "{}", warnings[0]);
    /// ```
    pub fn attach_textures(&mut self, lookup: &TextureLookup) -> Vec<TextureWarning> {
        let mut warnings = Vec::new();
        let source = lookup.source;
        let mut images: Vec<Option<Rgba8Image>> = vec![None; self.textures.len()];
        let mut first = 0;
        if let Some(skin) = lookup.user_skin {
            let image = match &skin.data {
                Ok(bytes) => decode(bytes).map_err(|e| format!("cannot decode: {e}")),
                Err(why) => Err(format!("cannot read: {why}")),
            };
            match image {
                Ok(image) => {
                    set_first_texture(self, &mut images, skin.name.clone(), image);
                    first = 1;
                }
                Err(reason) => warnings.push(TextureWarning::UserSkin {
                    path: skin.path.clone(),
                    reason,
                }),
            }
        } else if lookup.named_like_model && self.textures.is_empty() {
            match source.load_beside_model(lookup.model_file_name) {
                Ok(found) => match decode(&found.bytes) {
                    Ok(image) => {
                        let name = found
                            .path
                            .file_name()
                            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                        set_first_texture(self, &mut images, name, image);
                        first = 1;
                    }
                    Err(error) => warnings.push(TextureWarning::Undecodable {
                        name: None,
                        path: found.path,
                        error,
                        consequence: Consequence::Untextured,
                    }),
                },
                Err(ResolveError::NotFound { skipped, .. }) => {
                    warnings.push(TextureWarning::NoSkin {
                        model_file_name: lookup.model_file_name.to_string(),
                        skipped,
                    })
                }
                Err(error) => warnings.push(TextureWarning::Unresolved {
                    error,
                    consequence: Consequence::Untextured,
                }),
            }
        }
        for (i, image) in images.iter_mut().enumerate().skip(first) {
            let Some(texture) = self.textures.get(i) else {
                break;
            };
            if texture.path.is_empty() || texture.has_image() {
                continue;
            }
            let consequence = consequence(self, i);
            match source.load(&texture.path) {
                Ok(found) => {
                    if !found.skipped.is_empty() {
                        warnings.push(TextureWarning::PassedOver {
                            name: texture.path.clone(),
                            path: found.path.clone(),
                            skipped: found.skipped.clone(),
                        });
                    }
                    match decode(&found.bytes) {
                        Ok(decoded) => *image = Some(decoded),
                        Err(error) => warnings.push(TextureWarning::Undecodable {
                            name: Some(texture.path.clone()),
                            path: found.path,
                            error,
                            consequence,
                        }),
                    }
                }
                Err(error) => warnings.push(TextureWarning::Unresolved { error, consequence }),
            }
        }
        self.embed_images(images);
        warnings
    }
}
