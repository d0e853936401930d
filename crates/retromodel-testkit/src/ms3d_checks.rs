//! MS3D checks shared by the fuzz targets (`fuzz/fuzz_targets/ms3d_*.rs`)
//! and `crates/retromodel/tests/regression.rs`, so that a crash the fuzzer
//! finds replays in `cargo test` exactly as it was found.
//!
//! Every check panics on failure: that is how the fuzzer notices.

use retromodel::ms3d::{
    Clip, GroupMesh, Influences, Joint, Key, Material, Ms3d, Skeleton, Triangle, Vertex,
};
use retromodel::Severity;

/// Parses `data` and, when it parses, drives everything a program does with
/// an MS3D model read from an untrusted file: validation (and strict
/// parsing), the skeleton posed at frames before, between and after the
/// keys (negative, NaN and infinite ones too), skinning matrices, CPU
/// skinning of positions and normals, per-group meshes, the model comment
/// and the timeline. Asserts the invariants the API documents. Returns the
/// model when the input parsed.
pub fn exercise_parse(data: &[u8]) -> Option<Ms3d> {
    let model = Ms3d::from_bytes(data).ok()?;
    let (nv, nj) = (model.vertices.len(), model.joints.len());

    // Validation: every problem points into the file it was read from, and
    // strict parsing fails exactly when there is a problem.
    let problems = model.validate();
    for p in &problems {
        let _ = p.to_string();
        if let Some(offset) = p.offset {
            assert!(
                offset < data.len() as u64,
                "{}: offset {offset} is past the end of the {}-byte file",
                p.path,
                data.len()
            );
        }
        // Spot-check that offsets point at the value they name.
        if let (Some(i), Some(offset)) = (index_of(&p.path, "vertices[", "].bone_id"), p.offset) {
            assert_eq!(
                data[offset as usize] as i8, model.vertices[i].bone_id,
                "{p}"
            );
        }
        if let (Some(i), Some(offset)) = (index_of(&p.path, "joints[", "].parent"), p.offset) {
            let at = offset as usize;
            assert_eq!(&data[at..at + 32], &model.joints[i].parent.0, "{p}");
        }
    }
    assert_eq!(
        Ms3d::from_bytes_strict(data).is_ok(),
        problems.is_empty(),
        "strict parsing disagrees with validate()"
    );
    let cycle = problems
        .iter()
        .any(|p| p.severity == Severity::Error && p.message.contains("cycle"));

    // Comment and timeline.
    let comment = model.model_comment();
    assert_eq!(
        comment.is_some(),
        model
            .extras
            .comments
            .as_ref()
            .is_some_and(|c| c.model.text().is_some())
    );
    for line in comment.as_deref().unwrap_or("").lines() {
        if let Ok(clip) = line.parse::<Clip>() {
            assert!(clip.first_frame.is_finite() && clip.last_frame.is_finite());
            assert!(0.0 <= clip.first_frame && clip.first_frame <= clip.last_frame);
            assert!(!clip.name.is_empty());
        }
    }
    let timeline = model.timeline();
    assert_eq!(timeline.first_frame, 0.0);
    assert_eq!(timeline.last_frame, model.total_frames.max(0) as f32);
    assert!(model.effective_fps() >= 1.0);

    // Influences: one per vertex, only existing joints, positive weights.
    let influences = Influences::new(&model);
    assert_eq!(influences.vertices.len(), nv);
    for (i, inf) in influences.vertices.iter().enumerate() {
        let count = inf.count as usize;
        assert!(count <= 4, "vertex {i}: {count} influences");
        for k in 0..4 {
            if k < count {
                assert!((inf.joints[k] as usize) < nj, "vertex {i}: {inf:?}");
                assert!(inf.weights[k] > 0.0, "vertex {i}: {inf:?}");
            } else {
                assert_eq!(inf.weights[k], 0.0, "vertex {i}: {inf:?}");
            }
        }
        let own = model.vertices[i].bone_id;
        assert_eq!(
            count == 0,
            own < 0 || own as usize >= nj,
            "vertex {i}: {inf:?}, bone {own}"
        );
    }

    // Skeleton, posed and skinned.
    match Skeleton::new(&model) {
        Err(_) => assert!(cycle, "Skeleton::new failed but validate() found no cycle"),
        Ok(skeleton) => {
            assert!(
                !cycle,
                "validate() found a cycle but Skeleton::new succeeded"
            );
            exercise_skeleton(&model, &skeleton, &influences);
        }
    }

    // Group meshes.
    let meshes = GroupMesh::build_all(&model);
    assert_eq!(meshes.len(), model.groups.len());
    for (g, mesh) in meshes.iter().enumerate() {
        assert_eq!(mesh.group, g);
        if let Some(m) = mesh.material {
            assert!(m < model.materials.len());
            assert_eq!(model.groups[g].material as usize, m);
        }
        assert_eq!(mesh.indices.len() % 3, 0);
        assert!(mesh.indices.len() <= 3 * model.groups[g].triangles.len());
        assert_eq!(mesh.source_vertices.len(), mesh.vertices.len());
        assert!(mesh.vertices.len() <= mesh.indices.len());
        assert!(mesh
            .indices
            .iter()
            .all(|&i| (i as usize) < mesh.vertices.len()));
        for (v, &src) in mesh.vertices.iter().zip(&mesh.source_vertices) {
            let src = src as usize;
            assert!(src < nv, "group {g}: source vertex {src} of {nv}");
            assert_eq!(
                bits3(v.position),
                bits3(model.vertices[src].position),
                "group {g}: position of vertex {src}"
            );
            assert_eq!(v.joints, influences.vertices[src].joints);
        }
    }
    let none = GroupMesh::build(&model, &influences, model.groups.len());
    assert!(none.vertices.is_empty() && none.indices.is_empty());

    Some(model)
}

