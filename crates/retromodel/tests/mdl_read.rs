//! The MDL reader against independent oracles: the corpus's `facts.json`
//! (a small Python reader's header counts and frame names) for all 95
//! files, and files built byte by byte in the test kit (`mdl_bytes`), whose
//! every value the test knows because it wrote it.

use retromodel::mdl::{Frame, Mdl, Skin, TexCoord, TriVertex, Triangle, Variant};
use retromodel::{Error, Model, Severity};
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::mdl_bytes::*;
use serde_json::Value;

fn mdl_files() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = corpus_dir()?.join("mdl");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mdl"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    Some(files)
}

#[test]
fn corpus_matches_independent_facts() {
    let Some(files) = mdl_files() else { return };
    let dir = corpus_dir().unwrap().join("mdl");
    let facts: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("facts.json")).unwrap()).unwrap();
    assert_eq!(files.len(), 95);
    for (name, bytes) in &files {
        let f = &facts[name.as_str()];
        assert!(f.is_object(), "{name}: no facts");
        let n = |k: &str| f[k].as_i64().unwrap_or_else(|| panic!("{name}: {k}"));
        let m = Mdl::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(f["ident"], "IDPO", "{name}");
        assert_eq!(m.variant, Variant::Quake, "{name}");
        assert_eq!(i64::from(m.version), n("version"), "{name}");
        assert_eq!(m.skins.len() as i64, n("skins"), "{name}");
        let images: usize = m
            .skins
            .iter()
            .map(|s| match s {
                Skin::Single(_) => 1,
                Skin::Group { images, .. } => images.len(),
            })
            .sum();
        assert_eq!(images as i64, n("skin_frames"), "{name}");
        assert_eq!(i64::from(m.skin_width), n("skin_width"), "{name}");
        assert_eq!(i64::from(m.skin_height), n("skin_height"), "{name}");
        assert_eq!(m.vertex_count() as i64, n("vertices"), "{name}");
        assert_eq!(m.texcoords.len() as i64, n("vertices"), "{name}");
        assert_eq!(m.triangles.len() as i64, n("triangles"), "{name}");
        assert_eq!(m.frames.len() as i64, n("frames"), "{name}");
        assert_eq!(
            m.simple_frames().count() as i64,
            n("simple_frames"),
            "{name}"
        );
        assert_eq!(i64::from(m.flags), n("flags"), "{name}");
        assert_eq!(i64::from(m.sync_type), n("synctype"), "{name}");
        let names: Vec<String> = m
            .simple_frames()
            .map(|s| s.name.to_string_lossy())
            .collect();
        let expected: Vec<&str> = f["frame_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(names, expected, "{name}");
        for s in m.simple_frames() {
            assert_eq!(s.vertices.len() as i64, n("vertices"), "{name}");
        }
        // Detected by its bytes through the one entry point.
        assert_eq!(
            Model::from_bytes(bytes).unwrap().format(),
            retromodel::Format::Mdl
        );
    }
}

#[test]
fn corpus_prefixes_error_cleanly() {
    let Some(files) = mdl_files() else { return };
    // The three smallest files, every prefix; the corpus files have no
    // trailing bytes, so every strict prefix is cut short.
    let mut small: Vec<&(String, Vec<u8>)> = files.iter().collect();
    small.sort_by_key(|(_, b)| b.len());
    for (name, bytes) in small.into_iter().take(3) {
        for len in 0..bytes.len() {
            let err = Mdl::from_bytes(&bytes[..len])
                .err()
                .unwrap_or_else(|| panic!("{name}: prefix {len} parsed"));
            if let Some(o) = err.offset() {
                assert!(
                    o <= len as u64,
                    "{name}[..{len}]: offset {o} past the end: {err}"
                );
            }
        }
    }
}

