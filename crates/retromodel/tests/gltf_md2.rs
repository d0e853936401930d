//! MD2 → glTF: the GLB read back by hand (`retromodel_testkit::glb`) against the
//! model decoded by the library's frame decoder and mapped to glTF's axes
//! here, by hand: Quake (x forward, y left, z up) → glTF (y, z, x).

#![cfg(feature = "gltf")]

use retromodel::gltf::{to_glb, to_glb_with, to_gltf, GltfOptions};
use retromodel::md2::{md2_axes, Md2SceneOptions};
use retromodel::md2::{Md2, RenderMesh, DEFAULT_FPS};
use retromodel::scene::Scene;
use retromodel_testkit::corpus::{corpus_dir, md2_files};
use retromodel_testkit::glb::{parse_glb, sample, Doc};

/// The test's own axis map (not the library's).
fn to_gltf_axes(p: [f32; 3]) -> [f32; 3] {
    [p[1], p[2], p[0]]
}

fn load(name: &str) -> Option<Md2> {
    let dir = corpus_dir()?;
    let bytes = std::fs::read(dir.join("md2").join(name)).unwrap();
    Some(Md2::from_bytes(&bytes).unwrap())
}

fn glb_of(model: &Md2) -> Doc {
    let scene = Scene::from_md2(model, &Md2SceneOptions::default());
    let doc = parse_glb(&to_glb(&scene).unwrap());
    doc.check_layout();
    doc
}

/// Decoded positions of frame `k`, in the file's vertex order, glTF axes.
fn frame_positions(model: &Md2, k: usize) -> Vec<[f32; 3]> {
    let mut p = vec![[0.0; 3]; model.frames[k].vertices.len()];
    model.frames[k].decode_positions(&mut p);
    p.into_iter().map(to_gltf_axes).collect()
}

/// For each glTF vertex, the MD2 vertex and texture coordinate it comes
/// from, found from the triangles: glTF triangle `i` is MD2 triangle `i`
/// with its corners in the order 0, 2, 1 (reversed winding).
fn vertex_sources(model: &Md2, indices: &[u32], count: usize) -> Vec<(usize, usize)> {
    assert_eq!(
        indices.len(),
        3 * model.triangles.len(),
        "every triangle is valid in these models"
    );
    let mut src = vec![None; count];
    for (i, tri) in model.triangles.iter().enumerate() {
        for (corner, from) in [0usize, 2, 1].into_iter().enumerate() {
            let v = indices[3 * i + corner] as usize;
            let s = (tri.vertices[from] as usize, tri.texcoords[from] as usize);
            assert!(
                src[v].is_none() || src[v] == Some(s),
                "glTF vertex {v} has two sources"
            );
            src[v] = Some(s);
        }
    }
    src.into_iter()
        .map(|s| s.expect("every vertex is used"))
        .collect()
}

