//! Makes the nearest-normal cube map (`src/quake/nearest.rs`) at build time,
//! so no program pays for it at run time and native and WebAssembly builds
//! hold the same table.
//!
//! The cube around the unit sphere has `SIDE × SIDE` cells on each face;
//! each cell lists the table normals that can be the nearest to some
//! direction through it. Why those suffice: let `c` be a cell's central
//! direction, `r` the largest angle between `c` and a direction `d` of the
//! cell, and `t₀` the table normal nearest to `c`. The normal `t*` nearest
//! to `d` has `∠(t*, d) ≤ ∠(t₀, d) ≤ ∠(t₀, c) + r`, so
//! `∠(t*, c) ≤ ∠(t*, d) + r ≤ ∠(t₀, c) + 2r`. Every normal within that
//! angle of `c` (plus a margin for rounding, which also covers a direction
//! that a rounding error places in a neighbouring cell) is a candidate, in
//! index order; every tied maximum is among them, so the first maximum
//! found is the brute force's.

use std::fmt::Write as _;
use std::path::PathBuf;

/// The table normals, as `src/quake/anorms.rs` holds them.
const NORMALS: [[f32; 3]; 162] = include!("src/quake/normals.in");

/// Cells per cube face edge.
const SIDE: usize = 32;

/// Candidates a cell can hold; the build fails if a cell needs more.
const MOST: usize = 3;

/// Radians added to every cell's candidate angle against rounding.
const MARGIN: f64 = 1e-3;

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

/// Per cell, `[count, candidates...]` (unused slots 0).
fn cells() -> Vec<[u8; MOST + 1]> {
    let normals: Vec<[f64; 3]> = NORMALS.iter().map(|n| n.map(f64::from)).collect();
    let step = 2.0 / SIDE as f64;
    let mut cells = Vec::with_capacity(6 * SIDE * SIDE);
    for face in 0..6 {
        for j in 0..SIDE {
            for i in 0..SIDE {
                let (u0, v0) = (-1.0 + i as f64 * step, -1.0 + j as f64 * step);
                let c = direction(face, u0 + step / 2.0, v0 + step / 2.0);
                // The cell's corners are its farthest directions from the
                // centre (the angle grows monotonically towards them).
                let r = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
                    .iter()
                    .map(|&(a, b)| dot(c, direction(face, u0 + a * step, v0 + b * step)))
                    .fold(1.0, f64::min)
                    .acos();
                let dots: Vec<f64> = normals.iter().map(|t| dot(*t, c)).collect();
                let nearest = dots.iter().copied().fold(-1.0, f64::max).acos();
                let limit = (nearest + 2.0 * r + MARGIN).min(std::f64::consts::PI);
                let min_cos = limit.cos();
                let mut cell = [0u8; MOST + 1];
                for (k, &d) in dots.iter().enumerate() {
                    if d >= min_cos {
                        let at = usize::from(cell[0]) + 1;
                        assert!(at <= MOST, "a cell needs more than {MOST} candidates");
                        cell[at] = k as u8;
                        cell[0] += 1;
                    }
                }
                cells.push(cell);
            }
        }
    }
    cells
}

/// Per table normal `t`, the cosine of the angle within which `t` is
/// surely the nearest: half the angle to the closest other normal, less
/// [`MARGIN`]. A unit direction `d` with `d · t` above it is closer to
/// `t` than half the gap, and every other normal is farther than half the
/// gap, by at least twice the margin (far more than `f32` rounding moves
/// a dot product), so `t` is the brute force's unique answer.
fn sure_cosines() -> Vec<f32> {
    let normals: Vec<[f64; 3]> = NORMALS.iter().map(|n| n.map(f64::from)).collect();
    normals
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let closest = normals
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &u)| dot(t, u).acos())
                .fold(std::f64::consts::PI, f64::min);
            let half = closest / 2.0 - MARGIN;
            assert!(half > 0.0, "normal {i} is too close to another");
            // Rounded up, so the test in `f32` is no looser than in `f64`.
            let c = half.cos() as f32;
            if f64::from(c) < half.cos() {
                c.next_up()
            } else {
                c
            }
        })
        .collect()
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/quake/normals.in");
    let cells = cells();
    let mut out = String::new();
    writeln!(out, "/// Cells per cube face edge.").unwrap();
    writeln!(out, "const SIDE: usize = {SIDE};").unwrap();
    writeln!(
        out,
        "/// Per cell (`(face * SIDE + j) * SIDE + i`): how many candidates, then\n\
         /// the candidates in index order."
    )
    .unwrap();
    writeln!(
        out,
        "static CELLS: [[u8; {}]; {}] = [",
        MOST + 1,
        cells.len()
    )
    .unwrap();
    for c in &cells {
        writeln!(out, "    {c:?},").unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(
        out,
        "/// Per table normal, the cosine within which it is surely the nearest\n\
         /// (half the angle to the closest other normal, less a margin)."
    )
    .unwrap();
    writeln!(
        out,
        "#[cfg_attr(not(feature = \"scene\"), allow(dead_code))] // used by compiles only"
    )
    .unwrap();
    writeln!(out, "static SURE: [f32; {}] = [", NORMALS.len()).unwrap();
    for c in sure_cosines() {
        writeln!(out, "    {c:?},").unwrap();
    }
    writeln!(out, "];").unwrap();
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dir.join("nearest_cells.rs"), out).expect("OUT_DIR is writable");
}
