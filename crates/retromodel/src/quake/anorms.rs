//! The 162 unit normals that MD2 vertices index.
//!
//! The values are those of Quake II's `anorms.h` (the vertices of a
//! subdivided icosahedron), given to six decimals as in every copy of the
//! table.

/// How many normals the table holds; a valid normal index is below this.
pub const NORMAL_COUNT: usize = 162;

/// The table of unit normals, indexed by a vertex's `normal_index`.
///
/// ```
/// use retromodel::md2::NORMALS;
/// assert_eq!(NORMALS.len(), 162);
/// assert_eq!(NORMALS[5], [0.0, 0.0, 1.0]);
/// ```
pub const NORMALS: [[f32; 3]; NORMAL_COUNT] = include!("normals.in");

/// The index of the table normal closest in direction to `n` (the largest
/// dot product), as Quake II's tools choose it. A zero or non-finite vector
/// gives index 0.
///
/// ```
/// use retromodel::md2::{nearest_normal_index, NORMALS};
/// assert_eq!(nearest_normal_index([0.0, 0.0, 2.0]), 5);
/// for (i, n) in NORMALS.iter().enumerate() {
///     assert_eq!(nearest_normal_index(*n) as usize, i);
/// }
/// ```
pub fn nearest_normal_index(n: [f32; 3]) -> u8 {
    // A cube map of candidates gives the same answer with a handful of
    // dot products instead of 162 (see `nearest.rs`); directions it cannot
    // place (zero, not finite) take the full scan.
    if let Some(i) = super::nearest::nearest(n) {
        return i;
    }
    let mut best = 0usize;
    let mut best_dot = f32::NEG_INFINITY;
    for (i, t) in NORMALS.iter().enumerate() {
        let d = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    // best < 162 always fits in a byte.
    best as u8
}

/// The normal for `index`, or the zero vector for an index outside the
/// table (as Q2PRO treats corrupt indices).
#[inline]
pub fn normal(index: u8) -> [f32; 3] {
    let n = &NORMALS_PADDED[index as usize];
    [n[0], n[1], n[2]]
}

/// [`NORMALS`] widened for the decoding loops: one entry for every byte
/// value (zero past the table, so no index needs a check or a branch), and
/// four lanes per entry (the fourth is zero) so an entry loads and stores
/// as one 16-byte vector.
pub(crate) static NORMALS_PADDED: [[f32; 4]; 256] = pad_normals();

const fn pad_normals() -> [[f32; 4]; 256] {
    let mut table = [[0.0; 4]; 256];
    let mut i = 0;
    while i < NORMAL_COUNT {
        table[i] = [NORMALS[i][0], NORMALS[i][1], NORMALS[i][2], 0.0];
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_holds_distinct_unit_vectors() {
        for (i, n) in NORMALS.iter().enumerate() {
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-5, "normal {i} has length {len}");
            for m in &NORMALS[..i] {
                assert_ne!(n, m);
            }
        }
    }

    #[test]
    fn out_of_range_index_gives_zero() {
        assert_eq!(normal(161), NORMALS[161]);
        assert_eq!(normal(162), [0.0; 3]);
        assert_eq!(normal(255), [0.0; 3]);
    }

    #[test]
    fn padded_table_matches_table() {
        for index in 0..=255u8 {
            let padded = NORMALS_PADDED[index as usize];
            let expected = NORMALS.get(index as usize).copied().unwrap_or([0.0; 3]);
            assert_eq!(padded, [expected[0], expected[1], expected[2], 0.0]);
        }
    }
}
