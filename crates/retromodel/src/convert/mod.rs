//! One conversion, from the bytes of a model file to the bytes of every
//! file to write: what `retromodel convert` does, for any front end (the
//! command line, a web page, a script) to call (feature `scene`).
//!
//! The front end reads the input and supplies a [`TextureSource`]
//! (feature `textures`) for the textures the model names; the library
//! detects the format, reads the model, checks the options, builds the
//! scene, attaches the textures, poses it where the output holds one
//! pose, and plans the output files. The front end then writes each
//! [`OutputFile`] where it wants (the command line: atomically, beside
//! the output it was asked for, never over an existing file without
//! `--force`).
//!
//! ```
//! use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let md2 = retromodel::md2::sample::sample_model().to_bytes()?;
//! let options = ConvertOptions::default();
//! let conversion = Converter::new(&options).convert(&md2, "sample.md2", OutputFormat::Obj, "sample.obj")?;
//! let files = conversion.files()?;
//! let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
//! assert_eq!(names, ["sample.mtl", "sample.obj"]); // the main file last
//! let obj = files[1].to_vec();
//! assert!(obj.starts_with(b"# retromodel OBJ export: sample"));
//! # Ok(()) }
//! ```
//!
//! [`TextureSource`]: crate::texture::TextureSource

mod iqm;
mod md3;
mod md5;
#[cfg(feature = "textures")]
mod mdl;
mod options;
mod outputs;
#[cfg(feature = "textures")]
mod palette;
#[cfg(feature = "textures")]
mod prepare;
mod rewrite;
mod warning;

pub use crate::md2::compile::CompileOptions;
pub use crate::option_problem::{ConvertOption, OptionProblem};
pub use options::{ConvertOptions, OutputFormat};
pub use outputs::OutputFile;
#[cfg(feature = "textures")]
pub use palette::QUAKE_PALETTE_PATH;
#[cfg(feature = "textures")]
pub use prepare::{prepare_md3_scene, prepare_scene, prepare_scene_with_palette, Prepared};
pub use warning::Warning;

use std::path::Path;

use crate::error::{Error, Result};
use crate::md2::compile::CompileReport;
use crate::md2::RepairReport;
use crate::model::{Model, ReadContext};
use crate::ms3d::compile::Ms3dCompileReport;
use crate::obj::{apply_morph_target, apply_pose};
use crate::scene::{Pose, Scene, SceneOptions};
use outputs::Plan;

/// Runs conversions with one set of options (and, with feature
/// `textures`, one texture source).
#[derive(Clone, Copy)]
pub struct Converter<'a> {
    options: &'a ConvertOptions,
    /// The materials and bones files of a split MilkShape ASCII model.
    ascii_parts: (Option<&'a [u8]>, Option<&'a [u8]>),
    /// More md5anims for an md5mesh input.
    md5_animations: &'a [crate::md5::AnimationFile],
    /// IQM files whose animations play on an IQM input: names and bytes.
    iqm_animations: &'a [(String, Vec<u8>)],
    /// The files beside an MD3 input (`animation.cfg`, `.skin`, a
    /// player's other parts).
    md3_companions: Option<&'a crate::md3::Md3Companions>,
    #[cfg(feature = "textures")]
    textures: Option<&'a dyn crate::texture::TextureSource>,
}

impl std::fmt::Debug for Converter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Converter")
            .field("options", self.options)
            .finish_non_exhaustive()
    }
}

/// A finished conversion: the files to write and what the user should
/// know.
#[derive(Debug, Clone)]
pub struct Conversion {
    plan: Plan,
    warnings: Vec<Warning>,
    repair: Option<RepairReport>,
    report: Option<CompileReport>,
    ms3d_report: Option<Ms3dCompileReport>,
    mdl_repair: Option<crate::mdl::RepairReport>,
    #[cfg(feature = "textures")]
    mdl_report: Option<crate::mdl::compile::CompileReport>,
    md3_report: Option<crate::md3::compile::CompileReport>,
    md3_player_report: Option<crate::md3::compile::PlayerReport>,
    iqm_report: Option<crate::iqm::compile::IqmReport>,
}

