//! Every problem of an [`Iqm`], with a path and, where the model was
//! read from a file, the byte offset of the value.

use super::read::{field_offset, OFFSET_FIELDS};
use super::{
    ArrayFormat, ArrayKind, Iqm, ANIM_SIZE, JOINT_SIZE, MESH_SIZE, NO_NEIGHBOUR, POSE_SIZE,
    TRIANGLE_SIZE, VERTEX_ARRAY_SIZE,
};
use crate::problem::{Collector, Problem};

impl Iqm {
    /// Every problem in the model: names outside the text, ranges and
    /// indices out of bounds (meshes, triangles, blend indexes, parents,
    /// animations, adjacency), frame channels that do not match the
    /// poses' masks, values that are not finite, and what the
    /// specification asks that a loader may forgive (offsets on 4-byte
    /// boundaries, arrays in the specified order and in the portable
    /// formats, weights that sum to one).
    ///
    /// ```
    /// let mut model = retromodel::iqm::sample::sample_model();
    /// assert!(model.validate().is_empty());
    /// model.triangles[0][2] = 7;
    /// let problems = model.validate();
    /// assert_eq!(problems[0].path, "triangles[0].vertex[2]");
    /// ```
    pub fn validate(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        let read = self.header.file_len > 0;
        let at = |field: &str, base: u32, i: usize, size: usize, within: usize| {
            read.then(|| u64::from(base) + (i * size + within) as u64)
                .filter(|_| !field.is_empty())
        };
        let o = self.header.offsets;
        self.check_text(&mut c);
        if read {
            for (k, name) in OFFSET_FIELDS.iter().enumerate() {
                if !o[k].is_multiple_of(4) {
                    c.warn(
                        *name,
                        format!(
                            "offset {} is not on a 4-byte boundary, as iqm.txt requires",
                            o[k]
                        ),
                        Some(field_offset(name)),
                    );
                }
            }
            if u64::from(self.header.filesize) != self.header.file_len {
                c.warn(
                    "filesize",
                    format!(
                        "{} but the file is {} bytes long",
                        self.header.filesize, self.header.file_len
                    ),
                    Some(field_offset("filesize")),
                );
            }
        }
        let name_ok = |offset: u32| offset == 0 || (offset as usize) < self.text.len();
        let name = |c: &mut Collector, path: String, offset: u32, at: Option<u64>| {
            if !name_ok(offset) {
                c.error(
                    path,
                    format!(
                        "text offset {offset} is outside the text ({} bytes)",
                        self.text.len()
                    ),
                    at,
                );
            }
        };
        let nv = u64::from(self.num_vertexes);
        let nt = self.triangles.len() as u64;
        for (i, m) in self.meshes.iter().enumerate() {
            name(
                &mut c,
                format!("meshes[{i}].name"),
                m.name,
                at("m", o[1], i, MESH_SIZE, 0),
            );
            name(
                &mut c,
                format!("meshes[{i}].material"),
                m.material,
                at("m", o[1], i, MESH_SIZE, 4),
            );
            if u64::from(m.first_vertex) + u64::from(m.num_vertexes) > nv {
                c.error(
                    format!("meshes[{i}].num_vertexes"),
                    format!(
                        "vertices {}..{} past the model's {nv}",
                        m.first_vertex,
                        u64::from(m.first_vertex) + u64::from(m.num_vertexes)
                    ),
                    at("m", o[1], i, MESH_SIZE, 12),
                );
            }
            if u64::from(m.first_triangle) + u64::from(m.num_triangles) > nt {
                c.error(
                    format!("meshes[{i}].num_triangles"),
                    format!(
                        "triangles {}..{} past the model's {nt}",
                        m.first_triangle,
                        u64::from(m.first_triangle) + u64::from(m.num_triangles)
                    ),
                    at("m", o[1], i, MESH_SIZE, 20),
                );
            } else {
                let range = u64::from(m.first_vertex)
                    ..u64::from(m.first_vertex) + u64::from(m.num_vertexes);
                let first = m.first_triangle as usize;
                for (t, tri) in self.triangles[first..first + m.num_triangles as usize]
                    .iter()
                    .enumerate()
                {
                    if tri
                        .iter()
                        .any(|&v| u64::from(v) < nv && !range.contains(&u64::from(v)))
                    {
                        c.warn(
                            format!("meshes[{i}].triangles[{t}]"),
                            format!(
                                "uses vertices outside the mesh's {}..{}",
                                range.start, range.end
                            ),
                            at("t", o[3], first + t, TRIANGLE_SIZE, 0),
                        );
                    }
                }
            }
        }
        for (i, t) in self.triangles.iter().enumerate() {
            for (k, &v) in t.iter().enumerate() {
                if u64::from(v) >= nv {
                    c.error(
                        format!("triangles[{i}].vertex[{k}]"),
                        format!("vertex {v} is not one of the {nv}"),
                        at("t", o[3], i, TRIANGLE_SIZE, 4 * k),
                    );
                }
            }
        }
        if let Some(adjacency) = &self.adjacency {
            for (i, t) in adjacency.iter().enumerate() {
                for (k, &n) in t.iter().enumerate() {
                    if n != NO_NEIGHBOUR && u64::from(n) >= nt {
                        c.error(
                            format!("adjacency[{i}].triangle[{k}]"),
                            format!("triangle {n} is not one of the {nt}"),
                            at("a", o[4], i, TRIANGLE_SIZE, 4 * k),
                        );
                    }
                }
            }
        }
        self.check_arrays(&mut c);
        for (i, j) in self.joints.iter().enumerate() {
            name(
                &mut c,
                format!("joints[{i}].name"),
                j.name,
                at("j", o[5], i, JOINT_SIZE, 0),
            );
            if j.parent >= i as i32 {
                c.error(
                    format!("joints[{i}].parent"),
                    format!("parent {} is not an earlier joint", j.parent),
                    at("j", o[5], i, JOINT_SIZE, 4),
                );
            }
            if !j
                .translate
                .iter()
                .chain(&j.rotate)
                .chain(&j.scale)
                .all(|v| v.is_finite())
            {
                c.error(
                    format!("joints[{i}]"),
                    "a transform value is not finite",
                    at("j", o[5], i, JOINT_SIZE, 8),
                );
            }
        }
        let mut channels = 0u64;
        for (i, p) in self.poses.iter().enumerate() {
            if p.parent >= i as i32 {
                c.error(
                    format!("poses[{i}].parent"),
                    format!("parent {} is not an earlier pose", p.parent),
                    at("p", o[6], i, POSE_SIZE, 0),
                );
            }
            if let Some(j) = self.joints.get(i) {
                if j.parent != p.parent {
                    c.warn(
                        format!("poses[{i}].parent"),
                        format!("parent {} but joint {i}'s is {}", p.parent, j.parent),
                        at("p", o[6], i, POSE_SIZE, 0),
                    );
                }
            }
            if p.mask >> 10 != 0 {
                c.warn(
                    format!("poses[{i}].mask"),
                    format!("bits above the ten channels are set ({:#x})", p.mask),
                    at("p", o[6], i, POSE_SIZE, 4),
                );
            }
            if !p
                .channel_offset
                .iter()
                .chain(&p.channel_scale)
                .all(|v| v.is_finite())
            {
                c.error(
                    format!("poses[{i}]"),
                    "a channel offset or scale is not finite",
                    at("p", o[6], i, POSE_SIZE, 8),
                );
            }
            channels += u64::from(p.channel_count());
        }
        if !self.poses.is_empty()
            && !self.joints.is_empty()
            && self.poses.len() != self.joints.len()
        {
            c.warn(
                "num_poses",
                format!(
                    "{} poses for {} joints",
                    self.poses.len(),
                    self.joints.len()
                ),
                read.then(|| field_offset("num_poses")),
            );
        }
        if self.num_frames > 0 && channels != u64::from(self.num_framechannels) {
            c.error(
                "num_framechannels",
                format!(
                    "{} but the poses' masks take {channels} values a frame",
                    self.num_framechannels
                ),
                read.then(|| field_offset("num_framechannels")),
            );
        }
        for (i, a) in self.anims.iter().enumerate() {
            name(
                &mut c,
                format!("anims[{i}].name"),
                a.name,
                at("a", o[7], i, ANIM_SIZE, 0),
            );
            let end = u64::from(a.first_frame) + u64::from(a.num_frames);
            if end > u64::from(self.num_frames) {
                c.error(
                    format!("anims[{i}].num_frames"),
                    format!(
                        "frames {}..{end} past the file's {}",
                        a.first_frame, self.num_frames
                    ),
                    at("a", o[7], i, ANIM_SIZE, 8),
                );
            }
            if !a.framerate.is_finite() || a.framerate < 0.0 {
                c.warn(
                    format!("anims[{i}].framerate"),
                    format!("{} frames per second", a.framerate),
                    at("a", o[7], i, ANIM_SIZE, 12),
                );
            }
        }
        if let Some(bounds) = &self.bounds {
            for (i, b) in bounds.iter().enumerate() {
                if !b
                    .min
                    .iter()
                    .chain(&b.max)
                    .chain(&[b.xy_radius, b.radius])
                    .all(|v| v.is_finite())
                {
                    c.error(
                        format!("bounds[{i}]"),
                        "a value is not finite",
                        at("b", o[9], i, 32, 0),
                    );
                }
            }
        }
        for (i, e) in self.extensions.iter().enumerate() {
            name(
                &mut c,
                format!("extensions[{i}].name"),
                e.name,
                read.then_some(u64::from(e.offset)),
            );
        }
        c.finish()
    }

