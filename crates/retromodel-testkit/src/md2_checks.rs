//! MD2 checks shared by the fuzz targets (`fuzz/fuzz_targets/md2_*.rs`) and
//! `crates/retromodel/tests/regression.rs`, so that a crash the fuzzer
//! finds replays in `cargo test` exactly as it was found.
//!
//! Every check panics on failure: that is how the fuzzer notices.

use retromodel::md2::{normal, Engine, Frame, Layout, Md2, MeshVertex, RenderMesh};

/// Parses `data` and, when it parses, drives everything a program does with
/// a model read from an untrusted file: validation, animations, GL command
/// decoding, the render mesh and frame decoding. Asserts the invariants the
/// API documents. Returns the model when the input parsed.
pub fn exercise_parse(data: &[u8]) -> Option<Md2> {
    let parsed = Md2::from_bytes(data);
    // Each engine profile judges the bytes, also those the reader refuses;
    // a file the reader takes, every profile can check.
    for engine in Engine::ALL {
        let judged = Md2::validate_bytes_for(data, engine);
        assert!(
            parsed.is_err() || judged.is_ok(),
            "{engine}: the reader takes the file but the profile cannot check it: {judged:?}"
        );
        for problem in judged.into_iter().flatten() {
            let _ = problem.to_string();
        }
    }
    let model = parsed.ok()?;

    for problem in model.validate() {
        let _ = problem.to_string();
    }

    // Animations cover the frames in order, each at least one frame long,
    // under distinct names.
    let animations = model.animations();
    let mut next = 0;
    for (i, anim) in animations.iter().enumerate() {
        assert_eq!(anim.first_frame, next, "animation {i} does not follow on");
        assert!(anim.frame_count > 0, "animation {i} is empty");
        next = anim.frames().end;
        assert!(
            animations[..i].iter().all(|a| a.name != anim.name),
            "animation name {:?} repeats",
            anim.name
        );
    }
    assert_eq!(
        next,
        model.frames.len(),
        "animations do not cover the frames"
    );

    // GL commands: every triangle index points into its primitive.
    let gl = model.decode_gl_commands();
    let stats = gl.stats(model.gl_commands.len());
    assert_eq!(stats.strips + stats.fans, gl.primitives.len());
    for primitive in &gl.primitives {
        for tri in primitive.triangles() {
            assert!(tri.iter().all(|&k| k < primitive.vertices.len()));
        }
    }

    // Render mesh: indices and sources in range.
    let mesh = RenderMesh::new(&model);
    assert_eq!(mesh.indices.len() % 3, 0);
    assert_eq!(mesh.uvs.len(), mesh.vertex_count());
    assert!(mesh
        .indices
        .iter()
        .all(|&i| (i as usize) < mesh.vertex_count()));
    assert!(mesh
        .source_vertices
        .iter()
        .all(|&v| (v as usize) < model.vertex_count()));
    let frames = model.frames.len();
    let mut vertices = vec![MeshVertex::default(); mesh.vertex_count()];
    assert!(!mesh.fill_frame(&model, frames, &mut vertices));
    assert!(!mesh.fill_interpolated(&model, 0, frames, 0.5, &mut vertices));
    if frames > 0 {
        let last = frames - 1;
        assert!(mesh.fill_frame(&model, 0, &mut vertices));
        assert!(mesh.fill_frame(&model, last, &mut vertices));
        assert!(mesh.fill_interpolated(&model, 0, last, 0.5, &mut vertices));
        assert!(mesh.fill_interpolated(&model, last, 0, 0.0, &mut vertices));
        assert!(mesh.fill_interpolated(&model, 0, frames / 2, 1.0, &mut vertices));

        // Decode every frame. Buffers are sized by `vertex_count()` only
        // when there are frames: then the vertices are in the file, so the
        // count is bounded by the input's size.
        let n = model.vertex_count();
        let (mut positions, mut normals) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
        for frame in &model.frames {
            assert_eq!(frame.vertices.len(), n, "frame vertex count");
            frame.decode(&mut positions, &mut normals);
            // The block decoders (SIMD on x86-64) against the scalar
            // per-vertex formula and the table, vertex by vertex.
            for (i, (p, q)) in positions.iter().zip(&normals).enumerate() {
                let want = frame.position(i).expect("vertex in range");
                let same =
                    |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
                assert!(
                    (0..3).all(|k| same(p[k], want[k])),
                    "vertex {i}: decoded {p:?}, formula {want:?}"
                );
                assert_eq!(
                    *q,
                    normal(frame.vertices[i].normal_index),
                    "vertex {i} normal"
                );
            }
            frame.decode_positions(&mut positions);
            frame.decode_normals(&mut normals);
            let _ = frame.position(0);
            assert_eq!(frame.position(n), None);
            let _ = frame.name();
        }
        assert!(model.interpolate(0, last, 0.25, &mut positions, &mut normals));
        assert!(!model.interpolate(0, frames, 0.25, &mut positions, &mut normals));
    }
    Some(model)
}

