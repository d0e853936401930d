//! What `render` and `render_sheet` both do: read a model into a scene,
//! describe a render, choose the animations and frames, and render
//! frames in parallel, in order.

use crate::load::{file_name, read_file};
use crate::pipeline::warning_line;
use crate::render_args::Args;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use retromodel::convert::prepare_md3_scene;
use retromodel::render::timeline::{frame_times, model_rate};
use retromodel::render::{
    animation_index, light_direction_in_scene, Camera, Light, Moment, RenderOptions, Shading, Stage,
};
use retromodel::scene::{Scene, UserSkin};
use std::path::{Path, PathBuf};

/// A model read and made into a scene, with the lines to print about it.
pub struct Loaded {
    /// The scene, textures attached.
    pub scene: Scene,
    /// Warning lines (`MODEL: warning: ...`).
    pub warnings: Vec<String>,
}

/// Reads the model at `path` and prepares its scene, textures found in
/// its folder and `texture_dirs` only.
pub fn load(
    path: &Path,
    texture_dirs: &[PathBuf],
    skin: Option<&UserSkin>,
    palette: Option<&Path>,
) -> Result<Loaded> {
    // An MD3 with its animation.cfg and default skins, a player's part
    // (or folder) as the whole player.
    let md3 = crate::md3_files::md3_input(path, None, None, texture_dirs)?;
    let mut warnings: Vec<String> = md3
        .iter()
        .filter(|m| !m.note.is_empty())
        .map(|m| m.note.clone())
        .collect();
    let path = md3.as_ref().map_or(path, |m| m.model.as_path());
    let bytes = read_file(path)?;
    let resolver = crate::load::resolver(path, texture_dirs);
    let palette = palette.map(crate::load::read_palette).transpose()?;
    let prepared = prepare_md3_scene(
        &bytes,
        &file_name(path),
        Some(&resolver),
        skin,
        palette.as_ref(),
        md3.as_ref().map(|m| &m.companions),
    )
    .with_context(|| path.display().to_string())?;
    warnings.extend(prepared.warnings.iter().map(|w| warning_line(path, w)));
    Ok(Loaded {
        warnings,
        scene: prepared.scene,
    })
}

/// What `--verbose` prints and the PNG's `retromodel` text chunk holds:
/// everything another renderer needs to draw the same image.
pub fn describe(
    model: &str,
    camera: &Camera,
    options: &RenderOptions,
    moment: &serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "model": model,
        "width": options.width,
        "height": options.height,
        "camera": camera.to_json(),
        "shading": if options.shading == Shading::Unlit { "unlit" } else { "lit" },
        "light": {
            "direction_camera": Light::DIRECTION,
            "direction_scene": light_direction_in_scene(camera),
            "ambient": Light::AMBIENT,
            "diffuse": Light::DIFFUSE,
        },
        "moment": moment,
    })
}

/// The animations to play (`--anim`, default all) and the frame rate.
pub fn animations(args: &Args, scene: &Scene) -> Result<(Vec<usize>, f32)> {
    let chosen: Vec<usize> = if args.anim.is_empty() {
        (0..scene.animations.len()).collect()
    } else {
        args.anim
            .iter()
            .map(|name| animation_index(scene, name))
            .collect::<retromodel::Result<_>>()?
    };
    let fps = match args.fps {
        Some(f) if !(f.is_finite() && f > 0.0 && f <= 1000.0) => {
            bail!("--fps {f}: must be a number of frames per second above 0 (at most 1000)")
        }
        Some(f) => f,
        None => chosen
            .first()
            .map_or(10.0, |&a| model_rate(&scene.animations[a])),
    };
    Ok((chosen, fps))
}

/// Every frame of `chosen` at `fps`: (animation, seconds); the rest pose
/// alone for a model without animations.
pub fn frames(scene: &Scene, chosen: &[usize], fps: f32) -> Result<Vec<Moment>> {
    if chosen.is_empty() {
        return Ok(vec![Moment::Rest]);
    }
    let mut out = Vec::new();
    for &a in chosen {
        for t in frame_times(&scene.animations[a], fps)? {
            out.push(Moment::At {
                animation: a,
                seconds: t,
            });
        }
    }
    if out.len() > retromodel::render::timeline::MAX_FRAMES {
        bail!(
            "{} frames in all: more than {}; choose animations with --anim or a lower --fps",
            out.len(),
            retromodel::render::timeline::MAX_FRAMES
        );
    }
    Ok(out)
}

/// Renders `moments` in parallel, in order, in groups that keep memory
/// bounded, handing each image to `sink`.
pub fn render_in_order(
    stage: &Stage,
    moments: &[Moment],
    camera: &Camera,
    options: &RenderOptions,
    jobs: Option<usize>,
    mut sink: impl FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let pool = crate::batch::worker_pool(jobs)?;
    let group = 4 * pool.current_num_threads().max(1);
    let len = options.width as usize * options.height as usize * 4;
    for chunk in moments.chunks(group) {
        let images: Vec<retromodel::Result<Vec<u8>>> = pool.install(|| {
            chunk
                .par_iter()
                .map_init(
                    || stage.clone(),
                    |stage, &moment| {
                        let mut pixels = vec![0u8; len];
                        stage.render(moment, camera, options, &mut pixels)?;
                        Ok(pixels)
                    },
                )
                .collect()
        });
        for image in images {
            sink(&image?)?;
        }
    }
    Ok(())
}
