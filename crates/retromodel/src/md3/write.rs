//! Writing an [`Md3`] back to bytes.
//!
//! Sizes and offsets are computed first, then every section is written
//! once. The header's and surfaces' counts always come from the data; the
//! offsets come from the [`Layout`].

use super::{
    Md3, Offsets, Surface, SurfaceOffsets, FRAME_SIZE, HEADER_SIZE, MAGIC, SHADER_SIZE,
    SURFACE_HEADER_SIZE, TAG_SIZE, TEXCOORD_SIZE, TRIANGLE_SIZE, VERSION, XYZ_NORMAL_SIZE,
};
use crate::bytes::PutLe;
use crate::error::{Error, Result};

/// Where [`Md3::to_bytes_with`] puts the sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Packed, in the order the files of Quake III's tools hold them (and
    /// OpenArena's): header, frames, tags, then each surface (its header,
    /// triangles, shaders, texture coordinates, vertices), with the
    /// offsets computed and no byte between sections. [`Md3::offsets`], [`Surface::offsets`] and
    /// [`Md3::unclaimed`] are not used.
    #[default]
    Standard,
    /// Every section at its stored offset ([`Md3::offsets`],
    /// [`Surface::offsets`]) and every byte no section covers
    /// ([`Md3::unclaimed`]) where it was: a file read is written back byte
    /// for byte, whatever order its sections were in and whatever lay
    /// between them.
    Original,
}

fn to_i32(value: usize, what: &str) -> Result<i32> {
    i32::try_from(value)
        .map_err(|_| Error::unwritable(what, format!("{value} does not fit in 32 bits")))
}

/// A surface's sections, serialised, with the offsets the standard layout
/// gives them.
struct SurfaceBytes {
    shaders: Vec<u8>,
    triangles: Vec<u8>,
    texcoords: Vec<u8>,
    xyz_normals: Vec<u8>,
    standard: SurfaceOffsets,
}

fn surface_bytes(i: usize, s: &Surface) -> Result<SurfaceBytes> {
    let nv = s.vertex_count();
    let frames = usize::try_from(s.num_frames).map_err(|_| {
        Error::unwritable(
            format!("surfaces[{i}].num_frames"),
            format!("negative count {}", s.num_frames),
        )
    })?;
    if frames.checked_mul(nv) != Some(s.xyz_normals.len()) {
        return Err(Error::unwritable(
            format!("surfaces[{i}].xyz_normals"),
            format!(
                "{} vertices, but {frames} frames × {nv} vertices need {}",
                s.xyz_normals.len(),
                frames.saturating_mul(nv)
            ),
        ));
    }
    let mut shaders = Vec::with_capacity(s.shaders.len() * SHADER_SIZE);
    for sh in &s.shaders {
        shaders.extend_from_slice(&sh.name.0);
        shaders.put_i32(sh.index);
    }
    let mut triangles = Vec::with_capacity(s.triangles.len() * TRIANGLE_SIZE);
    for t in s.triangles.iter().flatten() {
        triangles.put_i32(*t);
    }
    let mut texcoords = Vec::with_capacity(nv * TEXCOORD_SIZE);
    for st in s.texcoords.iter().flatten() {
        texcoords.put_f32(*st);
    }
    let mut xyz_normals = Vec::with_capacity(s.xyz_normals.len() * XYZ_NORMAL_SIZE);
    for v in &s.xyz_normals {
        for c in v.xyz {
            xyz_normals.put_i16(c);
        }
        xyz_normals.put_u16(v.normal);
    }
    let p = |what: &str| format!("surfaces[{i}].{what}");
    let o_triangles = SURFACE_HEADER_SIZE;
    let o_shaders = o_triangles + triangles.len();
    let o_st = o_shaders + shaders.len();
    let o_xyz = o_st + texcoords.len();
    let o_end = o_xyz + xyz_normals.len();
    let standard = SurfaceOffsets {
        triangles: to_i32(o_triangles, &p("ofs_triangles"))?,
        shaders: to_i32(o_shaders, &p("ofs_shaders"))?,
        texcoords: to_i32(o_st, &p("ofs_st"))?,
        xyz_normals: to_i32(o_xyz, &p("ofs_xyz_normals"))?,
        end: to_i32(o_end, &p("ofs_end"))?,
    };
    Ok(SurfaceBytes {
        shaders,
        triangles,
        texcoords,
        xyz_normals,
        standard,
    })
}

fn surface_header(i: usize, s: &Surface, o: SurfaceOffsets) -> Result<Vec<u8>> {
    let p = |what: &str| format!("surfaces[{i}].{what}");
    let mut out = Vec::with_capacity(SURFACE_HEADER_SIZE);
    out.extend_from_slice(&s.ident);
    out.extend_from_slice(&s.name.0);
    out.put_i32(s.flags);
    out.put_i32(s.num_frames);
    out.put_i32(to_i32(s.shaders.len(), &p("num_shaders"))?);
    out.put_i32(to_i32(s.vertex_count(), &p("num_verts"))?);
    out.put_i32(to_i32(s.triangles.len(), &p("num_triangles"))?);
    for v in [o.triangles, o.shaders, o.texcoords, o.xyz_normals, o.end] {
        out.put_i32(v);
    }
    Ok(out)
}

