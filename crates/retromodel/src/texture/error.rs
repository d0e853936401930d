//! The error type of texture decoding and encoding.

use super::ImageFormat;

/// An error while decoding or encoding a texture image.
///
/// Decoding never panics and never allocates more than the input and the
/// [`DecodeLimits`](super::DecodeLimits) allow; whatever it cannot decode
/// comes back as one of these variants. It converts into the crate's
/// [`Error`](crate::Error) with `?`.
///
/// ```
/// use retromodel::texture::{decode, ImageFormat, TextureError};
///
/// // A PCX header that stops after 10 bytes.
/// let err = decode(&[0x0a, 5, 1, 8, 0, 0, 0, 0, 7, 0]).unwrap_err();
/// assert!(matches!(err, TextureError::Truncated { format: ImageFormat::Pcx, .. }));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// The data starts with no magic bytes of a supported image format.
    #[error("not a supported image format (PCX, PNG, JPEG, TGA, BMP): starts with {found}")]
    UnknownFormat {
        /// The first bytes of the data, in hexadecimal.
        found: String,
    },
    /// The data ends before a part that the header promises.
    #[error("{format} image: {context} needs {needed} bytes at offset {offset:#x} but the data is {len} bytes long")]
    Truncated {
        /// The image format being decoded.
        format: ImageFormat,
        /// The part being read, e.g. `header` or `scanline 17`.
        context: String,
        /// Byte offset where the part starts.
        offset: u64,
        /// How many bytes the part needs.
        needed: u64,
        /// Length of the whole input.
        len: u64,
    },
    /// A field holds a value that makes the image unreadable.
    #[error("{format} image: {message} at offset {offset:#x}")]
    Invalid {
        /// The image format being decoded.
        format: ImageFormat,
        /// What is wrong.
        message: String,
        /// Byte offset of the field or part.
        offset: u64,
    },
    /// A valid image in a variant of its format that is not supported
    /// (for example a 16-colour planar PCX).
    #[error("{format} image: unsupported: {message}")]
    Unsupported {
        /// The image format being decoded.
        format: ImageFormat,
        /// What is not supported.
        message: String,
    },
    /// The image is larger than the [`DecodeLimits`](super::DecodeLimits)
    /// allow (or than its input could possibly hold).
    #[error("{format} image of {width}x{height} pixels is too large: {message}")]
    TooLarge {
        /// The image format being decoded.
        format: ImageFormat,
        /// Width the image claims.
        width: u64,
        /// Height the image claims.
        height: u64,
        /// Which limit is exceeded.
        message: String,
    },
    /// The codec of the `image` crate reported an error (PNG, JPEG, TGA and
    /// BMP are decoded by it).
    #[error("{format} image: {message}")]
    Codec {
        /// The image format being decoded.
        format: ImageFormat,
        /// The codec's message.
        message: String,
        /// The codec's own error, when it gave one.
        #[source]
        source: Option<CodecError>,
    },
    /// Encoding a PNG failed.
    #[error("cannot encode PNG: {message}")]
    Encode {
        /// Why.
        message: String,
        /// The encoder's own error.
        #[source]
        source: Option<CodecError>,
    },
}

/// An error of the `image` crate's codecs, kept as the
/// [`source`](std::error::Error::source) of a [`TextureError`] (shared, so
/// that the texture error stays `Clone`; two are equal when their messages
/// are).
#[derive(Debug, Clone)]
pub struct CodecError(pub std::sync::Arc<image::ImageError>);

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for CodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.0.as_ref())
    }
}

impl PartialEq for CodecError {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl Eq for CodecError {}

impl TextureError {
    /// The byte offset this error points at, if it has one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            TextureError::Truncated { offset, .. } | TextureError::Invalid { offset, .. } => {
                Some(*offset)
            }
            TextureError::UnknownFormat { .. } => Some(0),
            _ => None,
        }
    }

    pub(crate) fn truncated(
        format: ImageFormat,
        context: impl Into<String>,
        offset: u64,
        needed: u64,
        len: usize,
    ) -> Self {
        TextureError::Truncated {
            format,
            context: context.into(),
            offset,
            needed,
            len: len as u64,
        }
    }

    pub(crate) fn invalid(format: ImageFormat, message: impl Into<String>, offset: u64) -> Self {
        TextureError::Invalid {
            format,
            message: message.into(),
            offset,
        }
    }
}

impl From<TextureError> for crate::Error {
    /// Truncation and invalid data keep their structure (as
    /// [`Error::Truncated`](crate::Error::Truncated) and
    /// [`Error::Invalid`](crate::Error::Invalid) in context `<format>
    /// texture`), as does data in no image format (an `Invalid` at offset
    /// 0); every other texture error becomes an
    /// [`Error::Texture`](crate::Error::Texture) whose source it is.
    fn from(err: TextureError) -> Self {
        match err {
            TextureError::Truncated {
                format,
                context,
                offset,
                needed,
                len,
            } => crate::Error::Truncated {
                context: format!("{format} texture {context}"),
                offset,
                needed,
                file_len: len,
            },
            TextureError::Invalid {
                format,
                message,
                offset,
            } => crate::Error::Invalid {
                context: format!("{format} texture"),
                message,
                offset,
            },
            TextureError::UnknownFormat { .. } => crate::Error::Invalid {
                context: "texture".to_owned(),
                message: err.to_string(),
                offset: 0,
            },
            other => crate::Error::Texture {
                context: "texture".to_owned(),
                source: other,
            },
        }
    }
}
