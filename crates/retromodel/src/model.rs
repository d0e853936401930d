//! One entry point over every format: [`Model`] detects what bytes hold,
//! reads them, and forwards validation, writing, summaries and the
//! mapping to a [`Scene`](crate::scene::Scene), so that callers never
//! match on formats.

use std::fmt;

use crate::error::{Error, Result};
use crate::format::Format;
use crate::md2::Md2;
use crate::ms3d::{Clip, Ms3d};
use crate::problem::Problem;

mod rerelease;

/// A model of any format this crate reads.
///
/// ```
/// use retromodel::{Format, Model};
///
/// # fn main() -> Result<(), retromodel::Error> {
/// let bytes = retromodel::md2::sample::sample_model().to_bytes()?;
/// let model = Model::from_bytes(&bytes)?;
/// assert_eq!(model.format(), Format::Md2);
/// assert!(model.validate().is_empty());
/// assert_eq!(model.to_bytes()?, bytes);
/// println!("{}", model.info(&bytes, &[]));
/// # Ok(()) }
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    /// A Quake II MD2 model.
    Md2(Md2),
    /// A Quake MDL model (or Hexen II's, QuakeForge's 16-bit, QTest's).
    Mdl(crate::mdl::Mdl),
    /// A Quake III MD3 model.
    Md3(crate::md3::Md3),
    /// A MilkShape 3D model.
    Ms3d(Ms3d),
    /// A MilkShape 3D ASCII model (or one part of a split one: meshes,
    /// materials or bones alone).
    Ms3dAscii(crate::ms3d::ascii::AsciiModel),
    /// An id Tech 4 MD5 model: an md5mesh with the md5anims read beside it.
    Md5(crate::md5::Md5Model),
    /// An Inter-Quake Model.
    Iqm(crate::iqm::Iqm),
    /// A model of a format read straight into a scene (glTF, OBJ).
    #[cfg(feature = "scene")]
    Imported(Box<Imported>),
}

/// A model read straight into a [`Scene`](crate::scene::Scene): glTF or
/// OBJ, which this crate reads but does not write back as such.
#[cfg(feature = "scene")]
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The format it was read from.
    pub format: Format,
    /// The scene.
    pub scene: crate::scene::Scene,
    /// What the reader passed over (a texture it could not load ...).
    pub warnings: Vec<Problem>,
}

/// Where a model's other files come from: the name of the model file and
/// a source for the files it names (a glTF's buffers and images, an OBJ's
/// material library and textures, confined by the source). MD2 and MS3D
/// need neither.
#[derive(Clone, Copy, Default)]
pub struct ReadContext<'a> {
    /// The model's file name (`walker.obj`), naming the scene.
    pub file_name: &'a str,
    /// Finds the files the model names (features `textures` or `gltf`).
    #[cfg(any(feature = "textures", feature = "gltf"))]
    pub resources: Option<&'a dyn crate::texture::TextureSource>,
}

impl fmt::Debug for ReadContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadContext")
            .field("file_name", &self.file_name)
            .finish_non_exhaustive()
    }
}

