//! GZDoom's MODELDEF block for a model: which model frame each sprite
//! frame of an actor draws.
//!
//! Written to GZDoom's parser (`src/r_data/models.cpp`,
//! `ParseModelDefLump`, read at g4.15pre-645):
//!
//! - `Path`, `Model`, `Skin`/`SurfaceSkin`, `Scale`, `ZOffset` and
//!   `AngleOffset` come before every `FrameIndex`: each `FrameIndex` line
//!   keeps a copy of the settings made so far.
//! - One model, index 0 (indices 0 to 3 load in every GZDoom; the first
//!   pass reads the token after any token `model` as the index, so no
//!   string written is the word `model`).
//! - Integers are plain decimal without a leading `0` (`GetNumber` reads
//!   `010` as octal and refuses `08`).
//! - Sprite names are four characters, and frame characters `A`-`Z`, `[`,
//!   `\` and `]` (29 a sprite: `toupper(c) - 'A' < 29`), written unquoted
//!   (in a quoted string the scanner reads `\"` as a quote). A sprite whose
//!   29 frames are used up is followed by the next: `GF00`, `GF01` ...
//!   Never `TNT1`, sprite 0, which GZDoom never draws.
//! - Every frame of the model is one `FrameIndex` line, in frame order.
//!   The sprites must be used in some state of an actor (the parser looks
//!   them up among the registered sprites: "Unknown sprite" is fatal),
//!   which the comment at the top lists per animation.
//!
//! Placement: GZDoom stands the model's origin on the actor's feet and uses
//! the file's axes as Doom's (MD2 and MD3: x forward, z up;
//! `FMD2Model::LoadGeometry`, `FMD3Model::BuildVertexBuffer`), so a Quake
//! model faces the actor's way with `AngleOffset 0`. It draws the model's
//! height scaled by `1 / pixelstretch` (1.2 in Doom's MAPINFO) after the
//! `Scale` line and adds `ZOffset` in map units (`ObjectToWorldMatrix`).
//! The block's `Scale s s s` makes frame 0 `height` map units tall in the
//! world (`s = height × 1.2 / model height`), the height of a
//! `height`-pixel sprite of the same actor, and `ZOffset` (`-s × lowest z
//! / 1.2`) stands frame 0's lowest point on the floor.
//!
//! ```
//! use retromodel::textfiles::{modeldef, ModelFacts, ModeldefOptions};
//!
//! let facts = ModelFacts {
//!     frame_names: (0..30).map(|i| format!("walk{i}")).collect(),
//!     bounds: Some([[-8.0, -8.0, -24.0], [8.0, 8.0, 32.0]]),
//!     ..ModelFacts::default()
//! };
//! let options = ModeldefOptions::new("Ghoul", "ghoul.md3");
//! let m = modeldef(&facts, &options).unwrap();
//! assert!(m.text.contains("FrameIndex GH00 A 0 0\n"));
//! assert!(m.text.contains("FrameIndex GH00 \\ 0 27\n"));
//! assert!(m.text.contains("FrameIndex GH01 A 0 29\n"));
//! assert_eq!(m.sprites[0].parts, [("GH00".to_string(), 0, 29), ("GH01".to_string(), 0, 1)]);
//! ```

use super::{frame_lines, ModelFacts};

/// The frame characters of one sprite, in order: `A`-`Z`, `[`, `\`, `]`.
pub const FRAME_CHARS: &[u8; 29] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]";

/// Doom's `pixelstretch` (MAPINFO's default `pixelratio`): GZDoom draws a
/// model's height divided by it.
pub const PIXEL_STRETCH: f32 = 1.2;

/// The height a MODELDEF block gives a model by default: a Doom player's
/// and most monsters' (`Height 56`).
pub const DEFAULT_HEIGHT: f32 = 56.0;

/// How a MODELDEF block is written.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeldefOptions {
    /// The actor class (`Model <actor> { ... }`).
    pub actor: String,
    /// The model's file name, as `Model 0` names it (beside `path`).
    pub model_file: String,
    /// The folder the model and its skins are in, as `Path` names it
    /// (default `models/<actor in lower case>`).
    pub path: String,
    /// How tall frame 0 stands, in map units ([`DEFAULT_HEIGHT`]).
    pub height: f32,
    /// The first two characters of the sprite names (default: the first
    /// two letters or digits of the model's file name, upper case).
    pub sprite_prefix: Option<String>,
}

