//! `retromodel convert`.

use crate::batch::{self, Batch};
use crate::load::read_file;
use crate::pipeline::{convert_file, Job};
use anyhow::Context;
use anyhow::{bail, Result};
use retromodel::convert::{CompileOptions, ConvertOptions, OutputFormat};
use retromodel::md2::compile::{FrameGrid, Grid, GridSource, SkinFormat};
use retromodel::md2::Layout;
use retromodel::md2::{Engine, Md2};
use retromodel::md3::compile::CompileOptions as Md3CompileOptions;
use retromodel::md3::compile::PlayerOptions as Md3PlayerOptions;
use retromodel::mdl::compile::{CompileOptions as MdlCompileOptions, Limits as MdlLimits};
use retromodel::ms3d::Clip;
use retromodel::texture::Palette;
use std::path::PathBuf;
use std::process::ExitCode;

/// Where sections go when writing MD2.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum LayoutArg {
    /// Header, skins, texcoords, triangles, frames, GL commands, in order.
    Standard,
    /// The input file's own offsets, reproducing it byte for byte.
    Original,
}

/// Arguments of `convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to read, or a folder to convert every model below it
    /// (with `--out-dir` and `--to`): Quake II MD2, Quake MDL (and Hexen
    /// II's), Quake III MD3 (a player: its lower.md3 or folder), MilkShape
    /// 3D MS3D and ASCII `.txt`, MD5 `.md5mesh`, Inter-Quake Model `.iqm`
    /// (and its text form `.iqe`),
    /// glTF 2.0 (`.glb`, `.gltf`), OBJ. Recognised by its bytes, not its
    /// name.
    input: PathBuf,
    /// The file to write; its extension chooses the format: `.md2`, `.mdl`
    /// (Quake), `.md3` (Quake III; a folder with --player), `.ms3d`, `.txt`
    /// (MilkShape 3D ASCII), `.md5mesh` (+ `.md5anim`, and `.md5scale`
    /// when a joint's scale animates: the Quake II rerelease's MD5),
    /// `.iqm` (Inter-Quake Model), `.iqe` (its text form), `.glb`, `.gltf`
    /// (+ `.bin`), `.obj` (+ `.mtl` and PNG textures).
    /// Every input converts to every output, or the refusal names what
    /// the output cannot hold.
    #[arg(required_unless_present = "out_dir")]
    output: Option<PathBuf>,
    /// Batch mode: the folder to write into, keeping the input folder's
    /// layout.
    #[arg(long, requires = "to", conflicts_with = "output")]
    out_dir: Option<PathBuf>,
    /// The export format (required in batch mode; else it must match the
    /// output's extension).
    #[arg(long, value_enum)]
    to: Option<ToArg>,
    /// Replace output files that exist (batch mode: else they are skipped).
    #[arg(long)]
    force: bool,
    /// Flush every output to disk before renaming it into place, so that
    /// even a power cut leaves no empty or partial file (slower: a disk
    /// flush per file). Without it, outputs are still written to a
    /// temporary file and renamed, so no partial file is ever visible.
    #[arg(long)]
    sync: bool,
    /// Repair what can be repaired first: drop triangles with out-of-range
    /// indices, fix out-of-range normal indices, rebuild faulty GL commands
    /// (MD2 to MD2 only).
    #[arg(long, conflicts_with = "layout")]
    repair: bool,
    /// MD2 output: also write the Quake II rerelease's MD5 replacement
    /// beside it, md5/STEM.md5mesh, md5/STEM.md5anim and (when a joint's
    /// scale animates) md5/STEM.md5scale, playing frame for frame like the
    /// MD2 (same animations, order and times, --player table included).
    /// Needs a model with joints or animated nodes (a glTF skin, an MS3D
    /// skeleton, an MD5), not shape-key animation. For the MD5 files
    /// alone, write OUT.md5mesh. MDL output (progs/NAME.mdl): also the
    /// Quake rerelease's MD5 that Ironwail, vkQuake and FTE draw in its
    /// place, progs/NAME.md5mesh and progs/NAME.md5anim beside it (frame k
    /// of the anim is MDL frame k; a frame group is its first pose), and
    /// its skin as progs/NAME_00_00.png (+ _luma.png for fullbrights).
    #[arg(long)]
    rerelease: bool,
    /// Section layout of an MD2 output (MS3D files are always rewritten
    /// exactly as read).
    #[arg(long, value_enum, default_value = "standard")]
    layout: LayoutArg,
    /// glTF: store morph targets with KHR_mesh_quantization (smaller files).
    #[arg(long)]
    quantize: bool,
    /// glTF: compress vertex data and indices with EXT_meshopt_compression
    /// (lossless; with --quantize about half the size again). Loaders need
    /// the extension: three.js and Babylon.js have it, assimp does not.
    #[arg(long)]
    compress: bool,
    /// A folder to search for textures after the model's own (repeatable);
    /// no file outside the model's folder and these (and, for a Quake
    /// model in a progs/ folder, the game folder above it) is ever read.
    #[arg(long = "texture-dir", value_name = "DIR")]
    texture_dirs: Vec<PathBuf>,
    /// An image (PCX, PNG, JPEG, TGA, BMP) to use as the first skin or
    /// texture instead of the one the model names; for an MD3, a plain
    /// NAME (no folder, no extension) picks its .skin set instead
    /// (lower_NAME.skin ... for a player, MODEL_NAME.skin for one model;
    /// default: `default`'s when they are there).
    #[arg(long, value_name = "FILE|NAME")]
    skin: Option<PathBuf>,
    /// A Quake III player (its lower.md3 or folder): a weapon model
    /// (models/weapons2/NAME/NAME.md3) for it to hold at tag_weapon.
    #[arg(long, value_name = "FILE.md3")]
    weapon: Option<PathBuf>,
    /// OBJ of an MD2: the frame to export (within `--anim` when given;
    /// default 0).
    #[arg(long, value_name = "N")]
    frame: Option<usize>,
    /// OBJ of an MD2: the animation `--frame` counts within (of a glTF:
    /// the animation `--time` is in). .md2 and compiled .ms3d output: an
    /// animation to bake (repeatable: chooses them and their order;
    /// default all).
    #[arg(long, value_name = "NAME")]
    anim: Vec<String>,
    /// OBJ of an MS3D or glTF: the time in seconds to pose the model at
    /// (default: the bind pose).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f32>,
    /// .md2, .mdl and .md3 output: frames per second the animations are
    /// baked at (default 10, Quake II's rate and Quake's monsters'; .md3:
    /// 15, what most Quake III animation.cfg lines give). Without it an
    /// MD2's, MDL's or MD3's own frames are kept one for one (names aside,
    /// the same frame numbers); with it they are re-sampled too. .iqm
    /// output: the rate every animation is sampled at (default: each
    /// animation's own, an IQM's or MD5's, else the rate its keys fall on).
    #[arg(long, value_name = "FPS", help_heading = "MD2 output")]
    fps: Option<f32>,
    /// .md2 output: lay the animations out as the standard Quake II player
    /// table (198 frames: stand, run, attack, pain1-3, jump, flip, salute,
    /// taunt, wave, point, crstnd, crwalk, crattak, crpain, crdeath,
    /// death1-3), by name, each resampled to its frame count. .mdl output:
    /// Quake's player table (143 frames: axrun, rockrun, stand, axstnd,
    /// axpain, pain, axdeth, deatha-deathe, nailatt, light, rockatt,
    /// shotatt, axatt, axattb-axattd; idle, run, death, attack also fit).
    /// .md3 output: a Quake III player from a scene whose nodes lower,
    /// upper and head hold its parts (head below upper's tag_head, upper
    /// below lower's tag_torso): writes lower.md3, upper.md3, head.md3, animation.cfg and
    /// the three _default.skin files into the output's folder (give the
    /// folder, models/players/NAME/, or NAME/lower.md3); the scene's
    /// animations named after animation.cfg's lines (LEGS_RUN,
    /// TORSO_ATTACK, ...; idle, run, walk, attack, death also fit) make
    /// the frames.
    #[arg(long, help_heading = "MD2 output")]
    player: bool,
    /// .md3 output with --player: animation.cfg's sex line (m, f or n;
    /// default: what the source player had, else none, which the game
    /// reads as m).
    #[arg(long, value_name = "m|f|n", value_parser = ["m", "f", "n"])]
    sex: Option<String>,
    /// .md3 output with --player: animation.cfg's footsteps line (normal,
    /// boot, flesh, mech, energy; default: what the source player had).
    #[arg(long, value_name = "SOUND", value_parser = ["default", "normal", "boot", "flesh", "mech", "energy"])]
    footsteps: Option<String>,
    /// .md2, .mdl and .md3 output: multiply the source's units by this.
    #[arg(
        long,
        value_name = "S",
        conflicts_with = "fit_height",
        help_heading = "MD2 output"
    )]
    scale: Option<f32>,
    /// .md2, .mdl and .md3 output: scale so the model is this many Quake
    /// units tall over all its animations (a Quake II player is about 56).
    #[arg(long, value_name = "UNITS", help_heading = "MD2 output")]
    fit_height: Option<f32>,
    /// .md2 output: which frames share one 8-bit grid (`animation` and
    /// `model`: vertices that do not move in the source do not wobble).
    #[arg(long, value_enum, help_heading = "MD2 output")]
    grid: Option<GridArg>,
    /// .md2 output: use the grids of this MD2's frames (a weapon on its
    /// player's grids, so they never drift apart).
    #[arg(
        long,
        value_name = "OTHER.md2",
        conflicts_with = "grid",
        help_heading = "MD2 output"
    )]
    grid_from: Option<PathBuf>,
    /// .md2 output: the engine whose limits the model must meet (quake2,
    /// yquake2, q2pro, kmquake2, ufoai; default quake2). .mdl output:
    /// quake (id's limits, the default), an engine that loads MDL
    /// (winquake, glquake, quakespasm, quakespasm-spiked, ironwail,
    /// vkquake, fte, quake-rerelease) for its loader's limits, or none.
    /// .md3 output: ioquake3 (the default), etlegacy, rtcw, rtcw-mp,
    /// ironwail, vkquake, fte, or none (the format's MD3_MAX_* only).
    /// .iqm output: an engine that loads IQM (ioquake3, daemon, fte,
    /// quakespasm-spiked, darkplaces, gzdoom, raylib): meshes split to its
    /// loader's limits (ioquake3: 999 vertices, 1,999 triangles), and what
    /// it would refuse is an error (default: none).
    #[arg(long, value_name = "NAME", help_heading = "MD2 output")]
    engine: Option<String>,
    /// A Quake MDL input: the palette its 8-bit skins index (gfx/palette.lmp,
    /// 768 bytes of RGB; default: gfx/palette.lmp beside the model, in a
    /// --texture-dir, or in the game folder above progs/). .md2 output: the
    /// palette of the 8-bit PCX skin (a PCX such as
    /// baseq2/pics/colormap.pcx, or 768 bytes of RGB); without it the skin
    /// is written as PNG. .mdl output (required): Quake's gfx/palette.lmp.
    #[arg(long, value_name = "FILE", help_heading = "MD2 output")]
    palette: Option<PathBuf>,
    /// .md2 output: the skin's format (default pcx with --palette, else
    /// png).
    #[arg(long, value_enum, help_heading = "MD2 output")]
    skin_format: Option<SkinFormatArg>,
    /// .md2 output: the model's one skin name, e.g. players/NAME/skin.pcx;
    /// the skin image is written under it (default: the skin names and
    /// size a glTF of an MD2 records, no file written; else OUT.png when
    /// the model has a texture image).
    #[arg(long, value_name = "NAME", help_heading = "MD2 output")]
    skin_name: Option<String>,
    /// .md2 output: the skin's size in pixels, `WxH`, when there is no
    /// skin image to take it from (default: the source MD2's, else
    /// 256x256).
    #[arg(long, value_name = "WxH", value_parser = skin_size, help_heading = "MD2 output")]
    skin_size: Option<(u32, u32)>,
    /// A MilkShape 3D ASCII model split as StepMania keeps them: its
    /// materials file (the input being the meshes file).
    #[arg(long, value_name = "FILE")]
    materials: Option<PathBuf>,
    /// A split MilkShape 3D ASCII model's bones file.
    #[arg(long, value_name = "FILE")]
    bones: Option<PathBuf>,
    /// An md5anim to play on an .md5mesh input, beyond the one named like
    /// it (repeatable; its .md5scale beside it is read too): each is an
    /// animation of the output.
    #[arg(long = "md5anim", value_name = "FILE")]
    md5anims: Vec<PathBuf>,
    /// An IQM whose animations play on an .iqm input after its own
    /// (repeatable): an animation-only file such as raylib's guyanim.iqm,
    /// or any IQM of the same skeleton.
    #[arg(long = "anim-file", value_name = "FILE.iqm")]
    anim_files: Vec<PathBuf>,
    /// .md2 output: print the compile report (frames and quantisation
    /// error per animation) as one JSON object on stdout.
    #[arg(long, help_heading = "MD2 output")]
    json: bool,
    /// glTF of an MS3D: a named range of its timeline, `name:first-last` in
    /// MilkShape's frames (frame F is F / fps seconds), exported as its own
    /// animation instead of the whole timeline (repeatable). In batch mode
    /// applied to every MS3D (MD2 files keep their frame-name animations).
    #[arg(long = "clip", value_name = "NAME:FIRST-LAST")]
    clips: Vec<Clip>,
    /// .mdl output: store this animation as one frame group (the engine
    /// plays its frames by itself; QuakeC selects it as one frame);
    /// repeatable. An animation named NAME@group is one too.
    #[arg(long = "frame-group", value_name = "NAME", help_heading = "MDL output")]
    frame_groups: Vec<String>,
    /// .mdl output: lay the frames out as this MDL's (the monster or item
    /// the model replaces, whose frames QuakeC selects by number): its
    /// animations in its order and frame counts, filled from the source's
    /// animations by name, with its frame names and frame groups.
    #[arg(long, value_name = "MODEL.mdl", help_heading = "MDL output")]
    frames_like: Option<PathBuf>,
    /// .mdl output: the header's effect flags, comma-separated names
    /// (rocket, grenade, gib, rotate, tracer, zomgib, tracer2, tracer3) or
    /// a number.
    #[arg(long = "mdl-flags", value_name = "FLAGS", value_parser = mdl_flags, help_heading = "MDL output")]
    mdl_flags: Option<i32>,
    /// .mdl output: the header's eye position, `X,Y,Z` (default 0,0,0;
    /// engines do not read it).
    #[arg(long, value_name = "X,Y,Z", value_parser = eye, help_heading = "MDL output")]
    eye: Option<[f32; 3]>,
    /// .mdl output: frame and skin groups start at a random time per
    /// entity (sync type 1) rather than in sync.
    #[arg(long, help_heading = "MDL output")]
    random_sync: bool,
    /// .md3 output: refuse a surface past the engine's per-surface vertex
    /// or triangle limit rather than split it into surfaces of its name.
    #[arg(long, help_heading = "MD3 output")]
    no_split: bool,
    /// Batch mode: worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Batch mode: no progress bar; warnings and the summary still go to
    /// stderr.
    #[arg(long, short)]
    quiet: bool,
    /// .mdl and .md2 output: also write QuakeC's `$frame` (and `$skin`)
    /// declarations of the model to FILE, one `$frame` line per
    /// animation in frame order, so that `$name` is that frame's number
    /// (names QuakeC compilers refuse are rewritten, with a warning).
    #[arg(
        long,
        value_name = "FILE.qc",
        conflicts_with = "out_dir",
        help_heading = "Text files"
    )]
    qc: Option<PathBuf>,
    /// .md2 and .md3 output: also write GZDoom's MODELDEF block for the
    /// model to FILE: Path, Model, Skin, a Scale and ZOffset that stand
    /// frame 0 on the floor --modeldef-height tall, and a FrameIndex line
    /// per frame on sprites named from the model's (XX00 A-Z [ \ ], XX01
    /// ...); the sprite frames of each animation head the file and are
    /// printed.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "out_dir",
        help_heading = "Text files"
    )]
    modeldef: Option<PathBuf>,
    /// With --modeldef: the actor class (default: the output's file stem).
    #[arg(
        long,
        value_name = "NAME",
        requires = "modeldef",
        help_heading = "Text files"
    )]
    modeldef_actor: Option<String>,
    /// With --modeldef: how tall frame 0 stands, in map units (default 56,
    /// a Doom player's height).
    #[arg(
        long,
        value_name = "UNITS",
        requires = "modeldef",
        help_heading = "Text files"
    )]
    modeldef_height: Option<f32>,
}

