//! `retromodel convert IN OUT.md2|OUT.md3 --modeldef FILE`: the MODELDEF
//! block checked here by a scanner written to GZDoom's rules
//! (`src/common/engine/sc_man_scanner.re` in Hexen mode: `//`, `/* */`
//! and `;` comments, quoted strings, unquoted tokens ending at space,
//! `{ } | =`, `"` and `;`; `ParseModelDefLump` in `src/r_data/models.cpp`:
//! keywords case-insensitive, `model` in pass 1, integers by `GetNumber`,
//! frame characters `toupper(c) - 'A' < 29`), against the frame count read
//! from the written model's own header bytes (MD2: `num_frames` at 40;
//! MD3: `numFrames` at 76).

use std::collections::HashSet;
use std::process::Output;

use retromodel_testkit::cli::run_os;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

/// GZDoom's script scanner, as far as MODELDEF uses it: the tokens, each
/// with whether it was quoted.
fn tokens(text: &str) -> Vec<(String, bool)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b';' || b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").expect("unterminated comment");
            i += end + 4;
        } else if c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                assert!(i < b.len(), "unterminated string");
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'"') {
                    s.push('"');
                    i += 2;
                } else if b[i] == b'"' {
                    i += 1;
                    break;
                } else {
                    s.push(b[i] as char);
                    i += 1;
                }
            }
            out.push((s, true));
        } else if b"{}|=".contains(&c) {
            out.push(((c as char).to_string(), false));
            i += 1;
        } else {
            let start = i;
            while i < b.len()
                && !b[i].is_ascii_whitespace()
                && !b"{}|=\";".contains(&b[i])
                && !b[i..].starts_with(b"//")
                && !b[i..].starts_with(b"/*")
            {
                i += 1;
            }
            out.push((text[start..i].to_string(), false));
        }
    }
    out
}

/// `GetNumber` without octal or hex surprises: plain decimal, no leading 0.
fn int(t: &str) -> i64 {
    assert!(t == "0" || !t.starts_with('0'), "leading 0: {t}");
    assert!(!t.starts_with("-0"), "leading 0: {t}");
    t.parse().unwrap_or_else(|_| panic!("not an integer: {t}"))
}

fn float(t: &str) -> f64 {
    t.parse::<f64>()
        .unwrap_or_else(|_| panic!("not a number: {t}"))
}

/// Checks the block as ParseModelDefLump reads it; returns (actor, model
/// file, FrameIndex entries as (sprite, frame char, model frame)).
fn check(text: &str, frame_count: usize) -> (String, String, Vec<(String, char, usize)>) {
    let t = tokens(text);
    assert!(t[0].0.eq_ignore_ascii_case("model"), "{:?}", t[0]);
    let actor = t[1].0.clone();
    assert_eq!(t[2].0, "{");
    let close = t.iter().position(|x| x.0 == "}").expect("no }");
    assert_eq!(close, t.len() - 1, "one block");
    let block = &t[3..close];
    // Pass 1: every token `model` makes the next a number (the index);
    // so no other token is the word model.
    let mut models = Vec::new();
    for (k, tok) in block.iter().enumerate() {
        if tok.0.eq_ignore_ascii_case("model") {
            assert!(!tok.1, "a quoted \"model\"");
            models.push(int(&block[k + 1].0));
        }
    }
    assert!(!models.is_empty());
    assert!(
        models.windows(2).all(|w| w[0] < w[1]),
        "Model lines ascending"
    );
    let models_amount = (models.last().unwrap() + 1).max(4);
    // Pass 2.
    let mut file = String::new();
    let mut entries = Vec::new();
    let mut seen_frame = false;
    let mut k = 0;
    while k < block.len() {
        let kw = block[k].0.to_ascii_lowercase();
        let arg = |n: usize| &block[k + n].0;
        match kw.as_str() {
            "path" => {
                assert!(!seen_frame);
                k += 2;
            }
            "model" | "skin" => {
                assert!(!seen_frame, "{kw} after a FrameIndex");
                let idx = int(arg(1));
                assert!((0..models_amount).contains(&idx));
                if kw == "model" {
                    file = arg(2).clone();
                }
                k += 3;
            }
            "surfaceskin" => {
                assert!(!seen_frame);
                assert!((0..models_amount).contains(&int(arg(1))));
                assert!((0..32).contains(&int(arg(2))));
                k += 4;
            }
            "scale" | "offset" => {
                assert!(!seen_frame);
                for n in 1..=3 {
                    assert!(float(arg(n)).is_finite());
                }
                k += 4;
            }
            "zoffset" | "angleoffset" | "pitchoffset" | "rolloffset" => {
                assert!(!seen_frame);
                float(arg(1));
                k += 2;
            }
            "frameindex" => {
                seen_frame = true;
                let (sprite, chars) = (arg(1).clone(), arg(2).clone());
                assert_eq!(sprite.len(), 4, "{sprite}");
                assert!(!sprite.eq_ignore_ascii_case("TNT1"));
                assert!(!block[k + 2].1, "frame chars quoted");
                assert_eq!(chars.len(), 1, "{chars}");
                let c = chars.chars().next().unwrap().to_ascii_uppercase();
                assert!(
                    (c as i64 - 'A' as i64) >= 0 && (c as i64 - 'A' as i64) < 29,
                    "{c}"
                );
                let idx = int(arg(3));
                assert!((0..models_amount).contains(&idx));
                let frame = int(arg(4));
                assert!(
                    frame >= 0 && (frame as usize) < frame_count,
                    "frame {frame}"
                );
                entries.push((sprite, c, frame as usize));
                k += 5;
            }
            other => panic!("unrecognized {other:?}"),
        }
    }
    (actor, file, entries)
}

