//! id's qdata algorithm (`BuildGlCmds`, `StripLength`, `FanLength` in
//! `qdata/models.c`), decision for decision, so that a list made by qdata
//! can be rebuilt word for word.

use super::mesh::Mesh;
use super::prim::Prim;

/// Grows a fan or strip the way qdata's `FanLength` / `StripLength` do.
///
/// qdata looks for the *first* triangle after `start` (in index order,
/// first matching corner within it) that holds the wanted directed edge;
/// if that triangle is already used (by an earlier primitive or by this
/// one) the primitive ends there, even when a later unused triangle would
/// have fitted. Triangles before `start` are never looked at.
/// The primitive is grown into `p` (its buffers reused).
#[allow(clippy::too_many_arguments)]
fn qdata_grow(
    mesh: &Mesh,
    start: usize,
    startv: usize,
    fan: bool,
    used: &[bool],
    mark: &mut [u32],
    stamp: u32,
    p: &mut Prim,
) {
    p.fan = fan;
    p.corners.clear();
    p.corners.extend(mesh.rotated(start, startv));
    p.tris.clear();
    p.tris.push(start as u32);
    // The edge of the last triangle to grow across: a fan (c0, x, y)
    // goes on across y → c0, the edge after next from the one it came
    // in by; a strip across its last two corners, alternately the edge
    // after next and the one after (see `Greedy::strip`).
    let (mut last, mut k) = (start, (startv + if fan { 2 } else { 1 }) % 3);
    loop {
        let range = mesh.across_edge(last, k);
        let first = range.partition_point(|e| e.tri as usize <= start);
        let Some(e) = range.get(first) else { break };
        let j = e.tri as usize;
        if used[j] || mark[j] == stamp {
            break;
        }
        let step = if fan || p.corners.len() % 2 == 1 {
            2
        } else {
            1
        };
        mark[j] = stamp;
        p.corners.push(mesh.third(e));
        p.tris.push(e.tri);
        (last, k) = (j, (usize::from(e.k) + step) % 3);
    }
}

/// qdata's `BuildGlCmds`. With `fans_first` false the two types are tried
/// the other way round, so strips win ties: the variant that wrote the
/// UFO:AI soldier models in the corpus.
pub(super) fn qdata_prims(mesh: &Mesh, fans_first: bool) -> Vec<Prim> {
    let n = mesh.tris.len();
    let mut used = vec![false; n];
    let mut mark = vec![0u32; n];
    let mut stamp = 0u32;
    let mut out = Vec::new();
    let mut best = Prim::default();
    let mut tried = Prim::default();
    for i in 0..n {
        if used[i] {
            continue;
        }
        // Fans first, then strips (unless told otherwise); start corners
        // 0, 1, 2; a later try replaces the best only when strictly longer,
        // so fans win ties against strips and lower start corners win ties
        // within a type.
        best.tris.clear();
        for fan in [fans_first, !fans_first] {
            for startv in 0..3 {
                stamp += 1;
                qdata_grow(mesh, i, startv, fan, &used, &mut mark, stamp, &mut tried);
                if best.tris.is_empty() || tried.tris.len() > best.tris.len() {
                    std::mem::swap(&mut best, &mut tried);
                }
            }
        }
        for &t in &best.tris {
            used[t as usize] = true;
        }
        out.push(best.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md2::gl_commands::build::prim::emit;
    use crate::md2::gl_commands::build::test_support::{check, corpus, model, st_grid, tri};
    use crate::md2::gl_commands::build::{build, build_qdata};
    use crate::md2::gl_commands::{decode, PrimitiveKind};
    use crate::md2::Md2;

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