impl Conversion {
    /// A conversion that writes `plan`'s files, with `warnings` and no
    /// report (the compilers add theirs).
    fn of_plan(plan: Plan, warnings: Vec<Warning>) -> Conversion {
        Conversion {
            plan,
            warnings,
            repair: None,
            report: None,
            ms3d_report: None,
            mdl_repair: None,
            #[cfg(feature = "textures")]
            mdl_report: None,
            md3_report: None,
            md3_player_report: None,
            iqm_report: None,
        }
    }
}

impl<'a> Converter<'a> {
    /// A converter with `options` and no texture source (models convert
    /// untextured).
    pub fn new(options: &'a ConvertOptions) -> Self {
        Converter {
            options,
            ascii_parts: (None, None),
            md5_animations: &[],
            iqm_animations: &[],
            md3_companions: None,
            #[cfg(feature = "textures")]
            textures: None,
        }
    }

    /// Finds the textures models name through `source` (for files:
    /// [`TextureResolver`](crate::texture::TextureResolver), confined to
    /// the model's folder and the search roots).
    #[cfg(feature = "textures")]
    pub fn with_textures(mut self, source: &'a dyn crate::texture::TextureSource) -> Self {
        self.textures = Some(source);
        self
    }

    /// For a MilkShape ASCII meshes file: its materials and bones files (as
    /// StepMania splits a model), combined with it before converting
    /// ([`AsciiModel::combine`](crate::ms3d::ascii::AsciiModel::combine)).
    pub fn with_ascii_parts(
        mut self,
        materials: Option<&'a [u8]>,
        bones: Option<&'a [u8]>,
    ) -> Self {
        self.ascii_parts = (materials, bones);
        self
    }

    /// For an md5mesh: more md5anims to play on it, after the one named
    /// like the mesh (each an animation of the output). Other inputs
    /// refuse them.
    pub fn with_md5_animations(mut self, files: &'a [crate::md5::AnimationFile]) -> Self {
        self.md5_animations = files;
        self
    }

    /// For an IQM: IQM files (an animation-only one such as raylib's
    /// `guyanim.iqm`, or any of the same skeleton) whose animations play
    /// after its own ([`Iqm::add_animations`](crate::iqm::Iqm::add_animations)),
    /// each given as its name and bytes. Other inputs refuse them.
    pub fn with_iqm_animations(mut self, files: &'a [(String, Vec<u8>)]) -> Self {
        self.iqm_animations = files;
        self
    }

    /// For an MD3: the files beside it that shape its scene (an
    /// `animation.cfg`, a `.skin`, or a player's three parts, which make
    /// the scene the whole player). Other inputs ignore them.
    pub fn with_md3_companions(mut self, companions: &'a crate::md3::Md3Companions) -> Self {
        self.md3_companions = Some(companions);
        self
    }

    /// Converts the model in `input` (the file `input_name`, whose stem
    /// names the scene and by whose name an MD2's skin may be found) to
    /// `format`, planning the files for a main output named `output_name`
    /// (its companions go beside it: `NAME.bin`, `NAME.mtl`,
    /// `NAME_textureN.png`).
    ///
    /// Fails when the input is no model this crate reads, when an option
    /// does not apply and [`ConvertOptions::strict`] is set (see
    /// [`ConvertOptions::check`]), when the conversion is not possible
    /// or when the output cannot be made (a scene over one of MilkShape's
    /// limits, for `.ms3d`).
    ///
    /// `.ms3d` (and MilkShape ASCII) output of an MS3D or MilkShape ASCII
    /// model is that model written as read; of anything else, the scene
    /// compiled by [`ms3d::compile`](crate::ms3d::compile), its textures
    /// written beside it (vertex animation, which MilkShape cannot hold,
    /// left out with a warning).
    pub fn convert(
        &self,
        input: &[u8],
        input_name: &str,
        format: OutputFormat,
        output_name: &str,
    ) -> Result<Conversion> {
        let model = self.read_for(input, input_name, format)?;
        self.convert_model(model, input_name, format, output_name)
    }

