//! What an MD2 record carries through a scene and a GLB besides what the
//! scene shows, checked on a hand-made file (`retromodel_testkit::
//! md2_unused`) against its own bytes, not against the library's reader:
//! vertices no triangle uses, normal indices past the table, degenerate
//! triangles, stale bytes in names, and the skin names and size, which a
//! compile keeps unless a skin name is given.

#![cfg(all(feature = "scene", feature = "gltf"))]

use retromodel::gltf::{import, to_glb, ImportOptions};
use retromodel::md2::compile::{compile, CompileOptions, CompileWarning, Compiled};
use retromodel::md2::Md2;
use retromodel::md2::Md2SceneOptions;
use retromodel::scene::Scene;
use retromodel_testkit::md2_builder::le_i32;
use retromodel_testkit::md2_unused as hand;

/// The scene of the hand-made MD2 as our GLB gives it back.
fn through_glb() -> Scene {
    let model = Md2::from_bytes(&hand::bytes()).unwrap();
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let glb = to_glb(&scene).unwrap();
    import(&glb, None, &ImportOptions::default()).unwrap().scene
}

/// An MD2 file's sections, read here from the format's description:
/// skin size, skin records, texture coordinates, triangles and frame
/// records (40 header bytes and `num_vertices` packed vertices each).
struct Sections {
    skin_size: (i32, i32),
    skins: Vec<Vec<u8>>,
    texcoords: Vec<(i16, i16)>,
    triangles: Vec<([u16; 3], [u16; 3])>,
    frames: Vec<Vec<u8>>,
}

fn sections(b: &[u8]) -> Sections {
    assert_eq!(&b[..4], b"IDP2");
    let h = |i: usize| le_i32(b, 8 + 4 * i) as usize;
    let (frame_size, num_skins, num_vertices, num_st, num_tris, num_frames) =
        (h(2), h(3), h(4), h(5), h(6), h(8));
    let (ofs_skins, ofs_st, ofs_tris, ofs_frames) = (h(9), h(10), h(11), h(12));
    let u16_at = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    Sections {
        skin_size: (le_i32(b, 8), le_i32(b, 12)),
        skins: (0..num_skins)
            .map(|i| b[ofs_skins + 64 * i..ofs_skins + 64 * (i + 1)].to_vec())
            .collect(),
        texcoords: (0..num_st)
            .map(|i| {
                (
                    u16_at(ofs_st + 4 * i) as i16,
                    u16_at(ofs_st + 4 * i + 2) as i16,
                )
            })
            .collect(),
        triangles: (0..num_tris)
            .map(|i| {
                let at = ofs_tris + 12 * i;
                (
                    std::array::from_fn(|k| u16_at(at + 2 * k)),
                    std::array::from_fn(|k| u16_at(at + 6 + 2 * k)),
                )
            })
            .collect(),
        frames: (0..num_frames)
            .map(|f| {
                let at = ofs_frames + frame_size * f;
                b[at..at + 40 + 4 * num_vertices].to_vec()
            })
            .collect(),
    }
}

/// The triangles as (vertex, s, t) corners, each rotated to start at its
/// smallest corner, sorted: a multiset that ignores triangle order and
/// the texture coordinates' order.
fn corner_sets(s: &Sections) -> Vec<[(u16, i16, i16); 3]> {
    let mut out: Vec<[(u16, i16, i16); 3]> = s
        .triangles
        .iter()
        .map(|(v, st)| {
            let c: [(u16, i16, i16); 3] = std::array::from_fn(|k| {
                let (s_, t) = s.texcoords[usize::from(st[k])];
                (v[k], s_, t)
            });
            let start = (0..3).min_by_key(|&k| c[k]).unwrap();
            std::array::from_fn(|k| c[(start + k) % 3])
        })
        .collect();
    out.sort();
    out
}

fn bytes_of(c: &Compiled) -> Vec<u8> {
    c.model.to_bytes().unwrap()
}

