//! Exporting one model to glTF (`.glb`, `.gltf` + `.bin`) or OBJ (`.obj` +
//! `.mtl` + PNG textures), with its textures found safely.

use crate::load::{load, Model};
use crate::output::write_atomic_with;
use anyhow::{bail, Context, Result};
use retromodel::gltf::{to_gltf_files, Glb, GltfFileNames, GltfOptions};
use retromodel::ms3d::Clip;
use retromodel::obj::{apply_morph_target, apply_pose, to_obj, ObjOptions};
use retromodel::scene::{Md2SceneOptions, Ms3dSceneOptions, Pose, Scene, Texture};
use retromodel::texture::{
    decode, ResolveError, Rgba8Image, Skipped, TextureResolver, IMAGE_EXTENSIONS,
};
use std::path::{Path, PathBuf};

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// Binary glTF 2.0, one file.
    Glb,
    /// glTF 2.0 JSON and its `.bin` buffer beside it.
    Gltf,
    /// Wavefront OBJ of one pose, its `.mtl` and PNG textures beside it.
    Obj,
}

impl Target {
    /// The target a file extension (lower case) stands for.
    pub fn from_extension(ext: &str) -> Option<Target> {
        match ext {
            "glb" => Some(Target::Glb),
            "gltf" => Some(Target::Gltf),
            "obj" => Some(Target::Obj),
            _ => None,
        }
    }

    /// The extension of the main output file.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Glb => "glb",
            Target::Gltf => "gltf",
            Target::Obj => "obj",
        }
    }
}

/// How to export.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Quantize glTF morph targets.
    pub quantize: bool,
    /// Compress glTF vertex data with EXT_meshopt_compression.
    pub compress: bool,
    /// Texture search roots (after the model's folder).
    pub texture_dirs: Vec<PathBuf>,
    /// An image that replaces the first texture (or is the only one).
    pub skin: Option<PathBuf>,
    /// OBJ: MD2 frame (within `anim` when given).
    pub frame: Option<usize>,
    /// OBJ: MD2 animation name.
    pub anim: Option<String>,
    /// OBJ: MS3D time in seconds.
    pub time: Option<f32>,
    /// glTF: MS3D clips, each its own animation (none: the timeline).
    pub clips: Vec<Clip>,
    /// Flush each output to disk before renaming it into place.
    pub sync: bool,
    /// Whether options that do not apply to the input's format are errors
    /// (single-file mode) rather than ignored (batch mode).
    pub strict: bool,
}

/// The file names of an export whose main file is `out`, except OBJ
/// textures: `.bin` for glTF, `.mtl` for OBJ.
pub fn companion(out: &Path, target: Target) -> Option<PathBuf> {
    match target {
        Target::Glb => None,
        Target::Gltf => Some(out.with_extension("bin")),
        Target::Obj => Some(out.with_extension("mtl")),
    }
}

