//! From a model file's bytes to a scene ready to draw: read (any format),
//! mapped to a scene whose MD2 animations close their loops, textures
//! attached through the caller's source. The renderer (`render`) draws
//! scenes only; this is what hands it one made from a file.

use super::Warning;
use crate::error::Result;
use crate::model::{Model, ReadContext};
use crate::scene::{Scene, SceneOptions, TextureLookup, UserSkin};
use crate::texture::{Palette, TextureSource};

/// A scene to draw and what the user should know about it.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The scene, textures embedded.
    pub scene: Scene,
    /// What was passed over (textures not found, a glTF's odd parts).
    pub warnings: Vec<Warning>,
}

/// Reads the model in `input` (the file `file_name`, whose stem names the
/// scene) and makes its scene: MD2 animations get a key back to their
/// first frame ([`SceneOptions::close_loops`]), so that a looping
/// animation blends from its last frame to its first as Quake does and
/// `render::timeline::frame_times` leaves the repeated frame out; every
/// texture is looked up through `textures` (none: untextured), the first
/// replaced by `user_skin` when given.
///
/// Fails when the input is no model this crate reads or its scene cannot
/// be made.
pub fn prepare_scene(
    input: &[u8],
    file_name: &str,
    textures: Option<&dyn TextureSource>,
    user_skin: Option<&UserSkin>,
) -> Result<Prepared> {
    prepare_scene_with_palette(input, file_name, textures, user_skin, None)
}

/// [`prepare_scene`] with the palette of a Quake MDL's 8-bit skins;
/// `None` looks for Quake's `gfx/palette.lmp` through `textures` (and
/// warns, with advice, when there is none: the skins then have no image).
pub fn prepare_scene_with_palette(
    input: &[u8],
    file_name: &str,
    textures: Option<&dyn TextureSource>,
    user_skin: Option<&UserSkin>,
    palette: Option<&Palette>,
) -> Result<Prepared> {
    prepare_md3_scene(input, file_name, textures, user_skin, palette, None)
}

/// [`prepare_scene_with_palette`] with the files beside an MD3 input
/// (its `animation.cfg` and `.skin`, or a player's three parts:
/// [`Md3Companions::scene`](crate::md3::Md3Companions::scene)); other
/// inputs ignore them.
pub fn prepare_md3_scene(
    input: &[u8],
    file_name: &str,
    textures: Option<&dyn TextureSource>,
    user_skin: Option<&UserSkin>,
    palette: Option<&Palette>,
    companions: Option<&crate::md3::Md3Companions>,
) -> Result<Prepared> {
    let model = Model::read_with(
        input,
        &ReadContext {
            file_name,
            resources: textures,
        },
    )?;
    let mut warnings: Vec<Warning> = match &model {
        Model::Imported(i) => i.warnings.iter().cloned().map(Warning::Read).collect(),
        _ => Vec::new(),
    };
    let stem = std::path::Path::new(file_name)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let named_like_model = model.format().skin_named_like_model();
    let mut options = SceneOptions {
        name: stem,
        close_loops: true,
        ..SceneOptions::default()
    };
    if matches!(model, Model::Mdl(_)) {
        let (found, warning) = super::palette::mdl_palette(palette, textures);
        options.palette = found;
        warnings.extend(warning.map(Warning::Texture));
    }
    let mut scene = match (&model, companions) {
        (Model::Md3(m), Some(c)) => {
            let (scene, left_out) = c.scene_and_warnings(m, &options.name, None)?;
            warnings.extend(left_out.into_iter().map(Warning::Read));
            scene
        }
        _ => model.into_scene(&options)?,
    };
    if let Some(source) = textures {
        warnings.extend(
            scene
                .attach_textures(&TextureLookup {
                    source,
                    model_file_name: file_name,
                    named_like_model,
                    user_skin,
                })
                .into_iter()
                .map(Warning::Texture),
        );
    }
    Ok(Prepared { scene, warnings })
}
