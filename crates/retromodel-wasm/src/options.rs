//! The page's conversion options, as JSON, mapped onto the library's
//! [`ConvertOptions`] the way the command line maps its flags: each field
//! is named like the flag (`quantize` is `--quantize`, `fit_height` is
//! `--fit-height`), and the MD2 compiler's options are only set when one
//! of its flags is.

use std::sync::Arc;

use retromodel::convert::{CompileOptions, ConvertOptions};
use retromodel::md2::Engine;
use retromodel::ms3d::Clip;
use retromodel::scene::UserSkin;
use retromodel::texture::MemorySource;
use serde::Deserialize;

/// The options a page passes, every field optional (`{}` is a plain
/// conversion).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebOptions {
    /// `--quantize`.
    pub quantize: bool,
    /// `--compress`.
    pub compress: bool,
    /// `--skin FILE`: the path of a dropped image, used as the first skin
    /// or texture.
    pub skin: Option<String>,
    /// `--frame N` (OBJ of an MD2).
    pub frame: Option<usize>,
    /// `--anim NAME` (repeatable for .md2 output).
    pub anim: Vec<String>,
    /// `--time SECONDS` (OBJ of an MS3D or glTF).
    pub time: Option<f32>,
    /// `--clip NAME:FIRST-LAST` (MS3D).
    pub clip: Vec<String>,
    /// `--fps` (.md2 output).
    pub fps: Option<f32>,
    /// `--player` (.md2 output).
    pub player: bool,
    /// `--scale` (.md2 output).
    pub scale: Option<f32>,
    /// `--fit-height` (.md2 output).
    pub fit_height: Option<f32>,
    /// `--engine NAME` (.md2 output).
    pub engine: Option<String>,
}

impl WebOptions {
    /// Parses the page's JSON (an empty string is `{}`).
    pub fn from_json(json: &str) -> Result<WebOptions, String> {
        if json.trim().is_empty() {
            return Ok(WebOptions::default());
        }
        serde_json::from_str(json).map_err(|e| format!("options: {e}"))
    }

    /// The library's options; `files` holds the dropped skin.
    pub fn to_convert_options(&self, files: &MemorySource) -> Result<ConvertOptions, String> {
        let clip = self
            .clip
            .iter()
            .map(|c| c.parse::<Clip>())
            .collect::<Result<Vec<_>, _>>()?;
        let skin = self.skin.as_ref().map(|path| UserSkin {
            path: path.clone(),
            name: path.rsplit(['/', '\\']).next().unwrap_or(path).to_string(),
            data: files
                .get(path)
                .map(Arc::from)
                .ok_or_else(|| "no such file among the dropped files".to_string()),
        });
        Ok(ConvertOptions {
            quantize: self.quantize,
            compress: self.compress,
            clip,
            frame: self.frame,
            anim: self.anim.clone(),
            time: self.time,
            compile: self.compile_options()?,
            skin,
            // An MDL's skins index Quake's palette: a dropped
            // gfx/palette.lmp (or palette.lmp) anywhere in the drop, as
            // `--palette` gives it to the command line.
            palette: crate::quake::dropped_palette(files).map(|(_, p)| p),
            ..ConvertOptions::default()
        })
    }

    /// The MD2 compiler's options, when any of its fields is given (with
    /// the command line's checks and messages).
    fn compile_options(&self) -> Result<Option<CompileOptions>, String> {
        let given = self.fps.is_some()
            || self.player
            || self.scale.is_some()
            || self.fit_height.is_some()
            || self.engine.is_some();
        if !given {
            return Ok(None);
        }
        let mut o = CompileOptions::default();
        o.skin.format = retromodel::md2::compile::SkinFormat::Png;
        if let Some(fps) = self.fps {
            if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
                return Err(format!(
                    "--fps {fps}: must be a number of frames per second above 0 (at most 1000)"
                ));
            }
            o.fps = fps;
        }
        if self.scale.is_some() && self.fit_height.is_some() {
            return Err("--scale and --fit-height exclude each other".to_string());
        }
        o.player = self.player;
        o.scale = self.scale;
        o.fit_height = self.fit_height;
        o.animations = self.anim.clone();
        if let Some(name) = &self.engine {
            o.engine = Engine::from_name(name).ok_or_else(|| {
                format!("--engine {name}: unknown (known: quake2, yquake2, q2pro, kmquake2, ufoai)")
            })?;
        }
        Ok(Some(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_map_to_the_library_options() {
        let mut files = MemorySource::new();
        files.add("skins/hero.pcx", b"PCX".to_vec()).unwrap();
        let o = WebOptions::from_json(
            r#"{"quantize":true,"skin":"skins/hero.pcx","clip":["walk:1-10"],"frame":2}"#,
        )
        .unwrap();
        let c = o.to_convert_options(&files).unwrap();
        assert!(c.quantize && !c.compress && c.strict);
        assert_eq!(c.frame, Some(2));
        assert_eq!(c.clip[0].name, "walk");
        assert_eq!(c.clip[0].last_frame, 10.0);
        let skin = c.skin.unwrap();
        assert_eq!(skin.name, "hero.pcx");
        assert_eq!(skin.data.unwrap().as_ref(), b"PCX");
        assert!(c.compile.is_none());
        assert_eq!(WebOptions::from_json("").unwrap(), WebOptions::default());
    }

    #[test]
    fn bad_options_are_errors_with_the_flag_named() {
        let files = MemorySource::new();
        let err = |json: &str| {
            WebOptions::from_json(json)
                .and_then(|o| o.to_convert_options(&files).map(|_| ()))
                .unwrap_err()
        };
        assert!(err(r#"{"fps":0}"#).contains("--fps 0"));
        assert!(err(r#"{"engine":"doom"}"#).contains("--engine doom"));
        assert!(err(r#"{"clip":["x"]}"#).contains("name:first-last"));
        assert!(err(r#"{"colour":1}"#).contains("unknown field"));
        assert!(err("[").starts_with("options:"));
        let o = WebOptions::from_json(r#"{"fps":15,"engine":"q2pro","player":true}"#).unwrap();
        let compile = o.to_convert_options(&files).unwrap().compile.unwrap();
        assert_eq!(compile.fps, 15.0);
        assert!(compile.player);
        assert_eq!(compile.engine, Engine::Q2pro);
    }
}
