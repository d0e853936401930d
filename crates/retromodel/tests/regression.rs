//! Replays inputs through the same checks the fuzz targets run
//! (`retromodel_testkit::md2_checks`, `mdl_checks`, `md3_checks`, `ms3d_checks` and
//! `ms3d_ascii_checks`):
//! the minimised crash inputs saved in `tests/regression/`, and the fuzzers'
//! working corpus in `fuzz/corpus/*/` when it exists (it is git-ignored, so
//! usually only on a machine that has fuzzed). Every file goes through the
//! checks of every format, through the exporters
//! (`retromodel_testkit::export_checks`) and through the glTF importer
//! (`retromodel_testkit::import_checks`), as every fuzz target must survive
//! any input.

#![cfg(feature = "gltf")]

use std::path::{Path, PathBuf};

use md2_checks::{check_roundtrip, exercise_parse};
use retromodel::md2::{Frame, FrameName, Md2};
use retromodel_testkit::{
    export_checks, import_checks, iqm_checks, iqm_compile_checks, md2_checks, md2_compile_checks,
    md3_checks, md3_compile_checks, md5_compile_checks, mdl_checks, ms3d_ascii_checks, ms3d_checks,
    ms3d_compile_checks,
};

/// What replaying one file found.
struct Replayed {
    name: String,
    len: usize,
    /// Whether it parsed as MD2.
    parsed: bool,
    /// Whether it parsed as MS3D.
    parsed_ms3d: bool,
}

/// Runs every fuzz target's checks on every file in `dir` (not recursing);
/// a missing folder gives nothing.
fn replay_dir(dir: &Path) -> Vec<Replayed> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        // A running fuzzer may remove an input between the listing and the
        // read (when it reduces its corpus): one that is gone is skipped.
        .filter_map(|path| match std::fs::read(&path) {
            Ok(data) => Some((path, data)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => panic!("{}: {e}", path.display()),
        })
        .map(|(path, data)| {
            let parsed = exercise_parse(&data).is_some();
            assert_eq!(
                check_roundtrip(&data),
                parsed,
                "{}: the two MD2 targets disagree on whether it parses",
                path.display()
            );
            let parsed_ms3d = ms3d_checks::exercise_parse(&data).is_some();
            let parsed_mdl = mdl_checks::exercise_parse(&data).is_some();
            assert_eq!(
                mdl_checks::check_roundtrip(&data),
                parsed_mdl,
                "{}: the two MDL targets disagree on whether it parses",
                path.display()
            );
            let parsed_md3 = md3_checks::exercise_parse(&data).is_some();
            assert_eq!(
                md3_checks::check_roundtrip(&data),
                parsed_md3,
                "{}: the two MD3 targets disagree on whether it parses",
                path.display()
            );
            let parsed_iqm = iqm_checks::exercise_parse(&data).is_some();
            assert_eq!(
                iqm_checks::check_roundtrip(&data),
                parsed_iqm,
                "{}: the two IQM targets disagree on whether it parses",
                path.display()
            );
            let _ = iqm_compile_checks::exercise_compile(&data);
            let _ = iqm_checks::exercise_iqe(&data);
            let exported = export_checks::exercise_export(&data);
            let _ = import_checks::exercise_import(&data);
            let _ = ms3d_compile_checks::exercise_gltf_to_ms3d(&data);
            let _ = md2_compile_checks::exercise_compile(&data);
            let _ = md5_compile_checks::exercise_compile(&data);
            let _ = md3_compile_checks::exercise_compile(&data);
            #[cfg(feature = "textures")]
            let _ = retromodel_testkit::mdl_compile_checks::exercise_compile(&data);
            assert!(
                exported >= usize::from(parsed) && exported <= 2,
                "{}: parsed but not exported",
                path.display()
            );
            assert_eq!(
                ms3d_checks::check_roundtrip(&data),
                parsed_ms3d,
                "{}: the two MS3D targets disagree on whether it parses",
                path.display()
            );
            let _ = ms3d_ascii_checks::exercise_ascii(&data);
            assert_eq!(
                ms3d_ascii_checks::exercise_binary(&data),
                parsed_ms3d,
                "{}: the ASCII target's binary half disagrees on whether it parses",
                path.display()
            );
            Replayed {
                name: path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                len: data.len(),
                parsed,
                parsed_ms3d,
            }
        })
        .collect()
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn replays_saved_inputs_and_fuzz_corpus() {
    // The library's sample models, written here, go through the same file
    // replay: the test cannot pass without having read at least these.
    let md2 = retromodel::md2::sample::sample_model()
        .to_bytes()
        .expect("MD2 sample model writes");
    let ms3d = retromodel::ms3d::sample::sample_model()
        .to_bytes()
        .expect("MS3D sample model writes");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("regression_sample");
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    std::fs::write(scratch.join("sample.md2"), &md2).expect("write MD2 sample");
    std::fs::write(scratch.join("sample.ms3d"), &ms3d).expect("write MS3D sample");
    let own = replay_dir(&scratch);
    let names: Vec<&str> = own.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["sample.md2", "sample.ms3d"], "scratch folder");
    assert_eq!(own[0].len, md2.len());
    assert!(own[0].parsed, "the MD2 sample model did not parse as MD2");
    assert!(!own[0].parsed_ms3d, "the MD2 sample model parsed as MS3D");
    assert_eq!(own[1].len, ms3d.len());
    assert!(
        own[1].parsed_ms3d,
        "the MS3D sample model did not parse as MS3D"
    );
    assert!(!own[1].parsed, "the MS3D sample model parsed as MD2");

    let saved = replay_dir(&crate_dir().join("tests/regression"));
    println!("tests/regression: {} inputs replayed", saved.len());

    let corpus = crate_dir().join("../../fuzz/corpus");
    if let Ok(targets) = std::fs::read_dir(&corpus) {
        for target in targets {
            let dir = target.expect("readable directory entry").path();
            let replayed = replay_dir(&dir);
            let parsed = replayed.iter().filter(|r| r.parsed).count();
            let parsed_ms3d = replayed.iter().filter(|r| r.parsed_ms3d).count();
            println!(
                "{}: {} inputs replayed, {parsed} parse as MD2, {parsed_ms3d} as MS3D",
                dir.display(),
                replayed.len()
            );
        }
    } else {
        println!("no fuzz corpus at {}", corpus.display());
    }
}

