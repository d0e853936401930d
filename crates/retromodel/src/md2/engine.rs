//! What each engine's MD2 loader accepts: [`Engine`], its [`EngineLimits`]
//! and [`Md2::validate_for`] ("will this load in that engine?").
//!
//! Every number below is taken from the engine's own loader, cited by
//! file and function (the versions read are those of the engines' public
//! repositories: id's 2001 source release, yquake2, Q2PRO, Knightmare's
//! KMQuake2 as continued by mxd, and UFO:AI 2.5).

use std::collections::HashSet;

use super::{Md2, HEADER_SIZE};
use crate::problem::{Collector, Problem};

pub use crate::engine::Engine;

impl Engine {
    /// What the engine's MD2 loader accepts. For an engine without an MD2
    /// profile (see [`Engine::md2_limits`]), id's Quake II's: callers that
    /// may be given any engine check [`Engine::md2_limits`] first, as
    /// [`Md2::validate_for`] and the MD2 compiler do.
    pub fn limits(self) -> EngineLimits {
        self.md2_limits().unwrap_or_else(|| Engine::Quake2.limits())
    }

    /// What the engine's MD2 loader accepts, for the engines in
    /// [`Engine::MD2`]; `None` for the others (the Quake engines, which do
    /// not load MD2, and FTE, whose MD2 loader is not profiled).
    pub fn md2_limits(self) -> Option<EngineLimits> {
        Some(match self {
            // ref_gl/gl_model.c, Mod_LoadAliasModel: num_xyz must be
            // 1..=MAX_VERTS (2048, qcommon/qfiles.h); num_st, num_tris and
            // num_frames at least 1; skinheight <= MAX_LBM_HEIGHT (480,
            // ref_gl/gl_local.h). Skins go into model_t.skins[MAX_MD2SKINS]
            // (32, qfiles.h) without a check, so more overflow the array.
            // Mod_ForName reserves Hunk_Begin(0x200000) for an alias model
            // and Mod_LoadAliasModel takes Hunk_Alloc(ofs_end) from it: a
            // file over 2 MiB fails. ref_gl/gl_image.c, LoadPCX, rejects a
            // PCX with xmax >= 640 or ymax >= 480 ("Bad pcx file"), reads
            // exactly xmax + 1 bytes per row (no padding) and is the only
            // skin format the game loads for models. MAX_TRIANGLES (4096)
            // and MAX_FRAMES (512) are qfiles.h's design bounds, which
            // qdata enforces when it writes models. Skin names are C
            // strings in a 64-byte field (GL_FindImage reads to the NUL).
            Engine::Quake2 => EngineLimits {
                max_vertices: 2048,
                max_triangles: 4096,
                max_frames: 512,
                max_skins: 32,
                min_skins: 0,
                max_skin_name: 63,
                max_skin_width: Some(640),
                max_skin_height: Some(480),
                max_render_vertices: None,
                max_file_size: Some(0x20_0000),
                min_vertices: 1,
                square_skin: false,
                pcx_only: true,
            },
            // yquake2 at 69599f5. src/client/refresh/files/models.c,
            // Mod_LoadMD2: num_xyz 1..=MAX_VERTS (2048,
            // src/common/header/files.h), num_st, num_tris, num_frames at
            // least 1, skinheight <= MAX_LBM_HEIGHT (480,
            // src/client/refresh/ref_shared.h), ofs_end within the file
            // (md2/loaders.rs); more than MAX_MD2SKINS (32) skins are
            // ignored with a warning. Neither it nor any renderer bounds
            // num_frames or num_tris (files.h's MAX_FRAMES and
            // MAX_TRIANGLES are used nowhere; its own loader, run under
            // AddressSanitizer, loads UFO:AI's 1007-frame soldier), so
            // they get the bound of KMQuake2's unbounded counts below. The hunk is sized from the
            // file, so no size limit. Skins may be PNG, TGA or JPEG
            // besides PCX (R_LoadImage).
            Engine::Yquake2 => EngineLimits {
                max_vertices: 2048,
                max_triangles: 65536,
                max_frames: 65536,
                max_skins: 32,
                min_skins: 0,
                max_skin_name: 63,
                max_skin_width: None,
                max_skin_height: Some(480),
                max_render_vertices: None,
                max_file_size: None,
                min_vertices: 1,
                square_skin: false,
                pcx_only: false,
            },
            // Q2PRO at 3aa0d40 (2025-07-21). src/refresh/models.c,
            // MOD_ValidateMD2: num_tris <= TESS_MAX_INDICES / 3 (6144,
            // src/refresh/gl.h), num_xyz <= MD2_MAX_VERTS (2048),
            // num_frames <= MD2_MAX_FRAMES (1024), num_skins <=
            // MD2_MAX_SKINS (32) (inc/format/md2.h), skin width and height
            // 1..=MAX_TEXTURE_SIZE (8192 since ee0ec72, "Bump
            // MAX_TEXTURE_SIZE", src/refresh/images.h); the layout checks
            // (offsets within the file and aligned) are md2/loaders.rs's.
            // MOD_LoadMD2: fewer than 3 xyz or st
            // or no triangle makes an empty model that draws nothing;
            // more than TESS_MAX_VERTICES (6144) distinct (xyz, s, t)
            // vertices fail; a skin name needs its NUL within 64 bytes
            // (Q_memccpy, else Q_ERR_STRING_TRUNCATED).
            Engine::Q2pro => EngineLimits {
                max_vertices: 2048,
                max_triangles: 6144,
                max_frames: 1024,
                max_skins: 32,
                min_skins: 0,
                max_skin_name: 63,
                max_skin_width: Some(8192),
                max_skin_height: Some(8192),
                max_render_vertices: Some(6144),
                max_file_size: None,
                min_vertices: 3,
                square_skin: false,
                pcx_only: false,
            },
            // renderer/r_model_md2.c, Mod_LoadAliasMD2Model: num_frames
            // 1..=MAX_FRAMES (512) and num_skins 0..=MAX_MD2SKINS (32)
            // (qcommon/qfiles.h); num_tris and num_xyz at least 1, with no
            // upper bound (its arrays are allocated to fit), so the
            // format's 16-bit indices are the limit.
            Engine::Kmquake2 => EngineLimits {
                max_vertices: 65536,
                max_triangles: 65536,
                max_frames: 512,
                max_skins: 32,
                min_skins: 0,
                max_skin_name: 63,
                max_skin_width: None,
                max_skin_height: None,
                max_render_vertices: None,
                max_file_size: None,
                min_vertices: 1,
                square_skin: false,
                pcx_only: false,
            },
            // src/client/renderer/r_model_md2.cpp: R_ModLoadAliasMD2Model
            // wants 0 < num_frames < MD2_MAX_FRAMES (1024 in UFO:AI 2.5's
            // src/common/qfiles.h); R_ModLoadAliasMD2MeshUnindexed wants
            // 0 < num_xyz < MD2_MAX_VERTS (2048), 0 < num_tris <
            // MD2_MAX_TRIANGLES (4096), 0 < num_skins < MD2_MAX_SKINS (32)
            // (outside models/soldiers/), a positive skin size, fewer than
            // MAX_ALIAS_VERTS (8192, r_model_alias.h) distinct (xyz, s, t)
            // vertices, and divides both s and t by the skin *width*, so
            // only a square skin maps right. R_ModLoadAliasMD2Mesh wants
            // ofs_end to be the file's length.
            Engine::UfoAi => EngineLimits {
                max_vertices: 2047,
                max_triangles: 4095,
                max_frames: 1023,
                max_skins: 31,
                min_skins: 1,
                max_skin_name: 63,
                max_skin_width: None,
                max_skin_height: None,
                max_render_vertices: Some(8191),
                max_file_size: None,
                min_vertices: 1,
                square_skin: true,
                pcx_only: false,
            },
            _ => return None,
        })
    }
}

