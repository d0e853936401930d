//! A summary of an MD3 model: what `retromodel info` shows.

use std::fmt;

use super::Md3;

/// One surface in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SurfaceInfo {
    /// The surface's name.
    pub name: String,
    /// Its shaders' names.
    pub shaders: Vec<String>,
    /// Vertices (per frame).
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Its frame count as stored.
    pub frames: i32,
}

/// One tag in an [`Info`], as in the first frame.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TagInfo {
    /// Its name.
    pub name: String,
    /// Its origin in the first frame.
    pub origin: [f32; 3],
}

/// A summary of an MD3 model and the file it came from. `Display` gives
/// the text report; with feature `serde` it serialises as `info --json`
/// prints it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// Always `"md3"`.
    pub format: &'static str,
    /// The model's name field.
    pub name: String,
    /// The header's flags.
    pub flags: i32,
    /// Frames.
    pub frames: usize,
    /// Each frame's name.
    pub frame_names: Vec<String>,
    /// The box around every frame's bounds (`None` without frames).
    pub bounds: Option<([f32; 3], [f32; 3])>,
    /// The largest frame radius.
    pub radius: f32,
    /// Tags per frame.
    pub tags: Vec<TagInfo>,
    /// Surfaces.
    pub surfaces: Vec<SurfaceInfo>,
    /// Vertices in all surfaces (per frame).
    pub vertices: usize,
    /// Triangles in all surfaces.
    pub triangles: usize,
    /// The file's size.
    pub file_size: u64,
    /// Bytes no section covers (padding, gaps, bytes past the end).
    pub unclaimed_bytes: usize,
    /// What [`Md3::validate`] finds.
    pub warnings: Vec<String>,
}

impl Md3 {
    /// A summary of the model; `bytes` is the file it was read from (for
    /// its size).
    ///
    /// ```
    /// use retromodel::md3::Md3;
    /// let info = Md3::default().info(&[]);
    /// assert_eq!(info.frames, 0);
    /// assert!(info.to_string().starts_with("MD3 version 15"));
    /// ```
    pub fn info(&self, bytes: &[u8]) -> Info {
        let bounds = self.frames.iter().fold(None, |acc, f| {
            let (mut lo, mut hi) = acc.unwrap_or((f.min, f.max));
            for k in 0..3 {
                lo[k] = lo[k].min(f.min[k]);
                hi[k] = hi[k].max(f.max[k]);
            }
            Some((lo, hi))
        });
        Info {
            format: "md3",
            name: self.name.to_string_lossy(),
            flags: self.flags,
            frames: self.frames.len(),
            frame_names: self
                .frames
                .iter()
                .map(|f| f.name.to_string_lossy())
                .collect(),
            bounds,
            radius: self.frames.iter().map(|f| f.radius).fold(0.0, f32::max),
            tags: self
                .frame_tags(0)
                .unwrap_or(&[])
                .iter()
                .map(|t| TagInfo {
                    name: t.name.to_string_lossy(),
                    origin: t.origin,
                })
                .collect(),
            surfaces: self
                .surfaces
                .iter()
                .map(|s| SurfaceInfo {
                    name: s.name.to_string_lossy(),
                    shaders: s.shaders.iter().map(|h| h.name.to_string_lossy()).collect(),
                    vertices: s.vertex_count(),
                    triangles: s.triangles.len(),
                    frames: s.num_frames,
                })
                .collect(),
            vertices: self.surfaces.iter().map(|s| s.vertex_count()).sum(),
            triangles: self.surfaces.iter().map(|s| s.triangles.len()).sum(),
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
    /// with `MD3 version 15`, one line per fact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let j = self;
        let v3 = |v: [f32; 3]| format!("{} {} {}", v[0], v[1], v[2]);
        writeln!(f, "MD3 version 15")?;
        writeln!(f, "  name          {:?}", j.name)?;
        writeln!(f, "  flags         {}", j.flags)?;
        writeln!(f, "  frames        {}", j.frames)?;
        if let Some((lo, hi)) = j.bounds {
            writeln!(f, "  bounds        {} .. {}", v3(lo), v3(hi))?;
        }
        writeln!(f, "  radius        {}", j.radius)?;
        writeln!(f, "  tags          {}", j.tags.len())?;
        for t in &j.tags {
            writeln!(f, "                  {:<16} at {}", t.name, v3(t.origin))?;
        }
        writeln!(
            f,
            "  surfaces      {} ({} vertices, {} triangles)",
            j.surfaces.len(),
            j.vertices,
            j.triangles
        )?;
        for s in &j.surfaces {
            writeln!(
                f,
                "                  {:<16} {} vertices, {} triangles, shaders: {}",
                s.name,
                s.vertices,
                s.triangles,
                if s.shaders.is_empty() {
                    "none".to_string()
                } else {
                    s.shaders.join(", ")
                }
            )?;
        }
        writeln!(
            f,
            "  file          {} bytes, {} not in any section",
            j.file_size, j.unclaimed_bytes
        )?;
        crate::problem::write_warning_list(f, &j.warnings, SHOWN)
    }
}
