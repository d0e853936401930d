//! Vertices with more than four influences (glTF's `JOINTS_1`/`WEIGHTS_1`):
//! a 5 × 5 grid skinned to eight animated joints, every vertex with eight
//! non-zero weights, made here with the testkit's glTF builder (our own
//! content, no file). Checked against an evaluator of glTF skinning written
//! in this file from the glTF 2.0 specification (`Σ wᵢ · G(jointᵢ) ·
//! IBMᵢ · p` over every `JOINTS_n`/`WEIGHTS_n` pair, node transforms
//! `T · R · S` with the animation's samples), which reads the GLB itself
//! (`retromodel_testkit::glb`):
//!
//! - the MD2 baked from it, its bytes decoded here (`byte × scale +
//!   translate`), is within half a grid step of every influence;
//! - the MS3D compiled from it keeps MilkShape's four largest, in whole
//!   percentages, and says so;
//! - glTF export → import keeps every set, the export poses like the
//!   source, and the Khronos validator accepts it.

#![cfg(feature = "gltf")]

use std::process::Command;

use glam::{DMat4, DQuat, DVec3};
use retromodel::gltf::{import, to_glb, ImportOptions};
use retromodel::md2::compile::{compile as md2_compile, CompileOptions};
use retromodel::ms3d::compile::{compile as ms3d_compile, Ms3dCompileOptions, Ms3dCompileWarning};
use retromodel::ms3d::Influences;
use retromodel::scene::Scene;
use retromodel_testkit::glb::{parse_glb, sample, Doc};
use retromodel_testkit::gltf_builder::{component, u16_bytes, Builder};
use serde_json::{json, Value};

/// Joints of the skin.
const JOINTS: usize = 8;
/// Vertices per side of the grid.
const SIDE: usize = 5;
/// Distance between neighbouring vertices.
const SPACING: f32 = 4.0;

/// The weight of joint `k` on vertex `v` before normalising: a different
/// permutation of 1 … 8 per vertex, so every vertex has eight non-zero
/// weights and no two equal (its four largest are unambiguous).
fn raw_weight(v: usize, k: usize) -> f32 {
    ((k + 3 * v) % JOINTS + 1) as f32
}

/// Joint `k`'s rest translation (a child of the root): on a circle of
/// radius 3, rising with `k`.
fn joint_rest(k: usize) -> [f32; 3] {
    let a = std::f32::consts::TAU * k as f32 / JOINTS as f32;
    [3.0 * a.cos(), 0.5 * k as f32, 3.0 * a.sin()]
}

