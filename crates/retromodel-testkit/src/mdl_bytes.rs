//! Hand-made MDL files, byte by byte, for tests of the MDL reader: every
//! field is written here from the layout in id's `modelgen.h` (and
//! uhexen2's `genmodel.h`, FTE's `com_mesh.c` for QuakeForge's `MD16` and
//! QTest), never by the library's writer, so that a test of the reader
//! does not check the library against itself.

/// The header of a hand-made MDL, field by field as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct MdlHeader {
    /// `IDPO`, `RAPO` or `MD16`.
    pub magic: [u8; 4],
    /// 6, 50 or 3.
    pub version: i32,
    /// Scale of the packed positions.
    pub scale: [f32; 3],
    /// Origin of the packed positions.
    pub origin: [f32; 3],
    /// Bounding radius.
    pub radius: f32,
    /// Eye position.
    pub eye: [f32; 3],
    /// Skin count.
    pub num_skins: i32,
    /// Skin width.
    pub skin_width: i32,
    /// Skin height.
    pub skin_height: i32,
    /// Vertex count.
    pub num_verts: i32,
    /// Triangle count.
    pub num_tris: i32,
    /// Frame count.
    pub num_frames: i32,
    /// Sync type.
    pub sync_type: i32,
    /// Flags (`None`: not written, as in QTest's header).
    pub flags: Option<i32>,
    /// Size (`None`: not written, as in QTest's header).
    pub size: Option<f32>,
    /// Hexen II's `num_st_verts` (`None`: not written).
    pub num_st: Option<i32>,
}

impl MdlHeader {
    /// A Quake (`IDPO` 6) header with these counts, scale 1 and origin 0.
    pub fn quake(skins: i32, w: i32, h: i32, verts: i32, tris: i32, frames: i32) -> Self {
        MdlHeader {
            magic: *b"IDPO",
            version: 6,
            scale: [1.0, 1.0, 1.0],
            origin: [0.0; 3],
            radius: 1000.0,
            eye: [0.0, 0.0, 24.0],
            num_skins: skins,
            skin_width: w,
            skin_height: h,
            num_verts: verts,
            num_tris: tris,
            num_frames: frames,
            sync_type: 0,
            flags: Some(0),
            size: Some(0.0),
            num_st: None,
        }
    }

    /// A Hexen II (`RAPO` 50) header with `st` texture coordinates.
    pub fn hexen2(skins: i32, w: i32, h: i32, verts: i32, tris: i32, frames: i32, st: i32) -> Self {
        MdlHeader {
            magic: *b"RAPO",
            version: 50,
            num_st: Some(st),
            ..MdlHeader::quake(skins, w, h, verts, tris, frames)
        }
    }

    /// The header's bytes (84 for Quake, 88 with `num_st`, 76 for QTest).
    pub fn bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&self.magic);
        b.extend_from_slice(&self.version.to_le_bytes());
        for v in self
            .scale
            .iter()
            .chain(&self.origin)
            .chain([&self.radius])
            .chain(&self.eye)
        {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in [
            self.num_skins,
            self.skin_width,
            self.skin_height,
            self.num_verts,
            self.num_tris,
            self.num_frames,
            self.sync_type,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        if let Some(f) = self.flags {
            b.extend_from_slice(&f.to_le_bytes());
        }
        if let Some(s) = self.size {
            b.extend_from_slice(&s.to_le_bytes());
        }
        if let Some(n) = self.num_st {
            b.extend_from_slice(&n.to_le_bytes());
        }
        b
    }
}

fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A single skin: type 0, then the pixels.
pub fn single_skin(pixels: &[u8]) -> Vec<u8> {
    let mut b = i32s(&[0]);
    b.extend_from_slice(pixels);
    b
}

/// A skin group: type 1, count, intervals, images.
pub fn skin_group(intervals: &[f32], images: &[Vec<u8>]) -> Vec<u8> {
    let mut b = i32s(&[1, images.len() as i32]);
    b.extend(f32s(intervals));
    for image in images {
        b.extend_from_slice(image);
    }
    b
}

