//! `retromodel info` for MD2 models.

use anyhow::Result;
use retromodel::md2::Md2;
use serde::Serialize;

#[derive(Serialize)]
struct AnimationJson {
    name: String,
    first_frame: usize,
    frame_count: usize,
}

/// The JSON `info --json` prints for an MD2 model.
#[derive(Serialize)]
pub struct Md2Json {
    format: &'static str,
    version: i32,
    skin_width: i32,
    skin_height: i32,
    skins: Vec<String>,
    vertices: usize,
    texcoords: usize,
    triangles: usize,
    frames: usize,
    frame_names: Vec<String>,
    gl_commands: usize,
    gl_command_words: usize,
    gl_vertices: usize,
    animations: Vec<AnimationJson>,
    fps: f32,
    file_size: u64,
    trailing_bytes: usize,
    standard_layout: bool,
    warnings: Vec<String>,
}

pub fn md2_json(model: &Md2, bytes: &[u8]) -> Md2Json {
    let gl = model.decode_gl_commands().stats(model.gl_commands.len());
    Md2Json {
        format: "md2",
        version: retromodel::md2::VERSION,
        skin_width: model.skin_width,
        skin_height: model.skin_height,
        skins: model.skins.iter().map(|s| s.to_string_lossy()).collect(),
        vertices: model.vertex_count(),
        texcoords: model.texcoords.len(),
        triangles: model.triangles.len(),
        frames: model.frames.len(),
        frame_names: model.frames.iter().map(|f| f.name()).collect(),
        gl_commands: gl.strips + gl.fans,
        gl_command_words: gl.words,
        gl_vertices: gl.gl_vertices,
        animations: model
            .animations()
            .into_iter()
            .map(|a| AnimationJson {
                name: a.name,
                first_frame: a.first_frame,
                frame_count: a.frame_count,
            })
            .collect(),
        fps: retromodel::md2::DEFAULT_FPS,
        file_size: bytes.len() as u64,
        trailing_bytes: model.trailing.len(),
        standard_layout: model.to_bytes().is_ok_and(|b| b == bytes),
        warnings: model.validate().iter().map(ToString::to_string).collect(),
    }
}

pub fn print_md2(path: &std::path::Path, j: &Md2Json) -> Result<()> {
    outln!("{}: MD2 version {}", path.display(), j.version);
    outln!("  skin size     {} × {}", j.skin_width, j.skin_height);
    outln!("  skins         {}", j.skins.len());
    for s in &j.skins {
        outln!("                  {s}");
    }
    outln!("  vertices      {}", j.vertices);
    outln!("  texcoords     {}", j.texcoords);
    outln!("  triangles     {}", j.triangles);
    outln!("  frames        {}", j.frames);
    outln!(
        "  GL commands   {} ({} words, {} GL vertices)",
        j.gl_commands,
        j.gl_command_words,
        j.gl_vertices
    );
    outln!(
        "  file          {} bytes, {} trailing, {} layout",
        j.file_size,
        j.trailing_bytes,
        if j.standard_layout {
            "standard"
        } else {
            "non-standard"
        }
    );
    outln!("  animations    {} at {} fps", j.animations.len(), j.fps);
    for a in &j.animations {
        outln!(
            "                  {:<12} frames {:>4}..{:<4} ({})",
            a.name,
            a.first_frame,
            a.first_frame + a.frame_count - 1,
            a.frame_count
        );
    }
    if j.warnings.is_empty() {
        outln!("  warnings      none");
    } else {
        outln!("  warnings      {}", j.warnings.len());
        const SHOWN: usize = 20;
        for w in j.warnings.iter().take(SHOWN) {
            outln!("                  {w}");
        }
        if j.warnings.len() > SHOWN {
            outln!(
                "                  … and {} more (see `retromodel validate`)",
                j.warnings.len() - SHOWN
            );
        }
    }
    Ok(())
}
