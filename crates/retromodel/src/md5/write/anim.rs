//! `md5anim` text.

use std::fmt::Write;

use super::{float, quoted, vec3};
use crate::md5::{Md5Anim, MD5_VERSION};

impl Md5Anim {
    /// The anim as `md5anim` text (floats as the shortest decimal that reads back the same,
    /// never in exponent form): `parse` of it
    /// gives `self` back (the lines aside). `numFrames` is
    /// [`Md5Anim::num_frames`]; bounds and frames missing from the vectors
    /// are written as zeros, so the text always reads.
    ///
    /// ```
    /// use retromodel::md5::Md5Anim;
    /// let text = "MD5Version 10 commandline \"\" numFrames 2 numJoints 1 frameRate 24
    /// numAnimatedComponents 1 hierarchy { \"root\" -1 1 0 }
    /// bounds { ( 0 0 0 ) ( 1 1 1 ) ( 0 0 0 ) ( 1 1 1 ) } baseframe { ( 0 0 0 ) ( 0 0 0 ) }
    /// frame 0 { 0.1 } frame 1 { -0.3 }";
    /// let anim = Md5Anim::parse(text.as_bytes())?;
    /// let again = Md5Anim::parse(anim.to_text().as_bytes())?;
    /// assert_eq!((again.components, again.frame_rate), (anim.components, 24.0));
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn to_text(&self) -> String {
        let n = self.num_animated_components;
        let mut out = String::with_capacity(256 + self.num_frames * (16 + n * 10));
        let _ = writeln!(out, "MD5Version {MD5_VERSION}");
        out.push_str("commandline ");
        quoted(&mut out, &self.commandline);
        let _ = write!(
            out,
            "\n\nnumFrames {}\nnumJoints {}\nframeRate ",
            self.num_frames,
            self.hierarchy.len()
        );
        float(&mut out, self.frame_rate);
        let _ = write!(out, "\nnumAnimatedComponents {n}\n\nhierarchy {{\n");
        for h in &self.hierarchy {
            out.push('\t');
            quoted(&mut out, &h.name);
            let parent = h.parent.map_or(-1, |p| p as i64);
            let _ = writeln!(out, " {parent} {} {}", h.flags, h.start_index);
        }
        out.push_str("}\n\nbounds {\n");
        for k in 0..self.num_frames {
            let [lo, hi] = self.bounds.get(k).copied().unwrap_or_default();
            out.push('\t');
            vec3(&mut out, lo);
            out.push(' ');
            vec3(&mut out, hi);
            out.push('\n');
        }
        out.push_str("}\n\nbaseframe {\n");
        for (i, _) in self.hierarchy.iter().enumerate() {
            let b = self.base_frame.get(i);
            out.push('\t');
            vec3(&mut out, b.map_or([0.0; 3], |b| b.position));
            out.push(' ');
            vec3(&mut out, b.map_or([0.0; 3], |b| b.orientation));
            out.push('\n');
        }
        out.push_str("}\n");
        for k in 0..self.num_frames {
            let data = self.frame(k);
            let _ = write!(out, "\nframe {k} {{\n\t");
            for c in 0..n {
                float(&mut out, data.get(c).copied().unwrap_or(0.0));
                out.push(if c % 6 == 5 { '\n' } else { ' ' });
                if c % 6 == 5 && c + 1 < n {
                    out.push('\t');
                }
            }
            if !n.is_multiple_of(6) {
                out.push('\n');
            }
            out.push_str("}\n");
        }
        out
    }

    /// [`Md5Anim::to_text`] as bytes (UTF-8), for writing a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_text().into_bytes()
    }
}
