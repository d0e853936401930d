//! `validate --engine` for the MD3 loaders added after ioquake3, Ironwail,
//! vkQuake and ET: Legacy (those are in `md3_read.rs`): Return to Castle
//! Wolfenstein's single player and multiplayer (iortcw's `R_LoadMD3`) and
//! FTE (`Mod_LoadQ3ModelLod`), each at every limit and one past, on
//! hand-made files (the test kit's `md3_bytes`, written from `qfiles.h`,
//! not by the library). The numbers asserted are the engines' own,
//! restated here from their sources: iortcw `SP/code/qcommon/qfiles.h`
//! `SHADER_MAX_VERTEXES 4000`, `MP/code/qcommon/qfiles.h` 1000, and the
//! `>=` comparisons of `R_LoadMD3`.

use retromodel::md3::{Layout, Md3};
use retromodel::{Engine, EngineFormat, Severity};
use retromodel_testkit::md3_bytes::{md3_bytes, Md3Spec, SurfaceSpec};

fn spec(frames: usize, surfaces: Vec<SurfaceSpec>) -> Md3Spec {
    Md3Spec {
        frames,
        tags: 0,
        surfaces,
    }
}

fn one(frames: usize, verts: usize, triangles: usize) -> Md3Spec {
    spec(frames, vec![SurfaceSpec::new(frames, verts, triangles)])
}

fn read(spec: &Md3Spec) -> Md3 {
    let b = md3_bytes(spec);
    let m = Md3::from_bytes(&b).unwrap();
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), b);
    m
}

