//! MilkShape 3D ASCII through the CLI: recognised by content, `info`,
//! `validate`, binary ↔ text, StepMania's split files combined; counts
//! compared with the corpus's `ms3d_ascii/facts.json` (an independent
//! reader's).

use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::corpus_dir;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn ascii_files_are_read_converted_and_combined() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = corpus.join("ms3d_ascii");
    let facts: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("facts.json")).unwrap()).unwrap();
    let fact = |file: &str| -> serde_json::Value {
        facts["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["file"] == file)
            .cloned()
            .unwrap_or_else(|| panic!("{file} not in facts.json"))
    };
    let bend = dir.join("stepmania_bend.txt");
    let info = json(&run(&["info", "--json", bend.to_str().unwrap()]));
    assert_eq!(info["format"], "ms3d_ascii");
    let f = &fact("stepmania_bend.txt");
    assert_eq!(info["triangles"], f["triangles"], "{f}");
    assert_eq!(info["joints"], f["bones"], "{f}");
    assert_eq!(
        run(&["validate", "--strict", bend.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );

    // The same file under another name is still recognised by content.
    let tmp = tempfile::tempdir().unwrap();
    let renamed = tmp.path().join("bend.model");
    std::fs::copy(&bend, &renamed).unwrap();
    let info = json(&run(&["info", "--json", renamed.to_str().unwrap()]));
    assert_eq!(info["format"], "ms3d_ascii");

    // MS3D → text → MS3D keeps the model: same info (but the file size).
    let woman = corpus.join("ms3d/glscene_Woman4.ms3d");
    let txt = tmp.path().join("woman.txt");
    let back = tmp.path().join("woman.ms3d");
    assert!(
        run(&["convert", woman.to_str().unwrap(), txt.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        run(&["convert", txt.to_str().unwrap(), back.to_str().unwrap()])
            .status
            .success()
    );
    let (a, b) = (
        json(&run(&["info", "--json", woman.to_str().unwrap()])),
        json(&run(&["info", "--json", back.to_str().unwrap()])),
    );
    for key in [
        "triangles",
        "groups",
        "materials",
        "joints",
        "fps",
        "total_frames",
        "joint_names",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }

    // StepMania's split model: meshes + materials + bones.
    let meshes = dir.join("stepmania_dance_midi-note-3d__down tap note meshes.txt");
    let materials = dir.join("stepmania_dance_midi-note-3d__down Tap Note materials.txt");
    let bones = dir.join("stepmania_dance_midi-note-3d__down tap bones.txt");
    let info = json(&run(&["info", "--json", materials.to_str().unwrap()]));
    assert_eq!(info["materials"], 3, "a materials-only file: {info}");
    let combined = tmp.path().join("note.txt");
    let o = run(&[
        "convert",
        "--materials",
        materials.to_str().unwrap(),
        "--bones",
        bones.to_str().unwrap(),
        meshes.to_str().unwrap(),
        combined.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let info = json(&run(&["info", "--json", combined.to_str().unwrap()]));
    let all_in_one = &fact("stepmania_dance_midi-note-3d_tex_res_midi-note-3d.txt");
    assert_eq!(info["groups"], all_in_one["meshes"]);
    assert_eq!(info["materials"], all_in_one["materials"]);
    assert_eq!(info["triangles"], all_in_one["triangles"]);
    // --materials on a non-ASCII input is refused.
    let o = run(&[
        "convert",
        "--materials",
        materials.to_str().unwrap(),
        woman.to_str().unwrap(),
        tmp.path().join("x.glb").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("apply to MilkShape 3D ASCII"));
}

#[test]
fn batch_mode_takes_txt_files_only_when_they_are_models() {
    let Some(corpus) = corpus_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::copy(
        corpus.join("ms3d_ascii/stepmania_bend.txt"),
        input.join("bend.txt"),
    )
    .unwrap();
    std::fs::write(input.join("README.txt"), "Just some notes.\n").unwrap();
    let out = tmp.path().join("out");
    let o = run(&[
        "convert",
        input.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--to",
        "glb",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("converted 1, failed 0"));
    assert!(out.join("bend.glb").is_file());
}
