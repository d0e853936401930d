//! Parsing MD2 bytes into an [`Md2`].
//!
//! Sections are found by their offsets, never by their order. Before any
//! allocation, every `offset + count × size` is checked in 64-bit arithmetic
//! against the input, so the memory a parse takes is bounded by the input's
//! size.

use super::header::{index_of, offset_of, FIELD_COUNT};
use super::{
    Frame, FrameName, Header, Md2, PackedVertex, SkinName, SourceLayout, TexCoord, Triangle,
    FRAME_HEADER_SIZE, HEADER_SIZE, MAGIC, SKIN_NAME_SIZE, TEXCOORD_SIZE, TRIANGLE_SIZE, VERSION,
    VERTEX_SIZE,
};
use crate::bytes::{le_f32, le_i16, le_u16, slice, Reader};
use crate::error::{Error, Result};
use crate::format_kind::Format;

/// One section of the file as the header describes it.
#[derive(Debug, Clone, Copy)]
struct Section {
    name: &'static str,
    offset: u64,
    count: u64,
    size: u64,
}

impl Section {
    fn len(&self) -> u64 {
        // Both factors come from non-negative i32s: the product fits in u64.
        self.count * self.size
    }

    fn end(&self) -> u64 {
        self.offset + self.len()
    }
}

/// The header of `data`: magic, version and non-negative counts checked.
pub(super) fn read_header(data: &[u8]) -> Result<Header> {
    let mut r = Reader::new(data);
    let head = slice(data, 0, 1, HEADER_SIZE as u64, || "header".into());
    if let Err(err) = head {
        // Report a wrong magic before a short file: it is the more useful fact.
        if data.len() >= 4 && data[..4] != MAGIC {
            return Err(bad_magic(data));
        }
        return Err(err);
    }
    let magic: [u8; 4] = r.array(|| "header.magic".into())?;
    if magic != MAGIC {
        return Err(bad_magic(data));
    }
    let version = r.i32(|| "header.version".into())?;
    if version != VERSION {
        return Err(Error::UnsupportedVersion {
            format: Format::Md2,
            found: version.into(),
            supported: "8",
            offset: 4,
        });
    }
    let mut f = [0i32; FIELD_COUNT];
    for (i, v) in f.iter_mut().enumerate() {
        *v = r.i32(|| format!("header.{}", Header::FIELD_NAMES[i]))?;
    }
    // Counts (frame_size to num_frames) must not be negative.
    const COUNTS: std::ops::RangeInclusive<usize> = index_of("frame_size")..=index_of("num_frames");
    for (i, &v) in f.iter().enumerate() {
        if COUNTS.contains(&i) && v < 0 {
            return Err(Error::invalid(
                format!("header.{}", Header::FIELD_NAMES[i]),
                format!("negative count {v}"),
                Header::field_offset(i),
            ));
        }
    }
    Ok(Header::from_fields(f))
}

fn bad_magic(data: &[u8]) -> Error {
    Error::BadMagic {
        format: Format::Md2,
        expected: "IDP2",
        found: String::from_utf8_lossy(&data[..data.len().min(4)]).into_owned(),
    }
}

/// Checks that every non-empty section lies inside the file and, unless
/// `overlap` allows it, after the header and apart from the others.
fn check_sections(data: &[u8], header: &Header, sections: &[Section], overlap: bool) -> Result<()> {
    let offset_fields = [
        (header.ofs_skins, const { index_of("ofs_skins") }),
        (header.ofs_texcoords, const { index_of("ofs_texcoords") }),
        (header.ofs_triangles, const { index_of("ofs_triangles") }),
        (header.ofs_frames, const { index_of("ofs_frames") }),
        (
            header.ofs_gl_commands,
            const { index_of("ofs_gl_commands") },
        ),
    ];
    for (section, (raw, field)) in sections.iter().zip(offset_fields) {
        if section.count == 0 {
            continue; // An empty section's offset may point anywhere.
        }
        if raw < HEADER_SIZE as i32 && !(overlap && raw >= 0) {
            return Err(Error::invalid(
                format!("header.{}", Header::FIELD_NAMES[field]),
                format!(
                    "{} section at offset {raw} overlaps the 68-byte header",
                    section.name
                ),
                Header::field_offset(field),
            ));
        }
        slice(data, section.offset, section.count, section.size, || {
            format!(
                "{} section ({} × {} bytes)",
                section.name, section.count, section.size
            )
        })?;
    }
    if overlap {
        return Ok(());
    }
    let mut used: Vec<&Section> = sections.iter().filter(|s| s.count > 0).collect();
    used.sort_by_key(|s| s.offset);
    for pair in used.windows(2) {
        if pair[0].end() > pair[1].offset {
            return Err(Error::invalid(
                format!("{} section", pair[1].name),
                format!(
                    "overlaps the {} section ({:#x}..{:#x})",
                    pair[0].name,
                    pair[0].offset,
                    pair[0].end()
                ),
                pair[1].offset,
            ));
        }
    }
    Ok(())
}

