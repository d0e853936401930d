//! Inter-Quake Models (`INTERQUAKEMODEL`, version 2): the types that
//! mirror the file.
//!
//! An [`Iqm`] keeps everything the file holds: the string table as
//! stored (every name is a byte offset into it), the meshes, every vertex
//! array with its bytes in their own format (positions as floats, blend
//! indexes as bytes, half floats, custom arrays named in the text), the
//! triangles and their adjacency, the joints, the poses, the animations,
//! the 16-bit frame channels, the per-frame bounds, the comment and the
//! extensions. The header's fields as stored and every byte no section
//! covers are kept too, so that [`Layout::Original`] rewrites a file read
//! byte for byte; [`Layout::Standard`] lays the sections out as
//! lsalzman/iqm's reference compiler does (`iqm.cpp`, `writeiqm`).
//!
//! The layout is lsalzman/iqm's `iqm.txt` and `iqm.h`.
//!
//! ```
//! use retromodel::iqm::{Iqm, Layout};
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let model = retromodel::iqm::sample::sample_model();
//! let bytes = model.to_bytes_with(Layout::Standard)?;
//! let read = Iqm::from_bytes(&bytes)?;
//! assert_eq!(read.vertex_count(), 3);
//! assert_eq!(read.name(read.anims[0].name), "wave");
//! assert!(read.validate().is_empty());
//! assert_eq!(read.to_bytes()?, bytes);
//! # Ok(()) }
//! ```

mod adjacency;
#[cfg(feature = "scene")]
mod carried;
#[cfg(feature = "scene")]
pub mod compile;
mod engine;
mod framegroups;
mod info;
pub mod iqe;
#[cfg(feature = "scene")]
mod lift;
mod lod;
mod pose;
mod poser;
mod quantise;
mod read;
pub mod sample;
mod validate;
mod vertex_array;
mod write;

pub use adjacency::compute_adjacency;
pub use engine::{
    IOQUAKE3_MAX_JOINTS, MAX_BONES, MAX_FILESIZE, MAX_RELATIVE_INDEX, QSS_GPU_BONES,
    QSS_MAX_VERTEXES, RAYLIB_NAME_BYTES, SHADER_MAX_INDEXES, SHADER_MAX_VERTEXES,
};
pub use framegroups::{
    parse_framegroups, FrameGroup, DEFAULT_FPS as FRAMEGROUPS_DEFAULT_FPS, MAX_FRAMEGROUPS,
    MAX_FRAMEGROUPS_BYTES,
};
pub use info::{AnimInfo, ArrayInfo, Info, MeshInfo};
#[cfg(feature = "scene")]
pub use lift::{iqm_axes, DEFAULT_FPS, MAX_JOINT_FRAMES};
pub use lod::lod_file_names;
pub use pose::{FramePose, JointTransform};
pub use poser::Poser;
pub use vertex_array::{ArrayFormat, ArrayKind};
pub use write::Layout;

/// The sixteen bytes an IQM starts with.
pub const MAGIC: [u8; 16] = *b"INTERQUAKEMODEL\0";
/// The version this crate reads and writes.
pub const VERSION: u32 = 2;
/// Size of the header (`iqmheader`).
pub const HEADER_SIZE: usize = 124;
/// Size of one mesh (`iqmmesh`).
pub const MESH_SIZE: usize = 24;
/// Size of one vertex array record (`iqmvertexarray`).
pub const VERTEX_ARRAY_SIZE: usize = 20;
/// Size of one triangle (`iqmtriangle`), and of one adjacency record.
pub const TRIANGLE_SIZE: usize = 12;
/// Size of one joint (`iqmjoint`, version 2).
pub const JOINT_SIZE: usize = 48;
/// Size of one pose (`iqmpose`, version 2).
pub const POSE_SIZE: usize = 88;
/// Size of one animation (`iqmanim`).
pub const ANIM_SIZE: usize = 20;
/// Size of one frame's bounds (`iqmbounds`).
pub const BOUNDS_SIZE: usize = 32;
/// Size of one extension record (`iqmextension`).
pub const EXTENSION_SIZE: usize = 16;
/// The animation flag that makes it loop (`IQM_LOOP`).
pub const LOOP: u32 = 1;
/// Channels per pose: translation x y z, rotation x y z w, scale x y z.
pub const CHANNELS: usize = 10;
/// "No neighbouring triangle" in the adjacency (`~0`).
pub const NO_NEIGHBOUR: u32 = u32::MAX;

