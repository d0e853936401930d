//! Inter-Quake Export (`.iqe`): the text twin of IQM, as lsalzman/iqm's
//! `iqe.txt` describes it.
//!
//! [`Iqe::parse`] reads the text into an [`Iqe`] that keeps what the file
//! holds (joints, poses, vertex attributes, meshes, triangles, vertex
//! array declarations, animations, smoothing commands, the comment);
//! [`Iqe::to_iqm`] compiles it as the reference compiler (`iqm.cpp`,
//! `loadiqe`, `makemeshes`, `makeanims`, `calcanimdata`) does, and
//! [`Iqm::to_iqe`](super::Iqm::to_iqe) writes an IQM back as IQE text.
//!
//! ```
//! use retromodel::iqm::iqe::Iqe;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let text = retromodel::iqm::sample::sample_model().to_iqe();
//! let iqe = Iqe::parse(text.as_bytes())?;
//! assert_eq!(iqe.joints.len(), 2);
//! let model = iqe.to_iqm()?;
//! assert_eq!(model.triangles.len(), 1);
//! assert_eq!(model.name(model.anims[0].name), "wave");
//! # Ok(()) }
//! ```

mod cache;
mod compile;
mod parse;
mod write;

/// The first line's text (anything may follow it on that line).
pub const HEADER: &str = "# Inter-Quake Export";

/// Most values a compiled model's frames may take (frames × joints × 10),
/// checked before allocating them.
pub const MAX_FRAME_VALUES: usize = 1 << 26;

/// A joint (`joint NAME PARENT`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IqeJoint {
    /// Name.
    pub name: String,
    /// The parent joint's index; negative for a root.
    pub parent: i32,
    /// The line it was on.
    pub line: usize,
}

/// A pose (`pq`, `pm` or `pa`) as the reference compiler keeps it:
/// translation, a unit quaternion `[x, y, z, w]` with `w ≤ 0`, scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IqePose {
    /// Translation.
    pub translate: [f64; 3],
    /// Rotation `[x, y, z, w]`.
    pub rotate: [f64; 4],
    /// Scale.
    pub scale: [f64; 3],
}

impl Default for IqePose {
    fn default() -> Self {
        IqePose {
            translate: [0.0; 3],
            rotate: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
        }
    }
}

/// A vertex's blend (`vb`): up to four joints with weights, heaviest
/// first, normalised to sum 1, as `iqm.cpp`'s `blendcombo` keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Blend {
    /// How many of the four are used.
    pub count: usize,
    /// Joint indices (unused ones 0).
    pub joints: [u8; 4],
    /// Weights (unused ones 0).
    pub weights: [f64; 4],
}

/// Every vertex attribute the file lists, one array per command; each
/// is empty or as long as the positions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Attributes {
    /// `vp`: `[x, y, z, w]`, `w` 1 unless given.
    pub positions: Vec<[f64; 4]>,
    /// `vt`: `[u, v, 0, 0]` (four read as the reference does).
    pub texcoords: Vec<[f64; 4]>,
    /// `vn`.
    pub normals: Vec<[f64; 3]>,
    /// `vx`: tangent with the bitangent's sign in `w`.
    pub tangents: Vec<[f64; 4]>,
    /// `vx` with six values: the bitangents.
    pub bitangents: Vec<[f64; 3]>,
    /// `vb`.
    pub blends: Vec<Blend>,
    /// `vc`: `[r, g, b, a]`, `a` 1 unless given.
    pub colors: Vec<[f64; 4]>,
    /// `v0` … `v9`.
    pub custom: [Vec<[f64; 4]>; 10],
    /// `vs`: smoothing indices (kept, not used: normals are not
    /// generated).
    pub smooth_indexes: Vec<i32>,
}

/// A run of triangles with one name and material (the reference's
/// `emesh`): opened by the first face after a `mesh` or `material`
/// command that changed the name or material.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IqeMesh {
    /// `mesh` name.
    pub name: String,
    /// `material` name.
    pub material: String,
    /// Its first triangle in [`Iqe::triangles`].
    pub first_triangle: usize,
}