impl Model {
    /// Reads `bytes` as whichever format they hold ([`Format::detect`]),
    /// without access to other files (a `.gltf`'s external buffers or an
    /// OBJ's materials are then missing; see [`Model::read_with`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        Model::read_with(bytes, &ReadContext::default())
    }

    /// Reads `bytes` as whichever format they hold, finding the files the
    /// model names through `context`.
    pub fn read_with(bytes: &[u8], context: &ReadContext) -> Result<Model> {
        Model::read(Format::detect(bytes)?, bytes, context)
    }

    /// Reads `bytes` as `format`.
    pub fn read(format: Format, bytes: &[u8], context: &ReadContext) -> Result<Model> {
        let _ = context;
        match format {
            Format::Md2 => Ok(Model::Md2(Md2::from_bytes(bytes)?)),
            Format::Mdl => Ok(Model::Mdl(crate::mdl::Mdl::from_bytes(bytes)?)),
            Format::Md3 => Ok(Model::Md3(crate::md3::Md3::from_bytes(bytes)?)),
            Format::Ms3d => Ok(Model::Ms3d(Ms3d::from_bytes(bytes)?)),
            Format::Ms3dAscii => Ok(Model::Ms3dAscii(crate::ms3d::ascii::AsciiModel::parse(
                bytes,
            )?)),
            Format::Md5 => Ok(Model::Md5(read_md5(bytes, context)?)),
            Format::Iqm => Ok(Model::Iqm(read_iqm(bytes, context)?)),
            Format::Iqe => Ok(Model::Iqm(crate::iqm::iqe::Iqe::parse(bytes)?.to_iqm()?)),
            #[cfg(feature = "gltf")]
            Format::Gltf => {
                Model::read_gltf(bytes, context, &crate::gltf::ImportOptions::default())
            }
            #[cfg(all(feature = "scene", feature = "textures"))]
            Format::Obj => {
                let import = crate::obj::import_obj(bytes, context.file_name, context.resources)?;
                Ok(Model::Imported(Box::new(Imported {
                    format,
                    scene: import.scene,
                    warnings: import.warnings,
                })))
            }
            #[allow(unreachable_patterns)] // every format is readable with all features
            other => Err(Error::NotBuiltIn {
                format: other,
                features: match other {
                    Format::Gltf => "`gltf` and `textures`",
                    _ => "`scene` and `textures`",
                },
            }),
        }
    }

    /// The model's format.
    pub fn format(&self) -> Format {
        match self {
            Model::Md2(_) => Format::Md2,
            Model::Mdl(_) => Format::Mdl,
            Model::Md3(_) => Format::Md3,
            Model::Ms3d(_) => Format::Ms3d,
            Model::Ms3dAscii(_) => Format::Ms3dAscii,
            Model::Md5(_) => Format::Md5,
            Model::Iqm(_) => Format::Iqm,
            #[cfg(feature = "scene")]
            Model::Imported(i) => i.format,
        }
    }

    /// Every problem in the model, with a path and a byte offset (see
    /// [`Md2::validate`], [`Ms3d::validate`]).
    pub fn validate(&self) -> Vec<Problem> {
        match self {
            Model::Md2(m) => m.validate(),
            Model::Mdl(m) => m.validate(),
            Model::Md3(m) => m.validate(),
            Model::Ms3d(m) => m.validate(),
            Model::Ms3dAscii(m) => m.validate(),
            Model::Md5(m) => m.validate(),
            Model::Iqm(m) => m.validate(),
            #[cfg(feature = "scene")]
            Model::Imported(i) => i.warnings.clone(),
        }
    }

    /// Every problem in the model as `engine` sees it: for an MD2, whether
    /// it loads in that engine ([`Md2::validate_for`], which says so when
    /// the engine loads no MD2); for an MD5 and the Quake rerelease,
    /// Ironwail or vkQuake, its own problems and what those ports require
    /// of a replacement (`mdl::rerelease::check_md5`); for an IQM and an
    /// engine that loads IQM, that engine's loader's problems
    /// ([`Iqm::validate_for`](crate::iqm::Iqm::validate_for)) and then
    /// its own; any other format is one error naming what the engine
    /// loads.
    pub fn validate_for(&self, engine: crate::md2::Engine) -> Vec<Problem> {
        match self {
            Model::Md2(m) => m.validate_for(engine),
            // The engine's own rules first; then the structural problems
            // `validate` finds that the engine check did not already
            // report at the same place (a skin width both flag, say).
            Model::Mdl(m) => {
                let mut problems = m.validate_for(engine);
                let seen: std::collections::HashSet<String> =
                    problems.iter().map(|p| p.path.clone()).collect();
                problems.extend(m.validate().into_iter().filter(|p| !seen.contains(&p.path)));
                problems
            }
            // GZDoom refuses no MD3: its own checks, then the model's
            // problems as warnings (what GZDoom would read wrong).
            Model::Md3(m) if engine == crate::Engine::Gzdoom => {
                let mut problems = m.validate_for_gzdoom();
                let seen: Vec<String> = problems.iter().map(|p| p.path.clone()).collect();
                problems.extend(
                    m.validate()
                        .into_iter()
                        .filter(|p| !seen.iter().any(|s| p.path.starts_with(s.as_str())))
                        .map(|p| Problem {
                            severity: crate::problem::Severity::Warning,
                            ..p
                        }),
                );
                problems
            }
            // The engine's limits, then the model's own problems.
            Model::Md3(m) => {
                let mut problems = m.validate_for(engine);
                let refused = problems
                    .iter()
                    .any(|p| p.path == "format" && p.severity == crate::problem::Severity::Error);
                if !refused {
                    let seen: std::collections::HashSet<String> =
                        problems.iter().map(|p| p.path.clone()).collect();
                    problems.extend(m.validate().into_iter().filter(|p| !seen.contains(&p.path)));
                }
                problems
            }
            // An engine that loads IQM: its loader's rules first
            // (`Iqm::validate_for`, which says what the engine refuses),
            // then the model's own problems not already reported at or
            // below the same place, as warnings: a profile refuses only
            // what its engine refuses (ioquake3's own `R_LoadIQM`, built
            // from its source, loads a triangle index equal to the vertex
            // count, which `validate` alone calls an error:
            // tools/engine_loaders/iqm_run.sh).
            Model::Iqm(m) if engine.loads(crate::EngineFormat::Iqm) => {
                let mut problems = m.validate_for(engine);
                let seen: Vec<String> = problems.iter().map(|p| p.path.clone()).collect();
                let covered = |path: &str| {
                    seen.iter().any(|s| {
                        path == s
                            || path.starts_with(&format!("{s}."))
                            || path.starts_with(&format!("{s}["))
                    })
                };
                problems.extend(
                    m.validate()
                        .into_iter()
                        .filter(|p| !covered(&p.path))
                        .map(|p| Problem {
                            severity: crate::problem::Severity::Warning,
                            ..p
                        }),
                );
                problems
            }
            // The Quake rerelease's MD5 replacement, without its MDL.
            Model::Md5(m)
                if matches!(
                    engine,
                    crate::Engine::QuakeRerelease
                        | crate::Engine::Ironwail
                        | crate::Engine::Vkquake
                ) =>
            {
                let mut problems = m.validate();
                problems.extend(crate::mdl::rerelease::check_md5(m, None));
                problems
            }
            other => vec![Problem {
                severity: crate::problem::Severity::Error,
                path: "format".to_string(),
                message: if crate::Engine::MD2.contains(&engine) {
                    format!(
                        "{} is not MD2: {} loads MD2 models (convert it to .md2 first)",
                        other.format(),
                        engine.title()
                    )
                } else {
                    format!(
                        "{} models are not checked against {} here (it loads {})",
                        other.format(),
                        engine.title(),
                        engine.formats_list()
                    )
                },
                offset: None,
            }],
        }
    }

    /// Every problem in the model, and whether MilkShape 3D 1.8 loads it:
    /// for an MS3D (or a MilkShape ASCII model, as the MS3D it makes), its
    /// own problems and [`Ms3d::validate_for_milkshape`]'s; any other
    /// format is one error saying MilkShape loads MS3D files.
    ///
    /// [`Ms3d::validate_for_milkshape`]: crate::ms3d::Ms3d::validate_for_milkshape
    pub fn validate_for_milkshape(&self) -> Vec<Problem> {
        let mut problems = self.validate();
        match self {
            Model::Ms3d(m) => problems.extend(m.validate_for_milkshape()),
            Model::Ms3dAscii(a) => {
                if let Ok(m) = a.to_ms3d() {
                    problems.extend(m.validate_for_milkshape());
                }
            }
            other => {
                problems = vec![Problem {
                    severity: crate::problem::Severity::Error,
                    path: "format".to_string(),
                    message: format!(
                    "{} is not MS3D: MilkShape 3D loads MS3D models (convert it to .ms3d first)",
                    other.format()
                ),
                    offset: None,
                }]
            }
        }
        problems
    }

    /// The model in its own format: the bytes it was read from, for a
    /// model read from a file. Fails for formats read into a scene (glTF,
    /// OBJ), which are exported instead.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        match self {
            Model::Md2(m) => m.to_bytes(),
            Model::Mdl(m) => m.to_bytes(),
            Model::Md3(m) => m.to_bytes_with(crate::md3::Layout::Original),
            Model::Ms3d(m) => m.to_bytes(),
            Model::Ms3dAscii(m) => Ok(m.to_bytes()),
            Model::Iqm(m) => m.to_bytes(),
            Model::Md5(_) => Err(Error::Unconvertible {
                from: Format::Md5,
                to: "md5mesh",
            }),
            #[cfg(feature = "scene")]
            Model::Imported(i) => Err(Error::Unconvertible {
                from: i.format,
                to: i.format.extensions()[0],
            }),
        }
    }

    /// A summary of the model; `bytes` is the file it was read from (for
    /// its size and layout), `clips` named ranges of a timeline to measure
    /// (formats without a timeline ignore them).
    pub fn info(&self, bytes: &[u8], clips: &[Clip]) -> Info {
        match self {
            Model::Md2(m) => Info::Md2(m.info(bytes)),
            Model::Mdl(m) => Info::Mdl(m.info(bytes)),
            Model::Md3(m) => Info::Md3(m.info(bytes)),
            Model::Ms3d(m) => Info::Ms3d(m.info(clips)),
            Model::Ms3dAscii(m) => match m.to_ms3d() {
                Ok(binary) => {
                    let mut info = binary.info(clips);
                    info.format = "ms3d_ascii";
                    info.warnings = m.validate().iter().map(ToString::to_string).collect();
                    Info::Ms3d(info)
                }
                Err(e) => Info::Ms3d(crate::ms3d::Ms3d::default().info(&[]).with_error(e)),
            },
            Model::Md5(m) => Info::Md5(m.info(bytes)),
            Model::Iqm(m) => Info::Iqm(m.info(bytes)),
            #[cfg(feature = "scene")]
            Model::Imported(i) => {
                let format = i.format.extensions()[0];
                Info::Scene(crate::scene::SceneInfo::new(
                    format,
                    &i.scene,
                    bytes,
                    &i.warnings,
                ))
            }
        }
    }

    /// The format-neutral scene of the model (see
    /// [`Scene::from_md2`](crate::scene::Scene::from_md2) and
    /// [`Scene::from_ms3d`](crate::scene::Scene::from_ms3d)).
    #[cfg(feature = "scene")]
    pub fn to_scene(&self, options: &crate::scene::SceneOptions) -> Result<crate::scene::Scene> {
        use crate::md2::Md2SceneOptions;
        use crate::ms3d::Ms3dSceneOptions;
        use crate::scene::Scene;
        let name = |default: &str| {
            if options.name.is_empty() {
                default.to_string()
            } else {
                options.name.clone()
            }
        };
        match self {
            Model::Md2(m) => {
                let defaults = Md2SceneOptions::default();
                let o = Md2SceneOptions {
                    fps: options.fps.unwrap_or(defaults.fps),
                    close_loops: options.close_loops,
                    name: name(&defaults.name),
                };
                Ok(Scene::from_md2(m, &o))
            }
            Model::Ms3d(m) => {
                let defaults = Ms3dSceneOptions::default();
                let o = Ms3dSceneOptions {
                    name: name(&defaults.name),
                    clips: options.clips.clone(),
                    ..defaults
                };
                Scene::from_ms3d(m, &o)
            }
            Model::Ms3dAscii(m) => {
                let defaults = Ms3dSceneOptions::default();
                let o = Ms3dSceneOptions {
                    name: name(&defaults.name),
                    clips: options.clips.clone(),
                    ..defaults
                };
                Scene::from_ms3d(&m.to_ms3d()?, &o)
            }
            Model::Md5(m) => m.to_scene(&name("md5")),
            Model::Iqm(m) if m.is_animation_only() => Err(iqm_animations_only(m)),
            Model::Iqm(m) => Scene::from_iqm(m, &name("iqm")),
            Model::Mdl(m) => {
                let defaults = crate::mdl::MdlSceneOptions::default();
                let o = crate::mdl::MdlSceneOptions {
                    fps: options.fps.unwrap_or(defaults.fps),
                    close_loops: options.close_loops,
                    name: name(&defaults.name),
                    palette: options.palette.clone(),
                };
                Scene::from_mdl(m, &o)
            }
            Model::Md3(m) => {
                let defaults = crate::md3::Md3SceneOptions::default();
                let o = crate::md3::Md3SceneOptions {
                    fps: options.fps.unwrap_or(defaults.fps),
                    name: name(&defaults.name),
                    ..defaults.clone()
                };
                Scene::from_md3(m, &o)
            }
            Model::Imported(i) => {
                let mut scene = i.scene.clone();
                if !options.name.is_empty() {
                    scene.name = options.name.clone();
                }
                Ok(scene)
            }
        }
    }

    /// [`Model::to_scene`], taking the model: a scene read from glTF or
    /// OBJ is moved out rather than copied (for a glTF of 198 morph
    /// targets, megabytes of positions and normals).
    #[cfg(feature = "scene")]
    pub fn into_scene(self, options: &crate::scene::SceneOptions) -> Result<crate::scene::Scene> {
        match self {
            Model::Imported(i) => {
                let mut scene = i.scene;
                if !options.name.is_empty() {
                    scene.name = options.name.clone();
                }
                Ok(scene)
            }
            other => other.to_scene(options),
        }
    }

    /// Whether the model's animation is one timeline that clips cut
    /// (MS3D), rather than named animations of its own (MD2).
    pub fn has_timeline(&self) -> bool {
        matches!(self, Model::Ms3d(_) | Model::Ms3dAscii(_))
    }
}