/// The grid: nodes `root` (0), `j0` … `j7` (1 … 8, children of the root),
/// the skinned mesh's node (9); one animation `wave` of 1 s turning and
/// moving every joint differently and turning the root.
fn eight_influence_glb() -> Vec<u8> {
    let mut b = Builder::new();
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    for i in 0..SIDE {
        for j in 0..SIDE {
            let (x, z) = (i as f32 - 2.0, j as f32 - 2.0);
            positions.extend([x * SPACING, 0.25 * ((i + j) % 2) as f32, z * SPACING]);
            uvs.extend([i as f32 / 4.0, j as f32 / 4.0]);
        }
    }
    let mut indices: Vec<u16> = Vec::new();
    for i in 0..SIDE - 1 {
        for j in 0..SIDE - 1 {
            let v = |a: usize, b: usize| (a * SIDE + b) as u16;
            indices.extend([v(i, j), v(i, j + 1), v(i + 1, j)]);
            indices.extend([v(i + 1, j), v(i, j + 1), v(i + 1, j + 1)]);
        }
    }
    let n = SIDE * SIDE;
    let mut joints = [Vec::new(), Vec::new()];
    let mut weights = [Vec::new(), Vec::new()];
    for v in 0..n {
        let sum: f32 = (0..JOINTS).map(|k| raw_weight(v, k)).sum();
        for k in 0..JOINTS {
            joints[k / 4].push(k as u16);
            weights[k / 4].push(raw_weight(v, k) / sum);
        }
    }
    let pos = b.floats(&positions, "VEC3");
    let min: Vec<f32> = (0..3)
        .map(|c| {
            positions
                .iter()
                .skip(c)
                .step_by(3)
                .fold(f32::MAX, |m, &x| m.min(x))
        })
        .collect();
    let max: Vec<f32> = (0..3)
        .map(|c| {
            positions
                .iter()
                .skip(c)
                .step_by(3)
                .fold(f32::MIN, |m, &x| m.max(x))
        })
        .collect();
    b.json["accessors"][pos]["min"] = json!(min);
    b.json["accessors"][pos]["max"] = json!(max);
    let uv = b.floats(&uvs, "VEC2");
    let idx = b.u16s(&indices);
    let mut attributes = json!({"POSITION": pos, "TEXCOORD_0": uv});
    for set in 0..2 {
        let view = b.view(&u16_bytes(&joints[set]), None);
        let a = b.accessor(Some(view), 0, component::U16, "VEC4", n, false);
        attributes[format!("JOINTS_{set}")] = json!(a);
        let a = b.floats(&weights[set], "VEC4");
        attributes[format!("WEIGHTS_{set}")] = json!(a);
    }
    let mesh = b.push(
        "meshes",
        json!({"name": "grid", "primitives": [{"attributes": attributes, "indices": idx}]}),
    );
    let root = b.push(
        "nodes",
        json!({"name": "root", "children": (1..=JOINTS).collect::<Vec<_>>()}),
    );
    let mut ibm = Vec::new();
    for k in 0..JOINTS {
        b.push(
            "nodes",
            json!({"name": format!("j{k}"), "translation": joint_rest(k)}),
        );
        let t = DVec3::from(joint_rest(k).map(f64::from));
        ibm.extend(
            DMat4::from_translation(-t)
                .to_cols_array()
                .map(|x| x as f32),
        );
    }
    let ibm = b.floats(&ibm, "MAT4");
    b.push(
        "skins",
        json!({"joints": (1..=JOINTS).collect::<Vec<_>>(), "inverseBindMatrices": ibm, "skeleton": root}),
    );
    let holder = b.push("nodes", json!({"name": "grid", "mesh": mesh, "skin": 0}));
    b.scene_root(root);
    b.scene_root(holder);
    // The animation: per joint a turn about its own axis (there and part
    // of the way back) and a slide; the root turns about +Y.
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    let times3 = b.floats(&[0.0, 0.5, 1.0], "SCALAR");
    let times2 = b.floats(&[0.0, 1.0], "SCALAR");
    for k in 0..JOINTS {
        let axis = DVec3::new((k as f64 * 1.3).cos(), 1.0, (k as f64 * 0.7).sin()).normalize();
        let angle = 0.25 + 0.05 * k as f64;
        let q = |a: f64| DQuat::from_axis_angle(axis, a).to_array().map(|x| x as f32);
        let rotations: Vec<f32> = [q(0.0), q(angle), q(0.4 * angle)].concat();
        let out = b.floats(&rotations, "VEC4");
        samplers.push(json!({"input": times3, "output": out, "interpolation": "LINEAR"}));
        channels.push(
            json!({"sampler": samplers.len() - 1, "target": {"node": k + 1, "path": "rotation"}}),
        );
        let r = joint_rest(k);
        let moved = [r[0], r[1] + 0.3 * k as f32 / 8.0, r[2] + 0.2];
        let out = b.floats(&[r, moved].concat(), "VEC3");
        samplers.push(json!({"input": times2, "output": out, "interpolation": "LINEAR"}));
        channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": k + 1, "path": "translation"}}));
    }
    let turn = DQuat::from_rotation_y(0.3).to_array().map(|x| x as f32);
    let out = b.floats(&[[0.0, 0.0, 0.0, 1.0], turn].concat(), "VEC4");
    samplers.push(json!({"input": times2, "output": out, "interpolation": "LINEAR"}));
    channels
        .push(json!({"sampler": samplers.len() - 1, "target": {"node": root, "path": "rotation"}}));
    b.json["animations"] = json!([{"name": "wave", "channels": channels, "samplers": samplers}]);
    b.glb()
}