#[test]
fn tetra_reads_every_field() {
    let bytes = tetra_quake();
    let m = Mdl::from_bytes(&bytes).unwrap();
    assert_eq!(m.variant, Variant::Quake);
    assert_eq!((m.skin_width, m.skin_height), (8, 4));
    assert_eq!(m.eye_position, [0.0, 0.0, 24.0]);
    assert_eq!(m.skins, vec![Skin::Single((0u8..32).collect())]);
    assert_eq!(
        m.texcoords[2],
        TexCoord {
            onseam: 0x20,
            s: 0,
            t: 3
        }
    );
    assert_eq!(
        m.triangles[2],
        Triangle {
            faces_front: 0,
            vertices: [0, 2, 3],
            texcoords: [0, 2, 3]
        }
    );
    assert_eq!(m.frames.len(), 2);
    let Frame::Single(f0) = &m.frames[0] else {
        panic!("frame 0 is a single frame")
    };
    assert_eq!(f0.name.to_string_lossy(), "stand1");
    assert_eq!(
        f0.vertices[1],
        TriVertex {
            position: [10, 0, 0],
            normal_index: 1
        }
    );
    let Frame::Group { kind, group } = &m.frames[1] else {
        panic!("frame 1 is a group")
    };
    assert_eq!(*kind, 1);
    assert_eq!(group.intervals, [0.1, 0.2]);
    assert_eq!(group.frames[1].name.to_string_lossy(), "flick2");
    assert_eq!(group.frames[1].vertices[0].position, [1, 0, 0]);
    assert_eq!(group.bbox_max.position, [11, 10, 10]);
    assert!(m.trailing.is_empty());
    assert_eq!(m.validate(), vec![], "a valid model");
    assert_eq!(m.to_bytes().unwrap(), bytes);
    let info = m.info(&bytes);
    assert_eq!((info.onseam, info.back_triangles), (1, 1));
    assert_eq!(info.groups.len(), 1);
    assert_eq!(info.groups[0].frames, 2);
    let anims: Vec<(&str, usize, usize)> = info
        .animations
        .iter()
        .map(|a| (a.name.as_str(), a.first_frame, a.frame_count))
        .collect();
    assert_eq!(anims, [("stand", 0, 1), ("flick", 1, 1)]);
}

#[test]
fn trailing_bytes_are_kept() {
    let mut bytes = tetra_quake();
    bytes.extend_from_slice(b"junk!");
    let m = Mdl::from_bytes(&bytes).unwrap();
    assert_eq!(m.trailing, b"junk!");
    assert_eq!(m.to_bytes().unwrap(), bytes);
}

#[test]
fn skin_groups_read_with_intervals() {
    let mut b = MdlHeader::quake(2, 4, 2, 3, 1, 1).bytes();
    b.extend(skin_group(
        &[0.25, 0.5, 1.0],
        &[vec![1; 8], vec![2; 8], vec![3; 8]],
    ));
    b.extend(single_skin(&[9; 8]));
    for (s, t) in [(0, 0), (3, 0), (0, 1)] {
        b.extend(stvert(0, s, t));
    }
    b.extend(triangle(1, [0, 1, 2]));
    b.extend(single_frame(&simple_frame(
        [0, 0, 0, 0],
        [5, 5, 0, 0],
        Some(b"a1\0stale"),
        &[[0, 0, 0, 5], [5, 0, 0, 5], [0, 5, 0, 5]],
    )));
    let m = Mdl::from_bytes(&b).unwrap();
    let Skin::Group {
        kind,
        intervals,
        images,
    } = &m.skins[0]
    else {
        panic!("skin 0 is a group")
    };
    assert_eq!((*kind, intervals.as_slice()), (1, &[0.25f32, 0.5, 1.0][..]));
    assert_eq!(images[2], vec![3; 8]);
    assert_eq!(m.skins[1], Skin::Single(vec![9; 8]));
    // Stale bytes after the name's NUL are kept.
    let Frame::Single(f) = &m.frames[0] else {
        panic!()
    };
    assert_eq!(&f.name.0[..8], b"a1\0stale");
    assert_eq!(m.to_bytes().unwrap(), b);
    assert_eq!(m.info(&b).skins[0].images, 3);
    assert!(m.validate().is_empty(), "{:?}", m.validate());
}

