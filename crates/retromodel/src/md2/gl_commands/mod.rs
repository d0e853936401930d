//! GL commands: the triangle strips and fans Quake II's renderer draws.
//!
//! The list is a sequence of 32-bit words: a count `n` (`n > 0` a strip of
//! `n` vertices, `n < 0` a fan of `−n`, `0` the end), then per vertex
//! `f32 s`, `f32 t` (normalised texture coordinates) and `i32` vertex index.
//! [`decode`] turns the stored words into [`Primitive`]s and reports what is
//! wrong with them; [`build()`] and [`build_qdata`] make them from triangles.

mod build;

pub use build::{build, build_qdata};

use super::Md2;

/// How a primitive's vertices form triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrimitiveKind {
    /// Triangle strip (`GL_TRIANGLE_STRIP`).
    Strip,
    /// Triangle fan (`GL_TRIANGLE_FAN`).
    Fan,
}

/// One vertex of a GL command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlVertex {
    /// Horizontal texture coordinate, 0..1 across the skin.
    pub s: f32,
    /// Vertical texture coordinate, 0..1 down the skin.
    pub t: f32,
    /// Index into each frame's vertices, as stored (may be out of range in
    /// a corrupt file).
    pub vertex: i32,
}

/// One strip or fan.
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    /// Strip or fan.
    pub kind: PrimitiveKind,
    /// Its vertices in order.
    pub vertices: Vec<GlVertex>,
}

impl Primitive {
    /// The triangles this primitive draws, as indices into
    /// [`Primitive::vertices`], in the winding GL gives them.
    pub fn triangles(&self) -> impl Iterator<Item = [usize; 3]> + '_ {
        let n = self.vertices.len();
        (2..n.max(2)).map(move |i| match self.kind {
            PrimitiveKind::Fan => [0, i - 1, i],
            PrimitiveKind::Strip if i % 2 == 0 => [i - 2, i - 1, i],
            PrimitiveKind::Strip => [i - 1, i - 2, i],
        })
    }
}

/// A fault in a GL command list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GlFault {
    /// The words end before the terminating 0.
    Unterminated,
    /// A command promises more vertices than words remain.
    Truncated {
        /// Index of the command.
        command: usize,
        /// Word index of its count.
        word: usize,
    },
    /// A command's vertex index is outside `0..num_vertices`.
    VertexOutOfRange {
        /// Index of the command.
        command: usize,
        /// Index of the vertex within the command.
        vertex: usize,
        /// Word index of the vertex index.
        word: usize,
        /// The stored index.
        index: i32,
    },
    /// A texture coordinate is NaN or infinite.
    BadTexCoord {
        /// Index of the command.
        command: usize,
        /// Word index of the coordinate.
        word: usize,
    },
    /// A strip or fan with fewer than 3 vertices.
    Degenerate {
        /// Index of the command.
        command: usize,
        /// Its vertex count.
        count: usize,
    },
    /// Words after the terminating 0.
    TrailingWords {
        /// How many.
        count: usize,
    },
    /// The vertices look stored as `{index, s, t}` instead of
    /// `{s, t, index}` (as some UFO:AI exports do); the list is suspect.
    FieldOrder,
}

/// The result of [`decode`]: the primitives that could be read and every
/// fault found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Decoded {
    /// The strips and fans, in order, as far as they could be read.
    pub primitives: Vec<Primitive>,
    /// Whether the list ended with its 0 word.
    pub terminated: bool,
    /// Everything that is wrong with the list.
    pub faults: Vec<GlFault>,
}

/// Counts that describe a GL command list (for reports and comparisons).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Number of strips.
    pub strips: usize,
    /// Number of fans.
    pub fans: usize,
    /// Vertices sent to GL, summed over all primitives.
    pub gl_vertices: usize,
    /// Words the list takes in the file, terminator included.
    pub words: usize,
}

