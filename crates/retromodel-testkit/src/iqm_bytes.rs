//! Hand-made IQM files, byte by byte, for tests of the IQM engine
//! profiles: every field is written here from the layout in lsalzman/iqm's
//! `iqm.txt` (a 124-byte header: the magic `INTERQUAKEMODEL\0`, then 27
//! little-endian `uint`s; meshes of 24 bytes, vertex arrays of 20, joints
//! of 48, poses of 88, animations of 20, bounds of 32), never by the
//! library's writer, so that a test does not check the library against
//! itself.
//!
//! ```
//! use retromodel_testkit::iqm_bytes::IqmSpec;
//! let bytes = IqmSpec::static_meshes(&[(3, 1)]).to_bytes();
//! assert_eq!(&bytes[..16], b"INTERQUAKEMODEL\0");
//! assert_eq!(u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize, bytes.len());
//! ```

/// `IQM_POSITION` … `IQM_COLOR` (`iqm.h`).
pub mod kind {
    /// Positions.
    pub const POSITION: u32 = 0;
    /// Texture coordinates.
    pub const TEXCOORD: u32 = 1;
    /// Normals.
    pub const NORMAL: u32 = 2;
    /// Tangents.
    pub const TANGENT: u32 = 3;
    /// Blend indexes.
    pub const BLENDINDEXES: u32 = 4;
    /// Blend weights.
    pub const BLENDWEIGHTS: u32 = 5;
    /// Colours.
    pub const COLOR: u32 = 6;
}

/// `IQM_BYTE` … `IQM_DOUBLE` (`iqm.h`), and each one's size in bytes.
pub mod format {
    /// Signed byte.
    pub const BYTE: u32 = 0;
    /// Unsigned byte.
    pub const UBYTE: u32 = 1;
    /// Signed int.
    pub const INT: u32 = 4;
    /// 32-bit float.
    pub const FLOAT: u32 = 7;
    /// The size of one component of `format` (`fmtsize` in `upgrade.cpp`).
    pub fn bytes(format: u32) -> usize {
        [1, 1, 2, 2, 4, 4, 2, 4, 8]
            .get(format as usize)
            .copied()
            .unwrap_or(1)
    }
}

/// One mesh (`iqmmesh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeshSpec {
    /// `name`: a text offset.
    pub name: u32,
    /// `material`: a text offset.
    pub material: u32,
    /// `first_vertex`.
    pub first_vertex: u32,
    /// `num_vertexes`.
    pub num_vertexes: u32,
    /// `first_triangle`.
    pub first_triangle: u32,
    /// `num_triangles`.
    pub num_triangles: u32,
}

/// One vertex array (`iqmvertexarray`) and its data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ArraySpec {
    /// `type`.
    pub kind: u32,
    /// `format`.
    pub format: u32,
    /// `size` (components per vertex).
    pub size: u32,
    /// The data, `num_vertexes × size × format size` bytes.
    pub data: Vec<u8>,
}

/// One joint (`iqmjoint`, version 2).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct JointSpec {
    /// `name`: a text offset.
    pub name: u32,
    /// `parent` (−1 for a root).
    pub parent: i32,
    /// `translate`.
    pub translate: [f32; 3],
    /// `rotate` (x, y, z, w).
    pub rotate: [f32; 4],
    /// `scale`.
    pub scale: [f32; 3],
}

/// One pose (`iqmpose`, version 2).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PoseSpec {
    /// `parent`.
    pub parent: i32,
    /// `mask`.
    pub mask: u32,
    /// `channeloffset[10]`.
    pub offset: [f32; 10],
    /// `channelscale[10]`.
    pub scale: [f32; 10],
}

/// One animation (`iqmanim`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AnimSpec {
    /// `name`: a text offset.
    pub name: u32,
    /// `first_frame`.
    pub first_frame: u32,
    /// `num_frames`.
    pub num_frames: u32,
    /// `framerate`.
    pub framerate: f32,
    /// `flags` (`IQM_LOOP` = 1).
    pub flags: u32,
}

