//! Quake III shader scripts (`scripts/*.shader`): the image each named
//! shader draws, so that a surface whose shader (or `.skin` line) names a
//! scripted shader rather than an image file finds its texture.
//!
//! A script is a list of `name { ... }` blocks; each `{ ... }` inside is a
//! stage. The image of a shader is its first stage's `map`, `clampMap` or
//! `animMap` (its first image) that is not an engine image (`$lightmap`,
//! `$whiteimage`), else its `qer_editorimage` (what map editors show),
//! as ioquake3's `ParseShader`/`ParseStage` (`code/renderergl1/tr_shader.c`)
//! read them. Tokens and comments as `COM_ParseExt` reads them: `//` and
//! `/* */` comments, `"quoted"` tokens. Names compare without case and
//! without an extension (`R_FindShader` strips it). A block that does not
//! close ends the file's reading; nothing here fails.
//!
//! A name defined twice: within one script the first definition stands,
//! and a script added later overrides those added before, as in
//! ioquake3, whose `ScanAndLoadShaderFiles` joins the scripts last file
//! first (files listed by name) and whose `FindShaderInShaderText` takes
//! the first definition in that text. Add scripts in the game's order:
//! sorted by file name, without case.
//!
//! ```
//! use retromodel::md3::ShaderScripts;
//!
//! let mut scripts = ShaderScripts::default();
//! scripts.add(br#"
//! rocketFlare // the rocket's glow
//! {
//!     cull none
//!     {
//!         map $lightmap
//!     }
//!     {
//!         clampmap textures/flares/wide.tga
//!         blendFunc add
//!     }
//! }
//! "#);
//! assert_eq!(scripts.image_for("models/x/ROCKETFLARE.tga"), None);
//! assert_eq!(scripts.image_for("RocketFlare.tga"), Some("textures/flares/wide.tga"));
//! ```

use std::collections::HashMap;

/// The most shader text read in all (OpenArena's scripts are 2.4 MB).
pub const MAX_SHADER_TEXT_BYTES: usize = 64 << 20;

/// The images of named shaders, from any number of scripts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShaderScripts {
    /// Shader name (lower case, `/` separators, no extension) → its
    /// image (`None`: a shader that names none, as an empty stage).
    images: HashMap<String, Option<String>>,
    /// Bytes read so far.
    read: usize,
}

/// `name` as shaders are looked up: lower case, `/` for `\`, without the
/// extension of its last part.
fn key(name: &str) -> String {
    let name = name.trim().replace('\\', "/").to_ascii_lowercase();
    let cut = match (name.rfind('.'), name.rfind('/')) {
        (Some(dot), Some(slash)) if dot > slash => dot,
        (Some(dot), None) => dot,
        _ => name.len(),
    };
    name[..cut].to_string()
}

/// `COM_ParseExt`'s tokens of `text` (lossy UTF-8).
fn tokens(text: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(text);
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let bytes = text.as_bytes();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if bytes[i..].starts_with(b"//") {
            while chars.peek().is_some_and(|&(_, c)| c != '\n') {
                chars.next();
            }
        } else if bytes[i..].starts_with(b"/*") {
            chars.next();
            chars.next();
            let mut prev = ' ';
            for (_, c) in chars.by_ref() {
                if prev == '*' && c == '/' {
                    break;
                }
                prev = c;
            }
        } else if c == '"' {
            chars.next();
            let mut t = String::new();
            for (_, c) in chars.by_ref() {
                if c == '"' {
                    break;
                }
                t.push(c);
            }
            out.push(t);
        } else if c == '{' || c == '}' {
            chars.next();
            out.push(c.to_string());
        } else {
            let mut t = String::new();
            while let Some(&(_, c)) = chars.peek() {
                if c.is_whitespace() || c == '{' || c == '}' {
                    break;
                }
                t.push(c);
                chars.next();
            }
            out.push(t);
        }
    }
    out
}

