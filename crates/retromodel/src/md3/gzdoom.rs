//! An MD3 as GZDoom loads it (`src/common/models/models_md3.cpp`,
//! `FMD3Model::Load`, `LoadGeometry`, `BuildVertexBuffer`, `RenderFrame`;
//! read at g4.15pre-645): it never refuses an MD3 (no count, offset or
//! version is checked), so everything here is a warning about what would
//! crash or misdraw.

use super::Md3;
use crate::problem::{Collector, Problem};

/// `MD3_MAX_SURFACES` (`src/common/models/model.h`): the surfaces a
/// MODELDEF model index has `SurfaceSkin` slots for.
pub const GZDOOM_MAX_SURFACES: usize = 32;

/// The longest frame name GZDoom keeps terminated: `FMD3Model::Load`
/// copies 15 characters (`strncpy`) into a 16-byte buffer it never
/// clears.
pub const GZDOOM_MAX_FRAME_NAME: usize = 14;

impl Md3 {
    /// Every problem GZDoom has with this MD3 (all warnings: it loads
    /// every MD3):
    ///
    /// - more than 32 surfaces: `RenderFrame` reads `surfaceskinIDs` past
    ///   the 32 a model has (`MD3_MAX_SURFACES`);
    /// - a triangle index not below its surface's vertex count
    ///   (`BuildVertexBuffer` copies them unchecked);
    /// - a surface with fewer frames than the header: GZDoom reads the
    ///   header's frame count of vertices from every surface
    ///   (`LoadGeometry`);
    /// - a frame name over 14 characters (`Load`: `strncpy(..., 15)` into an
    ///   unterminated buffer; `FindFrame` compares it with `stricmp`);
    /// - no frames (`RenderFrame` draws nothing);
    /// - a surface without a shader: not drawn unless MODELDEF gives it a
    ///   `Skin` or `SurfaceSkin`.
    ///
    /// ```
    /// use retromodel::md3::Md3;
    /// assert!(!Md3::default().validate_for_gzdoom().is_empty()); // no frames
    /// ```
    pub fn validate_for_gzdoom(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        if self.frames.is_empty() {
            c.warn("header.num_frames", "no frames: GZDoom draws nothing", None);
        }
        if self.surfaces.len() > GZDOOM_MAX_SURFACES {
            c.warn(
                "header.num_surfaces",
                format!(
                    "{} surfaces, more than GZDoom's {GZDOOM_MAX_SURFACES} (MD3_MAX_SURFACES): it reads the skins of the rest past its array (wrong skins or a crash)",
                    self.surfaces.len()
                ),
                None,
            );
        }
        for (f, frame) in self.frames.iter().enumerate() {
            let name = frame.name.to_string_lossy();
            if name.len() > GZDOOM_MAX_FRAME_NAME {
                c.warn(
                    format!("frames[{f}].name"),
                    format!("{name:?}: {} characters; GZDoom copies 15 into an unterminated buffer, so keep {GZDOOM_MAX_FRAME_NAME} at most", name.len()),
                    None,
                );
            }
        }
        for (s, surface) in self.surfaces.iter().enumerate() {
            let verts = surface.vertex_count();
            if let Some((t, tri)) = surface
                .triangles
                .iter()
                .enumerate()
                .find(|(_, tri)| tri.iter().any(|&i| i < 0 || i as usize >= verts))
            {
                c.warn(
                    format!("surfaces[{s}].triangles[{t}]"),
                    format!("{tri:?}: an index not below the surface's {verts} vertices, which GZDoom reads unchecked (a crash or garbage)"),
                    None,
                );
            }
            if surface.xyz_normals.len() < verts * self.frames.len() {
                c.warn(
                    format!("surfaces[{s}].num_frames"),
                    format!(
                        "{} vertex positions for {verts} vertices in {} frames: GZDoom reads every frame the header counts from each surface, past this one's data",
                        surface.xyz_normals.len(),
                        self.frames.len()
                    ),
                    None,
                );
            }
            if surface
                .shaders
                .first()
                .is_none_or(|sh| sh.name.to_string_lossy().is_empty())
            {
                c.warn(
                    format!("surfaces[{s}].shaders"),
                    "no shader: GZDoom draws this surface only with a MODELDEF Skin or SurfaceSkin line",
                    None,
                );
            }
        }
        c.finish()
    }
}
