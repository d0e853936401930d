//! Writing an [`Mdl`] back to bytes.
//!
//! An MDL has no offsets: the sections follow one another in the one
//! order the loaders read, so a model read from a file is written back
//! byte for byte. The counts in the header are written from the data
//! (the number of skins, texture coordinates, triangles and frames the
//! model holds); a model whose parts disagree (a frame with the wrong
//! number of vertices, a Hexen II index past 65535) is an error, not a
//! file no engine could walk.

use super::read::{TEXCOORD_SIZE, TRIANGLE_SIZE, VERTEX_SIZE};
use super::{Frame, Mdl, SimpleFrame, Skin, TriVertex, Variant};
use crate::bytes::PutLe;
use crate::error::{Error, Result};

/// Where [`Mdl::to_bytes_with`] puts things.
///
/// An MDL's sections have no offsets, so there is one order to write them
/// in; the two layouts differ only in the header's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Header counts from the data (skins, vertices, triangles, frames;
    /// Hexen II's texture coordinates), then skins, texture coordinates,
    /// triangles, frames and the trailing bytes. A file read is reproduced
    /// byte for byte.
    #[default]
    Standard,
    /// The header's stored vertex, triangle and frame counts
    /// ([`Mdl::num_vertices`] ...) where they still describe the data (as
    /// they do for a model read and not edited); otherwise
    /// [`Layout::Standard`]'s.
    Original,
}

fn to_i32(value: usize, what: &str) -> Result<i32> {
    i32::try_from(value)
        .map_err(|_| Error::unwritable(what, format!("{value} does not fit in the header")))
}

impl Mdl {
    /// The number of vertices every frame holds: the texture coordinates'
    /// count in a Quake file (they are per vertex), the first frame's
    /// vertex count in a Hexen II file (the header's when there is no
    /// frame).
    pub fn vertex_count(&self) -> usize {
        if self.variant != Variant::Hexen2 {
            return self.texcoords.len();
        }
        self.simple_frames()
            .next()
            .map_or(self.num_vertices.max(0) as usize, |f| f.vertices.len())
    }

