//! Criterion benchmarks of MD2 parsing, writing, GL command building,
//! decoding and mesh filling on two real models from the corpus (assimp's
//! test models `faerie` and `sydney`, 198 frames each).
//!
//! Run with `cargo bench -p retromodel --bench md2`. The corpus is found
//! through `RETROMODEL_CORPUS` (default: `../shared/corpus` next to the
//! repository); without it the benchmarks are skipped with a note.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use retromodel::md2::{gl_commands, Md2, MeshVertex, RenderMesh};
use std::path::PathBuf;
use std::time::Duration;

/// The models measured, by file name in the corpus's `md2/` folder.
const MODELS: [(&str, &str); 2] = [
    ("faerie", "assimpdeb_faerie.md2"),
    ("sydney", "assimpdeb_sydney.md2"),
];

fn corpus_dir() -> PathBuf {
    match std::env::var_os("RETROMODEL_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// The models' bytes, read once; `None` (after a note) when the corpus is
/// missing.
fn load_models() -> Option<Vec<(&'static str, Vec<u8>)>> {
    let dir = corpus_dir().join("md2");
    let mut models = Vec::new();
    for (name, file) in MODELS {
        let path = dir.join(file);
        match std::fs::read(&path) {
            Ok(bytes) => models.push((name, bytes)),
            Err(err) => {
                eprintln!(
                    "note: skipping MD2 benchmarks, cannot read {} ({err}); set RETROMODEL_CORPUS",
                    path.display()
                );
                return None;
            }
        }
    }
    Some(models)
}

/// Decodes every frame of `model` into `positions` and `normals`, which
/// hold `vertex_count × frames` entries.
fn decode_all(model: &Md2, positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) {
    let n = model.vertex_count().max(1);
    for ((frame, p), nrm) in model
        .frames
        .iter()
        .zip(positions.chunks_exact_mut(n))
        .zip(normals.chunks_exact_mut(n))
    {
        frame.decode(p, nrm);
    }
}

fn parse(model: &[u8]) -> Md2 {
    Md2::from_bytes(model).expect("corpus model parses")
}

fn bench_md2(c: &mut Criterion) {
    let Some(models) = load_models() else {
        return;
    };
    // Settle glibc's malloc as a long-running program would find it: its
    // trim threshold rises after the first large free. Without this, the
    // first benchmark (and only it) would hand the parsed model's memory
    // back to the system after every iteration and fault it in again.
    drop(black_box(vec![0u8; 8 << 20]));

    let mut group = c.benchmark_group("md2_parse");
    for (name, bytes) in &models {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
            b.iter(|| parse(black_box(bytes)))
        });
    }
    group.finish();

    // Writing back: the standard layout, one buffer of the computed size.
    let mut group = c.benchmark_group("md2_write");
    for (name, bytes) in &models {
        let model = parse(bytes);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| black_box(&model).to_bytes())
        });
    }
    group.finish();

    // Building a GL command list from the triangles (qdata's algorithm
    // and our greedy runs).
    let mut group = c.benchmark_group("md2_gl_commands_build");
    for (name, bytes) in &models {
        let model = parse(bytes);
        group.throughput(Throughput::Elements(model.triangles.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| gl_commands::build(black_box(&model)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("md2_parse_decode_all_frames");
    for (name, bytes) in &models {
        let model = parse(bytes);
        let total = model.vertex_count() * model.frames.len();
        let (mut positions, mut normals) = (vec![[0.0; 3]; total], vec![[0.0; 3]; total]);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let model = parse(black_box(bytes));
                decode_all(&model, &mut positions, &mut normals);
                black_box((&positions, &normals));
                model
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("md2_decode_all_frames");
    for (name, bytes) in &models {
        let model = parse(bytes);
        let total = model.vertex_count() * model.frames.len();
        let (mut positions, mut normals) = (vec![[0.0; 3]; total], vec![[0.0; 3]; total]);
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                decode_all(black_box(&model), &mut positions, &mut normals);
                black_box((&positions, &normals));
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("md2_interpolate");
    for (name, bytes) in &models {
        let model = parse(bytes);
        let n = model.vertex_count();
        let (mut positions, mut normals) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let ok = black_box(&model).interpolate(0, 1, 0.25, &mut positions, &mut normals);
                black_box((&positions, &normals));
                ok
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("md2_render_mesh_new");
    for (name, bytes) in &models {
        let model = parse(bytes);
        group.throughput(Throughput::Elements(model.triangles.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| RenderMesh::new(black_box(&model)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("md2_fill_frame");
    for (name, bytes) in &models {
        let model = parse(bytes);
        let mesh = RenderMesh::new(&model);
        let mut vertices = vec![MeshVertex::default(); mesh.vertex_count()];
        group.throughput(Throughput::Elements(mesh.vertex_count() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let ok = mesh.fill_frame(black_box(&model), 1, &mut vertices);
                black_box(&vertices);
                ok
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_md2
}
criterion_main!(benches);
