//! Any model → IQM, checked against independent sources: the frames of
//! the compiled file decoded here from its bytes (by this test's own
//! reader of `iqm.txt`'s layout, not the library's) against the source
//! IQM's bytes decoded the same way (mrfixit and the guy, through a
//! scene and back), and against the walker glTF's animation channels
//! sampled by the test kit's glTF sampler.

#![cfg(feature = "gltf")]

use retromodel::iqm::compile::{compile, IqmCompileOptions};
use retromodel::iqm::Layout;
use retromodel::scene::Scene;
use retromodel::Model;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::glb::{parse_glb, sample};

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Header field `k` (after the magic).
fn field(b: &[u8], k: usize) -> usize {
    u32_at(b, 16 + 4 * k) as usize
}

/// Every frame's ten channels of every pose, decoded from the bytes.
fn decoded_frames(b: &[u8]) -> Vec<Vec<[f32; 10]>> {
    let (num_poses, ofs_poses) = (field(b, 15), field(b, 16));
    let (num_frames, channels, ofs_frames) = (field(b, 19), field(b, 20), field(b, 21));
    let mut out = Vec::new();
    for f in 0..num_frames {
        let mut at = ofs_frames + 2 * f * channels;
        let mut frame = Vec::new();
        for p in 0..num_poses {
            let base = ofs_poses + 88 * p;
            let mask = u32_at(b, base + 4);
            let mut c = [0f32; 10];
            for (k, slot) in c.iter_mut().enumerate() {
                *slot = f32_at(b, base + 8 + 4 * k);
                if mask & (1 << k) != 0 {
                    let v = u16::from_le_bytes([b[at], b[at + 1]]);
                    at += 2;
                    *slot += f32::from(v) * f32_at(b, base + 48 + 4 * k);
                }
            }
            frame.push(c);
        }
        out.push(frame);
    }
    out
}

/// Both channel sets with their quaternions normalised, the second's
/// sign turned to the first's (q and −q are one rotation).
fn aligned(a: [f32; 10], b: [f32; 10]) -> ([f32; 10], [f32; 10]) {
    let unit = |mut c: [f32; 10]| {
        let l = (3..7).map(|k| c[k] * c[k]).sum::<f32>().sqrt();
        for x in &mut c[3..7] {
            *x /= l;
        }
        c
    };
    let (a, mut b) = (unit(a), unit(b));
    if (3..7).map(|k| a[k] * b[k]).sum::<f32>() < 0.0 {
        for x in &mut b[3..7] {
            *x = -*x;
        }
    }
    (a, b)
}

#[test]
fn a_corpus_iqm_through_a_scene_gives_its_frames_back() {
    let Some(dir) = corpus_dir() else { return };
    for name in ["lsalzman_mrfixit.iqm", "raylib_guy.iqm"] {
        let bytes = std::fs::read(dir.join("iqm").join(name)).unwrap();
        let scene = Model::from_bytes(&bytes)
            .unwrap()
            .to_scene(&Default::default())
            .unwrap();
        let out = compile(&scene, &IqmCompileOptions::default()).unwrap();
        let written = out.model.to_bytes_with(Layout::Standard).unwrap();
        // Counts and names.
        for k in [5, 8, 10, 13, 15, 17, 19] {
            assert_eq!(
                field(&written, k),
                field(&bytes, k),
                "{name}: header field {k}"
            );
        }
        let (a, b) = (decoded_frames(&bytes), decoded_frames(&written));
        let extent = out.report.extent.max(1.0);
        let mut worst = 0.0f32;
        for (f, (fa, fb)) in a.iter().zip(&b).enumerate() {
            for (p, (ca, cb)) in fa.iter().zip(fb).enumerate() {
                let (ca, cb) = aligned(*ca, *cb);
                for k in 0..10 {
                    let tol = if (3..7).contains(&k) {
                        2e-4
                    } else {
                        2e-4 * extent
                    };
                    let d = (ca[k] - cb[k]).abs();
                    worst = worst.max(d);
                    assert!(
                        d <= tol,
                        "{name} frame {f} pose {p} channel {k}: {} vs {}",
                        ca[k],
                        cb[k]
                    );
                }
            }
        }
        eprintln!(
            "{name}: {} frames, channels within {worst}; compile's own measure {} of extent {}",
            a.len(),
            out.report.largest_error,
            out.report.extent
        );
        assert!(
            out.report.largest_error <= 1e-3 * extent,
            "{name}: {}",
            out.report.largest_error
        );
        // The loop flags and rates come back.
        let anims: Vec<(u32, u32)> = (0..field(&bytes, 17))
            .map(|i| {
                (
                    u32_at(&bytes, field(&bytes, 18) + 20 * i + 12),
                    u32_at(&bytes, field(&bytes, 18) + 20 * i + 16),
                )
            })
            .collect();
        let again: Vec<(u32, u32)> = (0..field(&written, 17))
            .map(|i| {
                (
                    u32_at(&written, field(&written, 18) + 20 * i + 12),
                    u32_at(&written, field(&written, 18) + 20 * i + 16),
                )
            })
            .collect();
        assert_eq!(anims, again, "{name}: frame rates and flags");
    }
}

