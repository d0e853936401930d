//! The nearest of the 162 table normals to a direction, fast: a cube map
//! of cells, each holding the few table normals that can be nearest to any
//! direction in it, so a lookup compares a handful instead of 162, with
//! exactly the brute-force answer (ties to the lowest index).
//!
//! Why the candidates suffice: let `c` be a cell's central direction, `r`
//! the largest angle between `c` and a direction `d` of the cell, and `t₀`
//! the table normal nearest to `c`. The normal `t*` nearest to `d` has
//! `∠(t*, d) ≤ ∠(t₀, d) ≤ ∠(t₀, c) + r`, so `∠(t*, c) ≤ ∠(t*, d) + r ≤
//! ∠(t₀, c) + 2r`. Every normal within that angle of `c` (plus a margin for
//! rounding) is a candidate, in index order; every tied maximum is among
//! them, so the first maximum found is the brute force's.

use std::sync::OnceLock;

use super::anorms::NORMALS;

/// Cells per cube face edge.
const SIDE: usize = 16;

/// Radians added to every cell's candidate angle against rounding.
const MARGIN: f64 = 1e-3;

/// The candidates of every cell: `start[cell]..start[cell + 1]` in
/// `indices`.
struct Table {
    start: Vec<u32>,
    indices: Vec<u8>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The unit direction through face `face` (axis `face / 2`, sign `face %
/// 2`) at face coordinates `(u, v)` in `[-1, 1]`.
fn direction(face: usize, u: f64, v: f64) -> [f64; 3] {
    let axis = face / 2;
    let sign = if face.is_multiple_of(2) { 1.0 } else { -1.0 };
    let mut d = [0.0; 3];
    d[axis] = sign;
    d[(axis + 1) % 3] = u;
    d[(axis + 2) % 3] = v;
    let l = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    d.map(|x| x / l)
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]).clamp(-1.0, 1.0)
}

fn build() -> Table {
    let normals: Vec<[f64; 3]> = NORMALS.iter().map(|n| n.map(f64::from)).collect();
    let mut start = Vec::with_capacity(6 * SIDE * SIDE + 1);
    let mut indices = Vec::new();
    let step = 2.0 / SIDE as f64;
    for face in 0..6 {
        for j in 0..SIDE {
            for i in 0..SIDE {
                start.push(indices.len() as u32);
                let (u0, v0) = (-1.0 + i as f64 * step, -1.0 + j as f64 * step);
                let c = direction(face, u0 + step / 2.0, v0 + step / 2.0);
                // The cell's corners are its farthest directions from the
                // centre (the angle grows monotonically towards them).
                // Angles through cosines: one arc cosine for the cell's
                // radius, one for its nearest normal, one cosine back.
                let r = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
                    .iter()
                    .map(|&(a, b)| dot(c, direction(face, u0 + a * step, v0 + b * step)))
                    .fold(1.0, f64::min)
                    .acos();
                let dots: Vec<f64> = normals.iter().map(|t| dot(*t, c)).collect();
                let nearest = dots.iter().copied().fold(-1.0, f64::max).acos();
                let limit = (nearest + 2.0 * r + MARGIN).min(std::f64::consts::PI);
                let min_cos = limit.cos();
                for (k, &d) in dots.iter().enumerate() {
                    if d >= min_cos {
                        indices.push(k as u8);
                    }
                }
            }
        }
    }
    start.push(indices.len() as u32);
    Table { start, indices }
}

/// The index of the table normal with the largest dot product with `n`
/// (the first on a tie), as [`super::nearest_normal_index`] defines it.
/// `None` for a direction the cube map cannot place (zero, not finite).
pub(crate) fn nearest(n: [f32; 3]) -> Option<u8> {
    let a = n.map(f32::abs);
    let axis = if a[0] >= a[1] && a[0] >= a[2] {
        0
    } else if a[1] >= a[2] {
        1
    } else {
        2
    };
    let m = a[axis];
    if !n.iter().all(|x| x.is_finite()) || m <= 0.0 {
        return None;
    }
    let face = 2 * axis + usize::from(n[axis] < 0.0);
    let cell = |x: f32| -> usize {
        // (x / m) in [-1, 1] → 0..SIDE.
        (((x / m + 1.0) * 0.5 * SIDE as f32) as usize).min(SIDE - 1)
    };
    let (i, j) = (cell(n[(axis + 1) % 3]), cell(n[(axis + 2) % 3]));
    let t = table();
    let k = (face * SIDE + j) * SIDE + i;
    let range = t.start[k] as usize..t.start[k + 1] as usize;
    let mut best = 0u8;
    let mut best_dot = f32::NEG_INFINITY;
    for &c in &t.indices[range] {
        let v = &NORMALS[usize::from(c)];
        let d = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
        if d > best_dot {
            best_dot = d;
            best = c;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: [f32; 3]) -> u8 {
        let mut best = 0usize;
        let mut best_dot = f32::NEG_INFINITY;
        for (i, t) in NORMALS.iter().enumerate() {
            let d = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
            if d > best_dot {
                best_dot = d;
                best = i;
            }
        }
        best as u8
    }

    #[test]
    fn the_cube_map_gives_the_brute_forces_answer() {
        let t = table();
        let cells = 6 * SIDE * SIDE;
        let most = (0..cells)
            .map(|k| t.start[k + 1] - t.start[k])
            .max()
            .unwrap_or(0);
        assert!(most <= 24, "at most {most} candidates a cell");
        // Random directions (a fixed xorshift), the table normals, the
        // cell edges and lengths other than 1.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        for _ in 0..300_000 {
            let n = [next(), next(), next()];
            assert_eq!(nearest(n).unwrap_or(0), brute(n), "{n:?}");
            let s = [n[0] * 37.0, n[1] * 37.0, n[2] * 37.0];
            assert_eq!(nearest(s).unwrap_or(0), brute(s), "{s:?}");
        }
        for n in NORMALS {
            assert_eq!(nearest(n), Some(brute(n)));
        }
        for n in [
            [1.0, 1.0, 1.0],
            [1.0, -1.0, 0.0],
            [0.0, 0.0, -1.0],
            [1.0, 0.5, 0.5],
        ] {
            assert_eq!(nearest(n), Some(brute(n)), "{n:?}");
        }
        assert_eq!(nearest([0.0; 3]), None);
        assert_eq!(nearest([f32::NAN, 0.0, 1.0]), None);
    }
}
