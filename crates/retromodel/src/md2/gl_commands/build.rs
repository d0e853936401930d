//! Building GL command lists from triangles.
//!
//! Two builders share one representation:
//!
//! - [`build_qdata`] reproduces id's qdata (`BuildGlCmds`, `StripLength`,
//!   `FanLength` in `qdata/models.c`) decision for decision, so that a list
//!   made by qdata can be rebuilt word for word.
//! - [`build`] runs qdata's algorithm and several greedy strategies of its
//!   own and keeps, for each connected piece of the mesh, the run that
//!   covers it with the fewest primitives. Since a primitive of `k`
//!   triangles sends `k + 2` vertices, fewer primitives also means fewer GL
//!   vertices, so the result is never larger than qdata's on either count.
//!
//! Both only join triangles across an edge whose two corners match in
//! vertex index *and* texture coordinate index (a GL vertex carries both),
//! and both keep every triangle's winding as GL draws it.
//!
//! Which triangles are drawn: a triangle with a vertex index outside
//! `0..num_vertices` or a texture coordinate index outside the texture
//! coordinate list is left out (it cannot be drawn); every other triangle
//! is drawn exactly once, *including degenerate ones* (two corners with the
//! same vertex index), as qdata does: they are in the model's triangle list,
//! draw nothing visible, and dropping them silently would make the GL list
//! and the triangle list disagree.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::md2::Md2;

/// A corner: vertex index in the high 16 bits, texture coordinate index in
/// the low 16 bits. Two corners are the same GL vertex iff equal.
type Corner = u32;

fn xyz_of(c: Corner) -> u32 {
    c >> 16
}

fn st_of(c: Corner) -> usize {
    (c & 0xFFFF) as usize
}

fn edge_key(a: Corner, b: Corner) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// One entry of the directed-edge table: triangle `tri` has corner `a` at
/// position `k` and corner `b` at position `(k + 1) % 3`.
#[derive(Clone, Copy)]
struct EdgeEntry {
    key: u64,
    tri: u32,
    k: u8,
}

/// The drawable triangles of a model and their directed edges.
struct Mesh {
    tris: Vec<[Corner; 3]>,
    /// Sorted by (key, tri, k).
    edges: Vec<EdgeEntry>,
    /// For each triangle and edge `k` (corner `k` to corner `k + 1`), the
    /// range of [`Mesh::edges`] holding the reverse edge: the triangles
    /// across that edge (the triangle itself included when degenerate).
    adj: Vec<[(u32, u32); 3]>,
    /// Sum of the sizes of all `adj` ranges: about `3 × triangles` for a
    /// well-formed mesh, far more when many triangles share edges.
    adjacency: usize,
}

impl Mesh {
    fn new(model: &Md2) -> Mesh {
        let num_st = model.texcoords.len();
        let tris: Vec<[Corner; 3]> = model
            .triangles
            .iter()
            .filter(|t| {
                t.vertices
                    .iter()
                    .all(|&v| (v as usize) < model.num_vertices)
                    && t.texcoords.iter().all(|&s| (s as usize) < num_st)
            })
            .map(|t| {
                let c = |k: usize| (u32::from(t.vertices[k]) << 16) | u32::from(t.texcoords[k]);
                [c(0), c(1), c(2)]
            })
            .collect();
        let mut edges = Vec::with_capacity(tris.len() * 3);
        for (i, t) in tris.iter().enumerate() {
            for k in 0..3 {
                edges.push(EdgeEntry {
                    key: edge_key(t[k], t[(k + 1) % 3]),
                    tri: i as u32,
                    k: k as u8,
                });
            }
        }
        edges.sort_unstable_by_key(|e| (e.key, e.tri, e.k));
        let mut mesh = Mesh {
            tris,
            edges,
            adj: Vec::new(),
            adjacency: 0,
        };
        mesh.adj = (0..mesh.tris.len())
            .map(|t| {
                let c = mesh.tris[t];
                [0, 1, 2].map(|k| mesh.range(c[(k + 1) % 3], c[k]))
            })
            .collect();
        mesh.adjacency = mesh
            .adj
            .iter()
            .flatten()
            .map(|&(lo, hi)| (hi - lo) as usize)
            .sum();
        mesh
    }

    /// Range of [`Mesh::edges`] holding the directed edge `a → b`.
    fn range(&self, a: Corner, b: Corner) -> (u32, u32) {
        let key = edge_key(a, b);
        let lo = self.edges.partition_point(|e| e.key < key);
        let hi = lo + self.edges[lo..].partition_point(|e| e.key == key);
        (lo as u32, hi as u32)
    }

