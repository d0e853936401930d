//! Finding the image file that a texture name read from a model stands for,
//! without ever opening a file outside the folders the user allowed.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::lookup::{
    beside_model_names, closest_first, parse_name, Listing, Lookup, Pass, MAX_NAME_LEN,
};

/// The extensions tried for a texture name that has none, in this order
/// (also the order of the alternatives tried for a name whose file is
/// missing, e.g. `skin.png` for `skin.pcx`).
pub const IMAGE_EXTENSIONS: [&str; 6] = ["pcx", "png", "tga", "jpg", "jpeg", "bmp"];

/// How deep the search of a root's subfolders goes.
const MAX_INDEX_DEPTH: usize = 16;
/// How many directory entries the search of one root's subfolders reads at
/// most.
const MAX_INDEX_ENTRIES: usize = 200_000;

/// Where a model's textures come from: the seam between the format code
/// (which only sees texture *names*) and the place that holds the files.
///
/// [`TextureResolver`] is the file-system implementation, confined to the
/// model's folder and the user's search roots; tests and other hosts can
/// provide images from memory.
pub trait TextureSource {
    /// The image that `name` (a skin or material texture path as stored in
    /// a model file, untrusted) stands for.
    fn load(&self, name: &str) -> Result<ResolvedTexture, ResolveError>;

    /// The file that a document names by a relative reference (untrusted,
    /// already percent-decoded): a `.gltf`'s external buffers and images,
    /// whose URIs name one file exactly. The default calls
    /// [`load`](Self::load); [`TextureResolver`] looks for exactly that path
    /// ([`TextureResolver::resolve_exact`]), with no other extensions and no
    /// search by file name.
    fn load_resource(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        self.load(name)
    }

    /// An image named like the model file (`tris.md2` → `tris.pcx`,
    /// `tris.png`, ...), for a model that names no texture. The default
    /// finds nothing.
    fn load_beside_model(&self, model_file_name: &str) -> Result<ResolvedTexture, ResolveError> {
        Err(ResolveError::NotFound {
            name: model_file_name.to_owned(),
            tried: Vec::new(),
            skipped: Vec::new(),
        })
    }
}

/// A texture file that was found and read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedTexture {
    /// The file's real path (absolute, symbolic links followed); it lies
    /// inside the model's folder or one of the search roots.
    pub path: PathBuf,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Files that matched the name before this one but were passed over,
    /// with the reason (worth a warning: e.g. a symbolic link that leads
    /// outside the allowed folders).
    pub skipped: Vec<Skipped>,
}

/// A file that matched a texture name but was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The matching path, as found in a folder listing.
    pub path: PathBuf,
    /// Why it was not used.
    pub reason: SkipReason,
}

/// Why a matching file was not used.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Its real path (after following symbolic links) is outside the
    /// model's folder and the search roots.
    OutsideAllowedFolders {
        /// The real path it leads to.
        real_path: PathBuf,
    },
    /// It is a folder, a device, a pipe or a socket.
    NotAFile,
    /// It is larger than the resolver's limit.
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// It could not be opened or read.
    Unreadable {
        /// The system's message.
        message: String,
    },
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.reason {
            SkipReason::OutsideAllowedFolders { real_path } => write!(
                f,
                "{path}: refused, it leads to {} outside the allowed folders",
                real_path.display()
            ),
            SkipReason::NotAFile => write!(f, "{path}: not a regular file"),
            SkipReason::TooLarge { size, limit } => {
                write!(f, "{path}: {size} bytes, more than the limit of {limit}")
            }
            SkipReason::Unreadable { message } => write!(f, "{path}: {message}"),
        }
    }
}

