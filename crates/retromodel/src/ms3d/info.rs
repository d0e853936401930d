//! A summary of an MS3D model: what `retromodel info` shows.

use std::fmt;

use super::{Clip, ModelComment, Ms3d};

/// One group in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GroupInfo {
    /// Name.
    pub name: String,
    /// Number of triangles.
    pub triangles: usize,
    /// Material index as stored (−1 for none).
    pub material: i8,
}

/// One material in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MaterialInfo {
    /// Name.
    pub name: String,
    /// Texture path as stored.
    pub texture: String,
    /// Alpha map path as stored.
    pub alphamap: String,
    /// Opacity.
    pub transparency: f32,
}

/// One clip (a named range of the timeline) in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ClipInfo {
    /// Name.
    pub name: String,
    /// First frame.
    pub first_frame: f32,
    /// Last frame.
    pub last_frame: f32,
    /// Duration in seconds.
    pub seconds: f32,
    /// Whether it ends within the timeline.
    pub within_timeline: bool,
}

/// Which 1.8 extras a file has, in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExtrasInfo {
    /// Subversion of the comments part.
    pub comments_subversion: Option<i32>,
    /// Group comments.
    pub group_comments: usize,
    /// Material comments.
    pub material_comments: usize,
    /// Joint comments.
    pub joint_comments: usize,
    /// How the model comment is stored: `none`, `length,text` or
    /// `index,length,text`.
    pub model_comment_layout: Option<&'static str>,
    /// Subversion of the vertex extras.
    pub vertex_extras_subversion: Option<i32>,
    /// Bytes per vertex extras record.
    pub vertex_extras_record_size: Option<usize>,
    /// Subversion of the joint extras.
    pub joint_extras_subversion: Option<i32>,
    /// Subversion of the model extras.
    pub model_extras_subversion: Option<i32>,
}

/// A summary of an MS3D model: counts, groups, materials, joints, the
/// timeline and clips, the 1.8 extras and the problems `validate` finds.
/// `Display` gives the text report (without the file name); with feature
/// `serde` it serialises as `info --json` prints it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// Always `"ms3d"`.
    pub format: &'static str,
    /// File version (3 or 4).
    pub version: i32,
    /// Vertices.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Groups.
    pub groups: usize,
    /// Materials.
    pub materials: usize,
    /// Joints.
    pub joints: usize,
    /// Frames per second as stored.
    pub fps: f32,
    /// Length of the timeline in frames.
    pub total_frames: i32,
    /// The model comment.
    pub model_comment: Option<String>,
    /// Every group.
    pub group_list: Vec<GroupInfo>,
    /// Every material.
    pub material_list: Vec<MaterialInfo>,
    /// Every joint's name.
    pub joint_names: Vec<String>,
    /// The 1.8 extras.
    pub extras: ExtrasInfo,
    /// Bytes after the known data.
    pub trailing_bytes: usize,
    /// The whole timeline, then each clip asked for.
    pub clips: Vec<ClipInfo>,
    /// Every problem `validate` finds, as text.
    pub warnings: Vec<String>,
}