    /// Entries of triangles holding the directed edge `a → b`, by triangle
    /// index then corner.
    fn edge(&self, a: Corner, b: Corner) -> &[EdgeEntry] {
        let (lo, hi) = self.range(a, b);
        &self.edges[lo as usize..hi as usize]
    }

    /// Entries of triangles holding `a → b`, where triangle `t` holds
    /// `b → a` (a table look-up instead of a search).
    fn across(&self, t: usize, a: Corner, b: Corner) -> &[EdgeEntry] {
        let c = self.tris[t];
        for k in 0..3 {
            if c[k] == b && c[(k + 1) % 3] == a {
                let (lo, hi) = self.adj[t][k];
                return &self.edges[lo as usize..hi as usize];
            }
        }
        self.edge(a, b)
    }

    /// The triangles across edge `k` of triangle `t`.
    fn across_edge(&self, t: usize, k: usize) -> &[EdgeEntry] {
        let (lo, hi) = self.adj[t][k];
        &self.edges[lo as usize..hi as usize]
    }

    /// The corner after the edge in the entry's triangle.
    fn third(&self, e: &EdgeEntry) -> Corner {
        self.tris[e.tri as usize][(e.k as usize + 2) % 3]
    }

    /// Triangle `t`'s corners starting at corner `r`.
    fn rotated(&self, t: usize, r: usize) -> [Corner; 3] {
        let c = self.tris[t];
        [c[r % 3], c[(r + 1) % 3], c[(r + 2) % 3]]
    }
}

impl Mesh {
    /// Component of each triangle (triangles joined through shared edges),
    /// numbered in order of their first triangle, and the count.
    fn components(&self) -> (Vec<u32>, usize) {
        let n = self.tris.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        for t in 0..n {
            for k in 0..3 {
                for e in self.across_edge(t, k) {
                    let (a, b) = (root(&mut parent, t as u32), root(&mut parent, e.tri));
                    // The smaller index becomes the root.
                    let (lo, hi) = (a.min(b), a.max(b));
                    parent[hi as usize] = lo;
                }
            }
        }
        let mut id = vec![u32::MAX; n];
        let mut count = 0usize;
        for t in 0..n {
            let r = root(&mut parent, t as u32) as usize;
            if id[r] == u32::MAX {
                id[r] = count as u32;
                count += 1;
            }
            id[t] = id[r];
        }
        (id, count)
    }

    /// Takes, for each component, the primitives of the run that covers it
    /// with the fewest (the earliest run on ties). Components share no
    /// edge, so runs can be mixed freely.
    fn best_per_component(&self, runs: Vec<Vec<Prim>>) -> Vec<Prim> {
        let (comp, count) = self.components();
        let of = |p: &Prim| p.tris.first().map_or(0, |&t| comp[t as usize] as usize);
        let mut best: Vec<(usize, usize)> = vec![(usize::MAX, 0); count];
        for (r, run) in runs.iter().enumerate() {
            let mut per = vec![0usize; count];
            for p in run {
                per[of(p)] += 1;
            }
            for (c, &n) in per.iter().enumerate() {
                if n < best[c].0 {
                    best[c] = (n, r);
                }
            }
        }
        let mut buckets: Vec<Vec<Prim>> = vec![Vec::new(); count];
        for (r, run) in runs.into_iter().enumerate() {
            for p in run {
                let c = of(&p);
                if best[c].1 == r {
                    buckets[c].push(p);
                }
            }
        }
        buckets.into_iter().flatten().collect()
    }
}

/// A strip or fan under construction: its corners and the triangles it
/// covers.
#[derive(Clone, Default)]
struct Prim {
    fan: bool,
    corners: Vec<Corner>,
    tris: Vec<u32>,
}

// ---------------------------------------------------------------------
// qdata
// ---------------------------------------------------------------------

/// Grows a fan or strip the way qdata's `FanLength` / `StripLength` do.
///
/// qdata looks for the *first* triangle after `start` (in index order,
/// first matching corner within it) that holds the wanted directed edge;
/// if that triangle is already used (by an earlier primitive or by this
/// one) the primitive ends there, even when a later unused triangle would
/// have fitted. Triangles before `start` are never looked at.
fn qdata_grow(
    mesh: &Mesh,
    start: usize,
    startv: usize,
    fan: bool,
    used: &[bool],
    mark: &mut [u32],
    stamp: u32,
) -> Prim {
    let corners = mesh.rotated(start, startv);
    let mut p = Prim {
        fan,
        corners: corners.to_vec(),
        tris: vec![start as u32],
    };
    loop {
        let n = p.corners.len();
        let (a, b) = if fan {
            (p.corners[0], p.corners[n - 1])
        } else if n % 2 == 1 {
            (p.corners[n - 1], p.corners[n - 2])
        } else {
            (p.corners[n - 2], p.corners[n - 1])
        };
        let last = p.tris[p.tris.len() - 1] as usize;
        let range = mesh.across(last, a, b);
        let first = range.partition_point(|e| e.tri as usize <= start);
        let Some(e) = range.get(first) else { break };
        let j = e.tri as usize;
        if used[j] || mark[j] == stamp {
            break;
        }
        mark[j] = stamp;
        p.corners.push(mesh.third(e));
        p.tris.push(e.tri);
    }
    p
}

