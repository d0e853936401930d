//! Finishing a baked scene on its grids: quantising, welding, and the
//! model's layout, frames and GL commands put together.

use super::frames::{first_copies, FrameMaker};
use super::prepared::Prepared;

use super::{bake, CompileOptions, CompileWarning, Compiled, FrameGrid};
use crate::error::Result;
use crate::md2::gl_commands;

impl Prepared<'_> {
    pub(super) fn finish(
        mut self,
        grids: &[FrameGrid],
        clamp_reported: bool,
        options: &CompileOptions,
    ) -> Result<Compiled> {
        let frames = self.plan.frame_count();
        let n = self.source.vertices.len();
        // Quantise (unless checking the MD2 record did), with the error
        // report.
        let (bytes, errors) = match self.md2_bytes.take() {
            Some(done) if self.md2.is_some() => done,
            _ => bake::quantize_all(&self.positions, n, grids),
        };
        let (reports, clamped) = self.reports(&errors);
        if clamp_reported && clamped > 0 {
            self.warnings
                .push(CompileWarning::PositionsClamped { positions: clamped });
        }
        let (vertex_of, num_vertices) = self.weld(&bytes, frames);
        let layout = self.layout(&vertex_of, num_vertices, options)?;
        let mut model = layout.model;
        let first_copy = first_copies(&vertex_of, num_vertices);
        let maker = FrameMaker {
            vertex_of: &vertex_of,
            first_copy: &first_copy,
            triangles: &model.triangles,
        };
        // The GL commands need only the triangles and texture coordinates:
        // they are built on a second thread while the frames are made.
        // Building them costs about 50 times a position's work per
        // triangle (ten runs over the mesh), which counts towards whether
        // two threads pay.
        let (gl_commands, frames) = crate::parallel::join(
            self.positions.len() + 50 * model.triangles.len(),
            || gl_commands::build(&model),
            || self.frames(&maker, &bytes, grids, &layout.names),
        );
        model.gl_commands = gl_commands;
        model.frames = frames?;
        if let Some(s) = &self.md2 {
            s.restore(&mut model.frames);
        }
        self.conclude(model, layout.skin, reports, &vertex_of, options)
    }

    /// Per used vertex its MD2 vertex, and how many there are.
    pub(super) fn weld(&self, bytes: &[[u8; 3]], frames: usize) -> (Vec<u32>, usize) {
        let n = self.source.vertices.len();
        if let Some(s) = &self.md2 {
            let of = self
                .source
                .vertices
                .iter()
                .map(|&(_, i)| s.vertex_of.get(i as usize).copied().unwrap_or(0))
                .collect();
            return (of, s.num_vertices);
        }
        crate::bake::weld::by_trajectory(bytes, n, frames)
    }
}
