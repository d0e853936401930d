//! Importing Blender 3.4's own glTF exports (`corpus/gltf/`), checked
//! against sources that do not use the importer:
//!
//! - `facts.json` (an independent reader's counts, names, durations);
//! - `make_blender_models.py`, the script that built the models: the
//!   shape keys' formulas at the frames where one key has weight 1, and
//!   the object animation's key values;
//! - Blender's own OBJ export of the walker at its rest pose;
//! - for the walker's animations, an evaluation written here from the
//!   glTF spec over the accessors as read by the testkit's own GLB reader
//!   (`retromodel_testkit::glb`: sampling, node hierarchy, skinning).
//!
//! Blender is Z-up; its exporter maps a Blender point `(x, y, z)` to glTF
//! `(x, z, −y)`, and a rotation about Blender's Z to one about glTF's Y.

#![cfg(all(feature = "gltf", feature = "textures"))]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{DMat4, DQuat, DVec3, Mat4, Quat, Vec3};
use retromodel::gltf::{import, Import, ImportOptions};
use retromodel::scene::{Pose, Scene};
use retromodel::texture::{decode, TextureResolver};
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::glb::{parse_glb, sample, Doc};
use serde_json::Value;

fn gltf_dir() -> Option<PathBuf> {
    corpus_dir().map(|c| c.join("gltf"))
}

fn load(dir: &Path, file: &str) -> Import {
    let path = dir.join(file);
    let bytes = std::fs::read(&path).unwrap();
    let resolver = TextureResolver::for_model_file(&path);
    import(&bytes, Some(&resolver), &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn facts(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("facts.json")).unwrap()).unwrap()
}

/// Posed vertices of mesh `m`.
fn posed(pose: &Pose, scene: &Scene, m: usize) -> Vec<[f32; 3]> {
    let n = scene.meshes[m].positions.len();
    let (mut p, mut q) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    pose.mesh_vertices(scene, m, &mut p, &mut q);
    p
}

fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= tol)
}