    /// Writes the model ([`Layout::Standard`]).
    ///
    /// Fails when a frame's vertices disagree with [`Mdl::vertex_count`], a
    /// skin image is not `skin_width × skin_height` bytes, a group's
    /// intervals disagree with its frames or images, a Hexen II index does
    /// not fit 16 bits, or a count does not fit the header. It does not
    /// enforce engine limits; [`Mdl::validate`] reports those.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.to_bytes_with(Layout::Standard)
    }

    /// Writes the model in `layout`.
    pub fn to_bytes_with(&self, layout: Layout) -> Result<Vec<u8>> {
        let variant = self.variant;
        let nv = self.vertex_count();
        let skin_bytes = self.skin_bytes()?;
        self.check_parts(nv, skin_bytes)?;
        let mut out = Vec::with_capacity(self.written_size(nv, skin_bytes));
        out.extend_from_slice(&variant.magic());
        out.put_i32(variant.version());
        for v in self
            .scale
            .iter()
            .chain(&self.origin)
            .chain([&self.bounding_radius])
            .chain(&self.eye_position)
        {
            out.put_f32(*v);
        }
        let keep = |stored: i32, actual: usize| -> Result<i32> {
            match layout {
                Layout::Original if usize::try_from(stored).is_ok_and(|s| s == actual) => {
                    Ok(stored)
                }
                _ => to_i32(actual, "header"),
            }
        };
        out.put_i32(to_i32(self.skins.len(), "header.num_skins")?);
        out.put_i32(self.skin_width);
        out.put_i32(self.skin_height);
        out.put_i32(keep(self.num_vertices, nv)?);
        out.put_i32(keep(self.num_triangles, self.triangles.len())?);
        out.put_i32(keep(self.num_frames, self.frames.len())?);
        out.put_i32(self.sync_type);
        if variant != Variant::QTest {
            out.put_i32(self.flags);
            out.put_f32(self.size);
        }
        if variant == Variant::Hexen2 {
            out.put_i32(to_i32(self.texcoords.len(), "header.num_st_verts")?);
        }
        for skin in &self.skins {
            match skin {
                Skin::Single(image) => {
                    out.put_i32(0);
                    out.extend_from_slice(image);
                }
                Skin::Group {
                    kind,
                    intervals,
                    images,
                } => {
                    out.put_i32(*kind);
                    out.put_i32(to_i32(images.len(), "skin group")?);
                    for t in intervals {
                        out.put_f32(*t);
                    }
                    for image in images {
                        out.extend_from_slice(image);
                    }
                }
            }
        }
        for st in &self.texcoords {
            out.put_i32(st.onseam);
            out.put_i32(st.s);
            out.put_i32(st.t);
        }
        for t in &self.triangles {
            out.put_i32(t.faces_front);
            if variant == Variant::Hexen2 {
                // Checked to fit by `check_parts`.
                for i in t.vertices.iter().chain(&t.texcoords) {
                    out.put_u16(*i as u16);
                }
            } else {
                for i in t.vertices {
                    out.put_i32(i);
                }
            }
        }
        for frame in &self.frames {
            match frame {
                Frame::Single(f) => {
                    out.put_i32(0);
                    put_simple(&mut out, variant, f);
                }
                Frame::Group { kind, group } => {
                    out.put_i32(*kind);
                    out.put_i32(to_i32(group.frames.len(), "frame group")?);
                    put_vertex(&mut out, group.bbox_min);
                    put_vertex(&mut out, group.bbox_max);
                    for t in &group.intervals {
                        out.put_f32(*t);
                    }
                    for f in &group.frames {
                        put_simple(&mut out, variant, f);
                    }
                }
            }
        }
        out.extend_from_slice(&self.trailing);
        Ok(out)
    }

    /// `skin_width × skin_height`, or an error when either is negative.
    fn skin_bytes(&self) -> Result<usize> {
        let (w, h) = (self.skin_width, self.skin_height);
        match (usize::try_from(w), usize::try_from(h)) {
            (Ok(w), Ok(h)) => w.checked_mul(h).ok_or_else(|| {
                Error::unwritable("header.skin_width", "skin size overflows".to_string())
            }),
            _ => Err(Error::unwritable(
                "header.skin_width",
                format!("skin size {w}×{h} is negative"),
            )),
        }
    }

    /// Checks that the parts agree with each other, so that the file
    /// written can be walked as it says.
    fn check_parts(&self, nv: usize, skin_bytes: usize) -> Result<()> {
        let image = |path: String, image: &[u8]| {
            if image.len() == skin_bytes {
                Ok(())
            } else {
                Err(Error::unwritable(
                    path,
                    format!(
                        "{} bytes, but the skin size {}×{} needs {skin_bytes}",
                        image.len(),
                        self.skin_width,
                        self.skin_height
                    ),
                ))
            }
        };
        for (i, skin) in self.skins.iter().enumerate() {
            match skin {
                Skin::Single(img) => image(format!("skins[{i}]"), img)?,
                Skin::Group {
                    kind,
                    intervals,
                    images,
                } => {
                    if *kind == 0 {
                        return Err(Error::unwritable(
                            format!("skins[{i}].type"),
                            "a skin group's type must not be 0 (0 means a single skin)",
                        ));
                    }
                    if intervals.len() != images.len() {
                        return Err(Error::unwritable(
                            format!("skins[{i}].group.intervals"),
                            format!("{} intervals for {} images", intervals.len(), images.len()),
                        ));
                    }
                    for (k, img) in images.iter().enumerate() {
                        image(format!("skins[{i}].group.images[{k}]"), img)?;
                    }
                }
            }
        }
        if self.variant == Variant::Hexen2 {
            for (i, t) in self.triangles.iter().enumerate() {
                if let Some(v) = t
                    .vertices
                    .iter()
                    .chain(&t.texcoords)
                    .find(|&&v| u16::try_from(v).is_err())
                {
                    return Err(Error::unwritable(
                        format!("triangles[{i}]"),
                        format!("index {v} does not fit a Hexen II triangle's 16 bits"),
                    ));
                }
            }
        }
        let low = self.variant == Variant::QuakeForge16;
        let check = |path: String, f: &SimpleFrame| {
            if f.vertices.len() != nv || (low && f.vertices_low.len() != nv) {
                return Err(Error::unwritable(
                    format!("{path}.vertices"),
                    format!(
                        "{} vertices, but the model has {nv}",
                        if low && f.vertices.len() == nv {
                            f.vertices_low.len()
                        } else {
                            f.vertices.len()
                        }
                    ),
                ));
            }
            Ok(())
        };
        for (i, frame) in self.frames.iter().enumerate() {
            match frame {
                Frame::Single(f) => check(format!("frames[{i}]"), f)?,
                Frame::Group { kind, group } => {
                    if *kind == 0 {
                        return Err(Error::unwritable(
                            format!("frames[{i}].type"),
                            "a frame group's type must not be 0 (0 means a single frame)",
                        ));
                    }
                    if group.intervals.len() != group.frames.len() {
                        return Err(Error::unwritable(
                            format!("frames[{i}].group.intervals"),
                            format!(
                                "{} intervals for {} frames",
                                group.intervals.len(),
                                group.frames.len()
                            ),
                        ));
                    }
                    for (k, f) in group.frames.iter().enumerate() {
                        check(format!("frames[{i}].group.frames[{k}]"), f)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The size of the file [`Mdl::to_bytes`] writes (parts checked).
    fn written_size(&self, nv: usize, skin_bytes: usize) -> usize {
        let v = self.variant;
        let per_vertex = VERTEX_SIZE as usize * if v == Variant::QuakeForge16 { 2 } else { 1 };
        let frame = v.frame_header_size() + per_vertex * nv;
        let skins: usize = self
            .skins
            .iter()
            .map(|s| match s {
                Skin::Single(_) => 4 + skin_bytes,
                Skin::Group { images, .. } => 8 + images.len() * (4 + skin_bytes),
            })
            .sum();
        let frames: usize = self
            .frames
            .iter()
            .map(|f| match f {
                Frame::Single(_) => 4 + frame,
                Frame::Group { group, .. } => 16 + group.frames.len() * (4 + frame),
            })
            .sum();
        v.header_size()
            + skins
            + self.texcoords.len() * TEXCOORD_SIZE as usize
            + self.triangles.len() * TRIANGLE_SIZE as usize
            + frames
            + self.trailing.len()
    }
}

fn put_vertex(out: &mut Vec<u8>, v: TriVertex) {
    out.extend_from_slice(&v.position);
    out.push(v.normal_index);
}

fn put_simple(out: &mut Vec<u8>, variant: Variant, f: &SimpleFrame) {
    put_vertex(out, f.bbox_min);
    put_vertex(out, f.bbox_max);
    if variant != Variant::QTest {
        out.extend_from_slice(&f.name.0);
    }
    for v in &f.vertices {
        put_vertex(out, *v);
    }
    if variant == Variant::QuakeForge16 {
        for v in &f.vertices_low {
            put_vertex(out, *v);
        }
    }
}
