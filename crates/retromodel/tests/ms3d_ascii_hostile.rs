//! Malformed and hostile MilkShape ASCII text: every fault is an error
//! naming its line, nothing panics, nothing allocates for what the input
//! cannot hold, and whatever parses passes the fuzz target's checks
//! (`retromodel_testkit::ms3d_ascii_checks`).

use std::time::{Duration, Instant};

use retromodel::ms3d::ascii::AsciiModel;
use retromodel::Error;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::ms3d_ascii_checks::{exercise_ascii, exercise_binary};

/// The line and message of a parse error.
fn error(text: &[u8]) -> (usize, String) {
    match AsciiModel::parse(text) {
        Err(Error::Ms3dAscii {
            line: Some(line),
            message,
        }) => (line, message),
        Err(other) => panic!("not an ASCII error: {other}"),
        Ok(m) => panic!("parsed: {m:?}"),
    }
}

/// A small valid file, written by hand.
const VALID: &str = "// MilkShape 3D ASCII\n\nFrames: 30\nFrame: 1\n\nMeshes: 1\n\"m\" 0 0\n3\n\
    0 0 0 0 0 0 0\n0 1 0 0 1 0 0\n0 0 1 0 0 1 0\n1\n0 0 1\n1\n0 0 1 2 0 0 0 1\n\n\
    Materials: 1\n\"mat\"\n0.2 0.2 0.2 1\n0.8 0.8 0.8 1\n0 0 0 1\n0 0 0 1\n0\n1\n\"t.png\"\n\"\"\n\n\
    Bones: 1\n\"root\"\n\"\"\n0 0 0 0 0 0 0\n1\n1 0 0 0\n1\n1 0 0 0\n\
    GroupComments: 1\n0\nhello\\nworld\nMaterialComments: 0\nBoneComments: 0\nModelComment: 1\nmodel\n";

#[test]
fn the_hand_written_file_passes_every_check() {
    let m = exercise_ascii(VALID.as_bytes()).expect("parses");
    assert!(m.validate().is_empty(), "{:?}", m.validate());
    assert!(exercise_binary(&m.to_ms3d().unwrap().to_bytes().unwrap()));
}

#[test]
fn each_fault_names_its_line() {
    for (text, line, message) in [
        (
            VALID.replace("0 1 0 0 1 0 0\n", "0 1 0\n"),
            10,
            "expected 7 fields for a vertex (flags x y z u v bone), found 3: \"0 1 0\"",
        ),
        (
            VALID.replace("0 0 1 2 0 0 0 1", "0 0 1 2 0 0 0"),
            15,
            "expected 8 fields for a triangle (flags v1 v2 v3 n1 n2 n3 smoothing), found 7: \
             \"0 0 1 2 0 0 0\"",
        ),
        (
            VALID.replace("0.8 0.8 0.8 1", "0.8 NaN 0.8 1"),
            20,
            "the diffuse colour is not a finite number: \"NaN\"",
        ),
        (
            VALID.replace("0.8 0.8 0.8 1", "0.8 0.8 inf 1"),
            20,
            "the diffuse colour is not a finite number: \"inf\"",
        ),
        (
            VALID.replace("0 1 0 0 1 0 0", "0 1e40 0 0 1 0 0"),
            10,
            "a vertex position is not a finite number: \"1e40\"",
        ),
        (
            VALID.replace("\"mat\"", "\"mat"),
            18,
            "unterminated quote in a material name: \"\\\"mat\"",
        ),
        (
            VALID.replace("\"root\"", "root"),
            29,
            "expected a bone name in double quotes, found \"root\"",
        ),
        (
            // One triangle more than follow: the next section is read as it.
            VALID.replace("1\n0 0 1\n1\n", "1\n0 0 1\n2\n"),
            17,
            "expected 8 fields for a triangle (flags v1 v2 v3 n1 n2 n3 smoothing), found 2: \
             \"Materials: 1\"",
        ),
        (
            VALID.replace("Frame: 1", "Frame: 1.5"),
            4,
            "Frame: is not a whole number: \"1.5\"",
        ),
        (
            VALID.replace("Bones: 1", "Bones: -1"),
            28,
            "the number of bones must be a whole number of at least 0, found \"-1\"",
        ),
        (
            VALID.replace("0 0 0 0 0 0 0\n0 1", "300 0 0 0 0 0 0\n0 1"),
            9,
            "vertex flags 300 is out of range 0..=255",
        ),
        (
            VALID.replace("ModelComment: 1", "ModelComment: 3"),
            41,
            "ModelComment: must be 0 or 1 (a model has one comment), found \"3\"",
        ),
        (
            VALID.replace("\nMaterialComments: 0", "\nMeshes: 0"),
            39,
            "a second Meshes: section (the first is on line 6)",
        ),
        (
            VALID.replace("Frames: 30", "Frames 30"),
            3,
            "expected a section (Frames:, Frame:, Meshes:, Materials:, Bones:, GroupComments:, \
             MaterialComments:, BoneComments: or ModelComment:), found \"Frames 30\"",
        ),
    ] {
        let (found_line, found) = error(text.as_bytes());
        assert_eq!((found_line, found.as_str()), (line, message));
    }
}

