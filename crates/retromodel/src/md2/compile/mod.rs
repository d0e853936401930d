//! Compiling any [`Scene`] into an MD2 (feature `scene`; skins need
//! `textures` too).
//!
//! [`compile`] poses the scene for every frame ([`Pose`]: skinning,
//! morph weights, node animation of the meshes' ancestors, every mesh),
//! welds, quantises, names the frames, packs the skin and checks the
//! result against the chosen [`Engine`]'s loader.
//!
//! [`Pose`]: crate::scene::Pose
//!
//! ```
//! use retromodel::md2::compile::{compile, CompileOptions};
//! use retromodel::scene::Scene;
//! use retromodel::md2::Md2SceneOptions;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let original = retromodel::md2::sample::sample_model();
//! let scene = Scene::from_md2(&original, &Md2SceneOptions::default());
//! let compiled = compile(&scene, &CompileOptions::default())?;
//! // The scene remembers its MD2: the frames come back byte for byte.
//! assert_eq!(compiled.model.frames, original.frames);
//! assert!(compiled.model.validate().is_empty());
//! # Ok(()) }
//! ```
//!
//! # Conventions
//!
//! - **Axes and winding.** Scene positions and normals map to Quake's
//!   axes by the inverse of [`md2_axes`](crate::md2::md2_axes), a
//!   rotation; each counter-clockwise scene triangle `[a, b, c]` becomes
//!   `[a, c, b]`, Quake's clockwise front face, so a model read with
//!   [`Scene::from_md2`] comes back with its triangles' corners in their
//!   original order.
//! - **Frames.** An animation lasting `D` seconds (its last key) becomes
//!   `N = round(D · fps) + 1` frames evenly over `[0, D]`: the first at 0,
//!   the last exactly at `D` (the end pose). When `D` is a whole number of
//!   frame intervals (to 0.1 % of one) the times are exactly `j / fps`, so
//!   frames land on keys; when it is not, frames are spread evenly rather
//!   than ending on a short interval (played at `fps` the MD2 then runs at
//!   most half a frame longer or shorter than the source, but never
//!   stutters). No duration: one frame. No animation at all: one frame,
//!   the rest pose. [`AnimationReport::times`] lists each frame's time.
//! - **Player table** (`player: true`): the 198 frames of
//!   [`PLAYER_ANIMATIONS`](crate::md2::PLAYER_ANIMATIONS) in its order,
//!   with id's frame names (`stand01`, `pain101`, `death308`). Each entry
//!   takes the scene animation of its name (ASCII case-insensitive), else
//!   one of these aliases: `idle` → `stand`; `pain` → `pain1`; `death` →
//!   `death1`; `crouch`, `crouch_idle`, `crouch_stand` → `crstnd`;
//!   `crouch_walk`, `crouch_run` → `crwalk`; `crattack`, `crouch_attack` →
//!   `crattak`; `crouch_pain` → `crpain`; `crdeth`, `crouch_death` →
//!   `crdeath` (exact names before aliases, then scene order). Its `N`
//!   frames are the clip resampled evenly over its duration, first and
//!   last pose included (`tⱼ = j · D / (N − 1)`). A missing entry shows
//!   the first pose of `stand` (the rest pose when `stand` is missing
//!   too), with a [`CompileWarning::PlayerAnimationMissing`]; scene
//!   animations no entry takes are left out, with a warning.
//! - **Frame names** (15 bytes of text and a NUL): frame `k` of `NAME` is
//!   `NAME` and `k` in at least two digits (`run01`..`run06`,
//!   `idle001`..`idle120`); a name ending in a digit gets `_` first
//!   (`attack2_01`): readers that take the text before the trailing
//!   digits see `attack2_`, ours strips the separator and keeps the `2`
//!   (writing `attack201` reads back as `attack`, Maverick Model 3D's
//!   issue #155). Characters outside printable ASCII become `_`,
//!   trailing separators are dropped, an empty name becomes `anim`; a name
//!   too long is cut to fit its numbers, and a name another animation
//!   already has gets `_2`, `_3` … (cut to fit): each a
//!   [`CompileWarning::AnimationRenamed`]. The names are grouped back with
//!   [`animations_from_names`](crate::md2::animations_from_names) and any
//!   difference is a [`CompileWarning::AnimationsAmbiguous`], so
//!   [`Md2::animations`] of the written file gives exactly the names and
//!   frame counts the report lists.
//! - **Welding.** Vertices (of any meshes) whose quantised positions are
//!   the same in every frame are one MD2 vertex: texture seams, split
//!   normals and mesh boundaries cost nothing, and the vertex count is
//!   what the distinct position trajectories need. Triangles whose
//!   corners then coincide are left out (with a warning). Only vertices a
//!   triangle uses become MD2 vertices.
//! - **Normals.** Per frame and MD2 vertex: the normalised sum of its
//!   source vertices' posed unit normals (a mesh without normals gets
//!   its posed triangles' area-weighted normals), mapped to the nearest
//!   of the 162 table normals ([`nearest_normal_index`]). Where the sum
//!   is zero (a double-sided sheet welded), the MD2 triangles' own
//!   area-weighted normal; +Z when that is zero too.
//! - **Quantisation.** Each axis of a set of points (a frame, an
//!   animation or the model: [`Grid`]) gets `translate` = its smallest
//!   value and `scale = extent / k` for the `k` in 255..=240 with the
//!   smallest largest error (255, qdata's grid, on ties; `scale = 0` for
//!   a flat axis, which is exact); each point takes the byte whose `f32`
//!   decode is nearest. So no coordinate errs by more than half of
//!   qdata's step, and lattice-like models can be exact. Shared grids:
//!   [`GridSource`], [`compile_together`].
//! - **Size.** Scene units times [`CompileOptions::scale`], or scaled so
//!   that the whole animation's bounding box is
//!   [`CompileOptions::fit_height`] Quake units tall (Z up). Quake II's
//!   player box is 56 units tall (−24..32), so a Blender human of 1.8 m
//!   wants `fit_height: Some(56.0)` (about 31 units per metre); scaling is
//!   about the origin, which stays the model's origin.
//! - **Skin**: see [`SkinOptions`].
//!
//! [`nearest_normal_index`]: crate::md2::nearest_normal_index

mod bake;
mod checked;
mod grid;
mod names;
mod plan;
mod refusal;
mod report;
#[cfg(feature = "textures")]
mod skin;
pub(crate) mod source;

use std::collections::HashMap;

use glam::Vec3;

pub use report::{AnimationReport, CompileReport, CompileWarning};

pub use crate::md2::{Engine, EngineLimits};
#[cfg(feature = "textures")]
pub use crate::texture::Palette;

use crate::advice::Quantity;
use crate::error::{Error, Result};
use crate::md2::{
    gl_commands, nearest_normal_index, Frame, FrameName, Md2, PackedVertex, SkinName, TexCoord,
    Triangle,
};
use crate::scene::Scene;
use crate::Severity;
use plan::Plan;
use refusal::{limit, limit_error};

/// Which frames share one quantisation grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Grid {
    /// Each frame its own grid: the smallest error, but a vertex that
    /// does not move in the source may move by up to a step between
    /// frames (the "wobble" of 8-bit models).
    #[default]
    Frame,
    /// One grid per animation: a vertex that does not move in the source
    /// has the same bytes, and decodes to bit-identical positions, in
    /// every frame of the animation.
    Animation,
    /// One grid for the whole model.
    Model,
}

/// The 8-bit grid of one frame: a position decodes as
/// `byte · scale + translate` per axis.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameGrid {
    /// Per-axis step.
    pub scale: [f32; 3],
    /// Per-axis position of byte 0.
    pub translate: [f32; 3],
}

impl FrameGrid {
    /// The grids of every frame of `model`, to compile another model onto
    /// them ([`GridSource::Frames`]).
    pub fn of_model(model: &Md2) -> Vec<FrameGrid> {
        model
            .frames
            .iter()
            .map(|f| FrameGrid {
                scale: f.scale,
                translate: f.translate,
            })
            .collect()
    }
}

/// Grids that were decided elsewhere, so that two models quantise alike.
///
/// A player model and its weapon (`w_*.md2` / `weapon.md2`) are drawn
/// at the same origin with the same frame numbers; quantised on
/// different grids they drift apart by up to a step. Two ways to keep
/// them together:
///
/// - [`compile_together`] compiles both scenes at once, on the grids of
///   the union of their positions (per frame, animation or model as
///   [`CompileOptions::grid`] says).
/// - `GridSource::Frames(FrameGrid::of_model(&player))` compiles the
///   weapon on the grids of an MD2 already made, which stays as it is.
///   Positions outside a given grid are clamped to its edge and reported
///   ([`CompileWarning::PositionsClamped`]).
#[derive(Debug, Clone, PartialEq)]
pub enum GridSource {
    /// One grid per frame, as many as the compile makes frames.
    Frames(Vec<FrameGrid>),
}

/// The skin file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SkinFormat {
    /// 8-bit PCX with a 256-colour palette (every Quake II engine; the
    /// only one id's loads). Needs [`SkinOptions`]' palette.
    #[default]
    Pcx,
    /// PNG (yquake2, Q2PRO, KMQuake2, UFO:AI).
    Png,
    /// TGA, RLE (yquake2, Q2PRO, KMQuake2, UFO:AI).
    Tga,
}

impl SkinFormat {
    /// The file extension, lower case, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            SkinFormat::Pcx => "pcx",
            SkinFormat::Png => "png",
            SkinFormat::Tga => "tga",
        }
    }
}

