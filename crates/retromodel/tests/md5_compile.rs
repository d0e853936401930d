//! The MD5 compiler against what we did not write: the MD5 we write is
//! evaluated by the testkit's own MD5 evaluator (`md5_builder`: its own
//! tokenizer, f64, nothing of the library's md5 module) and compared,
//! frame by frame, with the source scene posed by `scene::Pose` at the
//! time the MD2 compile gives frame `k` (`md2::compile::frame_times`), and
//! with the MD2 compiled from the same scene (decoded here from its bytes
//! and grids): within 1e-4 of the model's extent of the scene, within half
//! the MD2's grid step (plus that) of the MD2.
//!
//! Sources: the corpus's skinned Blender walker (`gltf/`, with and without
//! the player table), a corpus MS3D with joints (`glscene_Woman4`), a
//! scene made here with six weights per vertex and an animated joint
//! scale (`.md5scale`), and the testkit's MD5 rig (md5mesh → scene →
//! md5mesh, compared MD5 to MD5). `validate` finds no problem in what we
//! write; shape-key animation is refused.

#![cfg(feature = "gltf")]

use retromodel::gltf::{import, ImportOptions};
use retromodel::md2::compile::{
    compile as md2_compile, frame_times, CompileOptions, Compiled, Engine, SkinFormat, SkinOptions,
};
use retromodel::md5::compile::{
    compile, FrameTime, Md5CompileOptions, Md5CompileWarning, Md5Compiled,
};
use retromodel::md5::Md5Model;
use retromodel::ms3d::{Ms3d, Ms3dSceneOptions};
use retromodel::scene::{
    Animation, Channel, InfluenceSet, Interpolation, Mesh, Node, Pose, Scene, Skin, SkinWeights,
    Target,
};
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::md5_builder as md5eval;

type V = [f64; 3];
type Table = Vec<(bool, Vec<(usize, f64)>)>;

/// Scene axes to Quake's (x forward, y left, z up), from the formats'
/// descriptions: scene `(x, y, z)` is Quake `(z, x, y)`.
fn quake(p: [f32; 3], scale: f64) -> V {
    [
        p[2] as f64 * scale,
        p[0] as f64 * scale,
        p[1] as f64 * scale,
    ]
}

/// The `.md5scale` JSON as the evaluator's table, joints found by name in
/// the anim text's hierarchy (read here: quoted names, four tokens each).
fn scale_table(anim: &str, json: &[u8]) -> Table {
    let start = anim.find("hierarchy {").unwrap() + "hierarchy {".len();
    let end = start + anim[start..].find('}').unwrap();
    let names: Vec<&str> = anim[start..end]
        .lines()
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    let value: serde_json::Value = serde_json::from_slice(json).unwrap();
    names
        .iter()
        .map(|n| match value.get(*n) {
            None => (false, vec![]),
            Some(e) => (
                e["scale_positions"].as_bool().unwrap(),
                e.as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, _)| *k != "scale_positions")
                    .map(|(k, v)| (k.parse().unwrap(), v.as_f64().unwrap()))
                    .collect(),
            ),
        })
        .collect()
}

struct Written {
    mesh: String,
    anim: String,
    table: Option<Table>,
}

fn written(out: &Md5Compiled) -> Written {
    let a = &out.model.animations[0];
    let anim = a.anim.to_text();
    let table = a.scale.as_ref().map(|s| scale_table(&anim, &s.to_bytes()));
    Written {
        mesh: out.model.mesh.to_text(),
        anim,
        table,
    }
}

/// Compiles `scene` to an MD2 with `options` and to the MD5 on the MD2's
/// frames and scale.
fn both(scene: &Scene, options: &CompileOptions) -> (Compiled, Md5Compiled, Vec<FrameTime>) {
    let md2 = md2_compile(scene, options).unwrap();
    let frames: Vec<FrameTime> = frame_times(scene, options)
        .unwrap()
        .into_iter()
        .map(|(animation, seconds)| FrameTime { animation, seconds })
        .collect();
    assert_eq!(frames.len(), md2.model.frames.len());
    let md5 = compile(
        scene,
        &Md5CompileOptions {
            frames: frames.clone(),
            scale: md2.report.scale,
            fps: options.fps,
            ..Md5CompileOptions::default()
        },
    )
    .unwrap();
    (md2, md5, frames)
}

