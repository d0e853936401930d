//! A summary of an IQM model: what `retromodel info` shows.

use std::fmt;

use super::{ArrayKind, Iqm};

/// One mesh in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MeshInfo {
    /// The mesh's name.
    pub name: String,
    /// Its material.
    pub material: String,
    /// Vertices.
    pub vertices: u32,
    /// Triangles.
    pub triangles: u32,
}

/// One vertex array in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ArrayInfo {
    /// `position`, `texcoord` … or a custom array's name.
    pub name: String,
    /// Whether it is a custom array.
    pub custom: bool,
    /// Its component format (`float`, `ubyte` …).
    pub format: String,
    /// Components per vertex.
    pub size: u32,
}

/// One animation in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimInfo {
    /// Its name.
    pub name: String,
    /// The first frame.
    pub first_frame: u32,
    /// Frames.
    pub frames: u32,
    /// Frames per second.
    pub fps: f32,
    /// Whether it loops.
    pub loops: bool,
}

/// A summary of an IQM model and the file it came from. `Display` gives
/// the text report; with feature `serde` it serialises as `info --json`
/// prints it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// Always `"iqm"`.
    pub format: &'static str,
    /// The version.
    pub version: u32,
    /// Meshes.
    pub meshes: Vec<MeshInfo>,
    /// Vertices.
    pub vertices: u32,
    /// Triangles.
    pub triangles: usize,
    /// Whether the file has adjacency.
    pub adjacency: bool,
    /// Vertex arrays.
    pub arrays: Vec<ArrayInfo>,
    /// Joints' names, in order.
    pub joints: Vec<String>,
    /// Poses.
    pub poses: usize,
    /// Animations.
    pub anims: Vec<AnimInfo>,
    /// Frames.
    pub frames: u32,
    /// 16-bit values per frame.
    pub frame_channels: u32,
    /// Whether the file has per-frame bounds.
    pub bounds: bool,
    /// The bind pose's box (`None` without positions).
    pub bind_box: Option<([f32; 3], [f32; 3])>,
    /// The comment, lossily decoded.
    pub comment: String,
    /// Extensions' names.
    pub extensions: Vec<String>,
    /// Whether it holds animations only (to apply to a model with the
    /// same joints).
    pub animation_only: bool,
    /// The file's size.
    pub file_size: u64,
    /// Bytes no section covers (padding, gaps, bytes past the end).
    pub unclaimed_bytes: usize,
    /// What [`Iqm::validate`] finds.
    pub warnings: Vec<String>,
}

impl Iqm {
    /// A summary of the model; `bytes` is the file it was read from (for
    /// its size).
    ///
    /// ```
    /// let model = retromodel::iqm::sample::sample_model();
    /// let info = model.info(&[]);
    /// assert_eq!(info.anims[0].name, "wave");
    /// assert!(info.to_string().starts_with("IQM version 2"));
    /// ```
    pub fn info(&self, bytes: &[u8]) -> Info {
        let bind_box = self.array(ArrayKind::Position).and_then(|a| {
            (0..self.vertex_count()).fold(None, |acc: Option<([f32; 3], [f32; 3])>, v| {
                let p = a.vertex4(v, false);
                let p = [p[0] as f32, p[1] as f32, p[2] as f32];
                let (mut lo, mut hi) = acc.unwrap_or((p, p));
                for k in 0..3 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
                Some((lo, hi))
            })
        });
        Info {
            format: "iqm",
            version: super::VERSION,
            meshes: self
                .meshes
                .iter()
                .map(|m| MeshInfo {
                    name: self.name(m.name),
                    material: self.name(m.material),
                    vertices: m.num_vertexes,
                    triangles: m.num_triangles,
                })
                .collect(),
            vertices: self.num_vertexes,
            triangles: self.triangles.len(),
            adjacency: self.adjacency.is_some(),
            arrays: self
                .vertex_arrays
                .iter()
                .map(|a| ArrayInfo {
                    name: self.array_name(a),
                    custom: matches!(ArrayKind::of(a.kind), ArrayKind::Custom(_)),
                    format: a.array_format().map_or("?", |f| f.name()).to_string(),
                    size: a.size,
                })
                .collect(),
            joints: self.joints.iter().map(|j| self.name(j.name)).collect(),
            poses: self.poses.len(),
            anims: self
                .anims
                .iter()
                .map(|a| AnimInfo {
                    name: self.name(a.name),
                    first_frame: a.first_frame,
                    frames: a.num_frames,
                    fps: a.framerate,
                    loops: a.loops(),
                })
                .collect(),
            frames: self.num_frames,
            frame_channels: self.num_framechannels,
            bounds: self.bounds.is_some(),
            bind_box,
            comment: String::from_utf8_lossy(&self.comment)
                .trim_end_matches('\0')
                .to_string(),
            extensions: self.extensions.iter().map(|e| self.name(e.name)).collect(),
            animation_only: self.is_animation_only(),
            file_size: bytes.len() as u64,
            unclaimed_bytes: self.unclaimed.iter().map(|u| u.bytes.len()).sum(),
            warnings: self.validate().iter().map(ToString::to_string).collect(),
        }
    }
}

/// How many warnings the text report lists.
const SHOWN: usize = 20;

impl fmt::Display for Info {
    /// The report `retromodel info` prints after the file name: starts
    /// with `IQM version 2`, one line per fact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let j = self;
        let v3 = |v: [f32; 3]| format!("{} {} {}", v[0], v[1], v[2]);
        writeln!(f, "IQM version {}", j.version)?;
        if j.animation_only {
            writeln!(
                f,
                "  (animations only: apply them to a model with the same joints)"
            )?;
        }
        writeln!(
            f,
            "  meshes        {} ({} vertices, {} triangles{})",
            j.meshes.len(),
            j.vertices,
            j.triangles,
            if j.adjacency { ", with adjacency" } else { "" }
        )?;
        for m in &j.meshes {
            writeln!(
                f,
                "                  {:<16} {} vertices, {} triangles, material {:?}",
                m.name, m.vertices, m.triangles, m.material
            )?;
        }
        let arrays: Vec<String> = j
            .arrays
            .iter()
            .map(|a| format!("{} ({} × {})", a.name, a.format, a.size))
            .collect();
        writeln!(
            f,
            "  arrays        {}",
            if arrays.is_empty() {
                "none".into()
            } else {
                arrays.join(", ")
            }
        )?;
        if let Some((lo, hi)) = j.bind_box {
            writeln!(f, "  bind box      {} .. {}", v3(lo), v3(hi))?;
        }
        writeln!(f, "  joints        {}", j.joints.len())?;
        writeln!(
            f,
            "  frames        {} ({} values each{})",
            j.frames,
            j.frame_channels,
            if j.bounds { ", with bounds" } else { "" }
        )?;
        writeln!(f, "  animations    {}", j.anims.len())?;
        for a in &j.anims {
            writeln!(
                f,
                "                  {:<16} frames {}..{} ({} at {} fps{})",
                a.name,
                a.first_frame,
                a.first_frame + a.frames,
                a.frames,
                a.fps,
                if a.loops { ", loops" } else { "" }
            )?;
        }
        if !j.comment.is_empty() {
            writeln!(f, "  comment       {:?}", j.comment)?;
        }
        if !j.extensions.is_empty() {
            writeln!(f, "  extensions    {}", j.extensions.join(", "))?;
        }
        writeln!(
            f,
            "  file          {} bytes, {} not in any section",
            j.file_size, j.unclaimed_bytes
        )?;
        crate::problem::write_warning_list(f, &j.warnings, SHOWN)
    }
}