    /// [`Converter::convert`], freeing the input's bytes as soon as the
    /// model is read (so a big file's bytes and what is made from them
    /// are not held at once).
    ///
    /// ```
    /// use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    ///
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let bytes = retromodel::md2::sample::sample_model().to_bytes()?;
    /// let options = ConvertOptions::default();
    /// let conversion = Converter::new(&options).convert_owned(
    ///     bytes,
    ///     "sample.md2",
    ///     OutputFormat::Md2,
    ///     "copy.md2",
    /// )?;
    /// assert_eq!(conversion.files()?.len(), 1);
    /// # Ok(()) }
    /// ```
    pub fn convert_owned(
        &self,
        input: Vec<u8>,
        input_name: &str,
        format: OutputFormat,
        output_name: &str,
    ) -> Result<Conversion> {
        let model = self.read_for(&input, input_name, format)?;
        drop(input);
        self.convert_model(model, input_name, format, output_name)
    }

    /// The rest of [`Converter::convert`], from the model read.
    fn convert_model(
        &self,
        model: Model,
        input_name: &str,
        format: OutputFormat,
        output_name: &str,
    ) -> Result<Conversion> {
        let options = self.options;
        options.check(&model, format)?;
        let recompile = format == OutputFormat::Md2
            && (options.compile.is_some() || options.rerelease || !matches!(model, Model::Md2(_)));
        // Anything but MilkShape's own is compiled to MS3D, for `.ms3d` and
        // for MilkShape ASCII alike (vertex animation, which MilkShape
        // cannot hold, is left out with a warning naming it).
        let ms3d_compile = matches!(format, OutputFormat::Ms3d | OutputFormat::Ms3dAscii)
            && !matches!(model, Model::Ms3d(_) | Model::Ms3dAscii(_));
        let mdl_compile = format == OutputFormat::Mdl && !matches!(model, Model::Mdl(_));
        // A player is compiled from the scene, an MD3 player's too.
        let md3_compile = format == OutputFormat::Md3
            && (!matches!(model, Model::Md3(_)) || options.md3_player.is_some());
        let iqm_compile = matches!(format, OutputFormat::Iqm | OutputFormat::Iqe)
            && !matches!(model, Model::Iqm(_));
        if !format.is_scene_export()
            && !recompile
            && !ms3d_compile
            && !mdl_compile
            && !md3_compile
            && !iqm_compile
            && format != OutputFormat::Md5
        {
            return self.rewrite(model, format, output_name);
        }
        let skins_inside = matches!(model, Model::Mdl(_));
        let (mut scene, warnings) = self.scene_of(model, input_name)?;
        if mdl_compile {
            #[cfg(feature = "textures")]
            return mdl::compile_mdl(&scene, output_name, options, warnings);
            #[cfg(not(feature = "textures"))]
            return Err(Error::unwritable(
                output_name,
                "compiling an MDL needs retromodel's `textures` feature (its skin is palette indices)",
            ));
        }
        if md3_compile {
            return md3::compile_md3(&scene, output_name, options, skins_inside, warnings);
        }
        if iqm_compile {
            return iqm::compile_iqm(&scene, output_name, format, options, skins_inside, warnings);
        }
        if recompile {
            return self.compile(&scene, output_name, warnings);
        }
        if ms3d_compile {
            return compile_ms3d(&scene, output_name, format, &options.anim, warnings);
        }
        if format == OutputFormat::Md5 {
            return self.compile_md5(&scene, output_name, warnings);
        }
        if format == OutputFormat::Obj {
            pose(&mut scene, options)?;
        }
        Ok(Conversion::of_plan(
            Plan::scene(scene, format, output_name, options)?,
            warnings,
        ))
    }

