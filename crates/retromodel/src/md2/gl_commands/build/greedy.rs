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
/// corpus (see docs/benchmarks-history.md, "GL command generation"): starting at the triangle with the fewest
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
#[derive(Clone)]
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
    /// A run over `mesh` with no triangle used yet (clone it for each
    /// run rather than building it again).
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

    /// The best free triangle across edge `k` of triangle `t` (holding
    /// the reverse of that edge): fewest unused neighbours, then lowest
    /// index.
    fn pick(&self, t: u32, k: usize) -> Option<EdgeEntry> {
        let mut best: Option<(u32, EdgeEntry)> = None;
        for e in self.mesh.across_edge(t as usize, k) {
            let u = e.tri as usize;
            if !self.free(u) {
                continue;
            }
            let d = self.degree[u];
            // Entries come by triangle index, so the first of the lowest
            // degree is the lowest index.
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, *e));
            }
        }
        best.map(|(_, e)| e)
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
        // A triangle joins by its edge c0 → y (edge `e.k`), adds its
        // third corner z, and the next joins across z → c0 (its edge
        // `e.k + 2`).
        let (mut last, mut k) = (start as u32, (rot + 2) % 3);
        while let Some(e) = self.pick(last, k) {
            fwd.push(self.mesh.third(&e));
            self.take(&mut out.tris, &e);
            (last, k) = (e.tri, (usize::from(e.k) + 2) % 3);
        }
        // The triangle before (c0, x, c1) holds c1 → c0: it joins by
        // its edge y → c0 (edge `e.k`), adds z, and the one before joins
        // across c0 → z (its edge `e.k + 1`).
        out.corners.clear();
        let (mut last, mut k) = (start as u32, rot % 3);
        while let Some(e) = self.pick(last, k) {
            out.corners.push(self.mesh.third(&e));
            self.take(&mut out.tris, &e);
            (last, k) = (e.tri, (usize::from(e.k) + 1) % 3);
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
        // A triangle joins by edge `e.k` and adds its third corner; the
        // next joins across its edge `e.k + 2` when the strip had an odd
        // number of corners before, `e.k + 1` when even (the winding
        // alternates).
        let (mut last, mut k) = (start as u32, (rot + 1) % 3);
        while let Some(e) = self.pick(last, k) {
            let step = if out.corners.len() % 2 == 1 { 2 } else { 1 };
            out.corners.push(self.mesh.third(&e));
            self.take(&mut out.tris, &e);
            (last, k) = (e.tri, (usize::from(e.k) + step) % 3);
        }
        // Strip (u2, u1, p, q, ...): (p, u1, q) holds q → p (edge
        // `b.k`), and (u2, u1, p) holds u1 → p (edge `a.k`), across
        // p → u1 (edge `b.k + 1` of the first); the next pair joins
        // across u2 → u1 (edge `a.k + 2` of the second).
        let mut front = std::mem::take(&mut self.scratch);
        front.clear();
        let (mut first, mut k) = (start as u32, rot % 3);
        while let Some(b) = self.pick(first, k) {
            let u1 = self.mesh.third(&b);
            self.mark[b.tri as usize] = self.stamp;
            let Some(a) = self.pick(b.tri, (usize::from(b.k) + 1) % 3) else {
                self.mark[b.tri as usize] = 0;
                break;
            };
            let u2 = self.mesh.third(&a);
            self.take(&mut out.tris, &b);
            self.take(&mut out.tris, &a);
            front.push(u1);
            front.push(u2);
            (first, k) = (a.tri, (usize::from(a.k) + 2) % 3);
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
        // go to fewer stranded, then to the first tried. Candidates are
        // scored longest first, and one that could not win even if it
        // stranded none (score `4 × length`, fewest stranded) is not
        // scored at all: counting stranded triangles is the dear part.
        let w = i64::from(s.isolation_weight);
        let longest = candidates.iter().map(|p| p.tris.len()).max().unwrap_or(0);
        let mut order = [0, 1, 2, 3, 4, 5];
        order.sort_by_key(|&i| Reverse(candidates.get(i).map_or(0, |p| p.tris.len())));
        let mut best: Option<(usize, (i64, usize))> = None;
        for i in order {
            let Some(p) = candidates.get(i) else { continue };
            if w == 0 && p.tris.len() < longest {
                continue;
            }
            let better = |key: (i64, usize), best: Option<(usize, (i64, usize))>| {
                best.is_none_or(|(b, bkey)| key > bkey || (key == bkey && i < b))
            };
            if !better((4 * p.tris.len() as i64, usize::MAX), best) {
                continue;
            }
            let iso = self.isolated_by(p);
            let key = (4 * p.tris.len() as i64 - w * iso as i64, usize::MAX - iso);
            if better(key, best) {
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
///
/// The orders by degree take the unused triangle with the fewest unused
/// neighbours, ties by the triangle's place in the order that breaks them
/// (its slot: the index, the index from the end, or a shuffled place).
/// Degrees only go down, so a triangle is filed under each degree it has
/// had, and an entry is checked when it comes up (dropped when its
/// triangle is used or has fewer neighbours by then). Degrees below
/// [`BUCKETS`] (nearly all: at most three in a closed mesh) are bit sets
/// by slot, whose first entry is the first set bit; higher ones share a
/// binary heap.
struct StartQueue {
    /// The order.
    start: Start,
    /// Next index to look at (First), or one past it (Last).
    cursor: usize,
    /// Per degree below [`BUCKETS`], one bit per slot.
    buckets: Vec<Vec<u64>>,
    /// Per bucket, the first word that may have a bit set.
    lowest: [usize; BUCKETS],
    /// Min-heap of `degree << 32 | slot` for degrees of [`BUCKETS`] and
    /// more.
    heap: BinaryHeap<Reverse<u64>>,
    /// The triangle in each slot, for the shuffled order (the other
    /// orders compute it).
    order: Vec<u32>,
    /// The slot of each triangle, for the shuffled order.
    slot: Vec<u32>,
}

/// Degrees [`StartQueue`] keeps in bit sets.
const BUCKETS: usize = 8;

impl StartQueue {
    /// A queue over triangles of the given degrees (unused neighbour
    /// counts), none used yet.
    fn new(start: Start, degree: &[u32]) -> Self {
        let n = degree.len();
        let mut q = StartQueue {
            start,
            cursor: match start {
                Start::Last => n,
                _ => 0,
            },
            buckets: Vec::new(),
            lowest: [0; BUCKETS],
            heap: BinaryHeap::new(),
            order: Vec::new(),
            slot: Vec::new(),
        };
        if matches!(start, Start::First | Start::Last) {
            return q;
        }
        if let Start::FewestNeighboursShuffled(seed) = start {
            // The hash is a bijection, so no two triangles tie.
            let salt = seed.wrapping_mul(0x9E37_79B9);
            let mut keyed: Vec<(u32, u32)> = (0..n as u32).map(|t| (mix(t ^ salt), t)).collect();
            keyed.sort_unstable();
            q.order = keyed.into_iter().map(|(_, t)| t).collect();
            q.slot = vec![0; n];
            for (r, &t) in q.order.iter().enumerate() {
                q.slot[t as usize] = r as u32;
            }
        }
        q.buckets = vec![vec![0; n.div_ceil(64)]; BUCKETS];
        for (t, &d) in degree.iter().enumerate() {
            q.changed(d, t as u32);
        }
        q
    }

    /// The slot of triangle `t` (of `0..n`, n = the triangle count).
    fn slot_of(&self, t: u32) -> u32 {
        match self.start {
            Start::FewestNeighboursLast => self.slots() - 1 - t,
            Start::FewestNeighboursShuffled(_) => self.slot.get(t as usize).copied().unwrap_or(t),
            _ => t,
        }
    }

    /// The triangle in slot `slot`.
    fn triangle(&self, slot: u32) -> usize {
        (match self.start {
            Start::FewestNeighboursLast => self.slots() - 1 - slot,
            Start::FewestNeighboursShuffled(_) => {
                self.order.get(slot as usize).copied().unwrap_or(slot)
            }
            _ => slot,
        }) as usize
    }

    /// How many slots the bit sets have (the triangle count, rounded up
    /// to a whole word): the last-first order counts slots from there.
    fn slots(&self) -> u32 {
        self.buckets.first().map_or(0, |b| b.len() as u32 * 64)
    }

    /// Triangle `t` now has `degree` unused neighbours.
    fn changed(&mut self, degree: u32, t: u32) {
        if matches!(self.start, Start::First | Start::Last) {
            return;
        }
        let slot = self.slot_of(t);
        match self.buckets.get_mut(degree as usize) {
            Some(bits) => {
                let w = slot as usize / 64;
                if let Some(word) = bits.get_mut(w) {
                    *word |= 1 << (slot % 64);
                    let lowest = &mut self.lowest[degree as usize];
                    *lowest = (*lowest).min(w);
                }
            }
            None => self
                .heap
                .push(Reverse((u64::from(degree) << 32) | u64::from(slot))),
        }
    }

    /// The first triangle filed under degree `d` (below [`BUCKETS`]) that
    /// is unused and still has `d` unused neighbours, taken out; stale
    /// entries met on the way are dropped.
    fn take_from_bucket(&mut self, d: usize, used: &[bool], degree: &[u32]) -> Option<usize> {
        loop {
            let w = self.lowest[d];
            let word = *self.buckets.get(d)?.get(w)?;
            if word == 0 {
                self.lowest[d] += 1;
                continue;
            }
            let bit = word.trailing_zeros();
            self.buckets[d][w] = word & (word - 1);
            let t = self.triangle(w as u32 * 64 + bit);
            if used.get(t) == Some(&false) && degree.get(t).is_some_and(|&g| g as usize == d) {
                return Some(t);
            }
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
                for d in 0..BUCKETS {
                    if let Some(t) = self.take_from_bucket(d, used, degree) {
                        return Some(t);
                    }
                }
                while let Some(Reverse(e)) = self.heap.pop() {
                    let t = self.triangle(e as u32);
                    if !used[t] && u64::from(degree[t]) == e >> 32 {
                        return Some(t);
                    }
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::gl_commands::build::test_support::Rng;

    /// The queue as it was: one binary heap of `degree << 32 | rank`
    /// entries, the rank in the order that breaks ties.
    struct HeapQueue {
        heap: BinaryHeap<Reverse<u64>>,
        rank: Vec<u32>,
        order: Vec<u32>,
    }

    impl HeapQueue {
        fn new(start: Start, degree: &[u32]) -> Self {
            let n = degree.len() as u32;
            let rank: Vec<u32> = match start {
                Start::FewestNeighboursLast => (0..n).map(|t| n - 1 - t).collect(),
                Start::FewestNeighboursShuffled(seed) => {
                    let salt = seed.wrapping_mul(0x9E37_79B9);
                    let mut keyed: Vec<(u32, u32)> = (0..n).map(|t| (mix(t ^ salt), t)).collect();
                    keyed.sort_unstable();
                    let mut rank = vec![0; n as usize];
                    for (r, (_, t)) in keyed.into_iter().enumerate() {
                        rank[t as usize] = r as u32;
                    }
                    rank
                }
                _ => (0..n).collect(),
            };
            let mut order = vec![0; n as usize];
            for (t, &r) in rank.iter().enumerate() {
                order[r as usize] = t as u32;
            }
            let mut q = HeapQueue {
                heap: BinaryHeap::new(),
                rank,
                order,
            };
            for (t, &d) in degree.iter().enumerate() {
                q.changed(d, t as u32);
            }
            q
        }
        fn changed(&mut self, degree: u32, t: u32) {
            let e = (u64::from(degree) << 32) | u64::from(self.rank[t as usize]);
            self.heap.push(Reverse(e));
        }
        fn next(&mut self, used: &[bool], degree: &[u32]) -> Option<usize> {
            while let Some(Reverse(e)) = self.heap.pop() {
                let t = self.order[(e as u32) as usize] as usize;
                if !used[t] && u64::from(degree[t]) == e >> 32 {
                    return Some(t);
                }
            }
            None
        }
    }

    #[test]
    fn the_bucket_queue_hands_out_what_a_heap_of_every_entry_does() {
        // Random degrees (some past the bit sets), then rounds of: take
        // the next start, mark it and a few others used, and lower some
        // degrees (by one, as `commit` does, including at 0).
        let mut rng = Rng(0x5EED_0000_B0C4_E7E5);
        for case in 0..300 {
            let n = 1 + rng.below(300) as usize;
            let high = if case % 2 == 0 { 20 } else { 5 };
            let mut degree: Vec<u32> = (0..n).map(|_| rng.below(high) as u32).collect();
            let start = match case % 3 {
                0 => Start::FewestNeighbours,
                1 => Start::FewestNeighboursLast,
                _ => Start::FewestNeighboursShuffled(rng.below(8) as u32),
            };
            let mut ours = StartQueue::new(start, &degree);
            let mut theirs = HeapQueue::new(start, &degree);
            let mut used = vec![false; n];
            loop {
                let a = ours.next(&used, &degree);
                let b = theirs.next(&used, &degree);
                assert_eq!(a, b, "case {case}");
                let Some(t) = a else { break };
                used[t] = true;
                for _ in 0..rng.below(3) {
                    let u = rng.below(n as u64) as usize;
                    used[u] = true;
                }
                for _ in 0..rng.below(6) {
                    let u = rng.below(n as u64) as usize;
                    if !used[u] {
                        degree[u] = degree[u].saturating_sub(1);
                        ours.changed(degree[u], u as u32);
                        theirs.changed(degree[u], u as u32);
                    }
                }
            }
            assert!(
                used.iter().all(|&u| u),
                "case {case}: a triangle was never handed out"
            );
        }
    }
}
