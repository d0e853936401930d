//! Times MD2 and MS3D parsing for `bench/compare.sh`, measured the same way
//! as `bench/assimp_harness.cpp`.
//!
//! Usage: `cargo run --release -p retromodel-bench --bin bench_parse -- ITERATIONS FILE...`
//!
//! For each file, the bytes are read once. Each operation is warmed up,
//! then run ITERATIONS times in batches of [`retromodel_bench::BATCH`], each batch timed with
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
//!   would);
//! - `fill_all_frames`: no parsing or decoding, only constants written
//!   into the buffers that hold all frames: the cost of writing that much
//!   memory, a floor under `ours_parse_decode`.
//!
//! For an `.ms3d` file (by extension; anything else is read as MD2):
//!
//! - `memcpy` as above;
//! - `ours_parse`: [`Ms3d::from_bytes`];
//! - `ours_load`: parse, then [`Skeleton::new`] (keys converted for
//!   sampling) and [`GroupMesh::build_all`] (one indexed, skinnable vertex
//!   buffer per group): what an importer such as Assimp's delivers.
//!
//! For an `.mdl` file:
//!
//! - `memcpy` as above;
//! - `ours_parse`: [`Mdl::from_bytes`];
//! - `ours_parse_decode`: parse, then decode every simple frame's
//!   positions (`byte × scale + origin`) and normals (the 162-entry table)
//!   to `f32` into buffers that hold all frames, allocated once.
//!
//! For an `.md3` file:
//!
//! - `memcpy` as above;
//! - `ours_parse`: [`Md3::from_bytes`];
//! - `ours_parse_decode`: parse, then decode every surface's every frame:
//!   positions (`i16 × 1/64`) and normals (latitude/longitude, as
//!   ioquake3 decodes them) to `f32` into buffers that hold all frames,
//!   allocated once.
//!
//! For an `.iqm` file:
//!
//! - `memcpy` as above;
//! - `ours_parse`: [`Iqm::from_bytes`];
//! - `ours_parse_decode`: parse, then decode every frame's pose: each
//!   joint's translation, rotation and scale from the 16-bit frame values
//!   (`Iqm::frame_into`), into one buffer for all frames, allocated once
//!   (what an importer makes its animation keys of);
//! - `ours_parse_skin`: parse, then the skinning matrices of every frame
//!   (`Poser::skin_into`: `T·R·S` chained to the parents, times the
//!   inverse bind), what an engine uploads.
//!
//! For a `.glb` file:
//!
//! - `memcpy` as above;
//! - `ours_import`: [`retromodel::gltf::import`] into a `Scene` (meshes
//!   with every morph target, skins, animations, the images checked by a
//!   full decode): what Assimp's glTF importer delivers, and more (it keeps
//!   the morph targets as anim meshes too).
//!
//! Output lines: `RESULT <what> <file> <median µs per op> <fastest µs per op>`.

use retromodel::iqm::Iqm;
use retromodel::md2::{Md2, NORMALS, NORMAL_COUNT};
use retromodel::md3::Md3;
use retromodel::mdl::Mdl;
use retromodel::ms3d::{GroupMesh, Ms3d, Skeleton};
use retromodel_bench::time_per_op;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;

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

/// Parses an MDL and decodes every simple frame into the buffers.
fn mdl_parse_and_decode(bytes: &[u8], positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) -> Mdl {
    let model = Mdl::from_bytes(bytes).expect("the file parsed before");
    let (scale, origin) = (model.scale, model.origin);
    let mut at = 0;
    for frame in model.simple_frames() {
        for v in &frame.vertices {
            let p = v.position;
            positions[at] = [
                f32::from(p[0]) * scale[0] + origin[0],
                f32::from(p[1]) * scale[1] + origin[1],
                f32::from(p[2]) * scale[2] + origin[2],
            ];
            normals[at] = NORMALS[usize::from(v.normal_index) % NORMAL_COUNT];
            at += 1;
        }
    }
    model
}

