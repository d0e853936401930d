//! Times reading an MD5 (an md5mesh and its md5anim) from memory for
//! `bench/md5_compare.sh`, measured as `bench/assimp_md5_harness.cpp`
//! measures Assimp's import of the same bytes (and as `bench_parse`
//! measures MD2 and MS3D).
//!
//! Usage: `bench_md5 ITERATIONS MESH.md5mesh ANIM.md5anim`, or
//! `bench_md5 --write DIR` to write the player-sized model the script
//! times (`DIR/player.md5mesh` and `DIR/player.md5anim`: 40 joints, 3,000
//! vertices with two weights each, 3,000 triangles, 300 frames animating
//! every component of every joint; made by the test kit's `md5_sized`).
//!
//! Operations (each warmed up, then run in batches of [`retromodel_bench::BATCH`], the
//! median and fastest batch reported):
//!
//! - `memcpy`: a copy of both files' bytes (a floor);
//! - `ours_read`: [`Md5Model::from_mesh_bytes`] and
//!   [`Md5Model::add_animation`] (every count and index checked, every
//!   number parsed);
//! - `ours_read_scene`: that, then the lift to a scene (a mesh with its
//!   skin weights, the joints as nodes with inverse bind matrices, a
//!   translation and a rotation key per joint per frame): about what
//!   Assimp's import delivers.
//!
//! Output lines: `RESULT <what> <name> <median µs per op> <fastest µs per op>`.

use retromodel::md5::Md5Model;
use retromodel_bench::time_per_op;
use retromodel_testkit::md5_sized::{sized_md5anim, sized_md5mesh, SizedMesh};
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;

fn read(mesh: &[u8], anim: &[u8]) -> Md5Model {
    let mut model = Md5Model::from_mesh_bytes(mesh).expect("the md5mesh reads");
    model
        .add_animation("player", anim, None)
        .expect("the md5anim reads");
    model
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, dir] = args.as_slice() {
        if flag == "--write" {
            let dir = Path::new(dir);
            let mesh = sized_md5mesh(&SizedMesh::new(40, 3000, 3000, 6000));
            let anim = sized_md5anim(40, 0, 300);
            if let Err(e) = std::fs::write(dir.join("player.md5mesh"), mesh)
                .and_then(|()| std::fs::write(dir.join("player.md5anim"), anim))
            {
                eprintln!("bench_md5: {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
            return ExitCode::SUCCESS;
        }
    }
    let [iterations, mesh_path, anim_path] = args.as_slice() else {
        eprintln!("usage: bench_md5 ITERATIONS MESH.md5mesh ANIM.md5anim | bench_md5 --write DIR");
        return ExitCode::from(2);
    };
    let Ok(iterations) = iterations.parse::<u32>() else {
        eprintln!("bench_md5: ITERATIONS must be a number");
        return ExitCode::from(2);
    };
    let load = |p: &str| std::fs::read(p).map_err(|e| eprintln!("bench_md5: {p}: {e}"));
    let (Ok(mesh), Ok(anim)) = (load(mesh_path), load(anim_path)) else {
        return ExitCode::FAILURE;
    };
    let name = Path::new(mesh_path)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let mut copy = vec![0u8; mesh.len() + anim.len()];
    let (med, fast) = time_per_op(iterations * 10, || {
        copy[..mesh.len()].copy_from_slice(&mesh);
        copy[mesh.len()..].copy_from_slice(&anim);
        black_box(&copy);
    });
    println!("RESULT memcpy {name} {med:.3} {fast:.3}");
    let (med, fast) = time_per_op(iterations, || {
        black_box(read(black_box(&mesh), black_box(&anim)));
    });
    println!("RESULT ours_read {name} {med:.3} {fast:.3}");
    let (med, fast) = time_per_op(iterations, || {
        let scene = read(black_box(&mesh), black_box(&anim))
            .to_scene("player")
            .expect("the model lifts to a scene");
        black_box(scene);
    });
    println!("RESULT ours_read_scene {name} {med:.3} {fast:.3}");
    ExitCode::SUCCESS
}
