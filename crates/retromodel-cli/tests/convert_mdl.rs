//! `retromodel convert x.glb y.mdl`: the MDL compile from the command
//! line. Counts are checked in the file's own bytes (the header read here),
//! and refusals name flags, never the library's API.

use std::path::{Path, PathBuf};
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::gltf_builder::Builder;
use serde_json::json;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retromodel-cli-mdl-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A GLB of one triangle on node 0, moved by one animation with keys at
/// `times` (seconds).
fn triangle_glb(times: &[f32]) -> Vec<u8> {
    let mut b = Builder::new();
    let pos = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let input = b.floats(times, "SCALAR");
    let values: Vec<f32> = times.iter().flat_map(|&t| [t, 0.0, 0.0]).collect();
    let output = b.floats(&values, "VEC3");
    b.push(
        "animations",
        json!({
            "name": "slide",
            "samplers": [{"input": input, "output": output}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
        }),
    );
    b.glb()
}

/// A grey-ramp palette: 768 bytes, colour i = (i, i, i).
fn palette(d: &Path) -> PathBuf {
    let p = d.join("palette.lmp");
    let bytes: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
    std::fs::write(&p, bytes).unwrap();
    p
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn a_glb_compiles_to_an_mdl_with_its_frames_and_flags() {
    let d = dir("ok");
    let glb = d.join("slide.glb");
    // 0.5 s at 10 fps: 6 frames.
    std::fs::write(&glb, triangle_glb(&[0.0, 0.5])).unwrap();
    let out = d.join("slide.mdl");
    let pal = palette(&d);
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--palette",
        pal.to_str().unwrap(),
        "--mdl-flags",
        "rotate,rocket",
        "--eye",
        "0,0,22",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("largest error"), "{}", stderr(&o));
    let b = std::fs::read(&out).unwrap();
    assert_eq!(&b[..4], b"IDPO");
    assert_eq!(i32_at(&b, 4), 6);
    // numverts, numtris, numframes, synctype, flags.
    assert_eq!(i32_at(&b, 60), 3);
    assert_eq!(i32_at(&b, 64), 1);
    assert_eq!(i32_at(&b, 68), 6);
    assert_eq!(i32_at(&b, 76), 8 | 1);
    assert_eq!(f32::from_le_bytes(b[44..48].try_into().unwrap()), 22.0);
    // The library's reader and validator agree.
    let v = run(&["validate", out.to_str().unwrap()]);
    assert!(v.status.success(), "{}", stderr(&v));
}

#[test]
fn refusals_name_flags() {
    let d = dir("refuse");
    let glb = d.join("long.glb");
    // 30 s at 10 fps: 301 frames, past id's 256.
    std::fs::write(&glb, triangle_glb(&[0.0, 30.0])).unwrap();
    let out = d.join("long.mdl");
    let pal = palette(&d);
    let cases: [(&[&str], &[&str]); 4] = [
        (&[], &["--palette", "gfx/palette.lmp"]),
        (
            &["--palette", pal.to_str().unwrap()],
            &["301 frames", "256", "--fps"],
        ),
        (
            &[
                "--palette",
                pal.to_str().unwrap(),
                "--player",
                "--frame-group",
                "slide",
            ],
            &["--player", "--frame-group"],
        ),
        (
            &["--palette", pal.to_str().unwrap(), "--engine", "quake2"],
            &["--engine", "quake"],
        ),
    ];
    for (flags, words) in cases {
        let mut args = vec!["convert", glb.to_str().unwrap(), out.to_str().unwrap()];
        args.extend_from_slice(flags);
        let o = run(&args);
        assert!(!o.status.success(), "{flags:?}");
        let text = stderr(&o);
        assert!(!text.contains("::"), "names library API: {text}");
        for w in words {
            assert!(text.contains(w), "{flags:?}: {w:?} not in {text}");
        }
    }
    // The MDL's own flags for another output.
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        d.join("x.md2").to_str().unwrap(),
        "--frame-group",
        "slide",
    ]);
    assert!(
        stderr(&o).contains("--frame-group applies to .mdl output"),
        "{}",
        stderr(&o)
    );
    // With no limit the long animation compiles.
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--palette",
        pal.to_str().unwrap(),
        "--engine",
        "none",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(i32_at(&std::fs::read(&out).unwrap(), 68), 301);
}