/// Why a texture name is refused without looking at the file system, or
/// why everything it matched was refused.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The name is empty or names a folder (`""`, `.\`, `players/nehe/`).
    NoFileName,
    /// The name is longer than 1024 bytes.
    TooLong,
    /// The name is an absolute or root-relative path (`/etc/passwd`,
    /// `\secret.pcx`, `\\server\share\x.pcx`).
    Absolute,
    /// The name starts with a Windows drive (`C:\Windows\x.pcx`, `C:x.pcx`).
    DrivePrefix,
    /// The name has a `..` component (or one of dots and spaces only, which
    /// Windows may read as `..`).
    ParentComponent,
    /// The name holds a NUL, a control character or a `:`.
    ForbiddenCharacter(char),
    /// Every file the name matched leads outside the model's folder and the
    /// search roots (see the `skipped` list of the error).
    OutsideAllowedFolders,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoFileName => f.write_str("it names no file"),
            Refusal::TooLong => write!(f, "it is longer than {MAX_NAME_LEN} bytes"),
            Refusal::Absolute => f.write_str("it is an absolute path"),
            Refusal::DrivePrefix => f.write_str("it starts with a drive letter"),
            Refusal::ParentComponent => f.write_str("it has a `..` component"),
            Refusal::ForbiddenCharacter(c) => write!(f, "it holds the character {c:?}"),
            Refusal::OutsideAllowedFolders => {
                f.write_str("every match leads outside the allowed folders")
            }
        }
    }
}

impl std::error::Error for Refusal {}

/// Why no texture was returned for a name.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// The name was refused for safety.
    #[error("texture {name:?} refused: {reason}")]
    Refused {
        /// The name as given.
        name: String,
        /// Why.
        reason: Refusal,
        /// Matching files that were passed over (for
        /// [`Refusal::OutsideAllowedFolders`]).
        skipped: Vec<Skipped>,
    },
    /// No file matches the name.
    #[error("texture {name:?} not found (looked in {} places)", tried.len())]
    NotFound {
        /// The name as given.
        name: String,
        /// Where it was looked for: each folder joined with each suffix of
        /// the name as written (the extension alternatives of a suffix and
        /// the search below the roots are not listed one by one).
        tried: Vec<PathBuf>,
        /// Matching files that were passed over.
        skipped: Vec<Skipped>,
    },
}

/// Finds texture files for a model, confined to the model's folder and the
/// search roots the user gave.
///
/// A name is looked up as follows, and the first regular file found wins:
///
/// 1. The name is split at `/` and `\`; `.` components are dropped. Names
///    that are absolute (`/x`, `\x`), start with a drive (`C:`), have a
///    `..` component or hold control characters or `:` are
///    [refused](Refusal) before the file system is touched.
/// 2. The path, then ever shorter suffixes of it (`players/male/grunt.pcx`,
///    `male/grunt.pcx`, `grunt.pcx`), relative to the model's folder and
///    then to each root. Every component is matched case-insensitively
///    against the folder's listing when there is no exact match. A name
///    without an extension tries [`IMAGE_EXTENSIONS`]; a UFO:AI name like
///    `.alientank` (a dot, then a name without extension) also tries
///    `alientank` + those extensions.
/// 3. The same with the other image extensions (`grunt.png`, `grunt.tga`,
///    ... for `grunt.pcx`), as engines that replace PCX skins do.
/// 4. Files with the name's file name anywhere below a search root (not
///    below the model's folder), preferring those whose folders match more
///    of the name's folders, then the shallowest. The roots' listings are
///    read once, on first need (at most 16 levels and 200 000 entries per
///    root; symbolic links to folders are not followed).
///
/// Every match is checked before it is opened: its real path, with all
/// symbolic links followed, must lie inside the real path of the model's
/// folder or of a root, and it must be a regular file no larger than
/// [`max_file_size`](Self::with_max_file_size). Matches that fail are
/// passed over and reported in `skipped`. The check and the read are two
/// steps: someone who can rewrite the allowed folders while the resolver
/// runs could swap a file in between.
///
/// ```no_run
/// use retromodel::texture::{TextureResolver, TextureSource};
///
/// let resolver = TextureResolver::for_model_file("baseq2/players/male/tris.md2".as_ref())
///     .with_root("baseq2");
/// match resolver.load("players/male/grunt.pcx") {
///     Ok(found) => println!("{} ({} bytes)", found.path.display(), found.bytes.len()),
///     Err(why) => eprintln!("warning: {why}"),
/// }
/// ```
#[derive(Debug, Clone)]
pub struct TextureResolver {
    model_dir: PathBuf,
    roots: Vec<PathBuf>,
    max_file_size: u64,
    /// File names below each root, built on first need.
    index: OnceLock<Vec<RootIndex>>,
}

