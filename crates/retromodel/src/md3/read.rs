//! Parsing MD3 bytes into an [`Md3`].
//!
//! An MD3 is an offset table: the header points at the frames, the tags
//! and the first surface; each surface points at its own shaders,
//! triangles, texture coordinates and vertices relative to its start, and
//! at the next surface (`ofsEnd`). ioquake3 follows these offsets with no
//! check at all (`code/renderergl1/tr_model.c`, `R_LoadMD3`); this reader
//! checks each section against the file before reading it, in 64-bit
//! arithmetic, and counts the bytes every section claims: sections that
//! together claim more bytes than the file holds (overlapping sections, a
//! surface chain that loops) are an error, so the memory a parse takes is
//! bounded by the input's size.

use super::{
    Frame, FrameName, Md3, Offsets, QPath, Shader, Surface, SurfaceOffsets, Tag, XyzNormal,
    FRAME_SIZE, HEADER_SIZE, MAGIC, SHADER_SIZE, SURFACE_HEADER_SIZE, TAG_SIZE, TEXCOORD_SIZE,
    TRIANGLE_SIZE, VERSION, XYZ_NORMAL_SIZE,
};
use crate::bytes::{le_f32, le_i32};
use crate::claims::Claims;
use crate::error::{Error, Result};
use crate::format_kind::Format;

/// The header's fields after ident and name, in file order, as paths name
/// them, with their offsets.
pub(super) const HEADER_FIELDS: [(&str, u64); 9] = [
    ("flags", 72),
    ("num_frames", 76),
    ("num_tags", 80),
    ("num_surfaces", 84),
    ("num_skins", 88),
    ("ofs_frames", 92),
    ("ofs_tags", 96),
    ("ofs_surfaces", 100),
    ("ofs_end", 104),
];

/// A surface header's fields after ident and name, in file order, with
/// their offsets from the surface's start.
pub(super) const SURFACE_FIELDS: [(&str, u64); 10] = [
    ("flags", 68),
    ("num_frames", 72),
    ("num_shaders", 76),
    ("num_verts", 80),
    ("num_triangles", 84),
    ("ofs_triangles", 88),
    ("ofs_shaders", 92),
    ("ofs_st", 96),
    ("ofs_xyz_normals", 100),
    ("ofs_end", 104),
];

/// A count field at `at`: an error naming `path` when negative.
fn count(b: &[u8], at: usize, path: &str, offset: u64) -> Result<u64> {
    let v = le_i32(b, at);
    u64::try_from(v).map_err(|_| Error::invalid(path, format!("negative count {v}"), offset))
}

/// `base + ofs` as a file offset: an error naming `path` when it is before
/// the file's start.
fn at(base: u64, ofs: i32, path: &str, offset: u64) -> Result<u64> {
    let target = i64::try_from(base).unwrap_or(i64::MAX) + i64::from(ofs);
    u64::try_from(target).map_err(|_| {
        Error::invalid(
            path,
            format!("offset {ofs} points before the file's start ({target})"),
            offset,
        )
    })
}

#[inline(always)]
fn vec3(b: &[u8], at: usize) -> [f32; 3] {
    [le_f32(b, at), le_f32(b, at + 4), le_f32(b, at + 8)]
}

#[inline(always)]
fn qpath(b: &[u8], at: usize) -> QPath {
    QPath::from_bytes(&b[at..at + 64])
}

