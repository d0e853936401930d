//! Textures from files held in memory: the files a user dropped on a web
//! page, or any other host without a file system, looked up by the same
//! rules as [`TextureResolver`](super::TextureResolver).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use super::lookup::{beside_model_names, closest_first, parse_name, Listing, Lookup, Pass};
use super::resolve::{Refusal, ResolveError, ResolvedTexture, TextureSource};

/// A [`TextureSource`] over files held in memory, each with a path
/// relative to the top of the set (`faerie2.bmp`, or `baseq2/players/male/grunt.pcx`
/// for a dropped folder).
///
/// The model's folder is the folder of the model file within the set
/// ([`set_model_file`](Self::set_model_file)), and the top of the set is a
/// search root, so a name is looked up as
/// [`TextureResolver`](super::TextureResolver) does for a model in that
/// folder with the top as its one `--texture-dir`: the name as written,
/// then ever shorter suffixes, case-insensitively, then the other image
/// extensions, then anywhere in the set (the best matching folders, then
/// the shallowest, first). Names that are absolute, have a `..` component
/// or hold control characters are refused, and nothing outside the set
/// can ever be read: there is nothing else.
///
/// ```
/// # #[cfg(feature = "textures")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use retromodel::texture::{MemorySource, TextureSource};
///
/// let mut files = MemorySource::new();
/// files.add("game/models/tank/tank.md2", b"model".to_vec())?;
/// files.add("game/models/tank/Skin.PNG", b"png".to_vec())?;
/// files.set_model_file("game/models/tank/tank.md2")?;
/// // A Quake-style game path, another case and another extension:
/// let found = files.load("models/tank/skin.pcx")?;
/// assert_eq!(found.path.to_str(), Some("game/models/tank/Skin.PNG"));
/// assert!(files.load("../secret.pcx").is_err());
/// # Ok(()) }
/// # #[cfg(not(feature = "textures"))]
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemorySource {
    /// Path components → bytes.
    files: BTreeMap<Vec<String>, Arc<[u8]>>,
    /// Folder (path components) → the names of its entries.
    folders: BTreeMap<Vec<String>, BTreeSet<String>>,
    /// The model's folder, as path components (empty: the top).
    model_dir: Vec<String>,
}

impl MemorySource {
    /// An empty set of files.
    pub fn new() -> Self {
        MemorySource::default()
    }

    /// Adds (or replaces) the file at `path`, relative to the top of the
    /// set; `/` and `\` separate folders. A path that is absolute, has a
    /// `..` component or holds control characters is refused.
    pub fn add(&mut self, path: &str, bytes: impl Into<Arc<[u8]>>) -> Result<(), Refusal> {
        let components = parse_name(path)?;
        for depth in 0..components.len() {
            self.folders
                .entry(components[..depth].to_vec())
                .or_default()
                .insert(components[depth].clone());
        }
        self.files.insert(components, bytes.into());
        Ok(())
    }

    /// Makes the folder of `model_path` (a path in the set, as given to
    /// [`add`](Self::add)) the model's folder, searched first.
    pub fn set_model_file(&mut self, model_path: &str) -> Result<(), Refusal> {
        let mut components = parse_name(model_path)?;
        components.pop();
        self.model_dir = components;
        Ok(())
    }

