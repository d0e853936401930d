//! No message names Rust API: a lint over the string literals of the
//! library's, the command line's and the Python module's sources (outside
//! their test modules). A literal holding `Name::name` is a message that
//! would show a user `CompileOptions::fps` or `Engine::UfoAi` instead of
//! the option they have; the library returns advice as data
//! (`retromodel::advice`) and each front end words it. The library's own
//! literals also name no command-line flag (`--frame`): its problems with
//! options are data too (`retromodel::convert::OptionProblem`), worded by
//! each front end with its flags or keywords.

use std::path::{Path, PathBuf};

/// The contents of the string literals of Rust source `text` (normal,
/// byte and raw strings), with their line numbers; comments and char
/// literals skipped.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        match c[i] {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
                i += 2;
            }
            '\'' => {
                // A char literal ('x', '\n', '\'') or a lifetime ('a).
                if c.get(i + 1) == Some(&'\\') {
                    i += 2;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if c.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            'r' if matches!(c.get(i + 1), Some('"' | '#'))
                && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while c.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if c.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = (j + 1, line);
                j += 1;
                loop {
                    if j >= c.len() {
                        break;
                    }
                    if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
                        break;
                    }
                    line += usize::from(c[j] == '\n');
                    j += 1;
                }
                out.push((start.1, c[start.0..j.min(c.len())].iter().collect()));
                i = j + 1 + hashes;
            }
            '"' => {
                let (start, at) = (i + 1, line);
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    line += usize::from(c.get(i) == Some(&'\n'));
                    i += 1;
                }
                out.push((at, c[start..i.min(c.len())].iter().collect()));
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether `s` holds `a::b` with letters on both sides: a Rust path.
fn names_api(s: &str) -> bool {
    let b = s.as_bytes();
    (1..b.len().saturating_sub(2)).any(|k| {
        b[k] == b':'
            && b[k + 1] == b':'
            && (b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_')
            && (b[k + 2].is_ascii_alphabetic() || b[k + 2] == b'_')
    })
}

/// Whether `s` holds `--x`, a command-line flag: `--` followed by a
/// letter.
fn names_flag(s: &str) -> bool {
    s.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_alphabetic())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_lexer_finds_literals_and_skips_comments_and_chars() {
    let src = "let a = '\"'; // \"x::y\"\nlet b = \"A::b\"; /* \"c::d\" */ let r = r#\"E::f\"#; 'l: loop {}";
    let found: Vec<String> = string_literals(src).into_iter().map(|l| l.1).collect();
    assert_eq!(found, ["A::b", "E::f"]);
    assert!(names_api("set SkinOptions::size"));
    assert!(!names_api("12:30 and a::"));
    assert!(!names_api("a data: URI"));
    assert!(names_flag("--time applies to MS3D models"));
    assert!(names_flag("use --frame"));
    assert!(!names_flag("a -- b, x--, -1"));
}

#[test]
fn no_message_names_rust_api() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "../retromodel-cli/src", "../retromodel-py/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        // Test modules may name anything.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        for (line, literal) in string_literals(code) {
            if names_api(&literal) {
                found.push(format!("{}:{line}: {literal:?}", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "messages naming Rust API:\n{}",
        found.join("\n")
    );
}

/// The library's sources (outside their test modules), as
/// `(file, literal line, literal)` for every string literal.
fn library_literals() -> Vec<(PathBuf, usize, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        for (line, literal) in string_literals(code) {
            out.push((file.clone(), line, literal));
        }
    }
    out
}

#[test]
fn no_library_message_names_a_command_line_flag() {
    let literals = library_literals();
    // The lint sees literals at all (a lexer that found none would pass).
    assert!(literals.len() > 500, "{} literals", literals.len());
    let found: Vec<String> = literals
        .iter()
        .filter(|(_, _, literal)| names_flag(literal))
        .map(|(file, line, literal)| format!("{}:{line}: {literal:?}", file.display()))
        .collect();
    assert!(
        found.is_empty(),
        "library messages naming command-line flags:\n{}",
        found.join("\n")
    );
}
