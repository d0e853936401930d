//! `convert SCENE.glb models/players/NAME/ --player`: a Quake III player
//! written from one glTF. Checked from the files alone, with the test
//! kit's own MD3 reader and the cfg read by hand:
//!
//! - OpenArena players (unpacked from Debian's pk3 files) converted to a
//!   glb and back come back as they were: every frame the cfg plays holds
//!   the same vertices on the same surfaces, the tags are where they
//!   were, the cfg's lines are the same numbers and the skins name the
//!   same images; `validate --engine ioquake3` passes every file.
//! - The same glb with its animations renamed to common names (`run`,
//!   `attack`, `death`) and their extras gone is laid out anew: the lines
//!   the game reads point at frames that hold exactly the original
//!   animation's frames, every line lands inside its file, and the rest
//!   borrow frames or the rest pose as the report says.
//! - What may not be done is refused: an output that is not a folder or
//!   a part's file, `--anim`, files already there without `--force`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::Path;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::md3_facts::md3_facts;
use retromodel_testkit::md3_player_checks::{
    cfg_lines, compare_frames, compare_part, line_in_part, played_frames, skin_images,
};
use retromodel_testkit::openarena::{openarena_dir, players, PlayerFiles};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_retromodel")
}

fn run(args: &[&dyn AsRef<std::ffi::OsStr>]) -> (Option<i32>, String) {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
    let o = run_os(bin(), &args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Some players of different makes: sarge (id-style), one whose upper
/// part has no surface (angelyss), one with a cfg line of no frames
/// (merman); all present ones.
fn chosen(all: &[PlayerFiles]) -> Vec<&PlayerFiles> {
    let picked: Vec<&PlayerFiles> = ["/sarge", "/angelyss", "/merman"]
        .iter()
        .filter_map(|n| all.iter().find(|p| p.folder.ends_with(n)))
        .collect();
    assert!(!picked.is_empty(), "none of sarge, angelyss, merman");
    picked
}

#[test]
fn openarena_players_through_a_glb_come_back_as_they_were() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let tmp = tempfile::tempdir().unwrap();
    for p in chosen(&all) {
        let key = &p.folder;
        let name = key.rsplit('/').next().unwrap();
        let folder = p.unpack(&tmp.path().join("in"));
        let glb = tmp.path().join(format!("{name}.glb"));
        let (code, err) = run(&[&"convert", &folder, &glb]);
        assert_eq!(code, Some(0), "{key}: {err}");
        let out = tmp.path().join("out/models/players").join(name);
        let out_arg = format!("{}/", out.display());
        let (code, err) = run(&[&"convert", &glb, &out_arg, &"--player"]);
        assert_eq!(code, Some(0), "{key}: {err}");
        assert!(
            err.contains("animation.cfg: 25 animations") || err.contains("animations"),
            "{err}"
        );

        let was = cfg_lines(&String::from_utf8_lossy(&p.animation_cfg));
        let now = cfg_lines(&String::from_utf8_lossy(&read(&out.join("animation.cfg"))));
        assert_eq!(now, was, "{key}: animation.cfg");
        for (k, part) in ["lower", "upper", "head"].into_iter().enumerate() {
            let frames = match k {
                0 => played_frames(&was, true),
                1 => played_frames(&was, false),
                _ => BTreeSet::from([0]),
            };
            let made = read(&out.join(format!("{part}.md3")));
            compare_part(&p.parts[k], &made, &frames)
                .unwrap_or_else(|e| panic!("{key} {part}: {e}"));
            let skin = |files: &[(String, Vec<u8>)]| {
                files
                    .iter()
                    .find(|(n, _)| *n == format!("{part}_default.skin"))
                    .map(|(_, b)| skin_images(b))
                    .unwrap_or_default()
            };
            let before = skin(&p.skins);
            let after = skin_images(&read(&out.join(format!("{part}_default.skin"))));
            for (surface, image) in &after {
                if let Some(old) = before.get(surface) {
                    assert_eq!(image, old, "{key} {part}: {surface}");
                }
            }
            let path = out.join(format!("{part}.md3"));
            let (code, err) = run(&[&"validate", &path, &"--engine", &"ioquake3"]);
            assert_eq!(code, Some(0), "{key} {part}: {err}");
        }
    }
}

/// `bytes` (a glb) with its JSON changed by `edit`.
fn edit_glb(bytes: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    edit(&mut doc);
    let mut json = serde_json::to_vec(&doc).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let rest = &bytes[20 + len..];
    let total = 12 + 8 + json.len() + rest.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(rest);
    out
}

#[test]
fn animations_of_common_names_are_laid_out_where_the_game_reads_them() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let Some(p) = all.iter().find(|p| p.folder.ends_with("/sarge")) else {
        panic!("no sarge in {}", dir.display());
    };
    let tmp = tempfile::tempdir().unwrap();
    let folder = p.unpack(&tmp.path().join("in"));
    let glb = tmp.path().join("sarge.glb");
    let (code, err) = run(&[&"convert", &folder, &glb]);
    assert_eq!(code, Some(0), "{err}");
    // Keep three animations, under common names, without their extras.
    let renamed = [
        ("LEGS_RUN", "run"),
        ("TORSO_ATTACK", "attack"),
        ("BOTH_DEATH1", "death"),
    ];
    let edited = edit_glb(&read(&glb), |doc| {
        let animations = doc["animations"].as_array_mut().unwrap();
        animations.retain(|a| renamed.iter().any(|(n, _)| a["name"] == *n));
        for a in animations.iter_mut() {
            let old = a["name"].as_str().unwrap().to_string();
            let new = renamed.iter().find(|(n, _)| *n == old).unwrap().1;
            a["name"] = serde_json::json!(new);
            a.as_object_mut().unwrap().remove("extras");
        }
        assert_eq!(animations.len(), 3);
    });
    let edited_path = tmp.path().join("edited.glb");
    std::fs::write(&edited_path, edited).unwrap();
    let out = tmp.path().join("hero");
    let (code, err) = run(&[&"convert", &edited_path, &out, &"--player", &"--fps", &"15"]);
    assert_eq!(code, Some(0), "{err}");
    // The report says where each line's frames came from.
    assert!(
        err.contains("LEGS_RUN") && err.contains("animation \"run\""),
        "{err}"
    );
    assert!(
        err.contains("LEGS_WALK") && err.contains("LEGS_RUN's frames"),
        "{err}"
    );
    assert!(
        err.contains("BOTH_DEAD1") && err.contains("BOTH_DEATH1's last frame"),
        "{err}"
    );
    assert!(err.contains("the rest pose"), "{err}");

    let was = cfg_lines(&String::from_utf8_lossy(&p.animation_cfg));
    let now = cfg_lines(&String::from_utf8_lossy(&read(&out.join("animation.cfg"))));
    assert_eq!(now.len(), 25);
    let lower = read(&out.join("lower.md3"));
    let upper = read(&out.join("upper.md3"));
    let frames_of = |b: &[u8]| md3_facts(b).unwrap().num_frames as usize;
    // Every line lands inside its file, as the game reads it.
    let frames = [frames_of(&lower), frames_of(&upper)];
    for i in 0..now.len() {
        let (first, count, plays) = line_in_part(&now, i);
        for k in (0..2).filter(|&k| plays[k]) {
            assert!(
                first >= 0 && count >= 1 && first + count <= frames[k] as i64,
                "line {i}: {:?} in {} frames",
                now[i],
                frames[k]
            );
        }
    }
    // Each renamed animation's frames hold the original's: run and attack
    // were 15 fps, baked at 15.
    for (line, file, before, after) in [
        (15, "lower", &p.parts[0], &lower),
        (7, "upper", &p.parts[1], &upper),
        (0, "lower", &p.parts[0], &lower),
        (0, "upper", &p.parts[1], &upper),
    ] {
        let at = |cfg: &[[f64; 4]]| {
            let (first, count, _) = line_in_part(cfg, line);
            (first as usize..(first + count) as usize).collect::<Vec<_>>()
        };
        let (mut fa, mut fb) = (at(&was), at(&now));
        if line == 0 {
            // Death: 30 frames at 25 fps (1.16 s) is 18 at 15 fps; its
            // first and last poses are the original's first and last.
            assert_eq!(fb.len(), 18, "death's frames at 15 fps");
            fa = vec![fa[0], fa[fa.len() - 1]];
            fb = vec![fb[0], fb[fb.len() - 1]];
        }
        assert_eq!(fa.len(), fb.len(), "line {line}: frame counts");
        compare_frames(before, &fa, after, &fb)
            .unwrap_or_else(|e| panic!("line {line} in {file}: {e}"));
    }
}

