//! The MD3 reader, writer and validators on hand-made files (the test
//! kit's `md3_bytes`, written from `qfiles.h`, not by the library):
//! decoding, byte-exact rewrites of odd layouts, errors with paths and
//! offsets, and every limit at the limit and one past.

use retromodel::md3::{limits, Layout, Md3};
use retromodel::{Engine, Error, Severity};
use retromodel_testkit::md3_bytes::{md3_bytes, Md3Spec, SurfaceSpec, HEADER_SIZE};
use retromodel_testkit::md3_facts::md3_facts;

fn spec(frames: usize, tags: usize, surfaces: Vec<SurfaceSpec>) -> Md3Spec {
    Md3Spec {
        frames,
        tags,
        surfaces,
    }
}

fn small() -> Vec<u8> {
    md3_bytes(&spec(
        2,
        2,
        vec![SurfaceSpec::new(2, 4, 3), SurfaceSpec::new(2, 5, 6)],
    ))
}

fn set_i32(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn a_hand_made_file_decodes_as_built_and_rewrites_exactly() {
    let b = small();
    let m = Md3::from_bytes(&b).unwrap();
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), b);
    assert_eq!(
        m.to_bytes().unwrap(),
        b,
        "the packed layout is the builder's"
    );
    assert!(m.validate().is_empty(), "{:?}", m.validate());
    assert!(m.validate_for(Engine::Ioquake3).is_empty());
    let facts = md3_facts(&b).unwrap();
    assert_eq!(facts.surfaces.len(), 2);
    assert_eq!(m.frames[1].name.to_string_lossy(), "f1");
    assert_eq!(m.frame_tags(1).unwrap()[1].name.to_string_lossy(), "tag_1");
    assert_eq!(m.frame_tags(1).unwrap()[1].origin, [1.0, 0.0, 0.0]);
    let s = &m.surfaces[1];
    assert_eq!(s.shaders[0].name.to_string_lossy(), "shader0");
    assert_eq!(s.triangles[4], [4, 0, 1]);
    assert_eq!(s.texcoords[3], [3.0 / 8.0, 0.5]);
    // Vertex 3 of frame 1: (3, 1, -3) / 64, normal bytes [3, 1] in file
    // order: longitude 3, latitude 1.
    let v = s.frame(1).unwrap()[3];
    assert_eq!(v.position(), [3.0 / 64.0, 1.0 / 64.0, -3.0 / 64.0]);
    assert_eq!((v.lng(), v.lat()), (3, 1));
}

#[test]
fn normals_decode_as_ioquake3s_sine_table() {
    // ioquake3: sinTable[i] = sin(i * 360° / 1023), looked up at byte * 4;
    // x = cos(lat) sin(lng), y = sin(lat) sin(lng), z = cos(lng).
    let table = |i: usize| ((i as f32) * 360.0 / 1023.0).to_radians().sin();
    for (lat, lng) in [
        (0u8, 0u8),
        (0, 64),
        (64, 64),
        (128, 32),
        (200, 100),
        (255, 255),
    ] {
        let (la, ln) = (usize::from(lat) * 4, usize::from(lng) * 4);
        let expected = [
            table((la + 256) & 1023) * table(ln),
            table(la) * table(ln),
            table((ln + 256) & 1023),
        ];
        let got = retromodel::md3::decode_normal(u16::from(lat) << 8 | u16::from(lng));
        for k in 0..3 {
            // The table's "cos" is its sine 256 entries on (90.09°).
            assert!(
                (got[k] - expected[k]).abs() < 1e-5,
                "{lat} {lng}: {got:?} {expected:?}"
            );
        }
    }
    // Every word away from the poles (where latitude means nothing)
    // encodes back to itself.
    let mut same = 0;
    for w in 0..=u16::MAX {
        let lng = w & 0xff;
        if (8..=120).contains(&lng) || (136..=248).contains(&lng) {
            let back = retromodel::md3::encode_normal(retromodel::md3::decode_normal(w));
            let (a, b) = (
                retromodel::md3::decode_normal(w),
                retromodel::md3::decode_normal(back),
            );
            // (Decoded normals are not quite unit: compare the vectors,
            // within a fraction of one step, 1.4°.)
            let d2: f32 = (0..3).map(|k| (a[k] - b[k]).powi(2)).sum();
            assert!(d2 < 4e-4, "{w:#06x} → {back:#06x}: {d2}");
            same += usize::from(back == w);
        }
    }
    // (Longitudes past 128 turn the other way round: the same normal as
    // latitude + 128, longitude 256 − lng.)
    assert!(same >= 28_000, "{same}");
    // Encoding then decoding lands within one step (~1.4°).
    for n in [
        [1.0f32, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.6, 0.0, 0.8],
        [-0.48, 0.6, -0.64],
    ] {
        let d = retromodel::md3::decode_normal(retromodel::md3::encode_normal(n));
        let dot: f32 = (0..3).map(|k| d[k] * n[k]).sum();
        assert!(dot > 0.999, "{n:?} → {d:?}");
    }
}

