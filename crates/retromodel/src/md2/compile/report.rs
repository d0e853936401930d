//! What a compile did: per-animation frame counts and quantisation
//! errors ([`CompileReport`]) and what it had to change or leave out
//! ([`CompileWarning`]).

use std::fmt;

use crate::advice::{Advice, Remedy};

/// A Quake II player's height in Quake units: the box the game gives a
/// standing player runs from −24 to 32 in Z (`PutClientInServer` in the
/// game's `p_client.c`: `mins = {-16, -16, -24}`, `maxs = {16, 16, 32}`).
pub const PLAYER_HEIGHT: f32 = 56.0;

/// The heights a player model may have without a
/// [`CompileWarning::PlayerSize`]: from half of [`PLAYER_HEIGHT`] (28, the
/// height of the crouching box, whose top `pmove.c` lowers to 4) to twice
/// it. A whole animation's extent differs from the standing box (a death
/// lies lower, a jump reaches higher), but a model outside this range is
/// in other units (a Blender scene in metres is about 1.8 tall).
pub const PLAYER_HEIGHT_RANGE: std::ops::RangeInclusive<f32> =
    (PLAYER_HEIGHT / 2.0)..=(PLAYER_HEIGHT * 2.0);

/// The result of quantising one animation's frames.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationReport {
    /// The animation's name in the MD2 (what `Md2::animations` gives).
    pub name: String,
    /// The name of the scene animation it was baked from (empty for the
    /// rest pose or a filler).
    pub source: String,
    /// Index of its first frame.
    pub first_frame: usize,
    /// Number of frames.
    pub frames: usize,
    /// The time in the source animation, in seconds, each frame shows
    /// (all 0 for a rest pose or a filler).
    pub times: Vec<f32>,
    /// Largest error on any axis of any vertex, in Quake units: how far a
    /// decoded MD2 position lies from the posed source position.
    pub max_error: f32,
    /// Root mean square of the vertices' position errors (Euclidean), in
    /// Quake units.
    pub rms_error: f32,
    /// Largest error on any axis divided by that axis's grid step
    /// (`scale`): at most 0.5 unless a grid given by
    /// [`GridSource`](super::GridSource) does not cover the model; 0 where
    /// every axis is exact.
    pub max_step_fraction: f32,
}

/// What a compile produced, animation by animation.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CompileReport {
    /// One entry per MD2 animation, in frame order.
    pub animations: Vec<AnimationReport>,
    /// Vertices of the source meshes that triangles use.
    pub source_vertices: usize,
    /// MD2 vertices after welding.
    pub vertices: usize,
    /// MD2 triangles.
    pub triangles: usize,
    /// Distinct texture coordinates.
    pub texcoords: usize,
    /// The factor source units were multiplied by (from `scale`,
    /// `fit_height`, or 1).
    pub scale: f32,
    /// Whether the scene's recorded MD2 data (`Scene::from_md2`'s extras)
    /// was used: the original grids, vertex order and frame names.
    pub reused_md2_source: bool,
}

impl CompileReport {
    /// The largest [`AnimationReport::max_error`].
    pub fn max_error(&self) -> f32 {
        self.animations
            .iter()
            .map(|a| a.max_error)
            .fold(0.0, f32::max)
    }

    /// The largest [`AnimationReport::max_step_fraction`].
    pub fn max_step_fraction(&self) -> f32 {
        self.animations
            .iter()
            .map(|a| a.max_step_fraction)
            .fold(0.0, f32::max)
    }
}

