//! Every corpus MS3D through MilkShape ASCII and back:
//! `Ms3d → AsciiModel → text → AsciiModel → Ms3d`, compared with the
//! original file field by field. What the text carries comes back bit for
//! bit; what it cannot carry comes back as the module documents (and this
//! test states file by file).

use std::collections::BTreeSet;

use retromodel::ms3d::ascii::AsciiModel;
use retromodel::ms3d::{Ms3d, Triangle, Vertex};
use retromodel_testkit::corpus::{corpus_dir, ms3d_files};

/// The corpus files whose groups each use their own contiguous, ascending
/// run of vertices, every vertex with one texture coordinate, no vertex
/// unused, every triangle listed once in group order: worked out from the
/// files by a separate script when this test was written, and checked
/// again below from the files themselves.
const CLEAN: [&str; 8] = [
    "assimp_InvalidMaterialIndex.ms3d",
    "assimpdeb_Wuson.ms3d",
    "glscene_BigHoleBox.ms3d",
    "glscene_BigHoleBox2.ms3d",
    "glscene_FreakShip.ms3d",
    "glscene_HalfSphere.ms3d",
    "mm3d_from_nehe_Model.ms3d",
    "nehe_lesson31_Model.ms3d",
];

fn bits3(v: [f32; 3]) -> [u32; 3] {
    v.map(f32::to_bits)
}

/// A name as the text writes it: an empty one is `" "`.
fn written(name: &[u8]) -> Vec<u8> {
    if name.is_empty() {
        b" ".to_vec()
    } else {
        name.to_vec()
    }
}

/// Whether `m` is laid out as the text's meshes lay it out (see
/// [`CLEAN`]), checked from the model's raw fields.
fn is_clean(m: &Ms3d) -> bool {
    let listed: Vec<u16> = m
        .groups
        .iter()
        .flat_map(|g| g.triangles.iter().copied())
        .collect();
    if listed != (0..m.triangles.len() as u16).collect::<Vec<_>>() {
        return false;
    }
    let mut next = 0usize;
    let mut uv: Vec<Option<(u32, u32)>> = vec![None; m.vertices.len()];
    for g in &m.groups {
        let used: BTreeSet<u16> = g
            .triangles
            .iter()
            .flat_map(|&t| m.triangles[t as usize].vertices)
            .collect();
        let run: Vec<u16> = (next as u16..(next + used.len()) as u16).collect();
        if used.iter().copied().collect::<Vec<_>>() != run {
            return false;
        }
        next += used.len();
        for &t in &g.triangles {
            let tri = &m.triangles[t as usize];
            for k in 0..3 {
                let here = (tri.s[k].to_bits(), tri.t[k].to_bits());
                match uv[tri.vertices[k] as usize] {
                    None => uv[tri.vertices[k] as usize] = Some(here),
                    Some(seen) if seen == here => {}
                    Some(_) => return false,
                }
            }
        }
    }
    next == m.vertices.len()
}

/// The number of text vertices the groups need: per group, its distinct
/// (vertex, texture coordinate) corners, plus the vertices no grouped
/// triangle uses.
fn split_vertex_count(m: &Ms3d) -> usize {
    let mut used = vec![false; m.vertices.len()];
    let mut total = 0;
    for g in &m.groups {
        let mut corners = BTreeSet::new();
        for &t in &g.triangles {
            let tri = &m.triangles[t as usize];
            for k in 0..3 {
                corners.insert((tri.vertices[k], tri.s[k].to_bits(), tri.t[k].to_bits()));
                used[tri.vertices[k] as usize] = true;
            }
        }
        total += corners.len();
    }
    total + used.iter().filter(|&&u| !u).count()
}

fn vertex_bits(v: &Vertex) -> (u8, [u32; 3], i8) {
    (v.flags, bits3(v.position), v.bone_id)
}

type CornerBits = ((u8, [u32; 3], i8), u32, u32, [u32; 3]);

/// Triangle `t`'s corners as values: the vertex's fields, s, t, normal.
fn corners(m: &Ms3d, t: &Triangle) -> [CornerBits; 3] {
    [0, 1, 2].map(|k| {
        (
            vertex_bits(&m.vertices[t.vertices[k] as usize]),
            t.s[k].to_bits(),
            t.t[k].to_bits(),
            bits3(t.normals[k]),
        )
    })
}

