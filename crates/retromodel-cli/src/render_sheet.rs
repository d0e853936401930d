//! `retromodel render ... --sheet OUT.png`: a contact sheet of every
//! model below a folder (in parallel, never stopping at a bad file), or
//! the film strip of one model's animations.

use crate::batch::{models_below, progress_bar, worker_pool};
use crate::output::{check_free, write_atomic_with};
use crate::render_args::Args;
use crate::render_shared::{animations, describe, frames, load, render_in_order};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use retromodel::render::encode::write_png;
use retromodel::render::sheet::{Sheet, SheetLayout};
use retromodel::render::{Framing, Moment, RenderOptions, Stage};
use std::path::Path;
use std::process::ExitCode;

/// The sheet's background unless `--background`.
const SHEET_BACKGROUND: [u8; 4] = [48, 48, 48, 255];

/// At most this many frames of one animation go on a strip (spread evenly
/// over it; the labels give the frame numbers).
pub const MAX_STRIP_FRAMES: usize = 60;

/// Runs `render --sheet`.
pub fn run(args: &Args, sheet: &Path) -> Result<ExitCode> {
    let ext = sheet
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if ext.as_deref() != Some("png") {
        bail!("{}: a contact sheet is a .png", sheet.display());
    }
    if args.frame.is_some() || args.time.is_some() {
        bail!("--frame and --time choose a still; a sheet shows models or frames");
    }
    check_free(&[sheet.to_path_buf()], args.force)?;
    if args.input.is_dir() {
        folder(args, sheet)
    } else {
        strip(args, sheet)
    }
}

/// How one thumbnail ended.
enum Thumb {
    Drawn {
        pixels: Vec<u8>,
        warnings: Vec<String>,
        empty: bool,
    },
    Failed(String),
}

/// One model's thumbnail: its rest pose from the chosen angle.
fn thumbnail(args: &Args, path: &Path, options: &RenderOptions) -> Thumb {
    let result = (|| -> Result<(Vec<u8>, Vec<String>, bool)> {
        let skin = args.user_skin();
        let loaded = load(
            path,
            &args.texture_dirs,
            skin.as_ref(),
            args.palette.as_deref(),
        )?;
        let mut stage = Stage::framed(&loaded.scene, &Framing::RestPose)
            .with_context(|| path.display().to_string())?;
        let mut warnings = loaded.warnings;
        warnings.extend(
            stage
                .warnings()
                .iter()
                .map(|w| format!("{}: warning: {w}", path.display())),
        );
        let camera = stage.camera(args.angle(), options, args.fov)?;
        let mut pixels = vec![0u8; options.width as usize * options.height as usize * 4];
        stage
            .render(Moment::Rest, &camera, options, &mut pixels)
            .with_context(|| path.display().to_string())?;
        Ok((pixels, warnings, stage.bounds().is_none()))
    })();
    match result {
        Ok((pixels, warnings, empty)) => Thumb::Drawn {
            pixels,
            warnings,
            empty,
        },
        Err(e) => Thumb::Failed(format!("{e:#}")),
    }
}