/// How the skin is made and named.
///
/// - **Image.** The used materials' base colour textures (their PNG
///   bytes, [`crate::scene::Texture::png`]; with feature `textures`)
///   become one skin image. When the meshes use one texture with white
///   base colour, it is the skin as it is and texture coordinates are
///   kept, even outside 0..1 (Quake II's renderers repeat skins).
///   Otherwise each distinct (texture, base colour) becomes a tile of an
///   atlas, its pixels multiplied by the colour (an untextured material:
///   an 8×8 tile of its colour), with a one-pixel border copied from its
///   edge against filtering bleed; tiles are shelf-packed, tallest first,
///   into the width (powers of two and the tiles' own) that gives the
///   smallest skin within the engine's size limits (square for UFO:AI).
///   Texture coordinates are remapped into their tile, and those outside
///   0..1 are clamped to the tile's edge (an atlas cannot repeat a tile),
///   with a [`CompileWarning::UvsClamped`]. The header's skin size is the
///   image's. Without images, no skin file is written
///   and the skin size is the one the scene recorded from an MD2, else
///   [`SkinOptions::size`], else 256×256 (with a warning).
/// - **Format.** [`SkinFormat::Pcx`] (default) quantises to
///   [`SkinOptions::palette`] by nearest colour in OKLab (perceptually
///   even, unlike RGB distance), no dithering (error diffusion turns flat
///   hand-painted areas into noise), alpha dropped with a warning;
///   without a palette it is an error that says how to give one
///   (retromodel does not ship id's palette). PNG and TGA keep full
///   colour for engines that load them (a warning for id's Quake II).
/// - **Name.** [`SkinOptions::name`] (at most 63 bytes: the 64-byte
///   field holds a NUL), such as `players/NAME/skin.pcx` or
///   `models/monsters/NAME/skin.pcx`: the model's one skin, its image
///   written under that name. Without it, a scene read from an MD2 keeps
///   every skin name and the skin size it recorded and no skin file is
///   written (see the `source` module); else a skin file is named
///   [`SkinOptions::default_name`] or `MODELNAME.EXT` (the scene's name);
///   else (no image) the model names the one texture path the meshes
///   use, or no skin. The model never names a skin file the compile made
///   up but did not write. Engines look skin names up from the game
///   folder, so give the full game path for a real model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SkinOptions {
    /// The skin file's format.
    pub format: SkinFormat,
    /// The palette PCX skins are mapped to (`Palette::from_pcx` of
    /// `baseq2/pics/colormap.pcx`, or any 8-bit PCX).
    #[cfg(feature = "textures")]
    pub palette: Option<Palette>,
    /// The skin name written in the model (replacing any an MD2 record
    /// gives).
    pub name: Option<String>,
    /// The name of a skin file written when `name` is not given
    /// (`None`: `SCENENAME.EXT`); unlike `name` it leaves an MD2 record's
    /// skin names in place.
    pub default_name: Option<String>,
    /// The skin size when there is no skin image.
    pub size: Option<(u32, u32)>,
}

/// How [`compile`] turns a scene into an MD2.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// Frames per second the animations are sampled at (Quake II plays
    /// models at 10); see **Frames** in the [module documentation](self).
    pub fps: f32,
    /// The animations to bake, in this order (exact names, else ASCII
    /// case-insensitive; an unknown name is an error listing the
    /// scene's); empty for all, in scene order. Their frames are named as
    /// **Frame names** in the [module documentation](self) says, so that
    /// [`Md2::animations`] gives back exactly these names and frame
    /// counts.
    pub animations: Vec<String>,
    /// Lay the animations out as the standard Quake II player table (198
    /// frames; see **Player table** in the [module documentation](self)).
    pub player: bool,
    /// Multiply scene units by this (`None`: 1, unless `fit_height`).
    pub scale: Option<f32>,
    /// Scale so the whole animation's bounding box is this many Quake
    /// units tall (Z). Not together with `scale`.
    pub fit_height: Option<f32>,
    /// Which frames share a grid.
    pub grid: Grid,
    /// Grids decided elsewhere (overrides `grid`).
    pub grid_from: Option<GridSource>,
    /// The engine the model must load in: its limits are checked
    /// ([`Engine::limits`]) and the compile fails, saying which limit, by
    /// how much and what to do, when one is exceeded.
    pub engine: Engine,
    /// The skin.
    pub skin: SkinOptions,
    /// Use what [`Scene::from_md2`] recorded in the scene (directly or
    /// through glTF) when it still fits: the original grids, vertex order
    /// and frame names, so an MD2 comes back with byte-identical frames
    /// (but where a frame's translate swamps its scale, as in a corrupt
    /// file, so that several bytes decode to one float: then a byte that
    /// decodes to the same float).
    /// It fits when the scene has that one mesh, the compile makes as many
    /// frames as recorded (a scene made with `close_loops` has one more
    /// per animation, so it does not), nothing is scaled, and every vertex
    /// sits on its frame's recorded grid (to a quarter of a step) with the same
    /// bytes as the other copies of its MD2 vertex; otherwise the model
    /// is compiled from scratch with a [`CompileWarning::Md2SourceIgnored`].
    /// Asking for other grids ([`CompileOptions::grid_from`], or a
    /// [`CompileOptions::grid`] other than [`Grid::Frame`]) also leaves the
    /// record unused, with that warning.
    pub reuse_md2_source: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            fps: crate::md2::DEFAULT_FPS,
            animations: Vec::new(),
            player: false,
            scale: None,
            fit_height: None,
            grid: Grid::Frame,
            grid_from: None,
            engine: Engine::Quake2,
            skin: SkinOptions::default(),
            reuse_md2_source: true,
        }
    }
}

/// A skin file to write beside the model.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinFile {
    /// The name the model gives it (a game path).
    pub name: String,
    /// Its format.
    pub format: SkinFormat,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// What [`compile`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The model, in the standard layout: [`Md2::validate_for`] the
    /// engine finds no error in it, and what it warns of (such as a skin
    /// size the engine maps wrong) is among [`Compiled::warnings`] as a
    /// [`CompileWarning::Skin`].
    pub model: Md2,
    /// The skin image, when the scene's textures had images and the
    /// model names it (not when it keeps the skins of an MD2 record).
    pub skin: Option<SkinFile>,
    /// Frame counts and quantisation errors.
    pub report: CompileReport,
    /// What had to change.
    pub warnings: Vec<CompileWarning>,
    /// For each scene mesh, for each of its vertices, the MD2 vertex it
    /// became (`None` for a vertex no triangle uses): what lets a caller
    /// compare the MD2's frames with the source vertex by vertex.
    pub vertex_map: Vec<Vec<Option<u32>>>,
}

/// Compiles `scene` into an MD2 (see the [module documentation](self)).
pub fn compile(scene: &Scene, options: &CompileOptions) -> Result<Compiled> {
    let mut all = compile_together(&[scene], options)?;
    all.pop().ok_or_else(|| Error::InvalidOptions {
        message: "nothing compiled".to_string(),
    })
}

/// Compiles several scenes (a player and its weapon) so that their frames
/// share grids: the grid of each frame (or animation, or the model, as
/// [`CompileOptions::grid`] says) covers the positions of all of them,
/// so models drawn together do not drift apart. The scenes must make the
/// same frames (the same animations with the same frame counts).
pub fn compile_together(scenes: &[&Scene], options: &CompileOptions) -> Result<Vec<Compiled>> {
    compile_keeping_normals(scenes, options, KEEP_NORMALS)
}

/// [`compile_together`], keeping the frames' normals from the first
/// posing up to `keep_normals` positions.
fn compile_keeping_normals(
    scenes: &[&Scene],
    options: &CompileOptions,
    keep_normals: usize,
) -> Result<Vec<Compiled>> {
    check_options(options)?;
    let mut prepared = scenes
        .iter()
        .map(|s| unposed(s, options))
        .collect::<Result<Vec<_>>>()?;
    // A scene compiled alone onto its own MD2 record: in one pass.
    if let [p] = prepared.as_slice() {
        if options.grid_from.is_none() && p.record_fits_unposed(options) {
            if let Some(p) = prepared.pop() {
                match p.compile_on_record(options)? {
                    Ok(compiled) => return Ok(vec![compiled]),
                    Err((mut p, reason)) => {
                        p.md2 = None;
                        p.warnings.push(CompileWarning::Md2SourceIgnored { reason });
                        prepared.push(p);
                    }
                }
            }
        }
    }
    for p in &mut prepared {
        p.pose(options, keep_normals)?;
    }
    let frames = prepared.first().map_or(0, |p| p.plan.frame_count());
    let shapes: Vec<Vec<usize>> = prepared
        .iter()
        .map(|p| p.plan.groups.iter().map(|g| g.poses.len()).collect())
        .collect();
    if shapes.windows(2).any(|w| w[0] != w[1]) {
        return Err(Error::InvalidOptions {
            message: format!(
                "models compiled together must make the same frames; their animations have {shapes:?} frames"
            ),
        });
    }
    // A scene's own MD2 grids, when it is compiled alone and they fit.
    if prepared.len() == 1 && options.grid_from.is_none() {
        if let Some(p) = prepared.first_mut() {
            p.try_md2_source();
        }
    }
    let grids: Vec<FrameGrid> = match (&options.grid_from, prepared.as_slice()) {
        (_, [p]) if p.md2.is_some() => p
            .md2
            .as_ref()
            .map(|s| s.frames.iter().map(|f| f.grid).collect())
            .unwrap_or_default(),
        (Some(GridSource::Frames(g)), _) => {
            if g.len() != frames || g.iter().any(|g| !g.is_valid()) {
                return Err(Error::InvalidOptions {
                    message: format!(
                        "grid_from has {} grids (all finite?) for {frames} frames",
                        g.len()
                    ),
                });
            }
            g.clone()
        }
        (None, _) => shared_grids(&prepared, options.grid),
    };
    let clamp_reported = options.grid_from.is_some();
    prepared
        .into_iter()
        .map(|p| p.finish(&grids, clamp_reported, options))
        .collect()
}