/// The worst distance, over every frame and vertex, between the MD5 (by
/// the independent evaluator) and the scene posed at the frame's time, as
/// a fraction of the scene's extent; and the worst MD2 disagreement in
/// half grid steps beyond that tolerance (≤ 1 passes).
fn measure(scene: &Scene, md2: &Compiled, md5: &Md5Compiled, frames: &[FrameTime]) -> (f64, f64) {
    let w = written(md5);
    let scale = f64::from(md2.report.scale);
    let mut pose = Pose::new(scene).unwrap();
    let mut posed_scene: Vec<Vec<Vec<V>>> = Vec::new();
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for f in frames {
        pose.sample(scene, f.animation.unwrap_or(usize::MAX), f.seconds);
        let mut meshes = Vec::new();
        for (m, mesh) in scene.meshes.iter().enumerate() {
            let mut p = vec![[0.0; 3]; mesh.positions.len()];
            let mut n = vec![[0.0; 3]; mesh.positions.len()];
            pose.mesh_vertices(scene, m, &mut p, &mut n);
            let q: Vec<V> = p.iter().map(|&p| quake(p, scale)).collect();
            for v in &q {
                for c in 0..3 {
                    lo[c] = lo[c].min(v[c]);
                    hi[c] = hi[c].max(v[c]);
                }
            }
            meshes.push(q);
        }
        posed_scene.push(meshes);
    }
    let extent = (0..3).map(|c| hi[c] - lo[c]).fold(0.0, f64::max);
    let (mut worst, mut worst_md2) = (0.0f64, 0.0f64);
    for (k, scene_frame) in posed_scene.iter().enumerate() {
        let ours = md5eval::reference_pose(&w.mesh, &w.anim, w.table.as_deref(), k);
        let frame = &md2.model.frames[k];
        for (m, verts) in scene_frame.iter().enumerate() {
            let (md5_mesh, first) = md5.mesh_places[m];
            for (v, p) in verts.iter().enumerate() {
                let q = ours[md5_mesh][first + v];
                let d = (0..3).map(|c| (p[c] - q[c]).abs()).fold(0.0, f64::max);
                worst = worst.max(d / extent);
                if let Some(i) = md2.vertex_map[m][v] {
                    let b = frame.vertices[i as usize].position;
                    for c in 0..3 {
                        let decoded =
                            b[c] as f64 * frame.scale[c] as f64 + frame.translate[c] as f64;
                        let allowed = frame.scale[c] as f64 / 2.0 + 1e-4 * extent;
                        worst_md2 = worst_md2.max((decoded - q[c]).abs() / allowed);
                    }
                }
            }
        }
    }
    eprintln!(
        "{} frames: MD5 vs scene {worst:.2e} of the extent {extent:.2}; MD5 vs MD2 {worst_md2:.3} of half a step + 1e-4",
        frames.len()
    );
    (worst, worst_md2)
}

fn no_problems(out: &Md5Compiled) {
    problems_but(out, &[]);
}

