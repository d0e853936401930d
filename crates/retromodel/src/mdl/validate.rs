//! `Mdl::validate`: every problem in a model, with a path and an offset.
//!
//! What the checks rely on, from id's loader (`WinQuake/gl_model.c`,
//! `Mod_LoadAliasModel`; `WinQuake/model.c` for the software renderer's
//! `Mod_LoadAliasGroup` and `Mod_LoadAliasSkinGroup`): at least one skin
//! ("Invalid # of skins"), a skin width that is a multiple of 4 ("skinwidth
//! not multiple of 4"), a skin no taller than `MAX_LBM_HEIGHT` (480), at
//! least one vertex, triangle and frame, intervals greater than 0
//! ("interval<=0"). Limits that differ between engines (vertex, triangle
//! and frame counts) are the engine profiles' to check, not these.

use super::read::{header_offset, TEXCOORD_SIZE, TRIANGLE_SIZE, VERTEX_SIZE};
use super::{Frame, Mdl, SimpleFrame, Skin, Variant};
use crate::problem::{Collector, Problem};

/// The tallest skin id's loader takes (`MAX_LBM_HEIGHT` in
/// `WinQuake/gl_model.c`, `Mod_LoadAliasModel`).
pub const MAX_SKIN_HEIGHT: i32 = 480;

/// How many normals the table has (the same 162 as Quake II's
/// `anorms.h`).
const NORMAL_COUNT: u8 = 162;

/// The largest offset [`Mdl::offsets`] gives (a model built in memory
/// may claim a skin size no file holds): far below `u64::MAX`, so that
/// adding an index's bytes to it cannot overflow.
const OFFSET_CAP: u64 = 1 << 62;

/// Byte offsets of a model's parts in the file it writes (which, for a
/// model read, is the file it was read from).
pub(super) struct Offsets {
    /// Each skin entry's type word.
    pub skins: Vec<u64>,
    /// The texture coordinates.
    pub texcoords: u64,
    /// The triangles.
    pub triangles: u64,
    /// Each frame entry's type word.
    pub frames: Vec<u64>,
}

impl Mdl {
    pub(super) fn offsets(&self) -> Offsets {
        // Saturating: a model built in memory may claim any skin size.
        let skin_bytes = (self.skin_width.max(0) as u64) * (self.skin_height.max(0) as u64);
        let mut at = self.variant.header_size() as u64;
        let mut skins = Vec::with_capacity(self.skins.len());
        for s in &self.skins {
            skins.push(at);
            at = at.saturating_add(match s {
                Skin::Single(_) => 4 + skin_bytes,
                Skin::Group { images, .. } => (images.len() as u64)
                    .saturating_mul(4 + skin_bytes)
                    .saturating_add(8),
            });
            at = at.min(OFFSET_CAP);
        }
        let texcoords = at;
        let triangles = texcoords
            .saturating_add(self.texcoords.len() as u64 * TEXCOORD_SIZE)
            .min(OFFSET_CAP);
        at = triangles
            .saturating_add(self.triangles.len() as u64 * TRIANGLE_SIZE)
            .min(OFFSET_CAP);
        let frame = self.frame_size();
        let mut frames = Vec::with_capacity(self.frames.len());
        for f in &self.frames {
            frames.push(at);
            at = at.saturating_add(match f {
                Frame::Single(_) => 4 + frame,
                Frame::Group { group, .. } => (group.frames.len() as u64)
                    .saturating_mul(4 + frame)
                    .saturating_add(16),
            });
            at = at.min(OFFSET_CAP);
        }
        Offsets {
            skins,
            texcoords,
            triangles,
            frames,
        }
    }

    /// The size of one simple frame in the file.
    pub(super) fn frame_size(&self) -> u64 {
        let per = if self.variant == Variant::QuakeForge16 {
            2 * VERTEX_SIZE
        } else {
            VERTEX_SIZE
        };
        self.variant.frame_header_size() as u64 + per * self.vertex_count() as u64
    }

