//! The GLB container: a 12-byte header, a JSON chunk (padded with spaces)
//! and a binary chunk (padded with zeros), each chunk length a multiple of
//! 4.

use std::io::Write;

use super::builder::Bin;
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

/// A binary glTF (`.glb`) ready to be written: the JSON document and the
/// binary buffer, whose large arrays are borrowed from the
/// [`Scene`](crate::scene::Scene) rather than copied.
///
/// [`Glb::write_to`] streams the file to any writer (a file, a socket) with
/// no whole-file copy in memory; [`Glb::to_vec`] gives the bytes.
///
/// ```
/// use retromodel::gltf::{Glb, GltfOptions};
/// use retromodel::scene::Scene;
/// use retromodel::md2::Md2SceneOptions;
/// let scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
/// let glb = Glb::new(&scene, &GltfOptions::default()).unwrap();
/// let mut file = Vec::new(); // or a std::fs::File, a BufWriter ...
/// glb.write_to(&mut file).unwrap();
/// assert_eq!(file.len(), glb.byte_len());
/// assert_eq!(file, glb.to_vec());
/// assert_eq!(&file[..4], b"glTF");
/// ```
pub struct Glb<'a> {
    /// The JSON chunk's text (unpadded).
    json: Vec<u8>,
    /// The binary chunk's data (unpadded; empty for no chunk).
    bin: Bin<'a>,
}

impl<'a> Glb<'a> {
    /// Builds the glTF document of `scene`. Fails when the scene is
    /// inconsistent (see [`to_glb_with`](super::to_glb_with)) or too large
    /// for a GLB (4 GiB).
    pub fn new(scene: &'a crate::scene::Scene, options: &super::GltfOptions) -> Result<Glb<'a>> {
        let b = super::build(scene, options, None)?;
        let json = b
            .root
            .to_vec()
            .map_err(|e| Error::unwritable("glTF JSON", e.to_string()))?;
        let glb = Glb { json, bin: b.bin };
        if glb.byte_len() > u32::MAX as usize {
            return Err(Error::unwritable(
                "GLB",
                format!("{} bytes is more than a GLB can hold", glb.byte_len()),
            ));
        }
        Ok(glb)
    }

    /// The size of the file in bytes.
    pub fn byte_len(&self) -> usize {
        let bin_part = if self.bin.is_empty() {
            0
        } else {
            8 + padded(self.bin.len())
        };
        12 + 8 + padded(self.json.len()) + bin_part
    }

    /// Writes the file to `out` (wrap an unbuffered writer such as a
    /// `File` in a `BufWriter`: the buffer is written in many pieces).
    pub fn write_to<W: Write>(&self, mut out: W) -> std::io::Result<()> {
        let out: &mut dyn Write = &mut out;
        out.write_all(MAGIC)?;
        out.write_all(&2u32.to_le_bytes())?;
        out.write_all(&(self.byte_len() as u32).to_le_bytes())?;
        chunk_header(out, CHUNK_JSON, self.json.len())?;
        out.write_all(&self.json)?;
        out.write_all(&b"   "[..padded(self.json.len()) - self.json.len()])?;
        if !self.bin.is_empty() {
            chunk_header(out, CHUNK_BIN, self.bin.len())?;
            self.bin.write_to(out)?;
            out.write_all(&[0; 3][..padded(self.bin.len()) - self.bin.len()])?;
        }
        out.flush()
    }

    /// The file's bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.byte_len());
        // Writing to a vector cannot fail.
        let _ = self.write_to(&mut out);
        out
    }
}

/// A chunk's length (padded) and type.
fn chunk_header(out: &mut dyn Write, kind: &[u8; 4], len: usize) -> std::io::Result<()> {
    out.write_all(&(padded(len) as u32).to_le_bytes())?;
    out.write_all(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn header_and_chunks_are_laid_out_as_the_spec_says() {
        let mut bin = Bin::default();
        bin.push_for_test(super::super::builder::Piece::Bytes(Cow::Borrowed(&[
            1, 2, 3, 4, 5,
        ])));
        let glb = Glb {
            json: b"{}".to_vec(),
            bin,
        };
        let out = glb.to_vec();
        assert_eq!(out.len(), glb.byte_len());
        assert_eq!(&out[0..4], b"glTF");
        assert_eq!(out[4..8], 2u32.to_le_bytes());
        assert_eq!(out[8..12], (out.len() as u32).to_le_bytes());
        assert_eq!(out[12..16], 4u32.to_le_bytes());
        assert_eq!(&out[16..24], b"JSON{}  ");
        assert_eq!(out[24..28], 8u32.to_le_bytes());
        assert_eq!(&out[28..32], b"BIN\0");
        assert_eq!(&out[32..], &[1, 2, 3, 4, 5, 0, 0, 0]);
    }

    /// A writer that takes at most 7 bytes a call and, for gathered
    /// writes, only part of the first slice (std's default), so every
    /// partial-write path is taken.
    struct Trickle(Vec<u8>);

    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = buf.len().min(7);
            self.0.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn partial_writes_give_the_same_bytes() {
        use crate::md2::Md2SceneOptions;
        use crate::scene::Scene;
        let scene = Scene::from_md2(
            &crate::md2::sample::sample_model(),
            &Md2SceneOptions::default(),
        );
        let glb = Glb::new(&scene, &Default::default()).unwrap();
        let mut trickle = Trickle(Vec::new());
        glb.write_to(&mut trickle).unwrap();
        let whole = glb.to_vec();
        assert_eq!(whole.len(), glb.byte_len());
        assert_eq!(trickle.0, whole);
        // The buffer really is gathered from many pieces.
        assert!(glb.bin.pieces_for_test() > 10);
    }

    #[test]
    fn no_binary_chunk_for_an_empty_buffer() {
        let glb = Glb {
            json: b"{\"a\":1}".to_vec(),
            bin: Bin::default(),
        };
        let out = glb.to_vec();
        assert_eq!(out.len(), 28);
        assert_eq!(out[8..12], 28u32.to_le_bytes());
        assert_eq!(&out[20..], b"{\"a\":1} ");
    }
}