/// `validate` finds nothing in what we wrote but problems whose message
/// holds one of `allowed`.
fn problems_but(out: &Md5Compiled, allowed: &[&str]) {
    // What we wrote, read back, as `validate` sees it.
    let mut model = Md5Model::from_mesh_bytes(&out.model.mesh.to_bytes()).unwrap();
    let a = &out.model.animations[0];
    model
        .add_animation(
            &a.name,
            &a.anim.to_bytes(),
            a.scale.as_ref().map(|s| s.to_bytes()).as_deref(),
        )
        .unwrap();
    let problems: Vec<_> = model
        .validate()
        .into_iter()
        .filter(|p| !allowed.iter().any(|a| p.message.contains(a)))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Skins as PNG (no palette needed).
fn png() -> SkinOptions {
    SkinOptions {
        format: SkinFormat::Png,
        ..SkinOptions::default()
    }
}

fn walker() -> Option<Scene> {
    let dir = corpus_dir()?;
    let glb = std::fs::read(dir.join("gltf/blender_walker.glb")).unwrap();
    Some(import(&glb, None, &ImportOptions::default()).unwrap().scene)
}

#[test]
fn walker_md5_poses_as_the_scene_and_the_md2_at_every_frame() {
    let Some(scene) = walker() else { return };
    let options = CompileOptions {
        fit_height: Some(56.0),
        skin: png(),
        ..CompileOptions::default()
    };
    let (md2, md5, frames) = both(&scene, &options);
    // The walker: 11 joints, 798 vertices, 972 triangles (README).
    assert_eq!(md5.model.mesh.joints.len(), 11);
    let verts: usize = md5.model.mesh.meshes.iter().map(|m| m.vertices.len()).sum();
    let tris: usize = md5
        .model
        .mesh
        .meshes
        .iter()
        .map(|m| m.triangles.len())
        .sum();
    assert_eq!((verts, tris), (798, 972));
    let (worst, worst_md2) = measure(&scene, &md2, &md5, &frames);
    assert!(worst <= 1e-4, "MD5 vs scene: {worst:e} of the extent");
    assert!(worst_md2 <= 1.0, "MD5 vs MD2: {worst_md2} of the allowance");
    assert!(md5.warnings.is_empty(), "{:?}", md5.warnings);
    no_problems(&md5);
}

#[test]
fn walker_player_table_frames_are_the_md2s() {
    let Some(scene) = walker() else { return };
    let options = CompileOptions {
        player: true,
        fit_height: Some(56.0),
        skin: png(),
        ..CompileOptions::default()
    };
    let (md2, md5, frames) = both(&scene, &options);
    assert_eq!(md5.model.animations[0].anim.num_frames, 198);
    let (worst, worst_md2) = measure(&scene, &md2, &md5, &frames);
    assert!(worst <= 1e-4, "MD5 vs scene: {worst:e} of the extent");
    assert!(worst_md2 <= 1.0, "MD5 vs MD2: {worst_md2} of the allowance");
}

#[test]
fn woman4_md5_poses_as_the_scene_and_the_md2() {
    let Some(dir) = corpus_dir() else { return };
    let bytes = std::fs::read(dir.join("ms3d/glscene_Woman4.ms3d")).unwrap();
    let model = Ms3d::from_bytes(&bytes).unwrap();
    let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).unwrap();
    // Its one timeline is 1,423 frames at 10 fps; 2 fps keeps the MD2
    // within Quake II's 512.
    let options = CompileOptions {
        fps: 2.0,
        skin: png(),
        engine: Engine::Q2pro,
        ..CompileOptions::default()
    };
    let (md2, md5, frames) = both(&scene, &options);
    // facts.json: Woman4 has 31 joints; the scene's skin adds the two
    // helpers `Scene::from_ms3d` makes (`static`, `weight_remainder`).
    assert_eq!(md5.model.mesh.joints.len(), scene.skins[0].joints.len());
    let own = md5
        .model
        .mesh
        .joints
        .iter()
        .filter(|j| j.name != "static" && j.name != "weight_remainder")
        .count();
    assert_eq!(own, 31);
    let (worst, worst_md2) = measure(&scene, &md2, &md5, &frames);
    assert!(worst <= 1e-4, "MD5 vs scene: {worst:e} of the extent");
    assert!(worst_md2 <= 1.0, "MD5 vs MD2: {worst_md2} of the allowance");
    // The scene's `weight_remainder` joint is scaled to 0 (it hides the
    // share of a vertex MilkShape's percentages leave): the MD5 holds its
    // points at the joint (exact at every frame, no scale of 0), so in the
    // bind pose those points are not the vertex: validate says so.
    problems_but(&md5, &["apart from their sum"]);
}

