//! Parsing IQM bytes into an [`Iqm`].
//!
//! An IQM is an offset table: the header gives each section's count and
//! offset. ioquake3 checks each range against the file before reading it
//! (`code/renderergl1/tr_model_iqm.c`, `R_LoadIQM`), but reads frame data
//! past the buffer when a file's frame count is larger than its frames
//! and there is no bounds block; this reader checks every section in
//! 64-bit arithmetic and counts the bytes the sections claim together
//! (`claims`), so the memory a parse takes is bounded by the input's size.

use super::{
    Anim, Bounds, Extension, Header, Iqm, Joint, Mesh, Pose, VertexArray, ANIM_SIZE, BOUNDS_SIZE,
    CHANNELS, EXTENSION_SIZE, HEADER_SIZE, JOINT_SIZE, MAGIC, MESH_SIZE, POSE_SIZE, TRIANGLE_SIZE,
    VERSION, VERTEX_ARRAY_SIZE,
};
use crate::bytes::{le_f32, le_i32};
use crate::claims::Claims;
use crate::error::{Error, Result};
use crate::format_kind::Format;

/// The header's fields after the magic, in file order, as paths name
/// them; field `k` is at byte `16 + 4k`.
pub(super) const HEADER_FIELDS: [&str; 27] = [
    "version",
    "filesize",
    "flags",
    "num_text",
    "ofs_text",
    "num_meshes",
    "ofs_meshes",
    "num_vertexarrays",
    "num_vertexes",
    "ofs_vertexarrays",
    "num_triangles",
    "ofs_triangles",
    "ofs_adjacency",
    "num_joints",
    "ofs_joints",
    "num_poses",
    "ofs_poses",
    "num_anims",
    "ofs_anims",
    "num_frames",
    "num_framechannels",
    "ofs_frames",
    "ofs_bounds",
    "num_comment",
    "ofs_comment",
    "num_extensions",
    "ofs_extensions",
];

/// The offset fields [`Header::offsets`] keeps, in its order.
pub(super) const OFFSET_FIELDS: [&str; 12] = [
    "ofs_text",
    "ofs_meshes",
    "ofs_vertexarrays",
    "ofs_triangles",
    "ofs_adjacency",
    "ofs_joints",
    "ofs_poses",
    "ofs_anims",
    "ofs_frames",
    "ofs_bounds",
    "ofs_comment",
    "ofs_extensions",
];

/// The most extensions followed: the list is linked, and a loop must end.
pub const MAX_EXTENSIONS: usize = 4096;

/// The header's fields, read.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn get(&self, name: &str) -> u32 {
        let k = HEADER_FIELDS.iter().position(|n| *n == name).unwrap_or(0);
        u32::from_le_bytes([
            self.0[16 + 4 * k],
            self.0[17 + 4 * k],
            self.0[18 + 4 * k],
            self.0[19 + 4 * k],
        ])
    }
}

/// The byte offset of the header field `name`.
pub(super) fn field_offset(name: &str) -> u64 {
    16 + 4 * HEADER_FIELDS.iter().position(|n| *n == name).unwrap_or(0) as u64
}

fn vec3(b: &[u8], at: usize) -> [f32; 3] {
    [le_f32(b, at), le_f32(b, at + 4), le_f32(b, at + 8)]
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    le_i32(b, at) as u32
}