/// Times the MDL operations on `bytes`.
fn time_mdl(iterations: u32, name: &str, path: &str, bytes: &[u8]) -> ExitCode {
    let model = match Mdl::from_bytes(bytes) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("cannot parse {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let total: usize = model.simple_frames().map(|f| f.vertices.len()).sum();
    let (mut positions, mut normals) = (vec![[0.0f32; 3]; total], vec![[0.0f32; 3]; total]);
    black_box(mdl_parse_and_decode(bytes, &mut positions, &mut normals));
    time_memcpy(iterations, name, bytes);
    let (med, min) = time_per_op(iterations, || {
        black_box(Mdl::from_bytes(black_box(bytes)).is_ok());
    });
    println!("RESULT ours_parse {name} {med:.3} {min:.3}");
    let (med, min) = time_per_op(iterations, || {
        black_box(mdl_parse_and_decode(
            black_box(bytes),
            &mut positions,
            &mut normals,
        ));
        black_box((&positions, &normals));
    });
    println!("RESULT ours_parse_decode {name} {med:.3} {min:.3}");
    ExitCode::SUCCESS
}

/// Parses an MD3 and decodes every surface's every frame into the
/// buffers.
fn md3_parse_and_decode(bytes: &[u8], positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) -> Md3 {
    let model = Md3::from_bytes(bytes).expect("the file parsed before");
    let mut at = 0;
    for surface in &model.surfaces {
        at += surface.decode_frames(&mut positions[at..], &mut normals[at..]);
    }
    model
}

/// Times the MD3 operations on `bytes`.
fn time_md3(iterations: u32, name: &str, path: &str, bytes: &[u8]) -> ExitCode {
    let model = match Md3::from_bytes(bytes) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("cannot parse {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let total: usize = model.surfaces.iter().map(|s| s.xyz_normals.len()).sum();
    let (mut positions, mut normals) = (vec![[0.0f32; 3]; total], vec![[0.0f32; 3]; total]);
    black_box(md3_parse_and_decode(bytes, &mut positions, &mut normals));
    time_memcpy(iterations, name, bytes);
    let (med, min) = time_per_op(iterations, || {
        black_box(Md3::from_bytes(black_box(bytes)).is_ok());
    });
    println!("RESULT ours_parse {name} {med:.3} {min:.3}");
    let (med, min) = time_per_op(iterations, || {
        black_box(md3_parse_and_decode(
            black_box(bytes),
            &mut positions,
            &mut normals,
        ));
        black_box((&positions, &normals));
    });
    println!("RESULT ours_parse_decode {name} {med:.3} {min:.3}");
    ExitCode::SUCCESS
}

/// Parses an IQM and decodes every frame's pose (each joint's
/// translation, rotation and scale) into `poses` (joints × frames).
fn iqm_parse_and_decode(bytes: &[u8], poses: &mut [retromodel::iqm::JointTransform]) -> Iqm {
    let model = Iqm::from_bytes(bytes).expect("the file parsed before");
    let joints = model.poses.len().max(1);
    for (f, out) in poses.chunks_exact_mut(joints).enumerate() {
        model.frame_into(f, out);
    }
    model
}

/// Parses an IQM and poses every frame into `matrices` (joints × frames):
/// skinning matrices, what an engine uploads.
fn iqm_parse_and_skin(bytes: &[u8], matrices: &mut [glam::Affine3A]) -> Iqm {
    let model = Iqm::from_bytes(bytes).expect("the file parsed before");
    let poser = retromodel::iqm::Poser::new(&model);
    let joints = poser.joint_count().max(1);
    for (f, out) in matrices.chunks_exact_mut(joints).enumerate() {
        poser.skin_into(&model, f, out);
    }
    model
}

/// Times the IQM operations on `bytes`.
fn time_iqm(iterations: u32, name: &str, path: &str, bytes: &[u8]) -> ExitCode {
    let model = match Iqm::from_bytes(bytes) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("cannot parse {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let frames = model.num_frames as usize;
    let still = retromodel::iqm::JointTransform::from(&retromodel::iqm::Joint::default());
    let mut poses = vec![still; model.poses.len().max(1) * frames];
    let joints = model.poses.len().max(model.joints.len()).max(1);
    let mut matrices = vec![glam::Affine3A::IDENTITY; joints * frames];
    black_box(iqm_parse_and_decode(bytes, &mut poses));
    black_box(iqm_parse_and_skin(bytes, &mut matrices));
    time_memcpy(iterations, name, bytes);
    let (med, min) = time_per_op(iterations, || {
        black_box(Iqm::from_bytes(black_box(bytes)).is_ok());
    });
    println!("RESULT ours_parse {name} {med:.3} {min:.3}");
    let (med, min) = time_per_op(iterations, || {
        black_box(iqm_parse_and_skin(black_box(bytes), &mut matrices));
        black_box(&matrices);
    });
    println!("RESULT ours_parse_skin {name} {med:.3} {min:.3}");
    let (med, min) = time_per_op(iterations, || {
        black_box(iqm_parse_and_decode(black_box(bytes), &mut poses));
        black_box(&poses);
    });
    println!("RESULT ours_parse_decode {name} {med:.3} {min:.3}");
    ExitCode::SUCCESS
}

/// Times the MD2 operations on `bytes`.
fn time_md2(iterations: u32, name: &str, path: &str, bytes: &[u8]) -> ExitCode {
    let model = match Md2::from_bytes(bytes) {
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
        black_box(parse_and_decode(bytes, &mut p, &mut q));
    }

    time_memcpy(iterations, name, bytes);

    let (med, min) = time_per_op(iterations, || {
        black_box(Md2::from_bytes(black_box(bytes)).is_ok());
    });
    println!("RESULT ours_parse {name} {med:.3} {min:.3}");

    let mut positions = vec![[0.0f32; 3]; total];
    let mut normals = vec![[0.0f32; 3]; total];
    let (med, min) = time_per_op(iterations, || {
        black_box(parse_and_decode(
            black_box(bytes),
            &mut positions,
            &mut normals,
        ));
        black_box((&positions, &normals));
    });
    println!("RESULT ours_parse_decode {name} {med:.3} {min:.3}");

    let (med, min) = time_per_op(iterations, || {
        positions.as_flattened_mut().fill(black_box(1.0));
        normals.as_flattened_mut().fill(black_box(0.5));
        black_box((&positions, &normals));
    });
    println!("RESULT fill_all_frames {name} {med:.3} {min:.3}");

    let (mut positions, mut normals) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
    let (med, min) = time_per_op(iterations, || {
        black_box(parse_and_decode(
            black_box(bytes),
            &mut positions,
            &mut normals,
        ));
        black_box((&positions, &normals));
    });
    println!("RESULT ours_parse_decode_reuse {name} {med:.3} {min:.3}");
    ExitCode::SUCCESS
}

/// Parses `bytes` as MS3D and prepares the skeleton and the group meshes.
fn load_ms3d(bytes: &[u8]) -> Option<(Ms3d, Skeleton, Vec<GroupMesh>)> {
    let model = Ms3d::from_bytes(bytes).ok()?;
    let skeleton = Skeleton::new(&model).ok()?;
    let meshes = GroupMesh::build_all(&model);
    Some((model, skeleton, meshes))
}

/// Times the MS3D operations on `bytes`.
fn time_ms3d(iterations: u32, name: &str, path: &str, bytes: &[u8]) -> ExitCode {
    if let Err(e) = Ms3d::from_bytes(bytes).and_then(|m| Skeleton::new(&m)) {
        eprintln!("cannot load {path}: {e}");
        return ExitCode::FAILURE;
    }
    // Settle the allocator (see `time_md2`).
    drop(black_box(vec![0u8; 8 << 20]));
    black_box(load_ms3d(bytes));

    time_memcpy(iterations, name, bytes);

    let (med, min) = time_per_op(iterations, || {
        black_box(Ms3d::from_bytes(black_box(bytes)).is_ok());
    });
    println!("RESULT ours_parse {name} {med:.3} {min:.3}");

    let (med, min) = time_per_op(iterations, || {
        black_box(load_ms3d(black_box(bytes)));
    });
    println!("RESULT ours_load {name} {med:.3} {min:.3}");
    ExitCode::SUCCESS
}

/// Times a copy of `bytes` into a buffer (a floor).
fn time_memcpy(iterations: u32, name: &str, bytes: &[u8]) {
    let mut copy = vec![0u8; bytes.len()];
    let (med, min) = time_per_op(iterations * 10, || {
        copy.copy_from_slice(black_box(bytes));
        black_box(&copy);
    });
    println!("RESULT memcpy {name} {med:.3} {min:.3}");
}

fn time_glb(iterations: u32, name: &str, path: &str, bytes: &[u8]) -> ExitCode {
    use retromodel::gltf::{import, ImportOptions};
    let options = ImportOptions::default();
    if let Err(e) = import(bytes, None, &options) {
        eprintln!("{path}: {e}");
        return ExitCode::FAILURE;
    }
    let mut copy = vec![0u8; bytes.len()];
    let (med, fast) = time_per_op(iterations * 10, || {
        copy.copy_from_slice(bytes);
        black_box(&copy);
    });
    println!("RESULT memcpy {name} {med:.3} {fast:.3}");
    let (med, fast) = time_per_op(iterations, || {
        black_box(import(black_box(bytes), None, &options).ok());
    });
    println!("RESULT ours_import {name} {med:.3} {fast:.3}");
    ExitCode::SUCCESS
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
        let file = Path::new(path);
        let name = file
            .file_stem()
            .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
        let ext = file
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let status = match ext.as_str() {
            "ms3d" => time_ms3d(iterations, &name, path, &bytes),
            "glb" => time_glb(iterations, &name, path, &bytes),
            "mdl" => time_mdl(iterations, &name, path, &bytes),
            "md3" => time_md3(iterations, &name, path, &bytes),
            "iqm" => time_iqm(iterations, &name, path, &bytes),
            _ => time_md2(iterations, &name, path, &bytes),
        };
        if status != ExitCode::SUCCESS {
            return status;
        }
    }
    ExitCode::SUCCESS
}
