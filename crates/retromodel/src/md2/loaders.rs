//! What each engine's MD2 loader reads of a file, and what it checks about
//! where the sections lie: [`Md2::validate_bytes_for`], which answers "will
//! this file load in that engine?" for files the reader refuses because of
//! damage in a part that engine never reads.
//!
//! The loaders read (versions as in [`Engine::limits`]):
//! - id's Quake II, `ref_gl/gl_model.c` and `ref_soft/r_model.c`,
//!   `Mod_LoadAliasModel`: copies the texture coordinates, triangles,
//!   frames, GL commands and skin names from the file at their offsets into
//!   `Hunk_Alloc(ofs_end)`, with no check against the file's length; the
//!   hunk is 2 MiB (`Mod_ForName`, `Hunk_Begin(0x200000)`) and `Hunk_Alloc`
//!   stops with "Hunk_Alloc overflow" past it (`linux/q_shlinux.c`,
//!   `win32/q_shwin.c`, where a negative size fails VirtualAlloc's commit).
//! - Yamagi Quake II, `src/client/refresh/files/models.c`, `Mod_LoadMD2`:
//!   the same five copies, unchecked, after refusing an `ofs_end` below 0 or
//!   past the file's length ("file size too small").
//! - Q2PRO, `src/refresh/models.c`, `MOD_ValidateMD2`: refuses triangles,
//!   texture coordinates, frames or skin names that run past the file's
//!   length ("Bad tris offset" ...), and odd offsets ("Odd tris offset"
//!   ...); `MOD_LoadMD2` never reads `ofs_glcmds`, `num_glcmds` nor
//!   `ofs_end`.
//! - KMQuake2, `renderer/r_model_md2.c`, `Mod_LoadAliasMD2Model`: reads the
//!   triangles, texture coordinates, frames and skin names unchecked; never
//!   the GL commands nor `ofs_end`.
//! - UFO:AI, `src/client/renderer/r_model_md2.cpp`:
//!   `R_ModLoadAliasMD2MeshUnindexed` reads the triangles, texture
//!   coordinates, frames and skin names unchecked, never the GL commands;
//!   `R_ModLoadAliasMD2Mesh` refuses an `ofs_end` other than the file's
//!   length ("broken offset values").

use super::header::offset_of;
use super::read::read_header;
use super::{Header, Md2, HEADER_SIZE, SKIN_NAME_SIZE, TEXCOORD_SIZE, TRIANGLE_SIZE};
use crate::engine::Engine;
use crate::error::Result;
use crate::problem::{Collector, Problem};

/// A section of the file, as the header places it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Skins,
    Texcoords,
    Triangles,
    Frames,
    GlCommands,
}

impl Part {
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Part::Skins => ("skin names", "ofs_skins"),
            Part::Texcoords => ("texture coordinates", "ofs_texcoords"),
            Part::Triangles => ("triangles", "ofs_triangles"),
            Part::Frames => ("frames", "ofs_frames"),
            Part::GlCommands => ("GL commands", "ofs_gl_commands"),
        }
    }
}

/// What a loader does with a section that lies outside the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outside {
    /// It never reads the section.
    NotRead,
    /// It checks the section against the file's length and refuses the
    /// model with this message.
    Refuses(&'static str),
    /// It reads the section without a check: past the end of its buffer.
    ReadsPast,
}

fn outside(engine: Engine, part: Part) -> Outside {
    match (engine, part) {
        // Mod_LoadAliasModel (id) and Mod_LoadMD2 (yquake2) copy all five
        // sections, GL commands included, without a check.
        (Engine::Quake2 | Engine::Yquake2, _) => Outside::ReadsPast,
        // MOD_LoadMD2 never reads ofs_glcmds; MOD_ValidateMD2 checks the
        // other four against the length.
        (Engine::Q2pro, Part::GlCommands) => Outside::NotRead,
        (Engine::Q2pro, Part::Skins) => Outside::Refuses("Bad skins offset"),
        (Engine::Q2pro, Part::Texcoords) => Outside::Refuses("Bad st offset"),
        (Engine::Q2pro, Part::Triangles) => Outside::Refuses("Bad tris offset"),
        (Engine::Q2pro, Part::Frames) => Outside::Refuses("Bad frames offset"),
        // Mod_LoadAliasMD2Model (KMQuake2) and R_ModLoadAliasMD2Mesh*
        // (UFO:AI) never read the GL commands and read the rest unchecked.
        (Engine::Kmquake2 | Engine::UfoAi, Part::GlCommands) => Outside::NotRead,
        (Engine::Kmquake2 | Engine::UfoAi, _) => Outside::ReadsPast,
        // No MD2 profile (validate_bytes_for does not ask): the worst case.
        _ => Outside::ReadsPast,
    }
}