fn check_options(options: &CompileOptions) -> Result<()> {
    let bad = |message: String| Err(Error::InvalidOptions { message });
    match (options.scale, options.fit_height) {
        (Some(_), Some(_)) => return bad("give scale or fit_height, not both".into()),
        (Some(s), None) if !(s.is_finite() && s > 0.0) => {
            return bad(format!("scale {s} is not a positive number"))
        }
        (None, Some(h)) if !(h.is_finite() && h > 0.0) => {
            return bad(format!("fit_height {h} is not a positive number"))
        }
        _ => {}
    }
    if !(options.fps.is_finite() && options.fps > 0.0) {
        return bad(format!("fps {} is not a positive number", options.fps));
    }
    Ok(())
}

/// Up to how many positions (frames × vertices) a compile keeps every
/// frame's normals from posing the frames once, rather than posing them a
/// second time for the normals: 4 M, 48 MB of normals.
const KEEP_NORMALS: usize = 4_000_000;

/// One scene baked, before it is quantised.
struct Prepared<'a> {
    scene: &'a Scene,
    plan: Plan,
    source: bake::Source,
    /// Frames × used vertices, Quake axes, scaled.
    positions: Vec<[f32; 3]>,
    /// Their unit normals, Quake axes, when the model is small enough to
    /// keep them ([`KEEP_NORMALS`]); otherwise the frames are posed again
    /// for them.
    normals: Option<Vec<[f32; 3]>>,
    scale: f32,
    record: Option<source::Md2Source>,
    md2: Option<source::Md2Source>,
    /// The bytes of every position on `md2`'s grids, kept from checking
    /// that the record fits (so they are not computed twice).
    md2_bytes: Option<(Vec<[u8; 3]>, Vec<FrameErrors>)>,
    warnings: Vec<CompileWarning>,
}

/// The plan, the used vertices and triangles and the scene's MD2 record,
/// checked against the engine's frame and triangle limits; nothing posed
/// yet (see [`Prepared::pose`]).
fn unposed<'a>(scene: &'a Scene, options: &CompileOptions) -> Result<Prepared<'a>> {
    let limits = options.engine.limits();
    let mut warnings = Vec::new();
    let plan = if options.player {
        plan::player_plan(scene, &mut warnings)
    } else {
        plan::animations_plan(scene, &options.animations, options.fps)?
    };
    let frames = plan.frame_count();
    let title = options.engine.title();
    if frames > limits.max_frames {
        return Err(limit_error(
            "header.num_frames",
            format!(
                "{frames} frames exceed {title}'s limit of {} (by {})",
                limits.max_frames,
                frames - limits.max_frames
            ),
            options.engine,
            limit(Quantity::Frames, limits.max_frames, frames),
        ));
    }
    let source = bake::Source::new(scene);
    if source.triangles.len() > limits.max_triangles {
        return Err(limit_error(
            "header.num_triangles",
            format!(
                "{} triangles exceed {title}'s limit of {} (by {})",
                source.triangles.len(),
                limits.max_triangles,
                source.triangles.len() - limits.max_triangles
            ),
            options.engine,
            limit(
                Quantity::Triangles,
                limits.max_triangles,
                source.triangles.len(),
            ),
        ));
    }
    if source.triangles.is_empty() {
        return Err(Error::InvalidOptions {
            message: "the scene has no triangles to compile".to_string(),
        });
    }
    bake::check_size(frames, source.vertices.len())?;
    // The record's grids are one per frame, its own: grids given or
    // shared grids asked for are other grids, so the record is not used.
    let other_grids = if options.grid_from.is_some() {
        Some("the grids are given (grid_from), not the recorded ones")
    } else if options.grid != Grid::Frame {
        Some("shared grids are asked for (grid), not the recorded ones")
    } else {
        None
    };
    let (record, md2) = match source::find(scene) {
        Ok(Some(s)) => {
            let unfit = other_grids.or_else(|| other_frames(&plan, &s));
            match (options.reuse_md2_source, unfit) {
                (true, None) => (Some(s.clone()), Some(s)),
                (true, Some(reason)) => {
                    warnings.push(CompileWarning::Md2SourceIgnored {
                        reason: reason.to_string(),
                    });
                    (Some(s), None)
                }
                (false, _) => (Some(s), None),
            }
        }
        Ok(None) => (None, None),
        Err(reason) => {
            if options.reuse_md2_source {
                warnings.push(CompileWarning::Md2SourceIgnored { reason });
            }
            (None, None)
        }
    };
    Ok(Prepared {
        scene,
        plan,
        source,
        positions: Vec::new(),
        normals: None,
        scale: 1.0,
        record,
        md2,
        md2_bytes: None,
        warnings,
    })
}

/// Why the record's frames are not the frames `plan` makes, when it has
/// as many: its frame names group into other animations (names or
/// frame counts) than the plan's, so written over these frames they
/// would tell a player-table layout or animations chosen or ordered
/// otherwise (`CompileOptions::player`, `animations`) wrongly. A record
/// with another number of frames is left to the checks that count them.
fn other_frames(plan: &Plan, s: &source::Md2Source) -> Option<&'static str> {
    if s.frames.len() != plan.frame_count() {
        return None;
    }
    let names: Vec<String> = s.frames.iter().map(|f| f.name.to_string_lossy()).collect();
    let recorded = crate::md2::animations_from_names(names.iter().map(String::as_str));
    let same = recorded.len() == plan.groups.len()
        && recorded
            .iter()
            .zip(&plan.groups)
            .all(|(a, g)| a.name == g.name && a.frame_count == g.poses.len());
    (!same).then_some("the frames compiled are other animations than the recorded frames name")
}

impl Prepared<'_> {
    /// Poses every frame: the positions (scaled as the options say) and,
    /// up to `keep_normals` positions, the normals.
    fn pose(&mut self, options: &CompileOptions, keep_normals: usize) -> Result<()> {
        let (scene, plan, source) = (self.scene, &self.plan, &self.source);
        let frames = plan.frame_count();
        let used = source.vertices.len();
        let keep_normals = frames * used <= keep_normals;
        let mut positions = vec![[0.0f32; 3]; frames * used];
        let mut normals = vec![[0.0f32; 3]; if keep_normals { frames * used } else { 0 }];
        // Pieces of the frame range are posed at once (a pose depends only
        // on its time).
        let mut tasks = Vec::new();
        let (mut rest_positions, mut rest_normals) = (&mut positions[..], &mut normals[..]);
        for range in crate::parallel::ranges(frames, crate::parallel::pieces(frames, frames * used))
        {
            let (p, p_rest) = rest_positions.split_at_mut(range.len() * used);
            let n_len = if keep_normals { range.len() * used } else { 0 };
            let (n, n_rest) = rest_normals.split_at_mut(n_len);
            (rest_positions, rest_normals) = (p_rest, n_rest);
            tasks.push((range, p, n));
        }
        let posed = crate::parallel::map(tasks, |(range, positions, normals)| {
            let start = range.start;
            bake::for_frames(scene, plan, source, keep_normals, range, |f, p, n| {
                let at = (f - start) * used;
                positions[at..at + used].copy_from_slice(p);
                if !n.is_empty() {
                    normals[at..at + used].copy_from_slice(n);
                }
            })
        });
        posed.into_iter().collect::<Result<()>>()?;
        let scale = match (options.scale, options.fit_height) {
            (Some(s), _) => s,
            (None, Some(h)) => {
                let lo = positions.iter().map(|p| p[2]).fold(f32::INFINITY, f32::min);
                let hi = positions
                    .iter()
                    .map(|p| p[2])
                    .fold(f32::NEG_INFINITY, f32::max);
                let height = hi - lo;
                if !(height.is_finite() && height > 0.0) {
                    return Err(Error::InvalidOptions {
                        message: "fit_height: the model has no height to scale".to_string(),
                    });
                }
                h / height
            }
            (None, None) => 1.0,
        };
        if scale != 1.0 {
            for p in &mut positions {
                *p = p.map(|x| x * scale);
            }
        }
        self.positions = positions;
        self.normals = keep_normals.then_some(normals);
        self.scale = scale;
        Ok(())
    }
}