    /// The scene a conversion of `input` (the file `input_name`) to
    /// `format` starts from: the model read, the options checked against
    /// it, its textures attached (an OBJ's is not posed yet). With
    /// [`ConvertOptions::compile_options`] and
    /// [`md2::compile`](crate::md2::compile::compile) it gives what an MD2
    /// output is made of, with the compiler's vertex map (to compare the
    /// MD2's frames with the scene vertex by vertex).
    pub fn scene(
        &self,
        input: &[u8],
        input_name: &str,
        format: OutputFormat,
    ) -> Result<(Scene, Vec<Warning>)> {
        let model = self.read(input, input_name)?;
        self.options.check(&model, format)?;
        self.scene_of(model, input_name)
    }

    /// Reads the model, finding the files it names through the texture
    /// source, and puts a split MilkShape ASCII model together.
    fn read(&self, input: &[u8], input_name: &str) -> Result<Model> {
        let mut model = Model::read_with(input, &self.read_context(input_name))?;
        if !self.md5_animations.is_empty() {
            let Model::Md5(m) = &mut model else {
                return Err(Error::Option(OptionProblem::Md5AnimNeedsMd5 {
                    format: model.format(),
                }));
            };
            for file in self.md5_animations {
                m.add_animation_file(file)?;
            }
        }
        if !self.iqm_animations.is_empty() {
            let Model::Iqm(m) = &mut model else {
                return Err(Error::Option(OptionProblem::IqmAnimNeedsIqm {
                    format: model.format(),
                }));
            };
            for (name, bytes) in self.iqm_animations {
                crate::iqm::Iqm::from_bytes(bytes)
                    .and_then(|other| m.add_animations(&other))
                    .map_err(|e| Error::unwritable(name.as_str(), e.to_string()))?;
            }
        }
        if self.ascii_parts != (None, None) {
            return self.combine(model);
        }
        Ok(model)
    }

    /// [`Converter::read`] for a conversion to `format`: a glTF to be
    /// compiled to MD2 keeps its PNGs undecoded (checked by their headers),
    /// since the compiler decodes each image it uses and reports one that
    /// does not decode; decoding them here too would decode each twice.
    fn read_for(&self, input: &[u8], input_name: &str, format: OutputFormat) -> Result<Model> {
        #[cfg(feature = "gltf")]
        if matches!(
            format,
            OutputFormat::Md2 | OutputFormat::Mdl | OutputFormat::Md3
        ) && self.ascii_parts == (None, None)
            && matches!(crate::Format::detect(input), Ok(crate::Format::Gltf))
        {
            let options = crate::gltf::ImportOptions {
                check_images: false,
                ..Default::default()
            };
            return Model::read_gltf(input, &self.read_context(input_name), &options);
        }
        let _ = format;
        self.read(input, input_name)
    }

    /// Where the file `input_name`'s other files come from.
    fn read_context<'n>(&'n self, input_name: &'n str) -> ReadContext<'n> {
        ReadContext {
            file_name: file_name(input_name),
            #[cfg(any(feature = "textures", feature = "gltf"))]
            resources: self.textures_source(),
        }
    }

