//! `info`, `validate --engine` and `convert` on a Quake III MD3 made by
//! the test kit's byte builder (written from `qfiles.h`): facts checked
//! against what the builder wrote.

use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::md3_bytes::{md3_bytes, Md3Spec, SurfaceSpec};

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write(dir: &std::path::Path, spec: &Md3Spec) -> String {
    let path = dir.join("m.md3");
    std::fs::write(&path, md3_bytes(spec)).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn info_json_reports_what_the_bytes_hold() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Md3Spec {
        frames: 3,
        tags: 2,
        surfaces: vec![SurfaceSpec::new(3, 5, 4), SurfaceSpec::new(3, 4, 2)],
    };
    let path = write(dir.path(), &spec);
    let o = run(&["info", "--json", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["format"], "md3");
    assert_eq!(j["frames"], 3);
    assert_eq!(j["frame_names"], serde_json::json!(["f0", "f1", "f2"]));
    assert_eq!(j["tags"][1]["name"], "tag_1");
    assert_eq!(j["surfaces"][0]["vertices"], 5);
    assert_eq!(j["surfaces"][1]["triangles"], 2);
    assert_eq!(j["surfaces"][0]["shaders"], serde_json::json!(["shader0"]));
    assert_eq!(j["triangles"], 6);
    let o = run(&["info", &path]);
    assert!(
        text(&o.stdout).contains("MD3 version 15"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn validate_engine_ioquake3_refuses_a_surface_of_1000_vertices() {
    let dir = tempfile::tempdir().unwrap();
    let ok = Md3Spec {
        frames: 1,
        tags: 0,
        surfaces: vec![SurfaceSpec::new(1, 999, 3)],
    };
    let path = write(dir.path(), &ok);
    let o = run(&["validate", "--engine", "ioquake3", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let over = Md3Spec {
        surfaces: vec![SurfaceSpec::new(1, 1000, 3)],
        ..ok
    };
    let path = write(dir.path(), &over);
    let o = run(&["validate", "--engine", "ioquake3", &path]);
    assert_eq!(o.status.code(), Some(1));
    let t = text(&o.stdout);
    assert!(
        t.contains("error: surfaces[0].num_verts: 1000 vertices, more than ioquake3's 999 by 1"),
        "{t}"
    );
    // A Quake II engine does not load MD3.
    let o = run(&["validate", "--engine", "quake2", &path]);
    assert!(text(&o.stdout).contains("Quake II does not load MD3 files"));
}

#[test]
fn converts_to_glb_with_a_morph_target_per_frame() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Md3Spec {
        frames: 4,
        tags: 0,
        surfaces: vec![SurfaceSpec::new(4, 6, 5)],
    };
    let path = write(dir.path(), &spec);
    let glb = dir.path().join("m.glb");
    let o = run(&["convert", &path, glb.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    // The JSON chunk: one mesh whose primitive has 4 morph targets.
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let j: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    let prim = &j["meshes"][0]["primitives"][0];
    assert_eq!(prim["targets"].as_array().unwrap().len(), 4);
    let count = j["accessors"][prim["indices"].as_u64().unwrap() as usize]["count"].as_u64();
    assert_eq!(count, Some(15));
}

#[test]
fn validate_engine_rtcw_takes_3999_vertices_and_its_multiplayer_999() {
    let dir = tempfile::tempdir().unwrap();
    let spec = |verts| Md3Spec {
        frames: 1,
        tags: 0,
        surfaces: vec![SurfaceSpec::new(1, verts, 3)],
    };
    let path = write(dir.path(), &spec(3999));
    let o = run(&["validate", "--engine", "rtcw", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let o = run(&["validate", "--engine", "rtcw-mp", &path]);
    assert_eq!(o.status.code(), Some(1));
    let t = text(&o.stdout);
    assert!(
        t.contains("error: surfaces[0].num_verts: 3999 vertices, more than Return to Castle Wolfenstein multiplayer's 999 by 3000"),
        "{t}"
    );
    let path = write(dir.path(), &spec(4000));
    let o = run(&["validate", "--engine", "rtcw", &path]);
    assert_eq!(o.status.code(), Some(1));
    let t = text(&o.stdout);
    assert!(
        t.contains("4000 vertices, more than Return to Castle Wolfenstein's 3999 by 1: it does not load the model"),
        "{t}"
    );
    // FTE checks no count: it loads the model.
    let o = run(&["validate", "--engine", "fte", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}
