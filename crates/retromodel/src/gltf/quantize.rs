//! `KHR_mesh_quantization` for morphed meshes: position displacements as
//! 16-bit integers on one uniform grid (base positions as floats on the
//! same grid), normal displacements as normalised 8-bit integers.

use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::buffer::Target as BufferTarget;

use super::builder::{Builder, Layout};
use crate::scene::Mesh;

/// The extension's name.
pub(crate) const EXTENSION: &str = "KHR_mesh_quantization";

/// Largest grid coordinate: positions lie in `±LIMIT`, so displacements
/// between two of them lie in `±2·LIMIT`, which fits an `i16`.
const LIMIT: f32 = 16383.0;

/// A uniform grid covering every position a mesh takes in any morph
/// target: `p = center + step · q`.
pub(crate) struct Grid {
    center: [f32; 3],
    step: f32,
}

impl Grid {
    /// The grid of the base positions and of every target's positions.
    pub fn new(mesh: &Mesh) -> Grid {
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        let mut include = |p: [f32; 3]| {
            for i in 0..3 {
                min[i] = min[i].min(p[i]);
                max[i] = max[i].max(p[i]);
            }
        };
        for (k, base) in mesh.positions.iter().enumerate() {
            include(*base);
            for t in &mesh.morph_targets {
                if let Some(d) = t.positions.get(k) {
                    include([base[0] + d[0], base[1] + d[1], base[2] + d[2]]);
                }
            }
        }
        let center = std::array::from_fn(|i| (min[i] + max[i]) / 2.0);
        let extent = (0..3)
            .map(|i| (max[i] - min[i]) / 2.0)
            .fold(0.0f32, f32::max);
        let step = if extent > 0.0 && extent.is_finite() {
            extent / LIMIT
        } else {
            1.0
        };
        Grid { center, step }
    }

    /// Grid coordinates of `p`.
    fn coords(&self, p: [f32; 3]) -> [i64; 3] {
        std::array::from_fn(|i| {
            ((p[i] - self.center[i]) / self.step)
                .round()
                .clamp(-LIMIT, LIMIT) as i64
        })
    }

    /// The node translation and scale that map grid coordinates back.
    pub fn node_transform(&self) -> ([f32; 3], [f32; 3]) {
        (self.center, [self.step; 3])
    }

    /// Writes the base positions and the targets; returns the base
    /// position accessor and the targets.
    pub fn write(
        &self,
        b: &mut Builder,
        mesh: &Mesh,
    ) -> (
        json::Index<json::Accessor>,
        Option<Vec<json::mesh::MorphTarget>>,
    ) {
        let base: Vec<[i64; 3]> = mesh.positions.iter().map(|&p| self.coords(p)).collect();
        let shorts = Layout {
            component: ComponentType::I16,
            kind: Type::Vec3,
            normalized: false,
        };
        // The base as floats (exact: grid coordinates are small integers),
        // which costs 4 bytes a vertex but lets loaders that do not know
        // the extension read the mesh (assimp 5.2 drops a mesh whose
        // positions are integers).
        let grid: Vec<f32> = base.iter().flatten().map(|&x| x as f32).collect();
        let base_accessor = b.floats(grid, Type::Vec3, Some(BufferTarget::ArrayBuffer), true);
        let bytes = Layout {
            component: ComponentType::I8,
            kind: Type::Vec3,
            normalized: true,
        };
        let targets = mesh
            .morph_targets
            .iter()
            .map(|t| {
                let positions: Vec<[i64; 3]> = t
                    .positions
                    .iter()
                    .zip(&mesh.positions)
                    .zip(&base)
                    .map(|((d, p), q)| {
                        let c = self.coords([p[0] + d[0], p[1] + d[1], p[2] + d[2]]);
                        [c[0] - q[0], c[1] - q[1], c[2] - q[2]]
                    })
                    .collect();
                let normals: Vec<[i64; 3]> = t
                    .normals
                    .iter()
                    .map(|n| n.map(|x| (x * 127.0).round().clamp(-127.0, 127.0) as i64))
                    .collect();
                json::mesh::MorphTarget {
                    positions: Some(write_ints(b, &positions, shorts)),
                    normals: (!normals.is_empty()).then(|| write_ints(b, &normals, bytes)),
                    tangents: None,
                }
            })
            .collect();
        (base_accessor, Some(targets))
    }
}

/// Writes integer vectors (with min/max, which morph target positions
/// need); all-zero data shares a view of zeros.
fn write_ints(b: &mut Builder, v: &[[i64; 3]], layout: Layout) -> json::Index<json::Accessor> {
    let mut min = [i64::MAX; 3];
    let mut max = [i64::MIN; 3];
    for e in v {
        for i in 0..3 {
            min[i] = min[i].min(e[i]);
            max[i] = max[i].max(e[i]);
        }
    }
    // glTF wants the stored integer values, also for normalised data.
    let as_f32 = |a: [i64; 3]| a.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    let mm = Some((as_f32(min), as_f32(max)));
    if v.iter().all(|e| *e == [0; 3]) {
        return b.zeros(v.len(), layout, mm);
    }
    b.vertex_ints(v, layout, mm)
}
