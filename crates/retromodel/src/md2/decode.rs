//! Decoding packed frames to floats, and blending two frames.
//!
//! Everything here writes into buffers the caller owns, so an animation
//! loop can run every frame without allocating.

use super::anorms::normal;
use super::{Frame, Md2};

impl Frame {
    /// The position of vertex `index`: `byte × scale + translate` per axis.
    ///
    /// Returns `None` when the frame has no such vertex.
    pub fn position(&self, index: usize) -> Option<[f32; 3]> {
        let v = self.vertices.get(index)?;
        Some(self.unpack(v.position))
    }

    #[inline]
    fn unpack(&self, p: [u8; 3]) -> [f32; 3] {
        [
            p[0] as f32 * self.scale[0] + self.translate[0],
            p[1] as f32 * self.scale[1] + self.translate[1],
            p[2] as f32 * self.scale[2] + self.translate[2],
        ]
    }

    /// Decodes every vertex position into `out`.
    ///
    /// # Panics
    /// When `out.len()` differs from the number of vertices.
    ///
    /// ```
    /// use retromodel::md2::{Frame, PackedVertex};
    /// let frame = Frame {
    ///     scale: [0.5, 1.0, 2.0],
    ///     translate: [1.0, 0.0, -1.0],
    ///     vertices: vec![PackedVertex { position: [2, 3, 4], normal_index: 5 }],
    ///     ..Frame::default()
    /// };
    /// let mut out = [[0.0; 3]];
    /// frame.decode_positions(&mut out);
    /// assert_eq!(out[0], [2.0, 3.0, 7.0]);
    /// ```
    pub fn decode_positions(&self, out: &mut [[f32; 3]]) {
        assert_eq!(out.len(), self.vertices.len(), "position buffer length");
        for (o, v) in out.iter_mut().zip(&self.vertices) {
            *o = self.unpack(v.position);
        }
    }

    /// Decodes every vertex normal into `out`; an index outside the
    /// 162-entry table gives the zero vector.
    ///
    /// # Panics
    /// When `out.len()` differs from the number of vertices.
    pub fn decode_normals(&self, out: &mut [[f32; 3]]) {
        assert_eq!(out.len(), self.vertices.len(), "normal buffer length");
        for (o, v) in out.iter_mut().zip(&self.vertices) {
            *o = normal(v.normal_index);
        }
    }

    /// Decodes positions and normals in one pass.
    ///
    /// # Panics
    /// When a buffer's length differs from the number of vertices.
    pub fn decode(&self, positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) {
        assert_eq!(
            positions.len(),
            self.vertices.len(),
            "position buffer length"
        );
        assert_eq!(normals.len(), self.vertices.len(), "normal buffer length");
        for ((p, n), v) in positions
            .iter_mut()
            .zip(normals.iter_mut())
            .zip(&self.vertices)
        {
            *p = self.unpack(v.position);
            *n = normal(v.normal_index);
        }
    }

    /// The frame's name as text, up to the first NUL.
    pub fn name(&self) -> String {
        self.name.to_string_lossy()
    }
}

/// Linear interpolation of two points.
#[inline]
fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// `v` scaled to unit length; the zero vector stays zero.
#[inline]
pub(crate) fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        [0.0; 3]
    }
}

/// Blends vertex `i` of two frames: positions lerped (each frame decoded
/// with its own scale and translate), normals lerped and renormalised.
#[inline]
pub(crate) fn blend_vertex(a: &Frame, b: &Frame, i: usize, t: f32) -> Option<([f32; 3], [f32; 3])> {
    let (va, vb) = (a.vertices.get(i)?, b.vertices.get(i)?);
    let p = lerp3(a.unpack(va.position), b.unpack(vb.position), t);
    let n = normalize(lerp3(normal(va.normal_index), normal(vb.normal_index), t));
    Some((p, n))
}

impl Md2 {
    /// Blends frames `from` and `to` at `t` (0 gives `from`, 1 gives `to`)
    /// into `positions` and `normals`, without allocating. Positions are
    /// interpolated linearly; normals are interpolated and renormalised
    /// (smoother than the original engine's nearest-frame normals).
    ///
    /// Returns `false` (and writes nothing) when a frame index is out of
    /// range.
    ///
    /// # Panics
    /// When a buffer's length differs from [`Md2::vertex_count`].
    ///
    /// ```
    /// use retromodel::md2::sample::sample_model;
    /// let model = sample_model();
    /// let n = model.vertex_count();
    /// let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    /// assert!(model.interpolate(0, 1, 0.25, &mut p, &mut nrm));
    /// assert!(!model.interpolate(0, 9999, 0.25, &mut p, &mut nrm));
    /// ```
    pub fn interpolate(
        &self,
        from: usize,
        to: usize,
        t: f32,
        positions: &mut [[f32; 3]],
        normals: &mut [[f32; 3]],
    ) -> bool {
        assert_eq!(positions.len(), self.num_vertices, "position buffer length");
        assert_eq!(normals.len(), self.num_vertices, "normal buffer length");
        let (Some(a), Some(b)) = (self.frames.get(from), self.frames.get(to)) else {
            return false;
        };
        let count = a.vertices.len().min(b.vertices.len()).min(positions.len());
        for (i, (p, n)) in positions
            .iter_mut()
            .zip(normals.iter_mut())
            .enumerate()
            .take(count)
        {
            if let Some((bp, bn)) = blend_vertex(a, b, i, t) {
                *p = bp;
                *n = bn;
            }
        }
        true
    }
}
