//! Parsing MDL bytes into an [`Mdl`].
//!
//! An MDL has no offset table: its sections follow one another (header,
//! skins, texture coordinates, triangles, frames), each sized by counts in
//! the header or in the section itself, as id's loader walks them
//! (`WinQuake/gl_model.c`, `Mod_LoadAliasModel`, `Mod_LoadAllSkins`,
//! `Mod_LoadAliasFrame`, `Mod_LoadAliasGroup`). Every count is checked
//! against the bytes left, in 64-bit arithmetic, before anything is
//! allocated for it, so the memory a parse takes is bounded by the
//! input's size and a hostile count is an error, not an allocation.

use super::{Frame, HEADER_SIZE_QUAKE};
use super::{
    FrameGroup, FrameName, Mdl, SimpleFrame, Skin, TexCoord, TriVertex, Triangle, Variant,
    MAGIC_HEXEN2, MAGIC_QUAKE, MAGIC_QUAKEFORGE16, VERSION_HEXEN2, VERSION_QTEST, VERSION_QUAKE,
};
use crate::bytes::{le_f32, le_i32, le_u16, Reader};
use crate::error::{Error, Result};
use crate::format_kind::Format;

/// Size of one texture coordinate (`stvert_t`: onseam, s, t).
pub(super) const TEXCOORD_SIZE: u64 = 12;
/// Size of one triangle (`dtriangle_t`, or Hexen II's `dnewtriangle_t`).
pub(super) const TRIANGLE_SIZE: u64 = 16;
/// Size of one packed vertex (`trivertx_t`).
pub(super) const VERTEX_SIZE: u64 = 4;

/// The header's fields in file order after magic and version, with their
/// names as paths use them.
pub(super) const HEADER_FIELDS: [&str; 20] = [
    "scale[0]",
    "scale[1]",
    "scale[2]",
    "origin[0]",
    "origin[1]",
    "origin[2]",
    "bounding_radius",
    "eye_position[0]",
    "eye_position[1]",
    "eye_position[2]",
    "num_skins",
    "skin_width",
    "skin_height",
    "num_vertices",
    "num_triangles",
    "num_frames",
    "sync_type",
    "flags",
    "size",
    "num_st_verts",
];

/// The byte offset of a header field named as in [`HEADER_FIELDS`].
pub(crate) fn header_offset(field: &str) -> u64 {
    HEADER_FIELDS
        .iter()
        .position(|f| *f == field)
        .map_or(0, |i| 8 + 4 * i as u64)
}

/// The variant a file's first eight bytes name, or the error that says
/// why they name none.
fn variant_of(data: &[u8]) -> Result<Variant> {
    let magic = data.get(..4).unwrap_or(data);
    let found = || String::from_utf8_lossy(magic).into_owned();
    let version = match data.get(4..8) {
        Some(_) => le_i32(data, 4),
        None if [MAGIC_QUAKE, MAGIC_HEXEN2, MAGIC_QUAKEFORGE16].contains(&{
            let mut m = [0u8; 4];
            m[..magic.len()].copy_from_slice(magic);
            m
        }) =>
        {
            return Err(Error::Truncated {
                context: "header".into(),
                offset: 0,
                needed: HEADER_SIZE_QUAKE as u64,
                file_len: data.len() as u64,
            })
        }
        None => {
            return Err(Error::BadMagic {
                format: Format::Mdl,
                expected: "IDPO",
                found: found(),
            })
        }
    };
    let unsupported = |supported| Error::UnsupportedVersion {
        format: Format::Mdl,
        found: version.into(),
        supported,
        offset: 4,
    };
    match &data[..4] {
        m if m == MAGIC_QUAKE => match version {
            VERSION_QUAKE => Ok(Variant::Quake),
            VERSION_QTEST => Ok(Variant::QTest),
            _ => Err(unsupported("6 (Quake), 3 (QTest)")),
        },
        m if m == MAGIC_HEXEN2 => match version {
            VERSION_HEXEN2 => Ok(Variant::Hexen2),
            _ => Err(unsupported("50 (Hexen II)")),
        },
        m if m == MAGIC_QUAKEFORGE16 => match version {
            VERSION_QUAKE => Ok(Variant::QuakeForge16),
            _ => Err(unsupported("6 (QuakeForge 16-bit)")),
        },
        _ => Err(Error::BadMagic {
            format: Format::Mdl,
            expected: "IDPO",
            found: found(),
        }),
    }
}