/// A summary of a model, per format ([`Model::info`]). `Display` gives the
/// text report; with feature `serde` it serialises to the JSON object
/// `retromodel info --json` prints.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum Info {
    /// An MD2 summary.
    Md2(crate::md2::Info),
    /// An MDL summary.
    Mdl(crate::mdl::Info),
    /// An MD3 summary.
    Md3(crate::md3::Info),
    /// An MS3D summary.
    Ms3d(crate::ms3d::Info),
    /// An MD5 summary.
    Md5(crate::md5::Info),
    /// An IQM summary.
    Iqm(crate::iqm::Info),
    /// The summary of a model read into a scene (glTF, OBJ).
    #[cfg(feature = "scene")]
    Scene(crate::scene::SceneInfo),
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Info::Md2(i) => i.fmt(f),
            Info::Mdl(i) => i.fmt(f),
            Info::Md3(i) => i.fmt(f),
            Info::Ms3d(i) => i.fmt(f),
            Info::Md5(i) => i.fmt(f),
            Info::Iqm(i) => i.fmt(f),
            #[cfg(feature = "scene")]
            Info::Scene(i) => i.fmt(f),
        }
    }
}

#[cfg(feature = "gltf")]
impl Model {
    /// Reads `bytes` as glTF with `options` (the scene named after the
    /// file when the document names none).
    pub(crate) fn read_gltf(
        bytes: &[u8],
        context: &ReadContext,
        options: &crate::gltf::ImportOptions,
    ) -> Result<Model> {
        let import = crate::gltf::import(bytes, context.resources, options)?;
        let mut scene = import.scene;
        if scene.name.is_empty() {
            scene.name = stem_of(context.file_name);
        }
        Ok(Model::Imported(Box::new(Imported {
            format: Format::Gltf,
            scene,
            warnings: import.warnings,
        })))
    }
}

