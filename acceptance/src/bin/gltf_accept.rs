//! Acceptance-test support for the glTF exporter (run by
//! `acceptance/accept.sh`): writes a `.glb` for every model found under the
//! corpus folders given (and a `KHR_mesh_quantization` one, `.q.glb`, for
//! each MD2), plus `expectations.json`, the positions that a glTF viewer
//! must show, computed by the library's **own** decoding and skinning, not
//! by the glTF writer:
//!
//! ```text
//! cargo run --release -p retromodel-acceptance --bin gltf_accept -- OUT_DIR CORPUS_DIR...
//! ```
//!
//! - MD2: [`Frame::decode_positions`] of a few frames (first, second,
//!   middle, last) and of the halfway blend of two neighbouring frames of
//!   an animation, mapped to glTF's axes by [`quake_to_gltf`] (written out
//!   here rather than taken from the scene module), each with the
//!   animation (from [`Md2::animations`]) and the time in it that shows it
//!   at [`DEFAULT_FPS`].
//! - MS3D with joints: [`Skeleton::pose_at_time`] →
//!   [`Skeleton::skinning_matrices`] → [`Influences::skin_positions`] at
//!   three times of the timeline: the viewer's positions, also for
//!   weights summing to less than 100 % (the exporter reproduces those
//!   with a zero-scale joint). Only where the stored weights sum to more
//!   than 100 %, which glTF cannot express, the position is divided by the
//!   sum (the exporter normalises those; the viewer's difference is
//!   recorded as `viewer_difference`). Without joints: the stored
//!   positions.
//! - For each glTF mesh (scene meshes with vertices and triangles, in
//!   order), the model vertex behind each of its vertices
//!   ([`RenderMesh::source_vertices`] / [`GroupMesh::source_vertices`]).
//! - The extent (largest edge of the bounding box over every position
//!   given), to scale tolerances.
//!
//! The Node scripts `validate.mjs` and `three.mjs` read this folder.

use std::path::{Path, PathBuf};

use glam::Mat4;
use retromodel::gltf::{to_glb_with, GltfOptions};
use retromodel::md2::Md2SceneOptions;
use retromodel::md2::{Frame, Md2, RenderMesh, DEFAULT_FPS};
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use retromodel::scene::Scene;
use serde_json::{json, Value};

/// Quake II's model axes (X forward, Y left, Z up) to glTF's (+Z forward,
/// +X left, +Y up): `(x, y, z) → (y, z, x)`.
fn quake_to_gltf(v: [f32; 3]) -> [f32; 3] {
    [v[1], v[2], v[0]]
}

/// Every `.md2` and `.ms3d` file under `dir`, sorted.
fn models_under(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            models_under(&path, out)?;
        } else if matches!(
            path.extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase)
                .as_deref(),
            Some("md2" | "ms3d")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

/// Flattens positions to `[x0, y0, z0, x1, ...]`.
fn flat(positions: &[[f32; 3]]) -> Vec<f32> {
    positions.iter().flatten().copied().collect()
}

/// Largest edge of the bounding box of all `sets` (0 when empty).
fn extent<'a>(sets: impl IntoIterator<Item = &'a [[f32; 3]]>) -> f32 {
    let mut extent = retromodel_acceptance::Extent::default();
    extent.add(sets.into_iter().flatten().copied());
    extent.largest_side()
}

/// Frame `k` decoded and mapped to glTF's axes.
fn decoded(frame: &Frame) -> Vec<[f32; 3]> {
    let mut out = vec![[0.0; 3]; frame.vertices.len()];
    frame.decode_positions(&mut out);
    out.into_iter().map(quake_to_gltf).collect()
}

