//! Writing an [`Ms3d`] back to bytes, mirroring the reader part by part.
//!
//! As the MD2 writer does: everything that could make the model
//! unwritable is checked first, in file order (so the first fault found is
//! the one reported), the file's size comes from [`layout::file_size`],
//! and the file is then written in one pass into a buffer of exactly that
//! size. Fixed records are filled at the field offsets of [`layout`], the
//! same ones the reader reads them from.

use super::layout::{self, group, joint, key, material, triangle, vertex};
use super::{
    Comment, Group, Joint, Key, Material, ModelComment, Ms3d, Triangle, Vertex, VertexExtras,
};
use crate::bytes::PutLe;
use crate::error::{Error, Result};

/// Checks that `n` fits a 16-bit count.
fn count_u16(n: usize, what: impl FnOnce() -> String) -> Result<()> {
    match u16::try_from(n) {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::unwritable(
            what(),
            format!("{n} do not fit the format's 16-bit count"),
        )),
    }
}

/// Checks that `n` fits a 32-bit length.
fn len_i32(n: usize, what: &str) -> Result<()> {
    match i32::try_from(n) {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::unwritable(
            what,
            format!("{n} bytes do not fit a 32-bit length"),
        )),
    }
}

/// Appends a 16-bit count that [`Ms3d::check_writable`] found to fit.
fn put_count(out: &mut Vec<u8>, n: usize) {
    out.put_u16(n as u16);
}

/// Appends a 32-bit count or length that [`Ms3d::check_writable`] found to
/// fit.
fn put_len(out: &mut Vec<u8>, n: usize) {
    out.put_i32(n as i32);
}