/// The grids of every frame, over the positions of all `prepared`.
fn shared_grids(prepared: &[Prepared], grid: Grid) -> Vec<FrameGrid> {
    let Some(first) = prepared.first() else {
        return Vec::new();
    };
    let frames = first.plan.frame_count();
    let frame_points = |f: usize| {
        prepared.iter().flat_map(move |p| {
            let n = p.source.vertices.len();
            p.positions[f * n..(f + 1) * n].iter()
        })
    };
    // Each frame's (or animation's) grid is its own: they are found at
    // once.
    match grid {
        Grid::Frame => {
            let work = prepared.iter().map(|p| p.positions.len()).sum();
            let pieces = crate::parallel::ranges(frames, crate::parallel::pieces(frames, work));
            crate::parallel::map(pieces, |range| {
                range
                    .map(|f| grid::grid_of(frame_points(f)))
                    .collect::<Vec<_>>()
            })
            .concat()
        }
        Grid::Animation => {
            let mut ranges = Vec::with_capacity(first.plan.groups.len());
            let mut start = 0;
            for g in &first.plan.groups {
                ranges.push(start..start + g.poses.len());
                start += g.poses.len();
            }
            let grid_of = |range: std::ops::Range<usize>| {
                let grid = grid::grid_of(range.clone().flat_map(frame_points));
                vec![grid; range.len()]
            };
            let work = prepared.iter().map(|p| p.positions.len()).sum();
            let grids: Vec<Vec<FrameGrid>> = if crate::parallel::worth(work) {
                crate::parallel::map(ranges, grid_of)
            } else {
                ranges.into_iter().map(grid_of).collect()
            };
            grids.concat()
        }
        Grid::Model => {
            let grid = grid::grid_of((0..frames).flat_map(frame_points));
            vec![grid; frames]
        }
    }
}