impl ShaderScripts {
    /// Reads one script's shaders: its first definition of a name stands
    /// within it, and overrides the scripts added before. Past
    /// [`MAX_SHADER_TEXT_BYTES`] in all, nothing more is read.
    pub fn add(&mut self, script: &[u8]) {
        if self.read.saturating_add(script.len()) > MAX_SHADER_TEXT_BYTES {
            return;
        }
        self.read += script.len();
        let mut own: HashMap<String, Option<String>> = HashMap::new();
        read_blocks(&tokens(script), &mut own);
        self.images.extend(own);
    }

    /// The image the shader `name` draws (compared without case and
    /// extension), if a script defines it with one.
    pub fn image_for(&self, name: &str) -> Option<&str> {
        self.images.get(&key(name)).and_then(|i| i.as_deref())
    }

    /// How many shaders are defined.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Whether no shader is defined.
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }
}

/// The shaders of one script's tokens into `own` (first definition of a
/// name kept, with or without an image), up to a block that does not
/// close.
fn read_blocks(tokens: &[String], own: &mut HashMap<String, Option<String>>) {
    let mut i = 0;
    while i < tokens.len() {
        let name = &tokens[i];
        if tokens.get(i + 1).map(String::as_str) != Some("{") {
            // Not a shader: a stray token.
            i += 1;
            continue;
        }
        let Some((image, end)) = block(tokens, i + 2) else {
            return;
        };
        own.entry(key(name)).or_insert(image);
        i = end;
    }
}

/// The shader block whose tokens start at `at` (after its `{`): its image
/// and the index after its closing `}`; `None` when it does not close.
fn block(tokens: &[String], mut at: usize) -> Option<(Option<String>, usize)> {
    let (mut stage_image, mut editor_image) = (None::<String>, None::<String>);
    let mut depth = 1;
    let mut in_first_image_stage = false;
    while let Some(t) = tokens.get(at) {
        at += 1;
        match t.as_str() {
            "{" => {
                depth += 1;
                in_first_image_stage = depth == 2 && stage_image.is_none();
            }
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return Some((stage_image.or(editor_image), at));
                }
            }
            _ => {
                let word = t.to_ascii_lowercase();
                let next = |k: usize| tokens.get(at + k).filter(|t| *t != "{" && *t != "}");
                if depth == 1 && word == "qer_editorimage" && editor_image.is_none() {
                    editor_image = next(0).cloned();
                } else if depth == 2 && in_first_image_stage {
                    let image = match word.as_str() {
                        "map" | "clampmap" => next(0),
                        // animMap FREQUENCY IMAGE...
                        "animmap" => next(1),
                        _ => None,
                    };
                    if let Some(image) = image.filter(|i| !i.starts_with('$')) {
                        stage_image = Some(image.clone());
                        in_first_image_stage = false;
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_editor_images_comments_and_unclosed_blocks() {
        let mut s = ShaderScripts::default();
        s.add(
            br#"
/* a block
   comment { } */
models/gibs/meat { qer_editorimage models/gibs/meat_ed.tga
  { map $whiteimage }
  { animMap 10 models/gibs/a.tga models/gibs/b.tga }
  { map models/gibs/later.tga }
}
"textures/quoted name" { { map "textures/q.tga" } }
editoronly { qer_editorimage e.jpg surfaceparm nodraw }
stray
nothing { cull none }
"#,
        );
        assert_eq!(
            s.image_for("models/gibs/meat.md3"),
            Some("models/gibs/a.tga")
        );
        assert_eq!(s.image_for("TEXTURES/QUOTED NAME"), Some("textures/q.tga"));
        assert_eq!(s.image_for("editoronly"), Some("e.jpg"));
        assert_eq!(s.image_for("nothing"), None);
        assert_eq!(s.len(), 4);
        // A later script overrides, with no image too; within it the
        // first definition stays; an unclosed block ends the reading.
        s.add(b"editoronly { { map other.tga } }\neditoronly { { map third.tga } }\n\"textures/quoted name\" { { } }\nunclosed { { map u.tga }\n");
        assert_eq!(s.image_for("editoronly"), Some("other.tga"));
        assert_eq!(s.image_for("textures/quoted name"), None);
        assert_eq!(s.image_for("unclosed"), None);
        assert_eq!(key("Models\\X\\Skin.TGA"), "models/x/skin");
        assert_eq!(key("models/x.y/skin"), "models/x.y/skin");
    }
}