/// The limits of one engine's MD2 loader (see [`Engine::limits`] for
/// where each comes from).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineLimits {
    /// Most vertices per frame.
    pub max_vertices: usize,
    /// Most triangles.
    pub max_triangles: usize,
    /// Most frames.
    pub max_frames: usize,
    /// Most skins.
    pub max_skins: usize,
    /// Fewest skins (UFO:AI needs one).
    pub min_skins: usize,
    /// Longest skin name in bytes, before its NUL.
    pub max_skin_name: usize,
    /// Widest skin in pixels, if limited.
    pub max_skin_width: Option<i32>,
    /// Tallest skin in pixels, if limited.
    pub max_skin_height: Option<i32>,
    /// Most distinct (vertex, s, t) corners the renderer builds, if
    /// limited.
    pub max_render_vertices: Option<usize>,
    /// Largest file in bytes, if limited.
    pub max_file_size: Option<usize>,
    /// Fewest vertices for the model to be drawn at all.
    pub min_vertices: usize,
    /// Whether only a square skin maps right.
    pub square_skin: bool,
    /// Whether the engine loads only PCX skins.
    pub pcx_only: bool,
}

/// Number of distinct (vertex, s, t) corners of the model's valid
/// triangles: the vertices a renderer such as Q2PRO's builds.
pub(crate) fn render_vertex_count(model: &Md2) -> usize {
    let mut seen = HashSet::new();
    for t in &model.triangles {
        for k in 0..3 {
            let (v, st) = (t.vertices[k], t.texcoords[k]);
            if let Some(tc) = model.texcoords.get(usize::from(st)) {
                if usize::from(v) < model.num_vertices {
                    seen.insert((v, tc.s, tc.t));
                }
            }
        }
    }
    seen.len()
}

