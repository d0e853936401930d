//! An OBJ as GZDoom loads it (`src/common/models/models_obj.cpp`,
//! `FOBJModel::Load`, `ParseFaceSide`, `ResolveIndex`; read at
//! g4.15pre-645). GZDoom tokenises OBJ text with its script scanner and
//! reads only `v`, `vn`, `vt`, `usemtl`, `f` and `s`, skipping every other
//! token one at a time.

use crate::problem::{Collector, Problem};

/// The most vertices of a face GZDoom keeps (`FOBJModel::Load`: three
/// sides, and a fourth when the next token starts with `-` or a digit; a
/// fifth is read as an unknown statement and skipped).
pub const GZDOOM_MAX_FACE_VERTICES: usize = 4;

/// The statement words GZDoom's OBJ loader acts on.
const KEYWORDS: [&str; 6] = ["v", "vn", "vt", "f", "s", "usemtl"];

/// Every problem GZDoom has with the OBJ text `data`:
///
/// - errors (GZDoom stops with a fatal script error, `sc.ScriptError`): a
///   face corner without a vertex index (`/2`: "Vertex reference is not
///   optional!");
/// - warnings: a face of more than 4 vertices (GZDoom keeps the first 4 and
///   skips the rest as unknown tokens: triangulate it), a vertex index of 0
///   or past the vertices (`ResolveIndex` does not check: a crash or
///   garbage), faces before the first `usemtl` when one follows
///   (misattributed: the first surface loses its last faces), a name after
///   `o`, `g` or `mtllib` that is one of GZDoom's statement words or holds
///   a `"` or `;` (its scanner then reads a statement or a string there).
///
/// Each problem's path is `line N`.
///
/// ```
/// use retromodel::obj::gzdoom_problems;
/// let ok = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4 3\n";
/// assert!(gzdoom_problems(ok).is_empty());
/// let pentagon = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 2 0\nf 1 2 5 4 3\n";
/// assert_eq!(gzdoom_problems(pentagon)[0].path, "line 6");
/// ```
pub fn gzdoom_problems(data: &[u8]) -> Vec<Problem> {
    let text = String::from_utf8_lossy(data);
    let mut c = Collector::default();
    let total = text
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("v"))
        .count() as i64;
    let mut seen_v = 0i64;
    let mut faces_before_usemtl: Option<usize> = None;
    let mut warned_usemtl = false;
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let path = format!("line {line_no}");
        let line = line.split('#').next().unwrap_or("");
        let mut tokens = line.split_whitespace();
        let Some(word) = tokens.next() else { continue };
        match word {
            "v" => seen_v += 1,
            "usemtl" => {
                if let (Some(first), false) = (faces_before_usemtl, warned_usemtl) {
                    warned_usemtl = true;
                    c.warn(
                        format!("line {first}"),
                        "faces before the first usemtl: GZDoom counts the first surface's faces from the usemtl on, so the last faces of it are lost (put usemtl before the first f, or leave it out)",
                        None,
                    );
                }
                faces_before_usemtl = Some(usize::MAX);
            }
            "o" | "g" | "mtllib" => {
                for t in tokens {
                    if KEYWORDS.contains(&t) || t.contains(['"', ';']) {
                        c.warn(
                            path.clone(),
                            format!("{word} {t}: GZDoom skips the words it does not know one at a time, and reads {t:?} as a statement or a string"),
                            None,
                        );
                    }
                }
            }
            "f" => {
                if faces_before_usemtl.is_none() {
                    faces_before_usemtl = Some(line_no);
                }
                let corners: Vec<&str> = tokens.collect();
                if corners.len() > GZDOOM_MAX_FACE_VERTICES {
                    c.warn(
                        path.clone(),
                        format!(
                            "a face of {} vertices: GZDoom keeps {GZDOOM_MAX_FACE_VERTICES} and drops the rest (triangulate it)",
                            corners.len()
                        ),
                        None,
                    );
                } else if corners.len() < 3 {
                    c.warn(
                        path.clone(),
                        format!(
                            "a face of {} vertices: GZDoom reads 3, taking the next line's words",
                            corners.len()
                        ),
                        None,
                    );
                }
                for corner in corners {
                    let v = corner.split('/').next().unwrap_or("");
                    if v.is_empty() {
                        c.error(
                            path.clone(),
                            format!("{corner}: no vertex index, a fatal error in GZDoom (\"Vertex reference is not optional!\")"),
                            None,
                        );
                        continue;
                    }
                    let Ok(i) = v.parse::<i64>() else {
                        c.error(path.clone(), format!("{corner}: not a vertex index"), None);
                        continue;
                    };
                    // ResolveIndex: n > 0 is n - 1, n < 0 counts back from
                    // the vertices read so far; nothing is bounds-checked.
                    let bad = i == 0 || (i > 0 && i > total) || (i < 0 && -i > seen_v);
                    if bad {
                        c.warn(
                            path.clone(),
                            format!("{corner}: vertex {i} is not one of the {total} vertices; GZDoom reads it unchecked (a crash or garbage)"),
                            None,
                        );
                    }
                }
            }
            _ => {}
        }
    }
    c.finish()
}
