//! The MS3D file layout, spelled once for the reader, the writer and the
//! validator: record sizes, the byte offsets of fields inside records, the
//! sizes of the 1.8 extras, and where each part of a given model lies in
//! the file it is (or would be) written to ([`Offsets`], [`file_size`]).
//!
//! Field offsets are relative to the start of their record; sizes and
//! offsets are in bytes.

use super::{Extras, ModelComment, Ms3d, MAGIC};

/// Size of the header: the magic and an `i32` version.
pub(crate) const HEADER_SIZE: usize = MAGIC.len() + 4;
/// Offset of the version in the header.
pub(crate) const VERSION: usize = MAGIC.len();
/// Size of the `u16` count before each core section.
pub(crate) const COUNT_SIZE: usize = 2;

/// A vertex record.
pub(crate) mod vertex {
    /// Bytes per vertex.
    pub(crate) const SIZE: usize = 15;
    /// `u8` editor flags.
    pub(crate) const FLAGS: usize = 0;
    /// `f32` x, y, z.
    pub(crate) const POSITION: usize = 1;
    /// `i8` joint index.
    pub(crate) const BONE_ID: usize = 13;
    /// `u8` reference count.
    pub(crate) const REFERENCE_COUNT: usize = 14;
}

/// A triangle record.
pub(crate) mod triangle {
    /// Bytes per triangle.
    pub(crate) const SIZE: usize = 70;
    /// `u16` editor flags.
    pub(crate) const FLAGS: usize = 0;
    /// Three `u16` vertex indices.
    pub(crate) const VERTICES: usize = 2;
    /// Three normals of three `f32` each.
    pub(crate) const NORMALS: usize = 8;
    /// Three `f32` horizontal texture coordinates.
    pub(crate) const S: usize = 44;
    /// Three `f32` vertical texture coordinates.
    pub(crate) const T: usize = 56;
    /// `u8` smoothing group.
    pub(crate) const SMOOTHING_GROUP: usize = 68;
    /// `u8` group index.
    pub(crate) const GROUP: usize = 69;
}

/// A group record: a fixed head, the triangle indices, the material.
pub(crate) mod group {
    /// Bytes of the head: flags, name and triangle count.
    pub(crate) const HEAD_SIZE: usize = 35;
    /// `u8` editor flags.
    pub(crate) const FLAGS: usize = 0;
    /// 32-byte name.
    pub(crate) const NAME: usize = 1;
    /// `u16` number of triangle indices.
    pub(crate) const TRIANGLE_COUNT: usize = 33;
    /// The `u16` triangle indices, right after the head.
    pub(crate) const TRIANGLES: usize = HEAD_SIZE;
    /// Bytes per triangle index.
    pub(crate) const INDEX_SIZE: usize = 2;
    /// Bytes of the `i8` material index after the triangle indices.
    pub(crate) const MATERIAL_SIZE: usize = 1;
    /// Bytes of a group with no triangles.
    pub(crate) const MIN_SIZE: usize = HEAD_SIZE + MATERIAL_SIZE;

    /// Offset of triangle index `k`.
    pub(crate) const fn triangle(k: usize) -> usize {
        TRIANGLES + INDEX_SIZE * k
    }

    /// Offset of the material index in a group of `triangles` triangles.
    pub(crate) const fn material(triangles: usize) -> usize {
        triangle(triangles)
    }

    /// Bytes of a group of `triangles` triangles.
    pub(crate) const fn size(triangles: usize) -> usize {
        material(triangles) + MATERIAL_SIZE
    }
}

/// A material record.
pub(crate) mod material {
    /// Bytes per material.
    pub(crate) const SIZE: usize = 361;
    /// 32-byte name.
    pub(crate) const NAME: usize = 0;
    /// `f32` RGBA.
    pub(crate) const AMBIENT: usize = 32;
    /// `f32` RGBA.
    pub(crate) const DIFFUSE: usize = 48;
    /// `f32` RGBA.
    pub(crate) const SPECULAR: usize = 64;
    /// `f32` RGBA.
    pub(crate) const EMISSIVE: usize = 80;
    /// `f32` specular exponent.
    pub(crate) const SHININESS: usize = 96;
    /// `f32` opacity.
    pub(crate) const TRANSPARENCY: usize = 100;
    /// `u8` mode flags.
    pub(crate) const MODE: usize = 104;
    /// 128-byte texture path.
    pub(crate) const TEXTURE: usize = 105;
    /// 128-byte alpha map path.
    pub(crate) const ALPHAMAP: usize = 233;
}

