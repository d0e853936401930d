//! `md3::compile` checked against oracles independent of the compiler:
//! the MD3's bytes are decoded here (qfiles.h's layout: 16-bit
//! positions × 1/64), and the source positions are computed here from the
//! glTF's accessors (morph targets weighted by the animation's own
//! sampler; joints skinned from the skin's inverse bind matrices and the
//! nodes' sampled transforms, in f64), from an MD2's bytes, or from the
//! OpenArena MD3's bytes. Every corner at every frame is within half of
//! 1/64 unit of its source.

#![cfg(all(feature = "scene", feature = "gltf"))]

use glam::{DMat4, DQuat, DVec3};
use retromodel::md3::compile::{compile, CompileOptions, Compiled};
use retromodel::md3::Md3;
use retromodel::scene::Scene;
use retromodel::{Engine, Severity};
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::glb::{parse_glb, sample, Doc};

/// Half of 1/64 unit, and float slack (the source's own f32 rounding).
const BOUND: f64 = 1.0 / 128.0 + 1e-5;

/// A normal word as ioquake3 decodes it (`tr_surface.c`,
/// `LerpMeshVertexes`): latitude the high byte, longitude the low, each × 4
/// an entry of a 1024-entry table of `sin(i · 2π / 1023)`, the cosine the
/// entry 256 on.
fn normal_of(word: u16) -> [f64; 3] {
    let sin = |i: usize| ((i & 1023) as f64 * std::f64::consts::TAU / 1023.0).sin();
    let (lat, lng) = (usize::from(word >> 8) * 4, usize::from(word & 0xff) * 4);
    [
        sin(lat + 256) * sin(lng),
        sin(lat) * sin(lng),
        sin(lng + 256),
    ]
}

// ---------------------------------------------------------------------
// An MD3 decoder of its own (ioquake3's code/qcommon/qfiles.h).

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn name_at(b: &[u8], at: usize, len: usize) -> String {
    let raw = &b[at..at + len];
    let end = raw
        .iter()
        .position(|&c| c == 0)
        .expect("a NUL ends the name");
    String::from_utf8(raw[..end].to_vec()).unwrap()
}

struct DecodedSurface {
    name: String,
    shader: String,
    triangles: Vec<[usize; 3]>,
    st: Vec<[f32; 2]>,
    /// Per frame, per vertex: the position in units.
    xyz: Vec<Vec<[f64; 3]>>,
    /// Per frame, per vertex: the normal word (latitude high byte).
    normals: Vec<Vec<u16>>,
}

struct Decoded {
    frames: Vec<(String, [f32; 3], [f32; 3], f32)>,
    /// Per frame: each tag's name and origin.
    tags: Vec<Vec<(String, [f32; 3])>>,
    surfaces: Vec<DecodedSurface>,
}

fn decode(b: &[u8]) -> Decoded {
    assert_eq!(&b[0..4], b"IDP3");
    assert_eq!(i32_at(b, 4), 15);
    let h = |i: usize| i32_at(b, 72 + 4 * i) as usize;
    let (nf, nt, ns) = (h(1), h(2), h(3));
    let (ofs_frames, ofs_tags, ofs_surfaces, ofs_end) = (h(5), h(6), h(7), h(8));
    assert_eq!(ofs_end, b.len(), "ofsEnd is the file's length");
    let v3 = |at: usize| [0, 1, 2].map(|k| f32_at(b, at + 4 * k));
    let frames = (0..nf)
        .map(|f| {
            let at = ofs_frames + 56 * f;
            (
                name_at(b, at + 40, 16),
                v3(at),
                v3(at + 12),
                f32_at(b, at + 36),
            )
        })
        .collect();
    let tags = (0..nf)
        .map(|f| {
            (0..nt)
                .map(|t| {
                    let at = ofs_tags + 112 * (f * nt + t);
                    (name_at(b, at, 64), v3(at + 64))
                })
                .collect()
        })
        .collect();
    let mut surfaces = Vec::new();
    let mut at = ofs_surfaces;
    for _ in 0..ns {
        assert_eq!(&b[at..at + 4], b"IDP3");
        let s = |i: usize| i32_at(b, at + 68 + 4 * i) as usize;
        let (sf, nsh, nv, ntri) = (s(1), s(2), s(3), s(4));
        assert_eq!(sf, nf, "a surface's frames are the model's");
        let (ot, osh, ost, oxyz, oend) = (s(5), s(6), s(7), s(8), s(9));
        let triangles = (0..ntri)
            .map(|t| [0, 1, 2].map(|k| i32_at(b, at + ot + 12 * t + 4 * k) as usize))
            .collect();
        let st = (0..nv)
            .map(|v| [0, 1].map(|k| f32_at(b, at + ost + 8 * v + 4 * k)))
            .collect();
        let xyz = (0..nf)
            .map(|f| {
                (0..nv)
                    .map(|v| {
                        let p = at + oxyz + 8 * (f * nv + v);
                        [0, 1, 2].map(|k| {
                            f64::from(i16::from_le_bytes([b[p + 2 * k], b[p + 2 * k + 1]])) / 64.0
                        })
                    })
                    .collect()
            })
            .collect();
        let normals = (0..nf)
            .map(|f| {
                (0..nv)
                    .map(|v| {
                        let p = at + oxyz + 8 * (f * nv + v) + 6;
                        u16::from_le_bytes([b[p], b[p + 1]])
                    })
                    .collect()
            })
            .collect();
        surfaces.push(DecodedSurface {
            name: name_at(b, at + 4, 64),
            shader: if nsh > 0 {
                name_at(b, at + osh, 64)
            } else {
                String::new()
            },
            triangles,
            st,
            xyz,
            normals,
        });
        at += oend;
    }
    Decoded {
        frames,
        tags,
        surfaces,
    }
}