/// A mesh: a run of vertices and a run of triangles drawn with one
/// material (`iqmmesh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mesh {
    /// The mesh's name: an offset into [`Iqm::text`].
    pub name: u32,
    /// The material (or texture) name: an offset into [`Iqm::text`].
    pub material: u32,
    /// The first vertex.
    pub first_vertex: u32,
    /// How many vertices.
    pub num_vertexes: u32,
    /// The first triangle.
    pub first_triangle: u32,
    /// How many triangles.
    pub num_triangles: u32,
}

/// One vertex array: one attribute of every vertex, in its stored format
/// (`iqmvertexarray` and the bytes it points at).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VertexArray {
    /// The type as stored: [`ArrayKind`] tells what it means (a custom
    /// array's name is at `type − 0x10` in the text).
    pub kind: u32,
    /// The flags as stored (no flag is defined).
    pub flags: u32,
    /// The component format as stored ([`ArrayFormat`]).
    pub format: u32,
    /// Components per vertex.
    pub size: u32,
    /// The offset the file stored (used by [`Layout::Original`]).
    pub offset: u32,
    /// `num_vertexes × size` components, little-endian, as stored.
    pub data: Vec<u8>,
}

/// A joint of the skeleton in its bind pose (`iqmjoint`, version 2).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Joint {
    /// Name: an offset into [`Iqm::text`].
    pub name: u32,
    /// The parent joint, before this one; negative for a root.
    pub parent: i32,
    /// Translation relative to the parent.
    pub translate: [f32; 3],
    /// Rotation relative to the parent, a quaternion `[x, y, z, w]`.
    pub rotate: [f32; 4],
    /// Scale, applied first.
    pub scale: [f32; 3],
}

/// How one joint's ten channels are stored in every frame (`iqmpose`,
/// version 2): channel `c` is `offset[c]`, plus `frame value × scale[c]`
/// when bit `c` of the mask is set (that channel then takes one 16-bit
/// value in each frame).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose {
    /// The parent pose; negative for a root.
    pub parent: i32,
    /// Which of the ten channels each frame stores.
    pub mask: u32,
    /// Each channel's offset.
    pub channel_offset: [f32; CHANNELS],
    /// Each channel's scale.
    pub channel_scale: [f32; CHANNELS],
}

/// A named run of frames (`iqmanim`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Anim {
    /// Name: an offset into [`Iqm::text`].
    pub name: u32,
    /// The first frame.
    pub first_frame: u32,
    /// How many frames.
    pub num_frames: u32,
    /// Frames per second.
    pub framerate: f32,
    /// Flags ([`LOOP`]).
    pub flags: u32,
}

impl Anim {
    /// Whether the animation loops ([`LOOP`]).
    pub fn loops(&self) -> bool {
        self.flags & LOOP != 0
    }
}

/// One frame's bounds (`iqmbounds`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// Smallest corner.
    pub min: [f32; 3],
    /// Largest corner.
    pub max: [f32; 3],
    /// Radius in the X-Y plane.
    pub xy_radius: f32,
    /// Radius.
    pub radius: f32,
}

/// An extension (`iqmextension`): a name and bytes no engine this crate
/// knows reads, kept as stored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extension {
    /// Name: an offset into [`Iqm::text`].
    pub name: u32,
    /// Its data.
    pub data: Vec<u8>,
    /// Where its record was (used by [`Layout::Original`]).
    pub offset: u32,
    /// Where its data was, as stored.
    pub data_offset: u32,
    /// The next extension's offset, as stored.
    pub next: u32,
}

/// The header's fields after the magic, as stored: what
/// [`Layout::Original`] writes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// `version`.
    pub version: u32,
    /// `filesize`.
    pub filesize: u32,
    /// The offsets, in file order: `ofs_text`, `ofs_meshes`,
    /// `ofs_vertexarrays`, `ofs_triangles`, `ofs_adjacency`, `ofs_joints`,
    /// `ofs_poses`, `ofs_anims`, `ofs_frames`, `ofs_bounds`,
    /// `ofs_comment`, `ofs_extensions`.
    pub offsets: [u32; 12],
    /// The length of the file read (0 for a model not read from one).
    pub file_len: u64,
}

