//! `Md2::validate`: every problem in a model, with a path and an offset.

use super::gl_commands::GlFault;
use super::header::offset_of;
use super::{limits, Frame, Md2, FRAME_HEADER_SIZE, NORMAL_COUNT, TRIANGLE_SIZE, VERTEX_SIZE};
use crate::problem::{Collector, Problem};

fn at(base: i32, add: u64) -> Option<u64> {
    u64::try_from(base).ok().map(|b| b + add)
}

impl Md2 {
    /// Every problem in the model: what, a path to it such as
    /// `frames[12].vertices[301].normal_index`, and its byte offset in the
    /// file (or in the standard layout, for a model built in memory).
    ///
    /// Warnings are faults the model can be used despite (the reader keeps
    /// them as they are; renderers here skip or zero what is out of range);
    /// errors make the model unusable. An empty list means the model is a
    /// valid Quake II model within id's engine limits.
    ///
    /// At most [`MAX_LISTED_PROBLEMS`](crate::MAX_LISTED_PROBLEMS) problems
    /// are listed; past that a last problem, an error if any of the rest is
    /// one, counts the others, so a hostile file cannot make the list
    /// outgrow memory.
    ///
    /// ```
    /// use retromodel::md2::sample::sample_model;
    /// use retromodel::Severity;
    /// let mut model = sample_model();
    /// assert!(model.validate().is_empty());
    /// model.frames[1].vertices[3].normal_index = 200;
    /// let problems = model.validate();
    /// assert_eq!(problems[0].severity, Severity::Warning);
    /// assert_eq!(problems[0].path, "frames[1].vertices[3].normal_index");
    /// assert_eq!(problems[0].message, "normal index 200 out of range 0..162");
    /// ```
    pub fn validate(&self) -> Vec<Problem> {
        self.collect_problems(true)
    }

    /// [`Md2::validate`] without the warnings about id's engine limits
    /// (for [`Md2::validate_for`], which checks an engine's own).
    pub(crate) fn validate_structure(&self) -> Vec<Problem> {
        self.collect_problems(false)
    }

    fn collect_problems(&self, id_limits: bool) -> Vec<Problem> {
        let h = self.layout_offsets();
        let mut c = Collector::default();
        self.check_header(&mut c, id_limits);
        self.check_triangles(&mut c, h.ofs_triangles);
        self.check_frames(&mut c, h.ofs_frames, h.frame_size);
        self.check_gl_commands(&mut c, h.ofs_gl_commands);
        if let Some(src) = &self.source {
            let end = src.file_len - self.trailing.len() as u64;
            if src.header.ofs_end as i64 != end as i64 {
                c.warn(
                    "header.ofs_end",
                    format!(
                        "ofs_end {} is not the end of the data ({end})",
                        src.header.ofs_end
                    ),
                    Some(const { offset_of("ofs_end") }),
                );
            }
        }
        c.finish()
    }

    fn check_header(&self, c: &mut Collector, id_limits: bool) {
        if self.skin_width <= 0 || self.skin_height <= 0 {
            c.warn(
                "header.skin_width",
                format!(
                    "skin size {}×{} is not positive",
                    self.skin_width, self.skin_height
                ),
                Some(const { offset_of("skin_width") }),
            );
        }
        if id_limits {
            self.check_id_limits(c);
        }
        if self.frames.is_empty() {
            c.error(
                "header.num_frames",
                "the model has no frames",
                Some(const { offset_of("num_frames") }),
            );
        }
        if self.frames.first().is_some_and(|f| !f.padding.is_empty()) {
            c.warn(
                "header.frame_size",
                format!(
                    "frame size {} is larger than its vertices need",
                    self.frame_size()
                ),
                Some(const { offset_of("frame_size") }),
            );
        }
    }

    fn check_id_limits(&self, c: &mut Collector) {
        if self.skin_height > limits::SKIN_HEIGHT {
            c.warn(
                "header.skin_height",
                format!(
                    "skin height {} exceeds Quake II's limit of {}",
                    self.skin_height,
                    limits::SKIN_HEIGHT
                ),
                Some(const { offset_of("skin_height") }),
            );
        }
        let counts = [
            (
                "skins",
                self.skins.len(),
                limits::SKINS,
                const { offset_of("num_skins") },
            ),
            (
                "vertices",
                self.num_vertices,
                limits::VERTICES,
                const { offset_of("num_vertices") },
            ),
            (
                "triangles",
                self.triangles.len(),
                limits::TRIANGLES,
                const { offset_of("num_triangles") },
            ),
            (
                "frames",
                self.frames.len(),
                limits::FRAMES,
                const { offset_of("num_frames") },
            ),
        ];
        for (what, count, limit, offset) in counts {
            if count > limit {
                c.warn(
                    format!("header.num_{what}"),
                    format!("{count} {what} exceed Quake II's limit of {limit}"),
                    Some(offset),
                );
            }
        }
    }

    fn check_triangles(&self, c: &mut Collector, ofs: i32) {
        for (i, tri) in self.triangles.iter().enumerate() {
            let base = i as u64 * TRIANGLE_SIZE as u64;
            for k in 0..3 {
                let v = tri.vertices[k];
                if v as usize >= self.num_vertices {
                    c.warn(
                        format!("triangles[{i}].vertices[{k}]"),
                        format!("vertex index {v} out of range 0..{}", self.num_vertices),
                        at(ofs, base + 2 * k as u64),
                    );
                }
                let st = tri.texcoords[k];
                if st as usize >= self.texcoords.len() {
                    c.warn(
                        format!("triangles[{i}].texcoords[{k}]"),
                        format!(
                            "texcoord index {st} out of range 0..{}",
                            self.texcoords.len()
                        ),
                        at(ofs, base + 6 + 2 * k as u64),
                    );
                }
            }
            let [a, b, d] = tri.vertices;
            if a == b || b == d || a == d {
                c.warn(
                    format!("triangles[{i}]"),
                    format!("degenerate triangle (vertices {a}, {b}, {d})"),
                    at(ofs, base),
                );
            }
        }
    }