/// Reads `count` items of `size` bytes from `r` as one slice, after
/// checking that they are there (the error names `path` and the offset
/// the items start at).
fn items<'a>(r: &mut Reader<'a>, count: i32, size: u64, path: &str) -> Result<&'a [u8]> {
    // `count` was checked non-negative by the caller.
    let total = u64::from(count.unsigned_abs()).saturating_mul(size);
    let at = r.pos();
    let left = r.remaining();
    if total > left {
        return Err(Error::Truncated {
            context: format!("{path} ({count} × {size} bytes)"),
            offset: at,
            needed: total,
            file_len: at + left,
        });
    }
    r.bytes(total, || path.to_string())
}

/// A count read from the file: an error naming `path` when negative, and
/// when `count × min_size` (the least each item takes) is more than the
/// bytes left.
fn check_count(r: &Reader, count: i32, min_size: u64, path: &str, offset: u64) -> Result<()> {
    if count < 0 {
        return Err(Error::invalid(
            path,
            format!("negative count {count}"),
            offset,
        ));
    }
    let needed = u64::from(count.unsigned_abs()).saturating_mul(min_size);
    if needed > r.remaining() {
        return Err(Error::Truncated {
            context: format!("{path}: {count} entries of at least {min_size} bytes"),
            offset: r.pos(),
            needed,
            file_len: r.pos() + r.remaining(),
        });
    }
    Ok(())
}

fn trivertx(b: &[u8], at: usize) -> TriVertex {
    TriVertex {
        position: [b[at], b[at + 1], b[at + 2]],
        normal_index: b[at + 3],
    }
}

/// The counts a parse walks by.
struct Shape {
    variant: Variant,
    skin_bytes: u64,
    num_vertices: i32,
    frame_size: u64,
}