    /// Every problem in the model: what, a path to it such as
    /// `frames[3].group.frames[1].vertices[40].normal_index`, and its byte
    /// offset in the file.
    ///
    /// Errors are faults that make id's loader refuse the model or that
    /// leave it unusable (an index past the vertices, no skin, a zero
    /// interval); warnings are faults it can be used despite (a bounding
    /// box or radius smaller than the vertices, a degenerate triangle, a
    /// normal index ≥ 162). Engine limits on counts are left to the
    /// engine profiles. At most
    /// [`MAX_LISTED_PROBLEMS`](crate::MAX_LISTED_PROBLEMS) are listed.
    pub fn validate(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        let o = self.offsets();
        self.check_header(&mut c);
        self.check_skins(&mut c, &o);
        self.check_texcoords(&mut c, &o);
        self.check_triangles(&mut c, &o);
        self.check_frames(&mut c, &o);
        c.finish()
    }

    fn check_header(&self, c: &mut Collector) {
        let h = |f: &str| Some(header_offset(f));
        if self.skins.is_empty() {
            c.error(
                "header.num_skins",
                "no skin: Quake's loader needs at least one (\"Invalid # of skins\")",
                h("num_skins"),
            );
        }
        if self.skin_width <= 0 || self.skin_height <= 0 {
            c.error(
                "header.skin_width",
                format!(
                    "skin size {}×{} is not positive",
                    self.skin_width, self.skin_height
                ),
                h("skin_width"),
            );
        } else if self.skin_width % 4 != 0 {
            c.warn(
                "header.skin_width",
                format!(
                    "skin width {} is not a multiple of 4 (id's loader refuses it)",
                    self.skin_width
                ),
                h("skin_width"),
            );
        }
        if self.skin_height > MAX_SKIN_HEIGHT {
            c.warn(
                "header.skin_height",
                format!(
                    "skin height {} is over {MAX_SKIN_HEIGHT} (id's loader refuses it)",
                    self.skin_height
                ),
                h("skin_height"),
            );
        }
        let nv = self.vertex_count();
        // A model built in memory that never set the stored counts (all
        // 0) is not faulted for them: the writer stores the data's. (A
        // file read with all three 0 has no vertices, triangles or frames,
        // so this hides nothing of a file.)
        let unset = (self.num_vertices, self.num_triangles, self.num_frames) == (0, 0, 0);
        for (field, stored, actual) in [
            ("num_vertices", self.num_vertices, nv),
            ("num_triangles", self.num_triangles, self.triangles.len()),
            ("num_frames", self.num_frames, self.frames.len()),
        ] {
            if !unset && usize::try_from(stored).ok() != Some(actual) {
                c.warn(
                    format!("header.{field}"),
                    format!("stored count {stored} is not the model's {actual} (a rewrite stores {actual})"),
                    h(field),
                );
            }
        }
        for (field, n, what) in [
            ("num_vertices", nv, "vertices"),
            ("num_triangles", self.triangles.len(), "triangles"),
            ("num_frames", self.frames.len(), "frames"),
        ] {
            if n == 0 {
                c.error(
                    format!("header.{field}"),
                    format!("no {what}: Quake's loader refuses the model"),
                    h(field),
                );
            }
        }
        if !matches!(self.sync_type, 0 | 1) {
            c.warn(
                "header.sync_type",
                format!(
                    "sync type {} is neither 0 (synchronised) nor 1 (random)",
                    self.sync_type
                ),
                h("sync_type"),
            );
        }
        for (i, v) in self.scale.iter().enumerate() {
            if !v.is_finite() {
                c.error(
                    format!("header.scale[{i}]"),
                    format!("scale {v} is not a finite number"),
                    Some(8 + 4 * i as u64),
                );
            }
        }
        for (i, v) in self.origin.iter().enumerate() {
            if !v.is_finite() {
                c.error(
                    format!("header.origin[{i}]"),
                    format!("origin {v} is not a finite number"),
                    Some(20 + 4 * i as u64),
                );
            }
        }
        if let Some(actual) = self.data_radius() {
            let r = self.bounding_radius;
            // Half a grid step of slack: id's modelgen measured the
            // unquantised vertices.
            let slack = self.scale.iter().map(|s| s.abs()).fold(0.0, f32::max);
            if !(r.is_finite() && r + slack >= actual) {
                c.warn(
                    "header.bounding_radius",
                    format!(
                        "bounding radius {r} is smaller than the farthest vertex's distance {actual:.3}"
                    ),
                    h("bounding_radius"),
                );
            }
        }
    }

