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
    let (named, mut files) = image_files(scene, output_name)?;
    let compiled = crate::md3::compile::compile(named.as_ref().unwrap_or(scene), &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::Md3Compile));
    files.push((output_name.to_string(), compiled.model.to_bytes()?));
    Ok(Conversion {
        md3_report: Some(compiled.report),
        ..Conversion::of_plan(Plan::whole(files), warnings)
    })
}

/// A file to write: its name and bytes.
type NamedFile = (String, Vec<u8>);

/// The images an MD3's shaders need that exist only inside the source
/// (an MDL's palette skins, an MD2's skin found beside it, a glTF's
/// embedded images, `--skin`'s), written beside the output as PNG
/// (`STEM.png`, then `STEM_1.png` ...) and named by the shaders (the
/// scene returned, when any was renamed). A texture named by a file
/// (`models/players/sarge/red.tga`) keeps its name: the game finds it
/// where it is.
fn image_files(scene: &Scene, output_name: &str) -> Result<(Option<Scene>, Vec<NamedFile>)> {
    let has_extension = |path: &str| {
        let name = super::file_name(path);
        name.rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && (1..=4).contains(&ext.len()))
    };
    let stem = super::stem(output_name);
    let folder = &output_name[..output_name.len() - super::file_name(output_name).len()];
    let mut renamed = None::<Scene>;
    let mut files = Vec::new();
    for (t, texture) in scene.textures.iter().enumerate() {
        let Some(image) = texture
            .image
            .as_ref()
            .filter(|_| !has_extension(&texture.path))
        else {
            continue;
        };
        let name = match files.len() {
            0 => format!("{stem}.png"),
            n => format!("{stem}_{n}.png"),
        };
        let png = image.png_for_writing(&format!("textures[{t}] ({})", texture.path))?;
        files.push((format!("{folder}{name}"), png.into_owned()));
        renamed.get_or_insert_with(|| scene.clone()).textures[t].path = name;
    }
    Ok((renamed, files))
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
