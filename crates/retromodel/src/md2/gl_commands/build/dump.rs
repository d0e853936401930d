//! A before/after check for changes that must not change the output:
//! with `GL_DUMP=FILE` set, writes [`build`](super::build) and
//! [`build_qdata`](super::build_qdata) of every MD2 in the corpus (and in
//! `GL_DUMP_MORE`, a folder, if set) and of a few thousand random models
//! to `FILE`, so two versions can be compared with `cmp`.

use super::test_support::{corpus, grid_triangles, model, st_grid, tri, Rng};
use super::{build, build_qdata};
use crate::md2::{Md2, TexCoord, Triangle};
use std::io::Write;

/// Random models: soups with heavily shared edges, and shuffled grid
/// pieces of several sizes.
fn random_models() -> Vec<(String, Md2)> {
    let mut out = Vec::new();
    let mut rng = Rng(0xD0D0_1234_5678_9ABC);
    for i in 0..1500 {
        let nv = 1 + rng.below(if i % 3 == 0 { 40 } else { 7 }) as usize;
        let nst = 1 + rng.below(4) as usize;
        let texcoords = (0..nst)
            .map(|_| TexCoord {
                s: rng.below(64) as i16 - 8,
                t: rng.below(32) as i16,
            })
            .collect();
        let tris = (0..rng.below(if i % 5 == 0 { 400 } else { 40 }))
            .map(|_| {
                let mut pick = |n: usize| rng.below(n as u64 + 1) as u16;
                Triangle {
                    vertices: [pick(nv), pick(nv), pick(nv)],
                    texcoords: [pick(nst), pick(nst), pick(nst)],
                }
            })
            .collect();
        out.push((format!("soup{i}"), model(nv, texcoords, tris)));
    }
    for i in 0..600 {
        let n = 2 + rng.below(if i % 4 == 0 { 40 } else { 8 }) as u16;
        let side = n + 1;
        let tris = grid_triangles(&mut rng, n, true, i % 2 == 0);
        let m = model(usize::from(side * side), st_grid(side as i16), tris);
        out.push((format!("grid{i}"), m));
    }
    let heavy = (0..3000)
        .map(|i| tri(if i % 2 == 0 { [0, 1, 2] } else { [0, 2, 1] }))
        .collect();
    out.push(("heavy".into(), model(3, st_grid(2), heavy)));
    out
}

#[test]
fn dump_for_comparison() {
    let Some(path) = std::env::var_os("GL_DUMP") else {
        return;
    };
    let mut files = Vec::new();
    if let Some(dir) = corpus() {
        files.extend(
            std::fs::read_dir(dir.join("md2"))
                .unwrap()
                .map(|e| e.unwrap().path()),
        );
    }
    if let Some(more) = std::env::var_os("GL_DUMP_MORE") {
        files.extend(std::fs::read_dir(more).unwrap().map(|e| e.unwrap().path()));
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "md2"));
    files.sort();
    let mut models = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        if let Ok(m) = Md2::from_bytes(&bytes) {
            models.push((f.display().to_string(), m));
        } else {
            eprintln!("unreadable: {}", f.display());
        }
    }
    let n_files = models.len();
    models.extend(random_models());
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for (name, m) in &models {
        for words in [build(m), build_qdata(m)] {
            writeln!(out, "{name} {}", words.len()).unwrap();
            for w in words {
                out.write_all(&w.to_le_bytes()).unwrap();
            }
        }
    }
    eprintln!("dumped {} models ({n_files} files)", models.len());
}