pub use crate::claims::Unclaimed;

/// An Inter-Quake Model as stored.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Iqm {
    /// The header's flags (none defined).
    pub flags: u32,
    /// The string table as stored: NUL-terminated strings, the first one
    /// empty; names are offsets into it ([`Iqm::name`]).
    pub text: Vec<u8>,
    /// Meshes.
    pub meshes: Vec<Mesh>,
    /// Vertices in every array (`num_vertexes`).
    pub num_vertexes: u32,
    /// The vertex arrays, in stored order.
    pub vertex_arrays: Vec<VertexArray>,
    /// Triangles: three vertex indices each.
    pub triangles: Vec<[u32; 3]>,
    /// The neighbouring triangle across each triangle's edges (edge `k`
    /// runs from vertex `k` to `k + 1`), [`NO_NEIGHBOUR`] for none;
    /// `None` when the file has no adjacency.
    pub adjacency: Option<Vec<[u32; 3]>>,
    /// Joints, parents first.
    pub joints: Vec<Joint>,
    /// Poses: one per joint in a model with both.
    pub poses: Vec<Pose>,
    /// Animations.
    pub anims: Vec<Anim>,
    /// Frames (`num_frames`).
    pub num_frames: u32,
    /// 16-bit values per frame (`num_framechannels`).
    pub num_framechannels: u32,
    /// `num_frames × num_framechannels` values, frame by frame.
    pub frames: Vec<u16>,
    /// Each frame's bounds; `None` when the file has none.
    pub bounds: Option<Vec<Bounds>>,
    /// The comment's bytes as stored.
    pub comment: Vec<u8>,
    /// Extensions, in their list's order.
    pub extensions: Vec<Extension>,
    /// The header as read, for [`Layout::Original`].
    pub header: Header,
    /// Bytes no section covers, for [`Layout::Original`].
    pub unclaimed: Vec<Unclaimed>,
}

impl Iqm {
    /// The string at `offset` in the text, up to its NUL, decoded lossily;
    /// empty when the offset is outside the text.
    pub fn name(&self, offset: u32) -> String {
        String::from_utf8_lossy(self.name_bytes(offset)).into_owned()
    }

    /// The bytes of the string at `offset`, up to its NUL (or the text's
    /// end); empty outside the text.
    pub fn name_bytes(&self, offset: u32) -> &[u8] {
        let Some(rest) = self.text.get(offset as usize..) else {
            return &[];
        };
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        &rest[..end]
    }

    /// Adds `name` to the text (reusing an equal string already there)
    /// and returns its offset; the empty name is offset 0.
    pub fn intern(&mut self, name: &str) -> u32 {
        if self.text.is_empty() {
            self.text.push(0);
        }
        if name.is_empty() {
            return 0;
        }
        let mut at = 0;
        while at < self.text.len() {
            let end = self.text[at..]
                .iter()
                .position(|&b| b == 0)
                .map_or(self.text.len(), |e| at + e);
            if &self.text[at..end] == name.as_bytes() {
                return at as u32;
            }
            at = end + 1;
        }
        let offset = self.text.len() as u32;
        self.text.extend_from_slice(name.as_bytes());
        self.text.push(0);
        offset
    }

    /// Vertices in the model.
    pub fn vertex_count(&self) -> usize {
        self.num_vertexes as usize
    }

    /// The first array of `kind`, if any.
    pub fn array(&self, kind: ArrayKind) -> Option<&VertexArray> {
        self.vertex_arrays
            .iter()
            .find(|a| ArrayKind::of(a.kind) == kind)
    }

    /// Whether the file holds animations but no mesh (raylib's
    /// `guyanim.iqm`): animations to apply to a model with the same joints.
    pub fn is_animation_only(&self) -> bool {
        self.meshes.is_empty() && self.num_vertexes == 0 && !self.anims.is_empty()
    }

    /// The name of a custom array's kind, or the standard kind's name.
    pub fn array_name(&self, array: &VertexArray) -> String {
        match ArrayKind::of(array.kind) {
            ArrayKind::Custom(offset) => self.name(offset),
            kind => kind.to_string(),
        }
    }
}
