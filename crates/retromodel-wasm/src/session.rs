//! One model dropped on the page with the files dropped beside it: read
//! once, then summarised, checked and converted on request, by the same
//! library calls the command line makes (`info --json`, `validate`,
//! `convert`).

use std::cell::{OnceCell, RefCell};

use retromodel::convert::{ConvertOptions, Converter, OutputFormat, Warning};
use retromodel::md2::compile::CompileReport;
use retromodel::scene::{Scene, TextureWarning};
use retromodel::texture::{decode, MemorySource, TextureSource, IMAGE_EXTENSIONS};
use retromodel::{Model, ReadContext};
use serde::Serialize;

use retromodel::md3::{AnimationCfg, Md3Companions};

use crate::decoded::{decoded_scene, BareScene, DecodedScene, SceneInput};
use crate::options::WebOptions;

/// A model read from the dropped files.
#[derive(Debug)]
pub struct Session {
    /// Its path among the dropped files.
    path: String,
    /// Its file name (the last component of `path`).
    file_name: String,
    bytes: Vec<u8>,
    model: Model,
    /// The dropped files, the model's folder searched first.
    files: MemorySource,
    /// [`suggested_skin`](Self::suggested_skin), once worked out.
    suggested_skin: OnceCell<Option<String>>,
    /// The last scene made before attaching textures, and the options it
    /// was made with ([`bare_scene`](Self::bare_scene)).
    bare: RefCell<Option<BareScene>>,
    /// An MD3's companions found among the dropped files (a player's
    /// parts, `animation.cfg`, `.skin` files: [`crate::md3`]).
    md3: Option<Md3Companions>,
    /// The skin set of an MD3's `.skin` files (`None`: `default`).
    skin_set: Option<String>,
}

/// One problem of `validate`, for the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemEntry {
    /// `warning` or `error`.
    pub severity: String,
    /// Where in the model (`frames[12].vertices[301].normal_index`).
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// The byte offset in the file, when known.
    pub offset: Option<u64>,
    /// The line `retromodel validate` prints (without the file name).
    pub text: String,
}

/// One skin an MD2 names, and the dropped file it stands for; or one
/// skin image an MDL holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkinEntry {
    /// The name as the model stores it (an MDL's: `skin 1`, or `skin 2,
    /// image 3 of 4` for an animated skin's image).
    pub name: String,
    /// The dropped file found for it.
    pub file: Option<String>,
    /// Why none was found.
    pub error: Option<String>,
    /// True for a skin the model holds (an MDL's palette indices), shown
    /// through the Quake palette.
    pub embedded: bool,
}

/// One warning of a conversion, for the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarningEntry {
    /// `no_skin`, `texture_missing`, `texture_undecodable`, `user_skin`,
    /// `texture`, `read` or `compile`.
    pub kind: &'static str,
    /// The line the command line prints (without the file name).
    pub message: String,
}

/// One animation, as `info` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnimationEntry {
    /// The name the glTF animation has.
    pub name: String,
    /// The first frame (MD2, IQM: an index; MS3D: MilkShape's frame, maybe
    /// fractional); `None` for a glTF or OBJ.
    pub first_frame: Option<f64>,
    /// How many frames (MD2, IQM) or MilkShape frames (MS3D) it spans.
    pub frames: Option<f64>,
    /// How long it lasts, where `info` says (MS3D, glTF).
    pub seconds: Option<f32>,
}

/// What a conversion made.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The files, the main one last, as (name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// What was passed over.
    pub warnings: Vec<WarningEntry>,
    /// The MD2 compile report, for a compiled .md2.
    pub report: Option<CompileReport>,
    /// The dropped image used as `--skin`, if any.
    pub skin: Option<String>,
}

impl Session {
    /// Reads the dropped file at `path` (its format told by its bytes),
    /// finding the files it names among `files`.
    pub fn load(files: &MemorySource, path: &str) -> Result<Session, String> {
        Session::load_with_skin_set(files, path, None)
    }

