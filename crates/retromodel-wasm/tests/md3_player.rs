//! A Quake III player dropped on the page, natively: every OpenArena
//! player folder's files (taken out of the pk3 files by the testkit's
//! own zip reader) make a session of its `lower.md3` that is the whole
//! player, lists its skin sets (the `lower_NAME.skin` files) and its
//! `animation.cfg`'s animations (counted from the cfg's lines here); for
//! sarge, the scene has the three part nodes and each part's surfaces (read
//! from the MD3 headers here) as meshes under it, and no dropped image is
//! suggested as a `--skin` over the whole player.

use retromodel::convert::ConvertOptions;
use retromodel::texture::MemorySource;
use retromodel_testkit::openarena::{openarena_dir, players, PlayerFiles};
use retromodel_wasm::session::Session;

/// The player's files dropped as its folder.
fn dropped(p: &PlayerFiles) -> MemorySource {
    let mut files = MemorySource::new();
    for (name, bytes) in ["lower.md3", "upper.md3", "head.md3"].iter().zip(&p.parts) {
        files
            .add(&format!("{}/{name}", p.folder), bytes.clone())
            .unwrap();
    }
    files
        .add(
            &format!("{}/animation.cfg", p.folder),
            p.animation_cfg.clone(),
        )
        .unwrap();
    for (name, bytes) in &p.skins {
        files
            .add(&format!("{}/{name}", p.folder), bytes.clone())
            .unwrap();
    }
    files
}

/// The lines of an animation.cfg that are four numbers (an animation
/// each, in order), with the name of the `// NAME` comment when there is
/// one.
fn cfg_lines(cfg: &[u8]) -> Vec<Option<String>> {
    String::from_utf8_lossy(cfg)
        .lines()
        .filter_map(|line| {
            let (data, comment) = line.split_once("//").unwrap_or((line, ""));
            let fields: Vec<&str> = data.split_whitespace().collect();
            (fields.len() == 4 && fields.iter().all(|f| f.parse::<i64>().is_ok())).then(|| {
                comment
                    .split_whitespace()
                    .next()
                    .filter(|n| {
                        n.starts_with("BOTH_") || n.starts_with("TORSO_") || n.starts_with("LEGS_")
                    })
                    .map(str::to_string)
            })
        })
        .collect()
}

/// How many surfaces an MD3 has (the header's count, at byte 84).
fn surface_count(md3: &[u8]) -> usize {
    usize::try_from(i32::from_le_bytes(md3[84..88].try_into().unwrap())).unwrap()
}

#[test]
fn every_openarena_player_dropped_is_the_whole_player_with_its_skin_sets_and_animations() {
    let Some(dir) = openarena_dir() else {
        return;
    };
    let all = players(&dir);
    // pak0.pk3's and the players' pk3s: 17 with openarena-data 0.8.8.
    assert!(all.len() > 1, "{} players", all.len());
    assert!(all.iter().any(|p| p.folder == "models/players/sarge"));
    for p in &all {
        let files = dropped(p);
        let lower = format!("{}/lower.md3", p.folder);
        let session = Session::load(&files, &lower).unwrap_or_else(|e| panic!("{lower}: {e}"));
        assert!(session.is_md3_player(), "{lower}");
        let mut sets: Vec<String> = p
            .skins
            .iter()
            .filter_map(|(n, _)| n.strip_prefix("lower_")?.strip_suffix(".skin"))
            .map(str::to_string)
            .collect();
        sets.sort_by_key(|s| (s != "default", s.clone()));
        assert_eq!(session.skin_sets(), sets, "{lower}");
        let lines = cfg_lines(&p.animation_cfg);
        let names: Vec<String> = session.animations().into_iter().map(|a| a.name).collect();
        assert_eq!(
            names.len(),
            lines.len().min(names.len()),
            "{lower}: {names:?}"
        );
        for (name, line) in names.iter().zip(&lines) {
            if let Some(line) = line {
                assert_eq!(name, line, "{lower}");
            }
        }
        // upper.md3 alone is no player.
        let upper = Session::load(&files, &format!("{}/upper.md3", p.folder)).unwrap();
        assert!(!upper.is_md3_player());
    }
    let sarge = all
        .iter()
        .find(|p| p.folder == "models/players/sarge")
        .unwrap();
    let mut files = dropped(sarge);
    // Without the textures its .skin files name (in grism's folder), the
    // player is untextured: no dropped image (its icon) is put over every
    // part as a --skin.
    files
        .add("models/players/sarge/icon_default.tga", vec![0; 18])
        .unwrap();
    let lone = Session::load(&files, "models/players/sarge/lower.md3").unwrap();
    assert_eq!(lone.images(), ["models/players/sarge/icon_default.tga"]);
    assert_eq!(lone.suggested_skin(), None);
    let session =
        Session::load_with_skin_set(&files, "models/players/sarge/lower.md3", Some("red")).unwrap();
    assert_eq!(session.skin_set(), Some("red"));
    let scene = session
        .decoded_scene(&ConvertOptions::default())
        .unwrap()
        .scene;
    for (part, md3) in ["lower", "upper", "head"].iter().zip(&sarge.parts) {
        let node = scene
            .nodes
            .iter()
            .position(|n| n.name == *part)
            .unwrap_or_else(|| panic!("no node {part}"));
        // The meshes under the part's node, not under another part's.
        let under = |mut n: usize| loop {
            if n == node {
                return true;
            }
            let nd = &scene.nodes[n];
            if nd.extras.get("md3_part").is_some() && n != node {
                return false;
            }
            match nd.parent {
                Some(p) => n = p,
                None => return false,
            }
        };
        let meshes = scene
            .meshes
            .iter()
            .filter(|m| m.node.is_some_and(under))
            .count();
        assert_eq!(meshes, surface_count(md3), "{part}");
    }
}