impl Prepared<'_> {
    /// Keeps the scene's MD2 record only if it fits what was baked: as
    /// many frames, and every MD2 vertex's scene copies quantising to the
    /// same bytes within half a step of the recorded grids.
    fn try_md2_source(&mut self) {
        let Some(s) = &self.md2 else { return };
        let frames = self.plan.frame_count();
        let reason = if s.frames.len() != frames {
            Some(format!(
                "it records {} frames, the compile makes {frames}",
                s.frames.len()
            ))
        } else if self.scale != 1.0 {
            Some("the model is scaled".to_string())
        } else {
            match self.md2_mismatch(s) {
                Ok(bytes) => {
                    self.md2_bytes = Some(bytes);
                    None
                }
                Err(reason) => Some(reason),
            }
        };
        if let Some(reason) = reason {
            self.warnings
                .push(CompileWarning::Md2SourceIgnored { reason });
            self.md2 = None;
        }
    }

    /// Why the record does not fit, or the bytes of every position on its
    /// grids with each frame's errors.
    #[allow(clippy::type_complexity)]
    fn md2_mismatch(
        &self,
        s: &source::Md2Source,
    ) -> std::result::Result<(Vec<[u8; 3]>, Vec<FrameErrors>), String> {
        if self.source.vertices.iter().any(|&(mesh, _)| mesh != s.mesh) {
            return Err("a mesh without MD2 vertices".to_string());
        }
        let n = self.source.vertices.len();
        let later = self.later_copies(s)?;
        // Frames are checked in pieces at once; the first failure in frame
        // order is the one reported.
        let pieces = crate::parallel::ranges(
            s.frames.len(),
            crate::parallel::pieces(s.frames.len(), self.positions.len()),
        );
        let checked = crate::parallel::map(pieces, |range| {
            let mut bytes = Vec::with_capacity(range.len() * n);
            let mut errors = Vec::with_capacity(range.len());
            let mut frame_bytes = Vec::with_capacity(n);
            for f in range {
                let positions = &self.positions[f * n..(f + 1) * n];
                errors.push(self.md2_frame_bytes(s, f, positions, &later, &mut frame_bytes)?);
                bytes.extend_from_slice(&frame_bytes);
            }
            Ok::<_, String>((bytes, errors))
        });
        let mut bytes = Vec::with_capacity(self.positions.len());
        let mut errors = Vec::with_capacity(s.frames.len());
        for piece in checked {
            let (b, e) = piece?;
            bytes.extend_from_slice(&b);
            errors.extend(e);
        }
        Ok((bytes, errors))
    }

    /// The used vertices that are not the first copy of their MD2 vertex
    /// of record `s`, each with that first copy, in order; or why the
    /// record does not fit the used vertices (one is outside it, or one of
    /// its MD2 vertices has no used copy: no triangle uses it).
    fn later_copies(&self, s: &source::Md2Source) -> std::result::Result<Vec<(u32, u32)>, String> {
        let mut first_of_md2 = vec![u32::MAX; s.num_vertices];
        let mut later = Vec::new();
        for (u, &(_, i)) in self.source.vertices.iter().enumerate() {
            let first = s
                .vertex_of
                .get(i as usize)
                .and_then(|&v| first_of_md2.get_mut(v as usize))
                .ok_or_else(|| "a vertex outside the record".to_string())?;
            if *first == u32::MAX {
                *first = u as u32;
            } else {
                later.push((u as u32, *first));
            }
        }
        let lost = |(v, &first): (usize, &u32)| first == u32::MAX && !s.is_unused(v);
        if first_of_md2.iter().enumerate().any(lost) {
            return Err("an MD2 vertex is in no triangle".to_string());
        }
        Ok(later)
    }

    /// Frame `f`'s bytes on its recorded grid (into `frame_bytes`, per
    /// used vertex) and its errors, or why they do not fit the record: a
    /// position off the grid, or copies of an MD2 vertex (`later`, from
    /// [`Prepared::later_copies`]) with different bytes.
    fn md2_frame_bytes(
        &self,
        s: &source::Md2Source,
        f: usize,
        positions: &[[f32; 3]],
        later: &[(u32, u32)],
        frame_bytes: &mut Vec<[u8; 3]>,
    ) -> std::result::Result<FrameErrors, String> {
        let off_grid = || format!("frame {f}: a vertex lies off its recorded grid (moved since?)");
        let g = &s.frames[f].grid;
        // A scene made from the MD2 sits on the grid up to f32 noise, or,
        // through a `--quantize`d glTF, up to that grid's step (1/65535 of
        // the model's extent, which is a sizeable part of an MD2 step on an
        // axis where a frame is flat); more than a quarter step was moved.
        let axes: [grid::OnGrid; 3] =
            std::array::from_fn(|k| grid::OnGrid::new(g.scale[k], g.translate[k], 0.25));
        // Every coordinate at once when all are plainly on the grid (the
        // usual case); else one by one, which finds the one that is not.
        let mut tally = ErrorTally::new(g);
        let mut lanes = LaneTally::<false>::new(&tally);
        if grid::on_grid_fast(&axes, positions, frame_bytes, |x, d, lanes_used| {
            lanes.add(x, d, lanes_used)
        }) {
            lanes.add_to(&mut tally);
        } else {
            frame_bytes.clear();
            for p in positions {
                let (Some((b0, d0)), Some((b1, d1)), Some((b2, d2))) =
                    (axes[0].byte(p[0]), axes[1].byte(p[1]), axes[2].byte(p[2]))
                else {
                    return Err(off_grid());
                };
                frame_bytes.push([b0, b1, b2]);
                tally.add(p, [d0, d1, d2]);
            }
        }
        for &(u, first) in later {
            let (b, first_b) = (frame_bytes.get(u as usize), frame_bytes.get(first as usize));
            if b.is_none() || b != first_b {
                let v = self
                    .source
                    .vertices
                    .get(u as usize)
                    .and_then(|&(_, i)| s.vertex_of.get(i as usize))
                    .copied()
                    .unwrap_or(u32::MAX);
                return Err(format!("frame {f}: copies of MD2 vertex {v} differ"));
            }
        }
        Ok(tally.finish())
    }

    fn finish(
        mut self,
        grids: &[FrameGrid],
        clamp_reported: bool,
        options: &CompileOptions,
    ) -> Result<Compiled> {
        let frames = self.plan.frame_count();
        let n = self.source.vertices.len();
        // Quantise (unless checking the MD2 record did), with the error
        // report.
        let (bytes, errors) = match self.md2_bytes.take() {
            Some(done) if self.md2.is_some() => done,
            _ => {
                let pieces = crate::parallel::ranges(
                    frames,
                    crate::parallel::pieces(frames, self.positions.len()),
                );
                let quantized = crate::parallel::map(pieces, |range| {
                    let positions = &self.positions[range.start * n..range.end * n];
                    quantize_frames(positions, n, &grids[range])
                });
                let mut bytes = Vec::with_capacity(self.positions.len());
                let mut errors = Vec::with_capacity(frames);
                for (b, e) in quantized {
                    bytes.extend_from_slice(&b);
                    errors.extend(e);
                }
                (bytes, errors)
            }
        };
        let (reports, clamped) = self.reports(&errors);
        if clamp_reported && clamped > 0 {
            self.warnings
                .push(CompileWarning::PositionsClamped { positions: clamped });
        }
        let (vertex_of, num_vertices) = self.weld(&bytes, frames);
        let layout = self.layout(&vertex_of, num_vertices, options)?;
        let mut model = layout.model;
        let first_copy = first_copies(&vertex_of, num_vertices);
        let maker = FrameMaker {
            vertex_of: &vertex_of,
            first_copy: &first_copy,
            triangles: &model.triangles,
        };
        // The GL commands need only the triangles and texture coordinates:
        // they are built on a second thread while the frames are made.
        // Building them costs about 50 times a position's work per
        // triangle (ten runs over the mesh), which counts towards whether
        // two threads pay.
        let (gl_commands, frames) = crate::parallel::join(
            self.positions.len() + 50 * model.triangles.len(),
            || gl_commands::build(&model),
            || self.frames(&maker, &bytes, grids, &layout.names),
        );
        model.gl_commands = gl_commands;
        model.frames = frames?;
        if let Some(s) = &self.md2 {
            s.restore(&mut model.frames);
        }
        self.conclude(model, layout.skin, reports, &vertex_of, options)
    }

    /// Whether the MD2 record can be checked while posing (see
    /// [`Prepared::compile_on_record`]): the record is wanted, has as
    /// many frames as the plan and nothing scales the positions.
    fn record_fits_unposed(&self, options: &CompileOptions) -> bool {
        self.md2
            .as_ref()
            .is_some_and(|s| s.frames.len() == self.plan.frame_count())
            && options.scale.is_none_or(|s| s == 1.0)
            && options.fit_height.is_none()
    }

    /// Compiles onto the scene's MD2 record (its grids and vertices) in
    /// one pass: each frame is posed, checked against its recorded grid
    /// and made into an MD2 frame at once, while the GL commands are
    /// built on another thread (the record fixes the vertices, so they
    /// need not wait for the frames). `Ok(Err(reason))` when the record
    /// does not fit what was posed, with `self` as it was; the compile
    /// then goes on without the record.
    #[allow(clippy::type_complexity)]
    fn compile_on_record(
        mut self,
        options: &CompileOptions,
    ) -> Result<std::result::Result<Compiled, (Self, String)>> {
        let Some(s) = self.md2.clone() else {
            return Ok(Err((self, "no MD2 record".to_string())));
        };
        if self.source.vertices.iter().any(|&(mesh, _)| mesh != s.mesh) {
            return Ok(Err((self, "a mesh without MD2 vertices".to_string())));
        }
        let later = match self.later_copies(&s) {
            Ok(later) => later,
            Err(reason) => return Ok(Err((self, reason))),
        };
        let warnings_before = self.warnings.len();
        let (vertex_of, num_vertices) = self.weld(&[], s.frames.len());
        let first_copy = first_copies(&vertex_of, num_vertices);
        let layout = self.layout(&vertex_of, num_vertices, options)?;
        let mut model = layout.model;
        let maker = FrameMaker {
            vertex_of: &vertex_of,
            first_copy: &first_copy,
            triangles: &model.triangles,
        };
        let this = &self;
        let n = this.source.vertices.len();
        let (gl_commands, made) = crate::parallel::join(
            s.frames.len() * n + 50 * model.triangles.len(),
            || gl_commands::build(&model),
            || this.frames_on_record(&s, &later, &maker, &layout.names),
        );
        let (frames, errors) = match made? {
            // Half a step is what a compile promises (`AnimationReport::
            // max_step_fraction`): a record whose grids are finer than the
            // scene's numbers can tell apart (a corrupt frame's subnormal
            // step) cannot keep it, though within the check's f32 slack.
            Ok((_, errors)) if errors.iter().any(|e| e.max_step_fraction > 0.5 + 1e-3) => {
                self.warnings.truncate(warnings_before);
                let reason = "positions more than half a step from the recorded grids";
                return Ok(Err((self, reason.to_string())));
            }
            Ok(made) => made,
            Err(reason) => {
                self.warnings.truncate(warnings_before);
                return Ok(Err((self, reason)));
            }
        };
        model.gl_commands = gl_commands;
        model.frames = frames;
        s.restore(&mut model.frames);
        let (reports, _) = self.reports(&errors);
        self.conclude(model, layout.skin, reports, &vertex_of, options)
            .map(Ok)
    }

    /// Every frame posed, checked against the record `s` and made, with
    /// its errors; `Ok(Err(reason))` for the first frame (in frame order)
    /// that does not fit the record.
    #[allow(clippy::type_complexity)]
    fn frames_on_record(
        &self,
        s: &source::Md2Source,
        later: &[(u32, u32)],
        maker: &FrameMaker,
        names: &[FrameName],
    ) -> Result<std::result::Result<(Vec<Frame>, Vec<FrameErrors>), String>> {
        let frames = s.frames.len();
        let n = self.source.vertices.len();
        let pieces = crate::parallel::ranges(frames, crate::parallel::pieces(frames, frames * n));
        let made = crate::parallel::map(pieces, |range| {
            let mut out = Vec::with_capacity(range.len());
            let mut failed = None;
            let mut bytes = Vec::with_capacity(n);
            let mut sums = FrameScratch::default();
            let posed = bake::for_frames(
                self.scene,
                &self.plan,
                &self.source,
                true,
                range,
                |f, p, normals| {
                    if failed.is_some() {
                        return;
                    }
                    match self.md2_frame_bytes(s, f, p, later, &mut bytes) {
                        Ok(errors) => {
                            let grid = s.frames[f].grid;
                            let frame =
                                maker.frame::<false>(grid, names[f], p, normals, &bytes, &mut sums);
                            out.push((frame, errors));
                        }
                        Err(reason) => failed = Some(reason),
                    }
                },
            );
            posed.map(|()| match failed {
                Some(reason) => Err(reason),
                None => Ok(out),
            })
        });
        let mut frames_out = Vec::with_capacity(frames);
        let mut errors = Vec::with_capacity(frames);
        for piece in made {
            match piece? {
                Ok(piece) => {
                    for (f, e) in piece {
                        frames_out.push(f);
                        errors.push(e);
                    }
                }
                Err(reason) => return Ok(Err(reason)),
            }
        }
        Ok(Ok((frames_out, errors)))
    }

    /// Each animation's report from its frames' errors, and how many
    /// positions were clamped.
    fn reports(&self, errors: &[FrameErrors]) -> (Vec<AnimationReport>, usize) {
        let n = self.source.vertices.len();
        let mut reports = Vec::new();
        let mut clamped = 0usize;
        let mut f = 0;
        for g in &self.plan.groups {
            let mut r = AnimationReport {
                source: g.source.clone(),
                first_frame: f,
                frames: g.poses.len(),
                times: g.poses.iter().map(|p| p.time).collect(),
                ..AnimationReport::default()
            };
            let mut squares = 0.0f64;
            for e in &errors[f..f + g.poses.len()] {
                r.max_error = r.max_error.max(e.max_error);
                r.max_step_fraction = r.max_step_fraction.max(e.max_step_fraction);
                clamped += e.clamped;
                squares += f64::from(e.squares);
            }
            f += g.poses.len();
            let samples = (g.poses.len() * n).max(1) as f64;
            r.rms_error = (squares / samples).sqrt() as f32;
            reports.push(r);
        }
        (reports, clamped)
    }

    /// Everything of the model but its frames and GL commands: the
    /// vertex count checked, the skin, texture coordinates, triangles and
    /// frame names.
    fn layout(
        &mut self,
        vertex_of: &[u32],
        num_vertices: usize,
        options: &CompileOptions,
    ) -> Result<Layout> {
        let engine = options.engine;
        let limits = engine.limits();
        let n = self.source.vertices.len();
        if num_vertices > limits.max_vertices {
            return Err(limit_error(
                "header.num_vertices",
                format!(
                    "{num_vertices} vertices (after welding) exceed {}'s limit of {} (by {})",
                    engine.title(),
                    limits.max_vertices,
                    num_vertices - limits.max_vertices
                ),
                engine,
                limit(Quantity::Vertices, limits.max_vertices, num_vertices),
            ));
        }
        // Skin and texture coordinates.
        let mut skin_warnings = Vec::new();
        let mut skin = self.skin(options, &mut skin_warnings)?;
        self.warnings.append(&mut skin_warnings);
        let (skin_width, skin_height) = skin.size;
        let mut texcoords: Vec<TexCoord> = Vec::new();
        let mut texcoord_of: HashMap<TexCoord, u16> = HashMap::new();
        let mut st_of_vertex = Vec::with_capacity(n);
        for (u, uv) in self.source.uvs.iter().enumerate() {
            let px = skin.map(u, *uv, &self.source, self.scene);
            let tc = TexCoord {
                s: round_i16(px[0]),
                t: round_i16(px[1]),
            };
            let next = texcoords.len();
            let index = *texcoord_of.entry(tc).or_insert_with(|| {
                texcoords.push(tc);
                next as u16
            });
            st_of_vertex.push(index);
            if texcoords.len() > 65536 {
                return Err(Error::Unwritable {
                    context: "texcoords".to_string(),
                    message: "more than 65536 texture coordinates".to_string(),
                });
            }
        }
        if skin.clamped > 0 {
            self.warnings.push(CompileWarning::UvsClamped {
                vertices: skin.clamped,
            });
        }
        // Triangles, Quake's winding.
        let mut triangles = Vec::with_capacity(self.source.triangles.len());
        let mut dropped = self.source.dropped;
        for t in &self.source.triangles {
            let corners = [t[0], t[2], t[1]];
            let v = corners.map(|c| vertex_of[c as usize]);
            // On an MD2 record, a triangle over one MD2 vertex twice is
            // the file's own: kept, so the model comes back as it was.
            let degenerate = v[0] == v[1] || v[1] == v[2] || v[0] == v[2];
            if degenerate && self.md2.is_none() {
                dropped += 1;
                continue;
            }
            triangles.push(Triangle {
                vertices: v.map(|x| x as u16),
                texcoords: corners.map(|c| st_of_vertex[c as usize]),
            });
        }
        if dropped > 0 {
            self.warnings
                .push(CompileWarning::TrianglesDropped { count: dropped });
        }
        let names = self.frame_names();
        let model = Md2 {
            skin_width,
            skin_height,
            skins: skin.names,
            texcoords,
            triangles,
            frames: Vec::new(),
            gl_commands: Vec::new(),
            trailing: Vec::new(),
            source: None,
            num_vertices,
        };
        Ok(Layout {
            model,
            skin: skin.file,
            names,
        })
    }

    /// The model checked against the engine, with its report.
    fn conclude(
        mut self,
        model: Md2,
        skin: Option<SkinFile>,
        mut reports: Vec<AnimationReport>,
        vertex_of: &[u32],
        options: &CompileOptions,
    ) -> Result<Compiled> {
        let engine = options.engine;
        for p in checked::grouped(model.validate_for(engine)) {
            match p.severity {
                Severity::Error => {
                    let l = refusal::limit_of(&model, engine, &p.path);
                    return Err(limit_error(&p.path, p.message, engine, l));
                }
                Severity::Warning => self.warnings.push(CompileWarning::Skin {
                    message: format!("{}: {}", p.path, p.message),
                }),
            }
        }
        // Names of the MD2's animations, for the report.
        let found = model.animations();
        for (r, a) in reports.iter_mut().zip(&found) {
            r.name = a.name.clone();
        }
        let report = CompileReport {
            animations: reports,
            source_vertices: self.source.vertices.len(),
            vertices: model.num_vertices,
            triangles: model.triangles.len(),
            texcoords: model.texcoords.len(),
            scale: self.scale,
            reused_md2_source: self.md2.is_some(),
        };
        let vertex_map = self.source.vertex_map(vertex_of);
        Ok(Compiled {
            model,
            skin,
            report,
            warnings: self.warnings,
            vertex_map,
        })
    }

    /// The frames: positions from the welded bytes, normals from the
    /// kept poses (or a second pass over them).
    fn frames(
        &self,
        maker: &FrameMaker,
        bytes: &[[u8; 3]],
        grids: &[FrameGrid],
        names: &[FrameName],
    ) -> Result<Vec<Frame>> {
        let n = self.source.vertices.len();
        let frames = self.plan.frame_count();
        let frame_bytes = |f: usize| &bytes[f * n..(f + 1) * n];
        match &self.normals {
            // Normals kept: frames in pieces at once.
            Some(normals) if n > 0 => {
                let pieces = crate::parallel::ranges(
                    frames,
                    crate::parallel::pieces(frames, self.positions.len()),
                );
                let made = crate::parallel::map(pieces, |range| {
                    let mut sums = FrameScratch::default();
                    range
                        .map(|f| {
                            let (p, normals) = (
                                &self.positions[f * n..(f + 1) * n],
                                &normals[f * n..(f + 1) * n],
                            );
                            maker.frame::<true>(
                                grids[f],
                                names[f],
                                p,
                                normals,
                                frame_bytes(f),
                                &mut sums,
                            )
                        })
                        .collect::<Vec<_>>()
                });
                Ok(made.into_iter().flatten().collect())
            }
            _ => {
                let mut out_frames: Vec<Frame> = Vec::with_capacity(frames);
                let mut sums = FrameScratch::default();
                bake::for_each_frame(self.scene, &self.plan, &self.source, true, |f, p, nrm| {
                    // Positions for face normals at this frame's scale.
                    out_frames.push(maker.frame::<true>(
                        grids[f],
                        names[f],
                        p,
                        nrm,
                        frame_bytes(f),
                        &mut sums,
                    ));
                })?;
                Ok(out_frames)
            }
        }
    }

    /// Per used vertex its MD2 vertex, and how many there are.
    fn weld(&self, bytes: &[[u8; 3]], frames: usize) -> (Vec<u32>, usize) {
        let n = self.source.vertices.len();
        if let Some(s) = &self.md2 {
            let of = self
                .source
                .vertices
                .iter()
                .map(|&(_, i)| s.vertex_of.get(i as usize).copied().unwrap_or(0))
                .collect();
            return (of, s.num_vertices);
        }
        // Each vertex's bytes in every frame, contiguous.
        let mut trajectories = vec![0u8; n * frames * 3];
        for f in 0..frames {
            for u in 0..n {
                let at = (u * frames + f) * 3;
                trajectories[at..at + 3].copy_from_slice(&bytes[f * n + u]);
            }
        }
        let mut ids: HashMap<&[u8], u32> = HashMap::new();
        let mut of = Vec::with_capacity(n);
        for u in 0..n {
            let key = &trajectories[u * frames * 3..(u + 1) * frames * 3];
            let next = ids.len() as u32;
            of.push(*ids.entry(key).or_insert(next));
        }
        let count = ids.len();
        (of, count)
    }

    fn frame_names(&mut self) -> Vec<FrameName> {
        if let Some(s) = &self.md2 {
            return s.frames.iter().map(|f| f.name).collect();
        }
        let mut out = Vec::new();
        let groups: Vec<(String, usize)> = self
            .plan
            .groups
            .iter()
            .map(|g| (g.name.clone(), g.poses.len()))
            .collect();
        if self.plan.groups.iter().all(|g| g.player_entry.is_some()) {
            for g in &self.plan.groups {
                out.extend(names::player_frame_names(g.player_entry.unwrap_or(0)));
            }
            let expected: Vec<(String, usize)> = groups;
            names::check_grouping(&out, &expected, &mut self.warnings);
            return out;
        }
        let written = names::animation_names(&groups, &mut self.warnings);
        for (name, (_, count)) in written.iter().zip(&groups) {
            out.extend(names::frame_names(name, *count));
        }
        let expected: Vec<(String, usize)> = written
            .into_iter()
            .zip(groups)
            .map(|(n, (_, c))| (n, c))
            .collect();
        names::check_grouping(&out, &expected, &mut self.warnings);
        out
    }

    fn skin(
        &self,
        options: &CompileOptions,
        warnings: &mut Vec<CompileWarning>,
    ) -> Result<SkinPlan> {
        let limits = options.engine.limits();
        let used_materials: Vec<Option<usize>> = {
            let mut seen = Vec::new();
            for m in &self.source.materials {
                if !seen.contains(m) {
                    seen.push(*m);
                }
            }
            seen
        };
        let mut plan = SkinPlan::default();
        #[cfg(feature = "textures")]
        let name_given = options.skin.name.is_some();
        let drawn = &self.source.vertices;
        if let Some((size, names)) =
            source::kept_skins(self.scene, drawn, &used_materials, &options.skin, warnings)
        {
            (plan.size, plan.names) = (size, names);
            plan.check_names(&limits, options.engine)?;
            return Ok(plan);
        }
        #[cfg(feature = "textures")]
        {
            let model_name = {
                let base: String = self
                    .scene
                    .name
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                    .collect();
                if base.is_empty() {
                    "model".to_string()
                } else {
                    base
                }
            };
            // A skin of the materials' colours, when the engine needs one:
            // only if it can be written as asked.
            let unnamed = !name_given
                && (options.skin.format != SkinFormat::Pcx || options.skin.palette.is_some());
            if let Some(atlas) =
                skin::build_atlas(self.scene, &used_materials, &limits, unnamed, warnings)?
            {
                let atlas = atlas.fit(&limits, warnings);
                let name = options
                    .skin
                    .name
                    .clone()
                    .or_else(|| options.skin.default_name.clone())
                    .unwrap_or_else(|| format!("{model_name}.{}", options.skin.format.extension()));
                if limits.pcx_only && options.skin.format != SkinFormat::Pcx {
                    warnings.push(CompileWarning::SkinNotPcx {
                        engine: options.engine.title(),
                        format: options.skin.format.extension(),
                    });
                }
                let file = skin::write_skin(&atlas, name.clone(), &options.skin, warnings)?;
                plan.size = (atlas.image.width() as i32, atlas.image.height() as i32);
                plan.names = vec![SkinName::new(&name)];
                plan.file = Some(file);
                plan.atlas = Some(atlas);
                plan.check_names(&limits, options.engine)?;
                return Ok(plan);
            }
        }
        let textured = self.scene.textures.iter().any(|t| t.has_image());
        if textured && cfg!(not(feature = "textures")) {
            warnings.push(CompileWarning::Skin {
                message: "the scene's texture images need feature `textures` to become a skin; only names are written".to_string(),
            });
        }
        let record = self
            .record
            .as_ref()
            .filter(|r| r.skin_size.0 > 0 && r.skin_size.1 > 0);
        plan.size = match (record, options.skin.size) {
            (_, Some((w, h))) if w > 0 && h > 0 => (
                i32::try_from(w).unwrap_or(i32::MAX),
                i32::try_from(h).unwrap_or(i32::MAX),
            ),
            (Some(r), _) => r.skin_size,
            _ => {
                warnings.push(CompileWarning::SkinSizeAssumed {
                    width: 256,
                    height: 256,
                });
                (256, 256)
            }
        };
        plan.names = if let Some(name) = &options.skin.name {
            vec![SkinName::new(name)]
        } else if let Some(r) = &self.record {
            r.skins.clone()
        } else {
            let paths: Vec<&str> = used_materials
                .iter()
                .filter_map(|m| m.and_then(|m| self.scene.materials.get(m)))
                .filter_map(|m| m.texture.and_then(|t| self.scene.textures.get(t)))
                .map(|t| t.path.as_str())
                .filter(|p| !p.is_empty())
                .collect();
            let mut distinct = paths.clone();
            distinct.dedup();
            if distinct.len() > 1 {
                warnings.push(CompileWarning::Skin {
                    message: format!(
                        "{} textures but no images to pack into one skin; the model names the first",
                        distinct.len()
                    ),
                });
            }
            distinct
                .first()
                .map(|p| vec![SkinName::new(p)])
                .unwrap_or_default()
        };
        plan.check_names(&limits, options.engine)?;
        Ok(plan)
    }
}

