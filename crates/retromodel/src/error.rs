//! The crate's one public error type.
//!
//! Every error says what went wrong, where (a section and an index, such as
//! `frame 12 vertex 301`) and at which byte offset of the file, so that a
//! message alone is enough to find the fault with a hex editor.

use crate::format_kind::Format;

/// An error while reading or writing a model.
///
/// Reading never panics and never allocates more than the input can justify;
/// anything it cannot make sense of comes back as one of these variants.
///
/// ```
/// use retromodel::{md2::Md2, Error};
///
/// let err = Md2::from_bytes(b"IDP2").unwrap_err();
/// assert!(matches!(err, Error::Truncated { .. }));
/// assert_eq!(
///     err.to_string(),
///     "header: needs 68 bytes at offset 0x0 but the file is 4 bytes long"
/// );
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The data ends before a part that the header or a count promises.
    #[error("{context}: needs {needed} bytes at offset {offset:#x} but the file is {file_len} bytes long")]
    Truncated {
        /// The part being read, e.g. `frame 12` or `header`.
        context: String,
        /// Byte offset where the part starts.
        offset: u64,
        /// How many bytes the part needs.
        needed: u64,
        /// Length of the whole input.
        file_len: u64,
    },
    /// The file does not start with the format's magic bytes.
    #[error("not a {format} file: magic {found:?} at offset 0x0, expected {expected:?}")]
    BadMagic {
        /// The format that was expected.
        format: Format,
        /// The magic that was expected.
        expected: &'static str,
        /// What the file holds there, shown lossily.
        found: String,
    },
    /// The data is in no format this crate knows.
    #[error(
        "unknown format: starts with {found:?}, expected \"IDP2\" (MD2), \"IDPO\" (MDL), \"IDP3\" (MD3), \"MS3D000000\" (MS3D), \"INTERQUAKEMODEL\" (IQM), glTF or OBJ"
    )]
    UnknownFormat {
        /// The first bytes, shown lossily.
        found: String,
    },
    /// The data is in a format this crate recognises but does not read (a
    /// Kingpin MDX, an image ...).
    #[error("this is {what} (starts with {magic:?}), which retromodel does not read (it reads MD2, MDL, MD3, MS3D, MD5, IQM, MilkShape 3D ASCII, glTF and OBJ)")]
    UnsupportedFormat {
        /// What the data is, e.g. `a Kingpin MDX model`.
        what: &'static str,
        /// The bytes that tell, shown lossily.
        magic: String,
    },
    /// The data is in a format this crate reads, but not as built: the
    /// features it needs are off.
    #[error("reading {format} needs retromodel's {features} features, which this build lacks")]
    NotBuiltIn {
        /// The format.
        format: Format,
        /// The features it needs.
        features: &'static str,
    },
    /// The version field names a version this crate does not know.
    #[error(
        "{format} version {found} is not supported (supported: {supported}) at offset {offset:#x}"
    )]
    UnsupportedVersion {
        /// The format being read.
        format: Format,
        /// The version the file claims.
        found: i64,
        /// The versions that are supported.
        supported: &'static str,
        /// Byte offset of the version field.
        offset: u64,
    },
    /// A field holds a value that makes the file unreadable (a negative
    /// count, overlapping sections, a frame size that cannot hold its
    /// vertices, ...).
    #[error("{context}: {message} at offset {offset:#x}")]
    Invalid {
        /// The field or part, e.g. `header.num_frames`.
        context: String,
        /// What is wrong with it.
        message: String,
        /// Byte offset of the field or part.
        offset: u64,
    },
    /// A model cannot be written as it is (a limit of the format is
    /// exceeded, or its parts disagree with each other).
    #[error("cannot write {context}: {message}")]
    Unwritable {
        /// The part of the model, e.g. `frames[3].vertices`.
        context: String,
        /// Why it cannot be written.
        message: String,
    },
    /// A `Scene` (of the `scene` module) whose parts do not fit together
    /// (a node's parent that is not a node, parents in a cycle).
    #[error("scene {path}: {message}")]
    InvalidScene {
        /// Where, e.g. `nodes[3].parent`.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A glTF document that cannot be imported (feature `gltf`): what is
    /// wrong, and where, as a JSON pointer into the document
    /// (`/accessors/12/count`) or, for the binary container, its part
    /// (`GLB header`, `GLB chunk 1`).
    ///
    /// ```
    /// let err = retromodel::Error::Gltf {
    ///     path: "/accessors/12/count".into(),
    ///     message: "900 elements need 10800 bytes but buffer view 3 has 512".into(),
    /// };
    /// assert_eq!(
    ///     err.to_string(),
    ///     "glTF /accessors/12/count: 900 elements need 10800 bytes but buffer view 3 has 512"
    /// );
    /// ```
    #[error("glTF {path}: {message}")]
    Gltf {
        /// Where: a JSON pointer (`/meshes/0/primitives/1/indices`), or a
        /// part of the GLB container.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A problem that strict reading does not accept (see
    /// `Md2::from_bytes_strict`): the first one `validate()` found, with
    /// its byte offset when it has one.
    #[error("{}: {}{}", .0.path, .0.message, .0.offset.map_or(String::new(), |o| format!(" at offset {o:#x}")))]
    Rejected(crate::Problem),
    /// A texture or skin image that cannot be decoded or encoded (feature
    /// `textures`); the texture error is the
    /// [`source`](std::error::Error::source).
    #[cfg(feature = "textures")]
    #[error("{context}: {source}")]
    Texture {
        /// Which texture, e.g. `texture` or `skin players/male/grunt.pcx`.
        context: String,
        /// What went wrong.
        #[source]
        source: crate::texture::TextureError,
    },
    /// Options of a compile or a render that cannot be used (a skin size
    /// out of range, an animation the model does not have ...), in words
    /// that name no front end's flags.
    #[error("{message}")]
    InvalidOptions {
        /// What is wrong, e.g. `no animation "run" (the model has: stand)`.
        message: String,
    },
    /// Conversion options that conflict, do not apply to the model or the
    /// output, or have a value that cannot be used, as data
    /// (`OptionProblem`, of the `convert` module): each front end words it
    /// with its own names for the options (`OptionProblem::words`);
    /// `Display` uses neutral names.
    #[cfg(feature = "scene")]
    #[error("{0}")]
    Option(crate::option_problem::OptionProblem),
    /// A Wavefront OBJ that cannot be read, with its line (1-based) where
    /// known.
    #[error("OBJ{}: {message}", .line.map_or(String::new(), |l| format!(" line {l}")))]
    Obj {
        /// The line of the fault.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A MilkShape 3D ASCII (`.txt`) file that cannot be read, with the
    /// line (1-based) of the fault, e.g.
    /// `ms3d ascii line 17: expected 7 fields for a vertex (flags x y z u v bone), found 3`;
    /// no line when the fault is in how files fit together (a piece given
    /// to `AsciiModel::combine` that lacks its section).
    #[error("ms3d ascii{}: {message}", .line.map_or(String::new(), |l| format!(" line {l}")))]
    Ms3dAscii {
        /// The line of the fault (1-based; blank and `//` lines count).
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// An id Tech 4 MD5 file (`md5mesh`, `md5anim`) or the rerelease's
    /// `md5scale` sidecar that cannot be read, with the line (1-based) of
    /// the fault, e.g. `md5mesh line 12: weight 7 names joint 40 but there
    /// are 33 joints`.
    #[error("{file}{}: {message}", .line.map_or(String::new(), |l| format!(" line {l}")))]
    Md5 {
        /// Which file: `md5mesh`, `md5anim` or `md5scale`.
        file: &'static str,
        /// The line of the fault (1-based).
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// An Inter-Quake Export text (`.iqe`) that cannot be read or
    /// compiled, with the line (1-based) of the fault, e.g. `IQE line 40:
    /// fm names vertex 12 but there are 9`.
    #[error("IQE{}: {message}", .line.map_or(String::new(), |l| format!(" line {l}")))]
    Iqe {
        /// The line of the fault (1-based), when one line is at fault.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A model asked for as bytes of a format it is not kept in: an MD5
    /// or an imported glTF or OBJ has no bytes of its own to write back
    /// (they are converted instead).
    #[error("cannot write a {from} model back as .{to}: convert it instead")]
    Unconvertible {
        /// The input's format.
        from: Format,
        /// The output's extension.
        to: &'static str,
    },
    /// A clip (a named frame range of an MS3D timeline) that cannot be
    /// cut from the timeline: its range is reversed, not finite, or not
    /// inside the timeline.
    #[error("clip {name:?} (frames {first_frame}-{last_frame}): {message}")]
    InvalidClip {
        /// The clip's name.
        name: String,
        /// Its first frame.
        first_frame: f32,
        /// Its last frame.
        last_frame: f32,
        /// What is wrong with it.
        message: String,
    },
    /// An error with what the user can do about it: the limit passed and
    /// the remedies ([`Advice`](crate::advice::Advice)). `Display` words
    /// the advice in neutral terms after the error; a front end words it
    /// in its own vocabulary from [`Error::advice`] after
    /// [`Error::unadvised`]'s message.
    ///
    /// ```
    /// use retromodel::advice::{Advice, Remedy};
    /// use retromodel::Error;
    ///
    /// let err = Error::InvalidOptions { message: "a PCX skin needs a palette".into() }
    ///     .advised(Advice::new(None, vec![Remedy::Palette, Remedy::SkinPngOrTga]));
    /// assert_eq!(err.unadvised().to_string(), "a PCX skin needs a palette");
    /// assert_eq!(err.advice().unwrap().remedies[0], Remedy::Palette);
    /// assert!(err.to_string().starts_with("a PCX skin needs a palette; give a 256-colour palette"));
    /// ```
    #[error("{}", advised_text(error, advice))]
    Advised {
        /// The error.
        error: Box<Error>,
        /// What would help.
        advice: crate::advice::Advice,
    },
}

/// An advised error's text: the error, then the advice when it has
/// remedies.
fn advised_text(error: &Error, advice: &crate::advice::Advice) -> String {
    if advice.remedies.is_empty() {
        error.to_string()
    } else {
        format!("{error}; {advice}")
    }
}

impl Error {
    /// The byte offset this error points at, if it has one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::Truncated { offset, .. }
            | Error::UnsupportedVersion { offset, .. }
            | Error::Invalid { offset, .. } => Some(*offset),
            Error::BadMagic { .. }
            | Error::UnknownFormat { .. }
            | Error::UnsupportedFormat { .. }
            | Error::NotBuiltIn { .. } => Some(0),
            Error::Rejected(problem) => problem.offset,
            Error::Advised { error, .. } => error.offset(),
            #[cfg(feature = "scene")]
            Error::Option(_) => None,
            #[cfg(feature = "textures")]
            Error::Texture { source, .. } => source.offset(),
            Error::Unwritable { .. }
            | Error::InvalidClip { .. }
            | Error::InvalidScene { .. }
            | Error::Gltf { .. }
            | Error::InvalidOptions { .. }
            | Error::Unconvertible { .. }
            | Error::Obj { .. }
            | Error::Ms3dAscii { .. }
            | Error::Md5 { .. }
            | Error::Iqe { .. } => None,
        }
    }

    /// This error with `advice` ([`Error::Advised`]).
    pub fn advised(self, advice: crate::advice::Advice) -> Self {
        Error::Advised {
            error: Box::new(self),
            advice,
        }
    }

    /// What the user can do about this error, if the library knows.
    pub fn advice(&self) -> Option<&crate::advice::Advice> {
        match self {
            Error::Advised { advice, .. } => Some(advice),
            _ => None,
        }
    }

    /// The error without its advice (itself when it has none): what a
    /// front end prints before wording the [`advice`](Error::advice) its
    /// own way.
    pub fn unadvised(&self) -> &Error {
        match self {
            Error::Advised { error, .. } => error.unadvised(),
            other => other,
        }
    }

    pub(crate) fn invalid(
        context: impl Into<String>,
        message: impl Into<String>,
        offset: u64,
    ) -> Self {
        Error::Invalid {
            context: context.into(),
            message: message.into(),
            offset,
        }
    }

    pub(crate) fn unwritable(context: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Unwritable {
            context: context.into(),
            message: message.into(),
        }
    }
}

/// A `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