/// Poses `skeleton` at frames around its keys, turns the poses into
/// skinning matrices and skins every vertex and some normals with them.
fn exercise_skeleton(model: &Ms3d, skeleton: &Skeleton, influences: &Influences) {
    let nj = model.joints.len();
    assert_eq!(skeleton.joint_count(), nj);
    assert!(skeleton.fps() >= 1.0);
    assert_eq!(skeleton.bind_pose().len(), nj);
    assert_eq!(skeleton.inverse_bind().len(), nj);
    for (i, p) in skeleton.parents().iter().enumerate() {
        if let Some(p) = *p {
            assert!(p < nj && p != i, "joint {i} has parent {p}");
            assert_eq!(
                model.joints[p].name.as_bytes(),
                model.joints[i].parent.as_bytes()
            );
        }
    }
    assert!(skeleton.key_transform(nj, 0.0).is_none());

    // Frames: the bind pose, before the first key, at and between keys,
    // after the last, and the odd values a caller may pass.
    let fps = skeleton.fps();
    let times = model
        .joints
        .iter()
        .flat_map(|j| j.rotation_keys.iter().chain(&j.position_keys))
        .map(|k| k.time * fps)
        .filter(|t| t.is_finite());
    let (first, last) = times.fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), t| {
        (a.min(t), b.max(t))
    });
    let mut frames = vec![
        -1.0,
        -0.0,
        0.0,
        0.5,
        1.0,
        model.total_frames as f32,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
    ];
    if first <= last {
        frames.extend([first - 1.0, first, (first + last) / 2.0, last, last + 1.0]);
    }

    let mut pose = skeleton.bind_pose().to_vec();
    let mut positions = vec![[0.0f32; 3]; model.vertices.len()];
    for &frame in &frames {
        skeleton.pose_at_frame(frame, &mut pose);
        if frame < 0.0 {
            let same = pose.iter().zip(skeleton.bind_pose()).all(|(a, b)| {
                a.to_cols_array().map(f32::to_bits) == b.to_cols_array().map(f32::to_bits)
            });
            assert!(same, "a negative frame ({frame}) must give the bind pose");
        }
        for j in 0..nj {
            assert!(skeleton.key_transform(j, frame).is_some());
        }
        skeleton.skinning_matrices(&mut pose);
        influences.skin_positions(model, &pose, &mut positions);
        for (i, (v, inf)) in model.vertices.iter().zip(&influences.vertices).enumerate() {
            if inf.count == 0 {
                assert_eq!(
                    bits3(positions[i]),
                    bits3(v.position),
                    "vertex {i} has no bone but moved"
                );
            }
        }
        let nv = model.vertices.len();
        for (vertex, normal) in [(0, [0.0, 0.0, 1.0]), (nv / 2, [1.0, -2.0, 0.5])] {
            let _ = influences.skin_normal(vertex, &pose, normal);
        }
        let normal = [0.25, f32::NAN, -1.0];
        assert_eq!(
            bits3(influences.skin_normal(nv, &pose, normal)),
            bits3(normal),
            "a vertex past the end leaves the normal as it is"
        );
    }
    skeleton.pose_at_time(0.5, &mut pose);
}