#[test]
fn hexen2_reads_separate_texcoords() {
    // 3 vertices, 4 texture coordinates, 16-bit triangle indices.
    let mut b = MdlHeader::hexen2(1, 4, 4, 3, 2, 1, 4).bytes();
    b.extend(single_skin(&[7; 16]));
    for (s, t) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        b.extend(stvert(0, s, t));
    }
    b.extend(hexen2_triangle(1, [0, 1, 2], [0, 1, 2]));
    b.extend(hexen2_triangle(1, [2, 1, 0], [3, 1, 0]));
    b.extend(single_frame(&simple_frame(
        [0, 0, 0, 0],
        [2, 2, 0, 0],
        Some(b"h2"),
        &[[0, 0, 0, 0], [2, 0, 0, 0], [0, 2, 0, 0]],
    )));
    let m = Mdl::from_bytes(&b).unwrap();
    assert_eq!(m.variant, Variant::Hexen2);
    assert_eq!((m.texcoords.len(), m.vertex_count()), (4, 3));
    assert_eq!(m.triangles[1].vertices, [2, 1, 0]);
    assert_eq!(m.triangles[1].texcoords, [3, 1, 0]);
    assert_eq!(m.to_bytes().unwrap(), b);
    assert!(m.validate().is_empty(), "{:?}", m.validate());
    // A texture coordinate index past the 4 there are: an error at the
    // index's own bytes (header 88, skin 4 + 16, texcoords 48, triangle 1
    // at +16, its texcoords[0] at +10).
    let mut bad = b.clone();
    let at = 88 + 20 + 48 + 16 + 10;
    bad[at..at + 2].copy_from_slice(&9u16.to_le_bytes());
    let p = Mdl::from_bytes(&bad).unwrap().validate();
    assert_eq!(p[0].path, "triangles[1].texcoords[0]");
    assert_eq!(p[0].severity, Severity::Error);
    assert_eq!(p[0].offset, Some(at as u64));
}

#[test]
fn quakeforge16_reads_low_bytes() {
    let mut h = MdlHeader::quake(1, 4, 1, 3, 1, 1);
    h.magic = *b"MD16";
    let mut b = h.bytes();
    b.extend(single_skin(&[0; 4]));
    for s in 0..3 {
        b.extend(stvert(0, s, 0));
    }
    b.extend(triangle(1, [0, 1, 2]));
    let mut frame = simple_frame(
        [0, 0, 0, 0],
        [1, 1, 0, 0],
        Some(b"f"),
        &[[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]],
    );
    for low in [[128, 0, 0, 0], [0, 64, 0, 0], [255, 255, 255, 0]] {
        frame.extend_from_slice(&low);
    }
    b.extend(single_frame(&frame));
    let m = Mdl::from_bytes(&b).unwrap();
    assert_eq!(m.variant, Variant::QuakeForge16);
    let f = m.simple_frames().next().unwrap();
    assert_eq!(f.vertices_low[0].position, [128, 0, 0]);
    assert_eq!(f.vertices_low[2].position, [255, 255, 255]);
    assert_eq!(m.to_bytes().unwrap(), b);
}

#[test]
fn qtest_reads_short_header_and_nameless_frames() {
    let mut h = MdlHeader::quake(1, 4, 1, 3, 1, 1);
    h.version = 3;
    h.flags = None;
    h.size = None;
    let mut b = h.bytes();
    assert_eq!(b.len(), 76);
    b.extend(single_skin(&[0; 4]));
    for s in 0..3 {
        b.extend(stvert(0, s, 0));
    }
    b.extend(triangle(1, [0, 1, 2]));
    b.extend(single_frame(&simple_frame(
        [0, 0, 0, 0],
        [1, 1, 0, 0],
        None,
        &[[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]],
    )));
    let m = Mdl::from_bytes(&b).unwrap();
    assert_eq!(m.variant, Variant::QTest);
    assert_eq!(m.flags, 0);
    assert_eq!(
        m.simple_frames().next().unwrap().vertices[1].position,
        [1, 0, 0]
    );
    assert_eq!(m.to_bytes().unwrap(), b);
}

