//! Every corpus MS3D through glTF and back: MS3D → `Scene::from_ms3d` →
//! GLB (our exporter) → `gltf::import` → `ms3d::compile` gives back the
//! original file's joints (names, parents, bind rotations and positions),
//! keys (times and values to float precision), weights, groups,
//! materials, comments and clips, and MilkShape's viewer (`Skeleton` +
//! `Influences`) skins the compiled model where it skins the original at
//! 20 times, within 1e-5 of the extent.
//!
//! The expected values are the original files' fields as our reader reads
//! them (checked against the corpus's independent `facts.json` by
//! `ms3d_corpus.rs`), never values made by the compiler.

#![cfg(feature = "gltf")]

use glam::{Mat4, Quat, Vec3};
use retromodel::gltf::{import, to_glb, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{Influence, Influences, Ms3d, Skeleton};
use retromodel::scene::Scene;
use retromodel_testkit::corpus::{corpus_dir, ms3d_files};

/// Corpus files that cannot come back as they were, and why.
const EXCLUDED: &[(&str, &str)] = &[];

/// The scene of `model` after a trip through our GLB.
fn through_glb(model: &Ms3d) -> Scene {
    let scene = Scene::from_ms3d(model, &Ms3dSceneOptions::default()).expect("scene");
    let glb = to_glb(&scene).expect("export");
    import(&glb, None, &ImportOptions::default())
        .expect("import")
        .scene
}

/// Differences found, as lines.
#[derive(Default)]
struct Diffs(Vec<String>);

impl Diffs {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok && self.0.len() < 20 {
            self.0.push(what());
        }
    }
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn close3(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| close(a[k], b[k], tol))
}

/// Two MilkShape Euler rotations turn alike (any equivalent angles).
fn same_rotation(a: [f32; 3], b: [f32; 3]) -> bool {
    let (p, q) = (euler_to_quat(a), euler_to_quat(b));
    p.dot(q).abs() >= 1.0 - 1e-6
}

fn name(n: &retromodel::ms3d::Name32) -> String {
    String::from_utf8_lossy(n.as_bytes()).into_owned()
}

/// MilkShape's Euler angles as a rotation: `Rz · Ry · Rx` (the SDK's
/// `AngleMatrix`), made here with glam's own rotations.
fn euler_to_quat(a: [f32; 3]) -> Quat {
    Quat::from_rotation_z(a[2]) * Quat::from_rotation_y(a[1]) * Quat::from_rotation_x(a[0])
}

/// The groups that have triangles.
fn filled(m: &Ms3d) -> Vec<&retromodel::ms3d::Group> {
    m.groups
        .iter()
        .filter(|g| !g.triangles.is_empty())
        .collect()
}

