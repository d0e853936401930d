//! Compares GL command lists: the one stored in each MD2 file, the one id's
//! qdata algorithm builds ([`build_qdata`]) and ours ([`build`]).
//!
//! ```text
//! cargo run --release -p retromodel-bench --bin gl_stats -- models/*.md2
//! ```
//!
//! `--grid N` adds a synthetic N × N-quad grid (2·N² triangles, shared
//! texture coordinates) named `grid-N`, to time [`build`] on a large
//! model: `--grid 45` makes 4050 triangles.
//!
//! It prints a Markdown table: for each file the triangle count and, for
//! each list, the commands as `strips+fans=total` and the GL vertices sent,
//! and the time [`build`] took (best of five runs, so that other processes
//! disturb it less). A stored list with faults (for example UFO:AI's
//! `{index, s, t}` field order) is marked `!`, a missing one `-`; a list
//! of just the terminator shows as `0+0=0`. Two total lines follow: over
//! all inputs (qdata and ours), and over the inputs whose stored list is
//! fault-free and draws something (all three).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use retromodel::md2::gl_commands::{build, build_qdata, decode, Stats};
use retromodel::md2::{Md2, TexCoord, Triangle};

/// An `n` × `n`-quad grid in the skin's plane, two triangles per quad.
fn grid(n: u16) -> Md2 {
    let side = n + 1;
    let index = |x: u16, y: u16| y * side + x;
    let mut model = Md2 {
        skin_width: 256,
        skin_height: 256,
        num_vertices: usize::from(side) * usize::from(side),
        ..Md2::default()
    };
    for y in 0..side {
        for x in 0..side {
            model.texcoords.push(TexCoord {
                s: x as i16,
                t: y as i16,
            });
        }
    }
    for y in 0..n {
        for x in 0..n {
            let (a, b, c, d) = (
                index(x, y),
                index(x + 1, y),
                index(x + 1, y + 1),
                index(x, y + 1),
            );
            for v in [[a, b, c], [a, c, d]] {
                model.triangles.push(Triangle {
                    vertices: v,
                    texcoords: v,
                });
            }
        }
    }
    model
}

fn cell(s: &Stats) -> String {
    format!(
        "{}+{}={} | {}",
        s.strips,
        s.fans,
        s.strips + s.fans,
        s.gl_vertices
    )
}

#[derive(Default)]
struct Total {
    files: usize,
    tris: usize,
    stored: Stats,
    qdata: Stats,
    ours: Stats,
}

fn add(to: &mut Stats, s: &Stats) {
    to.strips += s.strips;
    to.fans += s.fans;
    to.gl_vertices += s.gl_vertices;
    to.words += s.words;
}

fn main() -> ExitCode {
    let mut paths: Vec<String> = Vec::new();
    let mut grids: Vec<u16> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--grid" {
            match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if (1..=180).contains(&n) => grids.push(n),
                _ => {
                    eprintln!("--grid takes a size from 1 to 180");
                    return ExitCode::FAILURE;
                }
            }
        } else {
            paths.push(arg);
        }
    }
    let inputs = paths
        .iter()
        .map(|p| (p.clone(), None))
        .chain(grids.iter().map(|&n| (format!("grid-{n}"), Some(grid(n)))));
    if paths.is_empty() && grids.is_empty() {
        eprintln!("usage: gl_stats [--grid N] FILE.md2...");
        return ExitCode::FAILURE;
    }
    println!(
        "| file | tris | stored cmds | stored glverts | qdata cmds | qdata glverts \
         | ours cmds | ours glverts | ours ms |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    // All inputs, and those with a fault-free stored list.
    let (mut all, mut with_stored) = (Total::default(), Total::default());
    let mut failed = false;
    for (path, synthetic) in inputs {
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
        let loaded = match synthetic {
            Some(m) => Ok(m),
            None => std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| Md2::from_bytes(&b).map_err(|e| e.to_string())),
        };
        let model = match loaded {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{name}: {e}");
                failed = true;
                continue;
            }
        };
        let nv = model.vertex_count();
        let stored = model.decode_gl_commands();
        let stored_stats = stored.stats(model.gl_commands.len());
        let stored_cell = if model.gl_commands.is_empty() {
            "- | -".to_string()
        } else if stored.faults.is_empty() {
            cell(&stored_stats)
        } else {
            format!(
                "{}! | {}!",
                stored_stats.strips + stored_stats.fans,
                stored_stats.gl_vertices
            )
        };
        let q = build_qdata(&model);
        let qs = decode(&q, nv).stats(q.len());
        // Best of five runs, to keep other processes out of the timing.
        let mut took = Duration::MAX;
        let mut o = Vec::new();
        for _ in 0..5 {
            let t0 = Instant::now();
            o = build(&model);
            took = took.min(t0.elapsed());
        }
        let os = decode(&o, nv).stats(o.len());
        println!(
            "| {} | {} | {} | {} | {} | {:.2} |",
            name,
            model.triangles.len(),
            stored_cell,
            cell(&qs),
            cell(&os),
            took.as_secs_f64() * 1e3
        );
        let valid_stored = stored.faults.is_empty() && !stored.primitives.is_empty();
        for (total, include) in [(&mut all, true), (&mut with_stored, valid_stored)] {
            if include {
                total.files += 1;
                total.tris += model.triangles.len();
                add(&mut total.stored, &stored_stats);
                add(&mut total.qdata, &qs);
                add(&mut total.ours, &os);
            }
        }
    }
    println!(
        "| **total, {} inputs** | {} | | | {} | {} | |",
        all.files,
        all.tris,
        cell(&all.qdata),
        cell(&all.ours)
    );
    if with_stored.files > 0 {
        println!(
            "| **total, {} inputs with a usable stored list** | {} | {} | {} | {} | |",
            with_stored.files,
            with_stored.tris,
            cell(&with_stored.stored),
            cell(&with_stored.qdata),
            cell(&with_stored.ours)
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