/// The skin a compile makes: size, names, file, and where UVs go.
#[derive(Default)]
struct SkinPlan {
    size: (i32, i32),
    names: Vec<SkinName>,
    file: Option<SkinFile>,
    #[cfg(feature = "textures")]
    atlas: Option<skin::Atlas>,
    clamped: usize,
}

impl SkinPlan {
    fn check_names(&self, limits: &EngineLimits, engine: Engine) -> Result<()> {
        for n in &self.names {
            let len = n.as_bytes().len();
            if len > limits.max_skin_name {
                return Err(limit_error(
                    "skins[0]",
                    format!(
                        "skin name of {len} bytes exceeds {}'s {} bytes and a NUL",
                        engine.title(),
                        limits.max_skin_name
                    ),
                    engine,
                    limit(Quantity::SkinNameBytes, limits.max_skin_name, len),
                ));
            }
        }
        Ok(())
    }

    /// The skin pixel position of used vertex `u`'s `uv`.
    fn map(&mut self, u: usize, uv: [f32; 2], source: &bake::Source, scene: &Scene) -> [f32; 2] {
        #[cfg(feature = "textures")]
        if let Some(atlas) = &self.atlas {
            let material = source
                .vertices
                .get(u)
                .and_then(|&(m, _)| scene.meshes.get(m))
                .and_then(|m| m.material);
            let mut clamped = false;
            let px = atlas.map(material, uv, &mut clamped);
            self.clamped += usize::from(clamped);
            return px;
        }
        let _ = (u, source, scene);
        [uv[0] * self.size.0 as f32, uv[1] * self.size.1 as f32]
    }
}

