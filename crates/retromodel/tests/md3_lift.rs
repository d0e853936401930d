//! The MD3 lift on hand-made files (the test kit's `md3_bytes`, written
//! from `qfiles.h`): a mesh and a material per surface, `.skin` images,
//! tags as nodes keyed per frame, warnings for scaled tag axes,
//! `animation.cfg` animations, and a player's missing tag.

#![cfg(feature = "scene")]

use retromodel::md3::{AnimationCfg, Md3, Md3SceneOptions, Player, PlayerPart, SkinFile};
use retromodel::scene::{Scene, Target};
use retromodel_testkit::md3_bytes::{md3_bytes, Md3Spec, SurfaceSpec};

fn spec() -> Md3Spec {
    let surface = |name: &str| SurfaceSpec {
        name: name.into(),
        ..SurfaceSpec::new(4, 5, 3)
    };
    Md3Spec {
        frames: 4,
        tags: 2,
        surfaces: vec![surface("a"), surface("b")],
    }
}

/// Where tag `t` of frame `f` starts in `md3_bytes`' layout: header,
/// frames of 56 bytes, then tags of 112.
fn tag_at(spec: &Md3Spec, f: usize, t: usize) -> usize {
    108 + 56 * spec.frames + 112 * (f * spec.tags + t)
}

#[test]
fn surfaces_materials_skins_tags_and_frames() {
    let spec = spec();
    let mut bytes = md3_bytes(&spec);
    // Frame 2's tag_1: axes twice as long (as OpenArena's sergei has
    // them 8.1 long), origin moved to (5, 6, 7).
    let at = tag_at(&spec, 2, 1);
    for (k, v) in [
        5.0f32, 6.0, 7.0, 2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0,
    ]
    .iter()
    .enumerate()
    {
        bytes[at + 64 + 4 * k..at + 68 + 4 * k].copy_from_slice(&v.to_le_bytes());
    }
    let model = Md3::from_bytes(&bytes).unwrap();
    let options = Md3SceneOptions {
        skin: Some(SkinFile::parse(b"A,skins/a.tga\ntag_0,\n").unwrap()),
        ..Md3SceneOptions::default()
    };
    let scene = Scene::from_md3(&model, &options).unwrap();
    assert_eq!(scene.meshes.len(), 2);
    let texture = |m: usize| {
        let t = scene.materials[scene.meshes[m].material.unwrap()]
            .texture
            .unwrap();
        scene.textures[t].path.as_str()
    };
    assert_eq!(texture(0), "skins/a.tga");
    assert_eq!(texture(1), "shader0");
    assert_eq!(scene.meshes[0].morph_targets.len(), 4);
    let names: Vec<&str> = scene.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["tag_0", "tag_1"]);
    // md3_bytes puts tag t at (t, 0, 0): Quake's x is the scene's z.
    assert_eq!(scene.nodes[1].translation, [0.0, 0.0, 1.0]);
    assert_eq!(scene.animations.len(), 1);
    let a = &scene.animations[0];
    assert_eq!(a.name, "frames");
    let translation = a
        .channels
        .iter()
        .find(|c| c.target == Target::Translation { node: 1 })
        .unwrap();
    assert_eq!(translation.times.len(), 4);
    assert_eq!(&translation.values[6..9], &[6.0, 7.0, 5.0]);
    let rotation = a
        .channels
        .iter()
        .find(|c| c.target == Target::Rotation { node: 1 })
        .unwrap();
    assert_eq!(&rotation.values[8..12], &[0.0, 0.0, 0.0, 1.0]);
    let warnings = scene.extras["warnings"].to_string();
    assert!(
        warnings.contains("tag_1") && warnings.contains("1 of 4 frames"),
        "{warnings}"
    );
}

#[test]
fn animation_cfg_animations_on_a_lower_part_and_a_players_missing_tag() {
    let spec = spec();
    let model = Md3::from_bytes(&md3_bytes(&spec)).unwrap();
    // 25 animations of one frame each: BOTH_ at 0..=1, TORSO_ at 2..,
    // LEGS_ written from 3 (skip 1: lower.md3 has them from 2).
    let mut text = String::new();
    for i in 0..25 {
        let first = match i {
            0..=5 => i % 2,
            6..=12 => 2,
            _ => 3,
        };
        text.push_str(&format!("{first} 1 0 10\n"));
    }
    let cfg = AnimationCfg::parse(text.as_bytes()).unwrap();
    let options = Md3SceneOptions {
        animation_cfg: Some(cfg.clone()),
        part: Some(PlayerPart::Lower),
        ..Md3SceneOptions::default()
    };
    let scene = Scene::from_md3(&model, &options).unwrap();
    let names: Vec<&str> = scene.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names.len(), 6 + 12, "{names:?}");
    assert!(names[..6].iter().all(|n| n.starts_with("BOTH_")));
    assert!(names[6..].iter().all(|n| n.starts_with("LEGS_")));
    // LEGS_WALKCR plays frame 3 - 1 = 2: its one key's weights.
    let walk = &scene.animations[6];
    let weights = &walk.channels[0].values;
    assert_eq!(weights, &[0.0, 0.0, 1.0, 0.0]);
    assert_eq!(walk.extras["first_frame"], 2);
    assert_eq!(walk.extras["cfg_first_frame"], 3);

    let bytes = md3_bytes(&spec);
    let player = Player::from_bytes(
        &bytes,
        &bytes,
        &bytes,
        Some(text.as_bytes()),
        [None, None, None],
    )
    .unwrap();
    let e = Scene::from_md3_player(&player, "p", 15.0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("lower.md3 has no tag_torso"), "{e}");
}

#[test]
fn without_a_cfg_runs_of_frame_names_are_the_animations() {
    let spec = spec();
    let mut bytes = md3_bytes(&spec);
    // md3Frame_t's 16-byte name is at byte 40 of each 56-byte frame.
    for (f, name) in ["run1", "run2", "idle1", "idle2"].iter().enumerate() {
        let at = 108 + 56 * f + 40;
        bytes[at..at + 16].fill(0);
        bytes[at..at + name.len()].copy_from_slice(name.as_bytes());
    }
    let model = Md3::from_bytes(&bytes).unwrap();
    let scene = Scene::from_md3(&model, &Md3SceneOptions::default()).unwrap();
    let runs: Vec<(&str, usize, f32)> = scene
        .animations
        .iter()
        .map(|a| (a.name.as_str(), a.channels[0].times.len(), a.duration()))
        .collect();
    assert_eq!(runs, [("run", 2, 1.0 / 15.0), ("idle", 2, 1.0 / 15.0)]);
    // idle's first key is frame 2.
    assert_eq!(
        &scene.animations[1].channels[0].values[..4],
        &[0.0, 0.0, 1.0, 0.0]
    );
}