/// `--grid`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum GridArg {
    /// Each frame its own grid (the smallest error).
    Frame,
    /// One grid per animation.
    Animation,
    /// One grid for the whole model.
    Model,
}

/// `--skin-format`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum SkinFormatArg {
    /// 8-bit PCX in the --palette (every engine; the only one id's loads).
    Pcx,
    /// PNG (yquake2, Q2PRO, KMQuake2, UFO:AI).
    Png,
    /// TGA (yquake2, Q2PRO, KMQuake2, UFO:AI).
    Tga,
}

impl Args {
    /// Whether the input is one Quake MDL file (whose `--palette` is its
    /// skins', not the MD2 compiler's).
    fn input_is_mdl(&self) -> bool {
        self.input
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mdl"))
    }

    /// Whether the input is one Quake III MD3 file (rewritten, not
    /// compiled, to .md3).
    fn input_is_md3(&self) -> bool {
        self.input_is(retromodel::Format::Md3)
    }

    /// Whether the input's extension is `format`'s.
    fn input_is(&self, format: retromodel::Format) -> bool {
        self.input
            .extension()
            .and_then(|e| retromodel::Format::from_extension(&e.to_string_lossy()))
            == Some(format)
    }

    /// The MD2 compiler's options, when any of its flags is given.
    fn compile_options(&self) -> Result<Option<CompileOptions>> {
        let given = self.fps.is_some()
            || self.player
            || self.scale.is_some()
            || self.fit_height.is_some()
            || self.grid.is_some()
            || self.grid_from.is_some()
            || self.engine.is_some()
            || (self.palette.is_some() && !self.input_is_mdl())
            || self.skin_format.is_some()
            || self.skin_name.is_some()
            || self.skin_size.is_some();
        if !given {
            return Ok(None);
        }
        let mut o = CompileOptions::default();
        if let Some(fps) = self.fps {
            if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
                bail!("--fps {fps}: must be a number of frames per second above 0 (at most 1000)");
            }
            o.fps = fps;
        }
        // A frame rate given re-samples; without one a frame format's
        // frames are kept one for one.
        o.keep_source_frames = self.fps.is_none();
        o.player = self.player;
        o.scale = self.scale;
        o.fit_height = self.fit_height;
        o.animations = self.anim.clone();
        if let Some(grid) = self.grid {
            o.grid = match grid {
                GridArg::Frame => Grid::Frame,
                GridArg::Animation => Grid::Animation,
                GridArg::Model => Grid::Model,
            };
        }
        if let Some(path) = &self.grid_from {
            let bytes = read_file(path)?;
            let other = Md2::from_bytes(&bytes)
                .with_context(|| format!("--grid-from {}", path.display()))?;
            o.grid_from = Some(GridSource::Frames(FrameGrid::of_model(&other)));
        }
        if let Some(name) = &self.engine {
            o.engine = engine(name)?;
            if o.engine == Engine::Gzdoom {
                bail!("--engine gzdoom: GZDoom's MD2 loader has no limits to compile to (it refuses only a file too short for its frames or without GL commands, and every .md2 written here has both): leave --engine out, and check the file with validate --engine gzdoom");
            }
        }
        if let Some(path) = &self.palette {
            o.skin.palette = Some(read_palette(path)?);
        }
        o.skin.format = match self.skin_format {
            Some(SkinFormatArg::Pcx) => SkinFormat::Pcx,
            Some(SkinFormatArg::Png) => SkinFormat::Png,
            Some(SkinFormatArg::Tga) => SkinFormat::Tga,
            None if self.palette.is_some() => SkinFormat::Pcx,
            None => SkinFormat::Png,
        };
        o.skin.name = self.skin_name.clone();
        o.skin.size = self.skin_size;
        Ok(Some(o))
    }

    /// The MDL compiler's options, for .mdl output: the palette, frame
    /// rate, scale and animations shared with .md2 output, and the MDL's
    /// own flags; the .md2-only flags are refused.
    fn mdl_options(&self) -> Result<Option<MdlCompileOptions>> {
        let md2_only = [
            (self.grid.is_some(), "--grid"),
            (self.grid_from.is_some(), "--grid-from"),
            (self.skin_format.is_some(), "--skin-format"),
            (self.skin_name.is_some(), "--skin-name"),
            (self.skin_size.is_some(), "--skin-size"),
        ];
        if let Some((_, flag)) = md2_only.iter().find(|(given, _)| *given) {
            bail!("{flag} applies to .md2 output, not .mdl");
        }
        let mut o = MdlCompileOptions::default();
        if let Some(fps) = self.fps {
            if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
                bail!("--fps {fps}: must be a number of frames per second above 0 (at most 1000)");
            }
            o.fps = fps;
        }
        // A frame rate given re-samples; without one a frame format's
        // frames are kept one for one.
        o.keep_source_frames = self.fps.is_none();
        o.scale = self.scale;
        o.fit_height = self.fit_height;
        o.animations = self.anim.clone();
        o.player = self.player;
        if self.player && !self.frame_groups.is_empty() {
            bail!("--player and --frame-group: the Quake player's frames are single frames that QuakeC numbers one by one");
        }
        if let Some(path) = &self.frames_like {
            if self.player {
                bail!("--player and --frames-like: choose one frame table");
            }
            if !self.frame_groups.is_empty() {
                bail!(
                    "--frames-like and --frame-group: the frame groups are those of {}",
                    path.display()
                );
            }
            let bytes = read_file(path)?;
            let model = retromodel::mdl::Mdl::from_bytes(&bytes)
                .with_context(|| format!("--frames-like {}", path.display()))?;
            let title = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            o.frames_like = Some(retromodel::mdl::compile::FrameTable::of_model(
                &model, &title,
            ));
        }
        o.frame_groups = self.frame_groups.clone();
        if let Some(path) = &self.palette {
            o.palette = Some(read_palette(path)?);
        }
        o.flags = self.mdl_flags.unwrap_or(0);
        o.eye_position = self.eye;
        o.random_sync = self.random_sync;
        if let Some(name) = &self.engine {
            o.limits = match name.to_ascii_lowercase().as_str() {
                "quake" => MdlLimits::QUAKE,
                "none" => MdlLimits::UNLIMITED,
                _ => {
                    let engine = engine(name)?;
                    match MdlLimits::for_engine(engine) {
                        Some(limits) => limits,
                        None => bail!(
                            "--engine {name}: {} does not load Quake MDL files (for .mdl output: quake, the default, with id's limits; winquake, glquake, quakespasm, quakespasm-spiked, ironwail, vkquake, fte, quake-rerelease; none)",
                            engine.title()
                        ),
                    }
                }
            };
        }
        Ok(Some(o))
    }

    /// The MD3 compiler's options, for .md3 output: the frame rate, scale
    /// and animations shared with .md2 and .mdl output, and the engine
    /// whose limits apply (ioquake3, the default; etlegacy, rtcw, rtcw-mp,
    /// ironwail, vkquake, fte; none: the format's only); the .md2-only
    /// flags are refused.
    fn md3_options(&self) -> Result<Option<Md3CompileOptions>> {
        let md2_only = [
            (self.grid.is_some(), "--grid"),
            (self.grid_from.is_some(), "--grid-from"),
            (self.skin_format.is_some(), "--skin-format"),
            (self.skin_name.is_some(), "--skin-name"),
            (self.skin_size.is_some(), "--skin-size"),
        ];
        // --palette is the source's (an MDL's skins), whatever the output.
        if let Some((_, flag)) = md2_only.iter().find(|(given, _)| *given) {
            bail!("{flag} does not apply to .md3 output");
        }
        self.check_no_mdl_flags()?;
        let mut o = Md3CompileOptions::default();
        if let Some(fps) = self.fps {
            if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
                bail!("--fps {fps}: must be a number of frames per second above 0 (at most 1000)");
            }
            o.fps = fps;
        }
        // A frame rate given re-samples; without one a frame format's
        // frames are kept one for one.
        o.keep_source_frames = self.fps.is_none();
        o.scale = self.scale;
        o.fit_height = self.fit_height;
        o.animations = self.anim.clone();
        o.split_surfaces = !self.no_split;
        if self.player && !self.anim.is_empty() {
            bail!("--anim does not apply to a Quake III player: its animations are animation.cfg's lines, each filled from the scene animation of its name (LEGS_RUN, TORSO_ATTACK, ...)");
        }
        if let Some(name) = &self.engine {
            o.engine = if name.eq_ignore_ascii_case("none") {
                None
            } else {
                let engine = engine(name)?;
                if engine == Engine::Gzdoom {
                    // GZDoom refuses no MD3 (models_md3.cpp): the format's
                    // own limits are all, its 32 surfaces GZDoom's
                    // MD3_MAX_SURFACES too.
                    None
                } else if engine.md3_limits().is_none() {
                    bail!(
                        "--engine {name}: {} has no MD3 loader profile (for .md3 output: ioquake3, the default; etlegacy, rtcw, rtcw-mp, ironwail, vkquake, fte, gzdoom; none)",
                        engine.title()
                    );
                } else {
                    Some(engine)
                }
            };
        }
        Ok(Some(o))
    }

    /// The IQM compiler's options: `--fps`, and `--engine`, whose loader's
    /// per-mesh limits split the meshes and whose refusals are errors.
    fn iqm_options(&self) -> Result<retromodel::iqm::compile::IqmCompileOptions> {
        let mut o = retromodel::iqm::compile::IqmCompileOptions {
            fps: self.fps,
            ..Default::default()
        };
        if let Some(name) = self
            .engine
            .as_deref()
            .filter(|n| !n.eq_ignore_ascii_case("none"))
        {
            let e = engine(name)?;
            if !Engine::IQM.contains(&e) {
                let known: Vec<&str> = Engine::IQM.iter().map(|e| e.name()).collect();
                bail!(
                    "--engine {name}: {} does not load IQM models (for .iqm output: {}; none)",
                    e.title(),
                    known.join(", ")
                );
            }
            o.engine = Some(e);
        }
        Ok(o)
    }

    /// Refuses the .mdl-only flags (and .md3's `--no-split`) for another
    /// output.
    fn check_no_mdl_flags(&self) -> Result<()> {
        let mdl_only = [
            (!self.frame_groups.is_empty(), "--frame-group"),
            (self.frames_like.is_some(), "--frames-like"),
            (self.mdl_flags.is_some(), "--mdl-flags"),
            (self.eye.is_some(), "--eye"),
            (self.random_sync, "--random-sync"),
        ];
        if let Some((_, flag)) = mdl_only.iter().find(|(given, _)| *given) {
            bail!("{flag} applies to .mdl output");
        }
        Ok(())
    }

    /// The library's options and the command line's own, mapped from the
    /// flags once. `strict`: options that do not apply are errors (one
    /// model) rather than ignored (batch mode).
    fn job(&self, strict: bool, format: OutputFormat) -> Result<Job> {
        let md3_compiled = format == OutputFormat::Md3 && (!self.input_is_md3() || self.player);
        if self.no_split && !md3_compiled {
            bail!("--no-split applies to .md3 output compiled from another format");
        }
        if (self.sex.is_some() || self.footsteps.is_some()) && !(md3_compiled && self.player) {
            bail!("--sex and --footsteps apply to .md3 output with --player (a Quake III player's animation.cfg)");
        }
        let iqm_out = matches!(format, OutputFormat::Iqm | OutputFormat::Iqe);
        let iqm_compiled = iqm_out
            && !(self.input_is(retromodel::Format::Iqm) || self.input_is(retromodel::Format::Iqe));
        let (compile, mdl, md3) = if format == OutputFormat::Mdl {
            (None, self.mdl_options()?, None)
        } else if iqm_out {
            self.check_no_mdl_flags()?;
            (None, None, None)
        } else if md3_compiled {
            (None, None, self.md3_options()?)
        } else {
            self.check_no_mdl_flags()?;
            (self.compile_options()?, None, None)
        };
        // `--skin NAME` (no folder, no extension, no such file) picks an
        // MD3's .skin set; anything else is an image.
        let md3_skin_set = self
            .skin
            .as_deref()
            .filter(|s| crate::md3_files::is_skin_set(s))
            .map(|s| s.to_string_lossy().into_owned());
        let skin = self
            .skin
            .as_deref()
            .filter(|_| md3_skin_set.is_none())
            .map(crate::render_args::read_user_skin);
        Ok(Job {
            options: ConvertOptions {
                quantize: self.quantize,
                compress: self.compress,
                clip: self.clips.clone(),
                frame: self.frame,
                anim: self.anim.clone(),
                time: self.time,
                compile,
                layout: match self.layout {
                    LayoutArg::Standard => Layout::Standard,
                    LayoutArg::Original => Layout::Original,
                },
                repair: self.repair,
                skin,
                mdl,
                md3_player: md3
                    .as_ref()
                    .filter(|_| self.player)
                    .map(|o| Md3PlayerOptions {
                        fps: o.fps,
                        scale: o.scale,
                        fit_height: o.fit_height,
                        engine: o.engine,
                        split_surfaces: o.split_surfaces,
                        name: None,
                        sex: self.sex.as_deref().and_then(|s| s.chars().next()),
                        footsteps: self.footsteps.clone(),
                    }),
                md3,
                iqm: if iqm_compiled {
                    Some(self.iqm_options()?)
                } else {
                    None
                },
                strict,
                rerelease: self.rerelease,
                palette: self
                    .palette
                    .as_deref()
                    .map(crate::load::read_palette)
                    .transpose()?,
            },
            texture_dirs: self.texture_dirs.clone(),
            force: self.force,
            sync: self.sync,
            json: self.json,
            ascii_parts: (
                self.materials.as_deref().map(read_file).transpose()?,
                self.bones.as_deref().map(read_file).transpose()?,
            ),
            md5_animations: crate::load::md5_animation_files(&self.md5anims)?,
            iqm_animations: self
                .anim_files
                .iter()
                .map(|p| {
                    std::fs::read(p)
                        .map(|b| (p.display().to_string(), b))
                        .with_context(|| format!("--anim-file {}", p.display()))
                })
                .collect::<Result<_>>()?,
            md3_skin_set,
            weapon: self.weapon.clone(),
        })
    }
}

