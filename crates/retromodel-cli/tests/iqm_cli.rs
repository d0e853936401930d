//! Inter-Quake Models on the command line, on the corpus's IQM files
//! (`RETROMODEL_CORPUS`/iqm: lsalzman's mrfixit with `Body.tga` and
//! `Head.tga`, raylib's guy with `raylib_guytex.png` and its
//! animation-only `guyanim`): textures found by the names the materials
//! store (the texture lookup's rules, as for an MD3's shader names: the
//! name as written, then without its extension with each image extension,
//! case-insensitively), `render` stills and GIFs, `info --json` against
//! the corpus's facts.json, `validate` and `validate --engine`, and a
//! folder's batch conversion. Each expectation is read here from the
//! files' own bytes (TGA headers, PNG and GIF decoders, GLB JSON).
//! Skipped (with a note) without the corpus.

use std::path::{Path, PathBuf};
use std::process::Output;

use retromodel_testkit::cli::run_os;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The corpus's IQM folder, or `None` (the test is skipped) without it.
fn corpus() -> Option<PathBuf> {
    let root = std::env::var_os("RETROMODEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let dir = root.join("iqm");
    if dir.join("lsalzman_mrfixit.iqm").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: no corpus IQM files at {}", dir.display());
        None
    }
}

/// A fresh folder holding `files` of the corpus folder (renamed when a
/// pair `(from, to)` is given).
fn folder_with(corpus: &Path, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in files {
        std::fs::copy(corpus.join(from), dir.path().join(to)).unwrap();
    }
    dir
}

/// Width and height of a TGA, from its header (bytes 12..16).
fn tga_size(bytes: &[u8]) -> (u32, u32) {
    let w = u16::from_le_bytes([bytes[12], bytes[13]]);
    let h = u16::from_le_bytes([bytes[14], bytes[15]]);
    (u32::from(w), u32::from(h))
}

/// A GLB's JSON chunk and its binary chunk.
fn glb_parts(path: &Path) -> (serde_json::Value, Vec<u8>) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..4], b"glTF");
    let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize;
    let json_len = u32_at(12);
    let json = serde_json::from_slice(&b[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = if bin_at + 8 <= b.len() {
        b[bin_at + 8..bin_at + 8 + u32_at(bin_at)].to_vec()
    } else {
        Vec::new()
    };
    (json, bin)
}

/// Each image of a GLB: its name and its size, decoded here from the
/// PNG its buffer view holds.
fn glb_images(path: &Path) -> Vec<(String, (u32, u32))> {
    let (json, bin) = glb_parts(path);
    let Some(images) = json["images"].as_array() else {
        return Vec::new();
    };
    images
        .iter()
        .map(|im| {
            assert_eq!(im["mimeType"], "image/png");
            let view = &json["bufferViews"][im["bufferView"].as_u64().unwrap() as usize];
            let at = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            let len = view["byteLength"].as_u64().unwrap() as usize;
            let png = image::load_from_memory(&bin[at..at + len]).unwrap();
            (
                im["name"].as_str().unwrap_or_default().to_string(),
                (png.width(), png.height()),
            )
        })
        .collect()
}

/// The base colour image of each material of a GLB, by material name.
fn material_images(path: &Path) -> Vec<(String, Option<u64>)> {
    let (json, _) = glb_parts(path);
    json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let texture = m["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64();
            let image = texture.and_then(|t| json["textures"][t as usize]["source"].as_u64());
            (m["name"].as_str().unwrap().to_string(), image)
        })
        .collect()
}

