//! The page's calls, natively: a model dropped with its files reads,
//! summarises and converts to the same bytes as the command line's
//! pipeline (a `TextureResolver` over the same files on disk), with the
//! counts of the corpus's independent facts.json; bad files are errors
//! with the library's message; the MD2 preview's per-vertex errors agree
//! with the compiler's report.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
use retromodel::scene::UserSkin;
use retromodel::texture::{decode, MemorySource, TextureResolver};
use retromodel_testkit::corpus::{corpus_dir, fact_u64, facts, facts_of};
use retromodel_wasm::options::WebOptions;
use retromodel_wasm::preview::md2_preview;
use retromodel_wasm::session::Session;
use serde_json::Value;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/models")
}

/// The files at `paths`, dropped by their file names.
fn drop(paths: &[PathBuf]) -> MemorySource {
    let mut files = MemorySource::new();
    for p in paths {
        let name = p.file_name().unwrap().to_string_lossy();
        files.add(&name, fs::read(p).unwrap()).unwrap();
    }
    files
}

/// What the command line's pipeline makes of the same files: copied
/// alone into a folder (so it sees exactly what the page was given),
/// converted with a `TextureResolver` for that folder.
fn on_disk(paths: &[PathBuf], model: &str, format: OutputFormat, skin: Option<&str>) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    for p in paths {
        fs::copy(p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    let input = dir.path().join(model);
    let options = ConvertOptions {
        skin: skin.map(|s| {
            let path = dir.path().join(s);
            UserSkin {
                path: path.display().to_string(),
                name: s.to_string(),
                data: fs::read(&path).map(Arc::from).map_err(|e| e.to_string()),
            }
        }),
        ..ConvertOptions::default()
    };
    let resolver = TextureResolver::for_model_file(&input);
    let stem = model.rsplit_once('.').unwrap().0;
    let main = format!("{stem}.{}", format.extension());
    let conversion = Converter::new(&options)
        .with_textures(&resolver)
        .convert(&fs::read(&input).unwrap(), model, format, &main)
        .unwrap();
    conversion.files().unwrap().last().unwrap().to_vec()
}

fn info(session: &Session) -> Value {
    serde_json::from_str(&session.info_json()).unwrap()
}

#[test]
fn the_sample_reads_converts_and_lists_its_skin() {
    let paths = [examples().join("sample.md2"), examples().join("sample.pcx")];
    let files = drop(&paths);
    let s = Session::load(&files, "sample.md2").unwrap();
    assert_eq!(s.format(), "md2");
    let i = info(&s);
    // The README's description of the sample.
    assert_eq!(i["animations"][0]["name"], "stand");
    assert_eq!(i["animations"][0]["frame_count"], 10);
    assert_eq!(i["animations"][1]["name"], "run");
    assert_eq!(i["animations"][1]["frame_count"], 6);
    assert!(s.info_text().starts_with("sample.md2: MD2 version 8"));
    let anims = s.animations();
    assert_eq!(anims.len(), 2);
    assert_eq!(anims[1].frames, Some(6.0));
    assert!(s.problems().is_empty());

    let skins = s.skins();
    assert_eq!(skins.len(), 1);
    assert_eq!(skins[0].name, "sample.pcx");
    assert_eq!(skins[0].file.as_deref(), Some("sample.pcx"));
    let png = decode(&s.skin_png(0).unwrap()).unwrap();
    assert_eq!((png.width(), png.height()), (96, 64));
    assert!(s.skin_png(1).unwrap_err().contains("no skin 1"));
    assert_eq!(s.suggested_skin(), None);

    for format in [OutputFormat::Glb, OutputFormat::Obj, OutputFormat::Md2] {
        let out = s
            .convert(format.extension(), &WebOptions::default(), true)
            .unwrap();
        assert_eq!(out.skin, None);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let main = out.files.last().unwrap();
        assert_eq!(main.0, format!("sample.{}", format.extension()));
        assert_eq!(
            main.1,
            on_disk(&paths, "sample.md2", format, None),
            "{format:?}"
        );
    }
    let obj = s.convert("obj", &WebOptions::default(), true).unwrap();
    let names: Vec<&str> = obj.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["sample_texture0.png", "sample.mtl", "sample.obj"]);
    // The .md2 of an MD2 is the file itself, rewritten.
    let md2 = s.convert("md2", &WebOptions::default(), true).unwrap();
    assert_eq!(md2.files[0].1, fs::read(&paths[0]).unwrap());
    assert!(s
        .convert("fbx", &WebOptions::default(), true)
        .unwrap_err()
        .contains("cannot write .fbx"));
}

#[test]
fn a_second_skin_is_listed_and_decoded() {
    let mut model = retromodel::md2::sample::sample_model();
    let mut second = [0u8; 64];
    second[..17].copy_from_slice(b"skins/Second.PCX\0");
    model.skins.push(retromodel::md2::SkinName(second));
    let mut files = MemorySource::new();
    files.add("m/two.md2", model.to_bytes().unwrap()).unwrap();
    files
        .add(
            "m/sample.pcx",
            fs::read(examples().join("sample.pcx")).unwrap(),
        )
        .unwrap();
    let red = retromodel::texture::Rgba8Image::new(2, 2, [255, 0, 0, 255].repeat(4)).unwrap();
    files.add("m/second.png", red.to_png().unwrap()).unwrap();
    let s = Session::load(&files, "m/two.md2").unwrap();
    let skins = s.skins();
    assert_eq!(skins[1].name, "skins/Second.PCX");
    // Another case and extension, beside the model.
    assert_eq!(skins[1].file.as_deref(), Some("m/second.png"));
    let png = decode(&s.skin_png(1).unwrap()).unwrap();
    assert_eq!(png.pixel(1, 1), Some([255, 0, 0, 255]));
    assert_eq!(s.images(), ["m/sample.pcx", "m/second.png"]);
}

