//! `retromodel info`: a summary of a model, as text or one JSON object.

mod md2;
mod ms3d;

use crate::load::{load, Model};
use anyhow::Result;
use retromodel::ms3d::Clip;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model file.
    file: PathBuf,
    /// Print exactly one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// A named range of an MS3D timeline, `name:first-last` in frames
    /// (repeatable); shown with its duration and checked against the
    /// timeline.
    #[arg(long = "clip", value_name = "NAME:FIRST-LAST")]
    clips: Vec<Clip>,
}

/// Runs `info`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let (bytes, model) = load(&args.file)?;
    match model {
        Model::Md2(model) => {
            let j = md2::md2_json(&model, &bytes);
            if args.json {
                outln!("{}", serde_json::to_string_pretty(&j)?);
            } else {
                md2::print_md2(&args.file, &j)?;
            }
        }
        Model::Ms3d(model) => {
            let j = ms3d::ms3d_json(&model, &args.clips);
            if args.json {
                outln!("{}", serde_json::to_string_pretty(&j)?);
            } else {
                ms3d::print_ms3d(&args.file, &j)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
