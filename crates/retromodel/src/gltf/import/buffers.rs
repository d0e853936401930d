//! Buffers (the GLB's BIN chunk, `data:` URIs, external files) and buffer
//! views (slices of them, or decoded `EXT_meshopt_compression` streams),
//! loaded on first use and checked against the lengths the document
//! declares.

use std::borrow::Cow;

use super::container::{parse_uri, Uri};
use super::json::{err, At};
use super::Ctx;
use crate::error::Result;
use crate::texture::{ResolveError, ResolvedTexture};

/// The bytes of a buffer view, and its stride when it declares one.
#[derive(Clone, Copy)]
pub(crate) struct View<'c> {
    /// The view's bytes.
    pub bytes: &'c [u8],
    /// `byteStride`, when given.
    pub stride: Option<usize>,
}

/// A message for a file that a source could not give.
pub(crate) fn resolve_message(what: &str, e: &ResolveError) -> String {
    match e {
        ResolveError::Refused {
            name,
            reason,
            skipped,
        } => {
            let mut m = format!("{what} {name:?} refused: {reason}");
            for s in skipped.iter().take(3) {
                m.push_str(&format!("; {s}"));
            }
            m
        }
        ResolveError::NotFound {
            name,
            tried,
            skipped,
        } => {
            let mut m = format!("{what} {name:?} not found");
            if let Some(first) = tried.first() {
                m.push_str(&format!(" (looked for {}", first.display()));
                if tried.len() > 1 {
                    m.push_str(&format!(" and {} more", tried.len() - 1));
                }
                m.push(')');
            }
            for s in skipped.iter().take(3) {
                m.push_str(&format!("; {s}"));
            }
            m
        }
    }
}

impl<'a> Ctx<'a> {
    /// Counts `bytes` against [`ImportOptions::max_buffer_bytes`](super::ImportOptions::max_buffer_bytes).
    pub fn charge_buffer(&self, bytes: u64, path: impl FnOnce() -> String) -> Result<()> {
        let total = self.buffer_bytes.get().saturating_add(bytes);
        if total > self.options.max_buffer_bytes {
            let max = self.options.max_buffer_bytes;
            return Err(err(
                path(),
                format!(
                    "{bytes} more bytes of buffer data would pass the import's limit of {max} bytes of buffer data"
                ),
            )
            .advised(crate::advice::Advice::new(
                Some(crate::advice::Limit {
                    quantity: crate::advice::Quantity::GltfBufferBytes,
                    max,
                    actual: total,
                }),
                Vec::new(),
            )));
        }
        self.buffer_bytes.set(total);
        Ok(())
    }

    /// Reads an external file through the resource source.
    pub fn load_external(&self, name: &str, what: &str, path: &str) -> Result<ResolvedTexture> {
        let Some(source) = self.resources else {
            return Err(err(
                path,
                format!(
                    "{what} {name:?} is an external file, and no resource source was given to read it"
                ),
            ));
        };
        source
            .load_resource(name)
            .map_err(|e| err(path, resolve_message(what, &e)))
    }

    /// The data of buffer `index` (`None` for an `EXT_meshopt_compression`
    /// fallback buffer, which has none), at most its `byteLength` bytes.
    pub fn buffer(&self, index: usize, referrer: &dyn Fn() -> String) -> Result<Option<&[u8]>> {
        let at = self.item("buffers", index, referrer)?;
        let cell = self
            .buffers
            .get(index)
            .ok_or_else(|| err(referrer(), "buffer out of range"))?;
        if let Some(data) = cell.get() {
            return Ok(data.as_deref());
        }
        let data = self.load_buffer(&at, index)?;
        // Set once: the cell was empty above and nothing else fills it.
        let _ = cell.set(data);
        Ok(cell.get().and_then(|d| d.as_deref()))
    }