fn compare(orig: &Ms3d, out: &Ms3d, d: &mut Diffs) {
    // Joints.
    d.check(orig.joints.len() == out.joints.len(), || {
        format!("joints {} vs {}", orig.joints.len(), out.joints.len())
    });
    for (i, (a, b)) in orig.joints.iter().zip(&out.joints).enumerate() {
        d.check(name(&a.name) == name(&b.name), || {
            format!(
                "joints[{i}].name {:?} vs {:?}",
                name(&a.name),
                name(&b.name)
            )
        });
        d.check(name(&a.parent) == name(&b.parent), || {
            format!(
                "joints[{i}].parent {:?} vs {:?}",
                name(&a.parent),
                name(&b.parent)
            )
        });
        d.check(same_rotation(a.rotation, b.rotation), || {
            format!("joints[{i}].rotation {:?} vs {:?}", a.rotation, b.rotation)
        });
        d.check(close3(a.position, b.position, 1e-5), || {
            format!("joints[{i}].position {:?} vs {:?}", a.position, b.position)
        });
        d.check(
            a.rotation_keys.len() == b.rotation_keys.len()
                && a.position_keys.len() == b.position_keys.len(),
            || {
                format!(
                    "joints[{i}] keys {}+{} vs {}+{}",
                    a.rotation_keys.len(),
                    a.position_keys.len(),
                    b.rotation_keys.len(),
                    b.position_keys.len()
                )
            },
        );
        for (k, (p, q)) in a.rotation_keys.iter().zip(&b.rotation_keys).enumerate() {
            d.check(
                close(p.time, q.time, 1e-6) && same_rotation(p.value, q.value),
                || format!("joints[{i}].rotation_keys[{k}] {p:?} vs {q:?}"),
            );
        }
        for (k, (p, q)) in a.position_keys.iter().zip(&b.position_keys).enumerate() {
            d.check(
                close(p.time, q.time, 1e-6) && close3(p.value, q.value, 1e-5),
                || format!("joints[{i}].position_keys[{k}] {p:?} vs {q:?}"),
            );
        }
    }
    // Timeline.
    d.check(orig.fps == out.fps, || {
        format!("fps {} vs {}", orig.fps, out.fps)
    });
    d.check(orig.total_frames == out.total_frames, || {
        format!("total_frames {} vs {}", orig.total_frames, out.total_frames)
    });
    // Groups, triangles, corners, weights.
    // A group without triangles has no glTF primitive: it is left out.
    let groups = filled(orig);
    d.check(groups.len() == out.groups.len(), || {
        format!("groups {} vs {}", groups.len(), out.groups.len())
    });
    let inf_a = Influences::new(orig);
    let inf_b = Influences::new(out);
    for (g, (a, b)) in groups.iter().zip(&out.groups).enumerate() {
        d.check(name(&a.name) == name(&b.name), || {
            format!(
                "groups[{g}].name {:?} vs {:?}",
                name(&a.name),
                name(&b.name)
            )
        });
        // A group naming a material that does not exist has none.
        let material = if (0..orig.materials.len() as i32).contains(&i32::from(a.material)) {
            a.material
        } else {
            -1
        };
        d.check(material == b.material, || {
            format!("groups[{g}].material {} vs {}", a.material, b.material)
        });
        d.check(a.triangles.len() == b.triangles.len(), || {
            format!(
                "groups[{g}] triangles {} vs {}",
                a.triangles.len(),
                b.triangles.len()
            )
        });
        for (&ta, &tb) in a.triangles.iter().zip(&b.triangles) {
            let (ta, tb) = (&orig.triangles[ta as usize], &out.triangles[tb as usize]);
            for c in 0..3 {
                let (va, vb) = (ta.vertices[c] as usize, tb.vertices[c] as usize);
                d.check(
                    close3(orig.vertices[va].position, out.vertices[vb].position, 1e-6),
                    || format!("groups[{g}] corner position {va} vs {vb}"),
                );
                // A zero normal (no direction) cannot be written to glTF,
                // whose normals have unit length: any unit normal will do.
                let zero = ta.normals[c] == [0.0; 3];
                let unit = (Vec3::from(tb.normals[c]).length() - 1.0).abs() < 1e-5;
                d.check(
                    close3(ta.normals[c], tb.normals[c], 1e-5) || zero && unit,
                    || {
                        format!(
                            "groups[{g}] corner normal {:?} vs {:?}",
                            ta.normals[c], tb.normals[c]
                        )
                    },
                );
                d.check(
                    close(ta.s[c], tb.s[c], 1e-6) && close(ta.t[c], tb.t[c], 1e-6),
                    || format!("groups[{g}] corner uv"),
                );
                let (ia, ib): (&Influence, &Influence) = (&inf_a.vertices[va], &inf_b.vertices[vb]);
                let same = ia.count == ib.count
                    && (0..usize::from(ia.count))
                        .all(|k| ia.joints[k] == ib.joints[k] && ia.weights[k] == ib.weights[k]);
                d.check(same, || {
                    format!("groups[{g}] vertex {va} influence {ia:?} vs {ib:?}")
                });
            }
        }
    }
    // Materials.
    d.check(orig.materials.len() == out.materials.len(), || {
        format!(
            "materials {} vs {}",
            orig.materials.len(),
            out.materials.len()
        )
    });
    for (i, (a, b)) in orig.materials.iter().zip(&out.materials).enumerate() {
        let colours =
            |m: &retromodel::ms3d::Material| [m.ambient, m.diffuse, m.specular, m.emissive];
        d.check(colours(a) == colours(b), || {
            format!(
                "materials[{i}] colours {:?} vs {:?}",
                colours(a),
                colours(b)
            )
        });
        d.check(
            a.shininess == b.shininess && a.transparency == b.transparency,
            || format!("materials[{i}] shininess/transparency"),
        );
        d.check(a.mode == b.mode, || {
            format!("materials[{i}].mode {} vs {}", a.mode, b.mode)
        });
        d.check(
            a.texture.as_bytes() == b.texture.as_bytes()
                && a.alphamap.as_bytes() == b.alphamap.as_bytes(),
            || format!("materials[{i}] texture {:?} vs {:?}", a.texture, b.texture),
        );
    }
    // Comments and clips.
    // No comments section is no comments (MilkShape writes the section
    // when it writes any later 1.8 extra).
    let comments = |m: &Ms3d| {
        m.extras.comments.clone().filter(|c| {
            !(c.groups.is_empty()
                && c.materials.is_empty()
                && c.joints.is_empty()
                && matches!(c.model, retromodel::ms3d::ModelComment::None(_)))
        })
    };
    d.check(comments(orig) == comments(out), || {
        format!("comments {:?} vs {:?}", comments(orig), comments(out))
    });
    d.check(orig.clips() == out.clips(), || {
        format!("clips {:?} vs {:?}", orig.clips(), out.clips())
    });
}

