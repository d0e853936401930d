//! The `retromodel` command line as a library: [`run_from`] parses the
//! arguments and runs a command, as the `retromodel` binary does and as the
//! Python package's `retromodel` command does (through `retromodel._cli`).
//!
//! A thin layer over the `retromodel` library: argument parsing, file
//! access and printing live here, everything else in the library.

/// `println!` that returns an error instead of panicking when stdout is
/// closed (e.g. piped into `head`); use inside functions returning
/// `anyhow::Result`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?;
    }};
}

/// `print!` that returns an error instead of panicking when stdout is
/// closed.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?;
    }};
}

mod advice;
mod batch;
mod convert;
mod info;
mod iqm_lod;
mod load;
mod md3_files;
mod md3_lod;
mod md3_player_check;
mod md3_player_info;
mod output;
mod pipeline;
mod render;
mod render_args;
mod render_shared;
mod render_sheet;
mod textfiles;
mod validate;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;

/// Inspect, validate, convert and render classic animated 3D models:
/// Quake II MD2, Quake MDL, Quake III MD3, MilkShape 3D MS3D (and ASCII),
/// the rereleases' MD5, Inter-Quake Models (IQM), glTF 2.0 and OBJ.
#[derive(Debug, Parser)]
#[command(
    name = "retromodel",
    bin_name = "retromodel",
    version,
    about,
    max_term_width = 100
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a summary of a model: header, counts, skins, animations, warnings.
    Info(info::Args),
    /// Check models and report every problem with its path and byte offset.
    ///
    /// Exit status: 0 when every file is valid, 1 when any has a problem,
    /// 2 on a usage error.
    Validate(validate::Args),
    /// Convert a model to any format retromodel writes (MD2, MDL, MD3, MS3D,
    /// MilkShape ASCII, MD5, IQM, glTF 2.0, OBJ), or every model below a folder
    /// (`--out-dir`, `--to`).
    ///
    /// The output format follows the output file's extension. Textures are
    /// looked up in the model's folder and the `--texture-dir` folders only;
    /// one that is missing, broken or refused is a warning and its material
    /// is left untextured. Batch mode exits 1 when any file failed.
    Convert(Box<convert::Args>),
    /// Draw a model: a still (.png), its animations (.gif, .apng), or a
    /// contact sheet of a folder of models or of one model's frames
    /// (`--sheet OUT.png`).
    ///
    /// Software rendering, the same bytes on every run: a perspective
    /// camera (30° vertical field of view) framed on everything the
    /// animations drawn reach (a still: its animation, without --anim the
    /// one its --frame is in or the first; a folder sheet: each model's rest
    /// pose), textures as the model names them (its folder and
    /// `--texture-dir` only), a light fixed to the camera. A folder sheet
    /// exits 1 when any model failed (it is shown as a placeholder).
    Render(Box<render::Args>),
}

/// Runs the command line on `args` (the program's name first, as
/// `std::env::args_os` gives it; that name is not shown: usage and help say
/// `retromodel` whatever the binary is called) and returns its exit status:
/// 0 on success and for `--help` and `--version`, 1 when a command failed
/// or found a problem, 2 on a usage error. Everything is printed to the
/// process's standard output and error, which are flushed before it
/// returns; nothing exits the process.
pub fn run_from<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let status = match Cli::try_parse_from(args) {
        Ok(cli) => run(cli),
        Err(err) => {
            // What `Cli::parse()` does, without leaving the process: help
            // and version to stdout (status 0), usage errors to stderr (2).
            // A failed print (stdout closed) changes nothing, as there.
            let _ = err.print();
            u8::try_from(err.exit_code()).unwrap_or(2)
        }
    };
    // Rust's stdout is line-buffered: a caller that goes on (the Python
    // module) must not keep a partial line in it.
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    status
}

/// Makes a panic end in one clear line, `retromodel: internal error: ...`,
/// not a backtrace. Process-wide: for a process that is the command.
pub fn set_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("retromodel: internal error: {info}");
    }));
}

fn run(cli: Cli) -> u8 {
    let result = match cli.command {
        Command::Info(args) => info::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Render(args) => render::run(&args),
    };
    match result {
        Ok(code) => status_of(code),
        Err(err) if is_broken_pipe(&err) => 0,
        Err(err) => {
            eprintln!("retromodel: error: {}", report(&err));
            1
        }
    }
}

/// The number an `ExitCode` the commands return stands for (std has no
/// stable way to read it back).
fn status_of(code: ExitCode) -> u8 {
    (0..=u8::MAX)
        .find(|&n| ExitCode::from(n) == code)
        .unwrap_or(1)
}

/// An error and its causes on one line, `a: b: c`, leaving out a cause
/// whose text its wrapper already shows (the library's errors say what
/// their sources say, and keep them as sources too).
fn report(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// Whether `err` is stdout being closed by the reader, which is no error of
/// ours.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
