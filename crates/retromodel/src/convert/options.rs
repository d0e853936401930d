//! The options of a conversion, in one struct, and the one place where
//! options that conflict or do not apply are found.

use crate::error::{Error, Result};
use crate::format::Format;
use crate::md2::Layout;
use crate::model::Model;
use crate::ms3d::Clip;

use super::OptionProblem;

/// A file format a conversion writes.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// Quake II MD2 (from MD2: laid out, and repaired, as asked).
    Md2,
    /// MilkShape 3D MS3D (from MS3D or MilkShape ASCII: as read; from
    /// anything else: compiled by [`ms3d::compile`](crate::ms3d::compile)).
    Ms3d,
    /// Binary glTF 2.0, one file.
    Glb,
    /// glTF 2.0 JSON with its `.bin` buffer and PNG images beside it.
    Gltf,
    /// Wavefront OBJ of one pose, with its `.mtl` and PNG textures.
    Obj,
    /// MilkShape 3D ASCII (`.txt`): an MS3D or MilkShape ASCII model
    /// written as text; any other model compiled as for
    /// [`Ms3d`](Self::Ms3d) and written as text.
    Ms3dAscii,
    /// The Quake II rerelease's MD5 model (`.md5mesh` with its `.md5anim`
    /// and, when a joint's scale animates, `.md5scale` beside it),
    /// compiled by [`md5::compile`](crate::md5::compile) on the frames the
    /// MD2 compile would make.
    Md5,
    /// Quake MDL (`.mdl`): an MDL model rewritten (laid out and repaired
    /// as asked); any other model compiled by
    /// [`mdl::compile`](crate::mdl::compile) (feature `textures`).
    Mdl,
    /// Quake III MD3 (`.md3`): an MD3 model rewritten (in the layout
    /// asked); any other model compiled by
    /// [`md3::compile`](crate::md3::compile).
    Md3,
    /// Inter-Quake Model (`.iqm`): an IQM rewritten (in the layout
    /// asked); any other model compiled by
    /// [`iqm::compile`](crate::iqm::compile).
    Iqm,
    /// Inter-Quake Export (`.iqe`), the IQM's text form that lsalzman/iqm's
    /// compiler reads: an IQM written as text, any other model compiled
    /// as for [`Iqm`](Self::Iqm) first.
    Iqe,
}

impl OutputFormat {
    /// Every output format.
    pub const ALL: &'static [OutputFormat] = &[
        OutputFormat::Md2,
        OutputFormat::Ms3d,
        OutputFormat::Glb,
        OutputFormat::Gltf,
        OutputFormat::Obj,
        OutputFormat::Ms3dAscii,
        OutputFormat::Md5,
        OutputFormat::Mdl,
        OutputFormat::Md3,
        OutputFormat::Iqm,
        OutputFormat::Iqe,
    ];

    /// The format a file extension (any case, without the dot) stands for.
    ///
    /// ```
    /// use retromodel::convert::OutputFormat;
    /// assert_eq!(OutputFormat::from_extension("GLB"), Some(OutputFormat::Glb));
    /// assert_eq!(OutputFormat::from_extension("fbx"), None);
    /// ```
    pub fn from_extension(ext: &str) -> Option<OutputFormat> {
        let ext = ext.to_ascii_lowercase();
        OutputFormat::ALL
            .iter()
            .copied()
            .find(|f| f.extension() == ext)
    }

    /// The extension of the main output file, lower case, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            OutputFormat::Md2 => "md2",
            OutputFormat::Ms3d => "ms3d",
            OutputFormat::Glb => "glb",
            OutputFormat::Gltf => "gltf",
            OutputFormat::Obj => "obj",
            OutputFormat::Ms3dAscii => "txt",
            OutputFormat::Md5 => "md5mesh",
            OutputFormat::Mdl => "mdl",
            OutputFormat::Md3 => "md3",
            OutputFormat::Iqm => "iqm",
            OutputFormat::Iqe => "iqe",
        }
    }

    /// Whether the output is an export of the model's scene (glTF, OBJ)
    /// rather than a model format.
    pub fn is_scene_export(self) -> bool {
        matches!(
            self,
            OutputFormat::Glb | OutputFormat::Gltf | OutputFormat::Obj
        )
    }

    /// The names of the files an output whose main file is `main` always
    /// has (the main file, and a `.gltf`'s `.bin` or an `.obj`'s `.mtl`
    /// beside it); texture images may come on top. A front end can check
    /// these before converting.
    ///
    /// ```
    /// use retromodel::convert::OutputFormat;
    /// assert_eq!(OutputFormat::Gltf.fixed_files("a.b.gltf"), ["a.b.gltf", "a.b.bin"]);
    /// ```
    pub fn fixed_files(self, main: &str) -> Vec<String> {
        let with = |ext: &str| {
            std::path::Path::new(main)
                .with_extension(ext)
                .to_string_lossy()
                .into_owned()
        };
        match self {
            OutputFormat::Gltf => vec![main.to_string(), with("bin")],
            OutputFormat::Obj => vec![main.to_string(), with("mtl")],
            OutputFormat::Md5 => vec![main.to_string(), with("md5anim")],
            _ => vec![main.to_string()],
        }
    }

    /// Whether the output is glTF.
    pub fn is_gltf(self) -> bool {
        matches!(self, OutputFormat::Glb | OutputFormat::Gltf)
    }
}

