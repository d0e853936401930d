//! OBJ import: Blender's OBJ of the corpus walker against the facts its
//! README gives and the OBJ text read here by hand; our own OBJ export read
//! back; untrusted `mtllib` and texture names refused; broken faces named
//! with their line.

#![cfg(all(feature = "scene", feature = "textures"))]

use retromodel::md2::sample::sample_model;
use retromodel::md2::Md2SceneOptions;
use retromodel::obj::{import_obj, to_obj, ObjOptions};
use retromodel::scene::Scene;
use retromodel::texture::TextureResolver;
use retromodel::Error;
use retromodel_testkit::corpus::corpus_dir;

/// The `v` lines of an OBJ, parsed here.
fn v_lines(text: &str) -> Vec<[f32; 3]> {
    text.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

#[test]
fn blenders_walker_obj_imports_with_its_counts_and_texture() {
    let Some(dir) = corpus_dir() else { return };
    let dir = dir.join("gltf");
    let path = dir.join("blender_walker.obj");
    let bytes = std::fs::read(&path).unwrap();
    let resolver = TextureResolver::for_model_file(&path);
    let import = import_obj(&bytes, "blender_walker.obj", Some(&resolver)).unwrap();
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let scene = &import.scene;
    assert_eq!(scene.name, "blender_walker");
    assert_eq!(scene.meshes.len(), 1);
    let mesh = &scene.meshes[0];
    // README: 542 faces, 430 quads + 112 triangles = 972 triangles.
    assert_eq!(mesh.indices.len(), 3 * 972);
    // Every vertex is one of the file's 498 positions, and every position
    // is used.
    let text = String::from_utf8(bytes).unwrap();
    let vs = v_lines(&text);
    assert_eq!(vs.len(), 498);
    for p in &mesh.positions {
        assert!(vs.contains(p), "{p:?}");
    }
    for v in &vs {
        assert!(mesh.positions.contains(v), "{v:?} unused");
    }
    assert_eq!(mesh.normals.len(), mesh.positions.len());
    assert_eq!(mesh.uvs.len(), mesh.positions.len());
    // The material and its texture, the PNG's pixels as decoded by the
    // image crate (not by retromodel).
    let m = &scene.materials[mesh.material.unwrap()];
    assert_eq!(m.name, "walker_skin");
    let t = &scene.textures[m.texture.unwrap()];
    assert_eq!(t.path, "blender_walker_checker.png");
    let ours = t.image.as_ref().unwrap().to_pixels().unwrap();
    let reference =
        image::load_from_memory(&std::fs::read(dir.join("blender_walker_checker.png")).unwrap())
            .unwrap()
            .to_rgba8();
    assert_eq!((ours.width(), ours.height()), reference.dimensions());
    assert_eq!(ours.pixels(), reference.as_raw().as_slice());
}

#[test]
fn our_own_obj_export_reads_back() {
    let scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let files = to_obj(
        &scene,
        &ObjOptions {
            mtl_file: "x.mtl".into(),
            texture_files: vec![],
        },
    );
    let import = import_obj(files.obj.as_bytes(), "x.obj", None).unwrap();
    // Without file access the MTL is not read: a warning, colours default.
    assert_eq!(import.warnings.len(), 1, "{:?}", import.warnings);
    let (a, b) = (&scene.meshes[0], &import.scene.meshes[0]);
    assert_eq!(b.indices.len(), a.indices.len());
    // Triangles: the same corners, in the same order.
    for (ta, tb) in a.indices.chunks(3).zip(b.indices.chunks(3)) {
        for k in 0..3 {
            let (pa, pb) = (a.positions[ta[k] as usize], b.positions[tb[k] as usize]);
            assert_eq!(pa, pb);
            let (ua, ub) = (a.uvs[ta[k] as usize], b.uvs[tb[k] as usize]);
            assert!((ua[0] - ub[0]).abs() < 1e-6 && (ua[1] - ub[1]).abs() < 1e-6);
        }
    }
}

#[test]
fn untrusted_names_are_refused_and_bad_faces_named_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let model_dir = dir.path().join("model");
    std::fs::create_dir(&model_dir).unwrap();
    std::fs::write(dir.path().join("secret.mtl"), "newmtl stolen\nKd 1 0 0\n").unwrap();
    std::fs::write(
        model_dir.join("ok.mtl"),
        "newmtl red\nKd 1 0 0\nmap_Kd /etc/passwd\n",
    )
    .unwrap();
    let resolver = TextureResolver::for_model_file(&model_dir.join("m.obj"));
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for mtl in ["../secret.mtl", "/etc/passwd", "C:\\Windows\\x.mtl"] {
        let obj = format!("mtllib {mtl}\n{tri}usemtl stolen\nf 1 2 3\n");
        let import = import_obj(obj.as_bytes(), "m.obj", Some(&resolver)).unwrap();
        assert_eq!(import.warnings.len(), 1, "{mtl}: {:?}", import.warnings);
        assert!(
            import.warnings[0].message.contains("refused"),
            "{}",
            import.warnings[0]
        );
        assert!(
            import.scene.materials.iter().all(|m| m.name != "stolen"),
            "{mtl}"
        );
    }
    let obj = format!("mtllib ok.mtl\n{tri}usemtl red\nf 1 2 3\n");
    let import = import_obj(obj.as_bytes(), "m.obj", Some(&resolver)).unwrap();
    assert_eq!(import.scene.materials[0].base_color, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(import.scene.materials[0].texture, None);
    assert!(
        import.warnings[0].message.contains("refused"),
        "{:?}",
        import.warnings
    );

    let err = import_obj(
        format!("{tri}vt 0 0\n\nf 1/1 2/1 9/1\n").as_bytes(),
        "m.obj",
        None,
    )
    .unwrap_err();
    assert_eq!(
        err,
        Error::Obj {
            line: Some(6),
            message: "face vertex index 9 out of range (1..=3 so far)".into()
        },
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "OBJ line 6: face vertex index 9 out of range (1..=3 so far)"
    );
    let err = import_obj(format!("{tri}f 1/4 2 3\n").as_bytes(), "m.obj", None).unwrap_err();
    assert!(
        err.to_string().contains("texture coordinate index 4"),
        "{err}"
    );
    // Not an OBJ at all: nothing to draw, no error.
    let import = import_obj(b"\x00\xffhello\nworld", "m.obj", None).unwrap();
    assert!(import.scene.meshes.is_empty());
}