impl Md2 {
    /// Every reason the model would not load, or not display right, in
    /// `engine`: the structural problems of [`Md2::validate`] (without
    /// its id-limit warnings) and the engine's own limits
    /// ([`Engine::limits`]) as errors, with what the engine does (refuses
    /// the model, ignores skins, draws nothing, maps the skin wrong). An
    /// empty list means the model loads as it is.
    ///
    /// ```
    /// use retromodel::md2::{sample::sample_model, Engine};
    /// let mut model = sample_model();
    /// assert!(model.validate_for(Engine::Q2pro).is_empty());
    /// model.skin_height = 500;
    /// let problems = model.validate_for(Engine::Quake2);
    /// assert!(problems.iter().any(|p| p.path == "header.skin_height"));
    /// assert!(model.validate_for(Engine::Q2pro).is_empty());
    /// ```
    ///
    /// An engine that does not load MD2 files (vkQuake ...) gives one
    /// error saying so; FTE, which loads them but whose MD2 loader is not
    /// profiled, gives the structural problems and a warning saying its
    /// limits were not checked.
    pub fn validate_for(&self, engine: Engine) -> Vec<Problem> {
        let mut c = Collector::default();
        // GZDoom: its own checks, on the file this model writes.
        // GZDoom refuses only what `gzdoom_problems` says; the rest of the
        // structure's problems are what it would read wrong: warnings.
        if engine == Engine::Gzdoom {
            for p in self.validate_structure() {
                c.push(crate::Severity::Warning, p.path, p.message, p.offset);
            }
            if let Ok(bytes) = self.to_bytes() {
                for p in super::gzdoom_problems(&bytes) {
                    c.push(p.severity, p.path, p.message, p.offset);
                }
            }
            return c.finish();
        }
        if !engine.loads(crate::EngineFormat::Md2) {
            c.error(
                "format",
                engine.does_not_load(crate::EngineFormat::Md2),
                None,
            );
            return c.finish();
        }
        for p in self.validate_structure() {
            c.push(p.severity, p.path, p.message, p.offset);
        }
        if engine.md2_limits().is_some() {
            check_engine(self, engine, &mut c);
        } else {
            c.warn(
                "format",
                format!(
                    "{} loads MD2 files, but its MD2 limits are not known here: only the file itself was checked",
                    engine.sentence_title()
                ),
                None,
            );
        }
        c.finish()
    }
}