/// The output formats, for `--to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ToArg {
    /// Binary glTF 2.0, one file.
    Glb,
    /// glTF 2.0 JSON and its `.bin` buffer beside it.
    Gltf,
    /// Wavefront OBJ of one pose, its `.mtl` and PNG textures beside it.
    Obj,
    /// Quake II MD2 (an MD2 is rewritten; any other model is compiled).
    Md2,
    /// MilkShape 3D MS3D (an MS3D is rewritten; any other model is
    /// compiled, vertex animation left out).
    Ms3d,
    /// MilkShape 3D ASCII (as .ms3d, written as text).
    Txt,
    /// The Quake II rerelease's MD5 (.md5mesh, .md5anim, .md5scale), from
    /// a model with joints, on the frames an MD2 would have.
    Md5mesh,
    /// Quake MDL (an MDL is rewritten; any other model is compiled, its
    /// skin quantised to --palette).
    Mdl,
    /// Quake III MD3 (an MD3 is rewritten; any other model is compiled).
    Md3,
}

impl ToArg {
    fn format(self) -> OutputFormat {
        match self {
            ToArg::Glb => OutputFormat::Glb,
            ToArg::Gltf => OutputFormat::Gltf,
            ToArg::Obj => OutputFormat::Obj,
            ToArg::Md2 => OutputFormat::Md2,
            ToArg::Ms3d => OutputFormat::Ms3d,
            ToArg::Txt => OutputFormat::Ms3dAscii,
            ToArg::Md5mesh => OutputFormat::Md5,
            ToArg::Mdl => OutputFormat::Mdl,
            ToArg::Md3 => OutputFormat::Md3,
        }
    }
}

