//! Clips: named ranges of the one MS3D timeline.

use super::Ms3d;
use crate::error::{Error, Result};

/// A named range of frames of the model's timeline, in the viewer's frame
/// units (key time × fps).
///
/// MS3D files have a single timeline; animations are conventionally listed
/// as frame ranges (often in the model comment). A clip names one.
///
/// **Frames and seconds.** Frame `F` is the instant `F / fps` seconds
/// (fps: [`Ms3d::effective_fps`]), the inverse of what MilkShape's viewer
/// does when it multiplies key times by the fps. Frames are not shifted:
/// MilkShape numbers its frames from 1 and stores a key set on frame `N`
/// at `N / fps` seconds (in the corpus, `glscene_Woman4.ms3d`'s keys lie
/// at 1/15 … 2133/15 s for its 2133 frames at 15 fps), so clip frames are
/// the frame numbers MilkShape shows, and frame 0, before the first key,
/// holds the first key's pose. Frames may be fractional.
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

    /// The instant of the first frame, in seconds of the timeline:
    /// `first_frame / fps`.
    ///
    /// ```
    /// use retromodel::ms3d::Clip;
    /// let walk: Clip = "walk:2-20".parse().unwrap();
    /// assert_eq!((walk.start_time(10.0), walk.end_time(10.0)), (0.2, 2.0));
    /// ```
    pub fn start_time(&self, fps: f32) -> f32 {
        self.first_frame / fps
    }

    /// The instant of the last frame, in seconds of the timeline:
    /// `last_frame / fps`.
    pub fn end_time(&self, fps: f32) -> f32 {
        self.last_frame / fps
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
