//! Hand-made MS3D files, written by the test's own byte-builder from the
//! format description: versions, every shape of the 1.8 extras, both
//! model-comment layouts, faulty skeletons, raw names, truncation and
//! hostile counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use retromodel::ms3d::{GroupMesh, ModelComment, Ms3d, Skeleton};
use retromodel::{Error, Severity};
use retromodel_testkit::ms3d_builder::{
    field, full_spec, Marks, Out, SComments, SJoint, SModelComment, SVertexExtras, Spec,
};

// ---------------------------------------------------------------------------
// Allocation watch: the largest single allocation a thread asks for while
// watching. Lets the hostile-count tests prove that memory stays bounded.
// ---------------------------------------------------------------------------

struct Watch;

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = WATCHING.try_with(|w| {
        if w.get() {
            let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// bookkeeping only touches const-initialised thread-locals (no allocation).
unsafe impl GlobalAlloc for Watch {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Watch = Watch;

/// Runs `f`, returning its result, the largest single allocation it made
/// and how long it took.
fn watched<T>(f: impl FnOnce() -> T) -> (T, usize, Duration) {
    LARGEST.with(|l| l.set(0));
    WATCHING.with(|w| w.set(true));
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    WATCHING.with(|w| w.set(false));
    (out, LARGEST.with(|l| l.get()), took)
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn parse(spec: &Spec) -> (Vec<u8>, Ms3d) {
    let (bytes, _) = spec.build();
    let model = Ms3d::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    (bytes, model)
}

/// Parses, checks every part against the description and the rewrite
/// against the bytes.
fn check(spec: &Spec, what: &str) -> Ms3d {
    let (bytes, model) = parse(spec);
    spec.assert_core(&model);
    spec.assert_extras(&model);
    assert!(
        model.to_bytes().unwrap() == bytes,
        "{what}: rewrite differs"
    );
    model
}

fn no_extras(mut spec: Spec) -> Spec {
    spec.comments = None;
    spec.vertex_extras = None;
    spec.joint_extras = None;
    spec.model_extras = None;
    spec
}

// ---------------------------------------------------------------------------
// Versions and magic
// ---------------------------------------------------------------------------

#[test]
fn version_3_files_read_like_version_4() {
    for spec in [full_spec(), no_extras(full_spec())] {
        let mut spec = spec;
        spec.version = 3;
        let (bytes, _) = spec.build();
        assert_eq!(i32::from_le_bytes(bytes[10..14].try_into().unwrap()), 3);
        let m = check(&spec, "version 3");
        assert_eq!(m.version, 3);
    }
}

#[test]
fn other_versions_and_magics_are_errors() {
    for version in [0, 1, 2, 5, -1, 0x0400_0000] {
        let mut spec = full_spec();
        spec.version = version;
        match Ms3d::from_bytes(&spec.build().0) {
            Err(Error::UnsupportedVersion { found, offset, .. }) => {
                assert_eq!((found, offset), (i64::from(version), 10));
            }
            other => panic!("version {version}: {other:?}"),
        }
    }
    let (mut bytes, _) = full_spec().build();
    bytes[9] = b'1';
    assert!(matches!(
        Ms3d::from_bytes(&bytes),
        Err(Error::BadMagic { .. })
    ));
    assert!(matches!(
        Ms3d::from_bytes(b"IDP2\x08\0\0\0"),
        Err(Error::BadMagic { .. })
    ));
    assert!(Ms3d::from_bytes(b"").is_err());
}

// ---------------------------------------------------------------------------
// Every shape of the extras
// ---------------------------------------------------------------------------

fn records(n: usize) -> Vec<([i8; 3], [u8; 3], [u32; 2])> {
    (0..n)
        .map(|i| {
            let i8v = i as i8;
            (
                [i8v % 3, -1, (i8v + 1) % 3],
                [10 + i as u8, 20, 200 - i as u8],
                [0x1111_0000 + i as u32, 0x2222_0000 + i as u32],
            )
        })
        .collect()
}

#[test]
fn every_extras_shape_reads_and_rewrites() {
    let base = full_spec();
    let n = base.verts.len();
    let comments_only_flag = SComments {
        model: SModelComment::Flag(0),
        ..base.comments.clone().unwrap()
    };
    let vx = |subversion, record_size| SVertexExtras {
        subversion,
        record_size,
        records: records(n),
    };
    let shape = |comments: Option<SComments>,
                 vertex: Option<SVertexExtras>,
                 joints: bool,
                 model: bool| Spec {
        comments,
        vertex_extras: vertex,
        joint_extras: base.joint_extras.clone().filter(|_| joints),
        model_extras: base.model_extras.filter(|_| model),
        ..base.clone()
    };
    let c = || Some(base.comments.clone().unwrap());
    let cases: Vec<(&str, Spec)> = vec![
        ("none", shape(None, None, false, false)),
        (
            "comments without model comment",
            shape(Some(comments_only_flag.clone()), None, false, false),
        ),
        (
            "comments with model comment",
            shape(c(), None, false, false),
        ),
        (
            "vertex subversion 1",
            shape(c(), Some(vx(1, 6)), false, false),
        ),
        (
            "vertex subversion 2",
            shape(c(), Some(vx(2, 10)), false, false),
        ),
        (
            "vertex subversion 3",
            shape(c(), Some(vx(3, 14)), false, false),
        ),
        (
            "vertex subversion 3 in 10-byte records",
            shape(c(), Some(vx(3, 10)), false, false),
        ),
        ("joint colours", shape(c(), Some(vx(2, 10)), true, false)),
        ("full set", shape(c(), Some(vx(2, 10)), true, true)),
        (
            "full set, subversion 3",
            shape(c(), Some(vx(3, 14)), true, true),
        ),
        (
            "full set, subversion 3 in 10-byte records",
            shape(c(), Some(vx(3, 10)), true, true),
        ),
        (
            "full set, subversion 1, no model comment",
            shape(Some(comments_only_flag.clone()), Some(vx(1, 6)), true, true),
        ),
    ];
    for (what, spec) in &cases {
        let m = check(spec, what);
        if spec.vertex_extras.is_some() && spec.joint_extras.is_none() {
            assert!(m.extras.joints.is_none(), "{what}");
        }
    }

    // Joint colours with subversion 2 (as the spec's comment says).
    let mut spec = shape(c(), Some(vx(2, 10)), true, true);
    spec.joint_extras.as_mut().unwrap().subversion = 2;
    check(&spec, "joint subversion 2");

    // The records as bytes: subversion 1 record 2 is bone ids [2, -1, 0]
    // and weights [12, 20, 198].
    let spec = shape(c(), Some(vx(1, 6)), false, false);
    let (bytes, marks) = spec.build();
    let at = marks.vertex_extras.unwrap() + 4 + 2 * 6;
    assert_eq!(&bytes[at..at + 6], &[2, 0xff, 0, 12, 20, 198]);
    let m = Ms3d::from_bytes(&bytes).unwrap();
    let r = m.extras.vertices.unwrap().records[2];
    assert_eq!((r.bone_ids, r.weights), ([2, -1, 0], [12, 20, 198]));
}

#[test]
fn a_file_may_end_after_any_extras_part() {
    let full = full_spec();
    let (bytes, marks) = full.build();
    let parts = [
        marks.core_end,
        marks.vertex_extras.unwrap(),
        marks.joint_extras.unwrap(),
        marks.model_extras.unwrap(),
        marks.end,
    ];
    for (k, &end) in parts.iter().enumerate() {
        let spec = Spec {
            comments: full.comments.clone().filter(|_| k >= 1),
            vertex_extras: full.vertex_extras.clone().filter(|_| k >= 2),
            joint_extras: full.joint_extras.clone().filter(|_| k >= 3),
            model_extras: full.model_extras.filter(|_| k >= 4),
            ..full.clone()
        };
        let (own, _) = spec.build();
        assert_eq!(own, &bytes[..end], "the shorter file is a prefix");
        check(&spec, &format!("ending after part {k}"));
    }
}

// ---------------------------------------------------------------------------
// The model comment's two layouts
// ---------------------------------------------------------------------------

#[test]
fn both_model_comment_layouts_are_read_with_the_rest_of_the_file() {
    let text = b"hello world, anim=1-20".to_vec();
    for (what, model) in [
        ("{length, text}", SModelComment::LenText(text.clone())),
        (
            "{index, length, text}",
            SModelComment::IdxLenText(0, text.clone()),
        ),
        (
            "{index 3, length, text}",
            SModelComment::IdxLenText(3, text.clone()),
        ),
    ] {
        // With the full rest of the extras after the comment, and with the
        // file ending right after it.
        for rest in [true, false] {
            let mut spec = full_spec();
            spec.comments.as_mut().unwrap().model = model.clone();
            if !rest {
                spec.vertex_extras = None;
                spec.joint_extras = None;
                spec.model_extras = None;
            }
            let m = check(&spec, what);
            assert_eq!(m.model_comment().unwrap().as_bytes(), &text[..], "{what}");
            let layout_ok = match (&m.extras.comments.as_ref().unwrap().model, &model) {
                (ModelComment::LengthText(_), SModelComment::LenText(_)) => true,
                (ModelComment::IndexLengthText { index, .. }, SModelComment::IdxLenText(i, _)) => {
                    index == i
                }
                _ => false,
            };
            assert!(layout_ok, "{what}");
        }
    }
}

#[test]
fn when_both_layouts_fit_the_viewers_length_text_wins() {
    // After the flag: 4, 0, 0, 0, 0. Read as {length 4, text [0,0,0,0]} or
    // as {index 4, length 0, text ""}: both end at the end of the file.
    let mut spec = no_extras(full_spec());
    let (mut bytes, _) = spec.build();
    let mut extras = Out::default();
    extras.i32(1).u32(0).u32(0).u32(0).i32(1).i32(4).i32(0);
    bytes.extend_from_slice(&extras.0);
    let m = Ms3d::from_bytes(&bytes).unwrap();
    let c = m.extras.comments.as_ref().unwrap();
    assert_eq!(c.model, ModelComment::LengthText(vec![0, 0, 0, 0]));
    assert!(m.trailing.is_empty());
    assert!(m.to_bytes().unwrap() == bytes);
    // The same bytes through the builder, for symmetry.
    spec.comments = Some(SComments {
        subversion: 1,
        groups: vec![],
        materials: vec![],
        joints: vec![],
        model: SModelComment::LenText(vec![0; 4]),
    });
    assert_eq!(spec.build().0, bytes);
}

// ---------------------------------------------------------------------------
// Trailing bytes, empty groups
// ---------------------------------------------------------------------------

#[test]
fn unknown_trailing_bytes_are_kept() {
    let junk: Vec<u8> = b"\x00junk\xff\x01\x02".to_vec();
    let mut spec = full_spec();
    spec.trailing = junk.clone();
    let m = check(&spec, "full set + junk");
    let p = m.validate();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        (p[0].severity, p[0].path.as_str()),
        (Severity::Warning, "trailing")
    );

    // Without extras, bytes that do not form a comments block stay
    // trailing: too short, a wrong subversion, a comment count far beyond
    // the file.
    for junk in [
        vec![9u8, 9, 9],
        vec![2, 0, 0, 0, 0, 0, 0, 0],
        vec![1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0],
    ] {
        let mut spec = no_extras(full_spec());
        spec.trailing = junk;
        check(&spec, "no extras + junk");
    }
}

#[test]
fn an_empty_group_is_kept_and_meshes_to_nothing() {
    let spec = full_spec();
    let m = check(&spec, "full");
    assert!(m.groups[1].triangles.is_empty());
    assert_eq!(m.groups[1].name.to_string_lossy(), "empty");
    assert!(m.validate().is_empty(), "{:?}", m.validate());
    let meshes = GroupMesh::build_all(&m);
    assert_eq!(meshes.len(), 2);
    assert!(meshes[1].vertices.is_empty() && meshes[1].indices.is_empty());
    assert_eq!(meshes[1].material, None);
    assert_eq!(meshes[0].material, Some(1));
    assert_eq!(meshes[0].indices.len(), 6);
}

// ---------------------------------------------------------------------------
// Faulty skeletons
// ---------------------------------------------------------------------------

#[test]
fn a_missing_parent_makes_a_root_with_a_warning() {
    let mut spec = no_extras(full_spec());
    spec.joints = vec![
        SJoint::new("root", "", [0.0; 3], [0.0; 3]),
        SJoint::new("orphan", "ghost", [0.0, 0.0, 0.5], [3.0, 4.0, 5.0]),
        SJoint::new("child", "orphan", [0.0; 3], [1.0, 0.0, 0.0]),
    ];
    let (bytes, marks) = spec.build();
    let m = Ms3d::from_bytes(&bytes).unwrap();
    let problems = m.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert_eq!(
        (p.severity, p.path.as_str()),
        (Severity::Warning, "joints[1].parent")
    );
    // The offset is that of the parent name in the file: joint 1 starts
    // after joint 0 (93 bytes, no keys); the parent name is 33 bytes in.
    let at = marks.joints + 2 + 93 + 33;
    assert_eq!(p.offset, Some(at as u64));
    assert_eq!(&bytes[at..at + 5], b"ghost");

    let s = Skeleton::new(&m).unwrap();
    assert_eq!(s.parents(), &[None, None, Some(1)]);
    // The orphan's bind pose is its own local transform: at (3,4,5).
    let t = s.bind_pose()[1].w_axis;
    assert_eq!([t.x, t.y, t.z], [3.0, 4.0, 5.0]);
}

#[test]
fn a_cycle_of_parents_is_an_error() {
    let cycles: [&[(&str, &str)]; 3] = [
        &[("a", "b"), ("b", "a")],
        &[("self", "self")],
        &[("r", ""), ("x", "z"), ("y", "x"), ("z", "y"), ("leaf", "y")],
    ];
    for joints in cycles {
        let mut spec = no_extras(full_spec());
        spec.verts.iter_mut().for_each(|v| v.bone = -1);
        spec.joints = joints
            .iter()
            .map(|(n, p)| SJoint::new(n, p, [0.0; 3], [0.0; 3]))
            .collect();
        let (bytes, _) = spec.build();
        let m = Ms3d::from_bytes(&bytes).expect("a cycle still reads");
        assert!(m.to_bytes().unwrap() == bytes);
        let errors: Vec<_> = m
            .validate()
            .into_iter()
            .filter(|p| p.severity == Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "{joints:?}: {errors:?}");
        assert!(errors[0].path.ends_with(".parent"), "{:?}", errors[0]);
        assert!(Skeleton::new(&m).is_err(), "{joints:?}");
        assert!(Ms3d::from_bytes_strict(&bytes).is_err());
    }
}

// ---------------------------------------------------------------------------
// Raw names
// ---------------------------------------------------------------------------

#[test]
fn names_that_are_not_utf8_keep_their_bytes() {
    let mut spec = full_spec();
    // Invalid UTF-8, then a NUL, then leftovers that must survive.
    let mut group = field::<32>(&[0xC3, 0x28, b'x']);
    group[4..8].copy_from_slice(b"GARB");
    spec.groups[0].name = group;
    let joint_name: &[u8] = &[b'j', 0xFF, 0xFE];
    spec.joints[1].name = field(joint_name);
    spec.joints[2].parent = field(joint_name);
    spec.materials[0].texture = field(b"tex\xe9.bmp");
    // A name that fills all 32 bytes (no NUL).
    spec.materials[1].name = [b'M'; 32];
    let m = check(&spec, "raw names");

    let g = &m.groups[0].name;
    assert_eq!(g.as_bytes(), &[0xC3, 0x28, b'x']);
    assert_eq!(g.to_string_lossy(), "\u{FFFD}(x");
    assert_eq!(g.to_string(), "\u{FFFD}(x");
    assert_eq!(&g.0[4..8], b"GARB");
    assert_eq!(m.joints[1].name.to_string_lossy(), "j\u{FFFD}\u{FFFD}");
    assert_eq!(m.materials[0].texture.to_string_lossy(), "tex\u{FFFD}.bmp");
    assert!(m.materials[1].name.is_unterminated());
    assert_eq!(m.materials[1].name.as_bytes(), &[b'M'; 32]);
    // The parent is found by its bytes.
    assert_eq!(Skeleton::new(&m).unwrap().parents()[2], Some(1));
    assert!(m.validate().is_empty(), "{:?}", m.validate());
}

// ---------------------------------------------------------------------------
// Truncation
// ---------------------------------------------------------------------------

/// What a file cut at `cut` must read as: the extras parts that are
/// complete before the cut, the rest as trailing bytes.
fn expected_after_cut(full: &Spec, marks: &Marks, bytes: &[u8], cut: usize) -> Spec {
    let comments_end = marks.vertex_extras.unwrap();
    let vertex_end = marks.joint_extras.unwrap();
    let joint_end = marks.model_extras.unwrap();
    let known_end = if cut >= marks.end {
        marks.end
    } else if cut >= joint_end {
        joint_end
    } else if cut >= vertex_end {
        vertex_end
    } else if cut >= comments_end {
        comments_end
    } else {
        marks.core_end
    };
    Spec {
        comments: full.comments.clone().filter(|_| cut >= comments_end),
        vertex_extras: full.vertex_extras.clone().filter(|_| cut >= vertex_end),
        joint_extras: full.joint_extras.clone().filter(|_| cut >= joint_end),
        model_extras: full.model_extras.filter(|_| cut >= marks.end),
        trailing: bytes[known_end..cut].to_vec(),
        ..full.clone()
    }
}

#[test]
fn truncation_at_every_byte() {
    let full = full_spec();
    let (bytes, marks) = full.build();
    assert!(marks.core_boundaries.len() > 20);
    for cut in 0..=bytes.len() {
        let part = &bytes[..cut];
        let result = Ms3d::from_bytes(part);
        if cut < marks.core_end {
            match result {
                Err(Error::Truncated {
                    offset,
                    needed,
                    file_len,
                    ..
                }) => {
                    assert_eq!(file_len, cut as u64, "cut {cut}");
                    assert!(offset <= cut as u64, "cut {cut}: offset {offset}");
                    assert!(offset + needed > cut as u64, "cut {cut}: {offset}+{needed}");
                }
                other => panic!("cut {cut} (core ends at {}): {other:?}", marks.core_end),
            }
        } else {
            let m = result.unwrap_or_else(|e| panic!("cut {cut}: {e}"));
            let want = expected_after_cut(&full, &marks, &bytes, cut);
            want.assert_core(&m);
            want.assert_extras(&m);
            assert!(m.to_bytes().unwrap() == part, "cut {cut}: rewrite differs");
        }
    }
    // Section boundaries are among the cuts above; name them for the record.
    for &b in &marks.core_boundaries {
        assert!(Ms3d::from_bytes(&bytes[..b]).is_err(), "boundary {b}");
    }
}

#[test]
fn truncated_extras_of_a_model_with_many_vertices() {
    // With 40 vertices, 6-, 10- and 14-byte record blocks are long enough
    // to be mistaken for one another when cut.
    let mut full = full_spec();
    let v = full.verts[1].clone();
    full.verts.resize(40, v);
    full.vertex_extras = Some(SVertexExtras {
        subversion: 3,
        record_size: 14,
        records: records(40),
    });
    let (bytes, marks) = full.build();
    for cut in marks.core_end..=bytes.len() {
        let part = &bytes[..cut];
        let m = Ms3d::from_bytes(part).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
        full.assert_core(&m);
        assert!(m.to_bytes().unwrap() == part, "cut {cut}: rewrite differs");
        // A cut inside the comments never yields vertex extras.
        if cut < marks.vertex_extras.unwrap() {
            assert!(
                m.extras.comments.is_none() && m.extras.vertices.is_none(),
                "cut {cut}: {:?}",
                m.extras
            );
            assert_eq!(m.trailing, &bytes[marks.core_end..cut]);
        }
    }
}

// ---------------------------------------------------------------------------
// Hostile counts
// ---------------------------------------------------------------------------

#[test]
fn huge_counts_fail_fast_with_bounded_memory() {
    let header = |o: &mut Out| {
        o.raw(b"MS3D000000").i32(4);
    };
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut o = Out::default();
    header(&mut o);
    o.u16(0xFFFF).raw(&[0; 30]);
    cases.push(("vertices", o.0));
    let mut o = Out::default();
    header(&mut o);
    o.u16(0).u16(0xFFFF).raw(&[0; 100]);
    cases.push(("triangles", o.0));
    let mut o = Out::default();
    header(&mut o);
    o.u16(0).u16(0).u16(0xFFFF).raw(&[0; 50]);
    cases.push(("groups", o.0));
    let mut o = Out::default();
    header(&mut o);
    o.u16(0).u16(0).u16(1).u8(0).raw(&[b'g'; 32]).u16(0xFFFF);
    o.raw(&[0; 10]);
    cases.push(("group triangles", o.0));
    let mut o = Out::default();
    header(&mut o);
    o.u16(0).u16(0).u16(0).u16(0xFFFF).raw(&[0; 400]);
    cases.push(("materials", o.0));
    let mut o = Out::default();
    header(&mut o);
    o.u16(0).u16(0).u16(0).u16(0).f32(24.0).f32(0.0).i32(0);
    let keyframer_end = o.clone();
    o.u16(0xFFFF).raw(&[0; 100]);
    cases.push(("joints", o.0));
    let mut o = keyframer_end.clone();
    o.u16(1)
        .u8(0)
        .raw(&[b'j'; 32])
        .raw(&[0; 32])
        .f32s(&[0.0; 6]);
    o.u16(0xFFFF).u16(0xFFFF).raw(&[0; 64]);
    cases.push(("keys", o.0));
    for (what, bytes) in &cases {
        let (result, largest, took) = watched(|| Ms3d::from_bytes(bytes));
        assert!(
            matches!(result, Err(Error::Truncated { .. })),
            "{what}: {result:?}"
        );
        assert!(largest < 4096, "{what}: allocated {largest} bytes at once");
        assert!(took < Duration::from_millis(200), "{what}: took {took:?}");
    }

    // In the extras, hostile counts and lengths leave the bytes trailing.
    let mut extras_cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut o = keyframer_end.clone();
    o.u16(0).i32(1).u32(0x7FFF_FFFF).raw(&[0; 16]);
    extras_cases.push(("comment count", o.0));
    let mut o = keyframer_end.clone();
    o.u16(0).i32(1).u32(1).i32(0).i32(0x7FFF_FFFF).raw(&[0; 16]);
    extras_cases.push(("comment length", o.0));
    let mut o = keyframer_end.clone();
    o.u16(0).i32(1).u32(0).u32(0).u32(0).i32(1).i32(0x7FFF_FFF0);
    o.i32(0x7FFF_FFF0).raw(&[0; 16]);
    extras_cases.push(("model comment length", o.0));
    let mut o = keyframer_end.clone();
    o.u16(0)
        .i32(1)
        .u32(0)
        .u32(0)
        .u32(0)
        .i32(1)
        .i32(-5)
        .i32(0x7FFF_FFFF);
    o.raw(&[0; 16]);
    extras_cases.push(("negative model comment length", o.0));
    for (what, bytes) in &extras_cases {
        let (result, largest, took) = watched(|| Ms3d::from_bytes(bytes));
        let m = result.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(m.extras.comments.is_none(), "{what}");
        assert!(!m.trailing.is_empty(), "{what}");
        assert!(m.to_bytes().unwrap() == *bytes, "{what}");
        assert!(largest < 4096, "{what}: allocated {largest} bytes at once");
        assert!(took < Duration::from_millis(200), "{what}: took {took:?}");
    }

    // 65535 vertices really present, then nothing: an error, and no
    // allocation beyond what the input justifies.
    let mut o = Out::default();
    header(&mut o);
    o.u16(0xFFFF);
    for i in 0..0xFFFFu32 {
        o.u8(0).f32s(&[i as f32, 0.0, 0.0]).i8(-1).u8(0);
    }
    o.u16(0xFFFF);
    let len = o.len();
    let (result, largest, _) = watched(|| Ms3d::from_bytes(&o.0));
    assert!(matches!(result, Err(Error::Truncated { .. })));
    assert!(
        largest <= 2 * len,
        "allocated {largest} for {len} input bytes"
    );
}

/// MS3D's `validate()` shares the limit: 5 000 triangles with three bad
/// vertex indices each list `MAX_LISTED_PROBLEMS` problems and count the
/// rest in one last problem.
#[test]
fn validate_lists_at_most_the_limit() {
    use retromodel::MAX_LISTED_PROBLEMS;
    let mut model = retromodel::ms3d::sample::sample_model();
    assert!(model.validate().is_empty());
    let mut bad = model.triangles[0];
    bad.vertices = [60_000, 60_001, 60_002];
    model.triangles = vec![bad; 4];
    let few = model.validate().len();
    assert!(few >= 12, "at least one problem per bad index: {few}");
    model.triangles = vec![bad; 5_000];
    let problems = model.validate();
    assert_eq!(problems.len(), MAX_LISTED_PROBLEMS + 1);
    let last = problems.last().unwrap();
    assert_eq!(last.path, "(not listed)");
    assert!(last.message.contains("more problems"), "{}", last.message);
}