/// How to convert, whatever the formats: every option of `retromodel
/// convert` (each field is named like the command line's flag), mapped
/// once by a front end. Options that do not apply to the input or the
/// output are errors when [`strict`](Self::strict) (one model), and
/// ignored otherwise (a folder of models of several formats).
///
/// ```
/// use retromodel::convert::ConvertOptions;
/// let options = ConvertOptions { quantize: true, ..ConvertOptions::smallest() };
/// assert!(options.compress && options.strict);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertOptions {
    /// glTF: morph targets with `KHR_mesh_quantization`.
    pub quantize: bool,
    /// glTF: `EXT_meshopt_compression` (needs feature `meshopt`).
    pub compress: bool,
    /// glTF of a model with a timeline (MS3D): named ranges, each its own
    /// animation instead of the whole timeline.
    pub clip: Vec<Clip>,
    /// OBJ of a morphed model (MD2): the frame, within
    /// [`anim`](Self::anim) when given (default 0).
    pub frame: Option<usize>,
    /// OBJ of a morphed model (MD2): the animation `frame` counts in; of a
    /// glTF: the animation `time` is in (default the first); one name.
    /// MD2 output: the animations to bake, in this order (empty: all).
    pub anim: Vec<String>,
    /// OBJ of an animated model (MS3D, glTF): seconds into its animation
    /// (default: the rest pose).
    pub time: Option<f32>,
    /// MD2 output: where the sections go.
    pub layout: Layout,
    /// MD2 to MD2: repair what can be repaired first
    /// ([`Md2::repair`](crate::md2::Md2::repair)).
    pub repair: bool,
    /// MD2 output: how the scene is compiled ([`md2::compile`]). `None`:
    /// the defaults, and an MD2 input is rewritten rather than recompiled;
    /// `Some`: an MD2 input is recompiled through its scene too.
    ///
    /// [`md2::compile`]: crate::md2::compile
    pub compile: Option<crate::md2::compile::CompileOptions>,
    /// An image to use as the first skin or texture (feature `textures`).
    #[cfg(feature = "textures")]
    pub skin: Option<crate::scene::UserSkin>,
    /// MDL output of any other format: how the scene is compiled
    /// ([`mdl::compile`](crate::mdl::compile); feature `textures`). `None`:
    /// the defaults, which have no palette, so the compile fails asking
    /// for one. Its animations, when empty, are [`ConvertOptions::anim`].
    #[cfg(feature = "textures")]
    pub mdl: Option<crate::mdl::compile::CompileOptions>,
    /// MD3 output of any other format: how the scene is compiled
    /// ([`md3::compile`](crate::md3::compile)). `None`: the defaults. Its
    /// animations, when empty, are [`ConvertOptions::anim`].
    pub md3: Option<crate::md3::compile::CompileOptions>,
    /// MD3 output of any other format, as a Quake III player: the scene's
    /// `lower`, `upper` and `head` nodes become `lower.md3`, `upper.md3`
    /// and `head.md3` beside the output, with `animation.cfg` and the
    /// `_default.skin` files ([`compile_player`](crate::md3::compile::compile_player));
    /// [`md3`](Self::md3) is then not used.
    pub md3_player: Option<crate::md3::compile::PlayerOptions>,
    /// IQM output of any other format: how the scene is compiled
    /// ([`iqm::compile`](crate::iqm::compile)). `None`: the defaults.
    pub iqm: Option<crate::iqm::compile::IqmCompileOptions>,
    /// Whether options that do not apply are errors (`true`, the
    /// default: one model) or ignored (`false`: a batch of models of
    /// different formats).
    pub strict: bool,
    /// MD2 output: also write the Quake II rerelease's MD5 replacement
    /// beside it, `md5/<stem>.md5mesh`, `.md5anim` and (when a joint's
    /// scale animates) `.md5scale`, whose frame `k` is the MD2's frame `k`
    /// ([`md5::compile`](crate::md5::compile)).
    pub rerelease: bool,
    /// The palette of a Quake MDL's 8-bit skins (Quake's
    /// `gfx/palette.lmp`). `None`: looked for as `gfx/palette.lmp` through
    /// the texture source; without one the skins have no image and the
    /// conversion warns.
    pub palette: Option<crate::texture::Palette>,
}