    /// The model's scene with its textures, and what the reader and the
    /// texture lookup passed over.
    fn scene_of(&self, model: Model, input_name: &str) -> Result<(Scene, Vec<Warning>)> {
        #[cfg_attr(not(feature = "textures"), allow(unused_mut))]
        let mut warnings: Vec<Warning> = match &model {
            #[cfg(feature = "scene")]
            Model::Imported(i) => i.warnings.iter().cloned().map(Warning::Read).collect(),
            _ => Vec::new(),
        };
        #[cfg_attr(not(feature = "textures"), allow(unused_mut))]
        let mut scene_options = SceneOptions {
            name: stem(input_name),
            clips: if model.has_timeline() {
                self.options.clip.clone()
            } else {
                Vec::new()
            },
            palette: self.options.palette.clone(),
            ..SceneOptions::default()
        };
        #[cfg(feature = "textures")]
        if matches!(model, Model::Mdl(_)) {
            let (palette, warning) =
                palette::mdl_palette(self.options.palette.as_ref(), self.textures);
            scene_options.palette = palette;
            warnings.extend(warning.map(Warning::Texture));
        }
        #[cfg(feature = "textures")]
        let named_like_model = model.format().skin_named_like_model();
        #[cfg_attr(not(feature = "textures"), allow(unused_mut))]
        let mut scene = match (&model, self.md3_companions) {
            (Model::Md3(m), Some(c)) => {
                let (scene, left_out) = c.scene_and_warnings(m, &scene_options.name, None)?;
                warnings.extend(left_out.into_iter().map(Warning::Read));
                scene
            }
            _ => model.into_scene(&scene_options)?,
        };
        #[cfg(feature = "textures")]
        warnings.extend(
            self.attach_textures(&mut scene, named_like_model, input_name)
                .into_iter()
                .map(Warning::Texture),
        );
        Ok((scene, warnings))
    }

    /// A split MilkShape ASCII model put together.
    fn combine(&self, model: Model) -> Result<Model> {
        use crate::ms3d::ascii::AsciiModel;
        let Model::Ms3dAscii(meshes) = model else {
            return Err(Error::Option(OptionProblem::AsciiPartsNeedAscii {
                format: model.format(),
            }));
        };
        let part = |b: Option<&[u8]>| b.map(AsciiModel::parse).transpose();
        let (materials, bones) = (part(self.ascii_parts.0)?, part(self.ascii_parts.1)?);
        Ok(Model::Ms3dAscii(AsciiModel::combine(
            meshes, materials, bones,
        )?))
    }

    /// Any scene to MD2: the MD2 and its skin beside it.
    fn compile(
        &self,
        scene: &Scene,
        output_name: &str,
        mut warnings: Vec<Warning>,
    ) -> Result<Conversion> {
        let mut compile = self.options.compile_options();
        // A skin file written is named after the model written (`hero.md2`,
        // `hero.pcx`); a model read from an MD2 keeps its own skin names
        // unless a skin image is given (`--skin`) or named.
        if compile.skin.name.is_none() {
            let name = format!("{}.{}", stem(output_name), compile.skin.format.extension());
            // An image given (`--skin`) is written under the model's name.
            #[cfg(feature = "textures")]
            let image_given = self.options.skin.is_some();
            #[cfg(not(feature = "textures"))]
            let image_given = false;
            if image_given {
                compile.skin.name = Some(name);
            } else {
                compile.skin.default_name = Some(name);
            }
        }
        let compiled = crate::md2::compile::compile(scene, &compile)?;
        warnings.extend(compiled.warnings.into_iter().map(Warning::Compile));
        let mut files = Vec::new();
        if let Some(skin) = compiled.skin {
            if self.options.rerelease {
                // Q2PRO draws an MD5 with each MD2 skin looked up in
                // `md5/` beside it (`src/refresh/models.c`,
                // `MD5_LoadSkins`: the skin's folder + "md5/" + its file
                // name); without the copy the MD5 has no texture.
                let name = format!("md5/{}", file_name(&skin.name));
                files.push((name, skin.bytes.clone()));
            }
            files.push((file_name(&skin.name).to_string(), skin.bytes));
        }
        if self.options.rerelease {
            let shader = compiled.model.skins.first().map(|s| s.to_string());
            let (md5, more) = md5::md5_files(
                scene,
                &compile,
                compiled.report.scale,
                shader,
                output_name,
                "md5/",
            )?;
            files.extend(md5);
            warnings.extend(more);
        }
        files.push((output_name.to_string(), compiled.model.to_bytes()?));
        Ok(Conversion {
            plan: Plan::whole(files),
            warnings,
            repair: None,
            report: Some(compiled.report),
            ms3d_report: None,
            mdl_repair: None,
            #[cfg(feature = "textures")]
            mdl_report: None,
            md3_report: None,
            md3_player_report: None,
            iqm_report: None,
        })
    }

