//! Each engine profile (`Md2::validate_bytes_for`) against what that
//! engine's MD2 loader does with hand-made damaged files. The expected
//! outcomes are typed here from the loaders' source, not from the library:
//! - id's Quake II (`ref_gl/gl_model.c`, `Mod_LoadAliasModel`) and Yamagi
//!   Quake II (`src/client/refresh/files/models.c`, `Mod_LoadMD2`) copy all
//!   five sections, GL commands included, without checking them against
//!   the file's length; yquake2 refuses `ofs_end` past the file's length.
//! - Q2PRO (`src/refresh/models.c`, `MOD_ValidateMD2` / `MOD_LoadMD2`)
//!   never reads the GL commands nor `ofs_end`, refuses the other sections
//!   past the file ("Bad frames offset"), and odd offsets ("Odd tris
//!   offset"), and a skin size below 1.
//! - KMQuake2 (`renderer/r_model_md2.c`) never reads the GL commands nor
//!   `ofs_end`.
//! - UFO:AI (`src/client/renderer/r_model_md2.cpp`) never reads the GL
//!   commands, refuses an `ofs_end` other than the file's length and a skin
//!   size below 1.

use retromodel::md2::{Engine, Md2};
use retromodel::{Problem, Severity};
use retromodel_testkit::md2_builder::{frame_record, name16, Field, Md2Builder, Sec};

/// A small valid model: 4 vertices, 2 triangles, 2 frames, one skin of
/// 64×64, a GL command list of one fan; sections in the standard order
/// with GL commands last, `gaps[i]` bytes before the i-th.
fn builder(gaps: &[usize]) -> Md2Builder {
    let verts = [[0, 0, 0, 1], [9, 9, 9, 2], [255, 0, 3, 3], [1, 2, 3, 4]];
    let frames = [
        frame_record([1.0; 3], [0.0; 3], name16(b"a1"), &verts, &[]),
        frame_record([0.5; 3], [1.0; 3], name16(b"a2"), &verts, &[]),
    ];
    let f = |x: f32| x.to_bits();
    let mut b = Md2Builder::new();
    b.vertices(4)
        .skins(&[b"one.pcx"])
        .texcoords(&[(0, 0), (32, 0), (32, 32), (0, 32)])
        .triangles(&[([0, 1, 2], [0, 1, 2]), ([0, 2, 3], [0, 2, 3])])
        .frames(&frames)
        .gl_commands(&[
            (-4i32) as u32,
            f(0.0),
            f(0.0),
            0,
            f(0.5),
            f(0.0),
            1,
            f(0.5),
            f(0.5),
            2,
            f(0.0),
            f(0.5),
            3,
            0,
        ])
        .layout(&Sec::STANDARD, gaps);
    b
}

fn check(bytes: &[u8], engine: Engine) -> Vec<Problem> {
    Md2::validate_bytes_for(bytes, engine).unwrap_or_else(|e| panic!("{engine}: {e}"))
}

fn errors(problems: &[Problem]) -> Vec<&Problem> {
    problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .collect()
}

#[test]
fn the_base_model_loads_everywhere() {
    let bytes = builder(&[]).build();
    for e in Engine::MD2 {
        let p = check(&bytes, e);
        assert!(p.is_empty(), "{e}: {p:?}");
    }
}

