//! The `.md5scale` JSON sidecar.

use std::fmt::Write;

use super::float;
use crate::md5::Md5Scale;

impl Md5Scale {
    /// The sidecar as JSON, as Q2PRO's `MD5_LoadScales`
    /// (`src/refresh/models.c`) reads it: an object of joints, each
    /// `"scale_positions": true|false` and `"frame": scale` pairs; joints
    /// in order, frames by number, one joint a line. Scales are written as
    /// the shortest decimals that read back the same, so `parse` gives them back exactly
    /// (non-finite scales, which JSON cannot hold, are written as 1).
    ///
    /// ```
    /// use retromodel::md5::Md5Scale;
    /// let s = Md5Scale::parse(br#"{"head": {"scale_positions": false, "0": 1.0, "1": 1.25}}"#, &["root", "head"])?;
    /// let json = String::from_utf8(s.to_bytes()).unwrap();
    /// assert_eq!(json, "{\n\"head\": {\"scale_positions\": false, \"0\": 1, \"1\": 1.25}\n}\n");
    /// assert_eq!(Md5Scale::parse(json.as_bytes(), &["root", "head"])?, s);
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::from("{\n");
        for (i, j) in self.joints.iter().enumerate() {
            // serde_json escapes the name as JSON needs.
            let name = serde_json::Value::String(j.joint.clone()).to_string();
            let _ = write!(out, "{name}: {{\"scale_positions\": {}", j.scale_positions);
            for &(frame, scale) in &j.frames {
                let _ = write!(out, ", \"{frame}\": ");
                float(&mut out, if scale.is_finite() { scale } else { 1.0 });
            }
            out.push('}');
            if i + 1 < self.joints.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("}\n");
        out.into_bytes()
    }
}
