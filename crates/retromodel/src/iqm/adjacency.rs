//! Triangle adjacency as lsalzman/iqm's compiler computes it (`iqm.cpp`,
//! `makeneighbors`).

use std::collections::HashMap;

use super::{ArrayKind, Iqm, NO_NEIGHBOUR};

/// The neighbour across each edge of each triangle (edge `k` from vertex
/// `k` to vertex `k + 1`), [`NO_NEIGHBOUR`] when no other triangle or
/// more than one other shares it. An edge is its two ends' positions and
/// blend indexes and weights, in either order, so that triangles of
/// different meshes (and vertices split for their texture coordinates)
/// still meet, as in the reference compiler.
///
/// ```
/// let model = retromodel::iqm::sample::sample_model();
/// let adjacency = retromodel::iqm::compute_adjacency(&model);
/// assert_eq!(adjacency, vec![[u32::MAX; 3]]); // one lone triangle
/// ```
pub fn compute_adjacency(model: &Iqm) -> Vec<[u32; 3]> {
    let n = model.vertex_count();
    let key = |v: u32| -> Vec<u8> {
        let v = v as usize;
        let mut k = Vec::with_capacity(24);
        for kind in [
            ArrayKind::Position,
            ArrayKind::BlendIndexes,
            ArrayKind::BlendWeights,
        ] {
            if let Some(a) = model.array(kind) {
                let stride = a.data.len().checked_div(n).unwrap_or(0);
                if let Some(b) = a.data.get(v * stride..(v + 1) * stride) {
                    k.extend_from_slice(b);
                }
            }
        }
        if k.is_empty() {
            k.extend_from_slice(&(v as u32).to_le_bytes());
        }
        k
    };
    let keys: Vec<Vec<u8>> = (0..n as u32).map(key).collect();
    let edge = |a: u32, b: u32| {
        let ka = keys.get(a as usize).cloned().unwrap_or_default();
        let kb = keys.get(b as usize).cloned().unwrap_or_default();
        if ka <= kb {
            (ka, kb)
        } else {
            (kb, ka)
        }
    };
    // Per edge: the triangles sharing it, until a third closes it.
    let mut shared: HashMap<(Vec<u8>, Vec<u8>), Edge> = HashMap::new();
    for (i, t) in model.triangles.iter().enumerate() {
        let i = i as u32;
        for k in 0..3 {
            let slot = shared
                .entry(edge(t[k], t[(k + 1) % 3]))
                .or_insert(Edge::Open);
            *slot = match *slot {
                Edge::Open => Edge::One(i),
                Edge::One(a) => Edge::Two(a, i),
                Edge::Two(..) | Edge::Closed => Edge::Closed,
            };
        }
    }
    model
        .triangles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let i = i as u32;
            let mut out = [NO_NEIGHBOUR; 3];
            for (k, slot) in out.iter_mut().enumerate() {
                *slot = match shared.get(&edge(t[k], t[(k + 1) % 3])) {
                    // The reference's `opposite`: the other one, or the
                    // first when this triangle is not it.
                    Some(Edge::Two(a, b)) => {
                        if *a == i {
                            *b
                        } else {
                            *a
                        }
                    }
                    Some(Edge::One(a)) if *a != i => *a,
                    _ => NO_NEIGHBOUR,
                };
            }
            out
        })
        .collect()
}

/// The triangles that share one edge.
#[derive(Clone, Copy)]
enum Edge {
    /// None yet.
    Open,
    /// One.
    One(u32),
    /// Two: each is the other's neighbour.
    Two(u32, u32),
    /// Three or more: nobody's neighbour.
    Closed,
}