    /// The bytes of the file at exactly `path` (as given to
    /// [`add`](Self::add), separators and `.` components aside).
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        let components = parse_name(path).ok()?;
        self.files.get(&components).map(|b| &b[..])
    }

    /// The paths of the files, in sorted order, `/`-separated.
    pub fn paths(&self) -> impl Iterator<Item = String> + '_ {
        self.files.keys().map(|c| c.join("/"))
    }

    /// How many files the set holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the set holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The folders searched, in order: the model's, then the top (once).
    fn search_folders(&self) -> Vec<&[String]> {
        let mut folders: Vec<&[String]> = vec![&self.model_dir];
        if !self.model_dir.is_empty() {
            folders.push(&[]);
        }
        folders
    }

    /// The file `files[i]` (the first there is) after following `dirs` from
    /// `base`, every component matched exactly or else case-insensitively.
    fn in_folder(&self, base: &[String], dirs: &[String], files: &[String]) -> Option<Vec<String>> {
        let mut dir = base.to_vec();
        for component in dirs {
            let entry = self.listing(&dir).find(component)?.to_owned();
            dir.push(entry);
        }
        let listing = self.listing(&dir);
        files.iter().find_map(|file| {
            let mut path = dir.clone();
            path.push(listing.find(file)?.to_owned());
            self.files.contains_key(&path).then_some(path)
        })
    }

    fn listing(&self, dir: &[String]) -> Listing {
        Listing::new(self.folders.get(dir).into_iter().flatten().cloned())
    }

    fn found(&self, path: &[String]) -> ResolvedTexture {
        ResolvedTexture {
            path: PathBuf::from(path.join("/")),
            bytes: self.files.get(path).map(|b| b.to_vec()).unwrap_or_default(),
            skipped: Vec::new(),
        }
    }

    fn join(dir: &[String], rest: &[String]) -> PathBuf {
        PathBuf::from(
            dir.iter()
                .chain(rest)
                .cloned()
                .collect::<Vec<_>>()
                .join("/"),
        )
    }
}

fn refused(name: &str) -> impl Fn(Refusal) -> ResolveError + '_ {
    move |reason| ResolveError::Refused {
        name: name.to_owned(),
        reason,
        skipped: Vec::new(),
    }
}

impl TextureSource for MemorySource {
    fn load(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        let lookup = Lookup::new(name).map_err(refused(name))?;
        let folders = self.search_folders();
        let mut tried = Vec::new();
        for step in lookup.folder_steps() {
            for folder in &folders {
                if step.pass == Pass::Exact {
                    tried.push(Self::join(folder, step.suffix));
                }
                if let Some(path) = self.in_folder(folder, step.dirs, &step.files) {
                    return Ok(self.found(&path));
                }
            }
        }
        // Anywhere in the set (the top is a search root).
        for step in lookup.anywhere_steps() {
            let mut matches: Vec<(&Vec<String>, Vec<String>)> = self
                .files
                .keys()
                .filter_map(|path| {
                    let (file, dirs) = path.split_last()?;
                    (file.to_lowercase() == step.file)
                        .then(|| (path, dirs.iter().map(|d| d.to_lowercase()).collect()))
                })
                .collect();
            closest_first(&mut matches, &step.dirs, |m| &m.1, |a, b| a.0.cmp(b.0));
            if let Some((path, _)) = matches.first() {
                return Ok(self.found(path));
            }
        }
        Err(ResolveError::NotFound {
            name: name.to_owned(),
            tried,
            skipped: Vec::new(),
        })
    }

    fn load_resource(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        let components = parse_name(name).map_err(refused(name))?;
        let mut tried = Vec::new();
        for folder in self.search_folders() {
            let path: Vec<String> = folder.iter().chain(&components).cloned().collect();
            if self.files.contains_key(&path) {
                return Ok(self.found(&path));
            }
            tried.push(Self::join(&path, &[]));
        }
        Err(ResolveError::NotFound {
            name: name.to_owned(),
            tried,
            skipped: Vec::new(),
        })
    }

