//! Writing an [`Ms3d`] back to bytes, mirroring the reader part by part.

use super::{Comment, Key, ModelComment, Ms3d};
use crate::bytes::PutLe;
use crate::error::{Error, Result};

fn count_u16(n: usize, what: &str) -> Result<u16> {
    u16::try_from(n)
        .map_err(|_| Error::unwritable(what, format!("{n} do not fit the format's 16-bit count")))
}

fn len_i32(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n)
        .map_err(|_| Error::unwritable(what, format!("{n} bytes do not fit a 32-bit length")))
}

fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.put_f32(*x);
    }
}

fn put_keys(out: &mut Vec<u8>, keys: &[Key]) {
    for k in keys {
        out.put_f32(k.time);
        put_f32s(out, &k.value);
    }
}

fn put_comments(out: &mut Vec<u8>, list: &[Comment], what: &str) -> Result<()> {
    out.put_i32(len_i32(list.len(), what)?);
    for c in list {
        out.put_i32(c.index);
        out.put_i32(len_i32(c.text.len(), what)?);
        out.extend_from_slice(&c.text);
    }
    Ok(())
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
        let mut out = Vec::new();
        out.extend_from_slice(&super::MAGIC);
        out.put_i32(self.version);

        out.put_u16(count_u16(self.vertices.len(), "vertices")?);
        for v in &self.vertices {
            out.push(v.flags);
            put_f32s(&mut out, &v.position);
            out.push(v.bone_id as u8);
            out.push(v.reference_count);
        }

        out.put_u16(count_u16(self.triangles.len(), "triangles")?);
        for t in &self.triangles {
            out.put_u16(t.flags);
            for v in t.vertices {
                out.put_u16(v);
            }
            for n in &t.normals {
                put_f32s(&mut out, n);
            }
            put_f32s(&mut out, &t.s);
            put_f32s(&mut out, &t.t);
            out.push(t.smoothing_group);
            out.push(t.group);
        }

        out.put_u16(count_u16(self.groups.len(), "groups")?);
        for (i, g) in self.groups.iter().enumerate() {
            out.push(g.flags);
            out.extend_from_slice(&g.name.0);
            out.put_u16(count_u16(
                g.triangles.len(),
                &format!("groups[{i}].triangles"),
            )?);
            for t in &g.triangles {
                out.put_u16(*t);
            }
            out.push(g.material as u8);
        }

        out.put_u16(count_u16(self.materials.len(), "materials")?);
        for m in &self.materials {
            out.extend_from_slice(&m.name.0);
            for c in [&m.ambient, &m.diffuse, &m.specular, &m.emissive] {
                put_f32s(&mut out, c);
            }
            out.put_f32(m.shininess);
            out.put_f32(m.transparency);
            out.push(m.mode);
            out.extend_from_slice(&m.texture.0);
            out.extend_from_slice(&m.alphamap.0);
        }

        out.put_f32(self.fps);
        out.put_f32(self.current_time);
        out.put_i32(self.total_frames);

        out.put_u16(count_u16(self.joints.len(), "joints")?);
        for (i, j) in self.joints.iter().enumerate() {
            out.push(j.flags);
            out.extend_from_slice(&j.name.0);
            out.extend_from_slice(&j.parent.0);
            put_f32s(&mut out, &j.rotation);
            put_f32s(&mut out, &j.position);
            out.put_u16(count_u16(
                j.rotation_keys.len(),
                &format!("joints[{i}].rotation_keys"),
            )?);
            out.put_u16(count_u16(
                j.position_keys.len(),
                &format!("joints[{i}].position_keys"),
            )?);
            put_keys(&mut out, &j.rotation_keys);
            put_keys(&mut out, &j.position_keys);
        }

        self.write_extras(&mut out)?;
        out.extend_from_slice(&self.trailing);
        Ok(out)
    }

    fn write_extras(&self, out: &mut Vec<u8>) -> Result<()> {
        let x = &self.extras;
        if let Some(c) = &x.comments {
            out.put_i32(c.subversion);
            put_comments(out, &c.groups, "group comments")?;
            put_comments(out, &c.materials, "material comments")?;
            put_comments(out, &c.joints, "joint comments")?;
            match &c.model {
                ModelComment::None(1) => {
                    return Err(Error::unwritable(
                        "extras.comments.model",
                        "flag 1 announces a model comment but none is given",
                    ))
                }
                ModelComment::None(flag) => out.put_i32(*flag),
                ModelComment::LengthText(text) => {
                    out.put_i32(1);
                    out.put_i32(len_i32(text.len(), "model comment")?);
                    out.extend_from_slice(text);
                }
                ModelComment::IndexLengthText { index, text } => {
                    out.put_i32(1);
                    out.put_i32(*index);
                    out.put_i32(len_i32(text.len(), "model comment")?);
                    out.extend_from_slice(text);
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
            if ![6, 10, 14].contains(&v.record_size) {
                return Err(Error::unwritable(
                    "extras.vertices.record_size",
                    format!("{} is not 6, 10 or 14", v.record_size),
                ));
            }
            out.put_i32(v.subversion);
            for r in &v.records {
                out.extend(r.bone_ids.map(|b| b as u8));
                out.extend_from_slice(&r.weights);
                let words = (v.record_size - 6) / 4;
                for w in &r.extra[..words] {
                    out.extend_from_slice(&w.to_le_bytes());
                }
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
            out.put_i32(j.subversion);
            for c in &j.colors {
                put_f32s(out, c);
            }
        } else if x.model.is_some() {
            return Err(Error::unwritable(
                "extras",
                "model extras need joint extras before them",
            ));
        }
        if let Some(m) = &x.model {
            out.put_i32(m.subversion);
            out.put_f32(m.joint_size);
            out.put_i32(m.transparency_mode);
            out.put_f32(m.alpha_ref);
        }
        Ok(())
    }
}
