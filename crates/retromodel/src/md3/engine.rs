//! What each engine's MD3 loader accepts: [`Md3EngineLimits`] and
//! [`Md3::validate_for`] ("will this load in that engine?").
//!
//! Every number is taken from the engine's own loader, cited by file and
//! function. Read: ioquake3 5956299e (2026-03-09), whose two renderers
//! (`code/renderergl1/tr_model.c` and `code/renderergl2/tr_model.c`) load
//! MD3 with the same checks in `R_LoadMD3`.
//!
//! ioquake3's loader checks little: the version (the reader already
//! refuses any but 15), at least one frame, and per surface fewer than
//! `SHADER_MAX_VERTEXES` (1000) vertices and fewer than
//! `SHADER_MAX_INDEXES` (6000) indices (`code/qcommon/qfiles.h`). It
//! refuses the model for each (a warning, and the model is not drawn;
//! with LODs, the lower LODs are kept). The `MD3_MAX_*` limits of
//! `qfiles.h` (4096 vertices, 8192 triangles, 256 shaders, 1024 frames,
//! 32 surfaces, 16 tags) are not checked by the renderer; they are
//! `q3data`'s and [`Md3::validate`] reports them as warnings. Offsets are
//! followed with no check at all.

use super::read::HEADER_FIELDS;
use super::validate::surface_field;
use super::Md3;
use crate::problem::{Collector, Problem};

pub use crate::engine::Engine;

/// `SHADER_MAX_VERTEXES` (ioquake3 `code/qcommon/qfiles.h`).
pub const SHADER_MAX_VERTEXES: usize = 1000;
/// `SHADER_MAX_INDEXES` (`6 * SHADER_MAX_VERTEXES`).
pub const SHADER_MAX_INDEXES: usize = 6 * SHADER_MAX_VERTEXES;

/// The limits of one engine's MD3 loader ([`Engine::md3_limits`]). A
/// model past any of them is not loaded. `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Md3EngineLimits {
    /// Fewest frames.
    pub min_frames: usize,
    /// Most frames.
    pub max_frames: Option<usize>,
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
}

/// ioquake3's `R_LoadMD3` (both renderers): "has no frames" when
/// `numFrames < 1`; "has more than 999 verts" when `numVerts >=
/// SHADER_MAX_VERTEXES`; "has more than 1999 triangles" when
/// `numTriangles * 3 >= SHADER_MAX_INDEXES`. Each returns `qfalse`.
pub const IOQUAKE3: Md3EngineLimits = Md3EngineLimits {
    min_frames: 1,
    max_frames: None,
    max_surfaces: None,
    max_tags: None,
    max_vertices: Some(SHADER_MAX_VERTEXES - 1),
    max_triangles: Some(SHADER_MAX_INDEXES / 3 - 1),
    max_shaders: None,
};

impl Engine {
    /// The limits of the engine's MD3 loader, or `None` when it loads no
    /// MD3 (or its loader is not profiled).
    pub fn md3_limits(self) -> Option<Md3EngineLimits> {
        match self {
            Engine::Ioquake3 => Some(IOQUAKE3),
            _ => None,
        }
    }
}

impl Md3 {
    /// The problems that keep `engine` from loading the model: one error
    /// per limit passed, naming the count and the limit, or one error when
    /// the engine loads no MD3.
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
        let mut c = Collector::default();
        let Some(l) = engine.md3_limits() else {
            c.error(
                "format",
                engine.does_not_load(crate::EngineFormat::Md3),
                Some(0),
            );
            return c.finish();
        };
        let name = engine.title();
        let header = |f: &str| HEADER_FIELDS.iter().find(|(n, _)| *n == f).map(|(_, o)| *o);
        let over =
            |c: &mut Collector, path: String, n: usize, max: Option<usize>, what: &str, at| {
                if let Some(max) = max.filter(|&m| n > m) {
                    c.error(
                        path,
                        format!(
                        "{n} {what}, more than {name}'s {max} by {}: it does not load the model",
                        n - max
                    ),
                        at,
                    );
                }
            };
        if self.frames.len() < l.min_frames {
            c.error(
                "header.num_frames",
                format!(
                    "{} frames: {name} does not load a model without frames",
                    self.frames.len()
                ),
                header("num_frames"),
            );
        }
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
        for ((i, s), start) in self.surfaces.iter().enumerate().zip(self.surface_starts()) {
            let at = |f: &str| start.map(|b| b + surface_field(f));
            let p = |f: &str| format!("surfaces[{i}].{f}");
            over(
                &mut c,
                p("num_verts"),
                s.vertex_count(),
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
        }
        c.finish()
    }
}
