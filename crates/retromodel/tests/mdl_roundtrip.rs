//! Every corpus MDL reads and writes back byte for byte.

use retromodel::mdl::{Layout, Mdl};
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("RETROMODEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/corpus"
            ))
        })
        .join("mdl");
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus missing under CI: {}",
            dir.display()
        );
        eprintln!("skipped: no corpus at {}", dir.display());
        None
    }
}

#[test]
fn corpus_round_trips_byte_exact() {
    let Some(dir) = corpus() else { return };
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "mdl") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let model = Mdl::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(model.to_bytes().unwrap(), bytes, "{}", path.display());
        assert_eq!(
            model.to_bytes_with(Layout::Original).unwrap(),
            bytes,
            "{}",
            path.display()
        );
        n += 1;
    }
    assert_eq!(n, 95);
}
