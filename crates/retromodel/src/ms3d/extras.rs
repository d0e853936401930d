//! Reading the MilkShape 1.8 extras that may follow the joints.
//!
//! Real files have them in every shape: none; comments only; comments and
//! vertex weights; the full set. Two parts are ambiguous — the model
//! comment (`{length, text}` or `{index, length, text}`) and subversion-3
//! vertex records (14 or 10 bytes) — so every reading is tried and the one
//! that leaves the most consistent rest of file wins: fewest bytes left
//! over, then most parts recognised, then the form MilkShape's own viewer
//! reads. Whatever no reading explains stays in [`super::Ms3d::trailing`].

use super::layout::extras::{COMMENT_HEAD_SIZE, JOINT_COLOR_SIZE, MODEL_SIZE, SUBVERSION_SIZE};
use super::{
    Comment, Comments, Extras, JointExtras, ModelComment, ModelExtras, VertexExtra, VertexExtras,
};
use crate::bytes::{le_f32, le_i32};

/// The counts the extras' sizes depend on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Counts {
    pub vertices: usize,
    pub joints: usize,
}

/// A bounds-checked view of the bytes after the joints.
struct View<'a> {
    data: &'a [u8],
}

impl View<'_> {
    fn i32(&self, at: usize) -> Option<i32> {
        self.data.get(at..at.checked_add(4)?).map(|b| le_i32(b, 0))
    }

    fn remaining(&self, at: usize) -> usize {
        self.data.len().saturating_sub(at)
    }

    /// A `{[i32 index,] i32 length, text}` record at `at`.
    fn comment(&self, at: usize, with_index: bool) -> Option<(Comment, usize)> {
        let (index, at) = if with_index {
            (self.i32(at)?, at + 4)
        } else {
            (0, at)
        };
        let len = usize::try_from(self.i32(at)?).ok()?;
        let start = at + 4;
        let text = self.data.get(start..start.checked_add(len)?)?;
        Some((
            Comment {
                index,
                text: text.to_vec(),
            },
            start + len,
        ))
    }

    /// A `u32` count then that many indexed comments.
    fn comment_list(&self, at: usize) -> Option<(Vec<Comment>, usize)> {
        let n = u32::try_from(self.i32(at)?).ok()? as usize;
        let mut at = at + 4;
        // Each comment takes at least its index and length: check before
        // allocating.
        if n > self.remaining(at) / COMMENT_HEAD_SIZE {
            return None;
        }
        let mut list = Vec::with_capacity(n);
        for _ in 0..n {
            let (c, next) = self.comment(at, true)?;
            list.push(c);
            at = next;
        }
        Some((list, at))
    }
}

/// One complete reading of the extras.
struct Reading {
    extras: Extras,
    end: usize,
    parts: usize,
}

/// Reads the extras from `data` (the bytes after the joints). Returns them
/// and how many bytes they take; the rest is trailing data.
pub(crate) fn read(data: &[u8], counts: Counts) -> (Extras, usize) {
    let view = View { data };
    let mut best: Option<Reading> = None;
    for (comments, at) in comment_readings(&view) {
        let parts = usize::from(comments.is_some());
        // The later parts follow a complete comments part (every reader
        // reads them in sequence): without one, nothing else is read, so
        // a cut comments block is not mistaken for vertex extras.
        let tails = if comments.is_some() {
            tail_readings(&view, at, counts)
        } else {
            vec![Reading {
                extras: Extras::default(),
                end: at,
                parts: 0,
            }]
        };
        for mut reading in tails {
            reading.extras.comments = comments.clone();
            reading.parts += parts;
            // Readings come in order of preference, so only a strictly
            // better one replaces the best so far.
            let better = match &best {
                None => true,
                Some(b) => {
                    let (left, best_left) = (data.len() - reading.end, data.len() - b.end);
                    left < best_left || (left == best_left && reading.parts > b.parts)
                }
            };
            if better {
                best = Some(reading);
            }
        }
    }
    match best {
        Some(r) => (r.extras, r.end),
        None => (Extras::default(), 0),
    }
}

