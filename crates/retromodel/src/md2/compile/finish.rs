//! Finishing a baked scene on its grids: quantising, welding, and the
//! model's layout, frames and GL commands put together.

use super::frames::{first_copies, FrameMaker};
use super::prepared::Prepared;
use super::tally::{ErrorTally, FrameErrors, LaneTally};
use super::{grid, CompileOptions, CompileWarning, Compiled, FrameGrid};
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
            _ => {
                let pieces = crate::parallel::ranges(
                    frames,
                    crate::parallel::pieces(frames, self.positions.len()),
                );
                let quantized = crate::parallel::map(pieces, |range| {
                    let positions = &self.positions[range.start * n..range.end * n];
                    quantize_frames(positions, n, &grids[range])
                });
                let mut bytes = Vec::with_capacity(self.positions.len());
                let mut errors = Vec::with_capacity(frames);
                for (b, e) in quantized {
                    bytes.extend_from_slice(&b);
                    errors.extend(e);
                }
                (bytes, errors)
            }
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

/// The bytes of frames of `n` positions each (frame `f` on `grids[f]`)
/// and each frame's errors.
fn quantize_frames(
    positions: &[[f32; 3]],
    n: usize,
    grids: &[FrameGrid],
) -> (Vec<[u8; 3]>, Vec<FrameErrors>) {
    let mut bytes = Vec::with_capacity(positions.len());
    let mut errors = Vec::with_capacity(grids.len());
    if n == 0 {
        return (
            bytes,
            grids.iter().map(|g| ErrorTally::new(g).finish()).collect(),
        );
    }
    let mut frame_bytes = Vec::with_capacity(n);
    for (frame, grid) in positions.chunks_exact(n).zip(grids) {
        let mut tally = ErrorTally::new(grid);
        let mut lanes = LaneTally::<true>::new(&tally);
        grid::quantize_fast(grid, frame, &mut frame_bytes, |x, d, used| {
            lanes.add(x, d, used)
        });
        lanes.add_to(&mut tally);
        bytes.extend_from_slice(&frame_bytes);
        errors.push(tally.finish());
    }
    (bytes, errors)
}