impl Md2 {
    /// Parses an MD2 file.
    ///
    /// Reading is lenient: faults a model can be used despite (normal
    /// indices out of range, triangles that point past the vertices, broken
    /// GL commands, bytes after the end) are kept as they are and reported
    /// by [`Md2::validate`]. Faults that leave no sensible model (a wrong
    /// magic or version, negative counts, sections outside the file or
    /// overlapping each other, a frame size too small for its vertices, an
    /// `ofs_end` past the end of the file, which means it was cut short)
    /// are errors.
    ///
    /// ```
    /// use retromodel::md2::Md2;
    /// let bytes = retromodel::md2::sample::sample_model().to_bytes().unwrap();
    /// let model = Md2::from_bytes(&bytes).unwrap();
    /// assert!(model.validate().is_empty());
    /// assert!(Md2::from_bytes(&bytes[..100]).is_err());
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Md2> {
        Md2::parse(data, false)
    }

    /// [`Md2::from_bytes`] that also takes sections overlapping each other
    /// or the header, as every engine's loader does (each reads a section
    /// where the header puts it): for the engine profiles, which judge a
    /// file without writing it back.
    pub(super) fn from_bytes_overlapping(data: &[u8]) -> Result<Md2> {
        Md2::parse(data, true)
    }

    fn parse(data: &[u8], overlap: bool) -> Result<Md2> {
        let header = read_header(data)?;
        let num_vertices = header.num_vertices as u64;
        let min_frame_size = FRAME_HEADER_SIZE as u64 + VERTEX_SIZE as u64 * num_vertices;
        if header.num_frames > 0 && (header.frame_size as u64) < min_frame_size {
            return Err(Error::invalid(
                "header.frame_size",
                format!(
                    "frame size {} cannot hold 40 + 4 × {} vertex bytes ({min_frame_size})",
                    header.frame_size, header.num_vertices
                ),
                const { offset_of("frame_size") },
            ));
        }
        let section = |name, offset: i32, count: i32, size: u64| Section {
            name,
            offset: offset.max(0) as u64,
            count: count as u64,
            size,
        };
        let sections = [
            section(
                "skins",
                header.ofs_skins,
                header.num_skins,
                SKIN_NAME_SIZE as u64,
            ),
            section(
                "texcoords",
                header.ofs_texcoords,
                header.num_texcoords,
                TEXCOORD_SIZE as u64,
            ),
            section(
                "triangles",
                header.ofs_triangles,
                header.num_triangles,
                TRIANGLE_SIZE as u64,
            ),
            section(
                "frames",
                header.ofs_frames,
                header.num_frames,
                header.frame_size as u64,
            ),
            section(
                "gl_commands",
                header.ofs_gl_commands,
                header.num_gl_commands,
                4,
            ),
        ];
        check_sections(data, &header, &sections, overlap)?;
        let [skins, texcoords, triangles, frames, gl] = sections;
        // Every non-empty section is now known to lie inside `data`; an
        // empty one's offset was not checked and may point past the end.
        let bytes_of = |s: &Section| match s.count {
            0 => &data[..0],
            _ => &data[s.offset as usize..s.end() as usize],
        };

        let skins = bytes_of(&skins)
            .chunks_exact(SKIN_NAME_SIZE)
            .map(|c| {
                let mut raw = [0u8; SKIN_NAME_SIZE];
                raw.copy_from_slice(c);
                SkinName(raw)
            })
            .collect();
        let texcoords = bytes_of(&texcoords)
            .chunks_exact(TEXCOORD_SIZE)
            .map(|c| TexCoord {
                s: le_i16(c, 0),
                t: le_i16(c, 2),
            })
            .collect();
        let triangles = bytes_of(&triangles)
            .chunks_exact(TRIANGLE_SIZE)
            .map(|c| Triangle {
                vertices: [le_u16(c, 0), le_u16(c, 2), le_u16(c, 4)],
                texcoords: [le_u16(c, 6), le_u16(c, 8), le_u16(c, 10)],
            })
            .collect();
        let vertex_bytes = VERTEX_SIZE * num_vertices as usize;
        let frames = bytes_of(&frames)
            .chunks_exact(frames.size.max(1) as usize)
            .map(|c| read_frame(c, vertex_bytes))
            .collect();
        // One copy of the section's bytes, then each word from little-endian
        // (nothing to do on a little-endian machine).
        let mut gl_commands: Vec<u32> = bytemuck::pod_collect_to_vec(bytes_of(&gl));
        for word in &mut gl_commands {
            *word = u32::from_le(*word);
        }

        let data_end = sections
            .iter()
            .filter(|s| s.count > 0)
            .map(Section::end)
            .max()
            .unwrap_or(HEADER_SIZE as u64)
            .max(HEADER_SIZE as u64);
        let file_len = data.len() as u64;
        let ofs_end = header.ofs_end.max(0) as u64;
        if ofs_end > file_len {
            // The header says the data goes on: the file was cut short.
            return Err(Error::Truncated {
                context: format!("data up to header.ofs_end ({ofs_end})"),
                offset: 0,
                needed: ofs_end,
                file_len,
            });
        }
        let end = if (data_end..=file_len).contains(&ofs_end) {
            ofs_end
        } else {
            data_end
        };
        let gaps = find_gaps(data, &sections, end);
        Ok(Md2 {
            skin_width: header.skin_width,
            skin_height: header.skin_height,
            skins,
            texcoords,
            triangles,
            frames,
            gl_commands,
            trailing: data[end as usize..].to_vec(),
            source: Some(SourceLayout {
                header,
                file_len,
                gaps,
            }),
            num_vertices: num_vertices as usize,
        })
    }
}

