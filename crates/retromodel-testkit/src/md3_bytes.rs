//! Hand-made MD3 files, byte by byte, for tests of the MD3 reader: every
//! field is written here from the layout in ioquake3's
//! `code/qcommon/qfiles.h`, never by the library's writer, so that a test
//! of the reader does not check the library against itself.

/// One surface of a hand-made MD3.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceSpec {
    /// Its name.
    pub name: String,
    /// Its `numFrames` (vertices are written for this many frames).
    pub frames: usize,
    /// Vertices per frame.
    pub verts: usize,
    /// Triangles (indices `k, k+1, k+2` modulo `verts`).
    pub triangles: usize,
    /// Shaders (named `shader0`, `shader1` ...).
    pub shaders: usize,
}

impl SurfaceSpec {
    /// A surface of `verts` vertices and `triangles` triangles over
    /// `frames` frames, with one shader.
    pub fn new(frames: usize, verts: usize, triangles: usize) -> Self {
        SurfaceSpec {
            name: "s".into(),
            frames,
            verts,
            triangles,
            shaders: 1,
        }
    }
}

/// A hand-made MD3.
#[derive(Debug, Clone, PartialEq)]
pub struct Md3Spec {
    /// Frames (named `f0`, `f1` ...).
    pub frames: usize,
    /// Tags per frame (named `tag_0`, `tag_1` ...).
    pub tags: usize,
    /// The surfaces.
    pub surfaces: Vec<SurfaceSpec>,
}

fn name(out: &mut Vec<u8>, text: &str, len: usize) {
    let mut field = vec![0u8; len];
    let n = text.len().min(len);
    field[..n].copy_from_slice(&text.as_bytes()[..n]);
    out.extend_from_slice(&field);
}

fn i32s(out: &mut Vec<u8>, values: &[i32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// The offset of a surface's `numVerts` field from the surface's start.
pub const SURFACE_NUM_VERTS: usize = 80;
/// The header's size, where the first frame starts in [`md3_bytes`]'s
/// files.
pub const HEADER_SIZE: usize = 108;

/// The bytes of `spec`: header, frames, tags, then each surface (header,
/// triangles, shaders, texture coordinates, vertices), packed. Vertex `k`
/// of frame `f` is at `(k, f, -k)` in 1/64 units with normal bytes
/// `[k, f]`; texture coordinate `k` is `(k / 8, 0.5)`.
pub fn md3_bytes(spec: &Md3Spec) -> Vec<u8> {
    let frames_at = HEADER_SIZE;
    let tags_at = frames_at + 56 * spec.frames;
    let surfaces_at = tags_at + 112 * spec.frames * spec.tags;
    let mut surfaces = Vec::new();
    for s in &spec.surfaces {
        let mut body = Vec::new();
        for t in 0..s.triangles {
            let v = |k: usize| (if s.verts == 0 { 0 } else { (t + k) % s.verts }) as i32;
            i32s(&mut body, &[v(0), v(1), v(2)]);
        }
        let shaders_at = 108 + body.len();
        for k in 0..s.shaders {
            name(&mut body, &format!("shader{k}"), 64);
            i32s(&mut body, &[0]);
        }
        let st_at = 108 + body.len();
        for k in 0..s.verts {
            f32s(&mut body, &[k as f32 / 8.0, 0.5]);
        }
        let xyz_at = 108 + body.len();
        for f in 0..s.frames {
            for k in 0..s.verts {
                for c in [k as i16, f as i16, -(k as i16)] {
                    body.extend_from_slice(&c.to_le_bytes());
                }
                body.extend_from_slice(&[k as u8, f as u8]);
            }
        }
        let mut out = b"IDP3".to_vec();
        name(&mut out, &s.name, 64);
        i32s(
            &mut out,
            &[
                0,
                s.frames as i32,
                s.shaders as i32,
                s.verts as i32,
                s.triangles as i32,
                108,
                shaders_at as i32,
                st_at as i32,
                xyz_at as i32,
                (108 + body.len()) as i32,
            ],
        );
        out.extend_from_slice(&body);
        surfaces.extend_from_slice(&out);
    }
    let mut out = b"IDP3".to_vec();
    i32s(&mut out, &[15]);
    name(&mut out, "models/test.md3", 64);
    i32s(
        &mut out,
        &[
            0,
            spec.frames as i32,
            spec.tags as i32,
            spec.surfaces.len() as i32,
            0,
            frames_at as i32,
            tags_at as i32,
            surfaces_at as i32,
            (surfaces_at + surfaces.len()) as i32,
        ],
    );
    for f in 0..spec.frames {
        f32s(
            &mut out,
            &[-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.75],
        );
        name(&mut out, &format!("f{f}"), 16);
    }
    for _ in 0..spec.frames {
        for t in 0..spec.tags {
            name(&mut out, &format!("tag_{t}"), 64);
            f32s(
                &mut out,
                &[
                    t as f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0,
                ],
            );
        }
    }
    out.extend_from_slice(&surfaces);
    out
}