/// qdata's `BuildGlCmds`. With `fans_first` false the two types are tried
/// the other way round, so strips win ties: the variant that wrote the
/// UFO:AI soldier models in the corpus.
fn qdata_prims(mesh: &Mesh, fans_first: bool) -> Vec<Prim> {
    let n = mesh.tris.len();
    let mut used = vec![false; n];
    let mut mark = vec![0u32; n];
    let mut stamp = 0u32;
    let mut out = Vec::new();
    for i in 0..n {
        if used[i] {
            continue;
        }
        // Fans first, then strips (unless told otherwise); start corners
        // 0, 1, 2; a later try replaces the best only when strictly longer,
        // so fans win ties against strips and lower start corners win ties
        // within a type.
        let mut best: Option<Prim> = None;
        for fan in [fans_first, !fans_first] {
            for startv in 0..3 {
                stamp += 1;
                let p = qdata_grow(mesh, i, startv, fan, &used, &mut mark, stamp);
                if best.as_ref().is_none_or(|b| p.tris.len() > b.tris.len()) {
                    best = Some(p);
                }
            }
        }
        if let Some(b) = best {
            for &t in &b.tris {
                used[t as usize] = true;
            }
            out.push(b);
        }
    }
    out
}

// ---------------------------------------------------------------------
// Our greedy strategies
// ---------------------------------------------------------------------

/// Where a greedy run starts each primitive.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// The first unused triangle in index order.
    First,
    /// The last unused triangle in index order.
    Last,
    /// The unused triangle with the fewest unused neighbours, lowest index
    /// on ties.
    FewestNeighbours,
    /// The same, highest index on ties.
    FewestNeighboursLast,
    /// The same, ties in a pseudo-random order fixed by the seed.
    FewestNeighboursShuffled(u32),
}

/// How a greedy run chooses.
#[derive(Clone, Copy)]
struct Strategy {
    start: Start,
    /// What one stranded triangle (left with no unused neighbour, so it
    /// will need a primitive of its own) costs, in quarters of a covered
    /// triangle. With 0 only the longest candidates count, and stranding
    /// decides between them.
    isolation_weight: u8,
    /// Among equally good candidates, prefer strips (else fans).
    prefer_strips: bool,
}

/// The greedy runs [`build`] makes (besides qdata's). Measured on the
/// corpus (see BENCHMARKS.md): starting at the triangle with the fewest
/// free neighbours beats index order, a stranded triangle is worth about
/// three covered ones, and varying the start order between runs helps more
/// than varying the weights; eight runs get most of what sixteen do.
const STRATEGIES: [Strategy; 8] = {
    const fn s(start: Start, prefer_strips: bool) -> Strategy {
        Strategy {
            start,
            isolation_weight: 12,
            prefer_strips,
        }
    }
    [
        s(Start::FewestNeighbours, false),
        s(Start::First, false),
        s(Start::FewestNeighboursLast, false),
        s(Start::Last, false),
        s(Start::FewestNeighboursShuffled(1), true),
        s(Start::FewestNeighboursShuffled(2), true),
        s(Start::FewestNeighboursShuffled(3), true),
        s(Start::FewestNeighboursShuffled(4), true),
    ]
};

/// State of one greedy run.
struct Greedy<'m> {
    mesh: &'m Mesh,
    used: Vec<bool>,
    /// Number of (edge, unused other triangle) adjacencies of each
    /// triangle.
    degree: Vec<u32>,
    /// Triangles marked with the current stamp belong to the primitive
    /// being grown (or measured).
    mark: Vec<u32>,
    stamp: u32,
    /// Scratch counters for [`Greedy::isolated_by`], all 0 between calls.
    lost: Vec<u32>,
    /// Reused buffers: the triangles `isolated_by` touched, corners being
    /// grown, and the six candidates.
    touched: Vec<usize>,
    scratch: Vec<Corner>,
    candidates: Vec<Prim>,
}