/// Every way to read the comments block at the start of `view`, most
/// preferred first, with where each ends; `(None, 0)` (no comments) is
/// always among them, last.
fn comment_readings(view: &View) -> Vec<(Option<Comments>, usize)> {
    let mut out = Vec::new();
    if let Some(subversion @ 1) = view.i32(0) {
        let lists = view.comment_list(4).and_then(|(groups, at)| {
            let (materials, at) = view.comment_list(at)?;
            let (joints, at) = view.comment_list(at)?;
            Some((groups, materials, joints, at))
        });
        if let Some((groups, materials, joints, at)) = lists {
            let make = |model| Comments {
                subversion,
                groups: groups.clone(),
                materials: materials.clone(),
                joints: joints.clone(),
                model,
            };
            match view.i32(at) {
                Some(1) => {
                    if let Some((c, end)) = view.comment(at + 4, false) {
                        out.push((Some(make(ModelComment::LengthText(c.text))), end));
                    }
                    if let Some((c, end)) = view.comment(at + 4, true) {
                        let model = ModelComment::IndexLengthText {
                            index: c.index,
                            text: c.text,
                        };
                        out.push((Some(make(model)), end));
                    }
                }
                Some(flag) => out.push((Some(make(ModelComment::None(flag))), at + 4)),
                // The file ends before the flag: the block is incomplete
                // (and writing it back would add a flag), so its bytes
                // stay trailing.
                None => {}
            }
        }
    }
    out.push((None, 0));
    out
}

/// One vertex extra record of 6, 10 or 14 bytes (the length of `c`).
#[inline(always)]
fn vertex_record(c: &[u8]) -> VertexExtra {
    VertexExtra {
        bone_ids: [c[0] as i8, c[1] as i8, c[2] as i8],
        weights: [c[3], c[4], c[5]],
        extra: [
            if c.len() >= 10 {
                le_i32(c, 6) as u32
            } else {
                0
            },
            if c.len() >= 14 {
                le_i32(c, 10) as u32
            } else {
                0
            },
        ],
    }
}

/// The vertex extra records of `bytes`, `N` bytes each. With the size
/// known at compile time the field reads need no bounds checks, which
/// makes this several times faster than a record size known only at run
/// time.
fn vertex_records<const N: usize>(bytes: &[u8]) -> Vec<VertexExtra> {
    bytes.chunks_exact(N).map(vertex_record).collect()
}

/// Every way to read vertex, joint and model extras from `at` on.
fn tail_readings(view: &View, at: usize, counts: Counts) -> Vec<Reading> {
    let mut out = Vec::new();
    let sizes: &[usize] = match view.i32(at) {
        Some(1) => &[6],
        Some(2) => &[10],
        Some(3) => &[14, 10],
        _ => &[],
    };
    for &size in sizes {
        let start = at + SUBVERSION_SIZE;
        let Some(bytes) = counts
            .vertices
            .checked_mul(size)
            .and_then(|len| view.data.get(start..start.checked_add(len)?))
        else {
            continue;
        };
        let records = match size {
            6 => vertex_records::<6>(bytes),
            10 => vertex_records::<10>(bytes),
            14 => vertex_records::<14>(bytes),
            _ => bytes.chunks_exact(size).map(vertex_record).collect(),
        };
        let vertices = VertexExtras {
            subversion: view.i32(at).unwrap_or_default(),
            record_size: size,
            records,
        };
        let end = start + bytes.len();
        let (joints, model, end, parts) = joint_and_model(view, end, counts);
        out.push(Reading {
            extras: Extras {
                comments: None,
                vertices: Some(vertices),
                joints,
                model,
            },
            end,
            parts: 1 + parts,
        });
    }
    out.push(Reading {
        extras: Extras::default(),
        end: at,
        parts: 0,
    });
    out
}

/// Joint colours and model extras from `at` on, where present.
fn joint_and_model(
    view: &View,
    at: usize,
    counts: Counts,
) -> (Option<JointExtras>, Option<ModelExtras>, usize, usize) {
    let mut at = at;
    let mut parts = 0;
    let mut joints = None;
    if let Some(subversion @ (1 | 2)) = view.i32(at) {
        let start = at + SUBVERSION_SIZE;
        let bytes = counts
            .joints
            .checked_mul(JOINT_COLOR_SIZE)
            .and_then(|len| view.data.get(start..start.checked_add(len)?));
        if let Some(bytes) = bytes {
            joints = Some(JointExtras {
                subversion,
                colors: bytes
                    .chunks_exact(JOINT_COLOR_SIZE)
                    .map(|c| [le_f32(c, 0), le_f32(c, 4), le_f32(c, 8)])
                    .collect(),
            });
            at = start + bytes.len();
            parts += 1;
        }
    }
    let mut model = None;
    if joints.is_some() {
        let end = at + SUBVERSION_SIZE + MODEL_SIZE;
        if let (Some(subversion @ 1), Some(b)) =
            (view.i32(at), view.data.get(at + SUBVERSION_SIZE..end))
        {
            model = Some(ModelExtras {
                subversion,
                joint_size: le_f32(b, 0),
                transparency_mode: le_i32(b, 4),
                alpha_ref: le_f32(b, 8),
            });
            at = end;
            parts += 1;
        }
    }
    (joints, model, at, parts)
}
