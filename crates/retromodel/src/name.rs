//! Fixed-size, NUL-padded name fields as they are stored in model files.
//!
//! The raw bytes are kept (including anything after the NUL, which some
//! exporters leave behind) so a rewrite reproduces the file; the text is
//! what comes before the first NUL, decoded lossily.

/// Defines the methods and trait impls of a fixed-size name newtype
/// `$ty(pub [u8; $len])`.
macro_rules! fixed_name {
    ($ty:ident, $len:expr) => {
        impl $ty {
            /// A name from text; longer text is cut at the field's size.
            pub fn new(text: &str) -> Self {
                let mut raw = [0u8; $len];
                let n = text.len().min($len);
                raw[..n].copy_from_slice(&text.as_bytes()[..n]);
                $ty(raw)
            }

            /// A name from bytes as stored (a code page's, not necessarily
            /// UTF-8); longer ones are cut at the field's size.
            pub fn from_bytes(bytes: &[u8]) -> Self {
                let mut raw = [0u8; $len];
                let n = bytes.len().min($len);
                raw[..n].copy_from_slice(&bytes[..n]);
                $ty(raw)
            }

            /// The bytes up to the first NUL (all of them if there is none).
            pub fn as_bytes(&self) -> &[u8] {
                let end = self.0.iter().position(|&b| b == 0).unwrap_or($len);
                &self.0[..end]
            }

            /// The name as text, up to the first NUL; bytes that are not
            /// UTF-8 are replaced.
            pub fn to_string_lossy(&self) -> String {
                String::from_utf8_lossy(self.as_bytes()).into_owned()
            }

            /// Whether the field has no NUL at all (the name fills it).
            pub fn is_unterminated(&self) -> bool {
                !self.0.contains(&0)
            }

            /// The whole field (bytes after the NUL included) in
            /// lower-case hexadecimal, for carrying it where only text
            /// goes (a scene's extras, glTF).
            #[allow(dead_code)]
            pub(crate) fn hex(&self) -> String {
                crate::name::to_hex(&self.0)
            }

            /// The field from [`hex`](Self::hex)'s text: `None` unless
            /// it is hexadecimal of exactly the field's size.
            #[allow(dead_code)]
            pub(crate) fn from_hex(text: &str) -> Option<Self> {
                let bytes = crate::name::from_hex(text)?;
                Some($ty(<[u8; $len]>::try_from(bytes.as_slice()).ok()?))
            }
        }

        impl Default for $ty {
            fn default() -> Self {
                $ty([0; $len])
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{:?}", self.to_string_lossy())
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.to_string_lossy())
            }
        }
    };
}

/// Lower-case hexadecimal of `bytes`.
#[allow(dead_code)]
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// The bytes of hexadecimal text (either case); `None` when it has an odd
/// length or a character that is not a hexadecimal digit.
#[allow(dead_code)]
pub(crate) fn from_hex(s: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks_exact(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let b = [0u8, 1, 0xab, 0xff, 0x10];
        assert_eq!(to_hex(&b), "0001abff10");
        assert_eq!(from_hex("0001ABff10").unwrap(), b);
        assert_eq!(from_hex("0g"), None);
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("é0"), None, "not ASCII");
    }
}