#[test]
fn counts_names_and_durations_match_the_facts() {
    let Some(dir) = gltf_dir() else { return };
    let facts = facts(&dir);
    for (file, f) in facts["files"].as_object().unwrap() {
        if f["format"] == "obj" {
            continue;
        }
        let imported = load(&dir, file);
        let s = &imported.scene;
        assert!(
            imported.warnings.is_empty(),
            "{file}: {:?}",
            imported.warnings
        );
        assert_eq!(
            s.nodes.len() as u64,
            f["nodes"].as_u64().unwrap(),
            "{file}: nodes"
        );
        // Each fact primitive is the k-th scene mesh of that name (every
        // mesh here is shown by one node).
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut total = (0u64, 0u64);
        for mesh in f["meshes"].as_array().unwrap() {
            let name = mesh["name"].as_str().unwrap();
            let target_names: Vec<&str> = mesh["target_names"]
                .as_array()
                .map(|a| a.iter().map(|v| v.as_str().unwrap()).collect())
                .unwrap_or_default();
            for p in mesh["primitives"].as_array().unwrap() {
                let k = seen.entry(name).or_default();
                let m = s
                    .meshes
                    .iter()
                    .filter(|m| m.name == name)
                    .nth(*k)
                    .unwrap_or_else(|| panic!("{file}: primitive {k} of {name}"));
                *k += 1;
                let w = format!("{file}: {name} primitive {}", *k - 1);
                assert_eq!(
                    m.positions.len() as u64,
                    p["vertices"].as_u64().unwrap(),
                    "{w}"
                );
                assert_eq!(
                    m.indices.len() as u64 / 3,
                    p["triangles"].as_u64().unwrap(),
                    "{w}"
                );
                assert_eq!(
                    m.material,
                    p["material"].as_u64().map(|x| x as usize),
                    "{w}"
                );
                assert_eq!(
                    m.morph_targets.len() as u64,
                    p["morph_targets"].as_u64().unwrap()
                );
                let names: Vec<&str> = m.morph_targets.iter().map(|t| t.name.as_str()).collect();
                assert_eq!(names, target_names, "{w}: target names");
                assert_eq!(m.normals.len(), m.positions.len(), "{w}: NORMAL");
                assert_eq!(m.uvs.len(), m.positions.len(), "{w}: TEXCOORD_0");
                assert_eq!(m.skin.is_some(), p["attributes"].get("JOINTS_0").is_some());
                total.0 += m.positions.len() as u64;
                total.1 += m.indices.len() as u64 / 3;
            }
        }
        assert_eq!(
            s.meshes.len(),
            seen.values().sum::<usize>(),
            "{file}: meshes"
        );
        assert_eq!(total.0, f["total_vertices"].as_u64().unwrap(), "{file}");
        assert_eq!(total.1, f["total_triangles"].as_u64().unwrap(), "{file}");
        let skins = f["skins"].as_array().unwrap();
        assert_eq!(s.skins.len(), skins.len(), "{file}: skins");
        for (a, b) in s.skins.iter().zip(skins) {
            assert_eq!(a.name, b["name"].as_str().unwrap());
            assert_eq!(a.joints.len() as u64, b["joints"].as_u64().unwrap());
        }
        let mut materials: Vec<&str> = s.materials.iter().map(|m| m.name.as_str()).collect();
        materials.sort_unstable();
        let want: Vec<&str> = f["materials"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(materials, want, "{file}: materials");
        let anims = f["animations"].as_array().unwrap();
        assert_eq!(s.animations.len(), anims.len(), "{file}: animations");
        for (a, b) in s.animations.iter().zip(anims) {
            assert_eq!(a.name, b["name"].as_str().unwrap(), "{file}");
            let d = b["duration_s"].as_f64().unwrap();
            assert!(
                (f64::from(a.duration()) - d).abs() < 1e-5,
                "{file}: {} lasts {}",
                a.name,
                a.duration()
            );
            assert_eq!(
                a.channels.len() as u64,
                b["channels"].as_u64().unwrap(),
                "{file}: {}",
                a.name
            );
            let keys = b["keyframe_counts"][0].as_u64().unwrap() as usize;
            assert!(
                a.channels.iter().all(|c| c.times.len() == keys),
                "{file}: {} keys",
                a.name
            );
            assert!(a
                .channels
                .iter()
                .all(|c| c.interpolation == retromodel::scene::Interpolation::Linear));
        }
        // Images: one 128×128 PNG each, named as the facts say.
        let images = f["images"].as_array().unwrap();
        assert_eq!(s.textures.len(), images.len(), "{file}: textures");
        for (t, i) in s.textures.iter().zip(images) {
            assert_eq!(t.path, i["name"].as_str().unwrap(), "{file}: texture name");
            let Some(retromodel::scene::TextureImage::Png(png)) = &t.image else {
                panic!("{file}: texture {:?} is no PNG", t.path);
            };
            let img = decode(png).unwrap();
            assert_eq!(
                (u64::from(img.width()), u64::from(img.height())),
                (i["width"].as_u64().unwrap(), i["height"].as_u64().unwrap())
            );
            assert_eq!(
                png.len() as u64,
                i["bytes"].as_u64().unwrap(),
                "{file}: PNG kept as is"
            );
        }
    }
}

/// A shape key as a function of a Blender point.
type Shape = dyn Fn([f32; 3]) -> [f32; 3];

/// The shape keys of `make_blender_models.py`, in Blender coordinates:
/// squash `(1.3x, 1.3y, 0.6z)`, bulge_top `k·p` with
/// `k = 1 + 0.6·max(0, z)²`, twist: turned about z by `0.9·z`. At frame 8
/// only squash has weight 1, at 20 only bulge_top, at 32 only twist (24
/// frames a second).
#[test]
fn shape_keys_pose_as_the_script_made_them() {
    let Some(dir) = gltf_dir() else { return };
    let imported = load(&dir, "blender_shapekeys.glb");
    let s = &imported.scene;
    let mut pose = Pose::new(s).unwrap();
    let base = &s.meshes[0].positions;
    let to_blender = |p: [f32; 3]| [p[0], -p[2], p[1]];
    let to_gltf = |b: [f32; 3]| [b[0], b[2], -b[1]];
    let cases: [(f32, &Shape); 3] = [
        (8.0, &|[x, y, z]| [1.3 * x, 1.3 * y, 0.6 * z]),
        (20.0, &|[x, y, z]| {
            let k = 1.0 + 0.6 * z.max(0.0).powi(2);
            [k * x, k * y, k * z]
        }),
        (32.0, &|[x, y, z]| {
            let a = 0.9 * z;
            [x * a.cos() - y * a.sin(), x * a.sin() + y * a.cos(), z]
        }),
    ];
    for (k, (frame, shape)) in cases.iter().enumerate() {
        pose.sample(s, 0, frame / 24.0);
        let mut w = [0.0f32; 3];
        w[k] = 1.0;
        for (got, want) in pose.morph_weights(0).iter().zip(w) {
            assert!(
                (got - want).abs() < 1e-6,
                "frame {frame}: weights {:?}",
                pose.morph_weights(0)
            );
        }
        for (v, (p, b)) in posed(&pose, s, 0).iter().zip(base).enumerate() {
            let want = to_gltf(shape(to_blender(*b)));
            assert!(
                close(*p, want, 2e-5),
                "frame {frame} vertex {v}: {p:?} vs {want:?}"
            );
        }
    }
    // Halfway between frames 8 and 16 squash falls from 1 to 0: the pose
    // lies between the sphere and the squashed sphere.
    pose.sample(s, 0, 12.0 / 24.0);
    let w = pose.morph_weights(0)[0];
    assert!(w > 0.05 && w < 0.95, "squash weight at frame 12: {w}");
}

/// A Blender object transform (location, XYZ Euler angles, scale) as a
/// glTF matrix: a rotation of Blender's axes into glTF's on both sides.
fn blender_matrix(loc: [f64; 3], rot: [f64; 3], scale: [f64; 3]) -> DMat4 {
    let b = DMat4::from_scale_rotation_translation(
        DVec3::from(scale),
        DQuat::from_euler(glam::EulerRot::ZYX, rot[2], rot[1], rot[0]),
        DVec3::from(loc),
    );
    let axes = DMat4::from_rotation_x(-std::f64::consts::FRAC_PI_2);
    axes * b * axes.inverse()
}

/// The object hierarchy at frames 12 and 36 (keys of the script: cube,
/// cylinder below it, cone below that), node world matrices.
#[test]
fn object_hierarchy_poses_as_the_script_keyed_it() {
    let Some(dir) = gltf_dir() else { return };
    let imported = load(&dir, "blender_objects.gltf");
    let s = &imported.scene;
    let node = |name: &str| s.nodes.iter().position(|n| n.name == name).unwrap();
    let r = f64::to_radians;
    // (frame, [(node, loc, rot, scale)]) from the script's spec.
    let keys = [
        (
            12.0,
            [
                (
                    "parent_cube",
                    [1.5, 0.0, 0.0],
                    [0.0, 0.0, r(45.0)],
                    [1.2; 3],
                ),
                (
                    "child_cylinder",
                    [0.0, 0.0, 1.3],
                    [r(30.0), 0.0, 0.0],
                    [1.0, 1.0, 1.5],
                ),
                (
                    "grandchild_cone",
                    [0.2, 0.0, 0.8],
                    [0.0, 0.0, r(120.0)],
                    [0.5; 3],
                ),
            ],
        ),
        (
            36.0,
            [
                (
                    "parent_cube",
                    [0.0, 1.5, 0.0],
                    [0.0, 0.0, r(45.0)],
                    [0.8; 3],
                ),
                (
                    "child_cylinder",
                    [0.0, 0.0, 1.3],
                    [r(-30.0), 0.0, 0.0],
                    [1.0, 1.0, 0.7],
                ),
                (
                    "grandchild_cone",
                    [-0.2, 0.0, 0.8],
                    [0.0, 0.0, r(120.0)],
                    [1.5; 3],
                ),
            ],
        ),
    ];
    let mut pose = Pose::new(s).unwrap();
    for (frame, chain) in keys {
        pose.sample(s, 0, (frame / 24.0) as f32);
        let mut world = DMat4::IDENTITY;
        for (name, loc, rot, scale) in chain {
            world *= blender_matrix(loc, rot, scale);
            let got = pose.node_matrix(node(name)).unwrap();
            for (k, (g, w)) in got.iter().zip(world.to_cols_array()).enumerate() {
                assert!(
                    (f64::from(*g) - w).abs() < 1e-5,
                    "frame {frame} {name} [{k}]: {got:?} vs {world:?}"
                );
            }
        }
    }
    // Materials as the script made them.
    let blue = s.materials.iter().find(|m| m.name == "plain_blue").unwrap();
    assert_eq!(blue.base_color, [0.15, 0.3, 0.85, 1.0]);
    assert!((blue.metallic - 0.3).abs() < 1e-6 && (blue.roughness - 0.4).abs() < 1e-6);
    assert!(blue.texture.is_none() && blue.double_sided);
    let checker = s
        .materials
        .iter()
        .find(|m| m.name == "textured_checker")
        .unwrap();
    assert!(checker.texture.is_some());
    assert!((checker.roughness - 0.6).abs() < 1e-6);
}

/// The walker at its rest pose is Blender's OBJ export of the same mesh.
#[test]
fn walker_rest_pose_is_blenders_obj() {
    let Some(dir) = gltf_dir() else { return };
    let imported = load(&dir, "blender_walker.glb");
    let s = &imported.scene;
    let pose = Pose::new(s).unwrap();
    let ours = posed(&pose, s, 0);
    let obj: Vec<[f32; 3]> = std::fs::read_to_string(dir.join("blender_walker.obj"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect();
    assert_eq!(obj.len(), 498);
    // Every posed vertex is an OBJ position and every OBJ position is a
    // posed vertex (the OBJ shares positions between UV seams).
    let tol = 2e-5;
    for (i, p) in ours.iter().enumerate() {
        assert!(
            obj.iter().any(|q| close(*p, *q, tol)),
            "vertex {i} {p:?} is no OBJ position"
        );
    }
    for (i, q) in obj.iter().enumerate() {
        assert!(
            ours.iter().any(|p| close(*p, *q, tol)),
            "OBJ position {i} {q:?} is not posed"
        );
    }
    let skin = s.meshes[0].skin.as_ref().unwrap();
    for w in &skin.weights {
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{w:?}");
    }
}

/// The walker's skin posed by an evaluation written here from the spec:
/// every channel sampled by `retromodel_testkit::glb::sample`, local TRS
/// composed down the `children` lists, vertices skinned with the
/// accessors as the testkit reader reads them.
fn reference_pose(doc: &Doc, animation: usize, t: f64) -> Vec<[f32; 3]> {
    let j = &doc.json;
    let nodes = j["nodes"].as_array().unwrap();
    let mut trs: Vec<(Vec3, Quat, Vec3)> = nodes
        .iter()
        .map(|n| {
            let f = |k: &str, d: &[f32]| -> Vec<f32> {
                n[k].as_array()
                    .map(|a| a.iter().map(|x| x.as_f64().unwrap() as f32).collect())
                    .unwrap_or_else(|| d.to_vec())
            };
            let (t, r, s) = (
                f("translation", &[0.0; 3]),
                f("rotation", &[0.0, 0.0, 0.0, 1.0]),
                f("scale", &[1.0; 3]),
            );
            (
                Vec3::new(t[0], t[1], t[2]),
                Quat::from_xyzw(r[0], r[1], r[2], r[3]),
                Vec3::new(s[0], s[1], s[2]),
            )
        })
        .collect();
    let anim = &j["animations"][animation];
    for c in anim["channels"].as_array().unwrap() {
        let sampler = &anim["samplers"][c["sampler"].as_u64().unwrap() as usize];
        let times = doc.read(sampler["input"].as_u64().unwrap() as usize);
        let values = doc.read(sampler["output"].as_u64().unwrap() as usize);
        let node = c["target"]["node"].as_u64().unwrap() as usize;
        let interp = sampler["interpolation"].as_str().unwrap_or("LINEAR");
        let v = |n| -> Vec<f32> {
            sample(&times, &values, n, interp, t)
                .iter()
                .map(|&x| x as f32)
                .collect()
        };
        match c["target"]["path"].as_str().unwrap() {
            "translation" => trs[node].0 = Vec3::from_slice(&v(3)),
            "rotation" => trs[node].1 = Quat::from_slice(&v(4)),
            "scale" => trs[node].2 = Vec3::from_slice(&v(3)),
            other => panic!("{other}"),
        }
    }
    let mut parent = vec![None; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for c in n["children"].as_array().into_iter().flatten() {
            parent[c.as_u64().unwrap() as usize] = Some(i);
        }
    }
    let world = |mut i: usize| {
        let mut m = Mat4::IDENTITY;
        loop {
            let (t, r, s) = trs[i];
            m = Mat4::from_scale_rotation_translation(s, r, t) * m;
            match parent[i] {
                Some(p) => i = p,
                None => return m,
            }
        }
    };
    let skin = &j["skins"][0];
    let joints: Vec<usize> = skin["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect();
    let ibm = doc.read(skin["inverseBindMatrices"].as_u64().unwrap() as usize);
    let matrices: Vec<Mat4> = joints
        .iter()
        .enumerate()
        .map(|(k, &n)| world(n) * Mat4::from_cols_slice(&ibm[16 * k..16 * k + 16]))
        .collect();
    let positions = doc.read3(doc.attribute(0, "POSITION"));
    let js = doc.read(doc.attribute(0, "JOINTS_0"));
    let ws = doc.read(doc.attribute(0, "WEIGHTS_0"));
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut out = Vec3::ZERO;
            for k in 0..4 {
                out += matrices[js[4 * i + k] as usize].transform_point3(Vec3::from(*p))
                    * ws[4 * i + k];
            }
            out.to_array()
        })
        .collect()
}

#[test]
fn walker_animations_pose_as_the_spec_says() {
    let Some(dir) = gltf_dir() else { return };
    let bytes = std::fs::read(dir.join("blender_walker.glb")).unwrap();
    let doc = parse_glb(&bytes);
    let imported = import(&bytes, None, &ImportOptions::default()).unwrap();
    let s = &imported.scene;
    let mut pose = Pose::new(s).unwrap();
    let extent = 1.8; // the walker is about 1.8 units tall
    for (a, anim) in s.animations.iter().enumerate() {
        let d = anim.duration();
        let mut moved = 0.0f32;
        let first = {
            pose.sample(s, a, 0.0);
            posed(&pose, s, 0)
        };
        for k in 0..=12 {
            let t = d * k as f32 / 12.0 + if k % 2 == 1 { 0.013 } else { 0.0 };
            pose.sample(s, a, t);
            let ours = posed(&pose, s, 0);
            let want = reference_pose(&doc, a, f64::from(t));
            for (v, (p, q)) in ours.iter().zip(&want).enumerate() {
                assert!(
                    close(*p, *q, 1e-5 * extent),
                    "{} at {t}: vertex {v} {p:?} vs {q:?}",
                    anim.name
                );
            }
            for (p, q) in ours.iter().zip(&first) {
                moved = moved.max((0..3).map(|c| (p[c] - q[c]).abs()).fold(0.0, f32::max));
            }
            // Both clips loop: the last key is the first.
            if k == 12 {
                for (p, q) in ours.iter().zip(&first) {
                    assert!(close(*p, *q, 1e-5), "{}: not a loop", anim.name);
                }
            }
        }
        // The walk swings the legs by decimetres, the idle breathes.
        let least = if anim.name == "walk" { 0.1 } else { 0.005 };
        assert!(
            moved > least,
            "{} moves vertices by {moved} at most",
            anim.name
        );
    }
}
