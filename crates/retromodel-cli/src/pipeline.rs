//! One model file to its output files: read the input, call the library's
//! conversion with a texture source confined to the model's folder and the
//! `--texture-dir` roots, write what it made, and format its warnings.

use crate::load::{file_name, read_file};
use crate::output::{check_free, write_files};
use anyhow::{Context, Result};
use retromodel::convert::{ConvertOptions, Converter, OutputFormat, Warning};
use retromodel::md2::compile::CompileReport;
use retromodel::ms3d::compile::Ms3dCompileReport;
use retromodel::scene::TextureWarning;
use retromodel::Error;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What the command line adds to the library's options: where textures
/// may be read from, and how outputs are written.
#[derive(Debug, Clone, Default)]
pub struct Job {
    /// The library's options.
    pub options: ConvertOptions,
    /// Texture search roots (after the model's folder).
    pub texture_dirs: Vec<PathBuf>,
    /// Replace existing outputs.
    pub force: bool,
    /// Flush each output to disk before renaming it into place.
    pub sync: bool,
    /// Print the MD2 compile report as JSON on stdout.
    pub json: bool,
    /// The materials and bones files of a split MilkShape ASCII model.
    pub ascii_parts: (Option<Vec<u8>>, Option<Vec<u8>>),
    /// More md5anims for an .md5mesh input (`--md5anim`).
    pub md5_animations: Vec<retromodel::md5::AnimationFile>,
    /// IQM animation files for an .iqm input (`--anim-file`): names and
    /// bytes.
    pub iqm_animations: Vec<(String, Vec<u8>)>,
    /// An MD3 input's `.skin` set (`--skin NAME`).
    pub md3_skin_set: Option<String>,
    /// A weapon for a player to hold (`--weapon FILE.md3`).
    pub weapon: Option<PathBuf>,
}

/// One warning line, as the command line prints it.
pub(crate) fn warning_line(input: &Path, w: &Warning) -> String {
    let hint = match w {
        Warning::Texture(TextureWarning::NoSkin { .. }) => " (give one with --skin FILE)".into(),
        _ => w
            .advice()
            .map_or_else(String::new, |a| format!("; {}", crate::advice::words(&a))),
    };
    format!("{}: warning: {w}{hint}", input.display())
}

/// The MD2 compile report, one line per animation.
fn report_lines(out: &Path, r: &CompileReport) -> Vec<String> {
    let frames: usize = r.animations.iter().map(|a| a.frames).sum();
    let mut lines = vec![format!(
        "{}: {} frames, {} vertices (from {}), {} triangles, {} texcoords; largest error {:.4} units ({:.2} of a grid step){}",
        out.display(),
        frames,
        r.vertices,
        r.source_vertices,
        r.triangles,
        r.texcoords,
        r.max_error(),
        r.max_step_fraction(),
        if r.reused_md2_source { "; the source MD2's grids and vertices reused" } else { "" }
    )];
    for a in &r.animations {
        lines.push(format!(
            "  {:<16} {:>4} frames from {:<16} largest error {:.4} (rms {:.4}, {:.2} step)",
            a.name, a.frames, a.source, a.max_error, a.rms_error, a.max_step_fraction
        ));
    }
    lines
}

/// The MS3D compile report, one line per animation.
fn ms3d_report_lines(out: &Path, r: &Ms3dCompileReport) -> Vec<String> {
    let mut lines = vec![format!(
        "{}: {} vertices (from {}), {} triangles, {} groups, {} materials, {} joints, {} keys (source {}); largest error {:.2e} of the extent; weights rounded by up to {:.2} points",
        out.display(),
        r.vertices,
        r.source_vertices,
        r.triangles,
        r.groups,
        r.materials,
        r.joints,
        r.keys(),
        r.source_keys(),
        r.max_error(),
        r.weight_error,
    )];
    for a in &r.animations {
        let steps = if a.steps > 0 {
            format!(" (away from its {} steps)", a.steps)
        } else {
            String::new()
        };
        lines.push(format!(
            "  {:<16} frames {}-{}: {} keys (source {}), largest error {:.2e} at {} times{steps}",
            a.name,
            a.first_frame,
            a.last_frame,
            a.keys,
            a.source_keys,
            a.max_error,
            a.checked_times
        ));
    }
    lines
}

