//! `md2::compile` on real models: every corpus MD2 through
//! `Scene::from_md2` (and through a GLB) comes back with byte-identical
//! frames; every corpus MS3D with joints compiles to frames that match
//! MilkShape's own skinning (`ms3d::Skeleton` + `Influences`) within half
//! a grid step.

#![cfg(all(feature = "scene", feature = "gltf"))]

use std::collections::HashMap;

use glam::Mat4;
use retromodel::md2::compile::{compile, CompileOptions, Compiled, Engine};
use retromodel::md2::Md2;
use retromodel::md2::Md2SceneOptions;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use retromodel::scene::Scene;
use retromodel_testkit::corpus::{corpus_dir, md2_files, ms3d_files};

/// Compiles with the first engine that takes the model (the corpus has
/// models over id's limits: 1007 frames, 492-pixel skins).
fn compile_for_some_engine(scene: &Scene, base: &CompileOptions) -> (Engine, Compiled) {
    let mut errors = Vec::new();
    for engine in Engine::MD2 {
        let options = CompileOptions {
            engine,
            ..base.clone()
        };
        match compile(scene, &options) {
            Ok(c) => return (engine, c),
            Err(e) => errors.push(format!("{engine}: {e}")),
        }
    }
    panic!("no engine takes it: {errors:#?}");
}

/// What every compiled model must be: valid in its engine, strictly
/// valid in id's where it is compiled for id's, and unchanged by a write
/// and read.
fn check_model(name: &str, engine: Engine, c: &Compiled) {
    assert!(
        c.model.validate_for(engine).is_empty(),
        "{name}: {:?}",
        c.model.validate_for(engine)
    );
    if engine == Engine::Quake2 {
        assert!(
            c.model.validate().is_empty(),
            "{name}: {:?}",
            c.model.validate()
        );
    }
    let bytes = c.model.to_bytes().unwrap();
    let back = Md2::from_bytes(&bytes).unwrap();
    assert_eq!(back.frames, c.model.frames, "{name}");
    assert_eq!(back.triangles, c.model.triangles, "{name}");
    assert_eq!(back.to_bytes().unwrap(), bytes, "{name}");
}

/// [`check_model`] for a model compiled back onto the MD2 it was read
/// from: it may keep what the original had that the engine warns of
/// (fern's degenerate triangles, the valve's normal indices past the
/// table), nothing more.
fn check_model_like(name: &str, engine: Engine, c: &Compiled, original: &Md2) {
    // A message's characters as a multiset: EXT_meshopt_compression may
    // rotate a triangle's corners ("vertices 0, 1, 0" → "0, 0, 1").
    let key = |p: &retromodel::Problem| {
        let mut m: Vec<char> = p.message.chars().collect();
        m.sort_unstable();
        (p.severity, p.path.clone(), m)
    };
    let had: std::collections::HashSet<_> = original.validate_for(engine).iter().map(key).collect();
    for p in c.model.validate_for(engine) {
        assert!(
            p.severity == retromodel::Severity::Warning && had.contains(&key(&p)),
            "{name}: {p:?} is not the original's"
        );
    }
    let bytes = c.model.to_bytes().unwrap();
    let back = Md2::from_bytes(&bytes).unwrap();
    assert_eq!(back.frames, c.model.frames, "{name}");
    assert_eq!(back.triangles, c.model.triangles, "{name}");
    assert_eq!(back.to_bytes().unwrap(), bytes, "{name}");
}

/// The model's valid, non-degenerate triangles as (vertex, s, t)
/// corners, rotated to start at the smallest corner, counted.
fn triangle_set(m: &Md2) -> HashMap<[(u16, i16, i16); 3], usize> {
    let mut out = HashMap::new();
    for t in &m.triangles {
        let v = t.vertices;
        if v[0] == v[1] || v[1] == v[2] || v[0] == v[2] {
            continue;
        }
        let Some(c) = (0..3)
            .map(|k| {
                let st = m.texcoords.get(usize::from(t.texcoords[k]))?;
                (usize::from(v[k]) < m.num_vertices).then_some((v[k], st.s, st.t))
            })
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let start = (0..3).min_by_key(|&k| c[k]).unwrap();
        let key = [c[start], c[(start + 1) % 3], c[(start + 2) % 3]];
        *out.entry(key).or_default() += 1;
    }
    out
}

/// Why a corpus MD2 cannot come back byte for byte, if it cannot.
fn exclusion(m: &Md2) -> Option<&'static str> {
    // (Normal indices past the table, which the scene repairs, come back
    // from the record.)
    (m.vertex_count() == 0).then_some("no vertices: nothing to compile")
}

