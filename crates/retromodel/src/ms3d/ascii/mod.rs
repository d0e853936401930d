//! MilkShape 3D's ASCII format (`.txt`): read, validate, write, and map
//! to and from the binary [`Ms3d`](super::Ms3d).
//!
//! An [`AsciiModel`] holds what the text holds, section by section, each
//! optional (StepMania loads a model from three files: one with only
//! `Meshes:`, one with only `Materials:`, one with only `Bones:`; see
//! [`AsciiModel::combine`]). [`AsciiModel::parse`] and
//! [`AsciiModel::to_text`] round-trip every value the text holds exactly.
//!
//! # The format
//!
//! Established from MilkShape 3D's own ASCII export and import plug-ins
//! (the SDK samples titled "MilkShape 3D ASCII...", built on `msLib`),
//! StepMania's readers (`src/RageModelGeometry.cpp`,
//! `src/Model.cpp`, `src/ModelTypes.cpp`), Markus Ilmola's Blender 2.45
//! importer and the mikex5 Blender add-on (`ms3dascii-export.py` 0.1.2),
//! and checked against the corpus files in `ms3d_ascii/`:
//!
//! ```text
//! // MilkShape 3D ASCII                       header comment (not required)
//! Frames: 30                                  msModel total frames
//! Frame: 1                                    msModel current frame (an int)
//! Meshes: 1
//! "Box01" 0 0                                 name, flags, material index (-1 none)
//! 20                                          vertex count, then per vertex:
//! 0 -10.375 10.5 13.75 0 0 -1                 flags x y z u v bone (-1 none)
//! 6                                           normal count, then per normal:
//! 0 0 1                                       x y z
//! 12                                          triangle count, then per triangle:
//! 0 0 1 2 0 0 0 1                             flags v1 v2 v3 n1 n2 n3 smoothing group (1-32)
//! Materials: 1
//! "wood"                                      name, then ambient, diffuse,
//! 0.2 0.2 0.2 1                               specular and emissive (RGBA),
//! 0.8 0.8 0.8 1
//! 0 0 0 1
//! 0 0 0 1
//! 0                                           shininess (0-128)
//! 1                                           transparency (1 opaque)
//! "tex\wood.png"                              colour map and alpha map
//! ""
//! Bones: 1
//! "joint1"                                    name
//! ""                                          parent name ("" for a root)
//! 0 0 0 0 0 0 0                               flags x y z rx ry rz (radians)
//! 1                                           position key count, then:
//! 1 0 0 0                                     frame x y z
//! 1                                           rotation key count, then:
//! 1 0 0 0                                     frame rx ry rz (radians)
//! GroupComments: 1                            (MilkShape 1.8) then per comment:
//! 0                                           the group (mesh) index
//! first line\nsecond line                     the text as is, CRLF written as `\n`
//! MaterialComments: 0                         (same shape)
//! BoneComments: 0                             (same shape)
//! ModelComment: 1                             0 or 1, then the text as above
//! a model comment
//! ```
//!
//! - Vertex lines have exactly the seven fields MilkShape 1.8 writes
//!   (`"%d %f %f %f %f %f %d"`); its importer reads them with `sscanf` and
//!   so ignores anything after the seventh (but reads lines into 256
//!   bytes), and the Blender 2.45 importer refuses any other count. There
//!   are no weight fields: MilkShape's exporter writes none, and 1.8's
//!   vertex weights ([`VertexExtras`](super::VertexExtras)) are kept in
//!   `// retromodel weights:` header lines instead.
//!   Fields after the seventh are kept in [`Vertex::extra`] (and written
//!   back), and [`AsciiModel::validate`] warns about them.
//! - Key times are **frames**, 1-based as in MilkShape's timeline:
//!   MilkShape's `msLib` keys are in frames (the ASCII plug-ins pass them
//!   through unchanged), StepMania compares them with its frame counter
//!   (30 frames per second) and takes the last key as the animation's
//!   length, and the Blender add-on writes key *k* at frame *k*. The binary
//!   file stores seconds, with `frame = seconds × fps` (the viewer's
//!   rule). The text has no fps: [`AsciiModel::to_ms3d_with_fps`] takes
//!   one ([`AsciiModel::to_ms3d`] uses [`DEFAULT_FPS`]).
//! - Angles are radians in the binary's Euler convention (StepMania and
//!   the Blender importer convert them as such); positions and keys are
//!   as in the binary file.
//! - A comment's text is the whole line after its index line, read
//!   raw (MilkShape's importer reads them with `fgets`, not skipping
//!   blank or `//` lines); a `\n` in them stands for CRLF. Elsewhere,
//!   blank lines and lines starting with `//` are skipped anywhere (as
//!   StepMania's and Blender's readers do), and CRLF line ends are read.
//! - MilkShape writes an empty mesh, material or bone name as `" "`,
//!   because its importer (and StepMania's) rejects `""`; this writer does
//!   the same. The reader accepts both.
//!
//! # The mapping to and from `Ms3d`
//!
//! Text meshes are binary groups, in order. A text mesh has its own
//! vertex and normal lists with texture coordinates on the vertex; the
//! binary file has one vertex list for all groups and stores a normal and
//! a texture coordinate per triangle corner.
//!
//! - [`AsciiModel::to_ms3d`]: the meshes' vertices are concatenated (mesh
//!   by mesh, in order, as MilkShape writes them), triangle indices are
//!   offset accordingly, each corner gets its vertex's `u, v` and its
//!   normal by value, each group lists its mesh's triangles, smoothing
//!   groups are kept modulo 256 (the binary's byte; the Blender add-on
//!   writes one group per polygon, up to 542 in the corpus). Vertex
//!   reference counts are recomputed (the number of triangles using the
//!   vertex, as in every corpus binary; saturated at 255). A vertex or
//!   normal index that points nowhere becomes vertex index 65535 (which
//!   points nowhere in any MS3D) or a zero normal; both are warnings of
//!   [`AsciiModel::validate`]. The model is version 4; its only 1.8 extra
//!   is comments, present when the text has a comment section.
//! - [`AsciiModel::from_ms3d`]: each group becomes a mesh whose vertices
//!   are the group's binary vertices in index order. A binary vertex used
//!   with several texture coordinates, or by several groups, becomes one
//!   text vertex per (group, coordinate) pair: the text cannot share it.
//!   Normals are the group's distinct corner normals in first-use order.
//!   Vertices no group's triangle uses go to the mesh of the nearest used
//!   vertex before them (after them for leading ones).
//!
//! A binary model whose groups each own a contiguous run of vertices,
//! used with one texture coordinate each, and list their triangles in
//! file order, each once (8 of the 19 corpus binaries), comes back from
//! `from_ms3d → to_bytes → parse → to_ms3d` with the same vertices,
//! triangles, groups, materials, joints, keys, keyframer, comments and
//! 1.8 extras, bit for bit. Names keep their bytes ([`Encoding`]: a
//! model whose names are not UTF-8, such as GBK, is written in that code
//! page, as MilkShape writes it). The 1.8 vertex weights, joint colours,
//! model extras and material modes, which the format has no place for,
//! are kept in `// retromodel` lines before the first section, which
//! every reader skips (MilkShape's importer, StepMania's and the
//! Blender importer), like the frame rate. What the text
//! cannot carry, and how it comes back ([`AsciiModel::losses`] lists
//! each one a model has, as warnings):
//!
//! - the file version (4), vertex reference counts (recomputed), a
//!   fractional current time (its integer part), name bytes after the NUL
//!   (zeros), `"` in names (`'`), LF in names (a space), empty mesh,
//!   material and bone names (`" "`), non-finite numbers (0);
//! - the comments' subversion (1) and model-comment layout
//!   ([`ModelComment::LengthText`](super::ModelComment::LengthText)), lone
//!   CR or LF in comments (CRLF), a literal `\n` in a comment (CRLF);
//! - the binary triangle's own group byte (the group that lists it),
//!   triangles no group lists (dropped), listed twice (duplicated),
//!   vertex sharing across groups or texture coordinates (split, as
//!   above), and bytes after the known data (dropped).
//!
//! # Numbers
//!
//! Floats are written in the shortest form that reads back to the same
//! `f32` (Rust's `{}`: `0.1`, `-33.25`, never an exponent), so text ↔
//! model is exact; MilkShape writes `%f` (six decimals), which this
//! reader reads as the nearest `f32`. Key frames are kept as `f64`, so
//! that `seconds × fps` of a binary key (exact in `f64`) divides back to
//! the same `f32` seconds.

