//! `validate NAME.iqm` checks the levels of detail Xonotic draws beside it
//! on DarkPlaces (`NAME_lod1.iqm`, `NAME_lod2.iqm`; Xonotic's
//! `CSQCPlayer_LOD_Apply`, see `retromodel::iqm::lod_file_names`), with
//! LOD files made here from the corpus: lsalzman's mrfixit (75 joints,
//! one animation, `idle`) as the base; raylib's guy (14 joints, two
//! animations, `jump` and `dance`) as a LOD of another skeleton; mrfixit with its first joint's name changed
//! in the file's bytes as a LOD of other bone names; a truncated file.
//! The counts and names asserted are read from the files' bytes here
//! (iqm.txt's header and joint layout), not by the library.

use std::path::Path;

use retromodel_testkit::cli::run_stdout;
use retromodel_testkit::corpus::corpus_dir;

fn run(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    run_stdout(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn validate(path: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let mut args: Vec<&std::ffi::OsStr> = vec!["validate".as_ref()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    args.push(path.as_os_str());
    run(&args)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Header field `k`, counted from `version` as field 0.
fn field(b: &[u8], k: usize) -> usize {
    u32_at(b, 16 + 4 * k) as usize
}

/// Joint `j`'s name: its offset into the text, and the name.
fn joint_name(b: &[u8], j: usize) -> (usize, String) {
    let (ofs_text, ofs_joints) = (field(b, 4), field(b, 14));
    let at = ofs_text + u32_at(b, ofs_joints + 48 * j) as usize;
    let end = at + b[at..].iter().position(|&c| c == 0).unwrap();
    (at, String::from_utf8_lossy(&b[at..end]).into_owned())
}

fn warning<'a>(out: &'a str, path: &str) -> &'a str {
    out.lines()
        .find(|l| l.contains(&format!("warning: {path}")))
        .unwrap_or_else(|| panic!("no warning at {path}:\n{out}"))
}

#[test]
fn levels_of_detail_beside_an_iqm_are_checked_as_xonotic_draws_them() {
    let Some(corpus) = corpus_dir() else { return };
    let fixit = std::fs::read(corpus.join("iqm/lsalzman_mrfixit.iqm")).unwrap();
    let guy = std::fs::read(corpus.join("iqm/raylib_guy.iqm")).unwrap();
    // num_joints (field 13), num_anims (field 17).
    assert_eq!((field(&fixit, 13), field(&fixit, 17)), (75, 1));
    assert_eq!((field(&guy, 13), field(&guy, 17)), (14, 2));

    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    std::fs::write(at("fixit.iqm"), &fixit).unwrap();

    // Alone, and with an identical LOD 1: nothing about LODs.
    let (code, out) = validate(&at("fixit.iqm"), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("lod"), "{out}");
    std::fs::write(at("fixit_lod1.iqm"), &fixit).unwrap();
    let (code, out) = validate(&at("fixit.iqm"), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("lod"), "{out}");

    // Another skeleton as LOD 1: warnings (Xonotic loads it), the file
    // still valid, failing only with --strict.
    std::fs::write(at("fixit_lod1.iqm"), &guy).unwrap();
    let (code, out) = validate(&at("fixit.iqm"), &[]);
    assert_eq!(code, Some(0), "{out}");
    let joints = warning(&out, "lod1.header.num_joints");
    assert!(
        joints.contains("fixit_lod1.iqm: 14 joints but LOD 0 has 75"),
        "{joints}"
    );
    assert!(joints.contains("skeleton"), "{joints}");
    // DarkPlaces' frames are the animations: frame 0 plays guy's first.
    let anims = warning(&out, "lod1.anims:");
    assert!(anims.contains("2 animations but LOD 0 has 1"), "{anims}");
    let name = warning(&out, "lod1.anims[0].name");
    assert!(name.contains(r#"plays "jump" here but "idle""#), "{name}");
    let (_, first) = joint_name(&fixit, 0);
    assert!(
        warning(&out, "lod1.joints:").contains(&format!("{first:?}")),
        "{out}"
    );
    let (code, _) = validate(&at("fixit.iqm"), &["--strict"]);
    assert_eq!(code, Some(1));

    // The same for --engine darkplaces; not for an engine without LODs.
    let (code, out) = validate(&at("fixit.iqm"), &["--engine", "darkplaces"]);
    assert_eq!(code, Some(0), "{out}");
    warning(&out, "lod1.header.num_joints");
    let (_, out) = validate(&at("fixit.iqm"), &["--engine", "ioquake3"]);
    assert!(!out.contains("lod1"), "{out}");

    // A LOD validated alone is not searched for LODs of its own.
    std::fs::write(at("fixit_lod1_lod1.iqm"), &fixit).unwrap();
    let (code, out) = validate(&at("fixit_lod1.iqm"), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("warning"), "{out}");
    std::fs::remove_file(at("fixit_lod1_lod1.iqm")).unwrap();

    // LOD 2 alone (Xonotic tries each level on its own): the same joints
    // but the first renamed in the text: the game's skeleton lands on
    // the wrong bone, attachments to the old name are lost.
    std::fs::remove_file(at("fixit_lod1.iqm")).unwrap();
    let mut renamed = fixit.clone();
    let (name_at, name) = joint_name(&fixit, 0);
    renamed[name_at] = if name.starts_with('X') { b'Y' } else { b'X' };
    let (_, new_name) = joint_name(&renamed, 0);
    std::fs::write(at("fixit_lod2.iqm"), &renamed).unwrap();
    let (code, out) = validate(&at("fixit.iqm"), &[]);
    assert_eq!(code, Some(0), "{out}");
    let line = warning(&out, "lod2.joints[0]");
    assert!(
        line.contains("1 of its 75 joints differ")
            && line.contains(&format!("{new_name:?} here, {name:?} in LOD 0")),
        "{line}"
    );
    assert!(warning(&out, "lod2.joints:").contains(&format!("{name:?}")));
    assert!(!out.contains("lod2.anims"), "{out}");

    // A LOD that is no IQM: an error naming the file.
    std::fs::write(at("fixit_lod1.iqm"), &fixit[..200]).unwrap();
    let (code, out) = validate(&at("fixit.iqm"), &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("error: lod1") && l.contains("fixit_lod1.iqm")),
        "{out}"
    );
}