    fn load_beside_model(&self, model_file_name: &str) -> Result<ResolvedTexture, ResolveError> {
        let (stem, names) =
            beside_model_names(model_file_name).map_err(refused(model_file_name))?;
        if let Some(path) = self.in_folder(&self.model_dir, &[], &names) {
            return Ok(self.found(&path));
        }
        Err(ResolveError::NotFound {
            name: model_file_name.to_owned(),
            tried: vec![Self::join(&self.model_dir, &[stem])],
            skipped: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(paths: &[&str]) -> MemorySource {
        let mut s = MemorySource::new();
        for p in paths {
            s.add(p, p.as_bytes().to_vec()).unwrap();
        }
        s
    }

    fn path(s: &MemorySource, name: &str) -> Option<String> {
        s.load(name)
            .ok()
            .map(|f| f.path.to_string_lossy().into_owned())
    }

    #[test]
    fn names_resolve_as_on_disk() {
        let mut s = set(&[
            "game/players/male/grunt.pcx",
            "game/models/monster/Textures/SKIN.TGA",
            "game/models/monster/Monster.PNG",
            "game/models/monster/monster.md2",
            "game/zz/deep/a/pic.png",
            "game/textures/pic.png",
            "game/zz/deep/monster/pic.png",
        ]);
        s.set_model_file("game/models/monster/monster.md2").unwrap();
        let tga = Some("game/models/monster/Textures/SKIN.TGA".to_string());
        assert_eq!(path(&s, "textures\\skin.tga"), tga);
        assert_eq!(path(&s, ".\\textures/./Skin.tga"), tga);
        assert_eq!(path(&s, "models/monster/textures/skin.tga"), tga);
        assert_eq!(path(&s, "textures/skin.pcx"), tga);
        // Relative to the top of the set, as to a root.
        assert_eq!(
            path(&s, "game/Players/MALE/Grunt.PCX").as_deref(),
            Some("game/players/male/grunt.pcx")
        );
        // Anywhere: the best matching folders, then the shallowest.
        assert_eq!(
            path(&s, "players/male/grunt.pcx").as_deref(),
            Some("game/players/male/grunt.pcx")
        );
        assert_eq!(
            path(&s, "pic.png").as_deref(),
            Some("game/textures/pic.png")
        );
        assert_eq!(
            path(&s, "x/monster/pic.png").as_deref(),
            Some("game/zz/deep/monster/pic.png")
        );
        let beside = s.load_beside_model("monster.md2").unwrap();
        assert_eq!(
            beside.path.to_str(),
            Some("game/models/monster/Monster.PNG")
        );
        assert_eq!(beside.bytes, b"game/models/monster/Monster.PNG");
        assert!(s.load_beside_model("other.md2").is_err());
        // Exact resources: relative to the model's folder, then the top.
        assert!(s.load_resource("textures/skin.tga").is_err());
        assert!(s.load_resource("Textures/SKIN.TGA").is_ok());
        assert!(s.load_resource("game/textures/pic.png").is_ok());
    }

    #[test]
    fn hostile_names_and_paths_are_refused() {
        let mut s = set(&["a.pcx"]);
        for bad in [
            "../a.pcx",
            "/a.pcx",
            "C:\\a.pcx",
            "a\u{0}b.pcx",
            "x/../a.pcx",
        ] {
            assert!(
                matches!(s.load(bad), Err(ResolveError::Refused { .. })),
                "{bad:?}"
            );
            assert!(s.load_resource(bad).is_err(), "{bad:?}");
        }
        assert_eq!(s.add("../up.pcx", vec![]), Err(Refusal::ParentComponent));
        assert_eq!(s.add("/abs.pcx", vec![]), Err(Refusal::Absolute));
        assert_eq!(s.len(), 1);
        let err = s.load("missing.pcx").unwrap_err();
        assert!(err.to_string().contains("not found"), "{err}");
    }

    #[test]
    fn a_flat_drop_is_one_folder() {
        let mut s = set(&["tris.md2", "Tris.PCX", "other.png"]);
        s.set_model_file("tris.md2").unwrap();
        assert_eq!(s.load_beside_model("tris.md2").unwrap().bytes, b"Tris.PCX");
        assert_eq!(
            path(&s, "players/x/other.pcx").as_deref(),
            Some("other.png")
        );
        assert_eq!(s.get("./Tris.PCX"), Some(&b"Tris.PCX"[..]));
        assert_eq!(
            s.paths().collect::<Vec<_>>(),
            ["Tris.PCX", "other.png", "tris.md2"]
        );
    }
}