impl Default for ConvertOptions {
    /// Nothing optional, strict: a plain conversion of one model.
    fn default() -> Self {
        ConvertOptions {
            quantize: false,
            compress: false,
            clip: Vec::new(),
            frame: None,
            anim: Vec::new(),
            time: None,
            compile: None,
            layout: Layout::Standard,
            repair: false,
            #[cfg(feature = "textures")]
            skin: None,
            #[cfg(feature = "textures")]
            mdl: None,
            md3: None,
            md3_player: None,
            iqm: None,
            strict: true,
            rerelease: false,
            palette: None,
        }
    }
}

impl ConvertOptions {
    /// The smallest glTF: quantized and compressed (loaders need both
    /// extensions; three.js and Babylon.js have them, assimp 5 does not).
    pub fn smallest() -> Self {
        ConvertOptions {
            quantize: true,
            compress: true,
            ..ConvertOptions::default()
        }
    }

    /// For a folder of models of several formats: options that do not
    /// apply to a model are ignored for it.
    pub fn batch() -> Self {
        ConvertOptions {
            strict: false,
            ..ConvertOptions::default()
        }
    }

    /// The options of the MD2 compiler for an MD2 output:
    /// [`compile`](Self::compile), or the defaults with a PNG skin (an
    /// 8-bit PCX needs the game's palette, which only the user can give),
    /// baking [`anim`](Self::anim) when it names no animations itself.
    pub fn compile_options(&self) -> crate::md2::compile::CompileOptions {
        let mut compile = self.compile.clone().unwrap_or_else(|| {
            let mut o = crate::md2::compile::CompileOptions::default();
            o.skin.format = crate::md2::compile::SkinFormat::Png;
            o
        });
        if compile.animations.is_empty() {
            compile.animations = self.anim.clone();
        }
        compile
    }

    /// Fails, naming the option, when an option does not apply to writing
    /// `format` at all (whatever the input): the check a front end can make
    /// before reading anything. Applies in batch mode too.
    pub fn check_output(&self, format: OutputFormat) -> Result<()> {
        if !(self.clip.is_empty() || format.is_gltf() || format == OutputFormat::Md2) {
            return invalid(OptionProblem::ClipNeedsGltfOrMd2Output);
        }
        Ok(())
    }

