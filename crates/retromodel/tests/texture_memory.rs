//! `MemorySource` (files held in memory, as a web page holds dropped
//! files) finds the same file as `TextureResolver` on the same tree on
//! disk, with the model's folder first and the top of the tree as the
//! search root: for generated trees and names (cases, extensions,
//! suffixes, folders, `.name`, hostile names), and for the corpus game
//! trees.

#![cfg(feature = "textures")]

use std::fs;
use std::path::{Path, PathBuf};

use retromodel::texture::{MemorySource, ResolveError, TextureResolver, TextureSource};
use retromodel_testkit::corpus::corpus_dir;

/// A small deterministic generator (xorshift), so failures repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// How both sides answered: the file's path relative to the top, or the
/// kind of failure.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Found(String, Vec<u8>),
    NotFound,
    Refused,
}

fn answer(
    result: Result<retromodel::texture::ResolvedTexture, ResolveError>,
    top: &Path,
) -> Answer {
    match result {
        Ok(found) => {
            let path = found.path.strip_prefix(top).unwrap_or(&found.path);
            let path = path.to_string_lossy().replace('\\', "/");
            Answer::Found(path, found.bytes)
        }
        Err(ResolveError::NotFound { .. }) => Answer::NotFound,
        Err(ResolveError::Refused { .. }) => Answer::Refused,
        Err(e) => panic!("{e:?}"),
    }
}

/// The same files on disk below a temporary folder and in memory.
fn both(files: &[String], model: &str) -> (tempfile::TempDir, TextureResolver, MemorySource) {
    let tmp = tempfile::tempdir().unwrap();
    let mut memory = MemorySource::new();
    for f in files {
        let path = tmp.path().join(f);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, f.as_bytes()).unwrap();
        memory.add(f, f.as_bytes().to_vec()).unwrap();
    }
    let model_path = tmp.path().join(model);
    fs::create_dir_all(model_path.parent().unwrap()).unwrap();
    memory.set_model_file(model).unwrap();
    let disk = TextureResolver::for_model_file(&model_path).with_root(tmp.path());
    (tmp, disk, memory)
}

#[test]
fn generated_trees_and_names_give_the_same_file_as_on_disk() {
    let dirs = [
        "",
        "models/",
        "models/tank/",
        "Models/Tank/",
        "textures/",
        "a/b/",
        "skins/",
    ];
    let stems = ["skin", "Skin", "SKIN", "tank", ".tank", "body.001", "grunt"];
    let exts = ["pcx", "PCX", "png", "tga", "jpg", "bmp", "txt", ""];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    let mut found = 0;
    for _tree in 0..40 {
        let mut files: Vec<String> = (0..12)
            .map(|_| {
                let ext = rng.pick(&exts);
                let dot = if ext.is_empty() { "" } else { "." };
                format!("{}{}{dot}{ext}", rng.pick(&dirs), rng.pick(&stems))
            })
            .collect();
        // A file and a folder cannot share a path on disk.
        files.sort();
        files.dedup();
        files.retain(|f| {
            !dirs
                .iter()
                .any(|d| !d.is_empty() && d.trim_end_matches('/') == f)
        });
        let model = format!("{}tank.md2", rng.pick(&dirs));
        let (tmp, disk, memory) = both(&files, &model);
        let top = fs::canonicalize(tmp.path()).unwrap();
        let mut names: Vec<String> = (0..30)
            .map(|_| {
                let ext = rng.pick(&exts);
                let dot = if ext.is_empty() { "" } else { "." };
                let dir = rng.pick(&["", "players/x/", "models\\tank\\", ".\\", "TEXTURES/", "b/"]);
                format!("{dir}{}{dot}{ext}", rng.pick(&stems))
            })
            .collect();
        names
            .extend(["../skin.pcx", "/etc/passwd", "C:\\x.pcx", "a/", "x:y.png"].map(String::from));
        for name in &names {
            let d = answer(disk.load(name), &top);
            let m = answer(memory.load(name), Path::new(""));
            assert_eq!(m, d, "{name:?} in {files:?} (model {model})");
            found += usize::from(matches!(d, Answer::Found(..)));
            let d = answer(disk.load_resource(name), &top);
            let m = answer(memory.load_resource(name), Path::new(""));
            assert_eq!(m, d, "exact {name:?} in {files:?} (model {model})");
            compared += 1;
        }
        let d = answer(disk.load_beside_model(&model), &top);
        let m = answer(memory.load_beside_model(&model), Path::new(""));
        assert_eq!(m, d, "beside {model} in {files:?}");
    }
    assert_eq!(compared, 40 * 35);
    // Enough of them find something for the comparison to mean much.
    assert!(found > 300, "{found}");
}

/// Every file below `dir`, as (path relative to `dir`, bytes).
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in fs::read_dir(dir.join(&rel)).unwrap() {
            let entry = entry.unwrap();
            let rel = rel.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                stack.push(rel);
            } else {
                out.push((
                    rel.to_string_lossy().into_owned(),
                    fs::read(entry.path()).unwrap(),
                ));
            }
        }
    }
    out
}

#[test]
fn corpus_game_trees_dropped_whole_find_the_skins_found_on_disk() {
    let Some(corpus) = corpus_dir() else {
        return;
    };
    for (top, model, skin, want) in [
        (
            "gametrees/ufoai",
            "models/aliens/alientank/alientank.md2",
            ".alientank",
            "models/aliens/alientank/alientank.png",
        ),
        (
            "gametrees/blobandconquer",
            "gfx/md2/spiderBlob.md2",
            "shotgunSpiderBlob.png",
            "textures/game/shotgunSpiderBlob.png",
        ),
    ] {
        let top = corpus.join(top);
        let mut memory = MemorySource::new();
        for (path, bytes) in tree(&top) {
            memory.add(&path, bytes).unwrap();
        }
        memory.set_model_file(model).unwrap();
        let found = memory.load(skin).unwrap();
        assert_eq!(found.path, Path::new(want));
        assert_eq!(found.bytes, fs::read(top.join(want)).unwrap());
        let disk = TextureResolver::for_model_file(&top.join(model)).with_root(&top);
        let on_disk = disk.load(skin).unwrap();
        assert_eq!(on_disk.path, fs::canonicalize(top.join(want)).unwrap());
    }
    // MilkShape's `.\jeep1.jpg`, the model and its skin dropped together.
    let mut memory = MemorySource::new();
    for name in ["assimpdeb_jeep1.ms3d", "jeep1.jpg"] {
        memory
            .add(name, fs::read(corpus.join("ms3d").join(name)).unwrap())
            .unwrap();
    }
    memory.set_model_file("assimpdeb_jeep1.ms3d").unwrap();
    assert_eq!(
        memory.load(".\\jeep1.jpg").unwrap().path,
        Path::new("jeep1.jpg")
    );
}
