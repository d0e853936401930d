//! Quake MDL models (`IDPO` version 6) and Hexen II's variant (`RAPO`
//! version 50): the types that mirror the file.
//!
//! An [`Mdl`] keeps everything the file holds: the header's fields as
//! stored, palette-indexed skins (single and grouped, with their
//! intervals), per-vertex texture coordinates with the onseam flag,
//! triangles with their facesfront flag, single and grouped frames with
//! their bounding boxes, raw 16-byte names and intervals, and any bytes
//! after the last frame, so that a rewrite reproduces the file.
//!
//! Unlike MD2, every frame shares **one** scale and origin (the header's):
//! a vertex's position is `byte × scale + origin`.
//!
//! ```
//! use retromodel::mdl::{Mdl, TriVertex};
//!
//! let v = TriVertex { position: [0, 128, 255], normal_index: 5 };
//! let mdl = Mdl { scale: [0.5, 1.0, 2.0], origin: [-10.0, 0.0, 0.0], ..Mdl::default() };
//! assert_eq!(mdl.decode_position(v), [-10.0, 128.0, 510.0]);
//! ```

#[cfg(all(feature = "scene", feature = "textures"))]
pub mod compile;
mod engine;
mod external;
mod info;
#[cfg(feature = "scene")]
mod lift;
mod read;
mod repair;
pub mod rerelease;
mod validate;
mod write;

pub use engine::{Engine, GroupTiming, Limit, MdlEngineLimits, Over};
pub use external::external_skin_files;

pub use info::{flag_names, AnimationInfo, GroupInfo, Info, SkinInfo};
#[cfg(feature = "scene")]
pub use lift::{
    mdl_axes, MdlSceneOptions, DEFAULT_FPS, FLAG_HOLEY, MAX_MORPH_BYTES, MDL_KEY, VERTEX_ATTRIBUTE,
};
pub use repair::RepairReport;
pub use validate::MAX_SKIN_HEIGHT;
pub use write::Layout;

/// The four bytes a Quake MDL starts with.
pub const MAGIC_QUAKE: [u8; 4] = *b"IDPO";
/// Quake's MDL version.
pub const VERSION_QUAKE: i32 = 6;
/// The four bytes a Hexen II MDL starts with.
pub const MAGIC_HEXEN2: [u8; 4] = *b"RAPO";
/// Hexen II's MDL version (`ALIAS_NEWVERSION` in its `genmodel.h`).
pub const VERSION_HEXEN2: i32 = 50;
/// The four bytes a QuakeForge 16-bit MDL starts with (FTE
/// `engine/common/com_mesh.c`, `Mod_LoadQ1Model`: `sixteenbit`).
pub const MAGIC_QUAKEFORGE16: [u8; 4] = *b"MD16";
/// QTest's MDL version (`QTESTALIAS_VERSION` in FTE's
/// `engine/client/modelgen.h`).
pub const VERSION_QTEST: i32 = 3;
/// Size of the QTest header in bytes (Quake's without `flags` and `size`).
pub const HEADER_SIZE_QTEST: usize = 76;
/// Size of the Quake header in bytes (Hexen II's adds one `i32`).
pub const HEADER_SIZE_QUAKE: usize = 84;
/// Size of the Hexen II header in bytes.
pub const HEADER_SIZE_HEXEN2: usize = 88;
/// The onseam flag as id's tools write it (`ALIAS_ONSEAM`); loaders test
/// for any non-zero value.
pub const ONSEAM: i32 = 0x20;
/// The facesfront flag as id's tools write it (`DT_FACES_FRONT`); loaders
/// test for any non-zero value.
pub const FACES_FRONT: i32 = 0x10;
/// The first fullbright palette index (224..=255 are drawn unlit).
pub const FIRST_FULLBRIGHT: u8 = 224;

/// Which variant of the format a model is stored as.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Quake's `IDPO` version 6: texture coordinates are per vertex.
    #[default]
    Quake,
    /// Hexen II's `RAPO` version 50: a count of texture coordinates after
    /// the header, and triangles that index vertices and texture
    /// coordinates separately (16-bit indices).
    Hexen2,
    /// QuakeForge's 16-bit MDL (`MD16` version 6), read by FTE
    /// (`engine/common/com_mesh.c`, `Mod_LoadQ1Model` and
    /// `Q1MDL_LoadPoseQF16`): a Quake file whose every frame's vertices are
    /// followed by a second set holding the low 8 bits of each coordinate
    /// ([`SimpleFrame::vertices_low`]).
    QuakeForge16,
    /// The October 1996 QTest's MDL (`IDPO` version 3), read by FTE
    /// (`engine/common/com_mesh.c`, `Mod_LoadQ1Model`, `qtest`): a 76-byte
    /// header without `flags` and `size`, and frames without names.
    QTest,
}

