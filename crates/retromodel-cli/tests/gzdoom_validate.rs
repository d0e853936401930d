//! `retromodel validate --engine gzdoom`: each rule of GZDoom's loaders
//! (`src/common/models/models_md2.cpp`, `models_md3.cpp`,
//! `models_obj.cpp`, as the research notes quote them) at its limit and
//! one past. The files are the sample model's bytes, edited here at the
//! offsets the MD2 header names; what GZDoom refuses must fail
//! validation (exit 1), what it reads unchecked must pass with a warning.

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::run_os;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn le(b: &[u8], at: usize) -> usize {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

fn put(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Validates `bytes` as `name` for GZDoom: (exit code, stdout).
fn check(dir: &Path, name: &str, bytes: &[u8]) -> (i32, String) {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    let o = run(&["validate", "--engine", "gzdoom", p.to_str().unwrap()]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn sample_md2() -> Vec<u8> {
    retromodel::md2::sample::sample_model().to_bytes().unwrap()
}

#[test]
fn md2_refused_when_too_short_for_its_frames() {
    let d = tempfile::tempdir().unwrap();
    let b = sample_md2();
    // Header: frame_size at 16, num_frames at 40, ofs_frames at 56.
    let end = le(&b, 56) + le(&b, 16) * le(&b, 40);
    // At the limit: the file ends where the last frame does (the GL
    // commands after it, which GZDoom does not read, cut off).
    let (code, out) = check(d.path(), "limit.md2", &b[..end]);
    assert_eq!(code, 0, "{out}");
    // One byte short: refused.
    let (code, out) = check(d.path(), "short.md2", &b[..end - 1]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("file too short"), "{out}");
}

#[test]
fn md2_refused_without_gl_commands() {
    let d = tempfile::tempdir().unwrap();
    let mut b = sample_md2();
    put(&mut b, 36, 1); // num_glcmds: at the limit
    assert_eq!(check(d.path(), "one.md2", &b).0, 0);
    put(&mut b, 36, 0);
    let (code, out) = check(d.path(), "none.md2", &b);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NumGLCommands"), "{out}");
}

#[test]
fn md2_unchecked_reads_are_warnings() {
    let d = tempfile::tempdir().unwrap();
    let b = sample_md2();
    let (verts, ofs_tris, ofs_frames) = (le(&b, 24), le(&b, 52), le(&b, 56));
    // Triangle 0's first vertex index: the last vertex, then one past.
    let mut t = b.clone();
    t[ofs_tris..ofs_tris + 2].copy_from_slice(&((verts - 1) as u16).to_le_bytes());
    let (code, out) = check(d.path(), "tri_ok.md2", &t);
    assert_eq!((code, out.contains("warning")), (0, false), "{out}");
    t[ofs_tris..ofs_tris + 2].copy_from_slice(&(verts as u16).to_le_bytes());
    let (code, out) = check(d.path(), "tri_bad.md2", &t);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("triangles[0].vertices") && out.contains("warning"),
        "{out}"
    );
    // Frame 0's vertex 0 normal (byte 3 of the vertex after the 40-byte
    // frame header): 161, the last of 162, then 162.
    let mut n = b.clone();
    n[ofs_frames + 43] = 161;
    assert!(!check(d.path(), "n_ok.md2", &n).1.contains("normal"));
    n[ofs_frames + 43] = 162;
    let (code, out) = check(d.path(), "n_bad.md2", &n);
    assert_eq!(code, 0);
    assert!(out.contains("frames[0].vertices[0].normal"), "{out}");
    // Frame 0's name (16 bytes at 24): 15 characters and a NUL, then 16.
    let mut f = b.clone();
    f[ofs_frames + 24..ofs_frames + 40].copy_from_slice(b"abcdefghijklmno\0");
    assert!(!check(d.path(), "name_ok.md2", &f)
        .1
        .contains("frames[0].name"));
    f[ofs_frames + 24..ofs_frames + 40].copy_from_slice(b"abcdefghijklmnop");
    let (code, out) = check(d.path(), "name_bad.md2", &f);
    assert_eq!(code, 0);
    assert!(out.contains("frames[0].name"), "{out}");
}

/// The sample converted to MD3 by the command line.
fn sample_md3(dir: &Path) -> retromodel::md3::Md3 {
    let out = dir.join("sample.md3");
    let o = run(&[
        "convert",
        retromodel_testkit::cli::sample().to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    retromodel::md3::Md3::from_bytes(&std::fs::read(&out).unwrap()).unwrap()
}

fn md3_bytes(m: &retromodel::md3::Md3) -> Vec<u8> {
    m.to_bytes_with(retromodel::md3::Layout::Standard).unwrap()
}

#[test]
fn md3_is_never_refused_but_warned_about() {
    let d = tempfile::tempdir().unwrap();
    let mut m = sample_md3(d.path());
    // 32 surfaces (MD3_MAX_SURFACES): no warning; 33: one.
    let one = m.surfaces[0].clone();
    m.surfaces.truncate(1);
    while m.surfaces.len() < 32 {
        m.surfaces.push(one.clone());
    }
    let (code, out) = check(d.path(), "s32.md3", &md3_bytes(&m));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("num_surfaces"), "{out}");
    m.surfaces.push(one);
    let (code, out) = check(d.path(), "s33.md3", &md3_bytes(&m));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("num_surfaces") && out.contains("33 surfaces"),
        "{out}"
    );
    m.surfaces.truncate(1);
    // Frame names: 14 characters kept; 15 warned about.
    m.frames[0].name = retromodel::md3::FrameName::new("abcdefghijklmn");
    assert!(!check(d.path(), "f14.md3", &md3_bytes(&m))
        .1
        .contains("frames[0].name"));
    m.frames[0].name = retromodel::md3::FrameName::new("abcdefghijklmno");
    let (code, out) = check(d.path(), "f15.md3", &md3_bytes(&m));
    assert_eq!(code, 0);
    assert!(out.contains("frames[0].name"), "{out}");
    // A triangle index: the last vertex, then one past.
    let verts = m.surfaces[0].texcoords.len() as i32;
    m.surfaces[0].triangles[0][0] = verts - 1;
    assert!(!check(d.path(), "t_ok.md3", &md3_bytes(&m))
        .1
        .contains("triangles[0]"));
    m.surfaces[0].triangles[0][0] = verts;
    let (code, out) = check(d.path(), "t_bad.md3", &md3_bytes(&m));
    assert_eq!(code, 0);
    assert!(out.contains("surfaces[0].triangles[0]"), "{out}");
}

const QUAD: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 2 0\n";

#[test]
fn obj_faces_over_four_vertices_and_bad_indices() {
    let d = tempfile::tempdir().unwrap();
    // Four vertices: kept (GZDoom splits a quad); five: cut.
    let (code, out) = check(d.path(), "q.obj", format!("{QUAD}f 1 2 3 4\n").as_bytes());
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("warning"), "{out}");
    let (code, out) = check(d.path(), "p.obj", format!("{QUAD}f 1 2 3 4 5\n").as_bytes());
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("line 6") && out.contains("5 vertices"),
        "{out}"
    );
    // Index 5 of 5 vertices is the last; 6 is past them; 0 is none.
    let (_, out) = check(d.path(), "i5.obj", format!("{QUAD}f 1 2 5\n").as_bytes());
    assert!(!out.contains("warning"), "{out}");
    let (code, out) = check(d.path(), "i6.obj", format!("{QUAD}f 1 2 6\n").as_bytes());
    assert_eq!(code, 0);
    assert!(out.contains("vertex 6"), "{out}");
    assert!(
        check(d.path(), "i0.obj", format!("{QUAD}f 0 1 2\n").as_bytes())
            .1
            .contains("vertex 0")
    );
    // A corner without its vertex index: a fatal script error in GZDoom.
    let (code, out) = check(
        d.path(),
        "e.obj",
        format!("{QUAD}vt 0 0\nf /1 2 3\n").as_bytes(),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not optional"), "{out}");
}
