//! A summary of an MD2 model: what `retromodel info` shows.

use std::fmt;

use super::Md2;

/// One animation in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationInfo {
    /// Name.
    pub name: String,
    /// Index of its first frame.
    pub first_frame: usize,
    /// Number of frames.
    pub frame_count: usize,
}

/// A summary of an MD2 model and the file it came from: header facts,
/// counts, skins, frame names, GL command statistics, animations and the
/// problems `validate` finds. `Display` gives the text report (without
/// the file name); with feature `serde` it serialises as `info --json`
/// prints it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// Always `"md2"`.
    pub format: &'static str,
    /// The format version (8).
    pub version: i32,
    /// Skin width in pixels.
    pub skin_width: i32,
    /// Skin height in pixels.
    pub skin_height: i32,
    /// Skin names.
    pub skins: Vec<String>,
    /// Vertices per frame.
    pub vertices: usize,
    /// Texture coordinates.
    pub texcoords: usize,
    /// Triangles.
    pub triangles: usize,
    /// Frames.
    pub frames: usize,
    /// Every frame's name.
    pub frame_names: Vec<String>,
    /// GL command primitives (strips and fans).
    pub gl_commands: usize,
    /// 32-bit words of GL commands.
    pub gl_command_words: usize,
    /// Vertices the GL commands send.
    pub gl_vertices: usize,
    /// Animations from the frame names.
    pub animations: Vec<AnimationInfo>,
    /// The playback rate the animations assume.
    pub fps: f32,
    /// Length of the file in bytes.
    pub file_size: u64,
    /// Bytes after the data.
    pub trailing_bytes: usize,
    /// Whether the file is laid out as this crate writes it.
    pub standard_layout: bool,
    /// Every problem `validate` finds, as text.
    pub warnings: Vec<String>,
}

impl Md2 {
    /// The summary of this model, read from `bytes` (its file, for the
    /// size and layout facts).
    pub fn info(&self, bytes: &[u8]) -> Info {
        let gl = self.decode_gl_commands().stats(self.gl_commands.len());
        Info {
            format: "md2",
            version: super::VERSION,
            skin_width: self.skin_width,
            skin_height: self.skin_height,
            skins: self.skins.iter().map(|s| s.to_string_lossy()).collect(),
            vertices: self.vertex_count(),
            texcoords: self.texcoords.len(),
            triangles: self.triangles.len(),
            frames: self.frames.len(),
            frame_names: self.frames.iter().map(|f| f.name()).collect(),
            gl_commands: gl.strips + gl.fans,
            gl_command_words: gl.words,
            gl_vertices: gl.gl_vertices,
            animations: self
                .animations()
                .into_iter()
                .map(|a| AnimationInfo {
                    name: a.name,
                    first_frame: a.first_frame,
                    frame_count: a.frame_count,
                })
                .collect(),
            fps: super::DEFAULT_FPS,
            file_size: bytes.len() as u64,
            trailing_bytes: self.trailing.len(),
            standard_layout: self.to_bytes().is_ok_and(|b| b == bytes),
            warnings: self.validate().iter().map(ToString::to_string).collect(),
        }
    }
}

/// How many warnings the text report lists.
const SHOWN: usize = 20;

impl fmt::Display for Info {
    /// The report `retromodel info` prints after the file name: starts
    /// with `MD2 version 8`, one line per fact, each line ended by a
    /// newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let j = self;
        writeln!(f, "MD2 version {}", j.version)?;
        writeln!(f, "  skin size     {} × {}", j.skin_width, j.skin_height)?;
        writeln!(f, "  skins         {}", j.skins.len())?;
        for s in &j.skins {
            writeln!(f, "                  {s}")?;
        }
        writeln!(f, "  vertices      {}", j.vertices)?;
        writeln!(f, "  texcoords     {}", j.texcoords)?;
        writeln!(f, "  triangles     {}", j.triangles)?;
        writeln!(f, "  frames        {}", j.frames)?;
        writeln!(
            f,
            "  GL commands   {} ({} words, {} GL vertices)",
            j.gl_commands, j.gl_command_words, j.gl_vertices
        )?;
        writeln!(
            f,
            "  file          {} bytes, {} trailing, {} layout",
            j.file_size,
            j.trailing_bytes,
            if j.standard_layout {
                "standard"
            } else {
                "non-standard"
            }
        )?;
        writeln!(f, "  animations    {} at {} fps", j.animations.len(), j.fps)?;
        for a in &j.animations {
            writeln!(
                f,
                "                  {:<12} frames {:>4}..{:<4} ({})",
                a.name,
                a.first_frame,
                a.first_frame + a.frame_count - 1,
                a.frame_count
            )?;
        }
        crate::problem::write_warning_list(f, &j.warnings, SHOWN)
    }
}
