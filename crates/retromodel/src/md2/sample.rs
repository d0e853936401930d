//! A small animated model made by this crate itself: a low-poly figure of
//! six boxes with a `stand` and a `run` animation and one skin.
//!
//! It is the model the README's first command runs on
//! (`examples/models/sample.md2`, written by `cargo run --example
//! make_sample`), and a handy fixture for tests and documentation.

use super::{encode_frame, gl_commands, vertex_normals, Frame, Md2, SkinName, TexCoord, Triangle};

/// Skin size of the sample model in pixels.
pub const SKIN_SIZE: (u32, u32) = (96, 64);

/// The skin path the sample model names.
pub const SKIN_NAME: &str = "sample.pcx";

/// A box of the figure: centre of its top face, size, and the colour cell
/// of the skin it uses.
struct Part {
    pivot: [f32; 3],
    size: [f32; 3],
    cell: (u16, u16),
    /// How much the part swings with the run cycle (+1, −1, 0) and whether
    /// it bobs with breathing.
    swing: f32,
}

const PARTS: [Part; 6] = [
    // torso
    Part {
        pivot: [0.0, 0.0, 40.0],
        size: [8.0, 16.0, 18.0],
        cell: (0, 0),
        swing: 0.0,
    },
    // head
    Part {
        pivot: [0.0, 0.0, 50.0],
        size: [8.0, 8.0, 9.0],
        cell: (1, 0),
        swing: 0.0,
    },
    // left arm, right arm
    Part {
        pivot: [0.0, 11.0, 39.0],
        size: [5.0, 5.0, 17.0],
        cell: (2, 0),
        swing: -1.0,
    },
    Part {
        pivot: [0.0, -11.0, 39.0],
        size: [5.0, 5.0, 17.0],
        cell: (2, 0),
        swing: 1.0,
    },
    // left leg, right leg
    Part {
        pivot: [0.0, 4.5, 22.0],
        size: [6.0, 6.0, 22.0],
        cell: (0, 1),
        swing: 1.0,
    },
    Part {
        pivot: [0.0, -4.5, 22.0],
        size: [6.0, 6.0, 22.0],
        cell: (1, 1),
        swing: -1.0,
    },
];

/// Corners of a unit box in the order x, y, z bits.
fn corner(k: usize) -> [f32; 3] {
    [
        if k & 1 == 0 { -0.5 } else { 0.5 },
        if k & 2 == 0 { -0.5 } else { 0.5 },
        if k & 4 == 0 { -1.0 } else { 0.0 },
    ]
}

/// The six faces of a box as corner indices, counter-clockwise seen from
/// outside.
const FACES: [[u16; 4]; 6] = [
    [0, 2, 3, 1], // bottom (−z)
    [4, 5, 7, 6], // top (+z)
    [0, 1, 5, 4], // −y
    [2, 6, 7, 3], // +y
    [0, 4, 6, 2], // −x
    [1, 3, 7, 5], // +x
];

/// Positions of every vertex with each part swung by `angle` (radians,
/// about the y axis through its pivot) times its swing, the whole figure
/// raised by `lift`.
fn pose(angle: f32, lift: f32) -> Vec<[f32; 3]> {
    let mut out = Vec::with_capacity(PARTS.len() * 8);
    for part in &PARTS {
        let (s, c) = (angle * part.swing).sin_cos();
        for k in 0..8 {
            let u = corner(k);
            let local = [
                u[0] * part.size[0],
                u[1] * part.size[1],
                u[2] * part.size[2],
            ];
            // Rotate about y: x' = x cos + z sin, z' = −x sin + z cos.
            let x = local[0] * c + local[2] * s;
            let z = -local[0] * s + local[2] * c;
            out.push([
                part.pivot[0] + x,
                part.pivot[1] + local[1],
                part.pivot[2] + z + lift,
            ]);
        }
    }
    out
}

/// The sample model's frames: `stand01`..`stand10` (breathing) and
/// `run1`..`run6` (a swing cycle).
fn frames(triangles: &[[u16; 3]]) -> Vec<Frame> {
    let mut frames = Vec::new();
    let mut add = |name: String, positions: Vec<[f32; 3]>| {
        let normals = vertex_normals(&positions, triangles, true);
        frames.push(encode_frame(&name, &positions, &normals));
    };
    for i in 0..10 {
        let phase = i as f32 / 10.0 * std::f32::consts::TAU;
        add(
            format!("stand{:02}", i + 1),
            pose(0.05 * phase.sin(), 0.4 * phase.sin()),
        );
    }
    for i in 0..6 {
        let phase = i as f32 / 6.0 * std::f32::consts::TAU;
        add(
            format!("run{}", i + 1),
            pose(0.7 * phase.sin(), 1.5 * (2.0 * phase).cos().abs()),
        );
    }
    frames
}

