//! What the GL command builders share: the primitive under construction
//! ([`Prim`]) and turning primitives into the words of a GL command list
//! ([`emit`]).

use super::mesh::{st_of, xyz_of, Corner};
use crate::md2::Md2;

/// A strip or fan under construction: its corners and the triangles it
/// covers.
#[derive(Clone, Default)]
pub(super) struct Prim {
    /// A fan (else a strip).
    pub(super) fan: bool,
    /// The corners in the order GL is sent them.
    pub(super) corners: Vec<Corner>,
    /// The triangles covered, as indices into [`Mesh::tris`](super::mesh::Mesh::tris).
    pub(super) tris: Vec<u32>,
}

/// Texture coordinate as qdata computes it: `(pixel + 0.5) / size` in
/// double precision, stored as `f32`. A skin size of 0 or less (corrupt)
/// is taken as 1.
fn normalise(pixel: i16, size: i32) -> f32 {
    ((f64::from(pixel) + 0.5) / f64::from(size.max(1))) as f32
}

/// The GL command words of `prims`, each a count (negative for a fan)
/// and per corner `s`, `t` and the vertex index, then the terminating 0.
/// The vector has exactly the capacity the words need.
pub(super) fn emit(model: &Md2, prims: &[Prim]) -> Vec<u32> {
    let words = 1 + prims.iter().map(|p| 1 + 3 * p.corners.len()).sum::<usize>();
    let mut out = Vec::with_capacity(words);
    for p in prims {
        let n = p.corners.len() as i32;
        out.push(if p.fan { -n } else { n } as u32);
        for &c in &p.corners {
            // Every corner comes from a triangle whose indices were checked.
            let st = model.texcoords.get(st_of(c)).copied().unwrap_or_default();
            out.push(normalise(st.s, model.skin_width).to_bits());
            out.push(normalise(st.t, model.skin_height).to_bits());
            out.push(xyz_of(c));
        }
    }
    out.push(0);
    out
}
