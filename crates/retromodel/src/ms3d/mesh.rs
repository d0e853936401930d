//! Render-ready meshes per group, with joint indices and weights for GPU
//! skinning.

use super::{Influences, Ms3d};

/// One GPU vertex: position, normal, texture coordinate, four joint
/// indices and weights; 56 bytes, `#[repr(C)]` and [`bytemuck::Pod`].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SkinnedVertex {
    /// Bind-pose position.
    pub position: [f32; 3],
    /// Bind-pose normal.
    pub normal: [f32; 3],
    /// Texture coordinate `(s, t)`, top-down as MilkShape stores it.
    pub uv: [f32; 2],
    /// Joint indices (unused ones are 0 with weight 0).
    pub joints: [u16; 4],
    /// Joint weights; they sum to what the viewer uses (normally 1; 0 for
    /// a vertex that does not move).
    pub weights: [f32; 4],
}

/// The triangles of one group as unique (position, normal, uv) vertices
/// and an index buffer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupMesh {
    /// Index of the group in [`Ms3d::groups`].
    pub group: usize,
    /// The group's material, if its index is valid.
    pub material: Option<usize>,
    /// The vertices.
    pub vertices: Vec<SkinnedVertex>,
    /// For each mesh vertex, the model vertex it comes from (to apply CPU
    /// skinning results).
    pub source_vertices: Vec<u32>,
    /// Three indices per triangle, in the file's winding.
    pub indices: Vec<u32>,
}

impl GroupMesh {
    /// One mesh per group of `model`. Triangle and vertex indices that
    /// point nowhere are skipped (`validate` reports them).
    ///
    /// ```
    /// use retromodel::ms3d::{sample::sample_model, GroupMesh};
    /// let model = sample_model();
    /// let meshes = GroupMesh::build_all(&model);
    /// assert_eq!(meshes.len(), model.groups.len());
    /// let bytes: &[u8] = bytemuck::cast_slice(&meshes[0].vertices);
    /// assert_eq!(bytes.len(), 56 * meshes[0].vertices.len());
    /// ```
    pub fn build_all(model: &Ms3d) -> Vec<GroupMesh> {
        let influences = Influences::new(model);
        (0..model.groups.len())
            .map(|g| GroupMesh::build(model, &influences, g))
            .collect()
    }

    /// The mesh of group `group` (empty for an index out of range).
    pub fn build(model: &Ms3d, influences: &Influences, group: usize) -> GroupMesh {
        let mut mesh = GroupMesh {
            group,
            ..GroupMesh::default()
        };
        let Some(g) = model.groups.get(group) else {
            return mesh;
        };
        mesh.material = usize::try_from(g.material)
            .ok()
            .filter(|&m| m < model.materials.len());
        let mut map = std::collections::HashMap::<(u16, [u32; 5]), u32>::new();
        for &ti in &g.triangles {
            let Some(tri) = model.triangles.get(ti as usize) else {
                continue;
            };
            if tri
                .vertices
                .iter()
                .any(|&v| v as usize >= model.vertices.len())
            {
                continue;
            }
            for k in 0..3 {
                let vi = tri.vertices[k];
                let n = tri.normals[k];
                let key = (
                    vi,
                    [
                        n[0].to_bits(),
                        n[1].to_bits(),
                        n[2].to_bits(),
                        tri.s[k].to_bits(),
                        tri.t[k].to_bits(),
                    ],
                );
                let next = mesh.vertices.len() as u32;
                let index = *map.entry(key).or_insert_with(|| {
                    let inf = influences
                        .vertices
                        .get(vi as usize)
                        .copied()
                        .unwrap_or_default();
                    mesh.vertices.push(SkinnedVertex {
                        position: model.vertices[vi as usize].position,
                        normal: n,
                        uv: [tri.s[k], tri.t[k]],
                        joints: inf.joints,
                        weights: inf.weights,
                    });
                    mesh.source_vertices.push(vi as u32);
                    next
                });
                mesh.indices.push(index);
            }
        }
        mesh
    }
}
