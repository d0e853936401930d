//! The files beside an MD3 that `retromodel.load` reads: a player's other
//! parts, its `animation.cfg` and `.skin` files, found in the model's
//! folder (names compared without case, as in a pk3), as the command
//! line's `convert` finds them. The library reads no files; this front end
//! does, and hands the bytes to the library as `Md3Companions`.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use retromodel::md3::{
    folder_file_names, AnimationCfg, Md3Companions, Md3FilePlan, Md3FileRequest, Md3FilesProblem,
    WholePlayer,
};
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
        (input.to_path_buf(), None)
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
        (folder, Some(file_name(input)))
    };
    let set = keys.skin;
    let request = Md3FileRequest {
        model: model.as_deref(),
        skin_set: (!set.eq_ignore_ascii_case("default")).then_some(set),
        whole_player: if keys.player {
            WholePlayer::FromAnyPart
        } else {
            WholePlayer::Never
        },
    };
    let plan = Md3FilePlan::choose(&folder_file_names(&folder), request).map_err(|p| {
        Md3FilesError::Keyword(match p {
            Md3FilesProblem::NoLowerMd3 => format!(
                "{}: a folder is read as a Quake III player, and it has no lower.md3",
                input.display()
            ),
            Md3FilesProblem::NoSkinFiles { set, wanted } => format!(
                "{}: no {} there (skin set {set:?})",
                folder.display(),
                wanted.join(", ")
            ),
        })
    })?;
    if let (Some(w), None) = (keys.weapon, &plan.player) {
        return Err(Md3FilesError::Keyword(format!(
            "{}: weapon={:?}: a weapon is held by a whole player (load its lower.md3, upper.md3, \
             head.md3 or folder with player=True)",
            input.display(),
            w.display().to_string()
        )));
    }
    let mut companions = plan.companions(|name| read(&folder.join(name)))?;
    companions.weapon = keys.weapon.map(read).transpose()?;
    let animations: Vec<Value> = companions
        .animation_cfg
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
    let skin_files = plan.skin_files();
    let facts = json!({
        "player": plan.player.is_some(),
        "parts": plan.player.as_ref().map_or_else(|| vec![plan.model.clone()], |p| p.to_vec()),
        "animation_cfg": plan.animation_cfg,
        "skin": (!skin_files.is_empty()).then_some(set),
        "skin_files": skin_files,
        "weapon": keys.weapon.map(|w| w.display().to_string()),
        "animations": animations,
    });
    // The model's own arrays (frame_positions ...) are the file's named
    // (lower.md3 for a folder); the scene is the whole player.
    let model = match model {
        Some(_) => input.to_path_buf(),
        None => folder.join(&plan.model),
    };
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