impl Md3 {
    /// Parses an MD3 file (`IDP3` version 15).
    ///
    /// Reading is lenient: faults a model can be used despite (indices
    /// out of range, surfaces whose frame count differs from the model's,
    /// names without a NUL, counts past an engine's limits) are kept as
    /// stored and reported by [`Md3::validate`]. Faults that leave no way
    /// to read a section (a wrong ident or version, a negative count, an
    /// offset outside the file, sections that overlap) are errors naming
    /// the field (`surfaces[2].triangles[5]`) and its byte offset.
    ///
    /// ```
    /// use retromodel::md3::Md3;
    /// let err = Md3::from_bytes(b"IDP3\x0f\0\0\0").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "header: needs 108 bytes at offset 0x0 but the file is 8 bytes long"
    /// );
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Md3> {
        let len = data.len() as u64;
        let head = &data[..data.len().min(4)];
        if head != &MAGIC[..head.len()] || head.is_empty() {
            return Err(Error::BadMagic {
                format: Format::Md3,
                expected: "IDP3",
                found: String::from_utf8_lossy(head).into_owned(),
            });
        }
        if data.len() < HEADER_SIZE {
            return Err(Error::Truncated {
                context: "header".into(),
                offset: 0,
                needed: HEADER_SIZE as u64,
                file_len: len,
            });
        }
        let version = le_i32(data, 4);
        if version != VERSION {
            return Err(Error::UnsupportedVersion {
                format: Format::Md3,
                found: version.into(),
                supported: "15",
                offset: 4,
            });
        }
        let mut claims = Claims::new(data, "or the surfaces' `ofs_end` chain loops");
        claims.claim("header", 0, 1, HEADER_SIZE)?;
        let field = |name: &str| {
            let (_, o) = HEADER_FIELDS.iter().find(|(n, _)| *n == name).copied()?;
            Some((le_i32(data, o as usize), o))
        };
        let get = |name: &str| field(name).map_or((0, 0), |v| v);
        let num = |name: &str| {
            let (_, o) = get(name);
            count(data, o as usize, &format!("header.{name}"), o)
        };
        let num_frames = num("num_frames")?;
        let num_tags = num("num_tags")?;
        let num_surfaces = num("num_surfaces")?;
        let offsets = Offsets {
            frames: get("ofs_frames").0,
            tags: get("ofs_tags").0,
            surfaces: get("ofs_surfaces").0,
            end: get("ofs_end").0,
        };
        let ofs = |name: &str, v: i32| at(0, v, &format!("header.{name}"), get(name).1);

        // Every section is found and checked first; then they are decoded
        // (a truncated file fails before anything is decoded).
        let frame_bytes = claims.claim(
            "frames",
            ofs("ofs_frames", offsets.frames)?,
            num_frames,
            FRAME_SIZE,
        )?;
        let tag_bytes = claims.claim(
            "tags",
            ofs("ofs_tags", offsets.tags)?,
            num_frames.saturating_mul(num_tags),
            TAG_SIZE,
        )?;
        let mut raw = Vec::new();
        let mut base = ofs("ofs_surfaces", offsets.surfaces)?;
        for i in 0..num_surfaces {
            let s = claim_surface(&mut claims, i, base)?;
            if i + 1 < num_surfaces {
                let path = format!("surfaces[{i}].ofs_end");
                base = at(base, s.offsets.end, &path, base + 104)?;
            }
            raw.push(s);
        }

        // Records as fixed-size arrays (`as_chunks`), so that once the
        // field readers are inlined every offset is known in bounds.
        let frames = frame_bytes
            .as_chunks::<FRAME_SIZE>()
            .0
            .iter()
            .map(|f| Frame {
                min: vec3(f, 0),
                max: vec3(f, 12),
                local_origin: vec3(f, 24),
                radius: le_f32(f, 36),
                name: FrameName::from_bytes(&f[40..56]),
            })
            .collect();

        let tags = tag_bytes
            .as_chunks::<TAG_SIZE>()
            .0
            .iter()
            .map(|t| Tag {
                name: qpath(t, 0),
                origin: vec3(t, 64),
                axes: [vec3(t, 76), vec3(t, 88), vec3(t, 100)],
            })
            .collect();

        let surfaces = raw.into_iter().map(RawSurface::decode).collect();

        Ok(Md3 {
            name: qpath(data, 8),
            flags: get("flags").0,
            num_skins: get("num_skins").0,
            num_tags: get("num_tags").0,
            frames,
            tags,
            surfaces,
            offsets,
            unclaimed: claims.unclaimed(),
        })
    }
}

/// A surface's header and sections, found and checked but not decoded.
struct RawSurface<'a> {
    header: &'a [u8],
    shaders: &'a [u8],
    triangles: &'a [u8],
    texcoords: &'a [u8],
    xyz_normals: &'a [u8],
    offsets: SurfaceOffsets,
}

/// Finds and checks surface `i`, whose header is at `base`.
fn claim_surface<'a>(claims: &mut Claims<'a>, i: u64, base: u64) -> Result<RawSurface<'a>> {
    let p = format!("surfaces[{i}]");
    let h = claims.claim(&p, base, 1, SURFACE_HEADER_SIZE)?;
    let field = |name: &str| {
        let o = SURFACE_FIELDS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, o)| *o);
        (le_i32(h, o as usize), o)
    };
    let num = |name: &str| {
        let (_, o) = field(name);
        count(h, o as usize, &format!("{p}.{name}"), base + o)
    };
    let num_frames = num("num_frames")?;
    let num_shaders = num("num_shaders")?;
    let num_verts = num("num_verts")?;
    let num_triangles = num("num_triangles")?;
    let offsets = SurfaceOffsets {
        triangles: field("ofs_triangles").0,
        shaders: field("ofs_shaders").0,
        texcoords: field("ofs_st").0,
        xyz_normals: field("ofs_xyz_normals").0,
        end: field("ofs_end").0,
    };
    let ofs = |name: &str, v: i32| at(base, v, &format!("{p}.{name}"), base + field(name).1);
    // In the order the files hold them.
    let triangles = claims.claim(
        &format!("{p}.triangles"),
        ofs("ofs_triangles", offsets.triangles)?,
        num_triangles,
        TRIANGLE_SIZE,
    )?;
    let shaders = claims.claim(
        &format!("{p}.shaders"),
        ofs("ofs_shaders", offsets.shaders)?,
        num_shaders,
        SHADER_SIZE,
    )?;
    let texcoords = claims.claim(
        &format!("{p}.texcoords"),
        ofs("ofs_st", offsets.texcoords)?,
        num_verts,
        TEXCOORD_SIZE,
    )?;
    let xyz_normals = claims.claim(
        &format!("{p}.xyz_normals"),
        ofs("ofs_xyz_normals", offsets.xyz_normals)?,
        num_frames.saturating_mul(num_verts),
        XYZ_NORMAL_SIZE,
    )?;
    Ok(RawSurface {
        header: h,
        shaders,
        triangles,
        texcoords,
        xyz_normals,
        offsets,
    })
}

