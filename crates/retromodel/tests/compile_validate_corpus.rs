//! Every corpus glTF (`$RETROMODEL_CORPUS/gltf/*.glb|.gltf`) converted as
//! `retromodel convert` converts it (the library's `Converter`) to MS3D,
//! MD2 and MD5, and each written file read back as a `Model` and passed
//! through `validate` (what `retromodel validate` runs; the MD5 with its
//! md5anim and md5scale, as `--md5anim` gives them): no problem at all,
//! not even a warning. A model that cannot be made in a format (shape
//! keys only, for MD5) must be refused, never written with a warning.

#![cfg(all(feature = "gltf", feature = "textures"))]

use std::path::PathBuf;

use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
use retromodel::texture::TextureResolver;
use retromodel::Model;
use retromodel_testkit::corpus::corpus_dir;

fn gltf_files() -> Vec<PathBuf> {
    let Some(dir) = corpus_dir().map(|c| c.join("gltf")) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
        })
        .collect();
    files.sort();
    files
}

/// The problems `validate` finds in what converting `path` to `format`
/// writes, or `None` when the conversion is refused.
fn validate_output(path: &PathBuf, format: OutputFormat) -> Option<Vec<String>> {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    let options = ConvertOptions::default();
    let resolver = TextureResolver::for_model_file(path);
    let output = format!("out.{}", format.extension());
    let conversion = match Converter::new(&options)
        .with_textures(&resolver)
        .convert(&bytes, name, format, &output)
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{name} to {output}: refused: {e}");
            return None;
        }
    };
    let files: Vec<(String, Vec<u8>)> = conversion
        .files()
        .unwrap()
        .iter()
        .map(|f| (f.name.clone(), f.to_vec()))
        .collect();
    let main = &files
        .iter()
        .find(|(n, _)| *n == output)
        .expect("main file")
        .1;
    let mut model = Model::from_bytes(main).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Model::Md5(m) = &mut model {
        let anim = files.iter().find(|(n, _)| n.ends_with(".md5anim"));
        let scale = files.iter().find(|(n, _)| n.ends_with(".md5scale"));
        if let Some((_, a)) = anim {
            m.add_animation("out", a, scale.map(|(_, s)| s.as_slice()))
                .unwrap();
        }
    }
    Some(
        model
            .validate()
            .iter()
            .map(|p| format!("{name} to {output}: {p}"))
            .collect(),
    )
}

#[test]
fn every_corpus_gltf_compiles_to_files_that_validate_without_a_warning() {
    let files = gltf_files();
    if files.is_empty() {
        eprintln!("no corpus glTF (set RETROMODEL_CORPUS): skipped");
        return;
    }
    let mut problems = Vec::new();
    let mut written = 0;
    for path in &files {
        for format in [OutputFormat::Ms3d, OutputFormat::Md2, OutputFormat::Md5] {
            if let Some(p) = validate_output(path, format) {
                written += 1;
                problems.extend(p);
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // Each glTF makes an MS3D and an MD2 at least.
    assert!(
        written >= 2 * files.len(),
        "{written} files for {}",
        files.len()
    );
}