/// The case: GL commands running past the end of the file (the
/// last 3 words cut; `ofs_end` the file's length, as UFO:AI wants).
#[test]
fn gl_commands_past_the_end_only_fail_the_engines_that_read_them() {
    let mut b = builder(&[]);
    let full = b.get(Field::OfsEnd) as usize;
    let len = full - 12;
    b.len = Some(len);
    b.set(Field::OfsEnd, len as i32);
    let bytes = b.build();
    assert_eq!(bytes.len(), len);
    // The reader alone refuses it.
    assert!(Md2::from_bytes(&bytes).is_err());
    for e in [Engine::Quake2, Engine::Yquake2] {
        let p = check(&bytes, e);
        let errs = errors(&p);
        assert_eq!(errs.len(), 1, "{e}: {p:?}");
        assert_eq!(errs[0].path, "header.ofs_gl_commands");
        assert!(
            errs[0].message.contains("past the end"),
            "{}",
            errs[0].message
        );
        // The offset of the field ofs_gl_commands: 8 + 4 × 13.
        assert_eq!(errs[0].offset, Some(60));
    }
    for e in [Engine::Q2pro, Engine::Kmquake2, Engine::UfoAi] {
        let p = check(&bytes, e);
        assert_eq!(p.len(), 1, "{e}: {p:?}");
        assert_eq!(p[0].severity, Severity::Warning, "{e}: {p:?}");
        assert_eq!(p[0].path, "header.ofs_gl_commands");
        // It names the engines that would fail, and only those.
        assert!(
            p[0].message
                .contains("Quake II and Yamagi Quake II would fail"),
            "{}",
            p[0].message
        );
        for ok in ["Q2PRO", "KMQuake2", "UFO:AI"] {
            if ok != e.title() {
                assert!(!p[0].message.contains(ok), "{}", p[0].message);
            }
        }
    }
}

/// Frames past the end: every loader reads them; Q2PRO says so.
#[test]
fn frames_past_the_end_fail_everywhere() {
    let mut b = builder(&[]);
    b.set(Field::NumFrames, 50);
    let bytes = b.build();
    for e in Engine::MD2 {
        let p = check(&bytes, e);
        let errs = errors(&p);
        assert!(
            errs.iter().any(|p| p.path == "header.ofs_frames"),
            "{e}: {p:?}"
        );
    }
    let p = check(&bytes, Engine::Q2pro);
    assert!(
        p.iter().any(|p| p.message.contains("Bad frames offset")),
        "{p:?}"
    );
}

/// `ofs_end` past the end of the file, every section inside it: only
/// yquake2 (which compares it with the length) and UFO:AI (which wants it
/// equal) refuse; id's engine allocates that much (within 2 MiB).
#[test]
fn ofs_end_past_the_end_fails_yquake2_and_ufoai_only() {
    let mut b = builder(&[]);
    let len = b.get(Field::OfsEnd);
    b.set(Field::OfsEnd, len + 100);
    let bytes = b.build();
    assert_eq!(bytes.len(), len as usize);
    for e in [Engine::Yquake2, Engine::UfoAi] {
        let p = check(&bytes, e);
        let errs = errors(&p);
        assert_eq!(errs.len(), 1, "{e}: {p:?}");
        assert_eq!(errs[0].path, "header.ofs_end");
    }
    for e in [Engine::Quake2, Engine::Q2pro, Engine::Kmquake2] {
        let p = check(&bytes, e);
        assert_eq!(p.len(), 1, "{e}: {p:?}");
        assert_eq!(p[0].severity, Severity::Warning);
        assert!(
            p[0].message
                .contains("Yamagi Quake II and UFO:AI would refuse it"),
            "{}",
            p[0].message
        );
    }
}

/// Bytes after `ofs_end`: UFO:AI alone refuses (`bufSize != ofs_end`).
#[test]
fn bytes_after_ofs_end_fail_ufoai_only() {
    let mut b = builder(&[]);
    let end = b.get(Field::OfsEnd) as usize;
    b.bytes_at(end, b"tail");
    let bytes = b.build();
    let p = check(&bytes, Engine::UfoAi);
    assert!(
        errors(&p).iter().any(|p| p.path == "header.ofs_end"),
        "{p:?}"
    );
    for e in [
        Engine::Quake2,
        Engine::Yquake2,
        Engine::Q2pro,
        Engine::Kmquake2,
    ] {
        assert!(errors(&check(&bytes, e)).is_empty(), "{e}");
    }
}