/// The MD3 compile report: frames, surfaces, the fixed point's error,
/// one line per animation (what its animation.cfg line needs).
fn md3_report_lines(out: &Path, r: &retromodel::md3::compile::CompileReport) -> Vec<String> {
    let mut lines = vec![format!(
        "{}: {} frames, {} surfaces, {} vertices (from {}), {} triangles, {} tags; 1/64-unit fixed point: largest error {:.5} units, rms {:.5}",
        out.display(),
        r.frames,
        r.surfaces.len(),
        r.vertices,
        r.source_vertices,
        r.triangles,
        r.tags,
        r.max_error,
        r.rms_error,
    )];
    for a in &r.animations {
        lines.push(format!(
            "  {:?}: frames {}..{} ({} at {} fps)",
            a.name,
            a.first_frame,
            a.first_frame + a.frames,
            a.frames,
            a.fps
        ));
    }
    lines
}

/// The IQM compile report: meshes, joints, the largest error measured
/// against the source, one line per animation.
fn iqm_report_lines(out: &Path, r: &retromodel::iqm::compile::IqmReport) -> Vec<String> {
    let frames: usize = r.animations.iter().map(|a| a.frames).sum();
    let mut lines = vec![format!(
        "{}: {} meshes, {} vertices, {} joints, {} frames; every frame within {:.6} units of the source (the model is {:.3} units from its origin at most)",
        out.display(),
        r.meshes,
        r.vertices,
        r.joints,
        frames,
        r.largest_error,
        r.extent,
    )];
    let mut first = 0;
    for a in &r.animations {
        lines.push(format!(
            "  {:?}: frames {}..{} ({} at {} fps{})",
            a.name,
            first,
            first + a.frames,
            a.frames,
            a.fps,
            if a.loops { ", loops" } else { "" }
        ));
        first += a.frames;
    }
    lines
}

/// Where a Quake III player's `animation.cfg` line got its frames, in
/// words.
fn line_source(source: &retromodel::md3::compile::LineSource) -> String {
    use retromodel::md3::compile::LineSource;
    match source {
        LineSource::AsItWas => "as read".to_string(),
        LineSource::Named => "the animation of its name".to_string(),
        LineSource::CommonName(n) => format!("animation {n:?}"),
        LineSource::Borrowed { from, last: false } => format!("{from}'s frames"),
        LineSource::Borrowed { from, last: true } => format!("{from}'s last frame"),
        LineSource::RestPose => "the rest pose (no animation for it)".to_string(),
    }
}

/// A Quake III player's compile: each part's report, then each
/// `animation.cfg` line and where its frames came from.
fn md3_player_lines(dir: &Path, r: &retromodel::md3::compile::PlayerReport) -> Vec<String> {
    let mut lines = Vec::new();
    for (part, report) in ["lower", "upper", "head"].iter().zip(&r.parts) {
        let mut part_lines = md3_report_lines(&dir.join(format!("{part}.md3")), report);
        part_lines.truncate(1);
        lines.extend(part_lines);
    }
    lines.push(format!(
        "{}: {} animations",
        dir.join("animation.cfg").display(),
        r.lines.len()
    ));
    for l in &r.lines {
        let a = &l.line;
        lines.push(format!(
            "  {:<14} first {:>3}, {:>3} frames, looping {:>2}, {} fps: {}",
            a.name,
            a.first_frame,
            a.num_frames,
            a.looping_frames,
            a.fps,
            line_source(&l.source)
        ));
    }
    lines
}

