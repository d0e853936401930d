//! What the IQM fuzz targets check (`fuzz/fuzz_targets/iqm_parse.rs`,
//! `iqm_roundtrip.rs`), shared with `crates/retromodel/tests/regression.rs`,
//! which replays saved inputs through them.

use retromodel::iqm::{Iqm, Layout};
use retromodel::{Engine, Error, Model};

/// The most pose-frames (poses × frames) posed here: a small file can
/// claim many.
const MAX_POSE_FRAMES: u64 = 1 << 20;

/// Parses `data` as IQM and, when it parses, does everything a tool does
/// with the model: validate (also for every engine), summarise, pose
/// every frame (when that is not too much work), compute adjacency and
/// bounds, and, with feature `scene` of the library, lift it to a scene.
/// Returns the model parsed, if any.
pub fn exercise_parse(data: &[u8]) -> Option<Iqm> {
    let parsed = Iqm::from_bytes(data);
    if let Err(e) = &parsed {
        let _ = e.to_string();
        if let (Some(o), false) = (e.offset(), matches!(e, Error::Truncated { .. })) {
            assert!(o <= data.len() as u64, "error offset {o} past the end: {e}");
        }
    }
    let model = parsed.ok()?;
    for problem in model.validate() {
        let _ = problem.to_string();
        if let Some(o) = problem.offset {
            assert!(
                o <= data.len() as u64,
                "problem offset past the end: {problem}"
            );
        }
    }
    let wrapped = Model::Iqm(model.clone());
    for engine in Engine::ALL {
        for problem in wrapped.validate_for(engine) {
            let _ = problem.to_string();
        }
    }
    let info = model.info(data);
    let _ = info.to_string();
    assert_eq!(info.meshes.len(), model.meshes.len());
    let work = u64::from(model.num_frames).saturating_mul(model.poses.len() as u64 + 1);
    let vertex_work = work.saturating_mul(model.num_vertexes as u64 + 1);
    if work <= MAX_POSE_FRAMES {
        for f in 0..model.num_frames as usize {
            let pose = model.frame_pose(f).expect("a frame inside the count poses");
            assert_eq!(pose.locals.len(), model.poses.len());
        }
    }
    if vertex_work <= MAX_POSE_FRAMES * 16 {
        for f in 0..model.num_frames as usize {
            let _ = model.compute_bounds(f);
        }
    }
    if (model.triangles.len() as u64) < 1 << 20 {
        let adjacency = retromodel::iqm::compute_adjacency(&model);
        assert_eq!(adjacency.len(), model.triangles.len());
    }
    #[cfg(feature = "export")]
    if vertex_work <= MAX_POSE_FRAMES * 16 {
        let _ = retromodel::scene::Scene::from_iqm(&model, "fuzz");
    }
    Some(model)
}

/// Parse → write → parse: the original layout reproduces the input byte
/// for byte; the standard layout parses back into the same model, with
/// every offset on a 4-byte boundary. Returns whether `data` parsed.
pub fn check_roundtrip(data: &[u8]) -> bool {
    let Ok(model) = Iqm::from_bytes(data) else {
        return false;
    };
    let bytes = model
        .to_bytes_with(Layout::Original)
        .expect("a parsed model writes");
    assert!(
        bytes == data,
        "the original layout's rewrite differs from the input"
    );
    let standard = model
        .to_bytes_with(Layout::Standard)
        .expect("a parsed model writes in the standard layout");
    let again = Iqm::from_bytes(&standard).expect("the standard layout parses");
    assert!(
        again.header.offsets.iter().all(|o| o % 4 == 0),
        "unaligned offset"
    );
    assert_eq!(again.meshes, model.meshes);
    assert_eq!(again.triangles, model.triangles);
    assert_eq!(again.adjacency, model.adjacency);
    assert_eq!(again.joints.len(), model.joints.len());
    assert_eq!(again.frames, model.frames);
    assert_eq!(again.extensions.len(), model.extensions.len());
    for (a, b) in again.vertex_arrays.iter().zip(&model.vertex_arrays) {
        assert_eq!(a.data, b.data);
    }
    // The text gets only padding.
    assert!(again.text.starts_with(&model.text));
    true
}

/// Parses `data` as IQE (the text form) and, when it parses, compiles it
/// as the reference compiler does: an error, or an IQM that writes, reads
/// back and writes its own IQE text, which parses again into a model of
/// the same joints, meshes and frames. Returns whether `data` parsed.
pub fn exercise_iqe(data: &[u8]) -> bool {
    use retromodel::iqm::iqe::Iqe;
    let Ok(iqe) = Iqe::parse(data) else {
        return false;
    };
    let Ok(model) = iqe.to_iqm() else {
        return true;
    };
    let bytes = model
        .to_bytes_with(Layout::Standard)
        .expect("a compiled IQE writes as IQM");
    let read = Iqm::from_bytes(&bytes).expect("the IQM written reads back");
    for problem in read.validate() {
        let _ = problem.to_string();
    }
    let text = read.to_iqe();
    let again = Iqe::parse(text.as_bytes()).expect("the IQE written parses");
    if let Ok(back) = again.to_iqm() {
        assert_eq!(back.joints.len(), read.joints.len(), "joints");
        assert_eq!(back.num_frames, read.num_frames, "frames");
        assert_eq!(back.meshes.len(), read.meshes.len(), "meshes");
    }
    true
}