impl Variant {
    /// The four bytes a file of this variant starts with.
    pub fn magic(self) -> [u8; 4] {
        match self {
            Variant::Quake | Variant::QTest => MAGIC_QUAKE,
            Variant::Hexen2 => MAGIC_HEXEN2,
            Variant::QuakeForge16 => MAGIC_QUAKEFORGE16,
        }
    }

    /// The version word a file of this variant holds.
    pub fn version(self) -> i32 {
        match self {
            Variant::Quake | Variant::QuakeForge16 => VERSION_QUAKE,
            Variant::Hexen2 => VERSION_HEXEN2,
            Variant::QTest => VERSION_QTEST,
        }
    }

    /// The size of this variant's header in bytes.
    pub fn header_size(self) -> usize {
        match self {
            Variant::Quake | Variant::QuakeForge16 => HEADER_SIZE_QUAKE,
            Variant::Hexen2 => HEADER_SIZE_HEXEN2,
            Variant::QTest => HEADER_SIZE_QTEST,
        }
    }

    /// The size of a simple frame's header (bounding box and name; QTest's
    /// frames have no name).
    pub fn frame_header_size(self) -> usize {
        match self {
            Variant::QTest => 8,
            _ => 24,
        }
    }

    /// A short name: `Quake`, `Hexen II`, `QuakeForge 16-bit`, `QTest`.
    pub fn title(self) -> &'static str {
        match self {
            Variant::Quake => "Quake",
            Variant::Hexen2 => "Hexen II",
            Variant::QuakeForge16 => "QuakeForge 16-bit",
            Variant::QTest => "QTest",
        }
    }
}

/// A 16-byte frame name as stored. Bytes after the NUL (stale data from
/// the exporter) are kept for a byte-exact rewrite.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameName(pub [u8; 16]);

fixed_name!(FrameName, 16);

/// A packed vertex: three position bytes on the model's grid and an index
/// into the 162 normals Quake shares with Quake II.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TriVertex {
    /// Position on the grid (`byte × scale + origin`).
    pub position: [u8; 3],
    /// Index into the normals table (162 and above are corrupt; the
    /// bounding boxes' "normal" byte is unused and kept as stored).
    pub normal_index: u8,
}

/// A texture coordinate in skin pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TexCoord {
    /// Non-zero for a vertex on the seam between the front and back skin
    /// halves: on a triangle that does not face front, its `s` is moved by
    /// half the skin width. Kept as stored.
    pub onseam: i32,
    /// Horizontal pixel.
    pub s: i32,
    /// Vertical pixel, top-down.
    pub t: i32,
}

/// A triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Triangle {
    /// Non-zero when the triangle faces front (its onseam vertices keep
    /// their `s`). Kept as stored.
    pub faces_front: i32,
    /// Indices into each frame's vertices (`i32` in Quake's files, `u16`
    /// in Hexen II's).
    pub vertices: [i32; 3],
    /// Indices into [`Mdl::texcoords`]: Hexen II stores them; in a Quake
    /// file they are the vertex indices (texture coordinates are per
    /// vertex) and are not written.
    pub texcoords: [i32; 3],
}

/// One frame's vertices, with its bounding box and name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimpleFrame {
    /// Smallest packed coordinates (as stored; the engines use it for
    /// nothing but some ports' culling).
    pub bbox_min: TriVertex,
    /// Largest packed coordinates (as stored).
    pub bbox_max: TriVertex,
    /// The raw 16-byte name.
    pub name: FrameName,
    /// One packed vertex per model vertex.
    pub vertices: Vec<TriVertex>,
    /// QuakeForge 16-bit files only ([`Variant::QuakeForge16`]): one more
    /// packed vertex per model vertex, whose position bytes are the low 8
    /// bits of each coordinate (position = `(high + low / 256) × scale +
    /// origin`) and whose normal byte is kept as stored. Empty for every
    /// other variant.
    pub vertices_low: Vec<TriVertex>,
}

/// A frame group: frames the engine plays by itself at the given
/// intervals (a flame's flicker), selected by QuakeC as one frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameGroup {
    /// The group's bounding box minimum, as stored.
    pub bbox_min: TriVertex,
    /// The group's bounding box maximum, as stored.
    pub bbox_max: TriVertex,
    /// Each frame's end time in seconds from the group's start, as stored
    /// (increasing and positive in a sound file).
    pub intervals: Vec<f32>,
    /// The frames, one per interval.
    pub frames: Vec<SimpleFrame>,
}

