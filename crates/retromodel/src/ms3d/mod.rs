//! MilkShape 3D MS3D models: read, validate, write, animate and skin.
//!
//! An [`Ms3d`] mirrors the file: every core section of versions 3 and 4,
//! the MilkShape 1.8 "subversion" extras in whatever shape the file has
//! them (comments, vertex weights, joint colours, model extras, each
//! optional), raw names and any unknown trailing bytes, so that
//! [`Ms3d::to_bytes`] reproduces what [`Ms3d::from_bytes`] read.
//!
//! Skeletal animation follows MilkShape's own model viewer exactly (see
//! [`Skeleton`]); skinning follows its vertex weights (see
//! [`Influences`]).
//!
//! ```
//! use retromodel::ms3d::{Ms3d, Skeleton, Influences};
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! # let bytes = retromodel::ms3d::sample::sample_model().to_bytes()?;
//! let model = Ms3d::from_bytes(&bytes)?;
//! assert_eq!(model.to_bytes()?, bytes);
//!
//! let skeleton = Skeleton::new(&model)?;
//! let influences = Influences::new(&model);
//! let mut joints = vec![glam::Mat4::IDENTITY; skeleton.joint_count()];
//! let mut positions = vec![[0.0f32; 3]; model.vertices.len()];
//! skeleton.pose_at_time(0.5, &mut joints);
//! skeleton.skinning_matrices(&mut joints);
//! influences.skin_positions(&model, &joints, &mut positions);
//! # Ok(()) }
//! ```

pub mod ascii;
mod clip;
#[cfg(feature = "scene")]
pub mod compile;
mod extras;
mod hierarchy;
mod info;
mod layout;
#[cfg(feature = "scene")]
mod lift;
mod mesh;
mod milkshape;
mod read;
pub mod sample;
mod skeleton;
mod skin;
#[cfg(feature = "scene")]
pub(crate) mod stored;
mod validate;
mod write;

pub use clip::{clip_line, parse_clip_line, with_clip_line, Clip, CLIP_LINE_PREFIX};
pub use info::{ClipInfo, ExtrasInfo, GroupInfo, Info, MaterialInfo};
#[cfg(feature = "scene")]
pub use lift::{ms3d_axes, Ms3dSceneOptions};
#[cfg(feature = "scene")]
pub(crate) use lift::{REMAINDER_NOTE, STATIC_NOTE};
pub use mesh::{GroupMesh, SkinnedVertex};
#[cfg(feature = "scene")]
pub(crate) use skeleton::euler_to_quat;
pub use skeleton::Skeleton;
pub use skin::{Influence, Influences};

/// The ten bytes every MS3D file starts with.
pub const MAGIC: [u8; 10] = *b"MS3D000000";

/// MilkShape 1.8's limits (its SDK's `MS3DFile.h`, see
/// [`Ms3d::validate_for_milkshape`]); `validate` warns beyond them,
/// `validate_for_milkshape` refuses.
pub mod limits {
    /// Most bytes of a group, material or joint name (32 with the NUL).
    pub const NAME: usize = 31;
    /// Most bytes of a texture or alpha map path (128 with the NUL).
    pub const PATH: usize = 127;
    /// Most keys in one key list (the file's 16-bit count).
    pub const KEYS: usize = 65535;
    /// Most vertices.
    pub const VERTICES: usize = 65534;
    /// Most triangles.
    pub const TRIANGLES: usize = 65534;
    /// Most groups.
    pub const GROUPS: usize = 255;
    /// Most materials.
    pub const MATERIALS: usize = 128;
    /// Most joints.
    pub const JOINTS: usize = 128;
}

/// A 32-byte name field (groups, materials, joints) as stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name32(pub [u8; 32]);

/// A 128-byte path field (material texture and alpha map) as stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name128(pub [u8; 128]);

fixed_name!(Name32, 32);
fixed_name!(Name128, 128);

/// A vertex: 15 bytes in the file.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vertex {
    /// Editor flags (1 selected, 2 hidden, 4 selected2, 8 dirty).
    pub flags: u8,
    /// Position in model space (the bind pose).
    pub position: [f32; 3],
    /// Index of the joint that moves this vertex, −1 for none.
    pub bone_id: i8,
    /// How many triangles use the vertex (informational).
    pub reference_count: u8,
}

/// A triangle: 70 bytes in the file.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Triangle {
    /// Editor flags.
    pub flags: u16,
    /// Indices into [`Ms3d::vertices`].
    pub vertices: [u16; 3],
    /// One normal per corner.
    pub normals: [[f32; 3]; 3],
    /// Horizontal texture coordinate per corner.
    pub s: [f32; 3],
    /// Vertical texture coordinate per corner (top-down).
    pub t: [f32; 3],
    /// Smoothing group (1–32, 0 none).
    pub smoothing_group: u8,
    /// Index of the group the triangle belongs to.
    pub group: u8,
}

/// A named set of triangles drawn with one material.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Group {
    /// Editor flags.
    pub flags: u8,
    /// Name.
    pub name: Name32,
    /// Indices into [`Ms3d::triangles`].
    pub triangles: Vec<u16>,
    /// Index into [`Ms3d::materials`], −1 for none.
    pub material: i8,
}

/// A material: 361 bytes in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Material {
    /// Name.
    pub name: Name32,
    /// Ambient colour, RGBA.
    pub ambient: [f32; 4],
    /// Diffuse colour, RGBA.
    pub diffuse: [f32; 4],
    /// Specular colour, RGBA.
    pub specular: [f32; 4],
    /// Emissive colour, RGBA.
    pub emissive: [f32; 4],
    /// Specular exponent, 0–128.
    pub shininess: f32,
    /// Opacity, 0 (clear) – 1 (opaque).
    pub transparency: f32,
    /// Mode flags (0x80 sphere map, 0x40 has alpha, 0x20 combine alpha).
    pub mode: u8,
    /// Texture path.
    pub texture: Name128,
    /// Alpha map path.
    pub alphamap: Name128,
}