    /// Any scene to the rerelease's MD5 alone, on the frames an MD2
    /// compile with the same options would make.
    fn compile_md5(
        &self,
        scene: &Scene,
        output_name: &str,
        mut warnings: Vec<Warning>,
    ) -> Result<Conversion> {
        let compile = self.options.compile_options();
        let scale = md5::md2_scale(scene, &compile)?;
        let (files, more) = md5::md5_files(scene, &compile, scale, None, output_name, "")?;
        warnings.extend(more);
        Ok(Conversion::of_plan(Plan::whole(files), warnings))
    }

    /// The texture source, as a reader's resource source.
    #[cfg(any(feature = "textures", feature = "gltf"))]
    fn textures_source(&self) -> Option<&'a dyn crate::texture::TextureSource> {
        #[cfg(feature = "textures")]
        return self.textures;
        #[cfg(not(feature = "textures"))]
        return None;
    }

    #[cfg(feature = "textures")]
    fn attach_textures(
        &self,
        scene: &mut Scene,
        named_like_model: bool,
        input_name: &str,
    ) -> Vec<crate::scene::TextureWarning> {
        let Some(source) = self.textures else {
            return Vec::new();
        };
        scene.attach_textures(&crate::scene::TextureLookup {
            source,
            model_file_name: file_name(input_name),
            named_like_model,
            user_skin: self.options.skin.as_ref(),
        })
    }
}

/// Any scene (but an MS3D's own) to MS3D, or to MilkShape ASCII through
/// the same compile: the model and its texture files beside it.
fn compile_ms3d(
    scene: &Scene,
    output_name: &str,
    format: OutputFormat,
    animations: &[String],
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    // Textures are named after the model written (`hero.ms3d`, `hero.png`),
    // as MD2 skins are, so that models converted into one folder keep
    // their own.
    let options = crate::ms3d::compile::Ms3dCompileOptions {
        texture_stem: Some(stem(output_name)),
        animations: animations.to_vec(),
        ..crate::ms3d::compile::Ms3dCompileOptions::default()
    };
    let compiled = crate::ms3d::compile::compile(scene, &options)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::Ms3dCompile));
    let mut files: Vec<(String, Vec<u8>)> = compiled
        .textures
        .into_iter()
        .map(|t| (t.name, t.bytes))
        .collect();
    let bytes = if format == OutputFormat::Ms3dAscii {
        use crate::ms3d::ascii::AsciiModel;
        warnings.extend(
            AsciiModel::losses(&compiled.model)
                .into_iter()
                .map(Warning::Ms3dAscii),
        );
        AsciiModel::from_ms3d(&compiled.model).to_bytes()
    } else {
        compiled.model.to_bytes()?
    };
    files.push((output_name.to_string(), bytes));
    Ok(Conversion {
        plan: Plan::whole(files),
        warnings,
        repair: None,
        report: None,
        ms3d_report: Some(compiled.report),
        mdl_repair: None,
        #[cfg(feature = "textures")]
        mdl_report: None,
        md3_report: None,
        md3_player_report: None,
        iqm_report: None,
    })
}

