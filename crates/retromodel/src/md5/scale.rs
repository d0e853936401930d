//! The rerelease's `.md5scale` sidecar (beside `tris.md5anim`, same stem):
//! a JSON object naming joints, each an object of per-frame scales
//! (`"12": 1.5`, frame numbers as keys) and `"scale_positions": true|false`
//! (whether the joint's position relative to its parent scales too).
//!
//! ```json
//! { "head": { "scale_positions": false, "0": 1.0, "1": 1.25 } }
//! ```
//!
//! Layout and meaning from Q2PRO `src/refresh/models.c`, `MD5_LoadScales`
//! (the per-frame scale, 1 where none is given) and `MD5_BuildFrameSkeleton`
//! (`scale_pos` scales the joint's animated position), and
//! `src/refresh/mesh.c`, `calc_skel_vert` (a joint's scale multiplies the
//! points it holds, not its children).

/// One joint's entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointScale {
    /// The joint's name, as the sidecar gives it.
    pub joint: String,
    /// Index of the joint in the anim's hierarchy; `None` when no joint
    /// has that name (Q2PRO warns "No such joint" and skips it).
    pub index: Option<usize>,
    /// Whether the joint's position relative to its parent scales too.
    pub scale_positions: bool,
    /// `(frame, scale)` pairs, by frame.
    pub frames: Vec<(u64, f32)>,
}

/// A parsed `.md5scale` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md5Scale {
    /// The joints it names, sorted by joint index (names no joint has
    /// first).
    pub joints: Vec<JointScale>,
}

impl Md5Scale {
    /// The entry of joint `joint` (entries are sorted by joint, see
    /// [`Md5Scale::parse`]).
    fn entry(&self, joint: usize) -> Option<&JointScale> {
        self.joints
            .binary_search_by_key(&Some(joint), |j| j.index)
            .ok()
            .map(|k| &self.joints[k])
    }

    /// Joint `joint`'s scale at `frame` (1 when not given).
    pub fn scale(&self, joint: usize, frame: usize) -> f32 {
        self.entry(joint)
            .and_then(|j| {
                j.frames
                    .binary_search_by_key(&(frame as u64), |(f, _)| *f)
                    .ok()
                    .map(|k| j.frames[k].1)
            })
            .unwrap_or(1.0)
    }

    /// Whether joint `joint`'s position scales too.
    pub fn scales_positions(&self, joint: usize) -> bool {
        self.entry(joint).is_some_and(|j| j.scale_positions)
    }

    /// Reads a `.md5scale`, naming joints by `joint_names` (the anim's
    /// hierarchy). Fails on anything but the layout above, with the line
    /// (feature `scene`, for its JSON reader). Entries come sorted by joint
    /// (names no joint has first), their frames by number, the last of a
    /// frame given twice (`"1"` and `"01"`) kept, so that lookups are
    /// binary searches.
    ///
    /// ```
    /// use retromodel::md5::Md5Scale;
    /// let s = Md5Scale::parse(br#"{"head": {"scale_positions": true, "1": 2.0}}"#, &["root", "head"])?;
    /// assert_eq!((s.scale(1, 1), s.scale(1, 0), s.scales_positions(1)), (2.0, 1.0, true));
    /// let s = Md5Scale::parse(br#"{"x": {}, "head": {"10": 3.0, "2": 2.0}, "root": {"1": 0.5}}"#, &["root", "head"])?;
    /// assert_eq!((s.scale(1, 2), s.scale(1, 10), s.scale(0, 1), s.scale(0, 2)), (2.0, 3.0, 0.5, 1.0));
    /// assert_eq!(s.joints[0].index, None); // "x" names no joint
    /// assert!(Md5Scale::parse(br#"{"head": {"one": 2.0}}"#, &["head"]).is_err());
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn parse(bytes: &[u8], joint_names: &[&str]) -> crate::Result<Md5Scale> {
        use serde_json::Value;
        let error = |line: Option<usize>, message: String| crate::Error::Md5 {
            file: "md5scale",
            line,
            message,
        };
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| error(Some(e.line()), format!("not JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(error(None, "expected an object of joints".into()));
        };
        let mut by_name: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (i, n) in joint_names.iter().enumerate() {
            by_name.entry(n).or_insert(i);
        }
        let mut joints = Vec::with_capacity(map.len());
        for (name, entry) in map {
            let Value::Object(entry) = entry else {
                return Err(error(None, format!("joint {name:?}: expected an object")));
            };
            let mut joint = JointScale {
                index: by_name.get(name.as_str()).copied(),
                joint: name,
                ..JointScale::default()
            };
            for (key, v) in entry {
                if key == "scale_positions" {
                    joint.scale_positions = v.as_bool().ok_or_else(|| {
                        error(
                            None,
                            format!(
                                "joint {:?}: scale_positions is not true or false",
                                joint.joint
                            ),
                        )
                    })?;
                    continue;
                }
                let frame: u64 = key.parse().map_err(|_| {
                    error(
                        None,
                        format!(
                            "joint {:?}: key {key:?} is neither a frame number nor scale_positions",
                            joint.joint
                        ),
                    )
                })?;
                let scale = v
                    .as_f64()
                    .map(|s| s as f32)
                    .filter(|s| s.is_finite())
                    .ok_or_else(|| {
                        error(
                            None,
                            format!(
                                "joint {:?}: frame {frame}: scale is not a finite number",
                                joint.joint
                            ),
                        )
                    })?;
                joint.frames.push((frame, scale));
            }
            joint.frames.sort_by_key(|(f, _)| *f);
            let mut kept: Vec<(u64, f32)> = Vec::with_capacity(joint.frames.len());
            for (f, v) in joint.frames.drain(..) {
                match kept.last_mut() {
                    Some(last) if last.0 == f => last.1 = v,
                    _ => kept.push((f, v)),
                }
            }
            joint.frames = kept;
            joints.push(joint);
        }
        // Names are unique and each joint index has one name at most.
        joints.sort_by_key(|j| j.index);
        Ok(Md5Scale { joints })
    }
}
