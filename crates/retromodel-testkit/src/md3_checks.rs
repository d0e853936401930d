//! What the MD3 fuzz targets check (`fuzz/fuzz_targets/md3_parse.rs`,
//! `md3_roundtrip.rs`), shared with `crates/retromodel/tests/regression.rs`,
//! which replays saved inputs through them.

use retromodel::md3::{Layout, Md3};
use retromodel::{Engine, Error};

/// Parses `data` as MD3 and, when it parses, does everything a tool does
/// with the model: validate (also for every engine), summarise, and, with
/// feature `scene` of the library, lift it to a scene. Returns the model
/// parsed, if any.
pub fn exercise_parse(data: &[u8]) -> Option<Md3> {
    exercise_text_files(data);
    let parsed = Md3::from_bytes(data);
    if let Err(e) = &parsed {
        // The error's words are there, and its offset inside the input
        // (a section that is not there may be said to start past the end).
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
    for engine in Engine::ALL {
        for problem in model.validate_for(engine) {
            let _ = problem.to_string();
        }
    }
    let info = model.info(data);
    let _ = info.to_string();
    assert_eq!(info.frames, model.frames.len());
    assert_eq!(info.surfaces.len(), model.surfaces.len());
    for s in &model.surfaces {
        // Every stored vertex decoded at once (four at a time on x86)
        // gives the same floats as each record's own position (× 1/64)
        // and normal, bit for bit; the buffers are the records' count,
        // which the input's size bounds.
        let count = s.xyz_normals.len();
        let (mut positions, mut normals) = (vec![[0.0f32; 3]; count], vec![[0.0f32; 3]; count]);
        assert_eq!(s.decode_frames(&mut positions, &mut normals), count);
        for (i, v) in s.xyz_normals.iter().enumerate() {
            let n = v.decode_normal();
            let len2: f32 = n.iter().map(|c| c * c).sum();
            assert!((len2 - 1.0).abs() < 1e-2, "normal {n:?}");
            let bits = |x: [f32; 3]| x.map(f32::to_bits);
            assert_eq!(bits(normals[i]), bits(n), "vertex {i}");
            let p = v.xyz.map(|c| f32::from(c) / 64.0);
            assert_eq!(bits(positions[i]), bits(p), "vertex {i}");
        }
    }
    Some(model)
}

/// Parse → write → parse: the original layout reproduces the input byte
/// for byte; the packed layout parses back into the same frames, tags and
/// surfaces, with nothing outside its sections. Returns whether `data`
/// parsed.
pub fn check_roundtrip(data: &[u8]) -> bool {
    let Ok(model) = Md3::from_bytes(data) else {
        return false;
    };
    let bytes = model
        .to_bytes_with(Layout::Original)
        .expect("a parsed model writes");
    assert!(
        bytes == data,
        "the original layout's rewrite differs from the input"
    );
    let packed = model.to_bytes().expect("a parsed model writes packed");
    let again = Md3::from_bytes(&packed).expect("the packed layout parses");
    assert!(again.unclaimed.is_empty(), "the packed layout leaves gaps");
    // NaN floats compare unequal: compare the bytes each part writes.
    let strip = |m: &Md3| {
        let mut m = m.clone();
        m.offsets = Default::default();
        m.unclaimed.clear();
        for s in &mut m.surfaces {
            s.offsets = Default::default();
        }
        m.to_bytes().expect("writes")
    };
    assert_eq!(
        strip(&again),
        strip(&model),
        "the packed layout changes the model"
    );
    assert_eq!(again.to_bytes().ok(), Some(packed), "packing is stable");
    true
}

/// The text files beside an MD3 on the same bytes: a shader script, an
/// `animation.cfg` (which, read, writes text that reads back to the same
/// lines) and a `.skin` file; never a panic.
fn exercise_text_files(data: &[u8]) {
    use retromodel::md3::{AnimationCfg, ShaderScripts, SkinFile, MAX_ANIMATION_CFG_BYTES};
    let mut scripts = ShaderScripts::default();
    scripts.add(data);
    let _ = scripts.image_for("models/players/x/skin.tga");
    if let Ok(cfg) = AnimationCfg::parse(data) {
        let text = cfg.to_text();
        if text.len() <= MAX_ANIMATION_CFG_BYTES {
            let again = AnimationCfg::parse(text.as_bytes()).expect("a cfg written reads back");
            let numbers = |c: &AnimationCfg| -> Vec<(i32, i32, i32)> {
                c.animations
                    .iter()
                    .map(|a| (a.first_frame, a.num_frames, a.looping_frames))
                    .collect()
            };
            assert_eq!(numbers(&again), numbers(&cfg), "cfg lines written and read");
        }
    }
    let _ = SkinFile::parse(data);
}
