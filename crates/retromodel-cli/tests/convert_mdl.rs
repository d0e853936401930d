//! `retromodel convert x.glb y.mdl`: the MDL compile from the command
//! line. Counts are checked in the file's own bytes (the header read here),
//! and refusals name flags, never the library's API.

use std::path::{Path, PathBuf};
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
    let d = std::env::temp_dir().join(format!("retromodel-cli-mdl-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A GLB of one triangle on node 0, moved by one animation with keys at
/// `times` (seconds).
fn triangle_glb(times: &[f32]) -> Vec<u8> {
    let mut b = Builder::new();
    let pos = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let input = b.floats(times, "SCALAR");
    let values: Vec<f32> = times.iter().flat_map(|&t| [t, 0.0, 0.0]).collect();
    let output = b.floats(&values, "VEC3");
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

/// A grey-ramp palette: 768 bytes, colour i = (i, i, i).
fn palette(d: &Path) -> PathBuf {
    let p = d.join("palette.lmp");
    let bytes: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
    std::fs::write(&p, bytes).unwrap();
    p
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn a_glb_compiles_to_an_mdl_with_its_frames_and_flags() {
    let d = dir("ok");
    let glb = d.join("slide.glb");
    // 0.5 s at 10 fps: 6 frames.
    std::fs::write(&glb, triangle_glb(&[0.0, 0.5])).unwrap();
    let out = d.join("slide.mdl");
    let pal = palette(&d);
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--palette",
        pal.to_str().unwrap(),
        "--mdl-flags",
        "rotate,rocket",
        "--eye",
        "0,0,22",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("largest error"), "{}", stderr(&o));
    let b = std::fs::read(&out).unwrap();
    assert_eq!(&b[..4], b"IDPO");
    assert_eq!(i32_at(&b, 4), 6);
    // numverts, numtris, numframes, synctype, flags.
    assert_eq!(i32_at(&b, 60), 3);
    assert_eq!(i32_at(&b, 64), 1);
    assert_eq!(i32_at(&b, 68), 6);
    assert_eq!(i32_at(&b, 76), 8 | 1);
    assert_eq!(f32::from_le_bytes(b[44..48].try_into().unwrap()), 22.0);
    // The library's reader and validator agree.
    let v = run(&["validate", out.to_str().unwrap()]);
    assert!(v.status.success(), "{}", stderr(&v));
}

#[test]
fn refusals_name_flags() {
    let d = dir("refuse");
    let glb = d.join("long.glb");
    // 30 s at 10 fps: 301 frames, past id's 256.
    std::fs::write(&glb, triangle_glb(&[0.0, 30.0])).unwrap();
    let out = d.join("long.mdl");
    let pal = palette(&d);
    let cases: [(&[&str], &[&str]); 4] = [
        (&[], &["--palette", "gfx/palette.lmp"]),
        (
            &["--palette", pal.to_str().unwrap()],
            &["301 frames", "256", "--fps"],
        ),
        (
            &["--palette", pal.to_str().unwrap(), "--player"],
            &["--player", ".md2"],
        ),
        (
            &["--palette", pal.to_str().unwrap(), "--engine", "quake2"],
            &["--engine", "quake"],
        ),
    ];
    for (flags, words) in cases {
        let mut args = vec!["convert", glb.to_str().unwrap(), out.to_str().unwrap()];
        args.extend_from_slice(flags);
        let o = run(&args);
        assert!(!o.status.success(), "{flags:?}");
        let text = stderr(&o);
        assert!(!text.contains("::"), "names library API: {text}");
        for w in words {
            assert!(text.contains(w), "{flags:?}: {w:?} not in {text}");
        }
    }
    // The MDL's own flags for another output.
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        d.join("x.md2").to_str().unwrap(),
        "--frame-group",
        "slide",
    ]);
    assert!(
        stderr(&o).contains("--frame-group applies to .mdl output"),
        "{}",
        stderr(&o)
    );
    // With no limit the long animation compiles.
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--palette",
        pal.to_str().unwrap(),
        "--engine",
        "none",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(i32_at(&std::fs::read(&out).unwrap(), 68), 301);
}