/// The MD2 part of the expectations.
fn md2_expectations(model: &Md2) -> Value {
    let render = RenderMesh::new(model);
    let meshes = if render.source_vertices.is_empty() || render.indices.is_empty() {
        vec![]
    } else {
        vec![json!({ "source_vertices": render.source_vertices })]
    };
    // Nothing to draw, nothing to compare (the GLB has no mesh).
    let n = if meshes.is_empty() {
        0
    } else {
        model.frames.len()
    };
    let animations = model.animations();
    // (animation index, key index) of each frame, the first animation
    // that holds it.
    let place = |k: usize| {
        animations.iter().enumerate().find_map(|(a, anim)| {
            anim.frames()
                .position(|f| f == k)
                .map(|i| (a, i, anim.frames().len()))
        })
    };
    let mut wanted: Vec<usize> = vec![0, 1, n / 2, n.saturating_sub(1)];
    wanted.retain(|&k| k < n);
    wanted.dedup();
    let mut samples = Vec::new();
    let mut all = Vec::new();
    for &k in &wanted {
        let p = decoded(&model.frames[k]);
        let Some((a, i, len)) = place(k) else {
            samples.push(
                json!({ "label": format!("frame {k}"), "frame": k, "animation": null,
                "positions": flat(&p) }),
            );
            all.push(p);
            continue;
        };
        samples.push(json!({
            "label": format!("frame {k}"), "frame": k, "animation": a,
            "animation_name": animations[a].name, "time": i as f32 / DEFAULT_FPS,
            "positions": flat(&p),
        }));
        // Halfway to the animation's next frame: Quake's linear blend.
        if i + 1 < len && model.frames[k + 1].vertices.len() == p.len() {
            let q = decoded(&model.frames[k + 1]);
            let half: Vec<[f32; 3]> = p
                .iter()
                .zip(&q)
                .map(|(p, q)| {
                    [
                        0.5 * (p[0] + q[0]),
                        0.5 * (p[1] + q[1]),
                        0.5 * (p[2] + q[2]),
                    ]
                })
                .collect();
            samples.push(json!({
                "label": format!("frame {k}½"), "frame": k as f32 + 0.5, "animation": a,
                "animation_name": animations[a].name, "time": (i as f32 + 0.5) / DEFAULT_FPS,
                "positions": flat(&half),
            }));
            all.push(half);
        }
        all.push(p);
    }
    json!({
        "format": "md2",
        "frames": model.frames.len(),
        "extent": extent(all.iter().map(Vec::as_slice)),
        "meshes": meshes,
        "samples": samples,
    })
}

/// The MS3D part of the expectations.
fn ms3d_expectations(model: &Ms3d) -> Result<Value, retromodel::Error> {
    let meshes: Vec<Value> = GroupMesh::build_all(model)
        .iter()
        .filter(|g| !g.vertices.is_empty() && !g.indices.is_empty())
        .map(|g| json!({ "source_vertices": g.source_vertices }))
        .collect();
    let bind: Vec<[f32; 3]> = model.vertices.iter().map(|v| v.position).collect();
    let mut samples = Vec::new();
    let mut all = vec![bind.clone()];
    let mut unnormalised = 0;
    let mut short = 0;
    if model.joints.is_empty() {
        samples.push(json!({ "label": "static", "time": null, "positions": flat(&bind) }));
    } else {
        let skeleton = Skeleton::new(model)?;
        let influences = Influences::new(model);
        let sum =
            |i: &retromodel::ms3d::Influence| i.weights[..i.count as usize].iter().sum::<f32>();
        unnormalised = influences
            .vertices
            .iter()
            .filter(|i| i.count > 0 && sum(i) > 1.0)
            .count();
        short = influences
            .vertices
            .iter()
            .filter(|i| i.count > 0 && sum(i) < 1.0)
            .count();
        let duration = model
            .joints
            .iter()
            .flat_map(|j| j.rotation_keys.iter().chain(&j.position_keys))
            .map(|k| k.time)
            .filter(|t| t.is_finite())
            .fold(0.0f32, f32::max);
        for fraction in [0.3f32, 0.55, 0.85] {
            let t = fraction * duration;
            let mut pose = vec![Mat4::IDENTITY; skeleton.joint_count()];
            skeleton.pose_at_time(t, &mut pose);
            skeleton.skinning_matrices(&mut pose);
            let mut out = vec![[0.0; 3]; model.vertices.len()];
            influences.skin_positions(model, &pose, &mut out);
            // The viewer uses the stored percentages as they are; glTF
            // needs weights that sum to 1. Short sums are made up with a
            // zero-scale joint (exact); sums over 1 (e.g. 60 + 60 %) are
            // normalised by the scene (documented in `Scene::from_ms3d`):
            // there the viewer's position is the normalised one scaled by
            // the sum, so divide it back out.
            let mut viewer_difference = 0.0f32;
            for (p, inf) in out.iter_mut().zip(&influences.vertices) {
                let sum: f32 = inf.weights[..inf.count as usize].iter().sum();
                if inf.count > 0 && sum > 1.0 {
                    let q = p.map(|x| x / sum);
                    for a in 0..3 {
                        viewer_difference = viewer_difference.max((q[a] - p[a]).abs());
                    }
                    *p = q;
                }
            }
            samples.push(json!({
                "label": format!("t={t:.4}s"), "time": t, "positions": flat(&out),
                "viewer_difference": viewer_difference,
            }));
            all.push(out);
        }
    }
    Ok(json!({
        "format": "ms3d",
        "joints": model.joints.len(),
        "unnormalised_vertices": unnormalised,
        "short_weight_vertices": short,
        "extent": extent(all.iter().map(Vec::as_slice)),
        "meshes": meshes,
        "samples": samples,
    }))
}

