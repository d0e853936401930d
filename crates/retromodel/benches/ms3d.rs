//! Criterion benchmarks of MS3D parsing, writing, skeleton preparation,
//! sampling and skinning on real models from the corpus: assimp's test models
//! `Wuson` (2117 vertices, 3732 triangles, no joints) and `jeep1` (1190
//! vertices, 2032 triangles, no joints), and GLScene's `Woman4` (1789
//! vertices, 31 joints with 69 246 keys over 2133 frames, 664 vertices
//! weighted to several joints). And the MilkShape ASCII text: parsing,
//! writing and converting `ms3d_ascii/blender_walker.txt`, the corpus's
//! largest (110 KB: 798 vertices, 972 triangles, 11 bones with 858 keys).
//!
//! Run with `cargo bench -p retromodel --bench ms3d`. The corpus is found
//! through `RETROMODEL_CORPUS` (default: `../shared/corpus` next to the
//! repository); without it the benchmarks are skipped with a note.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::Mat4;
use retromodel::ms3d::ascii::AsciiModel;
use retromodel::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use std::path::PathBuf;
use std::time::Duration;

/// The models parsed, by file name in the corpus's `ms3d/` folder.
const MODELS: [(&str, &str); 3] = [
    ("wuson", "assimpdeb_Wuson.ms3d"),
    ("jeep1", "assimpdeb_jeep1.ms3d"),
    ("woman4", "glscene_Woman4.ms3d"),
];

/// The ASCII model, in the corpus's `ms3d_ascii/` folder.
const ASCII_MODEL: (&str, &str) = ("walker", "blender_walker.txt");

/// The animated model (an index into [`MODELS`]).
const ANIMATED: usize = 2;

/// The time sampled, in seconds: the middle of Woman4's 142.2 s of keys,
/// between two keys (they are 1/15 s apart), so every joint interpolates.
const SAMPLE_SECONDS: f32 = 71.03;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("RETROMODEL_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// The models' bytes, read once; `None` (after a note) when the corpus is
/// missing.
fn load_models() -> Option<Vec<(&'static str, Vec<u8>)>> {
    let dir = corpus_dir().join("ms3d");
    let mut models = Vec::new();
    for (name, file) in MODELS {
        let path = dir.join(file);
        match std::fs::read(&path) {
            Ok(bytes) => models.push((name, bytes)),
            Err(err) => {
                eprintln!(
                    "note: skipping MS3D benchmarks, cannot read {} ({err}); set RETROMODEL_CORPUS",
                    path.display()
                );
                return None;
            }
        }
    }
    Some(models)
}

fn parse(model: &[u8]) -> Ms3d {
    Ms3d::from_bytes(model).expect("corpus model parses")
}

fn bench_ms3d(c: &mut Criterion) {
    let Some(models) = load_models() else {
        return;
    };
    // Settle glibc's malloc as a long-running program would find it: its
    // trim threshold rises after the first large free. Without this, the
    // first benchmark would hand the parsed model's memory back to the
    // system after every iteration and fault it in again.
    drop(black_box(vec![0u8; 8 << 20]));

    let mut group = c.benchmark_group("ms3d_parse");
    for (name, bytes) in &models {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
            b.iter(|| parse(black_box(bytes)))
        });
    }
    group.finish();

    // Writing back, extras and trailing bytes included.
    let mut group = c.benchmark_group("ms3d_write");
    for (name, bytes) in &models {
        let model = parse(bytes);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| black_box(&model).to_bytes())
        });
    }
    group.finish();

    // Render-ready meshes: one indexed vertex buffer per group.
    let mut group = c.benchmark_group("ms3d_group_meshes");
    for (name, bytes) in &models {
        let model = parse(bytes);
        group.throughput(Throughput::Elements(model.triangles.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| GroupMesh::build_all(black_box(&model)))
        });
    }
    group.finish();

    let (name, bytes) = &models[ANIMATED];
    let model = parse(bytes);
    let skeleton = Skeleton::new(&model).expect("Woman4's skeleton has no cycle");
    let influences = Influences::new(&model);
    let mut joints = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let mut positions = vec![[0.0f32; 3]; model.vertices.len()];

    let mut group = c.benchmark_group("ms3d_skeleton_new");
    group.throughput(Throughput::Elements(skeleton.joint_count() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| Skeleton::new(black_box(&model)))
    });
    group.finish();

    // Sampling: every joint's animated global matrix at one time, then
    // the skinning matrices G(t)·G⁻¹.
    let mut group = c.benchmark_group("ms3d_sample");
    group.throughput(Throughput::Elements(skeleton.joint_count() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            skeleton.pose_at_time(black_box(SAMPLE_SECONDS), &mut joints);
            skeleton.skinning_matrices(&mut joints);
            black_box(&joints);
        })
    });
    group.finish();

    // Skinning every vertex position with fixed skinning matrices.
    skeleton.pose_at_time(SAMPLE_SECONDS, &mut joints);
    skeleton.skinning_matrices(&mut joints);
    let mut group = c.benchmark_group("ms3d_skin_positions");
    group.throughput(Throughput::Elements(model.vertices.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            influences.skin_positions(black_box(&model), &joints, &mut positions);
            black_box(&positions);
        })
    });
    group.finish();

    // One animation step: sample the skeleton, then skin every vertex.
    let mut group = c.benchmark_group("ms3d_sample_and_skin");
    group.throughput(Throughput::Elements(model.vertices.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            skeleton.pose_at_time(black_box(SAMPLE_SECONDS), &mut joints);
            skeleton.skinning_matrices(&mut joints);
            influences.skin_positions(&model, &joints, &mut positions);
            black_box(&positions);
        })
    });
    group.finish();
}

/// MilkShape ASCII: parsing text, writing it, and converting to and from
/// the binary model.
fn bench_ms3d_ascii(c: &mut Criterion) {
    let (name, file) = ASCII_MODEL;
    let path = corpus_dir().join("ms3d_ascii").join(file);
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!(
                "note: skipping MS3D ASCII benchmarks, cannot read {} ({err}); set RETROMODEL_CORPUS",
                path.display()
            );
            return;
        }
    };
    let model = AsciiModel::parse(&text).expect("corpus text parses");
    let binary = model.to_ms3d().expect("converts");

    let mut group = c.benchmark_group("ms3d_ascii_parse");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| AsciiModel::parse(black_box(&text)))
    });
    group.finish();

    let mut group = c.benchmark_group("ms3d_ascii_write");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| black_box(&model).to_text())
    });
    group.finish();

    let mut group = c.benchmark_group("ms3d_ascii_to_ms3d");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| black_box(&model).to_ms3d())
    });
    group.finish();

    let mut group = c.benchmark_group("ms3d_ascii_from_ms3d");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| AsciiModel::from_ms3d(black_box(&binary)))
    });
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
    targets = bench_ms3d, bench_ms3d_ascii
}
criterion_main!(benches);