/// Triangles at an odd offset: Q2PRO alone refuses ("Odd tris offset").
#[test]
fn an_odd_triangle_offset_fails_q2pro_only() {
    // Triangles at 68 + 64 + 16 + 1 = 149; frames kept at a multiple of 4.
    let bytes = builder(&[0, 0, 1, 3]).build();
    let p = check(&bytes, Engine::Q2pro);
    let errs = errors(&p);
    assert_eq!(errs.len(), 1, "{p:?}");
    assert_eq!(errs[0].path, "header.ofs_triangles");
    assert!(errs[0].message.contains("Odd tris offset"));
    for e in [
        Engine::Quake2,
        Engine::Yquake2,
        Engine::Kmquake2,
        Engine::UfoAi,
    ] {
        assert!(errors(&check(&bytes, e)).is_empty(), "{e}");
    }
}

/// A skin width of 0: Q2PRO ("Bad skin width") and UFO:AI ("invalid skin
/// dimensions") refuse; the others load it (and divide by it).
#[test]
fn a_zero_skin_width_fails_q2pro_and_ufoai() {
    let mut b = builder(&[]);
    b.set(Field::SkinWidth, 0);
    let bytes = b.build();
    for e in [Engine::Q2pro, Engine::UfoAi] {
        let p = check(&bytes, e);
        assert!(
            errors(&p).iter().any(|p| p.path == "header.skin_width"),
            "{e}: {p:?}"
        );
    }
    for e in [Engine::Quake2, Engine::Yquake2, Engine::Kmquake2] {
        assert!(errors(&check(&bytes, e)).is_empty(), "{e}");
    }
}

/// Every header field set to values around the edges (negative, zero, the
/// header's end, the file's end, the extremes): no profile panics, and a
/// file the reader takes every profile can check.
#[test]
fn hostile_header_fields_never_crash_a_profile() {
    let base = builder(&[]).build();
    let len = base.len() as i64;
    let values = [
        i64::from(i32::MIN),
        -1,
        0,
        1,
        3,
        67,
        68,
        len - 1,
        len,
        len + 1,
        i64::from(i32::MAX),
    ];
    for field in Field::ALL {
        for &v in &values {
            let mut b = base.clone();
            let at = field.offset();
            b[at..at + 4].copy_from_slice(&(v as i32).to_le_bytes());
            let read = Md2::from_bytes(&b);
            for e in Engine::MD2 {
                let judged = Md2::validate_bytes_for(&b, e);
                assert!(
                    read.is_err() || judged.is_ok(),
                    "{e}: {field:?} = {v}: {judged:?}"
                );
            }
        }
    }
}

/// Skin names at offset 0, over the header: the reader refuses the file,
/// but every loader reads the name where the header puts it ("IDP2", then
/// the version's NUL) and loads the model: a warning in every profile.
#[test]
fn sections_over_the_header_load_everywhere_with_a_warning() {
    let mut b = builder(&[]);
    b.set(Field::OfsSkins, 0);
    let bytes = b.build();
    assert!(Md2::from_bytes(&bytes).is_err());
    for e in Engine::MD2 {
        let p = check(&bytes, e);
        assert!(errors(&p).is_empty(), "{e}: {p:?}");
        assert!(
            p.iter().any(|p| p.path == "header.ofs_skins"
                && p.message.contains("overlap the 68-byte header")),
            "{e}: {p:?}"
        );
    }
}

/// Every triangle with an index out of range: Q2PRO skips them all and
/// refuses the model ("Too few valid indices"); the others load it.
#[test]
fn no_valid_triangle_fails_q2pro() {
    let mut b = builder(&[]);
    b.triangles(&[([0, 1, 9], [0, 1, 2]), ([0, 2, 3], [0, 2, 7])]);
    let bytes = b.build();
    let p = check(&bytes, Engine::Q2pro);
    assert!(
        errors(&p)
            .iter()
            .any(|p| p.message.contains("Too few valid indices")),
        "{p:?}"
    );
    for e in [
        Engine::Quake2,
        Engine::Yquake2,
        Engine::Kmquake2,
        Engine::UfoAi,
    ] {
        assert!(errors(&check(&bytes, e)).is_empty(), "{e}");
    }
}
