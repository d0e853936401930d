//! Options of a conversion that conflict or do not apply, as data: which
//! options ([`ConvertOption`]) and what is wrong with them
//! ([`OptionProblem`]). The library names no front end's flags; each front
//! end words a problem with its own names for the options (the command
//! line's `--frame`, Python's `frame=` ...) through
//! [`OptionProblem::words`]. `Display` uses neutral names, the fields of
//! `ConvertOptions` (of the `convert` module, which re-exports these
//! types; this module sits at the bottom so that `Error` can hold a
//! problem without naming the converter).
//!
//! ```
//! use retromodel::convert::{ConvertOption, OptionProblem};
//!
//! let problem = OptionProblem::TimeOnMd2;
//! assert_eq!(problem.options(), [ConvertOption::Time]);
//! assert_eq!(
//!     problem.words(|o| format!("--{}", o.name())),
//!     "--time applies to MS3D models; use --frame (and --anim) for MD2"
//! );
//! assert_eq!(
//!     problem.to_string(),
//!     "the time option applies to MS3D models; use the frame option (and the anim option) for MD2"
//! );
//! ```

use std::fmt;

use crate::format_kind::Format;

/// One option of a conversion: a field of
/// `ConvertOptions` (of the `convert` module), or a part of a split
/// MilkShape ASCII model given beside it.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConvertOption {
    /// glTF morph targets quantized.
    Quantize,
    /// glTF meshopt compression.
    Compress,
    /// Named ranges of an MS3D timeline.
    Clip,
    /// The frame of an OBJ pose.
    Frame,
    /// The animation (or, for baked outputs, the animations).
    Anim,
    /// Seconds into an animation, for an OBJ pose.
    Time,
    /// Where an MD2's sections go.
    Layout,
    /// Repair an MD2 before rewriting it.
    Repair,
    /// The MD2 compiler's options (frame rate, engine, grid, scale,
    /// palette, skin format and name ...).
    Compile,
    /// An image to use as the first skin or texture.
    Skin,
    /// The materials file of a split MilkShape ASCII model.
    AsciiMaterials,
    /// The bones file of a split MilkShape ASCII model.
    AsciiBones,
    /// md5anim files given with an MD5 model.
    Md5Anim,
    /// IQM files whose animations play on an IQM model.
    IqmAnim,
    /// Also write the rerelease's MD5 replacement beside an MD2.
    Rerelease,
    /// The MDL compiler's options (palette, frame rate, scale, frame
    /// groups, effect flags, eye position, sync type, engine limits).
    MdlCompile,
}

impl ConvertOption {
    /// A short neutral name (the field of `ConvertOptions` where it has
    /// one): `quantize`, `frame`, `compile` ... A front end can use it
    /// where its own name is the same.
    pub fn name(self) -> &'static str {
        match self {
            ConvertOption::Quantize => "quantize",
            ConvertOption::Compress => "compress",
            ConvertOption::Clip => "clip",
            ConvertOption::Frame => "frame",
            ConvertOption::Anim => "anim",
            ConvertOption::Time => "time",
            ConvertOption::Layout => "layout",
            ConvertOption::Repair => "repair",
            ConvertOption::Compile => "compile",
            ConvertOption::Skin => "skin",
            ConvertOption::AsciiMaterials => "materials",
            ConvertOption::AsciiBones => "bones",
            ConvertOption::Md5Anim => "md5anim",
            ConvertOption::IqmAnim => "anim_file",
            ConvertOption::Rerelease => "rerelease",
            ConvertOption::MdlCompile => "mdl",
        }
    }
}