#[test]
fn every_flag_is_named() {
    let expected = [
        (1, "rocket"),
        (2, "grenade"),
        (4, "gib"),
        (8, "rotate"),
        (16, "tracer"),
        (32, "zomgib"),
        (64, "tracer2"),
        (128, "tracer3"),
        (1 << 14, "holey"),
    ];
    let bytes = tetra_quake();
    for (bit, name) in expected {
        let mut b = bytes.clone();
        b[76..80].copy_from_slice(&i32::to_le_bytes(bit));
        let m = Mdl::from_bytes(&b).unwrap();
        assert_eq!(m.flags, bit);
        let info = m.info(&b);
        assert_eq!(info.flag_names, [name]);
        assert_eq!(info.unknown_flags, 0);
    }
    let mut b = bytes.clone();
    b[76..80].copy_from_slice(&(1i32 | 1 << 20).to_le_bytes());
    let info = Mdl::from_bytes(&b).unwrap().info(&b);
    assert_eq!(info.flag_names, ["rocket"]);
    assert_eq!(info.unknown_flags, 1 << 20);
    assert!(info.to_string().contains("rocket, unknown bits 0x100000"));
}

/// Byte offsets of the tetra's header fields (`modelgen.h` order).
const NUM_SKINS: usize = 48;
const SKIN_WIDTH: usize = 52;
const NUM_VERTS: usize = 60;
const NUM_TRIS: usize = 64;
const NUM_FRAMES: usize = 68;

fn with_i32(at: usize, v: i32) -> Vec<u8> {
    let mut b = tetra_quake();
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    b
}

#[test]
fn hostile_counts_are_errors_not_allocations() {
    for (at, field) in [
        (NUM_SKINS, "header.num_skins"),
        (SKIN_WIDTH, "header.skin_width"),
        (NUM_VERTS, "header.num_vertices"),
        (NUM_TRIS, "header.num_triangles"),
        (NUM_FRAMES, "header.num_frames"),
    ] {
        let err = Mdl::from_bytes(&with_i32(at, -1)).unwrap_err();
        let Error::Invalid {
            context, offset, ..
        } = &err
        else {
            panic!("{field}: {err}")
        };
        assert_eq!((context.as_str(), *offset), (field, at as u64), "{err}");
        for huge in [i32::MAX, 1 << 24, 100_000] {
            let err = Mdl::from_bytes(&with_i32(at, huge)).unwrap_err();
            assert!(
                matches!(err, Error::Truncated { .. }),
                "{field}={huge}: {err}"
            );
        }
    }
    // A huge skin: width × height overflows nothing and allocates nothing.
    let mut b = with_i32(SKIN_WIDTH, i32::MAX);
    b[56..60].copy_from_slice(&i32::MAX.to_le_bytes());
    let err = Mdl::from_bytes(&b).unwrap_err();
    assert!(err.to_string().starts_with("skins[0].image"), "{err}");

    // The group's frame count (frame 1 at 232 + 4 + 8 + 16 + 16 = 276;
    // its count after the type word).
    let group = 232 + 4 + 8 + 16 + 16;
    for (v, what) in [(-5, "negative count -5"), (i32::MAX, "")] {
        let mut b = tetra_quake();
        b[group + 4..group + 8].copy_from_slice(&v.to_le_bytes());
        let err = Mdl::from_bytes(&b).unwrap_err();
        assert!(
            err.to_string().starts_with("frames[1].group.num_frames"),
            "{err}"
        );
        assert!(err.to_string().contains(what), "{err}");
        assert_eq!(
            err.offset(),
            Some(group as u64 + 4 + if v < 0 { 0 } else { 12 })
        );
    }
    // A skin group's count.
    let mut b = MdlHeader::quake(1, 4, 1, 0, 0, 0).bytes();
    b.extend_from_slice(&1i32.to_le_bytes());
    b.extend_from_slice(&(-3i32).to_le_bytes());
    let err = Mdl::from_bytes(&b).unwrap_err();
    assert_eq!(
        err.to_string(),
        "skins[0].group.num_skins: negative count -3 at offset 0x58"
    );
    // Hexen II's texture coordinate count.
    let mut b = MdlHeader::hexen2(0, 4, 4, 0, 0, 0, -2).bytes();
    b.extend_from_slice(&[0; 8]);
    let err = Mdl::from_bytes(&b).unwrap_err();
    assert_eq!(
        err.to_string(),
        "header.num_st_verts: negative count -2 at offset 0x54"
    );
}

