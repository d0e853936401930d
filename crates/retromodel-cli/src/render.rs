//! `retromodel render`: a still (PNG), an animation (GIF, animated PNG)
//! or a contact sheet (`--sheet`, see `render_sheet`).

use crate::load::{file_name, read_file};
use crate::output::{check_free, write_atomic_with};
use crate::pipeline::warning_line;
use crate::render_sheet;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use retromodel::convert::prepare_scene;
use retromodel::render::encode::{write_png, ApngWriter, GifPalette, GifWriter};
use retromodel::render::timeline::{frame_times, model_rate};
use retromodel::render::{
    animation_index, light_direction_in_scene, Camera, Framing, Light, Moment, RenderOptions,
    Shading, Stage, View, ViewAngle, DEFAULT_FOV_Y,
};
use retromodel::scene::{Scene, UserSkin};
use retromodel::texture::TextureResolver;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The wireframe's colour (straight RGBA).
const WIREFRAME: [u8; 4] = [16, 16, 16, 170];

/// `--view`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ViewArg {
    /// From the front: the model faces the viewer.
    Front,
    /// From behind.
    Back,
    /// From the model's left side.
    Left,
    /// From the model's right side.
    Right,
    /// From straight above, the model's front at the bottom.
    Top,
    /// From the front-left and above (yaw 35, pitch 20).
    ThreeQuarter,
}

impl ViewArg {
    fn view(self) -> View {
        match self {
            ViewArg::Front => View::Front,
            ViewArg::Back => View::Back,
            ViewArg::Left => View::Left,
            ViewArg::Right => View::Right,
            ViewArg::Top => View::Top,
            ViewArg::ThreeQuarter => View::ThreeQuarter,
        }
    }
}

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to draw, or (with --sheet) a folder of models.
    pub input: PathBuf,
    /// The image to write: `.png` (one pose), `.gif` or `.apng` (the
    /// animations, looping).
    #[arg(required_unless_present = "sheet", conflicts_with = "sheet")]
    pub output: Option<PathBuf>,
    /// Write a contact sheet (PNG) instead: every model below the input
    /// folder, or every frame of every animation of the input model in
    /// rows (a film strip).
    #[arg(long, value_name = "OUT.png")]
    pub sheet: Option<PathBuf>,
    /// The animation to draw (repeatable for .gif/.apng and strips; default
    /// all). For a still, the animation --frame and --time are in. The
    /// camera frames everything the animations drawn reach: for a still,
    /// its animation (without --anim: the one --frame is in, else the
    /// first), so the stills of one animation share one camera.
    #[arg(long, value_name = "NAME")]
    pub anim: Vec<String>,
    /// A still: frame K of --anim (an MD2's key K; at the model's rate for
    /// others), or without --anim the model's frame K (MD2).
    #[arg(long, value_name = "K", conflicts_with = "time")]
    pub frame: Option<usize>,
    /// A still: seconds into --anim (default the first animation).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f32>,
    /// .gif/.apng/strips: frames per second (default the model's rate: 10
    /// for MD2, the file's for MS3D, 30 for glTF). MD2 frames are blended
    /// when it is higher.
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f32>,
    /// Image size, WIDTHxHEIGHT (or one number for a square); of each
    /// thumbnail with --sheet. Default 512x512, 192x192 for folder sheets,
    /// 128x128 for strips.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Where the camera looks from (default three-quarter).
    #[arg(long, value_enum, conflicts_with_all = ["yaw", "pitch"])]
    view: Option<ViewArg>,
    /// Camera angle about the vertical axis in degrees: 0 in front of the
    /// model, 90 at its left, 180 behind.
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub yaw: Option<f32>,
    /// Camera angle above the horizontal in degrees (90: from above).
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub pitch: Option<f32>,
    /// Vertical field of view in degrees.
    #[arg(long, value_name = "DEG", default_value_t = DEFAULT_FOV_Y)]
    pub fov: f32,
    /// Background colour RRGGBB or RRGGBBAA (hex; default transparent, for
    /// sheets 303030).
    #[arg(long, value_name = "RRGGBB[AA]", value_parser = parse_colour)]
    pub background: Option<[u8; 4]>,
    /// Draw the triangles' edges over the model.
    #[arg(long)]
    pub wireframe: bool,
    /// Texture colours as they are, without the light.
    #[arg(long)]
    pub unlit: bool,
    /// An image to use as the first skin or texture.
    #[arg(long, value_name = "FILE")]
    pub skin: Option<PathBuf>,
    /// A folder to search for textures after the model's own (repeatable).
    #[arg(long = "texture-dir", value_name = "DIR")]
    pub texture_dirs: Vec<PathBuf>,
    /// Sheets: thumbnails per row (default: about square; strips: 10).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub columns: Option<u32>,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print the camera, light and moment of each image as JSON on stdout.
    #[arg(long, short)]
    pub verbose: bool,
    /// Folder sheets and animations: worker threads (default one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Folder sheets: no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `WxH` or `N`.
