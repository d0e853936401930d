//! A summary of an MD5 model: joints, meshes, vertices, weights per
//! vertex, and the animations with frame counts and rates.

use std::fmt;

use super::Md5Model;

/// One animation's summary.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationInfo {
    /// Name (the md5anim's stem).
    pub name: String,
    /// Frames.
    pub frames: usize,
    /// Frames per second.
    pub frame_rate: f32,
    /// Seconds from the first frame to the last.
    pub duration: f32,
    /// Numbers per frame.
    pub animated_components: usize,
    /// Whether a `.md5scale` came with it.
    pub scaled: bool,
}

/// A summary of an [`Md5Model`]; `Display` gives the text report.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// `md5mesh`.
    pub format: &'static str,
    /// Size of the md5mesh in bytes.
    pub file_size: usize,
    /// Joints.
    pub joints: usize,
    /// Meshes (one per shader).
    pub meshes: usize,
    /// Shaders, one per mesh.
    pub shaders: Vec<String>,
    /// Vertices over all meshes.
    pub vertices: usize,
    /// Triangles over all meshes.
    pub triangles: usize,
    /// Weights over all meshes.
    pub weights: usize,
    /// The fewest weights a vertex has.
    pub min_weights_per_vertex: usize,
    /// The most weights a vertex has.
    pub max_weights_per_vertex: usize,
    /// The animations.
    pub animations: Vec<AnimationInfo>,
    /// What `validate` finds, as text.
    pub warnings: Vec<String>,
}

impl Md5Model {
    /// The summary; `bytes` is the md5mesh.
    pub fn info(&self, bytes: &[u8]) -> Info {
        let m = &self.mesh;
        let counts = m
            .meshes
            .iter()
            .flat_map(|p| p.vertices.iter().map(|v| v.weight_count));
        Info {
            format: "md5mesh",
            file_size: bytes.len(),
            joints: m.joints.len(),
            meshes: m.meshes.len(),
            shaders: m.meshes.iter().map(|p| p.shader.clone()).collect(),
            vertices: m.meshes.iter().map(|p| p.vertices.len()).sum(),
            triangles: m.meshes.iter().map(|p| p.triangles.len()).sum(),
            weights: m.meshes.iter().map(|p| p.weights.len()).sum(),
            min_weights_per_vertex: counts.clone().min().unwrap_or(0),
            max_weights_per_vertex: counts.max().unwrap_or(0),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationInfo {
                    name: a.name.clone(),
                    frames: a.anim.num_frames,
                    frame_rate: a.anim.frame_rate,
                    duration: if a.anim.frame_rate > 0.0 {
                        a.anim.num_frames.saturating_sub(1) as f32 / a.anim.frame_rate
                    } else {
                        0.0
                    },
                    animated_components: a.anim.num_animated_components,
                    scaled: a.scale.is_some(),
                })
                .collect(),
            warnings: self.validate().iter().map(ToString::to_string).collect(),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "MD5 model (md5mesh version 10), {} bytes",
            self.file_size
        )?;
        writeln!(f, "  joints        {}", self.joints)?;
        writeln!(
            f,
            "  meshes        {} ({})",
            self.meshes,
            self.shaders.join(", ")
        )?;
        writeln!(f, "  vertices      {}", self.vertices)?;
        writeln!(f, "  triangles     {}", self.triangles)?;
        writeln!(
            f,
            "  weights       {} ({}-{} per vertex)",
            self.weights, self.min_weights_per_vertex, self.max_weights_per_vertex
        )?;
        if self.animations.is_empty() {
            writeln!(
                f,
                "  animations    none (no md5anim with the mesh's name beside it)"
            )?;
        } else {
            writeln!(f, "  animations    {}", self.animations.len())?;
            for a in &self.animations {
                writeln!(
                    f,
                    "                  {:<16} {:>4} frames at {} fps ({:.3} s), {} components{}",
                    a.name,
                    a.frames,
                    a.frame_rate,
                    a.duration,
                    a.animated_components,
                    if a.scaled { ", md5scale" } else { "" }
                )?;
            }
        }
        crate::problem::write_warning_list(f, &self.warnings, 5)
    }
}
