//! The `md5anim` file: a joint hierarchy saying which of each joint's six
//! components (position x y z, orientation x y z) the frames animate and
//! where in a frame they start, a base frame for the rest, bounds and the
//! frames.
//!
//! ```text
//! MD5Version 10
//! commandline ""
//! numFrames 2
//! numJoints 2
//! frameRate 24
//! numAnimatedComponents 3
//! hierarchy {
//!     "root" -1 0 0        // name parent flags start_index
//!     "arm"   0 56 0       // flags 8|16|32: orientation x y z from component 0
//! }
//! bounds { ( -1 -1 -1 ) ( 1 1 1 ) ... one line per frame }
//! baseframe { ( 0 0 0 ) ( 0 0 0 ) ... one line per joint }
//! frame 0 { 0 0 0 }
//! frame 1 { 0.1 0 0 }
//! ```

use super::lexer::{check_count, Lexer};
use crate::error::Result;

/// The six component bits of a hierarchy entry's flags, in frame order:
/// position x, y, z, orientation x, y, z (Q2PRO `src/refresh/models.c`,
/// `MD5_BuildFrameSkeleton`: `MD5_NUM_ANIMATED_COMPONENT_BITS` 6).
pub const COMPONENT_BITS: u32 = 6;

/// A joint of the anim's hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct HierarchyJoint {
    /// Name.
    pub name: String,
    /// Parent, always an earlier joint; `None` for a root (`-1`).
    pub parent: Option<usize>,
    /// Which components the frames animate (bits 0–5; other bits are
    /// kept and reported by validation).
    pub flags: u32,
    /// Where in a frame its animated components start; checked so that
    /// all of them are within `numAnimatedComponents`.
    pub start_index: usize,
    /// The line it is on.
    pub line: usize,
}

impl HierarchyJoint {
    /// How many components the frames hold for this joint.
    pub fn animated_components(&self) -> usize {
        (self.flags & ((1 << COMPONENT_BITS) - 1)).count_ones() as usize
    }
}

/// A joint of the base frame: position and orientation relative to the
/// parent, for the components the frames do not animate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaseJoint {
    /// Position in the parent's frame.
    pub position: [f32; 3],
    /// Orientation `x y z` in the parent's frame.
    pub orientation: [f32; 3],
}

/// A whole `md5anim` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md5Anim {
    /// The exporter's command line.
    pub commandline: String,
    /// Frames per second as stored (any finite number; validation checks
    /// it is positive).
    pub frame_rate: f32,
    /// Numbers per frame.
    pub num_animated_components: usize,
    /// The hierarchy, one entry per joint.
    pub hierarchy: Vec<HierarchyJoint>,
    /// Bounds per frame: minimum and maximum corner.
    pub bounds: Vec<[[f32; 3]; 2]>,
    /// The base frame, one per joint.
    pub base_frame: Vec<BaseJoint>,
    /// The frames' numbers, `num_animated_components` per frame, frame
    /// after frame.
    pub components: Vec<f32>,
    /// Number of frames.
    pub num_frames: usize,
}

impl Md5Anim {
    /// Frame `k`'s numbers (empty past the last frame).
    pub fn frame(&self, k: usize) -> &[f32] {
        let n = self.num_animated_components;
        self.components.get(k * n..(k + 1) * n).unwrap_or_default()
    }