#[test]
fn truncated_and_foreign_files_are_errors_with_the_librarys_message() {
    let bytes = fs::read(examples().join("sample.md2")).unwrap();
    let mut files = MemorySource::new();
    files.add("cut.md2", bytes[..1000].to_vec()).unwrap();
    files.add("note.txt", b"hello".to_vec()).unwrap();
    let err = Session::load(&files, "cut.md2").unwrap_err();
    let direct = retromodel::Model::from_bytes(&bytes[..1000]).unwrap_err();
    assert_eq!(err, format!("cut.md2: {direct}"));
    assert!(err.contains("offset"), "{err}");
    assert!(Session::load(&files, "note.txt").is_err());
    assert!(Session::load(&files, "missing.md2")
        .unwrap_err()
        .contains("not among the dropped files"));
}

#[test]
fn corpus_models_match_the_facts_and_the_command_lines_bytes() {
    let Some(corpus) = corpus_dir() else { return };
    let facts = facts(&corpus);
    for (key, skin) in [
        ("md2/assimpdeb_faerie.md2", Some("faerie2.bmp")),
        ("md2/assimpdeb_sydney.md2", Some("sydney.bmp")),
        ("ms3d/assimpdeb_jeep1.ms3d", None),
        ("ms3d/glscene_Woman4.ms3d", None),
    ] {
        let model_path = corpus.join(key);
        let model = model_path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let dir = model_path.parent().unwrap();
        let mut paths = vec![model_path.clone()];
        match key {
            "ms3d/assimpdeb_jeep1.ms3d" => paths.push(dir.join("jeep1.jpg")),
            _ => paths.extend(skin.map(|s| dir.join(s))),
        }
        let files = drop(&paths);
        let s = Session::load(&files, &model).unwrap();
        let i = info(&s);
        let f = facts_of(&facts, key);
        if s.format() == "md2" {
            assert_eq!(i["vertices"].as_u64(), Some(fact_u64(f, "verts")), "{key}");
            assert_eq!(i["triangles"].as_u64(), Some(fact_u64(f, "tris")), "{key}");
            assert_eq!(i["frames"].as_u64(), Some(fact_u64(f, "frames")), "{key}");
        }
        // The image dropped with an MD2 that names no skin is its skin;
        // jeep1 finds its own `.\jeep1.jpg`; Woman4's TGAs are missing.
        assert_eq!(s.suggested_skin().as_deref(), skin, "{key}");
        let out = s.convert("glb", &WebOptions::default(), true).unwrap();
        assert_eq!(out.skin.as_deref(), skin, "{key}");
        let want = on_disk(&paths, &model, OutputFormat::Glb, skin);
        assert!(
            out.files.last().unwrap().1 == want,
            "{key}: not the same GLB"
        );
        let woman = key.contains("Woman4");
        assert_eq!(
            out.warnings.iter().any(|w| w.kind == "texture_missing"),
            woman,
            "{key}: {:?}",
            out.warnings
        );
    }
}

#[test]
fn the_md2_preview_measures_what_the_compiler_reports() {
    let Some(corpus) = corpus_dir() else { return };
    // A glTF from Blender (skinned, two actions), and an MS3D.
    for (key, dir_files) in [
        (
            "gltf/blender_walker.glb",
            vec!["blender_walker_checker.png"],
        ),
        ("ms3d/assimpdeb_jeep1.ms3d", vec!["jeep1.jpg"]),
    ] {
        let path = corpus.join(key);
        let dir = path.parent().unwrap();
        let mut paths = vec![path.clone()];
        paths.extend(dir_files.iter().map(|f| dir.join(f)));
        let files = drop(&paths);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let s = Session::load(&files, &name).unwrap();
        let p = md2_preview(&s, &WebOptions::default()).unwrap();
        // The MD2 is the one `convert MODEL OUT.md2` writes.
        let md2 = s.convert("md2", &WebOptions::default(), false).unwrap();
        assert_eq!(md2.files.last().unwrap().1, p.md2, "{key}");
        assert_eq!(md2.report.as_ref(), Some(&p.report), "{key}");
        let model = retromodel::md2::Md2::from_bytes(&p.md2).unwrap();
        assert_eq!(p.step_error.len(), model.vertex_count());
        assert_eq!(p.distance.len(), model.vertex_count());
        // Measured here vertex by vertex from the posed scene; reported by
        // the compiler from its own bake.
        let worst = p.step_error.iter().copied().fold(0.0f32, f32::max);
        let reported = p.report.max_step_fraction();
        assert!(
            (worst - reported).abs() < 1e-3,
            "{key}: measured {worst}, reported {reported}"
        );
        assert!(worst <= 0.5 + 1e-3, "{key}: {worst}");
        assert!(p.step_error.iter().all(|e| e.is_finite() && *e >= 0.0));
        // The GLB reads back with each vertex's MD2 vertex.
        let glb = retromodel::gltf::import(&p.glb, None, &Default::default()).unwrap();
        let mesh = &glb.scene.meshes[0];
        assert_eq!(mesh.morph_targets.len(), model.frames.len(), "{key}");
        assert!(
            format!("{:?}", glb.scene.meshes[0].extras).contains("_MD2_VERTEX"),
            "{key}"
        );
        let skin = p.skin.as_ref().expect("a skin");
        assert!(skin.0.ends_with(".png"), "{}", skin.0);
        assert_eq!(md2.files[0], (skin.0.clone(), skin.1.clone()));
    }
}