/// Fails when `out` or its companion exists (without `force`).
pub fn check_free(out: &Path, target: Target, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    for path in std::iter::once(out.to_path_buf()).chain(companion(out, target)) {
        if path.symlink_metadata().is_ok() {
            bail!(
                "{}: already exists (use --force to replace it)",
                path.display()
            );
        }
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// `"; passed over: A; B"` for a non-empty list.
fn skipped_note(skipped: &[Skipped]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let list: Vec<String> = skipped.iter().map(ToString::to_string).collect();
    format!("; passed over: {}", list.join("; "))
}

fn resolve_warning(model: &Path, err: &ResolveError, consequence: &str) -> String {
    let skipped = match err {
        ResolveError::Refused { skipped, .. } | ResolveError::NotFound { skipped, .. } => {
            skipped.as_slice()
        }
        _ => &[],
    };
    format!(
        "{}: warning: {err}{}; {consequence}",
        model.display(),
        skipped_note(skipped)
    )
}

/// The image the bytes hold, decoded, or why not.
fn decode_image(bytes: &[u8]) -> Result<Rgba8Image> {
    decode(bytes).context("cannot decode")
}

/// Makes `image` the first texture, or the only one (used by every
/// untextured material) when the scene names none.
fn set_first_texture(
    scene: &mut Scene,
    images: &mut Vec<Option<Rgba8Image>>,
    path: String,
    image: Rgba8Image,
) {
    if scene.textures.is_empty() {
        scene.textures.push(Texture {
            path,
            png: Vec::new(),
        });
        for m in &mut scene.materials {
            m.texture.get_or_insert(0);
        }
    }
    images.resize(scene.textures.len(), None);
    images[0] = Some(image);
}

/// How a failure to get texture `index` is told: what the material does
/// without it. A texture only used as an alpha map leaves its materials
/// with their base texture.
fn consequence(scene: &Scene, index: usize) -> &'static str {
    let as_base = scene.materials.iter().any(|m| m.texture == Some(index));
    let as_alpha = scene
        .materials
        .iter()
        .any(|m| m.alpha_texture == Some(index));
    if as_alpha && !as_base {
        "alpha map ignored; the material keeps its base texture, if any"
    } else {
        "material left untextured"
    }
}

/// Finds and decodes every texture of `scene` (alpha maps included),
/// bakes alpha maps into base textures and embeds the images as PNG
/// ([`Scene::embed_images`]); every texture that cannot be had is a
/// warning, never an error.
fn attach_textures(
    scene: &mut Scene,
    model: &Path,
    is_md2: bool,
    options: &Options,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let resolver = TextureResolver::for_model_file(model).with_roots(options.texture_dirs.clone());
    let mut images: Vec<Option<Rgba8Image>> = vec![None; scene.textures.len()];
    let mut first = 0;
    if let Some(skin) = &options.skin {
        match std::fs::read(skin)
            .context("cannot read")
            .and_then(|b| decode_image(&b))
        {
            Ok(image) => {
                set_first_texture(scene, &mut images, file_name(skin), image);
                first = 1;
            }
            Err(e) => warnings.push(format!(
                "{}: warning: skin {}: {e:#}; left as the model names it",
                model.display(),
                skin.display()
            )),
        }
    } else if is_md2 && scene.textures.is_empty() {
        match resolver.resolve_beside_model(&file_name(model)) {
            Ok(found) => match decode_image(&found.bytes) {
                Ok(image) => {
                    set_first_texture(scene, &mut images, file_name(&found.path), image);
                    first = 1;
                }
                Err(e) => warnings.push(format!(
                    "{}: warning: skin {}: {e:#}; material left untextured",
                    model.display(),
                    found.path.display()
                )),
            },
            Err(ResolveError::NotFound { skipped, .. }) => warnings.push(format!(
                "{}: warning: the model names no skin and no image named like it ({}.{}) is \
                 beside it{}; material left untextured (give one with --skin FILE)",
                model.display(),
                stem(model),
                IMAGE_EXTENSIONS.join("|"),
                skipped_note(&skipped)
            )),
            Err(e) => warnings.push(resolve_warning(model, &e, "material left untextured")),
        }
    }
    for (i, texture) in scene.textures.iter().enumerate().skip(first) {
        if texture.path.is_empty() || !texture.png.is_empty() {
            continue;
        }
        let consequence = consequence(scene, i);
        match resolver.resolve(&texture.path) {
            Ok(found) => {
                if !found.skipped.is_empty() {
                    warnings.push(format!(
                        "{}: warning: texture {:?}: using {}{}",
                        model.display(),
                        texture.path,
                        found.path.display(),
                        skipped_note(&found.skipped)
                    ));
                }
                match decode_image(&found.bytes) {
                    Ok(image) => images[i] = Some(image),
                    Err(e) => warnings.push(format!(
                        "{}: warning: texture {:?} ({}): {e:#}; {consequence}",
                        model.display(),
                        texture.path,
                        found.path.display()
                    )),
                }
            }
            Err(e) => warnings.push(resolve_warning(model, &e, consequence)),
        }
    }
    if let Err(e) = scene.embed_images(&images) {
        warnings.push(format!(
            "{}: warning: {e}; some materials left untextured",
            model.display()
        ));
    }
    warnings
}

/// The file name of each texture that has an image, beside an output
/// whose stem is `out_stem`: `STEM_texture0.png`, `STEM_texture1.png`, ...
/// (`None` for textures without one).
fn texture_file_names(scene: &Scene, out_stem: &str) -> Vec<Option<String>> {
    scene
        .textures
        .iter()
        .enumerate()
        .map(|(i, t)| (!t.png.is_empty()).then(|| format!("{out_stem}_texture{i}.png")))
        .collect()
}

/// What goes into one output file.
enum Contents<'a> {
    /// These bytes.
    Bytes(Vec<u8>),
    /// A GLB, streamed from the scene's arrays.
    Glb(Glb<'a>),
}

/// Reads `input`, exports it to `out` (and companions) as `target`;
/// returns the warnings (already formatted, one line each).
pub fn export(
    input: &Path,
    out: &Path,
    target: Target,
    force: bool,
    options: &Options,
) -> Result<Vec<String>> {
    check_free(out, target, force)?;
    let (_, model) = load(input)?;
    if options.strict && matches!(model, Model::Md2(_)) && !options.clips.is_empty() {
        bail!("--clip applies to MS3D models; MD2 animations come from frame names");
    }
    let name = stem(input);
    let (mut scene, is_md2) = match &model {
        Model::Md2(m) => {
            let o = Md2SceneOptions {
                name,
                ..Md2SceneOptions::default()
            };
            (Scene::from_md2(m, &o), true)
        }
        Model::Ms3d(m) => {
            let o = Ms3dSceneOptions {
                name,
                clips: options.clips.clone(),
                ..Ms3dSceneOptions::default()
            };
            let scene = Scene::from_ms3d(m, &o).with_context(|| input.display().to_string())?;
            (scene, false)
        }
    };
    if options.strict {
        if is_md2 && options.time.is_some() {
            bail!("--time applies to MS3D models; use --frame (and --anim) for MD2");
        }
        if !is_md2 && (options.frame.is_some() || options.anim.is_some()) {
            bail!("--frame and --anim apply to MD2 models; use --time for MS3D");
        }
        if target != Target::Obj
            && (options.frame.is_some() || options.anim.is_some() || options.time.is_some())
        {
            bail!("--frame, --anim and --time apply to OBJ output only (glTF keeps every frame)");
        }
    }
    let mut warnings = attach_textures(&mut scene, input, is_md2, options);

    let mut files: Vec<(PathBuf, Contents)> = Vec::new();
    let gltf_options = GltfOptions {
        quantize: options.quantize,
        compress: options.compress,
    };
    match target {
        Target::Glb => {
            let glb = Glb::new(&scene, &gltf_options)
                .with_context(|| format!("{}: cannot export", input.display()))?;
            files.push((out.to_path_buf(), Contents::Glb(glb)));
        }
        Target::Gltf => {
            let bin_path = out.with_extension("bin");
            let dir = out.parent().unwrap_or(Path::new(""));
            let images = texture_file_names(&scene, &stem(out));
            for (name, t) in images.iter().zip(&scene.textures) {
                if let Some(name) = name {
                    files.push((dir.join(name), Contents::Bytes(t.png.clone())));
                }
            }
            let names = GltfFileNames {
                bin: file_name(&bin_path),
                images,
            };
            let (json, bin) = to_gltf_files(&scene, &names, &gltf_options)
                .with_context(|| format!("{}: cannot export", input.display()))?;
            files.push((bin_path, Contents::Bytes(bin)));
            files.push((out.to_path_buf(), Contents::Bytes(json.into_bytes())));
        }
        Target::Obj => {
            match &model {
                Model::Md2(m) => {
                    let frame = md2_frame(m, options)?;
                    apply_morph_target(&mut scene, frame)
                        .with_context(|| input.display().to_string())?;
                }
                Model::Ms3d(_) => {
                    if let Some(t) = options.time {
                        if !t.is_finite() || t < 0.0 {
                            bail!("--time {t}: must be a non-negative number of seconds");
                        }
                        let mut pose =
                            Pose::new(&scene).with_context(|| input.display().to_string())?;
                        pose.sample(&scene, 0, t);
                        apply_pose(&mut scene, &pose);
                    }
                }
            }
            let dir = out.parent().unwrap_or(Path::new(""));
            let texture_files = texture_file_names(&scene, &stem(out));
            for (name, t) in texture_files.iter().zip(&scene.textures) {
                if let Some(name) = name {
                    files.push((dir.join(name), Contents::Bytes(t.png.clone())));
                }
            }
            let mtl_path = out.with_extension("mtl");
            let obj = to_obj(
                &scene,
                &ObjOptions {
                    mtl_file: file_name(&mtl_path),
                    texture_files,
                },
            );
            files.push((mtl_path, Contents::Bytes(obj.mtl.into_bytes())));
            files.push((out.to_path_buf(), Contents::Bytes(obj.obj.into_bytes())));
        }
    }
    if !force {
        for (path, _) in &files {
            if path.symlink_metadata().is_ok() {
                bail!(
                    "{}: already exists (use --force to replace it)",
                    path.display()
                );
            }
        }
    }
    // The main file last, so that it only appears once its companions do.
    for (path, contents) in &files {
        write_atomic_with(path, force, options.sync, |w| match contents {
            Contents::Bytes(bytes) => w.write_all(bytes),
            Contents::Glb(glb) => glb.write_to(w),
        })?;
    }
    warnings.shrink_to_fit();
    Ok(warnings)
}

/// The MD2 frame `--frame` / `--anim` choose (default 0).
fn md2_frame(model: &retromodel::md2::Md2, options: &Options) -> Result<usize> {
    let frame = options.frame.unwrap_or(0);
    let Some(name) = &options.anim else {
        return Ok(frame);
    };
    let anims = model.animations();
    let Some(a) = anims.iter().find(|a| &a.name == name) else {
        let names: Vec<&str> = anims.iter().map(|a| a.name.as_str()).collect();
        bail!(
            "no animation {name:?} (the model has: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
    };
    if frame >= a.frame_count {
        bail!(
            "--frame {frame}: animation {name:?} has {} frames",
            a.frame_count
        );
    }
    Ok(a.first_frame + frame)
}