#[test]
fn out_of_order_sections_gaps_and_trailing_bytes_rewrite_exactly() {
    // Surfaces first, then a gap, then frames and tags, then trailing bytes.
    let b = small();
    let frames_at = i32_at(&b, 92) as usize;
    let surfaces_at = i32_at(&b, 100) as usize;
    let head = &b[..HEADER_SIZE];
    let frames_tags = &b[frames_at..surfaces_at];
    let surfaces = &b[surfaces_at..];
    let mut odd = head.to_vec();
    odd.extend_from_slice(surfaces);
    odd.extend_from_slice(b"GAP!");
    let new_frames = odd.len();
    odd.extend_from_slice(frames_tags);
    odd.extend_from_slice(b"trailing");
    set_i32(&mut odd, 92, new_frames as i32);
    set_i32(
        &mut odd,
        96,
        (new_frames + frames_tags.len() - 2 * 2 * 112) as i32,
    );
    set_i32(&mut odd, 100, HEADER_SIZE as i32);
    let m = Md3::from_bytes(&odd).unwrap();
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), odd);
    assert_eq!(m.unclaimed.len(), 2);
    assert_eq!(m.unclaimed[0].bytes, b"GAP!");
    assert_eq!(m.unclaimed[1].bytes, b"trailing");
    // The packed layout drops them and reads back to the same model.
    let packed = m.to_bytes().unwrap();
    assert_eq!(packed, b, "packed, the odd file is the plain one again");
}

