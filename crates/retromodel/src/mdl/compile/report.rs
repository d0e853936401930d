//! What an MDL compile reports: the frames it made, the grid's error and
//! the seams, and the warnings (structured, worded by each front end).

use std::fmt;

use crate::advice::{Advice, Remedy};

/// One animation of the compiled model.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationReport {
    /// Its name in the frame names (`run` for `run1`..`run8`).
    pub name: String,
    /// The scene animation's name (empty for the rest pose).
    pub source: String,
    /// Index of its first entry in the MDL's frame list.
    pub first_frame: usize,
    /// How many simple frames it has.
    pub frames: usize,
    /// Whether it is stored as one frame group (one entry of the frame
    /// list) rather than single frames.
    pub group: bool,
}

/// What a compile made.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CompileReport {
    /// The animations, in frame order.
    pub animations: Vec<AnimationReport>,
    /// Simple frames (those in groups included).
    pub simple_frames: usize,
    /// Vertices of the scene's meshes that triangles use.
    pub source_vertices: usize,
    /// Positions after welding (vertices whose bytes agree in every frame
    /// are one).
    pub welded_vertices: usize,
    /// MDL vertices: welded positions, split where their corners need
    /// texture coordinates that the seam cannot give them.
    pub vertices: usize,
    /// Of them, those with the onseam flag.
    pub onseam_vertices: usize,
    /// Triangles written.
    pub triangles: usize,
    /// Triangles that face front (the others show the skin's back half
    /// for their onseam vertices).
    pub front_triangles: usize,
    /// The one grid's step per axis (the header's scale).
    pub step: [f32; 3],
    /// The largest distance on an axis between a baked position and the
    /// position its bytes decode to, in Quake units (after scaling).
    pub max_error: f32,
    /// The same as a fraction of its axis's step (at most one half: the
    /// positions are quantised to the nearest byte on a grid that covers
    /// them all).
    pub max_step_fraction: f32,
    /// Root mean square of the per-axis errors, in Quake units.
    pub rms_error: f32,
    /// The scale applied to scene units.
    pub scale: f32,
    /// The skin's size written, in pixels.
    pub skin_size: (u32, u32),
}

/// Something a compile changed, filled in or left out.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum CompileWarning {
    /// An animation's name could not be written as it is (too long for
    /// 16-byte frame names, characters frame names cannot carry, or a
    /// duplicate).
    AnimationRenamed {
        /// The scene's name.
        from: String,
        /// The name in the frame names.
        to: String,
        /// Why.
        reason: &'static str,
    },
    /// Triangles left out because welding made two corners one vertex or
    /// an index was out of range.
    TrianglesDropped {
        /// How many.
        count: usize,
    },
    /// Texture coordinates outside the skin (or their material's part of
    /// it): clamped to its edge, since an MDL's coordinates are pixels of
    /// the skin.
    UvsClamped {
        /// How many triangle corners.
        corners: usize,
    },
    /// The skin was taller, or held more pixels, than the engine loads:
    /// scaled down.
    SkinScaled {
        /// The size made, in pixels.
        from: (u32, u32),
        /// The size written.
        to: (u32, u32),
    },
    /// The skin's width was not a multiple of 4 (which id's loader
    /// refuses): widened with copies of its last column, so every texel
    /// keeps its place.
    SkinPadded {
        /// The width made.
        from: u32,
        /// The width written.
        to: u32,
    },
    /// An entry of the frame table (the player's, `player: true`, or a
    /// model's, `frames_like`) the scene has no animation for, filled
    /// with another.
    TableAnimationMissing {
        /// The entry (`axrun`, `deathc`).
        name: String,
        /// Which table (`the player table`, `the frame table of ogre.mdl`).
        table: String,
        /// What its frames show.
        filled_with: String,
    },
    /// A scene animation that fills no entry of the frame table, left
    /// out.
    TableAnimationUnused {
        /// Its name.
        name: String,
        /// Which table.
        table: String,
    },
    /// A player model (`player: true`) far from a Quake player's height
    /// (the game's box is 56 units tall), with no `fit_height` given
    /// ([`advice`](CompileWarning::advice): fit the height to
    /// [`PLAYER_HEIGHT`](super::PLAYER_HEIGHT)).
    PlayerSize {
        /// The height written: the Z extent of all frames, in Quake units.
        height: f32,
    },
    /// Something about the skin: a texture that did not decode, alpha
    /// dropped.
    Skin {
        /// What.
        message: String,
    },
}

impl fmt::Display for CompileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileWarning::AnimationRenamed { from, to, reason } => {
                write!(f, "animation {from:?} is written as {to:?}: {reason}")
            }
            CompileWarning::TrianglesDropped { count } => write!(
                f,
                "{count} triangles left out (degenerate after welding, or indices out of range)"
            ),
            CompileWarning::UvsClamped { corners } => write!(
                f,
                "{corners} texture coordinates outside the skin (or their texture's part of it) clamped to its edge"
            ),
            CompileWarning::SkinScaled { from, to } => write!(
                f,
                "skin: the skin is {}x{}, larger than the engine loads: scaled down to {}x{}",
                from.0, from.1, to.0, to.1
            ),
            CompileWarning::SkinPadded { from, to } => write!(
                f,
                "skin: {from} pixels wide is not a multiple of 4: widened to {to} with copies of the last column"
            ),
            CompileWarning::TableAnimationMissing {
                name,
                table,
                filled_with,
            } => write!(
                f,
                "the scene has no {name:?} animation for {table}: its frames show {filled_with}"
            ),
            CompileWarning::TableAnimationUnused { name, table } => write!(
                f,
                "animation {name:?} has no place in {table} and is left out"
            ),
            CompileWarning::PlayerSize { height } => write!(
                f,
                "the player model is {height:.3} units tall; a Quake player is about {} (its box runs from -24 to 32)",
                super::PLAYER_HEIGHT
            ),
            CompileWarning::Skin { message } => write!(f, "skin: {message}"),
        }
    }
}

impl CompileWarning {
    /// What the user can do about the warning, when something helps.
    /// `Display` says what happened; front ends word this after it.
    pub fn advice(&self) -> Option<Advice> {
        match self {
            CompileWarning::SkinScaled { .. } => {
                Some(Advice::new(None, vec![Remedy::SmallerTextures]))
            }
            CompileWarning::PlayerSize { .. } => Some(Advice::new(
                None,
                vec![Remedy::FitHeight {
                    units: super::PLAYER_HEIGHT as u32,
                }],
            )),
            _ => None,
        }
    }
}