impl Iqm {
    /// Parses an IQM file (`INTERQUAKEMODEL`, version 2).
    ///
    /// Reading is lenient: faults a model can be used despite (indices
    /// out of range, names outside the text, frame channels that do not
    /// match the poses' masks) are kept as stored and reported by
    /// [`Iqm::validate`]. Faults that leave no way to read a section (a
    /// wrong magic or version, a section outside the file, sections that
    /// overlap, a vertex array of an undefined format) are errors naming
    /// the field (`vertexarrays[2].format`) and its byte offset. Version 1
    /// files are refused, naming lsalzman/iqm's `upgrade` tool, which
    /// rewrites them as version 2.
    ///
    /// ```
    /// use retromodel::iqm::Iqm;
    /// let err = Iqm::from_bytes(b"INTERQUAKEMODEL\0\x02\0\0\0").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "header: needs 124 bytes at offset 0x0 but the file is 20 bytes long"
    /// );
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Iqm> {
        if !data.starts_with(&MAGIC[..data.len().min(16)]) {
            return Err(Error::BadMagic {
                format: Format::Iqm,
                expected: "INTERQUAKEMODEL\\0",
                found: String::from_utf8_lossy(&data[..data.len().min(16)]).into_owned(),
            });
        }
        let mut claims = Claims::new(data, "or the extensions' list loops");
        let header = claims.claim("header", 0, 1, HEADER_SIZE)?;
        let h = Fields(header);
        let version = h.get("version");
        if version != VERSION {
            return Err(Error::UnsupportedVersion {
                format: Format::Iqm,
                found: version.into(),
                supported:
                    "2 (lsalzman/iqm's `upgrade` tool rewrites version 1 files as version 2)",
                offset: 16,
            });
        }
        let text = section(&mut claims, &h, "text", "num_text", "ofs_text", 1)?.to_vec();
        let meshes = section(
            &mut claims,
            &h,
            "meshes",
            "num_meshes",
            "ofs_meshes",
            MESH_SIZE,
        )?
        .chunks_exact(MESH_SIZE)
        .map(|b| Mesh {
            name: u32_at(b, 0),
            material: u32_at(b, 4),
            first_vertex: u32_at(b, 8),
            num_vertexes: u32_at(b, 12),
            first_triangle: u32_at(b, 16),
            num_triangles: u32_at(b, 20),
        })
        .collect();
        let num_vertexes = h.get("num_vertexes");
        let array_records = section(
            &mut claims,
            &h,
            "vertexarrays",
            "num_vertexarrays",
            "ofs_vertexarrays",
            VERTEX_ARRAY_SIZE,
        )?;
        let array_base = u64::from(h.get("ofs_vertexarrays"));
        let mut vertex_arrays = Vec::new();
        for (i, b) in array_records.chunks_exact(VERTEX_ARRAY_SIZE).enumerate() {
            let at = array_base + (i * VERTEX_ARRAY_SIZE) as u64;
            let format = u32_at(b, 8);
            let size = u32_at(b, 12);
            let offset = u32_at(b, 16);
            let Some(f) = super::ArrayFormat::of(format) else {
                return Err(Error::invalid(
                    format!("vertexarrays[{i}].format"),
                    format!("format {format} is none of IQM's (0 byte … 8 double)"),
                    at + 8,
                ));
            };
            let per_vertex = u64::from(size) * f.bytes() as u64;
            let data = claims.claim(
                &format!("vertexarrays[{i}] data ({size} × {} per vertex)", f.name()),
                u64::from(offset),
                u64::from(num_vertexes),
                per_vertex as usize,
            )?;
            vertex_arrays.push(VertexArray {
                kind: u32_at(b, 0),
                flags: u32_at(b, 4),
                format,
                size,
                offset,
                data: data.to_vec(),
            });
        }
        let triangle_list = |b: &[u8]| -> Vec<[u32; 3]> {
            b.chunks_exact(TRIANGLE_SIZE)
                .map(|t| [u32_at(t, 0), u32_at(t, 4), u32_at(t, 8)])
                .collect()
        };
        let triangles = triangle_list(section(
            &mut claims,
            &h,
            "triangles",
            "num_triangles",
            "ofs_triangles",
            TRIANGLE_SIZE,
        )?);
        let adjacency = if h.get("ofs_adjacency") != 0 && h.get("num_triangles") != 0 {
            Some(triangle_list(section(
                &mut claims,
                &h,
                "adjacency",
                "num_triangles",
                "ofs_adjacency",
                TRIANGLE_SIZE,
            )?))
        } else {
            None
        };
        let joints = section(
            &mut claims,
            &h,
            "joints",
            "num_joints",
            "ofs_joints",
            JOINT_SIZE,
        )?
        .chunks_exact(JOINT_SIZE)
        .map(|b| Joint {
            name: u32_at(b, 0),
            parent: le_i32(b, 4),
            translate: vec3(b, 8),
            rotate: [le_f32(b, 20), le_f32(b, 24), le_f32(b, 28), le_f32(b, 32)],
            scale: vec3(b, 36),
        })
        .collect();
        let poses = section(
            &mut claims,
            &h,
            "poses",
            "num_poses",
            "ofs_poses",
            POSE_SIZE,
        )?
        .chunks_exact(POSE_SIZE)
        .map(|b| {
            let mut p = Pose {
                parent: le_i32(b, 0),
                mask: u32_at(b, 4),
                ..Pose::default()
            };
            for c in 0..CHANNELS {
                p.channel_offset[c] = le_f32(b, 8 + 4 * c);
                p.channel_scale[c] = le_f32(b, 48 + 4 * c);
            }
            p
        })
        .collect();
        let anims = section(
            &mut claims,
            &h,
            "anims",
            "num_anims",
            "ofs_anims",
            ANIM_SIZE,
        )?
        .chunks_exact(ANIM_SIZE)
        .map(|b| Anim {
            name: u32_at(b, 0),
            first_frame: u32_at(b, 4),
            num_frames: u32_at(b, 8),
            framerate: le_f32(b, 12),
            flags: u32_at(b, 16),
        })
        .collect();
        let num_frames = h.get("num_frames");
        let num_framechannels = h.get("num_framechannels");
        let values = u64::from(num_frames) * u64::from(num_framechannels);
        let frames = if h.get("ofs_frames") != 0 || values != 0 {
            let bytes = claims.claim(
                &format!("frames ({num_frames} × {num_framechannels} channels)"),
                u64::from(h.get("ofs_frames")),
                values,
                2,
            )?;
            // Filled in place rather than collected from an iterator:
            // the loop vectorises.
            let mut frames = vec![0u16; bytes.len() / 2];
            for (v, b) in frames.iter_mut().zip(bytes.chunks_exact(2)) {
                *v = u16::from_le_bytes([b[0], b[1]]);
            }
            frames
        } else {
            Vec::new()
        };
        let bounds = if h.get("ofs_bounds") != 0 && num_frames != 0 {
            Some(
                claims
                    .claim(
                        "bounds",
                        u64::from(h.get("ofs_bounds")),
                        u64::from(num_frames),
                        BOUNDS_SIZE,
                    )?
                    .chunks_exact(BOUNDS_SIZE)
                    .map(|b| Bounds {
                        min: vec3(b, 0),
                        max: vec3(b, 12),
                        xy_radius: le_f32(b, 24),
                        radius: le_f32(b, 28),
                    })
                    .collect(),
            )
        } else {
            None
        };
        let comment =
            section(&mut claims, &h, "comment", "num_comment", "ofs_comment", 1)?.to_vec();
        let extensions = read_extensions(
            &mut claims,
            h.get("num_extensions"),
            h.get("ofs_extensions"),
        )?;
        let mut offsets = [0u32; 12];
        for (slot, name) in offsets.iter_mut().zip(OFFSET_FIELDS) {
            *slot = h.get(name);
        }
        Ok(Iqm {
            flags: h.get("flags"),
            text,
            meshes,
            num_vertexes,
            vertex_arrays,
            triangles,
            adjacency,
            joints,
            poses,
            anims,
            num_frames,
            num_framechannels,
            frames,
            bounds,
            comment,
            extensions,
            header: Header {
                version,
                filesize: h.get("filesize"),
                offsets,
                file_len: data.len() as u64,
            },
            unclaimed: claims.unclaimed(),
        })
    }
}

