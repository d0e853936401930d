//! MS3D → glTF: the GLB's joint nodes evaluated here with the glTF
//! spec's interpolation (slerp, cubic Hermite spline with tangents scaled
//! by the interval) must give the joint matrices of MilkShape's viewer
//! (`Skeleton::pose_at_time`).

#![cfg(all(feature = "gltf", feature = "textures"))]

use glam::{DMat4, DQuat, DVec3, Mat4};
use retromodel::gltf::to_glb;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{Clip, Ms3d, Skeleton};
use retromodel::scene::Scene;
use retromodel_testkit::corpus::{corpus_dir, ms3d_files};
use retromodel_testkit::glb::{parse_glb, sample, Doc};
use retromodel_testkit::ms3d_builder::{field, full_spec, SJoint};

fn glb_of(model: &Ms3d) -> Doc {
    let scene = Scene::from_ms3d(model, &Ms3dSceneOptions::default()).unwrap();
    let glb = to_glb(&scene).unwrap();
    gltf::Gltf::from_slice(&glb).expect("the gltf crate accepts it");
    let doc = parse_glb(&glb);
    doc.check_layout();
    doc.check_skin_roots();
    doc
}

fn load(name: &str) -> Option<Ms3d> {
    let dir = corpus_dir()?;
    Some(Ms3d::from_bytes(&std::fs::read(dir.join("ms3d").join(name)).unwrap()).unwrap())
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap()
}

/// One channel of an animation, read.
struct ChannelData {
    node: usize,
    path: String,
    interpolation: String,
    times: Vec<f32>,
    values: Vec<f32>,
}

/// The channels of animation `index` (none when there is no such
/// animation).
fn channels(doc: &Doc, index: usize) -> Vec<ChannelData> {
    let Some(anim) = doc.json["animations"].get(index) else {
        return Vec::new();
    };
    anim["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = &anim["samplers"][c["sampler"].as_u64().unwrap() as usize];
            ChannelData {
                node: c["target"]["node"].as_u64().unwrap() as usize,
                path: c["target"]["path"].as_str().unwrap().to_string(),
                interpolation: s["interpolation"].as_str().unwrap_or("LINEAR").to_string(),
                times: doc.read(s["input"].as_u64().unwrap() as usize),
                values: doc.read(s["output"].as_u64().unwrap() as usize),
            }
        })
        .collect()
}

/// The local TRS of every node at time `t` (static TRS, overridden by the
/// animation's channels), composed into global matrices by walking the
/// node hierarchy from the scene's roots.
fn node_globals(doc: &Doc, channels: &[ChannelData], t: f64) -> Vec<DMat4> {
    let nodes = doc.json["nodes"].as_array().unwrap();
    let mut trs: Vec<(DVec3, DQuat, DVec3)> = nodes
        .iter()
        .map(|n| {
            let v = |k: &str, d: &[f64]| -> Vec<f64> {
                n.get(k).map_or(d.to_vec(), |a| {
                    a.as_array().unwrap().iter().map(f).collect()
                })
            };
            let tr = v("translation", &[0.0; 3]);
            let r = v("rotation", &[0.0, 0.0, 0.0, 1.0]);
            let s = v("scale", &[1.0; 3]);
            (
                DVec3::new(tr[0], tr[1], tr[2]),
                DQuat::from_xyzw(r[0], r[1], r[2], r[3]),
                DVec3::new(s[0], s[1], s[2]),
            )
        })
        .collect();
    for c in channels {
        match c.path.as_str() {
            "translation" => {
                let v = sample(&c.times, &c.values, 3, &c.interpolation, t);
                trs[c.node].0 = DVec3::new(v[0], v[1], v[2]);
            }
            "rotation" => {
                let v = sample(&c.times, &c.values, 4, &c.interpolation, t);
                trs[c.node].1 = DQuat::from_xyzw(v[0], v[1], v[2], v[3]);
            }
            other => panic!("unexpected path {other}"),
        }
    }
    let mut globals = vec![DMat4::IDENTITY; nodes.len()];
    let mut stack: Vec<(usize, DMat4)> = doc.json["scenes"][0]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n.as_u64().unwrap() as usize, DMat4::IDENTITY))
        .collect();
    while let Some((n, parent)) = stack.pop() {
        let (t, r, s) = trs[n];
        globals[n] = parent * DMat4::from_scale_rotation_translation(s, r, t);
        for c in nodes[n]
            .get("children")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            stack.push((c.as_u64().unwrap() as usize, globals[n]));
        }
    }
    globals
}

