//! Quake III player models from OpenArena's pk3 files (Debian's
//! `openarena-data` and `openarena-081-players`): every `animation.cfg`
//! and `.skin` file parses and agrees with the models it belongs to (as
//! the test kit's independent reader counts their frames and names their
//! surfaces), and a player lifted to one scene puts its head where the
//! game does: at the lower part's `tag_torso` composed with the upper
//! part's `tag_head`, both read straight from the bytes.

#![cfg(feature = "scene")]

use glam::{Mat3, Vec3};
use retromodel::md3::{AnimationCfg, Part, Player, SkinFile, ANIMATION_NAMES};
use retromodel::scene::{Pose, Scene};
use retromodel_testkit::md3_facts::{md3_facts, md3_tags, TagFacts};
use retromodel_testkit::md3_player_checks::cfg_lines;
use retromodel_testkit::openarena::{openarena_dir, players, PlayerFiles};

fn all_players() -> Option<Vec<PlayerFiles>> {
    let dir = openarena_dir()?;
    let p = players(&dir);
    assert!(!p.is_empty(), "no player in {}", dir.display());
    Some(p)
}

#[test]
fn every_animation_cfg_against_the_models_frame_counts() {
    let Some(players) = all_players() else { return };
    let mut checked = 0;
    for p in &players {
        let key = &p.folder;
        let cfg = AnimationCfg::parse(&p.animation_cfg).unwrap_or_else(|e| panic!("{key}: {e}"));
        let text = String::from_utf8_lossy(&p.animation_cfg);
        let lines = cfg_lines(&text);
        assert!(lines.len() >= 25, "{key}: {} animation lines", lines.len());
        assert_eq!(cfg.animations.len(), lines.len(), "{key}: animations");
        for (a, l) in cfg.animations.iter().zip(&lines) {
            assert_eq!(
                [
                    a.first_frame as f64,
                    a.num_frames as f64,
                    a.looping_frames as f64
                ],
                [l[0], l[1], l[2]],
                "{key}: {}",
                a.name
            );
            assert_eq!(a.fps as f64, l[3] as f32 as f64, "{key}: {} fps", a.name);
        }
        let frames = |i: usize| md3_facts(&p.parts[i]).expect("facts").num_frames as i64;
        let (lower, upper) = (frames(0), frames(1));
        // Independent of the parser's skip: from the lines themselves.
        let skip = lines[13][0] as i64 - lines[6][0] as i64;
        let mut legs_end = 0;
        let mut torso_end = 0;
        for (i, l) in lines.iter().enumerate().take(25) {
            let end = l[0] as i64 + (l[1] as i64).abs();
            if ANIMATION_NAMES[i].starts_with("LEGS_") {
                legs_end = legs_end.max(end - skip);
            } else {
                torso_end = torso_end.max(end);
            }
            if ANIMATION_NAMES[i].starts_with("BOTH_") {
                legs_end = legs_end.max(end);
            }
        }
        assert!(
            legs_end <= lower,
            "{key}: LEGS_ end at {legs_end}, lower.md3 has {lower}"
        );
        assert!(
            torso_end <= upper,
            "{key}: TORSO_ end at {torso_end}, upper.md3 has {upper}"
        );
        assert_eq!(cfg.legs_skip(), skip, "{key}");
        // And the parser's part frames agree.
        for i in 0..25 {
            let first = cfg.first_frame_in_part(i).unwrap();
            let expect = lines[i][0] as i64
                - if cfg.animations[i].part() == Part::Legs {
                    skip
                } else {
                    0
                };
            assert_eq!(first, expect, "{key}: {}", ANIMATION_NAMES[i]);
        }
        checked += 1;
    }
    eprintln!("{checked} animation.cfg files checked");
}

