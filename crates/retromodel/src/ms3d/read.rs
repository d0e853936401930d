//! Parsing MS3D bytes into an [`Ms3d`].
//!
//! The core sections are read in order with a bounds-checked cursor; every
//! count is checked against the bytes that remain (at the record's minimum
//! size) before anything is allocated. The 1.8 extras are read by
//! [`super::extras`].

use super::{Group, Joint, Key, Material, Ms3d, Name128, Name32, Triangle, Vertex, MAGIC};
use crate::bytes::{le_f32, le_u16, Reader};
use crate::error::{Error, Result};
use crate::format::Format;

/// Sizes of the fixed records.
pub(crate) const VERTEX_SIZE: u64 = 15;
pub(crate) const TRIANGLE_SIZE: u64 = 70;
pub(crate) const MATERIAL_SIZE: u64 = 361;
pub(crate) const KEY_SIZE: u64 = 16;
/// Smallest group: flags, name, count, material.
const GROUP_MIN_SIZE: u64 = 36;
/// Smallest joint: flags, two names, rotation, position, two counts.
const JOINT_MIN_SIZE: u64 = 93;

/// Reads a `u16` count and checks that `count × min_size` bytes remain.
fn count(r: &mut Reader, what: &str, min_size: u64) -> Result<usize> {
    let at = r.pos();
    let n = r.u16(|| format!("{what} count"))? as u64;
    if n * min_size > r.remaining() {
        return Err(Error::Truncated {
            context: format!("{n} {what} (at least {min_size} bytes each)"),
            offset: at + 2,
            needed: n * min_size,
            file_len: r.pos() + r.remaining(),
        });
    }
    Ok(n as usize)
}

#[inline(always)]
fn f32x3(b: &[u8], at: usize) -> [f32; 3] {
    [le_f32(b, at), le_f32(b, at + 4), le_f32(b, at + 8)]
}

#[inline(always)]
fn f32x4(b: &[u8], at: usize) -> [f32; 4] {
    [
        le_f32(b, at),
        le_f32(b, at + 4),
        le_f32(b, at + 8),
        le_f32(b, at + 12),
    ]
}

#[inline(always)]
fn name32(b: &[u8], at: usize) -> Name32 {
    let mut raw = [0u8; 32];
    raw.copy_from_slice(&b[at..at + 32]);
    Name32(raw)
}

#[inline(always)]
fn name128(b: &[u8], at: usize) -> Name128 {
    let mut raw = [0u8; 128];
    raw.copy_from_slice(&b[at..at + 128]);
    Name128(raw)
}

fn read_header(r: &mut Reader) -> Result<i32> {
    let data = r.rest();
    if data.len() < MAGIC.len() || data[..MAGIC.len()] != MAGIC {
        if data.len() < MAGIC.len() && MAGIC.starts_with(data) {
            r.bytes(14, || "header".into())?;
        }
        return Err(Error::BadMagic {
            format: Format::Ms3d,
            expected: "MS3D000000",
            found: String::from_utf8_lossy(&data[..data.len().min(10)]).into_owned(),
        });
    }
    r.bytes(10, || "header".into())?;
    let version = r.i32(|| "header.version".into())?;
    if version != 3 && version != 4 {
        return Err(Error::UnsupportedVersion {
            format: Format::Ms3d,
            found: version.into(),
            supported: "3, 4",
            offset: 10,
        });
    }
    Ok(version)
}

fn read_vertices(r: &mut Reader) -> Result<Vec<Vertex>> {
    let n = count(r, "vertices", VERTEX_SIZE)?;
    let bytes = r.bytes(n as u64 * VERTEX_SIZE, || "vertices".into())?;
    Ok(bytes
        .chunks_exact(VERTEX_SIZE as usize)
        .map(|c| Vertex {
            flags: c[0],
            position: f32x3(c, 1),
            bone_id: c[13] as i8,
            reference_count: c[14],
        })
        .collect())
}

fn read_triangles(r: &mut Reader) -> Result<Vec<Triangle>> {
    let n = count(r, "triangles", TRIANGLE_SIZE)?;
    let bytes = r.bytes(n as u64 * TRIANGLE_SIZE, || "triangles".into())?;
    Ok(bytes
        .chunks_exact(TRIANGLE_SIZE as usize)
        .map(|c| Triangle {
            flags: le_u16(c, 0),
            vertices: [le_u16(c, 2), le_u16(c, 4), le_u16(c, 6)],
            normals: [f32x3(c, 8), f32x3(c, 20), f32x3(c, 32)],
            s: f32x3(c, 44),
            t: f32x3(c, 56),
            smoothing_group: c[68],
            group: c[69],
        })
        .collect())
}