/// A triangle: three indices into the whole file's vertices (`fm`
/// indices already offset by their mesh's first vertex; polygons fanned).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IqeTriangle {
    /// The corners.
    pub vertices: [u32; 3],
    /// The line of its `fa` or `fm`.
    pub line: usize,
}

/// A `vertexarray TYPE COMPONENT SIZE NAME` declaration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ArrayDecl {
    /// The type as written (`position` … `custom9`).
    pub kind: String,
    /// The component format as written (`byte` … `double`).
    pub format: String,
    /// The size as written (0 when absent).
    pub size: i64,
    /// The name (for custom arrays).
    pub name: String,
    /// The line it was on.
    pub line: usize,
}

/// An animation (`animation NAME`, `framerate`, `loop`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IqeAnim {
    /// Name.
    pub name: String,
    /// Frames per second (0 when not given).
    pub framerate: f64,
    /// Whether `loop` was given.
    pub loops: bool,
    /// Its first frame in [`Iqe::frame_starts`].
    pub first_frame: usize,
}

/// A smoothing command (`smoothgroup`, `smoothangle`, `smoothuv`, `fs`):
/// kept as written. The compiler here does not generate normals, so these
/// only matter to a file without `vn` (see [`Iqe::to_iqm`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Smoothing {
    /// The line as written, trimmed.
    pub text: String,
    /// Its line.
    pub line: usize,
}

/// An Inter-Quake Export document as the file holds it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Iqe {
    /// Joints, in order.
    pub joints: Vec<IqeJoint>,
    /// Every pose in file order: those before the first frame are the
    /// base poses (one per joint), the rest belong to frames.
    pub poses: Vec<IqePose>,
    /// Where each frame's poses start in [`Iqe::poses`] (the reference's
    /// `eframes`); a frame runs to the next start or the end.
    pub frame_starts: Vec<usize>,
    /// Vertex attributes.
    pub attributes: Attributes,
    /// Meshes (runs of triangles).
    pub meshes: Vec<IqeMesh>,
    /// Triangles.
    pub triangles: Vec<IqeTriangle>,
    /// `vertexarray` declarations.
    pub vertex_arrays: Vec<ArrayDecl>,
    /// Animations, each from its first frame to the next one's.
    pub anims: Vec<IqeAnim>,
    /// Smoothing commands.
    pub smoothing: Vec<Smoothing>,
    /// The text after a `comment` line, to the end of the file.
    pub comment: Option<Vec<u8>>,
    /// Lines with a command this reader does not know (line, text): the
    /// reference compiler ignores them too.
    pub unknown: Vec<(usize, String)>,
}

impl Iqe {
    /// The base poses: those before the first frame.
    pub fn base_poses(&self) -> &[IqePose] {
        let end = self
            .frame_starts
            .first()
            .copied()
            .unwrap_or(self.poses.len());
        self.poses.get(..end).unwrap_or(&[])
    }

    /// The poses of frame `f` (empty past the last).
    pub fn frame(&self, f: usize) -> &[IqePose] {
        let Some(&start) = self.frame_starts.get(f) else {
            return &[];
        };
        let end = self
            .frame_starts
            .get(f + 1)
            .copied()
            .unwrap_or(self.poses.len());
        self.poses.get(start..end).unwrap_or(&[])
    }

    /// The frames of animation `a`: indices into [`Iqe::frame_starts`].
    pub fn anim_frames(&self, a: usize) -> std::ops::Range<usize> {
        let Some(anim) = self.anims.get(a) else {
            return 0..0;
        };
        let end = self
            .anims
            .get(a + 1)
            .map_or(self.frame_starts.len(), |n| n.first_frame);
        anim.first_frame..end.max(anim.first_frame)
    }
}

/// Whether `bytes` start like an IQE (`# Inter-Quake Export`, after
/// blanks).
pub fn looks_like(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes[start..].starts_with(HEADER.as_bytes())
}

/// An [`crate::Error::Iqe`].
pub(crate) fn error(line: Option<usize>, message: impl Into<String>) -> crate::Error {
    crate::Error::Iqe {
        line,
        message: message.into(),
    }
}
