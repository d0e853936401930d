//! Every MilkShape 3D ASCII file of the corpus (`ms3d_ascii/*.txt`) against
//! `ms3d_ascii/facts.json`, written by an independent reader
//! (`ascii_facts.py`); their conversion to binary and back; and StepMania's
//! split models put together.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use retromodel::ms3d::ascii::{looks_like, AsciiModel, Mesh, Section};
use retromodel::ms3d::Ms3d;
use retromodel::Severity;
use retromodel_testkit::corpus::corpus_dir;
use serde_json::Value;

/// The corpus's ASCII folder, or `None` (the test skips) without a corpus.
fn ascii_dir() -> Option<PathBuf> {
    corpus_dir().map(|c| c.join("ms3d_ascii"))
}

/// `facts.json`'s entries by file name.
fn facts(dir: &Path) -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(dir.join("facts.json")).expect("facts.json");
    let facts: Value = serde_json::from_str(&text).expect("facts.json is JSON");
    facts["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| (f["file"].as_str().expect("file").to_string(), f.clone()))
        .collect()
}

fn read(dir: &Path, name: &str) -> (Vec<u8>, AsciiModel) {
    let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let model = AsciiModel::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, model)
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn opt_count(v: &Value) -> Option<usize> {
    v.as_u64().map(|n| n as usize)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= 1e-6, "{what}: {a} vs {b}");
}

const SPLIT_MESHES: &str = "stepmania_dance_midi-note-3d__down tap note meshes.txt";
const SPLIT_MATERIALS: &str = "stepmania_dance_midi-note-3d__down Tap Note materials.txt";
const SPLIT_BONES: &str = "stepmania_dance_midi-note-3d__down tap bones.txt";
const ALL_IN_ONE_HEAD: &str = "stepmania_dance_midi-note-3d__Down Tap Note.txt";
const ALL_IN_ONE_2011: &str = "stepmania_dance_midi-note-3d_tex_res_midi-note-3d.txt";
const WALKER: &str = "blender_walker.txt";