#[test]
fn wrong_magic_and_version_are_named() {
    let mut b = tetra_quake();
    b[4..8].copy_from_slice(&7i32.to_le_bytes());
    let err = Mdl::from_bytes(&b).unwrap_err();
    assert!(
        matches!(err, Error::UnsupportedVersion { found: 7, .. }),
        "{err}"
    );
    b[..4].copy_from_slice(b"RAPO");
    assert!(Mdl::from_bytes(&b).is_err());
    let err = Mdl::from_bytes(b"IDP2\x08\0\0\0").unwrap_err();
    assert!(matches!(err, Error::BadMagic { .. }), "{err}");
    assert!(Mdl::from_bytes(b"").is_err());
    assert!(Mdl::from_bytes(b"ID").is_err());
}

#[test]
fn handmade_prefixes_error_cleanly() {
    let full = tetra_quake();
    for len in 0..full.len() {
        assert!(
            Mdl::from_bytes(&full[..len]).is_err(),
            "prefix {len} parsed"
        );
    }
}

#[test]
fn validate_names_paths_and_offsets() {
    // Layout of the tetra: header 84, skin 4 + 32 (texcoords at 120),
    // 4 × 12 (triangles at 168), 4 × 16 (frames at 232); frame 0's type
    // word at 232, box at 236, name at 244, vertices at 260.
    let problem = |b: &[u8]| {
        let p = Mdl::from_bytes(b).unwrap().validate();
        assert!(!p.is_empty(), "no problem found");
        p[0].clone()
    };
    // 2 × 16 keeps the skin's 32 bytes, so the rest of the file still
    // follows where it was.
    let mut b = with_i32(SKIN_WIDTH, 2);
    b[56..60].copy_from_slice(&16i32.to_le_bytes());
    let p = problem(&b);
    assert_eq!((p.path.as_str(), p.offset), ("header.skin_width", Some(52)));
    assert!(p.message.contains("multiple of 4"), "{p}");

    let mut b = tetra_quake();
    b[260 + 4 + 3] = 200;
    let p = problem(&b);
    assert_eq!(p.path, "frames[0].vertices[1].normal_index");
    assert_eq!(p.offset, Some(267));

    let mut b = tetra_quake();
    b[168 + 16 + 8..168 + 16 + 12].copy_from_slice(&9i32.to_le_bytes());
    let p = problem(&b);
    assert_eq!(p.path, "triangles[1].vertices[1]");
    assert_eq!((p.severity, p.offset), (Severity::Error, Some(192)));

    let mut b = tetra_quake();
    b[168 + 8..168 + 12].copy_from_slice(&0i32.to_le_bytes());
    let p = problem(&b);
    assert_eq!(p.path, "triangles[0]");
    assert!(p.message.starts_with("degenerate"), "{p}");

    let mut b = tetra_quake();
    b[240..243].copy_from_slice(&[9, 10, 10]); // frame 0's box max x 9 < 10
    let p = problem(&b);
    assert_eq!(
        (p.path.as_str(), p.offset),
        ("frames[0].bbox_min", Some(236))
    );

    // Frame 1 (the group) at 276: type, count, box, then intervals at
    // 292: [0.1, 0.2] → [0.2, 0.1], then [0, 0.1].
    let mut b = tetra_quake();
    b[292..296].copy_from_slice(&0.2f32.to_le_bytes());
    b[296..300].copy_from_slice(&0.1f32.to_le_bytes());
    let p = problem(&b);
    assert_eq!(p.path, "frames[1].group.intervals[1]");
    assert_eq!(p.offset, Some(296));
    b[292..296].copy_from_slice(&0.0f32.to_le_bytes());
    let p = problem(&b);
    assert_eq!(
        (p.path.as_str(), p.severity),
        ("frames[1].group.intervals[0]", Severity::Error)
    );
    let mut m = Mdl::from_bytes(&b).unwrap();
    let report = m.repair();
    // 0 → 0.1, then 0.1 no longer comes after it → 0.2.
    assert_eq!(report.fixed_intervals, 2);
    let Frame::Group { group, .. } = &m.frames[1] else {
        panic!()
    };
    assert_eq!(group.intervals, [0.1, 0.2]);
    assert!(m.validate().is_empty(), "{:?}", m.validate());

    // The radius at 32: smaller than the farthest vertex (10 units).
    let mut b = tetra_quake();
    b[32..36].copy_from_slice(&2.0f32.to_le_bytes());
    let p = problem(&b);
    assert_eq!(
        (p.path.as_str(), p.offset),
        ("header.bounding_radius", Some(32))
    );
    let mut m = Mdl::from_bytes(&b).unwrap();
    assert_eq!(m.repair().fixed_radius, Some((2.0, 11.0)));

    // The onseam vertex (texcoord 2, at 120 + 24) moved onto the back half.
    let mut b = tetra_quake();
    b[148..152].copy_from_slice(&5i32.to_le_bytes());
    let p = problem(&b);
    assert_eq!((p.path.as_str(), p.offset), ("texcoords[2].s", Some(148)));

    // No skin, no frames: errors.
    let mut b = MdlHeader::quake(0, 4, 4, 0, 0, 0).bytes();
    b.truncate(84);
    let problems = Mdl::from_bytes(&b).unwrap().validate();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    for path in [
        "header.num_skins",
        "header.num_vertices",
        "header.num_frames",
    ] {
        assert!(paths.contains(&path), "{paths:?}");
    }
}