impl<'m> Greedy<'m> {
    fn new(mesh: &'m Mesh) -> Self {
        let n = mesh.tris.len();
        let mut g = Greedy {
            mesh,
            used: vec![false; n],
            degree: vec![0; n],
            mark: vec![0; n],
            stamp: 0,
            lost: vec![0; n],
            touched: Vec::new(),
            scratch: Vec::new(),
            candidates: vec![Prim::default(); 6],
        };
        for t in 0..n {
            g.degree[t] = g.neighbours(t).count() as u32;
        }
        g
    }

    /// Unused triangles other than `t` across each of `t`'s edges (with
    /// repetition when several triangles share an edge).
    fn neighbours(&self, t: usize) -> impl Iterator<Item = usize> + '_ {
        (0..3).flat_map(move |k| {
            self.mesh
                .across_edge(t, k)
                .iter()
                .map(|e| e.tri as usize)
                .filter(move |&u| u != t && !self.used[u])
        })
    }

    fn free(&self, t: usize) -> bool {
        !self.used[t] && self.mark[t] != self.stamp
    }

    /// The best free triangle holding the directed edge `a → b`, where
    /// triangle `t` holds `b → a`: fewest unused neighbours, then lowest
    /// index.
    fn pick(&self, t: u32, a: Corner, b: Corner) -> Option<EdgeEntry> {
        self.mesh
            .across(t as usize, a, b)
            .iter()
            .filter(|e| self.free(e.tri as usize))
            .min_by_key(|e| (self.degree[e.tri as usize], e.tri))
            .copied()
    }

    fn take(&mut self, p: &mut Vec<u32>, e: &EdgeEntry) {
        self.mark[e.tri as usize] = self.stamp;
        p.push(e.tri);
    }

    /// A fan around corner `rot` of `start`, grown both ways, into `out`.
    fn fan(&mut self, start: usize, rot: usize, out: &mut Prim) {
        self.stamp += 1;
        self.mark[start] = self.stamp;
        let c = self.mesh.rotated(start, rot);
        out.fan = true;
        out.tris.clear();
        out.tris.push(start as u32);
        // Forwards into the scratch list, backwards into `out`.
        let mut fwd = std::mem::take(&mut self.scratch);
        fwd.clear();
        fwd.extend([c[1], c[2]]);
        let mut last = start as u32;
        while let Some(e) = self.pick(last, c[0], fwd[fwd.len() - 1]) {
            fwd.push(self.mesh.third(&e));
            self.take(&mut out.tris, &e);
            last = e.tri;
        }
        // The triangle before (c0, x, c1) holds c1 → c0.
        out.corners.clear();
        let mut first = c[1];
        let mut last = start as u32;
        while let Some(e) = self.pick(last, first, c[0]) {
            first = self.mesh.third(&e);
            out.corners.push(first);
            self.take(&mut out.tris, &e);
            last = e.tri;
        }
        out.corners.push(c[0]);
        out.corners.reverse();
        out.corners.extend_from_slice(&fwd);
        self.scratch = fwd;
    }

    /// A strip starting with corner `rot` of `start`, grown forwards, then
    /// backwards two triangles at a time (one would flip the winding of
    /// every triangle after it), into `out`.
    fn strip(&mut self, start: usize, rot: usize, out: &mut Prim) {
        self.stamp += 1;
        self.mark[start] = self.stamp;
        out.fan = false;
        out.tris.clear();
        out.tris.push(start as u32);
        out.corners.clear();
        out.corners.extend(self.mesh.rotated(start, rot));
        let mut last = start as u32;
        loop {
            let n = out.corners.len();
            let (a, b) = if n % 2 == 1 {
                (out.corners[n - 1], out.corners[n - 2])
            } else {
                (out.corners[n - 2], out.corners[n - 1])
            };
            let Some(e) = self.pick(last, a, b) else {
                break;
            };
            out.corners.push(self.mesh.third(&e));
            self.take(&mut out.tris, &e);
            last = e.tri;
        }
        // Strip (u2, u1, p, q, ...): (p, u1, q) holds q → p, and
        // (u2, u1, p) holds u1 → p.
        let mut front = std::mem::take(&mut self.scratch);
        front.clear();
        let (mut p, mut q) = (out.corners[0], out.corners[1]);
        let mut first = start as u32;
        while let Some(b) = self.pick(first, q, p) {
            let u1 = self.mesh.third(&b);
            self.mark[b.tri as usize] = self.stamp;
            let Some(a) = self.pick(b.tri, u1, p) else {
                self.mark[b.tri as usize] = 0;
                break;
            };
            let u2 = self.mesh.third(&a);
            self.take(&mut out.tris, &b);
            self.take(&mut out.tris, &a);
            front.push(u1);
            front.push(u2);
            (p, q) = (u2, u1);
            first = a.tri;
        }
        if !front.is_empty() {
            front.reverse();
            front.extend_from_slice(&out.corners);
            std::mem::swap(&mut front, &mut out.corners);
        }
        self.scratch = front;
    }

    /// How many unused triangles outside `p` would be left with no unused
    /// neighbour if `p` were taken.
    fn isolated_by(&mut self, p: &Prim) -> usize {
        self.stamp += 1;
        for &t in &p.tris {
            self.mark[t as usize] = self.stamp;
        }
        let mut touched = std::mem::take(&mut self.touched);
        touched.clear();
        for &t in &p.tris {
            for k in 0..3 {
                for e in self.mesh.across_edge(t as usize, k) {
                    let u = e.tri as usize;
                    if self.used[u] || self.mark[u] == self.stamp {
                        continue;
                    }
                    if self.lost[u] == 0 {
                        touched.push(u);
                    }
                    self.lost[u] += 1;
                }
            }
        }
        let mut count = 0;
        for &u in &touched {
            if self.degree[u] <= self.lost[u] {
                count += 1;
            }
            self.lost[u] = 0;
        }
        self.touched = touched;
        count
    }

    /// Marks `p`'s triangles used and updates their neighbours' degrees
    /// (queueing each changed neighbour when starts go by degree).
    fn commit(&mut self, p: &Prim, queue: &mut StartQueue) {
        for &t in &p.tris {
            self.used[t as usize] = true;
        }
        for &t in &p.tris {
            for k in 0..3 {
                for e in self.mesh.across_edge(t as usize, k) {
                    let u = e.tri as usize;
                    if u != t as usize && !self.used[u] {
                        self.degree[u] = self.degree[u].saturating_sub(1);
                        queue.changed(self.degree[u], e.tri);
                    }
                }
            }
        }
    }

    /// Grows the six candidates at `start` (three fans and three strips,
    /// in the order the strategy prefers) and returns the one it picks.
    fn choose(&mut self, start: usize, s: Strategy) -> Prim {
        if self.degree[start] == 0 {
            // Nothing to join: every candidate is the triangle alone.
            return Prim {
                fan: !s.prefer_strips,
                corners: self.mesh.rotated(start, 0).to_vec(),
                tris: vec![start as u32],
            };
        }
        let mut candidates = std::mem::take(&mut self.candidates);
        for (i, c) in candidates.iter_mut().enumerate() {
            let (fan, rot) = (s.prefer_strips == (i >= 3), i % 3);
            if fan {
                self.fan(start, rot, c);
            } else {
                self.strip(start, rot, c);
            }
        }
        // Score: covered triangles minus the weighted stranded ones; ties
        // go to fewer stranded, then to the first tried.
        let w = i64::from(s.isolation_weight);
        let longest = candidates.iter().map(|p| p.tris.len()).max().unwrap_or(0);
        let mut best: Option<(usize, (i64, usize))> = None;
        for (i, p) in candidates.iter().enumerate() {
            if w == 0 && p.tris.len() < longest {
                continue;
            }
            let iso = self.isolated_by(p);
            let key = (4 * p.tris.len() as i64 - w * iso as i64, usize::MAX - iso);
            if best.is_none_or(|(_, b)| key > b) {
                best = Some((i, key));
            }
        }
        let chosen = candidates[best.map_or(0, |(i, _)| i)].clone();
        self.candidates = candidates;
        chosen
    }

    fn run(mut self, s: Strategy) -> Vec<Prim> {
        let mut out = Vec::new();
        let mut queue = StartQueue::new(s.start, &self.degree);
        while let Some(start) = queue.next(&self.used, &self.degree) {
            let p = self.choose(start, s);
            self.commit(&p, &mut queue);
            out.push(p);
        }
        out
    }
}
/// A 32-bit integer hash (the finaliser of MurmurHash3), for a fixed
/// pseudo-random order.
fn mix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x85eb_ca6b);
    x ^= x >> 13;
    x = x.wrapping_mul(0xc2b2_ae35);
    x ^ (x >> 16)
}

