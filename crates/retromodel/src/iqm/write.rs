//! Writing an [`Iqm`] back to bytes.
//!
//! Every section is serialised first, then placed: at the offsets the
//! file stored ([`Layout::Original`]) or packed as lsalzman/iqm's
//! reference compiler packs them ([`Layout::Standard`]).

use super::{ArrayFormat, Iqm, HEADER_SIZE, MAGIC, VERSION};
use crate::bytes::PutLe;
use crate::error::{Error, Result};

/// Where [`Iqm::to_bytes_with`] puts the sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Packed in the order lsalzman/iqm's compiler writes them
    /// (`iqm.cpp`, `writeiqm`): header, text, meshes, vertex array
    /// records, the arrays' data from an 8-byte boundary (each array on
    /// a boundary of its component size, at least 4), triangles,
    /// adjacency, joints, poses, animations, frames, bounds, comment; then
    /// the extensions, each record followed by its data. The text, the
    /// frame values and the comment are padded to 4 bytes as the compiler
    /// pads them, every offset is a multiple of 4, and an empty section's
    /// offset is 0. [`Iqm::header`], the arrays' and extensions' stored
    /// offsets and [`Iqm::unclaimed`] are not used.
    #[default]
    Standard,
    /// Every section at its stored offset and every byte no section
    /// covered where it was: a file read is written back byte for byte.
    Original,
}

/// One section's bytes and where it goes.
struct Placed {
    name: String,
    offset: u64,
    bytes: Vec<u8>,
}

