//! The adjacency mesh both GL command builders work on: the drawable
//! triangles as corners (vertex and texture coordinate index in one
//! word), a sorted table of their directed edges, and the neighbour
//! queries built on it (the triangles across an edge, connected
//! components).

use crate::md2::Md2;

/// A corner: vertex index in the high 16 bits, texture coordinate index in
/// the low 16 bits. Two corners are the same GL vertex iff equal.
pub(super) type Corner = u32;

/// The vertex index of a corner.
pub(super) fn xyz_of(c: Corner) -> u32 {
    c >> 16
}

/// The texture coordinate index of a corner.
pub(super) fn st_of(c: Corner) -> usize {
    (c & 0xFFFF) as usize
}

/// The sort key of the directed edge `a → b`.
fn edge_key(a: Corner, b: Corner) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// One entry of the directed-edge table: triangle `tri` has corner `a` at
/// position `k` and corner `b` at position `(k + 1) % 3`.
#[derive(Clone, Copy)]
pub(super) struct EdgeEntry {
    /// The edge's [`edge_key`].
    key: u64,
    /// Index of the triangle in [`Mesh::tris`].
    pub(super) tri: u32,
    /// Position of the edge's first corner in the triangle.
    pub(super) k: u8,
}

/// The drawable triangles of a model and their directed edges.
pub(super) struct Mesh {
    /// The drawable triangles' corners, in the model's order.
    pub(super) tris: Vec<[Corner; 3]>,
    /// Sorted by (key, tri, k).
    edges: Vec<EdgeEntry>,
    /// For each triangle and edge `k` (corner `k` to corner `k + 1`), the
    /// range of [`Mesh::edges`] holding the reverse edge: the triangles
    /// across that edge (the triangle itself included when degenerate).
    adj: Vec<[(u32, u32); 3]>,
    /// Sum of the sizes of all `adj` ranges: about `3 × triangles` for a
    /// well-formed mesh, far more when many triangles share edges.
    pub(super) adjacency: usize,
}

impl Mesh {
    /// The mesh of `model`'s drawable triangles (see the module
    /// documentation of [`super`] for which are drawn).
    pub(super) fn new(model: &Md2) -> Mesh {
        let num_st = model.texcoords.len();
        let tris: Vec<[Corner; 3]> = model
            .triangles
            .iter()
            .filter(|t| {
                t.vertices
                    .iter()
                    .all(|&v| (v as usize) < model.num_vertices)
                    && t.texcoords.iter().all(|&s| (s as usize) < num_st)
            })
            .map(|t| {
                let c = |k: usize| (u32::from(t.vertices[k]) << 16) | u32::from(t.texcoords[k]);
                [c(0), c(1), c(2)]
            })
            .collect();
        let mut edges = Vec::with_capacity(tris.len() * 3);
        for (i, t) in tris.iter().enumerate() {
            for k in 0..3 {
                edges.push(EdgeEntry {
                    key: edge_key(t[k], t[(k + 1) % 3]),
                    tri: i as u32,
                    k: k as u8,
                });
            }
        }
        // Pushed in (tri, k) order, so a stable sort by key alone gives
        // the (key, tri, k) order with cheaper comparisons.
        edges.sort_by_key(|e| e.key);
        let mut mesh = Mesh {
            tris,
            edges,
            adj: Vec::new(),
            adjacency: 0,
        };
        mesh.adj = (0..mesh.tris.len())
            .map(|t| {
                let c = mesh.tris[t];
                [0, 1, 2].map(|k| mesh.range(c[(k + 1) % 3], c[k]))
            })
            .collect();
        mesh.adjacency = mesh
            .adj
            .iter()
            .flatten()
            .map(|&(lo, hi)| (hi - lo) as usize)
            .sum();
        mesh
    }

    /// Range of [`Mesh::edges`] holding the directed edge `a → b`.
    fn range(&self, a: Corner, b: Corner) -> (u32, u32) {
        let key = edge_key(a, b);
        let lo = self.edges.partition_point(|e| e.key < key);
        // Most edges are held by one or two triangles: look at a few
        // entries before searching the rest.
        let rest = &self.edges[lo..];
        let near = rest.iter().take(4).take_while(|e| e.key == key).count();
        let hi = lo
            + if near < 4 {
                near
            } else {
                near + rest[near..].partition_point(|e| e.key == key)
            };
        (lo as u32, hi as u32)
    }

    /// The triangles across edge `k` of triangle `t`.
    pub(super) fn across_edge(&self, t: usize, k: usize) -> &[EdgeEntry] {
        let (lo, hi) = self.adj[t][k];
        &self.edges[lo as usize..hi as usize]
    }

    /// The corner after the edge in the entry's triangle.
    pub(super) fn third(&self, e: &EdgeEntry) -> Corner {
        self.tris[e.tri as usize][(e.k as usize + 2) % 3]
    }

    /// Triangle `t`'s corners starting at corner `r`.
    pub(super) fn rotated(&self, t: usize, r: usize) -> [Corner; 3] {
        let c = self.tris[t];
        [c[r % 3], c[(r + 1) % 3], c[(r + 2) % 3]]
    }
}

impl Mesh {
    /// Component of each triangle (triangles joined through shared edges),
    /// numbered in order of their first triangle, and the count.
    pub(super) fn components(&self) -> (Vec<u32>, usize) {
        let n = self.tris.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        /// The root of `x`'s set, halving the path on the way.
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        for t in 0..n {
            for k in 0..3 {
                for e in self.across_edge(t, k) {
                    let (a, b) = (root(&mut parent, t as u32), root(&mut parent, e.tri));
                    // The smaller index becomes the root.
                    let (lo, hi) = (a.min(b), a.max(b));
                    parent[hi as usize] = lo;
                }
            }
        }
        let mut id = vec![u32::MAX; n];
        let mut count = 0usize;
        for t in 0..n {
            let r = root(&mut parent, t as u32) as usize;
            if id[r] == u32::MAX {
                id[r] = count as u32;
                count += 1;
            }
            id[t] = id[r];
        }
        (id, count)
    }
}
