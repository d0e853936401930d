//! `validate NAME.md3` checks the levels of detail ioquake3 loads beside
//! it (`NAME_1.md3`, `NAME_2.md3`): OpenArena's sarge's, taken out of
//! Debian's pak0.pk3, pass (the test kit's reader gives each the base
//! model's frame count); a LOD of another frame count is an error naming
//! both counts as that reader reads them; a LOD that is no MD3 is an
//! error; a LOD validated alone is not searched for LODs of its own.

use std::path::Path;

use retromodel_testkit::cli::run_stdout;
use retromodel_testkit::md3_facts::md3_facts;
use retromodel_testkit::openarena::{openarena_dir, pk3_files, zip_entries};

fn validate(path: &Path) -> (Option<i32>, String) {
    run_stdout(
        env!("CARGO_BIN_EXE_retromodel"),
        &["validate".as_ref(), path.as_os_str()],
    )
}

#[test]
fn levels_of_detail_beside_a_model_are_checked_as_ioquake3_draws_them() {
    let Some(dir) = openarena_dir() else { return };
    let pak = pk3_files(&dir)
        .into_iter()
        .find(|p| p.file_name().is_some_and(|n| n == "pak0.pk3"))
        .expect("pak0.pk3");
    let bytes = std::fs::read(&pak).unwrap();
    let entries = zip_entries(&bytes, ".md3");
    let get = |name: &str| {
        entries
            .iter()
            .find(|(n, _)| n == &format!("models/players/sarge/{name}"))
            .map(|(_, b)| b.clone())
            .unwrap_or_else(|| panic!("{name} not in pak0.pk3"))
    };
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    for name in ["lower.md3", "lower_1.md3", "lower_2.md3"] {
        std::fs::write(at(name), get(name)).unwrap();
    }
    let frames = |name: &str| md3_facts(&get(name)).unwrap().num_frames;
    assert_eq!(frames("lower_1.md3"), frames("lower.md3"));
    assert_eq!(frames("lower_2.md3"), frames("lower.md3"));
    let (code, out) = validate(&at("lower.md3"));
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("lod"), "{out}");

    // upper_1.md3 beside lower.md3 as its LOD 1: another frame count,
    // which ioquake3 loads (as it does OpenArena's arachna and gargoyle):
    // a warning, and the file is valid.
    std::fs::write(at("lower_1.md3"), get("upper_1.md3")).unwrap();
    let (code, out) = validate(&at("lower.md3"));
    assert_eq!(code, Some(0), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("warning: lod1.header.num_frames"))
        .unwrap_or_else(|| panic!("{out}"));
    let (lod, base) = (frames("upper_1.md3"), frames("lower.md3"));
    assert!(
        line.contains(&format!("{lod} frames but LOD 0 has {base}")),
        "{line}"
    );
    // Validated alone, the LOD is a model like any other.
    let (code, out) = validate(&at("lower_1.md3"));
    assert_eq!(code, Some(0), "{out}");

    // A LOD that is no MD3.
    std::fs::write(at("lower_2.md3"), b"not a model").unwrap();
    let (code, out) = validate(&at("lower.md3"));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error: lod2: lower_2.md3: not an MD3"),
        "{out}"
    );
}
