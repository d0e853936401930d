//! Materials, their texture files, and the model's transparency mode.
//!
//! - **Colours.** Diffuse from the base colour, emissive from the
//!   emissive colour; ambient `0.2` and specular `0` (MilkShape's defaults
//!   for a new material, as its untouched files in the corpus show).
//!   MilkShape copies the transparency into every colour's alpha, and so
//!   does this.
//! - **Shininess** from roughness, the inverse of `Scene::from_ms3d`'s
//!   `roughness = √(2 / (shininess + 2))`: `shininess = 2 / roughness² − 2`,
//!   clamped to MilkShape's 0–128.
//! - **Alpha.** The transparency is the base colour's alpha. A textured
//!   material that masks or blends has mode `HASALPHA` (0x40: use the
//!   texture's alpha), and a blending one whose alpha is below 1 also
//!   `COMBINEALPHA` (0x20: times the transparency), as MilkShape itself
//!   stores a textured, partly transparent material (the corpus's Woman4
//!   `Hair`: 0x60). The model's transparency mode (1.8 model extras) is 1,
//!   "depth buffered with alpha ref", with the first masking material's
//!   cutoff as reference when any material masks; else 2, "depth sorted
//!   triangles", when any blends; else 0, "simple".
//! - **Textures.** A base colour texture (or alpha map) with image bytes
//!   is written beside the model as `STEM.png` (`STEM` the option
//!   `texture_stem`, else the stem of the path the scene names it by, else
//!   `MODEL_textureK`; made unique with `_2`, `_3`, ...) and named
//!   `.\STEM.png`: relative to the model's folder with the `.\` prefix, as
//!   MilkShape 1.8 writes the textures it finds beside a model (the
//!   corpus's `assimpdeb_jeep1.ms3d`: `.\jeep1.jpg`; Maverick Model 3D
//!   writes that form, `.\Woman4-Remap-texture.tga`, in the corpus's
//!   `mm3d_from_*` files). A plain name (`STEM.png`, as GLScene's files
//!   have) would do for loaders that resolve against the model's folder,
//!   but `.\` is the form MilkShape itself writes and reads back; our
//!   resolver reads both as the file beside the model (the CLI tests
//!   convert a compiled MS3D back to glTF with its texture found). A
//!   texture without image bytes keeps the path the scene names it by.
//! - **From an MS3D** (`Scene::from_ms3d`'s material extras): ambient,
//!   specular, shininess, mode, the texture path and the stored diffuse and
//!   emissive colours are written back as they were, where they still
//!   agree with the scene material.

use serde_json::Value;

use super::report::Ms3dCompileWarning;
use super::TextureFile;
use crate::error::Result;
use crate::ms3d::{limits, stored, Material, Name128, Name32};
use crate::scene::{AlphaMode, Material as SceneMaterial, Scene};

/// MilkShape's material mode flag: use the texture's alpha.
pub(crate) const HAS_ALPHA: u8 = 0x40;
/// MilkShape's material mode flag: combine the texture's alpha with the
/// transparency.
pub(crate) const COMBINE_ALPHA: u8 = 0x20;

/// The materials of a compile.
#[derive(Debug, Clone, Default)]
pub(crate) struct Materials {
    /// In scene order.
    pub materials: Vec<Material>,
    /// Texture files to write beside the model.
    pub files: Vec<TextureFile>,
    /// The model's transparency mode (model extras).
    pub transparency_mode: i32,
    /// Its alpha reference.
    pub alpha_ref: f32,
}

/// Four finite numbers of `extras[key]`.
fn four(extras: &Value, key: &str) -> Option<[f32; 4]> {
    let a = extras.get(key)?.as_array()?;
    if a.len() != 4 {
        return None;
    }
    let mut out = [0.0f32; 4];
    for (o, v) in out.iter_mut().zip(a) {
        *o = v.as_f64().filter(|x| x.is_finite())? as f32;
    }
    Some(out)
}