/// An md5mesh and, through `context`'s file source, the md5anim named
/// like it (`tris.md5mesh` → `tris.md5anim`, as the rerelease loads it:
/// Q2PRO `src/refresh/models.c`, `MOD_LoadMD5`) with its `.md5scale`.
/// A missing md5anim is no error; one that does not parse is.
fn read_md5(bytes: &[u8], context: &ReadContext) -> Result<crate::md5::Md5Model> {
    #[allow(unused_mut)]
    let mut model = crate::md5::Md5Model::from_mesh_bytes(bytes)?;
    #[cfg(any(feature = "textures", feature = "gltf"))]
    if let Some(source) = context.resources {
        let stem = std::path::Path::new(context.file_name)
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        if !stem.is_empty() {
            if let Ok(anim) = source.load_resource(&format!("{stem}.md5anim")) {
                let scale = source.load_resource(&format!("{stem}.md5scale")).ok();
                model.add_animation(
                    &stem,
                    &anim.bytes,
                    scale.as_ref().map(|s| s.bytes.as_slice()),
                )?;
            }
        }
    }
    #[cfg(not(any(feature = "textures", feature = "gltf")))]
    let _ = context;
    Ok(model)
}

/// Why an IQM of animations only (raylib's `guyanim.iqm`: poses and
/// frames, no mesh, maybe no joints) makes no scene: its animations play
/// on a model with the same joints (raylib's `LoadModelAnimations`, FTE
/// and GZDoom apply such a file to one), and alone there is nothing to
/// draw nor any joint to key.
#[cfg(feature = "scene")]
fn iqm_animations_only(m: &crate::iqm::Iqm) -> Error {
    let names: Vec<String> = m.anims.iter().map(|a| m.name(a.name)).collect();
    Error::unwritable(
        "meshes",
        format!(
            "the file holds animations only ({} animation{}: {}; {} poses, no mesh): they need \
             a model with the same joints to play on; convert that model instead",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(", "),
            m.poses.len(),
        ),
    )
}