/// A hand-made IQM.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IqmSpec {
    /// `version` (2).
    pub version: u32,
    /// The header's `filesize`: `None` writes the file's length.
    pub filesize: Option<u32>,
    /// `flags`.
    pub flags: u32,
    /// The text (starts with the empty string).
    pub text: Vec<u8>,
    /// Meshes.
    pub meshes: Vec<MeshSpec>,
    /// `num_vertexes`.
    pub num_vertexes: u32,
    /// Vertex arrays.
    pub arrays: Vec<ArraySpec>,
    /// Triangles.
    pub triangles: Vec<[u32; 3]>,
    /// Joints.
    pub joints: Vec<JointSpec>,
    /// Poses.
    pub poses: Vec<PoseSpec>,
    /// Animations.
    pub anims: Vec<AnimSpec>,
    /// `num_frames`.
    pub num_frames: u32,
    /// `num_framechannels`.
    pub num_framechannels: u32,
    /// The frame data (`num_frames × num_framechannels` values).
    pub frames: Vec<u16>,
    /// Whether to write a bounds block (`num_frames` of them, zeros).
    pub bounds: bool,
    /// The comment's bytes (padding a file to a size).
    pub comment: Vec<u8>,
}

/// Little-endian bytes of floats.
pub fn f32s(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

fn put(out: &mut [u8], at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn pad4(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

impl IqmSpec {
    /// An empty version-2 model with the text holding the empty string.
    pub fn new() -> Self {
        IqmSpec {
            version: 2,
            text: vec![0],
            ..IqmSpec::default()
        }
    }

    /// Adds `name` to the text and returns its offset.
    pub fn name(&mut self, name: &str) -> u32 {
        let at = self.text.len() as u32;
        self.text.extend_from_slice(name.as_bytes());
        self.text.push(0);
        at
    }

    /// Meshes of `(vertices, triangles)` each, one after another, with
    /// float position (× 3), texcoord (× 2) and normal (× 3) arrays; the
    /// triangles of a mesh use its vertices `k, k+1, k+2` (modulo its
    /// count). Each mesh is named `m0`, `m1` … with material `skin.png`.
    pub fn static_meshes(meshes: &[(u32, u32)]) -> Self {
        let mut s = IqmSpec::new();
        let material = s.name("skin.png");
        let (mut fv, mut ft) = (0u32, 0u32);
        for (i, &(v, t)) in meshes.iter().enumerate() {
            let name = s.name(&format!("m{i}"));
            s.meshes.push(MeshSpec {
                name,
                material,
                first_vertex: fv,
                num_vertexes: v,
                first_triangle: ft,
                num_triangles: t,
            });
            for k in 0..t {
                let at = |d: u32| if v == 0 { fv } else { fv + (k + d) % v };
                s.triangles.push([at(0), at(1), at(2)]);
            }
            fv += v;
            ft += t;
        }
        s.num_vertexes = fv;
        let n = fv as usize;
        let positions = f32s((0..n).flat_map(|i| [i as f32, (i % 7) as f32, (i % 3) as f32]));
        s.array(kind::POSITION, format::FLOAT, 3, positions);
        s.array(
            kind::TEXCOORD,
            format::FLOAT,
            2,
            f32s((0..2 * n).map(|_| 0.5)),
        );
        s.array(
            kind::NORMAL,
            format::FLOAT,
            3,
            f32s((0..n).flat_map(|_| [0.0, 0.0, 1.0])),
        );
        s
    }

    /// Adds a vertex array.
    pub fn array(&mut self, kind: u32, format: u32, size: u32, data: Vec<u8>) {
        self.arrays.push(ArraySpec {
            kind,
            format,
            size,
            data,
        });
    }

    /// Adds ubyte × 4 blend indexes (every vertex on joint 0) and weights
    /// (255, 0, 0, 0).
    pub fn blend_arrays(&mut self) {
        let n = self.num_vertexes as usize;
        self.array(kind::BLENDINDEXES, format::UBYTE, 4, vec![0; 4 * n]);
        let weights = (0..n).flat_map(|_| [255, 0, 0, 0]).collect();
        self.array(kind::BLENDWEIGHTS, format::UBYTE, 4, weights);
    }

    /// `n` joints in a chain (joint `i`'s parent is `i − 1`), named
    /// `j0`, `j1` …, unit scale, identity rotation; with `poses`, one pose
    /// per joint (no channel stored) and `frames` frames of no values.
    pub fn chain(&mut self, n: usize, poses: bool, frames: u32) {
        for i in 0..n {
            let name = self.name(&format!("j{i}"));
            self.joints.push(JointSpec {
                name,
                parent: i as i32 - 1,
                rotate: [0.0, 0.0, 0.0, 1.0],
                scale: [1.0; 3],
                ..JointSpec::default()
            });
            if poses {
                let mut offset = [0.0; 10];
                offset[6] = 1.0;
                offset[7..].copy_from_slice(&[1.0; 3]);
                self.poses.push(PoseSpec {
                    parent: i as i32 - 1,
                    mask: 0,
                    offset,
                    scale: [0.0; 10],
                });
            }
        }
        self.num_frames = frames;
    }

    /// The file: the sections in `iqm.cpp`'s order (text, meshes, vertex
    /// arrays, vertex data, triangles, joints, poses, animations, frames,
    /// bounds, comment), each on a 4-byte boundary; an empty section's
    /// offset is 0.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; 124];
        out[..16].copy_from_slice(b"INTERQUAKEMODEL\0");
        // Header fields by byte offset (iqm.txt's order).
        let mut h: Vec<(usize, u32)> = vec![
            (16, self.version),
            (24, self.flags),
            (48, self.num_vertexes),
            (92, self.num_frames),
            (96, self.num_framechannels),
        ];
        let section = |out: &mut Vec<u8>,
                       h: &mut Vec<(usize, u32)>,
                       count: (usize, usize),
                       ofs: usize,
                       bytes: &[u8]| {
            pad4(out);
            if count.1 > 0 {
                h.push((count.0, count.1 as u32));
            }
            if !bytes.is_empty() {
                h.push((ofs, out.len() as u32));
                out.extend_from_slice(bytes);
            }
        };
        let mut text = self.text.clone();
        while !text.len().is_multiple_of(4) {
            text.push(0);
        }
        section(&mut out, &mut h, (28, text.len()), 32, &text);
        let meshes: Vec<u8> = self
            .meshes
            .iter()
            .flat_map(|m| {
                [
                    m.name,
                    m.material,
                    m.first_vertex,
                    m.num_vertexes,
                    m.first_triangle,
                    m.num_triangles,
                ]
            })
            .flat_map(u32::to_le_bytes)
            .collect();
        section(&mut out, &mut h, (36, self.meshes.len()), 40, &meshes);
        pad4(&mut out);
        let table = out.len();
        if !self.arrays.is_empty() {
            h.push((44, self.arrays.len() as u32));
            h.push((52, table as u32));
            out.resize(table + 20 * self.arrays.len(), 0);
        }
        for (i, a) in self.arrays.iter().enumerate() {
            pad4(&mut out);
            let at = table + 20 * i;
            let data_at = out.len() as u32;
            out.extend_from_slice(&a.data);
            for (k, v) in [a.kind, 0, a.format, a.size, data_at]
                .into_iter()
                .enumerate()
            {
                put(&mut out, at + 4 * k, v);
            }
        }
        let tris: Vec<u8> = self
            .triangles
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        section(&mut out, &mut h, (56, self.triangles.len()), 60, &tris);
        let joints: Vec<u8> = self
            .joints
            .iter()
            .flat_map(|j| {
                let mut b = j.name.to_le_bytes().to_vec();
                b.extend(j.parent.to_le_bytes());
                b.extend(f32s(j.translate.into_iter().chain(j.rotate).chain(j.scale)));
                b
            })
            .collect();
        section(&mut out, &mut h, (68, self.joints.len()), 72, &joints);
        let poses: Vec<u8> = self
            .poses
            .iter()
            .flat_map(|p| {
                let mut b = p.parent.to_le_bytes().to_vec();
                b.extend(p.mask.to_le_bytes());
                b.extend(f32s(p.offset.into_iter().chain(p.scale)));
                b
            })
            .collect();
        section(&mut out, &mut h, (76, self.poses.len()), 80, &poses);
        let anims: Vec<u8> = self
            .anims
            .iter()
            .flat_map(|a| {
                let mut b = Vec::new();
                for v in [a.name, a.first_frame, a.num_frames] {
                    b.extend(v.to_le_bytes());
                }
                b.extend(a.framerate.to_le_bytes());
                b.extend(a.flags.to_le_bytes());
                b
            })
            .collect();
        section(&mut out, &mut h, (84, self.anims.len()), 88, &anims);
        let mut frames: Vec<u8> = self.frames.iter().flat_map(|v| v.to_le_bytes()).collect();
        if !frames.len().is_multiple_of(4) {
            frames.extend([0, 0]);
        }
        section(&mut out, &mut h, (0, 0), 100, &frames);
        if self.bounds && self.num_frames > 0 {
            section(
                &mut out,
                &mut h,
                (0, 0),
                104,
                &vec![0u8; 32 * self.num_frames as usize],
            );
        }
        section(
            &mut out,
            &mut h,
            (108, self.comment.len()),
            112,
            &self.comment,
        );
        let len = out.len() as u32;
        h.push((20, self.filesize.unwrap_or(len)));
        for (at, v) in h {
            put(&mut out, at, v);
        }
        out
    }

    /// The length [`IqmSpec::to_bytes`] gives with no comment.
    pub fn len_without_comment(&self) -> usize {
        let mut s = self.clone();
        s.comment.clear();
        s.to_bytes().len()
    }
}