fn clamp01(x: f32) -> f32 {
    if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The file stem of a texture path (its last component without the
/// extension), made of `[A-Za-z0-9_.-]` only.
fn stem(path: &str) -> String {
    let file = path.rsplit(['/', '\\']).next().unwrap_or("");
    let base = match file.rsplit_once('.') {
        Some((b, _)) if !b.is_empty() => b,
        _ => file,
    };
    base.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .trim_matches('.')
        .to_string()
}

/// Texture files and the names materials give them, made as needed.
struct TextureNames<'a> {
    scene: &'a Scene,
    model: String,
    /// The stem every texture file is named by, when given.
    file_stem: Option<String>,
    /// Per scene texture: the name the model stores (once decided).
    names: Vec<Option<String>>,
    /// The texture files to write: file name and scene texture, in order
    /// (their PNG bytes are made at the end, [`TextureNames::files`]).
    files: Vec<(String, usize)>,
}

impl TextureNames<'_> {
    /// The stored name of scene texture `t`.
    fn name(&mut self, t: usize) -> Option<String> {
        let texture = self.scene.textures.get(t)?;
        if let Some(n) = &self.names[t] {
            return Some(n.clone());
        }
        let name = if !texture.has_image() {
            texture.path.clone()
        } else {
            let mut base = match &self.file_stem {
                Some(s) => s.clone(),
                None => stem(&texture.path),
            };
            if base.is_empty() {
                base = format!("{}_texture{t}", self.model);
            }
            // Room for `.\`, a `_N` suffix and `.png` in 127 bytes.
            base.truncate(100);
            let mut file = format!("{base}.png");
            let mut k = 2;
            while self
                .files
                .iter()
                .any(|(f, _)| f.eq_ignore_ascii_case(&file))
            {
                file = format!("{base}_{k}.png");
                k += 1;
            }
            self.files.push((file.clone(), t));
            format!(".\\{file}")
        };
        self.names[t] = Some(name.clone());
        Some(name)
    }

    /// The texture files named, with their PNG bytes (a PNG as it is,
    /// pixels encoded now).
    fn files(&self) -> Result<Vec<TextureFile>> {
        self.files
            .iter()
            .map(|(name, t)| {
                let texture = &self.scene.textures[*t];
                let bytes = match &texture.image {
                    Some(image) => image
                        .png_for_writing(&format!("textures[{t}] ({})", texture.path))?
                        .into_owned(),
                    None => Vec::new(),
                };
                Ok(TextureFile {
                    name: name.clone(),
                    bytes,
                })
            })
            .collect()
    }
}

/// A path for a 128-byte field: at most [`limits::PATH`] bytes, cut at a
/// character boundary (with a warning).
fn path_field(path: &str, what: String, warnings: &mut Vec<Ms3dCompileWarning>) -> Name128 {
    if path.len() <= limits::PATH {
        return Name128::new(path);
    }
    let mut end = limits::PATH;
    while !path.is_char_boundary(end) {
        end -= 1;
    }
    warnings.push(Ms3dCompileWarning::NameShortened {
        what,
        from: path.to_string(),
        to: path[..end].to_string(),
    });
    Name128::new(&path[..end])
}