    /// The one check of the options against a conversion: fails, naming
    /// the option, when one does not apply to `model` or to `format` (in
    /// [`strict`](Self::strict) mode; otherwise only
    /// [`check_output`](Self::check_output) applies).
    pub fn check(&self, model: &Model, format: OutputFormat) -> Result<()> {
        self.check_output(format)?;
        if !self.strict {
            return Ok(());
        }
        let format_in = model.format();
        if !model.has_timeline() && !self.clip.is_empty() {
            return invalid(OptionProblem::ClipNeedsTimeline);
        }
        let md2_out = format == OutputFormat::Md2;
        // Outputs that bake whole animations, which --anim chooses: .md2,
        // .ms3d compiled from a model that is not an MS3D, and .mdl
        // compiled from a model that is not an MDL.
        let ms3d_compiled = matches!(format, OutputFormat::Ms3d | OutputFormat::Ms3dAscii)
            && !matches!(model, Model::Ms3d(_) | Model::Ms3dAscii(_));
        let mdl_compiled = format == OutputFormat::Mdl && !matches!(model, Model::Mdl(_));
        let md3_compiled = format == OutputFormat::Md3
            && (!matches!(model, Model::Md3(_)) || self.md3_player.is_some());
        #[cfg(feature = "textures")]
        if self
            .mdl
            .as_ref()
            .is_some_and(|o| o.sets_header_or_groups() || format != OutputFormat::Mdl)
            && !mdl_compiled
        {
            return invalid(OptionProblem::MdlCompileNeedsMdlOutput);
        }
        let bakes = md2_out || ms3d_compiled || mdl_compiled || md3_compiled;
        if bakes && !self.anim.is_empty() && (self.frame.is_some() || self.time.is_some()) {
            return invalid(OptionProblem::PoseWhenBaking);
        }
        if self.rerelease && !md2_out && !mdl_compiled {
            return invalid(OptionProblem::RereleaseNeedsMd2Output);
        }
        if self.compile.is_some() && !md2_out && format != OutputFormat::Md5 {
            return invalid(OptionProblem::CompileNeedsMd2Output);
        }
        if self.anim.len() > 1 && !bakes {
            return invalid(OptionProblem::OneAnimation);
        }
        let posed =
            self.frame.is_some() || (!self.anim.is_empty() && !bakes) || self.time.is_some();
        if posed {
            if format_in == Format::Md2 && self.time.is_some() {
                return invalid(OptionProblem::TimeOnMd2);
            }
            if format_in == Format::Ms3d && (self.frame.is_some() || !self.anim.is_empty()) {
                return invalid(OptionProblem::FrameOnMs3d);
            }
            if !matches!(format_in, Format::Md2 | Format::Mdl | Format::Ms3d)
                && self.frame.is_some()
            {
                return invalid(OptionProblem::FrameNeedsMd2);
            }
            if format != OutputFormat::Obj {
                return invalid(OptionProblem::PoseNeedsObjOutput);
            }
        }
        if (self.quantize || self.compress) && !format.is_gltf() {
            return invalid(OptionProblem::QuantizeNeedsGltfOutput);
        }
        let rewrite = md2_out && matches!(model, Model::Md2(_)) && self.compile.is_none()
            || format == OutputFormat::Mdl && matches!(model, Model::Mdl(_))
            || format == OutputFormat::Md3 && matches!(model, Model::Md3(_)) && !md3_compiled
            || format == OutputFormat::Iqm && matches!(model, Model::Iqm(_));
        if (self.repair || self.layout != Layout::Standard) && !rewrite {
            return invalid(OptionProblem::RepairNeedsMd2Rewrite);
        }
        #[cfg(feature = "textures")]
        if self.skin.is_some()
            && !(format.is_scene_export()
                || md2_out && !rewrite
                || mdl_compiled
                || ms3d_compiled
                || md3_compiled)
        {
            return invalid(OptionProblem::SkinNotUsed);
        }
        Ok(())
    }
}

fn invalid(problem: OptionProblem) -> Result<()> {
    Err(Error::Option(problem))
}