    /// The largest distance of any vertex of any frame from the model's
    /// origin (id's `modelgen.c` measure for `boundingradius`), or `None`
    /// without vertices.
    pub fn data_radius(&self) -> Option<f32> {
        let mut max: Option<f32> = None;
        for f in self.simple_frames() {
            for v in &f.vertices {
                let p = self.decode_position(*v);
                let d = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                max = Some(max.map_or(d, |m| m.max(d)));
            }
        }
        max
    }

    fn check_skins(&self, c: &mut Collector, o: &Offsets) {
        let skin_bytes = (self.skin_width.max(0) as usize) * (self.skin_height.max(0) as usize);
        for (i, skin) in self.skins.iter().enumerate() {
            let at = o.skins[i];
            match skin {
                Skin::Single(img) => {
                    if img.len() != skin_bytes {
                        c.error(
                            format!("skins[{i}]"),
                            format!("{} bytes for a {skin_bytes}-byte skin", img.len()),
                            Some(at + 4),
                        );
                    }
                }
                Skin::Group {
                    intervals, images, ..
                } => {
                    if images.is_empty() {
                        c.error(
                            format!("skins[{i}].group"),
                            "skin group with no image",
                            Some(at + 4),
                        );
                    }
                    if intervals.len() != images.len() {
                        c.error(
                            format!("skins[{i}].group.intervals"),
                            format!("{} intervals for {} images", intervals.len(), images.len()),
                            Some(at + 8),
                        );
                    }
                    check_intervals(c, &format!("skins[{i}].group"), intervals, at + 8);
                    for (k, img) in images.iter().enumerate() {
                        if img.len() != skin_bytes {
                            c.error(
                                format!("skins[{i}].group.images[{k}]"),
                                format!("{} bytes for a {skin_bytes}-byte skin", img.len()),
                                None,
                            );
                        }
                    }
                }
            }
        }
    }

    fn check_texcoords(&self, c: &mut Collector, o: &Offsets) {
        let (w, h) = (self.skin_width, self.skin_height);
        for (i, st) in self.texcoords.iter().enumerate() {
            let at = o.texcoords + i as u64 * TEXCOORD_SIZE;
            // Coordinates are pixels: 0..=width is the skin (the right
            // edge is a texel's far side). An onseam vertex's back-side
            // coordinate is s + width / 2, which must stay inside too.
            let s_max = if st.onseam != 0 { w - w / 2 } else { w };
            if st.s < 0 || st.s > s_max {
                c.warn(
                    format!("texcoords[{i}].s"),
                    if st.onseam != 0 {
                        format!("s {} of an onseam vertex is outside 0..={s_max} (its back-side copy, s + {}, leaves the {w}-pixel skin)", st.s, w / 2)
                    } else {
                        format!("s {} is outside the {w}-pixel-wide skin", st.s)
                    },
                    Some(at + 4),
                );
            }
            if st.t < 0 || st.t > h {
                c.warn(
                    format!("texcoords[{i}].t"),
                    format!("t {} is outside the {h}-pixel-high skin", st.t),
                    Some(at + 8),
                );
            }
            if st.onseam != 0 && st.onseam != super::ONSEAM {
                c.warn(
                    format!("texcoords[{i}].onseam"),
                    format!(
                        "onseam {:#x} is not id's {:#x} (loaders take any non-zero value as on the seam)",
                        st.onseam,
                        super::ONSEAM
                    ),
                    Some(at),
                );
            }
        }
    }

