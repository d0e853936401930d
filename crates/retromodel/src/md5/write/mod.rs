//! Writing MD5 files: [`Md5Mesh::to_text`](super::Md5Mesh::to_text),
//! [`Md5Anim::to_text`](super::Md5Anim::to_text) and
//! [`Md5Scale::to_bytes`](super::Md5Scale::to_bytes), the inverse of the
//! readers: parsing what they write gives the same values, every float
//! bit for bit.
//!
//! Floats are written as Rust's `Display` prints an `f32`: the shortest
//! decimal that reads back as the same `f32`, never in exponent form
//! (`0.00001`, not `1e-5`), `-0` kept. The engines read every number with
//! `strtof` (Q2PRO `src/refresh/models.c`, `MD5_ParseFloat`, which also
//! insists the whole token is the number), and Doom 3's `idLexer` does not
//! read exponents at all, so plain decimals are what every reader takes.
//! Names and shaders are written between `"`; a `"` or a line break in
//! one (which no reader can take back: Q2PRO's `COM_Parse` ends a quoted
//! token at the next `"`) becomes `'` or a space.

mod anim;
mod mesh;
mod scale;

use std::fmt::Write;

/// `v` as the module says.
fn float(out: &mut String, v: f32) {
    let _ = write!(out, "{v}");
}

/// `( a b c )`.
fn vec3(out: &mut String, v: [f32; 3]) {
    out.push_str("( ");
    for c in v {
        float(out, c);
        out.push(' ');
    }
    out.push(')');
}

/// `"name"`, made readable as the module says.
fn quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        out.push(match c {
            '"' => '\'',
            '\n' | '\r' => ' ',
            c => c,
        });
    }
    out.push('"');
}
