//! What each engine's MD3 loader accepts: [`Md3EngineLimits`] and
//! [`Md3::validate_for`] ("will this load in that engine?").
//!
//! Every number is taken from the engine's own loader, cited by file and
//! function. Read: ioquake3 5956299e (2026-03-09), Ironwail 7ff4ec57
//! (2026-08-20), vkQuake 46e5e6dd (2026-08-21) and ET: Legacy a8e5f856f
//! (2026-08-22).
//!
//! - **ioquake3** (`code/renderergl1/tr_model.c` and
//!   `code/renderergl2/tr_model.c`, `R_LoadMD3`, the same checks in both)
//!   checks little: the version (the reader already refuses any but 15),
//!   at least one frame, and per surface fewer than `SHADER_MAX_VERTEXES`
//!   (1000) vertices and fewer than `SHADER_MAX_INDEXES` (6000) indices
//!   (`code/qcommon/qfiles.h`). It refuses the model for each (a warning;
//!   the model is not drawn, lower LODs loaded before it are kept). The
//!   `MD3_MAX_*` limits of `qfiles.h` (4096 vertices, 8192 triangles, 256
//!   shaders, 1024 frames, 32 surfaces, 16 tags) are not checked by the
//!   renderer; they are `q3data`'s, and [`Md3::validate`] reports them as
//!   warnings. Offsets are followed with no check at all.
//! - **Ironwail** (`Quake/gl_model.c`, `Mod_LoadMD3Model`) loads an MD3
//!   only in place of an MDL (`loadMd3Replacement`, `progs/NAME.md3`
//!   beside `progs/NAME.mdl`) and stops the game (`Sys_Error`) on a frame
//!   count outside 1..=`MAXALIASFRAMES` (1024, `Quake/gl_model.h`), no
//!   surface, or a triangle index (cast to 16 bits) not below the
//!   surface's vertex count. Past 65535 vertices its 16-bit remap wraps
//!   without a check (not profiled).
//! - **vkQuake** (`Quake/gl_model.c`, `Mod_LoadMD3Model`) stops the game
//!   (`Sys_Error`) on more than `MAXALIASFRAMES` (2048) frames, no
//!   surface, more than `MAX_SURFACES` (32) surfaces, a surface ident
//!   other than `IDP3`, or a surface whose frame count is not the
//!   model's. Triangle indices are cast to 16 bits unchecked.
//! - **ET: Legacy** (Wolfenstein: Enemy Territory's maintained engine;
//!   `src/renderer/tr_model.c`, `R_LoadMD3`, the default renderer) is
//!   ioquake3's loader with `SHADER_MAX_VERTEXES` raised to 10000
//!   (`src/qcommon/qfiles.h`): more than 10000 vertices or 20000
//!   triangles in a surface drop the game to the console (`Ren_Drop`,
//!   `ERR_DROP`); no frames, or a wrong version, leave the model out. It
//!   also copies `ofsEnd` bytes.
//! - **Return to Castle Wolfenstein** as iortcw loads it (iortcw a4e6f501,
//!   2024-03-12; `SP/code/renderer/tr_model.c` and
//!   `MP/code/renderer/tr_model.c`, `R_LoadMD3`, the default `opengl1`
//!   renderer; `rend2`'s `R_LoadMD3` makes the same checks) is ioquake3's
//!   loader: no frames, `numVerts >= SHADER_MAX_VERTEXES` or
//!   `numTriangles * 3 >= SHADER_MAX_INDEXES` return `qfalse` (a warning;
//!   the model is not loaded), and it copies `ofsEnd` bytes.
//!   `SHADER_MAX_VERTEXES`
//!   differs between the games (`code/qcommon/qfiles.h`): 4000 for single
//!   player (3999 vertices and 7999 triangles a surface), 1000 for
//!   multiplayer ("JPW NERVE was 4000, 1000 in q3ta": 999 and 1999, as
//!   ioquake3). Multiplayer's `MD3_MAX_LODS` is 1: it loads no `_1`/`_2`
//!   LOD files. (With `r_compressModels 1`, not the default, each MD3 is
//!   converted to MDC as it loads: not profiled.)
//! - **FTE** (fteqw 93257c1a, 2026-01-05; `engine/common/com_mesh.c`,
//!   `Mod_LoadQ3ModelLod` under `Mod_LoadQ3Model`) refuses nothing: no
//!   count is checked, the version check is commented out, a surface
//!   ident other than `IDP3` is a console warning ("md3 sub-surface
//!   doesn't match ident"), and a triangle with an index not below the
//!   surface's vertex count is loaded with its three indices set to 0 (a
//!   console warning, "has invalid vertex indexes": the triangle is not
//!   drawn). Both are warnings here. FTE's own build configuration
//!   (`engine/common/config_fteqw.h`, `VERTEXINDEXBYTES 2`) stores
//!   indices in 16 bits (`index_t`, `engine/client/render.h`), so the
//!   check sees an index's low 16 bits, as Ironwail's does; past 65535
//!   vertices triangles point at the wrong vertices (not profiled).