    /// Reads an `md5anim` file.
    ///
    /// ```
    /// use retromodel::md5::Md5Anim;
    /// let text = "MD5Version 10 commandline \"\" numFrames 1 numJoints 1 frameRate 24
    /// numAnimatedComponents 1 hierarchy { \"root\" -1 1 0 }
    /// bounds { ( 0 0 0 ) ( 1 1 1 ) } baseframe { ( 0 0 0 ) ( 0 0 0 ) }
    /// frame 0 { 0.5 }";
    /// let anim = Md5Anim::parse(text.as_bytes())?;
    /// assert_eq!(anim.frame(0), &[0.5]);
    /// let err = Md5Anim::parse(text.replace("-1 1 0", "-1 3 0").as_bytes()).unwrap_err();
    /// assert_eq!(err.to_string(), "md5anim line 2: joint 0 (\"root\"): components 0..2 are not within numAnimatedComponents 1");
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Md5Anim> {
        let mut lx = Lexer::new(bytes, "md5anim");
        let commandline = lx.header()?;
        lx.keyword("numFrames")?;
        let (frames, frames_line) = lx.uint("numFrames", u64::MAX)?;
        // A frame needs `frame k { }` and a bounds line: at least 15 bytes.
        let num_frames = check_count(&lx, frames_line, "numFrames", frames, 15)?;
        lx.keyword("numJoints")?;
        let (n, line) = lx.uint("numJoints", u64::MAX)?;
        // A joint needs a hierarchy line and a base frame line.
        let num_joints = check_count(&lx, line, "numJoints", n, 14)?;
        lx.keyword("frameRate")?;
        let frame_rate = lx.float("frameRate")?;
        lx.keyword("numAnimatedComponents")?;
        let (n, line) = lx.uint("numAnimatedComponents", u64::MAX)?;
        // Every frame holds them all, two bytes at least each.
        let total = n.saturating_mul(frames);
        check_count(&lx, line, "numAnimatedComponents × numFrames", total, 2)?;
        let num_components = n as usize;

        lx.keyword("hierarchy")?;
        lx.punct(b'{')?;
        let mut hierarchy = Vec::with_capacity(num_joints);
        for i in 0..num_joints {
            hierarchy.push(parse_hierarchy_joint(&mut lx, i, num_components)?);
        }
        lx.punct(b'}')?;

        lx.keyword("bounds")?;
        lx.punct(b'{')?;
        let mut bounds = Vec::with_capacity(num_frames);
        for _ in 0..num_frames {
            bounds.push([lx.vec3("bounds")?, lx.vec3("bounds")?]);
        }
        lx.punct(b'}')?;

        lx.keyword("baseframe")?;
        lx.punct(b'{')?;
        let mut base_frame = Vec::with_capacity(num_joints);
        for _ in 0..num_joints {
            base_frame.push(BaseJoint {
                position: lx.vec3("base frame position")?,
                orientation: lx.vec3("base frame orientation")?,
            });
        }
        lx.punct(b'}')?;

        let mut components = Vec::with_capacity(num_frames * num_components);
        for k in 0..num_frames {
            lx.keyword("frame")?;
            let (index, line) = lx.uint("frame", u64::MAX)?;
            if index != k as u64 {
                return Err(lx.error_at(
                    line,
                    format!("frame {index} out of order: expected frame {k}"),
                ));
            }
            lx.punct(b'{')?;
            for _ in 0..num_components {
                components.push(lx.float("frame component")?);
            }
            if !lx.peek_punct(b'}')? {
                let line = lx.line();
                return Err(lx.error_at(
                    line,
                    format!(
                        "frame {k} has more than numAnimatedComponents {num_components} numbers"
                    ),
                ));
            }
            lx.punct(b'}')?;
        }
        lx.end()?;
        Ok(Md5Anim {
            commandline,
            frame_rate,
            num_animated_components: num_components,
            hierarchy,
            bounds,
            base_frame,
            components,
            num_frames,
        })
    }
}

/// `"name" parent flags start_index`, with the parent an earlier joint and
/// the animated components within the frame (Q2PRO `MD5_ParseAnim`: "Bad
/// parent joint", "Bad joint info").
fn parse_hierarchy_joint(
    lx: &mut Lexer,
    i: usize,
    num_components: usize,
) -> Result<HierarchyJoint> {
    let (name, line) = lx.string("a joint name")?;
    let (parent, pline) = lx.int("parent", -1, i64::MAX)?;
    let parent = match usize::try_from(parent) {
        Err(_) => None,
        Ok(p) if p < i => Some(p),
        Ok(p) => {
            return Err(lx.error_at(
                pline,
                format!("joint {i} ({name:?}): parent {p} is not an earlier joint"),
            ))
        }
    };
    let (flags, _) = lx.uint("flags", u32::MAX.into())?;
    let (start, sline) = lx.uint("start index", u64::MAX)?;
    let joint = HierarchyJoint {
        name,
        parent,
        flags: flags as u32,
        start_index: usize::try_from(start).unwrap_or(usize::MAX),
        line,
    };
    let end = start.saturating_add(joint.animated_components() as u64);
    if end > num_components as u64 {
        return Err(lx.error_at(
            sline,
            format!(
                "joint {i} ({:?}): components {start}..{end} are not within numAnimatedComponents {num_components}",
                joint.name
            ),
        ));
    }
    Ok(joint)
}