/// Found by `md2_parse`: a section with a count of 0 and an offset past the
/// end of the file made `from_bytes` slice out of range and panic. The file
/// is a bare 68-byte header whose counts are all 0 and whose
/// `ofs_triangles` is 1970435072 (bytes 52..56 of the file).
#[test]
fn empty_section_with_offset_past_the_end_parses() {
    let path = crate_dir().join("tests/regression/md2_empty_section_offset_past_end.md2");
    let data = std::fs::read(&path).expect("regression input");
    assert_eq!(data.len(), 68);
    let ofs_triangles = i32::from_le_bytes(data[52..56].try_into().unwrap());
    assert!(ofs_triangles as usize > data.len());
    let counts: Vec<i32> = data[20..56]
        .chunks_exact(4)
        .take(6)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(counts, [0; 6], "num_skins..num_frames in the file");

    let model = Md2::from_bytes(&data).expect("empty sections may point anywhere");
    assert!(model.skins.is_empty() && model.triangles.is_empty() && model.frames.is_empty());
    assert!(check_roundtrip(&data));
}

/// `animations()` once deduplicated names by scanning every earlier
/// animation for every candidate suffix: cubic in the number of runs, so a
/// 256 KB file of 6400 empty frames named `b`, `a`, `b`, `a`, ... took a
/// minute and a 4 MB one would never finish. 20000 such frames must now be
/// grouped at once, with the documented `name_2`, `name_3` ... suffixes.
#[test]
fn many_short_runs_group_quickly() {
    let frames = 20_000;
    let model = Md2 {
        frames: (0..frames)
            .map(|i| Frame {
                name: FrameName::new(if i % 2 == 0 { "b" } else { "a" }),
                ..Frame::default()
            })
            .collect(),
        ..Md2::default()
    };
    let bytes = model.to_bytes().expect("model writes");
    let model = Md2::from_bytes(&bytes).expect("model parses");

    let start = std::time::Instant::now();
    let animations = model.animations();
    let elapsed = start.elapsed();
    assert!(
        elapsed.as_secs() < 10,
        "animations() took {elapsed:?} for {frames} frames"
    );

    assert_eq!(animations.len(), frames);
    let names: Vec<&str> = animations.iter().take(6).map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["b", "a", "b_2", "a_2", "b_3", "a_3"]);
    assert_eq!(animations[frames - 1].name, format!("a_{}", frames / 2));
    assert!(animations
        .iter()
        .enumerate()
        .all(|(i, a)| a.first_frame == i && a.frame_count == 1));
}