#[test]
fn the_walker_gltf_compiles_to_joints_that_follow_its_channels() {
    let Some(dir) = corpus_dir() else { return };
    let glb = std::fs::read(dir.join("gltf/blender_walker.glb")).unwrap();
    let scene = Model::from_bytes(&glb)
        .unwrap()
        .to_scene(&Default::default())
        .unwrap();
    let out = compile(&scene, &IqmCompileOptions::default()).unwrap();
    let bytes = out.model.to_bytes_with(Layout::Standard).unwrap();
    let frames = decoded_frames(&bytes);
    let doc = parse_glb(&glb);
    let json = &doc.json;
    let nodes = json["nodes"].as_array().unwrap();
    let mut checked = 0;
    for (a, anim) in json["animations"].as_array().unwrap().iter().enumerate() {
        let (fps, count) = (
            &out.report.animations[a].fps,
            &out.report.animations[a].frames,
        );
        let first: usize = out.report.animations[..a].iter().map(|x| x.frames).sum();
        for ch in anim["channels"].as_array().unwrap() {
            let node = ch["target"]["node"].as_u64().unwrap() as usize;
            let path = ch["target"]["path"].as_str().unwrap();
            let s = &anim["samplers"].as_array().unwrap()[ch["sampler"].as_u64().unwrap() as usize];
            let times = doc.read(s["input"].as_u64().unwrap() as usize);
            let values = doc.read(s["output"].as_u64().unwrap() as usize);
            let interpolation = s["interpolation"].as_str().unwrap_or("LINEAR");
            // The IQM joint of this node: by name, in the written text.
            let name = nodes[node]["name"].as_str().unwrap();
            let joint = out
                .model
                .joints
                .iter()
                .position(|j| out.model.name(j.name) == name)
                .unwrap();
            for k in 0..*count {
                let t = k as f64 / f64::from(*fps);
                let c = frames[first + k][joint];
                // glTF → Quake axes: (x, y, z) → (z, x, y).
                match path {
                    "translation" => {
                        let v = sample(&times, &values, 3, interpolation, t);
                        let q = [v[2], v[0], v[1]];
                        for i in 0..3 {
                            assert!(
                                (f64::from(c[i]) - q[i]).abs() < 1e-3,
                                "{name} t{k}: {c:?} vs {q:?}"
                            );
                        }
                    }
                    "rotation" => {
                        let v = sample(&times, &values, 4, interpolation, t);
                        let q = [v[2], v[0], v[1], v[3]];
                        let dot: f64 = (0..4)
                            .map(|i| f64::from(c[3 + i]) * q[i])
                            .sum::<f64>()
                            .abs();
                        let len: f64 = (0..4)
                            .map(|i| f64::from(c[3 + i]).powi(2))
                            .sum::<f64>()
                            .sqrt();
                        assert!(dot / len > 1.0 - 1e-5, "{name} t{k}: rotation {dot}");
                    }
                    _ => continue,
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
    assert!(
        out.report.largest_error <= 1e-3 * out.report.extent.max(1.0),
        "{} of {}",
        out.report.largest_error,
        out.report.extent
    );
    eprintln!(
        "walker: {checked} keys checked; largest error {} (extent {})",
        out.report.largest_error, out.report.extent
    );
}

#[test]
fn vertex_animation_is_refused_naming_what_iqm_cannot_hold() {
    let md2 = retromodel::md2::sample::sample_model();
    let scene = Scene::from_md2(&md2, &Default::default());
    let err = compile(&scene, &IqmCompileOptions::default()).unwrap_err();
    assert!(err.to_string().contains("morph targets"), "{err}");
}

#[test]
fn meshes_split_to_ioquake3s_limits_when_compiled_for_it() {
    let Some(dir) = corpus_dir() else { return };
    let bytes = std::fs::read(dir.join("iqm/lsalzman_mrfixit.iqm")).unwrap();
    let model = Model::from_bytes(&bytes).unwrap();
    // As read, ioquake3 refuses it (its body mesh is 1,476 vertices).
    let refused = model.validate_for(retromodel::Engine::Ioquake3);
    assert!(refused
        .iter()
        .any(|p| p.severity == retromodel::Severity::Error));
    let scene = model.to_scene(&Default::default()).unwrap();
    let options = IqmCompileOptions {
        engine: Some(retromodel::Engine::Ioquake3),
        ..Default::default()
    };
    let out = compile(&scene, &options).unwrap();
    let written = out.model.to_bytes_with(Layout::Standard).unwrap();
    let (n, ofs) = (field(&written, 5), field(&written, 6));
    let mut triangles = 0;
    for m in 0..n {
        // Fewer than SHADER_MAX_VERTEXES (1000) vertices and
        // SHADER_MAX_INDEXES (6000) indices a mesh (R_LoadIQM).
        assert!(u32_at(&written, ofs + 24 * m + 12) < 1000);
        assert!(3 * u32_at(&written, ofs + 24 * m + 20) < 6000);
        triangles += u32_at(&written, ofs + 24 * m + 20);
    }
    assert_eq!(triangles as usize, field(&bytes, 10), "every triangle kept");
    let again = Model::from_bytes(&written).unwrap();
    let errors: Vec<_> = again
        .validate_for(retromodel::Engine::Ioquake3)
        .into_iter()
        .filter(|p| p.severity == retromodel::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // More joints than ioquake3's 128 are refused, naming who loads them.
    let mut many = scene.clone();
    for k in 0..60 {
        let mut node = many.nodes[0].clone();
        node.name = format!("extra{k}");
        node.parent = None;
        many.nodes.push(node);
        many.skins[0].joints.push(many.nodes.len() - 1);
        let ibm = many.skins[0].inverse_bind_matrices[0];
        many.skins[0].inverse_bind_matrices.push(ibm);
    }
    let err = compile(&many, &options).unwrap_err().to_string();
    assert!(
        err.contains("ioquake3") && err.contains("these load it") && err.contains("fte"),
        "{err}"
    );
}

#[test]
fn meshes_split_to_the_vertex_limit_asked() {
    let Some(dir) = corpus_dir() else { return };
    let bytes = std::fs::read(dir.join("iqm/lsalzman_mrfixit.iqm")).unwrap();
    let scene = Model::from_bytes(&bytes)
        .unwrap()
        .to_scene(&Default::default())
        .unwrap();
    let out = compile(
        &scene,
        &IqmCompileOptions {
            max_mesh_vertices: Some(999),
            ..Default::default()
        },
    )
    .unwrap();
    let written = out.model.to_bytes_with(Layout::Standard).unwrap();
    let (n, ofs) = (field(&written, 5), field(&written, 6));
    assert!(n > 2, "{n} meshes");
    for m in 0..n {
        assert!(u32_at(&written, ofs + 24 * m + 12) <= 999);
    }
    assert!(out.report.largest_error <= 1e-3 * out.report.extent);
}

/// Joints (name, parent) and meshes (name, material), read from the
/// bytes.
type Names = (Vec<(String, i32)>, Vec<(String, String)>);

/// Joint names, parents and the materials, read from the bytes.
fn names(b: &[u8]) -> Names {
    let text_at = field(b, 4);
    let text = |o: u32| -> String {
        let s = &b[text_at + o as usize..];
        String::from_utf8_lossy(&s[..s.iter().position(|&c| c == 0).unwrap()]).into_owned()
    };
    let joints = (0..field(b, 13))
        .map(|j| {
            let at = field(b, 14) + 48 * j;
            (text(u32_at(b, at)), u32_at(b, at + 4) as i32)
        })
        .collect();
    let meshes = (0..field(b, 5))
        .map(|m| {
            let at = field(b, 6) + 24 * m;
            (text(u32_at(b, at)), text(u32_at(b, at + 4)))
        })
        .collect();
    (joints, meshes)
}

/// Every vertex's position, texcoord and normal (floats, to 1e-5) and its
/// influences (joint and weight byte, in joint order), as sorted records
/// (the order of vertices, and of a vertex's influences, may differ).
fn vertex_records(b: &[u8]) -> Vec<Vec<u32>> {
    let nv = field(b, 8);
    let mut records = vec![Vec::new(); nv];
    let mut blend = vec![(Vec::new(), Vec::new()); nv];
    for a in 0..field(b, 7) {
        let at = field(b, 9) + 20 * a;
        let (kind, format, size, offset) = (
            u32_at(b, at),
            u32_at(b, at + 8),
            u32_at(b, at + 12) as usize,
            u32_at(b, at + 16) as usize,
        );
        for (v, r) in records.iter_mut().enumerate() {
            for k in 0..size {
                match (kind, format) {
                    (0..=2, 7) => {
                        let x = f32_at(b, offset + 4 * (v * size + k));
                        r.push(((x * 1e5).round() as i32) as u32);
                    }
                    (4, 1) => blend[v].0.push(u32::from(b[offset + v * size + k])),
                    (5, 1) => blend[v].1.push(u32::from(b[offset + v * size + k])),
                    _ => {} // tangents: recomputed
                }
            }
        }
    }
    for (r, (joints, weights)) in records.iter_mut().zip(blend) {
        let mut pairs: Vec<(u32, u32)> = joints
            .into_iter()
            .zip(weights)
            .filter(|p| p.1 > 0)
            .collect();
        pairs.sort();
        r.extend(pairs.into_iter().flat_map(|(j, w)| [j, w]));
    }
    records.sort();
    records
}

#[test]
fn iqm_to_gltf_to_iqm_gives_the_file_back() {
    use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    let Some(dir) = corpus_dir() else { return };
    for name in ["lsalzman_mrfixit.iqm", "raylib_guy.iqm"] {
        let bytes = std::fs::read(dir.join("iqm").join(name)).unwrap();
        let options = ConvertOptions::default();
        let glb = Converter::new(&options)
            .convert(&bytes, name, OutputFormat::Glb, "model.glb")
            .unwrap()
            .files()
            .unwrap()
            .pop()
            .unwrap()
            .to_vec();
        let back = Converter::new(&options)
            .convert(&glb, "model.glb", OutputFormat::Iqm, "model.iqm")
            .unwrap()
            .files()
            .unwrap()
            .pop()
            .unwrap()
            .to_vec();
        assert_eq!(names(&back), names(&bytes), "{name}: joints and meshes");
        for k in [5, 8, 10, 13, 15, 17, 19] {
            assert_eq!(
                field(&back, k),
                field(&bytes, k),
                "{name}: header field {k}"
            );
        }
        assert_eq!(
            vertex_records(&back),
            vertex_records(&bytes),
            "{name}: vertices"
        );
        let (a, b) = (decoded_frames(&bytes), decoded_frames(&back));
        for (f, (fa, fb)) in a.iter().zip(&b).enumerate() {
            for (p, (ca, cb)) in fa.iter().zip(fb).enumerate() {
                let (ca, cb) = aligned(*ca, *cb);
                for k in 0..10 {
                    assert!(
                        (ca[k] - cb[k]).abs() <= 1e-3,
                        "{name} frame {f} pose {p} channel {k}: {} vs {}",
                        ca[k],
                        cb[k]
                    );
                }
            }
        }
        // Names, rates and loop flags of the animations.
        let anims = |b: &[u8]| -> Vec<(u32, u32, u32, u32)> {
            (0..field(b, 17))
                .map(|i| {
                    let at = field(b, 18) + 20 * i;
                    (
                        u32_at(b, at + 4),
                        u32_at(b, at + 8),
                        u32_at(b, at + 12),
                        u32_at(b, at + 16),
                    )
                })
                .collect()
        };
        assert_eq!(anims(&back), anims(&bytes), "{name}: animations");
    }
}

/// Each vertex's bytes in every array, sorted; each array's type,
/// format and size.
type Arrays = (Vec<Vec<u8>>, Vec<(String, u32, u32)>);

/// Every vertex's arrays (type, format and the bytes of each), as sorted
/// records; and the arrays' (type, format, size) in file order. Custom
/// arrays are named by their text.
fn all_arrays(b: &[u8]) -> Arrays {
    let nv = field(b, 8);
    let text_at = field(b, 4);
    let mut records = vec![Vec::new(); nv];
    let mut kinds = Vec::new();
    for a in 0..field(b, 7) {
        let at = field(b, 9) + 20 * a;
        let (kind, format, size, offset) = (
            u32_at(b, at),
            u32_at(b, at + 8),
            u32_at(b, at + 12),
            u32_at(b, at + 16) as usize,
        );
        let name = if kind >= 0x10 {
            let s = &b[text_at + (kind - 0x10) as usize..];
            String::from_utf8_lossy(&s[..s.iter().position(|&c| c == 0).unwrap()]).into_owned()
        } else {
            kind.to_string()
        };
        kinds.push((name, format, size));
        if kind == 3 {
            continue; // tangents: recomputed
        }
        let bytes = [1usize, 1, 2, 2, 4, 4, 2, 4, 8][format as usize] * size as usize;
        for (v, r) in records.iter_mut().enumerate() {
            r.extend_from_slice(&b[offset + v * bytes..offset + (v + 1) * bytes]);
        }
    }
    records.sort();
    (records, kinds)
}

#[test]
fn colours_custom_arrays_and_stored_formats_survive_gltf_and_back() {
    use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    // Our CC0 source with a half-float texcoord, a short normal, a custom
    // float array `wind` and ubyte colours, compiled as the reference does.
    let iqe = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/iqm_reference/extras.iqe"
    ))
    .unwrap();
    let options = ConvertOptions::default();
    let convert = |bytes: &[u8], from: &str, to: OutputFormat, name: &str| {
        Converter::new(&options)
            .convert(bytes, from, to, name)
            .unwrap()
            .files()
            .unwrap()
            .pop()
            .unwrap()
            .to_vec()
    };
    let iqm = convert(&iqe, "extras.iqe", OutputFormat::Iqm, "extras.iqm");
    let glb = convert(&iqm, "extras.iqm", OutputFormat::Glb, "extras.glb");
    let back = convert(&glb, "extras.glb", OutputFormat::Iqm, "back.iqm");
    let (a, kinds_a) = all_arrays(&iqm);
    let (b, kinds_b) = all_arrays(&back);
    assert!(
        kinds_a.iter().any(|k| k.0 == "wind") && kinds_a.iter().any(|k| k.0 == "6"),
        "{kinds_a:?}"
    );
    assert_eq!(kinds_b, kinds_a, "array types, formats and sizes");
    assert_eq!(b, a, "every vertex's values, byte for byte");
}
