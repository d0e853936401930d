//! Quake II MD2 models: read, validate, write, decode and animate.
//!
//! An [`Md2`] mirrors the file: raw skin and frame names, texture
//! coordinates, triangles, 8-bit packed frames and the GL command list as
//! stored, plus any bytes after the end of the data, so that
//! [`Md2::to_bytes`] can reproduce what [`Md2::from_bytes`] read.
//!
//! ```
//! use retromodel::md2::Md2;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let bytes = retromodel::md2::sample::sample_model().to_bytes()?;
//! let model = Md2::from_bytes(&bytes)?;
//! assert_eq!(model.to_bytes()?, bytes);
//!
//! // Decode frame 0 into a caller-provided buffer.
//! let mut positions = vec![[0.0f32; 3]; model.vertex_count()];
//! model.frames[0].decode_positions(&mut positions);
//!
//! // Animations come from the frame names.
//! for anim in model.animations() {
//!     println!("{} frames {}..{}", anim.name, anim.first_frame, anim.first_frame + anim.frame_count);
//! }
//! # Ok(()) }
//! ```

mod animation;
#[cfg(feature = "scene")]
pub mod compile;
mod decode;
mod encode;
mod engine;
pub mod gl_commands;
mod gzdoom;
mod header;
mod info;
#[cfg(feature = "scene")]
mod lift;
mod loaders;
mod mesh;
mod q2pro_memory;
mod read;
mod repair;
pub mod sample;
mod validate;
mod write;

pub use crate::quake::vertex_normals;
pub use crate::quake::{nearest_normal_index, normal, NORMALS, NORMAL_COUNT};
pub use animation::{
    animations_from_names, Animation, DEFAULT_FPS, PLAYER_ANIMATIONS, WEAPON_FRAME_COUNT,
};
pub use encode::encode_frame;
pub use engine::{Engine, EngineLimits};
pub use gzdoom::gzdoom_problems;
pub use header::Header;
pub use info::{AnimationInfo, Info};
#[cfg(feature = "scene")]
pub use lift::{md2_axes, Md2SceneOptions};
pub use mesh::{MeshVertex, RenderMesh};
pub use repair::RepairReport;
pub use write::Layout;

/// The four bytes every MD2 file starts with.
pub const MAGIC: [u8; 4] = *b"IDP2";
/// The only MD2 version.
pub const VERSION: i32 = 8;
/// Size of the header in bytes.
pub const HEADER_SIZE: usize = 68;
/// Size of one skin name record.
pub const SKIN_NAME_SIZE: usize = 64;
/// Size of one texture coordinate record.
pub const TEXCOORD_SIZE: usize = 4;
/// Size of one triangle record.
pub const TRIANGLE_SIZE: usize = 12;
/// Size of a frame's header (scale, translate, name), before its vertices.
pub const FRAME_HEADER_SIZE: usize = 40;
/// Size of one packed vertex.
pub const VERTEX_SIZE: usize = 4;

/// The limits of id's Quake II engine. Files beyond them load in some
/// engines (Q2PRO allows 1024 frames and 6144 triangles) but not in the
/// original; `validate` warns about them and the writer refuses them unless
/// told otherwise.
pub mod limits {
    /// Most triangles.
    pub const TRIANGLES: usize = 4096;
    /// Most vertices per frame.
    pub const VERTICES: usize = 2048;
    /// Most frames.
    pub const FRAMES: usize = 512;
    /// Most skins.
    pub const SKINS: usize = 32;
    /// Tallest skin in pixels.
    pub const SKIN_HEIGHT: i32 = 480;
}

/// A 64-byte skin path as stored: NUL-terminated, or exactly 64 bytes with
/// no NUL. Bytes after the NUL are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SkinName(pub [u8; SKIN_NAME_SIZE]);

/// A 16-byte frame name as stored. Bytes after the NUL (stale data from the
/// exporter) are kept for a byte-exact rewrite.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameName(pub [u8; 16]);