/// `--engine NAME` for .mdl output takes that engine's loader limits: 400
/// separate triangles (1,200 vertices) are past GLQuake's 1,024 vertices
/// (`MAXALIASVERTS` in id's gl_model.h) and within QuakeSpasm's 2,000
/// (its r_local.h/gl_model.h raise it), so the first refuses, naming the
/// engine and its limit, and the second writes a file whose header holds
/// 1,200 vertices; an engine that loads no MDL is refused by name.
#[test]
fn engine_limits_for_mdl_output() {
    let d = dir("engine");
    let pal = palette(&d);
    let mut b = Builder::new();
    let positions: Vec<f32> = (0..400)
        .flat_map(|i| {
            // 20 × 20 triangles 10 units apart, each 3 units wide: on a
            // 200-unit grid of 256 steps no two corners share a point.
            let (x, y) = ((i % 20) as f32 * 10.0, (i / 20) as f32 * 10.0);
            [x, y, 0.0, x + 3.0, y, 0.0, x, y + 3.0, 3.0]
        })
        .collect();
    let pos = b.floats(&positions, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let src = d.join("many.glb");
    std::fs::write(&src, b.glb()).unwrap();
    let convert = |engine: &str, out: &Path| {
        run(&[
            "convert",
            src.to_str().unwrap(),
            out.to_str().unwrap(),
            "--palette",
            pal.to_str().unwrap(),
            "--engine",
            engine,
        ])
    };
    let gl = d.join("gl.mdl");
    let o = convert("glquake", &gl);
    assert_ne!(o.status.code(), Some(0));
    let e = stderr(&o);
    assert!(e.contains("GLQuake") && e.contains("1024"), "{e}");
    assert!(!gl.exists());
    let qs = d.join("qs.mdl");
    let o = convert("quakespasm", &qs);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&qs).unwrap();
    let num_verts = i32::from_le_bytes(bytes[60..64].try_into().unwrap());
    assert_eq!(num_verts, 1200);
    let o = convert("q2pro", &d.join("q2.mdl"));
    let e = stderr(&o);
    assert!(e.contains("Q2PRO does not load Quake MDL files"), "{e}");
    assert!(!e.contains("::"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The Quake MDL's file fields this test needs, read from its bytes
/// (Quake's `mdl_t` header, single skins, single frames): the grid and
/// every frame's decoded positions.
fn decode_mdl_frames(bytes: &[u8]) -> (Vec<Vec<[f64; 3]>>, [f64; 3]) {
    let i32_at = |o: usize| i32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let f32_at = |o: usize| f32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()) as f64;
    let scale = [f32_at(8), f32_at(12), f32_at(16)];
    let origin = [f32_at(20), f32_at(24), f32_at(28)];
    let (skins, w, h) = (
        i32_at(48) as usize,
        i32_at(52) as usize,
        i32_at(56) as usize,
    );
    let (nv, nt, nf) = (
        i32_at(60) as usize,
        i32_at(64) as usize,
        i32_at(68) as usize,
    );
    let mut at = 84;
    for _ in 0..skins {
        assert_eq!(i32_at(at), 0, "a single skin");
        at += 4 + w * h;
    }
    at += 12 * nv + 16 * nt;
    let mut frames = Vec::new();
    for _ in 0..nf {
        assert_eq!(i32_at(at), 0, "a single frame");
        at += 4 + 8 + 16;
        let frame = (0..nv)
            .map(|v| {
                let b = &bytes[at + 4 * v..at + 4 * v + 3];
                [0, 1, 2].map(|c| b[c] as f64 * scale[c] + origin[c])
            })
            .collect();
        frames.push(frame);
        at += 4 * nv;
    }
    (frames, scale)
}

/// `convert walker.glb progs/walker.mdl --rerelease`: beside the MDL the
/// ports' MD5 pair (progs/walker.md5mesh, .md5anim) and its skin
/// (walker_00_00.png, the name Ironwail's Mod_LoadMD5Skins builds). The
/// MD5, evaluated by the test kit's own MD5 evaluator, matches the MDL
/// decoded from its bytes frame for frame: every MDL vertex has an MD5
/// vertex within half a grid step (plus 1e-4 of a unit) on each axis, and
/// every MD5 vertex an MDL vertex; the anim has as many frames as the MDL.
#[test]
fn rerelease_md5_beside_an_mdl_plays_its_frames() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let d = dir("rerelease");
    let progs = d.join("progs");
    std::fs::create_dir_all(&progs).unwrap();
    let mdl = progs.join("walker.mdl");
    let o = run(&[
        "convert",
        corpus.join("gltf/blender_walker.glb").to_str().unwrap(),
        mdl.to_str().unwrap(),
        "--palette",
        corpus.join("quake/palette.lmp").to_str().unwrap(),
        "--fit-height",
        "56",
        "--rerelease",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let png = std::fs::read(progs.join("walker_00_00.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let mesh = std::fs::read_to_string(progs.join("walker.md5mesh")).unwrap();
    let anim = std::fs::read_to_string(progs.join("walker.md5anim")).unwrap();
    assert!(mesh.contains("shader \"walker\""), "the skin's name");
    let (frames, step) = decode_mdl_frames(&std::fs::read(&mdl).unwrap());
    let anim_frames: usize = anim
        .split_whitespace()
        .skip_while(|w| *w != "numFrames")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(anim_frames, frames.len());
    let allowed = step.map(|s| s / 2.0 + 1e-4);
    let near = |a: &[f64; 3], b: &[f64; 3]| (0..3).all(|c| (a[c] - b[c]).abs() <= allowed[c]);
    for (k, mdl_frame) in frames.iter().enumerate() {
        let md5: Vec<[f64; 3]> =
            retromodel_testkit::md5_builder::reference_pose(&mesh, &anim, None, k)
                .into_iter()
                .flatten()
                .collect();
        for (v, p) in mdl_frame.iter().enumerate() {
            assert!(
                md5.iter().any(|q| near(p, q)),
                "frame {k}: MDL vertex {v} {p:?} has no MD5 vertex near"
            );
        }
        for (v, q) in md5.iter().enumerate() {
            assert!(
                mdl_frame.iter().any(|p| near(p, q)),
                "frame {k}: MD5 vertex {v} {q:?} has no MDL vertex near"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// An MDL file's header words and every simple frame's raw 16-byte name,
/// read from its bytes (Quake's layout: single or grouped skins, single
/// frames and frame groups): `(sync type, flags, top-level frames, raw
/// names, each group's intervals)`.
#[allow(clippy::type_complexity)]
fn mdl_names(bytes: &[u8]) -> (i32, i32, usize, Vec<[u8; 16]>, Vec<Vec<f32>>) {
    let i32_at = |o: usize| i32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let f32_at = |o: usize| f32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let (skins, w, h) = (
        i32_at(48) as usize,
        i32_at(52) as usize,
        i32_at(56) as usize,
    );
    let (nv, nt, nf) = (
        i32_at(60) as usize,
        i32_at(64) as usize,
        i32_at(68) as usize,
    );
    let mut at = 84;
    for _ in 0..skins {
        if i32_at(at) == 0 {
            at += 4 + w * h;
        } else {
            let n = i32_at(at + 4) as usize;
            at += 8 + 4 * n + n * w * h;
        }
    }
    at += 12 * nv + 16 * nt;
    let (mut names, mut groups) = (Vec::new(), Vec::new());
    let simple = |at: &mut usize, names: &mut Vec<[u8; 16]>| {
        names.push(bytes[*at + 8..*at + 24].try_into().unwrap());
        *at += 24 + 4 * nv;
    };
    for _ in 0..nf {
        if i32_at(at) == 0 {
            at += 4;
            simple(&mut at, &mut names);
        } else {
            let n = i32_at(at + 4) as usize;
            groups.push((0..n).map(|k| f32_at(at + 16 + 4 * k)).collect());
            at += 16 + 4 * n;
            for _ in 0..n {
                simple(&mut at, &mut names);
            }
        }
    }
    (i32_at(72), i32_at(76), nf, names, groups)
}

/// MDL → glTF → MDL gives back what glTF cannot hold, from the extras the
/// lift writes: the effect flags, the sync type, the frame groups with
/// their intervals and every frame's raw 16-byte name (stale bytes after
/// the NUL included). Checked against the source file's own bytes and the
/// corpus's independent facts, on a rotating pickup (flags 8), blood
/// (flags 32) and a flame of two frame groups (sync type 1).
#[test]
fn mdl_through_gltf_keeps_header_groups_and_frame_names() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("mdl/facts.json")).unwrap()).unwrap();
    let d = dir("through-gltf");
    let palette = corpus.join("quake/palette.lmp");
    for name in [
        "c0burn_progs_g_light",
        "c0burn_progs_blood",
        "c0burn_progs_flame2",
    ] {
        let src = corpus.join(format!("mdl/{name}.mdl"));
        let glb = d.join(format!("{name}.glb"));
        let back = d.join(format!("{name}.mdl"));
        for (from, to) in [(&src, &glb), (&glb, &back)] {
            let o = run(&[
                "convert",
                from.to_str().unwrap(),
                to.to_str().unwrap(),
                "--palette",
                palette.to_str().unwrap(),
                "--force",
            ]);
            assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        }
        let f = &facts[format!("{name}.mdl")];
        let original = mdl_names(&std::fs::read(&src).unwrap());
        let again = mdl_names(&std::fs::read(&back).unwrap());
        assert_eq!(
            again.0 as i64,
            f["synctype"].as_i64().unwrap(),
            "{name}: sync type"
        );
        assert_eq!(
            again.1 as i64,
            f["flags"].as_i64().unwrap(),
            "{name}: flags"
        );
        assert_eq!(
            again.2 as u64,
            f["frames"].as_u64().unwrap(),
            "{name}: frame list"
        );
        assert_eq!(
            again.3.len() as u64,
            f["simple_frames"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(again.3, original.3, "{name}: raw frame names");
        assert_eq!(again.4, original.4, "{name}: group intervals");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `--player` for .mdl output: Quake's 143-frame player table, whose
/// names (read from the bytes here) are those of id's player.mdl as the
/// corpus's independent reader lists them; what the scene lacks and what
/// it leaves out are warned of, and a one-unit model is told to
/// `--fit-height 56`.
#[test]
fn player_flag_lays_out_quakes_player_table() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("mdl/facts.json")).unwrap()).unwrap();
    let want: Vec<&str> = facts["c0burn_progs_player.mdl"]["frame_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let d = dir("player");
    let glb = d.join("slide.glb");
    std::fs::write(&glb, triangle_glb(&[0.0, 0.5])).unwrap();
    let out = d.join("player.mdl");
    let pal = palette(&d);
    let o = run(&[
        "convert",
        glb.to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--palette",
        pal.to_str().unwrap(),
        "--player",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stderr(&o);
    assert!(text.contains("\"slide\""), "{text}");
    assert!(text.contains("\"axrun\""), "{text}");
    assert!(text.contains("--fit-height 56"), "{text}");
    assert!(!text.contains("::"), "{text}");
    let b = std::fs::read(&out).unwrap();
    let (w, h, nv, nt, nf) = (
        i32_at(&b, 52) as usize,
        i32_at(&b, 56) as usize,
        i32_at(&b, 60) as usize,
        i32_at(&b, 64) as usize,
        i32_at(&b, 68) as usize,
    );
    assert_eq!(nf, 143);
    let mut at = 84 + i32_at(&b, 48) as usize * (4 + w * h) + 12 * nv + 16 * nt;
    let mut names = Vec::new();
    for _ in 0..nf {
        assert_eq!(i32_at(&b, at), 0, "a frame group");
        let raw = &b[at + 12..at + 28];
        let end = raw.iter().position(|&c| c == 0).unwrap_or(16);
        names.push(String::from_utf8_lossy(&raw[..end]).into_owned());
        at += 28 + 4 * nv;
    }
    assert_eq!(at, b.len());
    assert_eq!(names, want);
}

/// `--frames-like ogre.mdl`: Blender's walker laid out as the corpus's
/// ogre, its 147 frame names (read from the bytes here) the independent
/// reader's; its `idle` fills `stand`, its `walk` fills `walk`; what it
/// lacks is warned of; with `--player` or another output it is refused.
#[test]
fn frames_like_lays_out_another_models_frames() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("mdl/facts.json")).unwrap()).unwrap();
    let want: Vec<&str> = facts["c0burn_progs_ogre.mdl"]["frame_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let d = dir("frames-like");
    let ogre = corpus.join("mdl/c0burn_progs_ogre.mdl");
    let out = d.join("ogre.mdl");
    let o = run(&[
        "convert",
        corpus.join("gltf/blender_walker.glb").to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--palette",
        corpus.join("quake/palette.lmp").to_str().unwrap(),
        "--frames-like",
        ogre.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stderr(&o);
    assert!(text.contains("\"swing\""), "{text}");
    assert!(!text.contains("\"stand\""), "{text}");
    assert!(!text.contains("\"idle\""), "{text}");
    let b = std::fs::read(&out).unwrap();
    let (w, h, nv, nt, nf) = (
        i32_at(&b, 52) as usize,
        i32_at(&b, 56) as usize,
        i32_at(&b, 60) as usize,
        i32_at(&b, 64) as usize,
        i32_at(&b, 68) as usize,
    );
    assert_eq!(nf, want.len());
    let mut at = 84 + i32_at(&b, 48) as usize * (4 + w * h) + 12 * nv + 16 * nt;
    let mut names = Vec::new();
    for _ in 0..nf {
        assert_eq!(i32_at(&b, at), 0, "a frame group");
        let raw = &b[at + 12..at + 28];
        let end = raw.iter().position(|&c| c == 0).unwrap_or(16);
        names.push(String::from_utf8_lossy(&raw[..end]).into_owned());
        at += 28 + 4 * nv;
    }
    assert_eq!(names, want);
    for (flags, words) in [
        (&["--player"][..], &["--player", "--frames-like"][..]),
        (&["--frame-group", "walk"][..], &["--frame-group"][..]),
    ] {
        let mut args = vec![
            "convert",
            "x.glb",
            "y.mdl",
            "--palette",
            "p.lmp",
            "--frames-like",
            ogre.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let o = run(&args);
        assert!(!o.status.success());
        for w in words {
            assert!(stderr(&o).contains(w), "{w}: {}", stderr(&o));
        }
    }
    let o = run(&[
        "convert",
        corpus.join("gltf/blender_walker.glb").to_str().unwrap(),
        d.join("x.md2").to_str().unwrap(),
        "--frames-like",
        ogre.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("--frames-like applies to .mdl output"),
        "{}",
        stderr(&o)
    );
}