#[test]
fn every_corpus_ms3d_survives_the_text() {
    let Some(corpus) = corpus_dir() else { return };
    let files = ms3d_files(&corpus);
    assert_eq!(files.len(), 19);
    let mut clean = Vec::new();
    for (key, path) in &files {
        let name = key.trim_start_matches("ms3d/");
        let bytes = std::fs::read(path).unwrap();
        let m = Ms3d::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));

        let text_model = AsciiModel::from_ms3d(&m);
        let text = text_model.to_bytes();
        let parsed = AsciiModel::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            parsed, text_model,
            "{name}: the text holds the model exactly"
        );
        let back = parsed
            .to_ms3d_with_fps(m.fps)
            .unwrap_or_else(|e| panic!("{name}: {e}"));

        // The keyframer: fps is the caller's, the current time's integer
        // part is kept (`Frame:` is an int).
        assert_eq!(back.fps, m.fps, "{name}");
        assert_eq!(back.total_frames, m.total_frames, "{name}");
        assert_eq!(back.current_time, m.current_time.trunc(), "{name}");
        assert_eq!(back.version, 4, "{name}");

        // Groups, and every triangle's corners by value, in group order.
        assert_eq!(back.groups.len(), m.groups.len(), "{name}");
        for (gi, (a, b)) in m.groups.iter().zip(&back.groups).enumerate() {
            assert_eq!(
                written(a.name.as_bytes()),
                b.name.as_bytes(),
                "{name}: group {gi}"
            );
            assert_eq!((a.flags, a.material), (b.flags, b.material), "{name}");
            assert_eq!(a.triangles.len(), b.triangles.len(), "{name}");
            for (&ta, &tb) in a.triangles.iter().zip(&b.triangles) {
                let (x, y) = (&m.triangles[ta as usize], &back.triangles[tb as usize]);
                assert_eq!(
                    (x.flags, x.smoothing_group, x.group),
                    (y.flags, y.smoothing_group, y.group),
                    "{name}"
                );
                assert_eq!(corners(&m, x), corners(&back, y), "{name}: triangle {ta}");
            }
        }

        // Materials, the mode too (kept in a `// retromodel` line).
        assert_eq!(back.materials.len(), m.materials.len(), "{name}");
        for (a, b) in m.materials.iter().zip(&back.materials) {
            assert_eq!(written(a.name.as_bytes()), b.name.as_bytes(), "{name}");
            assert_eq!(
                (a.ambient, a.diffuse, a.specular, a.emissive),
                (b.ambient, b.diffuse, b.specular, b.emissive),
                "{name}"
            );
            assert_eq!(
                (a.shininess.to_bits(), a.transparency.to_bits()),
                (b.shininess.to_bits(), b.transparency.to_bits())
            );
            assert_eq!(a.texture.as_bytes(), b.texture.as_bytes(), "{name}");
            assert_eq!(a.alphamap.as_bytes(), b.alphamap.as_bytes(), "{name}");
            assert_eq!(b.mode, a.mode, "{name}");
        }

        // Joints and every key, bit for bit (seconds → frames → seconds).
        assert_eq!(back.joints.len(), m.joints.len(), "{name}");
        for (a, b) in m.joints.iter().zip(&back.joints) {
            assert_eq!(written(a.name.as_bytes()), b.name.as_bytes(), "{name}");
            assert_eq!(a.parent.as_bytes(), b.parent.as_bytes(), "{name}");
            assert_eq!(a.flags, b.flags);
            assert_eq!(bits3(a.rotation), bits3(b.rotation), "{name}");
            assert_eq!(bits3(a.position), bits3(b.position), "{name}");
            for (ka, kb) in [
                (&a.rotation_keys, &b.rotation_keys),
                (&a.position_keys, &b.position_keys),
            ] {
                let key_bits = |k: &[retromodel::ms3d::Key]| -> Vec<(u32, [u32; 3])> {
                    k.iter()
                        .map(|k| (k.time.to_bits(), bits3(k.value)))
                        .collect()
                };
                assert_eq!(key_bits(ka), key_bits(kb), "{name}: keys of {}", a.name);
            }
        }

        // Comments come back (subversion 1, model comment {length, text}).
        match (&m.extras.comments, &back.extras.comments) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert_eq!(b.subversion, 1);
                assert_eq!(a.groups, b.groups, "{name}");
                assert_eq!(a.materials, b.materials, "{name}");
                assert_eq!(a.joints, b.joints, "{name}");
                assert_eq!(a.model.text(), b.model.text(), "{name}");
            }
            (a, b) => panic!("{name}: comments {a:?} came back as {b:?}"),
        }
        // Vertex weights, joint colours and model extras come back from the
        // `// retromodel` header lines: every corner's vertex has the
        // record of the original corner's vertex.
        match (&m.extras.vertices, &back.extras.vertices) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert_eq!(
                    (a.subversion, a.record_size),
                    (b.subversion, b.record_size),
                    "{name}"
                );
                assert_eq!(b.records.len(), back.vertices.len(), "{name}");
                for (ga, gb) in m.groups.iter().zip(&back.groups) {
                    for (&ta, &tb) in ga.triangles.iter().zip(&gb.triangles) {
                        for k in 0..3 {
                            let va = usize::from(m.triangles[usize::from(ta)].vertices[k]);
                            let vb = usize::from(back.triangles[usize::from(tb)].vertices[k]);
                            assert_eq!(a.records.get(va), b.records.get(vb), "{name}");
                        }
                    }
                }
            }
            (a, b) => panic!("{name}: vertex extras {a:?} came back as {b:?}"),
        }
        assert_eq!(back.extras.joints, m.extras.joints, "{name}");
        assert_eq!(back.extras.model, m.extras.model, "{name}");
        assert!(back.trailing.is_empty());

        // Vertices: for the files laid out as meshes are, the same list
        // (reference counts included, which are recomputed); for the
        // others, one per group and texture coordinate.
        if is_clean(&m) {
            clean.push(name.to_string());
            assert_eq!(back.vertices.len(), m.vertices.len(), "{name}");
            for (a, b) in m.vertices.iter().zip(&back.vertices) {
                assert_eq!(vertex_bits(a), vertex_bits(b), "{name}");
                assert_eq!(a.reference_count, b.reference_count, "{name}");
            }
            for (a, b) in m.triangles.iter().zip(&back.triangles) {
                assert_eq!(a.vertices, b.vertices, "{name}");
            }
        } else {
            assert!(back.vertices.len() > m.vertices.len(), "{name}");
        }
        assert_eq!(back.vertices.len(), split_vertex_count(&m), "{name}");

        // And the result writes and reads back.
        let out = back.to_bytes().unwrap();
        assert_eq!(Ms3d::from_bytes(&out).unwrap().to_bytes().unwrap(), out);
    }
    assert_eq!(clean, CLEAN, "the files laid out as the text's meshes are");
}

