//! `retromodel convert`.

use crate::batch::{self, Batch};
use crate::export::{export, Options, Target};
use crate::load::{load, Model};
use crate::output::write_atomic;
use anyhow::{bail, Result};
use retromodel::md2::Layout;
use retromodel::ms3d::Clip;
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
    to: Option<Target>,
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
    fn export_options(&self, strict: bool) -> Options {
        Options {
            quantize: self.quantize,
            compress: self.compress,
            texture_dirs: self.texture_dirs.clone(),
            skin: self.skin.clone(),
            frame: self.frame,
            anim: self.anim.clone(),
            time: self.time,
            clips: self.clips.clone(),
            sync: self.sync,
            strict,
        }
    }
}

fn extension(path: &std::path::Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Fails when `--clip` is given for an output that is not glTF.
fn check_clips_apply(args: &Args, target: Option<Target>) -> Result<()> {
    if !args.clips.is_empty() && !matches!(target, Some(Target::Glb | Target::Gltf)) {
        bail!("--clip applies to glTF output (.glb, .gltf) of MS3D models");
    }
    Ok(())
}

/// Runs `convert`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if args.input.is_dir() {
        let (Some(out_dir), Some(target)) = (&args.out_dir, args.to) else {
            bail!(
                "{}: is a folder: convert it with --out-dir OUT --to glb|gltf|obj",
                args.input.display()
            );
        };
        check_clips_apply(args, Some(target))?;
        return batch::run(&Batch {
            input: &args.input,
            out_dir,
            target,
            force: args.force,
            quiet: args.quiet,
            jobs: args.jobs.map(usize::from),
            options: args.export_options(false),
        });
    }
    let Some(output) = &args.output else {
        bail!(
            "{}: --out-dir needs a folder to convert",
            args.input.display()
        );
    };
    let out_ext = extension(output);
    check_clips_apply(args, Target::from_extension(&out_ext))?;
    if let Some(target) = Target::from_extension(&out_ext) {
        if args.to.is_some_and(|t| t != target) {
            bail!("{}: the extension does not match --to", output.display());
        }
        for line in export(
            &args.input,
            output,
            target,
            args.force,
            &args.export_options(true),
        )? {
            eprintln!("{line}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if out_ext != "md2" && out_ext != "ms3d" {
        bail!(
            "{}: cannot write .{out_ext} files (supported: .glb, .gltf, .obj, .md2, .ms3d)",
            output.display()
        );
    }
    if let Some(t) = args.to {
        bail!(
            "{}: --to {} does not match the extension",
            output.display(),
            t.extension()
        );
    }
    let args_output = output;
    if !args.force && args_output.symlink_metadata().is_ok() {
        bail!(
            "{}: already exists (use --force to replace it)",
            args_output.display()
        );
    }
    let layout = match args.layout {
        LayoutArg::Standard => Layout::Standard,
        LayoutArg::Original => Layout::Original,
    };
    let out = match load(&args.input)?.1 {
        Model::Md2(_) if out_ext != "md2" => bail!(
            "{}: cannot convert MD2 to .{out_ext} yet",
            args_output.display()
        ),
        Model::Ms3d(_) if out_ext != "ms3d" => bail!(
            "{}: cannot convert MS3D to .{out_ext} yet",
            args_output.display()
        ),
        Model::Ms3d(model) => model.to_bytes()?,
        Model::Md2(mut model) => {
            if args.repair {
                let r = model.repair();
                if !r.is_empty() {
                    eprintln!(
                        "{}: repaired: dropped {} triangles, fixed {} normals{}",
                        args.input.display(),
                        r.dropped_triangles,
                        r.fixed_normals,
                        if r.rebuilt_gl_commands {
                            ", rebuilt GL commands"
                        } else {
                            ""
                        }
                    );
                }
            }
            model.to_bytes_with(layout)?
        }
    };
    write_atomic(args_output, &out, args.force, args.sync)?;
    Ok(ExitCode::SUCCESS)
}