/// What a loader does with `ofs_end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EndRule {
    /// Allocates that many bytes from a hunk of this size (id's Quake II).
    Hunk(u64),
    /// Refuses it below 0 or past the file's length (yquake2).
    WithinFile,
    /// Refuses it unless it is the file's length (UFO:AI).
    FileLength,
    /// Never reads it (Q2PRO, KMQuake2).
    NotRead,
}

fn end_rule(engine: Engine) -> EndRule {
    match engine {
        Engine::Quake2 => EndRule::Hunk(0x20_0000),
        Engine::Yquake2 => EndRule::WithinFile,
        Engine::UfoAi => EndRule::FileLength,
        Engine::Q2pro | Engine::Kmquake2 => EndRule::NotRead,
        // No MD2 profile (validate_bytes_for does not ask).
        _ => EndRule::WithinFile,
    }
}

/// Whether `engine` loads a file of `len` bytes whose `ofs_end` is `end`.
fn end_loads(engine: Engine, end: i64, len: u64) -> bool {
    match end_rule(engine) {
        EndRule::Hunk(max) => (0..=max as i64).contains(&end),
        EndRule::WithinFile => (0..=len as i64).contains(&end),
        EndRule::FileLength => end == len as i64,
        EndRule::NotRead => true,
    }
}

