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
//!
//! The work is split by job: [`mesh`] holds the triangles and their
//! adjacency, [`qdata`] id's algorithm, [`greedy`] our strategies, and
//! [`prim`] the primitive type and the output words both share.

#[cfg(test)]
mod dump;
mod greedy;
mod mesh;
mod prim;
mod qdata;
#[cfg(test)]
mod test_support;

use crate::md2::Md2;
use greedy::{Greedy, Strategy, STRATEGIES};
use mesh::Mesh;
use prim::{emit, Prim};
use qdata::qdata_prims;

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
    // The greedy runs (and the component search) look at every triangle
    // across an edge at each step, so on a mesh whose edges are shared by
    // many triangles each (only seen in hostile or broken files) they
    // would take quadratic time: keep to qdata's lists there.
    if mesh.adjacency > 8 * mesh.tris.len() + 1024 {
        let fans_first = qdata_prims(&mesh, true);
        let strips_first = qdata_prims(&mesh, false);
        let best = if strips_first.len() < fans_first.len() {
            strips_first
        } else {
            fans_first
        };
        return emit(model, &best);
    }
    // The runs are independent: at once where there are threads and the
    // mesh is big enough, each a clone of one fresh greedy state.
    let fresh = Greedy::new(&mesh);
    let jobs: Vec<Run> = [
        Run::Qdata { fans_first: true },
        Run::Qdata { fans_first: false },
    ]
    .into_iter()
    .chain(STRATEGIES.map(Run::Greedy))
    .collect();
    let run = |job: Run| match job {
        Run::Qdata { fans_first } => qdata_prims(&mesh, fans_first),
        Run::Greedy(s) => fresh.clone().run(s),
    };
    let runs = if crate::parallel::worth_at(jobs.len() * mesh.tris.len(), SMALL_RUNS) {
        crate::parallel::map(jobs, run)
    } else {
        jobs.into_iter().map(run).collect()
    };
    emit(model, &best_per_component(&mesh, runs))
}

/// One of the runs [`build`] compares.
#[derive(Clone, Copy)]
enum Run {
    /// qdata's algorithm, trying fans or strips first.
    Qdata {
        /// Fans win ties (else strips).
        fans_first: bool,
    },
    /// A greedy run.
    Greedy(Strategy),
}

/// Below this many triangles times runs (each costing about 1,200
/// instructions, so 40,000 are about 50 M instructions or 5 ms on one
/// thread) [`build`] keeps to the calling thread: putting a second thread
/// to work costs up to a millisecond on a virtual machine (see
/// [`crate::parallel::SMALL`]).
const SMALL_RUNS: usize = 40_000;

/// Takes, for each component, the primitives of the run that covers it
/// with the fewest (the earliest run on ties). Components share no
/// edge, so runs can be mixed freely.
fn best_per_component(mesh: &Mesh, runs: Vec<Vec<Prim>>) -> Vec<Prim> {
    let (comp, count) = mesh.components();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::gl_commands::decode;
    use crate::md2::{TexCoord, Triangle};
    use test_support::{check, grid_triangles, model, st_grid, tri, Rng};

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
            let tris = grid_triangles(&mut rng, n, true, true);
            let m = model(usize::from(side * side), st_grid(side as i16), tris);
            let q = check(&m, &build_qdata(&m));
            let o = check(&m, &build(&m));
            assert!(o <= q, "ours {o} qdata {q}");
        }
    }

    #[test]
    #[cfg(feature = "parallel")]
    fn the_same_list_on_one_thread_and_on_four() {
        // The runs go to the pool's threads on four and all stay on one;
        // the list must not depend on which.
        let mut rng = Rng(0x0123_4567_89AB_CDEF);
        for n in [3u16, 12, 30] {
            let side = n + 1;
            let tris = grid_triangles(&mut rng, n, false, true);
            let m = model(usize::from(side * side), st_grid(side as i16), tris);
            let on = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| build(&m))
            };
            let one = on(1);
            assert_eq!(one, on(4));
            check(&m, &one);
        }
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
}