    fn check_triangles(&self, c: &mut Collector, o: &Offsets) {
        let nv = self.vertex_count();
        let nt = self.texcoords.len();
        let hexen2 = self.variant == Variant::Hexen2;
        // Which vertices some back-facing triangle uses, for the seam check.
        let mut back_uses = vec![false; nt];
        for (i, t) in self.triangles.iter().enumerate() {
            let at = o.triangles + i as u64 * TRIANGLE_SIZE;
            let mut in_range = true;
            for (k, &v) in t.vertices.iter().enumerate() {
                if usize::try_from(v).map_or(true, |v| v >= nv) {
                    in_range = false;
                    c.error(
                        format!("triangles[{i}].vertices[{k}]"),
                        format!("vertex {v} out of range 0..{nv}"),
                        Some(
                            at + if hexen2 {
                                4 + 2 * k as u64
                            } else {
                                4 + 4 * k as u64
                            },
                        ),
                    );
                }
            }
            let sts = if hexen2 { t.texcoords } else { t.vertices };
            if hexen2 {
                for (k, &s) in t.texcoords.iter().enumerate() {
                    if usize::try_from(s).map_or(true, |s| s >= nt) {
                        c.error(
                            format!("triangles[{i}].texcoords[{k}]"),
                            format!("texture coordinate {s} out of range 0..{nt}"),
                            Some(at + 10 + 2 * k as u64),
                        );
                    }
                }
            }
            let [a, b, d] = t.vertices;
            if in_range && (a == b || b == d || a == d) {
                c.warn(
                    format!("triangles[{i}]"),
                    format!("degenerate: vertices {a}, {b}, {d} repeat"),
                    Some(at + 4),
                );
            }
            if t.faces_front == 0 {
                for s in sts {
                    if let Some(u) = usize::try_from(s).ok().and_then(|s| back_uses.get_mut(s)) {
                        *u = true;
                    }
                }
            }
        }
        // An onseam vertex that no back-facing triangle uses never has its
        // coordinate shifted: harmless, but a sign of a confused exporter.
        let w = self.skin_width;
        for (i, st) in self.texcoords.iter().enumerate() {
            if st.onseam != 0 && !back_uses[i] {
                c.warn(
                    format!("texcoords[{i}].onseam"),
                    "onseam vertex that no back-facing triangle uses (the flag does nothing)",
                    Some(o.texcoords + i as u64 * TEXCOORD_SIZE),
                );
            } else if st.onseam != 0 && w > 0 && st.s >= w / 2 {
                c.warn(
                    format!("texcoords[{i}].s"),
                    format!(
                        "onseam vertex already on the back half (s {} ≥ {}): its back-side copy lands at {}",
                        st.s,
                        w / 2,
                        // In 64 bits: s near `i32::MAX` (found by `mdl_parse`).
                        i64::from(st.s) + i64::from(w / 2)
                    ),
                    Some(o.texcoords + i as u64 * TEXCOORD_SIZE + 4),
                );
            }
        }
    }