/// The checks that need no source: the reader reads the bytes back, and
/// neither `validate` nor ioquake3's profile finds an error; each frame's
/// bounds hold its vertices and its radius the bounds.
fn check_common(name: &str, c: &Compiled) -> (Vec<u8>, Decoded) {
    let bytes = c.model.to_bytes().unwrap();
    let back = Md3::from_bytes(&bytes).unwrap();
    for problems in [back.validate(), back.validate_for(Engine::Ioquake3)] {
        let errors: Vec<_> = problems
            .into_iter()
            .filter(|p| p.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
    let d = decode(&bytes);
    for (f, (_, min, max, radius)) in d.frames.iter().enumerate() {
        for s in &d.surfaces {
            for p in &s.xyz[f] {
                for a in 0..3 {
                    assert!(p[a] >= f64::from(min[a]) && p[a] <= f64::from(max[a]));
                }
                let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                assert!(r <= f64::from(*radius) + 1e-4, "{name}: frame {f} radius");
            }
        }
    }
    assert!(c.report.max_error <= 1.0 / 128.0, "{name}: {:?}", c.report);
    (bytes, d)
}

fn corpus() -> Option<std::path::PathBuf> {
    let dir = corpus_dir();
    if dir.is_none() {
        eprintln!("no corpus: skipped");
    }
    dir
}

/// Scene (Y up) to Quake (Z up) axes, as the documentation states.
fn to_quake(p: [f64; 3]) -> [f64; 3] {
    [p[2], p[0], p[1]]
}

/// The frame times of an animation of `duration` seconds sampled at
/// `fps`, by the documented rule.
fn frame_times(duration: f64, fps: f64) -> Vec<f64> {
    let intervals = duration * fps;
    let m = intervals.round().max(1.0) as usize;
    let whole = (intervals - m as f64).abs() <= 1e-3;
    (0..=m)
        .map(|j| {
            if j == m {
                duration
            } else if whole {
                j as f64 / fps
            } else {
                j as f64 * duration / m as f64
            }
        })
        .collect()
}

/// Every corner of every triangle of surface `s` at frame `f` against
/// `want(mesh, triangle, corner of the scene triangle)`; MD3 corners
/// `[a, b, c]` are the scene's `[a, c, b]`. The largest error.
fn compare_frame(
    c: &Compiled,
    d: &Decoded,
    f: usize,
    want: &mut dyn FnMut(usize, usize, usize) -> [f64; 3],
) -> f64 {
    let mut worst = 0.0f64;
    for (s, surface) in d.surfaces.iter().enumerate() {
        for (t, tri) in surface.triangles.iter().enumerate() {
            let (mesh, k) = c.triangle_sources[s][t];
            for (corner, scene_corner) in [0, 2, 1].into_iter().enumerate() {
                let q = want(mesh, k, scene_corner);
                let got = surface.xyz[f][tri[corner]];
                for a in 0..3 {
                    let e = (got[a] - q[a]).abs();
                    worst = worst.max(e);
                    assert!(
                        e <= BOUND * (1.0 + q[a].abs() * 1e-3),
                        "frame {f} surface {s} triangle {t} corner {corner} axis {a}: {} vs {}",
                        got[a],
                        q[a]
                    );
                }
            }
        }
    }
    worst
}

fn accessor(doc: &Doc, i: &serde_json::Value) -> Vec<f32> {
    doc.read(i.as_u64().unwrap() as usize)
}

#[test]
fn shapekeys_every_corner_within_half_of_a_64th() {
    let Some(corpus) = corpus() else { return };
    let bytes = std::fs::read(corpus.join("gltf/blender_shapekeys.glb")).unwrap();
    let scene = retromodel::gltf::import(&bytes, None, &Default::default())
        .unwrap()
        .scene;
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let (_, d) = check_common("shapekeys", &c);

    let doc = parse_glb(&bytes);
    let j = &doc.json;
    assert!(j["nodes"][0].get("matrix").is_none() && j["nodes"][0].get("rotation").is_none());
    let prim = &j["meshes"][0]["primitives"][0];
    let base = doc.read3(prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    let uvs = accessor(&doc, &prim["attributes"]["TEXCOORD_0"]);
    let indices = accessor(&doc, &prim["indices"]);
    let targets: Vec<Vec<[f32; 3]>> = prim["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| doc.read3(t["POSITION"].as_u64().unwrap() as usize))
        .collect();
    let sampler = &j["animations"][0]["samplers"][0];
    let times = accessor(&doc, &sampler["input"]);
    let weights = accessor(&doc, &sampler["output"]);
    let when = frame_times(f64::from(*times.last().unwrap()), 15.0);
    assert_eq!(d.frames.len(), when.len());
    assert_eq!(d.frames[0].0, "morph_pulse1");
    assert_eq!(d.surfaces.len(), 1);
    let mut worst = 0.0f64;
    for (f, &t) in when.iter().enumerate() {
        let w = sample(&times, &weights, targets.len(), "LINEAR", t);
        worst = worst.max(compare_frame(&c, &d, f, &mut |mesh, k, corner| {
            assert_eq!(mesh, 0);
            let v = indices[3 * k + corner] as usize;
            let mut p = base[v].map(f64::from);
            for (target, wk) in targets.iter().zip(&w) {
                for a in 0..3 {
                    p[a] += wk * f64::from(target[v][a]);
                }
            }
            to_quake(p)
        }));
    }
    // Texture coordinates as they are (MD3's t and glTF's v both run
    // down the image).
    let s = &d.surfaces[0];
    for (t, tri) in s.triangles.iter().enumerate() {
        let (_, k) = c.triangle_sources[0][t];
        for (corner, scene_corner) in [0, 2, 1].into_iter().enumerate() {
            let v = indices[3 * k + scene_corner] as usize;
            assert_eq!(s.st[tri[corner]], [uvs[2 * v], uvs[2 * v + 1]]);
        }
    }
    eprintln!(
        "shapekeys: {} frames, {} vertices, worst {worst:.6} units (report {:.6}, rms {:.6})",
        d.frames.len(),
        c.report.vertices,
        c.report.max_error,
        c.report.rms_error
    );
    assert!(worst <= BOUND);
}

/// The local transforms of every node at `t` in animation `anim` (rest
/// TRS overridden by its channels), composed from the scene's roots.
fn node_globals(doc: &Doc, anim: usize, t: f64) -> Vec<DMat4> {
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    let nodes = doc.json["nodes"].as_array().unwrap();
    let mut trs: Vec<(DVec3, DQuat, DVec3)> = nodes
        .iter()
        .map(|n| {
            let v = |k: &str, d: &[f64]| -> Vec<f64> {
                n.get(k).map_or(d.to_vec(), |a| {
                    a.as_array().unwrap().iter().map(f).collect()
                })
            };
            let (tr, r, s) = (
                v("translation", &[0.0; 3]),
                v("rotation", &[0.0, 0.0, 0.0, 1.0]),
                v("scale", &[1.0; 3]),
            );
            assert!(n.get("matrix").is_none());
            (
                DVec3::new(tr[0], tr[1], tr[2]),
                DQuat::from_xyzw(r[0], r[1], r[2], r[3]),
                DVec3::new(s[0], s[1], s[2]),
            )
        })
        .collect();
    let a = &doc.json["animations"][anim];
    for c in a["channels"].as_array().unwrap() {
        let s = &a["samplers"][c["sampler"].as_u64().unwrap() as usize];
        let interpolation = s["interpolation"].as_str().unwrap_or("LINEAR");
        let (times, values) = (accessor(doc, &s["input"]), accessor(doc, &s["output"]));
        let node = c["target"]["node"].as_u64().unwrap() as usize;
        match c["target"]["path"].as_str().unwrap() {
            "translation" => {
                let v = sample(&times, &values, 3, interpolation, t);
                trs[node].0 = DVec3::new(v[0], v[1], v[2]);
            }
            "rotation" => {
                let v = sample(&times, &values, 4, interpolation, t);
                trs[node].1 = DQuat::from_xyzw(v[0], v[1], v[2], v[3]).normalize();
            }
            "scale" => {
                let v = sample(&times, &values, 3, interpolation, t);
                trs[node].2 = DVec3::new(v[0], v[1], v[2]);
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

/// Blender's skinned walker (two actions, idle and walk), skinned here in
/// f64 from its accessors by glTF's rule (Σ wᵢ · G(jointᵢ) · IBMᵢ · p):
/// every corner of every frame at 15 fps within half of 1/64 unit.
#[test]
fn skinned_walker_every_corner_within_half_of_a_64th() {
    let Some(corpus) = corpus() else { return };
    let bytes = std::fs::read(corpus.join("gltf/blender_walker.glb")).unwrap();
    let scene = retromodel::gltf::import(&bytes, None, &Default::default())
        .unwrap()
        .scene;
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let (_, d) = check_common("walker", &c);

    let doc = parse_glb(&bytes);
    let j = &doc.json;
    let prim = &j["meshes"][0]["primitives"][0];
    let pos = doc.read3(prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    let joints_of = accessor(&doc, &prim["attributes"]["JOINTS_0"]);
    let weights_of = accessor(&doc, &prim["attributes"]["WEIGHTS_0"]);
    let indices = accessor(&doc, &prim["indices"]);
    let skin = &j["skins"][0];
    let joints: Vec<usize> = skin["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    let ibm = accessor(&doc, &skin["inverseBindMatrices"]);
    let anims = j["animations"].as_array().unwrap();
    let mut f = 0;
    let mut worst = 0.0f64;
    for (a, anim) in anims.iter().enumerate() {
        let duration = anim["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| *accessor(&doc, &s["input"]).last().unwrap())
            .fold(0.0f32, f32::max);
        let when = frame_times(f64::from(duration), 15.0);
        assert_eq!(c.report.animations[a].first_frame, f);
        assert_eq!(c.report.animations[a].frames, when.len());
        for &t in &when {
            let globals = node_globals(&doc, a, t);
            let skinning: Vec<DMat4> = joints
                .iter()
                .enumerate()
                .map(|(i, &n)| {
                    globals[n]
                        * DMat4::from_cols_array(&std::array::from_fn(|k| {
                            f64::from(ibm[16 * i + k])
                        }))
                })
                .collect();
            worst = worst.max(compare_frame(&c, &d, f, &mut |mesh, k, corner| {
                assert_eq!(mesh, 0);
                let v = indices[3 * k + corner] as usize;
                let p = DVec3::from(pos[v].map(f64::from));
                let skinned: DVec3 = (0..4)
                    .map(|i| {
                        skinning[joints_of[4 * v + i] as usize].transform_point3(p)
                            * f64::from(weights_of[4 * v + i])
                    })
                    .sum();
                to_quake(skinned.to_array())
            }));
            f += 1;
        }
    }
    assert_eq!(f, d.frames.len());
    eprintln!(
        "walker: {} frames, {} vertices in {} surfaces, worst {worst:.6} units (report {:.6})",
        f,
        c.report.vertices,
        d.surfaces.len(),
        c.report.max_error
    );
}

/// Tags from nodes: the walker's `lower_arm.L` and `head` joints renamed
/// `tag_weapon` and `tag_head`, whose transforms (a chain of animated
/// joints under the rig) are computed here in f64 at every frame: each
/// tag's origin is the node's, and its axes the node's transforms of
/// Quake's forward, left and up, all in Quake's axes.
#[test]
fn walker_joints_as_tags_follow_their_nodes() {
    let Some(corpus) = corpus() else { return };
    let bytes = std::fs::read(corpus.join("gltf/blender_walker.glb")).unwrap();
    let mut scene = retromodel::gltf::import(&bytes, None, &Default::default())
        .unwrap()
        .scene;
    let doc = parse_glb(&bytes);
    let names = [("lower_arm.L", "tag_weapon"), ("head", "tag_head")];
    let mut gltf_nodes = Vec::new();
    for (from, to) in names {
        let n = scene.nodes.iter_mut().find(|n| n.name == from).unwrap();
        n.name = to.to_string();
        let g = doc.json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n["name"] == from)
            .unwrap();
        gltf_nodes.push(g);
    }
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let (_, d) = check_common("walker with tags", &c);
    // Tags in node order: head (glTF node 0) before lower_arm.L (1).
    assert_eq!(d.tags[0].len(), 2);
    let order: Vec<&str> = d.tags[0].iter().map(|t| t.0.as_str()).collect();
    assert_eq!(order, ["tag_head", "tag_weapon"]);
    gltf_nodes.reverse();
    let anims = doc.json["animations"].as_array().unwrap();
    let mut f = 0;
    let mut worst = 0.0f64;
    for (a, anim) in anims.iter().enumerate() {
        let duration = anim["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| *accessor(&doc, &s["input"]).last().unwrap())
            .fold(0.0f32, f32::max);
        for t in frame_times(f64::from(duration), 15.0) {
            let globals = node_globals(&doc, a, t);
            for (k, &g) in gltf_nodes.iter().enumerate() {
                let m = globals[g];
                let origin = to_quake(m.w_axis.truncate().to_array());
                let tag = &c.model.frame_tags(f).unwrap()[k];
                // The origin as the file holds it.
                let stored = d.tags[f][k].1;
                for i in 0..3 {
                    worst = worst.max((f64::from(stored[i]) - origin[i]).abs());
                }
                // Quake axis i is scene axis (z, x, y)[i].
                for (i, scene_axis) in [DVec3::Z, DVec3::X, DVec3::Y].into_iter().enumerate() {
                    let want = to_quake(m.transform_vector3(scene_axis).normalize().to_array());
                    for j in 0..3 {
                        let e = (f64::from(tag.axes[i][j]) - want[j]).abs();
                        assert!(
                            e < 1e-4,
                            "frame {f} tag {k} axis {i}: {:?} vs {want:?}",
                            tag.axes[i]
                        );
                    }
                }
            }
            f += 1;
        }
    }
    assert_eq!(f, d.frames.len());
    eprintln!("walker tags: {f} frames, origins within {worst:.2e} units");
    assert!(worst < 1e-4);
}

/// An MD2 (Sydney, 198 frames) through its scene at its own 10 fps: every
/// MD3 corner within half of 1/64 unit of the MD2's decoded position, read
/// here from the MD2's bytes.
#[test]
fn sydney_md2_to_md3_within_half_of_a_64th_of_the_md2() {
    let Some(corpus) = corpus() else { return };
    let md2_bytes = std::fs::read(corpus.join("md2/assimpdeb_sydney.md2")).unwrap();
    let md2 = retromodel::md2::Md2::from_bytes(&md2_bytes).unwrap();
    let scene = Scene::from_md2(&md2, &Default::default());
    let options = CompileOptions {
        fps: 10.0,
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    let (_, d) = check_common("sydney", &c);
    let h = |i: usize| i32_at(&md2_bytes, 4 + 4 * i) as usize;
    let framesize = h(3);
    let (num_frames, ofs_tris, ofs_frames) = (h(9), h(12), h(13));
    assert_eq!(d.frames.len(), num_frames);
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([md2_bytes[at], md2_bytes[at + 1]]));
    let mut worst = 0.0f64;
    for f in 0..num_frames {
        let at = ofs_frames + f * framesize;
        let s = [0, 1, 2].map(|k| f32_at(&md2_bytes, at + 4 * k));
        let t = [0, 1, 2].map(|k| f32_at(&md2_bytes, at + 12 + 4 * k));
        worst = worst.max(compare_frame(&c, &d, f, &mut |_, k, scene_corner| {
            // The MD2's triangle k is [a, b, c] clockwise; the scene's is
            // [a, c, b]: scene corner i is MD2 corner [0, 2, 1][i].
            let md2_corner = [0, 2, 1][scene_corner];
            let v = u16_at(ofs_tris + 12 * k + 2 * md2_corner);
            let b = &md2_bytes[at + 40 + 4 * v..];
            [0, 1, 2].map(|a| f64::from(f32::from(b[a]) * s[a] + t[a]))
        }));
    }
    eprintln!(
        "sydney: {num_frames} frames, {} vertices, worst {worst:.6} units (report {:.6})",
        c.report.vertices, c.report.max_error
    );
}

/// OpenArena's MD3s (a few, spread over the packages) to glTF and back:
/// every corner of every frame keeps its stored position within 1/128
/// unit (the same i16 but for the glTF's f32 rounding), the surfaces
/// their names and texture coordinates, and at least 99.9% of the normal
/// words (the rest decode within 2.6° of the original); compiled straight
/// from the lifted scene, their shaders too.
#[test]
fn openarena_md3_through_gltf_and_back() {
    let Some(dir) = retromodel_testkit::openarena::openarena_dir() else {
        return;
    };
    let files = retromodel_testkit::openarena::md3_files(&dir);
    let mut checked = 0;
    let mut exact = 0usize;
    let mut corners = 0usize;
    let mut same_normal = 0usize;
    for entry in files.iter().step_by(23) {
        let original = Md3::from_bytes(&entry.bytes).unwrap();
        if original.surfaces.is_empty() || original.frames.is_empty() {
            continue;
        }
        let lifted = Scene::from_md3(&original, &Default::default()).unwrap();
        // Straight from the lifted scene, the shaders come back (a glTF
        // keeps no texture without an image, so not through one).
        let direct = compile(
            &lifted,
            &CompileOptions {
                engine: None,
                ..Default::default()
            },
        )
        .unwrap();
        let glb = retromodel::gltf::to_glb(&lifted).unwrap();
        let scene = retromodel::gltf::import(&glb, None, &Default::default())
            .unwrap()
            .scene;
        let options = CompileOptions {
            engine: None,
            ..CompileOptions::default()
        };
        let c = compile(&scene, &options).unwrap();
        let bytes = c.model.to_bytes().unwrap();
        let d = decode(&bytes);
        let mut o = decode(&entry.bytes);
        // A surface without triangles (tony's l_belt) has nothing to
        // compile.
        o.surfaces.retain(|s| !s.triangles.is_empty());
        let direct = decode(&direct.model.to_bytes().unwrap());
        assert_eq!(direct.surfaces.len(), o.surfaces.len(), "{}", entry.key);
        for (a, b) in direct.surfaces.iter().zip(&o.surfaces) {
            assert_eq!(a.shader, b.shader, "{}", entry.key);
        }
        assert_eq!(d.frames.len(), o.frames.len(), "{}", entry.key);
        assert_eq!(d.surfaces.len(), o.surfaces.len(), "{}", entry.key);
        for (s, (ds, os)) in d.surfaces.iter().zip(&o.surfaces).enumerate() {
            assert_eq!(ds.name, os.name, "{}", entry.key);
            for (t, tri) in ds.triangles.iter().enumerate() {
                let (_, k) = c.triangle_sources[s][t];
                let otri = os.triangles[k];
                for corner in 0..3 {
                    assert_eq!(ds.st[tri[corner]], os.st[otri[corner]], "{}", entry.key);
                    for f in 0..d.frames.len() {
                        let (got, want) = (ds.xyz[f][tri[corner]], os.xyz[f][otri[corner]]);
                        for a in 0..3 {
                            assert!(
                                (got[a] - want[a]).abs() <= 1.0 / 128.0,
                                "{}: frame {f} surface {s} triangle {t}: {got:?} vs {want:?}",
                                entry.key
                            );
                        }
                        corners += 1;
                        exact += usize::from(got == want);
                        let (n, m) = (ds.normals[f][tri[corner]], os.normals[f][otri[corner]]);
                        if n == m {
                            same_normal += 1;
                        } else {
                            let (u, w) = (normal_of(n), normal_of(m));
                            let dot: f64 = (0..3).map(|i| u[i] * w[i]).sum();
                            assert!(dot > 0.999, "{}: normal {n:#06x} vs {m:#06x}", entry.key);
                        }
                    }
                }
            }
        }
        checked += 1;
    }
    eprintln!(
        "OpenArena: {checked} models through glTF and back, {exact} of {corners} corner positions identical, {same_normal} normal words identical"
    );
    assert!(checked > 5, "{checked}");
    assert!(same_normal as f64 >= 0.999 * corners as f64);
}
