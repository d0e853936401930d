//! An independent, minimal MD3 reader for tests: the facts a test checks
//! the library's reader against (counts, names, first vertices), read
//! straight from the bytes at the offsets `qfiles.h` gives, with none of
//! the library's code. It trusts nothing: every read is `get(..)`, and a
//! file it cannot read gives `None`.

/// One surface's facts.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceFacts {
    /// The name, up to the first NUL.
    pub name: Vec<u8>,
    /// `numFrames`.
    pub num_frames: i32,
    /// `numVerts`.
    pub num_verts: i32,
    /// `numTriangles`.
    pub num_triangles: i32,
    /// Every shader's name, up to the first NUL.
    pub shaders: Vec<Vec<u8>>,
    /// The first triangle's indices.
    pub first_triangle: Option<[i32; 3]>,
    /// The first texture coordinate.
    pub first_st: Option<[f32; 2]>,
    /// Frame 0's first vertex: x, y, z in 1/64 units and the normal's two
    /// bytes in file order.
    pub first_xyz: Option<([i16; 3], [u8; 2])>,
    /// The last frame's last vertex, the same way.
    pub last_xyz: Option<([i16; 3], [u8; 2])>,
}

/// A model's facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Md3Facts {
    /// The model name, up to the first NUL.
    pub name: Vec<u8>,
    /// `numFrames`.
    pub num_frames: i32,
    /// `numTags`.
    pub num_tags: i32,
    /// Frame names, up to the first NUL.
    pub frame_names: Vec<Vec<u8>>,
    /// Frame 0's radius.
    pub first_radius: Option<f32>,
    /// Frame 0's tag names.
    pub tag_names: Vec<Vec<u8>>,
    /// Frame 0's first tag origin.
    pub first_tag_origin: Option<[f32; 3]>,
    /// The surfaces.
    pub surfaces: Vec<SurfaceFacts>,
}

