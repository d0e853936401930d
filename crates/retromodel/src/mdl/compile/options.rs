//! What an MDL compile is asked for: [`CompileOptions`], the engine
//! [`Limits`] it checks, and their check.

use crate::error::{Error, Result};
use crate::texture::Palette;

/// The counts an engine's MDL loader accepts. [`Limits::QUAKE`] is id's
/// (`modelgen.h`, `gl_model.c`); ports raise them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The engine's name, for messages.
    pub title: &'static str,
    /// Most vertices (`MAXALIASVERTS`), counted after seams split them.
    pub max_vertices: usize,
    /// Most triangles (`MAXALIASTRIS`).
    pub max_triangles: usize,
    /// Most frames (`MAXALIASFRAMES`): checked against every simple
    /// frame, those in frame groups included (GLQuake keeps one pose
    /// per simple frame in an array of this size).
    pub max_frames: usize,
    /// Tallest skin (`MAX_LBM_HEIGHT`), `None` for no limit: a taller
    /// skin is scaled down to fit, with a warning.
    pub max_skin_height: Option<u32>,
    /// Most pixels in a skin (GLQuake's `GL_Upload8` converts into a
    /// fixed 640 × 480 buffer), `None` for no limit: a larger skin is
    /// scaled down to fit, with a warning.
    pub max_skin_pixels: Option<u64>,
}

impl Limits {
    /// id's Quake (and WinQuake/GLQuake): 1024 vertices, 2048 triangles,
    /// 256 frames, skins at most 480 pixels tall.
    pub const QUAKE: Limits = Limits {
        title: "Quake",
        max_vertices: 1024,
        max_triangles: 2048,
        max_frames: 256,
        max_skin_height: Some(480),
        max_skin_pixels: Some(640 * 480),
    };

    /// No limit but the format's own (counts are `i32`; bytes run out
    /// first): for ports that raised every limit.
    pub const UNLIMITED: Limits = Limits {
        title: "no engine",
        max_vertices: i32::MAX as usize,
        max_triangles: i32::MAX as usize,
        max_frames: i32::MAX as usize,
        max_skin_height: None,
        max_skin_pixels: None,
    };
}

impl Limits {
    /// The limits `engine`'s MDL loader sets on what the compiler makes
    /// (vertices, triangles, poses, skin height; from
    /// [`Engine::mdl_limits`](crate::Engine), where each is cited), or
    /// `None` for an engine that does not load Quake MDL files.
    ///
    /// ```
    /// use retromodel::mdl::compile::Limits;
    /// use retromodel::Engine;
    /// assert_eq!(Limits::for_engine(Engine::Glquake).unwrap().max_vertices, 1024);
    /// assert_eq!(Limits::for_engine(Engine::Quakespasm).unwrap().max_vertices, 2000);
    /// assert!(Limits::for_engine(Engine::Quake2).is_none());
    /// ```
    pub fn for_engine(engine: crate::Engine) -> Option<Limits> {
        if !engine.loads(crate::EngineFormat::Mdl) {
            return None;
        }
        let l = engine.mdl_limits()?;
        let max = |limit: Option<crate::mdl::Limit>| {
            limit.map_or(i32::MAX as usize, |l| usize::try_from(l.max).unwrap_or(0))
        };
        Some(Limits {
            title: engine.title(),
            max_vertices: max(l.max_vertices),
            max_triangles: max(l.max_triangles),
            max_frames: max(l.max_poses).min(max(l.max_frames)),
            max_skin_height: l.max_skin_height.map(|h| u32::try_from(h.max).unwrap_or(0)),
            max_skin_pixels: l.max_skin_pixels.map(|p| u64::try_from(p.max).unwrap_or(0)),
        })
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::QUAKE
    }
}