/// The MS3D material of `m`, named `name`.
fn material(
    m: &SceneMaterial,
    index: usize,
    name: Name32,
    textures: &mut TextureNames,
    warnings: &mut Vec<Ms3dCompileWarning>,
) -> Material {
    let x = &m.extras;
    let record = stored::Reader::new(x, format!("materials[{index}]"), &mut Vec::new());
    let alpha = clamp01(m.base_color[3]);
    let rgb = [
        clamp01(m.base_color[0]),
        clamp01(m.base_color[1]),
        clamp01(m.base_color[2]),
    ];
    // The stored colours, where the scene's still say the same.
    let diffuse = four(x, "diffuse")
        .filter(|d| (0..3).all(|k| clamp01(d[k]) == rgb[k]))
        .unwrap_or([rgb[0], rgb[1], rgb[2], alpha]);
    let emissive_rgb = m.emissive.map(clamp01);
    let emissive = four(x, "emissive")
        .filter(|e| (0..3).all(|k| clamp01(e[k]) == emissive_rgb[k]))
        .unwrap_or([emissive_rgb[0], emissive_rgb[1], emissive_rgb[2], alpha]);
    let ambient = four(x, "ambient").unwrap_or([0.2, 0.2, 0.2, alpha]);
    let specular = four(x, "specular").unwrap_or([0.0, 0.0, 0.0, alpha]);
    let roughness = if m.roughness.is_finite() {
        m.roughness.clamp(0.0, 1.0)
    } else {
        1.0
    };
    let from_roughness = if roughness > 0.0 {
        (2.0 / (roughness * roughness) - 2.0).clamp(0.0, 128.0)
    } else {
        128.0
    };
    let shininess = x
        .get("shininess")
        .and_then(Value::as_f64)
        .map(|s| s as f32)
        .filter(|s| s.is_finite() && ((2.0 / (s.max(0.0) + 2.0)).sqrt() - roughness).abs() < 1e-5)
        .unwrap_or(from_roughness);
    let texture_name = m
        .texture
        .and_then(|t| textures.name(t))
        .or_else(|| x.get("texture").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_default();
    let alphamap_name = m
        .alpha_texture
        .and_then(|t| textures.name(t))
        .or_else(|| {
            x.get("alphamap")
                .and_then(|a| a.get("path"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_default();
    let textured = !texture_name.is_empty();
    let mode = match x.get("mode").and_then(Value::as_u64) {
        Some(mode) if mode <= 255 => mode as u8,
        _ => {
            let mut mode = 0;
            if textured && m.alpha_mode != AlphaMode::Opaque {
                mode |= HAS_ALPHA;
            }
            if textured && m.alpha_mode == AlphaMode::Blend && alpha < 1.0 {
                mode |= COMBINE_ALPHA;
            }
            mode
        }
    };
    // The paths as the source MS3D stored them, where they still say the
    // same.
    let path = |key: &str, text: &str, warnings: &mut Vec<Ms3dCompileWarning>| {
        let field = record
            .name128(key, warnings)
            .filter(|f| !f.is_unterminated() && stored::says(f.as_bytes(), text));
        field.unwrap_or_else(|| path_field(text, format!("materials[{index}].{key}"), warnings))
    };
    Material {
        name,
        ambient,
        diffuse,
        specular,
        emissive,
        shininess,
        transparency: alpha,
        mode,
        texture: path("texture", &texture_name, warnings),
        alphamap: path("alphamap", &alphamap_name, warnings),
    }
}

/// The materials of `scene` (named `names`), their texture files, and
/// the model's transparency mode; `model` names texture files that have
/// no name of their own, `file_stem` (when given) every texture file.
/// Fails only when a texture's image cannot be encoded as PNG.
pub(crate) fn build(
    scene: &Scene,
    names: &[Name32],
    model: &str,
    file_stem: Option<&str>,
    warnings: &mut Vec<Ms3dCompileWarning>,
) -> Result<Materials> {
    let mut textures = TextureNames {
        scene,
        model: model.to_string(),
        file_stem: file_stem
            .map(|s| stem(&format!("{s}.png")))
            .filter(|s| !s.is_empty()),
        names: vec![None; scene.textures.len()],
        files: Vec::new(),
    };
    let materials = scene
        .materials
        .iter()
        .enumerate()
        .map(|(i, m)| material(m, i, names[i], &mut textures, warnings))
        .collect();
    let recorded = scene.extras.get("model_extras");
    let mask = scene.materials.iter().find_map(|m| match m.alpha_mode {
        AlphaMode::Mask { cutoff } => Some(cutoff),
        _ => None,
    });
    let blend = scene
        .materials
        .iter()
        .any(|m| m.alpha_mode == AlphaMode::Blend);
    let (mode, reference) = match (mask, blend) {
        (Some(cutoff), _) => (1, if cutoff.is_finite() { cutoff } else { 0.5 }),
        (None, true) => (2, 0.5),
        (None, false) => (0, 0.5),
    };
    let transparency_mode = recorded
        .and_then(|r| r.get("transparency_mode"))
        .and_then(Value::as_i64)
        .and_then(|m| i32::try_from(m).ok())
        .unwrap_or(mode);
    let alpha_ref = recorded
        .and_then(|r| r.get("alpha_ref"))
        .and_then(Value::as_f64)
        .map(|a| a as f32)
        .filter(|a| a.is_finite())
        .unwrap_or(reference);
    Ok(Materials {
        materials,
        files: textures.files()?,
        transparency_mode,
        alpha_ref,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_are_safe_file_names() {
        assert_eq!(stem(".\\jeep1.jpg"), "jeep1");
        assert_eq!(stem("players/male/grunt.pcx"), "grunt");
        assert_eq!(stem("my skin (1).tga"), "my_skin__1_");
        assert_eq!(stem(""), "");
        assert_eq!(stem("../.."), "");
    }
}
