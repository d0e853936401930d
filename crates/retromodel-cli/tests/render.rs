//! `retromodel render`: stills, GIFs, APNGs and contact sheets as files.
//! Images are decoded with the `image` and `gif` crates and APNG's frame
//! count read from its `acTL` chunk here; frame counts come from the MD2
//! file's own frame names (read from its bytes here).

use std::path::{Path, PathBuf};
use std::process::Output;

use retromodel_testkit::cli::{run_os, sample};

fn run(args: &[&std::ffi::OsStr]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn run_str(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn png_size(path: &Path) -> (u32, u32) {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (img.width(), img.height())
}

/// The number of frames of each animation of an MD2, grouped as Quake
/// does: frame names without their trailing digits, read from the bytes.
fn md2_animation_frames(path: &Path) -> Vec<(String, usize)> {
    let b = std::fs::read(path).expect("md2");
    let field =
        |i: usize| i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes")) as usize;
    let (frame_size, frames, ofs_frames) = (field(4), field(10), field(14));
    let mut out: Vec<(String, usize)> = Vec::new();
    for f in 0..frames {
        let at = ofs_frames + f * frame_size + 24;
        let raw = &b[at..at + 16];
        let name = String::from_utf8_lossy(&raw[..raw.iter().position(|&c| c == 0).unwrap_or(16)])
            .into_owned();
        let stem = name
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string();
        match out.last_mut() {
            Some((n, count)) if *n == stem => *count += 1,
            _ => out.push((stem, 1)),
        }
    }
    out
}

/// Width, height and every frame's palette indices of a GIF.
fn gif_decode(path: &Path) -> (u16, u16, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).expect("gif"))
        .expect("a GIF");
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("frame") {
        frames.push(frame.buffer.to_vec());
    }
    (decoder.width(), decoder.height(), frames)
}

fn gif_frames(path: &Path) -> (u16, u16, usize) {
    let (w, h, frames) = gif_decode(path);
    (w, h, frames.len())
}