impl Mdl {
    /// Parses an MDL file: Quake's (`IDPO` 6), Hexen II's (`RAPO` 50),
    /// QuakeForge's 16-bit (`MD16` 6) or QTest's (`IDPO` 3).
    ///
    /// Reading is lenient: faults a model can be used or repaired despite
    /// (indices out of range, normal indices ≥ 162, wrong bounding boxes,
    /// bad intervals) are kept as stored and reported by [`Mdl::validate`].
    /// Faults that leave no way to find the next section (a wrong magic or
    /// version, a negative count, a count larger than the bytes left) are
    /// errors naming the field (`frames[3].group.num_frames`) and its byte
    /// offset. Bytes after the last frame are kept in [`Mdl::trailing`].
    ///
    /// ```
    /// use retromodel::mdl::Mdl;
    /// let err = Mdl::from_bytes(b"IDPO\x06\0\0\0").unwrap_err();
    /// assert!(err.to_string().starts_with("header: needs 84 bytes"));
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Mdl> {
        let variant = variant_of(data)?;
        let mut r = Reader::new(data);
        let header_size = variant.header_size() as u64;
        if (data.len() as u64) < header_size {
            return Err(Error::Truncated {
                context: "header".into(),
                offset: 0,
                needed: header_size,
                file_len: data.len() as u64,
            });
        }
        r.bytes(8, || "header".into())?;
        let mut f = [0u8; 80];
        let fields = (header_size as usize - 8) / 4;
        let raw = r.bytes(header_size - 8, || "header".into())?;
        f[..raw.len()].copy_from_slice(raw);
        let fl = |i: usize| le_f32(&f, 4 * i);
        let int = |i: usize| le_i32(&f, 4 * i);
        let mut mdl = Mdl {
            variant,
            version: le_i32(data, 4),
            scale: [fl(0), fl(1), fl(2)],
            origin: [fl(3), fl(4), fl(5)],
            bounding_radius: fl(6),
            eye_position: [fl(7), fl(8), fl(9)],
            skin_width: int(11),
            skin_height: int(12),
            num_vertices: int(13),
            num_triangles: int(14),
            num_frames: int(15),
            sync_type: int(16),
            // QTest's header ends before `flags` (FTE `Mod_LoadQ1Model`:
            // "Qtest has no flags in header").
            flags: if fields > 17 { int(17) } else { 0 },
            size: if fields > 18 { fl(18) } else { 0.0 },
            ..Mdl::default()
        };
        let num_skins = int(10);
        let num_st = if variant == Variant::Hexen2 {
            int(19)
        } else {
            mdl.num_vertices
        };
        for (i, v) in [(10, num_skins), (11, mdl.skin_width), (12, mdl.skin_height)]
            .into_iter()
            .chain([(13, mdl.num_vertices), (14, mdl.num_triangles)])
            .chain([(15, mdl.num_frames), (19, num_st)])
        {
            if v < 0 {
                let what = if i <= 12 && i > 10 {
                    format!("negative skin size {v}")
                } else {
                    format!("negative count {v}")
                };
                let name = HEADER_FIELDS[i];
                return Err(Error::invalid(
                    format!("header.{name}"),
                    what,
                    header_offset(name),
                ));
            }
        }
        let skin_bytes =
            u64::from(mdl.skin_width.unsigned_abs()) * u64::from(mdl.skin_height.unsigned_abs());
        let per_vertex = if variant == Variant::QuakeForge16 {
            2 * VERTEX_SIZE
        } else {
            VERTEX_SIZE
        };
        let shape = Shape {
            variant,
            skin_bytes,
            num_vertices: mdl.num_vertices,
            frame_size: variant.frame_header_size() as u64
                + per_vertex * u64::from(mdl.num_vertices.unsigned_abs()),
        };

        // Skins: each at least a type word and an image, or a type word and
        // an empty group's count (`Mod_LoadAllSkins`).
        let min_skin = (4 + skin_bytes).min(8);
        check_count(&r, num_skins, min_skin, "skins", header_offset("num_skins"))?;
        mdl.skins = (0..num_skins)
            .map(|i| read_skin(&mut r, &shape, i))
            .collect::<Result<_>>()?;

        let path = if variant == Variant::Hexen2 {
            "texcoords (header.num_st_verts)"
        } else {
            "texcoords (header.num_vertices)"
        };
        let st = items(&mut r, num_st, TEXCOORD_SIZE, path)?;
        mdl.texcoords = st
            .chunks_exact(TEXCOORD_SIZE as usize)
            .map(|c| TexCoord {
                onseam: le_i32(c, 0),
                s: le_i32(c, 4),
                t: le_i32(c, 8),
            })
            .collect();

        let tris = items(
            &mut r,
            mdl.num_triangles,
            TRIANGLE_SIZE,
            "triangles (header.num_triangles)",
        )?;
        mdl.triangles = tris
            .chunks_exact(TRIANGLE_SIZE as usize)
            .map(|c| {
                if variant == Variant::Hexen2 {
                    // `dnewtriangle_t` (uhexen2 `common/genmodel.h`).
                    let u = |at| i32::from(le_u16(c, at));
                    Triangle {
                        faces_front: le_i32(c, 0),
                        vertices: [u(4), u(6), u(8)],
                        texcoords: [u(10), u(12), u(14)],
                    }
                } else {
                    let v = [le_i32(c, 4), le_i32(c, 8), le_i32(c, 12)];
                    Triangle {
                        faces_front: le_i32(c, 0),
                        vertices: v,
                        texcoords: v,
                    }
                }
            })
            .collect();

        // Frames: each at least a type word and a simple frame, or a type
        // word, an empty group's count and its bounding box.
        check_count(
            &r,
            mdl.num_frames,
            (4 + shape.frame_size).min(16),
            "frames",
            header_offset("num_frames"),
        )?;
        mdl.frames = (0..mdl.num_frames)
            .map(|i| read_frame_entry(&mut r, &shape, i))
            .collect::<Result<_>>()?;
        mdl.trailing = r.rest().to_vec();
        Ok(mdl)
    }