#[test]
fn the_axis_map_is_a_proper_rotation() {
    let m: Vec<[f32; 3]> = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        .into_iter()
        .map(md2_axes)
        .collect();
    let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    assert_eq!(det, 1.0);
    // Quake's forward (x), left (y) and up (z) become glTF's +Z, +X, +Y.
    assert_eq!(m, vec![[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
}

#[test]
fn faerie_structure_and_every_frame_as_a_morph_target() {
    let Some(model) = load("assimpdeb_faerie.md2") else {
        return;
    };
    assert_eq!(model.frames.len(), 198);
    let doc = glb_of(&model);
    let targets = doc.json["meshes"][0]["primitives"][0]["targets"]
        .as_array()
        .unwrap();
    assert_eq!(targets.len(), 198, "a morph target per frame");
    let names = doc.json["meshes"][0]["extras"]["targetNames"]
        .as_array()
        .unwrap();
    assert_eq!(
        names[1].as_str(),
        Some(model.frames[1].name.to_string_lossy().as_str())
    );

    let pos = doc.attribute(0, "POSITION");
    doc.check_min_max(pos);
    let base = doc.read3(pos);
    let indices = doc.indices(0);
    let src = vertex_sources(&model, &indices, base.len());
    for (name, a) in doc.json["meshes"][0]["primitives"][0]["attributes"]
        .as_object()
        .unwrap()
    {
        let count = doc.root.accessors[a.as_u64().unwrap() as usize].count.0 as usize;
        assert_eq!(count, base.len(), "{name} count");
    }

    // Texture coordinates: u = s / width, v = t / height, no flip.
    let uv = doc.read(doc.attribute(0, "TEXCOORD_0"));
    for (v, &(_, st)) in src.iter().enumerate() {
        let tc = model.texcoords[st];
        assert_eq!(uv[2 * v], tc.s as f32 / model.skin_width as f32);
        assert_eq!(uv[2 * v + 1], tc.t as f32 / model.skin_height as f32);
    }

    // base + target k = frame k, for several frames.
    for k in [0usize, 1, 39, 40, 100, 177, 197] {
        let expected = frame_positions(&model, k);
        let t = targets[k]["POSITION"].as_u64().unwrap() as usize;
        doc.check_min_max(t);
        let d = doc.read3(t);
        for (v, &(mv, _)) in src.iter().enumerate() {
            for c in 0..3 {
                let got = base[v][c] + d[v][c];
                let want = expected[mv][c];
                assert!(
                    (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                    "frame {k} vertex {v}[{c}]: {got} vs {want}"
                );
            }
        }
    }
    // Target 0 is all zeros (frame 0 is the base).
    let t0 = targets[0]["POSITION"].as_u64().unwrap() as usize;
    assert!(doc.read(t0).iter().all(|&x| x == 0.0));
}

#[test]
fn faerie_animations_step_through_their_frames_at_10_fps() {
    let Some(model) = load("assimpdeb_faerie.md2") else {
        return;
    };
    let doc = glb_of(&model);
    let anims = model.animations();
    let json = doc.json["animations"].as_array().unwrap();
    assert_eq!(json.len(), anims.len());
    assert_eq!(json.len(), 20, "the standard player table");
    for (a, j) in anims.iter().zip(json) {
        assert_eq!(j["name"].as_str(), Some(a.name.as_str()));
        let s = &j["samplers"][0];
        assert_eq!(j["channels"][0]["target"]["path"], "weights");
        assert_eq!(s["interpolation"], "LINEAR");
        let input = s["input"].as_u64().unwrap() as usize;
        let times = doc.read(input);
        doc.check_min_max(input);
        let duration = (a.frame_count - 1) as f32 / DEFAULT_FPS;
        assert!(
            (times.last().unwrap() - duration).abs() < 1e-6,
            "{} lasts {duration}",
            a.name
        );
        let values = doc.read(s["output"].as_u64().unwrap() as usize);
        assert_eq!(values.len(), a.frame_count * 198);
        // At k / fps the weight of frame first + k is 1, all others 0;
        // halfway, two frames blend half and half.
        for k in 0..a.frame_count {
            let w = sample(&times, &values, 198, "LINEAR", k as f64 / 10.0);
            for (f, &x) in w.iter().enumerate() {
                let want = if f == a.first_frame + k { 1.0 } else { 0.0 };
                assert!(
                    (x - want).abs() < 1e-6,
                    "{} key {k} weight {f} = {x}",
                    a.name
                );
            }
            if k + 1 < a.frame_count {
                let w = sample(&times, &values, 198, "LINEAR", (k as f64 + 0.5) / 10.0);
                assert!((w[a.first_frame + k] - 0.5).abs() < 1e-5);
                assert!((w[a.first_frame + k + 1] - 0.5).abs() < 1e-5);
            }
        }
    }
}

/// Face normal of a triangle from its corner order (right-handed cross
/// product: counter-clockwise corners give the normal facing the viewer).
fn face_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> [f32; 3] {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Evidence for the winding: with the file's corner order Quake's stored
/// normals point against the right-handed face normal (clockwise front
/// faces); with the glTF order they agree (counter-clockwise).
#[test]
fn faerie_front_faces_are_counter_clockwise_in_gltf() {
    let Some(model) = load("assimpdeb_faerie.md2") else {
        return;
    };
    let positions = frame_positions(&model, 0);
    let mut normals = vec![[0.0; 3]; positions.len()];
    model.frames[0].decode_normals(&mut normals);
    let normals: Vec<[f32; 3]> = normals.into_iter().map(to_gltf_axes).collect();
    let (mut file_agrees, mut total) = (0, 0);
    for t in &model.triangles {
        let [a, b, c] = t.vertices.map(|v| v as usize);
        let n = [0, 1, 2].map(|i| normals[a][i] + normals[b][i] + normals[c][i]);
        file_agrees +=
            (dot(face_normal(positions[a], positions[b], positions[c]), n) > 0.0) as usize;
        total += 1;
    }
    assert!(
        file_agrees * 10 < total,
        "file order: {file_agrees} of {total} agree (expected few: clockwise)"
    );

    let doc = glb_of(&model);
    let base = doc.read3(doc.attribute(0, "POSITION"));
    let indices = doc.indices(0);
    let src = vertex_sources(&model, &indices, base.len());
    let mut agrees = 0;
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|v| v as usize);
        let n =
            [0, 1, 2].map(|i| normals[src[a].0][i] + normals[src[b].0][i] + normals[src[c].0][i]);
        agrees += (dot(face_normal(base[a], base[b], base[c]), n) > 0.0) as usize;
    }
    assert!(
        agrees * 10 > 9 * total,
        "glTF order: {agrees} of {total} agree"
    );
}

#[test]
fn every_corpus_md2_exports_a_well_formed_glb() {
    let Some(dir) = corpus_dir() else { return };
    for file in md2_files(&dir) {
        let Ok(model) = Md2::from_bytes(&file.read()) else {
            continue;
        };
        let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        let glb = to_glb(&scene).unwrap_or_else(|e| panic!("{}: {e}", file.key));
        gltf::Gltf::from_slice(&glb).unwrap_or_else(|e| panic!("{}: gltf crate: {e}", file.key));
        let doc = parse_glb(&glb);
        doc.check_layout();
        if doc.json.get("meshes").is_none() {
            // Nothing drawable (no valid triangle): only a malformed file.
            assert!(RenderMesh::new(&model).indices.is_empty(), "{}", file.key);
            continue;
        }
        let targets = doc.json["meshes"][0]["primitives"][0]["targets"]
            .as_array()
            .unwrap();
        assert_eq!(targets.len(), model.frames.len(), "{}", file.key);
        doc.check_min_max(doc.attribute(0, "POSITION"));
        assert_eq!(
            doc.json["animations"].as_array().map_or(0, Vec::len),
            model.animations().len(),
            "{}",
            file.key
        );
    }
}

#[test]
fn quantized_faerie_keeps_every_frame_to_the_grid() {
    let Some(model) = load("assimpdeb_faerie.md2") else {
        return;
    };
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let glb = to_glb_with(
        &scene,
        &GltfOptions {
            quantize: true,
            ..GltfOptions::default()
        },
    )
    .unwrap();
    let plain = to_glb(&scene).unwrap();
    let dir = corpus_dir().unwrap();
    let md2_len = std::fs::metadata(dir.join("md2/assimpdeb_faerie.md2"))
        .unwrap()
        .len();
    eprintln!(
        "faerie: md2 {md2_len} bytes, glb {} bytes, quantized glb {} bytes",
        plain.len(),
        glb.len()
    );
    assert!(glb.len() < plain.len() * 6 / 10);
    let doc = parse_glb(&glb);
    doc.check_layout();
    assert_eq!(doc.json["extensionsRequired"][0], "KHR_mesh_quantization");
    let node = doc.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["mesh"] == 0)
        .unwrap();
    let t: Vec<f32> = (0..3)
        .map(|i| node["translation"][i].as_f64().unwrap() as f32)
        .collect();
    let s = node["scale"][0].as_f64().unwrap() as f32;
    let pos = doc.attribute(0, "POSITION");
    doc.check_min_max(pos);
    let base = doc.read3(pos);
    // The base stays float (loaders without the extension read it), on
    // the grid: whole numbers.
    assert_eq!(doc.json["accessors"][pos]["componentType"], 5126);
    assert!(base.iter().flatten().all(|x| x.fract() == 0.0));
    // Weight keys are normalised bytes holding the same 0/1 values as the
    // float export's.
    let plain_doc = parse_glb(&plain);
    let anims = doc.json["animations"].as_array().unwrap();
    assert_eq!(anims.len(), model.animations().len());
    for (a, anim) in anims.iter().enumerate() {
        let output = |d: &Doc| {
            let s = &d.json["animations"][a]["samplers"][0];
            s["output"].as_u64().unwrap() as usize
        };
        let q = output(&doc);
        assert_eq!(
            doc.json["accessors"][q]["componentType"], 5121,
            "{}",
            anim["name"]
        );
        assert_eq!(doc.json["accessors"][q]["normalized"], true);
        assert_eq!(doc.read(q), plain_doc.read(output(&plain_doc)));
    }
    let src = vertex_sources(&model, &doc.indices(0), base.len());
    let targets = doc.json["meshes"][0]["primitives"][0]["targets"]
        .as_array()
        .unwrap();
    for k in [0usize, 5, 60, 197] {
        let expected = frame_positions(&model, k);
        let ti = targets[k]["POSITION"].as_u64().unwrap() as usize;
        doc.check_min_max(ti);
        let d = doc.read3(ti);
        for (v, &(mv, _)) in src.iter().enumerate() {
            for c in 0..3 {
                let got = t[c] + s * (base[v][c] + d[v][c]);
                assert!(
                    (got - expected[mv][c]).abs() <= s * 0.51 + 1e-4,
                    "frame {k} vertex {v}"
                );
            }
        }
    }
}

#[test]
fn textures_are_embedded_only_with_png_bytes() {
    let model = retromodel::md2::sample::sample_model();
    let mut scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    if scene.textures.is_empty() {
        scene.textures.push(Default::default());
        scene.materials[0].texture = Some(0);
    }
    let doc = parse_glb(&to_glb(&scene).unwrap());
    assert!(doc.json.get("images").is_none(), "no PNG, no image");
    assert!(doc.json["materials"][0]["pbrMetallicRoughness"]
        .get("baseColorTexture")
        .is_none());

    let png = b"\x89PNG\r\n\x1a\n not really an image".to_vec();
    scene.textures[0].image = Some(retromodel::scene::TextureImage::Png(png.clone()));
    let doc = parse_glb(&to_glb(&scene).unwrap());
    doc.check_layout();
    assert_eq!(doc.json["images"][0]["mimeType"], "image/png");
    let view =
        &doc.root.buffer_views[doc.json["images"][0]["bufferView"].as_u64().unwrap() as usize];
    let off = view.byte_offset.map_or(0, |o| o.0 as usize);
    assert_eq!(&doc.bin[off..off + view.byte_length.0 as usize], &png[..]);
    assert_eq!(
        doc.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"],
        0
    );
    assert_eq!(doc.json["textures"][0]["source"], 0);
}

#[test]
fn gltf_json_names_its_bin_file() {
    let model = retromodel::md2::sample::sample_model();
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let (json, bin) = to_gltf(&scene, "model.bin").unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["buffers"][0]["uri"], "model.bin");
    assert_eq!(
        v["buffers"][0]["byteLength"].as_u64(),
        Some(bin.len() as u64)
    );
    assert_eq!(v["asset"]["version"], "2.0");
}

/// Morph target normals: base + target k is frame k's table normal (in
/// glTF axes) for every vertex of a clean frame; a frame with a normal
/// index past the table gets, for that vertex only, the unit normal of the
/// faces around it (the same repair as the base frame).
#[test]
fn morph_normals_are_table_normals_and_a_bad_index_is_repaired_in_its_frame_only() {
    let mut model = retromodel::md2::sample::sample_model();
    assert!(model.frames.len() > 2);
    model.frames[2].vertices[0].normal_index = 200;
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let mesh = &scene.meshes[0];
    let render = RenderMesh::new(&model);
    let add = |a: [f32; 3], b: [f32; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
    let mut repaired = 0;
    for k in 0..model.frames.len() {
        let t = &mesh.morph_targets[k];
        for (v, &src) in render.source_vertices.iter().enumerate() {
            let got = add(mesh.normals[v], t.normals[v]);
            let index = model.frames[k].vertices[src as usize].normal_index as usize;
            if index >= retromodel::md2::NORMAL_COUNT {
                repaired += 1;
                let position = |i: u32| add(mesh.positions[i as usize], t.positions[i as usize]);
                let mut around = [0.0f32; 3];
                for tri in mesh.indices.chunks_exact(3) {
                    if tri.contains(&(v as u32)) {
                        let n = face_normal(position(tri[0]), position(tri[1]), position(tri[2]));
                        around = add(around, n);
                    }
                }
                assert!((dot(got, got).sqrt() - 1.0).abs() < 1e-5, "{got:?}");
                let cos = dot(got, around) / dot(around, around).sqrt();
                assert!(
                    cos > 0.9999,
                    "frame {k} vertex {v}: {got:?} vs faces {around:?}"
                );
            } else {
                let want = to_gltf_axes(retromodel::md2::NORMALS[index]);
                for c in 0..3 {
                    assert!(
                        (got[c] - want[c]).abs() <= 1e-6,
                        "frame {k} vertex {v}: {got:?} vs {want:?}"
                    );
                }
            }
        }
    }
    let uses = render.source_vertices.iter().filter(|&&s| s == 0).count();
    assert!(uses > 0);
    assert_eq!(repaired, uses, "only frame 2's vertex 0, once per use");
}

/// A model with nothing to draw still has a default scene (one empty
/// node), which loaders look for, and no mesh.
#[test]
fn a_model_without_triangles_has_a_scene_with_one_empty_node() {
    let mut model = retromodel::md2::sample::sample_model();
    model.triangles.clear();
    for f in &mut model.frames {
        f.vertices.clear();
    }
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let doc = parse_glb(&to_glb(&scene).unwrap());
    doc.check_layout();
    assert!(doc.json.get("meshes").is_none());
    assert_eq!(doc.json["scene"], 0);
    let nodes = doc.json["scenes"][0]["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 1);
    let node = &doc.json["nodes"][nodes[0].as_u64().unwrap() as usize];
    assert!(node.get("mesh").is_none() && node.get("children").is_none());
}