#[test]
fn truncation_names_the_first_missing_item_and_its_offset() {
    let b = md3_bytes(&spec(
        1,
        0,
        vec![
            SurfaceSpec::new(1, 4, 2),
            SurfaceSpec::new(1, 4, 2),
            SurfaceSpec::new(1, 9, 10),
        ],
    ));
    // Surface 2 starts after the first two; its triangles right after its
    // header.
    let s0 = i32_at(&b, 100) as usize;
    let s1 = s0 + i32_at(&b, s0 + 104) as usize;
    let s2 = s1 + i32_at(&b, s1 + 104) as usize;
    let tri = s2 + 108;
    let cut = tri + 5 * 12 + 7;
    let err = Md3::from_bytes(&b[..cut]).unwrap_err();
    match &err {
        Error::Truncated {
            context,
            offset,
            needed,
            ..
        } => {
            assert!(context.starts_with("surfaces[2].triangles[5]"), "{err}");
            assert_eq!(*offset, (tri + 60) as u64);
            // Triangles 5 to 9 are missing.
            assert_eq!(*needed, 5 * 12);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn hostile_fields_are_errors_naming_the_field() {
    let b = small();
    let msg = |b: &[u8]| Md3::from_bytes(b).unwrap_err().to_string();
    // A negative count.
    let mut x = b.clone();
    set_i32(&mut x, 76, -1);
    assert_eq!(
        msg(&x),
        "header.num_frames: negative count -1 at offset 0x4c"
    );
    // A surface count that no file holds.
    let mut x = b.clone();
    set_i32(&mut x, 84, i32::MAX);
    assert!(msg(&x).starts_with("surfaces[2]"), "{}", msg(&x));
    // An offset before the file's start.
    let mut x = b.clone();
    set_i32(&mut x, 96, -8);
    assert!(
        msg(&x).starts_with("header.ofs_tags: offset -8 points before"),
        "{}",
        msg(&x)
    );
    // Sections that overlap (tags over the frames) but claim no more than
    // the file: read as ioquake3 reads them, and written back exactly.
    let mut x = b.clone();
    let frames_at = i32_at(&x, 92);
    set_i32(&mut x, 96, frames_at);
    let m = Md3::from_bytes(&x).unwrap();
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), x);
    // A surface chain that loops (ofs_end 0) with a huge count.
    let mut x = b.clone();
    let s0 = i32_at(&x, 100) as usize;
    set_i32(&mut x, s0 + 104, 0);
    set_i32(&mut x, 84, 1_000_000);
    assert!(msg(&x).contains("sections overlap"), "{}", msg(&x));
    // A surface's vertex count times frames past the file.
    let mut x = b.clone();
    set_i32(&mut x, s0 + 72, i32::MAX);
    assert!(
        msg(&x).starts_with("surfaces[0].xyz_normals"),
        "{}",
        msg(&x)
    );
    // Version and ident.
    let mut x = b.clone();
    set_i32(&mut x, 4, 16);
    assert_eq!(
        msg(&x),
        "MD3 version 16 is not supported (supported: 15) at offset 0x4"
    );
    assert!(
        msg(b"IDP2").starts_with("not a MD3 file"),
        "{}",
        msg(b"IDP2")
    );
    assert!(msg(b"ID").starts_with("header: needs 108 bytes"));
}

#[test]
fn validate_reports_indices_frame_counts_and_names_with_offsets() {
    let mut b = small();
    let s0 = i32_at(&b, 100) as usize;
    // Surface 0's triangle 1, corner 2: index 99 of 4 vertices.
    set_i32(&mut b, s0 + 108 + 12 + 8, 99);
    // Surface 0's name fills its 64 bytes.
    b[s0 + 4..s0 + 68].fill(b'x');
    let m = Md3::from_bytes(&b).unwrap();
    let p = m.validate();
    let find = |path: &str| {
        p.iter()
            .find(|p| p.path == path)
            .unwrap_or_else(|| panic!("{path}: {p:#?}"))
    };
    let t = find("surfaces[0].triangles[1][2]");
    assert_eq!(t.severity, Severity::Error);
    assert_eq!(t.offset, Some((s0 + 108 + 20) as u64));
    assert_eq!(find("surfaces[0].name").offset, Some((s0 + 4) as u64));

    // A surface with fewer frames than the model: the reader takes it,
    // validate says so.
    let b = md3_bytes(&spec(3, 0, vec![SurfaceSpec::new(2, 4, 2)]));
    let m = Md3::from_bytes(&b).unwrap();
    let p = m.validate();
    let f = p
        .iter()
        .find(|p| p.path == "surfaces[0].num_frames")
        .unwrap();
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.offset, Some((i32_at(&b, 100) + 72) as u64));
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), b);
}

/// The problems at `path`.
fn at(m: &Md3, engine: Option<Engine>, path: &str) -> usize {
    let p = match engine {
        Some(e) => m.validate_for(e),
        None => m.validate(),
    };
    p.iter().filter(|p| p.path == path).count()
}

fn read(spec: &Md3Spec) -> Md3 {
    let b = md3_bytes(spec);
    let m = Md3::from_bytes(&b).unwrap();
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), b);
    m
}