fn assert_same_frames(name: &str, original: &Md2, c: &Compiled) {
    assert_same_frames_except(name, original, c, &std::collections::HashSet::new());
}

/// As [`assert_same_frames`], except the normal indices of the (frame,
/// MD2 vertex) pairs in `clamped`.
fn assert_same_frames_except(
    name: &str,
    original: &Md2,
    c: &Compiled,
    clamped: &std::collections::HashSet<(usize, u32)>,
) {
    assert!(c.report.reused_md2_source, "{name}: {:?}", c.warnings);
    assert_eq!(c.model.frames.len(), original.frames.len(), "{name}");
    for (i, (a, b)) in c.model.frames.iter().zip(&original.frames).enumerate() {
        assert_eq!(
            a.scale.map(f32::to_bits),
            b.scale.map(f32::to_bits),
            "{name} frame {i}"
        );
        assert_eq!(
            a.translate.map(f32::to_bits),
            b.translate.map(f32::to_bits),
            "{name} frame {i}"
        );
        assert_eq!(a.name.0, b.name.0, "{name} frame {i} name");
        assert_eq!(a.vertices.len(), b.vertices.len(), "{name} frame {i}");
        for (k, (va, vb)) in a.vertices.iter().zip(&b.vertices).enumerate() {
            let normal_may_differ = clamped.contains(&(i, k as u32));
            assert!(
                va.position == vb.position
                    && (va.normal_index == vb.normal_index || normal_may_differ),
                "{name} frame {i} vertex {k}: {va:?} vs original {vb:?}"
            );
        }
    }
    assert_eq!(c.model.skins, original.skins, "{name}");
    assert_eq!(
        (c.model.skin_width, c.model.skin_height),
        (original.skin_width, original.skin_height),
        "{name}"
    );
    assert_eq!(triangle_set(&c.model), triangle_set(original), "{name}");
}

#[test]
fn every_corpus_md2_comes_back_with_byte_identical_frames() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    let mut excluded = Vec::new();
    for file in md2_files(&dir) {
        let original = Md2::from_bytes(&file.read()).unwrap();
        if let Some(why) = exclusion(&original) {
            excluded.push((file.name().to_string(), why));
            continue;
        }
        let scene = Scene::from_md2(&original, &Md2SceneOptions::default());
        let (engine, c) = compile_for_some_engine(&scene, &CompileOptions::default());
        check_model_like(file.name(), engine, &c, &original);
        assert_same_frames(file.name(), &original, &c);
        checked += 1;
    }
    // The zero-vertex file, nothing else.
    assert_eq!(excluded.len(), 1, "{excluded:?}");
    assert!(checked >= 30, "only {checked} checked");
}

