//! `retromodel convert IN OUT.md2|OUT.mdl --qc FILE`: QuakeC's `$frame`
//! list of the model written. The list is parsed here as the compilers
//! number it (id's qcc `PR_ParseFrame`: each name on a `$frame` line takes
//! the next number from 0; `$skin` lines number nothing), and each name's
//! number is checked against the frame of that name read from the written
//! file's own bytes (MD2: `ofs_frames` + k × `framesize` + 24; MDL: the
//! frame list after the skins, texcoords and triangles).

use std::collections::HashMap;
use std::path::Path;
use std::process::Output;

use retromodel::md2::FrameName;
use retromodel_testkit::cli::run_os;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

/// `convert INPUT DIR/out.md2 --qc DIR/out.qc`: the two paths and the
/// run.
fn convert_md2_with_qc(
    dir: &std::path::Path,
    input: &std::path::Path,
) -> (std::path::PathBuf, std::path::PathBuf, Output) {
    let out = dir.join("out.md2");
    let qc = dir.join("out.qc");
    let o = run(&[
        "convert",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
        "--qc",
        qc.to_str().unwrap(),
    ]);
    (out, qc, o)
}

fn le(b: &[u8], at: usize) -> usize {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

fn cstr(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}

/// Frame names of an MD2, from its header fields.
fn md2_frame_names(b: &[u8]) -> Vec<String> {
    let (size, n, ofs) = (le(b, 16), le(b, 40), le(b, 56));
    (0..n)
        .map(|k| cstr(&b[ofs + k * size + 24..ofs + k * size + 40]))
        .collect()
}

/// Frame names of a Quake MDL (version 6, 84-byte header): each frame
/// entry's name (a group's first frame's).
fn mdl_frame_names(b: &[u8]) -> Vec<String> {
    assert_eq!(&b[..4], b"IDPO");
    let (skins, w, h, verts, tris, frames) = (
        le(b, 48),
        le(b, 52),
        le(b, 56),
        le(b, 60),
        le(b, 64),
        le(b, 68),
    );
    let mut at = 84;
    for _ in 0..skins {
        if le(b, at) == 0 {
            at += 4 + w * h;
        } else {
            let n = le(b, at + 4);
            at += 8 + 4 * n + n * w * h;
        }
    }
    at += verts * 12 + tris * 16;
    let mut names = Vec::new();
    for _ in 0..frames {
        if le(b, at) == 0 {
            names.push(cstr(&b[at + 12..at + 28]));
            at += 4 + 24 + 4 * verts;
        } else {
            let n = le(b, at + 4);
            let first = at + 16 + 4 * n;
            names.push(cstr(&b[first + 8..first + 24]));
            at = first + n * (24 + 4 * verts);
        }
    }
    names
}

/// The names `$frame` lines declare, numbered as the compilers number
/// them, and the `$frame` lines themselves.
fn parse_qc(text: &str) -> (HashMap<String, usize>, Vec<Vec<String>>) {
    let mut numbers = HashMap::new();
    let mut lines = Vec::new();
    let mut next = 0;
    for line in text.lines() {
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("$frame") => {
                let names: Vec<String> = tokens.map(str::to_string).collect();
                for n in &names {
                    // Portable to every compiler: an identifier of at most
                    // 15 characters, no directive word, unique ignoring case.
                    assert!(n.len() <= 15, "{n}");
                    assert!(
                        n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'),
                        "{n}"
                    );
                    assert!(
                        n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                        "{n}"
                    );
                    assert!(
                        ![
                            "frame",
                            "skin",
                            "flush",
                            "cd",
                            "origin",
                            "base",
                            "flags",
                            "scale",
                            "modelname",
                            "framesave",
                            "framevalue",
                            "framerestore",
                            "frame_reset"
                        ]
                        .contains(&n.to_ascii_lowercase().as_str()),
                        "{n}"
                    );
                    assert!(
                        !numbers.keys().any(|k: &String| k.eq_ignore_ascii_case(n)),
                        "{n} declared twice"
                    );
                    numbers.insert(n.clone(), next);
                    next += 1;
                }
                lines.push(names);
            }
            Some(t) if t.starts_with('$') => assert_eq!(t, "$skin", "{line}"),
            Some(t) => assert!(t.starts_with("//"), "{line}"),
            None => {}
        }
    }
    (numbers, lines)
}