/// Poses `scene` as the OBJ options ask and bakes the pose in: a frame
/// (a morph target, or a key of an animation), a time into an animation,
/// or (neither) the first frame of a morphed model and the rest pose of
/// anything else.
fn pose(scene: &mut Scene, options: &ConvertOptions) -> Result<()> {
    if let Some(t) = options.time {
        if !t.is_finite() || t < 0.0 {
            return Err(Error::Option(OptionProblem::BadTime { time: t }));
        }
        let index = match options.anim.first() {
            Some(name) => animation_index(scene, name)?,
            None => 0,
        };
        let mut pose = Pose::new(scene)?;
        pose.sample(scene, index, t);
        apply_pose(scene, &pose);
        return Ok(());
    }
    let morphed = scene.meshes.iter().any(|m| !m.morph_targets.is_empty());
    if !morphed {
        return Ok(());
    }
    let frame = options.frame.unwrap_or(0);
    let Some(name) = options.anim.first() else {
        return apply_morph_target(scene, frame);
    };
    let index = animation_index(scene, name)?;
    let keys = scene.animations[index]
        .channels
        .first()
        .map_or(&[][..], |c| c.times.as_slice());
    let Some(&time) = keys.get(frame) else {
        return Err(Error::Option(OptionProblem::FrameOutOfRange {
            frame,
            animation: name.clone(),
            frames: keys.len(),
        }));
    };
    let mut pose = Pose::new(scene)?;
    pose.sample(scene, index, time);
    apply_pose(scene, &pose);
    Ok(())
}

/// The index of the animation called `name`, or an error listing them.
fn animation_index(scene: &Scene, name: &str) -> Result<usize> {
    scene
        .animations
        .iter()
        .position(|a| a.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = scene.animations.iter().map(|a| a.name.as_str()).collect();
            Error::InvalidOptions {
                message: format!(
                    "no animation {name:?} (the model has: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            }
        })
}

impl Conversion {
    /// The files to write, the main one last (so that a front end writing
    /// them in order makes the main file appear only once its companions
    /// are there). Fails when the output cannot be made (a scene the
    /// glTF writer refuses).
    pub fn files(&self) -> Result<Vec<OutputFile<'_>>> {
        self.plan.files()
    }

    /// What was passed over or had to change, in order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// For MD2 output compiled from a scene: frame counts and
    /// quantisation errors per animation.
    pub fn compile_report(&self) -> Option<&CompileReport> {
        self.report.as_ref()
    }

    /// For MS3D output compiled from a scene: counts, keys and errors per
    /// animation.
    pub fn ms3d_compile_report(&self) -> Option<&Ms3dCompileReport> {
        self.ms3d_report.as_ref()
    }

    /// For MDL output compiled from a scene: frames, the grid's error
    /// and the seams (feature `textures`).
    #[cfg(feature = "textures")]
    pub fn mdl_compile_report(&self) -> Option<&crate::mdl::compile::CompileReport> {
        self.mdl_report.as_ref()
    }

    /// For MD3 output compiled from a scene: frames, surfaces and the
    /// fixed point's error.
    pub fn md3_compile_report(&self) -> Option<&crate::md3::compile::CompileReport> {
        self.md3_report.as_ref()
    }

    /// For IQM output compiled from a scene: meshes, joints, each
    /// animation's rate and frames, and the largest error measured.
    pub fn iqm_compile_report(&self) -> Option<&crate::iqm::compile::IqmReport> {
        self.iqm_report.as_ref()
    }

    /// For a Quake III player compiled from a scene
    /// ([`ConvertOptions::md3_player`]): each part's report and each
    /// `animation.cfg` line's frames.
    pub fn md3_player_report(&self) -> Option<&crate::md3::compile::PlayerReport> {
        self.md3_player_report.as_ref()
    }

    /// What `ConvertOptions::repair` repaired (MDL to MDL), if asked.
    pub fn mdl_repair_report(&self) -> Option<&crate::mdl::RepairReport> {
        self.mdl_repair.as_ref()
    }

    /// What `ConvertOptions::repair` repaired (MD2 to MD2), if asked.
    pub fn repair_report(&self) -> Option<&RepairReport> {
        self.repair.as_ref()
    }

    /// The scene the outputs are made from (`None` for a model written in
    /// its own format).
    pub fn scene(&self) -> Option<&Scene> {
        self.plan.scene_ref()
    }
}

/// The file name part of a path as given (`/` and `\` separate).
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The file name without its last extension.
fn stem(path: &str) -> String {
    Path::new(file_name(path))
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}