    /// [`load`](Self::load); an MD3 with the `.skin` files of skin set
    /// `skin_set` (`lower_red.skin`…, [`crate::md3::skin_sets`]), or
    /// `default`'s when `None`.
    pub fn load_with_skin_set(
        files: &MemorySource,
        path: &str,
        skin_set: Option<&str>,
    ) -> Result<Session, String> {
        let bytes = files
            .get(path)
            .ok_or_else(|| format!("{path}: not among the dropped files"))?
            .to_vec();
        let mut files = files.clone();
        files
            .set_model_file(path)
            .map_err(|e| format!("{path}: {e}"))?;
        let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_string();
        let model = Model::read_with(
            &bytes,
            &ReadContext {
                file_name: &file_name,
                resources: Some(&files),
            },
        )
        .map_err(|e| format!("{file_name}: {e}"))?;
        Ok(Session {
            path: path.to_string(),
            file_name,
            bytes,
            suggested_skin: OnceCell::new(),
            bare: RefCell::new(None),
            md3: matches!(model, Model::Md3(_))
                .then(|| crate::md3::companions(&files, path, skin_set))
                .flatten(),
            skin_set: skin_set.map(str::to_string),
            model,
            files,
        })
    }

    /// The model's path among the dropped files.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The model's file name.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// The file name without its extension: the scene's name, and the
    /// outputs' (`faerie.md2` → `faerie.glb`).
    pub fn stem(&self) -> &str {
        match self.file_name.rsplit_once('.') {
            Some((stem, _)) if !stem.is_empty() => stem,
            _ => &self.file_name,
        }
    }