/// One entry of the frame list: what QuakeC's `self.frame` selects.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// A single frame (stored type 0).
    Single(SimpleFrame),
    /// A group of frames played by the engine (stored type non-zero, kept
    /// in `kind`).
    Group {
        /// The stored type word (1 in id's files; any non-zero value means
        /// a group to the loaders).
        kind: i32,
        /// The group.
        group: FrameGroup,
    },
}

/// One entry of the skin list.
#[derive(Debug, Clone, PartialEq)]
pub enum Skin {
    /// A single image (stored type 0) of `skin_width × skin_height`
    /// palette indices, row by row from the top.
    Single(Vec<u8>),
    /// An animated skin: images shown in turn (stored type non-zero, kept
    /// in `kind`).
    Group {
        /// The stored type word (1 in id's files).
        kind: i32,
        /// Each image's end time in seconds, as stored.
        intervals: Vec<f32>,
        /// The images, each `skin_width × skin_height` palette indices.
        images: Vec<Vec<u8>>,
    },
}

/// A Quake (or Hexen II) MDL model, as stored in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mdl {
    /// Which variant the file is (its magic and version follow from it).
    pub variant: Variant,
    /// The version word as stored (the reader takes only the variant's:
    /// 6, 50 or 3). The writer writes the variant's version whatever this
    /// holds.
    pub version: i32,
    /// Scale of the packed positions, shared by every frame.
    pub scale: [f32; 3],
    /// Origin of the packed positions (`scale_origin`), shared by every
    /// frame.
    pub origin: [f32; 3],
    /// Bounding radius as stored.
    pub bounding_radius: f32,
    /// Eye position as stored (the player's view height in id's player).
    pub eye_position: [f32; 3],
    /// Skin width in pixels.
    pub skin_width: i32,
    /// Skin height in pixels.
    pub skin_height: i32,
    /// The header's vertex count as stored.
    pub num_vertices: i32,
    /// The header's triangle count as stored.
    pub num_triangles: i32,
    /// The header's frame count as stored (top-level entries: a group
    /// counts once).
    pub num_frames: i32,
    /// 0: frame groups and skin groups animate in sync; 1: each entity
    /// starts at a random time. Kept as stored.
    pub sync_type: i32,
    /// Effect flags (rocket trail, rotate ...) as stored; see [`flags`].
    pub flags: i32,
    /// The `size` field as stored (id's tools put the average triangle
    /// area here; engines ignore it).
    pub size: f32,
    /// Skins, in file order.
    pub skins: Vec<Skin>,
    /// Texture coordinates: one per vertex in a Quake file, `num_st_verts`
    /// of them in a Hexen II file.
    pub texcoords: Vec<TexCoord>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
    /// Frames and frame groups, in file order.
    pub frames: Vec<Frame>,
    /// Bytes after the last frame, kept so a rewrite loses nothing.
    pub trailing: Vec<u8>,
}

/// The effect flags of the header's `flags` field (id's `EF_*` in
/// `model.h`; ports add more above these).
pub mod flags {
    /// Leaves a rocket trail.
    pub const ROCKET: i32 = 1;
    /// Leaves a grenade's smoke trail.
    pub const GRENADE: i32 = 2;
    /// Leaves a trail of blood.
    pub const GIB: i32 = 4;
    /// Spins (items and weapons on the floor).
    pub const ROTATE: i32 = 8;
    /// Leaves a green tracer (the scrag's spit).
    pub const TRACER: i32 = 16;
    /// Leaves a smaller trail of blood (zombie gibs).
    pub const ZOMGIB: i32 = 32;
    /// Leaves an orange tracer (the hell knight's spikes).
    pub const TRACER2: i32 = 64;
    /// Leaves a purple tracer (the vore's ball).
    pub const TRACER3: i32 = 128;
    /// Palette index 255 is transparent (QuakeSpasm's `MF_HOLEY`,
    /// `Quake/gl_model.h`, from MarkV and QSS; Hexen II's `EF_HOLEY`
    /// has the same bit).
    pub const HOLEY: i32 = 1 << 14;
}

impl Mdl {
    /// A packed vertex's position in model units: `byte × scale + origin`.
    pub fn decode_position(&self, v: TriVertex) -> [f32; 3] {
        [0, 1, 2].map(|i| f32::from(v.position[i]) * self.scale[i] + self.origin[i])
    }

    /// Every simple frame, groups flattened, in file order.
    pub fn simple_frames(&self) -> impl Iterator<Item = &SimpleFrame> {
        self.frames.iter().flat_map(|f| match f {
            Frame::Single(s) => std::slice::from_ref(s).iter(),
            Frame::Group { group, .. } => group.frames.iter(),
        })
    }
}