/// The section `name` of `count` items of `size` bytes at `ofs`.
fn section<'a>(
    claims: &mut Claims<'a>,
    h: &Fields<'_>,
    name: &str,
    count: &str,
    ofs: &str,
    size: usize,
) -> Result<&'a [u8]> {
    claims.claim(name, u64::from(h.get(ofs)), u64::from(h.get(count)), size)
}

/// The extensions' linked list, `count` records from `first`.
fn read_extensions(claims: &mut Claims<'_>, count: u32, first: u32) -> Result<Vec<Extension>> {
    let mut out = Vec::new();
    let mut at = first;
    for i in 0..count as usize {
        if i >= MAX_EXTENSIONS {
            return Err(Error::invalid(
                "num_extensions",
                format!("{count} extensions, more than the {MAX_EXTENSIONS} this reader follows"),
                field_offset("num_extensions"),
            ));
        }
        let record = claims.claim(
            &format!("extensions[{i}]"),
            u64::from(at),
            1,
            EXTENSION_SIZE,
        )?;
        let (name, num_data, ofs_data, next) = (
            u32_at(record, 0),
            u32_at(record, 4),
            u32_at(record, 8),
            u32_at(record, 12),
        );
        let data = claims.claim(
            &format!("extensions[{i}] data"),
            u64::from(ofs_data),
            u64::from(num_data),
            1,
        )?;
        out.push(Extension {
            name,
            data: data.to_vec(),
            offset: at,
            data_offset: ofs_data,
            next,
        });
        at = next;
    }
    Ok(out)
}