fn le(b: &[u8], at: usize) -> usize {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// The sample model with `n` frames (its 16, repeated).
fn md2_with_frames(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let mut m = retromodel::md2::sample::sample_model();
    let base = m.frames.clone();
    m.frames = (0..n)
        .map(|i| {
            let mut f = base[i % base.len()].clone();
            f.name = retromodel::md2::FrameName::new(&format!("walk{}", i + 1));
            f
        })
        .collect();
    let p = dir.join("in.md2");
    std::fs::write(&p, m.to_bytes().unwrap()).unwrap();
    p
}

fn convert(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    err
}

/// Every model frame referenced once, and each sprite's frames in order.
fn covers(entries: &[(String, char, usize)], frames: usize) {
    let got: HashSet<usize> = entries.iter().map(|e| e.2).collect();
    assert_eq!(entries.len(), frames);
    assert_eq!(got, (0..frames).collect());
    let keys: HashSet<(String, char)> = entries.iter().map(|e| (e.0.clone(), e.1)).collect();
    assert_eq!(keys.len(), frames, "a sprite frame used twice");
}

#[test]
fn md2_modeldef_for_29_frames_and_one_past() {
    for (n, sprites) in [(29usize, 1usize), (30, 2)] {
        let d = tempfile::tempdir().unwrap();
        let input = md2_with_frames(d.path(), n);
        let out = d.path().join("ghoul.md2");
        let def = d.path().join("modeldef.txt");
        let err = convert(&[
            "convert",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
            "--modeldef",
            def.to_str().unwrap(),
        ]);
        let frames = le(&std::fs::read(&out).unwrap(), 40);
        assert_eq!(frames, n);
        let text = std::fs::read_to_string(&def).unwrap();
        let (actor, file, entries) = check(&text, frames);
        assert_eq!(actor, "ghoul");
        assert_eq!(file, "ghoul.md2");
        covers(&entries, frames);
        let names: HashSet<&str> = entries.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(names.len(), sprites, "{names:?}");
        // Frame 28 is the 29th character, `]`, written unquoted.
        assert!(entries.contains(&("GH00".to_string(), ']', 28)));
        assert!(text.contains("FrameIndex GH00 \\ 0 27\n"));
        // The table for the states, on stderr and at the top of the file.
        let table = if n == 29 {
            "walk: GH00 ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]"
        } else {
            "walk: GH00 ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\], GH01 A"
        };
        assert!(err.contains(table), "{err}");
        assert!(text.contains(table), "{text}");
    }
}

#[test]
fn md3_modeldef_with_actor_height_and_floor() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("thing.md3");
    let def = d.path().join("thing.modeldef");
    convert(&[
        "convert",
        retromodel_testkit::cli::sample().to_str().unwrap(),
        out.to_str().unwrap(),
        "--modeldef",
        def.to_str().unwrap(),
        "--modeldef-actor",
        "MyThing",
        "--modeldef-height",
        "40",
    ]);
    let b = std::fs::read(&out).unwrap();
    assert_eq!(&b[..4], b"IDP3");
    let frames = le(&b, 76);
    let text = std::fs::read_to_string(&def).unwrap();
    let (actor, file, entries) = check(&text, frames);
    assert_eq!((actor.as_str(), file.as_str()), ("MyThing", "thing.md3"));
    covers(&entries, frames);
    // Frame 0's lowest and highest z from its own bytes: the first
    // surface's first numVerts xyz shorts (1/64 unit) at ofsXyzNormals.
    let (ofs_surfaces, surfaces) = (le(&b, 100), le(&b, 84));
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    let mut at = ofs_surfaces;
    for _ in 0..surfaces {
        let verts = le(&b, at + 80);
        let ofs_xyz = le(&b, at + 100);
        for v in 0..verts {
            let p = at + ofs_xyz + 8 * v + 4;
            let z = i16::from_le_bytes([b[p], b[p + 1]]) as f64 / 64.0;
            lo = lo.min(z);
            hi = hi.max(z);
        }
        at += le(&b, at + 104);
    }
    // Scale s: frame 0 drawn (height x s / 1.2, GZDoom's pixel stretch)
    // is 40 units; ZOffset lifts its lowest point to the floor.
    let t = tokens(&text);
    let get = |kw: &str| {
        let k = t.iter().position(|x| x.0.eq_ignore_ascii_case(kw)).unwrap();
        float(&t[k + 1].0)
    };
    let s = get("scale");
    let z = get("zoffset");
    assert!(((hi - lo) * s / 1.2 - 40.0).abs() < 0.01, "{s}");
    assert!((lo * s / 1.2 + z).abs() < 0.01, "{z}");
}

#[test]
fn modeldef_refused_for_mdl_output() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&[
        "convert",
        retromodel_testkit::cli::sample().to_str().unwrap(),
        d.path().join("x.mdl").to_str().unwrap(),
        "--modeldef",
        d.path().join("m.txt").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--modeldef"));
}