    fn load_buffer(&self, at: &At<'a>, index: usize) -> Result<Option<Cow<'a, [u8]>>> {
        let path = || format!("/buffers/{index}");
        let length = at.usize("byteLength")?;
        if length == 0 {
            return Err(at.err_at("byteLength", "must be at least 1"));
        }
        let fallback = at.extension("EXT_meshopt_compression")?.is_some();
        let data: Cow<'a, [u8]> = match at.opt_str("uri")? {
            Some(uri) => {
                let uri_path = format!("{}/uri", path());
                match parse_uri(uri, self.options.max_data_uri_bytes)
                    .map_err(|m| err(uri_path.clone(), m))?
                {
                    Uri::Data { bytes, .. } => Cow::Owned(bytes),
                    Uri::Relative(name) => {
                        Cow::Owned(self.load_external(&name, "buffer", &uri_path)?.bytes)
                    }
                }
            }
            None if fallback => return Ok(None),
            None if index == 0 && self.bin.is_some() => {
                let bin = self.bin.unwrap_or_default();
                if bin.len() > length.saturating_add(3) {
                    self.warn(
                        path(),
                        format!(
                            "the GLB's BIN chunk has {} bytes, more than byteLength {length} and its padding",
                            bin.len()
                        ),
                    );
                }
                Cow::Borrowed(bin)
            }
            None if index == 0 => {
                return Err(err(
                    path(),
                    "no uri, and the document has no GLB BIN chunk to take its data from",
                ))
            }
            None => {
                return Err(err(
                    path(),
                    "no uri (only buffer 0 of a GLB may take its data from the BIN chunk)",
                ))
            }
        };
        if data.len() < length {
            return Err(at.err_at(
                "byteLength",
                format!("{length} bytes declared, but the data has {}", data.len()),
            ));
        }
        self.charge_buffer(length as u64, path)?;
        Ok(Some(match data {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..length]),
            Cow::Owned(mut v) => {
                v.truncate(length);
                Cow::Owned(v)
            }
        }))
    }

    /// The bytes and stride of buffer view `index`; `referrer` names the
    /// reference to it, for the error when it does not exist.
    pub fn view(&self, index: usize, referrer: &dyn Fn() -> String) -> Result<View<'_>> {
        let at = self.item("bufferViews", index, referrer)?;
        let path = || format!("/bufferViews/{index}");
        let length = at.usize("byteLength")?;
        if length == 0 {
            return Err(at.err_at("byteLength", "must be at least 1"));
        }
        let offset = at.opt_usize("byteOffset")?.unwrap_or(0);
        let stride = at.opt_usize("byteStride")?;
        if let Some(s) = stride {
            if !(4..=252).contains(&s) || s % 4 != 0 {
                return Err(at.err_at(
                    "byteStride",
                    format!("{s} is not a multiple of 4 from 4 to 252"),
                ));
            }
        }
        if self.meshopt {
            if let Some(ext) = at.extension("EXT_meshopt_compression")? {
                let bytes = self.decoded_view(index, ext, length, stride)?;
                return Ok(View { bytes, stride });
            }
        }
        let buffer = at.usize("buffer")?;
        let data = self
            .buffer(buffer, &|| format!("{}/buffer", path()))?
            .ok_or_else(|| {
                err(
                    path(),
                    format!(
                        "buffer {buffer} is an EXT_meshopt_compression fallback buffer without data, and this view is not compressed"
                    ),
                )
            })?;
        let end = offset
            .checked_add(length)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| {
                err(
                    path(),
                    format!(
                        "bytes {offset}..{} are past the end of buffer {buffer} ({} bytes)",
                        offset as u128 + length as u128,
                        data.len()
                    ),
                )
            })?;
        Ok(View {
            bytes: &data[offset..end],
            stride,
        })
    }

    /// The decoded bytes of an `EXT_meshopt_compression` view (decoded on
    /// first use).
    #[cfg(feature = "meshopt")]
    fn decoded_view(
        &self,
        index: usize,
        ext: &'a super::json::Json<'a>,
        length: usize,
        stride: Option<usize>,
    ) -> Result<&[u8]> {
        let cell = self
            .decoded
            .get(index)
            .ok_or_else(|| err(format!("/bufferViews/{index}"), "out of range"))?;
        if cell.get().is_none() {
            let data = super::meshopt::decode(self, index, ext, length, stride)?;
            let _ = cell.set(data);
        }
        Ok(cell.get().map_or(&[][..], Vec::as_slice))
    }

    /// Without the `meshopt` feature views are never decoded.
    #[cfg(not(feature = "meshopt"))]
    fn decoded_view(
        &self,
        index: usize,
        _: &'a super::json::Json<'a>,
        _: usize,
        _: Option<usize>,
    ) -> Result<&[u8]> {
        Err(err(
            format!("/bufferViews/{index}"),
            "EXT_meshopt_compression needs the `meshopt` feature",
        ))
    }
}
