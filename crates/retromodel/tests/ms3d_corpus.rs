//! Every MS3D file of the corpus against `facts.json` (written by an
//! independent Python reader) and against its own bytes.

use std::collections::BTreeSet;

use retromodel::ms3d::Ms3d;
use retromodel::Severity;
use retromodel_testkit::corpus::{corpus_dir, facts, load_ms3d, ms3d_files};
use serde_json::Value;

fn num(v: &Value, key: &str) -> f64 {
    v.get(key)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("facts entry has no number {key}: {v}"))
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("facts entry has no list {key}"))
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

/// `"a=1 b=2.5"` → `[("a", "1"), ("b", "2.5")]`.
fn pairs(s: &str) -> Vec<(String, String)> {
    s.split_whitespace()
        .map(|p| {
            let (k, v) = p.split_once('=').expect("key=value");
            (k.to_string(), v.to_string())
        })
        .collect()
}

fn pair<'a>(p: &'a [(String, String)], key: &str) -> &'a str {
    &p.iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no {key} in {p:?}"))
        .1
}

/// The length of the core sections, walked in the test from the raw bytes
/// (independently of the library): where the 1.8 extras start.
fn core_len(b: &[u8]) -> usize {
    let u16_at = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as usize;
    let mut at = 14;
    at += 2 + 15 * u16_at(at);
    at += 2 + 70 * u16_at(at);
    let groups = u16_at(at);
    at += 2;
    for _ in 0..groups {
        at += 36 + 2 * u16_at(at + 33);
    }
    at += 2 + 361 * u16_at(at) + 12;
    let joints = u16_at(at);
    at += 2;
    for _ in 0..joints {
        at += 93 + 16 * (u16_at(at + 89) + u16_at(at + 91));
    }
    at
}

