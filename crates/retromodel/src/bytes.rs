//! Bounds-checked little-endian reading and writing.
//!
//! Every read goes through [`slice()`] or [`Reader`], which check offsets and
//! lengths in 64-bit arithmetic against the input before touching it, so a
//! hostile count or offset becomes an [`Error::Truncated`] instead of a panic
//! or a huge allocation.

use crate::error::{Error, Result};

/// Returns `count × size` bytes of `data` starting at `offset`, or a
/// [`Error::Truncated`] naming `context` when they are not all there.
///
/// The product is computed in 64-bit arithmetic, so no count can overflow
/// the check.
pub(crate) fn slice(
    data: &[u8],
    offset: u64,
    count: u64,
    size: u64,
    context: impl FnOnce() -> String,
) -> Result<&[u8]> {
    let needed = count.checked_mul(size);
    let end = needed.and_then(|n| offset.checked_add(n));
    match (needed, end) {
        (Some(_), Some(end)) if end <= data.len() as u64 => {
            // Both bounds fit in usize because end <= data.len().
            Ok(&data[offset as usize..end as usize])
        }
        (needed, _) => Err(Error::Truncated {
            context: context(),
            offset,
            needed: needed.unwrap_or(u64::MAX),
            file_len: data.len() as u64,
        }),
    }
}

/// A cursor over a byte slice that reads little-endian values.
///
/// Every read is bounds-checked and returns [`Error::Truncated`] with the
/// cursor's position when the data runs out.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0 }
    }

    /// The current byte offset.
    pub(crate) fn pos(&self) -> u64 {
        self.pos as u64
    }

    /// How many bytes remain after the cursor.
    pub(crate) fn remaining(&self) -> u64 {
        (self.data.len() - self.pos) as u64
    }

    /// The bytes after the cursor, without moving it.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// Takes the next `len` bytes.
    pub(crate) fn bytes(&mut self, len: u64, context: impl FnOnce() -> String) -> Result<&'a [u8]> {
        let out = slice(self.data, self.pos as u64, len, 1, context)?;
        self.pos += out.len();
        Ok(out)
    }

    /// Takes the next `N` bytes as an array.
    pub(crate) fn array<const N: usize>(
        &mut self,
        context: impl FnOnce() -> String,
    ) -> Result<[u8; N]> {
        let bytes = self.bytes(N as u64, context)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// Reads a `u8`.
    pub(crate) fn u8(&mut self, context: impl FnOnce() -> String) -> Result<u8> {
        Ok(self.array::<1>(context)?[0])
    }

    /// Reads a little-endian `u16`.
    pub(crate) fn u16(&mut self, context: impl FnOnce() -> String) -> Result<u16> {
        self.array(context).map(u16::from_le_bytes)
    }

    /// Reads a little-endian `i32`.
    pub(crate) fn i32(&mut self, context: impl FnOnce() -> String) -> Result<i32> {
        self.array(context).map(i32::from_le_bytes)
    }

    /// Reads a little-endian `f32`.
    pub(crate) fn f32(&mut self, context: impl FnOnce() -> String) -> Result<f32> {
        self.array(context).map(f32::from_le_bytes)
    }
}

/// Little-endian reads from fixed positions of a slice whose length the
/// caller has already checked.
pub(crate) fn le_i16(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes([b[at], b[at + 1]])
}

/// See [`le_i16`].
pub(crate) fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// See [`le_i16`].
pub(crate) fn le_i32(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// See [`le_i16`].
pub(crate) fn le_f32(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Appending little-endian values to a byte buffer.
pub(crate) trait PutLe {
    /// Appends a `u16`.
    fn put_u16(&mut self, v: u16);
    /// Appends an `i16`.
    fn put_i16(&mut self, v: i16);
    /// Appends an `i32`.
    fn put_i32(&mut self, v: i32);
    /// Appends an `f32`.
    fn put_f32(&mut self, v: f32);
}

impl PutLe for Vec<u8> {
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_i16(&mut self, v: i16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_rejects_overflowing_counts() {
        let data = [0u8; 16];
        let err = slice(&data, 8, u64::MAX, 4, || "x".into()).unwrap_err();
        assert!(matches!(
            err,
            Error::Truncated {
                needed: u64::MAX,
                ..
            }
        ));
        let err = slice(&data, u64::MAX, 1, 1, || "x".into()).unwrap_err();
        assert!(matches!(err, Error::Truncated { .. }));
        assert_eq!(slice(&data, 8, 2, 4, || "x".into()).unwrap().len(), 8);
        assert!(slice(&data, 8, 3, 4, || "x".into()).is_err());
    }

    #[test]
    fn reader_reports_position_of_short_read() {
        let mut r = Reader::new(&[1, 0, 2]);
        assert_eq!(r.u16(|| "a".into()).unwrap(), 1);
        let err = r.i32(|| "b".into()).unwrap_err();
        assert_eq!(
            err,
            Error::Truncated {
                context: "b".into(),
                offset: 2,
                needed: 4,
                file_len: 3
            }
        );
        assert_eq!(r.remaining(), 1);
    }
}
