//! `retromodel convert x.glb y.md3`: the MD3 compile from the command
//! line. Counts and tags are checked in the file's own bytes (the header
//! read here, qfiles.h's layout), and refusals name flags.

use std::path::PathBuf;
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::gltf_builder::Builder;
use serde_json::json;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retromodel-cli-md3-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// A GLB of `positions` (triangles in order) on node 0, which one
/// animation slides 1 unit along X over 1 s, and a node `tag_weapon` one
/// unit up.
fn glb(positions: &[f32]) -> Vec<u8> {
    let mut b = Builder::new();
    let pos = b.floats(positions, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let tag = b.push(
        "nodes",
        json!({"name": "tag_weapon", "translation": [0.0, 1.0, 0.0]}),
    );
    b.scene_root(tag);
    let input = b.floats(&[0.0, 1.0], "SCALAR");
    let output = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], "VEC3");
    b.push(
        "animations",
        json!({
            "name": "slide",
            "samplers": [{"input": input, "output": output}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
        }),
    );
    b.glb()
}

#[test]
fn a_glb_compiles_to_an_md3_with_its_frames_and_tag() {
    let d = dir("ok");
    let src = d.join("slide.glb");
    std::fs::write(&src, glb(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0])).unwrap();
    let out = d.join("slide.md3");
    let o = run(&[
        "convert",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
        "--fps",
        "10",
        "--json",
        "--force",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["frames"], 11);
    assert_eq!(report["tags"], 1);
    assert_eq!(report["animations"][0]["name"], "slide");
    let b = std::fs::read(&out).unwrap();
    assert_eq!(&b[0..4], b"IDP3");
    assert_eq!(i32_at(&b, 4), 15);
    // numFrames, numTags, numSurfaces; ofsEnd the file's length.
    assert_eq!((i32_at(&b, 76), i32_at(&b, 80), i32_at(&b, 84)), (11, 1, 1));
    assert_eq!(i32_at(&b, 104) as usize, b.len());
    // The tag: its name, and scene +Y (1 unit) is Quake +Z.
    let tags = i32_at(&b, 96) as usize;
    assert_eq!(&b[tags..tags + 11], b"tag_weapon\0");
    let origin: Vec<f32> = (0..3).map(|k| f32_at(&b, tags + 64 + 4 * k)).collect();
    assert_eq!(origin, [0.0, 0.0, 1.0]);
    // The last frame: the triangle slid 1 unit along scene X (Quake Y):
    // its vertex at scene (1, 0, 0) is at Quake (0, 2, 0), 128 in 1/64.
    let s = i32_at(&b, 100) as usize;
    let (nv, ofs_xyz) = (i32_at(&b, s + 80) as usize, i32_at(&b, s + 100) as usize);
    let frame_10: Vec<[i16; 3]> = (0..nv)
        .map(|v| {
            let at = s + ofs_xyz + 8 * (10 * nv + v);
            [0, 1, 2].map(|k| i16::from_le_bytes([b[at + 2 * k], b[at + 2 * k + 1]]))
        })
        .collect();
    assert!(frame_10.contains(&[0, 128, 0]), "{frame_10:?}");
    for engine in ["ioquake3", "ironwail", "vkquake"] {
        let v = run(&["validate", "--engine", engine, out.to_str().unwrap()]);
        assert!(v.status.success(), "{engine}: {}", stderr(&v));
    }
}

#[test]
fn limits_split_and_ranges_are_refused_naming_flags() {
    let d = dir("refused");
    // 334 separate triangles: 1002 vertices in one surface.
    let soup: Vec<f32> = (0..334)
        .flat_map(|i| {
            let (x, z) = ((i % 20) as f32 * 2.0, (i / 20) as f32 * 2.0);
            [x, 0.0, z, x + 0.5, 0.0, z, x, 0.5, z]
        })
        .collect();
    let src = d.join("soup.glb");
    std::fs::write(&src, glb(&soup)).unwrap();
    let out = d.join("soup.md3");
    let o = run(&[
        "convert",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
    ]);
    // Split for ioquake3 into two surfaces of the same name, with a
    // warning.
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("split into 2 surfaces"), "{e}");
    let b = std::fs::read(&out).unwrap();
    assert_eq!(i32_at(&b, 84), 2);
    let s = i32_at(&b, 100) as usize;
    assert_eq!(i32_at(&b, s + 80), 999);
    let o = run(&[
        "convert",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
        "--no-split",
        "--force",
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("1002 vertices exceed ioquake3's limit of 999 (by 3)"),
        "{e}"
    );
    let o = run(&[
        "convert",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
        "--engine",
        "vkquake",
        "--no-split",
        "--force",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // A coordinate 600 units out: refused, advising a height.
    let far = d.join("far.glb");
    std::fs::write(&far, glb(&[0.0, 0.0, 0.0, 600.0, 0.0, 0.0, 0.0, 1.0, 0.0])).unwrap();
    let o = run(&[
        "convert",
        far.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("-512..511.98") && e.contains("--fit-height"),
        "{e}"
    );
    let o = run(&[
        "convert",
        far.to_str().unwrap(),
        out.to_str().unwrap(),
        "--scale",
        "0.5",
        "--force",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Flags of other outputs.
    let o = run(&[
        "convert",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
        "--player",
        "--force",
    ]);
    // --player writes a Quake III player into a folder, not one file.
    assert!(
        stderr(&o).contains("--player writes a Quake III player's files into a folder"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "convert",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
        "--engine",
        "quake2",
        "--force",
    ]);
    assert!(
        stderr(&o).contains("no MD3 loader profile"),
        "{}",
        stderr(&o)
    );
}
