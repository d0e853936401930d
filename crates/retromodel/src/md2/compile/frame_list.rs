//! The poses a compile makes frames of, for other compilers that must
//! play frame for frame like the MD2 (the rerelease's MD5 beside it).

use super::options::check_options;
use super::{plan, CompileOptions};
use crate::error::Result;
use crate::scene::Scene;

/// The scene poses [`compile`](super::compile) would make the MD2's
/// frames of, in frame order: for each frame, the scene animation (or
/// `None` for the rest pose) and the seconds into it. Frame `k` of the
/// MD2 is the scene posed at entry `k` (the player table included, with
/// `player: true`); scaling and grids do not change which poses.
///
/// ```
/// use retromodel::md2::compile::{frame_times, CompileOptions};
/// use retromodel::ms3d::Ms3dSceneOptions;
/// use retromodel::scene::Scene;
/// let scene = Scene::from_ms3d(&retromodel::ms3d::sample::sample_model(), &Ms3dSceneOptions::default())?;
/// let times = frame_times(&scene, &CompileOptions::default())?;
/// assert_eq!(times.first(), Some(&(Some(0), 0.0)));
/// # Ok::<(), retromodel::Error>(())
/// ```
pub fn frame_times(scene: &Scene, options: &CompileOptions) -> Result<Vec<(Option<usize>, f32)>> {
    check_options(options)?;
    let plan = if options.player {
        plan::player_plan(scene, &mut Vec::new())
    } else {
        plan::animations_plan(
            scene,
            &options.animations,
            options.fps,
            options.keep_source_frames,
        )?
    };
    Ok(plan.poses().map(|p| (p.animation, p.time)).collect())
}