/// The skin's joint nodes.
fn skin_joints(doc: &Doc) -> Vec<usize> {
    doc.json["skins"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_u64().unwrap() as usize)
        .collect()
}

fn max_diff(a: DMat4, b: Mat4) -> f64 {
    let (a, b) = (a.to_cols_array(), b.as_dmat4().to_cols_array());
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Compares the glTF joints with the viewer's at many times: before the
/// first key, on keys, between keys and after the last.
fn assert_matches_viewer(name: &str, model: &Ms3d) {
    let skeleton = Skeleton::new(model).unwrap();
    let doc = glb_of(model);
    let joints = skin_joints(&doc);
    assert!(
        joints.len() >= model.joints.len(),
        "{name}: a node per joint"
    );
    let mut end = 0.0f32;
    for j in &model.joints {
        for k in j.rotation_keys.iter().chain(&j.position_keys) {
            end = end.max(k.time);
        }
    }
    let mut viewer = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let channels = channels(&doc, 0);
    // (time, whether it is a stored key time)
    let mut times: Vec<(f32, bool)> = (0..=200)
        .map(|i| (end * 1.1 * i as f32 / 200.0, false))
        .collect();
    times.extend(
        model
            .joints
            .iter()
            .flat_map(|j| j.position_keys.iter().map(|k| (k.time, true))),
    );
    let mut worst = 0.0f64;
    for &(t, on_key) in &times {
        skeleton.pose_at_time(t, &mut viewer);
        // Between keys the viewer samples at the f32 frame `t × fps`:
        // sample glTF at that same instant. On a key both land on it.
        let fps = skeleton.fps();
        let instant = if on_key {
            t as f64
        } else {
            (t * fps) as f64 / fps as f64
        };
        let globals = node_globals(&doc, &channels, instant);
        for (i, m) in viewer.iter().enumerate() {
            let scale = m.w_axis.truncate().length().max(1.0) as f64;
            let d = max_diff(globals[joints[i]], *m) / scale;
            worst = worst.max(d);
            // (Woman4's worst, ~3e-5 around frame 1396, comes from the
            // viewer's f32 frame arithmetic: its root moves fast there.)
            assert!(d < 1e-4, "{name}: joint {i} at {t} s differs by {d}");
        }
    }
    eprintln!(
        "{name}: {} joints, {} times, worst relative difference {worst:e}",
        model.joints.len(),
        times.len()
    );

    // The inverse bind matrices undo the rest pose.
    let ibm = doc.read(
        doc.json["skins"][0]["inverseBindMatrices"]
            .as_u64()
            .unwrap() as usize,
    );
    let rest = node_globals_rest(&doc);
    for (i, &n) in joints.iter().enumerate() {
        let m = DMat4::from_cols_array(&std::array::from_fn(|k| ibm[16 * i + k] as f64));
        let p = rest[n] * m;
        // The joint that takes weights short of 100 % maps every point to
        // the origin.
        let expected = if doc.json["nodes"][n]["name"] == "weight_remainder" {
            DMat4::from_scale(DVec3::ZERO)
        } else {
            DMat4::IDENTITY
        };
        assert!(
            p.abs_diff_eq(expected, 1e-4),
            "{name}: joint {i} rest × inverse bind"
        );
    }
}

/// Node globals of the rest pose (no animation).
fn node_globals_rest(doc: &Doc) -> Vec<DMat4> {
    node_globals(doc, &[], 0.0)
}

#[test]
fn sample_model_joints_match_the_viewer() {
    assert_matches_viewer("sample", &retromodel::ms3d::sample::sample_model());
}

#[test]
fn full_spec_joints_match_the_viewer() {
    let (bytes, _) = full_spec().build();
    assert_matches_viewer("full_spec", &Ms3d::from_bytes(&bytes).unwrap());
}

#[test]
fn woman4_joints_match_the_viewer() {
    let Some(model) = load("glscene_Woman4.ms3d") else {
        return;
    };
    assert_matches_viewer("Woman4", &model);
}

#[test]
fn nehe_lesson31_joints_match_the_viewer() {
    let Some(model) = load("nehe_lesson31_Model.ms3d") else {
        return;
    };
    assert_matches_viewer("nehe_lesson31", &model);
}

/// A rigged file for the skin-root cases: `full_spec` with its joints,
/// vertex bones and vertex weights replaced.
fn rig(joints: Vec<SJoint>, bones: [i8; 4], weights: [[u8; 3]; 4]) -> Ms3d {
    let mut spec = full_spec();
    spec.joints = joints;
    spec.joint_extras = None;
    spec.model_extras = None;
    for (v, b) in spec.verts.iter_mut().zip(bones) {
        v.bone = b;
    }
    let records = spec.vertex_extras.as_mut().unwrap();
    records.records = weights.iter().map(|&w| ([1, 0, -1], w, [0, 0])).collect();
    let (bytes, _) = spec.build();
    Ms3d::from_bytes(&bytes).unwrap()
}

/// Nodes of the GLB named `name`.
fn named(doc: &Doc, name: &str) -> usize {
    doc.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["name"] == name)
        .count()
}

