//! Names that are not UTF-8 and names of nothing, through glTF and back:
//! MS3D → `Scene::from_ms3d` → GLB → `gltf::import` → `ms3d::compile`
//! keeps every name field (joints, parents, groups, materials, texture
//! and alpha map paths) and comment byte for byte: GBK names (as Chinese
//! tools write them), bytes after the NUL, a root whose parent field says
//! `none`. Names a user changed win; records that cannot be read are
//! ignored with a warning.
//!
//! The expected bytes are the fields the test wrote (testkit's MS3D
//! builder) or the corpus file's own bytes, and the output's fields are
//! read here straight from the written file with the offsets of
//! `shared/formats/MS3D.md` (testkit's `ms3d_fields`), not through the
//! crate's reader.

#![cfg(feature = "gltf")]

use std::path::Path;
use std::process::Command;

use retromodel::gltf::{import, to_glb, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions, Ms3dCompileWarning};
use retromodel::ms3d::Ms3d;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;
use retromodel_testkit::corpus::{corpus_dir, ms3d_files};
use retromodel_testkit::glb::parse_glb;
use retromodel_testkit::ms3d_builder::{field, full_spec, SJoint, SModelComment, Spec};
use retromodel_testkit::ms3d_fields::{fields, Fields};
use serde_json::json;

/// A 32-byte field: `text`, its NUL, then `tail`.
fn with_tail(text: &[u8], tail: &[u8]) -> [u8; 32] {
    let mut f = [0u8; 32];
    f[..text.len()].copy_from_slice(text);
    f[text.len() + 1..text.len() + 1 + tail.len()].copy_from_slice(tail);
    f
}

// GBK: 中文 (its lossy decoding is four U+FFFD), 文中 (the same text),
// 手臂, 身体, 木头, and a comment 注释.
const ZHONGWEN: &[u8] = &[0xd6, 0xd0, 0xce, 0xc4];
const WENZHONG: &[u8] = &[0xce, 0xc4, 0xd6, 0xd0];
const SHOUBI: &[u8] = &[0xca, 0xd6, 0xb1, 0xdb];
const SHENTI: &[u8] = &[0xc9, 0xed, 0xcc, 0xe5];
const MUTOU: &[u8] = &[0xc4, 0xbe, 0xcd, 0xb7];
const ZHUSHI: &[u8] = &[0xd7, 0xa2, 0xca, 0xcd];

/// The testkit's full model with GBK names everywhere, bytes after NULs,
/// and a root whose parent field says `none`.
fn gbk_spec() -> Spec {
    let mut s = full_spec();
    s.joints[0].name = with_tail(ZHONGWEN, b"\x7fjunk");
    s.joints[0].parent = field(b"none");
    s.joints[1].name = field(SHOUBI);
    // The parent field names 中文 with other bytes after the NUL.
    s.joints[1].parent = with_tail(ZHONGWEN, b"other");
    // 文中 decodes to the same text as 中文.
    s.joints[2].name = field(WENZHONG);
    s.joints[2].parent = field(SHOUBI);
    let mut extra = SJoint::new("", "", [0.0; 3], [0.0, 0.0, 1.0]);
    extra.name = field(b"tip");
    extra.parent = field(WENZHONG);
    s.joints.push(extra);
    if let Some(c) = &mut s.joint_extras {
        c.colors.push([1.0, 1.0, 1.0]);
    }
    s.groups[0].name = with_tail(SHENTI, b"\x01\x02");
    s.materials[0].name = field(MUTOU);
    let mut path = b".\\".to_vec();
    path.extend_from_slice(MUTOU);
    path.extend_from_slice(b".bmp");
    s.materials[0].texture = field(&path);
    s.materials[0].alphamap = field(&path);
    s.materials[1].name = with_tail(b"metal", b"left behind");
    let c = s.comments.as_mut().unwrap();
    c.groups = vec![(0, ZHUSHI.to_vec())];
    c.joints = vec![(1, [b"arm ", ZHUSHI].concat())];
    c.model = SModelComment::LenText([ZHUSHI, b"\r\nmodel"].concat());
    s
}