use super::read::HEADER_FIELDS;
use super::validate::surface_field;
use super::Md3;
use crate::problem::{Collector, Problem};

pub use crate::engine::Engine;

/// `SHADER_MAX_VERTEXES` (ioquake3 `code/qcommon/qfiles.h`).
pub const SHADER_MAX_VERTEXES: usize = 1000;
/// `SHADER_MAX_INDEXES` (`6 * SHADER_MAX_VERTEXES`).
pub const SHADER_MAX_INDEXES: usize = 6 * SHADER_MAX_VERTEXES;

/// What an engine does with a model past one of its limits.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Md3Over {
    /// The model is not loaded (a console warning); the game goes on.
    Refuses,
    /// The game drops to the console (`ERR_DROP`): the map ends.
    Drops,
    /// `Sys_Error`: the game stops with an error message.
    Stops,
}

impl Md3Over {
    /// What the engine does, for a message ("it stops with a fatal
    /// error").
    pub fn words(self) -> &'static str {
        match self {
            Md3Over::Refuses => "it does not load the model",
            Md3Over::Drops => "it drops to the console (ERR_DROP)",
            Md3Over::Stops => "it stops with a fatal error",
        }
    }
}

/// The limits of one engine's MD3 loader ([`Engine::md3_limits`]). A
/// model past any of them is not loaded ([`over`](Self::over) and
/// [`no_frames`](Self::no_frames) say how). `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Md3EngineLimits {
    /// Fewest frames.
    pub min_frames: usize,
    /// Most frames.
    pub max_frames: Option<usize>,
    /// Fewest surfaces.
    pub min_surfaces: usize,
    /// Most surfaces.
    pub max_surfaces: Option<usize>,
    /// Most tags per frame.
    pub max_tags: Option<usize>,
    /// Most vertices in one surface.
    pub max_vertices: Option<usize>,
    /// Most triangles in one surface.
    pub max_triangles: Option<usize>,
    /// Most shaders in one surface.
    pub max_shaders: Option<usize>,
    /// Whether a surface's ident must be `IDP3`.
    pub surface_ident: bool,
    /// Whether each surface's frame count must be the model's.
    pub surface_frames_match: bool,
    /// Whether a triangle index (as its low 16 bits) must be below the
    /// surface's vertex count.
    pub indices_checked: bool,
    /// What the engine does past a limit (other than too few frames).
    pub over: Md3Over,
    /// What it does with fewer than [`min_frames`](Self::min_frames).
    pub no_frames: Md3Over,
    /// Whether the engine copies the header's `ofs_end` bytes of the file
    /// and reads the sections from that copy (ioquake3), so that every
    /// section must end by `ofs_end` and `ofs_end` by the file's end.
    pub copies_ofs_end: bool,
    /// Whether the engine loads a triangle with an index (as its low 16
    /// bits) out of range with its indices set to 0, so that it is not
    /// drawn (FTE): a warning.
    pub zeroes_bad_indices: bool,
    /// Whether a surface ident other than `IDP3` is a console warning
    /// only (FTE): a warning.
    pub warns_surface_ident: bool,
}