#[test]
fn what_a_player_output_cannot_be_is_refused() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let p = chosen(&all)[0];
    let tmp = tempfile::tempdir().unwrap();
    let folder = p.unpack(&tmp.path().join("in"));
    let glb = tmp.path().join("p.glb");
    assert_eq!(run(&[&"convert", &folder, &glb]).0, Some(0));
    let bad = tmp.path().join("hero/model.md3");
    let (code, err) = run(&[&"convert", &glb, &bad, &"--player"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("NAME/lower.md3"), "{err}");
    let out = tmp.path().join("hero/lower.md3");
    let (code, err) = run(&[&"convert", &glb, &out, &"--player", &"--anim", &"LEGS_RUN"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("--anim does not apply"), "{err}");
    assert_eq!(
        run(&[&"convert", &glb, &out, &"--player", &"--sex", &"f"]).0,
        Some(0)
    );
    let cfg = String::from_utf8_lossy(&read(&tmp.path().join("hero/animation.cfg"))).into_owned();
    assert!(cfg.lines().any(|l| l.trim() == "sex f"), "{cfg}");
    let (code, err) = run(&[&"convert", &glb, &out, &"--player"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(
        run(&[&"convert", &glb, &out, &"--player", &"--force"]).0,
        Some(0)
    );
    let (code, err) = run(&[&"convert", &glb, &tmp.path().join("x.md2"), &"--sex", &"m"]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("--sex and --footsteps apply to .md3 output with --player"),
        "{err}"
    );
}