#[test]
fn ioquake3_refuses_1000_vertices_2000_triangles_and_no_frames() {
    let e = Some(Engine::Ioquake3);
    let m = read(&spec(1, 0, vec![SurfaceSpec::new(1, 999, 1999)]));
    assert!(m.validate_for(Engine::Ioquake3).is_empty());
    let m = read(&spec(1, 0, vec![SurfaceSpec::new(1, 1000, 1999)]));
    assert_eq!(at(&m, e, "surfaces[0].num_verts"), 1);
    assert_eq!(at(&m, e, "surfaces[0].num_triangles"), 0);
    let m = read(&spec(1, 0, vec![SurfaceSpec::new(1, 999, 2000)]));
    assert_eq!(at(&m, e, "surfaces[0].num_triangles"), 1);
    assert_eq!(at(&m, e, "surfaces[0].num_verts"), 0);
    let m = read(&spec(0, 0, vec![SurfaceSpec::new(0, 3, 1)]));
    assert_eq!(at(&m, e, "header.num_frames"), 1);
    assert_eq!(at(&m, None, "header.num_frames"), 1);
    // An engine that loads no MD3 says so once.
    let p = m.validate_for(Engine::Quake2);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].path, "format");
    assert!(
        p[0].message.contains("does not load MD3 files"),
        "{}",
        p[0].message
    );
}

#[test]
fn the_formats_limits_warn_one_past_each() {
    type Case = (fn(usize) -> Md3Spec, usize, &'static str);
    let cases: [Case; 6] = [
        (
            |n| spec(1, 0, vec![SurfaceSpec::new(1, n, 1)]),
            limits::MAX_VERTS,
            "surfaces[0].num_verts",
        ),
        (
            |n| spec(1, 0, vec![SurfaceSpec::new(1, 3, n)]),
            limits::MAX_TRIANGLES,
            "surfaces[0].num_triangles",
        ),
        (
            |n| {
                spec(
                    1,
                    0,
                    vec![SurfaceSpec {
                        shaders: n,
                        ..SurfaceSpec::new(1, 3, 1)
                    }],
                )
            },
            limits::MAX_SHADERS,
            "surfaces[0].num_shaders",
        ),
        (
            |n| spec(n, 0, vec![SurfaceSpec::new(n, 3, 1)]),
            limits::MAX_FRAMES,
            "header.num_frames",
        ),
        (
            |n| spec(1, 0, vec![SurfaceSpec::new(1, 3, 1); n]),
            limits::MAX_SURFACES,
            "header.num_surfaces",
        ),
        (
            |n| spec(1, n, vec![SurfaceSpec::new(1, 3, 1)]),
            limits::MAX_TAGS,
            "header.num_tags",
        ),
    ];
    for (make, max, path) in cases {
        let m = read(&make(max));
        assert_eq!(at(&m, None, path), 0, "{path} at {max}: {:?}", m.validate());
        let m = read(&make(max + 1));
        let p = m.validate();
        let w: Vec<_> = p.iter().filter(|p| p.path == path).collect();
        assert_eq!(w.len(), 1, "{path} at {}: {p:?}", max + 1);
        assert_eq!(w[0].severity, Severity::Warning);
        assert!(
            w[0].message.contains(&format!("{}", max + 1)),
            "{}",
            w[0].message
        );
    }
}

/// A deterministic stand-in for the fuzzers: many mutations of a
/// hand-made file (bytes flipped, header and surface fields set to edge
/// values, cut short) through the fuzz targets' checks.
#[test]
fn mutated_files_go_through_the_fuzz_checks() {
    use retromodel_testkit::md3_checks::{check_roundtrip, exercise_parse};
    let base = md3_bytes(&spec(
        3,
        2,
        vec![SurfaceSpec::new(3, 5, 4), SurfaceSpec::new(3, 3, 2)],
    ));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let edges = [0, 1, -1, 4, 108, 0x7fff_ffff, i32::MIN, 1000, -108];
    let (mut parsed, mut total) = (0, 0);
    for _ in 0..4000 {
        let mut b = base.clone();
        for _ in 0..(next() % 3 + 1) {
            let r = next();
            match r % 3 {
                0 => {
                    let at = (r >> 8) as usize % b.len();
                    b[at] ^= 1 << ((r >> 40) % 8);
                }
                1 => {
                    // A 4-byte field: a header field, or one of the first
                    // surface's.
                    let s0 = i32_at(&base, 100) as usize;
                    let at = if r & 0x100 == 0 {
                        68 + 4 * ((r >> 9) as usize % 10)
                    } else {
                        s0 + 68 + 4 * ((r >> 9) as usize % 10)
                    };
                    if at + 4 <= b.len() {
                        set_i32(&mut b, at, edges[(r >> 20) as usize % edges.len()]);
                    }
                }
                _ => b.truncate((r >> 8) as usize % b.len().max(1)),
            }
        }
        total += 1;
        let p = exercise_parse(&b).is_some();
        assert_eq!(check_roundtrip(&b), p);
        parsed += usize::from(p);
    }
    assert!(parsed > total / 10, "{parsed} of {total} parsed");
}

#[test]
fn ironwail_stops_past_1024_frames_without_surfaces_and_on_bad_indices() {
    let e = Some(Engine::Ironwail);
    let one = |frames| spec(frames, 0, vec![SurfaceSpec::new(frames, 3, 1)]);
    assert!(read(&one(1024)).validate_for(Engine::Ironwail).is_empty());
    let m = read(&one(1025));
    assert_eq!(at(&m, e, "header.num_frames"), 1);
    assert!(m.validate_for(Engine::Ironwail)[0]
        .message
        .contains("fatal"));
    assert_eq!(at(&read(&one(0)), e, "header.num_frames"), 1);
    assert_eq!(at(&read(&spec(1, 0, vec![])), e, "header.num_surfaces"), 1);
    // An index at the vertex count stops it; one whose low 16 bits are in
    // range (65536 + 1) passes its check (validate still says it is out
    // of range).
    let mut b = md3_bytes(&one(1));
    let s0 = i32_at(&b, 100) as usize;
    set_i32(&mut b, s0 + 108 + 4, 3);
    let m = Md3::from_bytes(&b).unwrap();
    let p = m.validate_for(Engine::Ironwail);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].path, "surfaces[0].triangles[0][1]");
    assert_eq!(p[0].offset, Some((s0 + 112) as u64));
    set_i32(&mut b, s0 + 108 + 4, 65537);
    let m = Md3::from_bytes(&b).unwrap();
    assert!(m.validate_for(Engine::Ironwail).is_empty());
    assert_eq!(at(&m, None, "surfaces[0].triangles[0][1]"), 1);
}

