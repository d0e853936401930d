//! The outer layers: the GLB container (header and chunks, every length
//! checked), and URIs (`data:` URIs decoded with a size limit, relative
//! references percent-decoded).

use super::json::err;
use crate::error::Result;
use crate::problem::Collector;

/// A document's parts: the JSON text and, from a GLB, the BIN chunk.
pub(crate) struct Container<'a> {
    /// The JSON text (padding and a UTF-8 byte order mark removed).
    pub json: &'a [u8],
    /// The BIN chunk's data (a GLB's first BIN chunk; `None` for a `.gltf`
    /// or a GLB without one).
    pub bin: Option<&'a [u8]>,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits `bytes` (a GLB or a `.gltf` JSON document, told by the magic
/// `glTF`) into its JSON and BIN parts.
pub(crate) fn open<'a>(
    bytes: &'a [u8],
    max_json: u64,
    warnings: &mut Collector,
) -> Result<Container<'a>> {
    let container = if bytes.starts_with(b"glTF") {
        glb(bytes, warnings)?
    } else {
        Container {
            json: bytes,
            bin: None,
        }
    };
    let mut json = container.json;
    if let Some(rest) = json.strip_prefix(b"\xef\xbb\xbf") {
        warnings.warn(
            "document",
            "the JSON starts with a UTF-8 byte order mark, which glTF forbids; ignored",
            None,
        );
        json = rest;
    }
    // GLB pads the JSON chunk with spaces; some writers pad with zeros.
    while let [rest @ .., 0 | b' ' | b'\t' | b'\r' | b'\n'] = json {
        json = rest;
    }
    if json.len() as u64 > max_json {
        return Err(err(
            "document",
            format!(
                "{} bytes of JSON is more than the import's limit of {max_json} bytes of JSON",
                json.len()
            ),
        )
        .advised(crate::advice::Advice::new(
            Some(crate::advice::Limit {
                quantity: crate::advice::Quantity::GltfJsonBytes,
                max: max_json,
                actual: json.len() as u64,
            }),
            Vec::new(),
        )));
    }
    Ok(Container {
        json,
        bin: container.bin,
    })
}

/// The GLB container: a 12-byte header (`glTF`, version 2, total length),
/// a JSON chunk, then an optional BIN chunk and chunks of other types
/// (ignored, as the spec says), each chunk an 8-byte header (length, type)
/// and its data, padded to 4 bytes.
fn glb<'a>(bytes: &'a [u8], warnings: &mut Collector) -> Result<Container<'a>> {
    let header = "GLB header";
    if bytes.len() < 12 {
        return Err(err(
            header,
            format!("needs 12 bytes but the file is {} bytes long", bytes.len()),
        ));
    }
    let version = u32_at(bytes, 4).unwrap_or(0);
    if version != 2 {
        return Err(err(
            header,
            format!("version {version} is not supported (only glTF 2)"),
        ));
    }
    let declared = u32_at(bytes, 8).unwrap_or(0) as usize;
    if declared > bytes.len() {
        return Err(err(
            header,
            format!(
                "declares {declared} bytes but the file is {} bytes long",
                bytes.len()
            ),
        ));
    }
    if declared < 20 {
        return Err(err(
            header,
            format!("declares {declared} bytes, too short for a JSON chunk (at least 20)"),
        ));
    }
    if declared < bytes.len() {
        warnings.warn(
            header,
            format!(
                "declares {declared} bytes; the {} bytes after them are ignored",
                bytes.len() - declared
            ),
            None,
        );
    }
    if !declared.is_multiple_of(4) {
        warnings.warn(
            header,
            format!("length {declared} is not a multiple of 4"),
            None,
        );
    }
    let data = &bytes[..declared];
    let mut at = 12usize;
    let mut json = None;
    let mut bin = None;
    let mut index = 0usize;
    while at < data.len() {
        let name = format!("GLB chunk {index}");
        let (Some(len), Some(kind)) = (u32_at(data, at), data.get(at + 4..at + 8)) else {
            return Err(err(
                name,
                format!("its 8-byte header at offset {at} runs past the end ({declared} bytes)"),
            ));
        };
        let start = at + 8;
        let end = start
            .checked_add(len as usize)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| {
                err(
                    name.clone(),
                    format!(
                        "{len} bytes at offset {start} run past the end of the file ({declared} bytes)"
                    ),
                )
            })?;
        if !len.is_multiple_of(4) {
            warnings.warn(
                name.clone(),
                format!("length {len} is not a multiple of 4 (chunks are padded to 4 bytes)"),
                None,
            );
        }
        let chunk = &data[start..end];
        match (index, kind) {
            (0, b"JSON") => json = Some(chunk),
            (0, other) => {
                return Err(err(
                    name,
                    format!(
                        "the first chunk must be JSON, found type {:?}",
                        String::from_utf8_lossy(other)
                    ),
                ))
            }
            (_, b"JSON") => warnings.warn(name, "a second JSON chunk; ignored", None),
            (_, b"BIN\0") if bin.is_none() && index == 1 => bin = Some(chunk),
            (_, b"BIN\0") => warnings.warn(
                name,
                "a BIN chunk that is not the second chunk; ignored",
                None,
            ),
            // Chunks of unknown types are skipped, as the spec says.
            _ => {}
        }
        // Past the data and its padding.
        at = end.next_multiple_of(4);
        index += 1;
    }
    let json = json.ok_or_else(|| err(header, "no JSON chunk"))?;
    Ok(Container { json, bin })
}

