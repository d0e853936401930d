//! MilkShape 3D ASCII checks shared by the fuzz target
//! `fuzz/fuzz_targets/ms3d_ascii.rs` and the library's tests
//! (`tests/ms3d_ascii_hostile.rs`, `tests/regression.rs`), so that an input
//! the fuzzer finds replays in `cargo test` exactly as it was found.
//!
//! Every check panics on failure: that is how the fuzzer notices.

use retromodel::ms3d::ascii::{looks_like, AsciiModel};
use retromodel::ms3d::Ms3d;
use retromodel::Severity;

/// How much of an input `looks_like` reads (its documented 4 KiB).
const DETECT_BYTES: usize = 4096;

/// A parsed model as `to_text` writes it: empty mesh, material and bone
/// names become `" "` (MilkShape's exporter does so, because its importer
/// rejects `""`). Nothing else a parsed model holds changes in writing.
pub fn as_written(model: &AsciiModel) -> AsciiModel {
    let mut out = model.clone();
    let fix = |name: &mut String| {
        if name.is_empty() {
            *name = " ".into();
        }
    };
    for m in out.meshes.iter_mut().flatten() {
        fix(&mut m.name);
    }
    for m in out.materials.iter_mut().flatten() {
        fix(&mut m.name);
    }
    for b in out.bones.iter_mut().flatten() {
        fix(&mut b.name);
    }
    out
}

/// Parses `data` as MilkShape ASCII and, when it parses, checks what the
/// API documents:
///
/// - a short input that parses is recognised by `looks_like`;
/// - `validate()` gives paths without byte offsets;
/// - `to_bytes()` parses back into the same model (names as written), and
///   writing that again gives the same text;
/// - `to_ms3d()` succeeds whenever `validate()` finds no error, gives one
///   group per mesh, one joint per bone and the vertex and triangle
///   counts, and the binary writer writes it and reads it back unchanged;
/// - `from_ms3d` of that binary writes text that parses back into it
///   exactly;
/// - `combine` of the model alone succeeds exactly when it has meshes,
///   materials and bones.
///
/// Returns the model when the input parsed.
pub fn exercise_ascii(data: &[u8]) -> Option<AsciiModel> {
    let looks = looks_like(data);
    let model = AsciiModel::parse(data).ok()?;
    if data.len() <= DETECT_BYTES {
        assert!(looks, "parsed but looks_like says no");
    }

    let problems = model.validate();
    for p in &problems {
        assert!(!p.path.is_empty(), "{p}");
        assert_eq!(p.offset, None, "{p}");
        let _ = p.to_string();
    }
    let has_error = problems.iter().any(|p| p.severity == Severity::Error);

    let text = model.to_bytes();
    let again = AsciiModel::parse(&text).unwrap_or_else(|e| {
        panic!(
            "to_bytes does not parse back: {e}\n{}",
            String::from_utf8_lossy(&text)
        )
    });
    assert_eq!(
        again,
        as_written(&model),
        "to_bytes → parse changed the model"
    );
    assert_eq!(again.to_bytes(), text, "writing twice changed the text");

    match model.to_ms3d() {
        Err(e) => assert!(
            has_error,
            "to_ms3d failed ({e}) but validate() found no error"
        ),
        Ok(binary) => check_binary_of(&model, &binary),
    }

    let whole = model.meshes.is_some() && model.materials.is_some() && model.bones.is_some();
    assert_eq!(
        AsciiModel::combine(model.clone(), None, None).is_ok(),
        whole,
        "combine of one file"
    );
    Some(model)
}

/// The binary model `to_ms3d` made of `model`.
fn check_binary_of(model: &AsciiModel, binary: &Ms3d) {
    let meshes = model.mesh_list();
    assert_eq!(binary.groups.len(), meshes.len());
    assert_eq!(
        binary.vertices.len(),
        meshes.iter().map(|m| m.vertices.len()).sum::<usize>()
    );
    assert_eq!(
        binary.triangles.len(),
        meshes.iter().map(|m| m.triangles.len()).sum::<usize>()
    );
    assert_eq!(binary.materials.len(), model.material_list().len());
    assert_eq!(binary.joints.len(), model.bone_list().len());
    for (g, mesh) in binary.groups.iter().zip(meshes) {
        assert_eq!(g.triangles.len(), mesh.triangles.len());
        assert_eq!(g.material, mesh.material);
    }
    let bytes = binary
        .to_bytes()
        .unwrap_or_else(|e| panic!("to_ms3d made a model the binary writer refuses: {e}"));
    let read = Ms3d::from_bytes(&bytes).expect("the binary writer's output reads back");
    assert_eq!(
        read.to_bytes().expect("rewrites"),
        bytes,
        "binary round trip"
    );
    let _ = read.validate();
    check_text_of(binary);
}

/// `from_ms3d` of `binary` writes text that parses back into it exactly,
/// and converts back whenever it validates without error.
fn check_text_of(binary: &Ms3d) {
    let text_model = AsciiModel::from_ms3d(binary);
    let text = text_model.to_bytes();
    let parsed = AsciiModel::parse(&text).unwrap_or_else(|e| {
        panic!(
            "from_ms3d wrote text that does not parse: {e}\n{}",
            String::from_utf8_lossy(&text)
        )
    });
    assert_eq!(parsed, text_model, "from_ms3d → to_text → parse");
    let has_error = parsed
        .validate()
        .iter()
        .any(|p| p.severity == Severity::Error);
    let fps = binary.effective_fps();
    let fps = if fps.is_finite() { fps } else { 1.0 };
    if let Err(e) = parsed.to_ms3d_with_fps(fps) {
        assert!(
            has_error,
            "to_ms3d failed ({e}) but validate() found no error"
        );
    }
}

/// Parses `data` as a binary MS3D and, when it parses, checks that
/// `from_ms3d` writes text that parses back into the same model and
/// converts back whenever it validates without error. Returns whether the
/// input parsed.
pub fn exercise_binary(data: &[u8]) -> bool {
    match Ms3d::from_bytes(data) {
        Ok(model) => {
            check_text_of(&model);
            true
        }
        Err(_) => false,
    }
}