impl Md2 {
    /// Parses an MD2 file strictly: like [`Md2::from_bytes`], but any
    /// problem [`Md2::validate`] finds (warnings included, such as a normal
    /// index out of range or a missing GL command list) is an error naming
    /// the first one.
    ///
    /// ```
    /// use retromodel::md2::{sample::sample_model, Md2};
    /// let mut model = sample_model();
    /// assert!(Md2::from_bytes_strict(&model.to_bytes().unwrap()).is_ok());
    /// model.frames[0].vertices[0].normal_index = 162;
    /// let err = Md2::from_bytes_strict(&model.to_bytes().unwrap()).unwrap_err();
    /// assert!(err.to_string().starts_with("frames[0].vertices[0].normal_index: normal index 162"));
    /// ```
    pub fn from_bytes_strict(data: &[u8]) -> Result<Md2> {
        let model = Md2::from_bytes(data)?;
        match model.validate().into_iter().next() {
            None => Ok(model),
            Some(p) => Err(Error::Rejected(p)),
        }
    }
}

/// Reads one frame from exactly `frame_size` bytes (checked by the caller
/// to be at least `40 + vertex_bytes`).
fn read_frame(c: &[u8], vertex_bytes: usize) -> Frame {
    let mut name = [0u8; 16];
    name.copy_from_slice(&c[24..40]);
    let packed = &c[FRAME_HEADER_SIZE..FRAME_HEADER_SIZE + vertex_bytes];
    Frame {
        scale: [le_f32(c, 0), le_f32(c, 4), le_f32(c, 8)],
        translate: [le_f32(c, 12), le_f32(c, 16), le_f32(c, 20)],
        name: FrameName(name),
        // `PackedVertex` is four bytes with alignment 1, so the bytes are
        // the vertices: one copy, no per-vertex work.
        vertices: bytemuck::cast_slice::<u8, PackedVertex>(packed).to_vec(),
        padding: c[FRAME_HEADER_SIZE + vertex_bytes..].to_vec(),
    }
}

/// The byte ranges between the header and `end` that no section covers.
fn find_gaps(data: &[u8], sections: &[Section], end: u64) -> Vec<(u64, Vec<u8>)> {
    let mut used: Vec<(u64, u64)> = sections
        .iter()
        .filter(|s| s.count > 0)
        .map(|s| (s.offset, s.end()))
        .collect();
    used.sort_unstable();
    let mut gaps = Vec::new();
    let mut pos = HEADER_SIZE as u64;
    for (start, stop) in used.into_iter().chain([(end, end)]) {
        if start > pos {
            gaps.push((pos, data[pos as usize..start as usize].to_vec()));
        }
        pos = pos.max(stop);
    }
    gaps
}