/// Something a compile changed, filled in or left out.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum CompileWarning {
    /// An animation's name could not be written as it is (too long for
    /// 15-byte frame names, characters or trailing separators frame names
    /// cannot carry, or a duplicate); `Md2::animations` gives `to`.
    AnimationRenamed {
        /// The scene's name.
        from: String,
        /// The name in the MD2.
        to: String,
        /// Why.
        reason: &'static str,
    },
    /// A standard player animation the scene does not have, filled with
    /// `filled_with` (`stand`'s first pose, or the rest pose).
    PlayerAnimationMissing {
        /// The table's name.
        name: &'static str,
        /// What its frames show.
        filled_with: &'static str,
    },
    /// A scene animation that matches no standard player animation and
    /// was left out of a player model.
    PlayerAnimationUnused {
        /// The scene's name.
        name: String,
    },
    /// The frame names would not group back into the animations as
    /// written (for example 198 frames whose runs look like the player
    /// table).
    AnimationsAmbiguous {
        /// What `Md2::animations` will give instead.
        found: Vec<(String, usize)>,
    },
    /// Triangles left out because welding made two corners one vertex or
    /// an index was out of range.
    TrianglesDropped {
        /// How many.
        count: usize,
    },
    /// Texture coordinates outside 0..1 of a texture packed into an
    /// atlas, where repeating is impossible: clamped to the texture's
    /// edge.
    UvsClamped {
        /// How many vertices.
        vertices: usize,
    },
    /// Positions outside a grid given by `grid_from`: clamped to its
    /// edge, so their error exceeds half a step.
    PositionsClamped {
        /// How many vertex positions (over all frames).
        positions: usize,
    },
    /// The scene's recorded MD2 data was present but no longer fits the
    /// geometry or the frames; the model was compiled from scratch.
    Md2SourceIgnored {
        /// Why.
        reason: String,
    },
    /// No skin image and no skin size were given: the texture
    /// coordinates are laid on a skin of this size
    /// ([`advice`](CompileWarning::advice): give the skin's size).
    SkinSizeAssumed {
        /// The width assumed, in pixels.
        width: u32,
        /// The height assumed, in pixels.
        height: u32,
    },
    /// The skin image was larger than the engine loads: scaled down
    /// ([`advice`](CompileWarning::advice): smaller textures).
    SkinScaled {
        /// The atlas's size, in pixels.
        from: (u32, u32),
        /// The skin's size written.
        to: (u32, u32),
    },
    /// The engine loads only PCX skins, and the skin is written in
    /// another format ([`advice`](CompileWarning::advice): a palette).
    SkinNotPcx {
        /// The engine's name for messages (`Quake II`).
        engine: &'static str,
        /// The skin's format (its extension: `png`, `tga`).
        format: &'static str,
    },
    /// A player model (`player: true`) whose animations are far from a
    /// Quake II player's height (the game's box is 56 units tall), with
    /// no `fit_height` given ([`advice`](CompileWarning::advice): fit the
    /// height to [`PLAYER_HEIGHT`]).
    PlayerSize {
        /// The height written: the Z extent of all frames, in Quake units.
        height: f32,
    },
    /// Something about the skin: format, alpha, missing images.
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
            CompileWarning::PlayerAnimationMissing { name, filled_with } => write!(
                f,
                "the scene has no {name:?} animation for the player table: its frames show {filled_with}"
            ),
            CompileWarning::PlayerAnimationUnused { name } => write!(
                f,
                "animation {name:?} is not a standard player animation and is left out"
            ),
            CompileWarning::AnimationsAmbiguous { found } => {
                write!(f, "the frame names group back as ")?;
                for (i, (n, c)) in found.iter().enumerate() {
                    write!(f, "{}{n} ({c})", if i > 0 { ", " } else { "" })?;
                }
                Ok(())
            }
            CompileWarning::TrianglesDropped { count } => write!(
                f,
                "{count} triangles left out (degenerate after welding, or indices out of range)"
            ),
            CompileWarning::UvsClamped { vertices } => write!(
                f,
                "{vertices} texture coordinates outside 0..1 clamped into their texture's tile (an atlas cannot repeat)"
            ),
            CompileWarning::PositionsClamped { positions } => write!(
                f,
                "{positions} positions lie outside the given grids and were clamped to their edges"
            ),
            CompileWarning::Md2SourceIgnored { reason } => {
                write!(f, "the scene's MD2 source data is not used: {reason}")
            }
            CompileWarning::SkinSizeAssumed { width, height } => write!(
                f,
                "skin: no skin image and no skin size: {width}×{height} assumed"
            ),
            CompileWarning::SkinScaled { from, to } => write!(
                f,
                "skin: the skin is {}x{}, over the engine's limit: scaled down to {}x{}",
                from.0, from.1, to.0, to.1
            ),
            CompileWarning::SkinNotPcx { engine, format } => write!(
                f,
                "skin: {engine} loads only PCX skins; this one is {format}"
            ),
            CompileWarning::PlayerSize { height } => write!(
                f,
                "the player model is {height:.3} units tall; a Quake II player is about \
                 {PLAYER_HEIGHT} (its box runs from -24 to 32)"
            ),
            CompileWarning::Skin { message } => write!(f, "skin: {message}"),
        }
    }
}

impl CompileWarning {
    /// What the user can do about the warning, when an option helps.
    /// `Display` says what happened; front ends word this after it.
    ///
    /// ```
    /// use retromodel::advice::Remedy;
    /// use retromodel::md2::compile::CompileWarning;
    ///
    /// let w = CompileWarning::SkinSizeAssumed { width: 256, height: 256 };
    /// assert_eq!(w.advice().unwrap().remedies, [Remedy::SkinSize]);
    /// ```
    pub fn advice(&self) -> Option<Advice> {
        match self {
            CompileWarning::SkinSizeAssumed { .. } => {
                Some(Advice::new(None, vec![Remedy::SkinSize]))
            }
            CompileWarning::SkinScaled { .. } => {
                Some(Advice::new(None, vec![Remedy::SmallerTextures]))
            }
            CompileWarning::SkinNotPcx { .. } => Some(Advice::new(None, vec![Remedy::Palette])),
            CompileWarning::PlayerSize { .. } => Some(Advice::new(
                None,
                vec![Remedy::FitHeight {
                    units: PLAYER_HEIGHT as u32,
                }],
            )),
            _ => None,
        }
    }
}