impl Decoded {
    /// Strip, fan and vertex counts.
    pub fn stats(&self, words: usize) -> Stats {
        let mut s = Stats {
            words,
            ..Stats::default()
        };
        for p in &self.primitives {
            match p.kind {
                PrimitiveKind::Strip => s.strips += 1,
                PrimitiveKind::Fan => s.fans += 1,
            }
            s.gl_vertices += p.vertices.len();
        }
        s
    }
}

/// Decodes a stored GL command list. Never panics or loops: each step
/// consumes at least one word, and a count that runs past the end stops the
/// walk with a [`GlFault::Truncated`].
///
/// ```
/// use retromodel::md2::gl_commands::{decode, PrimitiveKind};
/// let w = |f: f32| f.to_bits();
/// // One fan of three vertices, then the terminator.
/// let words = [(-3i32) as u32, w(0.0), w(0.0), 0, w(1.0), w(0.0), 1, w(0.0), w(1.0), 2, 0];
/// let d = decode(&words, 3);
/// assert!(d.terminated && d.faults.is_empty());
/// assert_eq!(d.primitives[0].kind, PrimitiveKind::Fan);
/// assert_eq!(d.primitives[0].vertices[2].vertex, 2);
/// ```
pub fn decode(words: &[u32], num_vertices: usize) -> Decoded {
    let mut out = Decoded::default();
    let mut pos = 0usize;
    let mut out_of_range = 0usize;
    let mut order_swapped = 0usize;
    let mut total_vertices = 0usize;
    while pos < words.len() {
        let count = words[pos] as i32;
        if count == 0 {
            out.terminated = true;
            pos += 1;
            break;
        }
        let command = out.primitives.len();
        let kind = if count > 0 {
            PrimitiveKind::Strip
        } else {
            PrimitiveKind::Fan
        };
        let n = count.unsigned_abs() as usize;
        let available = (words.len() - pos - 1) / 3;
        if n > available {
            out.faults.push(GlFault::Truncated { command, word: pos });
            pos = words.len();
            break;
        }
        if n < 3 {
            out.faults.push(GlFault::Degenerate { command, count: n });
        }
        let mut vertices = Vec::with_capacity(n);
        for k in 0..n {
            let at = pos + 1 + 3 * k;
            let (s, t, index) = (
                f32::from_bits(words[at]),
                f32::from_bits(words[at + 1]),
                words[at + 2] as i32,
            );
            if !s.is_finite() || !t.is_finite() {
                out.faults.push(GlFault::BadTexCoord { command, word: at });
            }
            if index < 0 || index as usize >= num_vertices {
                out_of_range += 1;
                out.faults.push(GlFault::VertexOutOfRange {
                    command,
                    vertex: k,
                    word: at + 2,
                    index,
                });
                // {index, s, t}: the first word is a small integer, the
                // last a float in the skin's range.
                let first = words[at] as i32;
                let last = f32::from_bits(words[at + 2]);
                if (0..num_vertices.max(1) as i32).contains(&first)
                    && (-0.01..=1.01).contains(&last)
                {
                    order_swapped += 1;
                }
            }
            vertices.push(GlVertex {
                s,
                t,
                vertex: index,
            });
        }
        total_vertices += n;
        out.primitives.push(Primitive { kind, vertices });
        pos += 1 + 3 * n;
    }
    if !out.terminated {
        out.faults.push(GlFault::Unterminated);
    }
    if pos < words.len() {
        out.faults.push(GlFault::TrailingWords {
            count: words.len() - pos,
        });
    }
    if out_of_range > 0 && order_swapped * 2 > total_vertices {
        out.faults.push(GlFault::FieldOrder);
    }
    out
}

impl Md2 {
    /// Decodes [`Md2::gl_commands`] (see [`decode`]).
    pub fn decode_gl_commands(&self) -> Decoded {
        decode(&self.gl_commands, self.num_vertices)
    }
}