    fn check_frames(&self, c: &mut Collector, ofs: i32, frame_size: i32) {
        for (i, frame) in self.frames.iter().enumerate() {
            let base = i as u64 * frame_size.max(0) as u64;
            if frame
                .scale
                .iter()
                .chain(&frame.translate)
                .any(|v| !v.is_finite())
            {
                c.error(
                    format!("frames[{i}].scale"),
                    "scale or translate is not a finite number",
                    at(ofs, base),
                );
            }
            if let Some((v, k, x)) = first_overflow(frame) {
                let packed = frame.vertices[v].position[k];
                c.error(
                    format!("frames[{i}].vertices[{v}]"),
                    format!(
                        "byte {packed} × scale {:?} + translate {:?} decodes to {x:?} on {}, not a finite number",
                        frame.scale[k],
                        frame.translate[k],
                        ["x", "y", "z"][k]
                    ),
                    at(ofs, base + (FRAME_HEADER_SIZE + VERTEX_SIZE * v + k) as u64),
                );
            }
            if frame.name.is_unterminated() {
                c.warn(
                    format!("frames[{i}].name"),
                    "frame name fills 16 bytes with no NUL",
                    at(ofs, base + 24),
                );
            }
            for (v, packed) in frame.vertices.iter().enumerate() {
                if packed.normal_index as usize >= NORMAL_COUNT {
                    c.warn(
                        format!("frames[{i}].vertices[{v}].normal_index"),
                        format!(
                            "normal index {} out of range 0..{NORMAL_COUNT}",
                            packed.normal_index
                        ),
                        at(ofs, base + (FRAME_HEADER_SIZE + VERTEX_SIZE * v + 3) as u64),
                    );
                }
            }
        }
    }

    fn check_gl_commands(&self, c: &mut Collector, ofs: i32) {
        if self.gl_commands.is_empty() {
            c.warn(
                "gl_commands",
                "no GL commands: the original engine reads past the list and crashes",
                None,
            );
            return;
        }
        let word = |w: usize| at(ofs, 4 * w as u64);
        for fault in self.decode_gl_commands().faults {
            match fault {
                GlFault::Unterminated => c.warn("gl_commands", "the list has no terminating 0", None),
                GlFault::Truncated { command, word: w } => c.warn(
                    format!("gl_commands[{command}]"),
                    "the command has more vertices than words remain",
                    word(w),
                ),
                GlFault::VertexOutOfRange {
                    command,
                    vertex,
                    word: w,
                    index,
                } => c.warn(
                    format!("gl_commands[{command}].vertices[{vertex}].index"),
                    format!("vertex index {index} out of range 0..{}", self.num_vertices),
                    word(w),
                ),
                GlFault::BadTexCoord { command, word: w } => c.warn(
                    format!("gl_commands[{command}]"),
                    "texture coordinate is not a finite number",
                    word(w),
                ),
                GlFault::Degenerate { command, count } => c.warn(
                    format!("gl_commands[{command}]"),
                    format!("a primitive of {count} vertices draws nothing"),
                    None,
                ),
                GlFault::TrailingWords { count } => c.warn(
                    "gl_commands",
                    format!("{count} words after the terminating 0"),
                    None,
                ),
                GlFault::FieldOrder => c.warn(
                    "gl_commands",
                    "vertices look stored as {index, s, t} instead of {s, t, index}; regenerate the list",
                    word(0),
                ),
            }
        }
    }
}

/// The first vertex of `frame` (index, axis and decoded value) whose
/// position decodes to a number that is not finite (`byte · scale +
/// translate` overflows), with a finite scale and translate. Decoding is
/// monotonic in the byte, so only the smallest and largest byte of each
/// axis are decoded unless one overflows.
fn first_overflow(frame: &Frame) -> Option<(usize, usize, f32)> {
    let decode = |k: usize, b: u8| f32::from(b) * frame.scale[k] + frame.translate[k];
    if frame
        .scale
        .iter()
        .chain(&frame.translate)
        .any(|x| !x.is_finite())
    {
        return None; // Reported as such.
    }
    // No byte can overflow when 255 steps from the translate stay below
    // half the largest f32 (checked in f64; the half leaves room for the
    // f32 decode's rounding): every real frame, at the cost of three
    // comparisons.
    let bounded = (0..3).all(|k| {
        f64::from(frame.translate[k]).abs() + 255.0 * f64::from(frame.scale[k]).abs()
            < 0.5 * f64::from(f32::MAX)
    });
    if bounded {
        return None;
    }
    let (mut lo, mut hi) = ([u8::MAX; 3], [0u8; 3]);
    for v in &frame.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v.position[k]);
            hi[k] = hi[k].max(v.position[k]);
        }
    }
    if frame.vertices.is_empty() {
        return None;
    }
    let overflows = (0..3).any(|k| !(decode(k, lo[k]).is_finite() && decode(k, hi[k]).is_finite()));
    if !overflows {
        return None;
    }
    frame.vertices.iter().enumerate().find_map(|(v, p)| {
        (0..3).find_map(|k| {
            let x = decode(k, p.position[k]);
            (!x.is_finite()).then_some((v, k, x))
        })
    })
}
