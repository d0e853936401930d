//! `retromodel validate --engine quake2-rerelease` on a rerelease pair laid
//! out as the engine looks for it (Q2PRO `MOD_LoadMD5`): `tris.md2` and
//! `md5/tris.md5mesh` + `md5/tris.md5anim`. The MD2's frame count is read
//! from its header's bytes; the MD5s are the testkit's.

use retromodel_testkit::cli::run_os;
use retromodel_testkit::md5_sized::*;
use std::path::{Path, PathBuf};

const BIN: &str = env!("CARGO_BIN_EXE_retromodel");

/// A pair whose md5anim has `frames(md2_frames)` frames and `joints`
/// joints; returns the folder and the MD2's frame count.
fn pair(tag: &str, joints: usize, frames: impl Fn(usize) -> usize) -> (PathBuf, usize) {
    let dir =
        std::env::temp_dir().join(format!("retromodel-cli-md5rr-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(dir.join("md5")).unwrap();
    let md2 = retromodel::md2::sample::sample_model().to_bytes().unwrap();
    let n = i32::from_le_bytes(md2[40..44].try_into().unwrap()) as usize;
    std::fs::write(dir.join("tris.md2"), &md2).unwrap();
    let spec = SizedMesh::new(joints, 3, 1, 3);
    std::fs::write(dir.join("md5/tris.md5mesh"), sized_md5mesh(&spec)).unwrap();
    std::fs::write(
        dir.join("md5/tris.md5anim"),
        sized_md5anim(joints, 0, frames(n)),
    )
    .unwrap();
    (dir, n)
}

fn validate(file: &Path, strict: bool) -> (bool, String) {
    let (ok, out, _) = validate_err(file, strict);
    (ok, out)
}

fn validate_err(file: &Path, strict: bool) -> (bool, String, String) {
    let mut args = vec![
        "validate".as_ref(),
        file.as_os_str(),
        "--engine".as_ref(),
        "quake2-rerelease".as_ref(),
    ];
    if strict {
        args.push("--strict".as_ref());
    }
    let out = run_os(BIN, &args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn matching_frame_counts_pass_from_either_side() {
    let (dir, _) = pair("same", 3, |n| n);
    for f in ["md5/tris.md5mesh", "tris.md2"] {
        let (ok, out, err) = validate_err(&dir.join(f), true);
        assert!(ok, "{f}: {out}");
        assert!(out.trim_end().ends_with(": ok"), "{f}: {out}");
        assert!(!err.contains("note"), "{f}: {err}");
    }
    // Without the MD2 the count cannot be compared, and a note says so.
    std::fs::remove_file(dir.join("tris.md2")).unwrap();
    let (ok, _, err) = validate_err(&dir.join("md5/tris.md5mesh"), true);
    assert!(ok && err.contains("frame count is not compared"), "{err}");
}

#[test]
fn fewer_md5_frames_than_the_md2s_are_a_warning() {
    let (dir, n) = pair("fewer", 3, |n| n - 1);
    let (ok, out) = validate(&dir.join("md5/tris.md5mesh"), false);
    assert!(ok, "{out}");
    assert!(
        out.contains(&format!(
            "warning: md5anim \"tris\".numFrames: {} frames",
            n - 1
        )) && out.contains(&format!("the MD2's {n}")),
        "{out}"
    );
    let (ok, out) = validate(&dir.join("tris.md2"), true);
    assert!(!ok, "--strict: {out}");
    assert!(out.contains("md5.md5anim \"tris\".numFrames"), "{out}");
}

#[test]
fn joints_past_256_fail() {
    let (dir, _) = pair("joints", 257, |n| n);
    let (ok, out) = validate(&dir.join("md5/tris.md5mesh"), false);
    assert!(!ok, "{out}");
    assert!(
        out.contains("error: md5mesh.numJoints: 257 joints exceed"),
        "{out}"
    );
    // Without the md5anim the rerelease does not load the MD5.
    std::fs::remove_file(dir.join("md5/tris.md5anim")).unwrap();
    let (ok, out) = validate(&dir.join("md5/tris.md5mesh"), false);
    assert!(!ok && out.contains("error: md5anim: "), "{out}");
}
