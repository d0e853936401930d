//! The library's layers point one way (issue 24):
//!
//! - at the bottom `bytes`, `clip`, `texture`, `engine` (the list of MD2
//!   engines), `format_kind` (the list of formats), `option_problem`
//!   (conversion options' problems as data) (and `name`, `parallel`,
//!   `problem`) name nothing above them;
//! - `error` and `advice` name the bottom and each other, but no format,
//!   none of `model`, `format`, `convert`, and neither `scene` nor
//!   `render` (not even in doc links);
//! - `scene` (format-neutral) and `render` (draws a posed scene) name no
//!   format and none of `model`, `format`, `convert`; `scene` does not name
//!   `render` either;
//! - `bake` and `quake` (what the 8-bit frame formats and their
//!   compilers share: posing into frames, grids, welding, the 162 normals,
//!   frame-name runs, face normals) name no format and none of `model`, `format`, `convert`, `render`;
//! - each format (`md2`, `ms3d` with its ASCII reader, `gltf`, `obj`,
//!   `md5`, `mdl`) names neither `model`, `format`, `convert` nor `render`:
//!   only `model`, `format` and `convert` know every format; `md2` does
//!   not name `mdl`, nor `mdl` `md2` (they share `bake` and
//!   `quake`).
//!
//! The test reads the library's sources and resolves every `crate::…`
//! path (also inside `crate::{…}` groups and doc links) and every
//! `super::super::…` chain to the top-level module it names.

use std::path::{Path, PathBuf};

/// Top-level modules of the formats (`md5` is on its way in).
const FORMATS: &[&str] = &["md2", "ms3d", "gltf", "obj", "md5", "mdl", "md3"];
/// The modules that know every format, and the crate-root re-exports of
/// their items.
const ABOVE_FORMATS: &[&str] = &[
    "model",
    "format",
    "convert",
    "Model",
    "Format",
    "Imported",
    "Info",
    "ReadContext",
];

/// What the module `top` may not name: `None` for no rule.
fn forbidden(top: &str) -> Option<Vec<&'static str>> {
    let mut v: Vec<&'static str> = Vec::new();
    match top {
        "bytes" | "clip" | "texture" | "engine" | "format_kind" | "option_problem" | "name"
        | "quake" | "parallel" | "problem" => {
            v.extend(FORMATS);
            v.extend(ABOVE_FORMATS);
            v.extend(["scene", "render", "advice"]);
        }
        "error" | "advice" => {
            v.extend(FORMATS);
            v.extend(ABOVE_FORMATS);
            v.extend(["scene", "render"]);
        }
        "bake" => {
            v.extend(FORMATS);
            v.extend(ABOVE_FORMATS);
            v.push("render");
        }
        "scene" => {
            v.extend(FORMATS);
            v.extend(ABOVE_FORMATS);
            v.push("render");
        }
        "render" => {
            v.extend(FORMATS);
            v.extend(ABOVE_FORMATS);
        }
        t if FORMATS.contains(&t) => {
            // `crate::Info` is the model's summary; a format's own is
            // `super::Info`. A format's errors name the list of formats
            // (`crate::format_kind`), not the detector (`crate::format`).
            v.extend(ABOVE_FORMATS);
            v.push("render");
            match t {
                "mdl" => v.extend(["md2", "md3"]),
                "md2" => v.extend(["mdl", "md3"]),
                // MD3 names no other format.
                "md3" => v.extend(FORMATS.iter().filter(|f| **f != "md3")),
                _ => {}
            }
        }
        _ => return None,
    }
    Some(v)
}

/// Every `.rs` file under `dir`, with its path relative to `root`.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(root, &p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p.strip_prefix(root).expect("under the root").to_path_buf());
        }
    }
}

/// The module path of a source file: `scene/pose.rs` is `[scene, pose]`,
/// `scene/mod.rs` `[scene]`, `lib.rs` `[]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first path segment of each item of what follows a `::`: `md2` for
/// `md2::Md2`, `md2` and `scene` for `{md2::Md2, scene::Scene}`.
fn first_segments(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        // Items at depth 0 of the group.
        let mut out = Vec::new();
        let (mut depth, mut start) = (0usize, true);
        let mut chars = group.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => start = true,
                c if start && depth == 0 && (is_ident(c) || c == '*') => {
                    let word: String = group[i..]
                        .chars()
                        .take_while(|&c| is_ident(c) || c == '*')
                        .collect();
                    for _ in 1..word.len() {
                        chars.next();
                    }
                    out.push(word);
                    start = false;
                }
                _ => {}
            }
        }
        out
    } else {
        let word: String = rest
            .chars()
            .take_while(|&c| is_ident(c) || c == '*')
            .collect();
        vec![word]
    }
}