/// Stores `values` as little-endian `f32`s in `record` from `at` on.
#[inline(always)]
fn set_f32s(record: &mut [u8], at: usize, values: &[f32]) {
    for (k, v) in values.iter().enumerate() {
        record[at + 4 * k..at + 4 * k + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Stores a little-endian `u16` in `record` at `at`.
#[inline(always)]
fn set_u16(record: &mut [u8], at: usize, value: u16) {
    record[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

/// A vertex record.
#[inline(always)]
fn vertex_record(v: &Vertex) -> [u8; vertex::SIZE] {
    use vertex::*;
    let mut r = [0u8; SIZE];
    r[FLAGS] = v.flags;
    set_f32s(&mut r, POSITION, &v.position);
    r[BONE_ID] = v.bone_id as u8;
    r[REFERENCE_COUNT] = v.reference_count;
    r
}

/// A triangle record.
#[inline(always)]
fn triangle_record(t: &Triangle) -> [u8; triangle::SIZE] {
    use triangle::*;
    let mut r = [0u8; SIZE];
    set_u16(&mut r, FLAGS, t.flags);
    for (k, &v) in t.vertices.iter().enumerate() {
        set_u16(&mut r, VERTICES + 2 * k, v);
    }
    for (k, n) in t.normals.iter().enumerate() {
        set_f32s(&mut r, NORMALS + 12 * k, n);
    }
    set_f32s(&mut r, S, &t.s);
    set_f32s(&mut r, T, &t.t);
    r[SMOOTHING_GROUP] = t.smoothing_group;
    r[GROUP] = t.group;
    r
}

/// A group's head: flags, name and triangle count.
fn group_head(g: &Group) -> [u8; group::HEAD_SIZE] {
    use group::*;
    let mut r = [0u8; HEAD_SIZE];
    r[FLAGS] = g.flags;
    r[NAME..NAME + 32].copy_from_slice(&g.name.0);
    set_u16(&mut r, TRIANGLE_COUNT, g.triangles.len() as u16);
    r
}

/// A material record.
fn material_record(m: &Material) -> [u8; material::SIZE] {
    use material::*;
    let mut r = [0u8; SIZE];
    r[NAME..NAME + 32].copy_from_slice(&m.name.0);
    set_f32s(&mut r, AMBIENT, &m.ambient);
    set_f32s(&mut r, DIFFUSE, &m.diffuse);
    set_f32s(&mut r, SPECULAR, &m.specular);
    set_f32s(&mut r, EMISSIVE, &m.emissive);
    set_f32s(&mut r, SHININESS, &[m.shininess]);
    set_f32s(&mut r, TRANSPARENCY, &[m.transparency]);
    r[MODE] = m.mode;
    r[TEXTURE..TEXTURE + 128].copy_from_slice(&m.texture.0);
    r[ALPHAMAP..ALPHAMAP + 128].copy_from_slice(&m.alphamap.0);
    r
}

/// A joint's head: everything before its keys.
fn joint_head(j: &Joint) -> [u8; joint::HEAD_SIZE] {
    use joint::*;
    let mut r = [0u8; HEAD_SIZE];
    r[FLAGS] = j.flags;
    r[NAME..NAME + 32].copy_from_slice(&j.name.0);
    r[PARENT..PARENT + 32].copy_from_slice(&j.parent.0);
    set_f32s(&mut r, ROTATION, &j.rotation);
    set_f32s(&mut r, POSITION, &j.position);
    set_u16(&mut r, ROTATION_KEY_COUNT, j.rotation_keys.len() as u16);
    set_u16(&mut r, POSITION_KEY_COUNT, j.position_keys.len() as u16);
    r
}

/// A key record.
#[inline(always)]
fn key_record(k: &Key) -> [u8; key::SIZE] {
    let mut r = [0u8; key::SIZE];
    set_f32s(&mut r, key::TIME, &[k.time]);
    set_f32s(&mut r, key::VALUE, &k.value);
    r
}

/// Appends a comment list: its count, then each `{index, length, text}`.
fn put_comments(out: &mut Vec<u8>, list: &[Comment]) {
    put_len(out, list.len());
    for c in list {
        out.put_i32(c.index);
        put_len(out, c.text.len());
        out.extend_from_slice(&c.text);
    }
}

impl Ms3d {
    /// Writes the model. A model read from a file is written back byte for
    /// byte (extras in the shape they were read, unknown trailing bytes
    /// kept).
    ///
    /// Fails when a count does not fit the format (more than 65535
    /// vertices, say) or the vertex or joint extras do not have one record
    /// per vertex or joint.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.check_writable()?;
        let size = layout::file_size(self);
        let capacity = usize::try_from(size).map_err(|_| {
            Error::unwritable("file size", format!("{size} bytes do not fit in memory"))
        })?;
        let mut out = Vec::with_capacity(capacity);
        out.extend_from_slice(&super::MAGIC);
        out.put_i32(self.version);
        self.write_core(&mut out);
        self.write_extras(&mut out);
        out.extend_from_slice(&self.trailing);
        debug_assert_eq!(out.len(), capacity);
        Ok(out)
    }

    /// Everything that makes the model unwritable, in file order: counts
    /// that do not fit, then faults in the extras.
    fn check_writable(&self) -> Result<()> {
        count_u16(self.vertices.len(), || "vertices".into())?;
        count_u16(self.triangles.len(), || "triangles".into())?;
        count_u16(self.groups.len(), || "groups".into())?;
        for (i, g) in self.groups.iter().enumerate() {
            count_u16(g.triangles.len(), || format!("groups[{i}].triangles"))?;
        }
        count_u16(self.materials.len(), || "materials".into())?;
        count_u16(self.joints.len(), || "joints".into())?;
        for (i, j) in self.joints.iter().enumerate() {
            count_u16(j.rotation_keys.len(), || {
                format!("joints[{i}].rotation_keys")
            })?;
            count_u16(j.position_keys.len(), || {
                format!("joints[{i}].position_keys")
            })?;
        }
        self.check_extras()
    }

    /// The faults [`Ms3d::check_writable`] finds in the extras: lengths
    /// that do not fit, a model comment announced but missing, records
    /// that do not match the vertices or joints, and parts missing before
    /// the ones that need them.
    fn check_extras(&self) -> Result<()> {
        let x = &self.extras;
        if let Some(c) = &x.comments {
            for (list, what) in [
                (&c.groups, "group comments"),
                (&c.materials, "material comments"),
                (&c.joints, "joint comments"),
            ] {
                len_i32(list.len(), what)?;
                for comment in list {
                    len_i32(comment.text.len(), what)?;
                }
            }
            match &c.model {
                ModelComment::None(1) => {
                    return Err(Error::unwritable(
                        "extras.comments.model",
                        "flag 1 announces a model comment but none is given",
                    ))
                }
                ModelComment::None(_) => {}
                ModelComment::LengthText(text) | ModelComment::IndexLengthText { text, .. } => {
                    len_i32(text.len(), "model comment")?
                }
            }
        }
        if let Some(v) = &x.vertices {
            if v.records.len() != self.vertices.len() {
                return Err(Error::unwritable(
                    "extras.vertices",
                    format!(
                        "{} records for {} vertices",
                        v.records.len(),
                        self.vertices.len()
                    ),
                ));
            }
            if !layout::extras::VERTEX_RECORD_SIZES.contains(&v.record_size) {
                return Err(Error::unwritable(
                    "extras.vertices.record_size",
                    format!("{} is not 6, 10 or 14", v.record_size),
                ));
            }
        } else if x.joints.is_some() || x.model.is_some() {
            return Err(Error::unwritable(
                "extras",
                "joint or model extras need vertex extras before them",
            ));
        }
        if let Some(j) = &x.joints {
            if j.colors.len() != self.joints.len() {
                return Err(Error::unwritable(
                    "extras.joints",
                    format!(
                        "{} colours for {} joints",
                        j.colors.len(),
                        self.joints.len()
                    ),
                ));
            }
        } else if x.model.is_some() {
            return Err(Error::unwritable(
                "extras",
                "model extras need joint extras before them",
            ));
        }
        Ok(())
    }

    /// Writes the core sections after the header, vertices to joints.
    fn write_core(&self, out: &mut Vec<u8>) {
        put_count(out, self.vertices.len());
        for v in &self.vertices {
            out.extend_from_slice(&vertex_record(v));
        }

        put_count(out, self.triangles.len());
        for t in &self.triangles {
            out.extend_from_slice(&triangle_record(t));
        }

        put_count(out, self.groups.len());
        for g in &self.groups {
            out.extend_from_slice(&group_head(g));
            for t in &g.triangles {
                out.put_u16(*t);
            }
            out.push(g.material as u8);
        }

        put_count(out, self.materials.len());
        for m in &self.materials {
            out.extend_from_slice(&material_record(m));
        }

        out.put_f32(self.fps);
        out.put_f32(self.current_time);
        out.put_i32(self.total_frames);

        put_count(out, self.joints.len());
        for j in &self.joints {
            out.extend_from_slice(&joint_head(j));
            for k in j.rotation_keys.iter().chain(&j.position_keys) {
                out.extend_from_slice(&key_record(k));
            }
        }
    }

    /// Writes the extras that are present, in file order.
    fn write_extras(&self, out: &mut Vec<u8>) {
        let x = &self.extras;
        if let Some(c) = &x.comments {
            out.put_i32(c.subversion);
            put_comments(out, &c.groups);
            put_comments(out, &c.materials);
            put_comments(out, &c.joints);
            match &c.model {
                ModelComment::None(flag) => out.put_i32(*flag),
                ModelComment::LengthText(text) => {
                    out.put_i32(1);
                    put_len(out, text.len());
                    out.extend_from_slice(text);
                }
                ModelComment::IndexLengthText { index, text } => {
                    out.put_i32(1);
                    out.put_i32(*index);
                    put_len(out, text.len());
                    out.extend_from_slice(text);
                }
            }
        }
        if let Some(v) = &x.vertices {
            write_vertex_extras(out, v);
        }
        if let Some(j) = &x.joints {
            out.put_i32(j.subversion);
            for c in &j.colors {
                for v in c {
                    out.put_f32(*v);
                }
            }
        }
        if let Some(m) = &x.model {
            out.put_i32(m.subversion);
            out.put_f32(m.joint_size);
            out.put_i32(m.transparency_mode);
            out.put_f32(m.alpha_ref);
        }
    }
}

/// Writes the vertex extras, whose record size
/// [`Ms3d::check_writable`] found to be 6, 10 or 14.
fn write_vertex_extras(out: &mut Vec<u8>, v: &VertexExtras) {
    out.put_i32(v.subversion);
    let words = v.record_size.saturating_sub(6) / 4;
    for r in &v.records {
        out.extend(r.bone_ids.map(|b| b as u8));
        out.extend_from_slice(&r.weights);
        for w in r.extra.iter().take(words) {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
}
