//! MD5 files read by us versus Debian's assimp (`assimp-utils`, v5.2):
//! assimp-testmodels' `SimpleCube.md5mesh` (read from
//! `/usr/share/assimp/models/MD5`, never copied) and the testkit's rig
//! (written to a temporary folder with its md5anim beside it, which both
//! readers find by the mesh's name). Compared: meshes, faces, animation
//! channels (one per joint), the bind pose's bounds (`assimp info`) and
//! every bind-pose position (`assimp export … .obj`).
//!
//! assimp turns id Tech's Z-up into Y-up with its root node's transform,
//! `(x, y, z) → (x, z, −y)` (found by comparing the rig, whose positions
//! are all different: a cube cannot tell axes apart); the test maps ours
//! the same way. Skipped when `assimp` is not installed.

#![cfg(feature = "textures")]

use std::path::{Path, PathBuf};
use std::process::Command;

use retromodel::{Model, ReadContext};

fn assimp(args: &[&str]) -> Option<String> {
    let out = Command::new("assimp").args(args).output().ok()?;
    assert!(
        out.status.success(),
        "assimp {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn field<'a>(info: &'a str, key: &str) -> &'a str {
    info.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("assimp info has no {key}"))
        .trim()
}

fn point(text: &str) -> [f64; 3] {
    let v: Vec<f64> = text
        .trim_matches(|c| c == '(' || c == ')')
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    [v[0], v[1], v[2]]
}

fn read(path: &Path) -> retromodel::md5::Md5Model {
    let bytes = std::fs::read(path).unwrap();
    let resolver = retromodel::texture::TextureResolver::for_model_file(path);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let context = ReadContext {
        file_name: &name,
        resources: Some(&resolver),
    };
    match Model::read_with(&bytes, &context).unwrap() {
        Model::Md5(m) => m,
        other => panic!("{} read as {}", path.display(), other.format()),
    }
}

fn compare(path: &Path) {
    let Some(info) = assimp(&["info", path.to_str().unwrap()]) else {
        eprintln!("assimp not installed: skipped");
        return;
    };
    let model = read(path);
    let ours: Vec<[f64; 3]> = {
        let bind = model.mesh.bind_pose();
        (0..model.mesh.meshes.len())
            .flat_map(|m| model.mesh.posed_vertices(m, &bind))
            .map(|p| [f64::from(p[0]), f64::from(p[2]), -f64::from(p[1])])
            .collect()
    };
    let what = path.display();
    assert_eq!(
        field(&info, "Meshes:").parse::<usize>().unwrap(),
        model.mesh.meshes.len(),
        "{what}: meshes"
    );
    let faces: usize = model.mesh.meshes.iter().map(|m| m.triangles.len()).sum();
    assert_eq!(
        field(&info, "Faces:").parse::<usize>().unwrap(),
        faces,
        "{what}: faces"
    );
    let channels: usize = field(&info, "Animation Channels:").parse().unwrap();
    let expected: usize = model
        .animations
        .iter()
        .map(|a| a.anim.hierarchy.len())
        .sum();
    assert_eq!(channels, expected, "{what}: animation channels");
    let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
    for p in &ours {
        for c in 0..3 {
            lo[c] = lo[c].min(p[c]);
            hi[c] = hi[c].max(p[c]);
        }
    }
    let extent = (0..3).map(|c| hi[c] - lo[c]).fold(0.0, f64::max);
    let tol = 1e-4 * extent.max(1.0);
    let (alo, ahi) = (
        point(field(&info, "Minimum point")),
        point(field(&info, "Maximum point")),
    );
    for c in 0..3 {
        assert!(
            (alo[c] - lo[c]).abs() < tol && (ahi[c] - hi[c]).abs() < tol,
            "{what}: bounds axis {c}: assimp {alo:?}-{ahi:?}, ours {lo:?}-{hi:?}"
        );
    }
    let dir = tempdir(path);
    let obj = dir.join("assimp.obj");
    assimp(&["export", path.to_str().unwrap(), obj.to_str().unwrap()]).unwrap();
    let theirs: Vec<[f64; 3]> = std::fs::read_to_string(&obj)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(point)
        .collect();
    assert!(!theirs.is_empty());
    let near = |a: &[f64; 3], b: &[f64; 3]| (0..3).all(|c| (a[c] - b[c]).abs() < tol);
    for t in &theirs {
        assert!(
            ours.iter().any(|o| near(o, t)),
            "{what}: assimp's vertex {t:?} is none of ours"
        );
    }
    for o in &ours {
        assert!(
            theirs.iter().any(|t| near(o, t)),
            "{what}: our vertex {o:?} is none of assimp's"
        );
    }
    eprintln!(
        "{what}: {} of our vertices, {} of assimp's (merged), all within {tol:.1e}",
        ours.len(),
        theirs.len()
    );
}

fn tempdir(path: &Path) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "retromodel-md5-assimp-{}-{}",
        std::process::id(),
        path.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn simple_cube_matches_assimp() {
    let cube = Path::new("/usr/share/assimp/models/MD5/SimpleCube.md5mesh");
    if !cube.exists() {
        eprintln!("assimp-testmodels not installed: skipped");
        return;
    }
    compare(cube);
}

#[test]
fn rig_matches_assimp() {
    use retromodel_testkit::md5_builder::*;
    let dir = tempdir(Path::new("rig"));
    std::fs::write(dir.join("rig.md5mesh"), rig_md5mesh()).unwrap();
    std::fs::write(dir.join("rig.md5anim"), rig_md5anim()).unwrap();
    let model = read(&dir.join("rig.md5mesh"));
    assert_eq!(
        model.animations.len(),
        1,
        "the md5anim beside the mesh is read"
    );
    compare(&dir.join("rig.md5mesh"));
}
