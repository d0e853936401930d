//! What a conversion passed over or had to change.

use crate::md2::compile::CompileWarning;
use crate::ms3d::compile::Ms3dCompileWarning;
use crate::problem::Problem;

/// Something a conversion passed over or had to change; it went on.
/// `Display` gives one line, without the model's name.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    /// A texture that could not be had (feature `textures`).
    #[cfg(feature = "textures")]
    Texture(crate::scene::TextureWarning),
    /// What the reader of a glTF or OBJ passed over.
    Read(Problem),
    /// What the MD2 compiler had to change.
    Compile(CompileWarning),
    /// What the MS3D compiler had to change.
    Ms3dCompile(Ms3dCompileWarning),
    /// What the MD3 compiler had to change.
    Md3Compile(crate::md3::compile::CompileWarning),
    /// What the MD3 compiler had to change in one part of a Quake III
    /// player.
    Md3PlayerCompile {
        /// `lower`, `upper` or `head`.
        part: &'static str,
        /// What it had to change.
        warning: crate::md3::compile::CompileWarning,
    },
    /// What making a Quake III player noticed.
    Md3Player(crate::md3::compile::PlayerNote),
    /// What the MDL compiler had to change (feature `textures`).
    #[cfg(feature = "textures")]
    MdlCompile(crate::mdl::compile::CompileWarning),
    /// What the MD5 compiler could not carry exactly or an engine will
    /// not load (`--rerelease`, `.md5mesh` output).
    #[cfg(feature = "scene")]
    Md5Compile(crate::md5::compile::Md5CompileWarning),
    /// What the IQM compiler could not carry exactly.
    #[cfg(feature = "scene")]
    IqmCompile(crate::iqm::compile::IqmCompileWarning),
    /// A limit of MilkShape 3D 1.8 that an MS3D written as read exceeds
    /// ([`Ms3d::validate_for_milkshape`](crate::ms3d::Ms3d::validate_for_milkshape)).
    Milkshape(Problem),
    /// Something of an MS3D that its MilkShape ASCII text cannot hold
    /// ([`AsciiModel::losses`](crate::ms3d::ascii::AsciiModel::losses)).
    Ms3dAscii(Problem),
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            #[cfg(feature = "textures")]
            Warning::Texture(w) => w.fmt(f),
            Warning::Read(p) => write!(f, "{}: {}", p.path, p.message),
            Warning::Compile(w) => w.fmt(f),
            Warning::Ms3dCompile(w) => w.fmt(f),
            Warning::Md3Compile(w) => write!(f, "MD3: {w}"),
            Warning::Md3PlayerCompile { part, warning } => write!(f, "{part}.md3: {warning}"),
            Warning::Md3Player(n) => write!(f, "Quake III player: {n}"),
            #[cfg(feature = "textures")]
            Warning::MdlCompile(w) => w.fmt(f),
            #[cfg(feature = "scene")]
            Warning::Md5Compile(w) => write!(f, "MD5: {w}"),
            #[cfg(feature = "scene")]
            Warning::IqmCompile(w) => write!(f, "IQM: {w}"),
            Warning::Milkshape(p) => write!(f, "MilkShape 3D 1.8: {}: {}", p.path, p.message),
            Warning::Ms3dAscii(p) => write!(f, "MilkShape ASCII: {}: {}", p.path, p.message),
        }
    }
}

impl Warning {
    /// What the user can do about the warning, when an option helps
    /// (see [`CompileWarning::advice`]); `Display` says what happened.
    pub fn advice(&self) -> Option<crate::advice::Advice> {
        match self {
            Warning::Compile(w) => w.advice(),
            Warning::Md3Compile(w) => w.advice(),
            Warning::Md3PlayerCompile { warning, .. } => warning.advice(),
            #[cfg(feature = "textures")]
            Warning::Texture(w) => w.advice(),
            #[cfg(feature = "textures")]
            Warning::MdlCompile(w) => w.advice(),
            _ => None,
        }
    }
}