mod combine;
mod detect;
mod encoding;
mod from_ms3d;
mod kept;
mod lines;
mod losses;
mod parse;
mod to_ms3d;
mod validate;
mod write;

pub use detect::looks_like;
pub use encoding::Encoding;

/// Frames per second [`AsciiModel::to_ms3d`] gives the binary model: the
/// text has none, and 24 is MilkShape's default for a new model (11 of the
/// 19 corpus binaries, saved with untouched animation settings, have
/// exactly fps 24, [`DEFAULT_TOTAL_FRAMES`] and [`DEFAULT_FRAME`]; 14
/// have fps 24). StepMania plays the text's frames at 30 per second.
pub const DEFAULT_FPS: f32 = 24.0;

/// Timeline length [`AsciiModel::to_ms3d`] uses when the text has no
/// `Frames:` (MilkShape's default for a new model).
pub const DEFAULT_TOTAL_FRAMES: i32 = 30;

/// Current frame [`AsciiModel::to_ms3d`] uses when the text has no
/// `Frame:` (MilkShape's default for a new model).
pub const DEFAULT_FRAME: i32 = 1;

/// The sections of the format, in the order MilkShape writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    /// `Frames: N`, the timeline's length.
    Frames,
    /// `Frame: N`, the current frame.
    Frame,
    /// `Meshes: N` and the meshes.
    Meshes,
    /// `Materials: N` and the materials.
    Materials,
    /// `Bones: N` and the bones.
    Bones,
    /// `GroupComments: N` and the comments (MilkShape 1.8).
    GroupComments,
    /// `MaterialComments: N` and the comments (MilkShape 1.8).
    MaterialComments,
    /// `BoneComments: N` and the comments (MilkShape 1.8).
    BoneComments,
    /// `ModelComment: N` (0 or 1) and the comment (MilkShape 1.8).
    ModelComment,
}