/// Everything of the model but its frames and GL commands, from
/// [`Prepared::layout`].
struct Layout {
    model: Md2,
    skin: Option<SkinFile>,
    names: Vec<FrameName>,
}

/// Per MD2 vertex, its first used vertex (`usize::MAX` for none).
fn first_copies(vertex_of: &[u32], num_vertices: usize) -> Vec<usize> {
    let mut first_copy = vec![usize::MAX; num_vertices];
    for (u, &v) in vertex_of.iter().enumerate() {
        if let Some(slot) = first_copy.get_mut(v as usize) {
            if *slot == usize::MAX {
                *slot = u;
            }
        }
    }
    first_copy
}

/// Makes MD2 frames from posed frames: each MD2 vertex takes its first
/// copy's bytes and the table normal nearest to the sum of its copies'
/// normals (or, where that sum is zero, of the faces around it).
struct FrameMaker<'a> {
    /// Per used vertex, its MD2 vertex.
    vertex_of: &'a [u32],
    /// Per MD2 vertex, its first used vertex (`usize::MAX` for an unused
    /// vertex of an MD2 record).
    first_copy: &'a [usize],
    /// The model's triangles.
    triangles: &'a [Triangle],
}

/// Reused buffers of [`FrameMaker::frame`], for frames made one after
/// another.
#[derive(Default)]
struct FrameScratch {
    sums: Vec<Vec3>,
    faces: Vec<Vec3>,
    /// Per MD2 vertex, the last normal sum it had (as bits) and the table
    /// normal that sum gave ([`NO_NORMAL`] before the first): a vertex
    /// whose normals did not change since the frame before (about half,
    /// in a typical animation) needs no search.
    last_sum: Vec<[u32; 3]>,
    last_index: Vec<u8>,
}

/// No table normal yet (the table has 162).
const NO_NORMAL: u8 = u8::MAX;

impl FrameMaker<'_> {
    /// The frame on `grid` named `name`, from the used vertices' positions
    /// `p`, unit normals `normals` and bytes `bytes`.
    ///
    /// `TRY_LAST_NORMAL`: try a changed normal against the vertex's table
    /// normal of the frame before
    /// ([`nearest_near`](crate::md2::nearest::nearest_near)) before looking
    /// it up. Baked animation turns normals a little from one frame to the
    /// next, so the try mostly succeeds (46–58 % on the corpus's skinned
    /// models) and costs a dot product where a look-up costs several. Off
    /// on an MD2 record, whose normals jump from one table normal to
    /// another (faerie: not one of 32,494 tries succeeded).
    fn frame<const TRY_LAST_NORMAL: bool>(
        &self,
        grid: FrameGrid,
        name: FrameName,
        p: &[[f32; 3]],
        normals: &[[f32; 3]],
        bytes: &[[u8; 3]],
        scratch: &mut FrameScratch,
    ) -> Frame {
        let num_vertices = self.first_copy.len();
        let FrameScratch {
            sums,
            faces,
            last_sum,
            last_index,
        } = scratch;
        if last_index.len() != num_vertices {
            last_sum.clear();
            last_sum.resize(num_vertices, [0; 3]);
            last_index.clear();
            last_index.resize(num_vertices, NO_NORMAL);
        }
        sums.clear();
        sums.resize(num_vertices, Vec3::ZERO);
        for (&v, nrm) in self.vertex_of.iter().zip(normals) {
            sums[v as usize] += Vec3::from(*nrm);
        }
        faces.clear();
        let mut faces_made = false;
        let sums = &sums[..];
        let vertices = sums
            .iter()
            .zip(self.first_copy)
            .zip(last_sum.iter_mut().zip(last_index.iter_mut()))
            .enumerate()
            .map(|(v, ((s, &first), (last_sum, last_index)))| {
                let key = s.to_array().map(f32::to_bits);
                let normal_index = if *last_index != NO_NORMAL && *last_sum == key {
                    *last_index
                } else if let Some(unit) = s.try_normalize() {
                    // The last frame's normal is surely the answer when
                    // the direction is still close to it (most of a
                    // skinned model's, frame to frame): no look-up.
                    let unit = unit.to_array();
                    let near = if TRY_LAST_NORMAL {
                        crate::md2::nearest::nearest_near(unit, *last_index)
                    } else {
                        None
                    };
                    let index = near.unwrap_or_else(|| nearest_normal_index(unit));
                    (*last_sum, *last_index) = (key, index);
                    index
                } else {
                    // A zero sum: the faces' normal (which depends on the
                    // positions, so is not remembered), made once for the
                    // frame when some sum is (nearly) zero.
                    if !faces_made {
                        faces_made = true;
                        if sums.iter().any(|s| s.length_squared() < 1e-12) {
                            self.face_normals(p, faces);
                        }
                    }
                    let unit = faces
                        .get(v)
                        .and_then(|f| f.try_normalize())
                        .unwrap_or(Vec3::Z);
                    nearest_normal_index(unit.to_array())
                };
                // A vertex without copies (one an MD2 record carries the
                // bytes of) is filled in afterwards.
                PackedVertex {
                    position: bytes.get(first).copied().unwrap_or_default(),
                    normal_index,
                }
            })
            .collect();
        Frame {
            scale: grid.scale,
            translate: grid.translate,
            name,
            vertices,
            padding: Vec::new(),
        }
    }

    /// Per MD2 vertex, the sum of its triangles' normals (unnormalised),
    /// from the first copies' positions `p`.
    fn face_normals(&self, p: &[[f32; 3]], faces: &mut Vec<Vec3>) {
        faces.clear();
        faces.resize(self.first_copy.len(), Vec3::ZERO);
        for t in self.triangles {
            let q = t
                .vertices
                .map(|v| Vec3::from(p[self.first_copy[usize::from(v)]]));
            // Quake's clockwise corners: the outward normal.
            let nrm = (q[2] - q[0]).cross(q[1] - q[0]);
            for &v in &t.vertices {
                faces[usize::from(v)] += nrm;
            }
        }
    }
}

/// How far one frame's decoded positions are from the baked ones.
#[derive(Clone, Copy)]
struct FrameErrors {
    /// Sum of the squared errors, over every axis of every vertex.
    squares: f32,
    /// The largest error on an axis.
    max_error: f32,
    /// The largest error as a fraction of its axis' step (infinite for an
    /// error on a flat axis).
    max_step_fraction: f32,
    /// Vertices more than half a step off on some axis (clamped).
    clamped: usize,
}

/// How errors on an axis with grid step `scale` become fractions of a
/// step: `(per_step, pre_scale)` with `fraction = error · pre_scale ·
/// per_step`. A step is as long whichever way it points (records and
/// `grid_from` grids may mirror an axis); a step so small that its
/// reciprocal overflows (a subnormal one) is measured with both sides
/// scaled by 2⁶⁴; a zero step makes any error infinitely many steps.
fn per_step(scale: f32) -> (f32, f32) {
    const PRE: f32 = 18_446_744_073_709_551_616.0; // 2^64
    let step = scale.abs();
    // Zero or NaN: no step to measure in.
    if step.is_nan() || step == 0.0 {
        return (f32::INFINITY, 1.0);
    }
    let r = 1.0 / step;
    if r.is_finite() {
        (r, 1.0)
    } else {
        (1.0 / (step * PRE), PRE)
    }
}

/// [`FrameErrors`] summed up point by point, as the points are quantised
/// (so they are read once).
struct ErrorTally {
    /// Per axis, steps per unit of (pre-scaled) error.
    per_step: [f32; 3],
    /// Per axis, what an error is multiplied by before `per_step`.
    pre_scale: [f32; 3],
    squares: f32,
    max_error: [f32; 3],
    max_fraction: [f32; 3],
    clamped: usize,
}