fn count(value: usize, what: &str) -> Result<u32> {
    u32::try_from(value)
        .map_err(|_| Error::unwritable(what, format!("{value} does not fit in 32 bits")))
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn pad_to(out: &mut Vec<u8>, align: usize) {
    while !out.len().is_multiple_of(align) {
        out.push(0);
    }
}

/// The sections' bytes, in file order, with the name the header counts
/// them by.
struct Sections {
    meshes: Vec<u8>,
    triangles: Vec<u8>,
    adjacency: Option<Vec<u8>>,
    joints: Vec<u8>,
    poses: Vec<u8>,
    anims: Vec<u8>,
    frames: Vec<u8>,
    bounds: Option<Vec<u8>>,
}

impl Iqm {
    fn sections(&self) -> Result<Sections> {
        let nv = self.vertex_count();
        for (i, a) in self.vertex_arrays.iter().enumerate() {
            let format = a.array_format().ok_or_else(|| {
                Error::unwritable(
                    format!("vertexarrays[{i}].format"),
                    format!("format {} is none of IQM's", a.format),
                )
            })?;
            let want = nv
                .saturating_mul(a.size as usize)
                .saturating_mul(format.bytes());
            if a.data.len() != want {
                return Err(Error::unwritable(
                    format!("vertexarrays[{i}].data"),
                    format!(
                        "{} bytes, but {nv} vertices × {} × {} bytes need {want}",
                        a.data.len(),
                        a.size,
                        format.bytes()
                    ),
                ));
            }
        }
        let values = (self.num_frames as usize).saturating_mul(self.num_framechannels as usize);
        if self.frames.len() != values {
            return Err(Error::unwritable(
                "frames",
                format!(
                    "{} values, but {} frames × {} channels need {values}",
                    self.frames.len(),
                    self.num_frames,
                    self.num_framechannels
                ),
            ));
        }
        if let Some(b) = &self.bounds {
            if b.len() != self.num_frames as usize {
                return Err(Error::unwritable(
                    "bounds",
                    format!("{} bounds for {} frames", b.len(), self.num_frames),
                ));
            }
        }
        if let Some(a) = &self.adjacency {
            if a.len() != self.triangles.len() {
                return Err(Error::unwritable(
                    "adjacency",
                    format!("{} records for {} triangles", a.len(), self.triangles.len()),
                ));
            }
        }
        let mut meshes = Vec::with_capacity(self.meshes.len() * super::MESH_SIZE);
        for m in &self.meshes {
            for v in [
                m.name,
                m.material,
                m.first_vertex,
                m.num_vertexes,
                m.first_triangle,
                m.num_triangles,
            ] {
                put_u32(&mut meshes, v);
            }
        }
        let triangle_bytes = |list: &[[u32; 3]]| {
            let mut out = Vec::with_capacity(list.len() * 12);
            for v in list.iter().flatten() {
                put_u32(&mut out, *v);
            }
            out
        };
        let mut joints = Vec::with_capacity(self.joints.len() * super::JOINT_SIZE);
        for j in &self.joints {
            put_u32(&mut joints, j.name);
            joints.put_i32(j.parent);
            for v in j.translate.iter().chain(&j.rotate).chain(&j.scale) {
                joints.put_f32(*v);
            }
        }
        let mut poses = Vec::with_capacity(self.poses.len() * super::POSE_SIZE);
        for p in &self.poses {
            poses.put_i32(p.parent);
            put_u32(&mut poses, p.mask);
            for v in p.channel_offset.iter().chain(&p.channel_scale) {
                poses.put_f32(*v);
            }
        }
        let mut anims = Vec::with_capacity(self.anims.len() * super::ANIM_SIZE);
        for a in &self.anims {
            put_u32(&mut anims, a.name);
            put_u32(&mut anims, a.first_frame);
            put_u32(&mut anims, a.num_frames);
            anims.put_f32(a.framerate);
            put_u32(&mut anims, a.flags);
        }
        let mut frames = Vec::with_capacity(self.frames.len() * 2);
        for v in &self.frames {
            frames.put_u16(*v);
        }
        let bounds = self.bounds.as_ref().map(|list| {
            let mut out = Vec::with_capacity(list.len() * super::BOUNDS_SIZE);
            for b in list {
                for v in b.min.iter().chain(&b.max).chain(&[b.xy_radius, b.radius]) {
                    out.put_f32(*v);
                }
            }
            out
        });
        Ok(Sections {
            meshes,
            triangles: triangle_bytes(&self.triangles),
            adjacency: self.adjacency.as_deref().map(triangle_bytes),
            joints,
            poses,
            anims,
            frames,
            bounds,
        })
    }

    /// The model as bytes in the [`Layout::Original`] layout when it was
    /// read from a file, else the standard one.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let read = self.header.version == VERSION;
        self.to_bytes_with(if read {
            Layout::Original
        } else {
            Layout::Standard
        })
    }

    /// The model as bytes in `layout`.
    ///
    /// Counts always come from the data; [`Layout::Original`] fails when
    /// sections changed size so that they would overlap at their stored
    /// offsets.
    pub fn to_bytes_with(&self, layout: Layout) -> Result<Vec<u8>> {
        let s = self.sections()?;
        match layout {
            Layout::Standard => self.standard(s),
            Layout::Original => self.original(s),
        }
    }

    /// The header, given every offset in [`Header::offsets`]' order and
    /// the file size.
    fn header_bytes(
        &self,
        offsets: &[u32; 12],
        filesize: u32,
        text_len: usize,
        comment_len: usize,
    ) -> Result<Vec<u8>> {
        let mut h = Vec::with_capacity(HEADER_SIZE);
        h.extend_from_slice(&MAGIC);
        let [o_text, o_meshes, o_arrays, o_tris, o_adj, o_joints, o_poses, o_anims, o_frames, o_bounds, o_comment, o_ext] =
            *offsets;
        for v in [
            VERSION,
            filesize,
            self.flags,
            count(text_len, "text")?,
            o_text,
            count(self.meshes.len(), "meshes")?,
            o_meshes,
            count(self.vertex_arrays.len(), "vertexarrays")?,
            self.num_vertexes,
            o_arrays,
            count(self.triangles.len(), "triangles")?,
            o_tris,
            o_adj,
            count(self.joints.len(), "joints")?,
            o_joints,
            count(self.poses.len(), "poses")?,
            o_poses,
            count(self.anims.len(), "anims")?,
            o_anims,
            self.num_frames,
            self.num_framechannels,
            o_frames,
            o_bounds,
            count(comment_len, "comment")?,
            o_comment,
            count(self.extensions.len(), "extensions")?,
            o_ext,
        ] {
            put_u32(&mut h, v);
        }
        Ok(h)
    }

    fn array_records(&self, offsets: &[u32]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.vertex_arrays.len() * super::VERTEX_ARRAY_SIZE);
        for (a, offset) in self.vertex_arrays.iter().zip(offsets) {
            for v in [a.kind, a.flags, a.format, a.size, *offset] {
                put_u32(&mut out, v);
            }
        }
        out
    }

    fn standard(&self, s: Sections) -> Result<Vec<u8>> {
        let mut out = vec![0u8; HEADER_SIZE];
        let mut offsets = [0u32; 12];
        let mut at = |out: &mut Vec<u8>, slot: usize, bytes: &[u8]| -> Result<()> {
            if !bytes.is_empty() {
                offsets[slot] = count(out.len(), "file size")?;
                out.extend_from_slice(bytes);
            }
            Ok(())
        };
        let mut text = self.text.clone();
        pad_to(&mut text, 4);
        at(&mut out, 0, &text)?;
        at(&mut out, 1, &s.meshes)?;
        // The records, then the data from an 8-byte boundary, each array
        // on its component size's boundary (at least 4).
        let records_at = out.len();
        out.resize(
            records_at + self.vertex_arrays.len() * super::VERTEX_ARRAY_SIZE,
            0,
        );
        pad_to(&mut out, 8);
        let mut array_offsets = Vec::with_capacity(self.vertex_arrays.len());
        for a in &self.vertex_arrays {
            let size = a.array_format().map_or(4, ArrayFormat::bytes).max(4);
            pad_to(&mut out, size);
            array_offsets.push(count(out.len(), "file size")?);
            out.extend_from_slice(&a.data);
        }
        pad_to(&mut out, 4);
        let records = self.array_records(&array_offsets);
        out[records_at..records_at + records.len()].copy_from_slice(&records);
        if !records.is_empty() {
            offsets[2] = count(records_at, "file size")?;
        }
        let mut at = |out: &mut Vec<u8>, slot: usize, bytes: &[u8]| -> Result<()> {
            if !bytes.is_empty() {
                offsets[slot] = count(out.len(), "file size")?;
                out.extend_from_slice(bytes);
            }
            Ok(())
        };
        at(&mut out, 3, &s.triangles)?;
        at(&mut out, 4, s.adjacency.as_deref().unwrap_or_default())?;
        at(&mut out, 5, &s.joints)?;
        at(&mut out, 6, &s.poses)?;
        at(&mut out, 7, &s.anims)?;
        let mut frames = s.frames;
        pad_to(&mut frames, 4);
        at(&mut out, 8, &frames)?;
        at(&mut out, 9, s.bounds.as_deref().unwrap_or_default())?;
        let mut comment = self.comment.clone();
        pad_to(&mut comment, 4);
        at(&mut out, 10, &comment)?;
        // Extensions: each record, then its data; the records link on.
        let mut ext_at = Vec::with_capacity(self.extensions.len());
        let mut cursor = out.len();
        for e in &self.extensions {
            ext_at.push(cursor);
            cursor += super::EXTENSION_SIZE + e.data.len().div_ceil(4) * 4;
        }
        for (i, e) in self.extensions.iter().enumerate() {
            let next = ext_at
                .get(i + 1)
                .map_or(Ok(0), |n| count(*n, "file size"))?;
            put_u32(&mut out, e.name);
            put_u32(&mut out, count(e.data.len(), "extension data")?);
            put_u32(
                &mut out,
                count(ext_at[i] + super::EXTENSION_SIZE, "file size")?,
            );
            put_u32(&mut out, next);
            out.extend_from_slice(&e.data);
            pad_to(&mut out, 4);
        }
        if let Some(first) = ext_at.first() {
            offsets[11] = count(*first, "file size")?;
        }
        let filesize = count(out.len(), "file size")?;
        let header = self.header_bytes(&offsets, filesize, text.len(), comment.len())?;
        out[..HEADER_SIZE].copy_from_slice(&header);
        Ok(out)
    }

    fn original(&self, s: Sections) -> Result<Vec<u8>> {
        let o = self.header.offsets;
        let mut placed = vec![Placed {
            name: "header".into(),
            offset: 0,
            bytes: self.header_bytes(
                &o,
                self.header.filesize,
                self.text.len(),
                self.comment.len(),
            )?,
        }];
        let mut place = |name: &str, offset: u32, bytes: Vec<u8>| {
            if !bytes.is_empty() {
                placed.push(Placed {
                    name: name.to_string(),
                    offset: u64::from(offset),
                    bytes,
                });
            }
        };
        place("text", o[0], self.text.clone());
        place("meshes", o[1], s.meshes);
        let array_offsets: Vec<u32> = self.vertex_arrays.iter().map(|a| a.offset).collect();
        place("vertexarrays", o[2], self.array_records(&array_offsets));
        for (i, a) in self.vertex_arrays.iter().enumerate() {
            place(&format!("vertexarrays[{i}] data"), a.offset, a.data.clone());
        }
        place("triangles", o[3], s.triangles);
        if let Some(adjacency) = s.adjacency {
            place("adjacency", o[4], adjacency);
        }
        place("joints", o[5], s.joints);
        place("poses", o[6], s.poses);
        place("anims", o[7], s.anims);
        place("frames", o[8], s.frames);
        if let Some(bounds) = s.bounds {
            place("bounds", o[9], bounds);
        }
        place("comment", o[10], self.comment.clone());
        for (i, e) in self.extensions.iter().enumerate() {
            let mut record = Vec::with_capacity(super::EXTENSION_SIZE);
            for v in [
                e.name,
                count(e.data.len(), "extension data")?,
                e.data_offset,
                e.next,
            ] {
                put_u32(&mut record, v);
            }
            place(&format!("extensions[{i}]"), e.offset, record);
            place(
                &format!("extensions[{i}] data"),
                e.data_offset,
                e.data.clone(),
            );
        }
        for u in &self.unclaimed {
            placed.push(Placed {
                name: "unclaimed bytes".into(),
                offset: u.offset,
                bytes: u.bytes.clone(),
            });
        }
        placed.sort_by_key(|p| p.offset);
        let mut out = Vec::new();
        for p in placed {
            let at = usize::try_from(p.offset)
                .map_err(|_| Error::unwritable(&p.name, "offset too large"))?;
            if at < out.len() {
                return Err(Error::unwritable(
                    p.name,
                    format!(
                        "at its stored offset {at} it would overlap what ends at {}: write the standard layout",
                        out.len()
                    ),
                ));
            }
            out.resize(at, 0);
            out.extend_from_slice(&p.bytes);
        }
        Ok(out)
    }
}
