//! What a user can do about a refusal or a warning, as data: which limit
//! was passed and by how much ([`Limit`]), and which remedies would help
//! ([`Remedy`]).
//!
//! The library never names its own API in a message; each front end words
//! an [`Advice`] in its own vocabulary (the command line's flags, Python's
//! keyword arguments, the Blender panel's labels). `Display` words it in
//! neutral terms, for Rust callers.
//!
//! ```
//! use retromodel::advice::{Advice, Limit, Quantity, Remedy};
//! use retromodel::md2::Engine;
//!
//! let advice = Advice::new(
//!     Some(Limit { quantity: Quantity::Frames, max: 512, actual: 600 }),
//!     vec![Remedy::LowerFps, Remedy::Engine { engine: Engine::UfoAi, allows: Some(1023) }],
//! );
//! assert_eq!(advice.limit.unwrap().over(), 88);
//! assert_eq!(
//!     advice.to_string(),
//!     "lower the frame rate, or target UFO:AI (allows 1023)"
//! );
//! // A front end words each remedy its own way:
//! let cli = advice.words(|r| match r {
//!     Remedy::LowerFps => "lower --fps".to_string(),
//!     Remedy::Engine { engine, .. } => format!("--engine {}", engine.name()),
//!     other => other.to_string(),
//! });
//! assert_eq!(cli, "lower --fps, or --engine ufoai");
//! ```

use std::fmt;

use crate::engine::Engine;

/// A count a limit applies to.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// Frames of an MD2.
    Frames,
    /// Vertices (of an MD2 frame, after welding; of an MS3D).
    Vertices,
    /// Triangles.
    Triangles,
    /// Skins of an MD2.
    Skins,
    /// Bytes of a skin name, before its NUL.
    SkinNameBytes,
    /// Skin width in pixels.
    SkinWidth,
    /// Skin height in pixels.
    SkinHeight,
    /// Bytes of the whole file.
    FileBytes,
    /// Groups of an MS3D (one per scene mesh).
    Groups,
    /// Materials of an MS3D.
    Materials,
    /// Joints of an MS3D.
    Joints,
    /// Sample times × joints an MS3D compile evaluates.
    Samples,
    /// Surfaces of an MD3.
    Surfaces,
    /// Tags per frame of an MD3.
    Tags,
    /// Bytes of a glTF document's JSON.
    GltfJsonBytes,
    /// Bytes of buffer data a glTF import reads.
    GltfBufferBytes,
    /// Bytes a glTF import's scene may take.
    GltfOutputBytes,
}

impl Quantity {
    /// What is counted, in the plural, for messages (`frames`, `skin
    /// width in pixels` ...).
    pub fn noun(self) -> &'static str {
        match self {
            Quantity::Frames => "frames",
            Quantity::Vertices => "vertices",
            Quantity::Triangles => "triangles",
            Quantity::Skins => "skins",
            Quantity::SkinNameBytes => "bytes of skin name",
            Quantity::SkinWidth => "pixels of skin width",
            Quantity::SkinHeight => "pixels of skin height",
            Quantity::FileBytes => "bytes of file",
            Quantity::Groups => "groups",
            Quantity::Materials => "materials",
            Quantity::Joints => "joints",
            Quantity::Samples => "samples",
            Quantity::Surfaces => "surfaces",
            Quantity::Tags => "tags",
            Quantity::GltfJsonBytes => "bytes of glTF JSON",
            Quantity::GltfBufferBytes => "bytes of glTF buffer data",
            Quantity::GltfOutputBytes => "bytes of imported scene",
        }
    }
}

/// A limit passed: of what, the most allowed and how many there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limit {
    /// What is counted.
    pub quantity: Quantity,
    /// The most allowed.
    pub max: u64,
    /// How many there are (or would be).
    pub actual: u64,
}

impl Limit {
    /// By how much the limit is passed.
    pub fn over(&self) -> u64 {
        self.actual.saturating_sub(self.max)
    }
}

