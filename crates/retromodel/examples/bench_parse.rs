//! Times MD2 parsing for `bench/compare.sh`, measured the same way as
//! `bench/assimp_harness.cpp`.
//!
//! Usage: `cargo run --release -p retromodel --example bench_parse -- ITERATIONS FILE...`
//!
//! For each file, the bytes are read once. Each operation is warmed up,
//! then run ITERATIONS times in batches of [`BATCH`], each batch timed with
//! `std::time::Instant`; the median and the fastest batch are reported per
//! operation (the median resists other processes taking the CPU, which
//! the mean does not):
//!
//! - `memcpy`: a copy of the file's bytes into a buffer (a floor);
//! - `ours_parse`: [`Md2::from_bytes`] (the model is dropped each time);
//! - `ours_parse_decode`: parse, then decode every frame's positions and
//!   normals to `f32` into buffers that hold all frames, allocated once
//!   before the loop (the model is dropped each time);
//! - `ours_parse_decode_reuse`: parse, then decode every frame into one
//!   frame-sized buffer, reused for each frame (as an animation loop
//!   would).
//!
//! Output lines: `RESULT <what> <file> <median µs per op> <fastest µs per op>`.

use retromodel::md2::Md2;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Operations per timed batch.
const BATCH: u32 = 10;

/// Median and fastest microseconds per call of `op`.
fn time_per_op(iterations: u32, mut op: impl FnMut()) -> (f64, f64) {
    for _ in 0..(iterations / 10).max(20) {
        op();
    }
    let mut samples: Vec<f64> = (0..(iterations / BATCH).max(1))
        .map(|_| {
            let start = Instant::now();
            for _ in 0..BATCH {
                op();
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(BATCH)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], samples[0])
}

/// Parses `bytes` and decodes frame `i` into entry `i` of the chunks of
/// `positions` and `normals` (`chunk` entries each; with `chunk` equal to
/// the whole buffer's length, every frame goes to the same place).
fn parse_and_decode(bytes: &[u8], positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) -> Md2 {
    let model = Md2::from_bytes(bytes).expect("the file parsed before");
    let n = model.vertex_count().max(1);
    let all_frames = positions.len() == n * model.frames.len();
    for (i, frame) in model.frames.iter().enumerate() {
        let at = if all_frames { i * n } else { 0 };
        frame.decode(&mut positions[at..at + n], &mut normals[at..at + n]);
    }
    model
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(iterations) = args.first().and_then(|s| s.parse::<u32>().ok()) else {
        eprintln!("usage: bench_parse ITERATIONS FILE...");
        return ExitCode::from(2);
    };
    for path in &args[1..] {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        let name = Path::new(path)
            .file_stem()
            .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
        let model = match Md2::from_bytes(&bytes) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("cannot parse {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let n = model.vertex_count();
        let total = n * model.frames.len();
        {
            // Settle the allocator first: glibc raises its trim threshold
            // after the first large free. Without this, the first file
            // timed would give memory back to the system after every parse
            // and fault it in again, which no long-running program sees.
            let (mut p, mut q) = (vec![[0.0f32; 3]; total], vec![[0.0f32; 3]; total]);
            black_box(parse_and_decode(&bytes, &mut p, &mut q));
        }

        let mut copy = vec![0u8; bytes.len()];
        let (med, min) = time_per_op(iterations * 10, || {
            copy.copy_from_slice(black_box(&bytes));
            black_box(&copy);
        });
        println!("RESULT memcpy {name} {med:.3} {min:.3}");

        let (med, min) = time_per_op(iterations, || {
            black_box(Md2::from_bytes(black_box(&bytes)).is_ok());
        });
        println!("RESULT ours_parse {name} {med:.3} {min:.3}");

        let mut positions = vec![[0.0f32; 3]; total];
        let mut normals = vec![[0.0f32; 3]; total];
        let (med, min) = time_per_op(iterations, || {
            black_box(parse_and_decode(
                black_box(&bytes),
                &mut positions,
                &mut normals,
            ));
            black_box((&positions, &normals));
        });
        println!("RESULT ours_parse_decode {name} {med:.3} {min:.3}");

        let (mut positions, mut normals) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
        let (med, min) = time_per_op(iterations, || {
            black_box(parse_and_decode(
                black_box(&bytes),
                &mut positions,
                &mut normals,
            ));
            black_box((&positions, &normals));
        });
        println!("RESULT ours_parse_decode_reuse {name} {med:.3} {min:.3}");
    }
    ExitCode::SUCCESS
}
