//! Clips: named ranges of a model's one timeline, in frames. Plain data
//! at the bottom of the crate, so that the formats that have such a
//! timeline (MS3D), the scene options that cut it, and the converter can
//! all name it without naming each other.

/// A named range of frames of the model's timeline, in the viewer's frame
/// units (key time × fps).
///
/// Some formats have a single timeline (MS3D); animations are
/// conventionally listed as frame ranges (often in the model comment). A
/// clip names one.
///
/// **Frames and seconds.** Frame `F` is the instant `F / fps` seconds
/// (fps: the model's, for MS3D `Ms3d::effective_fps`), the inverse of what
/// MilkShape's viewer does when it multiplies key times by the fps. Frames
/// are not shifted: MilkShape numbers its frames from 1 and stores a key set on frame `N`
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
