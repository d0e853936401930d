//! Refusals and warnings say what to do in the command line's words: the
//! flag that helps (`--fps`, `--engine ufoai` ...), never the library's
//! API (nothing with `::`). The limits and counts are the engines' and
//! the files' own: the counts come from how the test files are built, the
//! limits from the engines' loaders, cited below.

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::gltf_builder::Builder;
use serde_json::json;

/// Quake II's most frames: MAX_FRAMES (512) in id's qcommon/qfiles.h.
const QUAKE2_MAX_FRAMES: u64 = 512;
/// UFO:AI 2.5's: R_ModLoadAliasMD2Model wants num_frames < MD2_MAX_FRAMES
/// (1024, src/common/qfiles.h).
const UFOAI_MAX_FRAMES: u64 = 1023;
/// Quake II's widest skin: LoadPCX (ref_gl/gl_image.c) refuses xmax >= 640.
const QUAKE2_MAX_SKIN_WIDTH: u64 = 640;
/// MilkShape 3D 1.8's most groups (MAX_GROUPS, msLib.h).
const MILKSHAPE_MAX_GROUPS: usize = 255;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The user sees no Rust API: no `Type::field`, no `Enum::Variant`.
fn assert_no_api(text: &str) {
    assert!(!text.contains("::"), "names library API: {text}");
    for api in ["Options", "SkinFormat", "Engine", "Remedy"] {
        assert!(!text.contains(api), "names library API {api}: {text}");
    }
}