fn read_groups(r: &mut Reader) -> Result<Vec<Group>> {
    let n = count(r, "groups", GROUP_MIN_SIZE)?;
    let mut groups = Vec::with_capacity(n);
    for i in 0..n {
        let head = r.bytes(35, || format!("group {i}"))?;
        let tri_count = le_u16(head, 33) as u64;
        let tris = r.bytes(tri_count * 2, || {
            format!("group {i}: {tri_count} triangle indices")
        })?;
        let material = r.u8(|| format!("group {i} material index"))? as i8;
        groups.push(Group {
            flags: head[0],
            name: name32(head, 1),
            triangles: tris.chunks_exact(2).map(|c| le_u16(c, 0)).collect(),
            material,
        });
    }
    Ok(groups)
}

fn read_materials(r: &mut Reader) -> Result<Vec<Material>> {
    let n = count(r, "materials", MATERIAL_SIZE)?;
    let bytes = r.bytes(n as u64 * MATERIAL_SIZE, || "materials".into())?;
    Ok(bytes
        .chunks_exact(MATERIAL_SIZE as usize)
        .map(|c| Material {
            name: name32(c, 0),
            ambient: f32x4(c, 32),
            diffuse: f32x4(c, 48),
            specular: f32x4(c, 64),
            emissive: f32x4(c, 80),
            shininess: le_f32(c, 96),
            transparency: le_f32(c, 100),
            mode: c[104],
            texture: name128(c, 105),
            alphamap: name128(c, 233),
        })
        .collect())
}

fn read_keys(r: &mut Reader, n: u16, joint: usize, what: &str) -> Result<Vec<Key>> {
    let bytes = r.bytes(n as u64 * KEY_SIZE, || {
        format!("joint {joint}: {n} {what} keys")
    })?;
    Ok(bytes
        .chunks_exact(KEY_SIZE as usize)
        .map(|c| Key {
            time: le_f32(c, 0),
            value: f32x3(c, 4),
        })
        .collect())
}

fn read_joints(r: &mut Reader) -> Result<Vec<Joint>> {
    let n = count(r, "joints", JOINT_MIN_SIZE)?;
    let mut joints = Vec::with_capacity(n);
    for i in 0..n {
        let head = r.bytes(JOINT_MIN_SIZE, || format!("joint {i}"))?;
        let (n_rot, n_pos) = (le_u16(head, 89), le_u16(head, 91));
        let rotation_keys = read_keys(r, n_rot, i, "rotation")?;
        let position_keys = read_keys(r, n_pos, i, "position")?;
        joints.push(Joint {
            flags: head[0],
            name: name32(head, 1),
            parent: name32(head, 33),
            rotation: f32x3(head, 65),
            position: f32x3(head, 77),
            rotation_keys,
            position_keys,
        });
    }
    Ok(joints)
}

impl Ms3d {
    /// Parses an MS3D file (version 3 or 4, with or without 1.8 extras).
    ///
    /// Reading is lenient: indices that point nowhere, a parent joint that
    /// does not exist, unsorted keys and the like are kept as they are and
    /// reported by [`Ms3d::validate`]. A wrong magic or version, or a file
    /// that ends inside a core section, is an error naming the section and
    /// offset. Extras are read while bytes remain; what cannot be read as
    /// an extra is kept in [`Ms3d::trailing`].
    ///
    /// ```
    /// use retromodel::ms3d::{sample::sample_model, Ms3d};
    /// let bytes = sample_model().to_bytes().unwrap();
    /// let model = Ms3d::from_bytes(&bytes).unwrap();
    /// assert_eq!(model.to_bytes().unwrap(), bytes);
    /// assert!(Ms3d::from_bytes(&bytes[..40]).is_err());
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Ms3d> {
        let mut r = Reader::new(data);
        let version = read_header(&mut r)?;
        let vertices = read_vertices(&mut r)?;
        let triangles = read_triangles(&mut r)?;
        let groups = read_groups(&mut r)?;
        let materials = read_materials(&mut r)?;
        let fps = r.f32(|| "keyframer.fps".into())?;
        let current_time = r.f32(|| "keyframer.current_time".into())?;
        let total_frames = r.i32(|| "keyframer.total_frames".into())?;
        let joints = read_joints(&mut r)?;
        let counts = super::extras::Counts {
            vertices: vertices.len(),
            joints: joints.len(),
        };
        let (extras, used) = super::extras::read(r.rest(), counts);
        let trailing = r.rest()[used..].to_vec();
        Ok(Ms3d {
            version,
            vertices,
            triangles,
            groups,
            materials,
            fps,
            current_time,
            total_frames,
            joints,
            extras,
            trailing,
        })
    }

    /// Parses strictly: like [`Ms3d::from_bytes`], but any problem
    /// [`Ms3d::validate`] finds is an error naming the first one.
    pub fn from_bytes_strict(data: &[u8]) -> Result<Ms3d> {
        let model = Ms3d::from_bytes(data)?;
        match model.validate().into_iter().next() {
            None => Ok(model),
            Some(p) => Err(Error::Rejected(p)),
        }
    }
}
