//! Compiling onto a scene's MD2 record: whether its grids and vertices
//! still fit what was baked, and the one-pass compile on them.

use super::frames::{first_copies, FrameMaker, FrameScratch};
use super::prepared::Prepared;
use super::tally::{ErrorTally, FrameErrors, LaneTally};
use super::{bake, grid, source, CompileOptions, CompileWarning, Compiled};
use crate::error::Result;
use crate::md2::{gl_commands, Frame, FrameName};

impl Prepared<'_> {
    /// Keeps the scene's MD2 record only if it fits what was baked: as
    /// many frames, and every MD2 vertex's scene copies quantising to the
    /// same bytes within half a step of the recorded grids.
    pub(super) fn try_md2_source(&mut self) {
        let Some(s) = &self.md2 else { return };
        let frames = self.plan.frame_count();
        let reason = if s.frames.len() != frames {
            Some(format!(
                "it records {} frames, the compile makes {frames}",
                s.frames.len()
            ))
        } else if self.scale != 1.0 {
            Some("the model is scaled".to_string())
        } else {
            match self.md2_mismatch(s) {
                Ok(bytes) => {
                    self.md2_bytes = Some(bytes);
                    None
                }
                Err(reason) => Some(reason),
            }
        };
        if let Some(reason) = reason {
            self.warnings
                .push(CompileWarning::Md2SourceIgnored { reason });
            self.md2 = None;
        }
    }

    /// Why the record does not fit, or the bytes of every position on its
    /// grids with each frame's errors.
    #[allow(clippy::type_complexity)]
    fn md2_mismatch(
        &self,
        s: &source::Md2Source,
    ) -> std::result::Result<(Vec<[u8; 3]>, Vec<FrameErrors>), String> {
        if self.source.vertices.iter().any(|&(mesh, _)| mesh != s.mesh) {
            return Err("a mesh without MD2 vertices".to_string());
        }
        let n = self.source.vertices.len();
        let later = self.later_copies(s)?;
        // Frames are checked in pieces at once; the first failure in frame
        // order is the one reported.
        let pieces = crate::parallel::ranges(
            s.frames.len(),
            crate::parallel::pieces(s.frames.len(), self.positions.len()),
        );
        let checked = crate::parallel::map(pieces, |range| {
            let mut bytes = Vec::with_capacity(range.len() * n);
            let mut errors = Vec::with_capacity(range.len());
            let mut frame_bytes = Vec::with_capacity(n);
            for f in range {
                let positions = &self.positions[f * n..(f + 1) * n];
                errors.push(self.md2_frame_bytes(s, f, positions, &later, &mut frame_bytes)?);
                bytes.extend_from_slice(&frame_bytes);
            }
            Ok::<_, String>((bytes, errors))
        });
        let mut bytes = Vec::with_capacity(self.positions.len());
        let mut errors = Vec::with_capacity(s.frames.len());
        for piece in checked {
            let (b, e) = piece?;
            bytes.extend_from_slice(&b);
            errors.extend(e);
        }
        Ok((bytes, errors))
    }

    /// The used vertices that are not the first copy of their MD2 vertex
    /// of record `s`, each with that first copy, in order; or why the
    /// record does not fit the used vertices (one is outside it, or one of
    /// its MD2 vertices has no used copy: no triangle uses it).
    fn later_copies(&self, s: &source::Md2Source) -> std::result::Result<Vec<(u32, u32)>, String> {
        let mut first_of_md2 = vec![u32::MAX; s.num_vertices];
        let mut later = Vec::new();
        for (u, &(_, i)) in self.source.vertices.iter().enumerate() {
            let first = s
                .vertex_of
                .get(i as usize)
                .and_then(|&v| first_of_md2.get_mut(v as usize))
                .ok_or_else(|| "a vertex outside the record".to_string())?;
            if *first == u32::MAX {
                *first = u as u32;
            } else {
                later.push((u as u32, *first));
            }
        }
        let lost = |(v, &first): (usize, &u32)| first == u32::MAX && !s.is_unused(v);
        if first_of_md2.iter().enumerate().any(lost) {
            return Err("an MD2 vertex is in no triangle".to_string());
        }
        Ok(later)
    }

    /// Frame `f`'s bytes on its recorded grid (into `frame_bytes`, per
    /// used vertex) and its errors, or why they do not fit the record: a
    /// position off the grid, or copies of an MD2 vertex (`later`, from
    /// [`Prepared::later_copies`]) with different bytes.
    fn md2_frame_bytes(
        &self,
        s: &source::Md2Source,
        f: usize,
        positions: &[[f32; 3]],
        later: &[(u32, u32)],
        frame_bytes: &mut Vec<[u8; 3]>,
    ) -> std::result::Result<FrameErrors, String> {
        let off_grid = || format!("frame {f}: a vertex lies off its recorded grid (moved since?)");
        let g = &s.frames[f].grid;
        // A scene made from the MD2 sits on the grid up to f32 noise, or,
        // through a `--quantize`d glTF, up to that grid's step (1/65535 of
        // the model's extent, which is a sizeable part of an MD2 step on an
        // axis where a frame is flat); more than a quarter step was moved.
        let axes: [grid::OnGrid; 3] =
            std::array::from_fn(|k| grid::OnGrid::new(g.scale[k], g.translate[k], 0.25));
        // Every coordinate at once when all are plainly on the grid (the
        // usual case); else one by one, which finds the one that is not.
        let mut tally = ErrorTally::new(g);
        let mut lanes = LaneTally::<false>::new(&tally);
        if grid::on_grid_fast(&axes, positions, frame_bytes, |x, d, lanes_used| {
            lanes.add(x, d, lanes_used)
        }) {
            lanes.add_to(&mut tally);
        } else {
            frame_bytes.clear();
            for p in positions {
                let (Some((b0, d0)), Some((b1, d1)), Some((b2, d2))) =
                    (axes[0].byte(p[0]), axes[1].byte(p[1]), axes[2].byte(p[2]))
                else {
                    return Err(off_grid());
                };
                frame_bytes.push([b0, b1, b2]);
                tally.add(p, [d0, d1, d2]);
            }
        }
        for &(u, first) in later {
            let (b, first_b) = (frame_bytes.get(u as usize), frame_bytes.get(first as usize));
            if b.is_none() || b != first_b {
                let v = self
                    .source
                    .vertices
                    .get(u as usize)
                    .and_then(|&(_, i)| s.vertex_of.get(i as usize))
                    .copied()
                    .unwrap_or(u32::MAX);
                return Err(format!("frame {f}: copies of MD2 vertex {v} differ"));
            }
        }
        Ok(tally.finish())
    }

    /// Whether the MD2 record can be checked while posing (see
    /// [`Prepared::compile_on_record`]): the record is wanted, has as
    /// many frames as the plan and nothing scales the positions.
    pub(super) fn record_fits_unposed(&self, options: &CompileOptions) -> bool {
        self.md2
            .as_ref()
            .is_some_and(|s| s.frames.len() == self.plan.frame_count())
            && options.scale.is_none_or(|s| s == 1.0)
            && options.fit_height.is_none()
    }

    /// Compiles onto the scene's MD2 record (its grids and vertices) in
    /// one pass: each frame is posed, checked against its recorded grid
    /// and made into an MD2 frame at once, while the GL commands are
    /// built on another thread (the record fixes the vertices, so they
    /// need not wait for the frames). `Ok(Err(reason))` when the record
    /// does not fit what was posed, with `self` as it was; the compile
    /// then goes on without the record.
    #[allow(clippy::type_complexity)]
    pub(super) fn compile_on_record(
        mut self,
        options: &CompileOptions,
    ) -> Result<std::result::Result<Compiled, (Self, String)>> {
        let Some(s) = self.md2.clone() else {
            return Ok(Err((self, "no MD2 record".to_string())));
        };
        if self.source.vertices.iter().any(|&(mesh, _)| mesh != s.mesh) {
            return Ok(Err((self, "a mesh without MD2 vertices".to_string())));
        }
        let later = match self.later_copies(&s) {
            Ok(later) => later,
            Err(reason) => return Ok(Err((self, reason))),
        };
        let warnings_before = self.warnings.len();
        let (vertex_of, num_vertices) = self.weld(&[], s.frames.len());
        let first_copy = first_copies(&vertex_of, num_vertices);
        let layout = self.layout(&vertex_of, num_vertices, options)?;
        let mut model = layout.model;
        let maker = FrameMaker {
            vertex_of: &vertex_of,
            first_copy: &first_copy,
            triangles: &model.triangles,
        };
        let this = &self;
        let n = this.source.vertices.len();
        let (gl_commands, made) = crate::parallel::join(
            s.frames.len() * n + 50 * model.triangles.len(),
            || gl_commands::build(&model),
            || this.frames_on_record(&s, &later, &maker, &layout.names),
        );
        let (frames, errors) = match made? {
            // Half a step is what a compile promises (`AnimationReport::
            // max_step_fraction`): a record whose grids are finer than the
            // scene's numbers can tell apart (a corrupt frame's subnormal
            // step) cannot keep it, though within the check's f32 slack.
            Ok((_, errors)) if errors.iter().any(|e| e.max_step_fraction > 0.5 + 1e-3) => {
                self.warnings.truncate(warnings_before);
                let reason = "positions more than half a step from the recorded grids";
                return Ok(Err((self, reason.to_string())));
            }
            Ok(made) => made,
            Err(reason) => {
                self.warnings.truncate(warnings_before);
                return Ok(Err((self, reason)));
            }
        };
        model.gl_commands = gl_commands;
        model.frames = frames;
        s.restore(&mut model.frames);
        let (reports, _) = self.reports(&errors);
        self.conclude(model, layout.skin, reports, &vertex_of, options)
            .map(Ok)
    }

    /// Every frame posed, checked against the record `s` and made, with
    /// its errors; `Ok(Err(reason))` for the first frame (in frame order)
    /// that does not fit the record.
    #[allow(clippy::type_complexity)]
    fn frames_on_record(
        &self,
        s: &source::Md2Source,
        later: &[(u32, u32)],
        maker: &FrameMaker,
        names: &[FrameName],
    ) -> Result<std::result::Result<(Vec<Frame>, Vec<FrameErrors>), String>> {
        let frames = s.frames.len();
        let n = self.source.vertices.len();
        let pieces = crate::parallel::ranges(frames, crate::parallel::pieces(frames, frames * n));
        let made = crate::parallel::map(pieces, |range| {
            let mut out = Vec::with_capacity(range.len());
            let mut failed = None;
            let mut bytes = Vec::with_capacity(n);
            let mut sums = FrameScratch::default();
            let posed = bake::for_frames(
                self.scene,
                &self.plan,
                &self.source,
                true,
                range,
                |f, p, normals| {
                    if failed.is_some() {
                        return;
                    }
                    match self.md2_frame_bytes(s, f, p, later, &mut bytes) {
                        Ok(errors) => {
                            let grid = s.frames[f].grid;
                            let frame =
                                maker.frame::<false>(grid, names[f], p, normals, &bytes, &mut sums);
                            out.push((frame, errors));
                        }
                        Err(reason) => failed = Some(reason),
                    }
                },
            );
            posed.map(|()| match failed {
                Some(reason) => Err(reason),
                None => Ok(out),
            })
        });
        let mut frames_out = Vec::with_capacity(frames);
        let mut errors = Vec::with_capacity(frames);
        for piece in made {
            match piece? {
                Ok(piece) => {
                    for (f, e) in piece {
                        frames_out.push(f);
                        errors.push(e);
                    }
                }
                Err(reason) => return Ok(Err(reason)),
            }
        }
        Ok(Ok((frames_out, errors)))
    }
}