/// A GLB of one triangle on node 0, and `animations` animations each
/// moving node 0 at `times` (seconds).
fn triangle_glb(times: &[f32], animations: usize) -> Vec<u8> {
    let mut b = Builder::new();
    let pos = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    if animations > 0 {
        let input = b.floats(times, "SCALAR");
        let values: Vec<f32> = times.iter().flat_map(|&t| [t, 0.0, 0.0]).collect();
        let output = b.floats(&values, "VEC3");
        for a in 0..animations {
            b.push(
                "animations",
                json!({
                    "name": format!("a{a}"),
                    "samplers": [{"input": input, "output": output}],
                    "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                }),
            );
        }
    }
    b.glb()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn too_many_frames_for_quake2_names_fps_anim_and_the_engine_that_allows_them() {
    let dir = tempfile::tempdir().unwrap();
    // 60 seconds at Quake II's 10 frames per second: 601 frames (both ends).
    let seconds = 60.0;
    let frames = (seconds * 10.0) as u64 + 1;
    let glb = write(dir.path(), "long.glb", &triangle_glb(&[0.0, seconds], 1));
    let out = dir.path().join("long.md2");
    let o = run(&["convert", &glb, out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{frames} frames exceed Quake II's limit of {QUAKE2_MAX_FRAMES} (by {})",
            frames - QUAKE2_MAX_FRAMES
        )),
        "{err}"
    );
    assert!(err.contains("--fps"), "{err}");
    assert!(err.contains("--anim NAME"), "{err}");
    assert!(
        err.contains(&format!("--engine ufoai (allows {UFOAI_MAX_FRAMES})")),
        "{err}"
    );
    assert_no_api(&err);
    assert!(!out.exists());
    // And the advice holds: UFO:AI takes them, and 5 frames per second
    // makes 301, within Quake II's limit.
    let o = run(&["convert", "--fps", "5", &glb, out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md2 = std::fs::read(&out).unwrap();
    let num_frames = i32::from_le_bytes(md2[40..44].try_into().unwrap());
    assert_eq!(num_frames as f32, seconds * 5.0 + 1.0);
}

#[test]
fn a_skin_too_wide_for_quake2_or_not_pcx_warns_naming_what_helps() {
    let dir = tempfile::tempdir().unwrap();
    let glb = write(dir.path(), "m.glb", &triangle_glb(&[], 0));
    let (width, height) = (1024u32, 64u32);
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(width, height, image::Rgba([200, 100, 50, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let skin = write(dir.path(), "wide.png", &png);
    let out = dir.path().join("m.md2");
    let o = run(&["convert", "--skin", &skin, &glb, out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Scaled to Quake II's width, keeping the aspect.
    let scaled = u64::from(height) * QUAKE2_MAX_SKIN_WIDTH / u64::from(width);
    let warning = err
        .lines()
        .find(|l| l.contains("scaled down"))
        .unwrap_or_else(|| panic!("no warning: {err}"));
    assert!(
        warning.contains(&format!(
            "{width}x{height}, over the engine's limit: scaled down to {QUAKE2_MAX_SKIN_WIDTH}x{scaled}"
        )),
        "{warning}"
    );
    assert!(warning.contains("use smaller textures"), "{warning}");
    // id's Quake II loads only PCX skins (LoadPCX is its one skin
    // loader); the skin is PNG without --palette.
    let warning = err
        .lines()
        .find(|l| l.contains("loads only PCX"))
        .unwrap_or_else(|| panic!("no warning: {err}"));
    assert!(warning.contains("--palette FILE"), "{warning}");
    assert_no_api(&err);
    let md2 = std::fs::read(&out).unwrap();
    let field = |i: usize| i32::from_le_bytes(md2[i..i + 4].try_into().unwrap());
    assert_eq!(field(8) as u64, QUAKE2_MAX_SKIN_WIDTH);
}

#[test]
fn a_pcx_skin_without_a_palette_names_palette_and_skin_format() {
    let dir = tempfile::tempdir().unwrap();
    let glb = write(dir.path(), "m.glb", &triangle_glb(&[], 0));
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(8, 8, image::Rgba([1, 2, 3, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let skin = write(dir.path(), "s.png", &png);
    let out = dir.path().join("m.md2");
    let o = run(&[
        "convert",
        "--skin",
        &skin,
        "--skin-format",
        "pcx",
        &glb,
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("a PCX skin needs a 256-colour palette"),
        "{err}"
    );
    assert!(err.contains("--palette FILE"), "{err}");
    assert!(err.contains("--skin-format png"), "{err}");
    assert_no_api(&err);
}

#[test]
fn a_skin_name_too_long_names_skin_name() {
    let dir = tempfile::tempdir().unwrap();
    let glb = write(dir.path(), "m.glb", &triangle_glb(&[], 0));
    // A skin name field is 64 bytes with its NUL (MAX_SKINNAME, qfiles.h):
    // a name of 64 bytes leaves no room for it.
    let name = format!("players/{}/skin.pcx", "x".repeat(47));
    assert_eq!(name.len(), 64);
    let out = dir.path().join("m.md2");
    let o = run(&["convert", "--skin-name", &name, &glb, out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("skin name of {} bytes", name.len())),
        "{err}"
    );
    assert!(err.contains("--skin-name NAME"), "{err}");
    assert_no_api(&err);
}

#[test]
fn no_skin_size_warns_naming_skin_size_and_the_flag_sets_it() {
    let dir = tempfile::tempdir().unwrap();
    let glb = write(dir.path(), "m.glb", &triangle_glb(&[], 0));
    let out = dir.path().join("m.md2");
    let o = run(&["convert", &glb, out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("no skin size"))
        .unwrap_or_else(|| panic!("no warning: {err}"));
    assert!(warning.contains("--skin-size WxH"), "{warning}");
    assert_no_api(&err);
    // --skin-size sets the header's skin size (bytes 8..16).
    let o = run(&[
        "convert",
        "--force",
        "--skin-size",
        "128x64",
        &glb,
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("no skin size"), "{}", stderr(&o));
    let md2 = std::fs::read(&out).unwrap();
    let field = |i: usize| i32::from_le_bytes(md2[i..i + 4].try_into().unwrap());
    assert_eq!((field(8), field(12)), (128, 64));
    let o = run(&[
        "convert",
        "--force",
        "--skin-size",
        "0x64",
        &glb,
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "a usage error: {}", stderr(&o));
}

#[test]
fn an_ms3d_compile_with_too_many_samples_names_anim() {
    let dir = tempfile::tempdir().unwrap();
    // 31 animations of 65535 key times each on the one joint: with the
    // midpoints between keys, over 4 million sample times.
    let times: Vec<f32> = (0..65_535).map(|k| k as f32 / 1000.0).collect();
    let glb = write(dir.path(), "many.glb", &triangle_glb(&times, 31));
    let out = dir.path().join("many.ms3d");
    let o = run(&["convert", &glb, out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("samples a compile evaluates"), "{err}");
    assert!(err.contains("--anim NAME"), "{err}");
    assert_no_api(&err);
}

#[test]
fn too_many_groups_for_milkshape_is_refused_without_api_names() {
    let dir = tempfile::tempdir().unwrap();
    // One OBJ object per group.
    let mut obj = String::new();
    let n = MILKSHAPE_MAX_GROUPS + 1;
    for g in 0..n {
        obj += &format!("o g{g}\nv {g} 0 0\nv {g} 1 0\nv {g} 0 1\nf -3 -2 -1\n");
    }
    let path = write(dir.path(), "many.obj", obj.as_bytes());
    let out = dir.path().join("many.ms3d");
    let o = run(&["convert", &path, out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{n} groups exceed MilkShape 1.8's limit of {MILKSHAPE_MAX_GROUPS} (by 1)"
        )),
        "{err}"
    );
    assert!(err.contains("join meshes"), "{err}");
    assert_no_api(&err);
}

/// Options that do not apply are named by their flags, as the user typed
/// them: the library's problem (which options, what conflict) worded by
/// the command line.
#[test]
fn options_that_do_not_apply_are_named_by_their_flags() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/models/sample.md2");
    let sample = sample.to_str().unwrap();
    let obj = dir.path().join("a.obj");
    let glb = dir.path().join("a.glb");
    let (obj, glb) = (obj.to_str().unwrap(), glb.to_str().unwrap());
    for (args, said) in [
        (
            vec!["--time", "1", sample, obj],
            "--time applies to MS3D models; use --frame (and --anim) for MD2",
        ),
        (
            vec!["--quantize", sample, obj],
            "--quantize and --compress apply to glTF output (.glb, .gltf)",
        ),
        (
            vec!["--fps", "5", sample, obj],
            "--fps, --player, --scale, --fit-height, --grid, --grid-from, --engine, \
             --palette, --skin-format and --skin-name apply to .md2 and .md5mesh output",
        ),
        (
            vec!["--frame", "1", sample, glb],
            "--frame, --anim and --time apply to OBJ output only (glTF keeps every frame)",
        ),
        (
            vec!["--frame", "999", sample, obj],
            "--frame 999: animation \"stand\" has 10 frames",
        ),
    ] {
        let mut argv = vec!["convert"];
        // `--frame 999` needs an animation to count in.
        if args[1] == "999" {
            argv.extend(["--anim", "stand"]);
        }
        argv.extend(&args);
        let o = run(&argv);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_no_api(&err);
    }
}