/// The keyframer settings between the materials and the joints.
pub(crate) mod keyframer {
    /// Bytes of the settings.
    pub(crate) const SIZE: usize = 12;
    /// `f32` frames per second.
    pub(crate) const FPS: usize = 0;
    /// `f32` current time.
    pub(crate) const CURRENT_TIME: usize = 4;
    /// `i32` total frames.
    pub(crate) const TOTAL_FRAMES: usize = 8;
}

/// A joint record: a fixed head, then its rotation keys, then its position
/// keys.
pub(crate) mod joint {
    /// Bytes of the head (a joint without keys).
    pub(crate) const HEAD_SIZE: usize = 93;
    /// `u8` editor flags.
    pub(crate) const FLAGS: usize = 0;
    /// 32-byte name.
    pub(crate) const NAME: usize = 1;
    /// 32-byte parent name.
    pub(crate) const PARENT: usize = 33;
    /// `f32` bind rotation (Euler angles).
    pub(crate) const ROTATION: usize = 65;
    /// `f32` bind position.
    pub(crate) const POSITION: usize = 77;
    /// `u16` number of rotation keys.
    pub(crate) const ROTATION_KEY_COUNT: usize = 89;
    /// `u16` number of position keys.
    pub(crate) const POSITION_KEY_COUNT: usize = 91;
    /// The keys, right after the head.
    pub(crate) const KEYS: usize = HEAD_SIZE;

    /// Bytes of a joint with the given numbers of keys.
    pub(crate) const fn size(rotation_keys: usize, position_keys: usize) -> usize {
        KEYS + super::key::SIZE * (rotation_keys + position_keys)
    }
}

/// An animation key record.
pub(crate) mod key {
    /// Bytes per key.
    pub(crate) const SIZE: usize = 16;
    /// `f32` time in seconds.
    pub(crate) const TIME: usize = 0;
    /// `f32` x, y, z.
    pub(crate) const VALUE: usize = 4;
}

/// The optional 1.8 extras after the joints.
pub(crate) mod extras {
    /// Bytes of the `i32` subversion each part starts with.
    pub(crate) const SUBVERSION_SIZE: usize = 4;
    /// Bytes of an `i32` count, flag, index or length.
    pub(crate) const WORD_SIZE: usize = 4;
    /// Bytes of an indexed comment before its text: index and length.
    pub(crate) const COMMENT_HEAD_SIZE: usize = 2 * WORD_SIZE;
    /// The sizes a vertex extra record can have.
    pub(crate) const VERTEX_RECORD_SIZES: [usize; 3] = [6, 10, 14];
    /// Bytes of a joint colour (three `f32`).
    pub(crate) const JOINT_COLOR_SIZE: usize = 12;
    /// Bytes of the model extras after their subversion: joint size,
    /// transparency mode, alpha reference.
    pub(crate) const MODEL_SIZE: usize = 12;
}

// Each field ends where the next begins, and the last where its record
// ends.
const _: () = {
    use self::{group as g, joint as j, key as k, keyframer as f, material as m};
    use self::{triangle as t, vertex as v};
    assert!(v::FLAGS + 1 == v::POSITION && v::POSITION + 12 == v::BONE_ID);
    assert!(v::BONE_ID + 1 == v::REFERENCE_COUNT && v::REFERENCE_COUNT + 1 == v::SIZE);
    assert!(t::FLAGS + 2 == t::VERTICES && t::VERTICES + 6 == t::NORMALS);
    assert!(t::NORMALS + 36 == t::S && t::S + 12 == t::T && t::T + 12 == t::SMOOTHING_GROUP);
    assert!(t::SMOOTHING_GROUP + 1 == t::GROUP && t::GROUP + 1 == t::SIZE);
    assert!(g::FLAGS + 1 == g::NAME && g::NAME + 32 == g::TRIANGLE_COUNT);
    assert!(g::TRIANGLE_COUNT + 2 == g::HEAD_SIZE);
    assert!(m::NAME + 32 == m::AMBIENT && m::AMBIENT + 16 == m::DIFFUSE);
    assert!(m::DIFFUSE + 16 == m::SPECULAR && m::SPECULAR + 16 == m::EMISSIVE);
    assert!(m::EMISSIVE + 16 == m::SHININESS && m::SHININESS + 4 == m::TRANSPARENCY);
    assert!(m::TRANSPARENCY + 4 == m::MODE && m::MODE + 1 == m::TEXTURE);
    assert!(m::TEXTURE + 128 == m::ALPHAMAP && m::ALPHAMAP + 128 == m::SIZE);
    assert!(f::FPS + 4 == f::CURRENT_TIME && f::CURRENT_TIME + 4 == f::TOTAL_FRAMES);
    assert!(f::TOTAL_FRAMES + 4 == f::SIZE);
    assert!(j::FLAGS + 1 == j::NAME && j::NAME + 32 == j::PARENT);
    assert!(j::PARENT + 32 == j::ROTATION && j::ROTATION + 12 == j::POSITION);
    assert!(j::POSITION + 12 == j::ROTATION_KEY_COUNT);
    assert!(j::ROTATION_KEY_COUNT + 2 == j::POSITION_KEY_COUNT);
    assert!(j::POSITION_KEY_COUNT + 2 == j::HEAD_SIZE);
    assert!(k::TIME + 4 == k::VALUE && k::VALUE + 12 == k::SIZE);
};