impl ErrorTally {
    fn new(grid: &FrameGrid) -> ErrorTally {
        ErrorTally {
            per_step: grid.scale.map(|s| per_step(s).0),
            pre_scale: grid.scale.map(|s| per_step(s).1),
            squares: 0.0,
            max_error: [0.0; 3],
            max_fraction: [0.0; 3],
            clamped: 0,
        }
    }

    /// Adds point `p`, which decodes to `d`. The squares are summed in
    /// order (point by point, x, y, z), so the report is the same on any
    /// machine and any split of the work; the largest values are kept per
    /// axis (a maximum does not depend on the order).
    #[inline(always)]
    fn add(&mut self, p: &[f32; 3], d: [f32; 3]) {
        let mut off = false;
        for k in 0..3 {
            let e = (d[k] - p[k]).abs();
            self.squares += e * e;
            // `a.max(b)` for a maximum that is never NaN: a NaN `e` or
            // `fraction` leaves it as it is, as `f32::max` does.
            self.max_error[k] = if e > self.max_error[k] {
                e
            } else {
                self.max_error[k]
            };
            let fraction = if e == 0.0 {
                0.0
            } else {
                e * self.pre_scale[k] * self.per_step[k]
            };
            off |= fraction > 0.5 + 1e-3 && e > 1e-5 * (1.0 + p[k].abs());
            self.max_fraction[k] = if fraction > self.max_fraction[k] {
                fraction
            } else {
                self.max_fraction[k]
            };
        }
        self.clamped += usize::from(off);
    }

    fn finish(self) -> FrameErrors {
        FrameErrors {
            squares: self.squares,
            max_error: self.max_error.into_iter().fold(0.0, f32::max),
            max_step_fraction: self.max_fraction.into_iter().fold(0.0, f32::max),
            clamped: self.clamped,
        }
    }
}

/// [`ErrorTally`] for twelve coordinates at a time (four points, x, y, z
/// each), as [`grid::on_grid_fast`] and [`grid::quantize_fast`] hand them
/// over: maxima per lane (folded into axes at the end), the squares
/// summed in the same order as point by point, and, with `CLAMPED`, the
/// positions more than half a step off counted as [`ErrorTally::add`]
/// does (the record check leaves that out: clamped positions are
/// reported only for grids from elsewhere, `grid_from`, never with the
/// record's).
struct LaneTally<const CLAMPED: bool> {
    per_step: [f32; grid::LANES],
    pre_scale: [f32; grid::LANES],
    squares: f32,
    max_error: [f32; grid::LANES],
    max_fraction: [f32; grid::LANES],
    clamped: usize,
}

impl<const CLAMPED: bool> LaneTally<CLAMPED> {
    fn new(tally: &ErrorTally) -> Self {
        LaneTally {
            per_step: std::array::from_fn(|j| tally.per_step[j % 3]),
            pre_scale: std::array::from_fn(|j| tally.pre_scale[j % 3]),
            squares: tally.squares,
            max_error: [0.0; grid::LANES],
            max_fraction: [0.0; grid::LANES],
            clamped: 0,
        }
    }

    /// Adds the first `used` lanes of coordinates `x`, which decode to
    /// `d` (lanes past `used` must decode to themselves).
    #[inline(always)]
    fn add(&mut self, x: &[f32; grid::LANES], d: &[f32; grid::LANES], used: usize) {
        // Coordinates exactly on the grid (all of a scene made from the
        // MD2) add nothing: a zero error raises no maximum and adds +0 to
        // the squares.
        let mut off = false;
        for j in 0..grid::LANES {
            off |= d[j] != x[j];
        }
        if !off {
            return;
        }
        let mut e = [0.0f32; grid::LANES];
        let mut clamped = [false; grid::LANES];
        for j in 0..grid::LANES {
            e[j] = (d[j] - x[j]).abs();
            self.max_error[j] = if e[j] > self.max_error[j] {
                e[j]
            } else {
                self.max_error[j]
            };
            let fraction = if e[j] == 0.0 {
                0.0
            } else {
                e[j] * self.pre_scale[j] * self.per_step[j]
            };
            if CLAMPED {
                clamped[j] = fraction > 0.5 + 1e-3 && e[j] > 1e-5 * (1.0 + x[j].abs());
            }
            self.max_fraction[j] = if fraction > self.max_fraction[j] {
                fraction
            } else {
                self.max_fraction[j]
            };
        }
        if CLAMPED {
            for p in clamped[..used].chunks_exact(3) {
                self.clamped += usize::from(p[0] | p[1] | p[2]);
            }
        }
        if used == grid::LANES {
            for e in e {
                self.squares += e * e;
            }
        } else {
            for &e in &e[..used] {
                self.squares += e * e;
            }
        }
    }

    /// Puts what was added into `tally`.
    fn add_to(self, tally: &mut ErrorTally) {
        tally.squares = self.squares;
        for j in 0..grid::LANES {
            let k = j % 3;
            let e = self.max_error[j];
            tally.max_error[k] = if e > tally.max_error[k] {
                e
            } else {
                tally.max_error[k]
            };
            let f = self.max_fraction[j];
            tally.max_fraction[k] = if f > tally.max_fraction[k] {
                f
            } else {
                tally.max_fraction[k]
            };
        }
        tally.clamped += self.clamped;
    }
}

/// The bytes of frames of `n` positions each (frame `f` on `grids[f]`)
/// and each frame's errors.
fn quantize_frames(
    positions: &[[f32; 3]],
    n: usize,
    grids: &[FrameGrid],
) -> (Vec<[u8; 3]>, Vec<FrameErrors>) {
    let mut bytes = Vec::with_capacity(positions.len());
    let mut errors = Vec::with_capacity(grids.len());
    if n == 0 {
        return (
            bytes,
            grids.iter().map(|g| ErrorTally::new(g).finish()).collect(),
        );
    }
    let mut frame_bytes = Vec::with_capacity(n);
    for (frame, grid) in positions.chunks_exact(n).zip(grids) {
        let mut tally = ErrorTally::new(grid);
        let mut lanes = LaneTally::<true>::new(&tally);
        grid::quantize_fast(grid, frame, &mut frame_bytes, |x, d, used| {
            lanes.add(x, d, used)
        });
        lanes.add_to(&mut tally);
        bytes.extend_from_slice(&frame_bytes);
        errors.push(tally.finish());
    }
    (bytes, errors)
}

fn round_i16(x: f32) -> i16 {
    if x.is_nan() {
        0
    } else {
        x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::Md2SceneOptions;

    #[test]
    fn errors_are_measured_in_steps_of_any_sign_and_size() {
        let fraction = |error: f32, scale: f32| {
            let (per, pre) = per_step(scale);
            error * pre * per
        };
        assert_eq!(fraction(0.25, 0.5), 0.5);
        assert_eq!(fraction(0.25, -0.5), 0.5, "a mirrored axis");
        // A subnormal step, whose reciprocal overflows f32.
        let step = 1e-40f32;
        assert!((1.0 / step).is_infinite());
        let half = fraction(step / 2.0, step);
        assert!((half - 0.5).abs() < 1e-3, "{half}");
        assert!((fraction(step * 0.125, -step) - 0.125).abs() < 1e-3);
        assert_eq!(fraction(1e-3, 0.0), f32::INFINITY, "a flat axis");
        assert_eq!(fraction(1e-3, f32::NAN), f32::INFINITY);
    }

    #[test]
    #[cfg(feature = "parallel")]
    fn the_same_model_on_one_thread_and_on_four() {
        // 96 frames (the sample's, moved a little more in each), so the
        // work is cut into many pieces on four threads and one on one.
        let mut model = crate::md2::sample::sample_model();
        let first = model.frames[0].clone();
        model.frames = (0..96)
            .map(|f| {
                let mut frame = first.clone();
                frame.name = FrameName::new(&format!("walk{f:02}"));
                for (v, vertex) in frame.vertices.iter_mut().enumerate() {
                    vertex.position[0] = vertex.position[0].wrapping_add((f * v % 7) as u8);
                }
                frame
            })
            .collect();
        let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        for reuse in [true, false] {
            let options = CompileOptions {
                reuse_md2_source: reuse,
                ..CompileOptions::default()
            };
            let on = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| compile(&scene, &options).unwrap())
            };
            let (one, four) = (on(1), on(4));
            assert_eq!(one.model, four.model);
            assert_eq!(one.report, four.report);
            assert_eq!(
                one.model.to_bytes().unwrap(),
                four.model.to_bytes().unwrap()
            );
            assert_eq!(one.model.frames.len(), 96);
            if reuse {
                assert_eq!(one.model.frames, model.frames);
            }
        }
    }

    #[test]
    fn posing_again_for_the_normals_makes_the_same_model() {
        // The sample's frames through glTF-like scene posing, with normals
        // kept from the first posing and with a second posing for them.
        let original = crate::md2::sample::sample_model();
        let scene = Scene::from_md2(&original, &Md2SceneOptions::default());
        for reuse in [true, false] {
            let options = CompileOptions {
                reuse_md2_source: reuse,
                ..CompileOptions::default()
            };
            let kept = compile_keeping_normals(&[&scene], &options, usize::MAX).unwrap();
            let posed_again = compile_keeping_normals(&[&scene], &options, 0).unwrap();
            assert_eq!(kept[0].model, posed_again[0].model);
            if reuse {
                assert_eq!(kept[0].model.frames, original.frames);
            }
        }
    }
}
