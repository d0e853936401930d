//! `retromodel validate`.

use crate::load::{parse, read_file};
use anyhow::{Context, Result};
use retromodel::Severity;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Treat every warning as a failure.
    #[arg(long)]
    strict: bool,
    /// Print only failures, not the files that pass.
    #[arg(long, short)]
    quiet: bool,
    /// Check an MD2 as this engine's loader reads it instead of with id's
    /// limits: "will it load in NAME?" (quake2, yquake2, q2pro, kmquake2,
    /// ufoai; the Quake engines winquake, glquake, quakespasm,
    /// quakespasm-spiked, ironwail, vkquake, fte, quake-rerelease and
    /// hexen2 say whether they load the file's format; quake-rerelease,
    /// ironwail and vkquake check an .md5mesh as those ports load the
    /// Quake rerelease's replacement); `ioquake3`, `etlegacy`, `rtcw`,
    /// `rtcw-mp`, `ironwail`, `vkquake` and `fte` check an .md3 against
    /// their MD3 loaders; `gzdoom` checks an .md2, .md3 or .obj as
    /// GZDoom's loaders read it (what it refuses is an error, what it
    /// reads unchecked a warning); `ioquake3`, `daemon`, `fte`,
    /// `quakespasm-spiked`, `darkplaces`, `gzdoom` and `raylib` check an
    /// .iqm against their IQM loaders; damage in a
    /// part NAME never reads is a warning;
    /// `milkshape`: check an MS3D against MilkShape 3D 1.8's limits too;
    /// `quake2-rerelease`: check an .md5mesh (with the tris.md2 above its
    /// md5/ folder) or an .md2 (with its md5/ replacement) as the Quake II
    /// rerelease loads the pair.
    #[arg(long, value_name = "NAME")]
    engine: Option<String>,
    /// An md5anim to check with each .md5mesh, beyond the one named like
    /// it (repeatable; its .md5scale beside it is read too).
    #[arg(long = "md5anim", value_name = "FILE")]
    md5anims: Vec<PathBuf>,
}

/// Runs `validate`: one line per problem on stdout, `FILE: ok` for a file
/// without problems; exit 1 when any file fails.
pub fn run(args: &Args) -> Result<ExitCode> {
    let milkshape = args
        .engine
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("milkshape"));
    let rerelease = args.engine.as_deref().is_some_and(is_rerelease);
    let engine = args
        .engine
        .as_deref()
        .filter(|_| !milkshape && !rerelease)
        .map(crate::convert::engine)
        .transpose()?;
    let mut failed = 0usize;
    for path in &args.files {
        // A Quake III player's folder: its files and what they must agree on.
        if path.is_dir() && crate::md3_files::is_player_folder(path) && !milkshape && !rerelease {
            let problems = crate::md3_player_check::player_problems(path, engine);
            if report(path, &problems, args)? {
                failed += 1;
            }
            continue;
        }
        let bytes = read_file(path);
        // An MD2 checked against an engine is judged on its bytes, as that
        // engine's loader reads them: damage in a part it never reads (GL
        // commands past the end of the file, for Q2PRO) is a warning.
        if let (Some(engine), Ok(b)) = (engine, &bytes) {
            if b.starts_with(b"IDP2") {
                match retromodel::md2::Md2::validate_bytes_for(b, engine) {
                    Ok(problems) => {
                        if report(path, &problems, args)? {
                            failed += 1;
                        }
                    }
                    Err(err) => {
                        outln!("{}: error: {err}", path.display());
                        failed += 1;
                    }
                }
                continue;
            }
        }
        // An OBJ checked against GZDoom is judged on its text, as GZDoom's
        // loader tokenises it.
        if let (Some(retromodel::Engine::Gzdoom), Ok(b)) = (engine, &bytes) {
            if let Some(ext) = path.extension().filter(|e| e.eq_ignore_ascii_case("obj")) {
                let mut problems = retromodel::obj::gzdoom_problems(b);
                if ext != "obj" {
                    problems.push(retromodel::Problem {
                        severity: Severity::Warning,
                        path: "file name".to_string(),
                        message: "GZDoom takes a model for OBJ only when its name ends in .obj, in lower case: name it so in MODELDEF".to_string(),
                        offset: None,
                    });
                }
                if report(path, &problems, args)? {
                    failed += 1;
                }
                continue;
            }
        }
        let model = bytes
            .and_then(|b| parse(path, &b).context("cannot read the model"))
            .and_then(|mut m| {
                crate::load::add_md5_animations(&mut m, &args.md5anims)?;
                Ok(m)
            });
        let problems = match model {
            Ok(model) if milkshape => model.validate_for_milkshape(),
            Ok(model) if rerelease => match companion(path, &model) {
                Ok(other) => {
                    if other.is_none() && model.format() == retromodel::Format::Md5 {
                        eprintln!(
                            "{}: note: no MD2 found above an md5/ folder: the frame count is not compared",
                            path.display()
                        );
                    }
                    model.validate_for_rerelease(other.as_ref())
                }
                Err(err) => {
                    outln!("{}: error: {:#}", path.display(), err);
                    failed += 1;
                    continue;
                }
            },
            Ok(model) if engine == Some(retromodel::Engine::QuakeRerelease) => {
                match quake_rerelease(path, &model) {
                    Ok(problems) => problems,
                    Err(err) => {
                        outln!("{}: error: {:#}", path.display(), err);
                        failed += 1;
                        continue;
                    }
                }
            }
            Ok(model) => {
                let mut problems = match engine {
                    Some(engine) => model.validate_for(engine),
                    None => model.validate(),
                };
                // An MD3's levels of detail beside it, as ioquake3 loads them.
                if let (retromodel::Model::Md3(m), false) =
                    (&model, engine == Some(retromodel::Engine::Gzdoom))
                {
                    problems.extend(crate::md3_lod::lod_problems(path, m, engine));
                }
                // An IQM's levels of detail beside it, as Xonotic draws
                // them on DarkPlaces.
                if let (retromodel::Model::Iqm(m), None | Some(retromodel::Engine::Darkplaces)) =
                    (&model, engine)
                {
                    problems.extend(crate::iqm_lod::lod_problems(path, m, engine));
                }
                problems
            }
            Err(err) => {
                outln!("{}: error: {:#}", path.display(), err.root_cause());
                failed += 1;
                continue;
            }
        };
        if report(path, &problems, args)? {
            failed += 1;
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} files failed validation", args.files.len());
        Ok(ExitCode::FAILURE)
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

/// Prints a file's problems, or `FILE: ok` (with its count of warnings);
/// whether the file fails (an error, or any problem with `--strict`).
fn report(path: &std::path::Path, problems: &[retromodel::Problem], args: &Args) -> Result<bool> {
    let fails = problems
        .iter()
        .any(|p| p.severity == Severity::Error || args.strict);
    for p in problems {
        outln!("{}: {p}", path.display());
    }
    if !fails && !args.quiet {
        let note = if problems.is_empty() {
            String::new()
        } else {
            let n = problems.len();
            format!(" ({n} warning{})", if n == 1 { "" } else { "s" })
        };
        outln!("{}: ok{note}", path.display());
    }
    Ok(fails)
}

/// Whether `--engine NAME` names the Quake II rerelease.
fn is_rerelease(name: &str) -> bool {
    ["quake2-rerelease", "q2-rerelease", "rerelease"]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
}

/// The other half of a rerelease pair, read when its file exists: for
/// `x/md5/tris.md5mesh` the MD2 `x/tris.md2`, for `x/tris.md2` the MD5
/// `x/md5/tris.md5mesh` (with its md5anim), as Q2PRO's `MOD_LoadMD5`
/// looks for it.
fn companion(
    path: &std::path::Path,
    model: &retromodel::Model,
) -> Result<Option<retromodel::Model>> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else {
        return Ok(None);
    };
    let other = match model.format() {
        retromodel::Format::Md5 if dir.file_name().is_some_and(|d| d == "md5") => {
            dir.parent().map(|up| up.join(stem).with_extension("md2"))
        }
        retromodel::Format::Md2 => Some(dir.join("md5").join(stem).with_extension("md5mesh")),
        _ => None,
    };
    match other {
        Some(p) if p.is_file() => {
            let bytes = read_file(&p)?;
            let m = parse(&p, &bytes).with_context(|| p.display().to_string())?;
            Ok(Some(m))
        }
        _ => Ok(None),
    }
}

