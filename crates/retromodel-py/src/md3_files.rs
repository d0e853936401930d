//! The files beside an MD3 that `retromodel.load` reads: a player's other
//! parts, its `animation.cfg` and `.skin` files, found in the model's
//! folder (names compared without case, as in a pk3), as the command
//! line's `convert` finds them. The library reads no files; this front end
//! does, and hands the bytes to the library as `Md3Companions`.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use retromodel::md3::{skin_file_names, AnimationCfg, Md3Companions, PlayerPart};
use serde_json::{json, Value};

/// The keywords of `load` for an MD3.
pub struct Md3Keywords<'a> {
    /// `skin=`: the skin set (`default`, `red`).
    pub skin: &'a str,
    /// `weapon=`: a weapon's `.md3` for the player to hold.
    pub weapon: Option<&'a Path>,
    /// `player=`: the whole player when the file is one of its parts.
    pub player: bool,
}

/// An MD3 read with the files beside it.
pub struct Md3Found {
    /// The model file to read (the `.md3` given, `lower.md3` for a
    /// player's folder).
    pub model: PathBuf,
    /// The files' bytes, for the library.
    pub companions: Md3Companions,
    /// What was found, for `info()["md3_files"]`.
    pub facts: Value,
}

/// The file called `name` (without case) in `folder`.
fn find(folder: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name) && e.path().is_file())
        .map(|e| e.path())
}

fn read(path: &Path) -> Result<Vec<u8>, (std::io::Error, PathBuf)> {
    std::fs::read(path).map_err(|e| (e, path.to_path_buf()))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Why the files of an MD3 could not be found or read.
pub enum Md3FilesError {
    /// A file could not be read.
    Io(std::io::Error, PathBuf),
    /// What the keywords ask is not there (worded for Python).
    Keyword(String),
}

impl From<(std::io::Error, PathBuf)> for Md3FilesError {
    fn from((e, p): (std::io::Error, PathBuf)) -> Self {
        Md3FilesError::Io(e, p)
    }
}

/// The MD3 at `input` (a `.md3` file, or a player's folder holding
/// `lower.md3`) with the files beside it; `None` for any other input.
pub fn md3_input(input: &Path, keys: &Md3Keywords) -> Result<Option<Md3Found>, Md3FilesError> {
    let (folder, model) = if input.is_dir() {
        let Some(lower) = find(input, "lower.md3") else {
            return Err(Md3FilesError::Keyword(format!(
                "{}: a folder is read as a Quake III player, and it has no lower.md3",
                input.display()
            )));
        };
        (input.to_path_buf(), lower)
    } else {
        let is_md3 = input
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("md3"));
        if !is_md3 {
            return Ok(None);
        }
        let folder = match input.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        (folder, input.to_path_buf())
    };
    let set = keys.skin;
    let explicit_skin = !set.eq_ignore_ascii_case("default");
    let file = file_name(&model);
    let part = PlayerPart::from_file_name(&file);
    let cfg_path = find(&folder, "animation.cfg");
    let animation_cfg = cfg_path.as_deref().map(read).transpose()?;
    let animations: Vec<Value> = animation_cfg
        .as_deref()
        .and_then(|b| AnimationCfg::parse(b).ok())
        .map(|cfg| {
            cfg.animations
                .iter()
                .map(|a| {
                    json!({"name": a.name, "first_frame": a.first_frame,
                           "frame_count": a.num_frames, "looping_frames": a.looping_frames,
                           "fps": a.fps})
                })
                .collect()
        })
        .unwrap_or_default();
    let mut companions = Md3Companions {
        animation_cfg,
        part,
        ..Md3Companions::default()
    };
    // The whole player when the file is one of its three parts (not a
    // level of detail like lower_1.md3) and all three are there.
    let is_part = ["lower.md3", "upper.md3", "head.md3"]
        .iter()
        .any(|n| file.eq_ignore_ascii_case(n));
    let parts = ["lower.md3", "upper.md3", "head.md3"].map(|n| find(&folder, n));
    if let (true, true, [Some(l), Some(u), Some(h)]) =
        (keys.player, is_part || input.is_dir(), &parts)
    {
        companions.player = Some([read(l)?, read(u)?, read(h)?]);
        companions.weapon = keys.weapon.map(read).transpose()?;
        let names = skin_file_names(set);
        let skins = names.clone().map(|n| find(&folder, &n));
        if explicit_skin && skins.iter().all(Option::is_none) {
            return Err(Md3FilesError::Keyword(format!(
                "{}: no {} there (skin set {set:?})",
                folder.display(),
                names.join(", ")
            )));
        }
        let [a, b, c] = &skins;
        companions.player_skins = [
            a.as_deref().map(read).transpose()?,
            b.as_deref().map(read).transpose()?,
            c.as_deref().map(read).transpose()?,
        ];
        let facts = json!({
            "player": true,
            "parts": [file_name(l), file_name(u), file_name(h)],
            "animation_cfg": cfg_path.as_deref().map(file_name),
            "skin": skins.iter().any(Option::is_some).then_some(set),
            "skin_files": skins.iter().flatten().map(|p| file_name(p)).collect::<Vec<_>>(),
            "weapon": keys.weapon.map(|w| w.display().to_string()),
            "animations": animations,
        });
        // The model's own arrays (frame_positions ...) stay the file's
        // named (lower.md3 for a folder); the scene is the whole player.
        return Ok(Some(Md3Found {
            model,
            companions,
            facts,
        }));
    }
    if let Some(w) = keys.weapon {
        return Err(Md3FilesError::Keyword(format!(
            "{}: weapon={:?}: a weapon is held by a whole player (load its lower.md3, upper.md3, \
             head.md3 or folder with player=True)",
            input.display(),
            w.display().to_string()
        )));
    }
    let stem = file.rsplit_once('.').map_or(file.as_str(), |(s, _)| s);
    let skin_name = format!("{stem}_{set}.skin");
    let skin = find(&folder, &skin_name);
    if explicit_skin && skin.is_none() {
        return Err(Md3FilesError::Keyword(format!(
            "{}: no {skin_name} there (skin set {set:?})",
            folder.display()
        )));
    }
    companions.skin = skin.as_deref().map(read).transpose()?;
    let facts = json!({
        "player": false,
        "parts": [file.clone()],
        "animation_cfg": cfg_path.as_deref().map(file_name),
        "skin": skin.is_some().then_some(set),
        "skin_files": skin.iter().map(|p| file_name(p)).collect::<Vec<_>>(),
        "weapon": Value::Null,
        "animations": animations,
    });
    Ok(Some(Md3Found {
        model,
        companions,
        facts,
    }))
}

/// The MD3 files `load(source, skin=, weapon=, player=)` reads, when
/// `source` is an MD3's path or a player's folder.
pub fn for_load(
    py: Python<'_>,
    source: &crate::source::Source,
    skin: &str,
    weapon: Option<&Path>,
    player: bool,
) -> PyResult<Option<Md3Found>> {
    let found = match source {
        crate::source::Source::Path(path) => {
            let keys = Md3Keywords {
                skin,
                weapon,
                player,
            };
            py.detach(|| md3_input(path, &keys)).map_err(|e| match e {
                Md3FilesError::Io(e, p) => crate::errors::io_to_py(&e, &p),
                Md3FilesError::Keyword(m) => crate::errors::Error::new_err(m),
            })?
        }
        crate::source::Source::Bytes(_) => None,
    };
    if found.is_none() && (weapon.is_some() || skin != "default") {
        return Err(crate::errors::Error::new_err(
            "skin= and weapon= are for a Quake III .md3 path or player folder",
        ));
    }
    Ok(found)
}