#[test]
fn repair_drops_bad_triangles_and_fixes_normals() {
    let mut b = tetra_quake();
    b[168 + 4..168 + 8].copy_from_slice(&(-1i32).to_le_bytes());
    b[260 + 3] = 170;
    let mut m = Mdl::from_bytes(&b).unwrap();
    let r = m.repair();
    assert_eq!((r.dropped_triangles, r.fixed_normals), (1, 1));
    assert_eq!(m.triangles.len(), 3);
    assert_eq!(m.num_triangles, 3);
    assert!(m.validate().is_empty(), "{:?}", m.validate());
    let again = Mdl::from_bytes(&m.to_bytes().unwrap()).unwrap();
    assert_eq!(again, m);
}

#[test]
fn a_model_built_in_memory_validates_without_stored_counts() {
    // Read, then forget what the header stored: the writer stores the
    // data's counts and the variant's version, so nothing is faulted.
    let mut m = Mdl::from_bytes(&tetra_quake()).unwrap();
    (m.version, m.num_vertices, m.num_triangles, m.num_frames) = (0, 0, 0, 0);
    assert!(m.validate().is_empty(), "{:?}", m.validate());
    assert_eq!(m.to_bytes().unwrap(), tetra_quake());
    // A stored count that is set but wrong is a warning.
    (m.num_vertices, m.num_triangles, m.num_frames) = (4, 4, 5);
    let p = m.validate();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].path, "header.num_frames");
    assert_eq!(p[0].offset, Some(68));
}
