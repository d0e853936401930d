//! Any scene (but an MDL's own) to a Quake MDL, and with `--rerelease`
//! the Quake rerelease's MD5 beside it.

use super::outputs::Plan;
use super::{file_name, stem, Conversion, ConvertOptions, Warning};
use crate::error::Result;
use crate::mdl::{Mdl, Skin, FIRST_FULLBRIGHT};
use crate::scene::Scene;
use crate::texture::{Palette, Rgba8Image};

/// Compiles `scene` into the MDL `output_name` with the options'
/// [`mdl`](ConvertOptions::mdl) compile options (its animations, when
/// empty, those of [`anim`](ConvertOptions::anim)). With
/// [`rerelease`](ConvertOptions::rerelease), also the MD5 the Quake
/// rerelease's ports draw in the MDL's place (see [`rerelease_files`]).
pub(super) fn compile_mdl(
    scene: &Scene,
    output_name: &str,
    options: &ConvertOptions,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    let mut compile = options.mdl.clone().unwrap_or_default();
    if compile.animations.is_empty() {
        compile.animations = options.anim.clone();
    }
    let compiled = crate::mdl::compile::compile(scene, &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::MdlCompile));
    let mut files = Vec::new();
    if options.rerelease {
        let frames = crate::mdl::compile::frame_times(scene, &compile)?;
        let shader = stem(file_name(output_name));
        let (md5, more) = super::md5::md5_files_on(
            scene,
            &frames,
            compile.fps,
            compiled.report.scale,
            Some(shader.clone()),
            output_name,
            "",
        )?;
        files.extend(md5);
        warnings.extend(more);
        if let Some(palette) = compile.palette.as_ref() {
            files.extend(skin_files(&compiled.model, palette, output_name, &shader)?);
        }
    }
    files.push((output_name.to_string(), compiled.model.to_bytes()?));
    Ok(Conversion {
        plan: Plan::whole(files),
        warnings,
        repair: None,
        report: None,
        ms3d_report: None,
        mdl_repair: None,
        mdl_report: Some(compiled.report),
        md3_report: None,
        md3_player_report: None,
        iqm_report: None,
    })
}

/// The MD5's skin images, beside the MDL as the ports look for them:
/// `SHADER_SS_FF.png` (skin SS, image FF) and, where the skin has
/// fullbright texels, `SHADER_SS_FF_luma.png` holding only those (black
/// elsewhere). Ironwail's `Mod_LoadMD5Skins` (`Quake/gl_model.c`) loads
/// `progs/SHADER_SS_FF` through `Image_LoadImage` (PNG, TGA or JPEG) and,
/// for a 32-bit image, `_glow` or `_luma` as its fullbright layer; vkQuake
/// tries the same name (`mdl::rerelease::md5_skin_names`).
fn skin_files(
    model: &Mdl,
    palette: &Palette,
    output_name: &str,
    shader: &str,
) -> Result<Vec<(String, Vec<u8>)>> {
    let folder = &output_name[..output_name.len() - file_name(output_name).len()];
    let (w, h) = (model.skin_width, model.skin_height);
    let (Ok(w), Ok(h)) = (u32::try_from(w), u32::try_from(h)) else {
        return Ok(Vec::new());
    };
    let mut files = Vec::new();
    for (s, skin) in model.skins.iter().enumerate().take(32) {
        let images: Vec<&Vec<u8>> = match skin {
            Skin::Single(image) => vec![image],
            Skin::Group { images, .. } => images.iter().collect(),
        };
        for (f, indices) in images.into_iter().enumerate().take(4) {
            let base = format!("{folder}{shader}_{s:02}_{f:02}");
            let colour = |i: u8| palette.colors()[usize::from(i)];
            let rgba = |keep: &dyn Fn(u8) -> bool| -> Vec<u8> {
                indices
                    .iter()
                    .flat_map(|&i| {
                        let [r, g, b] = if keep(i) { colour(i) } else { [0, 0, 0] };
                        [r, g, b, 255]
                    })
                    .collect()
            };
            let png = |pixels: Vec<u8>| -> Result<Option<Vec<u8>>> {
                match Rgba8Image::new(w, h, pixels) {
                    Some(image) => Ok(Some(image.to_png()?)),
                    None => Ok(None),
                }
            };
            if let Some(bytes) = png(rgba(&|_| true))? {
                files.push((format!("{base}.png"), bytes));
            }
            if indices.iter().any(|&i| i >= FIRST_FULLBRIGHT) {
                if let Some(bytes) = png(rgba(&|i| i >= FIRST_FULLBRIGHT))? {
                    files.push((format!("{base}_luma.png"), bytes));
                }
            }
        }
    }
    Ok(files)
}
