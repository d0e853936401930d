//! Helpers for the GL command builders' unit tests: an independent
//! statement of which triangles a list must draw, small models, and a
//! deterministic random number generator.

use crate::md2::gl_commands::decode;
use crate::md2::{Md2, TexCoord, Triangle};
use std::collections::BTreeMap;

/// A drawn triangle: per corner the vertex index and the bits of `s`
/// and `t`.
pub(super) type Drawn = [(i32, u32, u32); 3];

/// The rotation of `c` that starts at its smallest corner (the same
/// triangle with the same winding compares equal).
fn normalized(c: Drawn) -> Drawn {
    [c, [c[1], c[2], c[0]], [c[2], c[0], c[1]]]
        .into_iter()
        .min()
        .unwrap_or(c)
}

/// The valid triangles of `m` as GL should draw them, computed straight
/// from the documented rule and qdata's `(s + 0.5) / width`.
pub(super) fn expected(m: &Md2) -> BTreeMap<Drawn, usize> {
    let norm = |p: i16, size: i32| ((f64::from(p) + 0.5) / f64::from(size.max(1))) as f32;
    let mut out = BTreeMap::new();
    for t in &m.triangles {
        if t.vertices.iter().any(|&v| v as usize >= m.num_vertices)
            || t.texcoords.iter().any(|&s| s as usize >= m.texcoords.len())
        {
            continue;
        }
        let c = [0, 1, 2].map(|k| {
            let st = m.texcoords[t.texcoords[k] as usize];
            (
                i32::from(t.vertices[k]),
                norm(st.s, m.skin_width).to_bits(),
                norm(st.t, m.skin_height).to_bits(),
            )
        });
        *out.entry(normalized(c)).or_insert(0) += 1;
    }
    out
}

/// Decodes `words`, checks it is a clean list drawing exactly the valid
/// triangles, and returns its primitive count.
pub(super) fn check(m: &Md2, words: &[u32]) -> usize {
    let d = decode(words, m.num_vertices);
    assert!(d.faults.is_empty() && d.terminated, "{:?}", d.faults);
    let mut drawn = BTreeMap::new();
    for p in &d.primitives {
        assert!(p.vertices.len() >= 3);
        for tri in p.triangles() {
            let c = tri.map(|k| {
                let v = p.vertices[k];
                (v.vertex, v.s.to_bits(), v.t.to_bits())
            });
            *drawn.entry(normalized(c)).or_insert(0) += 1;
        }
    }
    assert_eq!(drawn, expected(m));
    d.primitives.len()
}

/// A small deterministic random number generator (xorshift64*).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    /// A number in `0..n`.
    pub(super) fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }
}

/// A model with a 64×32 skin and no frames.
pub(super) fn model(num_vertices: usize, texcoords: Vec<TexCoord>, tris: Vec<Triangle>) -> Md2 {
    Md2 {
        skin_width: 64,
        skin_height: 32,
        num_vertices,
        texcoords,
        triangles: tris,
        ..Md2::default()
    }
}

/// A triangle whose texture coordinate indices equal its vertex indices.
pub(super) fn tri(v: [u16; 3]) -> Triangle {
    Triangle {
        vertices: v,
        texcoords: v,
    }
}

/// An `n × n` grid of texture coordinates, row by row.
pub(super) fn st_grid(n: i16) -> Vec<TexCoord> {
    (0..n * n)
        .map(|i| TexCoord { s: i % n, t: i / n })
        .collect()
}

/// The corpus folder, if present (see the integration tests).
pub(super) fn corpus() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("RETROMODEL_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    if dir.join("md2").is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus not found at {}",
        dir.display()
    );
    eprintln!("note: corpus not found at {}; skipping", dir.display());
    None
}

/// The triangles of an `n` × `n` grid of quads (`(n + 1)²` vertices), each
/// cut along a random diagonal. With `holes_and_turns`, about one half in
/// ten is left out and each triangle starts at a random corner; with
/// `shuffle`, they come in random order.
pub(super) fn grid_triangles(
    rng: &mut Rng,
    n: u16,
    holes_and_turns: bool,
    shuffle: bool,
) -> Vec<Triangle> {
    let side = n + 1;
    let mut tris = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let i = |x: u16, y: u16| y * side + x;
            let (a, b, c, d) = (i(x, y), i(x + 1, y), i(x + 1, y + 1), i(x, y + 1));
            let halves = if rng.below(2) == 0 {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            for h in halves {
                if !holes_and_turns {
                    tris.push(tri(h));
                } else if rng.below(10) > 0 {
                    let r = rng.below(3) as usize;
                    tris.push(tri([h[r], h[(r + 1) % 3], h[(r + 2) % 3]]));
                }
            }
        }
    }
    if shuffle {
        for k in (1..tris.len()).rev() {
            tris.swap(k, rng.below(k as u64 + 1) as usize);
        }
    }
    tris
}
