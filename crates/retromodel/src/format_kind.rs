//! The formats this crate reads and writes, as a list: their names and
//! file extensions. Telling which one a file holds is `format`'s job,
//! above the formats; this list sits at the bottom so that errors and
//! the formats' readers can name a format without naming the detector.

use std::fmt;

/// The model formats this crate reads and writes.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Quake II MD2 (`IDP2`, version 8).
    Md2,
    /// MilkShape 3D MS3D (`MS3D000000`, versions 3 and 4).
    Ms3d,
    /// glTF 2.0, binary (`.glb`) or JSON (`.gltf`): read into a scene
    /// (features `gltf` and `textures`).
    Gltf,
    /// Wavefront OBJ with its MTL: read into a scene (features `scene` and
    /// `textures`).
    Obj,
    /// MilkShape 3D ASCII (`.txt`), the text MilkShape writes; also the
    /// split meshes, materials and bones files StepMania loads.
    Ms3dAscii,
    /// id Tech 4 MD5 (`.md5mesh`, with the `.md5anim` files beside it), as
    /// the Quake II and Quake rereleases load it.
    Md5,
    /// Quake MDL (`IDPO` version 6) and its variants: Hexen II's (`RAPO`
    /// version 50), QuakeForge's 16-bit (`MD16`) and QTest's (`IDPO`
    /// version 3).
    Mdl,
    /// Quake III MD3 (`IDP3` version 15).
    Md3,
    /// Inter-Quake Model (`INTERQUAKEMODEL` version 2).
    Iqm,
    /// Inter-Quake Export (`# Inter-Quake Export`), IQM's text twin: read
    /// by compiling it into an IQM.
    Iqe,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Md2 => "MD2",
            Format::Ms3d => "MS3D",
            Format::Gltf => "glTF",
            Format::Obj => "OBJ",
            Format::Ms3dAscii => "MilkShape 3D ASCII",
            Format::Md5 => "MD5",
            Format::Mdl => "MDL",
            Format::Md3 => "MD3",
            Format::Iqm => "IQM",
            Format::Iqe => "IQE",
        })
    }
}

impl Format {
    /// Every format this crate reads.
    pub const ALL: &'static [Format] = &[
        Format::Md2,
        Format::Ms3d,
        Format::Gltf,
        Format::Obj,
        Format::Ms3dAscii,
        Format::Md5,
        Format::Mdl,
        Format::Md3,
        Format::Iqm,
        Format::Iqe,
    ];

    /// The usual file extensions, lower case, without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Md2 => &["md2"],
            Format::Ms3d => &["ms3d"],
            Format::Gltf => &["glb", "gltf"],
            Format::Obj => &["obj"],
            Format::Ms3dAscii => &["txt"],
            Format::Md5 => &["md5mesh"],
            Format::Mdl => &["mdl"],
            Format::Md3 => &["md3"],
            Format::Iqm => &["iqm"],
            Format::Iqe => &["iqe"],
        }
    }

    /// Whether files with this format's extension hold other things too
    /// (`.txt`), so that a folder's files need their content checked.
    pub fn extension_is_ambiguous(self) -> bool {
        self == Format::Ms3dAscii
    }

    /// Whether a model of this format that names no skin usually has one
    /// beside it named like the model (`tris.md2` and `tris.pcx`): true
    /// for MD2, whose skin names engines often ignore.
    pub fn skin_named_like_model(self) -> bool {
        self == Format::Md2
    }

    /// The format a file extension (any case, without the dot) stands for.
    ///
    /// ```
    /// use retromodel::Format;
    /// assert_eq!(Format::from_extension("MD2"), Some(Format::Md2));
    /// assert_eq!(Format::from_extension("md3"), Some(Format::Md3));
    /// assert_eq!(Format::from_extension("mdx"), None);
    /// ```
    pub fn from_extension(ext: &str) -> Option<Format> {
        let ext = ext.to_ascii_lowercase();
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.extensions().contains(&ext.as_str()))
    }
}