/// Hands out start triangles in a [`Start`] order.
struct StartQueue {
    start: Start,
    /// Next index to look at (First), or one past it (Last).
    cursor: usize,
    /// Min-heap of (degree, tie key, triangle); stale entries are
    /// skipped.
    heap: BinaryHeap<Reverse<(u32, u32, u32)>>,
}

impl StartQueue {
    fn new(start: Start, degree: &[u32]) -> Self {
        let mut q = StartQueue {
            start,
            cursor: match start {
                Start::Last => degree.len(),
                _ => 0,
            },
            heap: BinaryHeap::new(),
        };
        if !matches!(start, Start::First | Start::Last) {
            q.heap = degree
                .iter()
                .enumerate()
                .map(|(t, &d)| Reverse((d, q.tie_key(t as u32), t as u32)))
                .collect::<Vec<_>>()
                .into();
        }
        q
    }

    fn tie_key(&self, t: u32) -> u32 {
        match self.start {
            Start::FewestNeighboursLast => u32::MAX - t,
            Start::FewestNeighboursShuffled(seed) => mix(t ^ seed.wrapping_mul(0x9E37_79B9)),
            _ => t,
        }
    }

    /// Triangle `t` now has `degree` unused neighbours.
    fn changed(&mut self, degree: u32, t: u32) {
        if !matches!(self.start, Start::First | Start::Last) {
            let key = self.tie_key(t);
            self.heap.push(Reverse((degree, key, t)));
        }
    }

