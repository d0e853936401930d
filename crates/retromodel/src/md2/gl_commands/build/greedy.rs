//! Our greedy strategies: each run starts a primitive at a triangle chosen
//! by its [`Start`] order, grows the six fans and strips through it both
//! ways, and keeps the one that covers the most triangles while stranding
//! the fewest.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::mesh::{Corner, EdgeEntry, Mesh};
use super::prim::Prim;

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
pub(super) struct Strategy {
    /// Where each primitive starts.
    start: Start,
    /// What one stranded triangle (left with no unused neighbour, so it
    /// will need a primitive of its own) costs, in quarters of a covered
    /// triangle. With 0 only the longest candidates count, and stranding
    /// decides between them.
    isolation_weight: u8,
    /// Among equally good candidates, prefer strips (else fans).
    prefer_strips: bool,
}

/// The greedy runs [`build`](super::build) makes (besides qdata's). Measured on the
/// corpus (see BENCHMARKS.md): starting at the triangle with the fewest
/// free neighbours beats index order, a stranded triangle is worth about
/// three covered ones, and varying the start order between runs helps more
/// than varying the weights; eight runs get most of what sixteen do.
pub(super) const STRATEGIES: [Strategy; 8] = {
    /// A strategy with the measured isolation weight.
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
pub(super) struct Greedy<'m> {
    /// The mesh being covered.
    mesh: &'m Mesh,
    /// Triangles already in a committed primitive.
    used: Vec<bool>,
    /// Number of (edge, unused other triangle) adjacencies of each
    /// triangle.
    degree: Vec<u32>,
    /// Triangles marked with the current stamp belong to the primitive
    /// being grown (or measured).
    mark: Vec<u32>,
    /// The current mark.
    stamp: u32,
    /// Scratch counters for [`Greedy::isolated_by`], all 0 between calls.
    lost: Vec<u32>,
    /// Reused buffer: the triangles `isolated_by` touched.
    touched: Vec<usize>,
    /// Reused buffer: corners being grown.
    scratch: Vec<Corner>,
    /// Reused buffers: the six candidates.
    candidates: Vec<Prim>,
}

impl<'m> Greedy<'m> {
    /// A run over `mesh` with no triangle used yet.
    pub(super) fn new(mesh: &'m Mesh) -> Self {
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

    /// Whether `t` can join the primitive being grown: unused and not in
    /// it already.
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

    /// Adds the entry's triangle to the primitive being grown.
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

    /// Covers the whole mesh with strategy `s`: the primitives in the
    /// order they were chosen.
    pub(super) fn run(mut self, s: Strategy) -> Vec<Prim> {
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
    /// The order.
    start: Start,
    /// Next index to look at (First), or one past it (Last).
    cursor: usize,
    /// Min-heap of (degree, tie key, triangle); stale entries are
    /// skipped.
    heap: BinaryHeap<Reverse<(u32, u32, u32)>>,
}

impl StartQueue {
    /// A queue over triangles of the given degrees (unused neighbour
    /// counts), none used yet.
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

    /// The key that orders triangles of equal degree.
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

    /// The next start triangle: unused, and by degree where the order
    /// goes by degree. `None` when every triangle is used.
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