fn parse_size(text: &str) -> std::result::Result<(u32, u32), String> {
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("{text:?}: expected WIDTHxHEIGHT, e.g. 512x384"))
    };
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (parse(w)?, parse(h)?),
        None => {
            let n = parse(text)?;
            (n, n)
        }
    };
    retromodel::render::check_size(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// `RRGGBB` or `RRGGBBAA`, with or without `#`.
fn parse_colour(text: &str) -> std::result::Result<[u8; 4], String> {
    let hex = text.trim_start_matches('#');
    let bad = || format!("{text:?}: expected a colour RRGGBB or RRGGBBAA in hex, e.g. 202020");
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([
        byte(0)?,
        byte(2)?,
        byte(4)?,
        if hex.len() == 8 { byte(6)? } else { 255 },
    ])
}

/// The output kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Png,
    Gif,
    Apng,
}

impl Args {
    /// The camera angle asked for.
    pub fn angle(&self) -> ViewAngle {
        if self.yaw.is_some() || self.pitch.is_some() {
            return ViewAngle {
                yaw: self.yaw.unwrap_or(0.0),
                pitch: self.pitch.unwrap_or(0.0),
            };
        }
        self.view.map_or(View::ThreeQuarter, ViewArg::view).angle()
    }

    /// The render options for images of `size`.
    pub fn options(&self, size: (u32, u32), background: [u8; 4]) -> RenderOptions {
        RenderOptions {
            width: size.0,
            height: size.1,
            background,
            shading: if self.unlit {
                Shading::Unlit
            } else {
                Shading::Lit
            },
            wireframe: self.wireframe.then_some(WIREFRAME),
        }
    }

    /// `--skin`, read.
    pub fn user_skin(&self) -> Option<UserSkin> {
        self.skin.as_ref().map(|path| UserSkin {
            path: path.display().to_string(),
            name: path
                .file_name()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            data: std::fs::read(path)
                .map(Arc::from)
                .map_err(|e| e.to_string()),
        })
    }
}

/// A model read and made into a scene, with the lines to print about it.
pub struct Loaded {
    /// The scene, textures attached.
    pub scene: Scene,
    /// Warning lines (`MODEL: warning: ...`).
    pub warnings: Vec<String>,
}

/// Reads the model at `path` and prepares its scene, textures found in
/// its folder and `texture_dirs` only.
pub fn load(path: &Path, texture_dirs: &[PathBuf], skin: Option<&UserSkin>) -> Result<Loaded> {
    let bytes = read_file(path)?;
    let resolver = TextureResolver::for_model_file(path).with_roots(texture_dirs.to_vec());
    let prepared = prepare_scene(&bytes, &file_name(path), Some(&resolver), skin)
        .with_context(|| path.display().to_string())?;
    Ok(Loaded {
        warnings: prepared
            .warnings
            .iter()
            .map(|w| warning_line(path, w))
            .collect(),
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

/// Runs `render`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if let Some(sheet) = &args.sheet {
        return render_sheet::run(args, sheet);
    }
    let Some(output) = &args.output else {
        bail!("render needs an output file (.png, .gif, .apng) or --sheet OUT.png");
    };
    if args.input.is_dir() {
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
    let loaded = load(&args.input, &args.texture_dirs, skin.as_ref())?;
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
