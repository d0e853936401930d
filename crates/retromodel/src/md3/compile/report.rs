//! What an MD3 compile reports: the frames and surfaces it made, the
//! fixed point's error, and the warnings (structured, worded by each front
//! end).

use std::fmt;

use crate::advice::Advice;

/// One animation of the compiled model.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationReport {
    /// The scene animation's name (empty for the rest pose).
    pub name: String,
    /// Its first frame.
    pub first_frame: usize,
    /// Its frame count.
    pub frames: usize,
    /// The frames per second it was sampled at (what its
    /// `animation.cfg` line wants).
    pub fps: f32,
}

/// One surface of the compiled model.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SurfaceReport {
    /// The surface's name as written.
    pub name: String,
    /// The shader it names ("" for none).
    pub shader: String,
    /// Its vertices after welding.
    pub vertices: usize,
    /// Its triangles.
    pub triangles: usize,
}

/// What [`compile`](super::compile) made.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CompileReport {
    /// The animations in frame order.
    pub animations: Vec<AnimationReport>,
    /// Frames.
    pub frames: usize,
    /// The surfaces.
    pub surfaces: Vec<SurfaceReport>,
    /// Vertices of the scene a triangle uses.
    pub source_vertices: usize,
    /// Vertices of all surfaces.
    pub vertices: usize,
    /// Triangles of all surfaces.
    pub triangles: usize,
    /// Tags per frame.
    pub tags: usize,
    /// The largest difference, in units, between a coordinate written and
    /// the baked (posed and scaled) one, over every vertex and frame: at
    /// most half of 1/64 unit.
    pub max_error: f32,
    /// The root mean square of those differences.
    pub rms_error: f32,
    /// The scale applied to scene units.
    pub scale: f32,
}

/// Something the compile had to change.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum CompileWarning {
    /// A name longer than its field was cut.
    NameCut {
        /// Which name (`surfaces[0].name`, `surfaces[0].shaders[0]`,
        /// `tags[1].name`).
        field: String,
        /// The name given.
        from: String,
        /// The name written.
        to: String,
    },
    /// A surface past a per-surface limit split into parts of the same
    /// name and shader.
    SurfaceSplit {
        /// Its name.
        name: String,
        /// Its vertices.
        vertices: usize,
        /// Its triangles.
        triangles: usize,
        /// Into how many parts.
        parts: usize,
    },
    /// Triangles left out: degenerate after welding or with indices out
    /// of range.
    TrianglesDropped {
        /// How many.
        count: usize,
    },
    /// Texture coordinates that were not finite numbers, written as 0.
    UvsNotFinite {
        /// The surface's name.
        surface: String,
        /// How many of its vertices.
        count: usize,
    },
}

impl fmt::Display for CompileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileWarning::NameCut { field, from, to } => write!(
                f,
                "{field}: {from:?} is longer than MD3's 63 bytes (64 with the NUL): written as {to:?}"
            ),
            CompileWarning::SurfaceSplit {
                name,
                vertices,
                triangles,
                parts,
            } => write!(
                f,
                "surface {name:?} ({vertices} vertices, {triangles} triangles) is past the engine's per-surface limit: split into {parts} surfaces of that name"
            ),
            CompileWarning::TrianglesDropped { count } => write!(
                f,
                "{count} triangles left out (degenerate after welding, or indices out of range)"
            ),
            CompileWarning::UvsNotFinite { surface, count } => write!(
                f,
                "surface {surface:?}: {count} texture coordinates were not finite numbers and are written as 0"
            ),
        }
    }
}

impl CompileWarning {
    /// What would help, when something would.
    pub fn advice(&self) -> Option<Advice> {
        None
    }
}
