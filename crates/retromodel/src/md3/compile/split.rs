//! Splitting a surface past a per-surface limit (ioquake3's 999 vertices
//! or 1999 triangles, the format's 4096 and 8192) into several surfaces of
//! the same name and shader, as Quake III modellers do by hand: a `.skin`
//! file naming the surface then skins every part.

use crate::md3::Surface;

/// The parts of `surface` (with its triangles' `sources`), each within
/// `max_vertices` and `max_triangles`: triangles in order, a new part
/// started when the next triangle would pass a limit. A surface within
/// both is one part, unchanged.
pub(super) fn split<T: Copy>(
    surface: Surface,
    sources: Vec<T>,
    max_vertices: usize,
    max_triangles: usize,
) -> Vec<(Surface, Vec<T>)> {
    let nv = surface.vertex_count();
    if (nv <= max_vertices && surface.triangles.len() <= max_triangles)
        || max_vertices < 3
        || max_triangles < 1
    {
        return vec![(surface, sources)];
    }
    let frames = usize::try_from(surface.num_frames).unwrap_or(0);
    // Per part: its triangles (by index) and its vertices in order.
    let mut parts: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let mut local = vec![usize::MAX; nv];
    let mut part = 0usize;
    let mut current: (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for (t, tri) in surface.triangles.iter().enumerate() {
        let corners = tri.map(|c| usize::try_from(c).unwrap_or(0).min(nv.saturating_sub(1)));
        let new = corners
            .iter()
            .enumerate()
            .filter(|&(k, &c)| local[c] != part && !corners[..k].contains(&c))
            .count();
        if current.1.len() + new > max_vertices || current.0.len() + 1 > max_triangles {
            parts.push(std::mem::take(&mut current));
            part += 1;
        }
        for c in corners {
            if local[c] != part {
                local[c] = part;
                current.1.push(c);
            }
        }
        current.0.push(t);
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|(tris, verts)| {
            let mut index = vec![0i32; nv];
            for (i, &v) in verts.iter().enumerate() {
                index[v] = i as i32;
            }
            let mut xyz_normals = Vec::with_capacity(frames * verts.len());
            for f in 0..frames {
                let frame = surface.frame(f).unwrap_or(&[]);
                xyz_normals.extend(verts.iter().filter_map(|&v| frame.get(v).copied()));
            }
            let part = Surface {
                triangles: tris
                    .iter()
                    .map(|&t| {
                        surface.triangles[t]
                            .map(|c| index[usize::try_from(c).unwrap_or(0).min(nv - 1)])
                    })
                    .collect(),
                texcoords: verts.iter().map(|&v| surface.texcoords[v]).collect(),
                xyz_normals,
                ..surface.clone()
            };
            let part_sources = tris.iter().map(|&t| sources[t]).collect();
            (part, part_sources)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md3::XyzNormal;

    #[test]
    fn a_strip_splits_where_the_next_triangle_would_pass_the_limit() {
        // A strip of 6 triangles over 8 vertices, 2 frames; at most 5
        // vertices per part.
        let n = 8;
        let surface = Surface {
            triangles: (0..6).map(|i| [i, i + 1, i + 2]).collect(),
            texcoords: (0..n).map(|v| [v as f32, 0.0]).collect(),
            num_frames: 2,
            xyz_normals: (0..2 * n)
                .map(|i| XyzNormal {
                    xyz: [i as i16, 0, 0],
                    normal: 0,
                })
                .collect(),
            ..Surface::default()
        };
        let parts = split(surface, (0..6).collect(), 5, 100);
        assert_eq!(parts.len(), 2);
        // Part 0: triangles 0..3 over vertices 0..5; part 1: 3..6 over 3..8.
        assert_eq!(parts[0].1, [0, 1, 2]);
        assert_eq!(parts[0].0.triangles, [[0, 1, 2], [1, 2, 3], [2, 3, 4]]);
        assert_eq!(parts[1].1, [3, 4, 5]);
        assert_eq!(parts[1].0.texcoords[0], [3.0, 0.0]);
        // Frame 1 of part 1's first vertex is source vertex 3 of frame 1.
        assert_eq!(parts[1].0.frame(1).unwrap()[0].xyz, [8 + 3, 0, 0]);
        for (p, _) in &parts {
            assert!(p.vertex_count() <= 5);
            assert_eq!(p.xyz_normals.len(), 2 * p.vertex_count());
        }
        // By triangles: at most 4 per part.
        let surface = parts[0].0.clone();
        assert_eq!(split(surface, vec![0, 1, 2], 100, 2).len(), 2);
    }
}
