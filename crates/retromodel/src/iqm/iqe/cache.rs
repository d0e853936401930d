//! Triangle order for the vertex cache, as lsalzman/iqm's compiler
//! orders each mesh (`iqm.cpp`, `maketriangles`: Tom Forsyth's linear
//! speed vertex cache optimisation, a 32-entry cache), so that a
//! compiled IQE numbers its vertices and triangles as the reference does.
//!
//! Scores are `f32` and every tie goes to the triangle met first, in the
//! reference's order of looking, so the order comes out the same.

/// Vertices the simulated cache holds (`MAXVCACHE`).
const CACHE: usize = 32;

/// One mesh-local vertex (`vertexcache`).
#[derive(Clone)]
struct Vertex {
    /// Its output number, once emitted.
    index: Option<u32>,
    /// Its place in the cache, if in it (`-1` for none).
    rank: i64,
    score: f32,
    /// The triangles still to emit that use it, ascending at first.
    uses: Vec<usize>,
}

impl Vertex {
    /// `vertexcache::calcscore`.
    fn calc(&mut self) {
        let n = self.uses.len();
        self.score = if n > 0 {
            let mut s = 2.0f32 * (n as f32).powf(-0.5);
            if self.rank >= 3 {
                s += (1.0f32 - (self.rank - 3) as f32 / (CACHE - 3) as f32).powf(1.5);
            } else if self.rank >= 0 {
                s += 0.75;
            }
            s
        } else {
            -1.0
        };
    }
}

/// The non-degenerate triangles of `tris` (corners numbered `0..verts`)
/// in the reference's order, each corner renumbered by `emit`, called on
/// a vertex's first use with its local number.
pub(super) fn order(
    tris: &[[u32; 3]],
    verts: usize,
    emit: &mut dyn FnMut(usize) -> u32,
) -> Vec<[u32; 3]> {
    let mut used: Vec<bool> = tris
        .iter()
        .map(|t| t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
        .collect();
    let mut score = vec![0.0f32; tris.len()];
    let mut v: Vec<Vertex> = vec![
        Vertex {
            index: None,
            rank: -1,
            score: -1.0,
            uses: Vec::new(),
        };
        verts
    ];
    for (i, t) in tris.iter().enumerate() {
        if !used[i] {
            for &c in t {
                v[c as usize].uses.push(i);
            }
        }
    }
    for x in &mut v {
        x.calc();
    }
    let tri_score = |t: &[u32; 3], v: &[Vertex]| {
        v[t[0] as usize].score + v[t[1] as usize].score + v[t[2] as usize].score
    };
    let mut best: Option<usize> = None;
    let mut best_score = -1e16f32;
    for (i, t) in tris.iter().enumerate() {
        if used[i] {
            continue;
        }
        score[i] = tri_score(t, &v);
        if score[i] > best_score {
            best = Some(i);
            best_score = score[i];
        }
    }
    let mut cache: Vec<usize> = Vec::with_capacity(CACHE + 4);
    let mut out = Vec::with_capacity(tris.len());
    while let Some(b) = best {
        used[b] = true;
        let mut emitted = [0u32; 3];
        for (k, &c) in tris[b].iter().enumerate() {
            let c = c as usize;
            let x = &mut v[c];
            let index = match x.index {
                Some(i) => i,
                None => {
                    let i = emit(c);
                    x.index = Some(i);
                    i
                }
            };
            emitted[k] = index;
            // `removeuse`: the last use takes the removed one's place.
            if let Some(p) = x.uses.iter().position(|&u| u == b) {
                x.uses.swap_remove(p);
            }
            if x.rank >= 0 {
                if let Some(p) = cache.iter().position(|&e| e == c) {
                    cache.remove(p);
                }
                x.rank = -1;
            }
            if x.uses.is_empty() {
                continue;
            }
            cache.insert(0, c);
            x.rank = 0;
        }
        out.push(emitted);
        for (rank, &c) in cache.iter().enumerate() {
            v[c].rank = rank as i64;
            v[c].calc();
        }
        best = None;
        best_score = -1e16;
        for &c in &cache {
            for &t in &v[c].uses {
                score[t] = tri_score(&tris[t], &v);
                if score[t] > best_score {
                    best = Some(t);
                    best_score = score[t];
                }
            }
        }
        while cache.len() > CACHE {
            if let Some(c) = cache.pop() {
                v[c].rank = -1;
            }
        }
        if best.is_none() {
            for (i, &s) in score.iter().enumerate() {
                if !used[i] && s > best_score {
                    best = Some(i);
                    best_score = s;
                }
            }
        }
    }
    out
}
