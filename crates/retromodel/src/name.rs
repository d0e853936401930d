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