/// Options that conflict, do not apply to the model or the output, or
/// have a value that cannot be used: the kind of conflict, from which
/// [`options`](Self::options) says which options are at fault.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum OptionProblem {
    /// Clips for an output other than glTF or MD2.
    ClipNeedsGltfOrMd2Output,
    /// Clips for a model without a timeline (not an MS3D).
    ClipNeedsTimeline,
    /// A frame or a time for an output that bakes whole animations (MD2,
    /// compiled MS3D), with animations chosen.
    PoseWhenBaking,
    /// MD2 compiler options for an output other than MD2.
    CompileNeedsMd2Output,
    /// The rerelease's MD5 replacement asked for an output other than
    /// MD2 (it goes beside an MD2).
    RereleaseNeedsMd2Output,
    /// MDL compiler options for an output other than an MDL compiled
    /// from another model.
    MdlCompileNeedsMdlOutput,
    /// Several animations for an output that takes one (OBJ).
    OneAnimation,
    /// A time for an MD2 model (MD2 poses are frames).
    TimeOnMd2,
    /// A frame or an animation for an MS3D model (MS3D poses are times).
    FrameOnMs3d,
    /// A frame for a model that is neither MD2 nor MS3D.
    FrameNeedsMd2,
    /// A pose (frame, animation, time) for an output other than OBJ.
    PoseNeedsObjOutput,
    /// Quantization or compression for an output other than glTF.
    QuantizeNeedsGltfOutput,
    /// Repair or a layout where no MD2 is rewritten.
    RepairNeedsMd2Rewrite,
    /// A skin image for an output that does not take one.
    SkinNotUsed,
    /// md5anim files for an input in `format` (not an MD5 model).
    Md5AnimNeedsMd5 {
        /// The input's format.
        format: Format,
    },
    /// IQM animation files for an input in `format` (not an IQM).
    IqmAnimNeedsIqm {
        /// The input's format.
        format: Format,
    },
    /// Parts of a split MilkShape ASCII model for an input in `format`.
    AsciiPartsNeedAscii {
        /// The input's format.
        format: Format,
    },
    /// A time that is negative or not a number.
    BadTime {
        /// The time given.
        time: f32,
    },
    /// A frame past the end of the animation it counts in.
    FrameOutOfRange {
        /// The frame given.
        frame: usize,
        /// The animation's name.
        animation: String,
        /// How many frames it has.
        frames: usize,
    },
}

impl OptionProblem {
    /// The options at fault, in the order the message names them.
    pub fn options(&self) -> Vec<ConvertOption> {
        use ConvertOption::*;
        match self {
            OptionProblem::ClipNeedsGltfOrMd2Output | OptionProblem::ClipNeedsTimeline => {
                vec![Clip]
            }
            OptionProblem::PoseWhenBaking => vec![Frame, Time],
            OptionProblem::CompileNeedsMd2Output => vec![Compile],
            OptionProblem::RereleaseNeedsMd2Output => vec![Rerelease],
            OptionProblem::MdlCompileNeedsMdlOutput => vec![MdlCompile],
            OptionProblem::OneAnimation => vec![Anim],
            OptionProblem::TimeOnMd2 | OptionProblem::BadTime { .. } => vec![Time],
            OptionProblem::FrameOnMs3d => vec![Frame, Anim],
            OptionProblem::FrameNeedsMd2 | OptionProblem::FrameOutOfRange { .. } => vec![Frame],
            OptionProblem::PoseNeedsObjOutput => vec![Frame, Anim, Time],
            OptionProblem::QuantizeNeedsGltfOutput => vec![Quantize, Compress],
            OptionProblem::RepairNeedsMd2Rewrite => vec![Repair, Layout],
            OptionProblem::SkinNotUsed => vec![Skin],
            OptionProblem::AsciiPartsNeedAscii { .. } => vec![AsciiMaterials, AsciiBones],
            OptionProblem::Md5AnimNeedsMd5 { .. } => vec![Md5Anim],
            OptionProblem::IqmAnimNeedsIqm { .. } => vec![IqmAnim],
        }
    }

