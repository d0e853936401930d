//! What a Quake III player's files must agree on for the game to draw it
//! as its maker meant, beyond each file's own validity: the checks
//! ioquake3's `CG_RegisterClientModelname` and `CG_ParseAnimationFile`
//! (`code/cgame/cg_players.c`) and the renderer's `R_AddMD3Surfaces`
//! (`code/renderergl1/tr_mesh.c`) make, and what they silently get wrong.

use super::{AnimationCfg, Md3, Part, SkinFile};
use crate::problem::{Collector, Problem};

/// The parts' names, in [`check_player`]'s order.
const PARTS: [&str; 3] = ["lower", "upper", "head"];

/// The cross-file problems of a player: its three models (`lower.md3`,
/// `upper.md3`, `head.md3`), its `animation.cfg` (`None`: missing) and the
/// chosen skin set's three `.skin` files (`None`: missing), named
/// `skin_names` in messages. Each file's own problems are its
/// `validate`'s; paths here start with the file (`animation.cfg`,
/// `lower.md3`, `lower_default.skin`).
///
/// - A missing `animation.cfg` or `.skin` file is an error: the game
///   does not load the player (`CG_RegisterClientModelname` fails and
///   draws the default model).
/// - A cfg line playing frames past its part's file is a warning:
///   `R_AddMD3Surfaces` draws frame 0 instead ("no such frame").
/// - `lower.md3` without `tag_torso`, `upper.md3` without `tag_head` or
///   `tag_weapon` is a warning: the part (or weapon) is drawn at the
///   parent's origin (`R_LerpTag` finds no tag and gives a cleared one).
/// - A `.skin` line naming a surface the part does not have, and a
///   surface neither skinned nor named after a shader, are warnings.
///
/// ```
/// use retromodel::md3::{check_player, Md3};
/// let parts = [Md3::default(), Md3::default(), Md3::default()];
/// let problems = check_player([&parts[0], &parts[1], &parts[2]], None, [None, None, None], &["a", "b", "c"]);
/// assert!(problems.iter().any(|p| p.path == "animation.cfg"));
/// ```
pub fn check_player(
    parts: [&Md3; 3],
    cfg: Option<&AnimationCfg>,
    skins: [Option<&SkinFile>; 3],
    skin_names: &[&str; 3],
) -> Vec<Problem> {
    let mut c = Collector::default();
    match cfg {
        None => c.error(
            "animation.cfg",
            "missing: the game does not load the player without it (CG_ParseAnimationFile)",
            None,
        ),
        Some(cfg) => check_lines(&mut c, cfg, parts),
    }
    let has_tag = |m: &Md3, name: &str| {
        m.frame_tags(0)
            .unwrap_or(&[])
            .iter()
            .any(|t| t.name.to_string_lossy().eq_ignore_ascii_case(name))
    };
    for (part, tag, what) in [
        (0, "tag_torso", "the torso is drawn at the legs' origin"),
        (1, "tag_head", "the head is drawn at the torso's origin"),
        (1, "tag_weapon", "the weapon is drawn at the torso's origin"),
    ] {
        if !has_tag(parts[part], tag) {
            c.warn(
                format!("{}.md3.tags", PARTS[part]),
                format!("no {tag}: {what}"),
                None,
            );
        }
    }
    for (k, (model, skin)) in parts.iter().zip(skins).enumerate() {
        let file = skin_names[k];
        let Some(skin) = skin else {
            c.error(
                file,
                "missing: the game does not load the player without its three .skin files (CG_RegisterClientSkin)",
                None,
            );
            continue;
        };
        for line in &skin.surfaces {
            let known = model
                .surfaces
                .iter()
                .any(|s| s.name.to_string_lossy().eq_ignore_ascii_case(&line.surface));
            if !known {
                c.warn(
                    format!("{file}:{}", line.line),
                    format!(
                        "names surface {:?}, which {}.md3 does not have",
                        line.surface, PARTS[k]
                    ),
                    None,
                );
            }
        }
        for (s, surface) in model.surfaces.iter().enumerate() {
            let name = surface.name.to_string_lossy();
            let skinned = skin.image_for(&name).is_some_and(|i| !i.is_empty());
            let shader = surface
                .shaders
                .first()
                .is_some_and(|sh| !sh.name.to_string_lossy().is_empty());
            if !skinned && !shader {
                c.warn(
                    format!("{}.md3.surfaces[{s}]", PARTS[k]),
                    format!("{name:?} has no line in {file} and no shader: drawn with the default shader"),
                    None,
                );
            }
        }
    }
    c.finish()
}

/// Each cfg line against the frames of the files it plays in.
fn check_lines(c: &mut Collector, cfg: &AnimationCfg, parts: [&Md3; 3]) {
    for (i, a) in cfg.animations.iter().enumerate() {
        let Some(first) = cfg.first_frame_in_part(i) else {
            continue;
        };
        let count = i64::from(a.frame_count());
        let path = format!("animation.cfg:{}", a.line);
        if count == 0 {
            c.warn(path, format!("{}: no frames", a.name), None);
            continue;
        }
        let files: &[usize] = match a.part() {
            Part::Both => &[0, 1],
            Part::Legs => &[0],
            Part::Torso => &[1],
        };
        for &k in files {
            let frames = parts[k].frames.len() as i64;
            if first < 0 || first + count > frames {
                c.warn(
                    path.clone(),
                    format!(
                        "{} plays frames {first}..{} of {}.md3, which has {frames}: the game draws frame 0 instead (R_AddMD3Surfaces: no such frame)",
                        a.name,
                        first + count,
                        PARTS[k]
                    ),
                    None,
                );
            }
        }
    }
}
