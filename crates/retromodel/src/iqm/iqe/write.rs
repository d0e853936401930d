//! Writing an [`Iqm`] as IQE text that the reference compiler reads
//! back: joints with their bind poses, each mesh's vertices and
//! triangles, and every animation's frames as decoded `pq` poses.

use std::fmt::Write as _;

use crate::iqm::{ArrayKind, Iqm, JointTransform};

/// A name quoted for IQE (a quote inside becomes an apostrophe: IQE
/// names cannot hold one).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "'"))
}

/// Ten-or-fewer values separated by spaces, each the shortest text that
/// reads back as the same `f32`.
fn values(out: &mut String, command: &str, v: &[f32]) {
    out.push_str(command);
    for x in v {
        let _ = write!(out, " {x}");
    }
    out.push('\n');
}

/// A `pq` line with all ten channels.
fn pose(out: &mut String, t: &JointTransform) {
    let c = t.channels();
    values(out, "pq", &c);
}

impl Iqm {
    /// The model as IQE text: every joint (`joint` and its bind pose as
    /// `pq`), each mesh (`mesh`, `material`, then `vp`, `vt`, `vn`, `vx`,
    /// `vb`, `vc` per vertex and `fm` per triangle), every animation
    /// (`animation`, `framerate`, `loop`, then `frame` and a `pq` per pose
    /// of each frame, decoded from the 16-bit channels), and the comment.
    ///
    /// A model with poses and no joints (animations only) gets `joint`
    /// lines named `pose0`, `pose1`… without bind poses, so that the
    /// frames keep their poses.
    ///
    /// ```
    /// let model = retromodel::iqm::sample::sample_model();
    /// let text = model.to_iqe();
    /// assert!(text.starts_with("# Inter-Quake Export\n"));
    /// assert!(text.contains("animation \"wave\"\n"));
    /// ```
    pub fn to_iqe(&self) -> String {
        let mut out = String::from("# Inter-Quake Export\n");
        if self.joints.is_empty() {
            for (i, p) in self.poses.iter().enumerate() {
                let _ = writeln!(out, "joint \"pose{i}\" {}", p.parent);
            }
        } else {
            for j in &self.joints {
                let _ = writeln!(out, "joint {} {}", quoted(&self.name(j.name)), j.parent);
            }
            for j in &self.joints {
                pose(&mut out, &JointTransform::from(j));
            }
        }
        self.write_meshes(&mut out);
        for a in &self.anims {
            let _ = writeln!(out, "\nanimation {}", quoted(&self.name(a.name)));
            let _ = writeln!(out, "framerate {}", a.framerate);
            if a.loops() {
                out.push_str("loop\n");
            }
            let first = a.first_frame as usize;
            for f in first..first.saturating_add(a.num_frames as usize) {
                let Some(frame) = self.frame_pose(f) else {
                    break;
                };
                out.push_str("frame\n");
                for t in &frame.locals {
                    pose(&mut out, t);
                }
            }
        }
        let comment = self
            .comment
            .iter()
            .rposition(|&b| b != 0)
            .map_or(&[][..], |end| &self.comment[..=end]);
        if !comment.is_empty() {
            out.push_str("\ncomment\n");
            out.push_str(&String::from_utf8_lossy(comment));
        }
        out
    }

    /// Each mesh: its vertices, then its triangles as `fm` (or `fa` for a
    /// corner outside the mesh's vertices, by where that vertex was
    /// written; a triangle naming a vertex not written is left out with a
    /// comment).
    fn write_meshes(&self, out: &mut String) {
        let n = self.vertex_count();
        let arrays = [
            (ArrayKind::Position, "vp", false, 3),
            (ArrayKind::Texcoord, "vt", false, 2),
            (ArrayKind::Normal, "vn", false, 3),
            (ArrayKind::Tangent, "vx", false, 4),
            (ArrayKind::Color, "vc", true, 4),
        ];
        let indexes = self.array(ArrayKind::BlendIndexes);
        let weights = self.array(ArrayKind::BlendWeights);
        let mut written: Vec<Option<usize>> = vec![None; n];
        let mut count = 0usize;
        for m in &self.meshes {
            let _ = writeln!(out, "\nmesh {}", quoted(&self.name(m.name)));
            let _ = writeln!(out, "material {}", quoted(&self.name(m.material)));
            let first = (m.first_vertex as usize).min(n);
            let end = first.saturating_add(m.num_vertexes as usize).min(n);
            for v in first..end {
                for (kind, command, normalise, size) in arrays {
                    if let Some(a) = self.array(kind) {
                        let x = a.vertex4(v, normalise).map(|c| c as f32);
                        values(out, command, &x[..size]);
                    }
                }
                if let (Some(ix), Some(wt)) = (indexes, weights) {
                    let ix = ix.vertex4(v, false);
                    let wt = wt.vertex4(v, true);
                    out.push_str("vb");
                    for k in 0..4 {
                        if wt[k] > 0.0 {
                            let _ = write!(out, " {} {}", ix[k], wt[k] as f32);
                        }
                    }
                    out.push('\n');
                }
            }
            for (v, slot) in written.iter_mut().enumerate().take(end).skip(first) {
                if slot.is_none() {
                    *slot = Some(count + v - first);
                }
            }
            let base = count;
            count += end - first;
            let first_tri = m.first_triangle as usize;
            let tris = first_tri.saturating_add(m.num_triangles as usize);
            for (t, tri) in self.triangles.iter().enumerate().take(tris).skip(first_tri) {
                let c = tri.map(|v| v as usize);
                if c.iter().all(|&v| v >= first && v < end) {
                    let _ = writeln!(out, "fm {} {} {}", c[0] - first, c[1] - first, c[2] - first);
                } else if let [Some(a), Some(b), Some(d)] =
                    c.map(|v| written.get(v).copied().flatten())
                {
                    let _ = writeln!(out, "fa {a} {b} {d}");
                } else {
                    let _ = writeln!(out, "# triangle {t} left out: a corner outside the vertices written (from {base})");
                }
            }
        }
    }
}