/// An IQM and, through `context`'s file source, DarkPlaces'
/// `FILE_NAME.framegroups` beside it (the model's full file name plus
/// `.framegroups`: `model_shared.c`, `Mod_LoadModel`), whose groups
/// replace the model's animations ([`Iqm::apply_framegroups`]).
/// `Model::Iqm` has no place for reading's warnings, so a framegroups
/// file that draws any (a line DarkPlaces skips, a group that does not
/// fit the frames, no group at all) is left out entirely; call
/// [`Iqm::apply_framegroups`] to see why.
///
/// [`Iqm::apply_framegroups`]: crate::iqm::Iqm::apply_framegroups
fn read_iqm(bytes: &[u8], context: &ReadContext) -> Result<crate::iqm::Iqm> {
    #[allow(unused_mut)]
    let mut model = crate::iqm::Iqm::from_bytes(bytes)?;
    #[cfg(any(feature = "textures", feature = "gltf"))]
    if let Some(source) = context.resources {
        let name = std::path::Path::new(context.file_name)
            .file_name()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        if !name.is_empty() {
            if let Ok(groups) = source.load_resource(&format!("{name}.framegroups")) {
                let mut with = model.clone();
                if with.apply_framegroups(&groups.bytes).is_empty() {
                    model = with;
                }
            }
        }
    }
    #[cfg(not(any(feature = "textures", feature = "gltf")))]
    let _ = context;
    Ok(model)
}

/// The file name without its last extension.
#[cfg(feature = "gltf")]
fn stem_of(file_name: &str) -> String {
    std::path::Path::new(file_name)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}
