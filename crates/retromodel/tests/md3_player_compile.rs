//! Every OpenArena player read as one scene and written back as three
//! models, `.skin` files and an `animation.cfg` comes back as it was, as
//! the test kit's independent reader sees both files' bytes: every frame
//! the cfg plays holds the same vertices (texture coordinate and 1/64
//! unit position) on the same surfaces, the same tags where they were,
//! the cfg's lines the same numbers (read by hand from both texts), and
//! each surface's image the one the player's `default` skins gave it.

#![cfg(feature = "scene")]

use std::collections::BTreeSet;

use retromodel::md3::compile::{compile_player, PlayerNote, PlayerOptions};
use retromodel::md3::{Player, SkinFile};
use retromodel::scene::Scene;
use retromodel_testkit::md3_facts::md3_geometry;
use retromodel_testkit::md3_player_checks::{cfg_lines, compare_part, played_frames, skin_images};
use retromodel_testkit::openarena::{openarena_dir, players, PlayerFiles};

fn check_player(p: &PlayerFiles) -> usize {
    let key = &p.folder;
    let skin = |part: &str| p.skin(&format!("{part}_default.skin"));
    let player = Player::from_bytes(
        &p.parts[0],
        &p.parts[1],
        &p.parts[2],
        Some(&p.animation_cfg),
        p.default_skins(),
    )
    .unwrap_or_else(|e| panic!("{key}: {e}"));
    let name = key.rsplit('/').next().unwrap_or(key);
    let scene =
        Scene::from_md3_player(&player, name, 15.0).unwrap_or_else(|e| panic!("{key}: {e}"));
    let options = PlayerOptions {
        engine: None,
        name: Some(name.to_string()),
        ..PlayerOptions::default()
    };
    let compiled = compile_player(&scene, &options).unwrap_or_else(|e| panic!("{key}: {e}"));
    let made = [&compiled.lower, &compiled.upper, &compiled.head]
        .map(|c| c.model.to_bytes().unwrap_or_else(|e| panic!("{key}: {e}")));

    // The cfg: the same numbers, line for line.
    let was = cfg_lines(&String::from_utf8_lossy(&p.animation_cfg));
    let now = cfg_lines(&compiled.animation_cfg.to_text());
    assert_eq!(now, was, "{key}: animation.cfg");

    let mut checked = 0;
    for (k, part) in ["lower", "upper", "head"].into_iter().enumerate() {
        let frames = match k {
            0 => played_frames(&was, true),
            1 => played_frames(&was, false),
            _ => BTreeSet::from([0]),
        };
        checked += compare_part(&p.parts[k], &made[k], &frames)
            .unwrap_or_else(|e| panic!("{key} {part}: {e}"));
        // Skins: each surface's image as the default skin gave it.
        let was_skin = skin(part).map(skin_images).unwrap_or_default();
        let now_skin = skin_images(compiled.skins[k].as_bytes());
        SkinFile::parse(compiled.skins[k].as_bytes()).expect("our .skin parses");
        for (surface, image) in &now_skin {
            if let Some(old) = was_skin.get(surface) {
                assert_eq!(image, old, "{key} {part}: {surface}'s image");
            }
        }
        assert!(
            was_skin.keys().all(|s| now_skin.contains_key(s)
                || md3_geometry(&p.parts[k]).is_some_and(|v| {
                    v.iter().all(|v| {
                        !v.name.eq_ignore_ascii_case(s.as_bytes()) || v.triangles.is_empty()
                    })
                })),
            "{key} {part}: a surface's skin line is lost: {was_skin:?} {now_skin:?}"
        );
    }
    for note in &compiled.notes {
        let ok = match note {
            PlayerNote::UnplayedFrames { .. } => true,
            // A part of no surface was one (Angelyss's upper.md3).
            PlayerNote::NoSurfaces { part } => {
                let k = ["lower", "upper", "head"]
                    .iter()
                    .position(|n| *n == part.name());
                k.is_some_and(|k| md3_geometry(&p.parts[k]).is_some_and(|s| s.is_empty()))
            }
            _ => false,
        };
        assert!(ok, "{key}: {note:?}");
    }
    checked
}

#[test]
fn every_openarena_player_comes_back_frame_for_frame() {
    let Some(dir) = openarena_dir() else { return };
    let all = players(&dir);
    assert!(!all.is_empty());
    let mut vertices = 0;
    for p in &all {
        vertices += check_player(p);
    }
    eprintln!("{} players, {vertices} vertex-frames compared", all.len());
}
