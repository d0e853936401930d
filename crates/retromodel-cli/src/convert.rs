//! `retromodel convert`.

use crate::batch::{self, Batch};
use crate::pipeline::{convert_file, Job};
use anyhow::{bail, Result};
use retromodel::convert::{ConvertOptions, OutputFormat};
use retromodel::md2::Layout;
use retromodel::ms3d::Clip;
use retromodel::scene::UserSkin;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
    /// The model to read, or a folder to convert every `*.md2` and `*.ms3d`
    /// below it (with `--out-dir` and `--to`).
    input: PathBuf,
    /// The file to write; its extension chooses the format (`.md2`, `.ms3d`,
    /// `.glb`, `.gltf` (+ `.bin`), `.obj` (+ `.mtl` and PNG textures)).
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
    /// no file outside the model's folder and these is ever read.
    #[arg(long = "texture-dir", value_name = "DIR")]
    texture_dirs: Vec<PathBuf>,
    /// An image (PCX, PNG, JPEG, TGA, BMP) to use as the first skin or
    /// texture instead of the one the model names.
    #[arg(long, value_name = "FILE")]
    skin: Option<PathBuf>,
    /// OBJ of an MD2: the frame to export (within `--anim` when given;
    /// default 0).
    #[arg(long, value_name = "N")]
    frame: Option<usize>,
    /// OBJ of an MD2: the animation `--frame` counts within.
    #[arg(long, value_name = "NAME")]
    anim: Option<String>,
    /// OBJ of an MS3D: the time in seconds to pose the skeleton at
    /// (default: the bind pose).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f32>,
    /// glTF of an MS3D: a named range of its timeline, `name:first-last` in
    /// MilkShape's frames (frame F is F / fps seconds), exported as its own
    /// animation instead of the whole timeline (repeatable). In batch mode
    /// applied to every MS3D (MD2 files keep their frame-name animations).
    #[arg(long = "clip", value_name = "NAME:FIRST-LAST")]
    clips: Vec<Clip>,
    /// Batch mode: worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Batch mode: no progress bar; warnings and the summary still go to
    /// stderr.
    #[arg(long, short)]
    quiet: bool,
}

impl Args {
    /// The library's options and the command line's own, mapped from the
    /// flags once. `strict`: options that do not apply are errors (one
    /// model) rather than ignored (batch mode).
    fn job(&self, strict: bool) -> Job {
        let skin = self.skin.as_ref().map(|path| UserSkin {
            path: path.display().to_string(),
            name: path
                .file_name()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            data: std::fs::read(path)
                .map(Arc::from)
                .map_err(|e| e.to_string()),
        });
        Job {
            options: ConvertOptions {
                quantize: self.quantize,
                compress: self.compress,
                clip: self.clips.clone(),
                frame: self.frame,
                anim: self.anim.clone(),
                time: self.time,
                layout: match self.layout {
                    LayoutArg::Standard => Layout::Standard,
                    LayoutArg::Original => Layout::Original,
                },
                repair: self.repair,
                skin,
                strict,
            },
            texture_dirs: self.texture_dirs.clone(),
            force: self.force,
            sync: self.sync,
        }
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
    /// Quake II MD2 (from MD2).
    Md2,
    /// MilkShape 3D MS3D (from MS3D).
    Ms3d,
}

impl ToArg {
    fn format(self) -> OutputFormat {
        match self {
            ToArg::Glb => OutputFormat::Glb,
            ToArg::Gltf => OutputFormat::Gltf,
            ToArg::Obj => OutputFormat::Obj,
            ToArg::Md2 => OutputFormat::Md2,
            ToArg::Ms3d => OutputFormat::Ms3d,
        }
    }
}

/// Runs `convert`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if args.input.is_dir() {
        let (Some(out_dir), Some(to)) = (&args.out_dir, args.to) else {
            bail!(
                "{}: is a folder: convert it with --out-dir OUT --to glb|gltf|obj",
                args.input.display()
            );
        };
        let job = args.job(false);
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
    let ext = output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let Some(format) = OutputFormat::from_extension(&ext) else {
        if !args.clips.is_empty() {
            bail!("--clip applies to glTF output (.glb, .gltf) of MS3D models");
        }
        bail!(
            "{}: cannot write .{ext} files (supported: .glb, .gltf, .obj, .md2, .ms3d)",
            output.display()
        );
    };
    let job = args.job(true);
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
    for line in convert_file(&args.input, output, format, &job)? {
        eprintln!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}