fn set_i32(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// `engine`'s problems with `m`: severity and path of each.
fn paths(m: &Md3, engine: Engine) -> Vec<String> {
    m.validate_for(engine)
        .into_iter()
        .map(|p| format!("{:?} {}", p.severity, p.path))
        .collect()
}

/// `iortcw`'s `R_LoadMD3`: `numVerts >= SHADER_MAX_VERTEXES` and
/// `numTriangles * 3 >= 6 * SHADER_MAX_VERTEXES` refuse the model.
fn rtcw_limits(engine: Engine, shader_max_vertexes: usize) {
    let verts = shader_max_vertexes - 1;
    let tris = 6 * shader_max_vertexes / 3 - 1;
    assert!(
        paths(&read(&one(1, verts, tris)), engine).is_empty(),
        "{engine}: {verts} vertices and {tris} triangles load"
    );
    let m = read(&one(1, verts + 1, tris));
    assert_eq!(paths(&m, engine), ["Error surfaces[0].num_verts"]);
    let p = &m.validate_for(engine)[0];
    assert!(
        p.message.contains(&format!("{} vertices", verts + 1))
            && p.message.contains(&format!("{engine}'s {verts} by 1"))
            && p.message.contains("does not load the model"),
        "{}",
        p.message
    );
    let m = read(&one(1, verts, tris + 1));
    assert_eq!(paths(&m, engine), ["Error surfaces[0].num_triangles"]);
    // A second surface past the limit is named on its own.
    let m = read(&spec(
        1,
        vec![SurfaceSpec::new(1, 3, 1), SurfaceSpec::new(1, verts + 1, 1)],
    ));
    assert_eq!(paths(&m, engine), ["Error surfaces[1].num_verts"]);
    // No frames: refused; one frame: loaded.
    assert_eq!(
        paths(&read(&one(0, 3, 1)), engine),
        ["Error header.num_frames"]
    );
    assert!(paths(&read(&one(1, 3, 1)), engine).is_empty());
    // No count limit on frames, surfaces or tags (past the format's own,
    // which `validate` warns of, not `validate --engine`).
    assert!(paths(&read(&one(1025, 3, 1)), engine).is_empty());
    let m = read(&spec(1, vec![SurfaceSpec::new(1, 3, 1); 33]));
    assert!(paths(&m, engine).is_empty());
    let m = read(&Md3Spec {
        frames: 1,
        tags: 17,
        surfaces: vec![SurfaceSpec::new(1, 3, 1)],
    });
    assert!(paths(&m, engine).is_empty());
    // It copies ofs_end bytes, as ioquake3 does.
    let mut b = md3_bytes(&one(1, 3, 1));
    let len = b.len() as i32;
    set_i32(&mut b, 104, len - 1);
    let m = Md3::from_bytes(&b).unwrap();
    assert_eq!(paths(&m, engine), ["Error header.ofs_end"]);
}

#[test]
fn rtcw_single_player_refuses_4000_vertices_8000_triangles_and_no_frames() {
    rtcw_limits(Engine::Rtcw, 4000);
    // ioquake3 refuses what RTCW's single player takes.
    let m = read(&one(1, 3999, 7999));
    assert_eq!(m.validate_for(Engine::Ioquake3).len(), 2);
    assert_eq!(m.validate_for(Engine::RtcwMp).len(), 2);
}

#[test]
fn rtcw_multiplayer_refuses_1000_vertices_2000_triangles_and_no_frames() {
    rtcw_limits(Engine::RtcwMp, 1000);
}

#[test]
fn rtcw_names_and_formats() {
    for (name, engine) in [
        ("rtcw", Engine::Rtcw),
        ("iortcw", Engine::Rtcw),
        ("wolfsp", Engine::Rtcw),
        ("rtcw-mp", Engine::RtcwMp),
        ("iortcw-mp", Engine::RtcwMp),
        ("WolfMP", Engine::RtcwMp),
    ] {
        assert_eq!(Engine::from_name(name), Some(engine), "{name}");
        assert!(engine.loads(EngineFormat::Md3));
        assert!(!engine.loads(EngineFormat::Md2));
        assert!(engine.md3_limits().is_some());
    }
    assert_eq!(Engine::Rtcw.title(), "Return to Castle Wolfenstein");
}

#[test]
fn fte_refuses_nothing_past_every_other_engines_limit() {
    let e = Engine::Fte;
    assert!(e.md3_limits().is_some(), "FTE is profiled");
    // Past ioquake3's, ET: Legacy's and RTCW's per-surface limits, past
    // Ironwail's 1024 frames, vkQuake's 2048 and 32 surfaces, past the
    // format's 16 tags: FTE checks none of them.
    for (label, m) in [
        ("10001 vertices, 20001 triangles", one(1, 10_001, 20_001)),
        ("2049 frames", one(2049, 3, 1)),
        ("33 surfaces", spec(1, vec![SurfaceSpec::new(1, 3, 1); 33])),
        ("no surface", spec(1, vec![])),
        ("no frame", one(0, 3, 1)),
        (
            "17 tags",
            Md3Spec {
                frames: 1,
                tags: 17,
                surfaces: vec![SurfaceSpec::new(1, 3, 1)],
            },
        ),
    ] {
        let m = read(&m);
        assert!(paths(&m, e).is_empty(), "{label}: {:?}", paths(&m, e));
    }
    // It does not copy ofs_end bytes: a short ofs_end is nothing to it.
    let mut b = md3_bytes(&one(1, 3, 1));
    let len = b.len() as i32;
    set_i32(&mut b, 104, len - 1);
    assert!(paths(&Md3::from_bytes(&b).unwrap(), e).is_empty());
}

#[test]
fn fte_warns_of_a_bad_index_and_a_bad_surface_ident() {
    let e = Engine::Fte;
    let good = md3_bytes(&one(1, 3, 2));
    let s0 = i32_at(&good, 100) as usize;
    let tri = s0 + i32_at(&good, s0 + 88) as usize;
    // Triangle 1's second index at the vertex count (one past the last
    // vertex): a warning at that triangle; at the last vertex: nothing.
    for (index, warned) in [(2, false), (3, true), (-1, true), (65_536 + 2, false)] {
        let mut b = good.clone();
        set_i32(&mut b, tri + 12 + 4, index);
        let m = Md3::from_bytes(&b).unwrap();
        let p = m.validate_for(e);
        if warned {
            assert_eq!(p.len(), 1, "{index}: {p:?}");
            assert_eq!(p[0].severity, Severity::Warning);
            assert_eq!(p[0].path, "surfaces[0].triangles[1]");
            assert_eq!(p[0].offset, Some((tri + 12) as u64));
            assert!(p[0].message.contains("not drawn"), "{}", p[0].message);
        } else {
            // 65538's low 16 bits are 2: FTE's 16-bit index passes its
            // check (validate itself still says it is out of range).
            assert!(p.is_empty(), "{index}: {p:?}");
        }
    }
    let mut b = good.clone();
    b[s0..s0 + 4].copy_from_slice(b"IDP2");
    let m = Md3::from_bytes(&b).unwrap();
    let p = m.validate_for(e);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        (p[0].severity, p[0].path.as_str(), p[0].offset),
        (Severity::Warning, "surfaces[0].ident", Some(s0 as u64))
    );
    // vkQuake stops on it.
    assert_eq!(m.validate_for(Engine::Vkquake)[0].severity, Severity::Error);
}