/// Bytes of `n` records of `size` bytes, in 64-bit arithmetic.
fn bytes(n: usize, size: usize) -> u64 {
    n as u64 * size as u64
}

/// Bytes of the core sections (header to the last joint) of `model`.
fn core_size(model: &Ms3d) -> u64 {
    let groups: u64 = model
        .groups
        .iter()
        .map(|g| group::size(g.triangles.len()) as u64)
        .sum();
    let joints: u64 = model
        .joints
        .iter()
        .map(|j| joint::size(j.rotation_keys.len(), j.position_keys.len()) as u64)
        .sum();
    (HEADER_SIZE + 5 * COUNT_SIZE + keyframer::SIZE) as u64
        + bytes(model.vertices.len(), vertex::SIZE)
        + bytes(model.triangles.len(), triangle::SIZE)
        + groups
        + bytes(model.materials.len(), material::SIZE)
        + joints
}

/// Bytes the extras take when written (a vertex extra record size that
/// cannot be written counts as 0: the writer refuses it).
fn extras_size(x: &Extras) -> u64 {
    use extras::*;
    let mut size = 0u64;
    if let Some(c) = &x.comments {
        size += SUBVERSION_SIZE as u64;
        for list in [&c.groups, &c.materials, &c.joints] {
            size += WORD_SIZE as u64;
            for comment in list {
                size += COMMENT_HEAD_SIZE as u64 + comment.text.len() as u64;
            }
        }
        size += match &c.model {
            ModelComment::None(_) => WORD_SIZE as u64,
            ModelComment::LengthText(text) => bytes(2, WORD_SIZE) + text.len() as u64,
            ModelComment::IndexLengthText { text, .. } => bytes(3, WORD_SIZE) + text.len() as u64,
        };
    }
    if let Some(v) = &x.vertices {
        let record = if VERTEX_RECORD_SIZES.contains(&v.record_size) {
            v.record_size
        } else {
            0
        };
        size += SUBVERSION_SIZE as u64 + bytes(v.records.len(), record);
    }
    if let Some(j) = &x.joints {
        size += SUBVERSION_SIZE as u64 + bytes(j.colors.len(), JOINT_COLOR_SIZE);
    }
    if x.model.is_some() {
        size += (SUBVERSION_SIZE + MODEL_SIZE) as u64;
    }
    size
}

/// Bytes of the file [`Ms3d::to_bytes`] writes for `model` (when it can
/// write it): core sections, extras and trailing bytes.
pub(crate) fn file_size(model: &Ms3d) -> u64 {
    core_size(model) + extras_size(&model.extras) + model.trailing.len() as u64
}

/// Where one joint's parts start.
#[derive(Debug, Clone, Copy, Default)]
struct JointOffsets {
    /// The joint's record.
    head: u64,
    /// Its first position key.
    position_keys: u64,
}

/// Byte offsets of a model's parts in the file it is (or would be)
/// written to. MS3D sections have variable sizes, so offsets are found by
/// walking the sizes in file order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Offsets {
    /// The first vertex.
    vertices: u64,
    /// The first triangle.
    triangles: u64,
    /// Each group.
    groups: Vec<u64>,
    /// The keyframer settings.
    keyframer: u64,
    /// Each joint.
    joints: Vec<JointOffsets>,
}

