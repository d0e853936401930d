//! `convert` on an OpenArena player's folder (Debian's
//! `openarena-081-players`, unpacked from its pk3 into a temporary
//! folder): one glb of the whole player, said so in the output, whose
//! node tree is the documented one (`lower` > `tag_torso` > `upper` >
//! `tag_head` > `head`), whose animations are the cfg's, which the
//! Khronos validator passes, and in which three.js puts the head where
//! the MD3s' tags (read by the test kit's own reader) put it: the lower
//! part's `tag_torso` composed with the upper part's `tag_head`, each
//! axis normalised as ioquake3's `R_LerpTag` does.

use std::path::Path;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::md3_facts::{md3_tags, TagFacts};
use retromodel_testkit::md3_player_checks::cfg_lines;
use retromodel_testkit::openarena::{openarena_dir, players};

const NAMES: [&str; 25] = [
    "BOTH_DEATH1",
    "BOTH_DEAD1",
    "BOTH_DEATH2",
    "BOTH_DEAD2",
    "BOTH_DEATH3",
    "BOTH_DEAD3",
    "TORSO_GESTURE",
    "TORSO_ATTACK",
    "TORSO_ATTACK2",
    "TORSO_DROP",
    "TORSO_RAISE",
    "TORSO_STAND",
    "TORSO_STAND2",
    "LEGS_WALKCR",
    "LEGS_WALK",
    "LEGS_RUN",
    "LEGS_BACK",
    "LEGS_SWIM",
    "LEGS_JUMP",
    "LEGS_LAND",
    "LEGS_JUMPB",
    "LEGS_LANDB",
    "LEGS_IDLE",
    "LEGS_IDLECR",
    "LEGS_TURN",
];

fn tag<'a>(frame: &'a [TagFacts], name: &str) -> &'a TagFacts {
    frame.iter().find(|t| t.name == name.as_bytes()).unwrap()
}

fn normalised(a: [f32; 3]) -> [f64; 3] {
    let a = a.map(f64::from);
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    a.map(|c| c / l)
}

/// The head's position in Quake's axes: o₁ + Σ o₂ᵢ · axis₁ᵢ.
fn head_at(torso: &TagFacts, head: &TagFacts) -> [f64; 3] {
    let axes = torso.axes.map(normalised);
    let mut p = torso.origin.map(f64::from);
    for (i, axis) in axes.iter().enumerate() {
        for k in 0..3 {
            p[k] += f64::from(head.origin[i]) * axis[k];
        }
    }
    p
}