#[test]
fn every_file_matches_facts() {
    let Some(dir) = ascii_dir() else { return };
    let facts = facts(&dir);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("ms3d_ascii folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 11, "the corpus has 11 ASCII files");
    assert_eq!(
        files,
        facts.keys().cloned().collect::<Vec<_>>(),
        "facts.json lists every .txt"
    );
    for name in &files {
        let f = &facts[name];
        let (bytes, m) = read(&dir, name);
        assert!(looks_like(&bytes), "{name}: looks_like");
        assert_eq!(bytes.len() as f64, num(&f["bytes"]), "{name}: size");
        let sections: Vec<&str> = m.order.iter().map(|s| s.keyword()).collect();
        assert_eq!(sections, strings(&f["sections"]), "{name}: sections");
        assert_eq!(
            m.frames.map(i64::from),
            f["frames"].as_i64(),
            "{name}: frames"
        );
        assert_eq!(m.frame.map(i64::from), f["frame"].as_i64(), "{name}: frame");
        let first_line = f["first_line"].as_str().unwrap();
        assert_eq!(
            m.header.first().map(String::as_str),
            first_line.starts_with("//").then_some(first_line),
            "{name}: header"
        );

        check_meshes(name, &m, f);
        check_materials(name, &m, f);
        check_bones(name, &m, f);

        let comments = m
            .sections()
            .into_iter()
            .filter(|s| *s >= Section::GroupComments);
        let ours: BTreeMap<String, u64> = comments
            .map(|s| {
                let n = match s {
                    Section::GroupComments => m.group_comments.as_ref().unwrap().len(),
                    Section::MaterialComments => m.material_comments.as_ref().unwrap().len(),
                    Section::BoneComments => m.bone_comments.as_ref().unwrap().len(),
                    _ => usize::from(m.model_comment.as_ref().unwrap().is_some()),
                };
                (s.keyword().to_string(), n as u64)
            })
            .collect();
        let theirs: BTreeMap<String, u64> = f
            .get("comments")
            .and_then(Value::as_object)
            .map(|o| {
                o.iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(ours, theirs, "{name}: comments");

        let mut textures: Vec<String> = Vec::new();
        for mat in m.material_list() {
            for t in [&mat.texture, &mat.alphamap] {
                if !t.is_empty() && !textures.contains(t) {
                    textures.push(t.clone());
                }
            }
        }
        assert_eq!(textures, strings(&f["textures"]), "{name}: textures");

        check_problems(name, &m, f);
    }
}

fn check_meshes(name: &str, m: &AsciiModel, f: &Value) {
    assert_eq!(
        m.meshes.as_ref().map(Vec::len),
        opt_count(&f["meshes"]),
        "{name}: meshes"
    );
    let Some(meshes) = &m.meshes else {
        assert!(f["vertices"].is_null() && f.get("mesh_list").is_none());
        return;
    };
    let total = |count: fn(&Mesh) -> usize| meshes.iter().map(count).sum::<usize>() as f64;
    assert_eq!(
        total(|m| m.vertices.len()),
        num(&f["vertices"]),
        "{name}: vertices"
    );
    assert_eq!(
        total(|m| m.normals.len()),
        num(&f["normals"]),
        "{name}: normals"
    );
    assert_eq!(
        total(|m| m.triangles.len()),
        num(&f["triangles"]),
        "{name}: triangles"
    );
    let list = f["mesh_list"].as_array().unwrap();
    assert_eq!(list.len(), meshes.len());
    for (mesh, e) in meshes.iter().zip(list) {
        let what = format!("{name}: mesh {:?}", mesh.name);
        assert_eq!(mesh.name, e["name"].as_str().unwrap(), "{what}");
        assert_eq!(f64::from(mesh.flags), num(&e["flags"]), "{what}: flags");
        assert_eq!(
            f64::from(mesh.material),
            num(&e["material"]),
            "{what}: material"
        );
        assert_eq!(mesh.vertices.len() as f64, num(&e["vertices"]), "{what}");
        assert_eq!(mesh.normals.len() as f64, num(&e["normals"]), "{what}");
        assert_eq!(mesh.triangles.len() as f64, num(&e["triangles"]), "{what}");
        let flags: BTreeSet<u8> = mesh.vertices.iter().map(|v| v.flags).collect();
        let theirs: BTreeSet<u8> = e["vertex_flags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| num(v) as u8)
            .collect();
        assert_eq!(flags, theirs, "{what}: vertex flags");
        let groups: BTreeSet<u32> = mesh.triangles.iter().map(|t| t.smoothing_group).collect();
        assert_eq!(groups.len() as f64, num(&e["smoothing_groups"]), "{what}");
        if !mesh.vertices.is_empty() {
            for k in 0..3 {
                let xs = mesh.vertices.iter().map(|v| f64::from(v.position[k]));
                let min = xs.clone().fold(f64::INFINITY, f64::min);
                let max = xs.fold(f64::NEG_INFINITY, f64::max);
                close(min, num(&e["bbox_min"][k]), &format!("{what}: bbox min"));
                close(max, num(&e["bbox_max"][k]), &format!("{what}: bbox max"));
            }
        }
        assert!(mesh.vertices.iter().all(|v| v.extra.is_empty()), "{what}");
    }
    assert_eq!(f["vertex_fields"], serde_json::json!([7]), "{name}");
    let mut by_bone: BTreeMap<i64, u64> = BTreeMap::new();
    for v in meshes.iter().flat_map(|m| &m.vertices) {
        *by_bone.entry(i64::from(v.bone)).or_default() += 1;
    }
    let theirs: BTreeMap<i64, u64> = f["vertex_bone_indices"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.parse().unwrap(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(by_bone, theirs, "{name}: vertices per bone");
}

fn check_materials(name: &str, m: &AsciiModel, f: &Value) {
    assert_eq!(
        m.materials.as_ref().map(Vec::len),
        opt_count(&f["materials"]),
        "{name}: materials"
    );
    let Some(list) = f.get("material_list").and_then(Value::as_array) else {
        return;
    };
    for (mat, e) in m.material_list().iter().zip(list) {
        let what = format!("{name}: material {:?}", mat.name);
        assert_eq!(mat.name, e["name"].as_str().unwrap(), "{what}");
        assert_eq!(mat.texture, e["texture"].as_str().unwrap(), "{what}");
        assert_eq!(mat.alphamap, e["alphamap"].as_str().unwrap(), "{what}");
        for k in 0..4 {
            close(f64::from(mat.diffuse[k]), num(&e["diffuse"][k]), &what);
        }
        close(f64::from(mat.shininess), num(&e["shininess"]), &what);
        close(f64::from(mat.transparency), num(&e["transparency"]), &what);
    }
}

fn check_bones(name: &str, m: &AsciiModel, f: &Value) {
    assert_eq!(
        m.bones.as_ref().map(Vec::len),
        opt_count(&f["bones"]),
        "{name}: bones"
    );
    let bones = m.bone_list();
    if let Some(list) = f.get("bone_list").and_then(Value::as_array) {
        assert_eq!(list.len(), bones.len());
        for (b, e) in bones.iter().zip(list) {
            let what = format!("{name}: bone {:?}", b.name);
            assert_eq!(b.name, e["name"].as_str().unwrap(), "{what}");
            assert_eq!(b.parent, e["parent"].as_str().unwrap(), "{what}");
            assert_eq!(f64::from(b.flags), num(&e["flags"]), "{what}");
            for k in 0..3 {
                close(f64::from(b.position[k]), num(&e["position"][k]), &what);
                close(f64::from(b.rotation[k]), num(&e["rotation"][k]), &what);
            }
            assert_eq!(
                b.position_keys.len() as f64,
                num(&e["position_keys"]),
                "{what}"
            );
            assert_eq!(
                b.rotation_keys.len() as f64,
                num(&e["rotation_keys"]),
                "{what}"
            );
        }
    }
    if bones.is_empty() {
        return;
    }
    let keys = || {
        bones
            .iter()
            .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
    };
    let npos: usize = bones.iter().map(|b| b.position_keys.len()).sum();
    let nrot: usize = bones.iter().map(|b| b.rotation_keys.len()).sum();
    assert_eq!(npos as f64, num(&f["position_keys"]), "{name}");
    assert_eq!(nrot as f64, num(&f["rotation_keys"]), "{name}");
    let most = bones
        .iter()
        .map(|b| b.position_keys.len().max(b.rotation_keys.len()))
        .max()
        .unwrap();
    assert_eq!(most as f64, num(&f["max_keys_per_bone"]), "{name}");
    let keyless = bones
        .iter()
        .filter(|b| b.position_keys.is_empty() && b.rotation_keys.is_empty())
        .count();
    assert_eq!(keyless as f64, num(&f["bones_without_keys"]), "{name}");
    let roots: Vec<String> = bones
        .iter()
        .filter(|b| b.parent.is_empty())
        .map(|b| b.name.clone())
        .collect();
    assert_eq!(roots, strings(&f["root_bones"]), "{name}");
    let min = keys().map(|k| k.frame).fold(f64::INFINITY, f64::min);
    let max = keys().map(|k| k.frame).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(
        [min, max],
        [num(&f["key_time_range"][0]), num(&f["key_time_range"][1])],
        "{name}: key range"
    );
    assert!(f.get("fractional_key_times").is_none());
    assert!(
        keys().all(|k| k.frame.fract() == 0.0),
        "{name}: whole frames"
    );
}

/// Our warnings against the independent reader's `problems`: the same
/// faults, worded our way, and nothing else.
fn check_problems(name: &str, m: &AsciiModel, f: &Value) {
    let mut expected: Vec<(String, String)> = Vec::new();
    for p in strings(&f["problems"]) {
        if let Some(rest) = p.strip_prefix("key time ") {
            // "key time 39 is beyond Frames: 38"
            let (time, frames) = rest.split_once(" is beyond Frames: ").unwrap();
            expected.push((
                "frames".into(),
                format!("keys run to frame {time}, past Frames: {frames}"),
            ));
        } else if let Some(rest) = p.strip_prefix("mesh '") {
            // "mesh 'scroller': 1 triangles repeat a vertex index"
            let (mesh, rest) = rest.split_once("': ").unwrap();
            let n: usize = rest.split(' ').next().unwrap().parse().unwrap();
            expected.push((format!("degenerate in {mesh}"), format!("{n}")));
        } else {
            panic!("{name}: a problem this test does not know: {p}");
        }
    }
    let mut found: Vec<(String, String)> = Vec::new();
    let mut degenerate: BTreeMap<String, usize> = BTreeMap::new();
    // More than 256 distinct smoothing groups in a mesh (the Blender
    // add-on numbers them per polygon) means some above 255: a warning
    // the independent reader has no counterpart of.
    for (i, e) in f
        .get("mesh_list")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if num(&e["smoothing_groups"]) > 256.0 {
            expected.push((
                format!("meshes[{i}].triangles"),
                "smoothing groups above 255".into(),
            ));
        }
    }
    expected.sort();
    for p in m.validate() {
        assert_eq!(p.severity, Severity::Warning, "{name}: {p}");
        if p.message.contains("smoothing groups above 255") {
            found.push((p.path.clone(), "smoothing groups above 255".into()));
        } else if p.message.contains("degenerate") {
            let i: usize = p.path["meshes[".len()..]
                .split(']')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            *degenerate.entry(m.mesh_list()[i].name.clone()).or_default() += 1;
        } else {
            found.push((p.path.clone(), p.message.clone()));
        }
    }
    for (mesh, n) in degenerate {
        found.push((format!("degenerate in {mesh}"), n.to_string()));
    }
    found.sort();
    assert_eq!(found, expected, "{name}: problems");
}

/// The full files (meshes, materials and bones in one) as binary models:
/// what the binary's own validation finds, and the counts MilkShape's
/// mapping gives.
#[test]
fn full_files_convert_to_valid_binaries() {
    let Some(dir) = ascii_dir() else { return };
    let facts = facts(&dir);
    let mut full = 0;
    for (name, f) in &facts {
        let (_, m) = read(&dir, name);
        let binary = m
            .to_ms3d_with_fps(30.0)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let problems: Vec<String> = binary
            .validate()
            .iter()
            .map(|p| format!("{}: {}: {}", p.severity, p.path, p.message))
            .collect();
        let complete = m.meshes.is_some() && m.materials.is_some() && m.bones.is_some();
        if complete {
            full += 1;
            // Every index is in range and no joint lacks its parent.
            assert_eq!(problems, Vec::<String>::new(), "{name}");
        } else if name == SPLIT_MESHES {
            // Its material indices refer to the materials file.
            assert_eq!(
                problems,
                [
                    "warning: groups[0].material: material index 0 out of range -1..0",
                    "warning: groups[1].material: material index 2 out of range -1..0",
                    "warning: groups[2].material: material index 1 out of range -1..0",
                ],
                "{name}"
            );
        } else {
            assert!(problems.is_empty(), "{name}: {problems:?}");
        }
        let meshes = m.mesh_list();
        assert_eq!(
            binary.groups.len(),
            opt_count(&f["meshes"]).unwrap_or(0),
            "{name}"
        );
        assert_eq!(
            binary.vertices.len(),
            opt_count(&f["vertices"]).unwrap_or(0),
            "{name}"
        );
        assert_eq!(
            binary.triangles.len(),
            opt_count(&f["triangles"]).unwrap_or(0),
            "{name}"
        );
        assert_eq!(
            binary.materials.len(),
            opt_count(&f["materials"]).unwrap_or(0),
            "{name}"
        );
        assert_eq!(
            binary.joints.len(),
            opt_count(&f["bones"]).unwrap_or(0),
            "{name}"
        );
        // The degenerate triangle is in the binary too (its own validation
        // does not look for those; the text's does): the same corners.
        for (g, mesh) in meshes.iter().enumerate() {
            for (k, t) in mesh.triangles.iter().enumerate() {
                let b = &binary.triangles[binary.groups[g].triangles[k] as usize];
                let [x, y, z] = t.vertices;
                let [bx, by, bz] = b.vertices;
                assert_eq!(x == y, bx == by, "{name}");
                assert_eq!(y == z, by == bz, "{name}");
            }
        }
        // It writes and reads back unchanged.
        let bytes = binary.to_bytes().unwrap();
        assert_eq!(Ms3d::from_bytes(&bytes).unwrap().to_bytes().unwrap(), bytes);
    }
    assert_eq!(full, 6, "six corpus files hold all three sections");
}

/// Text → binary → text: every section the file has comes back with the
/// same values (floats exactly, key frames within the f32 seconds'
/// rounding); sections the binary always has come back empty (split files)
/// or at MilkShape's defaults (`Frames: 30`, `Frame: 1`).
#[test]
fn text_to_binary_to_text_keeps_every_value() {
    let Some(dir) = ascii_dir() else { return };
    for name in facts(&dir).keys() {
        let (_, original) = read(&dir, name);
        let binary = original.to_ms3d_with_fps(30.0).unwrap();
        let text = AsciiModel::from_ms3d(&binary).to_text();
        let back = AsciiModel::parse(text.as_bytes()).unwrap();

        assert_eq!(back.frames, Some(original.frames.unwrap_or(30)), "{name}");
        assert_eq!(back.frame, Some(original.frame.unwrap_or(1)), "{name}");
        assert_eq!(
            back.materials.as_deref(),
            Some(original.material_list()),
            "{name}"
        );
        let (a, b) = (original.bone_list(), back.bone_list());
        assert_eq!(a.len(), b.len(), "{name}");
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                (&x.name, &x.parent, x.flags, x.position, x.rotation),
                (&y.name, &y.parent, y.flags, y.position, y.rotation),
                "{name}"
            );
            for (kx, ky) in [
                (&x.position_keys, &y.position_keys),
                (&x.rotation_keys, &y.rotation_keys),
            ] {
                assert_eq!(kx.len(), ky.len(), "{name}");
                for (p, q) in kx.iter().zip(ky) {
                    assert_eq!(p.value, q.value, "{name}");
                    assert!(
                        (p.frame - q.frame).abs() <= 1e-6 * p.frame.abs().max(1.0),
                        "{name}"
                    );
                }
            }
        }
        let comments = |m: &AsciiModel| {
            (
                m.group_comments.clone(),
                m.material_comments.clone(),
                m.bone_comments.clone(),
                m.model_comment.clone(),
            )
        };
        assert_eq!(comments(&back), comments(&original), "{name}");

        let (a, b) = (original.mesh_list(), back.mesh_list());
        assert_eq!(a.len(), b.len(), "{name}");
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                (&x.name, x.flags, x.material),
                (&y.name, y.flags, y.material)
            );
            // MilkShape's files give every vertex one texture coordinate
            // and a mesh of its own: the vertex lists come back as written.
            assert_eq!(x.vertices, y.vertices, "{name}: mesh {:?}", x.name);
            assert_eq!(x.triangles.len(), y.triangles.len());
            for (s, t) in x.triangles.iter().zip(&y.triangles) {
                assert_eq!(
                    (s.flags, s.vertices, s.smoothing_group % 256),
                    (t.flags, t.vertices, t.smoothing_group),
                    "{name}: smoothing groups come back modulo 256 (the binary's byte)"
                );
                // Normals by value: the lists may differ in order and in
                // normals no corner uses.
                for k in 0..3 {
                    assert_eq!(
                        x.normals[s.normals[k] as usize].map(f32::to_bits),
                        y.normals[t.normals[k] as usize].map(f32::to_bits),
                        "{name}"
                    );
                }
            }
        }
    }
}

/// The text written from the binary, line by line against the file:
/// equal up to float formatting and blank or comment lines for four of the
/// six full files. The other two differ where the binary cannot follow:
/// today's `Down Tap Note.txt` lists normals with repeats (its mesh
/// `Color` has 94 normals, 8 distinct), which the binary stores by value
/// and the text gets back distinct; the walker's smoothing groups above 255 come back modulo 256.
/// (`text_to_binary_to_text_keeps_every_value` checks them by value.)
#[test]
fn text_to_binary_to_text_is_the_same_text_numerically() {
    let Some(dir) = ascii_dir() else { return };
    let mut same = BTreeSet::new();
    let facts = facts(&dir);
    for name in facts.keys() {
        let (bytes, original) = read(&dir, name);
        if !Section::ALL[..5].iter().all(|&s| original.has(s)) {
            continue;
        }
        let binary = original.to_ms3d_with_fps(30.0).unwrap();
        let text = AsciiModel::from_ms3d(&binary).to_text();
        if same_numerically(&String::from_utf8(bytes).unwrap(), &text) {
            same.insert(name.as_str());
        }
    }
    assert_eq!(
        same,
        BTreeSet::from([
            "stepmania_bend.txt",
            ALL_IN_ONE_2011,
            "stepmania_kb7_orbital_model_note-wide.txt",
            "stepmania_kb7_orbital_model_note.txt",
        ])
    );
}

/// Whether two texts have the same significant lines, numbers compared as
/// numbers (within 1e-6 relative).
fn same_numerically(a: &str, b: &str) -> bool {
    let lines = |t: &str| -> Vec<String> {
        t.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (lines(a), lines(b));
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| {
            let (xs, ys): (Vec<&str>, Vec<&str>) = (
                x.split_whitespace().collect(),
                y.split_whitespace().collect(),
            );
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(&ys)
                    .all(|(p, q)| match (p.parse::<f64>(), q.parse::<f64>()) {
                        (Ok(p), Ok(q)) => (p - q).abs() <= 1e-6 * p.abs().max(1.0),
                        _ => p == q,
                    })
        })
}

/// StepMania's 2011 `Down Tap Note.lua` loads meshes, materials and bones
/// from three files. What they make together, against the two one-file
/// models of the same noteskin.
#[test]
fn split_stepmania_files_combine() {
    let Some(dir) = ascii_dir() else { return };
    let facts = facts(&dir);
    let (_, meshes) = read(&dir, SPLIT_MESHES);
    let (_, materials) = read(&dir, SPLIT_MATERIALS);
    let (_, bones) = read(&dir, SPLIT_BONES);
    for (piece, sections) in [
        (
            &meshes,
            vec![Section::Frames, Section::Frame, Section::Meshes],
        ),
        (&materials, vec![Section::Materials]),
        (&bones, vec![Section::Bones]),
    ] {
        assert_eq!(piece.order, sections);
    }
    let combined =
        AsciiModel::combine(meshes.clone(), Some(materials.clone()), Some(bones.clone())).unwrap();
    assert_eq!(
        combined.order,
        [
            Section::Frames,
            Section::Frame,
            Section::Meshes,
            Section::Materials,
            Section::Bones
        ]
    );
    assert_eq!(combined.meshes, meshes.meshes);
    assert_eq!(combined.materials, materials.materials);
    assert_eq!(combined.bones, Some(vec![]));
    let problems: Vec<String> = combined.validate().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        ["warning: meshes[2].triangles[104]: repeats vertex 83 (a degenerate triangle)"]
    );
    assert_eq!(combined.mesh_list()[2].name, "scroller");
    assert!(combined.to_ms3d().unwrap().validate().is_empty());

    // The meshes file is the 2011 all-in-one file's meshes, line for line;
    // its materials are named and textured differently (it lived in
    // tex/res/, and its names count on to 19).
    let (_, tex_res) = read(&dir, ALL_IN_ONE_2011);
    assert_eq!(combined.meshes, tex_res.meshes);
    let names = |m: &AsciiModel| -> Vec<String> {
        m.material_list().iter().map(|m| m.name.clone()).collect()
    };
    assert_eq!(names(&combined), ["cells", "1 - Default", "2 - Inside"]);
    let their_names: Vec<String> = facts[ALL_IN_ONE_2011]["material_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(their_names, ["cells", "19 - Default", "19 - Inside"]);
    assert_eq!(names(&tex_res), their_names);

    // Today's one-file model is not the same model: 5 meshes, 407 vertices
    // against 3 and 296 (facts.json).
    let (_, head) = read(&dir, ALL_IN_ONE_HEAD);
    assert_ne!(combined.meshes, head.meshes);
    assert_eq!(
        (
            num(&facts[ALL_IN_ONE_HEAD]["meshes"]),
            num(&facts[ALL_IN_ONE_HEAD]["vertices"])
        ),
        (5.0, 407.0)
    );
    assert_eq!(
        combined.mesh_list().len() as f64,
        num(&facts[SPLIT_MESHES]["meshes"])
    );

    // A piece without its section is an error naming it.
    let err = AsciiModel::combine(materials.clone(), None, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ms3d ascii: the meshes file has no Meshes: section"
    );
    let err = AsciiModel::combine(meshes.clone(), Some(bones), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ms3d ascii: the materials file has no Materials: section"
    );
    let err = AsciiModel::combine(meshes, Some(materials), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ms3d ascii: the meshes file has no Bones: section"
    );
}

/// kb7 orbital: `note.txt` meshes with `grey.txt` materials, and
/// `note-wide.txt` with `yellow.txt`. The material files give the same
/// materials, textured, that the note files hold untextured.
#[test]
fn kb7_notes_take_their_materials_from_the_colour_files() {
    let Some(dir) = ascii_dir() else { return };
    for (note, colour, texture) in [
        (
            "stepmania_kb7_orbital_model_note.txt",
            "stepmania_kb7_orbital_model_grey.txt",
            "_grey (no mipmaps).png",
        ),
        (
            "stepmania_kb7_orbital_model_note-wide.txt",
            "stepmania_kb7_orbital_model_yellow.txt",
            "_yellow (no mipmaps).png",
        ),
    ] {
        let (_, n) = read(&dir, note);
        let (_, c) = read(&dir, colour);
        let combined = AsciiModel::combine(n.clone(), Some(c.clone()), None).unwrap();
        assert_eq!(combined.meshes, n.meshes);
        assert_eq!(combined.bones, n.bones);
        assert_eq!(combined.materials, c.materials);
        let own = n.material_list();
        let given = combined.material_list();
        assert_eq!(own.len(), given.len());
        for (a, b) in own.iter().zip(given) {
            assert_eq!(
                (
                    &a.name,
                    a.ambient,
                    a.diffuse,
                    a.specular,
                    a.emissive,
                    a.shininess,
                    a.transparency
                ),
                (
                    &b.name,
                    b.ambient,
                    b.diffuse,
                    b.specular,
                    b.emissive,
                    b.shininess,
                    b.transparency
                )
            );
            assert!(
                a.texture.is_empty(),
                "{note}: the note's own materials are untextured"
            );
        }
        let textures: Vec<&str> = given.iter().map(|m| m.texture.as_str()).collect();
        assert_eq!(textures, ["scroller.ini", texture]);
    }
}

/// The Blender add-on's walker, read faithfully: its V runs −1…0, its keys
/// one frame past `Frames:`, its root keys absolute. Nothing is "fixed".
#[test]
fn the_blender_walker_is_read_as_written() {
    let Some(dir) = ascii_dir() else { return };
    let (_, m) = read(&dir, WALKER);
    assert_eq!(m.header.len(), 3);
    assert!(m.header[1].contains("ms3dascii-export Blender plugin"));
    let vs: Vec<f32> = m.mesh_list()[0].vertices.iter().map(|v| v.uv[1]).collect();
    assert!(vs.iter().all(|&v| (-1.0..=0.0).contains(&v)));
    // Triangles with a smoothing group above 255, counted from the text's
    // lines (the only 8-field lines of only whole numbers), not the reader.
    let text = std::fs::read_to_string(dir.join(WALKER)).unwrap();
    let groups: Vec<u64> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 8 && f.iter().all(|x| x.parse::<u64>().is_ok()))
        .map(|f| f[7].parse().unwrap())
        .collect();
    assert_eq!(groups.len(), 972);
    let wide = groups.iter().filter(|&&g| g > 255).count();
    let first = groups.iter().position(|&g| g > 255).unwrap();
    let problems: Vec<String> = m.validate().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        [
            format!(
                "warning: meshes[0].triangles: {wide} smoothing groups above 255, which MS3D's \
                 byte keeps modulo 256 (triangle {first}: {} becomes {})",
                groups[first],
                groups[first] % 256
            ),
            "warning: frames: keys run to frame 39, past Frames: 38".to_string()
        ]
    );
    let groups = m.mesh_list()[0].triangles.iter().map(|t| t.smoothing_group);
    assert_eq!(
        groups.max(),
        Some(542),
        "one group per Blender polygon, as written"
    );
    let hips = &m.bone_list()[0];
    assert_eq!(hips.position, [0.0, 0.9, 0.0]);
    assert_eq!(
        hips.position_keys[0].value,
        [0.0, 0.9, 0.0],
        "absolute root keys, as written"
    );
    let binary = m.to_ms3d().unwrap();
    assert_eq!(binary.total_frames, 38);
    assert_eq!(binary.joints[0].position_keys[38].time, 39.0 / 24.0);
    assert!(binary
        .triangles
        .iter()
        .all(|t| t.t.iter().all(|&v| v <= 0.0)));
}