/// How [`compile`](super::compile) turns a scene into an MDL.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// Frames per second the animations are sampled at (Quake's monsters
    /// animate at 10: one frame per `think` of 0.1 s).
    pub fps: f32,
    /// Keep a frame format's animations frame for frame (an MD2's, MDL's
    /// or MD3's, read by this crate: one frame per stored frame, at its
    /// time) rather than sampling them at `fps`, so frame numbers stay the
    /// same; default `true`. Front ends set it `false` when the user gives
    /// a frame rate. Other animations are sampled at `fps` either way.
    pub keep_source_frames: bool,
    /// The animations to bake, in this order (exact names, else ASCII
    /// case-insensitive); empty for all, in scene order.
    pub animations: Vec<String>,
    /// Animations stored as one frame group each (the engine plays the
    /// group's frames by itself, QuakeC selects it as one frame), by
    /// scene name (ASCII case-insensitive). A scene animation whose name
    /// ends in [`GROUP_SUFFIX`] is a group too (named without it).
    pub frame_groups: Vec<String>,
    /// Multiply scene units by this (`None`: 1, unless `fit_height`).
    pub scale: Option<f32>,
    /// Scale so that every frame's bounding box together is this many
    /// Quake units tall (Z). Not together with `scale`.
    pub fit_height: Option<f32>,
    /// The palette skins are quantised to (Quake's `gfx/palette.lmp`:
    /// [`Palette::from_raw_768`]). Required: an MDL skin is palette
    /// indices.
    pub palette: Option<Palette>,
    /// The header's eye position (`None`: `0 0 0`, what most MDLs hold;
    /// the engines do not read it).
    pub eye_position: Option<[f32; 3]>,
    /// The header's effect flags ([`crate::mdl::flags`]: rotate, rocket
    /// trail ...).
    pub flags: i32,
    /// The header's sync type: `false` (0) frame and skin groups animate
    /// in sync, `true` (1) each entity starts at a random time.
    pub random_sync: bool,
    /// The engine limits checked; a count past one is an error saying
    /// which, by how much and what would help.
    pub limits: Limits,
    /// Lay the frames out as Quake's player table (the 143 frames of id's
    /// `player.mdl`, [`PLAYER_FRAMES`](super::PLAYER_FRAMES)), filled from
    /// the scene's animations by name; `animations` and `fps` are then
    /// not used, and frame groups cannot be asked for.
    pub player: bool,
    /// Lay the frames out as this model's (the MDL it replaces, read with
    /// [`FrameTable::of_model`](super::FrameTable::of_model)): its
    /// animations in its order with its frame counts, filled from the
    /// scene's animations by name, then its raw frame names and frame
    /// groups. `animations` and `fps` are then not used; not together
    /// with `player` or `frame_groups`.
    pub frames_like: Option<super::FrameTable>,
}

/// The suffix that makes a scene animation a frame group
/// (`flame@group`, stored as the group `flame`).
pub const GROUP_SUFFIX: &str = "@group";

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            fps: 10.0,
            keep_source_frames: true,
            animations: Vec::new(),
            frame_groups: Vec::new(),
            scale: None,
            fit_height: None,
            palette: None,
            eye_position: None,
            flags: 0,
            random_sync: false,
            limits: Limits::QUAKE,
            player: false,
            frames_like: None,
        }
    }
}

impl CompileOptions {
    /// Whether these options ask for something only a compile does with
    /// an MDL's header or frame list (a frame table, frame groups,
    /// effect flags, an eye position, random sync). An MDL converted to .mdl is rewritten as it
    /// is, so those are refused for it; the rest (palette, frame rate,
    /// scale, limits) also serve other outputs and are simply unused.
    pub fn sets_header_or_groups(&self) -> bool {
        self.player
            || self.frames_like.is_some()
            || !self.frame_groups.is_empty()
            || self.flags != 0
            || self.eye_position.is_some()
            || self.random_sync
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
    if options.player && options.frames_like.is_some() {
        return bad("the player table and another model's frame table: choose one".into());
    }
    if options.frames_like.is_some() && !options.frame_groups.is_empty() {
        return bad(
            "frame groups and another model's frame table: the table's frame groups are that model's".into(),
        );
    }
    if options.player && !options.frame_groups.is_empty() {
        return bad(
            "frame groups and the player table: the player's frames are single frames that QuakeC numbers one by one".into(),
        );
    }
    if let Some(e) = options.eye_position {
        if !e.iter().all(|v| v.is_finite()) {
            return bad(format!("eye position {e:?} is not three finite numbers"));
        }
    }
    Ok(())
}

/// The engines that load MDL and allow more than `current` of what `max`
/// picks from their limits, and at least `actual`, as remedies naming them
/// (in [`Engine::MDL`](crate::Engine::MDL)'s order; `allows: None` where
/// the engine has no limit but the format's): what a refusal over a limit
/// offers beside changing the model.
pub(crate) fn engines_allowing(
    max: impl Fn(&Limits) -> usize,
    current: usize,
    actual: usize,
) -> Vec<crate::advice::Remedy> {
    crate::Engine::MDL
        .into_iter()
        .filter_map(|engine| Limits::for_engine(engine).map(|l| (engine, max(&l))))
        .filter(|&(_, allows)| allows > current && allows >= actual)
        .map(|(engine, allows)| crate::advice::Remedy::Engine {
            engine,
            allows: (allows < i32::MAX as usize).then_some(allows as u64),
        })
        .collect()
}
