//! Planning one scene's compile: its frames ([`Plan`]), the vertices and
//! triangles it draws and its MD2 record, checked against the engine's
//! frame and triangle limits before anything is posed.

use super::plan::{self, Plan};
use super::refusal::{limit, limit_error};
use super::tally::FrameErrors;
use super::{bake, source, CompileOptions, CompileWarning, Grid};
use crate::advice::Quantity;
use crate::error::{Error, Result};
use crate::scene::Scene;

/// One scene baked, before it is quantised.
pub(super) struct Prepared<'a> {
    pub(super) scene: &'a Scene,
    pub(super) plan: Plan,
    pub(super) source: bake::Source,
    /// Frames × used vertices, Quake axes, scaled.
    pub(super) positions: Vec<[f32; 3]>,
    /// Their unit normals, Quake axes, when the model is small enough to
    /// keep them ([`KEEP_NORMALS`](super::KEEP_NORMALS)); otherwise the frames are posed again
    /// for them.
    pub(super) normals: Option<Vec<[f32; 3]>>,
    pub(super) scale: f32,
    pub(super) record: Option<source::Md2Source>,
    pub(super) md2: Option<source::Md2Source>,
    /// The bytes of every position on `md2`'s grids, kept from checking
    /// that the record fits (so they are not computed twice).
    pub(super) md2_bytes: Option<(Vec<[u8; 3]>, Vec<FrameErrors>)>,
    pub(super) warnings: Vec<CompileWarning>,
}

/// The plan, the used vertices and triangles and the scene's MD2 record,
/// checked against the engine's frame and triangle limits; nothing posed
/// yet (see [`Prepared::pose`]).
pub(super) fn unposed<'a>(scene: &'a Scene, options: &CompileOptions) -> Result<Prepared<'a>> {
    let limits = options.engine.limits();
    let mut warnings = Vec::new();
    let plan = if options.player {
        plan::player_plan(scene, &mut warnings)
    } else {
        plan::animations_plan(
            scene,
            &options.animations,
            options.fps,
            options.keep_source_frames,
        )?
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
    let source = bake::Source::new(scene, "MD2");
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
        Some("the frames are placed on given grids, not on the recorded ones")
    } else if options.grid != Grid::Frame {
        Some("frames are to share grids, not keep the recorded one per frame")
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
