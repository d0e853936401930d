//! Clips: named ranges of the one MS3D timeline, and the model-comment
//! line that stores them in a file ([`Ms3d::clips`]).

use super::Ms3d;
pub use crate::clip::Clip;
use crate::error::{Error, Result};

impl Ms3d {
    /// The whole timeline as one clip: frames 0 to `total_frames`, played
    /// at [`Ms3d::effective_fps`].
    pub fn timeline(&self) -> Clip {
        Clip {
            name: "timeline".to_string(),
            first_frame: 0.0,
            last_frame: self.total_frames.max(0) as f32,
        }
    }

    /// Checks that `clip` can be cut from the timeline: finite frames,
    /// `first_frame ≤ last_frame`, both within [`Ms3d::timeline`] (frames 0
    /// to `total_frames`), and a name.
    ///
    /// ```
    /// use retromodel::ms3d::{sample::sample_model, Clip};
    /// let model = sample_model(); // 30 frames
    /// assert!(model.check_clip(&"wave:1-30".parse().unwrap()).is_ok());
    /// let late = Clip { name: "late".into(), first_frame: 20.0, last_frame: 31.0 };
    /// assert!(model.check_clip(&late).is_err());
    /// ```
    pub fn check_clip(&self, clip: &Clip) -> Result<()> {
        let timeline = self.timeline();
        let problem = if clip.name.is_empty() {
            Some("a clip needs a name".to_string())
        } else if !(clip.first_frame.is_finite() && clip.last_frame.is_finite()) {
            Some("frames must be finite numbers".to_string())
        } else if clip.first_frame > clip.last_frame {
            Some("the last frame comes before the first".to_string())
        } else if clip.first_frame < timeline.first_frame || clip.last_frame > timeline.last_frame {
            Some(format!(
                "outside the timeline (frames {}-{})",
                timeline.first_frame, timeline.last_frame
            ))
        } else {
            None
        };
        match problem {
            Some(message) => Err(Error::InvalidClip {
                name: clip.name.clone(),
                first_frame: clip.first_frame,
                last_frame: clip.last_frame,
                message,
            }),
            None => Ok(()),
        }
    }
}

/// The prefix of the model-comment line that lists a file's clips.
///
/// The line is `retromodel clips: NAME FIRST-LAST; NAME FIRST-LAST; ...`
/// on a line of its own in the model comment (the 1.8 comments extra), for
/// example `retromodel clips: walk 1-31; run 32-57`. Frames are MilkShape's
/// frame numbers as [`Clip`] counts them (fractional frames are written
/// as decimals); a name is everything before the range's last space, with
/// `;`, line breaks and other control characters replaced by `_` when the
/// line is written. MilkShape shows the comment as it is, so a person
/// reading it in the editor sees the clips too.
pub const CLIP_LINE_PREFIX: &str = "retromodel clips:";

/// `NAME FIRST-LAST` as the clip line stores it.
fn to_line_item(clip: &Clip) -> String {
    let name: String = clip
        .name
        .chars()
        .map(|c| if c == ';' || c.is_control() { '_' } else { c })
        .collect();
    let name = name.trim();
    let name = if name.is_empty() { "clip" } else { name };
    format!("{name} {}-{}", clip.first_frame, clip.last_frame)
}

/// One `NAME FIRST-LAST` item of a clip line.
fn from_line_item(item: &str) -> Option<Clip> {
    let item = item.trim();
    let (name, range) = item.rsplit_once(' ')?;
    let (a, b) = range.split_once('-')?;
    let frame = |v: &str| v.parse::<f32>().ok().filter(|f| f.is_finite() && *f >= 0.0);
    let (first_frame, last_frame) = (frame(a)?, frame(b)?);
    let name = name.trim();
    (!name.is_empty() && first_frame <= last_frame).then(|| Clip {
        name: name.to_string(),
        first_frame,
        last_frame,
    })
}

/// The clip line for `clips` (see [`CLIP_LINE_PREFIX`]).
///
/// ```
/// use retromodel::ms3d::{clip_line, Clip};
/// let clips: Vec<Clip> = vec!["walk:1-31".parse().unwrap(), "run:32-57.5".parse().unwrap()];
/// assert_eq!(clip_line(&clips), "retromodel clips: walk 1-31; run 32-57.5");
/// ```
pub fn clip_line(clips: &[Clip]) -> String {
    let items: Vec<String> = clips.iter().map(to_line_item).collect();
    format!("{CLIP_LINE_PREFIX} {}", items.join("; "))
}

/// The clips a model comment's clip line lists, in order; none when the
/// comment has no such line. Items that do not parse are left out.
///
/// ```
/// use retromodel::ms3d::parse_clip_line;
/// let clips = parse_clip_line("made by hand\r\nretromodel clips: walk 1-31; big run 32-57\r\n");
/// assert_eq!(clips.len(), 2);
/// assert_eq!((clips[1].name.as_str(), clips[1].first_frame), ("big run", 32.0));
/// ```
pub fn parse_clip_line(comment: &str) -> Vec<Clip> {
    comment
        .lines()
        .find_map(|l| l.trim().strip_prefix(CLIP_LINE_PREFIX))
        .map(|rest| rest.split(';').filter_map(from_line_item).collect())
        .unwrap_or_default()
}

/// `comment` with its clip line replaced by the one for `clips` (added
/// as the last line when it has none; removed when `clips` is empty).
/// Every other line is kept as it is, with the comment's own line breaks
/// (`\r\n` when it uses them).
///
/// ```
/// use retromodel::ms3d::{with_clip_line, Clip};
/// let walk: Clip = "walk:1-31".parse().unwrap();
/// assert_eq!(with_clip_line("scale=0.5\r\n", &[walk.clone()]), "scale=0.5\r\nretromodel clips: walk 1-31\r\n");
/// assert_eq!(with_clip_line("", &[walk]), "retromodel clips: walk 1-31");
/// assert_eq!(with_clip_line("a\nretromodel clips: x 1-2\nb", &[]), "a\nb");
/// ```
pub fn with_clip_line(comment: &str, clips: &[Clip]) -> String {
    let newline = if comment.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let ends_with_newline = comment.ends_with('\n');
    let mut lines: Vec<String> = comment
        .lines()
        .filter(|l| !l.trim().starts_with(CLIP_LINE_PREFIX))
        .map(str::to_string)
        .collect();
    if !clips.is_empty() {
        lines.push(clip_line(clips));
    }
    let mut out = lines.join(newline);
    if ends_with_newline && !out.is_empty() {
        out.push_str(newline);
    }
    out
}

impl Ms3d {
    /// The clips stored in the model comment's clip line (see
    /// [`CLIP_LINE_PREFIX`]) that fit the timeline ([`Ms3d::check_clip`]),
    /// in order; none when the comment has no clip line.
    /// `Scene::from_ms3d` (feature `scene`) makes one animation per
    /// stored clip when it is given no clips of its own.
    pub fn clips(&self) -> Vec<Clip> {
        let Some(comment) = self.model_comment() else {
            return Vec::new();
        };
        parse_clip_line(&comment)
            .into_iter()
            .filter(|c| self.check_clip(c).is_ok())
            .collect()
    }
}