#[test]
fn a_player_folder_converts_to_one_glb_that_three_js_poses_as_the_tags_say() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let p = all
        .iter()
        .find(|p| p.folder.ends_with("/kyonshi"))
        .or(all.first())
        .expect("a player");
    let tmp = tempfile::tempdir().unwrap();
    let folder = p.unpack(tmp.path());
    let glb = tmp.path().join("player.glb");
    let o = run_os(
        env!("CARGO_BIN_EXE_retromodel"),
        &[folder.as_os_str(), glb.as_os_str()]
            .map(|s| s.to_owned())
            .iter()
            .fold(vec![std::ffi::OsString::from("convert")], |mut v, s| {
                v.push(s.clone());
                v
            }),
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("the whole player"), "{stderr}");
    assert!(stderr.contains("skin default"), "{stderr}");

    // The node tree and the animations, from the glb's JSON.
    let bytes = std::fs::read(&glb).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let index = |name: &str| nodes.iter().position(|n| n["name"] == name).unwrap();
    let parent = |i: usize| {
        nodes.iter().position(|n| {
            n["children"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| c.as_u64() == Some(i as u64)))
        })
    };
    let name = |i: Option<usize>| i.map(|i| nodes[i]["name"].as_str().unwrap().to_string());
    let (upper, head) = (index("upper"), index("head"));
    assert_eq!(name(parent(upper)).as_deref(), Some("tag_torso"));
    assert_eq!(
        name(parent(parent(upper).unwrap())).as_deref(),
        Some("lower")
    );
    assert_eq!(name(parent(head)).as_deref(), Some("tag_head"));
    assert_eq!(
        name(parent(parent(head).unwrap())).as_deref(),
        Some("upper")
    );
    let lines = cfg_lines(&String::from_utf8_lossy(&p.animation_cfg));
    let animations: Vec<&str> = doc["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(&animations[..25], &NAMES[..], "{}", p.folder);
    assert_eq!(animations.len(), lines.len());

    let acceptance = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../acceptance");
    if !acceptance.join("node_modules/three").is_dir() {
        eprintln!("skipped the validator and three.js: no acceptance/node_modules (cd acceptance && npm ci)");
        return;
    }
    let out = std::process::Command::new("node")
        .arg(acceptance.join("validate.mjs"))
        .arg(&glb)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "validator: {text}");

    let lower_tags = md3_tags(&p.parts[0]).unwrap();
    let upper_tags = md3_tags(&p.parts[1]).unwrap();
    let skip = lines[13][0] - lines[6][0];
    let mut cases = Vec::new();
    for name in ["BOTH_DEATH1", "TORSO_ATTACK", "LEGS_RUN", "LEGS_IDLE"] {
        let i = NAMES.iter().position(|n| *n == name).unwrap();
        let [first, count, _, fps] = lines[i];
        let first = if name.starts_with("LEGS_") {
            first - skip
        } else {
            first
        };
        for k in 0..count.abs() as usize {
            let f = first as usize + k;
            let (lf, uf) = match &name[..4] {
                "BOTH" => (f, f),
                "TORS" => (0, f),
                _ => (f, 0),
            };
            let q = head_at(
                tag(&lower_tags[lf], "tag_torso"),
                tag(&upper_tags[uf], "tag_head"),
            );
            cases.push(serde_json::json!({
                "animation": name,
                "time": k as f64 / fps,
                "position": [q[1], q[2], q[0]],
            }));
        }
    }
    let spec = tmp.path().join("cases.json");
    let json =
        serde_json::json!({ "file": glb, "node": "head", "tolerance": 1e-4, "cases": cases });
    std::fs::write(&spec, serde_json::to_vec(&json).unwrap()).unwrap();
    let out = std::process::Command::new("node")
        .arg(acceptance.join("md3_three.mjs"))
        .arg(&spec)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{} cases\n{text}", cases.len());
    assert!(
        out.status.success(),
        "three.js: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--skin NAME` on a single hand-made MD3 (the test kit's `md3_bytes`):
/// `MODEL_NAME.skin` beside it gives the surface its image (embedded in
/// the glb, its pixel the one written here); `MODEL_default.skin` is used
/// without the flag; a set that is not there is an error.
#[test]
fn skin_sets_beside_a_single_model() {
    use retromodel_testkit::md3_bytes::{md3_bytes, Md3Spec, SurfaceSpec};
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.md3");
    let spec = Md3Spec {
        frames: 2,
        tags: 1,
        surfaces: vec![SurfaceSpec::new(2, 4, 2)],
    };
    std::fs::write(&model, md3_bytes(&spec)).unwrap();
    let png = |rgb: [u8; 3]| {
        let mut out = Vec::new();
        image::RgbaImage::from_pixel(2, 2, image::Rgba([rgb[0], rgb[1], rgb[2], 255]))
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    };
    std::fs::write(dir.path().join("red.png"), png([255, 0, 0])).unwrap();
    std::fs::write(dir.path().join("blue.png"), png([0, 0, 255])).unwrap();
    std::fs::write(
        dir.path().join("m_red.skin"),
        "tag_0,\ns,textures/red.png\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("m_default.skin"), "s,blue.png\n").unwrap();
    let run = |extra: &[&str], out: &str| {
        let mut args = vec!["convert".to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        args.push(model.to_str().unwrap().to_string());
        args.push(dir.path().join(out).to_str().unwrap().to_string());
        run_os(env!("CARGO_BIN_EXE_retromodel"), &args)
    };
    let first_pixel = |out: &str| {
        let bytes = std::fs::read(dir.path().join(out)).unwrap();
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
        let view = &doc["bufferViews"][doc["images"][0]["bufferView"].as_u64().unwrap() as usize];
        let bin = 20 + len + 8;
        let start = bin + view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let end = start + view["byteLength"].as_u64().unwrap() as usize;
        let img = image::load_from_memory(&bytes[start..end])
            .unwrap()
            .to_rgba8();
        img.get_pixel(0, 0).0
    };
    let o = run(&["--skin", "red"], "a.glb");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("m_red.skin"), "{err}");
    assert_eq!(first_pixel("a.glb"), [255, 0, 0, 255]);
    let o = run(&[], "b.glb");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("m_default.skin"), "{err}");
    assert_eq!(first_pixel("b.glb"), [0, 0, 255, 255]);
    let o = run(&["--skin", "green"], "c.glb");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no m_green.skin"), "{err}");
}
