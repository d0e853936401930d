//! The files beside an MD3 input: a player's other parts, its
//! `animation.cfg` and `.skin` files, found in the model's folder (names
//! compared without case, as in a pk3).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use retromodel::md3::{
    folder_file_names, is_player_listing, Md3Companions, Md3FilePlan, Md3FileRequest,
    Md3FilesProblem, WholePlayer,
};

use crate::load::read_file;

/// An MD3 input with its companions.
pub struct Md3Input {
    /// The model file to read (`lower.md3` for a player folder).
    pub model: PathBuf,
    /// The files beside it.
    pub companions: Md3Companions,
    /// What was found, for the output.
    pub note: String,
}

/// Whether `text` names a skin set (`default`, `red`) rather than an
/// image file: no folder, no extension, no such file.
pub fn is_skin_set(text: &Path) -> bool {
    let s = text.to_string_lossy();
    !s.is_empty() && !s.contains(['/', '\\', '.']) && !text.exists()
}

/// The file called `name` (without case) in `folder`.
pub fn find(folder: &Path, name: &str) -> Option<PathBuf> {
    folder_file_names(folder)
        .into_iter()
        .find(|n| n.eq_ignore_ascii_case(name))
        .map(|n| folder.join(n))
}

/// Whether `folder` holds a player (`lower.md3`, `upper.md3`,
/// `head.md3`).
pub fn is_player_folder(folder: &Path) -> bool {
    is_player_listing(&folder_file_names(folder))
}

/// The MD3 input at `input` (a `.md3`, or a player's folder) with the
/// files beside it; `None` for any other input. `skin_set` picks the
/// `.skin` files (`lower_NAME.skin`, or `MODEL_NAME.skin` for a single
/// model); without it `default`'s are used when they are there. `weapon`
/// is read for a player to hold. The whole player is read from its
/// `lower.md3` or its folder; `upper.md3` and `head.md3` alone are their
/// part, with the cfg's animations.
pub fn md3_input(
    input: &Path,
    skin_set: Option<&str>,
    weapon: Option<&Path>,
    texture_dirs: &[PathBuf],
) -> Result<Option<Md3Input>> {
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
        (folder, Some(crate::load::file_name(input)))
    };
    let request = Md3FileRequest {
        model: model.as_deref(),
        skin_set,
        whole_player: WholePlayer::FromLower,
    };
    let plan = match Md3FilePlan::choose(&folder_file_names(&folder), request) {
        Ok(plan) => plan,
        Err(Md3FilesProblem::NoLowerMd3) => return Ok(None),
        Err(Md3FilesProblem::NoSkinFiles { set, wanted }) => {
            bail!(
                "{}: no {} (--skin {set})",
                folder.display(),
                wanted.join(", ")
            )
        }
    };
    let mut companions = plan.companions(|name| read_file(&folder.join(name)))?;
    let model = if model.is_some() {
        input.to_path_buf()
    } else {
        folder.join(&plan.model)
    };
    let mut found = Vec::new();
    if plan.animation_cfg.is_some() {
        found.push("animation.cfg".to_string());
    }
    companions.shader_scripts = shader_scripts(&model, texture_dirs);
    if !companions.shader_scripts.is_empty() {
        found.push(format!(
            "{} shader scripts",
            companions.shader_scripts.len()
        ));
    }
    let note = if plan.player.is_some() {
        companions.weapon = weapon.map(read_file).transpose()?;
        if let Some(w) = weapon {
            found.push(format!("{} at tag_weapon", w.display()));
        }
        if !plan.skin_files().is_empty() {
            found.push(format!("skin {}", plan.skin_set));
        }
        format!(
            "{}: the whole player (lower.md3 at the root, upper.md3 at tag_torso, head.md3 at tag_head{}{})",
            folder.display(),
            if found.is_empty() { "" } else { "; " },
            found.join(", ")
        )
    } else {
        found.extend(plan.skin.iter().cloned());
        if found.is_empty() {
            String::new()
        } else {
            format!("{}: with {}", model.display(), found.join(", "))
        }
    };
    Ok(Some(Md3Input {
        model,
        companions,
        note,
    }))
}

/// The shader scripts a Quake III model's shaders may be defined in: the
/// `scripts/*.shader` files of its game folder (above its `models`
/// folder) and of each `--texture-dir` (a later one overriding the
/// shaders of those before), each folder's sorted by name without case
/// as the game lists them, at most `MAX_SHADER_TEXT_BYTES` in all
/// (unreadable ones passed over).
fn shader_scripts(model: &Path, texture_dirs: &[PathBuf]) -> Vec<Vec<u8>> {
    let roots = crate::load::quake3_game_folder(model)
        .into_iter()
        .chain(texture_dirs.iter().cloned());
    let mut out = Vec::new();
    let mut total = 0usize;
    for root in roots {
        let Some(scripts) = find_dir(&root, "scripts") else {
            continue;
        };
        let Ok(entries) = std::fs::read_dir(&scripts) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && p.extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("shader"))
            })
            .collect();
        // The game's order: by name, without case (FS_ListFiles).
        files.sort_by_key(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
        });
        for f in files {
            let Ok(bytes) = std::fs::read(&f) else {
                continue;
            };
            total = total.saturating_add(bytes.len());
            if total > retromodel::md3::MAX_SHADER_TEXT_BYTES {
                return out;
            }
            out.push(bytes);
        }
    }
    out
}

/// The folder called `name` (without case) in `folder`.
fn find_dir(folder: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name) && e.path().is_dir())
        .map(|e| e.path())
}