/// No limit at all: what the profiles below start from.
const NONE: Md3EngineLimits = Md3EngineLimits {
    min_frames: 0,
    max_frames: None,
    min_surfaces: 0,
    max_surfaces: None,
    max_tags: None,
    max_vertices: None,
    max_triangles: None,
    max_shaders: None,
    surface_ident: false,
    surface_frames_match: false,
    indices_checked: false,
    over: Md3Over::Refuses,
    no_frames: Md3Over::Refuses,
    copies_ofs_end: false,
    zeroes_bad_indices: false,
    warns_surface_ident: false,
};

/// ioquake3's `R_LoadMD3` (both renderers): "has no frames" when
/// `numFrames < 1`; "has more than 999 verts" when `numVerts >=
/// SHADER_MAX_VERTEXES`; "has more than 1999 triangles" when
/// `numTriangles * 3 >= SHADER_MAX_INDEXES`. Each returns `qfalse`. It
/// copies `ofsEnd` bytes of the file (`Com_Memcpy (mod->md3[lod], buffer,
/// LittleLong(pinmodel->ofsEnd))`) and reads every section from the copy,
/// unchecked.
pub const IOQUAKE3: Md3EngineLimits = Md3EngineLimits {
    min_frames: 1,
    max_vertices: Some(SHADER_MAX_VERTEXES - 1),
    max_triangles: Some(SHADER_MAX_INDEXES / 3 - 1),
    copies_ofs_end: true,
    ..NONE
};

/// Ironwail's `Mod_LoadMD3Model`: "has invalid frame count" unless
/// `0 < numFrames <= MAXALIASFRAMES` (1024); "has no surfaces"; "Vertex
/// index out of bounds" for `(unsigned short)index >= numVerts`. Each a
/// `Sys_Error`.
pub const IRONWAIL: Md3EngineLimits = Md3EngineLimits {
    min_frames: 1,
    max_frames: Some(1024),
    min_surfaces: 1,
    indices_checked: true,
    over: Md3Over::Stops,
    no_frames: Md3Over::Stops,
    ..NONE
};

/// vkQuake's `Mod_LoadMD3Model`: "has too many frames" past
/// `MAXALIASFRAMES` (2048); "has no surfaces"; "has too many surfaces"
/// past `MAX_SURFACES` (32); "corrupt surface ident"; "mismatched
/// framecounts". Each a `Sys_Error`.
pub const VKQUAKE: Md3EngineLimits = Md3EngineLimits {
    max_frames: Some(2048),
    min_surfaces: 1,
    max_surfaces: Some(32),
    surface_ident: true,
    surface_frames_match: true,
    over: Md3Over::Stops,
    ..NONE
};

/// `SHADER_MAX_VERTEXES` in ET: Legacy (`src/qcommon/qfiles.h`).
pub const ETLEGACY_SHADER_MAX_VERTEXES: usize = 10000;

/// ET: Legacy's `R_LoadMD3` (`src/renderer/tr_model.c`): "has no frames"
/// returns `qfalse`; "has more than 10000 verts on a surface" when
/// `numVerts > SHADER_MAX_VERTEXES` and "has more than 20000 triangles"
/// when `numTriangles * 3 > SHADER_MAX_INDEXES` are `Ren_Drop`.
pub const ETLEGACY: Md3EngineLimits = Md3EngineLimits {
    min_frames: 1,
    max_vertices: Some(ETLEGACY_SHADER_MAX_VERTEXES),
    max_triangles: Some(6 * ETLEGACY_SHADER_MAX_VERTEXES / 3),
    over: Md3Over::Drops,
    copies_ofs_end: true,
    ..NONE
};

/// `SHADER_MAX_VERTEXES` in Return to Castle Wolfenstein's single-player
/// game (iortcw `SP/code/qcommon/qfiles.h`).
pub const RTCW_SHADER_MAX_VERTEXES: usize = 4000;

/// Return to Castle Wolfenstein's single player, iortcw's `R_LoadMD3`
/// (`SP/code/renderer/tr_model.c`): "has no frames", "has more than 3999
/// verts" when `numVerts >= SHADER_MAX_VERTEXES` (4000), "has more than
/// 7999 triangles" when `numTriangles * 3 >= SHADER_MAX_INDEXES` (24000).
/// Each returns `qfalse`. It copies `ofsEnd` bytes, as ioquake3 does.
pub const RTCW: Md3EngineLimits = Md3EngineLimits {
    min_frames: 1,
    max_vertices: Some(RTCW_SHADER_MAX_VERTEXES - 1),
    max_triangles: Some(6 * RTCW_SHADER_MAX_VERTEXES / 3 - 1),
    copies_ofs_end: true,
    ..NONE
};