    fn check_frames(&self, c: &mut Collector, o: &Offsets) {
        let nv = self.vertex_count();
        let head = self.variant.frame_header_size() as u64;
        for (i, frame) in self.frames.iter().enumerate() {
            let at = o.frames[i];
            match frame {
                Frame::Single(f) => {
                    self.check_simple(c, &format!("frames[{i}]"), f, at + 4, head, nv)
                }
                Frame::Group { group, .. } => {
                    let path = format!("frames[{i}].group");
                    if group.frames.is_empty() {
                        c.error(&path, "frame group with no frame", Some(at + 4));
                    }
                    if group.intervals.len() != group.frames.len() {
                        c.error(
                            format!("{path}.intervals"),
                            format!(
                                "{} intervals for {} frames",
                                group.intervals.len(),
                                group.frames.len()
                            ),
                            Some(at + 16),
                        );
                    }
                    check_intervals(c, &path, &group.intervals, at + 16);
                    let mut first = at + 16 + 4 * group.intervals.len() as u64;
                    let (lo, hi) = (group.bbox_min.position, group.bbox_max.position);
                    for (k, f) in group.frames.iter().enumerate() {
                        let p = format!("{path}.frames[{k}]");
                        self.check_simple(c, &p, f, first, head, nv);
                        if let Some((fmin, fmax)) = bounds(f) {
                            if (0..3).any(|a| fmin[a] < lo[a] || fmax[a] > hi[a]) {
                                c.warn(
                                    format!("{path}.bbox_min"),
                                    format!("group bounding box {lo:?}..{hi:?} does not hold frame {k}'s vertices ({fmin:?}..{fmax:?})"),
                                    Some(at + 8),
                                );
                            }
                        }
                        first += self.frame_size();
                    }
                }
            }
        }
    }

    fn check_simple(
        &self,
        c: &mut Collector,
        path: &str,
        f: &SimpleFrame,
        at: u64,
        head: u64,
        nv: usize,
    ) {
        if f.vertices.len() != nv {
            c.error(
                format!("{path}.vertices"),
                format!("{} vertices, but the model has {nv}", f.vertices.len()),
                Some(at + head),
            );
        }
        if let Some((lo, hi)) = bounds(f) {
            if lo != f.bbox_min.position || hi != f.bbox_max.position {
                let worse = (0..3)
                    .any(|a| lo[a] < f.bbox_min.position[a] || hi[a] > f.bbox_max.position[a]);
                if worse {
                    c.warn(
                        format!("{path}.bbox_min"),
                        format!(
                            "bounding box {:?}..{:?} does not hold the vertices ({lo:?}..{hi:?})",
                            f.bbox_min.position, f.bbox_max.position
                        ),
                        Some(at),
                    );
                }
            }
        }
        for (k, v) in f.vertices.iter().enumerate() {
            if v.normal_index >= NORMAL_COUNT {
                c.warn(
                    format!("{path}.vertices[{k}].normal_index"),
                    format!(
                        "normal index {} out of range 0..{NORMAL_COUNT}",
                        v.normal_index
                    ),
                    Some(at + head + 4 * k as u64 + 3),
                );
            }
        }
    }
}

/// The smallest and largest packed coordinates of a frame's vertices.
pub(super) fn bounds(f: &SimpleFrame) -> Option<([u8; 3], [u8; 3])> {
    let first = f.vertices.first()?.position;
    Some(
        f.vertices
            .iter()
            .fold((first, first), |(mut lo, mut hi), v| {
                for a in 0..3 {
                    lo[a] = lo[a].min(v.position[a]);
                    hi[a] = hi[a].max(v.position[a]);
                }
                (lo, hi)
            }),
    )
}

/// Intervals are end times: each greater than 0 and than the one before
/// (`Mod_LoadAliasGroup`: "interval<=0"; the renderers search them in
/// order).
fn check_intervals(c: &mut Collector, path: &str, intervals: &[f32], at: u64) {
    let mut before = 0.0f32;
    for (k, &t) in intervals.iter().enumerate() {
        let p = format!("{path}.intervals[{k}]");
        let off = Some(at + 4 * k as u64);
        if !(t.is_finite() && t > 0.0) {
            c.error(
                p,
                format!("interval {t} is not greater than 0 (id's loader refuses it)"),
                off,
            );
        } else if t <= before {
            c.warn(
                p,
                format!("interval {t} does not come after the one before ({before}): intervals are end times"),
                off,
            );
        }
        if t.is_finite() {
            before = before.max(t);
        }
    }
}
