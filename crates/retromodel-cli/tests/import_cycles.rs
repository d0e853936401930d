//! No two files of a front-end crate (the CLI, the Python package, the
//! WebAssembly viewer) import each other, directly or through others: the
//! `crate::X` and `super::X` paths between a crate's files form no cycle,
//! so a reader can tell which file sits on which.
//!
//! The edges are read from the source text: every `crate::a::b` path (in
//! `use` lines, grouped `crate::{a, b}` imports and inline paths) and every
//! `super::a` outside an inline `mod` block, outside comments, names the
//! deepest module file it reaches (`a/b.rs` or `a/b/mod.rs`, else `a.rs`,
//! else the crate root).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A crate's files as module paths (`""` for the root, `"a"`, `"a::b"`)
/// with their text.
type Files = BTreeMap<String, String>;

/// Every `.rs` file under `src`, by module path.
fn read_crate(src: &Path) -> Files {
    let mut files = Files::new();
    read_dir(src, src, &mut files);
    files
}

fn read_dir(src: &Path, dir: &Path, files: &mut Files) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_dir(src, &path, files);
            continue;
        }
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let rel = path.strip_prefix(src).expect("a file under src");
        let mut parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if matches!(
            parts.last().map(String::as_str),
            Some("mod" | "main" | "lib")
        ) {
            parts.pop();
        }
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        files.insert(parts.join("::"), text);
    }
}

/// The text of `line` before a `//` comment (a rough cut: good enough
/// for paths, which never hold `//`).
fn code_of(line: &str) -> &str {
    line.find("//").map_or(line, |at| &line[..at])
}

/// The identifier paths that follow `prefix` (`crate::` or `super::`) in
/// `code`: `crate::a::b::c` gives `[a, b, c]`; `crate::{a::b, c}` gives
/// `[a, b]` and `[c]`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        // Not the tail of a longer identifier (`mycrate::`).
        let before = rest[..at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        out.extend(tree(rest));
    }
    out
}

/// The paths of a use tree at the start of `text` (`a::b::c`,
/// `a::{b, c::d}`, `{a, b}`), each cut at its first non-identifier.
fn tree(text: &str) -> Vec<Vec<String>> {
    let text = text.trim_start();
    if let Some(inner) = text.strip_prefix('{') {
        // Split the group at its top-level commas.
        let mut depth = 0usize;
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    parts.push(&inner[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return parts.into_iter().flat_map(tree).collect();
    }
    let ident: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if ident.is_empty() || ident == "self" {
        return vec![Vec::new()];
    }
    let after = &text[ident.len()..];
    match after.strip_prefix("::") {
        Some(more) => tree(more)
            .into_iter()
            .map(|mut p| {
                p.insert(0, ident.clone());
                p
            })
            .collect(),
        None => vec![vec![ident]],
    }
}

/// The deepest module of `files` that `path` (from the crate root)
/// reaches.
fn module_of(files: &Files, path: &[String]) -> String {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| files.contains_key(m))
        .unwrap_or_default()
}

/// Per file, the other files its `crate::` and `super::` paths reach.
fn edges(files: &Files) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for (module, text) in files {
        let mut to = BTreeSet::new();
        // The depth of inline `mod NAME {` blocks, where `super::` is this
        // file again.
        let mut depth = 0i64;
        let mut inline_mod_depths: Vec<i64> = Vec::new();
        for line in text.lines() {
            let code = code_of(line);
            let trimmed = code.trim_start();
            let opens_mod = (trimmed.starts_with("mod ") || trimmed.starts_with("pub mod "))
                && trimmed.trim_end().ends_with('{');
            for path in paths_after(code, "crate::") {
                to.insert(module_of(files, &path));
            }
            if inline_mod_depths.is_empty() && !opens_mod {
                let parent: Vec<String> = module
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                let parent = &parent[..parent.len().saturating_sub(1)];
                for path in paths_after(code, "super::") {
                    let mut full = parent.to_vec();
                    full.extend(path);
                    to.insert(module_of(files, &full));
                }
            }
            if opens_mod {
                inline_mod_depths.push(depth);
            }
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            while inline_mod_depths.last().is_some_and(|&d| depth <= d) {
                inline_mod_depths.pop();
            }
        }
        to.remove(module);
        out.insert(module.clone(), to);
    }
    out
}

/// The first cycle of `edges` found (its files in order, the first again
/// at the end), or `None`.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first, colouring: 1 on the stack, 2 done.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        colour: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        colour.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            match colour.get(next.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|s| s == next).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, edges, colour, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        colour.insert(node.to_string(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for node in edges.keys() {
        if !colour.contains_key(node.as_str()) {
            if let Some(c) = visit(node, edges, &mut colour, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn file_name(module: &str) -> String {
    if module.is_empty() {
        "the crate root".to_string()
    } else {
        format!("{}.rs", module.replace("::", "/"))
    }
}

#[test]
fn front_end_files_import_no_cycle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/");
    let mut failures = Vec::new();
    for name in ["retromodel-cli", "retromodel-py", "retromodel-wasm"] {
        let files = read_crate(&crates.join(name).join("src"));
        assert!(files.len() > 3, "{name}: only {} files", files.len());
        let edges = edges(&files);
        // The check sees the edges there are (a check reading nothing
        // would pass anything).
        assert!(
            edges.values().map(BTreeSet::len).sum::<usize>() >= files.len(),
            "{name}: too few imports found: {edges:?}"
        );
        if let Some(cycle) = find_cycle(&edges) {
            let files: Vec<String> = cycle.iter().map(|m| file_name(m)).collect();
            failures.push(format!("{name}: {} import each other", files.join(" -> ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("; "));
}

#[test]
fn the_check_finds_cycles_through_crate_and_super_paths() {
    let files = |list: &[(&str, &str)]| -> Files {
        list.iter()
            .map(|(m, t)| (m.to_string(), t.to_string()))
            .collect()
    };
    // a -> b through a grouped import, b -> c inline, c -> a by super.
    let cyclic = files(&[
        ("", "mod a;\nmod b;\nmod c;\n"),
        ("a", "use crate::{b::{self, Thing}, c::d::e};\n"),
        ("b", "fn f() { crate::c::g() }\n"),
        ("c", "use super::a::run;\n"),
    ]);
    let e = edges(&cyclic);
    assert_eq!(e["a"], BTreeSet::from(["b".to_string(), "c".to_string()]));
    assert_eq!(
        find_cycle(&e),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    // An item of the crate root used by a file the root uses: a cycle too.
    let through_root = files(&[
        ("", "mod a;\nuse a::f;\nuse crate::a::g;\n"),
        ("a", "use crate::ROOT_ITEM;\n"),
    ]);
    assert_eq!(
        find_cycle(&edges(&through_root)),
        Some(vec![String::new(), "a".into(), String::new()])
    );
    // `super::` inside a file's test module is the file itself; comments
    // are not imports.
    let acyclic = files(&[
        ("", "mod a;\nmod b;\n"),
        ("a", "use crate::b::x;\n"),
        (
            "b",
            "// see crate::a\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::b::x;\n}\n",
        ),
    ]);
    let e = edges(&acyclic);
    assert!(e["b"].is_empty(), "{e:?}");
    assert_eq!(find_cycle(&e), None);
}