/// A texture coordinate (`stvert_t`).
pub fn stvert(onseam: i32, s: i32, t: i32) -> Vec<u8> {
    i32s(&[onseam, s, t])
}

/// A Quake triangle (`dtriangle_t`).
pub fn triangle(faces_front: i32, v: [i32; 3]) -> Vec<u8> {
    i32s(&[faces_front, v[0], v[1], v[2]])
}

/// A Hexen II triangle (`dnewtriangle_t`: 16-bit vertex and texture
/// coordinate indices).
pub fn hexen2_triangle(faces_front: i32, v: [u16; 3], st: [u16; 3]) -> Vec<u8> {
    let mut b = i32s(&[faces_front]);
    for i in v.iter().chain(&st) {
        b.extend_from_slice(&i.to_le_bytes());
    }
    b
}

/// A simple frame without its type word: bounding box, 16-byte name
/// (`None` for QTest's nameless frames), vertices `[x, y, z, normal]`.
pub fn simple_frame(min: [u8; 4], max: [u8; 4], name: Option<&[u8]>, verts: &[[u8; 4]]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&min);
    b.extend_from_slice(&max);
    if let Some(name) = name {
        let mut raw = [0u8; 16];
        raw[..name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
        b.extend_from_slice(&raw);
    }
    for v in verts {
        b.extend_from_slice(v);
    }
    b
}

/// A frame entry holding one simple frame: type 0, then the frame.
pub fn single_frame(frame: &[u8]) -> Vec<u8> {
    let mut b = i32s(&[0]);
    b.extend_from_slice(frame);
    b
}

/// A frame group entry: type 1, count, bounding box, intervals, frames
/// (each from [`simple_frame`]).
pub fn frame_group(min: [u8; 4], max: [u8; 4], intervals: &[f32], frames: &[Vec<u8>]) -> Vec<u8> {
    let mut b = i32s(&[1, frames.len() as i32]);
    b.extend_from_slice(&min);
    b.extend_from_slice(&max);
    b.extend(f32s(intervals));
    for f in frames {
        b.extend_from_slice(f);
    }
    b
}

/// The four corners of a tetrahedron on the grid.
pub const TETRA: [[u8; 4]; 4] = [[0, 0, 0, 0], [10, 0, 0, 1], [0, 10, 0, 2], [0, 0, 10, 3]];

/// A small valid Quake model: a tetrahedron (4 vertices, 4 triangles, one
/// back-facing with an onseam vertex), an 8×4 skin, a single frame
/// `stand1` and a group of two frames `flick1`, `flick2`.
pub fn tetra_quake() -> Vec<u8> {
    let mut b = MdlHeader::quake(1, 8, 4, 4, 4, 2).bytes();
    b.extend(single_skin(&(0u8..32).collect::<Vec<_>>()));
    b.extend(stvert(0, 0, 0));
    b.extend(stvert(0, 3, 0));
    b.extend(stvert(0x20, 0, 3));
    b.extend(stvert(0, 3, 3));
    b.extend(triangle(1, [0, 1, 2]));
    b.extend(triangle(1, [0, 3, 1]));
    b.extend(triangle(0, [0, 2, 3]));
    b.extend(triangle(1, [1, 3, 2]));
    let (min, max) = ([0, 0, 0, 0], [10, 10, 10, 0]);
    b.extend(single_frame(&simple_frame(
        min,
        max,
        Some(b"stand1"),
        &TETRA,
    )));
    let moved: Vec<[u8; 4]> = TETRA.iter().map(|v| [v[0] + 1, v[1], v[2], v[3]]).collect();
    b.extend(frame_group(
        [0, 0, 0, 0],
        [11, 10, 10, 0],
        &[0.1, 0.2],
        &[
            simple_frame(min, max, Some(b"flick1"), &TETRA),
            simple_frame([1, 0, 0, 0], [11, 10, 10, 0], Some(b"flick2"), &moved),
        ],
    ));
    b
}