/// An animation key: a time in seconds and a value (Euler angles in
/// radians for rotations, an offset for positions).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Key {
    /// Time in seconds.
    pub time: f32,
    /// The key's value.
    pub value: [f32; 3],
}

/// A joint of the skeleton with its animation keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Joint {
    /// Editor flags.
    pub flags: u8,
    /// Name.
    pub name: Name32,
    /// Name of the parent joint; empty (or unknown) for a root.
    pub parent: Name32,
    /// Bind rotation, Euler angles in radians (`R = Rz·Ry·Rx`).
    pub rotation: [f32; 3],
    /// Bind position relative to the parent.
    pub position: [f32; 3],
    /// Rotation keys, in the joint's bind frame.
    pub rotation_keys: Vec<Key>,
    /// Position keys, in the joint's bind frame.
    pub position_keys: Vec<Key>,
}

/// A comment attached to a group, material or joint.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comment {
    /// Index of the group, material or joint.
    pub index: i32,
    /// The text as stored (no NUL).
    pub text: Vec<u8>,
}

/// How the model comment is stored. Two layouts exist in the wild; the
/// reader decides which one a file uses by which leaves a consistent rest
/// of file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelComment {
    /// No model comment; the flag as stored (normally 0).
    None(i32),
    /// `{i32 length, text}`: MilkShape SDK 1.8.5 and its viewer (the form
    /// this crate writes for new comments).
    LengthText(Vec<u8>),
    /// `{i32 index, i32 length, text}`: as the 1.8.2 specification text
    /// implies.
    IndexLengthText {
        /// The stored index (normally 0).
        index: i32,
        /// The text.
        text: Vec<u8>,
    },
}

impl ModelComment {
    /// The comment's text, if there is one.
    pub fn text(&self) -> Option<&[u8]> {
        match self {
            ModelComment::None(_) => None,
            ModelComment::LengthText(t) | ModelComment::IndexLengthText { text: t, .. } => Some(t),
        }
    }
}

/// The first 1.8 extra: comments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comments {
    /// The stored subversion (1).
    pub subversion: i32,
    /// Group comments.
    pub groups: Vec<Comment>,
    /// Material comments.
    pub materials: Vec<Comment>,
    /// Joint comments.
    pub joints: Vec<Comment>,
    /// The model comment.
    pub model: ModelComment,
}

/// Per-vertex skinning data (second 1.8 extra).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VertexExtra {
    /// Three more joint indices, −1 for none.
    pub bone_ids: [i8; 3],
    /// Weights in percent: `weights[0]` for the vertex's own bone,
    /// `weights[1]` for `bone_ids[0]`, `weights[2]` for `bone_ids[1]`; the
    /// rest of 100 goes to `bone_ids[2]`. All zero means 100 % own bone.
    pub weights: [u8; 3],
    /// Extra words (subversion 2 has one, subversion 3 two).
    pub extra: [u32; 2],
}

/// The second 1.8 extra: vertex weights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexExtras {
    /// The stored subversion (1, 2 or 3).
    pub subversion: i32,
    /// Bytes per record: 6 (subversion 1), 10 (2, and 3 as some writers
    /// store it) or 14 (3).
    pub record_size: usize,
    /// One record per vertex.
    pub records: Vec<VertexExtra>,
}

/// The third 1.8 extra: joint colours.
#[derive(Debug, Clone, PartialEq)]
pub struct JointExtras {
    /// The stored subversion (1; some writers store 2).
    pub subversion: i32,
    /// One RGB colour per joint.
    pub colors: Vec<[f32; 3]>,
}

/// The fourth 1.8 extra: model settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelExtras {
    /// The stored subversion (1).
    pub subversion: i32,
    /// Display size of joints.
    pub joint_size: f32,
    /// 0 simple, 1 depth-buffered with alpha reference, 2 depth-sorted.
    pub transparency_mode: i32,
    /// Alpha reference value.
    pub alpha_ref: f32,
}

/// The optional 1.8 extras after the joints; each part is present only if
/// the file has it (a file may end after any part).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extras {
    /// Comments.
    pub comments: Option<Comments>,
    /// Vertex weights.
    pub vertices: Option<VertexExtras>,
    /// Joint colours.
    pub joints: Option<JointExtras>,
    /// Model settings.
    pub model: Option<ModelExtras>,
}

/// A MilkShape 3D model, as stored in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ms3d {
    /// File version (3 or 4).
    pub version: i32,
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
    /// Groups.
    pub groups: Vec<Group>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Animation frames per second.
    pub fps: f32,
    /// The editor's current time.
    pub current_time: f32,
    /// Length of the timeline in frames.
    pub total_frames: i32,
    /// Joints.
    pub joints: Vec<Joint>,
    /// The 1.8 extras.
    pub extras: Extras,
    /// Bytes after everything this crate understands, kept for a lossless
    /// rewrite.
    pub trailing: Vec<u8>,
}

impl Ms3d {
    /// The model comment's text (lossily decoded), if any.
    pub fn model_comment(&self) -> Option<String> {
        let c = self.extras.comments.as_ref()?;
        c.model
            .text()
            .map(|t| String::from_utf8_lossy(t).into_owned())
    }

    /// The frame rate the viewer animates at: the stored fps, or 1 when it
    /// is below 1 (as MilkShape's viewer clamps it).
    pub fn effective_fps(&self) -> f32 {
        if self.fps >= 1.0 {
            self.fps
        } else {
            1.0
        }
    }
}