fn check_engine(model: &Md2, engine: Engine, c: &mut Collector) {
    let l = engine.limits();
    let name = engine.title();
    let mut over = |path: &str, what: &str, count: usize, max: usize, offset: u64| {
        if count > max {
            c.error(
                path,
                format!(
                    "{count} {what} exceed {name}'s limit of {max} (by {}): it refuses the model",
                    count - max
                ),
                Some(offset),
            );
        }
    };
    over(
        "header.num_vertices",
        "vertices",
        model.num_vertices,
        l.max_vertices,
        24,
    );
    over(
        "header.num_triangles",
        "triangles",
        model.triangles.len(),
        l.max_triangles,
        32,
    );
    over(
        "header.num_frames",
        "frames",
        model.frames.len(),
        l.max_frames,
        40,
    );
    if let Some(max) = l.max_render_vertices {
        let n = render_vertex_count(model);
        if n > max {
            c.error(
                "triangles",
                format!(
                    "{n} distinct (vertex, texture coordinate) corners exceed {name}'s limit of {max} (by {}): it refuses the model",
                    n - max
                ),
                None,
            );
        }
    }
    let skins = model.skins.len();
    if skins > l.max_skins {
        let what = if engine == Engine::Yquake2 {
            "ignores the rest"
        } else {
            "refuses the model"
        };
        c.push(
            if engine == Engine::Yquake2 {
                crate::Severity::Warning
            } else {
                crate::Severity::Error
            },
            "header.num_skins".into(),
            format!(
                "{skins} skins exceed {name}'s limit of {} (by {}): it {what}",
                l.max_skins,
                skins - l.max_skins
            ),
            Some(20),
        );
    }
    if skins < l.min_skins {
        c.error(
            "header.num_skins",
            format!("{name} needs at least {} skin name", l.min_skins),
            Some(20),
        );
    }
    let h = model.layout_offsets();
    for (i, s) in model.skins.iter().enumerate() {
        let len = s.as_bytes().len();
        if len > l.max_skin_name {
            c.error(
                format!("skins[{i}]"),
                format!(
                    "skin name of {len} bytes exceeds {name}'s {} bytes and a NUL",
                    l.max_skin_name
                ),
                u64::try_from(h.ofs_skins).ok().map(|o| o + 64 * i as u64),
            );
        }
    }
    if let Some(max) = l.max_skin_height.filter(|&m| model.skin_height > m) {
        c.error(
            "header.skin_height",
            format!(
                "skin height {} exceeds {name}'s limit of {max} (by {}): it refuses the model",
                model.skin_height,
                model.skin_height - max
            ),
            Some(12),
        );
    }
    if let Some(max) = l.max_skin_width.filter(|&m| model.skin_width > m) {
        c.error(
            "header.skin_width",
            format!(
                "skin width {} exceeds {name}'s limit of {max} (by {}): it cannot load the skin",
                model.skin_width,
                model.skin_width - max
            ),
            Some(8),
        );
    }
    // Q2PRO's MOD_ValidateMD2 ("Bad skin width", "Bad skin height") and
    // UFO:AI's R_ModLoadAliasMD2MeshUnindexed ("invalid skin dimensions")
    // refuse a skin size below 1; id's, yquake2's and KMQuake2's loaders
    // divide by it (texture coordinates come out infinite).
    if matches!(engine, Engine::Q2pro | Engine::UfoAi)
        && (model.skin_width < 1 || model.skin_height < 1)
    {
        c.error(
            "header.skin_width",
            format!(
                "skin size {}×{} is not positive: {name} refuses the model",
                model.skin_width, model.skin_height
            ),
            Some(8),
        );
    }
    if l.square_skin && model.skin_width != model.skin_height && model.skin_width > 0 {
        c.warn(
            "header.skin_height",
            format!(
                "skin {}×{} is not square: {name} divides t by the skin width, so the skin maps wrong",
                model.skin_width, model.skin_height
            ),
            Some(12),
        );
    }
    if model.num_vertices < l.min_vertices && !model.frames.is_empty() {
        c.error(
            "header.num_vertices",
            format!(
                "{} vertices: {name} draws models with fewer than {} as nothing",
                model.num_vertices, l.min_vertices
            ),
            Some(24),
        );
    }
    // Q2PRO's MOD_LoadMD2 skips triangles with an index out of range and
    // refuses a model left without one ("Too few valid indices").
    let valid = |t: &&super::Triangle| {
        t.vertices
            .iter()
            .all(|&v| usize::from(v) < model.num_vertices)
            && t.texcoords
                .iter()
                .all(|&s| usize::from(s) < model.texcoords.len())
    };
    if engine == Engine::Q2pro
        && !model.triangles.is_empty()
        && !model.triangles.iter().any(|t| valid(&t))
    {
        c.error(
            "triangles",
            format!("no triangle has all its indices in range: {name} refuses the model (\"Too few valid indices\")"),
            None,
        );
    }
    if engine == Engine::Q2pro {
        q2pro_hunks(model, valid, c);
    }
    if model.triangles.is_empty() {
        c.error(
            "header.num_triangles",
            format!("the model has no triangles: {name} refuses or skips it"),
            Some(32),
        );
    }
    if model.texcoords.is_empty() {
        c.error(
            "header.num_texcoords",
            format!("the model has no texture coordinates: {name} refuses or skips it"),
            Some(28),
        );
    }
    if let Some(max) = l.max_file_size {
        let size = file_size(model);
        if size > max as u64 {
            c.error(
                "header.ofs_end",
                format!(
                    "the file is {size} bytes, over {name}'s {max} (by {}): it runs out of model memory",
                    size - max as u64
                ),
                Some(HEADER_SIZE as u64 - 4),
            );
        }
    }
}