/// The top-level modules (or crate-root items) that the text of the file
/// of module `module` names outside its own top-level module, with the
/// line where each is named.
fn named_tops(module: &[String], text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let own = module.first().map(String::as_str).unwrap_or("");
    let line_of = |i: usize| text[..i].matches('\n').count() + 1;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let before = text[..i].chars().next_back();
        let at_word = !before.is_some_and(|c| is_ident(c) || c == '$');
        if at_word && rest.starts_with("crate::") {
            for seg in first_segments(&rest["crate::".len()..]) {
                if seg != own {
                    out.push((seg, line_of(i)));
                }
            }
            i += "crate::".len();
        } else if at_word && rest.starts_with("super::") {
            let mut n = 0;
            let mut r = rest;
            while let Some(more) = r.strip_prefix("super::") {
                n += 1;
                r = more;
            }
            // `super` n times from this file's module; past the top
            // level, the next segment is a top-level module.
            if n >= module.len() {
                for seg in first_segments(r) {
                    if seg != own {
                        out.push((seg, line_of(i)));
                    }
                }
            }
            i += rest.len() - r.len();
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// Every breach of the layering in the sources under `src`.
fn breaches(src: &Path) -> (Vec<String>, usize) {
    let mut files = Vec::new();
    rust_files(src, src, &mut files);
    let mut found = Vec::new();
    let mut checked = 0;
    for rel in files {
        let module = module_path(&rel);
        let Some(top) = module.first() else { continue };
        let Some(rule) = forbidden(top) else {
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(src.join(&rel)).expect("a readable source");
        for (name, line) in named_tops(&module, &text) {
            if rule.contains(&name.as_str()) {
                found.push(format!(
                    "{}:{line}: `{top}` names `crate::{name}`",
                    rel.display()
                ));
            }
        }
    }
    (found, checked)
}

#[test]
fn layers_only_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (found, checked) = breaches(&src);
    // The walk reached the layers it checks (scene, render, the formats,
    // the bottom): well over a hundred files today.
    assert!(checked > 100, "only {checked} files checked");
    assert!(found.is_empty(), "layers point up:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_every_way_of_naming_a_module() {
    let scene_pose: Vec<String> = ["scene", "pose"].map(String::from).to_vec();
    let names = |text: &str| -> Vec<String> {
        named_tops(&scene_pose, text)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    };
    assert_eq!(names("use crate::md2::Md2;"), ["md2"]);
    assert_eq!(
        names("use crate::{error::Error, ms3d::Clip};"),
        ["error", "ms3d"]
    );
    assert_eq!(
        names("use crate::{\n    scene::Scene,\n    convert::Warning,\n};"),
        ["convert"]
    );
    assert_eq!(
        names("//! use crate::{\n//!     obj::write_obj,\n//! };"),
        ["obj"]
    );
    assert_eq!(
        names("use crate::{convert::Warning, scene::Pose};"),
        ["convert"]
    );
    assert_eq!(names("/// [`Model`](crate::Model)"), ["Model"]);
    assert_eq!(names("use super::super::gltf::to_glb;"), ["gltf"]);
    assert_eq!(names("use super::{Scene, Mesh};"), Vec::<String>::new());
    assert_eq!(
        names("let x = crate::scene::Pose::new(s);"),
        Vec::<String>::new()
    );
    assert_eq!(names("$crate::md2 and mycrate::md2"), Vec::<String>::new());
    // The rules: render may name the scene, the scene not render; a format
    // may name the scene, not the converter.
    let rule = |top: &str, name: &str| forbidden(top).unwrap().contains(&name);
    assert!(rule("scene", "md2") && rule("scene", "render") && rule("scene", "Model"));
    assert!(rule("render", "convert") && !rule("render", "scene"));
    assert!(rule("md2", "convert") && rule("ms3d", "model") && !rule("gltf", "scene"));
    assert!(rule("texture", "scene") && forbidden("convert").is_none());
    // Errors and advice sit below the formats; the formats below the
    // detector.
    assert!(rule("error", "format") && rule("error", "scene") && rule("error", "convert"));
    assert!(rule("advice", "md2") && !rule("advice", "engine") && !rule("error", "advice"));
    assert!(rule("md2", "format") && rule("ms3d", "Format") && !rule("md2", "format_kind"));
    assert!(rule("engine", "md2") && rule("format_kind", "format"));
    assert!(rule("option_problem", "convert") && rule("option_problem", "format"));
}