#[test]
fn the_sample_comes_back_too() {
    let original = retromodel::md2::sample::sample_model();
    let scene = Scene::from_md2(&original, &Md2SceneOptions::default());
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    check_model("sample", Engine::Quake2, &c);
    assert_same_frames("sample", &original, &c);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

/// A scene as the glTF importer makes it from our GLB: the mesh's
/// `_MD2_VERTEX` vertex attribute in `extras["attributes"]`, the mesh's
/// extras (the MD2 record) as they are in the JSON. Read here with the
/// test kit's own GLB reader, not the library.
fn through_glb(scene: &Scene) -> Scene {
    use retromodel_testkit::glb::parse_glb;
    let glb = retromodel::gltf::to_glb(scene).unwrap();
    let doc = parse_glb(&glb);
    let attribute = doc.attribute(0, "_MD2_VERTEX");
    assert_eq!(doc.json["accessors"][attribute]["componentType"], 5123);
    assert_eq!(doc.json["accessors"][attribute]["type"], "SCALAR");
    let values: Vec<f32> = doc.read(attribute);
    let mut extras = doc.json["meshes"][0]["extras"].clone();
    assert!(
        extras.get("attributes").is_none(),
        "written as an attribute, not extras"
    );
    extras["attributes"] = serde_json::json!({ "_MD2_VERTEX": values });
    let mut out = scene.clone();
    out.meshes[0].extras = extras;
    out
}

#[test]
fn md2_frames_survive_a_trip_through_glb() {
    let Some(dir) = corpus_dir() else { return };
    for name in [
        "assimpdeb_faerie.md2",
        "ufoai_aliens_alientank_alientank.md2",
    ] {
        let original =
            Md2::from_bytes(&std::fs::read(dir.join("md2").join(name)).unwrap()).unwrap();
        let scene = Scene::from_md2(&original, &Md2SceneOptions::default());
        let imported = through_glb(&scene);
        let (a, b) = (&imported.meshes[0].extras, &scene.meshes[0].extras);
        assert_eq!(
            a["md2"], b["md2"],
            "{name}: the GLB carries the record unchanged"
        );
        let numbers = |v: &serde_json::Value| -> Vec<f64> {
            v["attributes"]["_MD2_VERTEX"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        assert_eq!(numbers(a), numbers(b), "{name}");
        let (engine, c) = compile_for_some_engine(&imported, &CompileOptions::default());
        check_model_like(name, engine, &c, &original);
        assert_same_frames(name, &original, &c);
    }
}

#[test]
fn an_md2_vertex_left_in_no_triangle_makes_the_compiler_ignore_the_record() {
    // Triangles deleted in an editor, their vertices kept: the record's
    // vertex has no triangle left, so the record cannot give its bytes.
    let original = retromodel::md2::sample::sample_model();
    let mut scene = Scene::from_md2(&original, &Md2SceneOptions::default());
    let md2_vertex: Vec<u64> = scene.meshes[0].extras["attributes"]["_MD2_VERTEX"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let gone = md2_vertex[scene.meshes[0].indices[0] as usize];
    let kept: Vec<u32> = scene.meshes[0]
        .indices
        .chunks_exact(3)
        .filter(|t| t.iter().all(|&i| md2_vertex[i as usize] != gone))
        .flatten()
        .copied()
        .collect();
    assert!(kept.len() < scene.meshes[0].indices.len() && !kept.is_empty());
    scene.meshes[0].indices = kept;
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    assert!(!c.report.reused_md2_source);
    assert!(c.warnings.iter().any(|w| matches!(
        w,
        retromodel::md2::compile::CompileWarning::Md2SourceIgnored { reason }
            if reason.contains("no triangle")
    )));
    check_model("sample without a vertex's triangles", Engine::Quake2, &c);
    assert_eq!(c.model.num_vertices, original.num_vertices - 1);
}

#[test]
fn a_moved_vertex_makes_the_compiler_ignore_the_record() {
    let original = retromodel::md2::sample::sample_model();
    let mut scene = Scene::from_md2(&original, &Md2SceneOptions::default());
    scene.meshes[0].positions[0][1] += 5.0;
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    assert!(!c.report.reused_md2_source);
    assert!(c.warnings.iter().any(|w| matches!(
        w,
        retromodel::md2::compile::CompileWarning::Md2SourceIgnored { .. }
    )));
    check_model("moved sample", Engine::Quake2, &c);
    // Names are the convention's, and group back as the source's.
    let anims: Vec<(String, usize)> = c
        .model
        .animations()
        .into_iter()
        .map(|a| (a.name, a.frame_count))
        .collect();
    let want: Vec<(String, usize)> = original
        .animations()
        .into_iter()
        .map(|a| (a.name, a.frame_count))
        .collect();
    assert_eq!(anims, want);
}

/// Every frame of the compiled model against MilkShape's skinning at the
/// frame's time: each MD2 triangle corner (the compiler keeps the
/// scene's triangle order, corners `[a, c, b]`) decodes within half a
/// step of the skinned MilkShape vertex, mapped to Quake's axes.
fn check_ms3d(name: &str, model: &Ms3d, options: &CompileOptions) -> usize {
    let scene = Scene::from_ms3d(model, &Ms3dSceneOptions::default()).unwrap();
    let c = compile(&scene, options).unwrap_or_else(|e| panic!("{name}: {e}"));
    check_model(name, options.engine, &c);
    let skeleton = Skeleton::new(model).unwrap();
    let influences = Influences::new(model);
    let groups = GroupMesh::build_all(model);
    // The scene triangles in order, as MilkShape vertex indices.
    let corners: Vec<[u32; 3]> = groups
        .iter()
        .flat_map(|g| {
            g.indices
                .chunks_exact(3)
                .filter(|t| t.iter().all(|&i| (i as usize) < g.vertices.len()))
                .map(|t| [0, 1, 2].map(|k| g.source_vertices[t[k] as usize]))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        !c.warnings.iter().any(|w| matches!(
            w,
            retromodel::md2::compile::CompileWarning::TrianglesDropped { .. }
        )),
        "{name}: {:?}",
        c.warnings
    );
    assert_eq!(corners.len(), c.model.triangles.len(), "{name}");
    let times: Vec<f32> = c
        .report
        .animations
        .iter()
        .flat_map(|a| a.times.iter().copied())
        .collect();
    assert_eq!(times.len(), c.model.frames.len());
    let mut joints = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let mut expected = vec![[0.0f32; 3]; model.vertices.len()];
    let mut worst = 0.0f32;
    for (f, (frame, &t)) in c.model.frames.iter().zip(&times).enumerate() {
        skeleton.pose_at_time(t, &mut joints);
        skeleton.skinning_matrices(&mut joints);
        influences.skin_positions(model, &joints, &mut expected);
        let mut decoded = vec![[0.0f32; 3]; c.model.vertex_count()];
        frame.decode_positions(&mut decoded);
        for (tri, ms) in c.model.triangles.iter().zip(&corners) {
            // MD2 corners [a, c, b] of scene corners [a, b, c].
            for (k, src) in [ms[0], ms[2], ms[1]].into_iter().enumerate() {
                // MilkShape's axes are the scene's; the scene's to Quake's.
                let p = expected[src as usize];
                let want = [p[2], p[0], p[1]];
                let got = decoded[usize::from(tri.vertices[k])];
                for a in 0..3 {
                    let err = (got[a] - want[a]).abs();
                    let bound = frame.scale[a] / 2.0 + 2e-5 * (1.0 + want[a].abs());
                    assert!(
                        err <= bound,
                        "{name} frame {f} (t = {t}) axis {a}: {err} > {bound}"
                    );
                    worst = worst.max(err / frame.scale[a].max(1e-12));
                }
            }
        }
    }
    assert!(worst <= 0.5 + 1e-3, "{name}: {worst} steps");
    c.model.frames.len()
}

#[test]
fn every_corpus_ms3d_with_joints_compiles_to_milkshapes_skinning() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    for (name, path) in ms3d_files(&dir) {
        let model = Ms3d::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        if model.joints.is_empty() {
            continue;
        }
        // Woman4's 142-second timeline at 10 fps is 1422 frames, more
        // than any engine loads: sample it at 5 fps for UFO:AI (1023).
        let long = model.total_frames as f32 / model.effective_fps() > 50.0;
        let options = CompileOptions {
            fps: if long { 5.0 } else { 10.0 },
            engine: if long { Engine::UfoAi } else { Engine::Quake2 },
            ..CompileOptions::default()
        };
        let frames = check_ms3d(&name, &model, &options);
        assert!(frames > 1, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 4, "Woman4 twice, nehe's Model twice");
}

/// The whole authoring round trip as users run it: every corpus MD2 →
/// glTF (plain, `--quantize`, `--quantize --compress`) → the library's own
/// glTF importer → the compiler gives back byte-identical frames (the
/// grids and vertex order carried in the glTF; through a quantized glTF
/// the normal indices too, except where the exporter clamped a normal
/// displacement to ±1, as `GltfOptions::quantize` documents), the same skin names and
/// skin size, the same triangles as (vertex, s, t) sets, and the same
/// animations. Models our validator rejects (see `exclusion`) excepted.
#[test]
fn every_corpus_md2_through_our_gltf_and_importer_comes_back_byte_identical() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    for file in md2_files(&dir) {
        let original = Md2::from_bytes(&file.read()).unwrap();
        if exclusion(&original).is_some() {
            continue;
        }
        let scene = Scene::from_md2(&original, &Md2SceneOptions::default());
        for (label, quantize, compress) in [
            ("plain", false, false),
            ("quantized", true, false),
            ("compressed", true, true),
        ] {
            // EXT_meshopt_compression needs the `meshopt` feature.
            if compress && !cfg!(feature = "meshopt") {
                continue;
            }
            let options = retromodel::gltf::GltfOptions { quantize, compress };
            let glb = retromodel::gltf::to_glb_with(&scene, &options).unwrap();
            let imported =
                retromodel::gltf::import(&glb, None, &retromodel::gltf::ImportOptions::default())
                    .unwrap_or_else(|e| panic!("{} {label}: {e}", file.name()));
            let name = format!("{} {label}", file.name());
            let (engine, c) = compile_for_some_engine(&imported.scene, &CompileOptions::default());
            assert!(
                c.report.reused_md2_source,
                "{name}: the record was not used: {:?}",
                c.warnings
            );
            check_model_like(&name, engine, &c, &original);
            // Where KHR_mesh_quantization's normalised bytes clamped a
            // normal displacement, the direction changed: those normals
            // may come back as other table normals.
            let mut clamped = std::collections::HashSet::new();
            if quantize {
                for (k, t) in scene.meshes[0].morph_targets.iter().enumerate() {
                    for (v, n) in t.normals.iter().enumerate() {
                        if n.iter().any(|x| x.abs() > 1.0) {
                            if let Some(Some(m)) = c.vertex_map[0].get(v) {
                                clamped.insert((k, *m));
                            }
                        }
                    }
                }
            }
            assert_same_frames_except(&name, &original, &c, &clamped);
            assert_eq!(c.model.animations(), original.animations(), "{name}");
        }
        checked += 1;
    }
    assert!(checked >= 25, "{checked}");
}
