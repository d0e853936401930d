//! The nearest of the 162 table normals to a direction, fast: a cube map
//! of cells, each holding the few table normals that can be nearest to any
//! direction in it (at most three), so a lookup compares a handful instead
//! of 162, with exactly the brute-force answer (ties to the lowest index).
//!
//! The cells are made by the build script (`build.rs`, which also gives
//! the reason the candidates suffice), so no program builds them at run
//! time.

use super::anorms::NORMALS;

include!(concat!(env!("OUT_DIR"), "/nearest_cells.rs"));

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
    // (x / m) in [-1, 1] → 0..SIDE (through i32, which converts in one
    // instruction; the value is in 0..=SIDE).
    let half_side_over_m = 0.5 * SIDE as f32 / m;
    let cell = |x: f32| -> usize {
        ((x * half_side_over_m + 0.5 * SIDE as f32) as i32).clamp(0, SIDE as i32 - 1) as usize
    };
    let (i, j) = (cell(n[(axis + 1) % 3]), cell(n[(axis + 2) % 3]));
    let [count, candidates @ ..] = CELLS[(face * SIDE + j) * SIDE + i];
    if count == 1 {
        return Some(candidates[0]);
    }
    let mut best = 0u8;
    let mut best_dot = f32::NEG_INFINITY;
    for &c in &candidates[..usize::from(count)] {
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
        assert_eq!(CELLS.len(), 6 * SIDE * SIDE);
        for (k, c) in CELLS.iter().enumerate() {
            assert!(c[0] >= 1, "cell {k} has no candidate");
            let used = &c[1..=usize::from(c[0])];
            assert!(used.windows(2).all(|w| w[0] < w[1]), "cell {k}: {used:?}");
            assert!(used.iter().all(|&i| usize::from(i) < NORMALS.len()));
        }
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
        // Every cell's corners, and directions a hair either side of the
        // cell edges, where a rounding error can pick the neighbour.
        for face in 0..6 {
            let (axis, sign) = (face / 2, if face % 2 == 0 { 1.0 } else { -1.0 });
            for j in 0..=SIDE {
                for i in 0..=SIDE {
                    for (du, dv) in [(0.0, 0.0), (1e-6, -1e-6), (-1e-6, 1e-6), (0.3, 1e-7)] {
                        let at = |k: usize, d: f32| -1.0 + 2.0 * k as f32 / SIDE as f32 + d;
                        let mut n = [0.0f32; 3];
                        n[axis] = sign;
                        n[(axis + 1) % 3] = at(i, du).clamp(-1.0, 1.0);
                        n[(axis + 2) % 3] = at(j, dv).clamp(-1.0, 1.0);
                        assert_eq!(nearest(n), Some(brute(n)), "{n:?}");
                    }
                }
            }
        }
        assert_eq!(nearest([0.0; 3]), None);
        assert_eq!(nearest([f32::NAN, 0.0, 1.0]), None);
    }
}
