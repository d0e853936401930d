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
//! use retromodel::md2::Md2SceneOptions;
//! use retromodel::scene::Scene;
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

mod checked;
mod conclude;
mod finish;
mod frame_list;
mod frames;
mod grids;
mod layout;
mod names;
mod options;
mod plan;
mod pose;
mod prepared;
mod record;
mod refusal;
mod report;
#[cfg(feature = "textures")]
mod skin;
mod skin_plan;
pub(crate) mod source;

pub use frame_list::frame_times;
pub use options::{CompileOptions, FrameGrid, Grid, GridSource, SkinFormat, SkinOptions};
pub use report::{
    AnimationReport, CompileReport, CompileWarning, PLAYER_HEIGHT, PLAYER_HEIGHT_RANGE,
};

pub use crate::md2::{Engine, EngineLimits};
#[cfg(feature = "textures")]
pub use crate::texture::Palette;

use crate::bake::{self, grid, tally};
use crate::error::{Error, Result};
use crate::md2::Md2;
use crate::scene::Scene;
use grids::shared_grids;
use options::check_options;
use prepared::unposed;

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

/// Up to how many positions (frames × vertices) a compile keeps every
/// frame's normals from posing the frames once, rather than posing them a
/// second time for the normals: 4 M, 48 MB of normals.
const KEEP_NORMALS: usize = 4_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "parallel")]
    use crate::md2::FrameName;
    use crate::md2::Md2SceneOptions;

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
