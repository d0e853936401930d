//! Which format a file holds, told by its bytes, with the near misses a
//! user meets named (a Kingpin MDX is not an MD2, a Half-Life MDL is not
//! a Quake one).

use crate::error::{Error, Result};

/// The list itself sits at the bottom of the crate (`format_kind`); this
/// module adds detection.
pub use crate::format_kind::Format;

/// Files that look like a model (or like something a user may take for
/// one) but are in a format this crate does not read: the first bytes,
/// and what they are.
const NEAR_MISSES: &[(&[u8], &str)] = &[
    (b"IDPX", "a Kingpin MDX model"),
    (b"IDPC", "a Return to Castle Wolfenstein MDC model"),
    (b"MDSW", "a Return to Castle Wolfenstein MDS model"),
    (b"IDST", "a Half-Life MDL model"),
    (b"IDSQ", "a Half-Life MDL sequence file"),
    (b"IDSP", "a Quake sprite"),
    (b"IDS2", "a Quake II sprite (SP2)"),
    (b"IBSP", "a Quake II/III map (BSP), not a model"),
    (b"MDXM", "a Ghoul2 GLM model"),
    (b"MDLX", "a Warcraft III MDX model"),
    (b"Kaydara FBX Binary", "an FBX model"),
    (b"xof ", "a DirectX .x model"),
    (b"ply\n", "a PLY model"),
    (b"PACK", "a Quake pak archive: unpack it first"),
    (b"PK\x03\x04", "a zip archive (.pk3, .zip): unpack it first"),
    (
        b"\x89PNG",
        "a PNG image, not a model (a skin? give it with the model)",
    ),
    (b"\xff\xd8\xff", "a JPEG image, not a model"),
    (b"BM", "a BMP image, not a model"),
];

impl Format {
    /// The format `bytes` hold, told by their first bytes (never by a file
    /// name).
    ///
    /// Fails with [`Error::UnsupportedFormat`] for a format this crate
    /// recognises but does not read (with what it is: a Kingpin MDX, an
    /// Anachronox MD2 ...), and with
    /// [`Error::UnknownFormat`] for anything else.
    ///
    /// ```
    /// use retromodel::{Error, Format};
    /// assert_eq!(Format::detect(b"IDP2\x08\0\0\0....").unwrap(), Format::Md2);
    /// assert_eq!(Format::detect(b"IDP3\x0f\0\0\0").unwrap(), Format::Md3);
    /// let err = Format::detect(b"IDPX\x04\0\0\0").unwrap_err();
    /// assert_eq!(err.to_string(), "this is a Kingpin MDX model (starts with \"IDPX\"), which retromodel does not read (it reads MD2, MDL, MD3, MS3D, MD5, IQM, MilkShape 3D ASCII, glTF and OBJ)");
    /// assert_eq!(Format::detect(b"glTF\x02\0\0\0").unwrap(), Format::Gltf);
    /// assert_eq!(Format::detect(b"IDPO\x06\0\0\0").unwrap(), Format::Mdl);
    /// assert_eq!(Format::detect(b"RAPO\x32\0\0\0").unwrap(), Format::Mdl);
    /// assert!(matches!(Format::detect(b"hello"), Err(Error::UnknownFormat { .. })));
    /// ```
    pub fn detect(bytes: &[u8]) -> Result<Format> {
        if bytes.starts_with(&crate::md2::MAGIC) {
            let version = bytes
                .get(4..8)
                .map(|v| i32::from_le_bytes([v[0], v[1], v[2], v[3]]));
            return match version {
                Some(15) => Err(unsupported(
                    bytes,
                    4,
                    "an Anachronox MD2 model (IDP2 version 15)",
                )),
                // Other versions: the MD2 reader says which it supports.
                _ => Ok(Format::Md2),
            };
        }
        // Quake's and QTest's `IDPO`, Hexen II's `RAPO`, QuakeForge's `MD16`:
        // the MDL reader says which versions it takes.
        if [
            crate::mdl::MAGIC_QUAKE,
            crate::mdl::MAGIC_HEXEN2,
            crate::mdl::MAGIC_QUAKEFORGE16,
        ]
        .iter()
        .any(|m| bytes.starts_with(m))
        {
            return Ok(Format::Mdl);
        }
        if bytes.starts_with(&crate::md3::MAGIC) {
            // Any version: the MD3 reader says which it supports.
            return Ok(Format::Md3);
        }
        if bytes.starts_with(&crate::ms3d::MAGIC) {
            return Ok(Format::Ms3d);
        }
        if bytes.starts_with(b"INTERQUAKEMODEL") {
            // Any version: the IQM reader says which it supports.
            return Ok(Format::Iqm);
        }
        if bytes.starts_with(b"glTF") {
            return Ok(Format::Gltf);
        }
        if crate::iqm::iqe::looks_like(bytes) {
            return Ok(Format::Iqe);
        }
        if let Some(md5) = md5_kind(bytes) {
            return md5;
        }
        if crate::ms3d::ascii::looks_like(bytes) {
            return Ok(Format::Ms3dAscii);
        }
        if let Some((magic, what)) = NEAR_MISSES.iter().find(|(m, _)| bytes.starts_with(m)) {
            return Err(unsupported(bytes, magic.len(), what));
        }
        match text_model(bytes) {
            Some(Text::Gltf) => return Ok(Format::Gltf),
            Some(Text::Obj) => return Ok(Format::Obj),
            Some(Text::Other(what)) => return Err(unsupported(bytes, 0, what)),
            None => {}
        }
        Err(Error::UnknownFormat {
            found: shown(&bytes[..bytes.len().min(10)]),
        })
    }
}