#[test]
fn unused_vertices_and_raw_bytes_come_back_byte_for_byte_through_a_glb() {
    let c = compile(&through_glb(), &CompileOptions::default()).unwrap();
    assert!(c.report.reused_md2_source, "{:?}", c.warnings);
    assert!(c.skin.is_none(), "no skin file: the model names its own");
    let got = sections(&bytes_of(&c));
    assert_eq!(
        got.frames,
        hand::frames(),
        "every frame record, byte for byte"
    );
    let records: Vec<Vec<u8>> = hand::skin_records().iter().map(|r| r.to_vec()).collect();
    assert_eq!(got.skins, records, "every skin record, stale bytes too");
    assert_eq!(got.skin_size, hand::SKIN_SIZE);
    let original = sections(&hand::bytes());
    assert_eq!(corner_sets(&got), corner_sets(&original));
    // The degenerate triangle and the four normal indices past the table
    // (170 once, 200 in every frame) are the file's own: kept, with one
    // warning for each kind, not one per instance.
    let texts: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("degenerate")), "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("normal index") && t.contains("3 more")),
        "{texts:?}"
    );
}

#[test]
fn the_scene_itself_compiles_back_the_same() {
    let model = Md2::from_bytes(&hand::bytes()).unwrap();
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    assert_eq!(sections(&bytes_of(&c)).frames, hand::frames());
}

#[test]
fn a_record_without_its_unused_vertices_is_not_used_but_its_skins_are() {
    let mut scene = through_glb();
    let record = scene.meshes[0].extras["md2"].as_object_mut().unwrap();
    assert!(record.remove("unused_frames").is_some(), "recorded");
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    assert!(!c.report.reused_md2_source);
    assert!(c.warnings.iter().any(|w| matches!(
        w,
        CompileWarning::Md2SourceIgnored { reason } if reason.contains("unused_frames")
    )));
    // Two vertices fewer (and the degenerate triangle left out), but the
    // skin names and size are still the game's.
    let got = sections(&bytes_of(&c));
    assert_eq!(
        got.frames[0].len(),
        40 + 4 * (hand::NUM_VERTICES - hand::UNUSED.len())
    );
    assert_eq!(got.skins.len(), hand::SKINS.len());
    for (raw, name) in got.skins.iter().zip(hand::SKINS) {
        assert_eq!(&raw[..name.len()], name);
        assert_eq!(raw[name.len()], 0);
    }
    assert_eq!(got.skin_size, hand::SKIN_SIZE);
    assert!(c.skin.is_none());
}

#[test]
fn a_skin_name_given_replaces_the_recorded_ones() {
    let mut options = CompileOptions::default();
    options.skin.name = Some("players/ogro/new.pcx".to_string());
    let c = compile(&through_glb(), &options).unwrap();
    let got = sections(&bytes_of(&c));
    assert_eq!(got.skins.len(), 1);
    assert_eq!(&got.skins[0][..21], b"players/ogro/new.pcx\0");
    // The scene has no image: nothing written, the size as recorded.
    assert!(c.skin.is_none());
    assert_eq!(got.skin_size, hand::SKIN_SIZE);
    // The frames still come back.
    assert_eq!(got.frames, hand::frames());
}

#[test]
fn a_default_name_names_only_a_skin_file_written() {
    // Without an image, a default name (what `convert` gives: the output's
    // name) is not written into the header: the recorded names stay.
    let mut options = CompileOptions::default();
    options.skin.default_name = Some("b.png".to_string());
    let c = compile(&through_glb(), &options).unwrap();
    let got = sections(&bytes_of(&c));
    assert_eq!(got.skins.len(), hand::SKINS.len());
    assert!(got.skins.iter().all(|s| !s.starts_with(b"b.png")));
}

#[test]
fn a_scene_with_another_mesh_is_not_given_the_recorded_skins() {
    // The recorded skins describe the MD2's own mesh; a scene that draws
    // another mesh as well is a new model: no recorded names, and no
    // name of a file that is not written.
    let mut scene = through_glb();
    let mut extra = scene.meshes[0].clone();
    extra.extras = serde_json::Value::Null;
    scene.meshes.push(extra);
    let mut options = CompileOptions::default();
    options.skin.default_name = Some("b.png".to_string());
    let c = compile(&scene, &options).unwrap();
    assert!(c.skin.is_none(), "no image to write");
    let got = sections(&bytes_of(&c));
    assert!(
        got.skins.iter().all(|s| !s.starts_with(b"b.png")),
        "{:?}",
        got.skins
    );
}

#[test]
fn a_skin_size_given_wins_over_the_recorded_one_the_names_stay() {
    let mut options = CompileOptions::default();
    options.skin.size = Some((64, 32));
    let c = compile(&through_glb(), &options).unwrap();
    let got = sections(&bytes_of(&c));
    assert_eq!(got.skin_size, (64, 32));
    assert_eq!(got.skins.len(), hand::SKINS.len());
    assert_eq!(got.frames, hand::frames());
}
