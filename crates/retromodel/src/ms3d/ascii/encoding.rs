//! How the text's bytes map to the strings of an [`AsciiModel`]: UTF-8,
//! or, for a text that is not UTF-8 (a code page such as GBK or
//! Windows-1252: MilkShape writes names with `fprintf("%s")`, in the
//! writer's code page), one char per byte, so that the bytes come back
//! exactly.

use std::borrow::Cow;

use super::AsciiModel;

/// How the names, paths, comments and header lines of an [`AsciiModel`]
/// hold the text's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// The text is UTF-8; strings are its text.
    #[default]
    Utf8,
    /// The text is not UTF-8 (a code page: GBK, Windows-1252 ...): every
    /// byte is held as the char of the same number (U+0000–U+00FF), and
    /// written back as that byte. Names read this way look garbled as
    /// text, but their bytes are the file's, exactly.
    Bytes,
}

impl Encoding {
    /// The encoding that holds every one of `texts` exactly: UTF-8 when
    /// they all are, else [`Encoding::Bytes`].
    pub fn for_bytes<'a>(texts: impl IntoIterator<Item = &'a [u8]>) -> Encoding {
        if texts.into_iter().all(|t| std::str::from_utf8(t).is_ok()) {
            Encoding::Utf8
        } else {
            Encoding::Bytes
        }
    }

    /// `bytes` as a string of this encoding (invalid UTF-8 replaced, for
    /// [`Encoding::Utf8`]).
    pub fn decode(self, bytes: &[u8]) -> String {
        match self {
            Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Encoding::Bytes => bytes.iter().map(|&b| char::from(b)).collect(),
        }
    }

    /// The bytes a string of this encoding stands for. Under
    /// [`Encoding::Bytes`], a char past U+00FF (which no text read that
    /// way holds) is written as `?`.
    pub fn encode(self, text: &str) -> Cow<'_, [u8]> {
        match self {
            Encoding::Utf8 => Cow::Borrowed(text.as_bytes()),
            Encoding::Bytes => Cow::Owned(
                text.chars()
                    .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
                    .collect(),
            ),
        }
    }

    /// How many bytes `text` stands for.
    pub fn byte_len(self, text: &str) -> usize {
        match self {
            Encoding::Utf8 => text.len(),
            Encoding::Bytes => text.chars().count(),
        }
    }
}

impl AsciiModel {
    /// The model as the bytes of a MilkShape 3D ASCII file:
    /// [`AsciiModel::to_text`] in the model's [`Encoding`] (for
    /// [`Encoding::Bytes`], each char is its byte again, so names in a
    /// code page come back byte for byte).
    ///
    /// ```
    /// use retromodel::ms3d::ascii::AsciiModel;
    ///
    /// # fn main() -> Result<(), retromodel::Error> {
    /// // "骨头" (bone) in GBK: not UTF-8.
    /// let text = b"Bones: 1\n\"\xb9\xc7\xcd\xb7\"\n\"\"\n0 0 0 0 0 0 0\n0\n0\n";
    /// let model = AsciiModel::parse(text)?;
    /// assert_eq!(model.to_bytes(), text);
    /// assert_eq!(model.to_ms3d()?.joints[0].name.as_bytes(), b"\xb9\xc7\xcd\xb7");
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let text = self.to_text();
        match self.encoding {
            Encoding::Utf8 => text.into_bytes(),
            Encoding::Bytes => self.encoding.encode(&text).into_owned(),
        }
    }
}

impl AsciiModel {
    /// The model in `encoding`: a UTF-8 model's strings become one char
    /// per byte of their UTF-8 for [`Encoding::Bytes`] (the bytes stay
    /// the same). A [`Encoding::Bytes`] model is not changed back (its
    /// bytes need not be UTF-8).
    pub(super) fn in_encoding(mut self, encoding: Encoding) -> AsciiModel {
        if self.encoding == Encoding::Utf8 && encoding == Encoding::Bytes {
            self.for_each_string(|s| *s = Encoding::Bytes.decode(s.as_bytes()));
            self.encoding = Encoding::Bytes;
        }
        self
    }

    /// The model in UTF-8 when every string of a [`Encoding::Bytes`]
    /// model is UTF-8 once encoded (the text's other bytes, in `//` lines
    /// not kept, were not): what writing and reading it again gives.
    pub(super) fn canonical(mut self) -> AsciiModel {
        if self.encoding == Encoding::Bytes {
            let mut utf8 = true;
            self.for_each_string(|s| {
                utf8 &= std::str::from_utf8(&Encoding::Bytes.encode(s)).is_ok();
            });
            if utf8 {
                self.for_each_string(|s| {
                    *s = String::from_utf8_lossy(&Encoding::Bytes.encode(s)).into_owned();
                });
                self.encoding = Encoding::Utf8;
            }
        }
        self
    }

    /// Calls `f` on every string that holds bytes of the text.
    fn for_each_string(&mut self, mut f: impl FnMut(&mut String)) {
        self.header.iter_mut().for_each(&mut f);
        for m in self.meshes.iter_mut().flatten() {
            f(&mut m.name);
            m.vertices.iter_mut().for_each(|v| f(&mut v.extra));
        }
        for m in self.materials.iter_mut().flatten() {
            [&mut m.name, &mut m.texture, &mut m.alphamap]
                .into_iter()
                .for_each(&mut f);
        }
        for b in self.bones.iter_mut().flatten() {
            f(&mut b.name);
            f(&mut b.parent);
        }
        for list in [
            &mut self.group_comments,
            &mut self.material_comments,
            &mut self.bone_comments,
        ] {
            list.iter_mut().flatten().for_each(|c| f(&mut c.text));
        }
        if let Some(Some(text)) = &mut self.model_comment {
            f(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_through_chars() {
        let all: Vec<u8> = (0..=255).collect();
        let s = Encoding::Bytes.decode(&all);
        assert_eq!(s.chars().count(), 256);
        assert_eq!(Encoding::Bytes.encode(&s).as_ref(), &all[..]);
        assert_eq!(Encoding::Bytes.byte_len(&s), 256);
        assert_eq!(Encoding::Bytes.encode("a\u{4e00}").as_ref(), b"a?");
        assert_eq!(
            Encoding::for_bytes([&b"ok"[..], b"\xb9\xc7\xcd\xb7"]),
            Encoding::Bytes
        );
        assert_eq!(
            Encoding::for_bytes([&b"ok"[..], "é".as_bytes()]),
            Encoding::Utf8
        );
    }
}