    /// Parses an MDL file strictly: like [`Mdl::from_bytes`], but any
    /// problem [`Mdl::validate`] finds is an error naming the first one.
    pub fn from_bytes_strict(data: &[u8]) -> Result<Mdl> {
        let model = Mdl::from_bytes(data)?;
        match model.validate().into_iter().next() {
            None => Ok(model),
            Some(p) => Err(Error::Rejected(p)),
        }
    }
}

/// Reads one entry of the skin list (`Mod_LoadAllSkins`: type 0 is one
/// image, any other a group of `n` intervals then `n` images).
fn read_skin(r: &mut Reader, shape: &Shape, i: i32) -> Result<Skin> {
    let kind = r.i32(|| format!("skins[{i}].type"))?;
    if kind == 0 {
        let image = items(
            r,
            1,
            shape.skin_bytes,
            &format!("skins[{i}].image (skin_width × skin_height)"),
        )?;
        return Ok(Skin::Single(image.to_vec()));
    }
    let at = r.pos();
    let n = r.i32(|| format!("skins[{i}].group.num_skins"))?;
    check_count(
        r,
        n,
        4 + shape.skin_bytes,
        &format!("skins[{i}].group.num_skins"),
        at,
    )?;
    let raw = items(r, n, 4, &format!("skins[{i}].group.intervals"))?;
    let intervals = raw.chunks_exact(4).map(|c| le_f32(c, 0)).collect();
    let images = (0..n)
        .map(|k| {
            items(
                r,
                1,
                shape.skin_bytes,
                &format!("skins[{i}].group.images[{k}]"),
            )
            .map(<[u8]>::to_vec)
        })
        .collect::<Result<_>>()?;
    Ok(Skin::Group {
        kind,
        intervals,
        images,
    })
}

/// Reads one entry of the frame list (`Mod_LoadAliasModel`: type 0 is a
/// simple frame, any other a group read by `Mod_LoadAliasGroup`).
fn read_frame_entry(r: &mut Reader, shape: &Shape, i: i32) -> Result<Frame> {
    let kind = r.i32(|| format!("frames[{i}].type"))?;
    if kind == 0 {
        return read_simple_frame(r, shape, &format!("frames[{i}]")).map(Frame::Single);
    }
    let at = r.pos();
    let n = r.i32(|| format!("frames[{i}].group.num_frames"))?;
    let bbox = r.bytes(8, || format!("frames[{i}].group.bbox"))?;
    check_count(
        r,
        n,
        4 + shape.frame_size,
        &format!("frames[{i}].group.num_frames"),
        at,
    )?;
    let raw = items(r, n, 4, &format!("frames[{i}].group.intervals"))?;
    let intervals = raw.chunks_exact(4).map(|c| le_f32(c, 0)).collect();
    let frames = (0..n)
        .map(|k| read_simple_frame(r, shape, &format!("frames[{i}].group.frames[{k}]")))
        .collect::<Result<_>>()?;
    Ok(Frame::Group {
        kind,
        group: FrameGroup {
            bbox_min: trivertx(bbox, 0),
            bbox_max: trivertx(bbox, 4),
            intervals,
            frames,
        },
    })
}

/// Reads a simple frame (`daliasframe_t` then the vertices; QTest's has
/// no name, QuakeForge 16-bit's a second set of vertices).
fn read_simple_frame(r: &mut Reader, shape: &Shape, path: &str) -> Result<SimpleFrame> {
    let b = items(r, 1, shape.frame_size, path)?;
    let head = shape.variant.frame_header_size();
    let mut name = [0u8; 16];
    if head == 24 {
        name.copy_from_slice(&b[8..24]);
    }
    let nv = shape.num_vertices as usize;
    let verts = |from: usize| -> Vec<TriVertex> {
        b[from..from + 4 * nv]
            .chunks_exact(4)
            .map(|c| trivertx(c, 0))
            .collect()
    };
    Ok(SimpleFrame {
        bbox_min: trivertx(b, 0),
        bbox_max: trivertx(b, 4),
        name: FrameName(name),
        vertices: verts(head),
        vertices_low: if shape.variant == Variant::QuakeForge16 {
            verts(head + 4 * nv)
        } else {
            Vec::new()
        },
    })
}
