//! Any scene (but an MD3's own, which is rewritten) to a Quake III MD3.

use super::outputs::Plan;
use super::{Conversion, ConvertOptions, Warning};
use crate::error::Result;
use crate::scene::Scene;

/// Compiles `scene` into the MD3 `output_name` with the options'
/// [`md3`](ConvertOptions::md3) compile options (their animations, when
/// empty, those of [`anim`](ConvertOptions::anim)).
/// With `skins_inside` (an MDL source, whose skins are palette indices
/// inside the file and nowhere else), the skin images are written beside
/// the MD3 ([`image_files`]); other sources' textures name files the user
/// has (a glTF's image names, an MD2's skin paths).
pub(super) fn compile_md3(
    scene: &Scene,
    output_name: &str,
    options: &ConvertOptions,
    skins_inside: bool,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    if let Some(player) = &options.md3_player {
        return compile_player(scene, player, warnings);
    }
    let mut compile = options.md3.clone().unwrap_or_default();
    if compile.animations.is_empty() {
        compile.animations = options.anim.clone();
    }
    let (named, mut files) = if skins_inside {
        image_files(scene, output_name)?
    } else {
        (None, Vec::new())
    };
    let compiled = crate::md3::compile::compile(named.as_ref().unwrap_or(scene), &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::Md3Compile));
    files.push((output_name.to_string(), compiled.model.to_bytes()?));
    Ok(Conversion {
        md3_report: Some(compiled.report),
        ..Conversion::of_plan(Plan::whole(files), warnings)
    })
}

/// A file to write: its name and bytes.
pub(super) type NamedFile = (String, Vec<u8>);

/// The images an MD3's shaders need that exist only inside the source
/// (an MDL's palette skins, an MD2's skin found beside it, a glTF's
/// embedded images, `--skin`'s), written beside the output as PNG under
/// the shader's name (`creature_skin` → `creature_skin.png`, which
/// ioquake3's `R_FindImageFile` finds for a name without an extension),
/// and, for a texture with no name, as `STEM.png`, `STEM_1.png` ... named
/// by the shader (the scene returned, when one was named). A texture
/// named by a file (`models/players/sarge/red.tga`) is left as it is: the
/// game finds it where it is.
pub(super) fn image_files(
    scene: &Scene,
    output_name: &str,
) -> Result<(Option<Scene>, Vec<NamedFile>)> {
    let has_extension = |name: &str| {
        name.rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && (1..=4).contains(&ext.len()))
    };
    let stem = super::stem(output_name);
    let folder = &output_name[..output_name.len() - super::file_name(output_name).len()];
    let mut renamed = None::<Scene>;
    let mut files: Vec<NamedFile> = Vec::new();
    let mut unnamed = 0;
    for (t, texture) in scene.textures.iter().enumerate() {
        let name = super::file_name(&texture.path);
        let Some(image) = texture.image.as_ref().filter(|_| !has_extension(name)) else {
            continue;
        };
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let file = if safe.is_empty() {
            let file = match unnamed {
                0 => format!("{stem}.png"),
                n => format!("{stem}_{n}.png"),
            };
            unnamed += 1;
            renamed.get_or_insert_with(|| scene.clone()).textures[t].path = file.clone();
            file
        } else {
            format!("{safe}.png")
        };
        let path = format!("{folder}{file}");
        if files.iter().any(|(n, _)| *n == path) {
            continue;
        }
        let png = image.png_for_writing(&format!("textures[{t}] ({})", texture.path))?;
        files.push((path, png.into_owned()));
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
