//! The GLB container: a 12-byte header, a JSON chunk (padded with spaces)
//! and a binary chunk (padded with zeros), each chunk length a multiple of
//! 4.

use crate::error::{Error, Result};

/// `glTF` as a little-endian u32.
const MAGIC: &[u8; 4] = b"glTF";
/// Chunk type of the JSON chunk (`JSON`).
const CHUNK_JSON: &[u8; 4] = b"JSON";
/// Chunk type of the binary chunk (`BIN\0`).
const CHUNK_BIN: &[u8; 4] = b"BIN\0";

/// `len` rounded up to a multiple of 4.
fn padded(len: usize) -> usize {
    len.div_ceil(4) * 4
}

/// Appends a chunk: length, type, data, padding.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8], pad: u8) {
    let len = padded(data.len());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.resize(out.len() + len - data.len(), pad);
}

/// The GLB file of a JSON document and its binary buffer (no binary chunk
/// when `bin` is empty).
pub(crate) fn write(json: &[u8], bin: &[u8]) -> Result<Vec<u8>> {
    let bin_part = if bin.is_empty() {
        0
    } else {
        8 + padded(bin.len())
    };
    let total = 12 + 8 + padded(json.len()) + bin_part;
    if total > u32::MAX as usize {
        return Err(Error::unwritable(
            "GLB",
            format!("{total} bytes is more than a GLB can hold"),
        ));
    }
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    chunk(&mut out, CHUNK_JSON, json, b' ');
    if !bin.is_empty() {
        chunk(&mut out, CHUNK_BIN, bin, 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn header_and_chunks_are_laid_out_as_the_spec_says() {
        let out = super::write(b"{}", &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(&out[0..4], b"glTF");
        assert_eq!(out[4..8], 2u32.to_le_bytes());
        assert_eq!(out[8..12], (out.len() as u32).to_le_bytes());
        assert_eq!(out[12..16], 4u32.to_le_bytes());
        assert_eq!(&out[16..24], b"JSON{}  ");
        assert_eq!(out[24..28], 8u32.to_le_bytes());
        assert_eq!(&out[28..32], b"BIN\0");
        assert_eq!(&out[32..], &[1, 2, 3, 4, 5, 0, 0, 0]);
    }
}