/// MS3D bytes → scene → GLB → scene.
fn through_glb(bytes: &[u8]) -> (Vec<u8>, Scene) {
    let model = Ms3d::from_bytes(bytes).expect("reads");
    let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).expect("scene");
    let glb = to_glb(&scene).expect("export");
    let back = import(&glb, None, &ImportOptions::default())
        .expect("import")
        .scene;
    (glb, back)
}

/// A scene compiled to MS3D bytes, and the warnings.
fn compiled(scene: &Scene) -> (Vec<u8>, Vec<Ms3dCompileWarning>) {
    let c = compile(scene, &Ms3dCompileOptions::default()).expect("compile");
    (c.model.to_bytes().expect("writes"), c.warnings)
}

#[test]
fn gbk_names_and_a_none_parent_come_back_byte_for_byte() {
    let spec = gbk_spec();
    let (bytes, _) = spec.build();
    let (_, scene) = through_glb(&bytes);
    let (out, warnings) = compiled(&scene);
    assert!(
        !warnings
            .iter()
            .any(|w| matches!(w, Ms3dCompileWarning::NameShortened { .. })),
        "{warnings:?}"
    );
    let f = fields(&out);
    let expected: Vec<_> = spec.joints.iter().map(|j| (j.name, j.parent)).collect();
    assert_eq!(f.joints, expected, "joint and parent fields");
    let groups: Vec<[u8; 32]> = f.groups.iter().filter(|g| g.1).map(|g| g.0).collect();
    assert_eq!(
        groups,
        vec![spec.groups[0].name],
        "the group with triangles"
    );
    for (k, m) in spec.materials.iter().enumerate() {
        assert_eq!(f.materials[k].0, m.name, "materials[{k}].name");
        assert_eq!(f.materials[k].1, m.texture, "materials[{k}].texture");
        assert_eq!(f.materials[k].2, m.alphamap, "materials[{k}].alphamap");
    }
    let c = spec.comments.as_ref().unwrap();
    let [g, _, j] = f.comments.expect("comments");
    assert_eq!(g, c.groups, "group comments");
    assert_eq!(j, c.joints, "joint comments");
    let SModelComment::LenText(model) = &c.model else {
        unreachable!()
    };
    assert_eq!(f.model_comment.as_ref(), Some(model), "model comment");
    // Our reader resolves the parents as the original's: 中文 is the root.
    let back = Ms3d::from_bytes(&out).unwrap();
    let skeleton = retromodel::ms3d::Skeleton::new(&back).unwrap();
    assert_eq!(skeleton.parents(), &[None, Some(0), Some(1), Some(2)]);
}

