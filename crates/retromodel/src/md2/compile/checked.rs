//! The engine check of a compiled model, its warnings grouped: a model
//! compiled back onto its MD2 record keeps what the file had (434
//! degenerate triangles, 990 normal indices past the table), and one
//! warning per instance would bury the others.

use crate::problem::{Problem, Severity};

/// `path` with the numbers inside brackets left out:
/// `frames[3].vertices[12].normal_index` → `frames[].vertices[].normal_index`.
fn family(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_brackets = false;
    for c in path.chars() {
        match c {
            '[' => in_brackets = true,
            ']' => in_brackets = false,
            c if in_brackets && c.is_ascii_digit() => continue,
            _ => {}
        }
        out.push(c);
    }
    out
}

/// `problems` in order, each family of warnings (paths alike but for
/// their indices) as its first, its message saying how many more there
/// are (three degenerate triangles: the first, "... (and 2 more
/// warnings like it)"); errors as they are.
pub(crate) fn grouped(problems: Vec<Problem>) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    let mut families: Vec<(String, usize, usize)> = Vec::new();
    for p in problems {
        if p.severity != Severity::Warning {
            out.push(p);
            continue;
        }
        let f = family(&p.path);
        match families.iter_mut().find(|(g, _, _)| *g == f) {
            Some((_, _, more)) => *more += 1,
            None => {
                families.push((f, out.len(), 0));
                out.push(p);
            }
        }
    }
    for (_, at, more) in families {
        if more > 0 {
            let s = if more == 1 { "" } else { "s" };
            out[at].message += &format!(" (and {more} more warning{s} like it)");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(path: &str, message: &str) -> Problem {
        Problem {
            severity: Severity::Warning,
            path: path.to_string(),
            message: message.to_string(),
            offset: None,
        }
    }

    #[test]
    fn warnings_alike_but_for_their_indices_are_one() {
        let error = Problem {
            severity: Severity::Error,
            ..warning("header.skin_height", "too tall")
        };
        let got = grouped(vec![
            warning("triangles[0]", "degenerate triangle (vertices 0, 1, 0)"),
            warning("frames[0].vertices[12].normal_index", "normal index 162"),
            error.clone(),
            warning("triangles[12]", "degenerate triangle (vertices 5, 6, 5)"),
            warning("frames[3].vertices[1].normal_index", "normal index 163"),
            warning("triangles[13]", "degenerate triangle (vertices 7, 7, 8)"),
        ]);
        let messages: Vec<&str> = got.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "degenerate triangle (vertices 0, 1, 0) (and 2 more warnings like it)",
                "normal index 162 (and 1 more warning like it)",
                "too tall",
            ]
        );
        assert_eq!(got[2], error);
        assert_eq!(family("frames[10].vertices[2].x"), "frames[].vertices[].x");
    }
}