/// glTF skinning, from the specification, over a parsed GLB: the skinned
/// mesh's posed positions at time `t` of animation 0.
struct Evaluator {
    doc: Doc,
}

impl Evaluator {
    fn new(glb: &[u8]) -> Evaluator {
        let doc = parse_glb(glb);
        doc.check_layout();
        Evaluator { doc }
    }

    fn nodes(&self) -> &[Value] {
        self.doc.json["nodes"].as_array().expect("nodes")
    }

    /// Every node's local matrix at `t`: `T · R · S` from the node, with
    /// the animation's samples where a channel targets it.
    fn locals(&self, t: f64) -> Vec<DMat4> {
        let f = |v: &Value, default: &[f64]| -> Vec<f64> {
            v.as_array().map_or(default.to_vec(), |a| {
                a.iter().map(|x| x.as_f64().expect("number")).collect()
            })
        };
        let mut trs: Vec<[Vec<f64>; 3]> = self
            .nodes()
            .iter()
            .map(|n| {
                assert!(n.get("matrix").is_none(), "TRS nodes only");
                [
                    f(&n["translation"], &[0.0; 3]),
                    f(&n["rotation"], &[0.0, 0.0, 0.0, 1.0]),
                    f(&n["scale"], &[1.0; 3]),
                ]
            })
            .collect();
        if let Some(a) = self.doc.json["animations"].get(0) {
            for ch in a["channels"].as_array().expect("channels") {
                let s = &a["samplers"][ch["sampler"].as_u64().unwrap() as usize];
                let times = self.doc.read(s["input"].as_u64().unwrap() as usize);
                let values = self.doc.read(s["output"].as_u64().unwrap() as usize);
                let interpolation = s["interpolation"].as_str().unwrap_or("LINEAR");
                let node = ch["target"]["node"].as_u64().unwrap() as usize;
                let (slot, n) = match ch["target"]["path"].as_str().unwrap() {
                    "translation" => (0, 3),
                    "rotation" => (1, 4),
                    "scale" => (2, 3),
                    other => panic!("path {other}"),
                };
                trs[node][slot] = sample(&times, &values, n, interpolation, t);
            }
        }
        trs.iter()
            .map(|[t, r, s]| {
                DMat4::from_scale_rotation_translation(
                    DVec3::new(s[0], s[1], s[2]),
                    DQuat::from_xyzw(r[0], r[1], r[2], r[3]).normalize(),
                    DVec3::new(t[0], t[1], t[2]),
                )
            })
            .collect()
    }

    /// Every node's global matrix at `t`.
    fn globals(&self, t: f64) -> Vec<DMat4> {
        let nodes = self.nodes();
        let mut parent = vec![None; nodes.len()];
        for (p, n) in nodes.iter().enumerate() {
            for c in n["children"].as_array().map_or(&[][..], Vec::as_slice) {
                parent[c.as_u64().unwrap() as usize] = Some(p);
            }
        }
        let locals = self.locals(t);
        (0..nodes.len())
            .map(|mut i| {
                let mut g = locals[i];
                while let Some(p) = parent[i] {
                    g = locals[p] * g;
                    i = p;
                }
                g
            })
            .collect()
    }

    /// The skinned mesh's node.
    fn skinned(&self) -> (&Value, usize) {
        let n = self
            .nodes()
            .iter()
            .find(|n| n.get("skin").is_some() && n.get("mesh").is_some())
            .expect("a skinned node");
        let mesh = n["mesh"].as_u64().unwrap() as usize;
        (
            &self.doc.json["meshes"][mesh]["primitives"][0],
            n["skin"].as_u64().unwrap() as usize,
        )
    }