impl Offsets {
    /// The offsets of `model`'s parts.
    pub(crate) fn new(model: &Ms3d) -> Offsets {
        let count = COUNT_SIZE as u64;
        let mut o = Offsets::default();
        let mut at = HEADER_SIZE as u64 + count;
        o.vertices = at;
        at += bytes(model.vertices.len(), vertex::SIZE) + count;
        o.triangles = at;
        at += bytes(model.triangles.len(), triangle::SIZE) + count;
        for g in &model.groups {
            o.groups.push(at);
            at += group::size(g.triangles.len()) as u64;
        }
        at += count + bytes(model.materials.len(), material::SIZE);
        o.keyframer = at;
        at += keyframer::SIZE as u64 + count;
        for j in &model.joints {
            o.joints.push(JointOffsets {
                head: at,
                position_keys: at + joint::KEYS as u64 + bytes(j.rotation_keys.len(), key::SIZE),
            });
            at += joint::size(j.rotation_keys.len(), j.position_keys.len()) as u64;
        }
        o
    }

    /// Offset of `field` (a [`vertex`] offset) of vertex `i`.
    pub(crate) fn vertex(&self, i: usize, field: usize) -> u64 {
        self.vertices + bytes(i, vertex::SIZE) + field as u64
    }

    /// Offset of `field` (a [`triangle`] offset) of triangle `i`.
    pub(crate) fn triangle(&self, i: usize, field: usize) -> u64 {
        self.triangles + bytes(i, triangle::SIZE) + field as u64
    }

    /// Offset of `field` (a [`group`] offset) of group `i`.
    pub(crate) fn group(&self, i: usize, field: usize) -> u64 {
        self.groups.get(i).copied().unwrap_or(0) + field as u64
    }

    /// Offset of `field` (a [`keyframer`] offset) of the keyframer
    /// settings.
    pub(crate) fn keyframer(&self, field: usize) -> u64 {
        self.keyframer + field as u64
    }

    /// Offset of `field` (a [`joint`] offset) of joint `i`.
    pub(crate) fn joint(&self, i: usize, field: usize) -> u64 {
        self.joints.get(i).map_or(0, |j| j.head) + field as u64
    }

    /// Offset of joint `i`'s rotation key `k`.
    pub(crate) fn rotation_key(&self, i: usize, k: usize) -> u64 {
        self.joint(i, joint::KEYS) + bytes(k, key::SIZE)
    }

    /// Offset of joint `i`'s position key `k`.
    pub(crate) fn position_key(&self, i: usize, k: usize) -> u64 {
        self.joints.get(i).map_or(0, |j| j.position_keys) + bytes(k, key::SIZE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms3d::sample::sample_model;

    #[test]
    fn offsets_match_the_written_file() {
        let mut model = sample_model();
        model.extras = Default::default();
        model.trailing.clear();
        let bytes = model.to_bytes().unwrap();
        let o = Offsets::new(&model);
        assert_eq!(o.vertex(0, 0), 16);
        assert_eq!(o.vertex(0, 0) as usize, HEADER_SIZE + COUNT_SIZE);
        // The last joint's keys end where the file does.
        let last = model.joints.len() - 1;
        let end = o.position_key(last, model.joints[last].position_keys.len());
        assert_eq!(end, bytes.len() as u64);
        assert_eq!(end, core_size(&model));
        // Fields are where the reader finds them.
        let at = o.joint(1, joint::PARENT) as usize;
        assert_eq!(&bytes[at..at + 32], &model.joints[1].parent.0);
        let at = o.keyframer(keyframer::FPS) as usize;
        assert_eq!(bytes[at..at + 4], model.fps.to_le_bytes());
        let at = o.triangle(3, triangle::GROUP) as usize;
        assert_eq!(bytes[at], model.triangles[3].group);
    }

    #[test]
    fn file_size_is_the_written_size() {
        let mut model = sample_model();
        assert!(model.extras.model.is_some());
        assert_eq!(file_size(&model), model.to_bytes().unwrap().len() as u64);
        model.trailing.extend_from_slice(b"more");
        let comments = model.extras.comments.as_mut().unwrap();
        comments.model = ModelComment::IndexLengthText {
            index: 0,
            text: b"text".to_vec(),
        };
        model.extras.vertices.as_mut().unwrap().record_size = 6;
        assert_eq!(file_size(&model), model.to_bytes().unwrap().len() as u64);
    }
}
