//! `retromodel convert DIR --out-dir OUT --to FORMAT`: every model below a
//! folder, in parallel.

use crate::output::exists;
use crate::pipeline::{convert_file, Job};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use retromodel::convert::OutputFormat;
use retromodel::Format;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What a batch run does.
pub struct Batch<'a> {
    /// The folder searched (recursively).
    pub input: &'a Path,
    /// Where outputs go, in the same layout.
    pub out_dir: &'a Path,
    /// The format.
    pub format: OutputFormat,
    /// No progress bar.
    pub quiet: bool,
    /// Threads (`None`: one per core).
    pub jobs: Option<usize>,
    /// How each model is converted and written.
    pub job: Job,
}

/// How one file ended.
enum Outcome {
    Converted(Vec<String>),
    Skipped,
    Failed(String),
}

/// Every model file below `dir` (by the extensions of the formats the
/// library reads, any case), sorted; symbolic links to folders are not
/// followed.
fn find_models(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(format!("{}: cannot list: {e}", dir.display()));
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                errors.push(format!("{}: cannot list: {e}", dir.display()));
                continue;
            }
        };
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            find_models(&path, out, errors);
        } else {
            let ext = path.extension().map(|e| e.to_string_lossy());
            match ext.and_then(|e| Format::from_extension(&e)) {
                // `.txt` files are models only when they say so.
                Some(f) if f.extension_is_ambiguous() && !looks_like(&path, f) => {}
                Some(_) => out.push(path),
                None => {}
            }
        }
    }
}

/// Whether the file's first bytes are `format`'s.
fn looks_like(path: &Path, format: Format) -> bool {
    use std::io::Read;
    let mut head = Vec::with_capacity(4096);
    let read = std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head));
    read.is_ok() && Format::detect(&head).is_ok_and(|f| f == format)
}

/// Runs the batch; exit 1 when any file failed.
pub fn run(batch: &Batch) -> Result<ExitCode> {
    let mut models = Vec::new();
    let mut list_errors = Vec::new();
    find_models(batch.input, &mut models, &mut list_errors);
    models.sort();
    // Never write into the input tree's outputs by accident: the output
    // folder may lie inside the input folder, but its models are skipped.
    let out_real = std::fs::canonicalize(batch.out_dir).ok();
    if let Some(out_real) = &out_real {
        models.retain(|m| {
            std::fs::canonicalize(m)
                .map(|r| !r.starts_with(out_real))
                .unwrap_or(true)
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(batch.jobs.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let bar = if !batch.quiet && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(models.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let outcomes: Vec<(PathBuf, Outcome)> = pool.install(|| {
        models
            .par_iter()
            .map(|model| {
                let outcome = convert_one(batch, model);
                if let Outcome::Converted(w) = &outcome {
                    for line in w {
                        bar.suspend(|| eprintln!("{line}"));
                    }
                }
                bar.inc(1);
                (model.clone(), outcome)
            })
            .collect()
    });
    bar.finish_and_clear();

    let (mut converted, mut skipped, mut warnings) = (0usize, 0usize, 0usize);
    let mut failures: Vec<String> = list_errors;
    for (model, outcome) in &outcomes {
        match outcome {
            Outcome::Converted(w) => {
                converted += 1;
                warnings += w.len();
            }
            Outcome::Skipped => skipped += 1,
            Outcome::Failed(why) => {
                let name = model.display().to_string();
                failures.push(if why.contains(&name) {
                    why.clone()
                } else {
                    format!("{name}: {why}")
                });
            }
        }
    }
    for f in &failures {
        eprintln!("retromodel: failed: {f}");
    }
    eprintln!(
        "converted {converted}, failed {}, warnings {warnings}, skipped existing {skipped}",
        failures.len()
    );
    Ok(if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn convert_one(batch: &Batch, model: &Path) -> Outcome {
    let rel = model.strip_prefix(batch.input).unwrap_or(model);
    let out = batch
        .out_dir
        .join(rel)
        .with_extension(batch.format.extension());
    if !batch.job.force && exists(&out) {
        return Outcome::Skipped;
    }
    let result = (|| {
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("{}: cannot create", parent.display()))?;
        }
        convert_file(model, &out, batch.format, &batch.job)
    })();
    match result {
        Ok(w) => Outcome::Converted(w),
        Err(e) => Outcome::Failed(format!("{e:#}")),
    }
}
