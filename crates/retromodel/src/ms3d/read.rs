//! Parsing MS3D bytes into an [`Ms3d`].
//!
//! The core sections are read in order with a bounds-checked cursor; every
//! count is checked against the bytes that remain (at the record's minimum
//! size) before anything is allocated. The 1.8 extras are read by
//! [`super::extras`].

use super::layout::{self, group, joint, key, material, triangle, vertex};
use super::{Group, Joint, Key, Material, Ms3d, Name128, Name32, Triangle, Vertex, MAGIC};
use crate::bytes::{le_f32, le_u16, Reader};
use crate::error::{Error, Result};
use crate::format_kind::Format;

/// Reads a `u16` count and checks that `count × min_size` bytes remain.
fn count(r: &mut Reader, what: &str, min_size: usize) -> Result<usize> {
    let min_size = min_size as u64;
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
            r.bytes(layout::HEADER_SIZE as u64, || "header".into())?;
        }
        return Err(Error::BadMagic {
            format: Format::Ms3d,
            expected: "MS3D000000",
            found: String::from_utf8_lossy(&data[..data.len().min(10)]).into_owned(),
        });
    }
    r.bytes(MAGIC.len() as u64, || "header".into())?;
    let version = r.i32(|| "header.version".into())?;
    if version != 3 && version != 4 {
        return Err(Error::UnsupportedVersion {
            format: Format::Ms3d,
            found: version.into(),
            supported: "3, 4",
            offset: layout::VERSION as u64,
        });
    }
    Ok(version)
}

fn read_vertices(r: &mut Reader) -> Result<Vec<Vertex>> {
    use vertex::*;
    let n = count(r, "vertices", SIZE)?;
    let bytes = r.bytes(n as u64 * SIZE as u64, || "vertices".into())?;
    Ok(bytes
        .chunks_exact(SIZE)
        .map(|c| Vertex {
            flags: c[FLAGS],
            position: f32x3(c, POSITION),
            bone_id: c[BONE_ID] as i8,
            reference_count: c[REFERENCE_COUNT],
        })
        .collect())
}

fn read_triangles(r: &mut Reader) -> Result<Vec<Triangle>> {
    use triangle::*;
    let n = count(r, "triangles", SIZE)?;
    let bytes = r.bytes(n as u64 * SIZE as u64, || "triangles".into())?;
    Ok(bytes
        .chunks_exact(SIZE)
        .map(|c| Triangle {
            flags: le_u16(c, FLAGS),
            vertices: [
                le_u16(c, VERTICES),
                le_u16(c, VERTICES + 2),
                le_u16(c, VERTICES + 4),
            ],
            normals: [
                f32x3(c, NORMALS),
                f32x3(c, NORMALS + 12),
                f32x3(c, NORMALS + 24),
            ],
            s: f32x3(c, S),
            t: f32x3(c, T),
            smoothing_group: c[SMOOTHING_GROUP],
            group: c[GROUP],
        })
        .collect())
}

fn read_groups(r: &mut Reader) -> Result<Vec<Group>> {
    use group::*;
    let n = count(r, "groups", MIN_SIZE)?;
    let mut groups = Vec::with_capacity(n);
    for i in 0..n {
        let head = r.bytes(HEAD_SIZE as u64, || format!("group {i}"))?;
        let tri_count = le_u16(head, TRIANGLE_COUNT) as u64;
        let tris = r.bytes(tri_count * INDEX_SIZE as u64, || {
            format!("group {i}: {tri_count} triangle indices")
        })?;
        let material = r.u8(|| format!("group {i} material index"))? as i8;
        groups.push(Group {
            flags: head[FLAGS],
            name: name32(head, NAME),
            triangles: tris
                .chunks_exact(INDEX_SIZE)
                .map(|c| le_u16(c, 0))
                .collect(),
            material,
        });
    }
    Ok(groups)
}

fn read_materials(r: &mut Reader) -> Result<Vec<Material>> {
    use material::*;
    let n = count(r, "materials", SIZE)?;
    let bytes = r.bytes(n as u64 * SIZE as u64, || "materials".into())?;
    Ok(bytes
        .chunks_exact(SIZE)
        .map(|c| Material {
            name: name32(c, NAME),
            ambient: f32x4(c, AMBIENT),
            diffuse: f32x4(c, DIFFUSE),
            specular: f32x4(c, SPECULAR),
            emissive: f32x4(c, EMISSIVE),
            shininess: le_f32(c, SHININESS),
            transparency: le_f32(c, TRANSPARENCY),
            mode: c[MODE],
            texture: name128(c, TEXTURE),
            alphamap: name128(c, ALPHAMAP),
        })
        .collect())
}

fn read_keys(r: &mut Reader, n: u16, joint: usize, what: &str) -> Result<Vec<Key>> {
    use key::*;
    let bytes = r.bytes(n as u64 * SIZE as u64, || {
        format!("joint {joint}: {n} {what} keys")
    })?;
    Ok(bytes
        .chunks_exact(SIZE)
        .map(|c| Key {
            time: le_f32(c, TIME),
            value: f32x3(c, VALUE),
        })
        .collect())
}

fn read_joints(r: &mut Reader) -> Result<Vec<Joint>> {
    use joint::*;
    let n = count(r, "joints", HEAD_SIZE)?;
    let mut joints = Vec::with_capacity(n);
    for i in 0..n {
        let head = r.bytes(HEAD_SIZE as u64, || format!("joint {i}"))?;
        let (n_rot, n_pos) = (
            le_u16(head, ROTATION_KEY_COUNT),
            le_u16(head, POSITION_KEY_COUNT),
        );
        let rotation_keys = read_keys(r, n_rot, i, "rotation")?;
        let position_keys = read_keys(r, n_pos, i, "position")?;
        joints.push(Joint {
            flags: head[FLAGS],
            name: name32(head, NAME),
            parent: name32(head, PARENT),
            rotation: f32x3(head, ROTATION),
            position: f32x3(head, POSITION),
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