fixed_name!(SkinName, SKIN_NAME_SIZE);
fixed_name!(FrameName, 16);

/// A texture coordinate in skin pixels (may lie outside the skin).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TexCoord {
    /// Horizontal pixel.
    pub s: i16,
    /// Vertical pixel, top-down.
    pub t: i16,
}

/// A triangle: three vertex indices and three texture coordinate indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Triangle {
    /// Indices into each frame's vertices.
    pub vertices: [u16; 3],
    /// Indices into [`Md2::texcoords`].
    pub texcoords: [u16; 3],
}

/// A vertex packed in 4 bytes: position bytes scaled by the frame's scale
/// and translate, and an index into [`NORMALS`].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PackedVertex {
    /// Compressed x, y, z.
    pub position: [u8; 3],
    /// Index into [`NORMALS`]; 162 and above are corrupt.
    pub normal_index: u8,
}

/// One keyframe.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    /// Per-axis scale of the packed positions.
    pub scale: [f32; 3],
    /// Per-axis offset of the packed positions.
    pub translate: [f32; 3],
    /// The raw 16-byte name.
    pub name: FrameName,
    /// The packed vertices, one per model vertex.
    pub vertices: Vec<PackedVertex>,
    /// Bytes between the last vertex and the next frame, when the header's
    /// frame size is larger than the vertices need (kept for a lossless
    /// rewrite; normally empty).
    pub padding: Vec<u8>,
}

/// An MD2 model, as stored in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md2 {
    /// Skin width in pixels, used to normalise texture coordinates.
    pub skin_width: i32,
    /// Skin height in pixels.
    pub skin_height: i32,
    /// Skin paths.
    pub skins: Vec<SkinName>,
    /// Texture coordinates in skin pixels.
    pub texcoords: Vec<TexCoord>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
    /// Keyframes; each has [`Md2::vertex_count`] vertices.
    pub frames: Vec<Frame>,
    /// The GL command list as stored, one 32-bit word each (texture
    /// coordinates are `f32` bit patterns). Decode it with
    /// [`gl_commands::decode`].
    pub gl_commands: Vec<u32>,
    /// Bytes after the end of the data (after `ofs_end`, or after the last
    /// section), kept so a rewrite loses nothing.
    pub trailing: Vec<u8>,
    /// How the file this model was read from was laid out; `None` for a
    /// model built in memory.
    pub source: Option<SourceLayout>,
    /// Number of vertices in every frame. Stored separately so that a
    /// model without frames keeps it.
    pub num_vertices: usize,
}

/// How a file was laid out, kept so it can be reproduced exactly (see
/// [`Layout::Original`]) and so problems can be reported at their offsets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceLayout {
    /// The header as read.
    pub header: Header,
    /// Length of the file.
    pub file_len: u64,
    /// Bytes of the file that belong to no section (between sections), as
    /// `(offset, bytes)`.
    pub gaps: Vec<(u64, Vec<u8>)>,
}

impl Md2 {
    /// Number of vertices each frame holds: the size of the buffers that
    /// decoding and [`Md2::interpolate`] fill. 0 for a model without
    /// frames, whatever its header claims (a header alone cannot justify a
    /// buffer).
    pub fn vertex_count(&self) -> usize {
        if self.frames.is_empty() {
            0
        } else {
            self.num_vertices
        }
    }

    /// Offset of the frames section in the file this model came from, or
    /// in the standard layout for a model built in memory.
    pub(crate) fn layout_offsets(&self) -> Header {
        match &self.source {
            Some(src) => src.header,
            None => write::standard_header(self),
        }
    }

    /// Bytes one frame takes in the file.
    pub(crate) fn frame_size(&self) -> usize {
        FRAME_HEADER_SIZE
            + VERTEX_SIZE * self.num_vertices
            + self.frames.first().map_or(0, |f| f.padding.len())
    }
}