impl Section {
    /// Every section, in the order MilkShape writes them.
    pub const ALL: [Section; 9] = [
        Section::Frames,
        Section::Frame,
        Section::Meshes,
        Section::Materials,
        Section::Bones,
        Section::GroupComments,
        Section::MaterialComments,
        Section::BoneComments,
        Section::ModelComment,
    ];

    /// The word before the colon, e.g. `Meshes`.
    pub fn keyword(self) -> &'static str {
        match self {
            Section::Frames => "Frames",
            Section::Frame => "Frame",
            Section::Meshes => "Meshes",
            Section::Materials => "Materials",
            Section::Bones => "Bones",
            Section::GroupComments => "GroupComments",
            Section::MaterialComments => "MaterialComments",
            Section::BoneComments => "BoneComments",
            Section::ModelComment => "ModelComment",
        }
    }

    /// The section a keyword names.
    pub fn from_keyword(word: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.keyword() == word)
    }
}

/// A vertex of a mesh: `flags x y z u v bone`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Vertex {
    /// Editor flags (1 selected, 2 hidden, ...; StepMania reads bits 1, 2
    /// and 4 as texture-matrix switches).
    pub flags: u8,
    /// Position.
    pub position: [f32; 3],
    /// Texture coordinate (`t` runs top-down, as in the binary file).
    pub uv: [f32; 2],
    /// Index of the bone that moves the vertex, −1 for none.
    pub bone: i8,
    /// Fields after the seventh, as written (single spaces between them);
    /// empty for MilkShape's own files. MilkShape's importer ignores them.
    pub extra: String,
}

/// A triangle of a mesh: `flags v1 v2 v3 n1 n2 n3 smoothing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Triangle {
    /// Editor flags.
    pub flags: u16,
    /// Indices into the mesh's [`Mesh::vertices`].
    pub vertices: [u32; 3],
    /// Indices into the mesh's [`Mesh::normals`], one per corner.
    pub normals: [u32; 3],
    /// Smoothing group. MilkShape's are 1–32 (0 none), but the Blender
    /// add-on writes one per polygon (542 in the corpus walker); the
    /// binary's byte keeps it modulo 256, as MilkShape's importer does.
    pub smoothing_group: u32,
}

/// A mesh (a binary group) with its own vertices and normals.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Name.
    pub name: String,
    /// Editor flags.
    pub flags: u8,
    /// Index into the materials, −1 for none.
    pub material: i8,
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Normals, referenced by the triangles' corners.
    pub normals: Vec<[f32; 3]>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
}

/// A material.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Material {
    /// Name.
    pub name: String,
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
    /// Colour map path as written (MilkShape writes backslashes).
    pub texture: String,
    /// Alpha map path as written.
    pub alphamap: String,
}

/// An animation key: a frame and a value.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Key {
    /// The frame (1-based timeline frames, fractions allowed).
    pub frame: f64,
    /// Position offset, or Euler angles in radians.
    pub value: [f32; 3],
}