    /// The model's format, lower case (`md2`, `ms3d`, `gltf`, `obj`).
    pub fn format(&self) -> String {
        self.model.format().to_string().to_lowercase()
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The summary, as `retromodel info --json` prints it.
    pub fn info_json(&self) -> String {
        let info = self.model.info(&self.bytes, &[]);
        serde_json::to_string_pretty(&info).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The summary, as `retromodel info` prints it.
    pub fn info_text(&self) -> String {
        format!("{}: {}", self.file_name, self.model.info(&self.bytes, &[]))
    }

    /// The animations, as `info` lists them: an MD2's or MDL's from its
    /// frame names (an MDL's over its frame list), an MS3D's timeline, an
    /// IQM's animations (lasting from their first frame to their last at
    /// their rate, as the GLB's clips do), a glTF's own.
    pub fn animations(&self) -> Vec<AnimationEntry> {
        match self.model.info(&self.bytes, &[]) {
            retromodel::Info::Md2(i) => i
                .animations
                .iter()
                .map(|a| AnimationEntry {
                    name: a.name.clone(),
                    first_frame: Some(a.first_frame as f64),
                    frames: Some(a.frame_count as f64),
                    seconds: None,
                })
                .collect(),
            retromodel::Info::Mdl(i) => i
                .animations
                .iter()
                .map(|a| AnimationEntry {
                    name: a.name.clone(),
                    first_frame: Some(a.first_frame as f64),
                    frames: Some(a.frame_count as f64),
                    seconds: None,
                })
                .collect(),
            retromodel::Info::Ms3d(i) => i
                .clips
                .iter()
                .map(|c| AnimationEntry {
                    name: c.name.clone(),
                    first_frame: Some(f64::from(c.first_frame)),
                    frames: Some(f64::from(c.last_frame - c.first_frame)),
                    seconds: Some(c.seconds),
                })
                .collect(),
            retromodel::Info::Scene(i) => i
                .animations
                .iter()
                .map(|a| AnimationEntry {
                    name: a.name.clone(),
                    first_frame: None,
                    frames: None,
                    seconds: Some(a.seconds),
                })
                .collect(),
            retromodel::Info::Iqm(i) => i
                .anims
                .iter()
                .map(|a| AnimationEntry {
                    name: a.name.clone(),
                    first_frame: Some(f64::from(a.first_frame)),
                    frames: Some(f64::from(a.frames)),
                    seconds: Some(a.frames.saturating_sub(1) as f32 / iqm_fps(a.fps)),
                })
                .collect(),
            retromodel::Info::Md3(_) => self.md3_animations(),
            _ => Vec::new(),
        }
    }

    /// An MD3's animations, from the `animation.cfg` beside it (its
    /// names, first frames, frame counts and lengths at its rates); none
    /// without one or when it cannot be read.
    fn md3_animations(&self) -> Vec<AnimationEntry> {
        let Some(cfg) = self.md3.as_ref().and_then(|c| c.animation_cfg.as_deref()) else {
            return Vec::new();
        };
        let Ok(cfg) = AnimationCfg::parse(cfg) else {
            return Vec::new();
        };
        cfg.animations
            .iter()
            .map(|a| AnimationEntry {
                name: a.name.to_string(),
                first_frame: Some(f64::from(a.first_frame)),
                frames: Some(f64::from(a.num_frames)),
                seconds: (a.fps > 0.0).then(|| a.num_frames as f32 / a.fps),
            })
            .collect()
    }

    /// The skin sets beside an MD3 ([`crate::md3::skin_sets`]; empty for
    /// other formats).
    pub fn skin_sets(&self) -> Vec<String> {
        if self.md3.is_none() {
            return Vec::new();
        }
        crate::md3::skin_sets(&self.files, &self.path)
    }

    /// The skin set asked for (`None`: `default`).
    pub fn skin_set(&self) -> Option<&str> {
        self.skin_set.as_deref()
    }

    /// Whether the model is a Quake III player's `lower.md3` shown with
    /// its upper body and head.
    pub fn is_md3_player(&self) -> bool {
        self.md3.as_ref().is_some_and(|c| c.player.is_some())
    }

    /// Every problem, as `retromodel validate` finds them.
    pub fn problems(&self) -> Vec<ProblemEntry> {
        self.model
            .validate()
            .into_iter()
            .map(|p| ProblemEntry {
                severity: p.severity.to_string(),
                text: p.to_string(),
                path: p.path,
                message: p.message,
                offset: p.offset,
            })
            .collect()
    }

    /// The skins an MD2 names and the dropped files they stand for (empty
    /// for other formats).
    pub fn skins(&self) -> Vec<SkinEntry> {
        if let Model::Mdl(mdl) = &self.model {
            return mdl_skin_names(mdl)
                .into_iter()
                .map(|name| SkinEntry {
                    name,
                    file: None,
                    error: None,
                    embedded: true,
                })
                .collect();
        }
        let Model::Md2(md2) = &self.model else {
            return Vec::new();
        };
        md2.skins
            .iter()
            .map(|s| {
                let name = s.to_string_lossy();
                match self.files.load(&name) {
                    Ok(found) => SkinEntry {
                        name,
                        file: Some(found.path.to_string_lossy().into_owned()),
                        error: None,
                        embedded: false,
                    },
                    Err(e) => SkinEntry {
                        name,
                        file: None,
                        error: Some(e.to_string()),
                        embedded: false,
                    },
                }
            })
            .collect()
    }

    /// Skin `index` of an MD2, found among the dropped files and decoded,
    /// as PNG (for the page to swap skins).
    pub fn skin_png(&self, index: usize) -> Result<Vec<u8>, String> {
        if let Model::Mdl(mdl) = &self.model {
            return crate::quake::mdl_skin_png(mdl, index, &self.files);
        }
        let Model::Md2(md2) = &self.model else {
            return Err(format!("{} is not an MD2 or MDL: no skins", self.file_name));
        };
        let name = md2
            .skins
            .get(index)
            .ok_or_else(|| format!("no skin {index}: the model names {}", md2.skins.len()))?
            .to_string_lossy();
        let found = self.files.load(&name).map_err(|e| e.to_string())?;
        let image = decode(&found.bytes).map_err(|e| format!("{name}: {e}"))?;
        image.to_png().map_err(|e| format!("{name}: {e}"))
    }

    /// The dropped files that look like images (by extension), the
    /// model's folder first: candidates for `--skin`.
    pub fn images(&self) -> Vec<String> {
        let dir = match self.path.rsplit_once(['/', '\\']) {
            Some((dir, _)) => format!("{}/", dir.replace('\\', "/")),
            None => String::new(),
        };
        let mut images: Vec<String> = self
            .files
            .paths()
            .filter(|p| {
                p.rsplit_once('.').is_some_and(|(_, ext)| {
                    IMAGE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
                })
            })
            .collect();
        images.sort_by_key(|p| {
            let beside = p.starts_with(&dir) && !p[dir.len()..].contains('/');
            (!beside, p.clone())
        });
        images
    }

    /// The image to give as `--skin` when the model would come out
    /// untextured although images were dropped: the first of
    /// [`images`](Self::images). `None` when it is textured without one.
    /// Worked out once (the textures found and decoded, not encoded).
    /// `None` for a Quake III player or an MD3 with a `.skin` file: those
    /// name their textures, and one image over every part (a player's
    /// `icon_default.tga`, say) would hide which texture is missing.
    pub fn suggested_skin(&self) -> Option<String> {
        self.suggested_skin
            .get_or_init(|| {
                if self
                    .md3
                    .as_ref()
                    .is_some_and(|c| c.player.is_some() || c.skin.is_some())
                {
                    return None;
                }
                let first = self.images().into_iter().next()?;
                let decoded = self.decoded_scene(&ConvertOptions::default()).ok()?;
                (!decoded.textured()).then_some(first)
            })
            .clone()
    }

    /// Converts the model to `format` (`glb`, `gltf`, `obj`, `md2`,
    /// `ms3d`) as `retromodel convert MODEL STEM.EXT` does with the
    /// options' flags and the dropped files as the model's folder. With
    /// `auto_skin`, when no `skin` is given and the model would be
    /// untextured, the [suggested skin](Self::suggested_skin) is given as
    /// `--skin`.
    pub fn convert(
        &self,
        format: &str,
        options: &WebOptions,
        auto_skin: bool,
    ) -> Result<Output, String> {
        let format = OutputFormat::from_extension(format).ok_or_else(|| {
            format!("cannot write .{format} files (supported: .glb, .gltf, .obj, .md2, .ms3d)")
        })?;
        let mut options = options.clone();
        // `--skin` applies to what is made from a scene: not to an MS3D, nor
        // to an MD2 rewritten as it is.
        let rewrite_md2 = format == OutputFormat::Md2
            && matches!(self.model, Model::Md2(_))
            && options.to_convert_options(&self.files)?.compile.is_none();
        if auto_skin && options.skin.is_none() && format != OutputFormat::Ms3d && !rewrite_md2 {
            options.skin = self.suggested_skin();
        }
        let convert_options = options.to_convert_options(&self.files)?;
        let main = format!("{}.{}", self.stem(), format.extension());
        let mut converter = Converter::new(&convert_options).with_textures(&self.files);
        if let Some(companions) = &self.md3 {
            converter = converter.with_md3_companions(companions);
        }
        let conversion = converter
            .convert(&self.bytes, &self.file_name, format, &main)
            .map_err(|e| format!("{}: {e}", self.file_name))?;
        let files = conversion
            .files()
            .map_err(|e| format!("{}: cannot export: {e}", self.file_name))?
            .iter()
            .map(|f| (f.name.clone(), f.to_vec()))
            .collect();
        Ok(Output {
            files,
            warnings: conversion.warnings().iter().map(warning_entry).collect(),
            report: conversion.compile_report().cloned(),
            skin: options.skin,
        })
    }

    /// A copy of the scene `make` makes for `options` (before attaching
    /// textures), made only when the
    /// last call was not for the same options (reading the model and
    /// building its scene is most of a conversion's time: the page asks
    /// for the same scene to suggest a skin and to draw the model).
    pub fn bare_scene(
        &self,
        options: &ConvertOptions,
        make: impl FnOnce() -> Result<(Scene, Vec<Warning>), String>,
    ) -> Result<(Scene, Vec<Warning>), String> {
        let mut bare = self.bare.borrow_mut();
        match &*bare {
            Some((made_for, scene)) if made_for == options => scene.clone(),
            _ => {
                let scene = make();
                *bare = Some((options.clone(), scene.clone()));
                scene
            }
        }
    }

    /// [`bare_scene`](Self::bare_scene), taking the scene out of the
    /// session instead of copying it (for its last use: drawing it).
    pub fn take_bare_scene(
        &self,
        options: &ConvertOptions,
        make: impl FnOnce() -> Result<(Scene, Vec<Warning>), String>,
    ) -> Result<(Scene, Vec<Warning>), String> {
        match self.bare.borrow_mut().take() {
            Some((made_for, scene)) if &made_for == options => scene,
            _ => make(),
        }
    }

    /// The scene the converter makes with `options` for a GLB, textures
    /// decoded but not encoded as PNG ([`crate::decoded`]); its bare scene
    /// kept for the next call with the same options.
    pub fn decoded_scene(&self, options: &ConvertOptions) -> Result<DecodedScene, String> {
        decoded_scene(&self.scene_input(), options, |skinless, make| {
            self.bare_scene(skinless, make)
        })
    }

    /// [`decoded_scene`](Self::decoded_scene), taking the session's copy
    /// of the bare scene, not copying it (for its last use: drawing it).
    pub fn decoded_scene_taken(&self, options: &ConvertOptions) -> Result<DecodedScene, String> {
        decoded_scene(&self.scene_input(), options, |skinless, make| {
            self.take_bare_scene(skinless, make)
        })
    }

    /// What the scene is decoded from.
    fn scene_input(&self) -> SceneInput<'_> {
        SceneInput {
            files: self.files(),
            file_name: self.file_name(),
            bytes: self.bytes(),
            named_like_model: self.model().format().skin_named_like_model(),
            md3: self.md3.as_ref(),
        }
    }

    /// The dropped files.
    pub fn files(&self) -> &MemorySource {
        &self.files
    }

    /// The model file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// The rate an IQM animation plays at: its own, or the library's default
/// for a rate of 0 or not a number ([`retromodel::iqm::DEFAULT_FPS`], as
/// the scene lifts it).
fn iqm_fps(fps: f32) -> f32 {
    if fps.is_finite() && fps > 0.0 {
        fps
    } else {
        retromodel::iqm::DEFAULT_FPS
    }
}

/// An MDL's skin images by name: `skin 1`, or `skin 2, image 3 of 4` for
/// the images of an animated skin (numbered from 1, as a modder counts).
fn mdl_skin_names(mdl: &retromodel::mdl::Mdl) -> Vec<String> {
    let mut names = Vec::new();
    for (i, skin) in mdl.skins.iter().enumerate() {
        match skin {
            retromodel::mdl::Skin::Single(_) => names.push(format!("skin {}", i + 1)),
            retromodel::mdl::Skin::Group { images, .. } => {
                let n = images.len();
                names.extend((1..=n).map(|k| format!("skin {}, image {k} of {n}", i + 1)));
            }
        }
    }
    names
}

/// A conversion warning for the page, with its kind.
pub fn warning_entry(w: &Warning) -> WarningEntry {
    let kind = match w {
        Warning::Texture(TextureWarning::NoSkin { .. }) => "no_skin",
        Warning::Texture(TextureWarning::Unresolved { .. }) => "texture_missing",
        Warning::Texture(TextureWarning::Undecodable { .. }) => "texture_undecodable",
        Warning::Texture(TextureWarning::UserSkin { .. }) => "user_skin",
        Warning::Texture(_) => "texture",
        Warning::Read(_) => "read",
        Warning::Compile(_) => "compile",
        _ => "other",
    };
    let hint = if kind == "no_skin" {
        " (drop an image with it to use as its skin)"
    } else {
        ""
    };
    WarningEntry {
        kind,
        message: format!("{w}{hint}"),
    }
}