impl Ms3d {
    /// The summary of this model, with `clips` (named ranges of its
    /// timeline) measured and checked against the timeline.
    pub fn info(&self, clips: &[Clip]) -> Info {
        let m = self;
        let c = m.extras.comments.as_ref();
        let timeline = m.timeline();
        let fps = m.effective_fps();
        Info {
            format: "ms3d",
            version: m.version,
            vertices: m.vertices.len(),
            triangles: m.triangles.len(),
            groups: m.groups.len(),
            materials: m.materials.len(),
            joints: m.joints.len(),
            fps: m.fps,
            total_frames: m.total_frames,
            model_comment: m.model_comment(),
            group_list: m
                .groups
                .iter()
                .map(|g| GroupInfo {
                    name: g.name.to_string_lossy(),
                    triangles: g.triangles.len(),
                    material: g.material,
                })
                .collect(),
            material_list: m
                .materials
                .iter()
                .map(|x| MaterialInfo {
                    name: x.name.to_string_lossy(),
                    texture: x.texture.to_string_lossy(),
                    alphamap: x.alphamap.to_string_lossy(),
                    transparency: x.transparency,
                })
                .collect(),
            joint_names: m.joints.iter().map(|j| j.name.to_string_lossy()).collect(),
            extras: ExtrasInfo {
                comments_subversion: c.map(|c| c.subversion),
                group_comments: c.map_or(0, |c| c.groups.len()),
                material_comments: c.map_or(0, |c| c.materials.len()),
                joint_comments: c.map_or(0, |c| c.joints.len()),
                model_comment_layout: c.map(|c| match c.model {
                    ModelComment::None(_) => "none",
                    ModelComment::LengthText(_) => "length,text",
                    ModelComment::IndexLengthText { .. } => "index,length,text",
                }),
                vertex_extras_subversion: m.extras.vertices.as_ref().map(|v| v.subversion),
                vertex_extras_record_size: m.extras.vertices.as_ref().map(|v| v.record_size),
                joint_extras_subversion: m.extras.joints.as_ref().map(|j| j.subversion),
                model_extras_subversion: m.extras.model.as_ref().map(|x| x.subversion),
            },
            trailing_bytes: m.trailing.len(),
            clips: std::iter::once(&timeline)
                .chain(clips)
                .map(|clip| ClipInfo {
                    name: clip.name.clone(),
                    first_frame: clip.first_frame,
                    last_frame: clip.last_frame,
                    seconds: clip.duration(fps),
                    within_timeline: clip.last_frame <= timeline.last_frame,
                })
                .collect(),
            warnings: m.validate().iter().map(ToString::to_string).collect(),
        }
    }
}

impl Info {
    /// This summary with `error` as its one warning (for a text that
    /// parses but cannot become a model).
    pub(crate) fn with_error(mut self, error: crate::Error) -> Info {
        self.warnings = vec![format!("error: {error}")];
        self
    }
}

impl fmt::Display for Info {
    /// The report `retromodel info` prints after the file name: starts
    /// with `MS3D version 4`, one line per fact, each ended by a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let j = self;
        if j.format == "ms3d_ascii" {
            writeln!(f, "MilkShape 3D ASCII")?;
        } else {
            writeln!(f, "MS3D version {}", j.version)?;
        }
        writeln!(f, "  vertices      {}", j.vertices)?;
        writeln!(f, "  triangles     {}", j.triangles)?;
        writeln!(f, "  groups        {}", j.groups)?;
        for g in &j.group_list {
            writeln!(
                f,
                "                  {:<20} {:>6} triangles, material {}",
                g.name, g.triangles, g.material
            )?;
        }
        writeln!(f, "  materials     {}", j.materials)?;
        for m in &j.material_list {
            writeln!(
                f,
                "                  {:<20} texture {:?}",
                m.name, m.texture
            )?;
        }
        writeln!(f, "  joints        {}", j.joints)?;
        writeln!(
            f,
            "  animation     {} frames at {} fps",
            j.total_frames, j.fps
        )?;
        for c in &j.clips {
            let note = if c.within_timeline {
                ""
            } else {
                " (beyond the timeline)"
            };
            writeln!(
                f,
                "                  {:<12} frames {}..{} ({:.2} s){note}",
                c.name, c.first_frame, c.last_frame, c.seconds
            )?;
        }
        let x = &j.extras;
        let part = |v: Option<i32>| v.map_or("-".to_string(), |s| s.to_string());
        writeln!(
            f,
            "  1.8 extras    comments {}, vertex {}{}, joint {}, model {}",
            part(x.comments_subversion),
            part(x.vertex_extras_subversion),
            x.vertex_extras_record_size
                .map_or(String::new(), |s| format!(" ({s}-byte records)")),
            part(x.joint_extras_subversion),
            part(x.model_extras_subversion)
        )?;
        if let Some(c) = &j.model_comment {
            writeln!(f, "  comment       {c:?}")?;
        }
        if j.trailing_bytes > 0 {
            writeln!(f, "  trailing      {} bytes (kept)", j.trailing_bytes)?;
        }
        crate::problem::write_warning_list(f, &j.warnings, 20)
    }
}
