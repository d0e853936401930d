//! Clips: named ranges of the one MS3D timeline.

use super::Ms3d;

/// A named range of frames of the model's timeline, in the viewer's frame
/// units (key time × fps).
///
/// MS3D files have a single timeline; animations are conventionally listed
/// as frame ranges (often in the model comment). A clip names one.
///
/// ```
/// use retromodel::ms3d::Clip;
/// let walk: Clip = "walk:2-20".parse().unwrap();
/// assert_eq!((walk.name.as_str(), walk.first_frame, walk.last_frame), ("walk", 2.0, 20.0));
/// assert_eq!(walk.duration(10.0), 1.8);
/// assert!("walk:20-2".parse::<Clip>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Name.
    pub name: String,
    /// First frame.
    pub first_frame: f32,
    /// Last frame (inclusive).
    pub last_frame: f32,
}

impl Clip {
    /// Length in seconds at `fps`.
    pub fn duration(&self, fps: f32) -> f32 {
        (self.last_frame - self.first_frame) / fps
    }

    /// The frame `seconds` into the clip at `fps`, clamped to the clip.
    pub fn frame_at(&self, seconds: f32, fps: f32) -> f32 {
        (self.first_frame + seconds * fps).clamp(self.first_frame, self.last_frame)
    }
}

impl std::str::FromStr for Clip {
    type Err = String;

    /// Parses `name:first-last` (frames, inclusive, `first ≤ last`).
    fn from_str(s: &str) -> Result<Clip, String> {
        let (name, range) = s
            .rsplit_once(':')
            .ok_or_else(|| format!("clip {s:?}: expected name:first-last"))?;
        let (a, b) = range
            .split_once('-')
            .ok_or_else(|| format!("clip {s:?}: expected a range first-last"))?;
        let parse = |v: &str| {
            v.trim()
                .parse::<f32>()
                .ok()
                .filter(|f| f.is_finite() && *f >= 0.0)
                .ok_or_else(|| format!("clip {s:?}: {v:?} is not a frame number"))
        };
        let (first_frame, last_frame) = (parse(a)?, parse(b)?);
        if name.is_empty() || first_frame > last_frame {
            return Err(format!("clip {s:?}: needs a name and first ≤ last"));
        }
        Ok(Clip {
            name: name.to_string(),
            first_frame,
            last_frame,
        })
    }
}

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
}