/// A bone (a binary joint) with its keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bone {
    /// Name.
    pub name: String,
    /// Name of the parent bone, empty for a root.
    pub parent: String,
    /// Editor flags.
    pub flags: u8,
    /// Bind position relative to the parent.
    pub position: [f32; 3],
    /// Bind rotation, Euler angles in radians.
    pub rotation: [f32; 3],
    /// Position keys (written first, unlike the binary file).
    pub position_keys: Vec<Key>,
    /// Rotation keys.
    pub rotation_keys: Vec<Key>,
}

/// A comment on a mesh, material or bone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IndexedComment {
    /// Index of the mesh, material or bone.
    pub index: i32,
    /// The text, line breaks as CRLF (written as `\n`).
    pub text: String,
}

/// A MilkShape 3D ASCII model: every section the text has, each optional.
///
/// ```
/// use retromodel::ms3d::ascii::{AsciiModel, Section};
///
/// # fn main() -> Result<(), retromodel::Error> {
/// let text = b"// MilkShape 3D ASCII\nFrames: 30\nFrame: 1\nBones: 0\n";
/// let model = AsciiModel::parse(text)?;
/// assert_eq!(model.order, [Section::Frames, Section::Frame, Section::Bones]);
/// assert_eq!(model.bones.as_deref(), Some(&[][..]));
/// assert!(model.meshes.is_none());
/// assert_eq!(AsciiModel::parse(model.to_text().as_bytes())?, model);
///
/// let binary = model.to_ms3d()?;
/// assert_eq!(binary.total_frames, 30);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AsciiModel {
    /// The `//` lines before the first section, trimmed (for MilkShape's
    /// files `// MilkShape 3D ASCII`). Comment lines elsewhere are not
    /// kept.
    pub header: Vec<String>,
    /// The sections in the order the text has them (each at most once).
    /// [`AsciiModel::to_text`] writes them in this order, then any other
    /// section that is set, in MilkShape's order.
    pub order: Vec<Section>,
    /// `Frames:`, the timeline's length.
    pub frames: Option<i32>,
    /// `Frame:`, the current frame.
    pub frame: Option<i32>,
    /// `Meshes:`.
    pub meshes: Option<Vec<Mesh>>,
    /// `Materials:`.
    pub materials: Option<Vec<Material>>,
    /// `Bones:`.
    pub bones: Option<Vec<Bone>>,
    /// `GroupComments:`.
    pub group_comments: Option<Vec<IndexedComment>>,
    /// `MaterialComments:`.
    pub material_comments: Option<Vec<IndexedComment>>,
    /// `BoneComments:`.
    pub bone_comments: Option<Vec<IndexedComment>>,
    /// `ModelComment:`: `Some(None)` for `ModelComment: 0`, `Some(Some(text))`
    /// for `ModelComment: 1` and its text (line breaks as CRLF).
    pub model_comment: Option<Option<String>>,
    /// How the strings above hold the text's bytes: UTF-8, or one char
    /// per byte for a text in a code page ([`Encoding::Bytes`]), so that
    /// names come back byte for byte ([`AsciiModel::to_bytes`],
    /// [`AsciiModel::to_ms3d`]).
    pub encoding: Encoding,
}

impl AsciiModel {
    /// Whether the model has `section` (set, whatever its contents).
    pub fn has(&self, section: Section) -> bool {
        match section {
            Section::Frames => self.frames.is_some(),
            Section::Frame => self.frame.is_some(),
            Section::Meshes => self.meshes.is_some(),
            Section::Materials => self.materials.is_some(),
            Section::Bones => self.bones.is_some(),
            Section::GroupComments => self.group_comments.is_some(),
            Section::MaterialComments => self.material_comments.is_some(),
            Section::BoneComments => self.bone_comments.is_some(),
            Section::ModelComment => self.model_comment.is_some(),
        }
    }

    /// The sections that are set, in the order [`AsciiModel::to_text`]
    /// writes them: those of [`AsciiModel::order`] first, then the others
    /// in MilkShape's order.
    pub fn sections(&self) -> Vec<Section> {
        let mut out: Vec<Section> = Vec::with_capacity(Section::ALL.len());
        for &s in self.order.iter().chain(Section::ALL.iter()) {
            if self.has(s) && !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// The meshes (empty when there is no `Meshes:` section).
    pub fn mesh_list(&self) -> &[Mesh] {
        self.meshes.as_deref().unwrap_or(&[])
    }

    /// The materials (empty when there is no `Materials:` section).
    pub fn material_list(&self) -> &[Material] {
        self.materials.as_deref().unwrap_or(&[])
    }

    /// The bones (empty when there is no `Bones:` section).
    pub fn bone_list(&self) -> &[Bone] {
        self.bones.as_deref().unwrap_or(&[])
    }
}