/// A text in a code page (here Latin-1 `é`, not UTF-8) is read, and its
/// name keeps its byte: in the text written back and in the binary.
#[test]
fn text_that_is_not_utf8_keeps_its_bytes() {
    let mut text = VALID.as_bytes().to_vec();
    let at = VALID.find("\"mat\"").unwrap() + 2;
    text[at] = 0xe9; // Latin-1 é
    let model = AsciiModel::parse(&text).unwrap();
    assert_eq!(model.to_bytes(), text);
    let binary = model.to_ms3d().unwrap();
    assert_eq!(binary.materials[0].name.as_bytes(), b"m\xe9t");
    assert!(exercise_ascii(&text).is_some());
}

#[test]
fn huge_counts_fail_before_allocating() {
    let start = Instant::now();
    for (text, line) in [
        ("Meshes: 4000000000\n", 1),
        ("Meshes: 18446744073709551615\n", 1),
        ("Meshes: 1\n\"m\" 0 0\n2000000000\n0 0 0 0 0 0 0\n", 3),
        ("Bones: 1\n\"b\"\n\"\"\n0 0 0 0 0 0 0\n4294967295\n", 5),
        ("GroupComments: 999999999999\n0\nx\n", 1),
    ] {
        let (l, message) = error(text.as_bytes());
        assert_eq!(l, line, "{message}");
        assert!(
            message.contains("announced") || message.contains("at least 0"),
            "{message}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(1));
}

#[test]
fn a_line_of_many_megabytes_is_an_error_quoted_short() {
    let long = 16 << 20;
    for (text, line) in [
        // An unterminated quote over 16 MiB.
        (format!("Meshes: 1\n\"{}\n0\n0\n0\n", "a".repeat(long)), 2),
        // A 16 MiB number.
        (
            format!(
                "Meshes: 1\n\"m\" 0 0\n1\n0 {} 0 0 0 0 0\n0\n0\n",
                "1".repeat(long)
            ),
            4,
        ),
        // 16 MiB of one line that is no section.
        ("x".repeat(long), 1),
    ] {
        let start = Instant::now();
        let (l, message) = error(text.as_bytes());
        assert_eq!(l, line);
        assert!(message.len() < 300, "{} bytes of message", message.len());
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
    }
}

#[test]
fn every_prefix_of_a_real_file_parses_or_fails_cleanly() {
    let Some(corpus) = corpus_dir() else { return };
    let bytes = std::fs::read(corpus.join("ms3d_ascii/stepmania_bend.txt")).unwrap();
    let mut parsed = 0;
    for end in 0..=bytes.len() {
        if exercise_ascii(&bytes[..end]).is_some() {
            parsed += 1;
        }
    }
    // Prefixes ending after a complete section parse (a file may end
    // after any section); the whole file does.
    assert!(parsed > 0);
    assert!(exercise_ascii(&bytes).is_some());
}

/// A small deterministic generator (xorshift), so the mutations are the
/// same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn mutated_corpus_files_never_break_the_checks() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = corpus.join("ms3d_ascii");
    let seeds: Vec<Vec<u8>> = [
        "stepmania_bend.txt",
        "stepmania_kb7_orbital_model_note.txt",
        "stepmania_dance_midi-note-3d__down Tap Note materials.txt",
    ]
    .iter()
    .map(|n| std::fs::read(dir.join(n)).unwrap())
    .chain([VALID.as_bytes().to_vec()])
    .collect();
    let tokens: [&[u8]; 12] = [
        b"0",
        b"-1",
        b"65535",
        b"4294967296",
        b"nan",
        b"1e39",
        b"\"",
        b"\n",
        b"//",
        b"\\n",
        b" ",
        b"Bones: 1\n",
    ];
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut parsed = 0;
    for i in 0..4000 {
        let mut data = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(data.len());
            match rng.below(4) {
                0 => data[at] = rng.next() as u8,
                1 => {
                    data.remove(at);
                }
                2 => {
                    let t = tokens[rng.below(tokens.len())];
                    data.splice(at..at, t.iter().copied());
                }
                _ => {
                    // Replace a digit by another: counts and indices move.
                    if data[at].is_ascii_digit() {
                        data[at] = b'0' + rng.below(10) as u8;
                    }
                }
            }
        }
        if exercise_ascii(&data).is_some() {
            parsed += 1;
        }
    }
    // Many mutations keep the file readable: the checks ran on them.
    assert!(parsed > 500, "only {parsed} mutated files parsed");
}
