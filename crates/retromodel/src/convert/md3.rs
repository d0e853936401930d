//! Any scene (but an MD3's own, which is rewritten) to a Quake III MD3.

use super::outputs::Plan;
use super::{Conversion, ConvertOptions, Warning};
use crate::error::Result;
use crate::scene::Scene;

/// Compiles `scene` into the MD3 `output_name` with the options'
/// [`md3`](ConvertOptions::md3) compile options (their animations, when
/// empty, those of [`anim`](ConvertOptions::anim)).
pub(super) fn compile_md3(
    scene: &Scene,
    output_name: &str,
    options: &ConvertOptions,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    if let Some(player) = &options.md3_player {
        return compile_player(scene, player, warnings);
    }
    let mut compile = options.md3.clone().unwrap_or_default();
    if compile.animations.is_empty() {
        compile.animations = options.anim.clone();
    }
    let compiled = crate::md3::compile::compile(scene, &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::Md3Compile));
    Ok(Conversion {
        md3_report: Some(compiled.report),
        ..Conversion::of_plan(
            Plan::whole(vec![(output_name.to_string(), compiled.model.to_bytes()?)]),
            warnings,
        )
    })
}

/// Compiles `scene` into a Quake III player: `lower.md3`, `upper.md3`,
/// `head.md3`, `animation.cfg` and the three `_default.skin` files, in
/// the output's folder (`lower.md3` last: the main file).
fn compile_player(
    scene: &Scene,
    options: &crate::md3::compile::PlayerOptions,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    let player = crate::md3::compile::compile_player(scene, options)?;
    let report = player.report();
    let parts = [
        ("lower", &player.lower),
        ("upper", &player.upper),
        ("head", &player.head),
    ];
    for (part, compiled) in parts {
        warnings.extend(compiled.warnings.iter().map(|w| Warning::Md3PlayerCompile {
            part,
            warning: w.clone(),
        }));
    }
    warnings.extend(player.notes.iter().cloned().map(Warning::Md3Player));
    let mut files = vec![(
        "animation.cfg".to_string(),
        player.animation_cfg.to_text().into_bytes(),
    )];
    for ((part, _), skin) in parts.iter().zip(&player.skins) {
        files.push((format!("{part}_default.skin"), skin.clone().into_bytes()));
    }
    for (part, compiled) in [parts[2], parts[1], parts[0]] {
        files.push((format!("{part}.md3"), compiled.model.to_bytes()?));
    }
    Ok(Conversion {
        md3_player_report: Some(report),
        ..Conversion::of_plan(Plan::whole(files), warnings)
    })
}