/// Woman4's vertex weights (a file with every 1.8 extra) come back from
/// header lines, its vertex lines keep seven fields; stale name bytes
/// after the NUL do not come back.
#[test]
fn what_the_text_cannot_carry_comes_back_as_documented() {
    let Some(corpus) = corpus_dir() else { return };
    let (_, m) = retromodel_testkit::corpus::load_ms3d(&corpus, "glscene_Woman4.ms3d");
    assert!(m.extras.vertices.is_some(), "Woman4 has vertex weights");
    let text = String::from_utf8(AsciiModel::from_ms3d(&m).to_bytes()).unwrap();
    let back = AsciiModel::parse(text.as_bytes())
        .unwrap()
        .to_ms3d_with_fps(m.fps)
        .unwrap();
    assert!(back.extras.vertices.is_some());
    assert!(text
        .lines()
        .any(|l| l.starts_with("// retromodel weights: ")));
    // The text's vertex lines have seven fields, weights have none.
    let vertex_lines = text
        .lines()
        .filter(|l| l.split_whitespace().count() == 7 && !l.starts_with('"'))
        .count();
    assert!(vertex_lines >= back.vertices.len());

    let (_, m) = retromodel_testkit::corpus::load_ms3d(&corpus, "mm3d_from_glscene_Woman4.ms3d");
    assert!(m
        .groups
        .iter()
        .any(|g| g.name.0[g.name.as_bytes().len() + 1..]
            .iter()
            .any(|&b| b != 0)));
    let back = AsciiModel::from_ms3d(&m).to_ms3d_with_fps(m.fps).unwrap();
    for (a, b) in m.groups.iter().zip(&back.groups) {
        assert_eq!(a.name.as_bytes(), b.name.as_bytes());
        assert!(b.name.0[b.name.as_bytes().len()..].iter().all(|&x| x == 0));
    }
}