/// `Skeleton::new` and `validate()` once found each joint's parent by
/// scanning all joints for its name: quadratic in the joint count, so a
/// 6 MB file of 65535 joints whose parent names match no joint took 28 s
/// in `Skeleton::new` and 38 s in `validate()` (release build), far more in
/// a debug build. The lookup must be linear and keep the viewer's rule that
/// the first joint of a name is the one found.
#[test]
fn many_joints_find_their_parents_quickly() {
    use retromodel::ms3d::{Joint, Ms3d, Name32, Skeleton};

    let n = 65535;
    // Joint i is "j{i}"; an odd joint's parent is joint i / 2, an even one's
    // parent does not exist. The last joint is named "j0" too: joint 1 must
    // still find joint 0.
    let joints: Vec<Joint> = (0..n)
        .map(|i| Joint {
            name: Name32::new(&format!("j{}", if i == n - 1 { 0 } else { i })),
            parent: Name32::new(&if i % 2 == 1 {
                format!("j{}", i / 2)
            } else {
                format!("missing{i}")
            }),
            ..Joint::default()
        })
        .collect();
    let bytes = Ms3d {
        version: 4,
        fps: 10.0,
        joints,
        ..Ms3d::default()
    }
    .to_bytes()
    .expect("model writes");
    let model = Ms3d::from_bytes(&bytes).expect("model parses");
    assert_eq!(model.joints.len(), n);

    let start = std::time::Instant::now();
    let skeleton = Skeleton::new(&model).expect("no cycle");
    let problems = model.validate();
    let elapsed = start.elapsed();
    assert!(
        elapsed.as_secs() < 10,
        "Skeleton::new and validate() took {elapsed:?} for {n} joints"
    );

    let parents = skeleton.parents();
    for (i, p) in parents.iter().enumerate() {
        let want = if i % 2 == 1 { Some(i / 2) } else { None };
        assert_eq!(*p, want, "parent of joint {i}");
    }
    // One warning for the joint count, one per joint with a missing parent:
    // the first `MAX_LISTED_PROBLEMS` are listed, a last one counts the rest.
    let missing = problems
        .iter()
        .filter(|p| p.path.ends_with(".parent") && p.message.contains("is not a joint"))
        .count();
    let limit = retromodel::MAX_LISTED_PROBLEMS;
    assert_eq!(problems.len(), limit + 1);
    assert_eq!(missing, limit - 1, "listed joints with a missing parent");
    assert!(problems
        .iter()
        .any(|p| p.path == "joints" && p.message.contains("65535 joints exceed")));
    let rest = 1 + n.div_ceil(2) - limit;
    let last = problems.last().unwrap();
    assert!(
        last.message
            .starts_with(&format!("{rest} more problems (0 errors, {rest} warnings)")),
        "{}",
        last.message
    );
    assert!(!problems.iter().any(|p| p.message.contains("cycle")));
}

/// Found by `mdl_parse`: repair moves an interval that does not come after
/// the one before to 0.1 s after it, but past about 2^20 s adding 0.1 to
/// an `f32` changes nothing, so the repaired model still had the fault.
/// The hand-made file has a frame group whose two intervals are both
/// 1.0591666e11 s; repair must now step to the next `f32` up.
#[test]
fn mdl_repair_steps_intervals_past_f32_precision() {
    use retromodel::mdl::{Frame, Mdl};
    let path = crate_dir().join("tests/regression/mdl_repair_interval_past_f32_step.mdl");
    let data = std::fs::read(&path).expect("regression input");
    let mut model = Mdl::from_bytes(&data).expect("parses");
    let problems = model.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "frames[0].group.intervals[1]");
    assert_eq!(model.repair().fixed_intervals, 1);
    let Frame::Group { group, .. } = &model.frames[0] else {
        panic!("frame 0 is a group")
    };
    assert!(group.intervals[1] > group.intervals[0]);
    assert!(model.validate().is_empty(), "{:?}", model.validate());
    assert!(mdl_checks::exercise_parse(&data).is_some());
}

/// Found by `mdl_parse`: the message about an onseam vertex already on
/// the back half adds half the skin width to its `s`, which overflowed
/// `i32` for `s` near `i32::MAX` (a panic in debug builds). The
/// hand-made file has such a vertex (texcoord 1, `s` = 2147483647) on a
/// back-facing triangle.
#[test]
fn mdl_onseam_s_near_i32_max_validates() {
    use retromodel::mdl::Mdl;
    let path = crate_dir().join("tests/regression/mdl_onseam_s_near_i32_max.mdl");
    let data = std::fs::read(&path).expect("regression input");
    let model = Mdl::from_bytes(&data).expect("parses");
    assert_eq!(model.texcoords[1].s, i32::MAX);
    let problems = model.validate();
    let seam = problems
        .iter()
        .find(|p| p.path == "texcoords[1].s" && p.message.contains("back half"))
        .expect("the back-half warning");
    assert!(seam.message.contains("lands at 2147483649"), "{seam}");
    assert!(mdl_checks::exercise_parse(&data).is_some());
}