fn i32_at(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn f32_at(b: &[u8], at: usize) -> Option<f32> {
    Some(f32::from_bits(i32_at(b, at)? as u32))
}

fn i16_at(b: &[u8], at: usize) -> Option<i16> {
    Some(i16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn cstr(b: &[u8], at: usize, len: usize) -> Option<Vec<u8>> {
    let field = b.get(at..at.checked_add(len)?)?;
    Some(field.iter().take_while(|&&c| c != 0).copied().collect())
}

fn idx(v: i32) -> Option<usize> {
    usize::try_from(v).ok()
}

fn xyz(b: &[u8], at: usize) -> Option<([i16; 3], [u8; 2])> {
    Some((
        [i16_at(b, at)?, i16_at(b, at + 2)?, i16_at(b, at + 4)?],
        [*b.get(at + 6)?, *b.get(at + 7)?],
    ))
}

/// Reads the facts of an MD3 file, or `None` when it is not one this
/// minimal reader can walk.
pub fn md3_facts(b: &[u8]) -> Option<Md3Facts> {
    if b.get(0..4)? != b"IDP3" || i32_at(b, 4)? != 15 {
        return None;
    }
    let num_frames = i32_at(b, 76)?;
    let num_tags = i32_at(b, 80)?;
    let num_surfaces = i32_at(b, 84)?;
    let ofs_frames = idx(i32_at(b, 92)?)?;
    let ofs_tags = idx(i32_at(b, 96)?)?;
    let mut surf = idx(i32_at(b, 100)?)?;
    let mut frame_names = Vec::new();
    for f in 0..idx(num_frames)? {
        frame_names.push(cstr(b, ofs_frames + f * 56 + 40, 16)?);
    }
    let first_radius = if num_frames > 0 {
        f32_at(b, ofs_frames + 36)
    } else {
        None
    };
    let mut tag_names = Vec::new();
    if num_frames > 0 {
        for t in 0..idx(num_tags)? {
            tag_names.push(cstr(b, ofs_tags + t * 112, 64)?);
        }
    }
    let first_tag_origin = if num_frames > 0 && num_tags > 0 {
        Some([
            f32_at(b, ofs_tags + 64)?,
            f32_at(b, ofs_tags + 68)?,
            f32_at(b, ofs_tags + 72)?,
        ])
    } else {
        None
    };
    let mut surfaces = Vec::new();
    for _ in 0..idx(num_surfaces)? {
        let s = |o: usize| i32_at(b, surf + o);
        let (nf, ns, nv, nt) = (s(72)?, s(76)?, s(80)?, s(84)?);
        let (o_tri, o_sh, o_st, o_xyz, o_end) = (
            idx(s(88)?)?,
            idx(s(92)?)?,
            idx(s(96)?)?,
            idx(s(100)?)?,
            idx(s(104)?)?,
        );
        let mut shaders = Vec::new();
        for k in 0..idx(ns)? {
            shaders.push(cstr(b, surf + o_sh + k * 68, 64)?);
        }
        let t = surf + o_tri;
        let first_triangle = if nt > 0 {
            Some([i32_at(b, t)?, i32_at(b, t + 4)?, i32_at(b, t + 8)?])
        } else {
            None
        };
        let first_st = if nv > 0 {
            Some([f32_at(b, surf + o_st)?, f32_at(b, surf + o_st + 4)?])
        } else {
            None
        };
        let count = idx(nf)?.checked_mul(idx(nv)?)?;
        let (first_xyz, last_xyz) = if count > 0 {
            (
                Some(xyz(b, surf + o_xyz)?),
                Some(xyz(b, surf + o_xyz + (count - 1) * 8)?),
            )
        } else {
            (None, None)
        };
        surfaces.push(SurfaceFacts {
            name: cstr(b, surf + 4, 64)?,
            num_frames: nf,
            num_verts: nv,
            num_triangles: nt,
            shaders,
            first_triangle,
            first_st,
            first_xyz,
            last_xyz,
        });
        surf = surf.checked_add(o_end)?;
    }
    Some(Md3Facts {
        name: cstr(b, 8, 64)?,
        num_frames,
        num_tags,
        frame_names,
        first_radius,
        tag_names,
        first_tag_origin,
        surfaces,
    })
}

/// One tag in one frame, read from the bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct TagFacts {
    /// The name, up to the first NUL.
    pub name: Vec<u8>,
    /// The origin.
    pub origin: [f32; 3],
    /// The three axes (forward, left, up), as stored.
    pub axes: [[f32; 3]; 3],
}

/// Every frame's tags (`numFrames × numTags` of 112 bytes at `ofsTags`:
/// name, origin, axes), or `None` when they are not all in the file.
pub fn md3_tags(b: &[u8]) -> Option<Vec<Vec<TagFacts>>> {
    if b.get(0..4)? != b"IDP3" || i32_at(b, 4)? != 15 {
        return None;
    }
    let num_frames = idx(i32_at(b, 76)?)?;
    let num_tags = idx(i32_at(b, 80)?)?;
    let ofs_tags = idx(i32_at(b, 96)?)?;
    let v3 = |at: usize| -> Option<[f32; 3]> {
        Some([f32_at(b, at)?, f32_at(b, at + 4)?, f32_at(b, at + 8)?])
    };
    let mut frames = Vec::with_capacity(num_frames.min(4096));
    for f in 0..num_frames {
        let mut tags = Vec::with_capacity(num_tags.min(4096));
        for t in 0..num_tags {
            let at = ofs_tags.checked_add((f * num_tags + t).checked_mul(112)?)?;
            tags.push(TagFacts {
                name: cstr(b, at, 64)?,
                origin: v3(at + 64)?,
                axes: [v3(at + 76)?, v3(at + 88)?, v3(at + 100)?],
            });
        }
        frames.push(tags);
    }
    Some(frames)
}

/// One surface's geometry, read from the bytes: every triangle and, per
/// frame, every vertex's position in 1/64 units as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceGeometry {
    /// The name, up to the first NUL.
    pub name: Vec<u8>,
    /// The triangles' vertex indices, as stored.
    pub triangles: Vec<[i32; 3]>,
    /// Texture coordinates, one per vertex.
    pub st: Vec<[f32; 2]>,
    /// `[frame][vertex]`: x, y, z (× 1/64 unit).
    pub frames: Vec<Vec<[i16; 3]>>,
    /// `[frame][vertex]`: the normal's two bytes in file order.
    pub normals: Vec<Vec<[u8; 2]>>,
}

/// Every surface's triangles, texture coordinates and per-frame vertex
/// positions and normal bytes (`numVerts × numFrames` of 8 bytes at `ofsXyzNormals`, frame
/// after frame), or `None` when they are not all in the file.
pub fn md3_geometry(b: &[u8]) -> Option<Vec<SurfaceGeometry>> {
    if b.get(0..4)? != b"IDP3" || i32_at(b, 4)? != 15 {
        return None;
    }
    let num_surfaces = idx(i32_at(b, 84)?)?;
    let mut surf = idx(i32_at(b, 100)?)?;
    let mut out = Vec::new();
    for _ in 0..num_surfaces {
        let s = |o: usize| i32_at(b, surf + o);
        let (nf, nv, nt) = (idx(s(72)?)?, idx(s(80)?)?, idx(s(84)?)?);
        let (o_tri, o_st, o_xyz, o_end) =
            (idx(s(88)?)?, idx(s(96)?)?, idx(s(100)?)?, idx(s(104)?)?);
        // Every section must be in the file before anything is allocated.
        let within = |ofs: usize, len: Option<usize>| -> Option<()> {
            let start = surf.checked_add(ofs)?;
            b.get(start..start.checked_add(len?)?).map(|_| ())
        };
        within(o_tri, nt.checked_mul(12))?;
        within(o_st, nv.checked_mul(8))?;
        within(o_xyz, nv.checked_mul(nf).and_then(|n| n.checked_mul(8)))?;
        let mut triangles = Vec::with_capacity(nt);
        for t in 0..nt {
            let at = surf + o_tri + 12 * t;
            triangles.push([i32_at(b, at)?, i32_at(b, at + 4)?, i32_at(b, at + 8)?]);
        }
        let mut st = Vec::with_capacity(nv);
        for v in 0..nv {
            let at = surf + o_st + 8 * v;
            st.push([f32_at(b, at)?, f32_at(b, at + 4)?]);
        }
        let (mut frames, mut normals) = (Vec::with_capacity(nf), Vec::with_capacity(nf));
        for f in 0..nf {
            let (mut verts, mut words) = (Vec::with_capacity(nv), Vec::with_capacity(nv));
            for v in 0..nv {
                let (p, n) = xyz(b, surf + o_xyz + 8 * (f * nv + v))?;
                verts.push(p);
                words.push(n);
            }
            frames.push(verts);
            normals.push(words);
        }
        out.push(SurfaceGeometry {
            name: cstr(b, surf + 4, 64)?,
            triangles,
            st,
            frames,
            normals,
        });
        surf = surf.checked_add(o_end)?;
    }
    Some(out)
}