/// "Quake II, Yamagi Quake II and UFO:AI".
fn list(engines: &[Engine]) -> String {
    let names: Vec<&str> = engines.iter().map(|e| e.title()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The engines other than `engine` for which `fails` holds.
fn others(engine: Engine, fails: impl Fn(Engine) -> bool) -> Vec<Engine> {
    Engine::MD2
        .into_iter()
        .filter(|&e| e != engine && fails(e))
        .collect()
}

impl Md2 {
    /// Every reason the MD2 file `data` would not load, or not display
    /// right, in `engine`, judged on the file's bytes as that engine's
    /// loader reads them: [`Md2::validate_for`] of the model, plus what the
    /// loader checks of the layout. Damage in a part the engine never
    /// reads (GL commands past the end of the file for Q2PRO, KMQuake2 and
    /// UFO:AI; `ofs_end` past the end for all but yquake2 and UFO:AI) is a
    /// warning naming the engines that would fail, not a refusal; the rest
    /// of the model is then checked as if that part were absent.
    ///
    /// An `Err` is damage that every engine refuses and the reader cannot
    /// read past ([`Md2::from_bytes`]). An engine that does not load MD2
    /// files gives one error saying so, whatever the bytes; one without an
    /// MD2 profile (FTE) is [`Md2::validate_for`] of the model read.
    ///
    /// ```
    /// use retromodel::md2::{sample::sample_model, Engine, Md2};
    /// use retromodel::Severity;
    /// let bytes = sample_model().to_bytes().unwrap();
    /// let cut = &bytes[..bytes.len() - 8]; // the GL commands' last 2 words
    /// let q2pro = Md2::validate_bytes_for(cut, Engine::Q2pro).unwrap();
    /// assert!(q2pro.iter().all(|p| p.severity == Severity::Warning));
    /// let id = Md2::validate_bytes_for(cut, Engine::Quake2).unwrap();
    /// assert!(id.iter().any(|p| p.severity == Severity::Error));
    /// ```
    pub fn validate_bytes_for(data: &[u8], engine: Engine) -> Result<Vec<Problem>> {
        // GZDoom reads the header itself (`FMD2Model::Load`).
        if engine == Engine::Gzdoom {
            return Ok(super::gzdoom_problems(data));
        }
        if !engine.loads(crate::EngineFormat::Md2) || engine.md2_limits().is_none() {
            if !engine.loads(crate::EngineFormat::Md2) {
                let mut c = Collector::default();
                c.error(
                    "format",
                    engine.does_not_load(crate::EngineFormat::Md2),
                    None,
                );
                return Ok(c.finish());
            }
            return Ok(Md2::from_bytes(data)?.validate_for(engine));
        }
        let header = read_header(data)?;
        let len = data.len() as u64;
        let name = engine.title();
        let mut c = Collector::default();
        let mut patched = header;
        let mut refused = false;
        let sections = [
            (
                Part::Skins,
                header.ofs_skins,
                header.num_skins,
                SKIN_NAME_SIZE as i64,
            ),
            (
                Part::Texcoords,
                header.ofs_texcoords,
                header.num_texcoords,
                TEXCOORD_SIZE as i64,
            ),
            (
                Part::Triangles,
                header.ofs_triangles,
                header.num_triangles,
                TRIANGLE_SIZE as i64,
            ),
            (
                Part::Frames,
                header.ofs_frames,
                header.num_frames,
                i64::from(header.frame_size),
            ),
            (
                Part::GlCommands,
                header.ofs_gl_commands,
                header.num_gl_commands,
                4,
            ),
        ];
        let mut dropped_gl = false;
        for (part, ofs, count, size) in sections {
            // Counts are not negative (read_header). An empty section is
            // never read, but Q2PRO's MOD_ValidateMD2 checks its offset all
            // the same (unsigned: a negative one is past any file).
            let end = i64::from(ofs) + i64::from(count) * size;
            let checked = engine == Engine::Q2pro && part != Part::GlCommands;
            if (count == 0 && !checked) || (ofs >= 0 && end <= len as i64) {
                continue;
            }
            let (what, field) = part.words();
            let path = format!("header.{field}");
            let at = Some(header_offset(field));
            let place = format!(
                "the {what} ({count} × {size} bytes at offset {ofs}) run past the end of the file ({len} bytes)"
            );
            match outside(engine, part) {
                Outside::NotRead => {
                    let fail = others(engine, |e| outside(e, part) != Outside::NotRead);
                    c.warn(
                        path,
                        format!(
                            "{place}: {name} never reads them and loads the model; {} would fail on them",
                            list(&fail)
                        ),
                        at,
                    );
                    match part {
                        Part::GlCommands => {
                            patched.num_gl_commands = 0;
                            dropped_gl = true;
                        }
                        // Only the GL commands are unread by some engine.
                        _ => refused = true,
                    }
                }
                Outside::Refuses(message) => {
                    refused = true;
                    c.error(
                        path,
                        format!("{place}: {name} refuses the model (\"{message}\")"),
                        at,
                    );
                }
                Outside::ReadsPast => {
                    refused = true;
                    c.error(
                        path,
                        format!("{place}: {name} reads them past the end, which crashes it or loads garbage"),
                        at,
                    );
                }
            }
        }
        let end = i64::from(header.ofs_end);
        let end_at = Some(const { offset_of("ofs_end") });
        let mut patched_end = false;
        let mut refused_end = false;
        if !end_loads(engine, end, len) {
            // A refusal, but the rest can still be read and checked.
            let why = match end_rule(engine) {
                EndRule::Hunk(max) if end >= 0 => format!(
                    "ofs_end {end} is over {name}'s {max} bytes of model memory (by {}): it stops with \"Hunk_Alloc overflow\"",
                    end - max as i64
                ),
                EndRule::Hunk(_) => format!(
                    "ofs_end {end} is negative: {name} asks its model memory for that many bytes, which fails or corrupts it"
                ),
                EndRule::WithinFile => format!(
                    "ofs_end {end} is past the end of the file ({len} bytes): {name} refuses the model (\"file size too small\")"
                ),
                _ => format!(
                    "ofs_end {end} is not the file's length ({len} bytes): {name} refuses the model (\"broken offset values\")"
                ),
            };
            c.error("header.ofs_end", why, end_at);
            refused_end = true;
            if end > len as i64 {
                patched.ofs_end = len as i32;
                patched_end = true;
            }
        } else if !(0..=len as i64).contains(&end) {
            let fail = others(engine, |e| !end_loads(e, end, len));
            c.warn(
                "header.ofs_end",
                format!(
                    "ofs_end {end} is past the end of the file ({len} bytes): {name} loads the model all the same; {} would refuse it",
                    list(&fail)
                ),
                end_at,
            );
            patched.ofs_end = len as i32;
            patched_end = true;
        }
        if !refused {
            check_layout(engine, &header, &mut c);
            check_overlaps(engine, &sections, len, &mut c);
        }
        let mut problems = c.finish();
        if refused {
            return Ok(problems);
        }
        let mut bytes = data.to_vec();
        for (i, field) in patched.fields().iter().enumerate() {
            let at = Header::field_offset(i) as usize;
            bytes[at..at + 4].copy_from_slice(&field.to_le_bytes());
        }
        let model = Md2::from_bytes_overlapping(&bytes)?;
        problems.extend(model.validate_for(engine).into_iter().filter(|p| {
            // What the patch made up: a GL command list it emptied, an
            // ofs_end it set.
            !(dropped_gl && p.path == "gl_commands"
                || patched_end && p.path == "header.ofs_end" && p.message.starts_with("ofs_end ")
                // Said above, from ofs_end itself.
                || refused_end && p.path == "header.ofs_end")
        }));
        Ok(problems)
    }
}

/// Sections that share bytes with each other or with the header: the
/// library's reader refuses them (it could not write the file back as it
/// was), but every loader reads each section where the header puts it and
/// loads the model, so for an engine it is a warning. Only the non-empty
/// sections inside the file that `engine` reads count.
fn check_overlaps(
    engine: Engine,
    sections: &[(Part, i32, i32, i64); 5],
    len: u64,
    c: &mut Collector,
) {
    let name = engine.title();
    let used: Vec<(Part, i64, i64)> = sections
        .iter()
        .filter(|&&(part, ofs, count, size)| {
            let end = i64::from(ofs) + i64::from(count) * size;
            count > 0 && ofs >= 0 && end <= len as i64 && outside(engine, part) != Outside::NotRead
        })
        .map(|&(part, ofs, count, size)| {
            (
                part,
                i64::from(ofs),
                i64::from(ofs) + i64::from(count) * size,
            )
        })
        .collect();
    for (i, &(part, start, end)) in used.iter().enumerate() {
        let (what, field) = part.words();
        if start < HEADER_SIZE as i64 {
            c.warn(
                format!("header.{field}"),
                format!(
                    "the {what} (bytes {start}..{end}) overlap the 68-byte header: {name} reads them from the header's bytes and loads the model"
                ),
                Some(header_offset(field)),
            );
        }
        for &(other, o_start, o_end) in &used[i + 1..] {
            if start < o_end && o_start < end {
                let (o_what, o_field) = other.words();
                c.warn(
                    format!("header.{o_field}"),
                    format!(
                        "the {o_what} (bytes {o_start}..{o_end}) overlap the {what} (bytes {start}..{end}): {name} reads both from the same bytes and loads the model"
                    ),
                    Some(header_offset(o_field)),
                );
            }
        }
    }
}

fn header_offset(field: &str) -> u64 {
    Header::FIELD_NAMES
        .iter()
        .position(|&f| f == field)
        .map_or(0, Header::field_offset)
}

/// The layout checks only some loaders make: Q2PRO's `MOD_ValidateMD2`
/// refuses odd offsets ("Odd tris offset", "Odd st offset", "Odd frames
/// offset", "Odd frame size": `q_alignof` of `dmd2triangle_t` and
/// `dmd2stvert_t` is 2, of `dmd2frame_t` 4) and a frame size over
/// `MD2_MAX_FRAMESIZE` (`inc/format/md2.h`: 40 + 4 × 2048 bytes, "Too big
/// frame size").
fn check_layout(engine: Engine, header: &Header, c: &mut Collector) {
    if engine != Engine::Q2pro {
        return;
    }
    let name = engine.title();
    let checks = [
        ("ofs_triangles", header.ofs_triangles, 2, "Odd tris offset"),
        ("ofs_texcoords", header.ofs_texcoords, 2, "Odd st offset"),
        ("ofs_frames", header.ofs_frames, 4, "Odd frames offset"),
        ("frame_size", header.frame_size, 4, "Odd frame size"),
    ];
    for (field, value, align, message) in checks {
        if value % align != 0 {
            c.error(
                format!("header.{field}"),
                format!("{field} {value} is not a multiple of {align}: {name} refuses the model (\"{message}\")"),
                Some(header_offset(field)),
            );
        }
    }
    const MAX_FRAME_SIZE: i32 = 40 + 4 * 2048;
    if header.frame_size > MAX_FRAME_SIZE {
        c.error(
            "header.frame_size",
            format!(
                "frame size {} is over {name}'s {MAX_FRAME_SIZE} bytes: it refuses the model (\"Too big frame size\")",
                header.frame_size
            ),
            Some(const { offset_of("frame_size") }),
        );
    }
}