#[test]
fn every_file_matches_facts_and_rewrites_byte_for_byte() {
    let Some(corpus) = corpus_dir() else { return };
    let facts = facts(&corpus);
    let files = ms3d_files(&corpus);
    assert_eq!(files.len(), 19, "the corpus has 19 MS3D files");
    for (key, path) in &files {
        let f = facts
            .get(key)
            .unwrap_or_else(|| panic!("facts.json has no {key}"));
        let bytes = std::fs::read(path).unwrap();
        let m = Ms3d::from_bytes(&bytes).unwrap_or_else(|e| panic!("{key}: {e}"));

        assert_eq!(bytes.len() as f64, num(f, "size"), "{key}: size");
        assert_eq!(m.version as f64, num(f, "version"), "{key}: version");
        assert_eq!(m.vertices.len() as f64, num(f, "verts"), "{key}: vertices");
        assert_eq!(m.triangles.len() as f64, num(f, "tris"), "{key}: triangles");
        assert_eq!(m.groups.len() as f64, num(f, "groups"), "{key}: groups");
        assert_eq!(
            m.materials.len() as f64,
            num(f, "materials"),
            "{key}: materials"
        );
        assert_eq!(m.joints.len() as f64, num(f, "joints"), "{key}: joints");
        assert_eq!(m.fps as f64, num(f, "fps"), "{key}: fps");
        assert!(
            (m.current_time as f64 - num(f, "cur_time")).abs() < 1e-3,
            "{key}: current time {}",
            m.current_time
        );
        assert_eq!(
            m.total_frames as f64,
            num(f, "total_frames"),
            "{key}: total frames"
        );

        // Names: facts list the first few.
        let group_names = strings(f, "group_names");
        assert!(!group_names.is_empty() && group_names.len() <= m.groups.len());
        for (i, name) in group_names.iter().enumerate() {
            assert_eq!(
                &m.groups[i].name.to_string_lossy(),
                name,
                "{key}: group {i}"
            );
        }
        let matidx: Vec<i64> = f["group_matidx"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let got: Vec<i64> = m.groups.iter().map(|g| g.material as i64).collect();
        assert_eq!(got, matidx, "{key}: group material indices");
        let joint_names = strings(f, "joint_names");
        assert!(joint_names.len() <= m.joints.len());
        for (i, name) in joint_names.iter().enumerate() {
            assert_eq!(
                &m.joints[i].name.to_string_lossy(),
                name,
                "{key}: joint {i}"
            );
        }
        let textures: Vec<String> = m
            .materials
            .iter()
            .map(|mat| mat.texture.to_string_lossy())
            .collect();
        assert_eq!(textures, strings(f, "textures"), "{key}: textures");

        // Keys: "total=N maxrot=N maxtrans=N maxtime=T".
        let keys = pairs(f["keys"].as_str().unwrap());
        let total: usize = m
            .joints
            .iter()
            .map(|j| j.rotation_keys.len() + j.position_keys.len())
            .sum();
        assert_eq!(total.to_string(), pair(&keys, "total"), "{key}: keys");
        let maxrot = m.joints.iter().map(|j| j.rotation_keys.len()).max();
        let maxpos = m.joints.iter().map(|j| j.position_keys.len()).max();
        assert_eq!(maxrot.unwrap_or(0).to_string(), pair(&keys, "maxrot"));
        assert_eq!(maxpos.unwrap_or(0).to_string(), pair(&keys, "maxtrans"));
        let maxtime = m
            .joints
            .iter()
            .flat_map(|j| j.rotation_keys.iter().chain(&j.position_keys))
            .map(|k| k.time)
            .fold(0.0f32, f32::max);
        let want: f32 = pair(&keys, "maxtime").parse().unwrap();
        assert!(
            (maxtime - want).abs() < 1e-3,
            "{key}: max key time {maxtime}"
        );

        // Distinct bone ids used by vertices.
        let bones: BTreeSet<i8> = m
            .vertices
            .iter()
            .map(|v| v.bone_id)
            .filter(|&b| b >= 0)
            .collect();
        assert_eq!(bones.len() as f64, num(f, "vertex_boneids"), "{key}: bones");

        // The extras take exactly the bytes after the joints that the
        // facts name, counted from the raw bytes here.
        let after_joints = bytes.len() - core_len(&bytes);
        assert_eq!(
            after_joints as f64,
            num(f, "bytes_after_joints"),
            "{key}: bytes after joints (test's own walk)"
        );
        check_extras(key, f, &m, after_joints);

        // Byte-identical rewrite.
        let out = m.to_bytes().unwrap();
        assert!(out == bytes, "{key}: rewrite differs");
    }
}

fn check_extras(key: &str, f: &Value, m: &Ms3d, after_joints: usize) {
    let x = &m.extras;
    let Some(e) = f.get("extras") else {
        assert_eq!(after_joints, 0);
        assert!(
            x.comments.is_none() && x.vertices.is_none() && x.joints.is_none(),
            "{key}: no extras expected"
        );
        assert!(x.model.is_none() && m.trailing.is_empty());
        return;
    };
    let c = x
        .comments
        .as_ref()
        .unwrap_or_else(|| panic!("{key}: comments"));
    assert_eq!(c.subversion as f64, num(e, "comment_subv"), "{key}");
    let counts = pairs(e["comments"].as_str().unwrap());
    assert_eq!(c.groups.len().to_string(), pair(&counts, "group"), "{key}");
    assert_eq!(
        c.materials.len().to_string(),
        pair(&counts, "material"),
        "{key}"
    );
    assert_eq!(c.joints.len().to_string(), pair(&counts, "joint"), "{key}");
    let has_model = usize::from(c.model.text().is_some());
    assert_eq!(has_model.to_string(), pair(&counts, "model"), "{key}");
    if let Some(prefix) = e.get("model_comment").and_then(Value::as_str) {
        let text = m.model_comment().unwrap();
        assert!(
            text.starts_with(prefix) && !prefix.is_empty(),
            "{key}: model comment {text:?}"
        );
        // Written by MilkShape: the {length, text} layout.
        assert!(matches!(
            c.model,
            retromodel::ms3d::ModelComment::LengthText(_)
        ));
    }

    let v = x
        .vertices
        .as_ref()
        .unwrap_or_else(|| panic!("{key}: vertex extras"));
    assert_eq!(v.subversion as f64, num(e, "vertex_ex_subv"), "{key}");
    assert_eq!(v.records.len(), m.vertices.len(), "{key}");
    let with_bones = v
        .records
        .iter()
        .filter(|r| r.bone_ids.iter().any(|&b| b != -1))
        .count();
    assert_eq!(
        with_bones as f64,
        num(e, "verts_with_extra_bones"),
        "{key}: vertices with extra bones"
    );

    let j = x
        .joints
        .as_ref()
        .unwrap_or_else(|| panic!("{key}: joint extras"));
    assert_eq!(j.subversion as f64, num(e, "joint_ex_subv"), "{key}");
    assert_eq!(j.colors.len(), m.joints.len());

    let me = x
        .model
        .as_ref()
        .unwrap_or_else(|| panic!("{key}: model extras"));
    assert_eq!(me.subversion as f64, num(e, "model_ex_subv"), "{key}");
    let p = pairs(e["model_ex"].as_str().unwrap());
    let close = |a: f32, b: &str| (a - b.parse::<f32>().unwrap()).abs() < 1e-5;
    assert!(close(me.joint_size, pair(&p, "jointSize")), "{key}: {me:?}");
    assert_eq!(me.transparency_mode.to_string(), pair(&p, "transpMode"));
    assert!(close(me.alpha_ref, pair(&p, "alphaRef")), "{key}: {me:?}");
    assert_eq!(m.trailing.len() as f64, num(e, "trailing"), "{key}");

    // The sizes add up: comments + vertex records (subversion 3 files
    // written by MilkShape use 14-byte records) + joint colours + 16.
    let comment_bytes: usize = 4
        + [&c.groups, &c.materials, &c.joints]
            .iter()
            .map(|l| 4 + l.iter().map(|c| 8 + c.text.len()).sum::<usize>())
            .sum::<usize>()
        + 4
        + c.model.text().map_or(0, |t| 4 + t.len());
    let record = match v.subversion {
        1 => 6,
        2 => 10,
        _ => 14,
    };
    assert_eq!(v.record_size, record, "{key}: record size");
    let total = comment_bytes + 4 + record * m.vertices.len() + 4 + 12 * m.joints.len() + 16;
    assert_eq!(total, after_joints, "{key}: extras size");
}

#[test]
fn validate_matches_the_facts_problems() {
    let Some(corpus) = corpus_dir() else { return };
    let facts = facts(&corpus);
    for (key, path) in ms3d_files(&corpus) {
        let bytes = std::fs::read(&path).unwrap();
        let m = Ms3d::from_bytes(&bytes).unwrap();
        let problems = m.validate();
        let want = strings(&facts[&key], "problems");
        if want.is_empty() {
            assert!(problems.is_empty(), "{key}: {problems:#?}");
            assert!(Ms3d::from_bytes_strict(&bytes).is_ok(), "{key}");
            continue;
        }
        // The only faulty file: "group material idx 1 >= nmat 1".
        assert_eq!(key, "ms3d/assimp_InvalidMaterialIndex.ms3d");
        assert_eq!(want, ["group material idx 1 >= nmat 1"]);
        assert_eq!(problems.len(), 1, "{key}: {problems:#?}");
        let p = &problems[0];
        assert_eq!(p.severity, Severity::Warning);
        assert_eq!(p.path, "groups[0].material");
        // The offset points at the material byte, which holds 1.
        let at = p.offset.expect("offset") as usize;
        assert_eq!(bytes[at], 1, "{key}: offset {at}");
        assert!(Ms3d::from_bytes_strict(&bytes).is_err());
    }
}

#[test]
fn woman4_extras_and_its_maverick_reexport_agree_on_the_core() {
    let Some(corpus) = corpus_dir() else { return };
    let (_, a) = load_ms3d(&corpus, "glscene_Woman4.ms3d");
    let (_, b) = load_ms3d(&corpus, "mm3d_from_glscene_Woman4.ms3d");
    // Maverick writes no extras and drops the weights, but keeps the
    // skeleton: same joint names, parents and bind transforms.
    assert!(b.extras.comments.is_none() && b.extras.vertices.is_none());
    assert_eq!(a.joints.len(), b.joints.len());
    for (ja, jb) in a.joints.iter().zip(&b.joints) {
        assert_eq!(ja.name.as_bytes(), jb.name.as_bytes());
        assert_eq!(ja.parent.as_bytes(), jb.parent.as_bytes());
        for k in 0..3 {
            assert!((ja.position[k] - jb.position[k]).abs() < 1e-3);
        }
    }
    // Woman4's model comment is the full {length, text} string, CRLF lines.
    let comment = a.model_comment().unwrap();
    assert_eq!(comment.lines().count(), 7, "{comment:?}");
    assert!(comment.ends_with("splitDsq=0\r\n"), "{comment:?}");
}