    /// The message, each option named by `name` (a front end's flag,
    /// keyword or label). `name` may return several names joined, as for
    /// [`ConvertOption::Compile`], which stands for a group of options;
    /// the verb agrees with the options named.
    ///
    /// ```
    /// use retromodel::convert::OptionProblem;
    /// let text = OptionProblem::QuantizeNeedsGltfOutput.words(|o| format!("{}=True", o.name()));
    /// assert_eq!(text, "quantize=True and compress=True apply to glTF output (.glb, .gltf)");
    /// ```
    pub fn words(&self, name: impl Fn(ConvertOption) -> String) -> String {
        use ConvertOption::*;
        let n = |o| name(o);
        // The options of this problem, listed, with the verb they take.
        let names: Vec<String> = self.options().into_iter().map(n).collect();
        let plural = names.len() > 1 || names.iter().any(|s| s.contains(", "));
        let list = match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        };
        let apply = if plural { "apply" } else { "applies" };
        match self {
            OptionProblem::ClipNeedsGltfOrMd2Output => {
                format!("{list} {apply} to glTF output (.glb, .gltf) and .md2 output of MS3D models")
            }
            OptionProblem::ClipNeedsTimeline => {
                format!("{list} {apply} to MS3D models; MD2 animations come from frame names")
            }
            OptionProblem::PoseWhenBaking => format!(
                "{list} {apply} to OBJ output; .md2 and .ms3d output bake whole animations ({} chooses them)",
                n(Anim)
            ),
            OptionProblem::CompileNeedsMd2Output => {
                format!("{list} {apply} to .md2 and .md5mesh output")
            }
            OptionProblem::RereleaseNeedsMd2Output => format!(
                "{list} {apply} to .md2 output and .mdl output compiled from another format (write .md5mesh output for the MD5 files alone)"
            ),
            OptionProblem::MdlCompileNeedsMdlOutput => format!(
                "{list} {apply} to .mdl output compiled from another format (an MDL is rewritten as it is)"
            ),
            OptionProblem::OneAnimation => format!(
                "{list} takes one animation for OBJ output (several only for .md2 and compiled .ms3d output)"
            ),
            OptionProblem::TimeOnMd2 => format!(
                "{list} {apply} to MS3D models; use {} (and {}) for MD2",
                n(Frame),
                n(Anim)
            ),
            OptionProblem::FrameOnMs3d => {
                format!("{list} {apply} to MD2 models; use {} for MS3D", n(Time))
            }
            OptionProblem::FrameNeedsMd2 => format!(
                "{list} {apply} to MD2 models; use {} (and {}) for glTF and OBJ",
                n(Time),
                n(Anim)
            ),
            OptionProblem::PoseNeedsObjOutput => {
                format!("{list} {apply} to OBJ output only (glTF keeps every frame)")
            }
            OptionProblem::QuantizeNeedsGltfOutput => {
                format!("{list} {apply} to glTF output (.glb, .gltf)")
            }
            OptionProblem::RepairNeedsMd2Rewrite => {
                format!("{list} {apply} to MD2 output of MD2 models (not recompiled) and MDL output of MDL models")
            }
            OptionProblem::SkinNotUsed => {
                format!("{list} {apply} to glTF and OBJ output, and to output compiled from another format (.md2, .mdl, .md3, .ms3d, .txt), not to a model rewritten in its own format")
            }
            OptionProblem::Md5AnimNeedsMd5 { format } => {
                format!("{list} {apply} to MD5 models (.md5mesh), not {format}")
            }
            OptionProblem::IqmAnimNeedsIqm { format } => {
                format!("{list} {apply} to Inter-Quake Models (.iqm), not {format}")
            }
            OptionProblem::AsciiPartsNeedAscii { format } => {
                format!("{list} {apply} to MilkShape 3D ASCII meshes files, not {format}")
            }
            OptionProblem::BadTime { time } => {
                format!("{list} {time}: must be a non-negative number of seconds")
            }
            OptionProblem::FrameOutOfRange {
                frame,
                animation,
                frames,
            } => format!("{list} {frame}: animation {animation:?} has {frames} frames"),
        }
    }
}

impl fmt::Display for OptionProblem {
    /// Neutral words: `the time option`, `the compile options`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(|o| match o {
            ConvertOption::Compile => "the compile options".to_string(),
            ConvertOption::MdlCompile => "the MDL compile options".to_string(),
            o => format!("the {} option", o.name()),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every problem, for the tests.
    fn all() -> Vec<OptionProblem> {
        use OptionProblem::*;
        vec![
            ClipNeedsGltfOrMd2Output,
            ClipNeedsTimeline,
            PoseWhenBaking,
            CompileNeedsMd2Output,
            RereleaseNeedsMd2Output,
            MdlCompileNeedsMdlOutput,
            OneAnimation,
            TimeOnMd2,
            FrameOnMs3d,
            FrameNeedsMd2,
            PoseNeedsObjOutput,
            QuantizeNeedsGltfOutput,
            RepairNeedsMd2Rewrite,
            SkinNotUsed,
            AsciiPartsNeedAscii {
                format: Format::Md2,
            },
            Md5AnimNeedsMd5 {
                format: Format::Md2,
            },
            IqmAnimNeedsIqm {
                format: Format::Md2,
            },
            BadTime { time: -1.0 },
            FrameOutOfRange {
                frame: 9,
                animation: "run".into(),
                frames: 6,
            },
        ]
    }

    #[test]
    fn every_option_at_fault_is_named_by_the_front_end() {
        for p in all() {
            let text = p.words(|o| format!("<{}>", o.name()));
            for o in p.options() {
                assert!(text.contains(&format!("<{}>", o.name())), "{text}");
            }
            // Neutral words name no flag.
            assert!(!p.to_string().contains("--"), "{p}");
        }
    }

    #[test]
    fn the_verb_agrees_with_the_options() {
        let one = OptionProblem::SkinNotUsed.words(|_| "--skin".into());
        assert!(one.starts_with("--skin applies to"), "{one}");
        let group = OptionProblem::CompileNeedsMd2Output.words(|_| "--fps, --engine".into());
        assert_eq!(group, "--fps, --engine apply to .md2 and .md5mesh output");
    }
}
