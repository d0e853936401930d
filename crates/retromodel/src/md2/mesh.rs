//! A render-ready mesh: unique (vertex, texture coordinate) pairs and an
//! index buffer, filled per frame into `Pod` vertices a renderer can upload
//! as they are.

use super::decode::blend_vertex;
use super::Md2;
use crate::quake::anorms::NORMALS_PADDED;

/// One GPU vertex: position, normal and texture coordinate, 32 bytes,
/// `#[repr(C)]` and [`bytemuck::Pod`] so a slice of them casts to bytes.
///
/// ```
/// use retromodel::md2::MeshVertex;
/// let v = [MeshVertex::default(); 4];
/// let bytes: &[u8] = bytemuck::cast_slice(&v);
/// assert_eq!(bytes.len(), 4 * 32);
/// ```
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct MeshVertex {
    /// Position in model units.
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Texture coordinate: `u = s / skin_width`, `v = t / skin_height`
    /// (top-down, as the skin is stored).
    pub uv: [f32; 2],
}

/// Indexed triangles over unique (vertex, texture coordinate) pairs.
///
/// Triangles whose indices point outside the model are left out (they are
/// reported by [`Md2::validate`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RenderMesh {
    /// For each mesh vertex, the model vertex it takes its position and
    /// normal from.
    pub source_vertices: Vec<u32>,
    /// For each mesh vertex, its texture coordinate.
    pub uvs: Vec<[f32; 2]>,
    /// Three indices per triangle into the mesh vertices, in the file's
    /// winding order.
    pub indices: Vec<u32>,
}

impl RenderMesh {
    /// Builds the mesh of `model`.
    ///
    /// ```
    /// use retromodel::md2::{sample::sample_model, MeshVertex, RenderMesh};
    /// let model = sample_model();
    /// let mesh = RenderMesh::new(&model);
    /// let mut vertices = vec![MeshVertex::default(); mesh.vertex_count()];
    /// assert!(mesh.fill_frame(&model, 0, &mut vertices));
    /// assert_eq!(mesh.indices.len(), 3 * model.triangles.len());
    /// ```
    pub fn new(model: &Md2) -> RenderMesh {
        let w = if model.skin_width > 0 {
            model.skin_width as f32
        } else {
            1.0
        };
        let h = if model.skin_height > 0 {
            model.skin_height as f32
        } else {
            1.0
        };
        let num_vertices = model.vertex_count();
        let num_texcoords = model.texcoords.len();
        // (vertex, texcoord) pair → mesh vertex.
        let mut map = std::collections::HashMap::<(u16, u16), u32>::new();
        let mut mesh = RenderMesh::default();
        for tri in &model.triangles {
            let valid = (0..3).all(|k| {
                (tri.vertices[k] as usize) < num_vertices
                    && (tri.texcoords[k] as usize) < num_texcoords
            });
            if !valid {
                continue;
            }
            for k in 0..3 {
                let key = (tri.vertices[k], tri.texcoords[k]);
                let next = mesh.source_vertices.len() as u32;
                let index = *map.entry(key).or_insert_with(|| {
                    let st = model.texcoords[key.1 as usize];
                    mesh.source_vertices.push(key.0 as u32);
                    mesh.uvs.push([st.s as f32 / w, st.t as f32 / h]);
                    next
                });
                mesh.indices.push(index);
            }
        }
        mesh
    }

    /// Number of mesh vertices.
    pub fn vertex_count(&self) -> usize {
        self.source_vertices.len()
    }

    /// Fills `out` with frame `frame` of `model`. Returns `false` (writing
    /// nothing) when there is no such frame.
    ///
    /// # Panics
    /// When `out.len()` differs from [`RenderMesh::vertex_count`].
    pub fn fill_frame(&self, model: &Md2, frame: usize, out: &mut [MeshVertex]) -> bool {
        assert_eq!(out.len(), self.vertex_count(), "vertex buffer length");
        let Some(f) = model.frames.get(frame) else {
            return false;
        };
        // Positions and normals come as four lanes (see `decode.rs`), so
        // each vertex is a few vector instructions and two 16-byte stores.
        let position_lanes = f.position_lanes();
        for ((o, &src), uv) in out.iter_mut().zip(&self.source_vertices).zip(&self.uvs) {
            let v = f.vertices.get(src as usize).copied().unwrap_or_default();
            let p = position_lanes(v);
            let n = NORMALS_PADDED[v.normal_index as usize];
            *o = MeshVertex {
                position: [p[0], p[1], p[2]],
                normal: [n[0], n[1], n[2]],
                uv: *uv,
            };
        }
        true
    }

    /// Fills `out` with frames `from` and `to` of `model` blended at `t`
    /// (see [`Md2::interpolate`]). Returns `false` (writing nothing) when a
    /// frame index is out of range.
    ///
    /// # Panics
    /// When `out.len()` differs from [`RenderMesh::vertex_count`].
    pub fn fill_interpolated(
        &self,
        model: &Md2,
        from: usize,
        to: usize,
        t: f32,
        out: &mut [MeshVertex],
    ) -> bool {
        assert_eq!(out.len(), self.vertex_count(), "vertex buffer length");
        let (Some(a), Some(b)) = (model.frames.get(from), model.frames.get(to)) else {
            return false;
        };
        for ((o, &src), uv) in out.iter_mut().zip(&self.source_vertices).zip(&self.uvs) {
            let (position, normal) = blend_vertex(a, b, src as usize, t).unwrap_or_default();
            *o = MeshVertex {
                position,
                normal,
                uv: *uv,
            };
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{sample::sample_model, NORMALS};
    use super::{MeshVertex, RenderMesh};

    #[test]
    fn fill_frame_matches_the_formulas() {
        let mut model = sample_model();
        // Make the second frame short, as in a malformed file: its missing
        // vertices decode as the all-zero packed vertex.
        let frame = model.frames.len() - 1;
        model.frames[frame].vertices.pop();
        let mesh = RenderMesh::new(&model);
        for f in [0, frame] {
            let mut out = vec![MeshVertex::default(); mesh.vertex_count()];
            assert!(mesh.fill_frame(&model, f, &mut out));
            let fr = &model.frames[f];
            for (k, o) in out.iter().enumerate() {
                let src = mesh.source_vertices[k] as usize;
                let (p, n) = match fr.vertices.get(src) {
                    Some(v) => (v.position, v.normal_index),
                    None => ([0; 3], 0),
                };
                let position: [f32; 3] =
                    std::array::from_fn(|i| f32::from(p[i]) * fr.scale[i] + fr.translate[i]);
                let normal = NORMALS.get(usize::from(n)).copied().unwrap_or([0.0; 3]);
                assert_eq!(o.position, position, "frame {f}, mesh vertex {k}");
                assert_eq!(o.normal, normal, "frame {f}, mesh vertex {k}");
                assert_eq!(o.uv, mesh.uvs[k]);
            }
        }
        let mut out = vec![MeshVertex::default(); mesh.vertex_count()];
        assert!(!mesh.fill_frame(&model, model.frames.len(), &mut out));
    }
}
