//! Smoothing groups from the source's normals.
//!
//! MilkShape stores a normal per triangle corner (which the viewer and
//! this crate's readers use as they are) and a smoothing group per
//! triangle (1–32, 0 for none), which MilkShape's editor uses when it
//! recomputes normals: it averages the normals of the triangles of one
//! smoothing group around each shared vertex.
//!
//! The rule written here: two triangles of a group that share an edge
//! are smooth across it when, at both of the edge's vertices, their
//! corners have the same normal (to 1e-5 per component). The triangles
//! so connected form a smooth region. A region of one triangle whose
//! corners all carry its own face normal is faceted: smoothing group 0.
//! Every other region gets a number 1–32 that no region touching it (at
//! any shared vertex) has, chosen greedily in triangle order, so that a
//! recompute in MilkShape smooths exactly within regions, as the source
//! did. When all 32 are taken around a region (a vertex shared by more
//! than 32 regions), it gets the number fewest of its neighbours have,
//! and the conflict is counted.

use std::collections::HashMap;

/// Whether two normals are the same to 1e-5 per component.
fn same(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= 1e-5)
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// One triangle on an edge: its index and its corner normals at the
/// edge's two ends.
type EdgeSide = (usize, [f32; 3], [f32; 3]);

/// The smoothing group of each triangle of one group (`corners`: the
/// vertex of each corner, `normals`: each corner's normal, `faces`: each
/// triangle's unit face normal), and how many regions could not get a
/// number of their own.
pub(crate) fn smoothing_groups(
    corners: &[[u32; 3]],
    normals: &[[[f32; 3]; 3]],
    faces: &[[f32; 3]],
) -> (Vec<u8>, usize) {
    let n = corners.len();
    let mut parent: Vec<usize> = (0..n).collect();
    // Edge (a, b), a < b → the first triangle seen on it, with its corner
    // normals at a and b.
    let mut edges: HashMap<(u32, u32), Vec<EdgeSide>> = HashMap::new();
    for (t, c) in corners.iter().enumerate() {
        for k in 0..3 {
            let (i, j) = (k, (k + 1) % 3);
            let (a, b, na, nb) = if c[i] <= c[j] {
                (c[i], c[j], normals[t][i], normals[t][j])
            } else {
                (c[j], c[i], normals[t][j], normals[t][i])
            };
            if a == b {
                continue;
            }
            let list = edges.entry((a, b)).or_default();
            for &(other, oa, ob) in list.iter() {
                if same(na, oa) && same(nb, ob) {
                    let (x, y) = (find(&mut parent, t), find(&mut parent, other));
                    parent[x] = y;
                }
            }
            if list.len() < 8 {
                list.push((t, na, nb));
            }
        }
    }
    let roots: Vec<usize> = (0..n).map(|t| find(&mut parent, t)).collect();
    let mut size: HashMap<usize, usize> = HashMap::new();
    for &r in &roots {
        *size.entry(r).or_default() += 1;
    }
    let faceted = |t: usize| size[&roots[t]] == 1 && normals[t].iter().all(|&c| same(c, faces[t]));
    // Regions touching at each vertex.
    let mut at_vertex: HashMap<u32, Vec<usize>> = HashMap::new();
    for (t, c) in corners.iter().enumerate() {
        for &v in c {
            let list = at_vertex.entry(v).or_default();
            if !list.contains(&roots[t]) {
                list.push(roots[t]);
            }
        }
    }
    let mut neighbours: HashMap<usize, Vec<usize>> = HashMap::new();
    for list in at_vertex.values() {
        for &a in list {
            let entry = neighbours.entry(a).or_default();
            for &b in list {
                if a != b && !entry.contains(&b) && entry.len() < 4096 {
                    entry.push(b);
                }
            }
        }
    }
    let mut number: HashMap<usize, u8> = HashMap::new();
    let mut conflicts = 0;
    let mut out = vec![0u8; n];
    for t in 0..n {
        if faceted(t) {
            continue;
        }
        let r = roots[t];
        if let Some(&g) = number.get(&r) {
            out[t] = g;
            continue;
        }
        let mut used = [0usize; 33];
        for b in neighbours.get(&r).map_or(&[][..], Vec::as_slice) {
            if let Some(&g) = number.get(b) {
                used[usize::from(g)] += 1;
            }
        }
        let g = match (1..=32).find(|&g| used[g] == 0) {
            Some(g) => g,
            None => {
                conflicts += 1;
                (1..=32).min_by_key(|&g| used[g]).unwrap_or(1)
            }
        } as u8;
        number.insert(r, g);
        out[t] = g;
    }
    (out, conflicts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_and_hard_edges() {
        // Two triangles sharing edge 1-2: smooth when the normals at 1 and
        // 2 agree, else two regions with different numbers.
        let up = [0.0, 0.0, 1.0];
        let tilted = [0.0, 0.6, 0.8];
        let corners = [[0, 1, 2], [2, 1, 3]];
        let faces = [up, up];
        let (g, c) = smoothing_groups(
            &corners,
            &[[up, tilted, tilted], [tilted, tilted, up]],
            &faces,
        );
        assert_eq!((g[0], g[1], c), (1, 1, 0));
        let (g, _) = smoothing_groups(&corners, &[[up, tilted, tilted], [up, up, up]], &faces);
        assert!(g[0] != 0 && g[1] == 0 && g[0] != g[1], "{g:?}");
        // A flat quad: both triangles carry the face normal, one region.
        let (g, _) = smoothing_groups(&corners, &[[up; 3], [up; 3]], &faces);
        assert_eq!(g, [1, 1]);
        // A lone flat triangle: none.
        let (g, _) = smoothing_groups(&[[0, 1, 2]], &[[up; 3]], &[up]);
        assert_eq!(g, [0]);
    }
}