/// Runs `convert`.
pub fn run(args: &Args) -> Result<ExitCode> {
    // A player's folder with one output is the whole player.
    let player = args.output.is_some() && crate::md3_files::is_player_folder(&args.input);
    if args.input.is_dir() && !player {
        let (Some(out_dir), Some(to)) = (&args.out_dir, args.to) else {
            bail!(
                "{}: is a folder: convert it with --out-dir OUT --to glb|gltf|obj",
                args.input.display()
            );
        };
        let job = args.job(false, to.format())?;
        job.options.check_output(to.format())?;
        return batch::run(&Batch {
            input: &args.input,
            out_dir,
            format: to.format(),
            quiet: args.quiet,
            jobs: args.jobs.map(usize::from),
            job,
        });
    }
    let Some(output) = &args.output else {
        bail!(
            "{}: --out-dir needs a folder to convert",
            args.input.display()
        );
    };
    // A Quake III player is written into a folder: its lower.md3 is the
    // main file.
    let player_folder = args.player
        && (output.is_dir()
            || output.to_string_lossy().ends_with(['/', '\\'])
            || output.extension().is_none());
    let folder_output;
    let output = if player_folder {
        folder_output = output.join("lower.md3");
        &folder_output
    } else {
        output
    };
    let ext = output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let Some(format) = OutputFormat::from_extension(&ext) else {
        if !args.clips.is_empty() {
            bail!("--clip applies to glTF output (.glb, .gltf) and .md2 output of MS3D models");
        }
        bail!(
            "{}: cannot write .{ext} files (supported: .glb, .gltf, .obj, .md2, .ms3d, .txt, .md5mesh, .mdl, .md3)",
            output.display()
        );
    };
    let mut job = args.job(true, format)?;
    if let Some(player) = job.options.md3_player.as_mut() {
        let file = output
            .file_name()
            .map(|f| f.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if !matches!(file.as_str(), "lower.md3" | "upper.md3" | "head.md3") {
            bail!(
                "{}: --player writes a Quake III player's files into a folder: give the folder (models/players/NAME/) or NAME/lower.md3",
                output.display()
            );
        }
        // The player's name is its folder's: models/players/NAME/.
        player.name = output
            .parent()
            .and_then(|p| std::fs::canonicalize(p).ok().or(Some(p.to_path_buf())))
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .filter(|n| !n.is_empty());
    }
    job.options.check_output(format)?;
    if let Some(to) = args.to.filter(|t| t.format() != format) {
        if format.is_scene_export() {
            bail!("{}: the extension does not match --to", output.display());
        }
        bail!(
            "{}: --to {} does not match the extension",
            output.display(),
            to.format().extension()
        );
    }
    let text_files = crate::textfiles::TextFiles {
        qc: args.qc.clone(),
        modeldef: args.modeldef.clone(),
        actor: args.modeldef_actor.clone(),
        height: args.modeldef_height,
    };
    text_files.check(format, args.player, args.force)?;
    for line in convert_file(&args.input, output, format, &job)? {
        eprintln!("{line}");
    }
    for line in text_files.write(output, args.force, args.sync)? {
        eprintln!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The palette `--palette` names: 768 bytes of RGB (Quake's
/// `gfx/palette.lmp`), else an 8-bit PCX's.
fn read_palette(path: &std::path::Path) -> Result<Palette> {
    let bytes = read_file(path)?;
    let palette = if bytes.len() == 768 {
        Palette::from_raw_768(&bytes)
    } else {
        Palette::from_pcx(&bytes)
    };
    palette.with_context(|| format!("--palette {}", path.display()))
}

/// `--mdl-flags`: names joined by commas, or a number.
fn mdl_flags(text: &str) -> Result<i32, String> {
    use retromodel::mdl::flags;
    if let Ok(n) = text.trim().parse::<i32>() {
        return Ok(n);
    }
    let mut value = 0;
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        value |= match name.to_ascii_lowercase().as_str() {
            "rocket" => flags::ROCKET,
            "grenade" => flags::GRENADE,
            "gib" => flags::GIB,
            "rotate" => flags::ROTATE,
            "tracer" => flags::TRACER,
            "zomgib" => flags::ZOMGIB,
            "tracer2" => flags::TRACER2,
            "tracer3" => flags::TRACER3,
            _ => {
                return Err(format!(
                    "{name:?}: unknown (known: rocket, grenade, gib, rotate, tracer, zomgib, tracer2, tracer3, or a number)"
                ))
            }
        };
    }
    Ok(value)
}

/// `--eye X,Y,Z`: three finite numbers.
fn eye(text: &str) -> Result<[f32; 3], String> {
    let bad = || format!("{text:?}: expected X,Y,Z, three numbers such as 0,0,22");
    let parts: Vec<f32> = text
        .split(',')
        .map(|s| s.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    <[f32; 3]>::try_from(parts).map_err(|_| bad())
}

/// The engine `--engine` names, or an error listing them.
pub fn engine(name: &str) -> Result<Engine> {
    Engine::from_name(name).with_context(|| {
        let known: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
        format!(
            "--engine {name}: unknown (known: {}; for validate also milkshape and quake2-rerelease)",
            known.join(", ")
        )
    })
}

/// `--skin-size WxH`: two sizes in pixels, 1 to 65536 (x or X between).
fn skin_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?}: expected WIDTHxHEIGHT in pixels, such as 256x256");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let size = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=65536).contains(n))
    };
    Ok((size(w).ok_or_else(bad)?, size(h).ok_or_else(bad)?))
}