/// For a file that starts (after blanks and `//` comments) with
/// `MD5Version`: an md5mesh is [`Format::Md5`], an md5anim (or any other
/// MD5 file) is named as what it is.
fn md5_kind(bytes: &[u8]) -> Option<Result<Format>> {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    while let Some(comment) = rest.strip_prefix("//") {
        rest = comment.split_once('\n').map_or("", |(_, r)| r).trim_start();
    }
    if !rest.starts_with("MD5Version") {
        return None;
    }
    if text.contains("numMeshes") || text.contains("joints") && !text.contains("numFrames") {
        return Some(Ok(Format::Md5));
    }
    let what = if text.contains("numFrames") {
        "an MD5 animation (.md5anim) without its mesh: give the .md5mesh, which reads the md5anim named like it"
    } else {
        "an MD5 file that is not an md5mesh (an md5camera?)"
    };
    Some(Err(unsupported(bytes, bytes.len().min(10), what)))
}

/// A text model format.
enum Text {
    Gltf,
    Obj,
    /// One this crate does not read.
    Other(&'static str),
}

/// What a text file looks like, for the text model formats users meet.
fn text_model(bytes: &[u8]) -> Option<Text> {
    let head = &bytes[..bytes.len().min(4096)];
    let text = std::str::from_utf8(head)
        .or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()]))
        .ok()?;
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    // `asset` may come after 4 KiB of other members (assimp's test model
    // simple_skin.gltf puts it last): glTF's top-level arrays say it too.
    let gltf_keys = [
        "\"asset\"",
        "\"accessors\"",
        "\"bufferViews\"",
        "\"meshes\"",
        "\"nodes\"",
    ];
    if trimmed.starts_with('{') && gltf_keys.iter().any(|k| text.contains(k)) {
        return Some(Text::Gltf);
    }
    if trimmed.starts_with("<?xml") && text.contains("COLLADA") {
        return Some(Text::Other("a COLLADA model"));
    }
    if trimmed.starts_with("solid ") {
        return Some(Text::Other("an STL model"));
    }
    let obj = text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("v ") || l.starts_with("f ") || l.starts_with("mtllib ")
    });
    obj.then_some(Text::Obj)
}

fn unsupported(bytes: &[u8], magic_len: usize, what: &'static str) -> Error {
    Error::UnsupportedFormat {
        what,
        magic: shown(&bytes[..magic_len.min(bytes.len())]),
    }
}

/// Bytes shown as text, lossily.
fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn what(bytes: &[u8]) -> String {
        match Format::detect(bytes) {
            Err(Error::UnsupportedFormat { what, .. }) => what.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn near_misses_are_named() {
        assert_eq!(Format::detect(b"IDP3\x0f\0\0\0").unwrap(), Format::Md3);
        assert_eq!(Format::detect(b"IDP3\x0e\0\0\0").unwrap(), Format::Md3);
        assert_eq!(what(b"IDPX\x04\0\0\0"), "a Kingpin MDX model");
        assert_eq!(
            what(b"IDP2\x0f\0\0\0"),
            "an Anachronox MD2 model (IDP2 version 15)"
        );
        assert_eq!(Format::detect(b"glTF\x02\0\0\0").unwrap(), Format::Gltf);
        assert_eq!(
            Format::detect(b"{\n  \"asset\": {\"version\": \"2.0\"}}").unwrap(),
            Format::Gltf
        );
        assert_eq!(
            Format::detect(b"# Blender\nmtllib a.mtl\nv 1 2 3\n").unwrap(),
            Format::Obj
        );
        assert_eq!(
            what(b"<?xml version=\"1.0\"?>\n<COLLADA>"),
            "a COLLADA model"
        );
        assert_eq!(
            Format::detect(b"// MilkShape 3D ASCII\n\nFrames: 30\n").unwrap(),
            Format::Ms3dAscii
        );
        assert_eq!(
            Format::detect(b"Materials: 0\n").unwrap(),
            Format::Ms3dAscii
        );
        assert_eq!(
            what(b"\x89PNG\r\n\x1a\n"),
            "a PNG image, not a model (a skin? give it with the model)"
        );
        // Other MD2 versions and all MS3D versions go to their readers,
        // which name the versions they support.
        assert_eq!(Format::detect(b"IDP2\x07\0\0\0").unwrap(), Format::Md2);
        assert_eq!(
            Format::detect(b"MS3D000000\x02\0\0\0").unwrap(),
            Format::Ms3d
        );
        assert!(matches!(
            Format::detect(b""),
            Err(Error::UnknownFormat { .. })
        ));
        assert!(matches!(
            Format::detect(&[0xff; 3]),
            Err(Error::UnknownFormat { .. })
        ));
    }

    #[test]
    fn md5_files_are_told_apart() {
        let mesh = b"MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\n";
        assert_eq!(Format::detect(mesh).unwrap(), Format::Md5);
        let commented = b"// exported\nMD5Version 10\nnumJoints 0 numMeshes 0";
        assert_eq!(Format::detect(commented).unwrap(), Format::Md5);
        let anim = b"MD5Version 10\ncommandline \"\"\nnumFrames 2\nnumJoints 1\n";
        assert!(what(anim).starts_with("an MD5 animation (.md5anim) without its mesh"));
        assert_eq!(Format::from_extension("MD5MESH"), Some(Format::Md5));
    }
}
