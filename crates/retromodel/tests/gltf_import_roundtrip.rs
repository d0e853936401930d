//! The importer reads back everything our exporter writes: every corpus
//! MD2 and MS3D and the sample model, with their textures, exported as GLB
//! (plain, `quantize`, and `quantize` + `compress`) and as `.gltf` with
//! external `.bin` and PNG files, import as the scene that was exported
//! (compared field by field and posed at many times by
//! `retromodel_testkit::import_checks::assert_round_trip`).
//!
//! The expected values are the original scenes, made from the model files
//! by `Scene::from_md2` / `from_ms3d`: not by the code under test.

#![cfg(all(feature = "gltf", feature = "textures"))]

use std::path::Path;

use retromodel::gltf::{
    import, to_glb_with, to_gltf_files, GltfFileNames, GltfOptions, ImportOptions,
};
use retromodel::scene::{Scene, SceneOptions, TextureLookup};
use retromodel::texture::TextureResolver;
use retromodel::Model;
use retromodel_testkit::corpus::{corpus_dir, md2_files, ms3d_files};
use retromodel_testkit::import_checks::{assert_round_trip, Variant};

/// The scene of a model file, with its textures embedded (found beside it).
fn scene_of(path: &Path) -> Scene {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut scene = model
        .to_scene(&SceneOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let source = TextureResolver::for_model_file(path);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let _ = scene.attach_textures(&TextureLookup {
        source: &source,
        model_file_name: &name,
        named_like_model: model.format().skin_named_like_model(),
        user_skin: None,
    });
    scene
}

fn variants() -> Vec<(Variant, GltfOptions)> {
    let mut v = vec![
        (Variant::Plain, GltfOptions::default()),
        (
            Variant::Quantized,
            GltfOptions {
                quantize: true,
                ..GltfOptions::default()
            },
        ),
    ];
    if cfg!(feature = "meshopt") {
        v.push((
            Variant::QuantizedCompressed,
            GltfOptions {
                quantize: true,
                compress: true,
            },
        ));
    }
    v
}

/// Exports `scene` in every variant as GLB and imports it back.
fn round_trip(scene: &Scene, what: &str) {
    for (variant, options) in variants() {
        let glb = to_glb_with(scene, &options).unwrap_or_else(|e| panic!("{what}: export: {e}"));
        let imported = import(&glb, None, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{what} {variant:?}: import: {e}"));
        assert!(
            imported.warnings.is_empty(),
            "{what} {variant:?}: warnings {:?}",
            imported.warnings
        );
        assert_round_trip(
            scene,
            &imported.scene,
            variant,
            &format!("{what} {variant:?}"),
        );
    }
}

#[test]
fn the_sample_model_round_trips() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/models/sample.md2");
    let scene = scene_of(&path);
    assert!(
        scene.textures[0].has_image(),
        "the sample's skin is embedded"
    );
    round_trip(&scene, "sample.md2");
    let ms3d = Scene::from_ms3d(
        &retromodel::ms3d::sample::sample_model(),
        &retromodel::ms3d::Ms3dSceneOptions::default(),
    )
    .unwrap();
    round_trip(&ms3d, "MS3D sample");
}

#[test]
fn every_corpus_md2_round_trips() {
    let Some(corpus) = corpus_dir() else { return };
    let mut textured = 0;
    for file in md2_files(&corpus) {
        let scene = scene_of(&file.path);
        textured += scene.textures.iter().filter(|t| t.has_image()).count();
        round_trip(&scene, &file.key);
    }
    assert!(textured >= 2, "faerie's and sydney's skins at least");
}

#[test]
fn every_corpus_ms3d_round_trips() {
    let Some(corpus) = corpus_dir() else { return };
    let mut skinned = 0;
    for (key, path) in ms3d_files(&corpus) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(model) = Model::from_bytes(&bytes) else {
            continue;
        };
        // Models whose joints' parents form a cycle make no scene.
        if model.to_scene(&SceneOptions::default()).is_err() {
            continue;
        }
        let scene = scene_of(&path);
        skinned += scene.meshes.iter().filter(|m| m.skin.is_some()).count();
        round_trip(&scene, &key);
    }
    assert!(skinned > 0, "skinned MS3D meshes were compared");
}

/// `.gltf` with its `.bin` and each texture as a PNG file beside it, read
/// through a resolver confined to that folder.
#[test]
fn gltf_files_round_trip_through_a_resolver() {
    let mut cases =
        vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/models/sample.md2")];
    if let Some(corpus) = corpus_dir() {
        cases.push(corpus.join("ms3d/assimpdeb_jeep1.ms3d"));
        cases.push(corpus.join("md2/assimpdeb_faerie.md2"));
        cases.push(corpus.join("ms3d/glscene_Woman4.ms3d"));
    }
    for path in cases {
        let scene = scene_of(&path);
        for (variant, options) in variants() {
            let dir = tempfile::tempdir().unwrap();
            let names = GltfFileNames {
                bin: "my model.bin".into(),
                images: (0..scene.textures.len())
                    .map(|i| Some(format!("my model_texture{i}.png")))
                    .collect(),
            };
            let (json, bin) = to_gltf_files(&scene, &names, &options).unwrap();
            std::fs::write(dir.path().join("my model.bin"), bin).unwrap();
            for (t, name) in scene.textures.iter().zip(&names.images) {
                if let Some(image) = &t.image {
                    let png = image.to_png().unwrap();
                    std::fs::write(dir.path().join(name.as_ref().unwrap()), png).unwrap();
                }
            }
            let resolver = TextureResolver::new(dir.path());
            let imported = import(json.as_bytes(), Some(&resolver), &ImportOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
            assert_round_trip(
                &scene,
                &imported.scene,
                variant,
                &format!("{} .gltf {variant:?}", path.display()),
            );
            // Without the resolver, the external files are an error that
            // names them.
            let err = import(json.as_bytes(), None, &ImportOptions::default()).unwrap_err();
            let message = err.to_string();
            assert!(
                message.contains("is an external file, and no resource source was given")
                    && message.contains("\"my model"),
                "{message}"
            );
        }
    }
}