/// Writes the GLB(s) of one model and returns its expectations entry.
fn one(out: &Path, path: &Path, name: &str) -> Result<Value, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let mut glbs = Vec::new();
    let mut write = |scene: &Scene, quantize: bool| -> Result<(), Box<dyn std::error::Error>> {
        let file = format!("{name}{}.glb", if quantize { ".q" } else { "" });
        std::fs::write(
            out.join(&file),
            to_glb_with(
                scene,
                &GltfOptions {
                    quantize,
                    ..GltfOptions::default()
                },
            )?,
        )?;
        glbs.push(json!({ "file": file, "quantized": quantize }));
        Ok(())
    };
    let mut entry = if bytes.starts_with(b"IDP2") {
        let model = Md2::from_bytes(&bytes)?;
        let options = Md2SceneOptions {
            name: name.to_string(),
            ..Md2SceneOptions::default()
        };
        let scene = Scene::from_md2(&model, &options);
        write(&scene, false)?;
        write(&scene, true)?;
        md2_expectations(&model)
    } else {
        let model = Ms3d::from_bytes(&bytes)?;
        let options = Ms3dSceneOptions {
            name: name.to_string(),
            ..Ms3dSceneOptions::default()
        };
        write(&Scene::from_ms3d(&model, &options)?, false)?;
        ms3d_expectations(&model)?
    };
    entry["name"] = json!(name);
    entry["glbs"] = json!(glbs);
    Ok(entry)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, dirs)) = args.split_first().filter(|(_, d)| !d.is_empty()) else {
        eprintln!("usage: gltf_accept OUT_DIR CORPUS_DIR...");
        std::process::exit(2);
    };
    let out = Path::new(out);
    std::fs::create_dir_all(out)?;
    let mut entries = Vec::new();
    for dir in dirs {
        let dir = Path::new(dir);
        let mut paths = Vec::new();
        models_under(dir, &mut paths)?;
        let base = dir.parent().unwrap_or(dir);
        for path in paths {
            let rel = path.strip_prefix(base).unwrap_or(&path);
            let name: String = rel
                .with_extension("")
                .to_string_lossy()
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let source = rel.to_string_lossy().into_owned();
            match one(out, &path, &name) {
                Ok(mut e) => {
                    e["source"] = json!(source);
                    println!("{source}: {} glb", e["glbs"].as_array().map_or(0, Vec::len));
                    entries.push(e);
                }
                Err(err) => {
                    // Models the library rejects are listed, not exported.
                    println!("{source}: not exported: {err}");
                    entries.push(json!({ "name": name, "source": source, "error": err.to_string(), "glbs": [] }));
                }
            }
        }
    }
    let text = serde_json::to_string(&json!({ "models": entries }))?;
    std::fs::write(out.join("expectations.json"), text)?;
    println!(
        "{} models, expectations in {}",
        entries.len(),
        out.join("expectations.json").display()
    );
    Ok(())
}
