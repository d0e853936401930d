//! Claiming a file's sections as a reader reads them: every section must
//! lie inside the file, and together they may not claim more bytes than
//! the file holds (so sections that overlap, or a chain of offsets that
//! loops, cannot make a small file allocate without bound); the bytes no
//! section claims are kept for a byte-exact rewrite.

use crate::error::{Error, Result};

/// A run of bytes no section of the file covers (padding, a gap between
/// sections, bytes after the end), kept for a byte-exact rewrite.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Unclaimed {
    /// Where the bytes were.
    pub offset: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// The bytes of the file, and the sections claimed so far.
pub(crate) struct Claims<'a> {
    data: &'a [u8],
    /// Every claimed section: start and end.
    spans: Vec<(u64, u64)>,
    /// The sum of their lengths.
    total: u64,
    /// What else may make sections claim too much, for the error (a
    /// chain of offsets that loops).
    overlap_hint: &'static str,
}

impl<'a> Claims<'a> {
    /// No section claimed yet; `overlap_hint` completes the error when
    /// sections claim more than the file (`or the surfaces' chain loops`).
    pub(crate) fn new(data: &'a [u8], overlap_hint: &'static str) -> Self {
        Claims {
            data,
            spans: Vec::new(),
            total: 0,
            overlap_hint,
        }
    }

    /// Claims `count` items of `size` bytes at `start` for `path`: an
    /// error naming the first item that is not in the file, or when the
    /// sections claimed so far would exceed the file's size.
    pub(crate) fn claim(
        &mut self,
        path: &str,
        start: u64,
        count: u64,
        size: usize,
    ) -> Result<&'a [u8]> {
        let size = size as u64;
        let len = self.data.len() as u64;
        let needed = count.saturating_mul(size);
        if needed == 0 {
            // Nothing to read: where an empty section points is no fault.
            return Ok(&[]);
        }
        if start.saturating_add(needed) > len {
            // The first item that does not fit.
            let fits = len.saturating_sub(start) / size;
            let (context, at) = if count == 1 {
                (path.to_string(), start)
            } else {
                (
                    format!("{path}[{fits}] (of {count}, {size} bytes each)"),
                    start.saturating_add(fits * size),
                )
            };
            // What is needed from there: the missing item and those after.
            return Err(Error::Truncated {
                context,
                offset: at,
                needed: count.saturating_sub(fits).saturating_mul(size),
                file_len: len,
            });
        }
        if self.total + needed > len {
            return Err(Error::invalid(
                path,
                format!(
                    "the sections read so far and this one claim {} bytes, more than the file's {len}: sections overlap ({})",
                    self.total + needed,
                    self.overlap_hint
                ),
                start,
            ));
        }
        self.total += needed;
        self.spans.push((start, start + needed));
        // In bounds: checked above.
        Ok(&self.data[start as usize..(start + needed) as usize])
    }

    /// The bytes no section claims, in file order.
    pub(crate) fn unclaimed(mut self) -> Vec<Unclaimed> {
        self.spans.sort_unstable();
        let mut out = Vec::new();
        let mut at = 0u64;
        let mut push = |from: u64, to: u64| {
            if to > from {
                out.push(Unclaimed {
                    offset: from,
                    bytes: self.data[from as usize..to as usize].to_vec(),
                });
            }
        };
        for &(start, end) in &self.spans {
            push(at, start);
            at = at.max(end);
        }
        push(at, self.data.len() as u64);
        out
    }
}
