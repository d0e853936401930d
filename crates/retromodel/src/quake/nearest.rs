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

/// [`nearest`] of the unit direction `n` when it is close to table
/// normal `guess` (within half the gap to the closest other normal, less
/// a margin: then `guess` is surely the answer, with no look-up), else
/// `None`. One dot product: for a direction that moves little from one
/// frame to the next, the last frame's answer is a good guess.
#[cfg_attr(not(feature = "scene"), allow(dead_code))] // used by compiles only
#[inline]
pub(crate) fn nearest_near(n: [f32; 3], guess: u8) -> Option<u8> {
    let (Some(t), Some(&sure)) = (
        NORMALS.get(usize::from(guess)),
        SURE.get(usize::from(guess)),
    ) else {
        return None;
    };
    (n[0] * t[0] + n[1] * t[1] + n[2] * t[2] > sure).then_some(guess)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random coordinates in `[-1, 1)` from a fixed xorshift.
    fn coordinates(seed: u64) -> impl FnMut() -> f32 {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        }
    }

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
        let mut next = coordinates(0x2545_f491_4f6c_dd1d);
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

    /// A unit direction `angle` radians from `t`, towards `towards`.
    fn tilted(t: [f32; 3], towards: [f32; 3], angle: f64) -> [f32; 3] {
        let t = t.map(f64::from);
        let w = towards.map(f64::from);
        let along: f64 = (0..3).map(|k| w[k] * t[k]).sum();
        let mut u = [0.0f64; 3];
        for k in 0..3 {
            u[k] = w[k] - along * t[k];
        }
        let l = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
        let (s, c) = angle.sin_cos();
        [0, 1, 2].map(|k| (c * t[k] + s * u[k] / l) as f32)
    }

    #[test]
    fn a_sure_guess_is_the_brute_forces_answer_and_a_far_one_is_refused() {
        let mut next = coordinates(0x9E37_79B9_7F4A_7C15);
        let mut taken = 0;
        for _ in 0..300_000 {
            let v = [next(), next(), next()];
            let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if l < 1e-3 {
                continue;
            }
            let n = v.map(|c| c / l);
            let want = brute(n);
            for guess in [want, (want + 1) % 162, 0, 161] {
                if let Some(got) = nearest_near(n, guess) {
                    assert_eq!(got, want, "{n:?} guessed {guess}");
                    taken += 1;
                }
            }
        }
        // Most directions near their nearest normal are taken.
        assert!(taken > 100_000, "{taken}");
        // Each normal's sure angle, approached from every side: just
        // inside is taken, and anything taken is the brute force's answer;
        // at the gap's middle toward the closest other normal, refused.
        for (g, &t) in NORMALS.iter().enumerate() {
            let (closest, gap) = NORMALS
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != g)
                .map(|(j, u)| (j, f64::from(t[0] * u[0] + t[1] * u[1] + t[2] * u[2]).acos()))
                .fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
            let half = SURE[g].acos() as f64;
            assert!(half < gap / 2.0, "normal {g}");
            for towards in NORMALS.iter() {
                for angle in [0.0, half * 0.5, half * 0.999, half * 1.001, gap / 2.0] {
                    let n = tilted(t, *towards, angle);
                    if !n.iter().all(|c| c.is_finite()) {
                        continue;
                    }
                    if let Some(got) = nearest_near(n, g as u8) {
                        assert_eq!(got, brute(n), "normal {g} tilted {angle} rad");
                    }
                }
            }
            let middle = tilted(t, NORMALS[closest], gap / 2.0);
            assert_eq!(nearest_near(middle, g as u8), None, "normal {g}");
            assert_eq!(nearest_near(t, g as u8), Some(g as u8));
        }
        assert_eq!(nearest_near([0.0, 0.0, 1.0], 200), None, "no such normal");
    }
}
