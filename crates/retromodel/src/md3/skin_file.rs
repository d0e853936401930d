//! Quake III `.skin` files: which image (or shader) each surface of a
//! model is drawn with.
//!
//! A `.skin` file is text, one surface a line: `surfacename,path/to/image.tga`.
//! Lines naming a tag (`tag_head,`) carry no image and are skipped, as
//! ioquake3's `RE_RegisterSkin` (`code/renderergl1/tr_image.c`) skips every
//! token holding `tag_`; surface names are compared without case (it
//! lower-cases them); `//` and `/* */` comments and blank lines are
//! ignored (its `CommaParse`).
//!
//! ```
//! use retromodel::md3::SkinFile;
//!
//! let skin = SkinFile::parse(b"tag_head,\nu_torso,models/players/sarge/band.tga\r\n")?;
//! assert_eq!(skin.image_for("U_TORSO"), Some("models/players/sarge/band.tga"));
//! assert_eq!(skin.surfaces.len(), 1);
//! # Ok::<(), retromodel::Error>(())
//! ```

/// One surface's line of a `.skin` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkinSurface {
    /// The surface's name, lower case.
    pub surface: String,
    /// The image or shader path (may be empty: the surface is not drawn
    /// with a named image).
    pub image: String,
    /// The line it was on (1-based).
    pub line: usize,
}

/// A parsed `.skin` file ([`SkinFile::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkinFile {
    /// The surfaces' lines, in file order (tags left out).
    pub surfaces: Vec<SkinSurface>,
}

/// The longest `.skin` file read (ioquake3 reads any length; 1 MiB is far
/// past any real one).
pub const MAX_SKIN_FILE_BYTES: usize = 1 << 20;

/// The text of a `.skin` file: a `surface,image` line for each of
/// `surfaces` (in order), then a `tag_name,` line for each of `tags`, the
/// way Quake III's player skins list them (the game skips the tag lines;
/// its tools write them). Lines end with `\r\n`, as id's files do.
///
/// ```
/// use retromodel::md3::{skin_text, SkinFile};
///
/// let text = skin_text(
///     &[("u_torso".to_string(), "models/players/hero/body.tga".to_string())],
///     &["tag_head".to_string()],
/// );
/// assert_eq!(text, "u_torso,models/players/hero/body.tga\r\ntag_head,\r\n");
/// let skin = SkinFile::parse(text.as_bytes())?;
/// assert_eq!(skin.image_for("u_torso"), Some("models/players/hero/body.tga"));
/// # Ok::<(), retromodel::Error>(())
/// ```
pub fn skin_text(surfaces: &[(String, String)], tags: &[String]) -> String {
    let mut out = String::new();
    for (surface, image) in surfaces {
        out.push_str(&format!("{surface},{image}\r\n"));
    }
    for tag in tags {
        out.push_str(&format!("{tag},\r\n"));
    }
    out
}

impl SkinFile {
    /// Parses a `.skin` file. Fails, naming the line, on a line that is
    /// not `surface,image` (no comma, or an empty surface name), on bytes
    /// that are not UTF-8, and on a file over [`MAX_SKIN_FILE_BYTES`].
    pub fn parse(bytes: &[u8]) -> crate::Result<SkinFile> {
        if bytes.len() > MAX_SKIN_FILE_BYTES {
            return Err(invalid(
                0,
                0,
                format!("{} bytes, over the 1 MiB limit", bytes.len()),
            ));
        }
        let text = strip_block_comments(bytes);
        let mut surfaces = Vec::new();
        let mut offset = 0u64;
        for (index, raw) in text.split(|&b| b == b'\n').enumerate() {
            let line = index + 1;
            let start = offset;
            offset += raw.len() as u64 + 1;
            let Ok(raw) = std::str::from_utf8(raw) else {
                return Err(invalid(line, start, "not UTF-8 text".to_string()));
            };
            let content = raw.split("//").next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            if content
                .split(',')
                .next()
                .is_some_and(|s| s.contains("tag_"))
            {
                continue;
            }
            let Some((surface, image)) = content.split_once(',') else {
                return Err(invalid(
                    line,
                    start,
                    format!("expected `surface,image`, found {content:?}"),
                ));
            };
            let surface = surface.trim();
            if surface.is_empty() {
                return Err(invalid(
                    line,
                    start,
                    "the surface name is empty".to_string(),
                ));
            }
            surfaces.push(SkinSurface {
                surface: surface.to_ascii_lowercase(),
                image: image.trim().trim_end_matches(',').trim().to_string(),
                line,
            });
        }
        Ok(SkinFile { surfaces })
    }

    /// The image for a surface (its name compared without case); the
    /// first line naming it wins, as in ioquake3's `R_AddMD3Surfaces`.
    pub fn image_for(&self, surface: &str) -> Option<&str> {
        self.surfaces
            .iter()
            .find(|s| s.surface.eq_ignore_ascii_case(surface))
            .map(|s| s.image.as_str())
    }
}

/// The text with `/* */` comments blanked out (newlines kept, so lines
/// keep their numbers).
fn strip_block_comments(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                if bytes[i] == b'\n' {
                    out.push(b'\n');
                }
                i += 1;
            }
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn invalid(line: usize, offset: u64, message: String) -> crate::Error {
    crate::Error::Invalid {
        context: format!(".skin line {line}"),
        message,
        offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_tags_comments_and_errors() {
        let text = b"// made by hand\n/* a\nblock */ h_head , models/players/x/head.tga\ntag_weapon,\ntag_torso\n\nl_legs,x.jpg,\n";
        let skin = SkinFile::parse(text).unwrap();
        assert_eq!(skin.surfaces.len(), 2);
        assert_eq!(skin.surfaces[0].line, 3);
        assert_eq!(skin.image_for("h_head"), Some("models/players/x/head.tga"));
        assert_eq!(skin.image_for("L_LEGS"), Some("x.jpg"));
        let e = SkinFile::parse(b"a,b\nno comma here\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains(".skin line 2"), "{e}");
        assert!(e.contains("at offset 0x4"), "{e}");
        let e = SkinFile::parse(b",b\n").unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("empty"), "{e}");
        assert!(SkinFile::parse(&[b'a', b',', 0xff]).is_err());
    }
}