#[test]
fn every_skin_file_names_the_surfaces_of_its_model() {
    let Some(players) = all_players() else { return };
    let (mut files, mut lines, mut matched) = (0, 0, 0);
    for p in &players {
        for (name, bytes) in &p.skins {
            let key = format!("{}/{name}", p.folder);
            let skin = SkinFile::parse(bytes).unwrap_or_else(|e| panic!("{key}: {e}"));
            let part = ["lower", "upper", "head"]
                .iter()
                .position(|s| name.starts_with(s));
            files += 1;
            let Some(part) = part else { continue };
            let facts = md3_facts(&p.parts[part]).expect("facts");
            let surfaces: Vec<String> = facts
                .surfaces
                .iter()
                .map(|s| String::from_utf8_lossy(&s.name).to_ascii_lowercase())
                .collect();
            // Independently: the text's lines with a comma, not tags.
            let text = String::from_utf8_lossy(bytes);
            let expected = text
                .lines()
                .filter(|l| l.contains(',') && !l.contains("tag_"))
                .count();
            assert_eq!(skin.surfaces.len(), expected, "{key}");
            for s in &skin.surfaces {
                lines += 1;
                matched += usize::from(surfaces.contains(&s.surface));
            }
        }
    }
    eprintln!(
        "{files} .skin files, {lines} surface lines, {matched} naming a surface of their model"
    );
    assert!(files > 50, "{files} skin files");
    // OpenArena's skins name surfaces their models no longer have
    // (angelyss' l_hand, gargoyle's h_head): 421 of 495 lines match.
    assert!(matched * 10 >= lines * 8, "{matched} of {lines}");
}

/// A tag as the game uses it in Quake's axes: each axis normalised (as
/// ioquake3's `R_LerpTag` does) as a column, and the origin; and how far
/// the normalised axes are from orthogonal.
fn rigid(t: &TagFacts) -> (Mat3, Vec3, f32) {
    let a = t.axes.map(|a| Vec3::from(a).normalize());
    let m = Mat3::from_cols(a[0], a[1], a[2]);
    let d = (m.transpose() * m - Mat3::IDENTITY)
        .to_cols_array()
        .iter()
        .fold(0.0f32, |x, y| x.max(y.abs()));
    (m, Vec3::from(t.origin), d)
}

fn tag<'a>(frame: &'a [TagFacts], name: &str) -> &'a TagFacts {
    frame
        .iter()
        .find(|t| t.name == name.as_bytes())
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn a_lifted_players_head_sits_where_the_game_puts_it() {
    let Some(players) = all_players() else { return };
    let mut compared = 0;
    for (n, p) in players.iter().enumerate() {
        let key = &p.folder;
        let player = Player::from_bytes(
            &p.parts[0],
            &p.parts[1],
            &p.parts[2],
            Some(&p.animation_cfg),
            p.default_skins(),
        )
        .unwrap_or_else(|e| panic!("{key}: {e}"));
        let scene =
            Scene::from_md3_player(&player, key, 15.0).unwrap_or_else(|e| panic!("{key}: {e}"));
        // Every player lifts with every animation of its cfg.
        let cfg = player.animation_cfg.as_ref().unwrap();
        let names: Vec<&str> = scene.animations.iter().map(|a| a.name.as_str()).collect();
        // (but those of no frames: merman's LEGS_TURN is `192 0 0 0`)
        let written: Vec<&str> = cfg
            .animations
            .iter()
            .filter(|a| a.num_frames != 0)
            .map(|a| a.name)
            .collect();
        assert_eq!(names, written, "{key}: animations");
        let warnings = scene.extras["warnings"].to_string();
        for a in cfg.animations.iter().filter(|a| a.num_frames == 0) {
            assert!(
                warnings.contains(&format!("lower.md3: {}: 0 frames", a.name)),
                "{key}: {warnings}"
            );
        }
        if n % 6 != 0 {
            continue;
        }
        let node = |name: &str| scene.nodes.iter().position(|n| n.name == name).unwrap();
        let head = node("head");
        let lower_tags = md3_tags(&p.parts[0]).unwrap();
        let upper_tags = md3_tags(&p.parts[1]).unwrap();
        let mut pose = Pose::new(&scene).unwrap();
        for name in ["BOTH_DEATH1", "TORSO_ATTACK", "LEGS_RUN"] {
            let a = scene
                .animations
                .iter()
                .position(|a| a.name == name)
                .unwrap();
            let i = ANIMATION_NAMES.iter().position(|n| *n == name).unwrap();
            let written = &cfg.animations[i];
            let skip = if name.starts_with("LEGS_") {
                i64::from(cfg.animations[13].first_frame - cfg.animations[6].first_frame)
            } else {
                0
            };
            let fps = written.fps;
            for k in 0..written.num_frames.unsigned_abs() as usize {
                let f = (written.first_frame as i64 - skip) as usize + k;
                // Which frame each part is at: the animation's for the
                // parts it moves, frame 0 (the rest pose) for the other.
                let (lf, uf) = match name {
                    n if n.starts_with("BOTH_") => (f, f),
                    n if n.starts_with("TORSO_") => (0, f),
                    _ => (f, 0),
                };
                let (r1, t1, d) = rigid(tag(&lower_tags[lf], "tag_torso"));
                let (_, t2, _) = rigid(tag(&upper_tags[uf], "tag_head"));
                // Axes the engine leaves not quite orthogonal are made so
                // by the lift: the head may move by that angle's arc.
                let tolerance = 1e-4 + 2.0 * d * t2.length();
                let q = t1 + r1 * t2;
                let expect = Vec3::new(q.y, q.z, q.x);
                pose.sample(&scene, a, k as f32 / fps);
                let m = pose.node_matrix(head).unwrap();
                let got = Vec3::new(m[12], m[13], m[14]);
                assert!(
                    (got - expect).abs().max_element() < tolerance,
                    "{key}: {name} key {k}: head at {got}, the tags give {expect}"
                );
                compared += 1;
            }
        }
    }
    eprintln!("{compared} head positions compared");
    assert!(compared > 100);
}

