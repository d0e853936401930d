//! Criterion benchmarks of the MD5 compile against the MD2 compile of the
//! same source: the corpus's skinned Blender walker (`gltf/`, 11 joints,
//! 798 vertices) laid out as the 198-frame player table, as
//! `convert walker.glb walker.md2 --player --rerelease` makes both. The
//! MD5 is compiled on the MD2's frames and written as text (md5mesh and
//! md5anim); the MD2 compile includes its skin (PNG).
//!
//! Run with `cargo bench -p retromodel --bench md5`. The corpus is found
//! through `RETROMODEL_CORPUS` (default: `../shared/corpus` next to the
//! repository); without it the benchmarks are skipped with a note.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use retromodel::gltf::{import, ImportOptions};
use retromodel::md2::compile::{compile, frame_times, CompileOptions, SkinFormat, SkinOptions};
use retromodel::md5::compile::{compile as md5_compile, FrameTime, Md5CompileOptions};
use std::path::PathBuf;
use std::time::Duration;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("RETROMODEL_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

fn bench_md5(c: &mut Criterion) {
    let path = corpus_dir().join("gltf/blender_walker.glb");
    let Ok(glb) = std::fs::read(&path) else {
        eprintln!(
            "note: skipping MD5 benchmarks, cannot read {}; set RETROMODEL_CORPUS",
            path.display()
        );
        return;
    };
    let scene = import(&glb, None, &ImportOptions::default())
        .expect("the walker imports")
        .scene;
    let options = CompileOptions {
        player: true,
        fit_height: Some(56.0),
        skin: SkinOptions {
            format: SkinFormat::Png,
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    let md2 = compile(&scene, &options).expect("the walker compiles");
    let md5_options = Md5CompileOptions {
        frames: frame_times(&scene, &options)
            .expect("frames")
            .into_iter()
            .map(|(animation, seconds)| FrameTime { animation, seconds })
            .collect(),
        scale: md2.report.scale,
        ..Md5CompileOptions::default()
    };
    let mut group = c.benchmark_group("walker_player");
    group.bench_function("md2_compile", |b| {
        b.iter(|| compile(black_box(&scene), &options).expect("compiles"))
    });
    group.bench_function("md5_compile_and_write", |b| {
        b.iter(|| {
            let out = md5_compile(black_box(&scene), &md5_options).expect("compiles");
            let mesh = out.model.mesh.to_bytes();
            let anim = out.model.animations[0].anim.to_bytes();
            (mesh.len(), anim.len())
        })
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_md5
}
criterion_main!(benches);
