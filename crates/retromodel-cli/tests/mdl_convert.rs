//! `convert x.mdl x.glb|x.obj` and `render x.mdl` from the command line:
//! the palette found where Quake keeps it (`GAME/gfx/palette.lmp` for
//! `GAME/progs/x.mdl`) or given with `--palette`, and a warning naming
//! `--palette` when there is none. The model is the test kit's byte-built
//! tetrahedron; the palette is made here, and colours are checked against
//! it with an independent PNG decoder.

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::mdl_bytes::tetra_quake;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A palette whose every colour says its index: (i, 255 − i, i / 2).
fn palette() -> Vec<u8> {
    (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect()
}

/// The tetrahedron with its last skin texel (of 8×4) made fullbright.
fn model() -> Vec<u8> {
    let mut b = tetra_quake();
    b[88 + 31] = 250;
    b
}

/// The glb's JSON and its images, decoded by the `image` crate.
fn glb(path: &Path) -> (serde_json::Value, Vec<image::RgbaImage>) {
    let b = std::fs::read(path).unwrap();
    let json_len = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&b[20..20 + json_len]).unwrap();
    let bin = &b[20 + json_len + 8..];
    let images = doc["images"]
        .as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|img| {
            let view = &doc["bufferViews"][img["bufferView"].as_u64().unwrap() as usize];
            let at = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            let len = view["byteLength"].as_u64().unwrap() as usize;
            image::load_from_memory(&bin[at..at + len])
                .unwrap()
                .to_rgba8()
        })
        .collect();
    (doc, images)
}

#[test]
fn the_palette_beside_progs_decodes_the_skin_and_its_fullbrights() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("id1");
    std::fs::create_dir_all(game.join("progs")).unwrap();
    std::fs::create_dir_all(game.join("gfx")).unwrap();
    std::fs::write(game.join("gfx/palette.lmp"), palette()).unwrap();
    let input = game.join("progs/tetra.mdl");
    std::fs::write(&input, model()).unwrap();
    let out = dir.path().join("out/tetra.glb");
    let o = run(&["convert", input.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
    let (doc, images) = glb(&out);
    let m = &doc["materials"][0];
    let skin = &images[m["pbrMetallicRoughness"]["baseColorTexture"]["index"]
        .as_u64()
        .unwrap() as usize];
    let glow = &images[m["emissiveTexture"]["index"].as_u64().unwrap() as usize];
    let pal = palette();
    for p in 0..32u32 {
        let index = if p == 31 { 250 } else { p as usize };
        let (x, y) = (p % 8, p / 8);
        assert_eq!(&skin.get_pixel(x, y).0[..3], &pal[3 * index..3 * index + 3]);
        let want: &[u8] = if index >= 224 {
            &pal[3 * index..3 * index + 3]
        } else {
            &[0, 0, 0]
        };
        assert_eq!(&glow.get_pixel(x, y).0[..3], want, "glow {x},{y}");
    }
    // Three simple frames (one single, a group of two) are three targets.
    let targets = doc["meshes"][0]["primitives"][0]["targets"]
        .as_array()
        .unwrap();
    assert_eq!(targets.len(), 3);

    // OBJ and a render from the same folder need no flag either.
    let obj = dir.path().join("out/tetra.obj");
    let o = run(&["convert", input.to_str().unwrap(), obj.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let mtl = std::fs::read_to_string(dir.path().join("out/tetra.mtl")).unwrap();
    assert!(mtl.contains("map_Kd ") && mtl.contains("map_Ke "), "{mtl}");
    let png = dir.path().join("out/tetra.png");
    let o = run(&["render", input.to_str().unwrap(), png.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
}

#[test]
fn without_a_palette_the_model_converts_untextured_and_the_warning_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("tetra.mdl");
    std::fs::write(&input, model()).unwrap();
    let out = dir.path().join("tetra.glb");
    let o = run(&["convert", input.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("no palette") && err.contains("--palette FILE"),
        "{err}"
    );
    assert!(!err.contains("::"), "{err}");
    let (doc, images) = glb(&out);
    assert!(images.is_empty());
    assert!(doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"].is_null());

    // --palette gives it.
    let pal = dir.path().join("quake.lmp");
    std::fs::write(&pal, palette()).unwrap();
    let out2 = dir.path().join("tetra2.glb");
    let o = run(&[
        "convert",
        input.to_str().unwrap(),
        out2.to_str().unwrap(),
        "--palette",
        pal.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
    let (_, images) = glb(&out2);
    assert_eq!(&images[0].get_pixel(1, 0).0[..3], &palette()[3..6]);
}
