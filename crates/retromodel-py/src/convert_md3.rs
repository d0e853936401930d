//! `compile_md3` and its output class, `Md3Output`: a Quake III MD3, or a
//! whole player's files, through the library's `Converter` as the command
//! line uses it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use retromodel::convert::{ConvertOptions, OutputFormat};

use crate::advice::{worded, Detail};
use crate::conversion::files_dict;
use crate::convert::{check_frames_and_size, compile_output, compile_source, report_to_python};
use crate::errors::Error;
use crate::model::engine_named;

compile_output! {
    /// What `compile_md3` made: the MD3 (or a player's files), the compile
    /// report and the warnings.
    Md3Output {
        /// The MD3 file's bytes (with `player=True`: `lower.md3`'s).
        md3,
        /// With `player=True`, every file of the player by name, to write
        /// into `models/players/NAME/`: `lower.md3`, `upper.md3`, `head.md3`,
        /// `animation.cfg`, `lower_default.skin`, `upper_default.skin`,
        /// `head_default.skin`; empty otherwise.
        files("player"),
        /// The compile report (`None` for an MD3 written as it is): the
        /// animations (`name`, `first_frame`, `frames`, `fps`: what an
        /// `animation.cfg` line needs), `frames`, `surfaces` (`name`,
        /// `shader`, `vertices`, `triangles`), vertex, triangle and tag counts,
        /// and the largest and RMS difference of a coordinate from the baked
        /// one (`max_error`, `rms_error`, in units; at most 1/128).
    }
}

