//! `validate models/players/NAME/` on every OpenArena player (unpacked
//! from Debian's pk3 files into a temporary folder): the warnings about
//! cfg lines playing past their file and `.skin` lines naming surfaces a
//! part lacks are exactly those worked out here from the cfg read by hand
//! and the test kit's own reader; a player missing a `.skin` file or with
//! a cfg the game cannot parse fails.

use std::collections::BTreeSet;
use std::path::Path;

use retromodel_testkit::cli::{run_os, run_stdout};
use retromodel_testkit::md3_facts::md3_facts;
use retromodel_testkit::md3_player_checks::{cfg_lines, line_in_part, skin_images};
use retromodel_testkit::openarena::{openarena_dir, players};

fn validate(path: &Path) -> (Option<i32>, String) {
    run_stdout(
        env!("CARGO_BIN_EXE_retromodel"),
        &["validate".as_ref(), path.as_os_str()],
    )
}

/// How many warnings the cfg's lines past their files make: one per
/// file a line plays past (a `BOTH_` line past both: two), by the game's
/// arithmetic.
fn lines_past_their_files(cfg: &[[f64; 4]], frames: [i64; 2]) -> usize {
    (0..cfg.len())
        .map(|i| {
            let (first, count, plays) = line_in_part(cfg, i);
            (0..2)
                .filter(|&k| count > 0 && plays[k] && (first < 0 || first + count > frames[k]))
                .count()
        })
        .sum()
}

#[test]
fn every_openarena_player_folder_validates_with_the_warnings_worked_out_here() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let tmp = tempfile::tempdir().unwrap();
    let mut warned = 0;
    for p in &all {
        let folder = p.unpack(tmp.path());
        let (code, out) = validate(&folder);
        let key = &p.folder;
        let facts = p.parts.each_ref().map(|b| md3_facts(b).expect("facts"));
        let cfg = cfg_lines(&String::from_utf8_lossy(&p.animation_cfg));
        let expected_count = lines_past_their_files(
            &cfg,
            [facts[0].num_frames.into(), facts[1].num_frames.into()],
        );
        let got_lines = out.lines().filter(|l| l.contains("plays frames")).count();
        assert_eq!(got_lines, expected_count, "{key}: {out}");
        // .skin lines naming a surface the part lacks.
        let mut missing = 0;
        for (k, part) in ["lower", "upper", "head"].iter().enumerate() {
            let Some((_, skin)) = p
                .skins
                .iter()
                .find(|(n, _)| *n == format!("{part}_default.skin"))
            else {
                continue;
            };
            let names: BTreeSet<String> = facts[k]
                .surfaces
                .iter()
                .map(|s| String::from_utf8_lossy(&s.name).to_ascii_lowercase())
                .collect();
            missing += skin_images(skin)
                .keys()
                .filter(|s| !names.contains(*s))
                .count();
        }
        let got_missing = out.lines().filter(|l| l.contains("does not have")).count();
        assert_eq!(got_missing, missing, "{key}: {out}");
        warned += got_lines + got_missing;
        let has_default_skins = ["lower", "upper", "head"].iter().all(|part| {
            p.skins
                .iter()
                .any(|(n, _)| *n == format!("{part}_default.skin"))
        });
        if has_default_skins {
            assert!(
                out.lines().all(|l| !l.contains(": error: ")) || code == Some(1),
                "{key}: {out}"
            );
        }
    }
    eprintln!("{} players, {warned} warnings as worked out", all.len());
}

#[test]
fn a_player_the_game_would_not_load_fails() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let p = all
        .iter()
        .find(|p| p.folder.ends_with("/sarge"))
        .expect("sarge");
    let tmp = tempfile::tempdir().unwrap();
    let folder = p.unpack(tmp.path());
    assert_eq!(validate(&folder).0, Some(0));
    std::fs::remove_file(folder.join("upper_default.skin")).unwrap();
    let (code, out) = validate(&folder);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error: upper_default.skin: missing"), "{out}");
    std::fs::write(folder.join("upper_default.skin"), b"u_torso,x.tga\n").unwrap();
    std::fs::write(folder.join("animation.cfg"), b"sex m\n0 1 0 15\n").unwrap();
    let (code, out) = validate(&folder);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error: animation.cfg"), "{out}");
    assert!(out.contains("BOTH_DEAD1 is missing"), "{out}");
}

/// `info --json` on a player folder: each part's frames, surfaces and tag
/// names as the test kit's reader gives them, the cfg's lines as read by
/// hand (and where the game plays the legs' ones), the skin sets as the
/// folder's `lower_*.skin` names.
#[test]
fn info_of_a_player_folder_agrees_with_the_files() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    let tmp = tempfile::tempdir().unwrap();
    for p in all
        .iter()
        .filter(|p| p.folder.ends_with("/sarge") || p.folder.ends_with("/merman"))
    {
        let folder = p.unpack(tmp.path());
        let o = run_os(
            env!("CARGO_BIN_EXE_retromodel"),
            &["info".as_ref(), folder.as_os_str(), "--json".as_ref()],
        );
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for (k, part) in v["parts"].as_array().unwrap().iter().enumerate() {
            let f = md3_facts(&p.parts[k]).unwrap();
            assert_eq!(part["frames"], f.num_frames, "{}", p.folder);
            assert_eq!(part["surfaces"].as_array().unwrap().len(), f.surfaces.len());
            let tags: Vec<String> = f
                .tag_names
                .iter()
                .map(|t| String::from_utf8_lossy(t).into_owned())
                .collect();
            assert_eq!(part["tags"], serde_json::json!(tags));
        }
        let cfg = cfg_lines(&String::from_utf8_lossy(&p.animation_cfg));
        let lines = v["animation_cfg"]["animations"].as_array().unwrap();
        assert_eq!(lines.len(), cfg.len());
        let skip = cfg[13][0] - cfg[6][0];
        for (i, (l, c)) in lines.iter().zip(&cfg).enumerate() {
            assert_eq!(l["first_frame"].as_f64(), Some(c[0]));
            assert_eq!(l["num_frames"].as_f64(), Some(c[1]));
            let in_part = if (13..25).contains(&i) {
                c[0] - skip
            } else {
                c[0]
            };
            assert_eq!(l["first_frame_in_part"].as_f64(), Some(in_part), "{i}");
        }
        let mut sets: Vec<String> = p
            .skins
            .iter()
            .filter_map(|(n, _)| {
                n.strip_prefix("lower_")?
                    .strip_suffix(".skin")
                    .map(str::to_string)
            })
            .collect();
        sets.sort_by_key(|s| (s != "default", s.clone()));
        assert_eq!(v["skin_sets"], serde_json::json!(sets));
    }
}