/// Q2PRO's model memory (see `q2pro_memory`): a model over the GPU-lerp
/// path's vertex hunk fails to load in every renderer (an error); one
/// over only the CPU-lerp path's hunk loads in the default GLSL renderer
/// on OpenGL 4.3 but not with `gl_shaders 0` or older OpenGL (a warning
/// naming both).
fn q2pro_hunks(model: &Md2, valid: impl Fn(&&super::Triangle) -> bool, c: &mut Collector) {
    use super::q2pro_memory::{q2pro_memory, CPU_HUNK, GPU_HUNK};
    let triangles = model.triangles.iter().filter(|t| valid(t)).count();
    let memory = q2pro_memory(model, render_vertex_count(model), triangles);
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    if memory.gpu_vertices > GPU_HUNK {
        c.error(
            "header.num_frames",
            format!(
                "its frames need {:.1} MiB of vertex memory, over Q2PRO's {:.0} MiB (MOD_MAXSIZE_GPU): Q2PRO refuses the model in every renderer; use fewer frames or vertices",
                mib(memory.gpu_vertices),
                mib(GPU_HUNK)
            ),
            Some(40),
        );
    } else if memory.cpu > CPU_HUNK {
        c.warn(
            "header.num_frames",
            format!(
                "needs {:.1} MiB of model memory: Q2PRO loads it with GPU interpolation only (its default GLSL renderer on OpenGL 4.3 or newer, {:.0} MiB), not in its compatibility path (gl_shaders 0, or older OpenGL: {:.0} MiB, MOD_MAXSIZE_CPU)",
                mib(memory.cpu),
                mib(GPU_HUNK),
                mib(CPU_HUNK)
            ),
            Some(40),
        );
    }
}

/// The size of the model written in the standard layout.
pub(crate) fn file_size(model: &Md2) -> u64 {
    let h = super::write::standard_header(model);
    u64::try_from(h.ofs_end).unwrap_or(u64::MAX) + model.trailing.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::sample::sample_model;

    #[test]
    fn names_round_trip() {
        for e in Engine::MD2 {
            assert_eq!(Engine::from_name(e.name()), Some(e));
        }
        assert_eq!(Engine::from_name("Q2PRO"), Some(Engine::Q2pro));
        assert_eq!(Engine::from_name("doom"), None);
    }

    #[test]
    fn each_limit_is_reported_with_by_how_much() {
        let mut m = sample_model();
        m.skin_width = 700;
        let p = m.validate_for(Engine::Quake2);
        let w = p.iter().find(|p| p.path == "header.skin_width").unwrap();
        assert!(w.message.contains("by 60"), "{}", w.message);
        assert!(m.validate_for(Engine::Yquake2).is_empty());
        // UFO:AI: a square skin, and at least one skin name.
        let mut m = sample_model();
        let p = m.validate_for(Engine::UfoAi);
        assert!(p.iter().any(|p| p.path == "header.skin_height"), "{p:?}");
        m.skins.clear();
        m.skin_height = m.skin_width;
        let p = m.validate_for(Engine::UfoAi);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path, "header.num_skins");
    }

    #[test]
    fn an_engine_without_md2_says_so_in_one_error() {
        let m = sample_model();
        for e in Engine::MDL {
            let p = m.validate_for(e);
            if e == Engine::Fte {
                // FTE loads MD2 files: the model's own problems (none)
                // and a warning that FTE's limits were not checked.
                assert_eq!(p.len(), 1, "{p:?}");
                assert_eq!(p[0].severity, crate::Severity::Warning);
                continue;
            }
            assert_eq!(p.len(), 1, "{e}: {p:?}");
            assert_eq!(p[0].severity, crate::Severity::Error);
            assert_eq!(p[0].path, "format");
            assert!(
                p[0].message
                    .starts_with(&format!("{} does not load MD2 files", e.sentence_title())),
                "{}",
                p[0].message
            );
        }
    }
}