/// The sample model with these frame names.
fn md2_with_names(dir: &Path, names: &[&str]) -> std::path::PathBuf {
    let mut m = retromodel::md2::sample::sample_model();
    assert_eq!(m.frames.len(), names.len());
    for (f, n) in m.frames.iter_mut().zip(names) {
        f.name = FrameName::new(n);
    }
    let p = dir.join("in.md2");
    std::fs::write(&p, m.to_bytes().unwrap()).unwrap();
    p
}

const CLEAN: [&str; 16] = [
    "stand01", "stand02", "stand03", "stand04", "stand05", "stand06", "stand07", "stand08",
    "stand09", "stand10", "run1", "run2", "run3", "run4", "run5", "run6",
];

#[test]
fn md2_names_number_as_their_frames() {
    let d = tempfile::tempdir().unwrap();
    let input = md2_with_names(d.path(), &CLEAN);
    let (out, qc, o) = convert_md2_with_qc(d.path(), &input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let names = md2_frame_names(&std::fs::read(&out).unwrap());
    let (numbers, lines) = parse_qc(&std::fs::read_to_string(&qc).unwrap());
    assert_eq!(numbers.len(), names.len());
    for (k, n) in names.iter().enumerate() {
        assert_eq!(numbers[n], k, "${n}");
    }
    // One line per animation: stand, run.
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].len(), 10);
    assert_eq!(lines[1][0], "run1");
}

#[test]
fn names_compilers_refuse_are_rewritten_and_numbering_kept() {
    let d = tempfile::tempdir().unwrap();
    let mut names = CLEAN;
    // A digit first, a '-', a directive word, a case-only duplicate of
    // stand01, and 16 characters (no NUL in the field): one past qcc's 15.
    names[1] = "2nd";
    names[2] = "a-b";
    names[3] = "skin";
    names[4] = "STAND01";
    names[5] = "abcdefghijklmnop";
    // 15 characters: the longest kept as it is.
    names[6] = "zyxwvutsrqponml";
    let input = md2_with_names(d.path(), &names);
    let (out, qc, o) = convert_md2_with_qc(d.path(), &input);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let written = md2_frame_names(&std::fs::read(&out).unwrap());
    let (numbers, _) = parse_qc(&std::fs::read_to_string(&qc).unwrap());
    assert_eq!(numbers.len(), written.len());
    let by_number: HashMap<usize, &String> = numbers.iter().map(|(n, &k)| (k, n)).collect();
    for (k, name) in written.iter().enumerate() {
        if (1..=5).contains(&k) {
            // Renamed, said so on stderr, and still frame k.
            assert_ne!(by_number[&k], name);
            assert!(
                stderr.contains(&format!("warning: frame {k} ")),
                "frame {k}: {stderr}"
            );
        } else {
            assert_eq!(by_number[&k], name, "frame {k}");
        }
    }
    // Nothing in stderr names the library's API.
    assert!(
        !stderr.contains("QcNote") && !stderr.contains("NameIssue"),
        "{stderr}"
    );
}

#[test]
fn mdl_names_number_as_their_frames() {
    let d = tempfile::tempdir().unwrap();
    let input = md2_with_names(d.path(), &CLEAN);
    let pal = d.path().join("palette.lmp");
    std::fs::write(
        &pal,
        (0..=255u8).flat_map(|i| [i, i, i]).collect::<Vec<u8>>(),
    )
    .unwrap();
    let out = d.path().join("out.mdl");
    let qc = d.path().join("out.qc");
    let o = run(&[
        "convert",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
        "--palette",
        pal.to_str().unwrap(),
        "--qc",
        qc.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let names = mdl_frame_names(&std::fs::read(&out).unwrap());
    assert_eq!(names.len(), 16);
    let (numbers, _) = parse_qc(&std::fs::read_to_string(&qc).unwrap());
    assert_eq!(numbers.len(), names.len());
    for (k, n) in names.iter().enumerate() {
        assert_eq!(numbers[n], k, "${n}");
    }
}

#[test]
fn qc_is_refused_for_other_outputs_before_converting() {
    let d = tempfile::tempdir().unwrap();
    let input = md2_with_names(d.path(), &CLEAN);
    let out = d.path().join("out.glb");
    let o = run(&[
        "convert",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
        "--qc",
        d.path().join("x.qc").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--qc"));
    assert!(!out.exists());
}
