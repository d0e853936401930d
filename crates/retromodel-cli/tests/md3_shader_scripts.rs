//! A Quake III model whose surfaces name scripted shaders
//! (OpenArena's rocket: `rocketFlare`, `rocketThrust`, defined in
//! `scripts/*.shader`, drawn with images of other names) converts with
//! those images: the game folder above `models/` is searched for
//! `scripts/` and the images, as the game does. The oracle is the
//! scripts read here by hand, line by line: the last script (by name,
//! without case, as the game lists them) defining the shader, its first
//! `map`/`clampmap` not naming an engine image.

use retromodel_testkit::cli::run_os;
use retromodel_testkit::openarena::{openarena_dir, pk3_files, zip_entries};

/// The image `shader`'s first stage draws, by hand: in the last of
/// `scripts` (name, text; sorted here) defining it, within its braces
/// (`None`: it names none).
fn scripted_image(scripts: &mut [(String, String)], shader: &str) -> Option<Option<String>> {
    scripts.sort_by_key(|(n, _)| n.to_ascii_lowercase());
    let mut found = None;
    for (_, text) in scripts.iter() {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .collect();
        let Some(at) = lines.iter().position(|l| l.eq_ignore_ascii_case(shader)) else {
            continue;
        };
        let mut depth = 0;
        let mut image = None;
        for l in &lines[at + 1..] {
            let mut t = l.split_whitespace();
            if let (Some(word), Some(arg)) = (t.next(), t.next()) {
                let word = word.to_ascii_lowercase();
                if image.is_none()
                    && depth == 2
                    && matches!(word.as_str(), "map" | "clampmap")
                    && !arg.starts_with('$')
                {
                    image = Some(arg.to_string());
                }
            }
            depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
            if depth == 0 && l.contains('}') {
                break;
            }
        }
        found = Some(image);
    }
    found
}

#[test]
fn scripted_shaders_draw_their_scripts_images() {
    let Some(dir) = openarena_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("baseoa");
    let mut scripts = Vec::new();
    let mut images = Vec::new();
    for pk3 in pk3_files(&dir) {
        let bytes = std::fs::read(&pk3).unwrap();
        for (name, contents) in zip_entries(&bytes, ".shader") {
            if name.starts_with("scripts/") {
                scripts.push((
                    name.clone(),
                    String::from_utf8_lossy(&contents).into_owned(),
                ));
                let path = game.join(&name);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, contents).unwrap();
            }
        }
        for ext in [".md3", ".tga", ".jpg"] {
            for (name, contents) in zip_entries(&bytes, ext) {
                let keep = name.starts_with("models/ammo/rocket/")
                    || name.starts_with("textures/flares/")
                    || name.starts_with("textures/oafx/");
                if keep {
                    let path = game.join(&name);
                    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                    std::fs::write(&path, &contents).unwrap();
                    images.push(name);
                }
            }
        }
    }
    let model = game.join("models/ammo/rocket/rocket.md3");
    assert!(model.exists(), "rocket.md3 not in the pk3 files");
    let flare = scripted_image(&mut scripts, "rocketFlare").expect("rocketFlare in a script");
    let thrust = scripted_image(&mut scripts, "rocketThrust").expect("rocketThrust in a script");
    let glb = tmp.path().join("rocket.glb");
    let o = run_os(
        env!("CARGO_BIN_EXE_retromodel"),
        &["convert".as_ref(), model.as_os_str(), glb.as_os_str()],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("shader scripts"), "{err}");
    let bytes = std::fs::read(&glb).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    let materials = doc["materials"].as_array().unwrap();
    for (shader, image) in [("rocketFlare", &flare), ("rocketThrust", &thrust)] {
        // The material of the surfaces naming the shader.
        let m = materials
            .iter()
            .find(|m| {
                m["extras"]["md3_image"]
                    .as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case(shader))
            })
            .unwrap_or_else(|| panic!("no material of {shader}: {materials:?}"));
        let Some(image) = image else {
            // A shader naming no image (an empty stage): untextured.
            assert!(
                m["extras"].get("md3_shader_image").is_none(),
                "{shader}: {m}"
            );
            continue;
        };
        assert_eq!(
            m["extras"]["md3_shader_image"].as_str(),
            Some(image.as_str()),
            "{shader}"
        );
        // Found in the game folder and embedded when the pk3s have it.
        if images.iter().any(|n| n.eq_ignore_ascii_case(image)) {
            let texture = m["pbrMetallicRoughness"]["baseColorTexture"]["index"]
                .as_u64()
                .expect("textured");
            let source = doc["textures"][texture as usize]["source"]
                .as_u64()
                .unwrap();
            assert_eq!(
                doc["images"][source as usize]["extras"]["path"].as_str(),
                Some(image.as_str())
            );
        }
    }
}