    /// Per vertex its influences `(joint, weight)` over every
    /// `JOINTS_n`/`WEIGHTS_n` pair present.
    fn influences(&self) -> Vec<Vec<(usize, f64)>> {
        let (p, _) = self.skinned();
        let a = &p["attributes"];
        let n = self.doc.root.accessors[a["POSITION"].as_u64().unwrap() as usize]
            .count
            .0 as usize;
        let mut out = vec![Vec::new(); n];
        for set in 0.. {
            let (Some(j), Some(w)) = (
                a.get(format!("JOINTS_{set}")),
                a.get(format!("WEIGHTS_{set}")),
            ) else {
                break;
            };
            let j = self.doc.read(j.as_u64().unwrap() as usize);
            let w = self.doc.read(w.as_u64().unwrap() as usize);
            for (v, list) in out.iter_mut().enumerate() {
                for c in 0..4 {
                    if w[4 * v + c] != 0.0 {
                        list.push((j[4 * v + c] as usize, f64::from(w[4 * v + c])));
                    }
                }
            }
        }
        out
    }

    /// Posed positions at `t` with, per vertex, its `keep` largest
    /// influences (renormalised when some are left out); `usize::MAX` for
    /// all.
    fn pose(&self, t: f64, keep: usize) -> Vec<DVec3> {
        let (p, skin) = self.skinned();
        let skin = &self.doc.json["skins"][skin];
        let joints: Vec<usize> = skin["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j.as_u64().unwrap() as usize)
            .collect();
        let ibm = self
            .doc
            .read(skin["inverseBindMatrices"].as_u64().unwrap() as usize);
        let globals = self.globals(t);
        let matrices: Vec<DMat4> = joints
            .iter()
            .enumerate()
            .map(|(k, &node)| {
                let m: Vec<f64> = ibm[16 * k..16 * k + 16]
                    .iter()
                    .map(|&x| f64::from(x))
                    .collect();
                globals[node] * DMat4::from_cols_slice(&m)
            })
            .collect();
        let positions = self
            .doc
            .read3(p["attributes"]["POSITION"].as_u64().unwrap() as usize);
        self.influences()
            .into_iter()
            .zip(positions)
            .map(|(mut list, p)| {
                list.sort_by(|a, b| b.1.total_cmp(&a.1));
                list.truncate(keep);
                let sum: f64 = list.iter().map(|e| e.1).sum();
                let p = DVec3::from(p.map(f64::from));
                list.iter()
                    .map(|&(j, w)| matrices[j].transform_point3(p) * (w / sum))
                    .sum()
            })
            .collect()
    }
}

/// Scene (glTF) axes to Quake's, from the conventions: glTF +Z forward is
/// Quake +x, glTF +X (the model's left) Quake +y, glTF +Y up Quake +z.
fn to_quake(p: DVec3) -> DVec3 {
    DVec3::new(p.z, p.x, p.y)
}

/// One MD2 frame decoded from the file's bytes: its scale and every
/// vertex's `byte × scale + translate`.
struct Frame {
    scale: DVec3,
    positions: Vec<DVec3>,
}

/// The frames of an MD2 file, read from its header (`IDP2`, version 8,
/// `i32` fields; `num_vertices` at byte 24, `num_frames` at 40,
/// `ofs_frames` at 56, `framesize` at 16): each frame `f32 scale[3],
/// f32 translate[3], char name[16]` and four bytes per vertex.
fn md2_frames(bytes: &[u8]) -> Vec<Frame> {
    let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let f32_at = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(&bytes[0..4], b"IDP2");
    assert_eq!(i32_at(4), 8);
    let (frame_size, vertices) = (i32_at(16) as usize, i32_at(24) as usize);
    let (frames, ofs_frames) = (i32_at(40) as usize, i32_at(56) as usize);
    assert_eq!(frame_size, 40 + 4 * vertices);
    (0..frames)
        .map(|f| {
            let at = ofs_frames + f * frame_size;
            let v3 = |at: usize| {
                DVec3::new(
                    f64::from(f32_at(at)),
                    f64::from(f32_at(at + 4)),
                    f64::from(f32_at(at + 8)),
                )
            };
            let (scale, translate) = (v3(at), v3(at + 12));
            let positions = (0..vertices)
                .map(|v| {
                    let b = &bytes[at + 40 + 4 * v..at + 43 + 4 * v];
                    DVec3::new(f64::from(b[0]), f64::from(b[1]), f64::from(b[2])) * scale
                        + translate
                })
                .collect();
            Frame { scale, positions }
        })
        .collect()
}

/// For each MD2 vertex of `frame`, the nearest vertex of `source` (Quake
/// axes), a different one for each: the source's vertices lie far apart,
/// so the nearest is its own.
fn nearest(frame: &Frame, source: &[DVec3]) -> Vec<usize> {
    assert_eq!(
        frame.positions.len(),
        source.len(),
        "one MD2 vertex per grid vertex"
    );
    let mut used = vec![false; source.len()];
    frame
        .positions
        .iter()
        .map(|p| {
            let (i, _) = source
                .iter()
                .enumerate()
                .min_by(|a, b| (*a.1 - *p).length().total_cmp(&(*b.1 - *p).length()))
                .unwrap();
            assert!(!used[i], "two MD2 vertices nearest source vertex {i}");
            used[i] = true;
            i
        })
        .collect()
}

/// The largest error of `frame` against `source` on any axis, in grid
/// steps of that axis, MD2 vertex `v` against source vertex `map[v]`.
fn steps_off(frame: &Frame, source: &[DVec3], map: &[usize]) -> f64 {
    frame
        .positions
        .iter()
        .zip(map)
        .map(|(p, &i)| ((*p - source[i]).abs() / frame.scale).max_element())
        .fold(0.0, f64::max)
}

/// The smallest distance between two vertices.
fn closest_pair(points: &[DVec3]) -> f64 {
    let mut d = f64::MAX;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            d = d.min((*p - *q).length());
        }
    }
    d
}

