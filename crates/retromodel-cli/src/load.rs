//! Reading a model file of any supported format.

use anyhow::{Context, Result};
use retromodel::texture::TextureResolver;
use retromodel::{Model, ReadContext};
use std::path::Path;

/// The resolver for the textures (and a Quake MDL's palette) of the model
/// at `path`: its folder, then `texture_dirs`, then, for a model in a
/// Quake `progs` folder, the game folder above it (`id1/progs/x.mdl` →
/// `id1/`, where `gfx/palette.lmp` is).
pub fn resolver(path: &Path, texture_dirs: &[std::path::PathBuf]) -> TextureResolver {
    let mut r = TextureResolver::for_model_file(path).with_roots(texture_dirs.to_vec());
    if let Some(game) = quake_game_folder(path).or_else(|| quake3_game_folder(path)) {
        r = r.with_root(game);
    }
    r
}

/// The game folder of a Quake III model kept as the game keeps it
/// (`GAME/models/.../NAME.md3`, the paths its `.skin` files and shaders
/// name are relative to `GAME`): the folder holding the nearest `models`
/// folder above it, else `None`.
pub fn quake3_game_folder(path: &Path) -> Option<std::path::PathBuf> {
    let is_md3 = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md3"));
    if !is_md3 {
        return None;
    }
    let models = path.ancestors().skip(1).take(8).find(|a| {
        a.file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("models"))
    })?;
    match models.parent() {
        Some(game) if !game.as_os_str().is_empty() => Some(game.to_path_buf()),
        _ => Some(std::path::PathBuf::from(".")),
    }
}

/// The game folder of a Quake model kept as the game keeps it
/// (`GAME/progs/NAME.mdl`): `GAME`, else `None`.
fn quake_game_folder(path: &Path) -> Option<std::path::PathBuf> {
    let is_mdl = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mdl"));
    let dir = path.parent()?;
    let progs = dir
        .file_name()
        .is_some_and(|n| n.eq_ignore_ascii_case("progs"));
    if !(is_mdl && progs) {
        return None;
    }
    match dir.parent() {
        Some(game) if !game.as_os_str().is_empty() => Some(game.to_path_buf()),
        _ => Some(std::path::PathBuf::from(".")),
    }
}

/// `--palette FILE` read: 768 bytes of RGB (Quake's `gfx/palette.lmp`) or
/// an 8-bit PCX's palette.
pub fn read_palette(path: &Path) -> Result<retromodel::texture::Palette> {
    let bytes = read_file(path)?;
    let palette = if bytes.len() == 768 {
        retromodel::texture::Palette::from_raw_768(&bytes)
    } else {
        retromodel::texture::Palette::from_pcx(&bytes)
    };
    palette.with_context(|| format!("--palette {}", path.display()))
}

/// Reads the whole file.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))
}

/// The file name of `path`, as text.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Parses `bytes`, the model file at `path`; the files it names (a glTF's
/// buffers, an OBJ's materials) are read from its folder only.
pub fn parse(path: &Path, bytes: &[u8]) -> retromodel::Result<Model> {
    let resolver = TextureResolver::for_model_file(path);
    let name = file_name(path);
    Model::read_with(
        bytes,
        &ReadContext {
            file_name: &name,
            resources: Some(&resolver),
        },
    )
}

/// Reads and parses the model at `path`; errors name the file.
pub fn load(path: &Path) -> Result<(Vec<u8>, Model)> {
    let bytes = read_file(path)?;
    let model = parse(path, &bytes).with_context(|| path.display().to_string())?;
    Ok((bytes, model))
}

/// The md5anims given with `--md5anim`, each with the `.md5scale` beside
/// it (same stem), if any; named after their stems.
pub fn md5_animation_files(
    paths: &[std::path::PathBuf],
) -> Result<Vec<retromodel::md5::AnimationFile>> {
    paths
        .iter()
        .map(|p| {
            let scale_path = p.with_extension("md5scale");
            Ok(retromodel::md5::AnimationFile {
                name: p
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
                anim: read_file(p)?,
                scale: if scale_path.is_file() {
                    Some(read_file(&scale_path)?)
                } else {
                    None
                },
            })
        })
        .collect()
}

/// Adds `--md5anim` files to an MD5 model; fails for any other model.
pub fn add_md5_animations(model: &mut Model, paths: &[std::path::PathBuf]) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let Model::Md5(m) = model else {
        anyhow::bail!(
            "--md5anim applies to MD5 models (.md5mesh), not {}",
            model.format()
        );
    };
    for (file, path) in md5_animation_files(paths)?.iter().zip(paths) {
        m.add_animation_file(file)
            .with_context(|| path.display().to_string())?;
    }
    Ok(())
}
