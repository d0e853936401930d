//! A hand-made MD2 with what a round trip through a scene and glTF must
//! carry besides what the scene shows, as UFO:AI's exporters leave it:
//! vertices no triangle uses, frame and skin names with stale bytes after
//! their NUL, a normal index past the 162-normal table, a triangle over
//! one vertex twice, and skin names of files that are not beside it.

use crate::md2_builder::{frame_record, name16, skin_record, Md2Builder};

/// The skin names, as the header gives them (before their NUL).
pub const SKINS: [&[u8]; 3] = [
    b"players/ogro/igdosh.pcx",
    b"players/ogro/ctf_b.pcx",
    b"players/ogro/ctf_r.pcx",
];

/// The skin size in the header.
pub const SKIN_SIZE: (i32, i32) = (276, 202);

/// Vertices in each frame: 0–4 are in triangles, 5 and 6 in none.
pub const NUM_VERTICES: usize = 7;

/// The vertices no triangle uses.
pub const UNUSED: [usize; 2] = [5, 6];

/// Frames.
pub const NUM_FRAMES: usize = 3;

/// The raw 16-byte name of frame `f`: `FRAME 000` and a digit, a NUL,
/// then stale bytes, as UFO:AI's files have them.
pub fn frame_name(f: usize) -> [u8; 16] {
    let mut name = name16(format!("FRAME 00{f}").as_bytes());
    name[10..].copy_from_slice(b"\xcd\xcd.obj");
    name
}

/// The packed vertices `[x, y, z, normal index]` of frame `f`: the used
/// ones move from frame to frame with table normals (but vertex 1 of
/// frame 1, whose index is 170, past the table); the unused ones move
/// too and one has a normal index past the table.
pub fn frame_vertices(f: usize) -> Vec<[u8; 4]> {
    let k = f as u8;
    vec![
        [10 + k, 20, 30, 0],
        [200, 20 + 3 * k, 40, if f == 1 { 170 } else { 4 }],
        [100, 220, 60 + 5 * k, 9],
        [30, 90 + k, 250, 20],
        [128, 128, 128 - k, 84],
        [1 + k, 2, 3, 161],
        [250, 251 - k, 252, 200],
    ]
}

/// The triangles: `(vertex indices, texcoord indices)`. Triangle 3 uses
/// vertex 0 twice.
pub const TRIANGLES: [([u16; 3], [u16; 3]); 4] = [
    ([0, 1, 2], [0, 1, 2]),
    ([0, 2, 3], [0, 2, 3]),
    ([1, 4, 2], [1, 4, 2]),
    ([0, 0, 4], [0, 0, 4]),
];

/// The texture coordinates.
pub const TEXCOORDS: [(i16, i16); 5] = [(0, 0), (275, 0), (275, 201), (0, 201), (138, 100)];

/// The frame records as written (40 header bytes and the packed vertices).
pub fn frames() -> Vec<Vec<u8>> {
    (0..NUM_FRAMES)
        .map(|f| {
            let scale = [0.5 + f as f32 * 0.125, 0.25, 0.375];
            let translate = [-32.0, -16.5 + f as f32, 0.0625];
            frame_record(scale, translate, frame_name(f), &frame_vertices(f), &[])
        })
        .collect()
}

/// The 64-byte skin records as written: each name, its NUL, then stale
/// bytes.
pub fn skin_records() -> Vec<[u8; 64]> {
    SKINS
        .iter()
        .map(|name| {
            let mut raw = skin_record(name);
            raw[60..].copy_from_slice(b"junk");
            raw
        })
        .collect()
}

/// The whole file, in the standard layout (no GL commands).
pub fn bytes() -> Vec<u8> {
    let records = skin_records();
    let skins: Vec<&[u8]> = records.iter().map(|r| &r[..]).collect();
    let mut b = Md2Builder::new();
    b.set(crate::md2_builder::Field::SkinWidth, SKIN_SIZE.0)
        .set(crate::md2_builder::Field::SkinHeight, SKIN_SIZE.1)
        .vertices(NUM_VERTICES as i32)
        .skins(&skins)
        .texcoords(&TEXCOORDS)
        .triangles(&TRIANGLES)
        .frames(&frames())
        .standard();
    b.build()
}
