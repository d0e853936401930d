//! External skins: the image files some ports draw instead of an MDL's
//! embedded skin ([`external_skin_files`]), read from their loaders
//! (versions as in [`Engine::mdl_limits`]).
//!
//! - QuakeSpasm-Spiked, `quakespasm/Quake/gl_model.c`,
//!   `Mod_LoadAllSkins` (when `gl_load24bit`, default 1): single skins
//!   only, `Image_LoadImage("NAME.mdl_I")` (`image.c`), which tries the
//!   prefixes "", `textures/` and `textures/` with the folder dropped,
//!   each with `.dds`, `.tga`, `.png`, `.jpeg`, `.jpg`, `.pcx`; the glow
//!   map is `NAME.mdl_I_glow`, else `NAME.mdl_I_luma`.
//! - vkQuake, `Quake/gl_model.c`, `Mod_LoadAllSkins` (when
//!   `mdl_external_textures`, default 1): single skins only,
//!   `NAME.mdl_I`, then `progs/NAME.mdl_I`, then `textures/NAME.mdl_I`,
//!   each as `.png`, `.tga`, `.jpg`, `.pcx`, `.lmp` (`image.c`,
//!   `supported_image_formats`; at the same game directory the first
//!   wins); an 8-bit image (PCX, LMP) is skipped ("skin not RGBA").
//! - FTE, `engine/common/com_mesh.c`, `Q1MDL_LoadSkins_GL`: each skin is
//!   the texture `NAME.mdl_I.lmp` (a group's image J: `NAME.mdl_I_J.lmp`),
//!   which `engine/client/image.c`'s `Image_LocateHighResTexture`
//!   replaces by `NAME.mdl_I` with each of `r_imageextensions` (by
//!   default `.dds`, `.ktx`, `.tga`, `.png`, `.jpg`, as built), also under
//!   `textures/`.
//! - id's engines, QuakeSpasm, Ironwail and uHexen2 load no external
//!   skin for an MDL (their `Mod_LoadAllSkins` uploads the embedded
//!   images only).

use super::Engine;

/// The files `engine` tries, in order, for skin `skin` of the MDL the
/// game calls `mdl_path` (`progs/ogre.mdl`), or for image `image` of that
/// skin when it is a group; the first that exists is drawn instead of the
/// embedded skin. Empty for an engine that loads none.
///
/// ```
/// use retromodel::mdl::{external_skin_files, Engine};
/// let vk = external_skin_files(Engine::Vkquake, "progs/ogre.mdl", 0, None);
/// assert_eq!(&vk[..3], ["progs/ogre.mdl_0.png", "progs/ogre.mdl_0.tga", "progs/ogre.mdl_0.jpg"]);
/// assert!(external_skin_files(Engine::Quakespasm, "progs/ogre.mdl", 0, None).is_empty());
/// // Only FTE replaces the images of a skin group.
/// let fte = external_skin_files(Engine::Fte, "progs/ogre.mdl", 1, Some(2));
/// assert_eq!(fte[2], "progs/ogre.mdl_1_2.tga");
/// assert!(external_skin_files(Engine::Vkquake, "progs/ogre.mdl", 1, Some(2)).is_empty());
/// ```
pub fn external_skin_files(
    engine: Engine,
    mdl_path: &str,
    skin: usize,
    image: Option<usize>,
) -> Vec<String> {
    let stem = match image {
        Some(j) => format!("{mdl_path}_{skin}_{j}"),
        None => format!("{mdl_path}_{skin}"),
    };
    let with = |names: &[String], exts: &[&str]| -> Vec<String> {
        names
            .iter()
            .flat_map(|n| exts.iter().map(move |e| format!("{n}.{e}")))
            .collect()
    };
    match (engine, image) {
        (Engine::QuakespasmSpiked, None) => {
            let base = stem.rsplit('/').next().unwrap_or(&stem).to_string();
            with(
                &[
                    stem.clone(),
                    format!("textures/{stem}"),
                    format!("textures/{base}"),
                ],
                &["dds", "tga", "png", "jpeg", "jpg", "pcx"],
            )
        }
        // PCX and LMP are found too but skipped as not RGBA.
        (Engine::Vkquake, None) => with(
            &[
                stem.clone(),
                format!("progs/{stem}"),
                format!("textures/{stem}"),
            ],
            &["png", "tga", "jpg"],
        ),
        (Engine::Fte, _) => with(
            &[stem.clone(), format!("textures/{stem}")],
            &["dds", "ktx", "tga", "png", "jpg"],
        ),
        _ => Vec::new(),
    }
}
