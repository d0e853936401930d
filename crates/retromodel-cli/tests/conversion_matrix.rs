//! Every format read to every format written, on one real model of each
//! (the corpus, OpenArena's MD3, assimp's MD5 test model is too bare: the
//! test kit's rigged MD5): each pair converts, or is refused naming what
//! the output cannot hold; never "not yet". Outputs are checked by their
//! own bytes (magic numbers read here, not by retromodel), and a frame
//! format converted to another keeps its frame count one for one (read
//! from both headers' bytes).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::md5_builder::{rig_md5anim, rig_md5mesh};
use retromodel_testkit::openarena::{openarena_dir, pk3_files, zip_entries};

/// The outputs, by extension.
const OUTPUTS: [&str; 11] = [
    "md2", "mdl", "md3", "ms3d", "txt", "md5mesh", "iqm", "iqe", "glb", "gltf", "obj",
];

/// What a pair must give: written, or refused with these words.
enum Expect {
    Written,
    Refused(&'static str),
}

/// The frame count in a frame format's header, read from its bytes:
/// MD2 `num_frames` at 40, MDL (IDPO) `numframes` at 68, MD3
/// `numFrames` at 76 (the formats' headers as id's `qfiles.h`,
/// `modelgen.h` and `qfiles.h` of Quake III declare them).
fn header_frames(bytes: &[u8]) -> Option<u32> {
    let at = match bytes.get(..4)? {
        b"IDP2" => 40,
        b"IDPO" => 68,
        b"IDP3" => 76,
        _ => return None,
    };
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Whether `bytes` look like a file of format `ext` (its magic).
fn looks_like(ext: &str, bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
    match ext {
        "md2" => bytes.starts_with(b"IDP2"),
        "mdl" => bytes.starts_with(b"IDPO"),
        "md3" => bytes.starts_with(b"IDP3"),
        "ms3d" => bytes.starts_with(b"MS3D000000"),
        "txt" => text.starts_with("// MilkShape 3D ASCII"),
        "md5mesh" => text.starts_with("MD5Version 10"),
        "iqm" => bytes.starts_with(b"INTERQUAKEMODEL\0"),
        "iqe" => text.starts_with("# Inter-Quake Export"),
        "glb" => bytes.starts_with(b"glTF"),
        "gltf" => serde_json::from_slice::<serde_json::Value>(bytes)
            .is_ok_and(|j| j["asset"]["version"] == "2.0"),
        "obj" => text.lines().any(|l| l.starts_with("v ")),
        _ => false,
    }
}

/// The sources: (name, the file to convert, extra flags).
fn sources(corpus: &Path, oa: &Path, tmp: &Path) -> Vec<(&'static str, PathBuf, Vec<String>)> {
    let palette = corpus.join("quake/palette.lmp").display().to_string();
    // A player's lower.md3 alone in a folder: one MD3 of 190 frames.
    let lower = pk3_files(oa)
        .iter()
        .flat_map(|pk3| zip_entries(&std::fs::read(pk3).unwrap(), "players/sarge/lower.md3"))
        .map(|(_, bytes)| bytes)
        .next()
        .expect("sarge's lower.md3 in OpenArena's pk3 files");
    let md3 = tmp.join("md3/lower.md3");
    std::fs::create_dir_all(md3.parent().unwrap()).unwrap();
    std::fs::write(&md3, lower).unwrap();
    let md5 = tmp.join("md5/rig.md5mesh");
    std::fs::create_dir_all(md5.parent().unwrap()).unwrap();
    std::fs::write(&md5, rig_md5mesh()).unwrap();
    std::fs::write(tmp.join("md5/rig.md5anim"), rig_md5anim()).unwrap();
    vec![
        ("md2", corpus.join("md2/assimpdeb_sydney.md2"), vec![]),
        (
            "mdl",
            corpus.join("mdl/c0burn_progs_ogre.mdl"),
            vec!["--palette".into(), palette],
        ),
        ("md3", md3, vec![]),
        ("ms3d", corpus.join("ms3d/assimpdeb_jeep1.ms3d"), vec![]),
        ("txt", corpus.join("ms3d_ascii/blender_walker.txt"), vec![]),
        ("md5", md5, vec![]),
        ("glb", corpus.join("gltf/blender_walker.glb"), vec![]),
        ("obj", corpus.join("gltf/blender_walker.obj"), vec![]),
        ("iqm", corpus.join("iqm/lsalzman_mrfixit.iqm"), vec![]),
    ]
}

/// What each pair gives. Refusals name what the output cannot hold.
fn expected(from: &str, to: &str) -> Expect {
    match (from, to) {
        // Vertex animation cannot drive an MD5's joints.
        ("md2" | "mdl" | "md3", "md5mesh" | "iqm" | "iqe") => Expect::Refused("morph targets"),
        // Mr. Fixit is 1,861 vertices: past Quake's 1,024.
        ("iqm", "mdl") => Expect::Refused("quakespasm"),
        // The jeep is 2 618 triangles: past Quake's 2 048 (the message
        // names the engines that load more).
        ("ms3d", "mdl") => Expect::Refused("quakespasm"),
        _ => Expect::Written,
    }
}

#[test]
fn every_format_converts_to_every_format_or_names_why_not() {
    let Some(corpus) = corpus_dir() else { return };
    let Some(oa) = openarena_dir() else { return };
    let bin = env!("CARGO_BIN_EXE_retromodel");
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut written = 0;
    let palette = corpus.join("quake/palette.lmp");
    for (from, path, flags) in sources(&corpus, &oa, tmp.path()) {
        let source = std::fs::read(&path).unwrap();
        for to in OUTPUTS {
            let out_dir = tmp.path().join(format!("out/{from}_{to}"));
            std::fs::create_dir_all(&out_dir).unwrap();
            let out = out_dir.join(format!("model.{to}"));
            let mut args: Vec<std::ffi::OsString> =
                vec!["convert".into(), path.clone().into(), out.clone().into()];
            // The palette is the MDL source's, for every output; an MDL
            // output needs one for its skin whatever the source.
            args.extend(flags.iter().map(Into::into));
            if to == "mdl" && flags.is_empty() {
                args.extend(["--palette".into(), palette.clone().into()]);
            }
            let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            let o = run_os(bin, &refs);
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            let pair = format!("{from} -> .{to}");
            if err.contains("yet") {
                failures.push(format!("{pair}: says 'yet': {err}"));
            }
            match expected(from, to) {
                Expect::Written => {
                    if o.status.code() != Some(0) {
                        failures.push(format!("{pair}: failed: {err}"));
                        continue;
                    }
                    let bytes = std::fs::read(&out).unwrap();
                    if !looks_like(to, &bytes) {
                        failures.push(format!("{pair}: output is not .{to}"));
                    }
                    // Frame formats keep their frames one for one.
                    if let (Some(a), Some(b)) = (header_frames(&source), header_frames(&bytes)) {
                        if a != b {
                            failures.push(format!("{pair}: {a} frames became {b}"));
                        }
                    }
                    written += 1;
                }
                Expect::Refused(words) => {
                    if o.status.code() != Some(1) || !err.contains(words) {
                        failures.push(format!(
                            "{pair}: expected a refusal naming {words:?}, got {:?}: {err}",
                            o.status.code()
                        ));
                    }
                    if out.exists() {
                        failures.push(format!("{pair}: refused but wrote {}", out.display()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(written, 9 * 11 - 11);
}

/// `convert --help` names every input and output format (their
/// extensions), and so does the command's own summary.
#[test]
fn the_help_names_every_format() {
    let bin = env!("CARGO_BIN_EXE_retromodel");
    let help = run_os(bin, &[OsStr::new("convert"), OsStr::new("--help")]);
    let text = String::from_utf8_lossy(&help.stdout);
    for ext in OUTPUTS.iter().chain(&["md5mesh"]) {
        assert!(
            text.contains(&format!(".{ext}`")),
            "convert --help lacks .{ext}"
        );
    }
    for name in ["MD2", "MDL", "MD3", "MS3D", "MD5", "IQM", "glTF", "OBJ"] {
        assert!(text.contains(name), "convert --help lacks {name}");
    }
    let top = run_os(bin, &[OsStr::new("--help")]);
    let text = String::from_utf8_lossy(&top.stdout);
    for name in ["MD2", "MDL", "MD3", "MS3D", "MD5", "IQM", "glTF", "OBJ"] {
        assert!(text.contains(name), "--help lacks {name}");
    }
}

/// An MDL's palette is the source's, for `.md3` output too: its skin,
/// which exists only as palette indices inside the MDL, is written beside
/// the MD3 as a PNG named as the surface's shader names it (ioquake3
/// finds `NAME.png` for a shader `NAME`), the size of the MDL's skin (its
/// header's `skinwidth` at 52 and `skinheight` at 56; the PNG's IHDR at
/// 16 and 20).
#[test]
fn an_mdl_to_md3_writes_its_palette_skin_beside_it() {
    let Some(corpus) = corpus_dir() else { return };
    let bin = env!("CARGO_BIN_EXE_retromodel");
    let tmp = tempfile::tempdir().unwrap();
    let mdl = corpus.join("mdl/c0burn_progs_ogre.mdl");
    let out = tmp.path().join("ogre.md3");
    let palette = corpus.join("quake/palette.lmp");
    let o = run_os(
        bin,
        &[
            OsStr::new("convert"),
            mdl.as_os_str(),
            out.as_os_str(),
            OsStr::new("--palette"),
            palette.as_os_str(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let facts = retromodel_testkit::md3_facts::md3_facts(&std::fs::read(&out).unwrap()).unwrap();
    let shader = String::from_utf8_lossy(&facts.surfaces[0].shaders[0]).into_owned();
    assert!(!shader.is_empty());
    let png = std::fs::read(tmp.path().join(format!("{shader}.png"))).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    let source = std::fs::read(&mdl).unwrap();
    let le = |at: usize| u32::from_le_bytes(source[at..at + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), (le(52), le(56)));
}