#[test]
fn glb_names_are_text_and_the_khronos_validator_accepts_it() {
    let (bytes, _) = gbk_spec().build();
    let model = Ms3d::from_bytes(&bytes).unwrap();
    let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).unwrap();
    let glb = to_glb(&scene).unwrap();
    let doc = parse_glb(&glb);
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let names: Vec<&str> = doc.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str())
        .collect();
    // The names are the lossy text, never the hexadecimal.
    assert_eq!(
        &names[..4],
        [
            lossy(ZHONGWEN),
            lossy(SHOUBI),
            lossy(WENZHONG),
            "tip".to_string()
        ]
    );
    assert_eq!(doc.json["meshes"][0]["name"], json!(lossy(SHENTI)));
    assert_eq!(doc.json["materials"][0]["name"], json!(lossy(MUTOU)));
    // The stored bytes travel beside them.
    assert_eq!(
        doc.json["nodes"][0]["extras"]["ms3d"]["parent"],
        json!(format!("6e6f6e65{}", "00".repeat(28))),
        "`none`"
    );
    let validate = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../acceptance/validate.mjs");
    let modules = validate.with_file_name("node_modules/gltf-validator");
    if !modules.exists() || Command::new("node").arg("--version").output().is_err() {
        eprintln!("node or acceptance/node_modules missing: the Khronos validator is skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("retromodel-stored-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("gbk.glb");
    std::fs::write(&file, &glb).unwrap();
    let run = Command::new("node")
        .arg(&validate)
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        run.status.success(),
        "validator: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn names_changed_after_the_export_win() {
    let spec = gbk_spec();
    let (bytes, _) = spec.build();
    let (_, mut scene) = through_glb(&bytes);
    // Renamed in Blender: the new text no longer says the stored bytes.
    scene.nodes[1].name = "腰".to_string();
    scene.nodes[3].name = "x".repeat(40);
    scene.meshes[0].name = "torso".to_string();
    scene.materials[0].name = "oak".to_string();
    let (out, warnings) = compiled(&scene);
    let f = fields(&out);
    assert_eq!(f.joints[1].0, field("腰".as_bytes()), "UTF-8");
    assert_eq!(f.joints[2].1, field("腰".as_bytes()), "its child's parent");
    assert_eq!(f.joints[0], (spec.joints[0].name, spec.joints[0].parent));
    assert_eq!(f.joints[2].0, spec.joints[2].name, "not renamed: as stored");
    assert_eq!(f.joints[3].0, field(&[b'x'; 31]), "cut to 31 bytes");
    assert!(
        warnings.iter().any(|w| matches!(w,
            Ms3dCompileWarning::NameShortened { what, to, .. }
                if what == "joints[3].name" && to.len() == 31)),
        "{warnings:?}"
    );
    assert_eq!(f.groups[0].0, field(b"torso"));
    assert_eq!(f.materials[0].0, field(b"oak"));
}

#[test]
fn unreadable_records_are_ignored_with_a_warning() {
    let (bytes, _) = gbk_spec().build();
    let (_, mut scene) = through_glb(&bytes);
    scene.nodes[0].extras["ms3d"]["name"] = json!("not hex");
    scene.nodes[0].extras["ms3d"]["parent"] = json!("00");
    scene.nodes[1].extras = json!({ "ms3d": 5 });
    scene.nodes[2].extras["ms3d"]["name"] = json!(["d6d0"]);
    scene.meshes[0].extras["ms3d"]["name"] = json!("d".repeat(63));
    scene.materials[0].extras["ms3d"]["texture"] = json!("00".repeat(127));
    scene.extras["ms3d"]["comment"] = json!("f");
    let compiled = compile(&scene, &Ms3dCompileOptions::default()).expect("compile");
    let ignored: Vec<String> = compiled
        .warnings
        .iter()
        .filter_map(|w| match w {
            Ms3dCompileWarning::StoredNameIgnored { what, .. } => Some(what.clone()),
            _ => None,
        })
        .collect();
    for what in [
        "nodes[0].extras.ms3d.name",
        "nodes[0].extras.ms3d.parent",
        "nodes[1].extras.ms3d",
        "nodes[2].extras.ms3d.name",
        "meshes[0].extras.ms3d.name",
        "materials[0].extras.ms3d.texture",
        "scene.extras.ms3d.comment",
    ] {
        assert!(ignored.iter().any(|w| w == what), "{what}: {ignored:?}");
    }
    // Named by their text instead; messages name no Rust API.
    let out = compiled.model;
    assert_eq!(out.joints[0].name.to_string_lossy(), scene.nodes[0].name);
    assert!(compiled
        .warnings
        .iter()
        .all(|w| !w.to_string().contains("::")));
}

#[test]
fn corpus_joint_and_parent_fields_come_back_byte_for_byte() {
    let Some(dir) = corpus_dir() else { return };
    let files = ms3d_files(&dir);
    assert!(files.len() >= 10, "corpus MS3D files: {}", files.len());
    let mut failures = Vec::new();
    let mut joints = 0;
    for (key, path) in files {
        let bytes = std::fs::read(&path).unwrap();
        let (_, scene) = through_glb(&bytes);
        let (out, _) = compiled(&scene);
        let (a, b) = (fields(&bytes), fields(&out));
        if a.joints != b.joints {
            failures.push(format!("{key}: joints {:?}\n vs {:?}", a.joints, b.joints));
        }
        joints += a.joints.len();
        let filled = |f: &Fields| -> Vec<[u8; 32]> {
            f.groups.iter().filter(|g| g.1).map(|g| g.0).collect()
        };
        if filled(&a) != filled(&b) {
            failures.push(format!("{key}: group names"));
        }
        if a.materials != b.materials {
            failures.push(format!(
                "{key}: material names or paths {:?}\n vs {:?}",
                a.materials, b.materials
            ));
        }
    }
    assert!(joints >= 40, "joints checked: {joints}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
