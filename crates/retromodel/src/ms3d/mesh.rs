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
        let mut first = vec![NONE; model.vertices.len()];
        (0..model.groups.len())
            .map(|g| GroupMesh::build_with(model, &influences, g, &mut first))
            .collect()
    }

    /// The mesh of group `group` (empty for an index out of range).
    pub fn build(model: &Ms3d, influences: &Influences, group: usize) -> GroupMesh {
        let mut first = vec![NONE; model.vertices.len()];
        GroupMesh::build_with(model, influences, group, &mut first)
    }

    /// [`GroupMesh::build`] with `first`, one entry per model vertex, all
    /// [`NONE`] (and left so on return).
    ///
    /// Corners are merged when they share the model vertex and the bits of
    /// normal and texture coordinate. The first [`CHAIN`] mesh vertices
    /// made from one model vertex form a chain: `first[v]` is the newest,
    /// `next[i]` the one made before mesh vertex `i`. A model vertex rarely
    /// has more than a few distinct corners, so walking its chain is much
    /// cheaper than hashing every corner; the corners of a model vertex
    /// beyond that many go to a hash map, so no file can make the search
    /// quadratic.
    fn build_with(
        model: &Ms3d,
        influences: &Influences,
        group: usize,
        first: &mut [u32],
    ) -> GroupMesh {
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
        mesh.indices.reserve(3 * g.triangles.len());
        let mut next: Vec<u32> = Vec::new();
        let mut overflow = std::collections::HashMap::<(usize, [u32; 5]), u32>::new();
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
                let vi = tri.vertices[k] as usize;
                let n = tri.normals[k];
                let uv = [tri.s[k], tri.t[k]];
                let key = corner_bits(n, uv);
                let (mut at, mut walked) = (first[vi], 0);
                while at != NONE {
                    let v = &mesh.vertices[at as usize];
                    if same_bits(&corner_bits(v.normal, v.uv), &key) {
                        break;
                    }
                    at = next[at as usize];
                    walked += 1;
                }
                let found = if at != NONE {
                    Some(at)
                } else if walked < CHAIN {
                    None
                } else {
                    overflow.get(&(vi, key)).copied()
                };
                let index = match found {
                    Some(index) => index,
                    None => {
                        let new = mesh.vertices.len() as u32;
                        if walked < CHAIN {
                            next.push(first[vi]);
                            first[vi] = new;
                        } else {
                            next.push(NONE);
                            overflow.insert((vi, key), new);
                        }
                        let inf = influences.vertices.get(vi).copied().unwrap_or_default();
                        mesh.vertices.push(SkinnedVertex {
                            position: model.vertices[vi].position,
                            normal: n,
                            uv,
                            joints: inf.joints,
                            weights: inf.weights,
                        });
                        mesh.source_vertices.push(vi as u32);
                        new
                    }
                };
                mesh.indices.push(index);
            }
        }
        for &vi in &mesh.source_vertices {
            first[vi as usize] = NONE;
        }
        mesh
    }
}

/// No mesh vertex (a mesh has fewer than 3 × 65 535 vertices).
const NONE: u32 = u32::MAX;

/// How many mesh vertices of one model vertex are found by walking a chain
/// (the rest by hashing).
const CHAIN: usize = 8;

/// Whether two corners' bits are equal. Written out rather than `==` on
/// the arrays, which the compiler turned into byte-wise vector compares of
/// values just spilled to the stack (stalling on store forwarding).
#[inline]
fn same_bits(a: &[u32; 5], b: &[u32; 5]) -> bool {
    (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) == 0
}

/// The bits a corner is merged by, besides its model vertex.
#[inline]
fn corner_bits(normal: [f32; 3], uv: [f32; 2]) -> [u32; 5] {
    [
        normal[0].to_bits(),
        normal[1].to_bits(),
        normal[2].to_bits(),
        uv[0].to_bits(),
        uv[1].to_bits(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms3d::{Group, Triangle, Vertex};

    /// One model vertex with more distinct corners than a chain holds, each
    /// corner listed twice: the duplicates are found whether their first
    /// copy went to the chain or to the map.
    #[test]
    fn corners_beyond_the_chain_are_merged_too() {
        let distinct = 3 * CHAIN + 1;
        let mut model = Ms3d::default();
        for x in 0..3 {
            model.vertices.push(Vertex {
                position: [x as f32, 0.0, 0.0],
                ..Vertex::default()
            });
        }
        for i in 0..distinct {
            model.triangles.push(Triangle {
                vertices: [0, 1, 2],
                normals: [[0.0, 0.0, 1.0]; 3],
                // Only corner 0 differs between triangles; -0.0 and 0.0
                // are different bits, so they are different corners.
                s: [if i == 1 { -0.0 } else { i as f32 }, 0.5, 0.5],
                t: [0.0, 0.25, 0.25],
                ..Triangle::default()
            });
        }
        let once: Vec<u16> = (0..distinct as u16).collect();
        let mut triangles = once.clone();
        triangles.extend(once.iter().rev());
        model.groups.push(Group {
            triangles,
            material: -1,
            ..Group::default()
        });
        let mesh = &GroupMesh::build_all(&model)[0];
        // Corners 1 and 2 are the same in every triangle: one vertex each.
        assert_eq!(mesh.vertices.len(), distinct + 2);
        assert_eq!(mesh.indices.len(), 6 * distinct);
        let (first, second) = mesh.indices.split_at(3 * distinct);
        for (i, tri) in first.chunks(3).enumerate() {
            let again = &second[3 * (distinct - 1 - i)..][..3];
            assert_eq!(tri, again, "triangle {i}");
            let v = &mesh.vertices[tri[0] as usize];
            assert_eq!(v.uv[0].to_bits(), model.triangles[i].s[0].to_bits());
            assert_eq!(mesh.source_vertices[tri[0] as usize], 0);
        }
        // Vertices are numbered in order of first use.
        assert_eq!(&first[..6], &[0, 1, 2, 3, 1, 2]);
        // The same vertex from `build` alone.
        let influences = Influences::new(&model);
        assert_eq!(&GroupMesh::build(&model, &influences, 0), mesh);
    }
}
