//! `retromodel convert … OUT.md2 --rerelease` and `convert … OUT.md5mesh`:
//! the files written (the rerelease's `md5/STEM.md5mesh`, `.md5anim`,
//! `.md5scale` beside the MD2), the md5anim's frame count against the
//! MD2 header's (read from its bytes), refusal to overwrite without
//! `--force`, and `--rerelease` refused for other outputs.

use std::path::{Path, PathBuf};

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::md5_builder::{rig_md5anim, rig_md5mesh, rig_md5scale};

const BIN: &str = env!("CARGO_BIN_EXE_retromodel");

fn out_dir(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("retromodel-cli-md5w-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&std::ffi::OsStr]) -> std::process::Output {
    run_os(BIN, args)
}

/// `numFrames N` of an md5anim's text.
fn num_frames(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    let mut words = text.split_whitespace();
    words.find(|w| *w == "numFrames").unwrap();
    words.next().unwrap().parse().unwrap()
}

#[test]
fn rerelease_writes_the_md5_beside_the_md2_with_its_frames() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = out_dir("rerelease");
    let input = corpus.join("gltf/blender_walker.glb");
    let md2 = dir.join("walker.md2");
    let args = [
        "convert".as_ref(),
        input.as_os_str(),
        md2.as_os_str(),
        "--rerelease".as_ref(),
        "--player".as_ref(),
        "--fit-height".as_ref(),
        "56".as_ref(),
        "--skin-format".as_ref(),
        "png".as_ref(),
    ];
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&md2).unwrap();
    // MD2 header: num_frames is the 11th little-endian int (offset 40).
    let md2_frames = u32::from_le_bytes(bytes[40..44].try_into().unwrap());
    assert_eq!(md2_frames, 198, "the player table");
    let anim = dir.join("md5/walker.md5anim");
    assert_eq!(num_frames(&anim), u64::from(md2_frames));
    let mesh = std::fs::read_to_string(dir.join("md5/walker.md5mesh")).unwrap();
    assert!(mesh.starts_with("MD5Version 10"));
    assert!(mesh.contains("numJoints 11"), "the walker's 11 joints");
    // The skin also in md5/, where Q2PRO's MD5_LoadSkins looks for it
    // (the MD2's skin folder + "md5/" + its file name).
    // The first skin name: 64 bytes at ofs_skins (header offset 44).
    let ofs_skins = u32::from_le_bytes(bytes[44..48].try_into().unwrap()) as usize;
    let skin_name = String::from_utf8_lossy(&bytes[ofs_skins..ofs_skins + 64]);
    let skin_name = skin_name.trim_end_matches('\0');
    let file = skin_name.rsplit('/').next().unwrap();
    assert_eq!(file, "walker.png", "{skin_name}");
    assert_eq!(
        std::fs::read(dir.join("md5").join(file)).unwrap(),
        std::fs::read(dir.join(file)).unwrap()
    );
    // The walker's joints do not scale: no sidecar.
    assert!(!dir.join("md5/walker.md5scale").exists());
    // Again: refused without --force, the files left as they are.
    let before = std::fs::read(&anim).unwrap();
    let again = run(&args);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    assert_eq!(std::fs::read(&anim).unwrap(), before);
    let mut forced = args.to_vec();
    forced.push("--force".as_ref());
    let out = run(&forced);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&anim).unwrap(), before, "deterministic");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn md5mesh_output_writes_the_pair_and_the_scale_sidecar() {
    let dir = out_dir("alone");
    std::fs::write(dir.join("rig.md5mesh"), rig_md5mesh()).unwrap();
    std::fs::write(dir.join("rig.md5anim"), rig_md5anim()).unwrap();
    std::fs::write(dir.join("rig.md5scale"), rig_md5scale()).unwrap();
    let out_path = dir.join("out/copy.md5mesh");
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let out = run(&[
        "convert".as_ref(),
        dir.join("rig.md5mesh").as_os_str(),
        out_path.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mesh = std::fs::read_to_string(&out_path).unwrap();
    assert!(mesh.contains("numJoints 5"), "the rig's five joints");
    assert!(mesh.contains("numMeshes 2"), "the rig's two shaders");
    // The rig's anim (8 frames at 10 fps) on the MD2's default clock.
    assert_eq!(num_frames(&dir.join("out/copy.md5anim")), 8);
    // The rig scales its arm and head: the sidecar, plain JSON.
    let json = std::fs::read(dir.join("out/copy.md5scale")).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert!(value.get("arm").is_some(), "{value}");
    let validate = run(&["validate".as_ref(), out_path.as_os_str()]);
    assert!(
        validate.status.success(),
        "{}{}",
        String::from_utf8_lossy(&validate.stdout),
        String::from_utf8_lossy(&validate.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rerelease_is_refused_for_other_outputs_and_in_the_help() {
    let dir = out_dir("refused");
    std::fs::write(dir.join("rig.md5mesh"), rig_md5mesh()).unwrap();
    let out = run(&[
        "convert".as_ref(),
        dir.join("rig.md5mesh").as_os_str(),
        dir.join("rig.glb").as_os_str(),
        "--rerelease".as_ref(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--rerelease") && err.contains(".md2"), "{err}");
    assert!(!err.contains("::"), "{err}");
    let help = run(&["convert".as_ref(), "--help".as_ref()]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        text.contains("--rerelease") && text.contains("md5mesh"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
