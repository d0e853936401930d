//! `retromodel convert x.md2 a.glb && retromodel convert a.glb b.md2`, as
//! a modder runs it, on every corpus MD2 and a hand-made one: the frames
//! byte for byte, frame names, every skin name in order, the skin size,
//! triangles and texture coordinates as sets. Checked against the input
//! file's bytes (read here from the format's description) and the
//! corpus's `facts.json` (an independent reader's), never against the
//! library's reading of its own output alone. Also which skin files a
//! conversion writes: only under the name the header gives, and the
//! header names no file the conversion made up without writing it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::{corpus_dir, fact_str, fact_u64, facts, facts_of, md2_files};
use retromodel_testkit::md2_builder::le_i32;
use retromodel_testkit::md2_unused as hand;

fn run(args: &[&std::ffi::OsStr]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

/// `retromodel convert [flags] IN OUT`.
fn convert(flags: &[&str], input: &Path, output: &Path) -> Output {
    let mut args: Vec<&std::ffi::OsStr> = vec!["convert".as_ref()];
    args.extend(flags.iter().map(std::ffi::OsStr::new));
    args.push(input.as_os_str());
    args.push(output.as_os_str());
    run(&args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// An MD2 file's sections, read from the format's description.
#[derive(Debug)]
struct Sections {
    skin_size: (i32, i32),
    /// The 64-byte skin records.
    skins: Vec<Vec<u8>>,
    num_vertices: usize,
    /// Per triangle: its (vertex, s, t) corners.
    corners: Vec<[(u16, i16, i16); 3]>,
    /// Frame records: 40 header bytes and the packed vertices.
    frames: Vec<Vec<u8>>,
}

impl Sections {
    fn read(b: &[u8]) -> Sections {
        assert_eq!(&b[..4], b"IDP2");
        let h = |i: usize| le_i32(b, 8 + 4 * i) as usize;
        let (frame_size, num_skins, num_vertices, num_tris, num_frames) =
            (h(2), h(3), h(4), h(6), h(8));
        let (ofs_skins, ofs_st, ofs_tris, ofs_frames) = (h(9), h(10), h(11), h(12));
        let u16_at = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
        let st = |i: u16| {
            let at = ofs_st + 4 * usize::from(i);
            (u16_at(at) as i16, u16_at(at + 2) as i16)
        };
        Sections {
            skin_size: (le_i32(b, 8), le_i32(b, 12)),
            skins: (0..num_skins)
                .map(|i| b[ofs_skins + 64 * i..ofs_skins + 64 * (i + 1)].to_vec())
                .collect(),
            num_vertices,
            corners: (0..num_tris)
                .map(|i| {
                    let at = ofs_tris + 12 * i;
                    std::array::from_fn(|k| {
                        let (s, t) = st(u16_at(at + 6 + 2 * k));
                        (u16_at(at + 2 * k), s, t)
                    })
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

    /// The skin names, up to their NUL.
    fn skin_names(&self) -> Vec<String> {
        self.skins
            .iter()
            .map(|r| {
                let end = r.iter().position(|&c| c == 0).unwrap_or(r.len());
                String::from_utf8_lossy(&r[..end]).into_owned()
            })
            .collect()
    }

    /// Frame `f`'s name, up to its NUL.
    fn frame_name(&self, f: usize) -> String {
        let raw = &self.frames[f][24..40];
        let end = raw.iter().position(|&c| c == 0).unwrap_or(16);
        String::from_utf8_lossy(&raw[..end]).into_owned()
    }

    /// The triangles as corner multisets, each rotated to start at its
    /// smallest corner: order-free, winding kept.
    fn triangle_set(&self) -> Vec<[(u16, i16, i16); 3]> {
        let mut out: Vec<_> = self
            .corners
            .iter()
            .map(|c| {
                let start = (0..3).min_by_key(|&k| c[k]).unwrap();
                std::array::from_fn(|k| c[(start + k) % 3])
            })
            .collect();
        out.sort();
        out
    }

    /// The texture coordinates the triangles use.
    fn texcoord_set(&self) -> BTreeSet<(i16, i16)> {
        self.corners
            .iter()
            .flatten()
            .map(|&(_, s, t)| (s, t))
            .collect()
    }
}

/// `out` (converted back from `input`) is `input` as the round trip must
/// keep it.
fn assert_same_model(name: &str, input: &Sections, out: &Sections) {
    assert_eq!(out.frames.len(), input.frames.len(), "{name}: frames");
    for (f, (a, b)) in out.frames.iter().zip(&input.frames).enumerate() {
        assert!(a == b, "{name}: frame {f} differs");
    }
    assert_eq!(out.skins, input.skins, "{name}: skin records");
    assert_eq!(out.skin_size, input.skin_size, "{name}: skin size");
    assert_eq!(out.num_vertices, input.num_vertices, "{name}: vertices");
    assert_eq!(
        out.triangle_set(),
        input.triangle_set(),
        "{name}: triangles"
    );
    assert_eq!(
        out.texcoord_set(),
        input.texcoord_set(),
        "{name}: texcoords"
    );
}

/// The files in `dir`, by name.
fn files_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The `--engine` values a refusal names (`--engine NAME`, or an engine's
/// API name `Engine::Name` while the library's advice still says so).
fn engines_named(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    for marker in ["--engine ", "Engine::"] {
        for (at, _) in message.match_indices(marker) {
            let rest = &message[at + marker.len()..];
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let word = word.to_ascii_lowercase();
            if !word.is_empty() && !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}

#[test]
fn engines_named_reads_both_spellings() {
    assert_eq!(
        engines_named("allows more (--engine yquake2 or --engine q2pro)"),
        ["yquake2", "q2pro"]
    );
    assert_eq!(engines_named("more (Engine::UfoAi allows 1023)"), ["ufoai"]);
    assert!(engines_named("no engine").is_empty());
}

/// MD2 → GLB → MD2 with default options, or, where the default (id's
/// Quake II) refuses the model, with the first engine the refusal names
/// that takes it. The engine used, the output folder and the MD2 written.
fn round_trip(input: &Path, dir: &Path) -> (Option<String>, PathBuf) {
    let glb = dir.join("a.glb");
    let md2 = dir.join("b.md2");
    let o = convert(&[], input, &glb);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = convert(&[], &glb, &md2);
    if o.status.code() == Some(0) {
        return (None, md2);
    }
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!md2.exists(), "nothing written when refused");
    let message = stderr(&o);
    let named = engines_named(&message);
    assert!(!named.is_empty(), "the refusal names an engine: {message}");
    for engine in &named {
        let o = convert(&["--engine", engine], &glb, &md2);
        if o.status.code() == Some(0) {
            return (Some(engine.clone()), md2);
        }
    }
    panic!("no engine the refusal names ({named:?}) takes the model: {message}");
}

#[test]
fn every_corpus_md2_comes_back_through_a_glb() {
    let Some(corpus) = corpus_dir() else { return };
    let facts = facts(&corpus);
    let mut checked = Vec::new();
    for file in md2_files(&corpus) {
        let fact = facts_of(&facts, &file.key);
        let input = Sections::read(&file.read());
        let tmp = tempfile::tempdir().unwrap();
        if fact_u64(fact, "verts") == 0 {
            // Nothing to draw: refused with a clear error, nothing written.
            let glb = tmp.path().join("a.glb");
            assert_eq!(convert(&[], &file.path, &glb).status.code(), Some(0));
            let o = convert(&[], &glb, &tmp.path().join("b.md2"));
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            assert!(stderr(&o).contains("no triangles"), "{}", stderr(&o));
            assert_eq!(files_in(tmp.path()), BTreeSet::from(["a.glb".to_string()]));
            continue;
        }
        let (engine, md2) = round_trip(&file.path, tmp.path());
        let name = format!("{} (engine {engine:?})", file.key);
        let out = Sections::read(&std::fs::read(&md2).unwrap());
        assert_same_model(&name, &input, &out);
        // The independent reader's facts (its `skin_names` lists the
        // first 8 names at most: plant_01 has 20 skins).
        let fact_names: Vec<String> = fact["skin_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let names = out.skin_names();
        assert_eq!(names[..fact_names.len()], fact_names, "{name}");
        assert_eq!(out.skins.len() as u64, fact_u64(fact, "skins"), "{name}");
        assert_eq!(out.skin_size.0 as u64, fact_u64(fact, "skin_w"), "{name}");
        assert_eq!(out.skin_size.1 as u64, fact_u64(fact, "skin_h"), "{name}");
        assert_eq!(out.frames.len() as u64, fact_u64(fact, "frames"), "{name}");
        assert_eq!(out.num_vertices as u64, fact_u64(fact, "verts"), "{name}");
        assert_eq!(out.corners.len() as u64, fact_u64(fact, "tris"), "{name}");
        assert_eq!(out.frame_name(0), fact_str(fact, "first_frame"), "{name}");
        let last = out.frames.len() - 1;
        assert_eq!(out.frame_name(last), fact_str(fact, "last_frame"), "{name}");
        // No skin file: the model names the game's own skins.
        assert_eq!(
            files_in(tmp.path()),
            BTreeSet::from(["a.glb".to_string(), "b.md2".to_string()]),
            "{name}"
        );
        checked.push((file.key.clone(), engine));
    }
    assert!(checked.len() >= 30, "{checked:?}");
    // The default takes the models within id's limits; the others name
    // an engine that takes them: the 1007-frame soldier, yquake2 first
    // (its Mod_LoadMD2 bounds no frame count; Q2PRO stops at 1024 and
    // would take it too, UFO:AI at 1023).
    assert!(checked.iter().any(|(_, e)| e.is_none()), "{checked:?}");
    assert!(
        checked
            .iter()
            .any(|(k, e)| k.contains("male_body") && e.as_deref() == Some("yquake2")),
        "{checked:?}"
    );
}

/// The hand-made MD2 written to `dir`.
fn hand_made(dir: &Path) -> PathBuf {
    let path = dir.join("ogro.md2");
    std::fs::write(&path, hand::bytes()).unwrap();
    path
}

#[test]
fn unused_vertices_come_back_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let input = hand_made(tmp.path());
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let (engine, md2) = round_trip(&input, &out_dir);
    assert_eq!(engine, None, "within id's limits");
    let out = Sections::read(&std::fs::read(&md2).unwrap());
    // Against the builder's own records, not the file read back.
    assert_eq!(out.frames, hand::frames());
    for f in 0..hand::NUM_FRAMES {
        for v in hand::UNUSED {
            let at = 40 + 4 * v;
            assert_eq!(out.frames[f][at..at + 4], hand::frame_vertices(f)[v]);
        }
    }
    assert_eq!(out.frame_name(0), "FRAME 000");
    let records: Vec<Vec<u8>> = hand::skin_records().iter().map(|r| r.to_vec()).collect();
    assert_eq!(out.skins, records);
    assert_eq!(out.skin_size, hand::SKIN_SIZE);
    assert_same_model("hand-made", &Sections::read(&hand::bytes()), &out);
    assert_eq!(
        files_in(&out_dir),
        BTreeSet::from(["a.glb".to_string(), "b.md2".to_string()])
    );
}

#[test]
fn a_skin_name_given_names_the_one_skin_and_the_file_written() {
    let Some(corpus) = corpus_dir() else { return };
    // UFO:AI's alien tank with its skin beside it: the GLB embeds it.
    let input = corpus.join("gametrees/ufoai/models/aliens/alientank/alientank.md2");
    let tmp = tempfile::tempdir().unwrap();
    let glb = tmp.path().join("tank.glb");
    assert_eq!(convert(&[], &input, &glb).status.code(), Some(0));
    // By default: the recorded name and size, no file, a warning why.
    let md2 = tmp.path().join("back.md2");
    let o = convert(&["--engine", "ufoai"], &glb, &md2);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("not written"), "{}", stderr(&o));
    let out = Sections::read(&std::fs::read(&md2).unwrap());
    assert_eq!(out.skin_names(), [".alientank"]);
    assert_eq!(out.skin_size, (1024, 1024));
    assert_eq!(
        files_in(tmp.path()),
        BTreeSet::from(["tank.glb".to_string(), "back.md2".to_string()])
    );
    // --skin-name: that one name, and the image written under it.
    let named = tmp.path().join("named.md2");
    let flags = [
        "--engine",
        "ufoai",
        "--skin-name",
        "models/aliens/tank/new.png",
    ];
    let o = convert(&flags, &glb, &named);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = Sections::read(&std::fs::read(&named).unwrap());
    assert_eq!(out.skin_names(), ["models/aliens/tank/new.png"]);
    let png = std::fs::read(tmp.path().join("new.png")).unwrap();
    assert_eq!(
        png_size(&png),
        out.skin_size,
        "the header's size is the PNG's"
    );
    // The frames are still the original's.
    assert_same_frames(&input, &out);
}

/// `out`'s frames are `input`'s (an MD2 file) byte for byte.
fn assert_same_frames(input: &Path, out: &Sections) {
    let original = Sections::read(&std::fs::read(input).unwrap());
    assert!(out.frames == original.frames, "frames differ");
}

#[test]
fn a_skin_image_given_is_written_named_after_the_model() {
    let Some(corpus) = corpus_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let input = hand_made(tmp.path());
    let glb = tmp.path().join("ogro.glb");
    assert_eq!(convert(&[], &input, &glb).status.code(), Some(0));
    let image = corpus.join("skins/arrow.reference.png");
    let md2 = tmp.path().join("edited.md2");
    let o = convert(&["--skin", image.to_str().unwrap()], &glb, &md2);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = Sections::read(&std::fs::read(&md2).unwrap());
    assert_eq!(out.skin_names(), ["edited.png"]);
    assert!(tmp.path().join("edited.png").is_file());
    assert_eq!(out.frames, hand::frames(), "the frames are kept");
}

#[test]
fn a_model_without_images_or_a_record_names_no_file_it_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let obj = tmp.path().join("box.obj");
    std::fs::write(
        &obj,
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 3 4\n",
    )
    .unwrap();
    let md2 = tmp.path().join("box.md2");
    let o = convert(&[], &obj, &md2);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = Sections::read(&std::fs::read(&md2).unwrap());
    assert!(out.skin_names().is_empty(), "{:?}", out.skin_names());
    assert_eq!(
        files_in(tmp.path()),
        BTreeSet::from(["box.obj".to_string(), "box.md2".to_string()])
    );
    // UFO:AI needs a skin: one is made of the material's colour, written
    // and named.
    let ufoai = tmp.path().join("ufo.md2");
    let o = convert(&["--engine", "ufoai"], &obj, &ufoai);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = Sections::read(&std::fs::read(&ufoai).unwrap());
    assert_eq!(out.skin_names(), ["ufo.png"]);
    let png = std::fs::read(tmp.path().join("ufo.png")).unwrap();
    assert_eq!(png_size(&png), out.skin_size);
}

/// The width and height in a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> (i32, i32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |at: usize| i32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn a_textured_gltf_gets_its_skin_named_after_the_model_and_written() {
    let Some(corpus) = corpus_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let md2 = tmp.path().join("walker.md2");
    let o = convert(&[], &corpus.join("gltf/blender_walker.glb"), &md2);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = Sections::read(&std::fs::read(&md2).unwrap());
    assert_eq!(out.skin_names(), ["walker.png"]);
    assert!(tmp.path().join("walker.png").is_file());
}