/// What a URI refers to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Uri {
    /// A `data:` URI's decoded bytes and media type.
    Data {
        /// The media type (`image/png`, `application/octet-stream`), may
        /// be empty.
        media_type: String,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// A relative reference, percent-decoded, without query or fragment.
    Relative(String),
}

/// Classifies and decodes a URI from the document: a `data:` URI (base64 or
/// percent-encoded, at most `max_data` decoded bytes) or a relative
/// reference (percent-decoded, query and fragment dropped). Other schemes
/// (`http:`, `file:` ...) are refused.
pub(crate) fn parse_uri(uri: &str, max_data: u64) -> std::result::Result<Uri, String> {
    if let Some(scheme) = scheme(uri) {
        if !scheme.eq_ignore_ascii_case("data") {
            return Err(format!(
                "the {scheme}: scheme is not supported (only data: URIs and relative paths)"
            ));
        }
        return data_uri(&uri[scheme.len() + 1..], max_data);
    }
    let end = uri.find(['?', '#']).unwrap_or(uri.len());
    let decoded = percent_decode(&uri[..end])?;
    let text = String::from_utf8(decoded)
        .map_err(|_| "the percent-decoded URI is not UTF-8".to_string())?;
    Ok(Uri::Relative(text))
}

/// The scheme of an absolute URI (RFC 3986: a letter, then letters, digits,
/// `+`, `-`, `.`, then `:`, before any `/`, `?` or `#`).
fn scheme(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let scheme = &uri[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// The part of a `data:` URI after `data:`: `[media type][;params][;base64],DATA`.
fn data_uri(rest: &str, max_data: u64) -> std::result::Result<Uri, String> {
    let comma = rest
        .find(',')
        .ok_or_else(|| "a data: URI without a comma".to_string())?;
    let (meta, payload) = (&rest[..comma], &rest[comma + 1..]);
    let base64 = meta
        .rsplit(';')
        .next()
        .is_some_and(|p| p.eq_ignore_ascii_case("base64"));
    let media_type = meta.split(';').next().unwrap_or("").to_ascii_lowercase();
    // Base64 takes 4 characters for 3 bytes; percent-encoding at least 1
    // for 1: the decoded size is known before anything is allocated.
    let most = if base64 {
        payload.len() as u64 / 4 * 3 + 3
    } else {
        payload.len() as u64
    };
    let at_least = if base64 {
        (payload.trim_end_matches('=').len() as u64 * 3 / 4).min(most)
    } else {
        payload.len() as u64 / 3
    };
    if at_least > max_data {
        return Err(format!(
            "a data: URI of about {at_least} bytes is more than the import's limit of {max_data} bytes for a data: URI"
        ));
    }
    let bytes = if base64 {
        decode_base64(payload)?
    } else {
        percent_decode(payload)?
    };
    if bytes.len() as u64 > max_data {
        return Err(format!(
            "a data: URI of {} bytes is more than the import's limit of {max_data} bytes for a data: URI",
            bytes.len()
        ));
    }
    Ok(Uri::Data { media_type, bytes })
}

/// Decodes `%XX` escapes.
fn percent_decode(text: &str) -> std::result::Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = |k: usize| bytes.get(k).and_then(|&c| (c as char).to_digit(16));
            match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                }
                _ => return Err(format!("a bad percent escape at character {i}")),
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// Decodes standard base64 (RFC 4648, `+` and `/`, padding optional);
/// whitespace is skipped.
pub(crate) fn decode_base64(text: &str) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut padding = 0usize;
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            other => {
                return Err(format!(
                    "base64 data holds {:?} at character {i}",
                    char::from(other)
                ))
            }
        };
        if padding > 0 {
            return Err(format!(
                "base64 data continues after padding at character {i}"
            ));
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err("base64 data ends in the middle of a byte".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_rfc_4648_says() {
        // RFC 4648 section 10 test vectors.
        for (text, plain) in [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
            ("Zm9vYmFy", "foobar"),
        ] {
            assert_eq!(decode_base64(text).unwrap(), plain.as_bytes(), "{text}");
        }
        assert_eq!(decode_base64("Zm9v\nYmFy").unwrap(), b"foobar");
        assert_eq!(decode_base64("Zm9vYg").unwrap(), b"foob");
        assert!(decode_base64("Zm9v!").is_err());
        assert!(decode_base64("Zg==Zg").is_err());
        assert!(decode_base64("Z").is_err());
    }

    #[test]
    fn uris() {
        assert_eq!(
            parse_uri("my%20model.bin", 10).unwrap(),
            Uri::Relative("my model.bin".into())
        );
        assert_eq!(
            parse_uri("a/b.png?x=1#y", 10).unwrap(),
            Uri::Relative("a/b.png".into())
        );
        assert_eq!(
            parse_uri("..%2Fx.bin", 10).unwrap(),
            Uri::Relative("../x.bin".into())
        );
        assert_eq!(
            parse_uri("data:application/octet-stream;base64,AAEC", 10).unwrap(),
            Uri::Data {
                media_type: "application/octet-stream".into(),
                bytes: vec![0, 1, 2]
            }
        );
        assert_eq!(
            parse_uri("data:,a%41", 10).unwrap(),
            Uri::Data {
                media_type: String::new(),
                bytes: b"aA".to_vec()
            }
        );
        let e = parse_uri("data:;base64,AAAAAAAAAAAAAAAA", 10).unwrap_err();
        assert!(e.contains("limit of 10"), "{e}");
        let e = parse_uri("http://example.com/x.bin", 10).unwrap_err();
        assert!(e.contains("http: scheme"), "{e}");
        assert!(parse_uri("x%4", 10).is_err());
        assert!(parse_uri("x%ff", 10).is_err(), "not UTF-8");
    }

    #[test]
    fn glb_lengths_are_checked() {
        let mut w = Collector::default();
        let e = open(b"glTF\x02\0\0\0\x08\0\0\0", 1 << 20, &mut w)
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "glTF GLB header: declares 8 bytes, too short for a JSON chunk (at least 20)"
        );
        let e = open(b"glTF\x02\0\0\0", 1 << 20, &mut w).err().unwrap();
        assert_eq!(
            e.to_string(),
            "glTF GLB header: needs 12 bytes but the file is 8 bytes long"
        );
        let mut glb = b"glTF\x02\0\0\0\x1c\0\0\0\x08\0\0\0JSON{}  ".to_vec();
        glb.truncate(24);
        let e = open(&glb, 1 << 20, &mut w).err().unwrap();
        assert_eq!(
            e.to_string(),
            "glTF GLB header: declares 28 bytes but the file is 24 bytes long"
        );
        // A chunk longer than the file.
        let glb = b"glTF\x02\0\0\0\x18\0\0\0\xff\0\0\0JSON{}  ";
        let e = open(glb, 1 << 20, &mut w).err().unwrap();
        assert!(
            e.to_string().starts_with("glTF GLB chunk 0: 255 bytes"),
            "{e}"
        );
        let glb = b"glTF\x02\0\0\0\x18\0\0\0\x04\0\0\0BIN\0{}  ";
        let e = open(glb, 1 << 20, &mut w).err().unwrap();
        assert!(e.to_string().contains("must be JSON"), "{e}");
        let glb = b"glTF\x02\0\0\0\x18\0\0\0\x04\0\0\0JSON{}  ";
        let c = open(glb, 1 << 20, &mut w).unwrap();
        assert_eq!(c.json, b"{}");
        assert!(c.bin.is_none());
    }
}