/// glTF wants a skin's joints under one root. Every way an MS3D gets
/// several: two parentless joints, vertices no joint moves (the `static`
/// joint), weights short of 100 % (`weight_remainder`), both, and a
/// parent name that matches no joint. Each gets one `skeleton_root` that
/// the skin names, and the joints still move exactly as the viewer's.
#[test]
fn every_skin_has_one_common_root() {
    let chain = || {
        vec![
            SJoint::new("root", "", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
            SJoint::new("arm", "root", [0.0, 0.0, 0.25], [1.0, 0.0, 0.0]),
        ]
    };
    let mut keyed = chain();
    keyed[0].rot_keys = vec![(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 0.5])];
    keyed[1].pos_keys = vec![(0.0, [0.0; 3]), (0.5, [0.0, 1.0, 0.0]), (1.0, [0.0; 3])];
    let whole = [[0, 0, 0]; 4];
    let mut cam = SJoint::new("cam", "", [0.1, 0.0, 0.0], [0.0, 2.0, 0.0]);
    cam.rot_keys = vec![(0.0, [0.0; 3]), (1.0, [0.5, 0.0, 0.0])];
    let two_roots = [keyed.clone(), vec![cam]].concat();
    let mut orphan = keyed.clone();
    orphan[1].parent = field(b"nowhere");
    // (name, joints, vertex bones, weights, helper joints expected)
    type Case<'a> = (&'a str, Vec<SJoint>, [i8; 4], [[u8; 3]; 4], &'a [&'a str]);
    let cases: Vec<Case> = vec![
        ("two root joints", two_roots, [0, 1, 2, 0], whole, &[]),
        (
            "unweighted vertices only",
            keyed.clone(),
            [0, 1, -1, -1],
            whole,
            &["static"],
        ),
        (
            "weights short of 100 % only",
            keyed.clone(),
            [0, 1, 0, 1],
            [[60, 30, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
            &["static", "weight_remainder"],
        ),
        (
            "both",
            keyed.clone(),
            [0, -1, 0, 1],
            [[60, 30, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
            &["static", "weight_remainder"],
        ),
        ("a parent that is missing", orphan, [0, 1, 1, 0], whole, &[]),
    ];
    for (name, joints, bones, weights, helpers) in cases {
        let model = rig(joints, bones, weights);
        let doc = glb_of(&model);
        let roots = doc.check_skin_roots();
        assert_eq!(roots.len(), 1, "{name}");
        assert_eq!(
            doc.json["nodes"][roots[0]]["name"], "skeleton_root",
            "{name}"
        );
        assert_eq!(doc.json["skins"][0]["skeleton"], roots[0], "{name}");
        assert!(
            doc.json["nodes"][roots[0]].get("translation").is_none(),
            "{name}: identity"
        );
        for helper in ["static", "weight_remainder"] {
            let want = usize::from(helpers.contains(&helper));
            assert_eq!(named(&doc, helper), want, "{name}: {helper}");
        }
        assert_matches_viewer(name, &model);
    }
    // One root joint and nothing else: that joint is the common root, no
    // node is added (the output is as it always was).
    let doc = glb_of(&rig(keyed, [0, 1, 1, 0], whole));
    let roots = doc.check_skin_roots();
    assert_eq!(doc.json["nodes"][roots[0]]["name"], "root");
    assert_eq!(named(&doc, "skeleton_root"), 0);
}

#[test]
fn every_corpus_ms3d_exports_a_well_formed_glb() {
    let Some(dir) = corpus_dir() else { return };
    for (name, path) in ms3d_files(&dir) {
        let Ok(model) = Ms3d::from_bytes(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        let Ok(scene) = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()) else {
            continue;
        };
        let doc = parse_glb(&to_glb(&scene).unwrap());
        doc.check_layout();
        let roots = doc.check_skin_roots();
        assert_eq!(
            roots.len(),
            usize::from(!model.joints.is_empty()),
            "{name}: one skin"
        );
        let meshes = doc.json["meshes"].as_array().map_or(0, Vec::len);
        let drawable = model
            .groups
            .iter()
            .filter(|g| !g.triangles.is_empty())
            .count();
        assert!(meshes <= drawable, "{name}: a mesh per non-empty group");
        for m in 0..meshes {
            doc.check_min_max(doc.attribute(m, "POSITION"));
            if doc.json["meshes"][m]["primitives"][0]["attributes"]
                .get("WEIGHTS_0")
                .is_some()
            {
                let w = doc.read(doc.attribute(m, "WEIGHTS_0"));
                for (v, c) in w.chunks_exact(4).enumerate() {
                    let s: f32 = c.iter().sum();
                    assert!(
                        (s - 1.0).abs() < 1e-5,
                        "{name}: mesh {m} vertex {v} weights sum {s}"
                    );
                }
            }
        }
    }
}

/// Evidence for keeping MilkShape's winding: in corpus models the stored
/// corner normals agree with the right-handed normal of the corners in
/// file order (counter-clockwise front faces), and the exporter keeps that
/// order.
#[test]
fn milkshape_front_faces_are_counter_clockwise() {
    let Some(dir) = corpus_dir() else { return };
    for name in [
        "glscene_Woman4.ms3d",
        "assimpdeb_jeep1.ms3d",
        "nehe_lesson31_Model.ms3d",
    ] {
        let model = Ms3d::from_bytes(&std::fs::read(dir.join("ms3d").join(name)).unwrap()).unwrap();
        let (mut agree, mut total) = (0, 0);
        for t in &model.triangles {
            let p = t
                .vertices
                .map(|v| glam::Vec3::from(model.vertices[v as usize].position));
            let face = (p[1] - p[0]).cross(p[2] - p[0]);
            let stored = t
                .normals
                .iter()
                .map(|&n| glam::Vec3::from(n))
                .sum::<glam::Vec3>();
            if face.length() > 1e-6 && stored.length() > 1e-6 {
                agree += (face.dot(stored) > 0.0) as usize;
                total += 1;
            }
        }
        assert!(agree * 10 > 9 * total, "{name}: {agree} of {total} agree");

        // The glTF keeps the order: its first triangle is group 0's first.
        let doc = glb_of(&model);
        let g = model
            .groups
            .iter()
            .find(|g| !g.triangles.is_empty())
            .unwrap();
        let t = &model.triangles[g.triangles[0] as usize];
        let pos = doc.read3(doc.attribute(0, "POSITION"));
        let idx = doc.indices(0);
        for k in 0..3 {
            assert_eq!(
                pos[idx[k] as usize], model.vertices[t.vertices[k] as usize].position,
                "{name}"
            );
        }
    }
}

#[test]
fn materials_comments_and_names_carry_over() {
    let (bytes, _) = full_spec().build();
    let model = Ms3d::from_bytes(&bytes).unwrap();
    let doc = glb_of(&model);
    let j = &doc.json;
    assert_eq!(j["extras"]["comment"], "walk:1-30");
    assert_eq!(j["meshes"][0]["name"], "body");
    assert_eq!(j["meshes"][0]["extras"]["comment"], "the body");
    assert_eq!(j["materials"][1]["name"], "metal");
    assert_eq!(j["materials"][1]["extras"]["comment"], "shiny");
    assert_eq!(j["materials"][1]["alphaMode"], "BLEND", "transparency 0.75");
    let c: Vec<f64> = j["materials"][1]["pbrMetallicRoughness"]["baseColorFactor"]
        .as_array()
        .unwrap()
        .iter()
        .map(f)
        .collect();
    assert_eq!(c, vec![0.8, 0.7, 0.6, 0.75], "diffuse and transparency");
    let names: Vec<&str> = skin_joints(&doc)
        .iter()
        .map(|&n| j["nodes"][n]["name"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..3], &["root", "arm", "hand"]);
    assert_eq!(j["animations"][0]["name"], "timeline");
    // No PNG supplied: the texture path is kept nowhere as an image.
    assert!(j.get("images").is_none());
    assert_eq!(j["materials"][0]["extras"]["shininess"], 12.5);
}

/// MilkShape's viewer does not make up weights that sum to less than
/// 100 %: such a vertex is pulled towards the origin. The GLB must give
/// the same positions with weights that sum to 1, so the rest goes to a
/// zero-scale joint. Checked in the rest pose, where the viewer's skinning
/// matrices are identities: glTF's `Σ w · (global × inverse bind) · v` from
/// the GLB's own nodes and accessors must equal `Influences::skin_positions`.
#[test]
fn weights_short_of_100_percent_land_where_the_viewer_puts_them() {
    use retromodel::ms3d::{GroupMesh, Influences};
    let mut model = retromodel::ms3d::sample::sample_model();
    assert!(model.joints.len() >= 2);
    // Vertex 0: 60 % joint 0, 30 % joint 1, and the last 10 % on no joint.
    model.vertices[0].bone_id = 0;
    let record = &mut model.extras.vertices.as_mut().unwrap().records[0];
    record.bone_ids = [1, -1, -1];
    record.weights = [60, 30, 0];

    let influences = Influences::new(&model);
    assert_eq!(influences.vertices[0].count, 2);
    let mut viewer = vec![[0.0; 3]; model.vertices.len()];
    let identity = vec![Mat4::IDENTITY; model.joints.len()];
    influences.skin_positions(&model, &identity, &mut viewer);
    let p0 = model.vertices[0].position;
    assert!(
        (viewer[0][0] - 0.9 * p0[0]).abs() < 1e-5,
        "the viewer keeps 90 %"
    );

    let doc = glb_of(&model);
    let joints = skin_joints(&doc);
    let names: Vec<&str> = joints
        .iter()
        .map(|&n| doc.json["nodes"][n]["name"].as_str().unwrap_or(""))
        .collect();
    let zero = names.iter().position(|&n| n == "weight_remainder").unwrap();
    assert_eq!(
        zero,
        model.joints.len() + 1,
        "after the model's and `static`"
    );
    assert_eq!(
        doc.json["nodes"][joints[zero]]["scale"],
        serde_json::json!([0.0, 0.0, 0.0])
    );
    let ibm = doc.read(
        doc.json["skins"][0]["inverseBindMatrices"]
            .as_u64()
            .unwrap() as usize,
    );
    let rest = node_globals_rest(&doc);
    let skinning: Vec<DMat4> = joints
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            rest[n] * DMat4::from_cols_array(&std::array::from_fn(|k| ibm[16 * i + k] as f64))
        })
        .collect();

    let groups: Vec<GroupMesh> = GroupMesh::build_all(&model)
        .into_iter()
        .filter(|g| !g.vertices.is_empty() && !g.indices.is_empty())
        .collect();
    let mut checked_vertex_0 = false;
    for (m, g) in groups.iter().enumerate() {
        let pos = doc.read3(doc.attribute(m, "POSITION"));
        let js = doc.read(doc.attribute(m, "JOINTS_0"));
        let ws = doc.read(doc.attribute(m, "WEIGHTS_0"));
        for (v, &src) in g.source_vertices.iter().enumerate() {
            let w = &ws[4 * v..4 * v + 4];
            assert!(
                (w.iter().sum::<f32>() - 1.0).abs() < 1e-6,
                "weights sum to 1"
            );
            let p = DVec3::from(pos[v].map(f64::from));
            let skinned: DVec3 = (0..4)
                .map(|k| skinning[js[4 * v + k] as usize].transform_point3(p) * w[k] as f64)
                .sum();
            let want = DVec3::from(viewer[src as usize].map(f64::from));
            assert!(
                (skinned - want).abs().max_element() < 1e-5,
                "mesh {m} vertex {v} (model vertex {src}): {skinned} vs the viewer's {want}"
            );
            if src == 0 {
                checked_vertex_0 = true;
                assert!((w[2] - 0.1).abs() < 1e-6, "{w:?}");
                assert_eq!(js[4 * v + 2] as usize, zero);
            }
        }
    }
    assert!(checked_vertex_0);
}

// ---------------------------------------------------------------------------
// Clips: one animation per frame range, cut from the timeline
// ---------------------------------------------------------------------------

fn clip(name: &str, first_frame: f32, last_frame: f32) -> Clip {
    Clip {
        name: name.to_string(),
        first_frame,
        last_frame,
    }
}

fn glb_with_clips(model: &Ms3d, clips: &[Clip]) -> Doc {
    let options = Ms3dSceneOptions {
        clips: clips.to_vec(),
        ..Ms3dSceneOptions::default()
    };
    let scene = Scene::from_ms3d(model, &options).unwrap();
    let glb = to_glb(&scene).unwrap();
    gltf::Gltf::from_slice(&glb).expect("the gltf crate accepts it");
    let doc = parse_glb(&glb);
    doc.check_layout();
    doc
}

/// Every key time of the model, in seconds.
fn key_times(model: &Ms3d) -> Vec<f32> {
    model
        .joints
        .iter()
        .flat_map(|j| j.rotation_keys.iter().chain(&j.position_keys))
        .map(|k| k.time)
        .collect()
}

/// For each clip: the GLB has an animation of that name whose every
/// channel runs from 0 to the clip's length in seconds, and whose joint
/// matrices, evaluated here by the glTF spec at `t`, are the viewer's at
/// `first_frame / fps + t` (frame `F` is `F / fps` seconds, as the viewer
/// multiplies key times by fps). Times: 200 across the clip, both ends,
/// and every stored key time inside the clip.
fn assert_clips_match_viewer(name: &str, model: &Ms3d, clips: &[Clip]) {
    let skeleton = Skeleton::new(model).unwrap();
    let fps = skeleton.fps();
    assert_eq!(fps, model.fps.max(1.0));
    let doc = glb_with_clips(model, clips);
    let animations = doc.json["animations"].as_array().unwrap();
    assert_eq!(
        animations.len(),
        clips.len(),
        "{name}: an animation per clip"
    );
    let joints = skin_joints(&doc);
    let mut viewer = vec![Mat4::IDENTITY; skeleton.joint_count()];
    let timeline_channels = channels(&doc_of_timeline(model), 0).len();
    for (a, c) in clips.iter().enumerate() {
        assert_eq!(animations[a]["name"], c.name.as_str(), "{name}");
        let start = c.first_frame / fps;
        let length = (c.last_frame - c.first_frame) / fps;
        let channels = channels(&doc, a);
        assert_eq!(
            channels.len(),
            timeline_channels,
            "{name} {}: every timeline channel is cut",
            c.name
        );
        for ch in &channels {
            assert_eq!(ch.times[0], 0.0, "{name} {}: starts at 0", c.name);
            let end = *ch.times.last().unwrap();
            assert!(
                (end - length).abs() <= 1e-5 * length.max(1.0),
                "{name} {}: ends at {end}, not {length}",
                c.name
            );
            assert!(ch.times.windows(2).all(|w| w[0] < w[1]), "increasing");
        }
        let mut times: Vec<f32> = (0..=200).map(|i| length * i as f32 / 200.0).collect();
        times.extend(
            key_times(model)
                .into_iter()
                .map(|k| k - start)
                .filter(|&t| (0.0..=length).contains(&t)),
        );
        let mut worst = 0.0f64;
        for t in times {
            let at = start + t;
            skeleton.pose_at_time(at, &mut viewer);
            // The viewer samples at the f32 frame `at × fps`: play the clip
            // at that same instant.
            let instant = f64::from(at * fps) / f64::from(fps) - f64::from(start);
            let instant = instant.clamp(0.0, f64::from(length));
            let globals = node_globals(&doc, &channels, instant);
            for (i, m) in viewer.iter().enumerate() {
                let scale = m.w_axis.truncate().length().max(1.0) as f64;
                let d = max_diff(globals[joints[i]], *m) / scale;
                worst = worst.max(d);
                assert!(
                    d < 1e-4,
                    "{name} clip {} ({}-{}): joint {i} at {t} s into it differs by {d}",
                    c.name,
                    c.first_frame,
                    c.last_frame
                );
            }
        }
        eprintln!(
            "{name} clip {} ({}-{}): worst relative difference {worst:e}",
            c.name, c.first_frame, c.last_frame
        );
    }
}

fn doc_of_timeline(model: &Ms3d) -> Doc {
    glb_of(model)
}

#[test]
fn sample_model_clips_match_the_viewer() {
    let mut model = retromodel::ms3d::sample::sample_model();
    // Keys (at 10 fps): frames 1, 10, 20 and 30; the wrist's rotation
    // ends at frame 20, its position has none. Frames past the last key:
    model.total_frames = 40;
    assert_eq!(model.fps, 10.0);
    let clips = [
        clip("before_first_key", 0.0, 0.75),
        clip("onto_first_key", 0.0, 1.0),
        clip("on_keys", 10.0, 20.0),
        clip("between_keys", 11.5, 18.25),
        clip("across_keys", 0.5, 12.5),
        clip("wrist_past_its_last", 21.0, 30.0),
        clip("after_last_key", 30.5, 40.0),
        clip("from_last_key_on", 30.0, 40.0),
        clip("whole", 0.0, 40.0),
        clip("one_frame", 15.0, 15.0),
    ];
    assert_clips_match_viewer("sample", &model, &clips);

    // A clip of one instant is still a pose: each channel one key.
    let doc = glb_with_clips(&model, &clips[9..]);
    for ch in channels(&doc, 0) {
        assert_eq!(ch.times, [0.0]);
    }
}

#[test]
fn nehe_lesson31_clips_match_the_viewer() {
    let Some(model) = load("nehe_lesson31_Model.ms3d") else {
        return;
    };
    // 24 frames at 24 fps; keys on frames 1, 8 and 24 (some joints one key).
    assert_eq!((model.fps, model.total_frames), (24.0, 24));
    let clips = [
        clip("before", 0.0, 0.5),
        clip("first", 0.0, 1.0),
        clip("between", 3.5, 7.25),
        clip("across", 3.5, 12.25),
        clip("on_keys", 8.0, 24.0),
        clip("whole", 0.0, 24.0),
    ];
    assert_clips_match_viewer("nehe_lesson31", &model, &clips);
}

#[test]
fn woman4_clips_match_the_viewer() {
    let Some(model) = load("glscene_Woman4.ms3d") else {
        return;
    };
    // 2133 frames at 15 fps; rotation keys on every frame 1..=2133, most
    // position keys sparse (from frame 0 to 2095).
    assert_eq!((model.fps, model.total_frames), (15.0, 2133));
    let clips = [
        clip("before", 0.0, 0.6),
        clip("on_keys", 100.0, 160.0),
        clip("between", 1390.3, 1402.7),
        clip("tail", 2100.0, 2133.0),
    ];
    assert_clips_match_viewer("Woman4", &model, &clips);
}

#[test]
fn clips_outside_the_timeline_or_reversed_are_errors() {
    let model = retromodel::ms3d::sample::sample_model(); // 30 frames
    for bad in [
        clip("late", 20.0, 30.5),
        clip("reversed", 12.0, 11.0),
        clip("nan", f32::NAN, 3.0),
        clip("negative", -1.0, 3.0),
        clip("", 1.0, 3.0),
    ] {
        let options = Ms3dSceneOptions {
            clips: vec![clip("fine", 1.0, 2.0), bad.clone()],
            ..Ms3dSceneOptions::default()
        };
        let err = Scene::from_ms3d(&model, &options).unwrap_err();
        assert!(
            matches!(&err, retromodel::Error::InvalidClip { name, .. } if *name == bad.name),
            "{bad:?}: {err}"
        );
    }
    // The whole timeline is fine, and no clips give the timeline animation.
    let scene = Scene::from_ms3d(
        &model,
        &Ms3dSceneOptions {
            clips: vec![model.timeline()],
            ..Ms3dSceneOptions::default()
        },
    )
    .unwrap();
    assert_eq!(scene.animations.len(), 1);
    assert!((scene.animations[0].duration() - 3.0).abs() < 1e-6);
}

/// A material's alpha map becomes a texture reference of its own; it is
/// baked into a base texture per (base, alpha map) pair only when images
/// are supplied, and only then does the material blend.
#[test]
fn alpha_maps_are_texture_references_baked_per_pair() {
    use retromodel::ms3d::Name128;
    use retromodel::scene::AlphaMode;
    use retromodel::texture::Rgba8Image;
    let mut model = retromodel::ms3d::sample::sample_model();
    let mut second = model.materials[0].clone();
    model.materials[0].texture = Name128::new("base.png");
    model.materials[0].alphamap = Name128::new("alpha.png");
    second.texture = Name128::new("base.png");
    model.materials.push(second);
    model.groups[1].material = 1;
    let mut scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).unwrap();
    let paths: Vec<&str> = scene.textures.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(paths, ["base.png", "alpha.png"]);
    let m = &scene.materials;
    assert_eq!((m[0].texture, m[0].alpha_texture), (Some(0), Some(1)));
    assert_eq!((m[1].texture, m[1].alpha_texture), (Some(0), None));
    assert_eq!(m[0].extras["alphamap"]["path"], "alpha.png");
    assert_eq!(m[0].alpha_mode, AlphaMode::Opaque, "no alpha map image yet");

    let base = Rgba8Image::new(1, 1, vec![10, 20, 30, 255]).unwrap();
    let alpha = Rgba8Image::new(1, 1, vec![51, 51, 51, 255]).unwrap();
    scene.embed_images(vec![Some(base), Some(alpha)]);
    let m = &scene.materials;
    assert_eq!(m[0].texture, Some(2), "a new texture for the pair");
    assert_eq!(m[0].alpha_mode, AlphaMode::Blend);
    assert_eq!(
        (m[1].texture, m[1].alpha_mode),
        (Some(0), AlphaMode::Opaque)
    );
    // The PNGs a writer makes, decoded by the image crate.
    let decode = |t: &retromodel::scene::Texture| {
        let png = t.image.as_ref().unwrap().to_png().unwrap();
        image::load_from_memory(&png).unwrap().to_rgba8()
    };
    assert_eq!(
        decode(&scene.textures[2]).get_pixel(0, 0).0,
        [10, 20, 30, 51]
    );
    assert_eq!(
        decode(&scene.textures[0]).get_pixel(0, 0).0,
        [10, 20, 30, 255]
    );
    assert!(
        !scene.textures[1].has_image(),
        "the alpha map alone is not embedded"
    );

    let doc = parse_glb(&to_glb(&scene).unwrap());
    assert_eq!(doc.json["materials"][0]["alphaMode"], "BLEND");
    assert_eq!(doc.json["images"].as_array().unwrap().len(), 2);
}