/// The `i` of `prefix` `i` `suffix`, when `path` is exactly that.
fn index_of(path: &str, prefix: &str, suffix: &str) -> Option<usize> {
    path.strip_prefix(prefix)?
        .strip_suffix(suffix)?
        .parse()
        .ok()
}

fn bits3(v: [f32; 3]) -> [u32; 3] {
    v.map(f32::to_bits)
}

/// Parses `data` and, when it parses, checks the writer against it:
///
/// - `to_bytes()` reproduces `data` byte for byte (the lossless
///   guarantee);
/// - those bytes parse again into the same model (floats compared by
///   their bits);
/// - without its trailing bytes the model writes the input minus those
///   bytes, which reads back with the same extras and nothing trailing;
/// - without extras and trailing bytes it writes the input's core
///   sections, which read back as the same core with no extras.
///
/// Returns whether `data` parsed.
pub fn check_roundtrip(data: &[u8]) -> bool {
    let Ok(model) = Ms3d::from_bytes(data) else {
        return false;
    };
    let bytes = model.to_bytes().expect("a parsed model writes");
    assert_same_bytes(&bytes, data, "to_bytes() vs input");
    let again = Ms3d::from_bytes(&bytes).expect("written bytes parse");
    assert_same_model(&model, &again);

    let mut trimmed = model.clone();
    let trailing = std::mem::take(&mut trimmed.trailing);
    let bytes = trimmed.to_bytes().expect("a model without trailing writes");
    assert_same_bytes(
        &bytes,
        &data[..data.len() - trailing.len()],
        "to_bytes() without trailing vs input",
    );
    let again = Ms3d::from_bytes(&bytes).expect("bytes without trailing parse");
    assert_same_model(&trimmed, &again);

    let mut core = trimmed;
    let extras = std::mem::take(&mut core.extras);
    let bytes = core.to_bytes().expect("a model without extras writes");
    let without_trailing = data.len() - trailing.len();
    assert!(
        bytes.len() <= without_trailing,
        "the core sections alone write {} bytes, more than the {without_trailing} before the trailing bytes",
        bytes.len()
    );
    assert_same_bytes(
        &bytes,
        &data[..bytes.len()],
        "to_bytes() without extras vs input",
    );
    let has_extras = extras.comments.is_some()
        || extras.vertices.is_some()
        || extras.joints.is_some()
        || extras.model.is_some();
    assert_eq!(
        bytes.len() < without_trailing,
        has_extras,
        "{} bytes of extras read as {extras:?}",
        without_trailing - bytes.len()
    );
    let again = Ms3d::from_bytes(&bytes).expect("bytes without extras parse");
    assert_same_model(&core, &again);
    true
}

/// Panics with the first differing offset when `got` differs from `want`.
pub fn assert_same_bytes(got: &[u8], want: &[u8], what: &str) {
    if got != want {
        let first = got
            .iter()
            .zip(want)
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        panic!(
            "{what}: {} bytes written, {} expected, first difference at offset {first:#x}",
            got.len(),
            want.len()
        );
    }
}

