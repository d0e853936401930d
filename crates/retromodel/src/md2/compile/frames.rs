//! Frame making: MD2 frames from posed frames, each MD2 vertex with its
//! first copy's bytes and the table normal nearest its copies' normals.

use glam::Vec3;

use super::prepared::Prepared;
use super::{bake, FrameGrid};
use crate::error::Result;
use crate::md2::{nearest_normal_index, Frame, FrameName, PackedVertex, Triangle};

impl Prepared<'_> {
    /// The frames: positions from the welded bytes, normals from the
    /// kept poses (or a second pass over them).
    pub(super) fn frames(
        &self,
        maker: &FrameMaker,
        bytes: &[[u8; 3]],
        grids: &[FrameGrid],
        names: &[FrameName],
    ) -> Result<Vec<Frame>> {
        let n = self.source.vertices.len();
        let frames = self.plan.frame_count();
        let frame_bytes = |f: usize| &bytes[f * n..(f + 1) * n];
        match &self.normals {
            // Normals kept: frames in pieces at once.
            Some(normals) if n > 0 => {
                let pieces = crate::parallel::ranges(
                    frames,
                    crate::parallel::pieces(frames, self.positions.len()),
                );
                let made = crate::parallel::map(pieces, |range| {
                    let mut sums = FrameScratch::default();
                    range
                        .map(|f| {
                            let (p, normals) = (
                                &self.positions[f * n..(f + 1) * n],
                                &normals[f * n..(f + 1) * n],
                            );
                            maker.frame::<true>(
                                grids[f],
                                names[f],
                                p,
                                normals,
                                frame_bytes(f),
                                &mut sums,
                            )
                        })
                        .collect::<Vec<_>>()
                });
                Ok(made.into_iter().flatten().collect())
            }
            _ => {
                let mut out_frames: Vec<Frame> = Vec::with_capacity(frames);
                let mut sums = FrameScratch::default();
                bake::for_each_frame(self.scene, &self.plan, &self.source, true, |f, p, nrm| {
                    // Positions for face normals at this frame's scale.
                    out_frames.push(maker.frame::<true>(
                        grids[f],
                        names[f],
                        p,
                        nrm,
                        frame_bytes(f),
                        &mut sums,
                    ));
                })?;
                Ok(out_frames)
            }
        }
    }
}

/// Per MD2 vertex, its first used vertex (`usize::MAX` for none).
pub(super) fn first_copies(vertex_of: &[u32], num_vertices: usize) -> Vec<usize> {
    let mut first_copy = vec![usize::MAX; num_vertices];
    for (u, &v) in vertex_of.iter().enumerate() {
        if let Some(slot) = first_copy.get_mut(v as usize) {
            if *slot == usize::MAX {
                *slot = u;
            }
        }
    }
    first_copy
}

/// Makes MD2 frames from posed frames: each MD2 vertex takes its first
/// copy's bytes and the table normal nearest to the sum of its copies'
/// normals (or, where that sum is zero, of the faces around it).
pub(super) struct FrameMaker<'a> {
    /// Per used vertex, its MD2 vertex.
    pub(super) vertex_of: &'a [u32],
    /// Per MD2 vertex, its first used vertex (`usize::MAX` for an unused
    /// vertex of an MD2 record).
    pub(super) first_copy: &'a [usize],
    /// The model's triangles.
    pub(super) triangles: &'a [Triangle],
}

/// Reused buffers of [`FrameMaker::frame`], for frames made one after
/// another.
#[derive(Default)]
pub(super) struct FrameScratch {
    sums: Vec<Vec3>,
    faces: Vec<Vec3>,
    /// Per MD2 vertex, the last normal sum it had (as bits) and the table
    /// normal that sum gave ([`NO_NORMAL`] before the first): a vertex
    /// whose normals did not change since the frame before (about half,
    /// in a typical animation) needs no search.
    last_sum: Vec<[u32; 3]>,
    last_index: Vec<u8>,
}

/// No table normal yet (the table has 162).
const NO_NORMAL: u8 = u8::MAX;

