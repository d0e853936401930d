//! `KHR_mesh_quantization` for morphed meshes: position displacements as
//! 16-bit integers on one uniform grid (base positions as floats on the
//! same grid), normal displacements as normalised 8-bit integers.

use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::buffer::Target as BufferTarget;

use super::builder::{component_size, Builder, Layout, Piece};
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
        // All targets' position displacements in one buffer view, and all
        // their normal displacements in another (one view per target would
        // cost a JSON object each: 80 KB for 198 frames), each target an
        // accessor at its offset.
        let n = mesh.positions.len();
        let mut positions = Packed::new(shorts, n * mesh.morph_targets.len());
        let mut normals = Packed::new(bytes, n * mesh.morph_targets.len());
        let mut layout = Vec::with_capacity(mesh.morph_targets.len());
        for t in &mesh.morph_targets {
            let p = positions.push(t.positions.iter().zip(&mesh.positions).zip(&base).map(
                |((d, p), q)| {
                    let c = self.coords([p[0] + d[0], p[1] + d[1], p[2] + d[2]]);
                    [c[0] - q[0], c[1] - q[1], c[2] - q[2]]
                },
            ));
            let q = (!t.normals.is_empty()).then(|| {
                normals.push(
                    t.normals
                        .iter()
                        .map(|n| n.map(|x| (x * 127.0).round().clamp(-127.0, 127.0) as i64)),
                )
            });
            layout.push((p, q));
        }
        let position_view = positions.view(b);
        let normal_view = normals.view(b);
        let targets = layout
            .into_iter()
            .map(|(p, q)| json::mesh::MorphTarget {
                positions: position_view.map(|v| p.accessor(b, v, shorts, true)),
                normals: q
                    .zip(normal_view)
                    .map(|(q, v)| q.accessor(b, v, bytes, false)),
                tangents: None,
            })
            .collect();
        (base_accessor, Some(targets))
    }
}

/// Integer vectors of one layout packed one after another, each element
/// padded to a multiple of 4 bytes (as vertex attributes must be).
struct Packed {
    layout: Layout,
    stride: usize,
    bytes: Vec<u8>,
}

/// Where [`Packed::push`] put a run of elements, and their bounds.
struct Run {
    offset: usize,
    count: usize,
    min: [i64; 3],
    max: [i64; 3],
}

impl Packed {
    /// Room for `capacity` elements.
    fn new(layout: Layout, capacity: usize) -> Packed {
        let size = component_size(layout.component);
        let stride = (size * 3).div_ceil(4) * 4;
        Packed {
            layout,
            stride,
            bytes: Vec::with_capacity(stride * capacity),
        }
    }

    /// Appends `elements` (truncated to the component size).
    fn push(&mut self, elements: impl Iterator<Item = [i64; 3]>) -> Run {
        let offset = self.bytes.len();
        let size = component_size(self.layout.component);
        let (mut min, mut max) = ([i64::MAX; 3], [i64::MIN; 3]);
        for e in elements {
            let start = self.bytes.len();
            for (i, &x) in e.iter().enumerate() {
                min[i] = min[i].min(x);
                max[i] = max[i].max(x);
                match size {
                    1 => self.bytes.push(x as u8),
                    _ => self.bytes.extend_from_slice(&(x as u16).to_le_bytes()),
                }
            }
            self.bytes.resize(start + self.stride, 0);
        }
        Run {
            offset,
            count: (self.bytes.len() - offset) / self.stride,
            min,
            max,
        }
    }

    /// The buffer view of everything pushed (`None` when nothing was).
    fn view(self, b: &mut Builder) -> Option<json::Index<json::buffer::View>> {
        (!self.bytes.is_empty()).then(|| {
            b.view(
                Piece::Bytes(self.bytes.into()),
                Some(self.stride),
                Some(BufferTarget::ArrayBuffer),
            )
        })
    }
}

impl Run {
    /// The accessor of this run in `view`, with min and max when asked
    /// (morph target positions need them; glTF wants the stored integers,
    /// also for normalised data).
    fn accessor(
        &self,
        b: &mut Builder,
        view: json::Index<json::buffer::View>,
        layout: Layout,
        with_min_max: bool,
    ) -> json::Index<json::Accessor> {
        let as_f32 = |a: [i64; 3]| a.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        let min_max =
            (with_min_max && self.count > 0).then(|| (as_f32(self.min), as_f32(self.max)));
        b.accessor_at(Some(view), self.offset, self.count, layout, min_max)
    }
}