/// A folder the resolver may read: as given, and its real path.
#[derive(Debug, Clone)]
struct Folder<'a> {
    given: &'a Path,
    real: PathBuf,
}

/// The files below one root: lower-case file name → paths.
#[derive(Debug, Clone, Default)]
struct RootIndex {
    files: HashMap<String, Vec<IndexedFile>>,
}

#[derive(Debug, Clone)]
struct IndexedFile {
    /// Full path below the root's real path.
    path: PathBuf,
    /// Lower-case names of the folders between the root and the file.
    dirs: Vec<String>,
}

impl TextureResolver {
    /// A resolver for a model in `model_dir`, with no search roots.
    pub fn new(model_dir: impl Into<PathBuf>) -> Self {
        TextureResolver {
            model_dir: model_dir.into(),
            roots: Vec::new(),
            max_file_size: 64 << 20,
            index: OnceLock::new(),
        }
    }

    /// A resolver for the model file at `model_path` (its folder, or `.`
    /// for a bare file name).
    pub fn for_model_file(model_path: &Path) -> Self {
        let dir = match model_path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Self::new(dir)
    }

    /// Adds a search root (a game folder such as `baseq2`). Roots are
    /// tried in the order added, after the model's folder.
    pub fn with_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.roots.push(root.into());
        self.index = OnceLock::new();
        self
    }

    /// Adds several search roots.
    pub fn with_roots<I, P>(mut self, roots: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        self.roots.extend(roots.into_iter().map(Into::into));
        self.index = OnceLock::new();
        self
    }

    /// Sets the largest file that is read (default 64 MiB).
    pub fn with_max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = bytes;
        self
    }

    /// The model's folder.
    pub fn model_dir(&self) -> &Path {
        &self.model_dir
    }

    /// The search roots.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Finds and reads the texture that `name` (untrusted, as stored in a
    /// model) stands for. See the [type documentation](Self) for the search
    /// order and the safety checks.
    pub fn resolve(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        let refused = |reason| ResolveError::Refused {
            name: name.to_owned(),
            reason,
            skipped: Vec::new(),
        };
        let lookup = Lookup::new(name).map_err(refused)?;
        let folders = self.folders();
        let mut search = Search::new(name, self.max_file_size, &folders);
        for step in lookup.folder_steps() {
            for folder in &folders {
                if step.pass == Pass::Exact {
                    search.tried.push(
                        step.suffix
                            .iter()
                            .fold(folder.given.to_path_buf(), |p, c| p.join(c)),
                    );
                }
                if let Some(found) = search.in_folder(&folder.real, step.dirs, &step.files) {
                    return Ok(found);
                }
            }
        }

        // Anywhere below a root.
        if !self.roots.is_empty() {
            let index = self.index.get_or_init(|| {
                self.roots
                    .iter()
                    .map(|root| match fs::canonicalize(root) {
                        Ok(real) => build_index(&real),
                        Err(_) => RootIndex::default(),
                    })
                    .collect()
            });
            for step in lookup.anywhere_steps() {
                let mut matches: Vec<&IndexedFile> = index
                    .iter()
                    .filter_map(|root| root.files.get(&step.file))
                    .flatten()
                    .collect();
                closest_first(
                    &mut matches,
                    &step.dirs,
                    |f| &f.dirs,
                    |a, b| a.path.cmp(&b.path),
                );
                for file in matches {
                    if let Some(found) = search.open(&file.path) {
                        return Ok(found);
                    }
                }
            }
        }
        Err(search.failure())
    }

    /// Reads the file that `name` (untrusted, a relative path such as a
    /// `.gltf`'s percent-decoded buffer or image URI) names, exactly: the
    /// path relative to the model's folder, then to each root, with no
    /// shorter suffixes, no other extensions, no case-insensitive match and
    /// no search below the roots. Names are refused and matches checked as
    /// for [`resolve`](Self::resolve) (no absolute paths, no `..`, nothing
    /// whose real path leads outside the allowed folders, regular files no
    /// larger than the limit).
    ///
    /// ```no_run
    /// use retromodel::texture::TextureResolver;
    ///
    /// let resolver = TextureResolver::for_model_file("models/box.gltf".as_ref());
    /// let bin = resolver.resolve_exact("box.bin"); // models/box.bin, nothing else
    /// assert!(resolver.resolve_exact("../secret.bin").is_err()); // refused
    /// ```
    pub fn resolve_exact(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        let refused = |reason| ResolveError::Refused {
            name: name.to_owned(),
            reason,
            skipped: Vec::new(),
        };
        let components = parse_name(name).map_err(refused)?;
        let folders = self.folders();
        let mut search = Search::new(name, self.max_file_size, &folders);
        for folder in &folders {
            let join = |base: &Path| components.iter().fold(base.to_path_buf(), |p, c| p.join(c));
            search.tried.push(join(folder.given));
            let path = join(&folder.real);
            if fs::symlink_metadata(&path).is_ok() {
                if let Some(found) = search.open(&path) {
                    return Ok(found);
                }
            }
        }
        Err(search.failure())
    }

    /// Finds an image named like the model file (`tris.md2` → `tris.pcx`,
    /// `tris.png`, ... in [`IMAGE_EXTENSIONS`] order, case-insensitively)
    /// in the model's folder only: the usual place of the skin of an MD2
    /// that names none.
    pub fn resolve_beside_model(
        &self,
        model_file_name: &str,
    ) -> Result<ResolvedTexture, ResolveError> {
        let refused = |reason| ResolveError::Refused {
            name: model_file_name.to_owned(),
            reason,
            skipped: Vec::new(),
        };
        let (stem, alternatives) = beside_model_names(model_file_name).map_err(refused)?;
        let Ok(real) = fs::canonicalize(&self.model_dir) else {
            return Err(ResolveError::NotFound {
                name: model_file_name.to_owned(),
                tried: Vec::new(),
                skipped: Vec::new(),
            });
        };
        let folders = [Folder {
            given: &self.model_dir,
            real,
        }];
        let mut search = Search::new(model_file_name, self.max_file_size, &folders);
        search.tried.push(self.model_dir.join(stem));
        if let Some(found) = search.in_folder(&folders[0].real, &[], &alternatives) {
            return Ok(found);
        }
        Err(search.failure())
    }

    /// The model's folder and the roots that exist, with their real paths,
    /// without duplicates.
    fn folders(&self) -> Vec<Folder<'_>> {
        let mut folders: Vec<Folder<'_>> = Vec::new();
        for given in std::iter::once(&self.model_dir).chain(&self.roots) {
            if let Ok(real) = fs::canonicalize(given) {
                if real.is_dir() && !folders.iter().any(|f| f.real == real) {
                    folders.push(Folder { given, real });
                }
            }
        }
        folders
    }
}

