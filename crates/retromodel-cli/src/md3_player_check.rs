//! `validate models/players/NAME/`: a Quake III player's folder checked
//! as the game loads it: each part (`lower.md3`, `upper.md3`, `head.md3`,
//! with its levels of detail), `animation.cfg`, the `default` skin set's
//! `.skin` files, and what they must agree on
//! (`retromodel::md3::check_player`).

use std::path::Path;

use retromodel::md3::{check_player, skin_file_names, AnimationCfg, Md3, SkinFile};
use retromodel::{Engine, Problem, Severity};

use crate::md3_files::find;

fn error(path: &str, message: String) -> Problem {
    Problem {
        severity: Severity::Error,
        path: path.to_string(),
        message,
        offset: None,
    }
}

/// Every problem of the player in `folder`, paths starting with the file
/// they are in; `engine`: each part validated for its loader.
pub fn player_problems(folder: &Path, engine: Option<Engine>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut parts: Vec<Md3> = Vec::new();
    for name in ["lower.md3", "upper.md3", "head.md3"] {
        let Some(path) = find(folder, name) else {
            out.push(error(name, "missing".to_string()));
            parts.push(Md3::default());
            continue;
        };
        match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| Md3::from_bytes(&b).map_err(|e| e.to_string()))
        {
            Ok(m) => {
                let own = match engine {
                    Some(e) => m.validate_for(e),
                    None => m.validate(),
                };
                let lods = crate::md3_lod::lod_problems(&path, &m, engine);
                out.extend(own.into_iter().chain(lods).map(|mut p| {
                    p.path = format!("{name}: {}", p.path);
                    p
                }));
                parts.push(m);
            }
            Err(e) => {
                out.push(error(name, format!("cannot read: {e}")));
                parts.push(Md3::default());
            }
        }
    }
    let read_text = |name: &str| find(folder, name).and_then(|p| std::fs::read(p).ok());
    let cfg = match read_text("animation.cfg").map(|b| AnimationCfg::parse(&b)) {
        None => None,
        Some(Ok(cfg)) => Some(cfg),
        Some(Err(e)) => {
            out.push(error(
                "animation.cfg",
                format!("{e}: the game does not load the player"),
            ));
            None
        }
    };
    let names = skin_file_names("default");
    let mut skins: Vec<Option<SkinFile>> = Vec::new();
    for name in &names {
        skins.push(match read_text(name).map(|b| SkinFile::parse(&b)) {
            None => None,
            Some(Ok(s)) => Some(s),
            Some(Err(e)) => {
                out.push(error(name, e.to_string()));
                None
            }
        });
    }
    let cfg_given = cfg.is_some() || read_text("animation.cfg").is_none();
    let mut cross = check_player(
        [&parts[0], &parts[1], &parts[2]],
        cfg.as_ref(),
        [skins[0].as_ref(), skins[1].as_ref(), skins[2].as_ref()],
        &[&names[0], &names[1], &names[2]].map(String::as_str),
    );
    if !cfg_given {
        // Its parse error is already listed.
        cross.retain(|p| p.path != "animation.cfg");
    }
    // A skin file that does not parse is listed; not again as missing.
    cross.retain(|p| {
        !out.iter()
            .any(|o| o.path == p.path && o.severity == Severity::Error)
    });
    out.extend(cross);
    out
}