/// `--engine quake-rerelease`: an MDL with the MD5 the ports draw in its
/// place when there is one (`progs/NAME.md5mesh` and `NAME.md5anim` beside
/// `progs/NAME.mdl`), or an .md5mesh with the MDL it replaces beside it;
/// each checked as the engines load the pair. A file without its other
/// half is checked alone, with a note on stderr.
fn quake_rerelease(
    path: &std::path::Path,
    model: &retromodel::Model,
) -> Result<Vec<retromodel::Problem>> {
    use retromodel::mdl::rerelease::{check_pair, md5_paths, mdl_path_for};
    let engine = retromodel::Engine::QuakeRerelease;
    let text = path.to_string_lossy();
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match model {
        retromodel::Model::Mdl(mdl) => {
            let paths = md5_paths(&text);
            let mesh = std::path::Path::new(&paths.mesh);
            if !mesh.is_file() {
                return Ok(model.validate_for(engine));
            }
            let mut md5 =
                parse(mesh, &read_file(mesh)?).with_context(|| mesh.display().to_string())?;
            let anim = std::path::PathBuf::from(&paths.anim);
            if anim.is_file() {
                crate::load::add_md5_animations(&mut md5, &[anim])?;
            }
            let retromodel::Model::Md5(md5) = md5 else {
                anyhow::bail!("{} is not an MD5 mesh", mesh.display());
            };
            let mut problems = model.validate_for(engine);
            problems.extend(
                mdl.validate_for_rerelease(Some(&md5), Some(&stem))
                    .into_iter()
                    .filter(|p| p.path.starts_with("md5.")),
            );
            Ok(problems)
        }
        retromodel::Model::Md5(md5) => {
            let other = std::path::PathBuf::from(mdl_path_for(&text));
            if other.is_file() {
                if let retromodel::Model::Mdl(mdl) = parse(&other, &read_file(&other)?)
                    .with_context(|| other.display().to_string())?
                {
                    // The MD5's own problems, then the pair's (which include
                    // what the engines require of the MD5 alone).
                    let mut problems = model.validate();
                    problems.extend(check_pair(&mdl, md5, Some(&stem)));
                    return Ok(problems);
                }
            } else {
                eprintln!(
                    "{}: note: no {} beside it: the pair is not compared",
                    path.display(),
                    other.display()
                );
            }
            Ok(model.validate_for(engine))
        }
        _ => Ok(model.validate_for(engine)),
    }
}
