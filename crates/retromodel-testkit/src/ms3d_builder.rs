//! A small MS3D byte-builder written from the format description (docs:
//! shared/formats/MS3D.md), independent of the crate's writer: a file
//! described field by field ([`Spec`]), serialised with the offsets of its
//! parts ([`Marks`]), and assertions that a parsed model holds what was
//! described.

use retromodel::ms3d::Ms3d;

/// Little-endian byte output.
#[derive(Debug, Clone, Default)]
pub struct Out(pub Vec<u8>);

impl Out {
    /// Appends a `u8`.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    /// Appends an `i8`.
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.0.push(v as u8);
        self
    }
    /// Appends a little-endian `u16`.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends a little-endian `i32`.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends a little-endian `u32`.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends a little-endian `f32`.
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends little-endian `f32`s.
    pub fn f32s(&mut self, v: &[f32]) -> &mut Self {
        for x in v {
            self.f32(*x);
        }
        self
    }
    /// Appends raw bytes.
    pub fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.0.extend_from_slice(v);
        self
    }
    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A NUL-padded fixed field holding `text` (cut at `N`).
pub fn field<const N: usize>(text: &[u8]) -> [u8; N] {
    let mut f = [0u8; N];
    let n = text.len().min(N);
    f[..n].copy_from_slice(&text[..n]);
    f
}

/// A vertex record.
#[derive(Debug, Clone, Default)]
pub struct SVertex {
    /// Flags byte.
    pub flags: u8,
    /// Position.
    pub pos: [f32; 3],
    /// Bone id (`-1`: none).
    pub bone: i8,
    /// Reference count.
    pub refs: u8,
}

/// A triangle record.
#[derive(Debug, Clone, Default)]
pub struct STri {
    /// Flags word.
    pub flags: u16,
    /// Vertex indices.
    pub v: [u16; 3],
    /// One normal per corner.
    pub n: [[f32; 3]; 3],
    /// Texture `s` per corner.
    pub s: [f32; 3],
    /// Texture `t` per corner.
    pub t: [f32; 3],
    /// Smoothing group.
    pub smoothing: u8,
    /// Group index.
    pub group: u8,
}

/// A group record.
#[derive(Debug, Clone)]
pub struct SGroup {
    /// Flags byte.
    pub flags: u8,
    /// Raw 32-byte name.
    pub name: [u8; 32],
    /// Triangle indices.
    pub tris: Vec<u16>,
    /// Material index (`-1`: none).
    pub material: i8,
}

/// A material record.
#[derive(Debug, Clone)]
pub struct SMaterial {
    /// Raw 32-byte name.
    pub name: [u8; 32],
    /// ambient, diffuse, specular, emissive.
    pub colors: [[f32; 4]; 4],
    /// Shininess.
    pub shininess: f32,
    /// Transparency.
    pub transparency: f32,
    /// Mode byte.
    pub mode: i8,
    /// Raw 128-byte texture path.
    pub texture: [u8; 128],
    /// Raw 128-byte alpha map path.
    pub alphamap: [u8; 128],
}

/// A joint record with its keys.
#[derive(Debug, Clone)]
pub struct SJoint {
    /// Flags byte.
    pub flags: u8,
    /// Raw 32-byte name.
    pub name: [u8; 32],
    /// Raw 32-byte parent name.
    pub parent: [u8; 32],
    /// Bind rotation (Euler angles).
    pub rot: [f32; 3],
    /// Bind position.
    pub pos: [f32; 3],
    /// Rotation keys `(time, angles)`.
    pub rot_keys: Vec<(f32, [f32; 3])>,
    /// Position keys `(time, position)`.
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

/// The comments part of the extras.
#[derive(Debug, Clone)]
pub struct SComments {
    /// Subversion.
    pub subversion: i32,
    /// Group comments `(index, text)`.
    pub groups: Vec<(i32, Vec<u8>)>,
    /// Material comments `(index, text)`.
    pub materials: Vec<(i32, Vec<u8>)>,
    /// Joint comments `(index, text)`.
    pub joints: Vec<(i32, Vec<u8>)>,
    /// The model comment.
    pub model: SModelComment,
}

/// The vertex extras part.
#[derive(Debug, Clone)]
pub struct SVertexExtras {
    /// Subversion.
    pub subversion: i32,
    /// 6, 10 or 14.
    pub record_size: usize,
    /// `(bone ids, weights, extra words)`.
    pub records: Vec<([i8; 3], [u8; 3], [u32; 2])>,
}

/// The joint extras part.
#[derive(Debug, Clone)]
pub struct SJointExtras {
    /// Subversion.
    pub subversion: i32,
    /// One colour per joint.
    pub colors: Vec<[f32; 3]>,
}

/// The model extras part.
#[derive(Debug, Clone, Copy)]
pub struct SModelExtras {
    /// Subversion.
    pub subversion: i32,
    /// Joint size.
    pub joint_size: f32,
    /// Transparency mode.
    pub mode: i32,
    /// Alpha reference.
    pub alpha_ref: f32,
}

/// A whole file, described field by field.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Version after the `MS3D000000` magic.
    pub version: i32,
    /// Vertices.
    pub verts: Vec<SVertex>,
    /// Triangles.
    pub tris: Vec<STri>,
    /// Groups.
    pub groups: Vec<SGroup>,
    /// Materials.
    pub materials: Vec<SMaterial>,
    /// Keyframer: frames per second.
    pub fps: f32,
    /// Keyframer: current time.
    pub cur_time: f32,
    /// Keyframer: total frames.
    pub total_frames: i32,
    /// Joints.
    pub joints: Vec<SJoint>,
    /// Comments part, if written.
    pub comments: Option<SComments>,
    /// Vertex extras, if written.
    pub vertex_extras: Option<SVertexExtras>,
    /// Joint extras, if written.
    pub joint_extras: Option<SJointExtras>,
    /// Model extras, if written.
    pub model_extras: Option<SModelExtras>,
    /// Bytes after everything else.
    pub trailing: Vec<u8>,
}

/// Where each part of a built file starts (and where the file ends).
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// Start of the vertex section (its count).
    pub vertices: usize,
    /// Start of the triangle section.
    pub triangles: usize,
    /// Start of the group section.
    pub groups: usize,
    /// Start of the material section.
    pub materials: usize,
    /// Start of the keyframer data.
    pub keyframer: usize,
    /// Start of the joint section.
    pub joints: usize,
    /// End of the core (start of the extras).
    pub core_end: usize,
    /// Start of the comments part (= core_end when present).
    pub comments: Option<usize>,
    /// Start of the model comment flag.
    pub model_comment: Option<usize>,
    /// Start of the vertex extras.
    pub vertex_extras: Option<usize>,
    /// Start of the joint extras.
    pub joint_extras: Option<usize>,
    /// Start of the model extras.
    pub model_extras: Option<usize>,
    /// End of the known data (start of the trailing bytes).
    pub extras_end: usize,
    /// Length of the file.
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