    fn next(&mut self, used: &[bool], degree: &[u32]) -> Option<usize> {
        match self.start {
            Start::First => {
                while self.cursor < used.len() && used[self.cursor] {
                    self.cursor += 1;
                }
                (self.cursor < used.len()).then_some(self.cursor)
            }
            Start::Last => {
                while self.cursor > 0 && used[self.cursor - 1] {
                    self.cursor -= 1;
                }
                self.cursor.checked_sub(1)
            }
            _ => {
                while let Some(Reverse((d, _, t))) = self.heap.pop() {
                    let t = t as usize;
                    if !used[t] && degree[t] == d {
                        return Some(t);
                    }
                }
                None
            }
        }
    }
}

// ---------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------

/// Texture coordinate as qdata computes it: `(pixel + 0.5) / size` in
/// double precision, stored as `f32`. A skin size of 0 or less (corrupt)
/// is taken as 1.
fn normalise(pixel: i16, size: i32) -> f32 {
    ((f64::from(pixel) + 0.5) / f64::from(size.max(1))) as f32
}

fn emit(model: &Md2, prims: &[Prim]) -> Vec<u32> {
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

/// Builds a GL command list with id's qdata algorithm (the baseline).
///
/// For each triangle not yet drawn, in order, qdata tries a fan and a strip
/// starting at each of its three corners, grows each through later unused
/// triangles that share the edge (same vertex *and* texture coordinate
/// indices), and keeps the one covering the most triangles; ties go to the
/// first tried, fans before strips and corner 0 before 1 before 2. A
/// primitive also stops at the first later triangle holding the edge when
/// that one is already used (a quirk kept for fidelity). Texture
/// coordinates are `(s + 0.5) / skin_width` and `(t + 0.5) / skin_height`.
///
/// Triangles with out-of-range indices are left out; degenerate ones are
/// kept. The list always ends with its terminating 0.
///
/// ```
/// use retromodel::md2::gl_commands::{build_qdata, decode};
/// let model = retromodel::md2::sample::sample_model();
/// let words = build_qdata(&model);
/// let d = decode(&words, model.vertex_count());
/// assert!(d.terminated && d.faults.is_empty());
/// let drawn: usize = d.primitives.iter().map(|p| p.triangles().count()).sum();
/// assert_eq!(drawn, model.triangles.len());
/// ```
pub fn build_qdata(model: &Md2) -> Vec<u32> {
    let mesh = Mesh::new(model);
    emit(model, &qdata_prims(&mesh, true))
}

/// Builds a compact GL command list for `model`'s triangles.
///
/// Runs qdata's algorithm (both ways round: fans or strips first) and
/// eight greedy runs of its own (start at the triangle with the fewest
/// free neighbours, or in index order, forwards or backwards; grow fans
/// both ways and strips both ways; prefer the primitive that covers the
/// most triangles while stranding the fewest), and keeps for each
/// connected piece of the mesh the run with the fewest primitives, so it
/// never needs more commands or GL vertices than [`build_qdata`]. Deterministic,
/// and fast: a few milliseconds for a few thousand triangles (on a mesh
/// whose edges are shared by many triangles each, which only hostile files
/// have, it keeps to qdata's algorithm to stay fast).
///
/// Which triangles are drawn and how texture coordinates are computed is
/// the same as for [`build_qdata`].
///
/// ```
/// use retromodel::md2::gl_commands::{build, build_qdata, decode};
/// let model = retromodel::md2::sample::sample_model();
/// let ours = decode(&build(&model), model.vertex_count());
/// let qdata = decode(&build_qdata(&model), model.vertex_count());
/// assert!(ours.primitives.len() <= qdata.primitives.len());
/// ```
pub fn build(model: &Md2) -> Vec<u32> {
    let mesh = Mesh::new(model);
    let fans_first = qdata_prims(&mesh, true);
    let strips_first = qdata_prims(&mesh, false);
    // The greedy runs (and the component search) look at every triangle
    // across an edge at each step, so on a mesh whose edges are shared by
    // many triangles each (only seen in hostile or broken files) they
    // would take quadratic time: keep to qdata's lists there.
    if mesh.adjacency > 8 * mesh.tris.len() + 1024 {
        let best = if strips_first.len() < fans_first.len() {
            strips_first
        } else {
            fans_first
        };
        return emit(model, &best);
    }
    let mut runs = Vec::with_capacity(2 + STRATEGIES.len());
    runs.push(fans_first);
    runs.push(strips_first);
    for s in STRATEGIES {
        runs.push(Greedy::new(&mesh).run(s));
    }
    emit(model, &mesh.best_per_component(runs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::gl_commands::{decode, PrimitiveKind};
    use crate::md2::{TexCoord, Triangle};
    use std::collections::BTreeMap;

    type Drawn = [(i32, u32, u32); 3];

    fn normalized(c: Drawn) -> Drawn {
        [c, [c[1], c[2], c[0]], [c[2], c[0], c[1]]]
            .into_iter()
            .min()
            .unwrap_or(c)
    }

    /// The valid triangles of `m` as GL should draw them, computed straight
    /// from the documented rule and qdata's `(s + 0.5) / width`.
    fn expected(m: &Md2) -> BTreeMap<Drawn, usize> {
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
    fn check(m: &Md2, words: &[u32]) -> usize {
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

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
        }
    }

    fn model(num_vertices: usize, texcoords: Vec<TexCoord>, tris: Vec<Triangle>) -> Md2 {
        Md2 {
            skin_width: 64,
            skin_height: 32,
            num_vertices,
            texcoords,
            triangles: tris,
            ..Md2::default()
        }
    }

    fn tri(v: [u16; 3]) -> Triangle {
        Triangle {
            vertices: v,
            texcoords: v,
        }
    }

    fn st_grid(n: i16) -> Vec<TexCoord> {
        (0..n * n)
            .map(|i| TexCoord { s: i % n, t: i / n })
            .collect()
    }

    #[test]
    fn random_soups_are_drawn_exactly() {
        // Few vertices and texture coordinates, so edges are shared by
        // several triangles, with degenerate triangles and out-of-range
        // indices mixed in.
        let mut rng = Rng(0x5EED_1234_ABCD_0001);
        for _ in 0..400 {
            let nv = 1 + rng.below(7) as usize;
            let nst = 1 + rng.below(4) as usize;
            let texcoords = (0..nst)
                .map(|_| TexCoord {
                    s: rng.below(64) as i16 - 8,
                    t: rng.below(32) as i16,
                })
                .collect();
            let tris = (0..rng.below(40))
                .map(|_| {
                    let mut pick = |n: usize| rng.below(n as u64 + 1) as u16;
                    Triangle {
                        vertices: [pick(nv), pick(nv), pick(nv)],
                        texcoords: [pick(nst), pick(nst), pick(nst)],
                    }
                })
                .collect();
            let m = model(nv, texcoords, tris);
            let q = check(&m, &build_qdata(&m));
            let o = check(&m, &build(&m));
            assert!(o <= q, "ours {o} qdata {q}");
            assert_eq!(build(&m), build(&m));
        }
    }

    #[test]
    fn random_grids_are_drawn_exactly() {
        // Pieces of a grid in random order and corner rotation: long
        // strips and fans, both directions of growth.
        let mut rng = Rng(0xC0FF_EE00_1357_9BDF);
        for _ in 0..200 {
            let n = 2 + rng.below(6) as u16;
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
                        if rng.below(10) > 0 {
                            let r = rng.below(3) as usize;
                            tris.push(tri([h[r], h[(r + 1) % 3], h[(r + 2) % 3]]));
                        }
                    }
                }
            }
            for k in (1..tris.len()).rev() {
                tris.swap(k, rng.below(k as u64 + 1) as usize);
            }
            let m = model(usize::from(side * side), st_grid(side as i16), tris);
            let q = check(&m, &build_qdata(&m));
            let o = check(&m, &build(&m));
            assert!(o <= q, "ours {o} qdata {q}");
        }
    }

    #[test]
    fn qdata_ties_go_to_fans_then_to_the_first_corner() {
        // Two triangles sharing an edge: a fan and a strip of four
        // vertices both cover them; qdata tries fans first and keeps the
        // first of equal length.
        let m = model(4, st_grid(2), vec![tri([0, 1, 2]), tri([0, 2, 3])]);
        let words = build_qdata(&m);
        assert_eq!(words[0] as i32, -4);
        let d = decode(&words, 4);
        let order: Vec<i32> = d.primitives[0].vertices.iter().map(|v| v.vertex).collect();
        assert_eq!(order, [0, 1, 2, 3]);
        // The variant with strips first makes a strip.
        let strips_first = qdata_prims(&Mesh::new(&m), false);
        assert!(!strips_first[0].fan);
        check(&m, &words);
    }

    #[test]
    fn qdata_stops_at_the_first_matching_triangle_when_it_is_used() {
        // A fan around vertex 0 passes through edge 0→1 twice. The second
        // time, the first later triangle holding 0→1 is triangle 1,
        // already in the fan, so qdata stops although triangle 4 (also
        // holding 0→1, unused) would fit.
        let m = model(
            6,
            st_grid(3),
            vec![
                tri([0, 4, 1]),
                tri([0, 1, 2]),
                tri([0, 2, 3]),
                tri([0, 3, 1]),
                tri([0, 1, 5]),
            ],
        );
        let words = build_qdata(&m);
        let d = decode(&words, 6);
        let shapes: Vec<(PrimitiveKind, Vec<i32>)> = d
            .primitives
            .iter()
            .map(|p| (p.kind, p.vertices.iter().map(|v| v.vertex).collect()))
            .collect();
        assert_eq!(
            shapes,
            [
                (PrimitiveKind::Fan, vec![0, 4, 1, 2, 3, 1]),
                (PrimitiveKind::Fan, vec![0, 1, 5]),
            ]
        );
        check(&m, &words);
        check(&m, &build(&m));
    }

    #[test]
    fn bad_indices_are_skipped_and_bad_skin_sizes_give_finite_coordinates() {
        let mut m = model(
            3,
            st_grid(2),
            vec![
                tri([0, 1, 2]),
                tri([0, 1, 0xFFFF]),
                Triangle {
                    vertices: [0, 1, 2],
                    texcoords: [0, 1, 9],
                },
            ],
        );
        for (w, h) in [(0, 0), (-5, 7), (i32::MIN, i32::MAX)] {
            m.skin_width = w;
            m.skin_height = h;
            for words in [build(&m), build_qdata(&m)] {
                assert_eq!(check(&m, &words), 1);
            }
        }
        // Zero vertices: every triangle is out of range; the list is just
        // the terminator.
        let empty = model(0, st_grid(2), vec![tri([0, 1, 2])]);
        assert_eq!(build(&empty), [0]);
        assert_eq!(build_qdata(&empty), [0]);
        assert_eq!(build(&Md2::default()), [0]);
    }

    #[test]
    fn degenerate_triangles_are_kept() {
        // qdata emits them as they are; so do we.
        let m = model(
            3,
            st_grid(2),
            vec![
                tri([0, 1, 2]),
                tri([0, 0, 1]),
                tri([2, 2, 2]),
                tri([2, 2, 2]),
            ],
        );
        for words in [build(&m), build_qdata(&m)] {
            let d = decode(&words, 3);
            assert_eq!(
                d.primitives
                    .iter()
                    .map(|p| p.triangles().count())
                    .sum::<usize>(),
                4
            );
            check(&m, &words);
        }
    }

    #[test]
    fn heavily_shared_edges_stay_fast_and_exact() {
        // 4000 copies of one triangle, both ways round: every edge is
        // shared by 2000 triangles. The greedy runs would be quadratic;
        // `build` keeps to qdata and stays correct.
        let tris = (0..4000)
            .map(|i| tri(if i % 2 == 0 { [0, 1, 2] } else { [0, 2, 1] }))
            .collect();
        let m = model(3, st_grid(2), tris);
        let mesh = Mesh::new(&m);
        assert!(mesh.adjacency > 8 * mesh.tris.len() + 1024);
        let started = std::time::Instant::now();
        let o = check(&m, &build(&m));
        let q = check(&m, &build_qdata(&m));
        assert!(o <= q);
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }

    /// The corpus folder, if present (see the integration tests).
    fn corpus() -> Option<std::path::PathBuf> {
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

    #[test]
    fn ufoai_soldiers_were_made_by_qdata_with_strips_first() {
        // UFO:AI's soldier models hold the list qdata builds when it tries
        // strips before fans (so strips win ties), word for word.
        let Some(dir) = corpus() else { return };
        for name in [
            "ufoai_soldiers_male_body.md2",
            "ufoai_soldiers_male_head01.md2",
        ] {
            let bytes = std::fs::read(dir.join("md2").join(name)).unwrap();
            let m = Md2::from_bytes(&bytes).unwrap();
            let mesh = Mesh::new(&m);
            assert_eq!(
                emit(&m, &qdata_prims(&mesh, false)),
                m.gl_commands,
                "{name}"
            );
            assert_ne!(build_qdata(&m), m.gl_commands, "{name}");
        }
    }
}
