//! `retromodel info`, `validate` and `convert` of an MD5 model: the
//! testkit's rig, its md5anim found by the mesh's name, another given with
//! `--md5anim`; the counts are the builder's, the glb's animations are
//! read back with the testkit's independent GLB reader.

use retromodel_testkit::cli::run_os;
use retromodel_testkit::md5_builder::*;

const BIN: &str = env!("CARGO_BIN_EXE_retromodel");

fn rig_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("retromodel-cli-md5-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rig.md5mesh"), rig_md5mesh()).unwrap();
    std::fs::write(dir.join("rig.md5anim"), rig_md5anim()).unwrap();
    std::fs::write(
        dir.join("wave.md5anim"),
        rig_md5anim().replace("frameRate 10", "frameRate 20"),
    )
    .unwrap();
    dir
}

#[test]
fn info_lists_joints_meshes_weights_and_every_animation() {
    let dir = rig_dir("info");
    let out = run_os(
        BIN,
        &[
            "info".as_ref(),
            dir.join("rig.md5mesh").as_os_str(),
            "--md5anim".as_ref(),
            dir.join("wave.md5anim").as_os_str(),
            "--json".as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["joints"], 5);
    assert_eq!(info["meshes"], 2);
    assert_eq!(info["vertices"], 16);
    assert_eq!(info["max_weights_per_vertex"], 5);
    let anims = info["animations"].as_array().unwrap();
    let names: Vec<_> = anims
        .iter()
        .map(|a| {
            (
                a["name"].as_str().unwrap(),
                a["frames"].as_u64().unwrap(),
                a["frame_rate"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("rig", RIG_FRAMES as u64, RIG_FPS),
            ("wave", RIG_FRAMES as u64, 2.0 * RIG_FPS)
        ]
    );
}

#[test]
fn validate_passes_the_rig_and_names_a_foreign_anim() {
    let dir = rig_dir("validate");
    let out = run_os(
        BIN,
        &["validate".as_ref(), dir.join("rig.md5mesh").as_os_str()],
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("{}: ok", dir.join("rig.md5mesh").display())
    );
    let foreign = dir.join("foreign.md5anim");
    std::fs::write(&foreign, rig_md5anim().replace("\"hand\"", "\"claw\"")).unwrap();
    let out = run_os(
        BIN,
        &[
            "validate".as_ref(),
            dir.join("rig.md5mesh").as_os_str(),
            "--md5anim".as_ref(),
            foreign.as_os_str(),
        ],
    );
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error: md5anim \"foreign\".hierarchy[4]: named \"claw\""),
        "{text}"
    );
}

#[test]
fn convert_makes_a_glb_with_every_animation() {
    let dir = rig_dir("convert");
    let glb = dir.join("rig.glb");
    let out = run_os(
        BIN,
        &[
            "convert".as_ref(),
            dir.join("rig.md5mesh").as_os_str(),
            glb.as_os_str(),
            "--md5anim".as_ref(),
            dir.join("wave.md5anim").as_os_str(),
            "--force".as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&glb).unwrap();
    // The JSON chunk, read by hand: 12-byte header, chunk length, type.
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    let anims: Vec<&str> = doc["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(anims, ["rig", "wave"]);
    assert_eq!(doc["skins"][0]["joints"].as_array().unwrap().len(), 5);
    // Five weights need JOINTS_1/WEIGHTS_1 beside JOINTS_0/WEIGHTS_0.
    let attributes = &doc["meshes"][0]["primitives"][0]["attributes"];
    assert!(
        attributes.get("JOINTS_1").is_some() && attributes.get("WEIGHTS_1").is_some(),
        "{attributes}"
    );
    // An md5anim alone is named as what it is.
    let out = run_os(BIN, &["info".as_ref(), dir.join("rig.md5anim").as_os_str()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("an MD5 animation (.md5anim) without its mesh"));
}
