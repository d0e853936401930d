//! Helpers shared by the MS3D integration tests: where the corpus is, its
//! `facts.json` oracle, and a small MS3D byte-builder written from the
//! format description (docs: shared/formats/MS3D.md), independent of the
//! crate's writer.

#![allow(dead_code)] // each test binary uses a subset

use std::path::{Path, PathBuf};

use retromodel::ms3d::Ms3d;
use serde_json::Value;

// ---------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------

#[path = "../support/corpus.rs"]
mod corpus;
#[allow(unused_imports)] // not every test binary looks for the corpus
pub use corpus::corpus_dir;

/// Every `ms3d/*.ms3d` of the corpus as `(facts key, path)`, sorted.
pub fn ms3d_files(corpus: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(corpus.join("ms3d"))
        .expect("corpus ms3d folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("ms3d"))
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (format!("ms3d/{name}"), p)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no MS3D files in the corpus");
    out
}

/// The corpus's `facts.json`.
pub fn facts(corpus: &Path) -> Value {
    let path = corpus.join("facts.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Loads a corpus model by file name (`glscene_Woman4.ms3d`), with its bytes.
pub fn load(corpus: &Path, name: &str) -> (Vec<u8>, Ms3d) {
    let path = corpus.join("ms3d").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = Ms3d::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, model)
}

// ---------------------------------------------------------------------------
// Byte-builder
// ---------------------------------------------------------------------------

/// Little-endian byte output.
#[derive(Debug, Clone, Default)]
pub struct Out(pub Vec<u8>);

impl Out {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.0.push(v as u8);
        self
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32s(&mut self, v: &[f32]) -> &mut Self {
        for x in v {
            self.f32(*x);
        }
        self
    }
    pub fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.0.extend_from_slice(v);
        self
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// A NUL-padded fixed field holding `text` (cut at `N`).
pub fn field<const N: usize>(text: &[u8]) -> [u8; N] {
    let mut f = [0u8; N];
    let n = text.len().min(N);
    f[..n].copy_from_slice(&text[..n]);
    f
}

#[derive(Debug, Clone, Default)]
pub struct SVertex {
    pub flags: u8,
    pub pos: [f32; 3],
    pub bone: i8,
    pub refs: u8,
}

#[derive(Debug, Clone, Default)]
pub struct STri {
    pub flags: u16,
    pub v: [u16; 3],
    pub n: [[f32; 3]; 3],
    pub s: [f32; 3],
    pub t: [f32; 3],
    pub smoothing: u8,
    pub group: u8,
}

#[derive(Debug, Clone)]
pub struct SGroup {
    pub flags: u8,
    pub name: [u8; 32],
    pub tris: Vec<u16>,
    pub material: i8,
}

#[derive(Debug, Clone)]
pub struct SMaterial {
    pub name: [u8; 32],
    /// ambient, diffuse, specular, emissive.
    pub colors: [[f32; 4]; 4],
    pub shininess: f32,
    pub transparency: f32,
    pub mode: i8,
    pub texture: [u8; 128],
    pub alphamap: [u8; 128],
}

#[derive(Debug, Clone)]
pub struct SJoint {
    pub flags: u8,
    pub name: [u8; 32],
    pub parent: [u8; 32],
    pub rot: [f32; 3],
    pub pos: [f32; 3],
    pub rot_keys: Vec<(f32, [f32; 3])>,
    pub pos_keys: Vec<(f32, [f32; 3])>,
}

impl SJoint {
    /// A joint named `name` under `parent` ("" for a root) with no keys.
    pub fn new(name: &str, parent: &str, rot: [f32; 3], pos: [f32; 3]) -> SJoint {
        SJoint {
            flags: 8,
            name: field(name.as_bytes()),
            parent: field(parent.as_bytes()),
            rot,
            pos,
            rot_keys: Vec::new(),
            pos_keys: Vec::new(),
        }
    }
}

/// How the model comment is written.
#[derive(Debug, Clone, PartialEq)]
pub enum SModelComment {
    /// Flag 0 (or another value), nothing after it.
    Flag(i32),
    /// Flag 1, `{i32 length, text}`.
    LenText(Vec<u8>),
    /// Flag 1, `{i32 index, i32 length, text}`.
    IdxLenText(i32, Vec<u8>),
}

#[derive(Debug, Clone)]
pub struct SComments {
    pub subversion: i32,
    pub groups: Vec<(i32, Vec<u8>)>,
    pub materials: Vec<(i32, Vec<u8>)>,
    pub joints: Vec<(i32, Vec<u8>)>,
    pub model: SModelComment,
}

#[derive(Debug, Clone)]
pub struct SVertexExtras {
    pub subversion: i32,
    /// 6, 10 or 14.
    pub record_size: usize,
    /// `(bone ids, weights, extra words)`.
    pub records: Vec<([i8; 3], [u8; 3], [u32; 2])>,
}

#[derive(Debug, Clone)]
pub struct SJointExtras {
    pub subversion: i32,
    pub colors: Vec<[f32; 3]>,
}

#[derive(Debug, Clone, Copy)]
pub struct SModelExtras {
    pub subversion: i32,
    pub joint_size: f32,
    pub mode: i32,
    pub alpha_ref: f32,
}

/// A whole file, described field by field.
#[derive(Debug, Clone)]
pub struct Spec {
    pub version: i32,
    pub verts: Vec<SVertex>,
    pub tris: Vec<STri>,
    pub groups: Vec<SGroup>,
    pub materials: Vec<SMaterial>,
    pub fps: f32,
    pub cur_time: f32,
    pub total_frames: i32,
    pub joints: Vec<SJoint>,
    pub comments: Option<SComments>,
    pub vertex_extras: Option<SVertexExtras>,
    pub joint_extras: Option<SJointExtras>,
    pub model_extras: Option<SModelExtras>,
    pub trailing: Vec<u8>,
}

/// Where each part of a built file starts (and where the file ends).
#[derive(Debug, Clone, Default)]
pub struct Marks {
    pub vertices: usize,
    pub triangles: usize,
    pub groups: usize,
    pub materials: usize,
    pub keyframer: usize,
    pub joints: usize,
    /// End of the core (start of the extras).
    pub core_end: usize,
    /// Start of the comments part (= core_end when present).
    pub comments: Option<usize>,
    /// Start of the model comment flag.
    pub model_comment: Option<usize>,
    pub vertex_extras: Option<usize>,
    pub joint_extras: Option<usize>,
    pub model_extras: Option<usize>,
    /// End of the known data (start of the trailing bytes).
    pub extras_end: usize,
    pub end: usize,
    /// Every record boundary inside the core (section starts, each record's
    /// start), for truncation tests.
    pub core_boundaries: Vec<usize>,
}

fn put_comment_list(o: &mut Out, list: &[(i32, Vec<u8>)]) {
    o.u32(list.len() as u32);
    for (index, text) in list {
        o.i32(*index).i32(text.len() as i32).raw(text);
    }
}

impl Spec {
    /// Serialises the description, following the format table of MS3D.md.
    pub fn build(&self) -> (Vec<u8>, Marks) {
        let mut o = Out::default();
        let mut m = Marks::default();
        o.raw(b"MS3D000000").i32(self.version);
        m.vertices = o.len();
        m.core_boundaries.push(o.len());
        o.u16(self.verts.len() as u16);
        for v in &self.verts {
            m.core_boundaries.push(o.len());
            o.u8(v.flags).f32s(&v.pos).i8(v.bone).u8(v.refs);
        }
        m.triangles = o.len();
        m.core_boundaries.push(o.len());
        o.u16(self.tris.len() as u16);
        for t in &self.tris {
            m.core_boundaries.push(o.len());
            o.u16(t.flags);
            for v in t.v {
                o.u16(v);
            }
            for n in &t.n {
                o.f32s(n);
            }
            o.f32s(&t.s).f32s(&t.t).u8(t.smoothing).u8(t.group);
        }
        m.groups = o.len();
        m.core_boundaries.push(o.len());
        o.u16(self.groups.len() as u16);
        for g in &self.groups {
            m.core_boundaries.push(o.len());
            o.u8(g.flags).raw(&g.name).u16(g.tris.len() as u16);
            for t in &g.tris {
                o.u16(*t);
            }
            o.i8(g.material);
        }
        m.materials = o.len();
        m.core_boundaries.push(o.len());
        o.u16(self.materials.len() as u16);
        for mat in &self.materials {
            m.core_boundaries.push(o.len());
            o.raw(&mat.name);
            for c in &mat.colors {
                o.f32s(c);
            }
            o.f32(mat.shininess)
                .f32(mat.transparency)
                .i8(mat.mode)
                .raw(&mat.texture)
                .raw(&mat.alphamap);
        }
        m.keyframer = o.len();
        m.core_boundaries.push(o.len());
        o.f32(self.fps).f32(self.cur_time).i32(self.total_frames);
        m.joints = o.len();
        m.core_boundaries.push(o.len());
        o.u16(self.joints.len() as u16);
        for j in &self.joints {
            m.core_boundaries.push(o.len());
            o.u8(j.flags)
                .raw(&j.name)
                .raw(&j.parent)
                .f32s(&j.rot)
                .f32s(&j.pos)
                .u16(j.rot_keys.len() as u16)
                .u16(j.pos_keys.len() as u16);
            for (t, v) in j.rot_keys.iter().chain(&j.pos_keys) {
                m.core_boundaries.push(o.len());
                o.f32(*t).f32s(v);
            }
        }
        m.core_end = o.len();
        if let Some(c) = &self.comments {
            m.comments = Some(o.len());
            o.i32(c.subversion);
            put_comment_list(&mut o, &c.groups);
            put_comment_list(&mut o, &c.materials);
            put_comment_list(&mut o, &c.joints);
            m.model_comment = Some(o.len());
            match &c.model {
                SModelComment::Flag(f) => {
                    o.i32(*f);
                }
                SModelComment::LenText(text) => {
                    o.i32(1).i32(text.len() as i32).raw(text);
                }
                SModelComment::IdxLenText(index, text) => {
                    o.i32(1).i32(*index).i32(text.len() as i32).raw(text);
                }
            }
        }
        if let Some(x) = &self.vertex_extras {
            m.vertex_extras = Some(o.len());
            o.i32(x.subversion);
            for (ids, weights, extra) in &x.records {
                for b in ids {
                    o.i8(*b);
                }
                o.raw(weights);
                if x.record_size >= 10 {
                    o.u32(extra[0]);
                }
                if x.record_size >= 14 {
                    o.u32(extra[1]);
                }
            }
        }
        if let Some(x) = &self.joint_extras {
            m.joint_extras = Some(o.len());
            o.i32(x.subversion);
            for c in &x.colors {
                o.f32s(c);
            }
        }
        if let Some(x) = &self.model_extras {
            m.model_extras = Some(o.len());
            o.i32(x.subversion)
                .f32(x.joint_size)
                .i32(x.mode)
                .f32(x.alpha_ref);
        }
        m.extras_end = o.len();
        o.raw(&self.trailing);
        m.end = o.len();
        (o.0, m)
    }

    /// Asserts that `model` holds exactly the core sections described.
    pub fn assert_core(&self, model: &Ms3d) {
        assert_eq!(model.version, self.version, "version");
        assert_eq!(model.vertices.len(), self.verts.len(), "vertex count");
        for (i, (a, b)) in model.vertices.iter().zip(&self.verts).enumerate() {
            assert_eq!(
                (a.flags, a.position, a.bone_id, a.reference_count),
                (b.flags, b.pos, b.bone, b.refs),
                "vertex {i}"
            );
        }
        assert_eq!(model.triangles.len(), self.tris.len(), "triangle count");
        for (i, (a, b)) in model.triangles.iter().zip(&self.tris).enumerate() {
            assert_eq!(
                (
                    a.flags,
                    a.vertices,
                    a.normals,
                    a.s,
                    a.t,
                    a.smoothing_group,
                    a.group
                ),
                (b.flags, b.v, b.n, b.s, b.t, b.smoothing, b.group),
                "triangle {i}"
            );
        }
        assert_eq!(model.groups.len(), self.groups.len(), "group count");
        for (i, (a, b)) in model.groups.iter().zip(&self.groups).enumerate() {
            assert_eq!(
                (a.flags, a.name.0, &a.triangles, a.material),
                (b.flags, b.name, &b.tris, b.material),
                "group {i}"
            );
        }
        assert_eq!(
            model.materials.len(),
            self.materials.len(),
            "material count"
        );
        for (i, (a, b)) in model.materials.iter().zip(&self.materials).enumerate() {
            assert_eq!(a.name.0, b.name, "material {i} name");
            assert_eq!(
                [a.ambient, a.diffuse, a.specular, a.emissive],
                b.colors,
                "material {i} colours"
            );
            assert_eq!(
                (a.shininess, a.transparency, a.mode),
                (b.shininess, b.transparency, b.mode as u8),
                "material {i}"
            );
            assert_eq!(a.texture.0, b.texture, "material {i} texture");
            assert_eq!(a.alphamap.0, b.alphamap, "material {i} alphamap");
        }
        assert_eq!(
            (model.fps, model.current_time, model.total_frames),
            (self.fps, self.cur_time, self.total_frames),
            "keyframer"
        );
        assert_eq!(model.joints.len(), self.joints.len(), "joint count");
        for (i, (a, b)) in model.joints.iter().zip(&self.joints).enumerate() {
            assert_eq!(
                (a.flags, a.name.0, a.parent.0, a.rotation, a.position),
                (b.flags, b.name, b.parent, b.rot, b.pos),
                "joint {i}"
            );
            let keys = |k: &[retromodel::ms3d::Key]| -> Vec<(f32, [f32; 3])> {
                k.iter().map(|k| (k.time, k.value)).collect()
            };
            assert_eq!(
                keys(&a.rotation_keys),
                b.rot_keys,
                "joint {i} rotation keys"
            );
            assert_eq!(
                keys(&a.position_keys),
                b.pos_keys,
                "joint {i} position keys"
            );
        }
    }

    /// Asserts that `model`'s extras are exactly the ones described
    /// (absent parts absent) and its trailing bytes are `self.trailing`.
    pub fn assert_extras(&self, model: &Ms3d) {
        use retromodel::ms3d::ModelComment;
        let x = &model.extras;
        match (&x.comments, &self.comments) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert_eq!(a.subversion, b.subversion, "comment subversion");
                let list = |l: &[retromodel::ms3d::Comment]| -> Vec<(i32, Vec<u8>)> {
                    l.iter().map(|c| (c.index, c.text.clone())).collect()
                };
                assert_eq!(list(&a.groups), b.groups, "group comments");
                assert_eq!(list(&a.materials), b.materials, "material comments");
                assert_eq!(list(&a.joints), b.joints, "joint comments");
                let ok = match (&a.model, &b.model) {
                    (ModelComment::None(f), SModelComment::Flag(g)) => f == g,
                    (ModelComment::LengthText(t), SModelComment::LenText(u)) => t == u,
                    (
                        ModelComment::IndexLengthText { index, text },
                        SModelComment::IdxLenText(i, u),
                    ) => index == i && text == u,
                    _ => false,
                };
                assert!(ok, "model comment {:?}, expected {:?}", a.model, b.model);
            }
            (a, b) => panic!("comments: got {a:?}, expected {b:?}"),
        }
        match (&x.vertices, &self.vertex_extras) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert_eq!(
                    (a.subversion, a.record_size),
                    (b.subversion, b.record_size),
                    "vertex extras subversion and record size"
                );
                let got: Vec<_> = a
                    .records
                    .iter()
                    .map(|r| (r.bone_ids, r.weights, r.extra))
                    .collect();
                let want: Vec<_> = b
                    .records
                    .iter()
                    .map(|(ids, w, e)| {
                        let e = match b.record_size {
                            6 => [0, 0],
                            10 => [e[0], 0],
                            _ => *e,
                        };
                        (*ids, *w, e)
                    })
                    .collect();
                assert_eq!(got, want, "vertex extras records");
            }
            (a, b) => panic!("vertex extras: got {a:?}, expected {b:?}"),
        }
        match (&x.joints, &self.joint_extras) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert_eq!(
                    (a.subversion, &a.colors),
                    (b.subversion, &b.colors),
                    "joint extras"
                );
            }
            (a, b) => panic!("joint extras: got {a:?}, expected {b:?}"),
        }
        match (&x.model, &self.model_extras) {
            (None, None) => {}
            (Some(a), Some(b)) => assert_eq!(
                (a.subversion, a.joint_size, a.transparency_mode, a.alpha_ref),
                (b.subversion, b.joint_size, b.mode, b.alpha_ref),
                "model extras"
            ),
            (a, b) => panic!("model extras: got {a:?}, expected {b:?}"),
        }
        assert_eq!(model.trailing, self.trailing, "trailing bytes");
    }
}

