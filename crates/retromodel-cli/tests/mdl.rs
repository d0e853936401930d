//! `info`, `validate` and `convert x.mdl y.mdl` on Quake MDL files: a
//! hand-made one (the test kit's byte builder) and the corpus's. Facts
//! are checked against the bytes the test wrote or the file holds.

use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::mdl_bytes::tetra_quake;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn info_json_reports_what_the_bytes_hold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tetra.mdl");
    let mut bytes = tetra_quake();
    bytes[76..80].copy_from_slice(&(1i32 | 8).to_le_bytes()); // rocket, rotate
    std::fs::write(&path, &bytes).unwrap();
    let o = run(&["info", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["format"], "mdl");
    assert_eq!(j["variant"], "Quake");
    assert_eq!(j["vertices"], 4);
    assert_eq!(j["triangles"], 4);
    assert_eq!(j["frames"], 2);
    assert_eq!(j["simple_frames"], 3);
    assert_eq!(j["onseam"], 1);
    assert_eq!(j["flag_names"], serde_json::json!(["rocket", "rotate"]));
    let intervals: Vec<f32> = j["groups"][0]["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    assert_eq!(intervals, [0.1, 0.2]);
    assert_eq!(j["frame_names"], serde_json::json!(["stand1", "flick1"]));
    let o = run(&["info", path.to_str().unwrap()]);
    assert!(text(&o.stdout).contains("MDL (Quake) version 6"));
    assert!(text(&o.stdout).contains("flags         9 (rocket, rotate)"));
}

#[test]
fn validate_names_the_fault_and_convert_repairs_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.mdl");
    let mut bytes = tetra_quake();
    bytes[263] = 200; // frame 0, vertex 0's normal index
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    let o = run(&["validate", p]);
    let out = text(&o.stdout) + &text(&o.stderr);
    assert!(
        out.contains("warning: frames[0].vertices[0].normal_index: normal index 200 out of range 0..162 at offset 0x107"),
        "{out}"
    );
    let fixed = dir.path().join("fixed.mdl");
    let f = fixed.to_str().unwrap();
    let o = run(&["convert", p, f, "--repair"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("fixed normals: 1"),
        "{}",
        text(&o.stderr)
    );
    let written = std::fs::read(&fixed).unwrap();
    assert_eq!(written.len(), bytes.len());
    assert!(written[263] < 162);
    let o = run(&["validate", "--strict", f]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

#[test]
fn corpus_files_rewrite_byte_for_byte() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    for name in ["c0burn_progs_player.mdl", "c0burn_progs_flame2.mdl"] {
        let input = corpus.join("mdl").join(name);
        for layout in ["standard", "original"] {
            let out = dir.path().join(format!("{layout}_{name}"));
            let o = run(&[
                "convert",
                input.to_str().unwrap(),
                out.to_str().unwrap(),
                "--layout",
                layout,
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
            assert_eq!(
                std::fs::read(&out).unwrap(),
                std::fs::read(&input).unwrap(),
                "{name} --layout {layout}"
            );
        }
    }
}