#[test]
fn vkquake_stops_past_2048_frames_32_surfaces_and_on_mismatched_surfaces() {
    let e = Some(Engine::Vkquake);
    let frames = |n| spec(n, 0, vec![SurfaceSpec::new(n, 3, 1)]);
    assert!(read(&frames(2048)).validate_for(Engine::Vkquake).is_empty());
    assert_eq!(at(&read(&frames(2049)), e, "header.num_frames"), 1);
    let surfaces = |n| spec(1, 0, vec![SurfaceSpec::new(1, 3, 1); n]);
    assert!(read(&surfaces(32)).validate_for(Engine::Vkquake).is_empty());
    assert_eq!(at(&read(&surfaces(33)), e, "header.num_surfaces"), 1);
    assert_eq!(at(&read(&surfaces(0)), e, "header.num_surfaces"), 1);
    // A surface with another frame count, and one with another ident.
    let m = read(&spec(2, 0, vec![SurfaceSpec::new(1, 3, 1)]));
    assert_eq!(at(&m, e, "surfaces[0].num_frames"), 1);
    let mut b = md3_bytes(&frames(1));
    let s0 = i32_at(&b, 100) as usize;
    b[s0..s0 + 4].copy_from_slice(b"XXXX");
    let m = Md3::from_bytes(&b).unwrap();
    assert_eq!(at(&m, e, "surfaces[0].ident"), 1);
    assert_eq!(at(&m, Some(Engine::Ioquake3), "surfaces[0].ident"), 0);
    // FTE loads it with a console warning: one warning
    // (md3_engine_profiles.rs).
    let p = m.validate_for(Engine::Fte);
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].severity, p[0].path.as_str()),
        (Severity::Warning, "surfaces[0].ident")
    );
}