/// Compiles any model retromodel reads (a `.glb` from Blender, an MS3D,
/// an MD2, an MDL, an MD5) into a Quake III MD3: one surface per mesh
/// (its texture's path as the shader), positions in 1/64 units (the
/// largest error reported, at most 1/128 unit), tags from nodes named
/// `tag_*`. `source` is a path, bytes or a `Model` (an MD3 is written as
/// it is).
///
/// - `fps`: frames per second the animations are baked at (15, what most
///   Quake III `animation.cfg` lines give); without it an MD2's, MDL's or
///   MD3's frames are kept one for one.
/// - `anims`: the animations to bake, in order (default all).
/// - `scale` or `fit_height`: multiply units, or fit to this height.
/// - `engine`: whose loader's limits the model must meet (`ioquake3`, the
///   default: fewer than 1000 vertices and 2000 triangles per surface;
///   `ironwail`, `vkquake`; `"none"`: the format's `MD3_MAX_*` only).
/// - `split`: split a surface past the engine's per-surface vertex or
///   triangle limit into surfaces of its name (default); `False` raises.
/// - `name`: the model's file name (names the scene).
/// - `player`: write a Quake III player from a scene whose nodes `lower`,
///   `upper` and `head` hold its parts (head below upper's `tag_head`,
///   upper below lower's `tag_torso`): the result's `files` are
///   `lower.md3`, `upper.md3`, `head.md3`, `animation.cfg` and the three
///   `_default.skin` files; the scene's animations named after
///   `animation.cfg`'s lines (`LEGS_RUN`, `TORSO_ATTACK`, ...; `idle`,
///   `run`, `walk`, `attack`, `death` also fit) make its frames. The report
///   is then each part's (`parts`) and each cfg line with where its frames
///   came from (`lines`). `anims` does not apply.
/// - `player_name`: with `player`, the folder `models/players/NAME/`
///   that texture file names without a folder are written below in the
///   `.skin` files.
/// - `sex`, `footsteps`: with `player`, `animation.cfg`'s `sex` (`"m"`,
///   `"f"`, `"n"`) and `footsteps` (`"normal"`, `"boot"`, `"flesh"`,
///   `"mech"`, `"energy"`) lines (default: what the source player had).
///
/// The same file as `retromodel convert SOURCE NAME.md3` with the matching
/// flags (`--player`: `convert SOURCE models/players/NAME/ --player`).
/// Returns an `Md3Output`. Raises `retromodel.Error` when the model
/// cannot be compiled (a limit passed, a coordinate beyond ±512 units, an
/// unknown animation, a player scene without a `lower`, `upper` or `head`
/// node).
#[pyfunction]
#[pyo3(signature = (source, fps = None, anims = None, scale = None, fit_height = None, engine = None, split = true, name = "model.md3", player = false, player_name = None, sex = None, footsteps = None))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub fn compile_md3(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    fps: Option<f32>,
    anims: Option<Vec<String>>,
    scale: Option<f32>,
    fit_height: Option<f32>,
    engine: Option<&str>,
    split: bool,
    name: &str,
    player: bool,
    player_name: Option<String>,
    sex: Option<&str>,
    footsteps: Option<String>,
) -> PyResult<Md3Output> {
    use retromodel::md3::compile::CompileOptions as Md3Options;
    use retromodel::md3::compile::PlayerOptions;

    let keep_source_frames = fps.is_none();
    let fps = fps.unwrap_or(retromodel::md3::compile::DEFAULT_FPS);
    check_frames_and_size(fps, scale, fit_height)?;
    if !player {
        let given = [
            (player_name.is_some(), "player_name"),
            (sex.is_some(), "sex"),
            (footsteps.is_some(), "footsteps"),
        ];
        if let Some((_, keyword)) = given.iter().find(|(g, _)| *g) {
            return Err(Error::new_err(format!(
                "{keyword} applies with player=True (a Quake III player's files)"
            )));
        }
    }
    if player && anims.as_ref().is_some_and(|a| !a.is_empty()) {
        return Err(Error::new_err(
            "player=True and anims: a player's animations are animation.cfg's lines, each filled from the scene animation of its name (LEGS_RUN, TORSO_ATTACK, ...)",
        ));
    }
    let sex = match sex {
        None => None,
        Some(s) if matches!(s, "m" | "f" | "n") => s.chars().next(),
        Some(s) => return Err(Error::new_err(format!("sex {s:?}: \"m\", \"f\" or \"n\""))),
    };
    const FOOTSTEPS: [&str; 6] = ["default", "normal", "boot", "flesh", "mech", "energy"];
    if let Some(f) = footsteps.as_deref().filter(|f| !FOOTSTEPS.contains(f)) {
        return Err(Error::new_err(format!(
            "footsteps {f:?}: one of {}",
            FOOTSTEPS.join(", ")
        )));
    }
    let engine = match engine {
        None => Some(retromodel::Engine::Ioquake3),
        Some(e) if e.eq_ignore_ascii_case("none") => None,
        Some(e) => {
            let engine = engine_named(e)?;
            if engine.md3_limits().is_none() {
                return Err(Error::new_err(format!(
                    "engine {e:?}: no MD3 loader profile (ioquake3, etlegacy, rtcw, rtcw-mp, ironwail, vkquake, fte, or \"none\")"
                )));
            }
            Some(engine)
        }
    };
    let options = Md3Options {
        fps,
        keep_source_frames,
        animations: anims.unwrap_or_default(),
        scale,
        fit_height,
        engine,
        split_surfaces: split,
        ..Md3Options::default()
    };
    let md3_player = player.then_some(PlayerOptions {
        fps: options.fps,
        scale: options.scale,
        fit_height: options.fit_height,
        engine: options.engine,
        split_surfaces: options.split_surfaces,
        name: player_name,
        sex,
        footsteps,
    });
    let options = ConvertOptions {
        anim: options.animations.clone(),
        md3: Some(options),
        md3_player,
        ..ConvertOptions::default()
    };
    let main_name = if player { "lower.md3" } else { name };
    let compiled = compile_source(py, source, &options, OutputFormat::Md3, main_name)?;
    let files = if player {
        let mut files = compiled.beside;
        files.push(("lower.md3".to_string(), compiled.main.clone()));
        files
    } else {
        Vec::new()
    };
    Ok(Md3Output {
        md3: compiled.main,
        files,
        report: compiled.report,
        warnings: compiled.warnings,
    })
}