/// The mrfixit's two materials find `Body.tga` and `Head.tga` beside it:
/// the .glb embeds both, at the sizes their TGA headers give, each the
/// image of its material.
#[test]
fn convert_mrfixit_embeds_both_tga_textures() {
    let Some(corpus) = corpus() else { return };
    let dir = folder_with(
        &corpus,
        &[
            ("lsalzman_mrfixit.iqm", "mrfixit.iqm"),
            ("Body.tga", "Body.tga"),
            ("Head.tga", "Head.tga"),
        ],
    );
    let glb = dir.path().join("out.glb");
    let o = run(&["convert", s(&dir.path().join("mrfixit.iqm")), s(&glb)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("not found"), "{}", text(&o));
    let body = tga_size(&std::fs::read(corpus.join("Body.tga")).unwrap());
    let head = tga_size(&std::fs::read(corpus.join("Head.tga")).unwrap());
    assert_ne!(body, head, "the test tells the two apart by size");
    let images = glb_images(&glb);
    assert_eq!(images.len(), 2, "{images:?}");
    let size_of = |name: &str| images.iter().find(|(n, _)| n == name).map(|i| i.1);
    assert_eq!(size_of("Body.tga"), Some(body));
    assert_eq!(size_of("Head.tga"), Some(head));
    let materials = material_images(&glb);
    assert_eq!(materials.len(), 2);
    for (name, image) in &materials {
        let image = image.unwrap_or_else(|| panic!("material {name} untextured"));
        assert_eq!(&images[image as usize].0, name, "material {name}'s image");
    }
}

/// Materials named as engines name them: `Body` without an extension
/// finds `Body.tga` (each image extension tried), and `Head.tga` with only
/// `head.PNG` beside it finds that (the other image extensions tried,
/// names matched case-insensitively), as ioquake3's `R_FindImageFile`
/// (through `R_LoadImage`) tries the name, then its stem with each
/// image extension. The material strings are changed in the file's text
/// section in place (`Body.tga` → `Body\0tga`).
#[test]
fn material_names_without_extension_or_with_another_one_find_their_images() {
    let Some(corpus) = corpus() else { return };
    let dir = folder_with(
        &corpus,
        &[
            ("Body.tga", "Body.tga"),
            // 1024 × 1024, unlike Head.tga's 512 × 512: the PNG is the one found.
            ("raylib_guytex.png", "head.PNG"),
        ],
    );
    let mut iqm = std::fs::read(corpus.join("lsalzman_mrfixit.iqm")).unwrap();
    let at = iqm
        .windows(9)
        .position(|w| w == b"Body.tga\0")
        .expect("the material string");
    iqm[at + 4] = 0;
    std::fs::write(dir.path().join("mrfixit.iqm"), &iqm).unwrap();
    let glb = dir.path().join("out.glb");
    let o = run(&["convert", s(&dir.path().join("mrfixit.iqm")), s(&glb)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("not found"), "{}", text(&o));
    let info = run(&["info", "--json", s(&dir.path().join("mrfixit.iqm"))]);
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(info["meshes"][0]["material"], "Body");
    let body = tga_size(&std::fs::read(corpus.join("Body.tga")).unwrap());
    let images = glb_images(&glb);
    assert_eq!(
        images,
        vec![
            ("Body".to_string(), body),
            ("Head.tga".to_string(), (1024, 1024))
        ]
    );
}

/// raylib's guy names its material `Materialcube` (raylib ignores IQM
/// materials: its example loads `guytex.png` itself): no file by that
/// name, a warning naming it and an untextured .glb; `--skin` gives the
/// texture; and `Materialcube.png` beside it is found by the name (no
/// extension: each image extension tried).
#[test]
fn raylib_guy_names_materialcube_and_takes_its_texture_by_skin_or_by_name() {
    let Some(corpus) = corpus() else { return };
    let dir = folder_with(
        &corpus,
        &[
            ("raylib_guy.iqm", "guy.iqm"),
            ("raylib_guytex.png", "raylib_guytex.png"),
        ],
    );
    let model = dir.path().join("guy.iqm");
    let info = run(&["info", "--json", s(&model)]);
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(info["meshes"][0]["material"], "Materialcube");

    let plain = dir.path().join("plain.glb");
    let o = run(&["convert", s(&model), s(&plain)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("\"Materialcube\" not found"),
        "{}",
        text(&o)
    );
    assert!(glb_images(&plain).is_empty());

    let skinned = dir.path().join("skinned.glb");
    let skin = dir.path().join("raylib_guytex.png");
    let o = run(&["convert", s(&model), s(&skinned), "--skin", s(&skin)]);
    assert!(o.status.success(), "{}", text(&o));
    let images = glb_images(&skinned);
    assert_eq!(images.len(), 1, "{images:?}");
    assert_eq!(images[0].1, (1024, 1024));
    assert_eq!(material_images(&skinned)[0].1, Some(0));

    std::fs::rename(&skin, dir.path().join("Materialcube.png")).unwrap();
    let named = dir.path().join("named.glb");
    let o = run(&["convert", s(&model), s(&named)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("not found"), "{}", text(&o));
    assert_eq!(
        glb_images(&named),
        vec![("Materialcube".to_string(), (1024, 1024))]
    );
}

/// Width, height and frame count of a GIF (decoded by the `gif` crate).
fn gif_frames(path: &Path) -> (u16, u16, usize) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    (decoder.width(), decoder.height(), frames)
}

/// `render X.iqm out.png`: the size asked, the model drawn (many opaque
/// pixels of many colours: textured); a GIF of an animation: one image a
/// frame at the rate asked, its end included (mrfixit's `idle`, 101
/// frames at 24 fps, not a closed loop, lasts 100 / 24 s: 101 images at
/// 24 fps, 51 at 12, 26 at 6), and of every animation (guy's `jump` and
/// `dance`, 61 frames at 24 fps each whose last is their first: 60 + 60
/// images).
#[test]
fn render_png_and_animated_gif() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mrfixit = corpus.join("lsalzman_mrfixit.iqm");
    let png = dir.path().join("m.png");
    let o = run(&["render", s(&mrfixit), s(&png), "--size", "160x120"]);
    assert!(o.status.success(), "{}", text(&o));
    let img = image::open(&png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (160, 120));
    let opaque: Vec<[u8; 4]> = img.pixels().map(|p| p.0).filter(|p| p[3] > 0).collect();
    let background = img.get_pixel(0, 0).0;
    let drawn = img.pixels().filter(|p| p.0 != background).count();
    assert!(
        drawn > 160 * 120 / 20,
        "{drawn} pixels differ from the background"
    );
    let mut colours: Vec<[u8; 4]> = opaque;
    colours.sort_unstable();
    colours.dedup();
    assert!(
        colours.len() > 200,
        "{} colours: untextured?",
        colours.len()
    );

    for (fps, images) in [("24", 101), ("12", 51), ("6", 26)] {
        let gif = dir.path().join(format!("idle{fps}.gif"));
        let o = run(&[
            "render",
            s(&mrfixit),
            s(&gif),
            "--size",
            "48",
            "--anim",
            "idle",
            "--fps",
            fps,
        ]);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(gif_frames(&gif), (48, 48, images), "idle at {fps} fps");
    }
    let gif = dir.path().join("guy.gif");
    let o = run(&[
        "render",
        s(&corpus.join("raylib_guy.iqm")),
        s(&gif),
        "--size",
        "40x32",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(gif_frames(&gif), (40, 32, 120));
}

/// `info --json` of mrfixit against the corpus's facts.json (written from
/// the file by another reader): counts, materials, joint names,
/// animations, arrays, bind box.
#[test]
fn info_json_matches_the_corpus_facts() {
    let Some(corpus) = corpus() else { return };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("facts.json")).unwrap()).unwrap();
    let fact = facts
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "lsalzman_mrfixit.iqm")
        .expect("mrfixit's facts");
    let o = run(&["info", "--json", s(&corpus.join("lsalzman_mrfixit.iqm"))]);
    assert!(o.status.success(), "{}", text(&o));
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["format"], fact["format"]);
    assert_eq!(info["version"], fact["version"]);
    assert_eq!(
        info["meshes"].as_array().unwrap().len() as u64,
        fact["meshes"].as_u64().unwrap()
    );
    assert_eq!(info["vertices"], fact["vertexes"]);
    assert_eq!(info["triangles"], fact["triangles"]);
    assert_eq!(info["joints"], fact["joint_names"]);
    assert_eq!(
        info["joints"].as_array().unwrap().len() as u64,
        fact["joints"].as_u64().unwrap()
    );
    assert_eq!(info["poses"], fact["poses"]);
    assert_eq!(info["frames"], fact["frames"]);
    let anims: Vec<serde_json::Value> = info["anims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| serde_json::json!([a["name"], a["frames"], a["fps"]]))
        .collect();
    assert_eq!(serde_json::Value::from(anims), fact["anims"]);
    let materials: Vec<&serde_json::Value> = info["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["material"])
        .collect();
    assert_eq!(serde_json::to_value(materials).unwrap(), fact["materials"]);
    let mut arrays: Vec<&str> = info["arrays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    arrays.sort_unstable();
    assert_eq!(serde_json::to_value(arrays).unwrap(), fact["arrays"]);
    for (corner, got) in info["bind_box"].as_array().unwrap().iter().enumerate() {
        for (axis, v) in got.as_array().unwrap().iter().enumerate() {
            let want = fact["bind_box"][corner][axis].as_f64().unwrap();
            assert!(
                (v.as_f64().unwrap() - want).abs() < 1e-3,
                "bind box {corner} {axis}"
            );
        }
    }
}

/// `validate`: 0 for the corpus files, 1 for a truncated one; `--engine
/// ioquake3` 1 for mrfixit, naming its first mesh (1,476 vertices) over
/// ioquake3's 999; `--engine fte` 0.
#[test]
fn validate_exit_codes_and_engines() {
    let Some(corpus) = corpus() else { return };
    let mrfixit = corpus.join("lsalzman_mrfixit.iqm");
    for f in [
        "lsalzman_mrfixit.iqm",
        "raylib_guy.iqm",
        "raylib_guyanim.iqm",
    ] {
        let o = run(&["validate", s(&corpus.join(f))]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", text(&o));
    }
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.iqm");
    let bytes = std::fs::read(&mrfixit).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let o = run(&["validate", s(&cut)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    let o = run(&["validate", "--engine", "ioquake3", s(&mrfixit)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    let line = out
        .lines()
        .find(|l| l.contains("error") && l.contains("num_vertexes"))
        .unwrap_or_else(|| panic!("no vertex error: {out}"));
    assert!(line.contains("meshes[0]"), "{line}");
    assert!(line.contains("1476") && line.contains("999"), "{line}");

    let o = run(&["validate", "--engine", "fte", s(&mrfixit)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// `convert DIR --out-dir OUT --to glb` over the three files: guy and
/// mrfixit converted; guyanim (animations only: poses, no mesh, no
/// joint) an error saying so, which does not stop the batch (exit 1, as
/// for any failed file).
#[test]
fn batch_converts_a_folder_and_explains_the_animation_only_file() {
    let Some(corpus) = corpus() else { return };
    let dir = folder_with(
        &corpus,
        &[
            ("lsalzman_mrfixit.iqm", "lsalzman_mrfixit.iqm"),
            ("raylib_guy.iqm", "raylib_guy.iqm"),
            ("raylib_guyanim.iqm", "raylib_guyanim.iqm"),
            ("Body.tga", "Body.tga"),
            ("Head.tga", "Head.tga"),
        ],
    );
    let out = dir.path().join("out");
    let o = run(&[
        "convert",
        s(dir.path()),
        "--out-dir",
        s(&out),
        "--to",
        "glb",
    ]);
    let said = text(&o);
    assert_eq!(o.status.code(), Some(1), "{said}");
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["lsalzman_mrfixit.glb", "raylib_guy.glb"],
        "{said}"
    );
    assert_eq!(glb_images(&out.join("lsalzman_mrfixit.glb")).len(), 2);
    let line = said
        .lines()
        .find(|l| l.contains("raylib_guyanim.iqm"))
        .unwrap_or_else(|| panic!("nothing said of guyanim: {said}"));
    assert!(line.contains("animations only"), "{line}");
    assert!(line.contains("same joints"), "{line}");
    assert!(said.contains("converted 2, failed 1"), "{said}");
    // Alone, the same error.
    let o = run(&[
        "convert",
        s(&dir.path().join("raylib_guyanim.iqm")),
        s(&dir.path().join("anim.glb")),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("animations only"), "{}", text(&o));
}

/// The .glb of mrfixit in three.js (`acceptance/iqm_three.mjs`): skinned
/// by its `idle` clip at a few frames, every triangle corner where the
/// IQM's own frames, evaluated by the script from the file's bytes, put
/// it. Skipped without `acceptance/node_modules` (`npm ci` there).
#[test]
fn three_js_skins_the_glb_as_the_iqm_frames_say() {
    let Some(corpus) = corpus() else { return };
    let acceptance = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../acceptance");
    if !acceptance.join("node_modules/three").is_dir() {
        eprintln!("skipped three.js: no acceptance/node_modules (cd acceptance && npm ci)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let iqm = corpus.join("lsalzman_mrfixit.iqm");
    let glb = dir.path().join("mrfixit.glb");
    let o = run(&["convert", s(&iqm), s(&glb)]);
    assert!(o.status.success(), "{}", text(&o));
    let out = std::process::Command::new("node")
        .arg(acceptance.join("iqm_three.mjs"))
        .args([s(&iqm), s(&glb), "idle", "0", "1", "37", "100"])
        .output()
        .expect("node runs");
    let said = String::from_utf8_lossy(&out.stdout);
    eprintln!("{said}");
    assert!(
        out.status.success(),
        "three.js: {said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        said.lines().filter(|l| l.starts_with("ok ")).count(),
        4,
        "{said}"
    );
}