/// Where `base + ofs` is, or an error naming `path`.
fn place(base: i64, ofs: i32, path: impl FnOnce() -> String) -> Result<usize> {
    usize::try_from(base + i64::from(ofs))
        .map_err(|_| Error::unwritable(path(), format!("offset {ofs} points before the file")))
}

impl Md3 {
    /// Writes the model packed ([`Layout::Standard`]).
    ///
    /// Fails when the tags are not `frames × num_tags`, a surface's
    /// vertices are not `num_frames × numVerts`, or a count does not fit
    /// 32 bits. It does not enforce engine limits; [`Md3::validate`]
    /// reports those.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.to_bytes_with(Layout::Standard)
    }

    /// Writes the model in `layout`.
    ///
    /// ```
    /// use retromodel::md3::{Layout, Md3};
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let bytes = Md3::default().to_bytes()?;
    /// assert_eq!(bytes.len(), 108);
    /// let again = Md3::from_bytes(&bytes)?;
    /// assert_eq!(again.to_bytes_with(Layout::Original)?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes_with(&self, layout: Layout) -> Result<Vec<u8>> {
        let num_tags = usize::try_from(self.num_tags).map_err(|_| {
            Error::unwritable("num_tags", format!("negative count {}", self.num_tags))
        })?;
        if self.frames.len().checked_mul(num_tags) != Some(self.tags.len()) {
            return Err(Error::unwritable(
                "tags",
                format!(
                    "{} tags, but {} frames × {num_tags} tags need {}",
                    self.tags.len(),
                    self.frames.len(),
                    self.frames.len().saturating_mul(num_tags)
                ),
            ));
        }
        let mut frames = Vec::with_capacity(self.frames.len() * FRAME_SIZE);
        for f in &self.frames {
            for v in f.min.iter().chain(&f.max).chain(&f.local_origin) {
                frames.put_f32(*v);
            }
            frames.put_f32(f.radius);
            frames.extend_from_slice(&f.name.0);
        }
        let mut tags = Vec::with_capacity(self.tags.len() * TAG_SIZE);
        for t in &self.tags {
            tags.extend_from_slice(&t.name.0);
            for v in t.origin.iter().chain(t.axes.iter().flatten()) {
                tags.put_f32(*v);
            }
        }
        let surfaces = self
            .surfaces
            .iter()
            .enumerate()
            .map(|(i, s)| surface_bytes(i, s))
            .collect::<Result<Vec<_>>>()?;
        let surfaces_size: usize = surfaces.iter().map(|s| s.standard.end as usize).sum();

        let offsets = match layout {
            Layout::Original => self.offsets,
            Layout::Standard => {
                let f = HEADER_SIZE;
                let t = f + frames.len();
                let s = t + tags.len();
                let e = s + surfaces_size;
                Offsets {
                    frames: to_i32(f, "ofs_frames")?,
                    tags: to_i32(t, "ofs_tags")?,
                    surfaces: to_i32(s, "ofs_surfaces")?,
                    end: to_i32(e, "ofs_end")?,
                }
            }
        };
        let mut header = Vec::with_capacity(HEADER_SIZE);
        header.extend_from_slice(&MAGIC);
        header.put_i32(VERSION);
        header.extend_from_slice(&self.name.0);
        header.put_i32(self.flags);
        header.put_i32(to_i32(self.frames.len(), "num_frames")?);
        header.put_i32(self.num_tags);
        header.put_i32(to_i32(self.surfaces.len(), "num_surfaces")?);
        header.put_i32(self.num_skins);
        for v in [offsets.frames, offsets.tags, offsets.surfaces, offsets.end] {
            header.put_i32(v);
        }

        // Every piece and where it goes.
        let mut pieces: Vec<(usize, Vec<u8>)> = vec![
            (0, header),
            (place(0, offsets.frames, || "ofs_frames".into())?, frames),
            (place(0, offsets.tags, || "ofs_tags".into())?, tags),
        ];
        let mut base = i64::from(offsets.surfaces);
        for (i, (s, b)) in self.surfaces.iter().zip(surfaces).enumerate() {
            let o = match layout {
                Layout::Original => s.offsets,
                Layout::Standard => b.standard,
            };
            let p = |what: &'static str| move || format!("surfaces[{i}].{what}");
            let start = place(base, 0, p("ofs_surfaces"))?;
            pieces.push((start, surface_header(i, s, o)?));
            pieces.push((place(base, o.shaders, p("ofs_shaders"))?, b.shaders));
            pieces.push((place(base, o.triangles, p("ofs_triangles"))?, b.triangles));
            pieces.push((place(base, o.texcoords, p("ofs_st"))?, b.texcoords));
            pieces.push((
                place(base, o.xyz_normals, p("ofs_xyz_normals"))?,
                b.xyz_normals,
            ));
            base += i64::from(o.end);
        }
        if layout == Layout::Original {
            for u in &self.unclaimed {
                let at = usize::try_from(u.offset)
                    .map_err(|_| Error::unwritable("unclaimed", "offset past memory"))?;
                pieces.push((at, u.bytes.clone()));
            }
        }
        let size = pieces
            .iter()
            .filter(|(_, b)| !b.is_empty())
            .map(|(at, b)| at + b.len())
            .max()
            .unwrap_or(0);
        let mut out = vec![0u8; size];
        for (at, b) in pieces {
            if !b.is_empty() {
                out[at..at + b.len()].copy_from_slice(&b);
            }
        }
        Ok(out)
    }
}