/// A strip skinned to six joints, every vertex with six non-zero weights,
/// one joint's scale animated (uniform) and one joint translated.
fn six_weight_scene() -> Scene {
    let joints = 6;
    let mut nodes = vec![Node {
        name: "root".into(),
        ..Node::default()
    }];
    for k in 0..joints {
        nodes.push(Node {
            name: format!("j{k}"),
            parent: Some(0),
            translation: [k as f32, 0.5, 0.0],
            ..Node::default()
        });
    }
    let skin = Skin {
        name: "skin".into(),
        joints: (1..=joints).collect(),
        inverse_bind_matrices: (0..joints)
            .map(|k| {
                let mut m = [0.0f32; 16];
                m[0] = 1.0;
                m[5] = 1.0;
                m[10] = 1.0;
                m[15] = 1.0;
                m[12] = -(k as f32);
                m[13] = -0.5;
                m
            })
            .collect(),
        extras: serde_json::Value::Null,
    };
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for i in 0..8 {
        positions.push([i as f32 * 0.7, 0.0, 0.0]);
        positions.push([i as f32 * 0.7, 1.0, 0.3]);
        if i > 0 {
            let b = 2 * i as u32;
            indices.extend([b - 2, b - 1, b, b, b - 1, b + 1]);
        }
    }
    let n = positions.len();
    let weight = |v: usize, k: usize| ((k + v) % joints + 1) as f32 / 21.0;
    let set = |ks: [usize; 4], count: usize| InfluenceSet {
        joints: vec![ks.map(|k| k as u16); count],
        weights: (0..count)
            .map(|v| ks.map(|k| if k < joints { weight(v, k) } else { 0.0 }))
            .collect(),
    };
    let first = set([0, 1, 2, 3], n);
    let second = set([4, 5, 6, 6], n);
    let mesh = Mesh {
        name: "strip".into(),
        uvs: vec![[0.0, 0.0]; n],
        normals: vec![[0.0, 0.0, 1.0]; n],
        positions,
        indices,
        skin: Some(SkinWeights {
            skin: 0,
            joints: first.joints,
            weights: first.weights,
            more: vec![InfluenceSet {
                joints: second.joints.iter().map(|j| [j[0], j[1], 0, 0]).collect(),
                weights: second
                    .weights
                    .iter()
                    .map(|w| [w[0], w[1], 0.0, 0.0])
                    .collect(),
            }],
        }),
        ..Mesh::default()
    };
    let times = vec![0.0, 0.5, 1.0];
    let animation = Animation {
        name: "bend".into(),
        channels: vec![
            Channel {
                target: Target::Scale { node: 3 },
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: vec![1.0, 1.0, 1.0, 1.6, 1.6, 1.6, 0.5, 0.5, 0.5],
            },
            Channel {
                target: Target::Rotation { node: 5 },
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: vec![
                    0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.8660254, 0.0, 0.0, 1.0, 0.0,
                ],
            },
            Channel {
                target: Target::Translation { node: 0 },
                interpolation: Interpolation::Linear,
                times,
                values: vec![0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 0.0, -1.0],
            },
        ],
        extras: serde_json::Value::Null,
    };
    Scene {
        name: "six".into(),
        meshes: vec![mesh],
        nodes,
        skins: vec![skin],
        animations: vec![animation],
        ..Scene::default()
    }
}

#[test]
fn six_weights_per_vertex_and_an_animated_scale_are_kept() {
    let scene = six_weight_scene();
    assert_eq!(
        scene.meshes[0].skin.as_ref().unwrap().max_influences(),
        6,
        "the source has six influences per vertex"
    );
    let (md2, md5, frames) = both(&scene, &CompileOptions::default());
    let mesh = &md5.model.mesh.meshes[0];
    assert!(mesh.vertices.iter().all(|v| v.weight_count == 6));
    let w = written(&md5);
    let table = w
        .table
        .as_deref()
        .expect("joint j2's scale animates: a .md5scale");
    assert!(table[md5
        .model
        .mesh
        .joints
        .iter()
        .position(|j| j.name == "j2")
        .unwrap()]
    .1
    .iter()
    .any(|(_, s)| (s - 1.6).abs() < 1e-6));
    let (worst, worst_md2) = measure(&scene, &md2, &md5, &frames);
    assert!(worst <= 1e-4, "MD5 vs scene: {worst:e} of the extent");
    assert!(worst_md2 <= 1.0, "MD5 vs MD2: {worst_md2} of the allowance");
    no_problems(&md5);
}

