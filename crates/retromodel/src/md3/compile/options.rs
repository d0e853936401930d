//! The options of an MD3 compile.

use crate::engine::Engine;
use crate::error::{Error, Result};

/// The frame rate [`CompileOptions::default`] bakes at: 15 frames per
/// second, the rate most of Quake III's and OpenArena's `animation.cfg`
/// lines give (their players' range from 10 to 20; the lift's
/// [`DEFAULT_FPS`](crate::md3::DEFAULT_FPS) is the same).
pub const DEFAULT_FPS: f32 = 15.0;

/// How [`compile`](super::compile) turns a scene into an MD3.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileOptions {
    /// Frames per second the animations are sampled at ([`DEFAULT_FPS`]).
    pub fps: f32,
    /// Keep a frame format's animations frame for frame (an MD2's, MDL's
    /// or MD3's, read by this crate: one frame per stored frame, at its
    /// time) rather than sampling them at `fps`, so frame numbers stay the
    /// same; default `true`. Front ends set it `false` when the user gives
    /// a frame rate. Other animations are sampled at `fps` either way.
    pub keep_source_frames: bool,
    /// The scene animations to bake, in this order (ASCII
    /// case-insensitive); empty: all of them, in scene order.
    pub animations: Vec<String>,
    /// Multiply scene units by this (`None`: 1, unless `fit_height`).
    pub scale: Option<f32>,
    /// Scale the model so that all its frames' bounding box is this many
    /// units tall (Z up): a Quake III player is about 56 to 64.
    pub fit_height: Option<f32>,
    /// The engine whose loader's limits the model must meet, on top of
    /// the format's `MD3_MAX_*` ([`limits`](crate::md3::limits)); `None`:
    /// the format's only. Default: ioquake3 (fewer than 1000 vertices and
    /// 2000 triangles per surface).
    pub engine: Option<Engine>,
    /// The model's name in the header (`None`: the scene's name).
    pub name: Option<String>,
    /// Split a surface past the per-surface vertex or triangle limit into
    /// parts of the same name and shader (default `true`); `false`: such a
    /// surface is an error.
    pub split_surfaces: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            fps: DEFAULT_FPS,
            keep_source_frames: true,
            animations: Vec::new(),
            scale: None,
            fit_height: None,
            engine: Some(Engine::Ioquake3),
            name: None,
            split_surfaces: true,
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
    if let Some(engine) = options.engine {
        if engine.md3_limits().is_none() {
            return bad(format!(
                "{} has no MD3 loader profile (ioquake3, etlegacy, rtcw, rtcw-mp, ironwail, vkquake, fte)",
                engine.title()
            ));
        }
    }
    Ok(())
}