/// Return to Castle Wolfenstein's multiplayer, iortcw's `R_LoadMD3`
/// (`MP/code/renderer/tr_model.c`): the same checks with
/// `SHADER_MAX_VERTEXES` 1000 (`MP/code/qcommon/qfiles.h`), so ioquake3's
/// limits: 999 vertices and 1999 triangles a surface.
pub const RTCW_MP: Md3EngineLimits = IOQUAKE3;

/// FTE's `Mod_LoadQ3ModelLod` (`engine/common/com_mesh.c`): no limit; a
/// surface ident other than `IDP3` and triangle indices (their low 16
/// bits, in FTE's 16-bit `index_t`) not below the vertex count are
/// console warnings (the triangle's indices set to 0).
pub const FTE: Md3EngineLimits = Md3EngineLimits {
    zeroes_bad_indices: true,
    warns_surface_ident: true,
    ..NONE
};

impl Engine {
    /// The limits of the engine's MD3 loader, or `None` when it loads no
    /// MD3.
    pub fn md3_limits(self) -> Option<Md3EngineLimits> {
        match self {
            Engine::Ioquake3 => Some(IOQUAKE3),
            Engine::Ironwail => Some(IRONWAIL),
            Engine::Vkquake => Some(VKQUAKE),
            Engine::Etlegacy => Some(ETLEGACY),
            Engine::Rtcw => Some(RTCW),
            Engine::RtcwMp => Some(RTCW_MP),
            Engine::Fte => Some(FTE),
            _ => None,
        }
    }
}

