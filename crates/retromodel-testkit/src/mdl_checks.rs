//! What the MDL fuzz targets check (`fuzz/fuzz_targets/mdl_parse.rs`,
//! `mdl_roundtrip.rs`), shared with `crates/retromodel/tests/regression.rs`,
//! which replays saved inputs through them.

use retromodel::mdl::{Frame, Layout, Mdl, Skin};

/// Parses `data` as MDL and, when it parses, does everything a tool does
/// with the model: validate, summarise, repair and write back (the
/// repaired model must write, parse and validate without the problems
/// repair fixes). Returns the model parsed, if any.
pub fn exercise_parse(data: &[u8]) -> Option<Mdl> {
    let parsed = Mdl::from_bytes(data);
    if let Err(e) = &parsed {
        // The error's words and offset are there and inside the input.
        let _ = e.to_string();
        if let Some(o) = e.offset() {
            assert!(o <= data.len() as u64, "error offset {o} past the end: {e}");
        }
    }
    let model = parsed.ok()?;
    for problem in model.validate() {
        let _ = problem.to_string();
    }
    let info = model.info(data);
    let _ = info.to_string();
    assert_eq!(info.frames, model.frames.len());
    let mut covered = 0;
    for a in &info.animations {
        assert_eq!(a.first_frame, covered, "animations do not follow on");
        assert!(a.frame_count > 0);
        covered += a.frame_count;
    }
    assert_eq!(
        covered,
        model.frames.len(),
        "animations do not cover the frames"
    );
    let _ = model.data_radius();

    let mut repaired = model.clone();
    let report = repaired.repair();
    let _ = report.is_empty();
    if let Ok(bytes) = repaired.to_bytes() {
        let again = Mdl::from_bytes(&bytes).expect("a repaired model's bytes parse");
        // Nothing comes after an interval of `f32::MAX`: those stay.
        let max_interval = again.frames.iter().any(
            |f| matches!(f, Frame::Group { group, .. } if group.intervals.contains(&f32::MAX)),
        ) || again
            .skins
            .iter()
            .any(|s| matches!(s, Skin::Group { intervals, .. } if intervals.contains(&f32::MAX)));
        for p in again.validate() {
            let fixed = p.path.ends_with("normal_index")
                || p.path.contains(".intervals") && !max_interval
                || p.path == "header.bounding_radius" && repaired.bounding_radius.is_finite()
                || p.path.starts_with("triangles[") && p.path.contains("].vertices[");
            assert!(!fixed, "repair left {p}");
        }
    }
    Some(model)
}

/// Parse → write → parse: both layouts reproduce the input byte for byte
/// (an MDL has no offsets to lay out differently) and the bytes parse
/// into an equal model. Returns whether `data` parsed.
pub fn check_roundtrip(data: &[u8]) -> bool {
    let Ok(model) = Mdl::from_bytes(data) else {
        return false;
    };
    for layout in [Layout::Standard, Layout::Original] {
        let bytes = model.to_bytes_with(layout).expect("a parsed model writes");
        assert!(bytes == data, "{layout:?} rewrite differs from the input");
    }
    let again = Mdl::from_bytes(data).expect("parses twice");
    // NaN floats compare unequal: compare the bytes they write instead.
    assert_eq!(again.to_bytes().ok(), model.to_bytes().ok());
    true
}