/// The MDL compile report: the one grid's error, vertices and seams, one
/// line per animation.
fn mdl_report_lines(out: &Path, r: &retromodel::mdl::compile::CompileReport) -> Vec<String> {
    let mut lines = vec![format!(
        "{}: {} frames, {} vertices ({} positions welded from {}, {} onseam), {} triangles ({} facing front), skin {}x{}; one grid of step {:.4} {:.4} {:.4}: largest error {:.4} units ({:.2} of a step), rms {:.4}",
        out.display(),
        r.simple_frames,
        r.vertices,
        r.welded_vertices,
        r.source_vertices,
        r.onseam_vertices,
        r.triangles,
        r.front_triangles,
        r.skin_size.0,
        r.skin_size.1,
        r.step[0],
        r.step[1],
        r.step[2],
        r.max_error,
        r.max_step_fraction,
        r.rms_error,
    )];
    for a in &r.animations {
        lines.push(format!(
            "  {:<16} {:>4} frames from {}{}",
            a.name,
            a.frames,
            a.source,
            if a.group { " (one frame group)" } else { "" }
        ));
    }
    lines
}

/// Converts `input` to `out` as `format`; returns the lines to print
/// (warnings and notes), in order.
pub fn convert_file(
    input: &Path,
    out: &Path,
    format: OutputFormat,
    job: &Job,
) -> Result<Vec<String>> {
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new(""),
    };
    let main = file_name(out);
    let fixed: Vec<PathBuf> = format
        .fixed_files(&main)
        .iter()
        .map(|n| dir.join(n))
        .collect();
    check_free(&fixed, job.force)?;
    let md3 = crate::md3_files::md3_input(
        input,
        job.md3_skin_set.as_deref(),
        job.weapon.as_deref(),
        &job.texture_dirs,
    )?;
    let is_player = md3.as_ref().is_some_and(|m| m.companions.player.is_some());
    if let (false, Some(weapon)) = (is_player, &job.weapon) {
        anyhow::bail!(
            "{}: --weapon {}: a weapon is held by a whole player (its lower.md3 or folder)",
            input.display(),
            weapon.display()
        );
    }
    if let (None, Some(set)) = (&md3, &job.md3_skin_set) {
        anyhow::bail!(
            "{}: --skin {set}: no such image file (a plain name picks the .skin set of an MD3)",
            input.display()
        );
    }
    let mut lines: Vec<String> = Vec::new();
    let input = match &md3 {
        Some(m) => {
            if !m.note.is_empty() {
                lines.push(m.note.clone());
            }
            m.model.as_path()
        }
        None => input,
    };
    let bytes = read_file(input)?;
    let resolver = crate::load::resolver(input, &job.texture_dirs);
    let mut converter = Converter::new(&job.options)
        .with_textures(&resolver)
        .with_ascii_parts(job.ascii_parts.0.as_deref(), job.ascii_parts.1.as_deref())
        .with_md5_animations(&job.md5_animations)
        .with_iqm_animations(&job.iqm_animations);
    if let Some(m) = &md3 {
        converter = converter.with_md3_companions(&m.companions);
    }
    let conversion = converter
        .convert_owned(bytes, &file_name(input), format, &main)
        .map_err(|e| in_context(e, input, out))?;
    let files = conversion
        .files()
        .with_context(|| format!("{}: cannot export", input.display()))?;
    write_files(dir, &files, job.force, job.sync)?;
    if let Some(r) = conversion.repair_report().filter(|r| !r.is_empty()) {
        lines.push(format!(
            "{}: repaired: dropped {} triangles, fixed {} normals{}",
            input.display(),
            r.dropped_triangles,
            r.fixed_normals,
            if r.rebuilt_gl_commands {
                ", rebuilt GL commands"
            } else {
                ""
            }
        ));
    }
    if let Some(r) = conversion.mdl_repair_report().filter(|r| !r.is_empty()) {
        lines.push(format!(
            "{}: repaired: {}",
            input.display(),
            mdl_repair_words(r)
        ));
    }
    lines.extend(conversion.warnings().iter().map(|w| warning_line(input, w)));
    // What the MD3 lift noticed (tags whose axes are not orthonormal, cfg
    // animations whose frames a part lacks), kept in the scene's extras.
    if md3.is_some() {
        if let Some(list) = conversion
            .scene()
            .and_then(|s| s.extras.get("warnings"))
            .and_then(|w| w.as_array())
        {
            lines.extend(
                list.iter()
                    .filter_map(|w| w.as_str())
                    .map(|w| format!("{}: warning: {w}", input.display())),
            );
        }
    }
    if let Some(report) = conversion.compile_report() {
        if job.json {
            let json = serde_json::to_string_pretty(report)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{json}")?;
        } else {
            lines.extend(report_lines(out, report));
        }
    }
    if let Some(report) = conversion.mdl_compile_report() {
        if job.json {
            let json = serde_json::to_string_pretty(report)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{json}")?;
        } else {
            lines.extend(mdl_report_lines(out, report));
        }
    }
    if let Some(report) = conversion.md3_compile_report() {
        if job.json {
            let json = serde_json::to_string_pretty(report)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{json}")?;
        } else {
            lines.extend(md3_report_lines(out, report));
        }
    }
    if let Some(report) = conversion.iqm_compile_report() {
        if job.json {
            let json = serde_json::to_string_pretty(report)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{json}")?;
        } else {
            lines.extend(iqm_report_lines(out, report));
        }
    }
    if let Some(report) = conversion.md3_player_report() {
        if job.json {
            let json = serde_json::to_string_pretty(report)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{json}")?;
        } else {
            lines.extend(md3_player_lines(dir, report));
        }
    }
    if let Some(report) = conversion.ms3d_compile_report() {
        if job.json {
            let json = serde_json::to_string_pretty(report)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{json}")?;
        } else {
            lines.extend(ms3d_report_lines(out, report));
        }
    }
    Ok(lines)
}

