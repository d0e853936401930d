//! What a compile is asked for: [`CompileOptions`] and the grids and skin
//! options in it, and their check.

use crate::error::{Error, Result};
use crate::md2::{Engine, Md2};
#[cfg(feature = "textures")]
use crate::texture::Palette;

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

pub use crate::bake::grid::FrameGrid;

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
///
/// [`compile_together`]: super::compile_together
/// [`CompileWarning::PositionsClamped`]: super::CompileWarning::PositionsClamped
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
///   image, [`crate::scene::Texture::image`]; with feature `textures`)
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
///
/// [`CompileWarning::UvsClamped`]: super::CompileWarning::UvsClamped
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
///
/// [`compile`]: super::compile
#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// Frames per second the animations are sampled at (Quake II plays
    /// models at 10); see **Frames** in the [module documentation](super).
    pub fps: f32,
    /// Keep a frame format's animations frame for frame (an MD2's, MDL's
    /// or MD3's, read by this crate: one frame per stored frame, at its
    /// time) rather than sampling them at `fps`, so frame numbers stay the
    /// same; default `true`. Front ends set it `false` when the user gives
    /// a frame rate. Other animations are sampled at `fps` either way.
    pub keep_source_frames: bool,
    /// The animations to bake, in this order (exact names, else ASCII
    /// case-insensitive; an unknown name is an error listing the
    /// scene's); empty for all, in scene order. Their frames are named as
    /// **Frame names** in the [module documentation](super) says, so that
    /// [`Md2::animations`] gives back exactly these names and frame
    /// counts.
    pub animations: Vec<String>,
    /// Lay the animations out as the standard Quake II player table (198
    /// frames; see **Player table** in the [module documentation](super)).
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
    ///
    /// [`Scene::from_md2`]: crate::scene::Scene::from_md2
    /// [`CompileWarning::Md2SourceIgnored`]: super::CompileWarning::Md2SourceIgnored
    pub reuse_md2_source: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            fps: crate::md2::DEFAULT_FPS,
            keep_source_frames: true,
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

pub(super) fn check_options(options: &CompileOptions) -> Result<()> {
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
    // An MD2 is compiled to the limits of a profiled MD2 loader.
    let engine = options.engine;
    if !engine.loads(crate::EngineFormat::Md2) {
        return bad(engine.does_not_load(crate::EngineFormat::Md2));
    }
    if engine.md2_limits().is_none() {
        return bad(format!(
            "{} loads MD2 files, but its MD2 limits are not known here: compile for a Quake II engine",
            engine.sentence_title()
        ));
    }
    Ok(())
}