/// The sheet of every model below the input folder.
fn folder(args: &Args, sheet_path: &Path) -> Result<ExitCode> {
    let (models, list_errors) = models_below(&args.input, None);
    if models.is_empty() && list_errors.is_empty() {
        bail!("{}: no model files below it", args.input.display());
    }
    let size = args.size.unwrap_or((192, 192));
    let background = args.background.unwrap_or(SHEET_BACKGROUND);
    // Thumbnails on a transparent background, composed over the sheet's.
    let options = args.options(size, [0; 4]);
    let layout = SheetLayout::new(models.len() as u32, size.0, size.1, args.columns);
    let mut sheet = Sheet::new(layout, background)?;
    let pool = worker_pool(args.jobs.map(usize::from))?;
    let bar = progress_bar(models.len(), args.quiet);
    let thumbs: Vec<Thumb> = pool.install(|| {
        models
            .par_iter()
            .map(|path| {
                let thumb = thumbnail(args, path, &options);
                if let Thumb::Drawn { warnings, .. } = &thumb {
                    for line in warnings {
                        bar.suspend(|| eprintln!("{line}"));
                    }
                }
                bar.inc(1);
                thumb
            })
            .collect()
    });
    bar.finish_and_clear();
    let (mut rendered, mut warnings) = (0usize, 0usize);
    let mut failures = list_errors;
    let mut cells = serde_json::Map::new();
    for (i, (path, thumb)) in models.iter().zip(&thumbs).enumerate() {
        let label = relative_label(&args.input, path);
        match thumb {
            Thumb::Drawn {
                pixels,
                warnings: w,
                empty,
            } => {
                if *empty {
                    sheet.place_message(i as u32, &label, "nothing to draw", false);
                } else {
                    sheet.place(i as u32, pixels, &label);
                }
                rendered += 1;
                warnings += w.len();
            }
            Thumb::Failed(why) => {
                sheet.place_message(i as u32, &label, "failed", true);
                let name = path.display().to_string();
                failures.push(if why.contains(&name) {
                    why.clone()
                } else {
                    format!("{name}: {why}")
                });
            }
        }
        cells.insert(label, serde_json::json!(i));
    }
    let canvas = sheet.into_canvas();
    let info = serde_json::json!({
        "sheet": { "columns": layout.columns, "thumbnail": [size.0, size.1], "cells": cells },
        "view": { "yaw": args.angle().yaw, "pitch": args.angle().pitch },
    })
    .to_string();
    if args.verbose {
        outln!("{info}");
    }
    write_atomic_with(sheet_path, args.force, false, |w| {
        write_png(
            w,
            canvas.width(),
            canvas.height(),
            canvas.pixels(),
            &[("retromodel", &info)],
        )
        .map_err(std::io::Error::other)
    })?;
    for f in &failures {
        eprintln!("retromodel: failed: {f}");
    }
    eprintln!(
        "rendered {rendered}, failed {}, warnings {warnings}",
        failures.len()
    );
    Ok(if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `path` relative to `root`, with `/` between parts.
fn relative_label(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The film strip of one model: each animation's frames in rows.
fn strip(args: &Args, sheet_path: &Path) -> Result<ExitCode> {
    let skin = args.user_skin();
    let loaded = load(
        &args.input,
        &args.texture_dirs,
        skin.as_ref(),
        args.palette.as_deref(),
    )?;
    for line in &loaded.warnings {
        eprintln!("{line}");
    }
    let scene = &loaded.scene;
    let (chosen, fps) = animations(args, scene)?;
    let stage = Stage::framed(scene, &Framing::Animations(chosen.clone()))
        .with_context(|| args.input.display().to_string())?;
    for w in stage.warnings() {
        eprintln!("{}: warning: {w}", args.input.display());
    }
    let columns = args.columns.unwrap_or(10) as usize;
    // (moment, label, cell index), each animation starting a row.
    let mut cells: Vec<(Moment, String, usize)> = Vec::new();
    let mut row = 0usize;
    let groups: Vec<(String, Vec<Moment>)> = if chosen.is_empty() {
        vec![("rest".to_string(), vec![Moment::Rest])]
    } else {
        chosen
            .iter()
            .map(|&a| Ok((scene.animations[a].name.clone(), frames(scene, &[a], fps)?)))
            .collect::<Result<_>>()?
    };
    for (name, moments) in &groups {
        let n = moments.len();
        let shown: Vec<usize> = if n > MAX_STRIP_FRAMES {
            (0..MAX_STRIP_FRAMES)
                .map(|i| i * (n - 1) / (MAX_STRIP_FRAMES - 1))
                .collect()
        } else {
            (0..n).collect()
        };
        for (j, &k) in shown.iter().enumerate() {
            let label = if n > 1 {
                format!("{name} {k}")
            } else {
                name.clone()
            };
            cells.push((moments[k], label, row * columns + j));
        }
        row += shown.len().div_ceil(columns).max(1);
    }
    let size = args.size.unwrap_or((128, 128));
    let background = args.background.unwrap_or(SHEET_BACKGROUND);
    let options = args.options(size, [0; 4]);
    let layout = SheetLayout::new((row * columns) as u32, size.0, size.1, Some(columns as u32));
    let mut sheet = Sheet::new(layout, background)?;
    let camera = stage.camera(args.angle(), &options, args.fov)?;
    let moments: Vec<Moment> = cells.iter().map(|c| c.0).collect();
    let mut next = 0;
    render_in_order(
        &stage,
        &moments,
        &camera,
        &options,
        args.jobs.map(usize::from),
        |p| {
            let (_, label, index) = &cells[next];
            sheet.place(*index as u32, p, label);
            next += 1;
            Ok(())
        },
    )?;
    let canvas = sheet.into_canvas();
    let info = describe(
        &crate::load::file_name(&args.input),
        &camera,
        &options,
        &serde_json::json!({ "strip": { "fps": fps, "columns": columns, "cells": cells.len() } }),
    )
    .to_string();
    if args.verbose {
        outln!("{info}");
    }
    write_atomic_with(sheet_path, args.force, false, |w| {
        write_png(
            w,
            canvas.width(),
            canvas.height(),
            canvas.pixels(),
            &[("retromodel", &info)],
        )
        .map_err(std::io::Error::other)
    })?;
    Ok(ExitCode::SUCCESS)
}
