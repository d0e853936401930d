//! The library's files stay small: no `.rs` file under `src/` has more
//! than 800 lines (the developers' guide: small modules with one job).

use std::path::{Path, PathBuf};

/// The most lines a library source file may have.
const MAX_LINES: usize = 800;

/// Every `.rs` file below `dir`, in a stable order.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// Lines as `wc -l` counts them, plus a last line without a newline.
fn line_count(text: &str) -> usize {
    text.lines().count()
}

/// The files of `files` (path, text) over `max` lines, each with its count.
fn too_long(files: &[(String, String)], max: usize) -> Vec<(&str, usize)> {
    files
        .iter()
        .map(|(path, text)| (path.as_str(), line_count(text)))
        .filter(|&(_, lines)| lines > max)
        .collect()
}

#[test]
fn no_library_file_is_over_800_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    assert!(
        paths.len() > 50,
        "found only {} files under {}",
        paths.len(),
        src.display()
    );
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p)
                .unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
            let name = p.strip_prefix(&src).unwrap_or(p).display().to_string();
            (name, text)
        })
        .collect();
    let long = too_long(&files, MAX_LINES);
    assert!(
        long.is_empty(),
        "library files over {MAX_LINES} lines (split them by job): {}",
        long.iter()
            .map(|(path, lines)| format!("src/{path} has {lines} lines"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

#[test]
fn the_check_finds_a_file_one_line_too_long() {
    let lines = |n: usize| "x\n".repeat(n);
    let files = vec![
        ("a.rs".to_string(), lines(800)),
        ("b.rs".to_string(), lines(801)),
        ("c.rs".to_string(), format!("{}last", lines(800))),
    ];
    assert_eq!(
        too_long(&files, MAX_LINES),
        vec![("b.rs", 801), ("c.rs", 801)]
    );
}