    fn check_text(&self, c: &mut Collector) {
        let at = (self.header.file_len > 0).then_some(u64::from(self.header.offsets[0]));
        if let Some(&first) = self.text.first() {
            if first != 0 {
                c.warn(
                    "text[0]",
                    "the text's first string is not the empty one, as iqm.txt requires",
                    at,
                );
            }
            if self.text.last() != Some(&0) {
                c.error(
                    "text",
                    "the last string has no terminating NUL",
                    at.map(|a| a + self.text.len() as u64 - 1),
                );
            }
        }
    }

    fn check_arrays(&self, c: &mut Collector) {
        let read = self.header.file_len > 0;
        let base = self.header.offsets[2];
        let at = |i: usize, within: usize| {
            read.then(|| u64::from(base) + (i * VERTEX_ARRAY_SIZE + within) as u64)
        };
        let mut last_standard = None;
        let mut seen = Vec::new();
        let nj = self.joints.len().max(self.poses.len());
        let nv = self.vertex_count();
        for (i, a) in self.vertex_arrays.iter().enumerate() {
            let kind = ArrayKind::of(a.kind);
            let path = format!("vertexarrays[{i}]");
            if let ArrayKind::Custom(offset) = kind {
                if offset as usize >= self.text.len() {
                    c.error(
                        format!("{path}.type"),
                        format!("a custom array named at text offset {offset}, outside the text"),
                        at(i, 0),
                    );
                }
            }
            if let ArrayKind::Reserved(k) = kind {
                c.warn(
                    format!("{path}.type"),
                    format!("type {k} is reserved by iqm.txt"),
                    at(i, 0),
                );
            }
            if seen.contains(&kind) {
                c.warn(
                    format!("{path}.type"),
                    format!("a second {kind} array (engines use the first)"),
                    at(i, 0),
                );
            }
            seen.push(kind);
            if a.kind < 0x10 {
                if last_standard.is_some_and(|l| a.kind < l) {
                    c.warn(format!("{path}.type"), format!("{kind} after a later type: iqm.txt orders arrays position, texcoord, normal, tangent, blendindexes, blendweights, color, custom"), at(i, 0));
                }
                last_standard = Some(a.kind);
            }
            if let (Some((pf, ps)), Some(f)) = (kind.portable(), a.array_format()) {
                if pf != f || ps != a.size {
                    c.warn(
                        format!("{path}.format"),
                        format!(
                            "{} × {} where portable models use {} × {ps} (engines may not read it)",
                            f.name(),
                            a.size,
                            pf.name()
                        ),
                        at(i, 8),
                    );
                }
            }
            if read && a.offset % a.array_format().map_or(4, ArrayFormat::bytes).max(4) as u32 != 0
            {
                c.warn(
                    format!("{path}.offset"),
                    format!(
                        "offset {} is not aligned to its component size (at least 4)",
                        a.offset
                    ),
                    at(i, 16),
                );
            }
            let floats = matches!(
                a.array_format(),
                Some(ArrayFormat::Float | ArrayFormat::Double | ArrayFormat::Half)
            );
            if floats && a.values().iter().any(|v| !v.is_finite()) {
                c.error(
                    format!("{path}.data"),
                    format!("a {kind} value is not finite"),
                    read.then_some(u64::from(a.offset)),
                );
            }
            if kind == ArrayKind::BlendIndexes && nj > 0 {
                let size = (a.size as usize).min(4);
                let weights = self.array(ArrayKind::BlendWeights);
                for v in 0..nv {
                    let ix = a.vertex4(v, false);
                    let wt = weights.map(|w| w.vertex4(v, true));
                    for k in 0..size {
                        let used = wt.is_none_or(|w| w[k] > 0.0);
                        if used && ix[k] as usize >= nj {
                            c.error(
                                format!("{path}.data[{v}][{k}]"),
                                format!("joint {} is not one of the {nj}", ix[k]),
                                None,
                            );
                        }
                    }
                }
            }
            if kind == ArrayKind::BlendWeights {
                for v in 0..nv {
                    let sum: f64 = a.vertex4(v, true).iter().sum();
                    if (sum - 1.0).abs() > 0.01 {
                        c.warn(
                            format!("{path}.data[{v}]"),
                            format!("weights sum to {sum:.3}, not 1"),
                            None,
                        );
                    }
                }
            }
        }
        if !self.meshes.is_empty() && self.array(ArrayKind::Position).is_none() {
            c.error("vertexarrays", "meshes but no position array", None);
        }
    }
}
