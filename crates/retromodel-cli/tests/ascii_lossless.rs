//! MS3D → MilkShape ASCII → MS3D through `convert`: 1.8 weights keep the
//! animated pose, names that are not UTF-8 keep their bytes, and what the
//! text cannot hold is a warning. Files are built byte by byte (testkit
//! `ms3d_builder`); poses come from the testkit's own MilkShape evaluator
//! and names from the file bytes (`ms3d_fields`), not from the library.

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::milkshape;
use retromodel_testkit::ms3d_builder::{field, full_spec, SModelComment, STri};
use retromodel_testkit::ms3d_fields::fields;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `input` → `.txt` → `.ms3d` with the CLI: the text's bytes, the binary's
/// bytes and the first conversion's stderr.
fn trip(dir: &Path, input: &[u8]) -> (Vec<u8>, Vec<u8>, String) {
    let (src, txt, back) = (
        dir.join("in.ms3d"),
        dir.join("mid.txt"),
        dir.join("back.ms3d"),
    );
    std::fs::write(&src, input).unwrap();
    let o = run(&["convert", src.to_str().unwrap(), txt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let warnings = stderr(&o);
    let o = run(&["convert", txt.to_str().unwrap(), back.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    (
        std::fs::read(&txt).unwrap(),
        std::fs::read(&back).unwrap(),
        warnings,
    )
}

/// The vertex of every triangle corner, in the groups' listing order (the
/// order the text writes them in, mesh by mesh).
fn corners(m: &milkshape::Milkshape) -> Vec<usize> {
    m.groups
        .iter()
        .flat_map(|g| &g.triangles)
        .flat_map(|&t| m.triangles[usize::from(t)])
        .map(usize::from)
        .collect()
}

/// The largest distance between the skinned triangle corners of two
/// models (corners in listing order) at `times` seconds, and the extent of
/// the first's bind pose.
fn pose_gap(a: &milkshape::Milkshape, b: &milkshape::Milkshape, times: &[f32]) -> (f32, f32) {
    let (ca, cb) = (corners(a), corners(b));
    assert_eq!(ca.len(), cb.len());
    let bind = a.skin(None);
    let extent = (0..3)
        .map(|k| {
            let lo = bind.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
            let hi = bind.iter().map(|p| p[k]).fold(f32::NEG_INFINITY, f32::max);
            hi - lo
        })
        .fold(0.0, f32::max);
    let mut gap = 0.0f32;
    for &t in times {
        let (pa, pb) = (a.skin(Some(t)), b.skin(Some(t)));
        for (&va, &vb) in ca.iter().zip(&cb) {
            let (p, q) = (pa[va], pb[vb]);
            let d = (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f32>().sqrt();
            gap = gap.max(d);
        }
    }
    (gap, extent)
}

const TIMES: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The testkit's full file has two vertices with several joint weights
/// (60/40 and 50/30/20): the text keeps them in `//` header lines that
/// MilkShape, StepMania and the Blender importer skip, and the binary
/// made from it poses exactly as the original.
#[test]
fn several_joint_weights_keep_the_pose_through_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let (original, _) = full_spec().build();
    let (text, back, warnings) = trip(dir.path(), &original);
    assert!(!warnings.contains("weight"), "{warnings}");

    // What the readers need of the text: MilkShape reads lines into 256
    // bytes, the Blender importer wants exactly 7 fields on a vertex line,
    // and the kept lines are `//` lines before the first section.
    let text = String::from_utf8(text).unwrap();
    let first_section = text.lines().position(|l| l.starts_with("Frames:")).unwrap();
    for (i, line) in text.lines().enumerate() {
        assert!(line.len() < 256, "line {i}: {line}");
        if line.starts_with("// retromodel") {
            assert!(i < first_section, "line {i}: {line}");
        }
    }
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("// retromodel weights:"))
        .collect();
    assert!(!kept.is_empty(), "{text}");
    let mesh_at = text.lines().position(|l| l.starts_with("Meshes:")).unwrap();
    let mut lines = text.lines().skip(mesh_at + 2);
    let n: usize = lines.next().unwrap().parse().unwrap();
    for line in lines.take(n) {
        assert_eq!(line.split_whitespace().count(), 7, "{line}");
    }

    let a = milkshape::parse(&original).unwrap();
    let b = milkshape::parse(&back).unwrap();
    let (gap, extent) = pose_gap(&a, &b, &TIMES);
    assert_eq!(gap, 0.0, "pose moved by {gap} (extent {extent})");
    // Each corner's weights are the original vertex's.
    for (va, vb) in corners(&a).into_iter().zip(corners(&b)) {
        assert_eq!(a.weights[va], b.weights[vb]);
    }
    // The test can fail: without the weights the pose moves.
    let mut single = b.clone();
    single.weights.clear();
    let (gap, extent) = pose_gap(&a, &single, &TIMES);
    eprintln!(
        "without the weights the pose moves by {gap} ({:.2} % of the extent {extent})",
        100.0 * gap / extent
    );
    assert!(gap > 0.01 * extent, "{gap} of {extent}");
}

/// GBK names (not UTF-8) in every name field and comment come back byte
/// for byte, and the text holds those bytes, not replacement characters.
#[test]
fn names_in_a_code_page_keep_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = full_spec();
    // 身体 (body), 木头 (wood), 根 (root), 手臂 (arm), in GBK.
    let (body, wood, root, arm) = (
        &b"\xc9\xed\xcc\xe5"[..],
        &b"\xc4\xbe\xcd\xb7"[..],
        &b"\xb8\xf9"[..],
        &b"\xca\xd6\xb1\xdb"[..],
    );
    spec.groups[0].name = field(body);
    spec.materials[0].name = field(wood);
    spec.materials[0].texture = field(b"\xc4\xbe\xcd\xb7.bmp");
    spec.joints[0].name = field(root);
    spec.joints[1].name = field(arm);
    spec.joints[1].parent = field(root);
    spec.joints[2].parent = field(arm);
    if let Some(c) = &mut spec.comments {
        c.groups[0].1 = b"\xc9\xed\xcc\xe5\r\n\xb8\xf9".to_vec();
        c.model = SModelComment::LenText(wood.to_vec());
    }
    let (original, _) = spec.build();
    let (text, back, warnings) = trip(dir.path(), &original);
    assert!(!warnings.contains("name"), "{warnings}");
    assert!(std::str::from_utf8(&text).is_err(), "the text is GBK");
    let contains = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
    assert!(contains(b"\"\xc9\xed\xcc\xe5\" 0 1\n"), "mesh line");
    assert!(
        !contains("\u{fffd}".as_bytes()),
        "no replacement characters"
    );
    let (a, b) = (fields(&original), fields(&back));
    assert_eq!(a.groups, b.groups);
    assert_eq!(a.materials, b.materials);
    assert_eq!(a.joints, b.joints);
    assert_eq!(a.comments, b.comments);
    assert_eq!(a.model_comment, b.model_comment);
    assert_eq!(b.groups[0].0[..4], *body);
}

/// What the text cannot hold is a warning naming where and what.
#[test]
fn what_the_text_cannot_hold_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = full_spec();
    spec.tris.push(STri {
        v: [1, 2, 3],
        n: [[0.0, 0.0, 1.0]; 3],
        ..STri::default()
    });
    spec.cur_time = 2.5;
    spec.materials[1].name = field(b"say \"hi\"");
    let (original, _) = spec.build();
    let (_, back, warnings) = trip(dir.path(), &original);
    let line = |needle: &str| {
        warnings
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in {warnings}"))
            .to_string()
    };
    let l = line("triangles no group lists are dropped");
    assert!(
        l.contains("warning: MilkShape ASCII: triangles: 1 (2)"),
        "{l}"
    );
    let l = line("current frame");
    assert!(l.contains("2.5 is written as 2"), "{l}");
    let l = line("materials[1].name");
    assert!(l.contains("a '\"' in it becomes '''"), "{l}");
    // Vertex 2 is used by 3 triangles, vertex 3 by 2: both stored as less.
    let l = line("reference counts");
    assert!(l.contains("vertices: 2 (2, 3) vertices'"), "{l}");
    assert!(!warnings.contains("weight"), "{warnings}");
    // The back file has the two grouped triangles only.
    assert_eq!(milkshape::parse(&back).unwrap().triangles.len(), 2);
}

/// The corpus's Woman4 (MilkShape 1.8, 664 vertices with several joint
/// weights, 31 joints): through the text and back it poses as before over
/// its whole timeline; without the weights its pose would move by more
/// than 1 % of its size.
#[test]
fn woman4_keeps_its_pose_through_the_text() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read(corpus.join("ms3d/glscene_Woman4.ms3d")).unwrap();
    let (_, back, warnings) = trip(dir.path(), &original);
    assert!(!warnings.contains("weight"), "{warnings}");
    let a = milkshape::parse(&original).unwrap();
    let b = milkshape::parse(&back).unwrap();
    let length = a.total_frames as f32 / a.fps.max(1.0);
    let times: Vec<f32> = (0..=16).map(|k| length * k as f32 / 16.0).collect();
    let (gap, extent) = pose_gap(&a, &b, &times);
    eprintln!("Woman4 through the text: the pose moves by {gap} (extent {extent})");
    assert!(
        gap <= 1e-4 * extent,
        "pose moved by {gap} (extent {extent})"
    );
    let mut single = b.clone();
    single.weights.clear();
    let (gap, extent) = pose_gap(&a, &single, &times);
    eprintln!(
        "Woman4 without its weights: the pose moves by {gap} ({:.2} % of the extent {extent})",
        100.0 * gap / extent
    );
    assert!(gap > 0.01 * extent, "{gap} of {extent}");
}
