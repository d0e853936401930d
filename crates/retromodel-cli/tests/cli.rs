//! Runs the built `retromodel` binary in temporary folders and checks its
//! output, exit codes and files against facts read independently (the
//! sample's header bytes, the corpus's facts.json).

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::{run_os, sample};
use retromodel_testkit::corpus::corpus_dir;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn header_field(bytes: &[u8], i: usize) -> i64 {
    i32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()).into()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn info_json_matches_the_header_bytes() {
    let bytes = std::fs::read(sample()).unwrap();
    let j = json(&run(&["info", "--json", sample().to_str().unwrap()]));
    assert_eq!(j["format"], "md2");
    assert_eq!(j["version"], 8);
    assert_eq!(j["skin_width"], header_field(&bytes, 2));
    assert_eq!(j["skin_height"], header_field(&bytes, 3));
    assert_eq!(j["skins"], serde_json::json!(["sample.pcx"]));
    assert_eq!(j["vertices"], header_field(&bytes, 6));
    assert_eq!(j["texcoords"], header_field(&bytes, 7));
    assert_eq!(j["triangles"], header_field(&bytes, 8));
    assert_eq!(j["frames"], header_field(&bytes, 10));
    assert_eq!(j["gl_command_words"], header_field(&bytes, 9));
    assert_eq!(
        j["animations"],
        serde_json::json!([
            {"name": "stand", "first_frame": 0, "frame_count": 10},
            {"name": "run", "first_frame": 10, "frame_count": 6}
        ])
    );
    assert_eq!(j["warnings"], serde_json::json!([]));
}

#[test]
fn info_json_matches_facts_for_every_corpus_md2() {
    let Some(dir) = corpus_dir() else { return };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("facts.json")).unwrap()).unwrap();
    let mut checked = 0;
    for (name, f) in facts.as_object().unwrap() {
        if f["fmt"] != "MD2" {
            continue;
        }
        let path = dir.join(name);
        let j = json(&run(&["info", "--json", path.to_str().unwrap()]));
        for (ours, theirs) in [
            ("skin_width", "skin_w"),
            ("skin_height", "skin_h"),
            ("vertices", "verts"),
            ("texcoords", "st"),
            ("triangles", "tris"),
            ("frames", "frames"),
            ("gl_command_words", "glcmds"),
            ("version", "version"),
        ] {
            assert_eq!(j[ours], f[theirs], "{name}: {ours}");
        }
        // facts.json lists at most the first eight skin names.
        let skins = j["skins"].as_array().unwrap();
        assert_eq!(skins.len() as u64, f["skins"].as_u64().unwrap(), "{name}");
        let listed = f["skin_names"].as_array().unwrap();
        assert!(!listed.is_empty() || skins.is_empty(), "{name}");
        assert_eq!(&skins[..listed.len()], &listed[..], "{name}");
        // facts.json "gl": "strips=30 fans=166 glverts=1046 ..."
        if let Some(gl) = f["gl"].as_str() {
            let get = |key: &str| -> u64 {
                gl.split_whitespace()
                    .find_map(|kv| kv.strip_prefix(key))
                    .and_then(|v| v.parse().ok())
                    .unwrap()
            };
            assert_eq!(j["gl_commands"], get("strips=") + get("fans="), "{name}");
            assert_eq!(j["gl_vertices"], get("glverts="), "{name}");
        }
        checked += 1;
    }
    assert!(checked >= 28, "only {checked} MD2 files in facts.json");
}