#[test]
fn a_lod_with_other_frames_or_tags_is_reported() {
    let base = read(&spec(4, 1, vec![SurfaceSpec::new(4, 5, 3)]));
    let same = read(&spec(4, 1, vec![SurfaceSpec::new(4, 3, 1)]));
    assert!(base.check_lod(&same, 1).is_empty());
    let fewer = read(&spec(2, 1, vec![SurfaceSpec::new(2, 3, 1)]));
    let p = base.check_lod(&fewer, 2);
    let paths: Vec<&str> = p.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        ["lod2.header.num_frames", "lod2.surfaces[0].num_frames"]
    );
    // ioquake3 loads it (no LOD is compared with another): a warning
    // naming LOD 0's frames 2 and 3, drawn past the LOD's 2.
    assert!(p.iter().all(|p| p.severity == Severity::Warning), "{p:?}");
    assert!(
        p[0].message
            .contains("frames 2..3 of LOD 0's 4 are drawn past"),
        "{}",
        p[0].message
    );
    let no_tags = read(&spec(4, 0, vec![SurfaceSpec::new(4, 3, 1)]));
    let p = base.check_lod(&no_tags, 1);
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].path.as_str(), p[0].severity),
        ("lod1.tags", Severity::Warning)
    );
    assert_eq!(
        retromodel::md3::lod_file_names("a.b/x.md3")[1],
        "a_1.b/x.md3",
        "cut at the first dot, as R_RegisterMD3 does"
    );
}

#[test]
fn ioquake3_copies_ofs_end_bytes_so_it_must_cover_the_sections_and_no_more() {
    let b = small();
    let len = b.len() as i32;
    assert_eq!(i32_at(&b, 104), len);
    for (end, bad) in [(len, false), (len - 1, true), (len + 1, true), (-1, true)] {
        let mut x = b.clone();
        set_i32(&mut x, 104, end);
        let m = Md3::from_bytes(&x).unwrap();
        assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), x);
        let p = m.validate_for(Engine::Ioquake3);
        assert_eq!(
            p.iter().any(|p| p.path == "header.ofs_end"),
            bad,
            "{end}: {p:?}"
        );
        assert!(m.validate_for(Engine::Vkquake).is_empty());
    }
    // Trailing bytes past ofs_end are fine.
    let mut x = b.clone();
    x.extend_from_slice(b"tail");
    assert!(Md3::from_bytes(&x)
        .unwrap()
        .validate_for(Engine::Ioquake3)
        .is_empty());
}

#[test]
fn et_legacy_drops_past_10000_vertices_and_20000_triangles() {
    let e = Some(Engine::Etlegacy);
    let m = read(&spec(1, 0, vec![SurfaceSpec::new(1, 10_000, 20_000)]));
    assert!(m.validate_for(Engine::Etlegacy).is_empty());
    // ioquake3 refuses both.
    assert_eq!(m.validate_for(Engine::Ioquake3).len(), 2);
    let m = read(&spec(1, 0, vec![SurfaceSpec::new(1, 10_001, 3)]));
    let p = m.validate_for(Engine::Etlegacy);
    assert_eq!(at(&m, e, "surfaces[0].num_verts"), 1);
    assert!(
        p[0].message.contains("drops to the console"),
        "{}",
        p[0].message
    );
    let m = read(&spec(1, 0, vec![SurfaceSpec::new(1, 3, 20_001)]));
    assert_eq!(at(&m, e, "surfaces[0].num_triangles"), 1);
    // No frames: the model is left out, not a drop.
    let m = read(&spec(0, 0, vec![SurfaceSpec::new(0, 3, 1)]));
    let p = m.validate_for(Engine::Etlegacy);
    assert_eq!(p.len(), 1);
    assert!(
        p[0].message.contains("does not load the model"),
        "{}",
        p[0].message
    );
    assert_eq!(Engine::from_name("et"), Some(Engine::Etlegacy));
}