/// The largest distance between corresponding corners as MilkShape's
/// viewer skins both models, at 20 times over the timeline, over the
/// original's extent.
fn skinned_error(orig: &Ms3d, out: &Ms3d) -> f32 {
    let (lo, hi) = orig.vertices.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(v.position.into()), hi.max(v.position.into())),
    );
    let extent = (hi - lo).length().max(f32::MIN_POSITIVE);
    let pose = |m: &Ms3d, seconds: f32| -> Vec<[f32; 3]> {
        let skeleton = Skeleton::new(m).expect("skeleton");
        let mut mats = vec![Mat4::IDENTITY; skeleton.joint_count()];
        skeleton.pose_at_time(seconds, &mut mats);
        skeleton.skinning_matrices(&mut mats);
        let mut out = vec![[0.0; 3]; m.vertices.len()];
        Influences::new(m).skin_positions(m, &mats, &mut out);
        out
    };
    let length = orig.total_frames.max(1) as f32 / orig.fps.max(1.0);
    let mut worst = 0.0f32;
    for i in 0..20 {
        let t = length * i as f32 / 19.0;
        let (pa, pb) = (pose(orig, t), pose(out, t));
        for (ga, gb) in filled(orig).iter().zip(&out.groups) {
            for (&ta, &tb) in ga.triangles.iter().zip(&gb.triangles) {
                let (ta, tb) = (&orig.triangles[ta as usize], &out.triangles[tb as usize]);
                for c in 0..3 {
                    let a = Vec3::from(pa[ta.vertices[c] as usize]);
                    let b = Vec3::from(pb[tb.vertices[c] as usize]);
                    worst = worst.max((a - b).length() / extent);
                }
            }
        }
    }
    worst
}

#[test]
fn corpus_ms3d_through_glb_compiles_back() {
    let Some(dir) = corpus_dir() else { return };
    let files = ms3d_files(&dir);
    assert!(files.len() >= 10, "corpus MS3D files: {}", files.len());
    let mut failures = Vec::new();
    for (key, path) in files {
        let file = key.rsplit('/').next().unwrap_or(&key).to_string();
        if let Some((_, why)) = EXCLUDED.iter().find(|(f, _)| *f == file) {
            eprintln!("{file}: excluded: {why}");
            continue;
        }
        let orig = Ms3d::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let scene = through_glb(&orig);
        let compiled = match compile(&scene, &Ms3dCompileOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{file}: compile: {e}"));
                continue;
            }
        };
        let out = &compiled.model;
        let mut d = Diffs::default();
        compare(&orig, out, &mut d);
        let err = skinned_error(&orig, out);
        d.check(err <= 1e-5, || {
            format!("skinned error {err:.3e} of the extent")
        });
        // What we write, MilkShape and our reader take.
        d.check(out.validate_for_milkshape().is_empty(), || {
            format!("milkshape: {:?}", out.validate_for_milkshape())
        });
        let bytes = out.to_bytes().unwrap();
        let back = Ms3d::from_bytes(&bytes).unwrap();
        d.check(back.validate().is_empty(), || {
            format!("validate: {:?}", back.validate())
        });
        d.check(&back == out, || "read back differs".to_string());
        for line in d.0 {
            failures.push(format!("{file}: {line}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn equivalent_euler_angles_are_the_same_rotation() {
    use std::f32::consts::PI;
    // (x, y, z) and (x + π, π − y, z + π) are one rotation.
    let a = [0.3f32, -0.2, 1.1];
    assert!(same_rotation(a, [a[0] + PI, PI - a[1], a[2] + PI]));
    assert!(!same_rotation(a, [a[0], a[1], a[2] + 0.01]));
}