/// A conversion error with the file it is about: option errors stand
/// alone, a conversion that cannot be made names the output, anything
/// else the input.
fn in_context(err: Error, input: &Path, out: &Path) -> anyhow::Error {
    if let Some(text) = crate::advice::error_text(&err) {
        let error = anyhow::anyhow!(text);
        return match err.unadvised() {
            Error::InvalidOptions { .. } | Error::Option(_) => error,
            _ => error.context(input.display().to_string()),
        };
    }
    match err {
        Error::InvalidOptions { .. } => err.into(),
        Error::Unconvertible { .. } => anyhow::Error::new(err).context(out.display().to_string()),
        _ => anyhow::Error::new(err).context(input.display().to_string()),
    }
}

/// What an MDL repair changed, in words.
fn mdl_repair_words(r: &retromodel::mdl::RepairReport) -> String {
    let mut parts = Vec::new();
    let mut count = |n: usize, what: &str| {
        if n > 0 {
            parts.push(format!("{what} {n}"));
        }
    };
    count(r.dropped_triangles, "dropped triangles:");
    count(r.fixed_normals, "fixed normals:");
    count(r.fixed_bounding_boxes, "fixed bounding boxes:");
    count(r.fixed_counts, "fixed header counts:");
    count(r.fixed_intervals, "fixed intervals:");
    if let Some((old, new)) = r.fixed_radius {
        parts.push(format!("bounding radius {old} -> {new}"));
    }
    if !r.dropped_frames.is_empty() {
        parts.push(format!(
            "dropped empty frame groups at frames {:?}",
            r.dropped_frames
        ));
    }
    if !r.dropped_skins.is_empty() {
        parts.push(format!(
            "dropped empty skin groups at skins {:?}",
            r.dropped_skins
        ));
    }
    parts.join(", ")
}