impl ModeldefOptions {
    /// Options for `actor`'s model `model_file`, in `models/<actor>`,
    /// [`DEFAULT_HEIGHT`] tall.
    pub fn new(actor: &str, model_file: &str) -> Self {
        ModeldefOptions {
            actor: actor.to_string(),
            model_file: model_file.to_string(),
            path: format!("models/{}", actor.to_ascii_lowercase()),
            height: DEFAULT_HEIGHT,
            sprite_prefix: None,
        }
    }
}

/// Where one animation's frames are, as sprite frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnimationSprites {
    /// The animation's name.
    pub name: String,
    /// Each sprite with the first frame character's index in
    /// [`FRAME_CHARS`] and how many follow it.
    pub parts: Vec<(String, usize, usize)>,
}

impl AnimationSprites {
    /// The parts as a state line would spell them: `GF00 ABC, GF01 AB`.
    pub fn states(&self) -> String {
        self.parts
            .iter()
            .map(|(sprite, first, count)| {
                let chars: String = FRAME_CHARS[*first..first + count]
                    .iter()
                    .map(|&c| c as char)
                    .collect();
                format!("{sprite} {chars}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A MODELDEF block.
#[derive(Debug, Clone, PartialEq)]
pub struct Modeldef {
    /// The text: a comment with the sprite frames of each animation, then
    /// the block.
    pub text: String,
    /// Each animation's sprite frames.
    pub sprites: Vec<AnimationSprites>,
    /// The `Scale` written.
    pub scale: f32,
    /// The `ZOffset` written.
    pub z_offset: f32,
}

/// Why no MODELDEF block can be written.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModeldefProblem {
    /// The actor's name is not a class name (letters, digits, `_`, not a
    /// digit first).
    BadActor(String),
    /// A name written in the block would break it: it holds a `"` or a
    /// line break, or is the word `model`.
    BadName(String),
    /// More frames than 100 sprites of 29 frames hold.
    TooManyFrames(usize),
}

impl std::fmt::Display for ModeldefProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModeldefProblem::BadActor(a) => write!(
                f,
                "{a:?} is not an actor class name (letters, digits and _, not a digit first)"
            ),
            ModeldefProblem::BadName(n) => write!(
                f,
                "{n:?} cannot be written in a MODELDEF string (a quote, a line break, or the word model)"
            ),
            ModeldefProblem::TooManyFrames(n) => write!(
                f,
                "{n} frames: more than 100 sprites of 29 frames ({}) hold",
                100 * FRAME_CHARS.len()
            ),
        }
    }
}

impl std::error::Error for ModeldefProblem {}

/// Whether `name` is a ZScript/DECORATE class name.
pub fn is_actor_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A string MODELDEF reads back as written: no quote, no line break, not
/// the word `model`.
fn writable(s: &str) -> bool {
    !s.contains(['"', '\n', '\r']) && !s.eq_ignore_ascii_case("model")
}

/// A number as MODELDEF's `GetFloat` reads it: decimal, at most 4 places.
fn number(v: f32) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The file name part of a skin path (GZDoom looks skins up under `Path`).
fn file_part(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The sprite names' prefix: two upper-case letters or digits.
fn prefix(options: &ModeldefOptions) -> String {
    let from = options
        .sprite_prefix
        .as_deref()
        .unwrap_or(&options.model_file);
    let mut p: String = from
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(2)
        .collect::<String>()
        .to_ascii_uppercase();
    while p.len() < 2 {
        p.push('M');
    }
    p
}

/// The MODELDEF block for a model with `facts`, as `options` says.
pub fn modeldef(
    facts: &ModelFacts,
    options: &ModeldefOptions,
) -> Result<Modeldef, ModeldefProblem> {
    if !is_actor_name(&options.actor) {
        return Err(ModeldefProblem::BadActor(options.actor.clone()));
    }
    let skins: Vec<&str> = facts.skins.iter().map(|s| file_part(s)).collect();
    let surface_skins: Vec<&str> = facts.surface_skins.iter().map(|s| file_part(s)).collect();
    for s in [options.path.as_str(), options.model_file.as_str()]
        .into_iter()
        .chain(skins.iter().copied())
        .chain(surface_skins.iter().copied())
    {
        if !writable(s) {
            return Err(ModeldefProblem::BadName(s.to_string()));
        }
    }
    let frames = facts.frame_names.len().max(1);
    if frames > 100 * FRAME_CHARS.len() {
        return Err(ModeldefProblem::TooManyFrames(frames));
    }
    let prefix = prefix(options);
    let sprite = |frame: usize| format!("{prefix}{:02}", frame / FRAME_CHARS.len());
    let (lowest, tall) = match facts.bounds {
        Some([min, max]) => (min[2], max[2] - min[2]),
        None => (0.0, 0.0),
    };
    let height = if options.height.is_finite() && options.height > 0.0 {
        options.height
    } else {
        DEFAULT_HEIGHT
    };
    let scale = if tall > 1e-6 {
        height * PIXEL_STRETCH / tall
    } else {
        1.0
    };
    let z_offset = -scale * lowest / PIXEL_STRETCH + 0.0;
    let z_offset = if z_offset.abs() < 1e-6 { 0.0 } else { z_offset };
    let sprites: Vec<AnimationSprites> = frame_lines(frames, &facts.animations)
        .into_iter()
        .map(|(name, range)| {
            let mut parts: Vec<(String, usize, usize)> = Vec::new();
            for f in range {
                let (s, c) = (sprite(f), f % FRAME_CHARS.len());
                match parts.last_mut() {
                    Some(last) if last.0 == s => last.2 += 1,
                    _ => parts.push((s, c, 1)),
                }
            }
            AnimationSprites { name, parts }
        })
        .collect();

    let mut t = String::new();
    t.push_str(&format!(
        "// MODELDEF for {}, written by retromodel.\n\
         // The actor's states show these sprite frames (each draws one model frame):\n",
        options.model_file
    ));
    for a in &sprites {
        t.push_str(&format!(
            "//   {}: {}\n",
            a.name.replace(['\n', '\r'], " "),
            a.states()
        ));
    }
    t.push_str(&format!(
        "// Scale: frame 0 stands {} map units tall; ZOffset puts its lowest point on the floor.\n\n",
        number(height)
    ));
    t.push_str(&format!("Model {}\n{{\n", options.actor));
    t.push_str(&format!("   Path \"{}\"\n", options.path));
    t.push_str(&format!("   Model 0 \"{}\"\n", options.model_file));
    if let Some(skin) = skins.first().filter(|s| !s.is_empty()) {
        t.push_str(&format!("   Skin 0 \"{skin}\"\n"));
    } else {
        for (i, skin) in surface_skins.iter().enumerate().take(32) {
            if !skin.is_empty() {
                t.push_str(&format!("   SurfaceSkin 0 {i} \"{skin}\"\n"));
            }
        }
    }
    let s = number(scale);
    t.push_str(&format!("   Scale {s} {s} {s}\n"));
    t.push_str(&format!("   ZOffset {}\n", number(z_offset)));
    t.push_str("   AngleOffset 0\n\n");
    for f in 0..frames {
        t.push_str(&format!(
            "   FrameIndex {} {} 0 {f}\n",
            sprite(f),
            FRAME_CHARS[f % FRAME_CHARS.len()] as char
        ));
    }
    t.push_str("}\n");
    Ok(Modeldef {
        text: t,
        sprites,
        scale,
        z_offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_plain_decimals() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(-0.00001), "0");
        assert_eq!(number(-24.5), "-24.5");
    }

    #[test]
    fn the_word_model_is_refused() {
        let mut o = ModeldefOptions::new("Thing", "thing.md2");
        o.path = "Model".into();
        let err = modeldef(&ModelFacts::default(), &o).unwrap_err();
        assert_eq!(err, ModeldefProblem::BadName("Model".into()));
    }

    #[test]
    fn the_prefix_never_makes_tnt1() {
        let o = ModeldefOptions::new("Tnt", "tnt.md2");
        let m = modeldef(&ModelFacts::default(), &o).unwrap();
        assert!(m.text.contains("FrameIndex TN00 A 0 0"));
    }
}