impl RawSurface<'_> {
    fn decode(self) -> Surface {
        let h = self.header;
        Surface {
            ident: [h[0], h[1], h[2], h[3]],
            name: qpath(h, 4),
            flags: le_i32(h, 68),
            shaders: self
                .shaders
                .as_chunks::<SHADER_SIZE>()
                .0
                .iter()
                .map(|s| Shader {
                    name: qpath(s, 0),
                    index: le_i32(s, 64),
                })
                .collect(),
            triangles: self
                .triangles
                .as_chunks::<TRIANGLE_SIZE>()
                .0
                .iter()
                .map(|t| [le_i32(t, 0), le_i32(t, 4), le_i32(t, 8)])
                .collect(),
            texcoords: self
                .texcoords
                .as_chunks::<TEXCOORD_SIZE>()
                .0
                .iter()
                .map(|t| [le_f32(t, 0), le_f32(t, 4)])
                .collect(),
            num_frames: le_i32(h, 72),
            xyz_normals: xyz_normals(self.xyz_normals),
            offsets: self.offsets,
        }
    }
}

/// The vertices of `bytes` (whole 8-byte records) in a vector of the
/// exact size. [`XyzNormal`] is `Pod` with the file's layout, so where the
/// records are 2-byte aligned in memory (any buffer a file is read into,
/// at an even offset, as every writer pads) they are copied as one block,
/// at a plain copy's speed; otherwise eight records (64 bytes) at a time.
/// On a big-endian machine each field is then swapped from little-endian.
/// The largest section of most files.
fn xyz_normals(bytes: &[u8]) -> Vec<XyzNormal> {
    let whole = &bytes[..bytes.len() - bytes.len() % XYZ_NORMAL_SIZE];
    let mut out = match bytemuck::try_cast_slice::<u8, XyzNormal>(whole) {
        Ok(records) => records.to_vec(),
        Err(_) => {
            let mut out = Vec::with_capacity(whole.len() / XYZ_NORMAL_SIZE);
            let mut blocks = whole.chunks_exact(8 * XYZ_NORMAL_SIZE);
            for block in blocks.by_ref() {
                out.extend_from_slice(&bytemuck::pod_read_unaligned::<[XyzNormal; 8]>(block));
            }
            for v in blocks.remainder().chunks_exact(XYZ_NORMAL_SIZE) {
                out.push(bytemuck::pod_read_unaligned::<XyzNormal>(v));
            }
            out
        }
    };
    if cfg!(target_endian = "big") {
        for v in &mut out {
            v.xyz = v.xyz.map(i16::from_le);
            v.normal = u16::from_le(v.normal);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_read_alike_at_any_alignment_and_a_partial_record_is_dropped() {
        // 19 records (two blocks of eight and three more), little-endian.
        let mut file = vec![0xAAu8];
        for k in 0..19i16 {
            for word in [k, -k, 300 * k, k.wrapping_mul(-1234)] {
                file.extend_from_slice(&word.to_le_bytes());
            }
        }
        file.extend_from_slice(&[1, 2, 3]);
        let want: Vec<XyzNormal> = (0..19i16)
            .map(|k| XyzNormal {
                xyz: [k, -k, 300 * k],
                normal: k.wrapping_mul(-1234) as u16,
            })
            .collect();
        // Misaligned in `file`, then copied into a buffer of `u16`s and
        // read from its start (2-byte aligned).
        assert_eq!(xyz_normals(&file[1..]), want);
        let aligned: Vec<u16> = file[1..]
            .chunks(2)
            .map(|c| u16::from_ne_bytes([c[0], *c.get(1).unwrap_or(&0)]))
            .collect();
        let aligned = &bytemuck::cast_slice::<u16, u8>(&aligned)[..file.len() - 1];
        assert_eq!(xyz_normals(aligned), want);
    }
}