impl FrameMaker<'_> {
    /// The frame on `grid` named `name`, from the used vertices' positions
    /// `p`, unit normals `normals` and bytes `bytes`.
    ///
    /// `TRY_LAST_NORMAL`: try a changed normal against the vertex's table
    /// normal of the frame before
    /// ([`nearest_near`](crate::quake::nearest::nearest_near)) before looking
    /// it up. Baked animation turns normals a little from one frame to the
    /// next, so the try mostly succeeds (46–58 % on the corpus's skinned
    /// models) and costs a dot product where a look-up costs several. Off
    /// on an MD2 record, whose normals jump from one table normal to
    /// another (faerie: not one of 32,494 tries succeeded).
    pub(super) fn frame<const TRY_LAST_NORMAL: bool>(
        &self,
        grid: FrameGrid,
        name: FrameName,
        p: &[[f32; 3]],
        normals: &[[f32; 3]],
        bytes: &[[u8; 3]],
        scratch: &mut FrameScratch,
    ) -> Frame {
        let num_vertices = self.first_copy.len();
        let FrameScratch {
            sums,
            faces,
            last_sum,
            last_index,
        } = scratch;
        if last_index.len() != num_vertices {
            last_sum.clear();
            last_sum.resize(num_vertices, [0; 3]);
            last_index.clear();
            last_index.resize(num_vertices, NO_NORMAL);
        }
        sums.clear();
        sums.resize(num_vertices, Vec3::ZERO);
        for (&v, nrm) in self.vertex_of.iter().zip(normals) {
            sums[v as usize] += Vec3::from(*nrm);
        }
        faces.clear();
        let mut faces_made = false;
        let sums = &sums[..];
        let vertices = sums
            .iter()
            .zip(self.first_copy)
            .zip(last_sum.iter_mut().zip(last_index.iter_mut()))
            .enumerate()
            .map(|(v, ((s, &first), (last_sum, last_index)))| {
                let key = s.to_array().map(f32::to_bits);
                let normal_index = if *last_index != NO_NORMAL && *last_sum == key {
                    *last_index
                } else if let Some(unit) = s.try_normalize() {
                    // The last frame's normal is surely the answer when
                    // the direction is still close to it (most of a
                    // skinned model's, frame to frame): no look-up.
                    let unit = unit.to_array();
                    let near = if TRY_LAST_NORMAL {
                        crate::quake::nearest::nearest_near(unit, *last_index)
                    } else {
                        None
                    };
                    let index = near.unwrap_or_else(|| nearest_normal_index(unit));
                    (*last_sum, *last_index) = (key, index);
                    index
                } else {
                    // A zero sum: the faces' normal (which depends on the
                    // positions, so is not remembered), made once for the
                    // frame when some sum is (nearly) zero.
                    if !faces_made {
                        faces_made = true;
                        if sums.iter().any(|s| s.length_squared() < 1e-12) {
                            self.face_normals(p, faces);
                        }
                    }
                    let unit = faces
                        .get(v)
                        .and_then(|f| f.try_normalize())
                        .unwrap_or(Vec3::Z);
                    nearest_normal_index(unit.to_array())
                };
                // A vertex without copies (one an MD2 record carries the
                // bytes of) is filled in afterwards.
                PackedVertex {
                    position: bytes.get(first).copied().unwrap_or_default(),
                    normal_index,
                }
            })
            .collect();
        Frame {
            scale: grid.scale,
            translate: grid.translate,
            name,
            vertices,
            padding: Vec::new(),
        }
    }

    /// Per MD2 vertex, the sum of its triangles' normals (unnormalised),
    /// from the first copies' positions `p`.
    fn face_normals(&self, p: &[[f32; 3]], faces: &mut Vec<Vec3>) {
        faces.clear();
        faces.resize(self.first_copy.len(), Vec3::ZERO);
        for t in self.triangles {
            let q = t
                .vertices
                .map(|v| Vec3::from(p[self.first_copy[usize::from(v)]]));
            // Quake's clockwise corners: the outward normal.
            let nrm = (q[2] - q[0]).cross(q[1] - q[0]);
            for &v in &t.vertices {
                faces[usize::from(v)] += nrm;
            }
        }
    }
}
