//! Texture coordinates per vertex, and the seam.
//!
//! An MDL stores one texture coordinate per vertex (skin pixels `s`,
//! `t`; the renderers sample at `(s + 0.5) / width`), where the scene has
//! one per corner. Each corner's coordinate is the skin texel its UV falls
//! in (`s = ⌊u · width⌋`, `t = ⌊v · height⌋`, clamped into the skin), so
//! the decoded UV is within half a texel of the source's.
//!
//! - **Facing.** A triangle whose three corners lie in the right half of
//!   the skin (`s ≥ width / 2`) is a back triangle (`facesfront = 0`);
//!   every other triangle faces front. (Quake's skins put the front of
//!   the model on the left half and the back on the right.)
//! - **Onseam.** A welded position whose front corners use `(s, t)` and
//!   whose back corners use `(s + width / 2, t)` is one vertex with
//!   coordinate `(s, t)` and the onseam flag: the renderers move `s` by
//!   half the width on back triangles. That is the only shift the format
//!   has.
//! - **Splits.** Every other difference splits the position into as many
//!   vertices as it has distinct coordinates (front corners first, then
//!   back corners not served by an onseam vertex): each vertex carries the
//!   same position bytes and normal in every frame.
//!
//! So every corner decodes to its own texel, and vertices are split only
//! where the seam cannot serve both sides.

use std::collections::HashMap;

use crate::mdl::{TexCoord, Triangle, FACES_FRONT, ONSEAM};

/// The MDL vertices, texture coordinates and triangles.
#[derive(Debug, Clone, Default)]
pub(super) struct Seams {
    /// Per MDL vertex: its welded position.
    pub welded_of: Vec<u32>,
    /// Per MDL vertex: its texture coordinate.
    pub texcoords: Vec<TexCoord>,
    /// The triangles (Quake's clockwise corners).
    pub triangles: Vec<Triangle>,
}

/// Lays out `triangles` (welded corners, Quake's order) whose corners
/// have the skin texels `corner_st` (three per triangle) on a skin
/// `width` wide (even).
pub(super) fn lay_out(triangles: &[[u32; 3]], corner_st: &[[i32; 2]], width: i32) -> Seams {
    let half = width / 2;
    let back: Vec<bool> = (0..triangles.len())
        .map(|t| (0..3).all(|k| corner_st[t * 3 + k][0] >= half))
        .collect();
    let mut out = Seams::default();
    let mut ids: HashMap<(u32, i32, i32), u32> = HashMap::new();
    let mut corner_vertex = vec![0u32; triangles.len() * 3];
    let vertex =
        |ids: &mut HashMap<(u32, i32, i32), u32>, out: &mut Seams, w: u32, st: [i32; 2]| -> u32 {
            *ids.entry((w, st[0], st[1])).or_insert_with(|| {
                out.welded_of.push(w);
                out.texcoords.push(TexCoord {
                    onseam: 0,
                    s: st[0],
                    t: st[1],
                });
                (out.welded_of.len() - 1) as u32
            })
        };
    // Front corners first: their coordinates as they are.
    for (t, tri) in triangles.iter().enumerate() {
        if !back[t] {
            for k in 0..3 {
                corner_vertex[t * 3 + k] = vertex(&mut ids, &mut out, tri[k], corner_st[t * 3 + k]);
            }
        }
    }
    let front_vertices = out.welded_of.len();
    // Back corners: the front vertex half a skin to the left, made
    // onseam, else their own.
    for (t, tri) in triangles.iter().enumerate() {
        if back[t] {
            for k in 0..3 {
                let st = corner_st[t * 3 + k];
                let w = tri[k];
                let v = match ids.get(&(w, st[0] - half, st[1])) {
                    Some(&v) if (v as usize) < front_vertices => {
                        out.texcoords[v as usize].onseam = ONSEAM;
                        v
                    }
                    _ => vertex(&mut ids, &mut out, w, st),
                };
                corner_vertex[t * 3 + k] = v;
            }
        }
    }
    out.triangles = triangles
        .iter()
        .enumerate()
        .map(|(t, _)| {
            let v = [0, 1, 2].map(|k| corner_vertex[t * 3 + k] as i32);
            Triangle {
                faces_front: if back[t] { 0 } else { FACES_FRONT },
                vertices: v,
                texcoords: v,
            }
        })
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texel a corner decodes to, as the renderers compute it.
    fn decoded(s: &Seams, t: usize, k: usize, width: i32) -> [i32; 2] {
        let tri = s.triangles[t];
        let tc = s.texcoords[tri.vertices[k] as usize];
        let shift = if tc.onseam != 0 && tri.faces_front == 0 {
            width / 2
        } else {
            0
        };
        [tc.s + shift, tc.t]
    }

    #[test]
    fn a_mirrored_seam_is_onseam_and_other_differences_split() {
        // Width 8: position 0 is on the seam (front texel 1, back texel
        // 5 = 1 + 4); position 1 has front texels 2 and 3 (a split).
        let triangles = [[0, 1, 2], [0, 3, 4], [1, 2, 3]];
        let st = [
            [1, 0],
            [2, 0],
            [0, 1], // front
            [5, 0],
            [6, 1],
            [7, 2], // back: all in the right half
            [3, 0],
            [0, 1],
            [2, 2], // front, position 1 at texel 3
        ];
        let s = lay_out(&triangles, &st, 8);
        for t in 0..3 {
            for k in 0..3 {
                assert_eq!(
                    decoded(&s, t, k, 8),
                    st[t * 3 + k],
                    "triangle {t} corner {k}"
                );
            }
        }
        assert_eq!(s.triangles[1].faces_front, 0);
        assert_ne!(s.triangles[0].faces_front, 0);
        // Position 0: one vertex, onseam; position 1: two vertices.
        assert_eq!(s.welded_of.iter().filter(|&&w| w == 0).count(), 1);
        assert_eq!(s.welded_of.iter().filter(|&&w| w == 1).count(), 2);
        let v0 = s.triangles[0].vertices[0] as usize;
        assert_eq!(s.texcoords[v0].onseam, ONSEAM);
        assert_eq!(s.texcoords.iter().filter(|t| t.onseam != 0).count(), 1);
    }
}
