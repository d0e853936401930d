//! Writing an [`Md2`] back to bytes.
//!
//! Sizes and offsets are computed first, then the file is written in one
//! pass into a buffer of exactly the right size.

use super::{
    Header, Md2, FRAME_HEADER_SIZE, HEADER_SIZE, MAGIC, SKIN_NAME_SIZE, TEXCOORD_SIZE,
    TRIANGLE_SIZE, VERSION, VERTEX_SIZE,
};
use crate::bytes::PutLe;
use crate::error::{Error, Result};

/// Where [`Md2::to_bytes_with`] puts the sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Header, skins, texture coordinates, triangles, frames, GL commands,
    /// each at the running offset (empty sections too), `ofs_end` at the
    /// end, then the trailing bytes. A file already laid out this way is
    /// reproduced byte for byte; any other keeps every section's bytes.
    #[default]
    Standard,
    /// The offsets of the file the model was read from, with the bytes
    /// between sections restored, so the file is reproduced byte for byte.
    /// Falls back to [`Layout::Standard`] when the model was not read from
    /// a file or its sections no longer have their original sizes.
    Original,
}

fn to_i32(value: usize, what: &str) -> Result<i32> {
    i32::try_from(value)
        .map_err(|_| Error::unwritable(what, format!("{value} does not fit in the header")))
}

/// The header of `model` in the standard layout.
pub(crate) fn standard_header(model: &Md2) -> Header {
    let frame_size = model.frame_size();
    let ofs_skins = HEADER_SIZE;
    let ofs_texcoords = ofs_skins + SKIN_NAME_SIZE * model.skins.len();
    let ofs_triangles = ofs_texcoords + TEXCOORD_SIZE * model.texcoords.len();
    let ofs_frames = ofs_triangles + TRIANGLE_SIZE * model.triangles.len();
    let ofs_gl_commands = ofs_frames + frame_size * model.frames.len();
    let ofs_end = ofs_gl_commands + 4 * model.gl_commands.len();
    // Sizes were checked by `check_sizes` before the header is used for
    // writing; for reporting, saturate instead of wrapping.
    let c = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
    Header {
        skin_width: model.skin_width,
        skin_height: model.skin_height,
        frame_size: c(frame_size),
        num_skins: c(model.skins.len()),
        num_vertices: c(model.num_vertices),
        num_texcoords: c(model.texcoords.len()),
        num_triangles: c(model.triangles.len()),
        num_gl_commands: c(model.gl_commands.len()),
        num_frames: c(model.frames.len()),
        ofs_skins: c(ofs_skins),
        ofs_texcoords: c(ofs_texcoords),
        ofs_triangles: c(ofs_triangles),
        ofs_frames: c(ofs_frames),
        ofs_gl_commands: c(ofs_gl_commands),
        ofs_end: c(ofs_end),
    }
}

