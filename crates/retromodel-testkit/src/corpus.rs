//! The test corpus: where it is, which MD2 and MS3D files it holds, and its
//! `facts.json` oracle (written by an independent reader).

use std::path::{Path, PathBuf};

use retromodel::ms3d::Ms3d;
use serde_json::Value;

/// The corpus folder: `$RETROMODEL_CORPUS`, or `../shared/corpus` relative
/// to the repository root.
///
/// When the folder is missing the test is skipped with a note, except in CI
/// (environment variable `CI` set), where a missing corpus is a failure.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("RETROMODEL_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.join("facts.json").is_file() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "the test corpus is missing at {} (set RETROMODEL_CORPUS); CI must run the corpus tests",
            dir.display()
        );
    }
    eprintln!(
        "note: test corpus not found at {} (set RETROMODEL_CORPUS); skipping",
        dir.display()
    );
    None
}

/// One corpus MD2 file.
#[derive(Debug, Clone)]
pub struct CorpusFile {
    /// Path relative to the corpus folder with `/` separators, as used for
    /// the keys of `facts.json` (`md2/x.md2`, `gametrees/.../x.md2`).
    pub key: String,
    /// Full path.
    pub path: PathBuf,
}

impl CorpusFile {
    /// The file's bytes.
    pub fn read(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_else(|e| panic!("{}: {e}", self.path.display()))
    }

    /// The file name without folders.
    pub fn name(&self) -> &str {
        self.key.rsplit('/').next().unwrap_or(&self.key)
    }
}

fn collect_md2(dir: &Path, corpus: &Path, recursive: bool, out: &mut Vec<CorpusFile>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if recursive {
                collect_md2(&path, corpus, true, out);
            }
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("md2"))
        {
            let rel = path.strip_prefix(corpus).unwrap_or(&path);
            let key = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push(CorpusFile { key, path });
        }
    }
}

/// Every MD2 file of the corpus (`md2/*.md2` and `gametrees/**/*.md2`),
/// sorted by key. Panics when there are none (the folder exists, so an
/// empty list means it is not the corpus we expect).
pub fn md2_files(corpus: &Path) -> Vec<CorpusFile> {
    let mut out = Vec::new();
    collect_md2(&corpus.join("md2"), corpus, false, &mut out);
    collect_md2(&corpus.join("gametrees"), corpus, true, &mut out);
    out.sort_by(|a, b| a.key.cmp(&b.key));
    assert!(!out.is_empty(), "no MD2 files under {}", corpus.display());
    out
}

/// Every `ms3d/*.ms3d` of the corpus as `(facts key, path)`, sorted.
pub fn ms3d_files(corpus: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(corpus.join("ms3d"))
        .expect("corpus ms3d folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("ms3d"))
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (format!("ms3d/{name}"), p)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no MS3D files in the corpus");
    out
}

/// Loads a corpus MS3D model by file name (`glscene_Woman4.ms3d`, looked
/// up in `ms3d/`), with its bytes.
pub fn load_ms3d(corpus: &Path, name: &str) -> (Vec<u8>, Ms3d) {
    let path = corpus.join("ms3d").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = Ms3d::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, model)
}

/// The corpus's `facts.json`: an object keyed by corpus-relative path.
pub fn facts(corpus: &Path) -> Value {
    let path = corpus.join("facts.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The facts of one file; panics when facts.json does not list it.
pub fn facts_of<'a>(facts: &'a Value, key: &str) -> &'a Value {
    facts
        .get(key)
        .unwrap_or_else(|| panic!("facts.json has no entry for {key}"))
}

/// An unsigned number from a facts entry (`path` such as `"ofs.frames"`).
pub fn fact_u64(entry: &Value, path: &str) -> u64 {
    let mut v = entry;
    for part in path.split('.') {
        v = v
            .get(part)
            .unwrap_or_else(|| panic!("facts entry has no {path}"));
    }
    v.as_u64()
        .unwrap_or_else(|| panic!("facts {path} is not an unsigned number: {v}"))
}

/// A string from a facts entry.
pub fn fact_str<'a>(entry: &'a Value, key: &str) -> &'a str {
    entry
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("facts entry has no string {key}"))
}

/// The glTF 2.0 test models of Debian's `assimp-testmodels` package
/// (`/usr/share/assimp/models/glTF2`, or `$RETROMODEL_ASSIMP_MODELS/glTF2`).
///
/// Like the corpus: when the folder is missing the test is skipped with a
/// note, except in CI (environment variable `CI` set), where that is a
/// failure (`.ci/run` installs the package).
pub fn assimp_gltf2_dir() -> Option<PathBuf> {
    let base = std::env::var_os("RETROMODEL_ASSIMP_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/assimp/models"));
    let dir = base.join("glTF2");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "assimp's glTF test models are missing at {} (apt-get install assimp-testmodels); CI must run these tests",
            dir.display()
        );
    }
    eprintln!(
        "note: assimp's glTF test models not found at {} (apt-get install assimp-testmodels); skipping",
        dir.display()
    );
    None
}