/// A small but complete rigged file: 4 vertices (two quads' worth of
/// triangles), 2 groups (one empty), 2 materials, 3 joints with keys, and
/// every extra (vertex extras subversion 2, 10-byte records).
pub fn full_spec() -> Spec {
    let verts = vec![
        SVertex {
            flags: 0,
            pos: [0.0, 0.0, 0.0],
            bone: 0,
            refs: 2,
        },
        SVertex {
            flags: 1,
            pos: [1.0, 0.0, 0.0],
            bone: 1,
            refs: 2,
        },
        SVertex {
            flags: 0,
            pos: [1.0, 1.0, 0.0],
            bone: 2,
            refs: 2,
        },
        SVertex {
            flags: 2,
            pos: [0.0, 1.0, 0.5],
            bone: -1,
            refs: 1,
        },
    ];
    let tris = vec![
        STri {
            flags: 0,
            v: [0, 1, 2],
            n: [[0.0, 0.0, 1.0]; 3],
            s: [0.0, 1.0, 1.0],
            t: [1.0, 1.0, 0.0],
            smoothing: 1,
            group: 0,
        },
        STri {
            flags: 8,
            v: [0, 2, 3],
            n: [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.6, 0.8]],
            s: [0.0, 1.0, 0.0],
            t: [1.0, 0.0, 0.0],
            smoothing: 2,
            group: 0,
        },
    ];
    let groups = vec![
        SGroup {
            flags: 0,
            name: field(b"body"),
            tris: vec![0, 1],
            material: 1,
        },
        SGroup {
            flags: 2,
            name: field(b"empty"),
            tris: vec![],
            material: -1,
        },
    ];
    let material = |name: &[u8], tex: &[u8]| SMaterial {
        name: field(name),
        colors: [
            [0.2, 0.2, 0.2, 1.0],
            [0.8, 0.7, 0.6, 1.0],
            [0.1, 0.1, 0.1, 1.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
        shininess: 12.5,
        transparency: 0.75,
        mode: 0x40,
        texture: field(tex),
        alphamap: field(b""),
    };
    let materials = vec![material(b"wood", b".\\wood.bmp"), material(b"metal", b"")];
    let mut root = SJoint::new("root", "", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
    root.rot_keys = vec![(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 0.5])];
    let mut arm = SJoint::new("arm", "root", [0.0, 0.0, 0.25], [1.0, 0.0, 0.0]);
    arm.pos_keys = vec![(0.0, [0.0; 3]), (0.5, [0.0, 1.0, 0.0]), (1.0, [0.0; 3])];
    let mut hand = SJoint::new("hand", "arm", [0.1, 0.2, 0.3], [0.0, 1.0, 0.0]);
    hand.rot_keys = vec![(0.25, [0.3, 0.0, 0.0])];
    Spec {
        version: 4,
        verts,
        tris,
        groups,
        materials,
        fps: 24.0,
        cur_time: 2.0,
        total_frames: 30,
        joints: vec![root, arm, hand],
        comments: Some(SComments {
            subversion: 1,
            groups: vec![(0, b"the body".to_vec())],
            materials: vec![(1, b"shiny".to_vec()), (0, b"".to_vec())],
            joints: vec![],
            model: SModelComment::LenText(b"walk:1-30".to_vec()),
        }),
        vertex_extras: Some(SVertexExtras {
            subversion: 2,
            record_size: 10,
            records: vec![
                ([1, -1, -1], [60, 40, 0], [7, 0]),
                ([-1, -1, -1], [0, 0, 0], [0, 0]),
                ([0, 1, -1], [50, 30, 20], [0xdead_beef, 0]),
                ([-1, -1, -1], [0, 0, 0], [1, 0]),
            ],
        }),
        joint_extras: Some(SJointExtras {
            subversion: 1,
            colors: vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        }),
        model_extras: Some(SModelExtras {
            subversion: 1,
            joint_size: 0.25,
            mode: 1,
            alpha_ref: 0.5,
        }),
        trailing: Vec::new(),
    }
}
