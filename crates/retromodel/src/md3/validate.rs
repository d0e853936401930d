//! [`Md3::validate`]: every problem of a model, with its path and, where
//! the stored offsets give it, its byte offset.

use super::read::{HEADER_FIELDS, SURFACE_FIELDS};
use super::{
    Md3, FRAME_SIZE, MAGIC, SHADER_SIZE, TAG_SIZE, TEXCOORD_SIZE, TRIANGLE_SIZE, XYZ_NORMAL_SIZE,
};
use crate::problem::{Collector, Problem};

/// The format's limits as `q3data` and the game code define them
/// (ioquake3 `code/qcommon/qfiles.h`). ioquake3's renderers do not check
/// these (its loader's own, lower limits are in [`Md3EngineLimits`]);
/// tools and other engines size arrays by them.
///
/// [`Md3EngineLimits`]: super::Md3EngineLimits
pub mod limits {
    /// `MD3_MAX_LODS`: LOD files a model may have (`name.md3`,
    /// `name_1.md3`, `name_2.md3`).
    pub const MAX_LODS: usize = 3;
    /// `MD3_MAX_TRIANGLES`: triangles per surface.
    pub const MAX_TRIANGLES: usize = 8192;
    /// `MD3_MAX_VERTS`: vertices per surface.
    pub const MAX_VERTS: usize = 4096;
    /// `MD3_MAX_SHADERS`: shaders per surface.
    pub const MAX_SHADERS: usize = 256;
    /// `MD3_MAX_FRAMES`: frames per model.
    pub const MAX_FRAMES: usize = 1024;
    /// `MD3_MAX_SURFACES`: surfaces per model.
    pub const MAX_SURFACES: usize = 32;
    /// `MD3_MAX_TAGS`: tags per frame.
    pub const MAX_TAGS: usize = 16;
}

/// The stored offset of a header field.
fn header_at(name: &str) -> Option<u64> {
    HEADER_FIELDS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, o)| *o)
}

/// The stored offset of a surface header field, from the surface's start.
pub(super) fn surface_field(name: &str) -> u64 {
    SURFACE_FIELDS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(0, |(_, o)| *o)
}

impl Md3 {
    /// Where each surface starts in the file its stored offsets describe
    /// (`None` once the chain leaves the file's range).
    pub(super) fn surface_starts(&self) -> Vec<Option<u64>> {
        let mut base = i64::from(self.offsets.surfaces);
        self.surfaces
            .iter()
            .map(|s| {
                let here = u64::try_from(base).ok();
                base = base.saturating_add(i64::from(s.offsets.end));
                here
            })
            .collect()
    }