/// Builds the sample model. The result is the same on every platform: all
/// arithmetic is plain `f32` with no platform-dependent functions except
/// `sin`/`cos`, whose results are quantised to bytes.
///
/// ```
/// use retromodel::md2::sample::sample_model;
/// let model = sample_model();
/// assert_eq!(model.frames.len(), 16);
/// let names: Vec<_> = model.animations().into_iter().map(|a| a.name).collect();
/// assert_eq!(names, ["stand", "run"]);
/// ```
pub fn sample_model() -> Md2 {
    let (w, h) = (SKIN_SIZE.0 as i16, SKIN_SIZE.1 as i16);
    let cell = (w / 3, h / 2);
    let mut texcoords = Vec::new();
    let mut triangles = Vec::new();
    let mut index_triangles = Vec::new();
    for (p, part) in PARTS.iter().enumerate() {
        let (x0, y0) = (part.cell.0 as i16 * cell.0, part.cell.1 as i16 * cell.1);
        let base_st = texcoords.len() as u16;
        for (ds, dt) in [
            (1, 1),
            (cell.0 - 2, 1),
            (cell.0 - 2, cell.1 - 2),
            (1, cell.1 - 2),
        ] {
            texcoords.push(TexCoord {
                s: x0 + ds,
                t: y0 + dt,
            });
        }
        let base = 8 * p as u16;
        for face in FACES {
            // Clockwise seen from outside, as Quake II draws front faces.
            for [a, b, c] in [[0, 2, 1], [0, 3, 2]] {
                let vertices = [base + face[a], base + face[b], base + face[c]];
                triangles.push(Triangle {
                    vertices,
                    texcoords: [base_st + a as u16, base_st + b as u16, base_st + c as u16],
                });
                index_triangles.push(vertices);
            }
        }
    }
    let mut model = Md2 {
        skin_width: SKIN_SIZE.0 as i32,
        skin_height: SKIN_SIZE.1 as i32,
        skins: vec![SkinName::new(SKIN_NAME)],
        texcoords,
        triangles,
        frames: frames(&index_triangles),
        num_vertices: PARTS.len() * 8,
        ..Md2::default()
    };
    model.gl_commands = gl_commands::build(&model);
    model
}

/// The sample skin as palette indices (row by row, `SKIN_SIZE` pixels) and
/// a 256-entry RGB palette: one colour per body part with a darker border.
pub fn sample_skin() -> (Vec<u8>, Vec<[u8; 3]>) {
    let colours: [[u8; 3]; 6] = [
        [40, 90, 170],   // shirt
        [230, 190, 150], // face
        [210, 170, 130], // arms
        [60, 60, 70],    // left trouser
        [70, 70, 80],    // right trouser
        [200, 40, 40],   // unused cell
    ];
    let mut palette = vec![[0u8; 3]; 256];
    for (i, c) in colours.iter().enumerate() {
        palette[1 + 2 * i] = *c;
        palette[2 + 2 * i] = [c[0] / 2, c[1] / 2, c[2] / 2];
    }
    let (w, h) = (SKIN_SIZE.0 as usize, SKIN_SIZE.1 as usize);
    let (cw, ch) = (w / 3, h / 2);
    let mut pixels = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            let cell = (y / ch) * 3 + x / cw;
            let (cx, cy) = (x % cw, y % ch);
            let border = cx == 0 || cy == 0 || cx == cw - 1 || cy == ch - 1 || (cx + cy) % 8 == 0;
            pixels[y * w + x] = (1 + 2 * cell + border as usize) as u8;
        }
    }
    (pixels, palette)
}

/// The sample skin as an 8-bit paletted, run-length encoded PCX file (the
/// format Quake II skins use), palette at the end after the `0x0C` marker.
///
/// ```
/// let pcx = retromodel::md2::sample::sample_skin_pcx();
/// assert_eq!(&pcx[..4], &[0x0a, 5, 1, 8]);
/// assert_eq!(pcx[pcx.len() - 769], 0x0c);
/// ```
pub fn sample_skin_pcx() -> Vec<u8> {
    let (pixels, palette) = sample_skin();
    let (w, h) = (SKIN_SIZE.0 as u16, SKIN_SIZE.1 as u16);
    let mut out = Vec::with_capacity(128 + pixels.len() + 769);
    out.extend_from_slice(&[0x0a, 5, 1, 8]); // manufacturer, version, RLE, 8 bits
    for v in [0, 0, w - 1, h - 1, 72, 72] {
        out.extend_from_slice(&v.to_le_bytes()); // window, dpi
    }
    out.extend_from_slice(&[0u8; 48]); // 16-colour palette, unused
    out.extend_from_slice(&[0, 1]); // reserved, one plane
    for v in [w, 1, 0, 0] {
        out.extend_from_slice(&v.to_le_bytes()); // bytes per line, colour palette, screen size
    }
    out.resize(128, 0);
    for row in pixels.chunks(w as usize) {
        let mut i = 0;
        while i < row.len() {
            let run = row[i..]
                .iter()
                .take(63)
                .take_while(|&&p| p == row[i])
                .count();
            if run > 1 || row[i] >= 0xc0 {
                out.push(0xc0 | run as u8);
            }
            out.push(row[i]);
            i += run;
        }
    }
    out.push(0x0c);
    for c in &palette {
        out.extend_from_slice(c);
    }
    out
}
