//! OpenArena's MD3 models, from the `.pk3` files Debian's `openarena-data`
//! and `openarena-081-players` packages install: where they are, and a
//! minimal zip reader (stored and deflated entries) to take the `.md3`
//! files out of them. Third-party files: read where installed, never
//! committed.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Where Debian installs OpenArena's game data.
pub const DEFAULT_DIR: &str = "/usr/share/games/openarena/baseoa";

/// The folder holding OpenArena's `.pk3` files: `$RETROMODEL_OPENARENA`,
/// or [`DEFAULT_DIR`].
///
/// When it holds no `.pk3` the test is skipped with a note, except in CI
/// (environment variable `CI` set), where that is a failure: CI installs
/// the packages (`.ci/run`).
pub fn openarena_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("RETROMODEL_OPENARENA")
        .map_or_else(|| PathBuf::from(DEFAULT_DIR), PathBuf::from);
    if !pk3_files(&dir).is_empty() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "OpenArena's pk3 files are missing at {} (apt-get install openarena-data openarena-081-players, or set RETROMODEL_OPENARENA); CI must run the MD3 tests",
            dir.display()
        );
    }
    eprintln!(
        "note: OpenArena's pk3 files not found at {} (set RETROMODEL_OPENARENA); skipping",
        dir.display()
    );
    None
}

/// The `.pk3` files in `dir`, sorted.
pub fn pk3_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pk3")))
        .collect();
    out.sort();
    out
}

/// One file taken out of a pk3.
#[derive(Debug, Clone)]
pub struct Pk3Entry {
    /// `pak0.pk3:models/weapons2/rocketl/rocketl.md3`.
    pub key: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(usize::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

/// The entries of zip `bytes` whose name ends with `suffix` (any case):
/// name and contents. Panics on a zip it cannot read (a test fixture).
pub fn zip_entries(bytes: &[u8], suffix: &str) -> Vec<(String, Vec<u8>)> {
    let eocd = (0..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x05\x06"))
        .expect("no end of central directory");
    let count = u16_at(bytes, eocd + 10).unwrap();
    let mut at = u32_at(bytes, eocd + 16).unwrap();
    let mut out = Vec::new();
    for _ in 0..count {
        assert!(bytes[at..].starts_with(b"PK\x01\x02"), "central directory");
        let method = u16_at(bytes, at + 10).unwrap();
        let packed = u32_at(bytes, at + 20).unwrap();
        let size = u32_at(bytes, at + 24).unwrap();
        let (n, e, c) = (
            u16_at(bytes, at + 28).unwrap(),
            u16_at(bytes, at + 30).unwrap(),
            u16_at(bytes, at + 32).unwrap(),
        );
        let local = u32_at(bytes, at + 42).unwrap();
        let name = String::from_utf8_lossy(&bytes[at + 46..at + 46 + n]).into_owned();
        at += 46 + n + e + c;
        if !name.to_ascii_lowercase().ends_with(suffix) {
            continue;
        }
        let data =
            local + 30 + u16_at(bytes, local + 26).unwrap() + u16_at(bytes, local + 28).unwrap();
        let raw = &bytes[data..data + packed];
        let contents = match method {
            0 => raw.to_vec(),
            8 => {
                let mut v = Vec::with_capacity(size);
                flate2::read::DeflateDecoder::new(raw)
                    .read_to_end(&mut v)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                v
            }
            m => panic!("{name}: zip method {m}"),
        };
        assert_eq!(contents.len(), size, "{name}: size");
        out.push((name, contents));
    }
    out
}

/// Every `.md3` in the pk3 files of `dir`, in pk3 and then zip order.
pub fn md3_files(dir: &Path) -> Vec<Pk3Entry> {
    let mut out = Vec::new();
    for pk3 in pk3_files(dir) {
        let bytes = std::fs::read(&pk3).unwrap_or_else(|e| panic!("{}: {e}", pk3.display()));
        let pak = pk3.file_name().unwrap().to_string_lossy().into_owned();
        for (name, bytes) in zip_entries(&bytes, ".md3") {
            out.push(Pk3Entry {
                key: format!("{pak}:{name}"),
                bytes,
            });
        }
    }
    out
}

/// One OpenArena player's files (`models/players/NAME/`).
#[derive(Debug, Clone, Default)]
pub struct PlayerFiles {
    /// The folder, `models/players/NAME` (lower case).
    pub folder: String,
    /// `lower.md3`, `upper.md3`, `head.md3`.
    pub parts: [Vec<u8>; 3],
    /// `animation.cfg`.
    pub animation_cfg: Vec<u8>,
    /// Its `.skin` files: (file name, bytes), sorted by name.
    pub skins: Vec<(String, Vec<u8>)>,
}

/// Every player folder in the pk3 files of `dir` with all three parts
/// and an `animation.cfg` (a later pk3's file replaces an earlier one's,
/// as the game's search path does), sorted by folder.
pub fn players(dir: &Path) -> Vec<PlayerFiles> {
    use std::collections::BTreeMap;
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for pk3 in pk3_files(dir) {
        let bytes = std::fs::read(&pk3).unwrap_or_else(|e| panic!("{}: {e}", pk3.display()));
        for suffix in [".md3", ".cfg", ".skin"] {
            for (name, contents) in zip_entries(&bytes, suffix) {
                let name = name.to_ascii_lowercase();
                if name.starts_with("models/players/") {
                    files.insert(name, contents);
                }
            }
        }
    }
    let folders: Vec<String> = files
        .keys()
        .filter_map(|k| k.strip_suffix("/animation.cfg").map(str::to_string))
        .collect();
    let mut out = Vec::new();
    for folder in folders {
        let get = |f: &str| files.get(&format!("{folder}/{f}")).cloned();
        let (Some(l), Some(u), Some(h), Some(cfg)) = (
            get("lower.md3"),
            get("upper.md3"),
            get("head.md3"),
            get("animation.cfg"),
        ) else {
            continue;
        };
        let prefix = format!("{folder}/");
        let skins = files
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter(|(k, _)| k.ends_with(".skin") && !k[prefix.len()..].contains('/'))
            .map(|(k, v)| (k[prefix.len()..].to_string(), v.clone()))
            .collect();
        out.push(PlayerFiles {
            folder,
            parts: [l, u, h],
            animation_cfg: cfg,
            skins,
        });
    }
    out
}

impl PlayerFiles {
    /// The `.skin` file called `name` (`lower_default.skin`).
    pub fn skin(&self, name: &str) -> Option<&[u8]> {
        self.skins
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// The `default` set's `.skin` files: lower, upper, head.
    pub fn default_skins(&self) -> [Option<&[u8]>; 3] {
        ["lower", "upper", "head"].map(|part| self.skin(&format!("{part}_default.skin")))
    }

    /// Writes the player's files into `root/models/players/NAME/` and
    /// returns that folder (a test fixture: panics when it cannot).
    pub fn unpack(&self, root: &Path) -> PathBuf {
        let folder = root.join(&self.folder);
        std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        let write = |name: &str, bytes: &[u8]| {
            std::fs::write(folder.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        };
        for (name, bytes) in ["lower.md3", "upper.md3", "head.md3"]
            .iter()
            .zip(&self.parts)
        {
            write(name, bytes);
        }
        write("animation.cfg", &self.animation_cfg);
        for (name, bytes) in &self.skins {
            write(name, bytes);
        }
        folder
    }
}