#[test]
fn md5_to_scene_to_md5_poses_as_the_original() {
    let mesh = md5eval::rig_md5mesh();
    let anim = md5eval::rig_md5anim();
    let scale = md5eval::rig_md5scale();
    let mut model = Md5Model::from_mesh_bytes(mesh.as_bytes()).unwrap();
    model
        .add_animation("rig", anim.as_bytes(), Some(scale.as_bytes()))
        .unwrap();
    let scene = model.to_scene("rig").unwrap();
    let n = model.animations[0].anim.num_frames;
    let fps = model.animations[0].anim.frame_rate;
    let frames: Vec<FrameTime> = (0..n)
        .map(|k| FrameTime {
            animation: Some(0),
            seconds: k as f32 / fps,
        })
        .collect();
    let out = compile(
        &scene,
        &Md5CompileOptions {
            frames,
            fps,
            ..Md5CompileOptions::default()
        },
    )
    .unwrap();
    let w = written(&out);
    let table = md5eval::rig_scale_table();
    // Extent of the original's bind pose.
    let bind = md5eval::reference_bind(&mesh);
    let all: Vec<V> = bind.iter().flatten().copied().collect();
    let extent = (0..3)
        .map(|c| {
            let (lo, hi) = all
                .iter()
                .fold((f64::MAX, f64::MIN), |(l, h), p| (l.min(p[c]), h.max(p[c])));
            hi - lo
        })
        .fold(0.0, f64::max);
    for k in 0..n {
        let original = md5eval::reference_pose(&mesh, &anim, Some(&table), k);
        let ours = md5eval::reference_pose(&w.mesh, &w.anim, w.table.as_deref(), k);
        for (m, verts) in original.iter().enumerate() {
            let (md5_mesh, first) = out.mesh_places[m];
            for (v, p) in verts.iter().enumerate() {
                let q = ours[md5_mesh][first + v];
                let d = (0..3).map(|c| (p[c] - q[c]).abs()).fold(0.0, f64::max);
                assert!(
                    d <= 1e-4 * extent,
                    "frame {k} mesh {m} vertex {v}: {p:?} vs {q:?}"
                );
            }
        }
    }
    no_problems(&out);
}

#[test]
fn shape_key_animation_is_refused() {
    let Some(dir) = corpus_dir() else { return };
    let glb = std::fs::read(dir.join("gltf/blender_shapekeys.glb")).unwrap();
    let scene = import(&glb, None, &ImportOptions::default()).unwrap().scene;
    let err = compile(&scene, &Md5CompileOptions::default()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("morph targets"), "{text}");
    assert!(!text.contains("::"), "{text}");
}