/// `acTL`'s frame count of an animated PNG (walking its chunks).
fn apng_frames(path: &Path) -> u32 {
    let b = std::fs::read(path).expect("apng");
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
    let mut at = 8;
    while at + 8 <= b.len() {
        let len = u32::from_be_bytes(b[at..at + 4].try_into().expect("4")) as usize;
        if &b[at + 4..at + 8] == b"acTL" {
            return u32::from_be_bytes(b[at + 8..at + 12].try_into().expect("4"));
        }
        at += 12 + len;
    }
    panic!("no acTL chunk in {}", path.display());
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn a_still_is_a_512_png_with_the_camera_in_a_text_chunk() {
    let dir = tmp();
    let out = dir.path().join("still.png");
    let o = run_str(&["render", s(&sample()), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&out), (512, 512));
    let bytes = std::fs::read(&out).expect("png");
    let text = bytes
        .windows(4)
        .position(|w| w == b"tEXt")
        .expect("a tEXt chunk");
    let rest = String::from_utf8_lossy(&bytes[text..]);
    assert!(
        rest.contains("\"eye\"") && rest.contains("fov_y_degrees"),
        "camera JSON in the text chunk"
    );
    // Not replaced without --force; --size WxH.
    let o = run_str(&["render", "--size", "80x40", s(&sample()), s(&out)]);
    assert!(!o.status.success());
    let o = run_str(&[
        "render",
        "--force",
        "--size",
        "80x40",
        "--view",
        "back",
        "--wireframe",
        "--background",
        "102030",
        s(&sample()),
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(png_size(&out), (80, 40));
    let img = image::open(&out).expect("png").to_rgba8();
    assert_eq!(
        img.get_pixel(0, 0).0,
        [0x10, 0x20, 0x30, 255],
        "background colour"
    );
}

#[test]
fn absurd_sizes_and_unknown_animations_are_refused_and_write_nothing() {
    let dir = tmp();
    let out = dir.path().join("x.png");
    let model = sample();
    for args in [
        vec!["--size", "100000x100000"],
        vec!["--size", "0x10"],
        vec!["--anim", "nosuch"],
        vec!["--time", "-1"],
        vec!["--fov", "0"],
    ] {
        let mut all = vec!["render"];
        all.extend(args.iter().copied());
        all.extend([s(&model), s(&out)]);
        let o = run_str(&all);
        assert!(!o.status.success(), "{args:?} must be refused");
        assert!(!stderr(&o).trim().is_empty(), "{args:?}: a message");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
    let o = run_str(&["render", "--anim", "nosuch", s(&sample()), s(&out)]);
    assert!(
        stderr(&o).contains("stand"),
        "lists the animations: {}",
        stderr(&o)
    );
}

#[test]
fn gif_and_apng_have_a_frame_per_key_at_the_model_s_rate_and_blend_at_higher_rates() {
    let dir = tmp();
    let anims = md2_animation_frames(&sample());
    assert_eq!(
        anims.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["stand", "run"]
    );
    let all: usize = anims.iter().map(|(_, n)| n).sum();
    let stand = anims[0].1;
    // Every animation, at the model's 10 fps: one image per MD2 frame
    // (looping back to the first without repeating it).
    let gif = dir.path().join("all.gif");
    let o = run_str(&["render", "--size", "64x48", s(&sample()), s(&gif)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(gif_frames(&gif), (64, 48, all));
    // One animation, twice the rate: blended frames between the keys.
    let apng = dir.path().join("stand.apng");
    let o = run_str(&[
        "render",
        "--size",
        "32",
        "--anim",
        "stand",
        "--fps",
        "20",
        s(&sample()),
        s(&apng),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(apng_frames(&apng), 2 * stand as u32);
    assert_eq!(png_size(&apng), (32, 32), "the default image of the APNG");
    let gif = dir.path().join("stand.gif");
    let o = run_str(&[
        "render",
        "--size",
        "32",
        "--anim",
        "stand",
        s(&sample()),
        s(&gif),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(gif_frames(&gif).2, stand);
    // At twice the rate every other frame lies between two keys: blended,
    // so unlike both neighbours (a held key would repeat one of them).
    // (`run`: its limbs swing far from key to key.)
    let run = anims[1].1;
    let fast = dir.path().join("run20.gif");
    let o = run_str(&[
        "render",
        "--size",
        "96",
        "--anim",
        "run",
        "--fps",
        "20",
        s(&sample()),
        s(&fast),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, _, frames) = gif_decode(&fast);
    assert_eq!(frames.len(), 2 * run);
    // (Keys the same pose have the same in-between: only those between
    // two different keys are checked.)
    let mut checked = 0;
    for k in (1..frames.len() - 1).step_by(2) {
        if frames[k - 1] != frames[k + 1] {
            assert!(
                frames[k] != frames[k - 1] && frames[k] != frames[k + 1],
                "frame {k} is not an in-between"
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} in-betweens checked");
}

fn sheet_folder(dir: &Path) -> PathBuf {
    let models = dir.join("models");
    std::fs::create_dir_all(models.join("sub")).expect("dirs");
    std::fs::copy(sample(), models.join("a.md2")).expect("copy");
    std::fs::copy(sample(), models.join("sub/b.md2")).expect("copy");
    std::fs::write(models.join("broken.md2"), b"IDP2\x08\0\0\0 cut short").expect("write");
    models
}

#[test]
fn a_folder_sheet_shows_a_placeholder_for_a_bad_file_lists_it_and_exits_1() {
    let dir = tmp();
    let models = sheet_folder(dir.path());
    let out = dir.path().join("sheet.png");
    let o = run_str(&["render", "--size", "64", s(&models), "--sheet", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("broken.md2"), "names the bad file: {err}");
    assert!(err.contains("failed 1"), "summary: {err}");
    let (w, h) = png_size(&out);
    assert!(
        w >= 64 * 2 && h >= 64 * 2,
        "three thumbnails of 64: {w}x{h}"
    );
}

#[test]
fn sheets_and_animations_are_the_same_bytes_with_any_number_of_jobs() {
    let dir = tmp();
    let models = sheet_folder(dir.path());
    let mut sheets = Vec::new();
    let mut gifs = Vec::new();
    for jobs in ["1", "2", "3"] {
        let out = dir.path().join(format!("sheet{jobs}.png"));
        let o = run_str(&[
            "render",
            "-j",
            jobs,
            "--size",
            "48",
            s(&models),
            "--sheet",
            s(&out),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        sheets.push(std::fs::read(&out).expect("sheet"));
        let gif = dir.path().join(format!("a{jobs}.gif"));
        let o = run_str(&["render", "-j", jobs, "--size", "40", s(&sample()), s(&gif)]);
        assert!(o.status.success(), "{}", stderr(&o));
        gifs.push(std::fs::read(&gif).expect("gif"));
    }
    assert!(
        sheets.windows(2).all(|w| w[0] == w[1]),
        "sheets differ between job counts"
    );
    assert!(
        gifs.windows(2).all(|w| w[0] == w[1]),
        "GIFs differ between job counts"
    );
}

#[test]
fn one_model_s_sheet_has_a_row_per_animation() {
    let dir = tmp();
    let out = dir.path().join("strip.png");
    let o = run(&[
        "render".as_ref(),
        "--size".as_ref(),
        "32".as_ref(),
        sample().as_os_str(),
        "--sheet".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let anims = md2_animation_frames(&sample());
    let (w, h) = png_size(&out);
    let widest = anims
        .iter()
        .map(|(_, n)| *n)
        .max()
        .expect("animations")
        .min(10);
    assert!(
        w >= 32 * widest as u32,
        "{w} wide for {widest} frames of 32"
    );
    assert!(
        h >= 32 * anims.len() as u32,
        "{h} high for {} rows",
        anims.len()
    );
}

/// The rows and columns an image's opaque pixels span, as fractions of
/// its height and width.
fn silhouette_extent(path: &Path) -> (f64, f64) {
    let img = image::open(path).expect("png").to_rgba8();
    let (w, h) = img.dimensions();
    let covered: Vec<(u32, u32)> = img
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[3] > 0)
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(!covered.is_empty(), "{}: nothing drawn", path.display());
    let span = |v: &dyn Fn(&(u32, u32)) -> u32| {
        let (lo, hi) = covered
            .iter()
            .map(v)
            .fold((u32::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
        hi - lo + 1
    };
    (
        f64::from(span(&|p| p.1)) / f64::from(h),
        f64::from(span(&|p| p.0)) / f64::from(w),
    )
}

/// The camera `--verbose` prints.
fn verbose_camera(o: &Output) -> serde_json::Value {
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    info["camera"].clone()
}

/// A still is framed on the animation it shows: faerie's 20 animations
/// reach far wider than `stand` (death falls, crouches), so framing on
/// all of them drew the standing model at under half the image's height
/// (0.48 of 128 rows, as before this rule); framed on `stand`, its
/// silhouette spans most of it, and the rest pose is exactly `stand`'s
/// first frame.
#[test]
fn a_still_is_framed_on_the_animation_it_is_in() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let faerie = corpus.join("md2/assimpdeb_faerie.md2");
    let anims = md2_animation_frames(&faerie);
    assert_eq!(anims[0].0, "stand");
    assert!(anims.len() > 10, "{anims:?}");
    let dir = tmp();
    let still = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args = vec!["render", "-v", "--size", "128", "--view", "front"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[s(&faerie), s(&out)]);
        let o = run_str(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        (out, verbose_camera(&o))
    };
    let (rest, rest_camera) = still("rest.png", &[]);
    let (height, _) = silhouette_extent(&rest);
    assert!((0.7..=0.95).contains(&height), "rest pose: {height}");
    let (stand, stand_camera) = still("stand.png", &["--anim", "stand"]);
    assert_eq!(rest_camera, stand_camera);
    assert_eq!(
        image::open(&rest).expect("png").to_rgba8(),
        image::open(&stand).expect("png").to_rgba8(),
        "the rest pose is stand's first frame"
    );
    // A frame of another animation, chosen by its number in the file, is
    // framed as that animation's frames are.
    let first: usize = anims[..5].iter().map(|a| a.1).sum();
    let count = anims[5].1;
    let k = first + count / 2;
    let (frame, frame_camera) = still("frame.png", &["--frame", &k.to_string()]);
    let (_, anim_camera) = still(
        "anim.png",
        &["--anim", &anims[5].0, "--frame", &(count / 2).to_string()],
    );
    assert_eq!(frame_camera, anim_camera, "frame {k} of {}", anims[5].0);
    assert_ne!(frame_camera, rest_camera);
    let (height, _) = silhouette_extent(&frame);
    assert!(height > 0.3, "frame {k}: {height}");
}
