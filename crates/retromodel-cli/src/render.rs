//! `retromodel render`: a still (PNG), an animation (GIF, animated PNG)
//! or a contact sheet (`--sheet`, see `render_sheet`).

use crate::load::file_name;
use crate::output::{check_free, write_atomic_with};
pub use crate::render_args::Args;
use crate::render_shared::{animations, describe, frames, load, render_in_order};
use crate::render_sheet;
use anyhow::{bail, Context, Result};
use retromodel::render::encode::{write_png, ApngWriter, GifPalette, GifWriter};
use retromodel::render::timeline::{frame_times, model_rate};
use retromodel::render::{animation_index, Camera, Framing, Moment, RenderOptions, Stage};
use retromodel::scene::Scene;
use std::path::Path;
use std::process::ExitCode;

/// The output kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Png,
    Gif,
    Apng,
}

/// Runs `render`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if let Some(sheet) = &args.sheet {
        return render_sheet::run(args, sheet);
    }
    let Some(output) = &args.output else {
        bail!("render needs an output file (.png, .gif, .apng) or --sheet OUT.png");
    };
    if args.input.is_dir() && !crate::md3_files::is_player_folder(&args.input) {
        bail!(
            "{}: is a folder: render a contact sheet of it with --sheet OUT.png",
            args.input.display()
        );
    }
    let ext = output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let kind = match ext.as_str() {
        "png" => Kind::Png,
        "gif" => Kind::Gif,
        "apng" => Kind::Apng,
        _ => bail!(
            "{}: cannot write .{ext} images (supported: .png, .gif, .apng)",
            output.display()
        ),
    };
    if kind == Kind::Png && args.fps.is_some() {
        bail!("--fps applies to animations (.gif, .apng) and strips");
    }
    if kind != Kind::Png && (args.frame.is_some() || args.time.is_some()) {
        bail!("--frame and --time choose a still (.png); a .gif or .apng plays whole animations");
    }
    check_free(std::slice::from_ref(output), args.force)?;
    let skin = args.user_skin();
    let loaded = load(
        &args.input,
        &args.texture_dirs,
        skin.as_ref(),
        args.palette.as_deref(),
    )?;
    for line in &loaded.warnings {
        eprintln!("{line}");
    }
    let scene = &loaded.scene;
    // The camera frames what is drawn: the animation the still is in (the
    // first for the rest pose), the animations played.
    let still = match kind {
        Kind::Png => Some(still_moment(args, scene)?),
        _ => None,
    };
    let framing = match &still {
        Some((moment, _)) => Framing::for_still(scene, *moment),
        None => Framing::Animations(animations(args, scene)?.0),
    };
    let stage = Stage::framed(scene, &framing).with_context(|| args.input.display().to_string())?;
    for w in stage.warnings() {
        eprintln!("{}: warning: {w}", args.input.display());
    }
    let size = args.size.unwrap_or((512, 512));
    let options = args.options(size, args.background.unwrap_or([0; 4]));
    let camera = stage.camera(args.angle(), &options, args.fov)?;
    let name = file_name(&args.input);
    match still {
        Some(moment) => still_image(args, stage, moment, &camera, &options, &name, output)?,
        None => animation(args, stage, &camera, &options, &name, output, kind)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The still's moment, as the flags say, and its description.
fn still_moment(args: &Args, scene: &Scene) -> Result<(Moment, serde_json::Value)> {
    let anim = match args.anim.as_slice() {
        [] => None,
        [one] => Some(animation_index(scene, one)?),
        _ => bail!("a still shows one animation: give --anim once"),
    };
    let describe_at = |a: usize, t: f32, frame: Option<usize>| serde_json::json!({ "animation": scene.animations[a].name, "time": t, "frame": frame });
    Ok(match (anim, args.frame, args.time) {
        (Some(a), Some(k), _) => {
            let animation = &scene.animations[a];
            let times = frame_times(animation, model_rate(animation))?;
            let Some(&t) = times.get(k) else {
                bail!(
                    "--frame {k}: animation {:?} has {} frames",
                    animation.name,
                    times.len()
                );
            };
            (
                Moment::At {
                    animation: a,
                    seconds: t,
                },
                describe_at(a, t, Some(k)),
            )
        }
        (None, Some(k), _) => {
            let targets = scene
                .meshes
                .iter()
                .map(|m| m.morph_targets.len())
                .max()
                .unwrap_or(0);
            if k >= targets {
                bail!("--frame {k}: the model has {targets} frames (give --anim NAME for an animation's frame)");
            }
            (Moment::MorphTarget(k), serde_json::json!({ "frame": k }))
        }
        (a, None, Some(t)) => {
            if !(t.is_finite() && t >= 0.0) {
                bail!("--time {t}: must be a non-negative number of seconds");
            }
            if scene.animations.is_empty() {
                bail!("--time: the model has no animation");
            }
            let a = a.unwrap_or(0);
            (
                Moment::At {
                    animation: a,
                    seconds: t,
                },
                describe_at(a, t, None),
            )
        }
        (Some(a), None, None) => (
            Moment::At {
                animation: a,
                seconds: 0.0,
            },
            describe_at(a, 0.0, Some(0)),
        ),
        (None, None, None) => (Moment::Rest, serde_json::json!("rest")),
    })
}

#[allow(clippy::too_many_arguments)]
fn still_image(
    args: &Args,
    mut stage: Stage,
    (moment, described): (Moment, serde_json::Value),
    camera: &Camera,
    options: &RenderOptions,
    name: &str,
    output: &Path,
) -> Result<()> {
    let mut pixels = vec![0u8; options.width as usize * options.height as usize * 4];
    stage.render(moment, camera, options, &mut pixels)?;
    let info = describe(name, camera, options, &described).to_string();
    if args.verbose {
        outln!("{info}");
    }
    write_atomic_with(output, args.force, false, |w| {
        write_png(
            w,
            options.width,
            options.height,
            &pixels,
            &[("retromodel", &info)],
        )
        .map_err(std::io::Error::other)
    })
}

#[allow(clippy::too_many_arguments)]
fn animation(
    args: &Args,
    stage: Stage,
    camera: &Camera,
    options: &RenderOptions,
    name: &str,
    output: &Path,
    kind: Kind,
) -> Result<()> {
    let scene = stage.scene();
    let (chosen, fps) = animations(args, scene)?;
    let moments = frames(scene, &chosen, fps)?;
    let names: Vec<&str> = chosen
        .iter()
        .map(|&a| scene.animations[a].name.as_str())
        .collect();
    let info = describe(
        name,
        camera,
        options,
        &serde_json::json!({ "animations": names, "fps": fps, "frames": moments.len() }),
    )
    .to_string();
    if args.verbose {
        outln!("{info}");
    }
    let jobs = args.jobs.map(usize::from);
    let (w, h) = (options.width, options.height);
    write_atomic_with(output, args.force, false, |out| {
        let result = (|| -> Result<()> {
            match kind {
                Kind::Apng => {
                    let mut apng = ApngWriter::new(
                        out,
                        w,
                        h,
                        moments.len() as u32,
                        fps,
                        &[("retromodel", &info)],
                    )?;
                    render_in_order(&stage, &moments, camera, options, jobs, |p| {
                        Ok(apng.add_frame(p)?)
                    })?;
                    apng.finish()?;
                }
                _ => {
                    // The palette from up to 16 frames spread over the whole.
                    let step = moments.len().div_ceil(16).max(1);
                    let samples: Vec<Moment> = moments.iter().step_by(step).copied().collect();
                    let mut images = Vec::new();
                    render_in_order(&stage, &samples, camera, options, jobs, |p| {
                        images.push(p.to_vec());
                        Ok(())
                    })?;
                    let refs: Vec<&[u8]> = images.iter().map(Vec::as_slice).collect();
                    let palette = GifPalette::from_samples(&refs);
                    drop(images);
                    let mut gif = GifWriter::new(out, w, h, fps, palette)?;
                    render_in_order(&stage, &moments, camera, options, jobs, |p| {
                        Ok(gif.add_frame(p)?)
                    })?;
                    gif.finish()?;
                }
            }
            Ok(())
        })();
        result.map_err(|e| std::io::Error::other(format!("{e:#}")))
    })
}