/// Panics unless the two models are equal in every field. Floats are
/// compared by their bits, so NaNs compare equal to themselves and `-0.0`
/// differs from `0.0`.
pub fn assert_same_model(a: &Ms3d, b: &Ms3d) {
    assert_eq!(a.version, b.version, "version");
    assert_eq!(a.vertices.len(), b.vertices.len(), "vertex count");
    for (i, (x, y)) in a.vertices.iter().zip(&b.vertices).enumerate() {
        assert_eq!(vertex_bits(x), vertex_bits(y), "vertices[{i}]");
    }
    assert_eq!(a.triangles.len(), b.triangles.len(), "triangle count");
    for (i, (x, y)) in a.triangles.iter().zip(&b.triangles).enumerate() {
        assert_eq!(triangle_bits(x), triangle_bits(y), "triangles[{i}]");
    }
    assert_eq!(a.groups, b.groups, "groups");
    assert_eq!(a.materials.len(), b.materials.len(), "material count");
    for (i, (x, y)) in a.materials.iter().zip(&b.materials).enumerate() {
        assert_eq!(material_bits(x), material_bits(y), "materials[{i}]");
    }
    assert_eq!(a.fps.to_bits(), b.fps.to_bits(), "fps");
    assert_eq!(
        a.current_time.to_bits(),
        b.current_time.to_bits(),
        "current_time"
    );
    assert_eq!(a.total_frames, b.total_frames, "total_frames");
    assert_eq!(a.joints.len(), b.joints.len(), "joint count");
    for (i, (x, y)) in a.joints.iter().zip(&b.joints).enumerate() {
        assert_eq!(joint_bits(x), joint_bits(y), "joints[{i}]");
    }
    let (x, y) = (&a.extras, &b.extras);
    assert_eq!(x.comments, y.comments, "extras.comments");
    assert_eq!(x.vertices, y.vertices, "extras.vertices");
    assert_eq!(
        x.joints.as_ref().map(|j| (
            j.subversion,
            j.colors.iter().map(|c| bits3(*c)).collect::<Vec<_>>()
        )),
        y.joints.as_ref().map(|j| (
            j.subversion,
            j.colors.iter().map(|c| bits3(*c)).collect::<Vec<_>>()
        )),
        "extras.joints"
    );
    let model_bits = |m: &retromodel::ms3d::ModelExtras| {
        (
            m.subversion,
            m.joint_size.to_bits(),
            m.transparency_mode,
            m.alpha_ref.to_bits(),
        )
    };
    assert_eq!(
        x.model.as_ref().map(model_bits),
        y.model.as_ref().map(model_bits),
        "extras.model"
    );
    assert_eq!(a.trailing, b.trailing, "trailing");
}

fn vertex_bits(v: &Vertex) -> (u8, [u32; 3], i8, u8) {
    (v.flags, bits3(v.position), v.bone_id, v.reference_count)
}

type TriangleBits = (u16, [u16; 3], [[u32; 3]; 3], [u32; 3], [u32; 3], u8, u8);

fn triangle_bits(t: &Triangle) -> TriangleBits {
    (
        t.flags,
        t.vertices,
        t.normals.map(bits3),
        bits3(t.s),
        bits3(t.t),
        t.smoothing_group,
        t.group,
    )
}

fn material_bits(m: &Material) -> (Vec<u8>, Vec<u32>, u8) {
    let names = [&m.name.0[..], &m.texture.0[..], &m.alphamap.0[..]].concat();
    let floats = [m.ambient, m.diffuse, m.specular, m.emissive]
        .concat()
        .into_iter()
        .chain([m.shininess, m.transparency])
        .map(f32::to_bits)
        .collect();
    (names, floats, m.mode)
}

type KeyBits = (u32, [u32; 3]);
type JointBits = (
    u8,
    [u8; 32],
    [u8; 32],
    [u32; 3],
    [u32; 3],
    Vec<KeyBits>,
    Vec<KeyBits>,
);

fn joint_bits(j: &Joint) -> JointBits {
    let keys = |k: &[Key]| {
        k.iter()
            .map(|k| (k.time.to_bits(), bits3(k.value)))
            .collect()
    };
    (
        j.flags,
        j.name.0,
        j.parent.0,
        bits3(j.rotation),
        bits3(j.position),
        keys(&j.rotation_keys),
        keys(&j.position_keys),
    )
}
