//! `retromodel info` for MS3D models.

use anyhow::Result;
use retromodel::ms3d::{Clip, ModelComment, Ms3d};
use serde::Serialize;

#[derive(Serialize)]
pub struct GroupJson {
    name: String,
    triangles: usize,
    material: i8,
}

#[derive(Serialize)]
pub struct MaterialJson {
    name: String,
    texture: String,
    alphamap: String,
    transparency: f32,
}

#[derive(Serialize)]
pub struct ClipJson {
    name: String,
    first_frame: f32,
    last_frame: f32,
    seconds: f32,
    within_timeline: bool,
}

#[derive(Serialize)]
pub struct ExtrasJson {
    comments_subversion: Option<i32>,
    group_comments: usize,
    material_comments: usize,
    joint_comments: usize,
    model_comment_layout: Option<&'static str>,
    vertex_extras_subversion: Option<i32>,
    vertex_extras_record_size: Option<usize>,
    joint_extras_subversion: Option<i32>,
    model_extras_subversion: Option<i32>,
}

/// The JSON `info --json` prints for an MS3D model.
#[derive(Serialize)]
pub struct Ms3dJson {
    format: &'static str,
    version: i32,
    vertices: usize,
    triangles: usize,
    groups: usize,
    materials: usize,
    joints: usize,
    fps: f32,
    total_frames: i32,
    model_comment: Option<String>,
    group_list: Vec<GroupJson>,
    material_list: Vec<MaterialJson>,
    joint_names: Vec<String>,
    extras: ExtrasJson,
    trailing_bytes: usize,
    clips: Vec<ClipJson>,
    warnings: Vec<String>,
}

pub fn ms3d_json(m: &Ms3d, clips: &[Clip]) -> Ms3dJson {
    let c = m.extras.comments.as_ref();
    let timeline = m.timeline();
    let fps = m.effective_fps();
    Ms3dJson {
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
            .map(|g| GroupJson {
                name: g.name.to_string_lossy(),
                triangles: g.triangles.len(),
                material: g.material,
            })
            .collect(),
        material_list: m
            .materials
            .iter()
            .map(|x| MaterialJson {
                name: x.name.to_string_lossy(),
                texture: x.texture.to_string_lossy(),
                alphamap: x.alphamap.to_string_lossy(),
                transparency: x.transparency,
            })
            .collect(),
        joint_names: m.joints.iter().map(|j| j.name.to_string_lossy()).collect(),
        extras: ExtrasJson {
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
            .map(|clip| ClipJson {
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

pub fn print_ms3d(path: &std::path::Path, j: &Ms3dJson) -> Result<()> {
    outln!("{}: MS3D version {}", path.display(), j.version);
    outln!("  vertices      {}", j.vertices);
    outln!("  triangles     {}", j.triangles);
    outln!("  groups        {}", j.groups);
    for g in &j.group_list {
        outln!(
            "                  {:<20} {:>6} triangles, material {}",
            g.name,
            g.triangles,
            g.material
        );
    }
    outln!("  materials     {}", j.materials);
    for m in &j.material_list {
        outln!("                  {:<20} texture {:?}", m.name, m.texture);
    }
    outln!("  joints        {}", j.joints);
    outln!("  animation     {} frames at {} fps", j.total_frames, j.fps);
    for c in &j.clips {
        let note = if c.within_timeline {
            ""
        } else {
            " (beyond the timeline)"
        };
        outln!(
            "                  {:<12} frames {}..{} ({:.2} s){note}",
            c.name,
            c.first_frame,
            c.last_frame,
            c.seconds
        );
    }
    let x = &j.extras;
    let part = |v: Option<i32>| v.map_or("-".to_string(), |s| s.to_string());
    outln!(
        "  1.8 extras    comments {}, vertex {}{}, joint {}, model {}",
        part(x.comments_subversion),
        part(x.vertex_extras_subversion),
        x.vertex_extras_record_size
            .map_or(String::new(), |s| format!(" ({s}-byte records)")),
        part(x.joint_extras_subversion),
        part(x.model_extras_subversion)
    );
    if let Some(c) = &j.model_comment {
        outln!("  comment       {:?}", c);
    }
    if j.trailing_bytes > 0 {
        outln!("  trailing      {} bytes (kept)", j.trailing_bytes);
    }
    if j.warnings.is_empty() {
        outln!("  warnings      none");
    } else {
        outln!("  warnings      {}", j.warnings.len());
        for w in j.warnings.iter().take(20) {
            outln!("                  {w}");
        }
        if j.warnings.len() > 20 {
            outln!(
                "                  … and {} more (see `retromodel validate`)",
                j.warnings.len() - 20
            );
        }
    }
    Ok(())
}