impl TextureSource for TextureResolver {
    fn load(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        self.resolve(name)
    }

    fn load_resource(&self, name: &str) -> Result<ResolvedTexture, ResolveError> {
        self.resolve_exact(name)
    }

    fn load_beside_model(&self, model_file_name: &str) -> Result<ResolvedTexture, ResolveError> {
        self.resolve_beside_model(model_file_name)
    }
}

/// The state of one lookup: what was tried and passed over.
struct Search<'a> {
    name: &'a str,
    max_file_size: u64,
    allowed: Vec<&'a Path>,
    tried: Vec<PathBuf>,
    skipped: Vec<Skipped>,
    /// Paths already checked (the search below a root can meet the files
    /// of the model's folder again).
    opened: HashSet<PathBuf>,
    /// Folder listings read so far.
    listings: HashMap<PathBuf, Listing>,
}

impl<'a> Search<'a> {
    fn new(name: &'a str, max_file_size: u64, folders: &'a [Folder<'a>]) -> Self {
        Search {
            name,
            max_file_size,
            allowed: folders.iter().map(|f| f.real.as_path()).collect(),
            tried: Vec::new(),
            skipped: Vec::new(),
            opened: HashSet::new(),
            listings: HashMap::new(),
        }
    }

    /// Follows `dirs` from `base` (case-insensitively), then opens the
    /// first of `files` that is there and passes the checks.
    fn in_folder(
        &mut self,
        base: &Path,
        dirs: &[String],
        files: &[String],
    ) -> Option<ResolvedTexture> {
        let mut dir = base.to_path_buf();
        for component in dirs {
            let entry = self.find_entry(&dir, component)?;
            dir.push(entry);
        }
        for file in files {
            if let Some(entry) = self.find_entry(&dir, file) {
                if let Some(found) = self.open(&dir.join(entry)) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// The entry of `dir` called `name`: exactly, or else the first (by
    /// name) whose name matches case-insensitively. Listings are read once
    /// per lookup.
    fn find_entry(&mut self, dir: &Path, name: &str) -> Option<String> {
        if fs::symlink_metadata(dir.join(name)).is_ok() {
            return Some(name.to_owned());
        }
        let listing = self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            Listing::new(
                fs::read_dir(dir)
                    .map(|entries| {
                        entries
                            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default(),
            )
        });
        listing.find_ignoring_case(name).map(str::to_owned)
    }

    /// Checks that `path` really lies inside an allowed folder and is a
    /// regular file of acceptable size, then reads it. Records why not.
    fn open(&mut self, path: &Path) -> Option<ResolvedTexture> {
        if !self.opened.insert(path.to_path_buf()) {
            return None;
        }
        let skip = |reason| Skipped {
            path: path.to_path_buf(),
            reason,
        };
        let unreadable = |e: std::io::Error| {
            skip(SkipReason::Unreadable {
                message: e.to_string(),
            })
        };
        let real = match fs::canonicalize(path) {
            Ok(real) => real,
            Err(e) => {
                self.skipped.push(unreadable(e));
                return None;
            }
        };
        if !self.allowed.iter().any(|folder| real.starts_with(folder)) {
            self.skipped
                .push(skip(SkipReason::OutsideAllowedFolders { real_path: real }));
            return None;
        }
        // The real path has no symbolic links left, so this is the file's
        // own metadata: a pipe or device is never opened.
        let meta = match fs::metadata(&real) {
            Ok(meta) => meta,
            Err(e) => {
                self.skipped.push(unreadable(e));
                return None;
            }
        };
        if !meta.is_file() {
            self.skipped.push(skip(SkipReason::NotAFile));
            return None;
        }
        let limit = self.max_file_size;
        if meta.len() > limit {
            self.skipped.push(skip(SkipReason::TooLarge {
                size: meta.len(),
                limit,
            }));
            return None;
        }
        let mut bytes = Vec::new();
        let read = fs::File::open(&real).and_then(|file| {
            file.take(limit.saturating_add(1))
                .read_to_end(&mut bytes)
                .map(|_| ())
        });
        if let Err(e) = read {
            self.skipped.push(unreadable(e));
            return None;
        }
        if bytes.len() as u64 > limit {
            self.skipped.push(skip(SkipReason::TooLarge {
                size: bytes.len() as u64,
                limit,
            }));
            return None;
        }
        Some(ResolvedTexture {
            path: real,
            bytes,
            skipped: std::mem::take(&mut self.skipped),
        })
    }

    /// The error after every candidate failed.
    fn failure(self) -> ResolveError {
        let all_outside = !self.skipped.is_empty()
            && self
                .skipped
                .iter()
                .all(|s| matches!(s.reason, SkipReason::OutsideAllowedFolders { .. }));
        if all_outside {
            ResolveError::Refused {
                name: self.name.to_owned(),
                reason: Refusal::OutsideAllowedFolders,
                skipped: self.skipped,
            }
        } else {
            ResolveError::NotFound {
                name: self.name.to_owned(),
                tried: self.tried,
                skipped: self.skipped,
            }
        }
    }
}

/// Lists the files below `root` (breadth first, bounded).
fn build_index(root: &Path) -> RootIndex {
    let mut index = RootIndex::default();
    let mut queue = std::collections::VecDeque::from([(root.to_path_buf(), Vec::<String>::new())]);
    let mut seen = 0usize;
    while let Some((dir, dirs)) = queue.pop_front() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            seen += 1;
            if seen > MAX_INDEX_ENTRIES {
                return index;
            }
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            // The entry's own type: a symbolic link is not followed here.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if dirs.len() < MAX_INDEX_DEPTH {
                    let mut sub = dirs.clone();
                    sub.push(name.to_lowercase());
                    queue.push_back((entry.path(), sub));
                }
            } else {
                index
                    .files
                    .entry(name.to_lowercase())
                    .or_default()
                    .push(IndexedFile {
                        path: entry.path(),
                        dirs: dirs.clone(),
                    });
            }
        }
    }
    index
}
