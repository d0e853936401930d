//! `convert IN OUT.ms3d` from glTF and OBJ (through `ms3d::compile`), as a
//! MilkShape user runs it: counts read from the written bytes (the MS3D
//! header's fields), clips and animations from `info --json` of the source
//! and of the model converted back to glTF, texture files beside the
//! output, `validate --strict --engine milkshape` on every MS3D written.

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::{run_os, sample};
use retromodel_testkit::corpus::corpus_dir;
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The MS3D header's counts: (vertices, triangles), read from the bytes
/// (MS3D000000, version i32, then u16 vertex count; the triangle count
/// follows the 15-byte vertex records).
fn counts(path: &Path) -> (usize, usize) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..10], b"MS3D000000");
    assert_eq!(i32::from_le_bytes(b[10..14].try_into().unwrap()), 4);
    let v = usize::from(u16::from_le_bytes([b[14], b[15]]));
    let at = 16 + 15 * v;
    let t = usize::from(u16::from_le_bytes([b[at], b[at + 1]]));
    (v, t)
}

fn validate_milkshape(path: &Path) {
    let o = run(&[
        "validate",
        "--strict",
        "--engine",
        "milkshape",
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        stderr(&o)
    );
}

#[test]
fn blenders_walker_becomes_an_ms3d_with_its_clips_texture_and_report() {
    let Some(corpus) = corpus_dir() else { return };
    let src = corpus.join("gltf/blender_walker.glb");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("walker.ms3d");
    let o = run(&["convert", src.to_str().unwrap(), out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // The report: one line for the model, one per animation.
    assert!(err.contains("keys (source"), "{err}");
    assert!(err.contains("idle") && err.contains("walk"), "{err}");
    // The texture beside it, named after the model and relatively in the
    // material, as MilkShape names the textures beside a model.
    let png = std::fs::read(tmp.path().join("walker.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let bytes = std::fs::read(&out).unwrap();
    assert!(
        bytes.windows(13).any(|w| w == b".\\walker.png\0"),
        "texture name"
    );
    let source = json(&run(&["info", "--json", src.to_str().unwrap()]));
    let (v, t) = counts(&out);
    assert_eq!(t as u64, source["triangles"].as_u64().unwrap());
    assert!(v > 0 && v as u64 <= source["vertices"].as_u64().unwrap());
    validate_milkshape(&out);
    // `info` lists the clips, one per source animation, as long as it.
    let info = json(&run(&["info", "--json", out.to_str().unwrap()]));
    let clips = info["clips"].as_array().unwrap();
    let anims = source["animations"].as_array().unwrap();
    assert_eq!(clips.len(), anims.len() + 1, "{clips:?}"); // the timeline first
    for (c, a) in clips[1..].iter().zip(anims) {
        assert_eq!(c["name"], a["name"]);
        let (cs, asec) = (
            c["seconds"].as_f64().unwrap(),
            a["seconds"].as_f64().unwrap(),
        );
        assert!((cs - asec).abs() < 1.0 / 24.0, "{c} vs {a}");
    }
    // Back to glTF: the animations come apart again.
    let back = tmp.path().join("back.glb");
    let o = run(&["convert", out.to_str().unwrap(), back.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let back = json(&run(&["info", "--json", back.to_str().unwrap()]));
    let names = |v: &Value| -> Vec<String> {
        v["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&back), names(&source));
    // Our reader finds the texture by its relative name (`.\\walker.png`).
    assert_eq!(
        back["textures"][0][1],
        Value::Bool(true),
        "{}",
        back["textures"]
    );
    // --json puts the report on stdout.
    let again = tmp.path().join("again.ms3d");
    let o = run(&[
        "convert",
        "--json",
        src.to_str().unwrap(),
        again.to_str().unwrap(),
    ]);
    let report = json(&o);
    assert_eq!(report["triangles"].as_u64().unwrap() as usize, t);
    assert_eq!(report["animations"].as_array().unwrap().len(), anims.len());
}

#[test]
fn assimps_simple_skin_gltf_converts_to_ms3d() {
    let src = Path::new("/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf");
    if !src.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "assimp-testmodels missing"
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("simple_skin.ms3d");
    let o = run(&["convert", src.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(counts(&out), (10, 8));
    validate_milkshape(&out);
}

#[test]
fn a_folder_converts_to_ms3d_and_an_obj_too() {
    let Some(corpus) = corpus_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for f in [
        "blender_walker.glb",
        "blender_walker.mtl",
        "blender_walker_checker.png",
    ] {
        std::fs::copy(corpus.join("gltf").join(f), input.join(f)).unwrap();
    }
    std::fs::copy(
        corpus.join("gltf/blender_walker.obj"),
        input.join("obj_walker.obj"),
    )
    .unwrap();
    std::fs::copy(
        corpus.join("gltf/blender_walker.glb"),
        input.join("copy.glb"),
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = run(&[
        "convert",
        input.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--to",
        "ms3d",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let written: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ms3d"))
        .collect();
    assert!(
        written.contains(&"copy.ms3d".to_string()),
        "{written:?}: {err}"
    );
    assert!(out.join("copy.png").is_file() && out.join("blender_walker.png").is_file());
    for name in &written {
        let path = out.join(name);
        let (_, t) = counts(&path);
        assert!(t > 0);
        validate_milkshape(&path);
    }
}

#[test]
fn milkshape_validation_names_what_is_not_ms3d() {
    let o = run(&[
        "validate",
        "--engine",
        "milkshape",
        sample().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("is not MS3D"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_cut_glb_is_an_error_that_writes_nothing() {
    let Some(corpus) = corpus_dir() else { return };
    let bytes = std::fs::read(corpus.join("gltf/blender_walker.glb")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut.glb");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = tmp.path().join("cut.ms3d");
    let o = run(&["convert", cut.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cut.glb"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// `--anim` chooses and orders the animations an MS3D's timeline holds
/// (as for .md2 output); a name the source lacks is an error naming it;
/// an MS3D rewritten as read takes no `--anim`.
#[test]
fn anim_chooses_the_clips_of_a_compiled_ms3d() {
    let Some(corpus) = corpus_dir() else { return };
    let src = corpus.join("gltf/blender_walker.glb");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("walk.ms3d");
    let o = run(&[
        "convert",
        "--anim",
        "walk",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let info = json(&run(&["info", "--json", out.to_str().unwrap()]));
    let clips = info["clips"].as_array().unwrap();
    let names: Vec<&str> = clips[1..]
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["walk"], "{clips:?}");

    let missing = tmp.path().join("missing.ms3d");
    let o = run(&[
        "convert",
        "--anim",
        "no-such-animation",
        src.to_str().unwrap(),
        missing.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no-such-animation"), "{}", stderr(&o));
    assert!(!missing.exists());

    let copy = tmp.path().join("copy.ms3d");
    let o = run(&[
        "convert",
        "--anim",
        "walk",
        out.to_str().unwrap(),
        copy.to_str().unwrap(),
    ]);
    assert_ne!(o.status.code(), Some(0));
    assert!(!copy.exists());
}

#[test]
fn gbk_names_and_a_none_parent_survive_ms3d_to_glb_to_ms3d() {
    use retromodel_testkit::ms3d_builder::{field, full_spec};
    use retromodel_testkit::ms3d_fields::fields;
    // GBK 中文 (bytes after its NUL too), 手臂, 身体; a root whose parent
    // field says `none`.
    let mut zhongwen = field::<32>(&[0xd6, 0xd0, 0xce, 0xc4]);
    zhongwen[10] = 0x7f;
    let shoubi = field::<32>(&[0xca, 0xd6, 0xb1, 0xdb]);
    let mut spec = full_spec();
    spec.joints[0].name = zhongwen;
    spec.joints[0].parent = field(b"none");
    spec.joints[1].name = shoubi;
    spec.joints[1].parent = zhongwen;
    spec.joints[2].parent = shoubi;
    spec.groups[0].name = field(&[0xc9, 0xed, 0xcc, 0xe5]);
    spec.materials[0].name = field(&[0xc4, 0xbe, 0xcd, 0xb7]);
    let (bytes, _) = spec.build();
    let tmp = tempfile::tempdir().unwrap();
    let (src, glb, back) = (
        tmp.path().join("gbk.ms3d"),
        tmp.path().join("gbk.glb"),
        tmp.path().join("back.ms3d"),
    );
    std::fs::write(&src, &bytes).unwrap();
    for (a, b) in [(&src, &glb), (&glb, &back)] {
        let o = run(&["convert", a.to_str().unwrap(), b.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let f = fields(&std::fs::read(&back).unwrap());
    let expected: Vec<_> = spec.joints.iter().map(|j| (j.name, j.parent)).collect();
    assert_eq!(f.joints, expected);
    assert_eq!(f.groups[0].0, spec.groups[0].name);
    assert_eq!(f.materials[0].0, spec.materials[0].name);
    assert_eq!(f.materials[1].0, spec.materials[1].name);
}