fn scene_of(glb: &[u8]) -> Scene {
    let i = import(glb, None, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !i.warnings.iter().any(|w| w.message.contains("weight")),
        "{:?}",
        i.warnings
    );
    i.scene
}

/// Compiles `glb` to MD2 and measures every frame against the source posed
/// with every influence and with the four largest only (in grid steps of
/// the worse axis); `seconds` is the animation's length.
fn md2_against_source(glb: &[u8], seconds: f64) -> (f64, f64) {
    let source = Evaluator::new(glb);
    let scene = scene_of(glb);
    let c = md2_compile(&scene, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let frames = md2_frames(&c.model.to_bytes().unwrap());
    // One animation at 10 frames per second, both ends included.
    assert_eq!(frames.len() as f64, (seconds * 10.0).round() + 1.0);
    let (mut all, mut four) = (0.0f64, 0.0f64);
    for (f, frame) in frames.iter().enumerate() {
        let t = f as f64 / 10.0;
        let posed: Vec<DVec3> = source
            .pose(t, usize::MAX)
            .into_iter()
            .map(to_quake)
            .collect();
        let step = frame.scale.max_element();
        assert!(
            closest_pair(&posed) > 20.0 * step,
            "frame {f}: vertices {} apart, step {step}",
            closest_pair(&posed)
        );
        let map = nearest(frame, &posed);
        all = all.max(steps_off(frame, &posed, &map));
        let largest: Vec<DVec3> = source.pose(t, 4).into_iter().map(to_quake).collect();
        four = four.max(steps_off(frame, &largest, &map));
    }
    (all, four)
}

#[test]
fn an_md2_baked_from_eight_influences_is_within_half_a_step_of_all_of_them() {
    let glb = eight_influence_glb();
    assert!(Evaluator::new(&glb)
        .influences()
        .iter()
        .all(|l| l.len() == JOINTS));
    let (all, four) = md2_against_source(&glb, 1.0);
    eprintln!(
        "MD2 against every influence: {all:.3} steps; against the four largest: {four:.3} steps"
    );
    assert!(all <= 0.5 + 1e-3, "{all} steps off");
    // The check can fail: posed with the four largest only, the grid is
    // steps away from the MD2.
    assert!(four > 2.0, "{four}");
}

/// Blender 3.4's own export of a rig with eight influences per vertex
/// (`export_all_influences`; the fixture is made by
/// `tests/blender/eight_influences.py`, our own content).
#[test]
fn an_md2_baked_from_blenders_eight_influences_is_within_half_a_step_of_all_of_them() {
    let glb = include_bytes!("fixtures/blender_eight_influences.glb");
    let source = Evaluator::new(glb);
    assert!(source.doc.json["meshes"][0]["primitives"][0]["attributes"]
        .get("JOINTS_1")
        .is_some());
    assert!(source.influences().iter().all(|l| l.len() == 8));
    let (all, four) = md2_against_source(glb, 1.0);
    eprintln!("Blender's rig: MD2 against every influence: {all:.3} steps; against the four largest: {four:.3} steps");
    assert!(all <= 0.5 + 1e-3, "{all} steps off");
    assert!(four > 2.0, "{four}");
}

#[test]
fn an_ms3d_keeps_the_four_largest_in_whole_percents_and_reports_it() {
    let glb = eight_influence_glb();
    let source = Evaluator::new(&glb);
    let scene = scene_of(&glb);
    let c = ms3d_compile(&scene, &Ms3dCompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let model = &c.model;
    let n = SIDE * SIDE;
    assert!(
        c.warnings
            .iter()
            .any(|w| matches!(w, Ms3dCompileWarning::Weights { dropped, .. } if *dropped == n)),
        "{:?}",
        c.warnings
    );
    assert_eq!(model.vertices.len(), n, "one vertex per grid vertex");
    // The extras as MilkShape 1.8.x stores them (MS3D.md): subversion 1 to
    // 3, percentages 0–100 whose three stored ones sum to at most 100.
    let extras = model.extras.vertices.as_ref().expect("vertex extras");
    assert!((1..=3).contains(&extras.subversion));
    for r in &extras.records {
        assert!(
            r.weights.iter().map(|&w| u32::from(w)).sum::<u32>() <= 100,
            "{r:?}"
        );
    }
    let name = |j: usize| String::from_utf8_lossy(model.joints[j].name.as_bytes()).into_owned();
    let influences = source.influences();
    let rest = source.pose(0.0, usize::MAX);
    for (v, inf) in Influences::new(model).vertices.iter().enumerate() {
        // The grid vertex at this MS3D vertex's position.
        let p = DVec3::from(model.vertices[v].position.map(f64::from));
        let g = (0..n)
            .min_by(|&a, &b| (rest[a] - p).length().total_cmp(&(rest[b] - p).length()))
            .unwrap();
        assert!((rest[g] - p).length() < 1e-4);
        let mut want = influences[g].clone();
        want.sort_by(|a, b| b.1.total_cmp(&a.1));
        want.truncate(4);
        let sum: f64 = want.iter().map(|e| e.1).sum();
        assert_eq!(inf.count, 4, "vertex {v}");
        let mut got: Vec<(String, f64)> = (0..4)
            .map(|k| (name(usize::from(inf.joints[k])), f64::from(inf.weights[k])))
            .collect();
        got.sort_by(|a, b| b.1.total_cmp(&a.1));
        for ((gj, gw), (wj, ww)) in got.iter().zip(&want) {
            assert_eq!(*gj, format!("j{}", wj), "vertex {v}: {got:?} vs {want:?}");
            // Whole percentages by largest remainder: under a point off.
            assert!(
                (gw - ww / sum).abs() < 0.01,
                "vertex {v}: {got:?} vs {want:?}"
            );
        }
    }
    // What dropping costs is the reported error: the four largest put the
    // grid this far from every influence (the most over the animation,
    // relative to the rest pose's diagonal), and MilkShape's skinning of
    // the file adds only rounding to whole percents and keys.
    let (lo, hi) = rest.iter().fold((DVec3::MAX, DVec3::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    let extent = (hi - lo).length();
    let loss = (0..=100)
        .map(|k| {
            let t = f64::from(k) / 100.0;
            let four = source.pose(t, 4);
            source
                .pose(t, usize::MAX)
                .iter()
                .zip(four)
                .map(|(a, b)| (*a - b).length())
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
        / extent;
    let reported = f64::from(c.report.max_error());
    eprintln!(
        "MS3D: reported error {reported:.3e} of the extent; the four largest lose up to {loss:.3e}"
    );
    assert!(loss > 1e-2, "{loss}");
    assert!(
        (reported - loss).abs() < 0.05 * loss,
        "reported {reported} vs {loss}"
    );
}

/// One set of four influences: joints and weights per vertex.
type Set = (Vec<[u16; 4]>, Vec<[f32; 4]>);

/// Every `JOINTS_n`/`WEIGHTS_n` set of a scene's first mesh.
fn sets(scene: &Scene) -> Vec<Set> {
    let s = scene.meshes[0].skin.as_ref().expect("skinned");
    s.sets().map(|(j, w)| (j.to_vec(), w.to_vec())).collect()
}

#[test]
fn gltf_export_and_import_keep_every_set() {
    let glb = eight_influence_glb();
    let scene = scene_of(&glb);
    assert_eq!(sets(&scene).len(), 2);
    let out = to_glb(&scene).unwrap();
    let doc = parse_glb(&out);
    let attributes = &doc.json["meshes"][0]["primitives"][0]["attributes"];
    for key in ["JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1"] {
        assert!(attributes.get(key).is_some(), "{key} in {attributes}");
    }
    assert!(attributes.get("JOINTS_2").is_none());
    // The export poses as the source does, read by the test's evaluator.
    let (a, b) = (Evaluator::new(&glb), Evaluator::new(&out));
    for t in [0.0, 0.3, 0.75, 1.0] {
        for (p, q) in a.pose(t, usize::MAX).iter().zip(b.pose(t, usize::MAX)) {
            assert!((*p - q).length() < 1e-4, "t {t}: {p} vs {q}");
        }
    }
    // And imports back with the same sets.
    let back = scene_of(&out);
    let (x, y) = (sets(&scene), sets(&back));
    assert_eq!(x.len(), y.len());
    for ((xj, xw), (yj, yw)) in x.iter().zip(&y) {
        assert_eq!(xj, yj);
        for (p, q) in xw.iter().flatten().zip(yw.iter().flatten()) {
            assert!((p - q).abs() < 1e-6);
        }
    }
}

/// The Khronos glTF validator (`acceptance/validate.mjs`, which exits 1 on
/// any error) on the export; skipped with a note when the acceptance
/// folder's node modules are not installed (`cd acceptance && npm ci`).
#[test]
fn the_khronos_validator_accepts_an_export_with_eight_influences() {
    let acceptance = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../acceptance");
    if !acceptance.join("node_modules/gltf-validator").is_dir() {
        eprintln!("skipped: no acceptance/node_modules (cd acceptance && npm ci)");
        return;
    }
    let scene = scene_of(&eight_influence_glb());
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("eight_influences.glb");
    std::fs::write(&path, to_glb(&scene).unwrap()).unwrap();
    let out = Command::new("node")
        .arg(acceptance.join("validate.mjs"))
        .arg(&path)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the validator found errors");
    assert!(text.contains("eight_influences.glb"), "{text}");
}