impl Md3 {
    /// The problems that keep `engine` from loading the model: one error
    /// per limit passed, naming the count and the limit; one error when
    /// the engine loads no MD3. What an engine loads but draws wrong (FTE's
    /// zeroed triangles) is a warning.
    ///
    /// ```
    /// use retromodel::md3::{Md3, Surface};
    /// use retromodel::Engine;
    /// let mut md3 = Md3 { frames: vec![Default::default()], ..Md3::default() };
    /// md3.surfaces.push(Surface { texcoords: vec![[0.0; 2]; 1000], ..Surface::default() });
    /// let p = md3.validate_for(Engine::Ioquake3);
    /// assert_eq!(p[0].path, "surfaces[0].num_verts");
    /// ```
    pub fn validate_for(&self, engine: Engine) -> Vec<Problem> {
        if engine == Engine::Gzdoom {
            return self.validate_for_gzdoom();
        }
        let mut c = Collector::default();
        let Some(l) = engine.md3_limits() else {
            if engine.loads(crate::EngineFormat::Md3) {
                c.warn(
                    "format",
                    format!(
                        "{} loads MD3 files, but its loader's limits are not profiled here: not checked",
                        engine.sentence_title()
                    ),
                    None,
                );
            } else {
                c.error(
                    "format",
                    engine.does_not_load(crate::EngineFormat::Md3),
                    Some(0),
                );
            }
            return c.finish();
        };
        let name = engine.title();
        let outcome = l.over.words();
        let header = |f: &str| HEADER_FIELDS.iter().find(|(n, _)| *n == f).map(|(_, o)| *o);
        let over =
            |c: &mut Collector, path: String, n: usize, max: Option<usize>, what: &str, at| {
                if let Some(max) = max.filter(|&m| n > m) {
                    c.error(
                        path,
                        format!(
                            "{n} {what}, more than {name}'s {max} by {}: {outcome}",
                            n - max
                        ),
                        at,
                    );
                }
            };
        let under = |c: &mut Collector, path: &str, n: usize, min: usize, what: &str| {
            if n < min {
                c.error(
                    path,
                    format!(
                        "{n} {what}: {name} needs at least {min} ({})",
                        if what == "frames" {
                            l.no_frames
                        } else {
                            l.over
                        }
                        .words()
                    ),
                    header(path.trim_start_matches("header.")),
                );
            }
        };
        under(
            &mut c,
            "header.num_frames",
            self.frames.len(),
            l.min_frames,
            "frames",
        );
        under(
            &mut c,
            "header.num_surfaces",
            self.surfaces.len(),
            l.min_surfaces,
            "surfaces",
        );
        over(
            &mut c,
            "header.num_frames".into(),
            self.frames.len(),
            l.max_frames,
            "frames",
            header("num_frames"),
        );
        over(
            &mut c,
            "header.num_surfaces".into(),
            self.surfaces.len(),
            l.max_surfaces,
            "surfaces",
            header("num_surfaces"),
        );
        over(
            &mut c,
            "header.num_tags".into(),
            self.num_tags.max(0) as usize,
            l.max_tags,
            "tags per frame",
            header("num_tags"),
        );
        if let (true, Some((sections, file))) = (l.copies_ofs_end, self.stored_extent()) {
            let end = i64::from(self.offsets.end);
            if end < sections as i64 {
                c.error(
                    "header.ofs_end",
                    format!(
                        "{end}, but the sections end at {sections}: {name} copies only ofs_end bytes and reads the rest from memory past its copy"
                    ),
                    header("ofs_end"),
                );
            } else if end as u64 > file {
                c.error(
                    "header.ofs_end",
                    format!("{end}, past the file's {file} bytes: {name} copies that many bytes from a buffer the file does not fill"),
                    header("ofs_end"),
                );
            }
        }
        for ((i, s), start) in self.surfaces.iter().enumerate().zip(self.surface_starts()) {
            let at = |f: &str| start.map(|b| b + surface_field(f));
            let p = |f: &str| format!("surfaces[{i}].{f}");
            let nv = s.vertex_count();
            over(
                &mut c,
                p("num_verts"),
                nv,
                l.max_vertices,
                "vertices",
                at("num_verts"),
            );
            over(
                &mut c,
                p("num_triangles"),
                s.triangles.len(),
                l.max_triangles,
                "triangles",
                at("num_triangles"),
            );
            over(
                &mut c,
                p("num_shaders"),
                s.shaders.len(),
                l.max_shaders,
                "shaders",
                at("num_shaders"),
            );
            if l.surface_ident && s.ident != super::MAGIC {
                c.error(
                    p("ident"),
                    format!("not \"IDP3\": {outcome} (\"corrupt surface ident\")"),
                    start,
                );
            }
            if l.surface_frames_match
                && usize::try_from(s.num_frames).ok() != Some(self.frames.len())
            {
                c.error(
                    p("num_frames"),
                    format!(
                        "{} frames, the model {}: {outcome} (\"mismatched framecounts\")",
                        s.num_frames,
                        self.frames.len()
                    ),
                    at("num_frames"),
                );
            }
            if l.warns_surface_ident && s.ident != super::MAGIC {
                c.warn(
                    p("ident"),
                    format!("not \"IDP3\": {name} loads the surface with a console warning (\"md3 sub-surface doesn't match ident\")"),
                    start,
                );
            }
            if l.zeroes_bad_indices {
                // FTE's build keeps the index's low 16 bits (`index_t`).
                let bad = s
                    .triangles
                    .iter()
                    .position(|t| t.iter().any(|&v| (v as u16 as usize) >= nv));
                if let Some(k) = bad {
                    c.warn(
                        format!("{}[{k}]", p("triangles")),
                        format!("a vertex index out of range 0..{nv}: {name} sets the triangle's indices to 0, so it is not drawn (a console warning, \"has invalid vertex indexes\")"),
                        start.and_then(|b| u64::try_from(b as i64 + i64::from(s.offsets.triangles) + 12 * k as i64).ok()),
                    );
                }
            }
            if l.indices_checked {
                // The loader compares the index's low 16 bits.
                let bad = s
                    .triangles
                    .iter()
                    .flatten()
                    .position(|&v| (v as u16 as usize) >= nv);
                if let Some(k) = bad {
                    c.error(
                        format!("{}[{}][{}]", p("triangles"), k / 3, k % 3),
                        format!("vertex index out of range 0..{nv} (as 16 bits): {outcome} (\"Vertex index out of bounds\")"),
                        start.and_then(|b| u64::try_from(b as i64 + i64::from(s.offsets.triangles) + 4 * k as i64).ok()),
                    );
                }
            }
        }
        c.finish()
    }
}