#[test]
fn info_text_names_the_animations() {
    let out = run(&["info", sample().to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("MD2 version 8"), "{text}");
    assert!(text.contains("stand") && text.contains("run"), "{text}");
}

#[test]
fn validate_exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let good = sample();
    assert_eq!(
        run(&["validate", good.to_str().unwrap()]).status.code(),
        Some(0)
    );
    assert_eq!(run(&["validate"]).status.code(), Some(2), "usage error");
    assert_eq!(
        run(&["validate", "--bogus", good.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );

    // A truncated file fails, with the section and offset named.
    let bytes = std::fs::read(&good).unwrap();
    let cut = tmp.path().join("cut.md2");
    std::fs::write(&cut, &bytes[..1000]).unwrap();
    let out = run(&["validate", good.to_str().unwrap(), cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cut.md2: error: "), "{text}");
    assert!(text.contains("offset 0x"), "{text}");
    assert!(text.contains("sample.md2: ok"), "{text}");

    // A warning passes leniently and fails with --strict.
    let mut bad_normal = bytes.clone();
    let ofs_frames = header_field(&bytes, 14) as usize;
    bad_normal[ofs_frames + 40 + 3] = 200; // frame 0 vertex 0 normal index
    let warn = tmp.path().join("warn.md2");
    std::fs::write(&warn, &bad_normal).unwrap();
    let out = run(&["validate", warn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!(
        "frames[0].vertices[0].normal_index: normal index 200 out of range 0..162 at offset {:#x}",
        ofs_frames + 43
    );
    assert!(text.contains(&expected), "{text}");
    assert_eq!(
        run(&["validate", "--strict", warn.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );

    // A missing file is a failure of that file, not a crash.
    let out = run(&["validate", tmp.path().join("nope.md2").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
}

fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn convert_is_lossless_and_never_clobbers() {
    let tmp = tempfile::tempdir().unwrap();
    let input = sample();
    let out_path = tmp.path().join("out.md2");
    let out_str = out_path.to_str().unwrap();
    let status = run(&["convert", input.to_str().unwrap(), out_str]).status;
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        std::fs::read(&input).unwrap()
    );

    // An existing output is kept unless --force.
    std::fs::write(&out_path, b"precious").unwrap();
    let out = run(&["convert", input.to_str().unwrap(), out_str]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
    assert_eq!(std::fs::read(&out_path).unwrap(), b"precious");
    assert_eq!(
        run(&["convert", "--force", input.to_str().unwrap(), out_str])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        std::fs::read(&input).unwrap()
    );

    // A corrupt input leaves no output and no temporary file behind.
    let corrupt = tmp.path().join("corrupt.md2");
    std::fs::write(&corrupt, &std::fs::read(&input).unwrap()[..500]).unwrap();
    let before = dir_entries(tmp.path());
    let out = run(&[
        "convert",
        corrupt.to_str().unwrap(),
        tmp.path().join("new.md2").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line per problem: {stderr}");
    assert_eq!(dir_entries(tmp.path()), before);

    // Unsupported output formats are refused up front.
    let out = run(&[
        "convert",
        input.to_str().unwrap(),
        tmp.path().join("x.fbx").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!tmp.path().join("x.fbx").exists());
}

#[test]
fn convert_keeps_non_standard_files_losslessly() {
    let Some(dir) = corpus_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // GL commands stored first: not the standard layout.
    let input = dir.join("md2/ufoai_objects_vegi_fern_fern.md2");
    let original = std::fs::read(&input).unwrap();
    let exact = tmp.path().join("exact.md2");
    let std_out = tmp.path().join("std.md2");
    let r = run(&[
        "convert",
        "--layout",
        "original",
        input.to_str().unwrap(),
        exact.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(std::fs::read(&exact).unwrap(), original);
    assert_eq!(
        run(&[
            "convert",
            input.to_str().unwrap(),
            std_out.to_str().unwrap()
        ])
        .status
        .code(),
        Some(0)
    );
    let rewritten = std::fs::read(&std_out).unwrap();
    assert_eq!(rewritten.len(), original.len());
    // Same sections, now in the standard order: skins right after the header.
    let ofs_skins = header_field(&original, 11) as usize;
    assert_eq!(header_field(&rewritten, 11), 68);
    assert_eq!(
        &rewritten[68..68 + 64],
        &original[ofs_skins..ofs_skins + 64]
    );
}

#[test]
fn convert_repair_fixes_what_validate_warns_about() {
    let tmp = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(sample()).unwrap();
    let ofs_frames = header_field(&bytes, 14) as usize;
    let ofs_tris = header_field(&bytes, 13) as usize;
    let num_tris = header_field(&bytes, 8) as usize;
    bytes[ofs_frames + 40 + 4 * 7 + 3] = 170; // frame 0, vertex 7: bad normal
    bytes[ofs_tris + 2..ofs_tris + 4].copy_from_slice(&0xffffu16.to_le_bytes()); // triangle 0
    let broken = tmp.path().join("broken.md2");
    let fixed = tmp.path().join("fixed.md2");
    std::fs::write(&broken, &bytes).unwrap();
    assert_eq!(
        run(&["validate", "--strict", broken.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    let out = run(&[
        "convert",
        "--repair",
        broken.to_str().unwrap(),
        fixed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("dropped 1 triangles, fixed 1 normals"));
    assert_eq!(
        run(&["validate", "--strict", fixed.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    let repaired = std::fs::read(&fixed).unwrap();
    assert_eq!(header_field(&repaired, 8) as usize, num_tris - 1);
}

#[test]
fn info_json_matches_facts_for_every_corpus_ms3d() {
    let Some(dir) = corpus_dir() else { return };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("facts.json")).unwrap()).unwrap();
    let mut checked = 0;
    for (name, f) in facts.as_object().unwrap() {
        if f["fmt"] != "MS3D" {
            continue;
        }
        let path = dir.join(name);
        let j = json(&run(&["info", "--json", path.to_str().unwrap()]));
        assert_eq!(j["format"], "ms3d");
        for (ours, theirs) in [
            ("version", "version"),
            ("vertices", "verts"),
            ("triangles", "tris"),
            ("groups", "groups"),
            ("materials", "materials"),
            ("joints", "joints"),
            ("fps", "fps"),
            ("total_frames", "total_frames"),
        ] {
            assert_eq!(j[ours], f[theirs], "{name}: {ours}");
        }
        // facts.json gives a prefix of the model comment.
        match f["extras"]["model_comment"].as_str() {
            Some(prefix) => assert!(
                j["model_comment"].as_str().unwrap().starts_with(prefix),
                "{name}"
            ),
            None => assert!(j["model_comment"].is_null(), "{name}"),
        }
        let problems = f["problems"].as_array().unwrap();
        assert_eq!(
            j["warnings"].as_array().unwrap().len(),
            problems.len(),
            "{name}"
        );
        // The rewrite is byte-identical.
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out.ms3d");
        assert_eq!(
            run(&["convert", path.to_str().unwrap(), out.to_str().unwrap()])
                .status
                .code(),
            Some(0)
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&path).unwrap(),
            "{name}"
        );
        checked += 1;
    }
    assert!(checked >= 19, "only {checked} MS3D files in facts.json");
}

#[test]
fn ms3d_validate_and_cross_format_refusal() {
    let Some(dir) = corpus_dir() else { return };
    let bad = dir.join("ms3d/assimp_InvalidMaterialIndex.ms3d");
    let out = run(&["validate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "warnings pass");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("groups[0].material: material index 1 out of range -1..1"),
        "{text}"
    );
    assert_eq!(
        run(&["validate", "--strict", bad.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    let tmp = tempfile::tempdir().unwrap();
    // MS3D to MD2 compiles (a real model), but this file's one triangle
    // is degenerate: nothing to draw, and the message says so. MD2 to MS3D
    // compiles, its vertex animation (which MilkShape cannot hold) left
    // out with a warning.
    let out = run(&[
        "convert",
        bad.to_str().unwrap(),
        tmp.path().join("x.md2").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to draw"));
    let jeep = dir.join("ms3d/assimpdeb_jeep1.ms3d");
    let out = run(&[
        "convert",
        jeep.to_str().unwrap(),
        tmp.path().join("jeep.md2").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let md2 = std::fs::read(tmp.path().join("jeep.md2")).unwrap();
    assert_eq!(&md2[..4], b"IDP2");
    let out = run(&[
        "convert",
        sample().to_str().unwrap(),
        tmp.path().join("x.ms3d").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("morph targets"), "{err}");
    let ms3d = std::fs::read(tmp.path().join("x.ms3d")).unwrap();
    assert_eq!(&ms3d[..14], b"MS3D000000\x04\0\0\0");
    // A clip beyond the timeline is reported as such.
    let woman = dir.join("ms3d/glscene_Woman4.ms3d");
    let j = json(&run(&[
        "info",
        "--json",
        "--clip",
        "tail:2000-2200",
        woman.to_str().unwrap(),
    ]));
    assert_eq!(j["clips"][0]["name"], "timeline");
    assert_eq!(j["clips"][0]["last_frame"], 2133.0);
    assert_eq!(j["clips"][1]["within_timeline"], false);
    assert_eq!(
        run(&["info", "--clip", "bad", woman.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
}

/// `validate --engine NAME` answers "will this load in NAME?": UFO:AI's
/// 1007-frame soldier is over id's limits (512 frames, 2 MiB of model
/// memory) but within UFO:AI's; an unknown engine is a usage error, and a
/// non-MD2 file an error line.
#[test]
fn validate_engine_answers_will_it_load() {
    let Some(dir) = corpus_dir() else { return };
    let soldier = dir.join("md2/ufoai_soldiers_male_body.md2");
    let soldier = soldier.to_str().unwrap();
    let out = run(&["validate", "--engine", "quake2", soldier]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1007 frames exceed Quake II's limit of 512 (by 495)"),
        "{text}"
    );
    let out = run(&["validate", "--engine", "ufoai", soldier]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = run(&["validate", "--engine", "doom", soldier]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown (known: quake2"));
    let jeep = dir.join("ms3d/assimpdeb_jeep1.ms3d");
    let out = run(&["validate", "--engine", "q2pro", jeep.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MS3D is not MD2"));
}

/// `validate --engine`: an MD2 whose GL commands run past the end of the
/// file (the sample cut by 8 bytes, `ofs_end` set to the new length) loads
/// in Q2PRO, which never reads GL commands (src/refresh/models.c,
/// MOD_LoadMD2): a warning and exit 0; id's Quake II copies them
/// (ref_gl/gl_model.c, Mod_LoadAliasModel): a refusal and exit 1.
#[test]
fn validate_engine_warns_of_damage_the_engine_never_reads() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(sample()).unwrap();
    // GL commands last in the sample's standard layout.
    let ofs_gl = header_field(&bytes, 15) as usize;
    let num_gl = header_field(&bytes, 9) as usize;
    assert_eq!(ofs_gl + 4 * num_gl, bytes.len(), "GL commands end the file");
    let len = bytes.len() - 8;
    bytes.truncate(len);
    bytes[64..68].copy_from_slice(&(len as i32).to_le_bytes());
    let file = dir.path().join("cut.md2");
    std::fs::write(&file, &bytes).unwrap();
    let file = file.to_str().unwrap();
    let out = run(&["validate", "--engine", "q2pro", file]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("warning: header.ofs_gl_commands:"), "{text}");
    assert!(text.contains("Q2PRO never reads them"), "{text}");
    assert!(text.contains("ok (1 warning)"), "{text}");
    assert!(!text.contains("::"), "{text}");
    let out = run(&["validate", "--engine", "quake2", file]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error: header.ofs_gl_commands:"), "{text}");
    // --strict makes the warning a failure.
    let out = run(&["validate", "--strict", "--engine", "q2pro", file]);
    assert_eq!(out.status.code(), Some(1));
}

/// `validate --engine` with a Quake engine on an MD2: one error saying
/// that engine loads no MD2 files (and what it loads), exit 1.
#[test]
fn validate_engine_says_a_quake_engine_does_not_load_md2() {
    let out = run(&[
        "validate",
        "--engine",
        "vkquake",
        sample().to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "error: format: vkQuake does not load MD2 files: it loads Quake MDL, MD5 and MD3"
        ),
        "{text}"
    );
    // Compiling an MD2 for a Quake engine is refused the same way.
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("t.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let md2 = dir.path().join("t.md2");
    let out = run(&[
        "convert",
        "--engine",
        "glquake",
        obj.to_str().unwrap(),
        md2.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("GLQuake does not load MD2 files"), "{err}");
    assert!(!md2.exists());
}

/// `validate --engine quake-rerelease x.md5mesh`: the MD5 as Ironwail and
/// vkQuake load a replacement, with the md5anim named like it; a joint
/// the anim renames is an error naming what Ironwail does.
#[test]
fn validate_quake_rerelease_checks_an_md5_replacement() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = dir.path().join("ogre.md5mesh");
    std::fs::write(
        &mesh,
        "MD5Version 10 commandline \"\" numJoints 2 numMeshes 1
joints { \"root\" -1 ( 0 0 0 ) ( 0 0 0 ) \"arm\" 0 ( 1 0 0 ) ( 0 0 0 ) }
mesh { shader \"ogre\" numverts 3
 vert 0 ( 0 0 ) 0 1 vert 1 ( 1 0 ) 1 1 vert 2 ( 0 1 ) 2 1
 numtris 1 tri 0 0 1 2
 numweights 3 weight 0 0 1 ( 0 0 0 ) weight 1 1 1 ( 1 0 0 ) weight 2 0 1 ( 0 1 0 ) }",
    )
    .unwrap();
    let anim = |second: &str| {
        format!(
            "MD5Version 10 commandline \"\" numFrames 1 numJoints 2 frameRate 10
numAnimatedComponents 0 hierarchy {{ \"root\" -1 0 0 \"{second}\" 0 0 0 }}
bounds {{ ( 0 0 0 ) ( 2 1 0 ) }} baseframe {{ ( 0 0 0 ) ( 0 0 0 ) ( 1 0 0 ) ( 0 0 0 ) }} frame 0 {{ }}"
        )
    };
    let animation = dir.path().join("ogre.md5anim");
    let mesh = mesh.to_str().unwrap();
    std::fs::write(&animation, anim("arm")).unwrap();
    let out = run(&["validate", "--engine", "quake-rerelease", mesh]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    std::fs::write(&animation, anim("leg")).unwrap();
    let out = run(&["validate", "--engine", "quake-rerelease", mesh]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("Ironwail refuses the pair"), "{text}");
    assert!(!text.contains("::"), "{text}");
}

/// `validate --engine quake-rerelease progs/ogre.mdl` with
/// `progs/ogre.md5mesh` and `ogre.md5anim` beside it: the pair as the
/// ports load it. A one-frame md5anim for an MDL of many frames is a
/// warning naming the MDL's frame count (from the corpus's independent
/// facts); the same check from the md5mesh's side finds the MDL; without
/// the MD5 the MDL is checked alone.
#[test]
fn validate_quake_rerelease_checks_an_mdl_with_its_md5() {
    let Some(corpus) = corpus_dir() else { return };
    let facts: serde_json::Value = serde_json::from_slice(
        &std::fs::read(corpus.join("mdl/facts.json")).expect("mdl/facts.json"),
    )
    .unwrap();
    let frames = facts["c0burn_progs_ogre.mdl"]["frames"].as_u64().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let progs = dir.path().join("progs");
    std::fs::create_dir(&progs).unwrap();
    let mdl = progs.join("ogre.mdl");
    std::fs::copy(corpus.join("mdl/c0burn_progs_ogre.mdl"), &mdl).unwrap();
    let mdl = mdl.to_str().unwrap();
    let alone = run(&["validate", "--engine", "quake-rerelease", mdl]);
    let text = String::from_utf8_lossy(&alone.stdout);
    assert_eq!(alone.status.code(), Some(0), "{text}");
    assert!(!text.contains("md5"), "{text}");

    let mesh = progs.join("ogre.md5mesh");
    std::fs::write(
        &mesh,
        "MD5Version 10 commandline \"\" numJoints 1 numMeshes 1
joints { \"root\" -1 ( 0 0 0 ) ( 0 0 0 ) }
mesh { shader \"ogre\" numverts 3
 vert 0 ( 0 0 ) 0 1 vert 1 ( 1 0 ) 1 1 vert 2 ( 0 1 ) 2 1
 numtris 1 tri 0 0 1 2
 numweights 3 weight 0 0 1 ( 0 0 0 ) weight 1 0 1 ( 1 0 0 ) weight 2 0 1 ( 0 1 0 ) }",
    )
    .unwrap();
    std::fs::write(
        progs.join("ogre.md5anim"),
        "MD5Version 10 commandline \"\" numFrames 1 numJoints 1 frameRate 10
numAnimatedComponents 0 hierarchy { \"root\" -1 0 0 }
bounds { ( 0 0 0 ) ( 2 1 0 ) } baseframe { ( 0 0 0 ) ( 0 0 0 ) } frame 0 { }",
    )
    .unwrap();
    let wanted = format!("fewer than the MDL's {frames}");
    let pair = run(&["validate", "--engine", "quake-rerelease", mdl]);
    let text = String::from_utf8_lossy(&pair.stdout);
    assert_eq!(pair.status.code(), Some(0), "{text}");
    assert!(text.contains(&wanted) && text.contains("md5."), "{text}");
    let from_mesh = run(&[
        "validate",
        "--engine",
        "quake-rerelease",
        mesh.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&from_mesh.stdout);
    assert!(text.contains(&wanted), "{text}");
    assert!(!text.contains("::"), "{text}");
}
