//! `retromodel convert` to glTF and OBJ, texture lookup safety and batch
//! mode, checked against facts read independently from the input files'
//! bytes (MD2 header and frame bytes, the PCX header).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use retromodel_testkit::cli::{repo, run_os, sample};
use retromodel_testkit::corpus::corpus_dir;

fn run(args: &[&std::ffi::OsStr]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn convert(args: &[&Path]) -> Output {
    let mut all: Vec<&std::ffi::OsStr> = vec!["convert".as_ref()];
    all.extend(args.iter().map(|p| p.as_os_str()));
    run(&all)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn i32_at(bytes: &[u8], offset: usize) -> i32 {
    i32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

/// The MD2 header's field `i` (4-byte little-endian integers).
fn header(bytes: &[u8], i: usize) -> usize {
    i32_at(bytes, 4 * i) as usize
}

/// A GLB's JSON document and BIN chunk, after checking the 12-byte header.
fn read_glb(bytes: &[u8]) -> (serde_json::Value, Vec<u8>) {
    assert_eq!(&bytes[0..4], b"glTF", "magic");
    assert_eq!(u32_at(bytes, 4), 2, "version");
    assert_eq!(u32_at(bytes, 8) as usize, bytes.len(), "length field");
    let json_len = u32_at(bytes, 12) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    let json = serde_json::from_slice(&bytes[20..20 + json_len]).expect("JSON chunk");
    let rest = &bytes[20 + json_len..];
    let bin = if rest.is_empty() {
        Vec::new()
    } else {
        let bin_len = u32_at(rest, 0) as usize;
        assert_eq!(&rest[4..8], b"BIN\0");
        rest[8..8 + bin_len].to_vec()
    };
    (json, bin)
}

/// The bytes of image `i` of a GLB.
fn glb_image(json: &serde_json::Value, bin: &[u8], i: usize) -> Vec<u8> {
    let view = &json["bufferViews"][json["images"][i]["bufferView"].as_u64().unwrap() as usize];
    let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    bin[offset..offset + len].to_vec()
}

#[test]
fn md2_to_glb_has_the_frames_animations_and_skin() {
    let md2 = std::fs::read(sample()).unwrap();
    let pcx = std::fs::read(repo().join("examples/models/sample.pcx")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("sample.glb");
    let out = convert(&[&sample(), &out_path]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let (json, bin) = read_glb(&std::fs::read(&out_path).unwrap());

    let meshes = json["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 1);
    let targets = meshes[0]["primitives"][0]["targets"].as_array().unwrap();
    assert_eq!(targets.len(), header(&md2, 10), "one target per frame");
    assert_eq!(targets.len(), 16);
    let names: Vec<&str> = json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["stand", "run"]);

    let images = json["images"].as_array().unwrap();
    assert_eq!(images.len(), 1);
    assert_eq!(images[0]["mimeType"], "image/png");
    let png = glb_image(&json, &bin, 0);
    let image = retromodel::texture::decode(&png).unwrap();
    // The PCX header: xmin, ymin, xmax, ymax at bytes 4..12.
    let pcx_u16 = |o: usize| u16::from_le_bytes([pcx[o], pcx[o + 1]]) as u32;
    let (w, h) = (pcx_u16(8) - pcx_u16(4) + 1, pcx_u16(10) - pcx_u16(6) + 1);
    assert_eq!((image.width(), image.height()), (w, h));
    assert_eq!((w, h), (96, 64));
    assert_eq!((w as usize, h as usize), (header(&md2, 2), header(&md2, 3)));

    // Exists now: refused without --force, replaced with it.
    let again = convert(&[&sample(), &out_path]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );
    let first = std::fs::read(&out_path).unwrap();
    let forced = convert(&["--force".as_ref(), &sample(), &out_path]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    // --sync flushes to disk before the rename; the bytes are the same.
    let synced = convert(&["--force".as_ref(), "--sync".as_ref(), &sample(), &out_path]);
    assert!(synced.status.success(), "{}", stderr(&synced));
    assert_eq!(std::fs::read(&out_path).unwrap(), first);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "sample.glb")
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn quantized_glb_is_smaller_and_declares_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("p.glb");
    let quant = dir.path().join("q.glb");
    assert!(convert(&[&sample(), &plain]).status.success());
    assert!(convert(&["--quantize".as_ref(), &sample(), &quant])
        .status
        .success());
    let (json, _) = read_glb(&std::fs::read(&quant).unwrap());
    assert!(json["extensionsRequired"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == "KHR_mesh_quantization"));
    assert!(std::fs::metadata(&quant).unwrap().len() < std::fs::metadata(&plain).unwrap().len());
}

#[test]
fn compressed_glb_is_smaller_and_has_the_fallback_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let quant = dir.path().join("q.glb");
    let packed = dir.path().join("qc.glb");
    assert!(convert(&["--quantize".as_ref(), &sample(), &quant])
        .status
        .success());
    let out = convert(&[
        "--quantize".as_ref(),
        "--compress".as_ref(),
        &sample(),
        &packed,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (json, bin) = read_glb(&std::fs::read(&packed).unwrap());
    let required: Vec<&str> = json["extensionsRequired"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.as_str())
        .collect();
    assert!(
        required.contains(&"EXT_meshopt_compression"),
        "{required:?}"
    );
    assert!(required.contains(&"KHR_mesh_quantization"), "{required:?}");
    // Buffer 0 is the BIN chunk; buffer 1 the fallback, without data.
    let buffers = json["buffers"].as_array().unwrap();
    assert_eq!(
        buffers[0]["byteLength"].as_u64().unwrap() as usize,
        bin.len()
    );
    assert_eq!(
        buffers[1]["extensions"]["EXT_meshopt_compression"]["fallback"],
        true
    );
    assert!(std::fs::metadata(&packed).unwrap().len() < std::fs::metadata(&quant).unwrap().len());
}

#[test]
fn gltf_writes_the_document_and_its_buffer() {
    let dir = tempfile::tempdir().unwrap();
    // A space in the name: the document must refer to the files by URI.
    let out_path = dir.path().join("my model.gltf");
    let out = convert(&[&sample(), &out_path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["my model.bin", "my model.gltf", "my model_texture0.png"]
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out_path).unwrap()).unwrap();
    assert_eq!(json["buffers"][0]["uri"], "my%20model.bin");
    assert_eq!(
        json["buffers"][0]["byteLength"].as_u64().unwrap(),
        std::fs::metadata(dir.path().join("my model.bin"))
            .unwrap()
            .len()
    );
    assert_eq!(json["asset"]["version"], "2.0");

    // The skin is a PNG file beside the document, not in the buffer, and
    // holds the sample's PCX pixels.
    let images = json["images"].as_array().unwrap();
    assert_eq!(images.len(), 1);
    assert_eq!(images[0]["uri"], "my%20model_texture0.png");
    assert!(images[0].get("bufferView").is_none());
    let png = std::fs::read(dir.path().join("my model_texture0.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let pcx = std::fs::read(repo().join("examples/models/sample.pcx")).unwrap();
    let (a, b) = (
        retromodel::texture::decode(&png).unwrap(),
        retromodel::texture::decode(&pcx).unwrap(),
    );
    assert_eq!((a.width(), a.height()), (96, 64));
    assert_eq!(a.pixels(), b.pixels());

    // Any one of the files existing is enough to refuse.
    for existing in ["my model.bin", "my model_texture0.png"] {
        for f in ["my model.bin", "my model.gltf", "my model_texture0.png"] {
            let _ = std::fs::remove_file(dir.path().join(f));
        }
        std::fs::write(dir.path().join(existing), b"keep").unwrap();
        let again = convert(&[&sample(), &out_path]);
        assert!(!again.status.success());
        assert!(
            stderr(&again).contains(&format!("{existing}: already exists")),
            "{}",
            stderr(&again)
        );
        assert!(!out_path.exists());
        assert_eq!(std::fs::read(dir.path().join(existing)).unwrap(), b"keep");
    }
}

/// The positions of MD2 frame `f`, decoded straight from the file bytes
/// and mapped (x, y, z) → (y, z, x).
fn frame_positions(md2: &[u8], f: usize) -> Vec<[f32; 3]> {
    let (nv, frame_size, ofs_frames) = (header(md2, 6), header(md2, 4), header(md2, 14));
    let base = ofs_frames + f * frame_size;
    let float = |o: usize| f32::from_le_bytes(md2[o..o + 4].try_into().unwrap());
    let scale = [float(base), float(base + 4), float(base + 8)];
    let translate = [float(base + 12), float(base + 16), float(base + 20)];
    (0..nv)
        .map(|v| {
            let p = base + 40 + 4 * v;
            let q = [0, 1, 2].map(|k| scale[k] * f32::from(md2[p + k]) + translate[k]);
            [q[1], q[2], q[0]]
        })
        .collect()
}

fn obj_positions(obj: &str) -> Vec<[f32; 3]> {
    obj.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let n: Vec<f32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            [n[0], n[1], n[2]]
        })
        .collect()
}

fn distinct(points: &[[f32; 3]]) -> HashSet<[u32; 3]> {
    points.iter().map(|p| p.map(f32::to_bits)).collect()
}

#[test]
fn obj_of_a_frame_matches_the_frame_bytes() {
    let md2 = std::fs::read(sample()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("m.obj");
    let out = convert(&[&sample(), &out_path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let obj = std::fs::read_to_string(&out_path).unwrap();
    let expected = frame_positions(&md2, 0);
    assert_eq!(expected.len(), 48);
    let got = obj_positions(&obj);
    assert_eq!(distinct(&got).len(), distinct(&expected).len());
    assert_eq!(distinct(&got).len(), 48);
    for p in &got {
        assert!(
            expected
                .iter()
                .any(|e| (0..3).all(|k| (e[k] - p[k]).abs() < 1e-4)),
            "{p:?} is no vertex of frame 0"
        );
    }
    let faces = obj.lines().filter(|l| l.starts_with("f ")).count();
    assert_eq!(faces, header(&md2, 8), "one face per triangle");
    assert!(obj.contains("mtllib m.mtl"));
    let mtl = std::fs::read_to_string(dir.path().join("m.mtl")).unwrap();
    assert!(mtl.contains("map_Kd m_texture0.png"), "{mtl}");
    let png = std::fs::read(dir.path().join("m_texture0.png")).unwrap();
    let image = retromodel::texture::decode(&png).unwrap();
    assert_eq!((image.width(), image.height()), (96, 64));

    // `--anim run --frame 2` is frame 10 + 2 (run starts at frame 10).
    let out_path = dir.path().join("run2.obj");
    let args: [&Path; 6] = [
        "--anim".as_ref(),
        "run".as_ref(),
        "--frame".as_ref(),
        "2".as_ref(),
        &sample(),
        &out_path,
    ];
    let out = convert(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let got = obj_positions(&std::fs::read_to_string(&out_path).unwrap());
    let expected = frame_positions(&md2, 12);
    for p in &got {
        assert!(
            expected
                .iter()
                .any(|e| (0..3).all(|k| (e[k] - p[k]).abs() < 1e-4)),
            "{p:?} is no vertex of frame 12"
        );
    }
    // A frame that does not exist fails cleanly.
    let out_path = dir.path().join("bad.obj");
    let out = convert(&["--frame".as_ref(), "16".as_ref(), &sample(), &out_path]);
    assert!(!out.status.success());
    assert!(!out_path.exists());
}

#[test]
fn ms3d_obj_at_a_time_differs_from_the_bind_pose() {
    let Some(corpus) = corpus_dir() else { return };
    let model = corpus.join("ms3d/nehe_lesson31_Model.ms3d");
    let dir = tempfile::tempdir().unwrap();
    let bind = dir.path().join("bind.obj");
    let posed = dir.path().join("posed.obj");
    assert!(convert(&[&model, &bind]).status.success());
    let out = convert(&["--time".as_ref(), "0.5".as_ref(), &model, &posed]);
    assert!(out.status.success(), "{}", stderr(&out));
    let a = obj_positions(&std::fs::read_to_string(&bind).unwrap());
    let b = obj_positions(&std::fs::read_to_string(&posed).unwrap());
    assert_eq!(a.len(), b.len());
    // The bind pose is the file's own vertex positions (identity axes).
    let bytes = std::fs::read(&model).unwrap();
    let nv = u16::from_le_bytes([bytes[14], bytes[15]]) as usize;
    let file_positions: Vec<[f32; 3]> = (0..nv)
        .map(|i| {
            let o = 16 + 15 * i + 1;
            [0, 4, 8].map(|k| f32::from_le_bytes(bytes[o + k..o + k + 4].try_into().unwrap()))
        })
        .collect();
    assert!(distinct(&a).is_subset(&distinct(&file_positions)));
    assert!(a.len() >= nv);
    let moved = a.iter().zip(&b).filter(|(p, q)| p != q).count();
    assert!(moved > 0, "the joints' keys move vertices at 0.5 s");
}

/// A copy of the sample whose skin name (64 bytes at offset 68) is `name`.
fn sample_with_skin(name: &str) -> Vec<u8> {
    let mut md2 = std::fs::read(sample()).unwrap();
    assert_eq!(header(&md2, 5), 1, "one skin");
    assert_eq!(header(&md2, 11), 68, "skins at 68");
    let field = &mut md2[68..68 + 64];
    field.fill(0);
    field[..name.len()].copy_from_slice(name.as_bytes());
    md2
}

const PASSWD_LINE: &[u8] = b"root:x:0:0";

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Converts `model` to GLB and checks: success, one warning naming the
/// texture, no image in the output, no bytes of /etc/passwd.
fn assert_refused(model: &Path, texture: &str, reason: &str) {
    let out_path = model.with_extension("glb");
    let out = convert(&[model, &out_path]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains(texture), "{err}");
    assert!(warnings[0].contains(reason), "{err}");
    assert!(warnings[0].contains(&model.display().to_string()), "{err}");
    let glb = std::fs::read(&out_path).unwrap();
    assert!(!contains(&glb, PASSWD_LINE));
    let (json, _) = read_glb(&glb);
    assert!(json.get("images").is_none(), "{json}");
}

/// A temporary folder with `a/b` in it (the model's folder, two levels
/// down, so that `../../` leads out of it), when `/etc/passwd` holds the
/// root line the containment tests look for in outputs; `None` (the test
/// skips) on a system without one.
fn passwd_and_nested_folder() -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    if !std::fs::read(Path::new("/etc/passwd")).is_ok_and(|p| contains(&p, PASSWD_LINE)) {
        eprintln!("no /etc/passwd with a root line; skipping");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("a/b");
    std::fs::create_dir_all(&models).unwrap();
    Some((dir, models))
}

#[test]
fn hostile_skin_names_are_refused_with_a_warning() {
    let Some((dir, models)) = passwd_and_nested_folder() else {
        return;
    };
    // A real image one folder up: a traversal would find and embed it.
    std::fs::copy(
        repo().join("examples/models/sample.pcx"),
        dir.path().join("a/secret.pcx"),
    )
    .unwrap();
    let cases = [
        ("../../../../etc/passwd", "up.md2", "`..`"),
        ("/etc/passwd", "abs.md2", "absolute"),
        ("../secret.pcx", "secret.md2", "`..`"),
    ];
    for (name, file, reason) in cases {
        let model = models.join(file);
        std::fs::write(&model, sample_with_skin(name)).unwrap();
        assert_refused(&model, name, reason);
    }
}

#[cfg(unix)]
#[test]
fn a_skin_symlink_leading_outside_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::copy(
        repo().join("examples/models/sample.pcx"),
        outside.join("real.pcx"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.join("real.pcx"), models.join("evil.pcx")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", models.join("passwd.pcx")).unwrap();
    for name in ["evil.pcx", "passwd.pcx"] {
        let model = models.join(name.replace(".pcx", ".md2"));
        std::fs::write(&model, sample_with_skin(name)).unwrap();
        assert_refused(&model, name, "outside");
    }
    // The same image inside the folder is used.
    std::fs::copy(outside.join("real.pcx"), models.join("fine.pcx")).unwrap();
    let model = models.join("fine.md2");
    std::fs::write(&model, sample_with_skin("fine.pcx")).unwrap();
    let out = convert(&[&model, &models.join("fine.glb")]);
    assert!(out.status.success());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

#[test]
fn skin_option_and_texture_dirs() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    let skins = dir.path().join("skins/players");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(&skins).unwrap();
    std::fs::copy(
        repo().join("examples/models/sample.pcx"),
        skins.join("hero.pcx"),
    )
    .unwrap();
    let model = models.join("m.md2");
    std::fs::write(&model, sample_with_skin("players/hero.pcx")).unwrap();
    // Not found without the root: a warning, no image.
    let out = convert(&[&model, &models.join("a.glb")]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("not found"), "{}", stderr(&out));
    // Found below --texture-dir.
    let root = dir.path().join("skins");
    let out = convert(&[
        "--texture-dir".as_ref(),
        &root,
        &model,
        &models.join("b.glb"),
    ]);
    assert!(out.status.success());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let (json, _) = read_glb(&std::fs::read(models.join("b.glb")).unwrap());
    assert_eq!(json["images"].as_array().unwrap().len(), 1);
    // --skin replaces it with any file the user names.
    let out = convert(&[
        "--skin".as_ref(),
        &skins.join("hero.pcx"),
        &model,
        &models.join("c.glb"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let (json, _) = read_glb(&std::fs::read(models.join("c.glb")).unwrap());
    assert_eq!(json["images"].as_array().unwrap().len(), 1);
}

#[test]
fn batch_converts_good_files_lists_bad_ones_and_skips_existing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let nested = input.join("sub/nested");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::copy(sample(), input.join("Good.MD2")).unwrap();
    std::fs::copy(
        repo().join("examples/models/sample.pcx"),
        input.join("sample.pcx"),
    )
    .unwrap();
    let md2 = std::fs::read(sample()).unwrap();
    std::fs::write(nested.join("broken.md2"), &md2[..300]).unwrap();
    std::fs::write(input.join("notes.txt"), b"not a model").unwrap();
    let mut expected = vec![PathBuf::from("Good.glb")];
    if let Some(corpus) = corpus_dir() {
        std::fs::copy(
            corpus.join("ms3d/assimpdeb_twospheres.ms3d"),
            nested.join("spheres.ms3d"),
        )
        .unwrap();
        expected.push(PathBuf::from("sub/nested/spheres.glb"));
    }
    let out_dir = dir.path().join("out");
    let args = |extra: &[&str]| {
        let mut a: Vec<std::ffi::OsString> = vec![
            "convert".into(),
            input.clone().into(),
            "--out-dir".into(),
            out_dir.clone().into(),
            "--to".into(),
            "glb".into(),
            "--jobs".into(),
            "2".into(),
        ];
        a.extend(extra.iter().map(Into::into));
        a
    };
    let run_batch = |extra: &[&str]| {
        let a = args(extra);
        let refs: Vec<&std::ffi::OsStr> = a.iter().map(|s| s.as_os_str()).collect();
        run(&refs)
    };

    let out = run_batch(&[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for rel in &expected {
        let glb = std::fs::read(out_dir.join(rel)).unwrap();
        read_glb(&glb);
    }
    assert!(!out_dir.join("sub/nested/broken.glb").exists());
    let failure = err
        .lines()
        .find(|l| l.contains("broken.md2"))
        .unwrap_or_else(|| panic!("failure not listed: {err}"));
    assert!(failure.contains("needs"), "no reason: {failure}");
    assert!(
        err.contains(&format!(
            "converted {}, failed 1, warnings 0, skipped existing 0",
            expected.len()
        )),
        "{err}"
    );

    // Existing outputs are kept without --force ...
    let good = out_dir.join("Good.glb");
    std::fs::write(&good, b"stale").unwrap();
    let out = run_batch(&["--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "converted 0, failed 1, warnings 0, skipped existing {}",
            expected.len()
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&good).unwrap(), b"stale");
    // ... and rewritten with it.
    let out = run_batch(&["--force"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(&format!("converted {}, failed 1", expected.len())));
    read_glb(&std::fs::read(&good).unwrap());

    // Without the bad file the batch succeeds.
    std::fs::remove_file(nested.join("broken.md2")).unwrap();
    let out = run_batch(&["--force", "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// An MD2 that names no skin takes an image named like it from its own
/// folder (any case of the name); when there is none the user is told,
/// and the material stays untextured.
#[test]
fn an_md2_without_skins_uses_an_image_named_like_it_or_says_there_is_none() {
    let mut md2 = std::fs::read(sample()).unwrap();
    md2[20..24].copy_from_slice(&0i32.to_le_bytes()); // header: 0 skins
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("hero.md2");
    std::fs::write(&model, &md2).unwrap();
    let out_path = dir.path().join("out.glb");

    let out = convert(&[&model, &out_path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("names no skin") && err.contains("hero.pcx|png"),
        "{err}"
    );
    let (json, _) = read_glb(&std::fs::read(&out_path).unwrap());
    assert!(json.get("images").is_none());

    std::fs::copy(
        repo().join("examples/models/sample.pcx"),
        dir.path().join("HERO.PCX"),
    )
    .unwrap();
    let out = convert(&["--force".as_ref(), &model, &out_path]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let (json, bin) = read_glb(&std::fs::read(&out_path).unwrap());
    let image = retromodel::texture::decode(&glb_image(&json, &bin, 0)).unwrap();
    assert_eq!((image.width(), image.height()), (96, 64));
}

/// The duration of each animation of a glTF document, by name: the
/// largest `max` of its samplers' input accessors (glTF requires min/max
/// on animation inputs).
fn animation_durations(json: &serde_json::Value) -> Vec<(String, f64)> {
    json["animations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|a| {
            let duration = a["samplers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let input = s["input"].as_u64().unwrap() as usize;
                    json["accessors"][input]["max"][0].as_f64().unwrap()
                })
                .fold(0.0, f64::max);
            (a["name"].as_str().unwrap_or("").to_string(), duration)
        })
        .collect()
}

#[test]
fn ms3d_clips_become_named_animations() {
    let Some(corpus) = corpus_dir() else { return };
    let model = corpus.join("ms3d/nehe_lesson31_Model.ms3d");
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("facts.json")).unwrap()).unwrap();
    let fps = facts["ms3d/nehe_lesson31_Model.ms3d"]["fps"]
        .as_f64()
        .unwrap();
    let total = facts["ms3d/nehe_lesson31_Model.ms3d"]["total_frames"]
        .as_f64()
        .unwrap();
    assert_eq!((fps, total), (24.0, 24.0));
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("clips.glb");
    let out = convert(&[
        "--clip".as_ref(),
        "wave:1-8".as_ref(),
        "--clip".as_ref(),
        "rest:8.5-24".as_ref(),
        &model,
        &out_path,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (json, _) = read_glb(&std::fs::read(&out_path).unwrap());
    let durations = animation_durations(&json);
    let names: Vec<&str> = durations.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["wave", "rest"]);
    for ((_, got), want) in durations
        .iter()
        .zip([(8.0 - 1.0) / fps, (24.0 - 8.5) / fps])
    {
        assert!((got - want).abs() < 1e-5, "duration {got}, expected {want}");
    }
    // Without --clip: the one timeline animation.
    let plain = dir.path().join("plain.glb");
    assert!(convert(&[&model, &plain]).status.success());
    let (json, _) = read_glb(&std::fs::read(&plain).unwrap());
    let names: Vec<String> = animation_durations(&json)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(names, ["timeline"]);

    // A clip past the timeline's 24 frames fails, and writes nothing.
    let bad = dir.path().join("bad.glb");
    let out = convert(&["--clip".as_ref(), "long:1-25".as_ref(), &model, &bad]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("outside the timeline"),
        "{}",
        stderr(&out)
    );
    assert!(!bad.exists());
    // An MD2's animations come from its frame names.
    let out = convert(&["--clip".as_ref(), "a:1-2".as_ref(), &sample(), &bad]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("frame names"), "{}", stderr(&out));
    assert!(!bad.exists());
    // Only glTF output has animations.
    let obj = dir.path().join("m.obj");
    let out = convert(&["--clip".as_ref(), "a:1-2".as_ref(), &model, &obj]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("glTF output"), "{}", stderr(&out));
    // The same parser as `info --clip`.
    let out = convert(&["--clip".as_ref(), "a:2-1".as_ref(), &model, &bad]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("first ≤ last"), "{}", stderr(&out));

    // Batch mode: every MS3D gets the clips, an MD2 keeps its own.
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(&model, input.join("nehe.ms3d")).unwrap();
    std::fs::copy(sample(), input.join("sample.md2")).unwrap();
    let out_dir = dir.path().join("out");
    let out = convert(&[
        &input,
        "--out-dir".as_ref(),
        &out_dir,
        "--to".as_ref(),
        "glb".as_ref(),
        "--quiet".as_ref(),
        "--clip".as_ref(),
        "wave:1-8".as_ref(),
        "--clip".as_ref(),
        "rest:8.5-24".as_ref(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let names = |file: &str| -> Vec<String> {
        let (json, _) = read_glb(&std::fs::read(out_dir.join(file)).unwrap());
        animation_durations(&json)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    };
    assert_eq!(names("nehe.glb"), ["wave", "rest"]);
    assert_eq!(names("sample.glb"), ["stand", "run"]);
}

// ---------------------------------------------------------------------------
// MS3D alpha maps: baked into the base colour texture's alpha channel
// ---------------------------------------------------------------------------

/// The sample MS3D with one material per group (`upper`, `lower`, `hand`),
/// each `(name, texture, alpha map)`.
fn ms3d_with_materials(materials: [(&str, &str, &str); 3]) -> Vec<u8> {
    use retromodel::ms3d::{Name128, Name32};
    let mut model = retromodel::ms3d::sample::sample_model();
    let template = model.materials[0].clone();
    model.materials = materials
        .iter()
        .map(|&(name, texture, alphamap)| retromodel::ms3d::Material {
            name: Name32::new(name),
            texture: Name128::new(texture),
            alphamap: Name128::new(alphamap),
            ..template.clone()
        })
        .collect();
    for (i, g) in model.groups.iter_mut().enumerate() {
        g.material = i as i8;
    }
    model.to_bytes().unwrap()
}

/// The 4×4 base texture: a distinct opaque colour per pixel.
fn base_pixel(x: u32, y: u32) -> [u8; 3] {
    [(x * 60) as u8, (y * 60) as u8, (100 + 10 * x + y) as u8]
}

/// The 4×4 greyscale alpha map.
fn alpha_pixel(x: u32, y: u32) -> u8 {
    (17 * (x + 4 * y)) as u8
}

/// Writes `base.png` (RGB) and `alpha.png` (8-bit grey) into `dir`.
fn write_base_and_alpha(dir: &Path) {
    image::RgbImage::from_fn(4, 4, |x, y| image::Rgb(base_pixel(x, y)))
        .save(dir.join("base.png"))
        .unwrap();
    image::GrayImage::from_fn(4, 4, |x, y| image::Luma([alpha_pixel(x, y)]))
        .save(dir.join("alpha.png"))
        .unwrap();
}

/// Converts `model` to GLB (it must succeed); the document, its binary
/// chunk and stderr.
fn convert_to_glb(model: &Path) -> (serde_json::Value, Vec<u8>, String) {
    let out_path = model.with_extension("glb");
    let out = convert(&["--force".as_ref(), model, &out_path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (json, bin) = read_glb(&std::fs::read(&out_path).unwrap());
    (json, bin, stderr(&out))
}

/// The material called `name`: its alpha mode and its base colour image,
/// decoded by the `image` crate (not retromodel's decoder).
fn material_image(
    json: &serde_json::Value,
    bin: &[u8],
    name: &str,
) -> (String, Option<image::RgbaImage>) {
    let m = json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no material {name}"));
    let mode = m["alphaMode"].as_str().unwrap_or("OPAQUE").to_string();
    let image = m["pbrMetallicRoughness"]["baseColorTexture"]["index"]
        .as_u64()
        .map(|t| {
            let source = json["textures"][t as usize]["source"].as_u64().unwrap();
            let png = glb_image(json, bin, source as usize);
            image::load_from_memory_with_format(&png, image::ImageFormat::Png)
                .unwrap()
                .to_rgba8()
        });
    (mode, image)
}

/// Asserts that `image` is the untouched 4×4 base texture.
fn assert_is_the_base(image: &image::RgbaImage) {
    assert_eq!(image.dimensions(), (4, 4));
    for (x, y, p) in image.enumerate_pixels() {
        let [r, g, b] = base_pixel(x, y);
        assert_eq!(p.0, [r, g, b, 255], "pixel ({x}, {y})");
    }
}

#[test]
fn an_ms3d_alpha_map_becomes_the_base_textures_alpha_per_material() {
    let dir = tempfile::tempdir().unwrap();
    write_base_and_alpha(dir.path());
    let model = dir.path().join("m.ms3d");
    // Two materials share base.png, one with the alpha map and one
    // without; a third has the alpha map and no texture.
    std::fs::write(
        &model,
        ms3d_with_materials([
            ("faded", "base.png", "alpha.png"),
            ("plain", "base.png", ""),
            ("ghost", "", "alpha.png"),
        ]),
    )
    .unwrap();
    let (json, bin, err) = convert_to_glb(&model);
    assert!(!err.contains("warning"), "{err}");

    let (mode, image) = material_image(&json, &bin, "faded");
    assert_eq!(mode, "BLEND");
    let image = image.expect("faded is textured");
    assert_eq!(image.dimensions(), (4, 4));
    for (x, y, p) in image.enumerate_pixels() {
        let [r, g, b] = base_pixel(x, y);
        assert_eq!(p.0, [r, g, b, alpha_pixel(x, y)], "pixel ({x}, {y})");
    }
    assert_eq!(image.get_pixel(3, 3).0[3], 255, "white is opaque");
    assert_eq!(image.get_pixel(0, 0).0[3], 0, "black is clear");

    // The shared base texture is untouched for the material without one.
    let (mode, image) = material_image(&json, &bin, "plain");
    assert_eq!(mode, "OPAQUE");
    assert_is_the_base(&image.expect("plain is textured"));

    // No texture: a white base with the alpha map's alpha.
    let (mode, image) = material_image(&json, &bin, "ghost");
    assert_eq!(mode, "BLEND");
    let image = image.expect("ghost is textured");
    for (x, y, p) in image.enumerate_pixels() {
        assert_eq!(p.0, [255, 255, 255, alpha_pixel(x, y)], "pixel ({x}, {y})");
    }
    // Three images: base+alpha, base, white+alpha; alpha.png alone is not
    // embedded.
    assert_eq!(json["images"].as_array().unwrap().len(), 3);
}

#[test]
fn a_missing_or_broken_alpha_map_is_a_warning_and_the_base_stays() {
    let dir = tempfile::tempdir().unwrap();
    write_base_and_alpha(dir.path());
    std::fs::write(
        dir.path().join("broken.png"),
        b"\x89PNG\r\n\x1a\nnot really",
    )
    .unwrap();
    for alpha in ["missing.png", "broken.png"] {
        let model = dir.path().join(alpha.replace(".png", ".ms3d"));
        std::fs::write(
            &model,
            ms3d_with_materials([
                ("faded", "base.png", alpha),
                ("plain", "base.png", ""),
                ("ghost", "", alpha),
            ]),
        )
        .unwrap();
        let (json, bin, err) = convert_to_glb(&model);
        let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
        assert_eq!(warnings.len(), 1, "{err}");
        assert!(warnings[0].contains(alpha), "{err}");
        assert!(warnings[0].contains("alpha map ignored"), "{err}");
        let (mode, image) = material_image(&json, &bin, "faded");
        assert_eq!(mode, "OPAQUE", "{alpha}");
        assert_is_the_base(&image.expect("faded keeps its base texture"));
        let (mode, image) = material_image(&json, &bin, "ghost");
        assert_eq!((mode.as_str(), image), ("OPAQUE", None), "{alpha}");
        assert_eq!(json["images"].as_array().unwrap().len(), 1, "{alpha}");
    }
}

#[test]
fn a_hostile_alpha_map_name_is_refused_and_nothing_of_it_is_read() {
    // `_dir` keeps the temporary folder until the end.
    let Some((_dir, models)) = passwd_and_nested_folder() else {
        return;
    };
    write_base_and_alpha(&models);
    for (name, reason) in [("../../etc/passwd", "`..`"), ("/etc/passwd", "absolute")] {
        let model = models.join("hostile.ms3d");
        std::fs::write(
            &model,
            ms3d_with_materials([
                ("faded", "base.png", name),
                ("plain", "base.png", ""),
                ("ghost", "", ""),
            ]),
        )
        .unwrap();
        let (json, bin, err) = convert_to_glb(&model);
        let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
        assert_eq!(warnings.len(), 1, "{err}");
        assert!(warnings[0].contains(name), "{err}");
        assert!(warnings[0].contains(reason), "{err}");
        let glb = std::fs::read(model.with_extension("glb")).unwrap();
        assert!(!contains(&glb, PASSWD_LINE), "{name}");
        let (mode, image) = material_image(&json, &bin, "faded");
        assert_eq!(mode, "OPAQUE");
        assert_is_the_base(&image.expect("faded keeps its base texture"));
    }
}