/// One thing the user can do. The first variants are options of a compile
/// (each front end names its own flag, keyword or field for them); the
/// rest are edits of the model itself.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Remedy {
    /// Bake the animations at a lower frame rate.
    LowerFps,
    /// Bake or choose fewer animations.
    FewerAnimations,
    /// Target another engine, which allows this many (`None`: no limit).
    Engine {
        /// The engine.
        engine: Engine,
        /// What it allows of the limit's quantity; `None` when it has no
        /// limit.
        allows: Option<u64>,
    },
    /// Give the skin's size (there is no image to take it from).
    SkinSize,
    /// Give one skin name, short enough.
    SkinName,
    /// Give a 256-colour palette for an 8-bit PCX skin (Quake II's is
    /// `pics/colormap.pcx`, which retromodel does not ship).
    Palette,
    /// Give Quake's palette for a Quake MDL's 8-bit skins (`gfx/palette.lmp`
    /// from the game's `pak0.pak`, which retromodel does not ship).
    QuakePalette,
    /// Write the skin as PNG or TGA, for an engine that loads them.
    SkinPngOrTga,
    /// Merge vertices (fewer seams, fewer splits).
    MergeVertices,
    /// Decimate the meshes.
    Decimate,
    /// Split the model into several files.
    SplitModel,
    /// Use smaller textures (or fewer, for an atlas).
    SmallerTextures,
    /// Fewer texture seams or triangles.
    FewerSeams,
    /// Join meshes that share a material (each scene mesh is a group).
    JoinMeshes,
    /// Merge materials.
    MergeMaterials,
    /// Remove or merge joints (every skin joint and every animated node
    /// that places a mesh is one).
    FewerJoints,
    /// Scale the model so that it is this many units tall (a Quake II
    /// player: 56).
    FitHeight {
        /// The height to fit, in Quake units.
        units: u32,
    },
}

impl fmt::Display for Remedy {
    /// Neutral words, naming no option of any front end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remedy::LowerFps => f.write_str("lower the frame rate"),
            Remedy::FewerAnimations => f.write_str("bake fewer animations"),
            Remedy::Engine { engine, allows } => {
                write!(f, "target {}", engine.title())?;
                match allows {
                    Some(n) => write!(f, " (allows {n})"),
                    None => f.write_str(" (no limit)"),
                }
            }
            Remedy::SkinSize => f.write_str("give the skin's size"),
            Remedy::SkinName => f.write_str("give one short skin name"),
            Remedy::Palette => f.write_str(
                "give a 256-colour palette (Quake II's pics/colormap.pcx, which retromodel does not ship)",
            ),
            Remedy::QuakePalette => f.write_str(
                "give Quake's palette (gfx/palette.lmp, in the game's id1/pak0.pak; retromodel does not ship it), or put it beside the model as gfx/palette.lmp",
            ),
            Remedy::SkinPngOrTga => f.write_str(
                "write the skin as PNG or TGA for an engine that loads them (yquake2, Q2PRO, KMQuake2, UFO:AI)",
            ),
            Remedy::MergeVertices => f.write_str("merge vertices"),
            Remedy::Decimate => f.write_str("decimate the meshes"),
            Remedy::SplitModel => f.write_str("split the model into several files"),
            Remedy::SmallerTextures => f.write_str("use smaller textures (or fewer, for an atlas)"),
            Remedy::FewerSeams => f.write_str("use fewer texture seams or triangles"),
            Remedy::JoinMeshes => {
                f.write_str("join meshes that share a material (each scene mesh is a group)")
            }
            Remedy::MergeMaterials => f.write_str("merge materials"),
            Remedy::FewerJoints => f.write_str(
                "remove or merge joints (every skin joint and every animated node that places a mesh is one)",
            ),
            Remedy::FitHeight { units } => write!(f, "scale the model to {units} units tall"),
        }
    }
}

/// What was passed and what would help: carried by
/// [`Error::Advised`](crate::Error::Advised) and by warnings that have a
/// remedy.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Advice {
    /// The limit passed, if a limit is the reason.
    pub limit: Option<Limit>,
    /// What would help, most fitting first (may be empty: a limit no
    /// option of a front end raises).
    pub remedies: Vec<Remedy>,
}

impl Advice {
    /// Advice of `remedies` about `limit`.
    pub fn new(limit: Option<Limit>, remedies: Vec<Remedy>) -> Self {
        Advice { limit, remedies }
    }

    /// The remedies worded by `word`, joined with `, or `: how every front
    /// end lists them.
    pub fn words(&self, word: impl Fn(&Remedy) -> String) -> String {
        self.remedies
            .iter()
            .map(word)
            .collect::<Vec<_>>()
            .join(", or ")
    }
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Remedy::to_string))
    }
}
