//! The files a conversion writes: their names, beside the main output,
//! and their contents, made when asked for (a GLB is streamed from the
//! scene's arrays rather than copied).

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use super::{ConvertOptions, OutputFormat};
use crate::error::{Error, Result};
use crate::obj::{to_obj, ObjOptions};
use crate::scene::Scene;

/// One file of a conversion's output.
#[derive(Debug)]
pub struct OutputFile<'a> {
    /// The file name, to go in the main output's folder (`model.bin`,
    /// `model_texture0.png`, `model.gltf`).
    pub name: String,
    contents: Contents<'a>,
}

/// What goes into an output file.
enum Contents<'a> {
    Bytes(Cow<'a, [u8]>),
    #[cfg(feature = "gltf")]
    Glb(crate::gltf::Glb<'a>),
}

impl std::fmt::Debug for Contents<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contents::Bytes(b) => write!(f, "Bytes({} bytes)", b.len()),
            #[cfg(feature = "gltf")]
            Contents::Glb(g) => write!(f, "Glb({} bytes)", g.byte_len()),
        }
    }
}

impl OutputFile<'_> {
    /// The file's length in bytes.
    pub fn byte_len(&self) -> usize {
        match &self.contents {
            Contents::Bytes(b) => b.len(),
            #[cfg(feature = "gltf")]
            Contents::Glb(g) => g.byte_len(),
        }
    }

    /// Writes the file's bytes to `out` (a GLB without first assembling it
    /// in memory).
    pub fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match &self.contents {
            Contents::Bytes(b) => out.write_all(b),
            #[cfg(feature = "gltf")]
            Contents::Glb(g) => g.write_to(out),
        }
    }

    /// The file's bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        match &self.contents {
            Contents::Bytes(b) => b.to_vec(),
            #[cfg(feature = "gltf")]
            Contents::Glb(g) => g.to_vec(),
        }
    }
}

/// What a conversion made, before its files are asked for.
#[derive(Debug, Clone)]
pub(crate) enum Plan {
    /// Files made whole: names and bytes, the main one last.
    Files(Vec<(String, Vec<u8>)>),
    /// A scene export.
    Scene {
        scene: Box<Scene>,
        format: OutputFormat,
        /// The main file's name.
        main: String,
        /// Its stem, for the companions' names.
        stem: String,
        quantize: bool,
        compress: bool,
    },
}

fn with_extension(name: &str, ext: &str) -> String {
    Path::new(name)
        .with_extension(ext)
        .to_string_lossy()
        .into_owned()
}

impl Plan {
    pub(crate) fn whole(files: Vec<(String, Vec<u8>)>) -> Plan {
        Plan::Files(files)
    }

    /// A scene export to `format` with the main file named `main`. Fails
    /// when `format` needs a feature this build lacks.
    pub(crate) fn scene(
        scene: Scene,
        format: OutputFormat,
        main: &str,
        options: &ConvertOptions,
    ) -> Result<Plan> {
        if format.is_gltf() && !cfg!(feature = "gltf") {
            return Err(Error::unwritable(
                format!(".{}", format.extension()),
                "retromodel was built without its `gltf` feature",
            ));
        }
        let stem = Path::new(main)
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        Ok(Plan::Scene {
            scene: Box::new(scene),
            format,
            main: main.to_string(),
            stem,
            quantize: options.quantize,
            compress: options.compress,
        })
    }

    pub(crate) fn scene_ref(&self) -> Option<&Scene> {
        match self {
            Plan::Scene { scene, .. } => Some(scene),
            Plan::Files(..) => None,
        }
    }

    /// The files, the main one last.
    pub(crate) fn files(&self) -> Result<Vec<OutputFile<'_>>> {
        let file = |name: String, contents| OutputFile { name, contents };
        let bytes = |b: &[u8]| Contents::Bytes(Cow::Owned(b.to_vec()));
        let (scene, format, main, stem, quantize, compress) = match self {
            Plan::Files(files) => {
                return Ok(files
                    .iter()
                    .map(|(name, b)| file(name.clone(), Contents::Bytes(Cow::Borrowed(b))))
                    .collect())
            }
            Plan::Scene {
                scene,
                format,
                main,
                stem,
                quantize,
                compress,
            } => (scene, *format, main, stem, *quantize, *compress),
        };
        // Only glTF uses them.
        #[cfg(not(feature = "gltf"))]
        let _ = (quantize, compress);
        // PNG files beside a .gltf or an .obj: STEM_texture0.png, ...
        let texture_names: Vec<Option<String>> = scene
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| t.has_image().then(|| format!("{stem}_texture{i}.png")))
            .collect();
        // Their bytes: PNGs as they are, decoded pixels encoded now.
        let textures = || -> Result<Vec<OutputFile<'_>>> {
            let mut out = Vec::new();
            for (i, (name, t)) in texture_names.iter().zip(&scene.textures).enumerate() {
                if let (Some(name), Some(image)) = (name, &t.image) {
                    let png = image.png_for_writing(&format!("textures[{i}] ({})", t.path))?;
                    out.push(file(name.clone(), Contents::Bytes(png)));
                }
            }
            Ok(out)
        };
        let mut files = Vec::new();
        match format {
            OutputFormat::Obj => {
                files.extend(textures()?);
                let mtl = with_extension(main, "mtl");
                let obj = to_obj(
                    scene,
                    &ObjOptions {
                        mtl_file: mtl.clone(),
                        texture_files: texture_names,
                    },
                );
                files.push(file(mtl, bytes(obj.mtl.as_bytes())));
                files.push(file(
                    main.clone(),
                    Contents::Bytes(Cow::Owned(obj.obj.into_bytes())),
                ));
            }
            #[cfg(feature = "gltf")]
            OutputFormat::Glb | OutputFormat::Gltf => {
                let options = crate::gltf::GltfOptions { quantize, compress };
                if format == OutputFormat::Glb {
                    let glb = crate::gltf::Glb::new(scene, &options)?;
                    files.push(file(main.clone(), Contents::Glb(glb)));
                } else {
                    files.extend(textures()?);
                    let bin = with_extension(main, "bin");
                    let names = crate::gltf::GltfFileNames {
                        bin: bin.clone(),
                        images: texture_names,
                    };
                    let (json, buffer) = crate::gltf::to_gltf_files(scene, &names, &options)?;
                    files.push(file(bin, Contents::Bytes(Cow::Owned(buffer))));
                    files.push(file(
                        main.clone(),
                        Contents::Bytes(Cow::Owned(json.into_bytes())),
                    ));
                }
            }
            other => {
                return Err(Error::unwritable(
                    format!(".{}", other.extension()),
                    "not a scene export",
                ))
            }
        }
        Ok(files)
    }
}