/// `assimp info --raw` of what we wrote (`tris.md5mesh` with
/// `tris.md5anim` beside it, which assimp finds by the mesh's name): its
/// counts are ours.
/// Skipped when assimp is not installed (a failure under `CI`).
#[test]
fn assimp_reads_what_we_write() {
    let Some(scene) = walker() else { return };
    let options = CompileOptions {
        fit_height: Some(56.0),
        skin: png(),
        ..CompileOptions::default()
    };
    let (_, md5, _) = both(&scene, &options);
    let dir = std::env::temp_dir().join(format!("retromodel-md5-assimp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mesh_path = dir.join("tris.md5mesh");
    std::fs::write(&mesh_path, md5.model.mesh.to_bytes()).unwrap();
    std::fs::write(
        dir.join("tris.md5anim"),
        md5.model.animations[0].anim.to_bytes(),
    )
    .unwrap();
    let out = match std::process::Command::new("assimp")
        .arg("info")
        .arg(&mesh_path)
        .arg("--raw")
        .output()
    {
        Ok(out) => out,
        Err(_) => {
            assert!(std::env::var_os("CI").is_none(), "CI installs assimp-utils");
            eprintln!("note: assimp not installed (assimp-utils); skipping");
            return;
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let info = String::from_utf8_lossy(&out.stdout);
    let field = |key: &str| -> usize {
        info.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in {info}"))
            .trim()
            .parse()
            .unwrap()
    };
    let mesh = &md5.model.mesh;
    let verts: usize = mesh.meshes.iter().map(|m| m.vertices.len()).sum();
    let tris: usize = mesh.meshes.iter().map(|m| m.triangles.len()).sum();
    let used: std::collections::BTreeSet<usize> = mesh
        .meshes
        .iter()
        .flat_map(|m| m.weights.iter().map(|w| w.joint))
        .collect();
    assert_eq!(field("Meshes:"), mesh.meshes.len());
    // Raw (no post-processing), assimp's MD5 importer gives every corner
    // of a triangle its own vertex (`MD5Importer::MakeDataUnique`).
    assert_eq!(field("Vertices:"), 3 * tris);
    assert!(verts <= 3 * tris);
    assert_eq!(field("Faces:"), tris);
    assert_eq!(field("Bones:"), used.len());
    assert_eq!(field("Animations:"), 1);
    assert_eq!(field("Animation Channels:"), mesh.joints.len());
}

/// A joint scaled unevenly cannot be an MD5 joint: the compile says so,
/// and the error it reports is the error the independent evaluation
/// finds (no less than it, and not wildly more).
#[test]
fn uneven_scale_is_reported_with_its_worst_error() {
    let mut scene = six_weight_scene();
    scene.animations[0].channels[0].values = vec![1.0, 1.0, 1.0, 1.6, 1.0, 0.7, 1.0, 1.0, 1.0];
    let frames: Vec<FrameTime> = [0.0, 0.25, 0.5, 0.75, 1.0]
        .iter()
        .map(|&seconds| FrameTime {
            animation: Some(0),
            seconds,
        })
        .collect();
    let out = compile(
        &scene,
        &Md5CompileOptions {
            frames: frames.clone(),
            ..Md5CompileOptions::default()
        },
    )
    .unwrap();
    let reported: Vec<f32> = out
        .warnings
        .iter()
        .filter_map(|w| match w {
            Md5CompileWarning::NotUniform { joint, error, .. } if joint == "j2" => Some(*error),
            _ => None,
        })
        .collect();
    assert_eq!(reported.len(), 1, "{:?}", out.warnings);
    // The largest distance between a weight's point as the MD5 places it
    // and as the scene's joint does bounds the vertex error (biases sum
    // to 1): the evaluated vertex error is at most the reported one.
    let w = written(&out);
    let mut pose = Pose::new(&scene).unwrap();
    let mut worst = 0.0f64;
    for (k, f) in frames.iter().enumerate() {
        pose.sample(&scene, 0, f.seconds);
        let mut p = vec![[0.0; 3]; scene.meshes[0].positions.len()];
        let mut n = p.clone();
        pose.mesh_vertices(&scene, 0, &mut p, &mut n);
        let ours = md5eval::reference_pose(&w.mesh, &w.anim, w.table.as_deref(), k);
        for (v, p) in p.iter().enumerate() {
            let s = quake(*p, 1.0);
            let q = ours[0][v];
            let d = ((0..3).map(|c| (s[c] - q[c]).powi(2)).sum::<f64>()).sqrt();
            worst = worst.max(d);
        }
    }
    assert!(worst > 1e-3, "the uneven scale moves vertices ({worst})");
    assert!(
        worst <= f64::from(reported[0]) + 1e-4,
        "{worst} > {}",
        reported[0]
    );
    assert!(
        f64::from(reported[0]) < 10.0 * worst + 1e-3,
        "{} vs {worst}",
        reported[0]
    );
}

/// An inverse bind matrix that flattens space (as in the fuzz finding
/// `tests/regression/md5_compile_singular_inverse_bind_matrices.glb`:
/// every column nearly the same, f32 rounding its only rank) is the
/// inverse of no bind placement. Inverting it anyway put the joint tens of
/// millions of units away, where an md5mesh's 32-bit numbers cannot put
/// its weights back on their vertex (validate found them up to 0.6 units
/// apart). The compile refuses it, naming the matrix and the joint, in
/// words without the library's names; an exactly singular one (all 1.0)
/// too.
#[test]
fn a_singular_inverse_bind_matrix_is_refused_naming_the_joint() {
    // The finding's first matrix, column after column.
    let noisy: [f32; 16] = [
        -1.023_402_5e-8,
        2.098_118_3e-8,
        -0.124_674_83,
        0.992_197_7,
        2.085_708e-9,
        2.074_652_3e-8,
        -0.124_674_88,
        0.992_197_75,
        -1.001_403_4e-8,
        1.652_261_4e-8,
        -0.124_674_86,
        0.992_197_75,
        -1.926_850_1e-8,
        2.074_652_3e-8,
        -0.124_674_87,
        0.992_197_75,
    ];
    for (what, ibm) in [("nearly singular", noisy), ("all ones", [1.0f32; 16])] {
        let mut scene = six_weight_scene();
        scene.skins[0].inverse_bind_matrices[2] = ibm;
        let err = compile(&scene, &Md5CompileOptions::default())
            .map(|out| problems_but(&out, &[]))
            .expect_err(what);
        let text = err.to_string();
        assert!(
            text.contains("skins[0].inverseBindMatrices[2]") && text.contains("\"j2\""),
            "{what}: {text}"
        );
        assert!(text.contains("singular"), "{what}: {text}");
        assert!(
            !text.contains("::") && !text.contains("_"),
            "{what}: {text}"
        );
    }
}

/// A sheared (but invertible) inverse bind matrix, with a fourth row that
/// is not `[0, 0, 0, 1]` besides: the joint's bind placement is a rotation
/// and a position, so the weights are written against exactly what the
/// file holds and every vertex's weights meet at the vertex.
#[test]
fn a_sheared_inverse_bind_matrix_still_binds_every_vertex_exactly() {
    let mut scene = six_weight_scene();
    let m = &mut scene.skins[0].inverse_bind_matrices[2];
    m[4] = 0.7; // x gains 0.7·y
    m[9] = -0.4; // y gains -0.4·z
    m[0] = 2.5;
    m[3] = 0.25; // fourth row
    let out = compile(&scene, &Md5CompileOptions::default()).unwrap();
    assert!(
        out.warnings
            .iter()
            .any(|w| matches!(w, Md5CompileWarning::NotUniform { joint, .. } if joint == "j2")),
        "{:?}",
        out.warnings
    );
    problems_but(&out, &[]);
}

/// Skinned vertices with no weight on any joint (all four weights 0, or
/// weights on joints the skin lacks; a fuzz finding, and what a careless
/// export writes) were written with no weight at all, which `validate`
/// refuses ("no joint places it"). glTF's skinning puts such a vertex at
/// the origin (the sum of no matrices; three.js alike), and so does the
/// MD2 bake: the MD5 holds it there with an `origin` joint, at every frame
/// (the independent evaluator against the scene posed at each frame), and
/// says so.
#[test]
fn a_vertex_with_no_weight_stays_at_the_origin_as_gltf_poses_it() {
    let mut scene = six_weight_scene();
    let skin = scene.meshes[0].skin.as_mut().unwrap();
    skin.weights[0] = [0.0; 4];
    for set in &mut skin.more {
        set.weights[0] = [0.0; 4];
    }
    skin.joints[1] = [99; 4];
    for set in &mut skin.more {
        set.joints[1] = [99; 4];
    }
    let (md2, md5, frames) = both(&scene, &CompileOptions::default());
    assert!(
        md5.warnings
            .iter()
            .any(|w| matches!(w, Md5CompileWarning::Unweighted { vertices: 2 })),
        "{:?}",
        md5.warnings
    );
    let w = written(&md5);
    for k in 0..frames.len() {
        let ours = md5eval::reference_pose(&w.mesh, &w.anim, w.table.as_deref(), k);
        let (m, first) = md5.mesh_places[0];
        for v in [first, first + 1] {
            assert!(
                ours[m][v].iter().all(|c| c.abs() < 1e-6),
                "frame {k}: vertex {v} at {:?}",
                ours[m][v]
            );
        }
    }
    let (worst, worst_md2) = measure(&scene, &md2, &md5, &frames);
    assert!(worst <= 1e-4, "MD5 vs scene: {worst:e} of the extent");
    assert!(worst_md2 <= 1.0, "MD5 vs MD2: {worst_md2} of the allowance");
    no_problems(&md5);
}