    /// Where the sections end and where the file ends, in the file the
    /// stored offsets describe (what [`Layout::Original`] writes); `None`
    /// for a model whose offsets were never read (all zero).
    ///
    /// [`Layout::Original`]: super::Layout::Original
    pub(super) fn stored_extent(&self) -> Option<(u64, u64)> {
        if self.offsets == super::Offsets::default() {
            return None;
        }
        let end = |at: i64, len: usize| u64::try_from(at).unwrap_or(0) + len as u64;
        let o = self.offsets;
        let mut sections = [
            super::HEADER_SIZE as u64,
            end(o.frames.into(), self.frames.len() * FRAME_SIZE),
            end(o.tags.into(), self.tags.len() * TAG_SIZE),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        for (s, start) in self.surfaces.iter().zip(self.surface_starts()) {
            let b = start.unwrap_or(0) as i64;
            let so = s.offsets;
            for e in [
                end(b, super::SURFACE_HEADER_SIZE),
                end(
                    b + i64::from(so.triangles),
                    s.triangles.len() * TRIANGLE_SIZE,
                ),
                end(b + i64::from(so.shaders), s.shaders.len() * SHADER_SIZE),
                end(
                    b + i64::from(so.texcoords),
                    s.texcoords.len() * TEXCOORD_SIZE,
                ),
                end(
                    b + i64::from(so.xyz_normals),
                    s.xyz_normals.len() * XYZ_NORMAL_SIZE,
                ),
            ] {
                sections = sections.max(e);
            }
        }
        let file = self
            .unclaimed
            .iter()
            .map(|u| u.offset + u.bytes.len() as u64)
            .fold(sections, u64::max);
        Some((sections, file))
    }

    /// Every problem in the model, with a path and, where the stored
    /// offsets give it, a byte offset: counts against the format's limits
    /// ([`limits`]), a model without frames (ioquake3 does not load it),
    /// surfaces whose frame count differs from the model's, triangle
    /// indices out of range, names without a NUL, non-finite numbers, tags
    /// named differently from one frame to the next.
    ///
    /// ```
    /// use retromodel::md3::Md3;
    /// let p = Md3::default().validate();
    /// assert_eq!(p[0].path, "header.num_frames");
    /// ```
    pub fn validate(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        let at = |ofs: i32, extra: usize| u64::try_from(i64::from(ofs) + extra as i64).ok();
        if self.name.is_unterminated() {
            c.warn("header.name", "64 bytes without a NUL", Some(8));
        }
        let nf = self.frames.len();
        if nf == 0 {
            c.error(
                "header.num_frames",
                "no frames: ioquake3 does not load the model (R_LoadMD3: \"has no frames\")",
                header_at("num_frames"),
            );
        }
        let count_over = |c: &mut Collector,
                          path: &str,
                          n: usize,
                          max: usize,
                          what: &str,
                          offset| {
            if n > max {
                c.warn(
                    path,
                    format!("{n} {what}, more than the format's {max} (q3data's limit; tools and engines may not take it)"),
                    offset,
                );
            }
        };
        count_over(
            &mut c,
            "header.num_frames",
            nf,
            limits::MAX_FRAMES,
            "frames",
            header_at("num_frames"),
        );
        let nt = self.num_tags.max(0) as usize;
        count_over(
            &mut c,
            "header.num_tags",
            nt,
            limits::MAX_TAGS,
            "tags per frame",
            header_at("num_tags"),
        );
        count_over(
            &mut c,
            "header.num_surfaces",
            self.surfaces.len(),
            limits::MAX_SURFACES,
            "surfaces",
            header_at("num_surfaces"),
        );
        if self.frames.len().checked_mul(nt) != Some(self.tags.len()) || self.num_tags < 0 {
            c.error(
                "tags",
                format!(
                    "{} tags for {nf} frames of {} tags",
                    self.tags.len(),
                    self.num_tags
                ),
                None,
            );
        }
        for (i, f) in self.frames.iter().enumerate() {
            let o = |extra| at(self.offsets.frames, i * FRAME_SIZE + extra);
            let numbers = f
                .min
                .iter()
                .chain(&f.max)
                .chain(&f.local_origin)
                .chain([&f.radius]);
            if numbers.into_iter().any(|v| !v.is_finite()) {
                c.warn(
                    format!("frames[{i}]"),
                    "a bound, origin or radius is not finite",
                    o(0),
                );
            }
            if f.name.is_unterminated() {
                c.warn(format!("frames[{i}].name"), "16 bytes without a NUL", o(40));
            }
        }
        for (k, t) in self.tags.iter().enumerate() {
            let (frame, tag) = (k / nt.max(1), k % nt.max(1));
            let path = format!("frames[{frame}].tags[{tag}]");
            let o = |extra| at(self.offsets.tags, k * TAG_SIZE + extra);
            if t.name.is_unterminated() {
                c.error(format!("{path}.name"), "64 bytes without a NUL", o(0));
            } else if frame > 0
                && self
                    .tags
                    .get(tag)
                    .is_some_and(|first| first.name.as_bytes() != t.name.as_bytes())
            {
                c.warn(
                    format!("{path}.name"),
                    format!(
                        "named {:?} but {:?} in frame 0: the game looks tags up by name in each frame",
                        t.name.to_string_lossy(),
                        self.tags[tag].name.to_string_lossy()
                    ),
                    o(0),
                );
            }
            if t.origin
                .iter()
                .chain(t.axes.iter().flatten())
                .any(|v| !v.is_finite())
            {
                c.warn(path, "origin or axes not finite", o(64));
            }
        }
        for (i, start) in self.surface_starts().into_iter().enumerate() {
            self.check_surface(&mut c, i, start);
        }
        c.finish()
    }

    fn check_surface(&self, c: &mut Collector, i: usize, start: Option<u64>) {
        let s = &self.surfaces[i];
        let p = format!("surfaces[{i}]");
        let field = |name: &str| start.map(|b| b + surface_field(name));
        let at = |ofs: i32, extra: usize| {
            start.and_then(|b| u64::try_from(b as i64 + i64::from(ofs) + extra as i64).ok())
        };
        if s.ident != MAGIC {
            c.warn(
                format!("{p}.ident"),
                format!(
                    "{:?}, not \"IDP3\" (ioquake3 does not check it)",
                    String::from_utf8_lossy(&s.ident)
                ),
                start,
            );
        }
        if s.name.is_unterminated() {
            c.error(
                format!("{p}.name"),
                "64 bytes without a NUL (ioquake3 lower-cases it in place, past the field)",
                start.map(|b| b + 4),
            );
        }
        let nv = s.vertex_count();
        if usize::try_from(s.num_frames).ok() != Some(self.frames.len()) {
            c.error(
                format!("{p}.num_frames"),
                format!(
                    "{} frames but the model has {}: the engines draw frame n of every surface from the model's frame list",
                    s.num_frames,
                    self.frames.len()
                ),
                field("num_frames"),
            );
        }
        if usize::try_from(s.num_frames)
            .ok()
            .and_then(|f| f.checked_mul(nv))
            != Some(s.xyz_normals.len())
        {
            c.error(
                format!("{p}.xyz_normals"),
                format!(
                    "{} vertices, not num_frames × num_verts",
                    s.xyz_normals.len()
                ),
                at(s.offsets.xyz_normals, 0),
            );
        }
        let over = |c: &mut Collector, name: &str, n: usize, max: usize, what: &str| {
            if n > max {
                c.warn(
                    format!("{p}.{name}"),
                    format!("{n} {what}, more than the format's {max} (q3data's limit)"),
                    field(name),
                );
            }
        };
        over(c, "num_verts", nv, limits::MAX_VERTS, "vertices");
        over(
            c,
            "num_triangles",
            s.triangles.len(),
            limits::MAX_TRIANGLES,
            "triangles",
        );
        over(
            c,
            "num_shaders",
            s.shaders.len(),
            limits::MAX_SHADERS,
            "shaders",
        );
        if s.shaders.is_empty() {
            c.warn(
                format!("{p}.num_shaders"),
                "no shader: drawn with the default shader unless a .skin names one",
                field("num_shaders"),
            );
        }
        for (j, sh) in s.shaders.iter().enumerate() {
            if sh.name.is_unterminated() {
                c.error(
                    format!("{p}.shaders[{j}].name"),
                    "64 bytes without a NUL",
                    at(s.offsets.shaders, j * SHADER_SIZE),
                );
            }
        }
        for (j, t) in s.triangles.iter().enumerate() {
            for (k, &v) in t.iter().enumerate() {
                if usize::try_from(v).map_or(true, |v| v >= nv) {
                    c.error(
                        format!("{p}.triangles[{j}][{k}]"),
                        format!("vertex index {v} out of range 0..{nv}"),
                        at(s.offsets.triangles, j * TRIANGLE_SIZE + 4 * k),
                    );
                }
            }
        }
        if let Some(j) = s
            .texcoords
            .iter()
            .position(|st| !st.iter().all(|v| v.is_finite()))
        {
            c.warn(
                format!("{p}.texcoords[{j}]"),
                "not finite",
                at(s.offsets.texcoords, j * TEXCOORD_SIZE),
            );
        }
    }
}