/// A weapon (here a hand-made one, `md3_bytes`) hangs at the upper part's
/// `tag_weapon`, as `CG_AddPlayerWeapon` places it: at every key of
/// `TORSO_ATTACK` its node is at the lower part's `tag_torso` composed
/// with the upper's `tag_weapon`, from the bytes.
#[test]
fn a_weapon_is_held_at_tag_weapon() {
    use retromodel_testkit::md3_bytes::{md3_bytes, Md3Spec, SurfaceSpec};
    let Some(players) = all_players() else { return };
    let p = &players[0];
    let mut player = Player::from_bytes(
        &p.parts[0],
        &p.parts[1],
        &p.parts[2],
        Some(&p.animation_cfg),
        [None, None, None],
    )
    .unwrap();
    let weapon = md3_bytes(&Md3Spec {
        frames: 1,
        tags: 0,
        surfaces: vec![SurfaceSpec::new(1, 3, 1)],
    });
    player.weapon = Some(retromodel::md3::Md3::from_bytes(&weapon).unwrap());
    let scene = Scene::from_md3_player(&player, "p", 15.0).unwrap();
    let node = scene.nodes.iter().position(|n| n.name == "weapon").unwrap();
    let parent = scene.nodes[node].parent.unwrap();
    assert_eq!(scene.nodes[parent].name, "tag_weapon");
    assert!(scene.meshes.last().unwrap().node == Some(node));
    let cfg = player.animation_cfg.as_ref().unwrap();
    let lower_tags = md3_tags(&p.parts[0]).unwrap();
    let upper_tags = md3_tags(&p.parts[1]).unwrap();
    let a = scene
        .animations
        .iter()
        .position(|a| a.name == "TORSO_ATTACK")
        .unwrap();
    let written = &cfg.animations[7];
    let mut pose = Pose::new(&scene).unwrap();
    for k in 0..written.num_frames.unsigned_abs() as usize {
        let f = written.first_frame as usize + k;
        let (r1, t1, d) = rigid(tag(&lower_tags[0], "tag_torso"));
        let (_, t2, _) = rigid(tag(&upper_tags[f], "tag_weapon"));
        let q = t1 + r1 * t2;
        let expect = Vec3::new(q.y, q.z, q.x);
        pose.sample(&scene, a, k as f32 / written.fps);
        let m = pose.node_matrix(node).unwrap();
        let got = Vec3::new(m[12], m[13], m[14]);
        let tolerance = 1e-4 + 2.0 * d * t2.length();
        assert!(
            (got - expect).abs().max_element() < tolerance,
            "{}: key {k}: {got} vs {expect}",
            p.folder
        );
    }
}