impl Md2 {
    /// Writes the model in the standard layout (see [`Layout::Standard`]).
    ///
    /// Fails when the frames disagree with [`Md2::num_vertices`] or with
    /// each other's padding, or when the file would not fit the header's
    /// 32-bit fields. It does not enforce the engine limits; call
    /// [`Md2::validate`] for those.
    ///
    /// ```
    /// use retromodel::md2::{Md2, sample::sample_model};
    /// let model = sample_model();
    /// let bytes = model.to_bytes().unwrap();
    /// assert_eq!(&bytes[..4], b"IDP2");
    /// assert_eq!(Md2::from_bytes(&bytes).unwrap().frames, model.frames);
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.to_bytes_with(Layout::Standard)
    }

    /// Writes the model in the given [`Layout`].
    pub fn to_bytes_with(&self, layout: Layout) -> Result<Vec<u8>> {
        self.check_sizes()?;
        let standard = standard_header(self);
        let header = match (layout, &self.source) {
            (Layout::Original, Some(src)) if same_sizes(&src.header, &standard) => src.header,
            _ => standard,
        };
        if header == standard {
            return Ok(self.write_standard(&standard));
        }
        Ok(self.write_original(&header))
    }

    fn check_sizes(&self) -> Result<()> {
        let frame_size = self.frame_size();
        for (i, frame) in self.frames.iter().enumerate() {
            if frame.vertices.len() != self.num_vertices {
                return Err(Error::unwritable(
                    format!("frames[{i}].vertices"),
                    format!(
                        "{} vertices, but the model has {}",
                        frame.vertices.len(),
                        self.num_vertices
                    ),
                ));
            }
            if FRAME_HEADER_SIZE + VERTEX_SIZE * self.num_vertices + frame.padding.len()
                != frame_size
            {
                return Err(Error::unwritable(
                    format!("frames[{i}].padding"),
                    "frames have different padding; the format has one frame size".to_string(),
                ));
            }
        }
        let total = HEADER_SIZE as u64
            + (SKIN_NAME_SIZE * self.skins.len()) as u64
            + (TEXCOORD_SIZE * self.texcoords.len()) as u64
            + (TRIANGLE_SIZE * self.triangles.len()) as u64
            + frame_size as u64 * self.frames.len() as u64
            + 4 * self.gl_commands.len() as u64;
        to_i32(total as usize, "file size")?;
        to_i32(self.num_vertices, "num_vertices")?;
        Ok(())
    }

    fn write_header(&self, out: &mut Vec<u8>, h: &Header) {
        out.extend_from_slice(&MAGIC);
        out.put_i32(VERSION);
        for v in h.fields() {
            out.put_i32(v);
        }
    }

    fn write_skins(&self, out: &mut Vec<u8>) {
        for skin in &self.skins {
            out.extend_from_slice(&skin.0);
        }
    }

    fn write_texcoords(&self, out: &mut Vec<u8>) {
        for st in &self.texcoords {
            out.put_i16(st.s);
            out.put_i16(st.t);
        }
    }

    fn write_triangles(&self, out: &mut Vec<u8>) {
        for tri in &self.triangles {
            for v in tri.vertices.iter().chain(&tri.texcoords) {
                out.put_u16(*v);
            }
        }
    }

    fn write_frames(&self, out: &mut Vec<u8>) {
        for frame in &self.frames {
            for v in frame.scale.iter().chain(&frame.translate) {
                out.put_f32(*v);
            }
            out.extend_from_slice(&frame.name.0);
            out.extend_from_slice(bytemuck::cast_slice(&frame.vertices));
            out.extend_from_slice(&frame.padding);
        }
    }

    fn write_gl_commands(&self, out: &mut Vec<u8>) {
        for word in &self.gl_commands {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }

    fn write_standard(&self, h: &Header) -> Vec<u8> {
        let mut out = Vec::with_capacity(h.ofs_end as usize + self.trailing.len());
        self.write_header(&mut out, h);
        self.write_skins(&mut out);
        self.write_texcoords(&mut out);
        self.write_triangles(&mut out);
        self.write_frames(&mut out);
        self.write_gl_commands(&mut out);
        out.extend_from_slice(&self.trailing);
        out
    }

    /// Writes each section at the offset `h` gives it and restores the
    /// bytes between sections.
    fn write_original(&self, h: &Header) -> Vec<u8> {
        let mut sections: Vec<(i32, Vec<u8>)> = Vec::with_capacity(5);
        type Writer = fn(&Md2, &mut Vec<u8>);
        let parts: [(i32, usize, Writer); 5] = [
            (h.ofs_skins, self.skins.len(), Md2::write_skins),
            (h.ofs_texcoords, self.texcoords.len(), Md2::write_texcoords),
            (h.ofs_triangles, self.triangles.len(), Md2::write_triangles),
            (h.ofs_frames, self.frames.len(), Md2::write_frames),
            (
                h.ofs_gl_commands,
                self.gl_commands.len(),
                Md2::write_gl_commands,
            ),
        ];
        for (offset, count, write) in parts {
            if count > 0 {
                let mut bytes = Vec::new();
                write(self, &mut bytes);
                sections.push((offset, bytes));
            }
        }
        let gaps = self
            .source
            .as_ref()
            .map(|s| s.gaps.as_slice())
            .unwrap_or(&[]);
        let mut pieces: Vec<(u64, &[u8])> = sections
            .iter()
            .map(|(o, b)| (*o as u64, b.as_slice()))
            .chain(gaps.iter().map(|(o, b)| (*o, b.as_slice())))
            .collect();
        pieces.sort_by_key(|p| p.0);
        let mut out = Vec::new();
        self.write_header(&mut out, h);
        for (offset, bytes) in pieces {
            // Sections never overlap (checked when read); pad defensively.
            if (out.len() as u64) < offset {
                out.resize(offset as usize, 0);
            }
            out.truncate(offset as usize);
            out.extend_from_slice(bytes);
        }
        out.extend_from_slice(&self.trailing);
        out
    }
}

/// Whether two headers describe sections of the same sizes.
fn same_sizes(a: &Header, b: &Header) -> bool {
    (a.frame_size == b.frame_size || a.num_frames == 0 && b.num_frames == 0)
        && a.num_skins == b.num_skins
        && a.num_vertices == b.num_vertices
        && a.num_texcoords == b.num_texcoords
        && a.num_triangles == b.num_triangles
        && a.num_gl_commands == b.num_gl_commands
        && a.num_frames == b.num_frames
}