/// Parses `data` and, when it parses, checks the writer against it:
///
/// - [`Layout::Original`] reproduces `data` byte for byte;
/// - [`Layout::Standard`] gives bytes that parse again into a model equal
///   to the first (apart from `source`), with no gaps between sections,
///   and that write back to themselves in either layout.
///
/// Returns whether `data` parsed.
pub fn check_roundtrip(data: &[u8]) -> bool {
    let Ok(model) = Md2::from_bytes(data) else {
        return false;
    };
    let original = model
        .to_bytes_with(Layout::Original)
        .expect("a parsed model writes in its original layout");
    assert_same_bytes(&original, data, "Layout::Original vs input");

    let standard = model
        .to_bytes()
        .expect("a parsed model writes in the standard layout");
    let again = Md2::from_bytes(&standard).expect("standard layout output parses");
    assert_same_model(&model, &again);
    let src = again.source.as_ref().expect("a parsed model has a source");
    assert!(src.gaps.is_empty(), "standard layout left gaps: {src:?}");
    assert_eq!(src.file_len, standard.len() as u64);

    let rewritten = again.to_bytes().expect("re-parsed model writes");
    assert_same_bytes(&rewritten, &standard, "standard layout is not stable");
    let rewritten = again
        .to_bytes_with(Layout::Original)
        .expect("re-parsed model writes in its original layout");
    assert_same_bytes(&rewritten, &standard, "Layout::Original of standard output");
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

/// Panics unless the two models are equal in every field but `source`.
/// Floats are compared by their bits, so NaN scales compare equal to
/// themselves and `-0.0` differs from `0.0`.
pub fn assert_same_model(a: &Md2, b: &Md2) {
    assert_eq!(a.skin_width, b.skin_width, "skin_width");
    assert_eq!(a.skin_height, b.skin_height, "skin_height");
    assert_eq!(a.num_vertices, b.num_vertices, "num_vertices");
    assert_eq!(a.skins, b.skins, "skins");
    assert_eq!(a.texcoords, b.texcoords, "texcoords");
    assert_eq!(a.triangles, b.triangles, "triangles");
    assert_eq!(a.gl_commands, b.gl_commands, "gl_commands");
    assert_eq!(a.trailing, b.trailing, "trailing");
    assert_eq!(a.frames.len(), b.frames.len(), "frame count");
    for (i, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
        assert_same_frame(fa, fb, i);
    }
}

fn assert_same_frame(a: &Frame, b: &Frame, i: usize) {
    let bits = |v: [f32; 3]| v.map(f32::to_bits);
    assert_eq!(bits(a.scale), bits(b.scale), "frames[{i}].scale");
    assert_eq!(
        bits(a.translate),
        bits(b.translate),
        "frames[{i}].translate"
    );
    assert_eq!(a.name, b.name, "frames[{i}].name");
    assert_eq!(a.vertices, b.vertices, "frames[{i}].vertices");
    assert_eq!(a.padding, b.padding, "frames[{i}].padding");
}
