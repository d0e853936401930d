//! `retromodel info`: a summary of a model, as text or one JSON object.

use crate::load::load;
use anyhow::Result;
use retromodel::ms3d::Clip;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model file (or a Quake III player's folder, models/players/NAME/).
    file: PathBuf,
    /// Print exactly one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// A named range of an MS3D timeline, `name:first-last` in frames
    /// (repeatable); shown with its duration and checked against the
    /// timeline.
    #[arg(long = "clip", value_name = "NAME:FIRST-LAST")]
    clips: Vec<Clip>,
    /// An md5anim to play on an .md5mesh, beyond the one named like it
    /// (repeatable; its .md5scale beside it is read too).
    #[arg(long = "md5anim", value_name = "FILE")]
    md5anims: Vec<PathBuf>,
}

/// Runs `info`.
pub fn run(args: &Args) -> Result<ExitCode> {
    // A Quake III player's folder: its three parts, cfg and skins.
    if args.file.is_dir() && crate::md3_files::is_player_folder(&args.file) {
        let info = crate::md3_player_info::player_info(&args.file)?;
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&info)?);
        } else {
            out!("{}", crate::md3_player_info::player_text(&info));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (bytes, mut model) = load(&args.file)?;
    crate::load::add_md5_animations(&mut model, &args.md5anims)?;
    let info = model.info(&bytes, &args.clips);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&info)?);
    } else {
        out!("{}: {info}", args.file.display());
    }
    Ok(ExitCode::SUCCESS)
}
