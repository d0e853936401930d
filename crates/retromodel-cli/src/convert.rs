//! `retromodel convert`.

use crate::load::{load, Model};
use crate::output::write_atomic;
use anyhow::{bail, Result};
use retromodel::md2::Layout;
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
    /// The model to read.
    input: PathBuf,
    /// The file to write; its extension chooses the format (`.md2`, `.ms3d`).
    output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
    /// Repair what can be repaired first: drop triangles with out-of-range
    /// indices, fix out-of-range normal indices, rebuild faulty GL commands.
    #[arg(long, conflicts_with = "layout")]
    repair: bool,
    /// Section layout of an MD2 output (MS3D files are always rewritten
    /// exactly as read).
    #[arg(long, value_enum, default_value = "standard")]
    layout: LayoutArg,
}

fn extension(path: &std::path::Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Runs `convert`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let out_ext = extension(&args.output);
    if out_ext != "md2" && out_ext != "ms3d" {
        bail!(
            "{}: cannot write .{out_ext} files (supported: .md2, .ms3d)",
            args.output.display()
        );
    }
    if !args.force && args.output.symlink_metadata().is_ok() {
        bail!(
            "{}: already exists (use --force to replace it)",
            args.output.display()
        );
    }
    let layout = match args.layout {
        LayoutArg::Standard => Layout::Standard,
        LayoutArg::Original => Layout::Original,
    };
    let out = match load(&args.input)?.1 {
        Model::Md2(_) if out_ext != "md2" => bail!(
            "{}: cannot convert MD2 to .{out_ext} yet",
            args.output.display()
        ),
        Model::Ms3d(_) if out_ext != "ms3d" => bail!(
            "{}: cannot convert MS3D to .{out_ext} yet",
            args.output.display()
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
    write_atomic(&args.output, &out, args.force)?;
    Ok(ExitCode::SUCCESS)
}
