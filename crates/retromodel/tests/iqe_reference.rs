//! Our IQE compiler (`Iqe::to_iqm`) against lsalzman/iqm's reference
//! compiler, on our own test models.
//!
//! How the facts were made (CI cannot build the reference tool, so its
//! outputs' facts are committed, never its binaries or source):
//!
//! 1. `python3 tools/iqm/make_iqe.py crates/retromodel/tests/data/iqm_reference`
//!    writes `rig.iqe`, `scaled.iqe` and `extras.iqe` (ours, CC0,
//!    procedural).
//! 2. The reference compiler, `iqm.cpp` of lsalzman/iqm at commit
//!    `8554dca2b86dc3845981fad6758d3829ce0d4a56`, built with
//!    `g++ -O2 -o iqm iqm.cpp`, compiled each: `iqm rig.iqm rig.iqe`.
//! 3. `python3 tools/iqm/reference_facts.py facts.json rig.iqe=rig.iqm
//!    scaled.iqe=scaled.iqm extras.iqe=extras.iqm` read those IQM files with its own little
//!    reader and wrote `facts.json`: counts, arrays, meshes, joints,
//!    poses, raw and decoded frames, bounds, the triangles as sorted
//!    corner keys with their adjacency, and each vertex's skinned position
//!    at every frame.
//!
//! Known differences, checked as such: the reference reorders triangles
//! and vertices for the vertex cache (we keep the file's order), so
//! triangles compare as sets and vertices by their attributes; its
//! adjacency is computed over mismatched vertex numbers (see below); it
//! leaves NaN tangents where we leave zero ones.

use std::collections::HashMap;

use retromodel::iqm::iqe::Iqe;
use retromodel::iqm::{ArrayKind, Iqm};
use serde_json::Value;

fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/iqm_reference")
}

fn facts() -> serde_json::Map<String, Value> {
    let bytes = std::fs::read(data_dir().join("facts.json")).unwrap();
    serde_json::from_slice::<Value>(&bytes)
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
}

fn compile(name: &str) -> Iqm {
    let text = std::fs::read(data_dir().join(name)).unwrap();
    Iqe::parse(&text)
        .and_then(|iqe| iqe.to_iqm())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn close(a: &[f64], b: &[f64], tol: f64, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!(
            (x - y).abs() <= tol * (1.0 + y.abs()),
            "{what}: {a:?} vs {b:?}"
        );
    }
}

/// `"%.4f"` of `x + 0.0`, as the facts script writes it.
fn r4(x: f64) -> String {
    format!("{:.4}", x + 0.0)
}

/// A corner's key as `reference_facts.py`'s `corner_key` makes it.
fn corner_key(m: &Iqm, v: usize) -> String {
    let mut parts = Vec::new();
    for kind in [ArrayKind::Position, ArrayKind::Texcoord, ArrayKind::Normal] {
        if let Some(a) = m.array(kind) {
            let c = a.vertex4(v, false);
            let s: Vec<String> = c[..a.size as usize].iter().map(|&x| r4(x)).collect();
            parts.push(s.join(","));
        }
    }
    if let (Some(ix), Some(wt)) = (
        m.array(ArrayKind::BlendIndexes),
        m.array(ArrayKind::BlendWeights),
    ) {
        let ix = ix.vertex4(v, false);
        let wt = wt.vertex4(v, false);
        let mut pairs: Vec<(u32, u32)> = (0..4)
            .filter(|&k| wt[k] > 0.0)
            .map(|k| (ix[k] as u32, wt[k] as u32))
            .collect();
        pairs.sort();
        let s: Vec<String> = pairs.iter().map(|(j, w)| format!("{j}:{w}")).collect();
        parts.push(s.join(","));
    }
    parts.join("|")
}

/// Triangles as sorted corner keys (each rotated to start at its least
/// corner), with each one's rotation and original index.
fn sorted_triangles(m: &Iqm) -> Vec<(Vec<String>, usize, usize)> {
    let mut tris: Vec<(Vec<String>, usize, usize)> = m
        .triangles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let keys: Vec<String> = t.iter().map(|&v| corner_key(m, v as usize)).collect();
            let r = (0..3).min_by(|&a, &b| keys[a].cmp(&keys[b])).unwrap();
            ((0..3).map(|k| keys[(r + k) % 3].clone()).collect(), r, i)
        })
        .collect();
    tris.sort_by(|a, b| a.0.cmp(&b.0));
    tris
}

#[test]
fn our_compiler_agrees_with_the_reference() {
    for (name, f) in facts() {
        let m = compile(&name);
        let iqe = Iqe::parse(&std::fs::read(data_dir().join(&name)).unwrap()).unwrap();
        let what = |s: &str| format!("{name}: {s}");
        // Only warnings (extras.iqe declares unportable formats).
        let errors: Vec<_> = m
            .validate()
            .into_iter()
            .filter(|p| p.severity == retromodel::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", what("validates"));

        // Counts, meshes, arrays.
        assert_eq!(
            u64::from(m.num_vertexes),
            f["vertexes"].as_u64().unwrap(),
            "{}",
            what("vertices")
        );
        let meshes = f["meshes"].as_array().unwrap();
        assert_eq!(m.meshes.len(), meshes.len(), "{}", what("meshes"));
        for (ours, theirs) in m.meshes.iter().zip(meshes) {
            assert_eq!(m.name(ours.name), theirs["name"].as_str().unwrap());
            assert_eq!(m.name(ours.material), theirs["material"].as_str().unwrap());
            assert_eq!(
                u64::from(ours.num_vertexes),
                theirs["vertexes"].as_u64().unwrap()
            );
            assert_eq!(
                u64::from(ours.num_triangles),
                theirs["triangles"].as_u64().unwrap()
            );
        }
        let arrays: Vec<(String, u64, u64)> = f["arrays"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a[0].as_str().unwrap().to_string(),
                    a[1].as_u64().unwrap(),
                    a[2].as_u64().unwrap(),
                )
            })
            .collect();
        let ours: Vec<(String, u64, u64)> = m
            .vertex_arrays
            .iter()
            .map(|a| (m.array_name(a), u64::from(a.format), u64::from(a.size)))
            .collect();
        assert_eq!(ours, arrays, "{}", what("arrays"));

        // Joints: names, parents, bind transforms (rotation up to sign).
        let joints = f["joints"].as_array().unwrap();
        assert_eq!(m.joints.len(), joints.len(), "{}", what("joints"));
        for (j, t) in m.joints.iter().zip(joints) {
            assert_eq!(m.name(j.name), t["name"].as_str().unwrap());
            assert_eq!(i64::from(j.parent), t["parent"].as_i64().unwrap());
            close(
                &j.translate.map(f64::from),
                &floats(&t["t"]),
                1e-6,
                &what("joint translate"),
            );
            close(
                &j.scale.map(f64::from),
                &floats(&t["s"]),
                1e-6,
                &what("joint scale"),
            );
            let r = floats(&t["r"]);
            let q = j.rotate.map(f64::from);
            let sign = if q.iter().zip(&r).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                -1.0
            } else {
                1.0
            };
            close(&q.map(|x| x * sign), &r, 1e-6, &what("joint rotate"));
        }

        // Poses: masks exactly, offsets and scales closely.
        let poses = f["poses"].as_array().unwrap();
        assert_eq!(m.poses.len(), poses.len(), "{}", what("poses"));
        for (p, t) in m.poses.iter().zip(poses) {
            assert_eq!(i64::from(p.parent), t["parent"].as_i64().unwrap());
            assert_eq!(
                u64::from(p.mask),
                t["mask"].as_u64().unwrap(),
                "{}",
                what("mask")
            );
            close(
                &p.channel_offset.map(f64::from),
                &floats(&t["offset"]),
                1e-6,
                &what("offset"),
            );
            close(
                &p.channel_scale.map(f64::from),
                &floats(&t["scale"]),
                1e-6,
                &what("scale"),
            );
        }

        // Animations.
        let anims = f["anims"].as_array().unwrap();
        assert_eq!(m.anims.len(), anims.len());
        for (a, t) in m.anims.iter().zip(anims) {
            assert_eq!(m.name(a.name), t["name"].as_str().unwrap());
            assert_eq!(u64::from(a.first_frame), t["first_frame"].as_u64().unwrap());
            assert_eq!(u64::from(a.num_frames), t["num_frames"].as_u64().unwrap());
            assert_eq!(f64::from(a.framerate), t["framerate"].as_f64().unwrap());
            assert_eq!(a.loops(), t["loop"].as_bool().unwrap());
        }

        // Frames: the 16-bit values, then every joint's decoded pose at
        // every frame.
        assert_eq!(
            u64::from(m.num_framechannels),
            f["framechannels"].as_u64().unwrap()
        );
        let values: Vec<u16> = f["frame_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u16)
            .collect();
        let off_by: Vec<i32> = m
            .frames
            .iter()
            .zip(&values)
            .map(|(a, b)| i32::from(*a) - i32::from(*b))
            .collect();
        assert_eq!(m.frames.len(), values.len());
        assert!(
            off_by.iter().all(|d| *d == 0),
            "{}: {off_by:?}",
            what("frame values")
        );
        let frames = f["frames"].as_array().unwrap();
        assert_eq!(m.num_frames as usize, frames.len());
        for (i, fr) in frames.iter().enumerate() {
            let ours = m.frame_pose(i).unwrap();
            for (l, t) in ours.locals.iter().zip(fr.as_array().unwrap()) {
                close(
                    &l.channels().map(f64::from),
                    &floats(t),
                    1e-6,
                    &what("frame pose"),
                );
            }
        }

        // Bounds of every frame.
        let bounds = f["bounds"].as_array().unwrap();
        let ours = m.bounds.as_ref().unwrap();
        assert_eq!(ours.len(), bounds.len());
        for (b, t) in ours.iter().zip(bounds) {
            let mut v: Vec<f64> = b.min.iter().chain(&b.max).map(|&x| f64::from(x)).collect();
            v.push(f64::from(b.xy_radius));
            v.push(f64::from(b.radius));
            close(&v, &floats(t), 1e-5, &what("bounds"));
        }

        // The vertex cache order: the same vertices, in the same order,
        // and the same triangles in the same order.
        let keys: Vec<String> = (0..m.vertex_count()).map(|v| corner_key(&m, v)).collect();
        let their_keys: Vec<&str> = f["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["key"].as_str().unwrap())
            .collect();
        assert_eq!(keys, their_keys, "{}", what("vertex order"));
        let order: Vec<[u32; 3]> = f["triangle_order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let t = t.as_array().unwrap();
                [0, 1, 2].map(|k| t[k].as_u64().unwrap() as u32)
            })
            .collect();
        assert_eq!(m.triangles, order, "{}", what("triangle order"));

        // The reference's adjacency, explained: `makeneighbors` runs on
        // triangles already renumbered to output vertices but looks their
        // corners up in the *source* attributes (`epositions[i]`,
        // `eblends[i]` with `i` an output number). Modelled here from the
        // parsed file, it gives the stored adjacency exactly; ours
        // (`compute_adjacency`, by the output vertices' own positions and
        // blends, either way round) differs wherever that matters.
        let key = |o: u32| {
            let a = &iqe.attributes;
            let mut k: Vec<u64> = a.positions[o as usize]
                .iter()
                .map(|x| (x + 0.0).to_bits())
                .collect();
            if let Some(b) = a.blends.get(o as usize) {
                k.extend(b.weights.iter().map(|x| x.to_bits()));
                k.extend(b.joints.iter().map(|&j| u64::from(j)));
            }
            k
        };
        // Its edge key orders the two ends by `Vec4::operator<`, which is
        // "any component less": for ends where each is less somewhere,
        // the two triangles' keys for one edge come out reversed and
        // never meet.
        let any_less = |a: u32, b: u32| {
            let (p, q) = (
                iqe.attributes.positions[a as usize],
                iqe.attributes.positions[b as usize],
            );
            (0..4).any(|k| p[k] < q[k])
        };
        let edge = |a: u32, b: u32| {
            if any_less(a, b) {
                (key(a), key(b))
            } else {
                (key(b), key(a))
            }
        };
        let mut shared: HashMap<(Vec<u64>, Vec<u64>), (i64, i64)> = HashMap::new();
        for (i, t) in m.triangles.iter().enumerate() {
            for k in 0..3 {
                let e = shared.entry(edge(t[(k + 2) % 3], t[k])).or_insert((-2, -1));
                *e = match *e {
                    (-2, _) => (i as i64, -1),
                    (a, -1) if a >= 0 => (a, i as i64),
                    _ => (-1, -1),
                };
            }
        }
        let modelled: Vec<Vec<i64>> = m
            .triangles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut n = vec![-1i64; 3];
                for k in 0..3 {
                    let (a, b) = shared[&edge(t[(k + 2) % 3], t[k])];
                    n[(k + 2) % 3] = if a == i as i64 { b } else { a };
                }
                n
            })
            .collect();
        let stored: Vec<Vec<i64>> = f["adjacency_as_stored"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                a.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_i64().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(
            modelled,
            stored,
            "{}",
            what("the reference's adjacency, modelled")
        );

        // Triangles as sets, and adjacency over the sorted triangles.
        let tris = sorted_triangles(&m);
        let theirs: Vec<Vec<String>> = f["triangles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                t.as_array()
                    .unwrap()
                    .iter()
                    .map(|k| k.as_str().unwrap().to_string())
                    .collect()
            })
            .collect();
        let ours_keys: Vec<Vec<String>> = tris.iter().map(|t| t.0.clone()).collect();
        assert_eq!(ours_keys, theirs, "{}", what("triangles"));
        let rank: HashMap<usize, i64> = tris
            .iter()
            .enumerate()
            .map(|(n, t)| (t.2, n as i64))
            .collect();
        let adjacency = m.adjacency.as_ref().unwrap();
        let ours_adj: Vec<Vec<i64>> = tris
            .iter()
            .map(|(_, r, i)| {
                (0..3)
                    .map(|k| {
                        let n = adjacency[*i][(r + k) % 3];
                        if n == u32::MAX {
                            -1
                        } else {
                            rank[&(n as usize)]
                        }
                    })
                    .collect()
            })
            .collect();
        let theirs_adj: Vec<Vec<i64>> = f["adjacency"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                a.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_i64().unwrap())
                    .collect()
            })
            .collect();
        // The reference's `makeneighbors` looks edges up in the source
        // positions by *output* vertex index (its triangles are already
        // renumbered by the vertex cache order), so its adjacency links
        // triangles by whichever source vertices happen to carry those
        // numbers. Ours links them by the output vertices' positions and
        // blends. They agree where the numbering happens to match; ours
        // must link every edge to a triangle that links back over the
        // same two positions.
        let same = ours_adj
            .iter()
            .flatten()
            .zip(theirs_adj.iter().flatten())
            .filter(|(a, b)| a == b)
            .count();
        eprintln!(
            "{name}: adjacency {same} of {} edges as the reference's",
            3 * theirs_adj.len()
        );
        assert_eq!(ours_adj.len(), theirs_adj.len());
        assert!(same * 2 > 3 * theirs_adj.len(), "{}", what("adjacency"));
        let pos = m.array(ArrayKind::Position).unwrap();
        for (i, t) in adjacency.iter().enumerate() {
            for (k, &n) in t.iter().enumerate() {
                if n == u32::MAX {
                    continue;
                }
                assert!(
                    adjacency[n as usize].contains(&(i as u32)),
                    "{}",
                    what("links back")
                );
                let tri = m.triangles[i];
                let ends = [tri[k], tri[(k + 1) % 3]].map(|v| pos.vertex4(v as usize, false));
                let other = m.triangles[n as usize].map(|v| pos.vertex4(v as usize, false));
                assert!(
                    ends.iter().all(|e| other.contains(e)),
                    "{}",
                    what("edge shared")
                );
            }
        }

        // Every vertex skinned at every frame.
        let reference: HashMap<String, &Value> = f["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| (v["key"].as_str().unwrap().to_string(), v))
            .collect();
        assert_eq!(
            reference.len(),
            m.vertex_count(),
            "{}",
            what("distinct vertices")
        );
        let tangents = m.array(ArrayKind::Tangent).unwrap();
        if iqe.attributes.tangents.is_empty() {
            // Generated tangents: the reference sums each vertex's
            // triangles in the same order, so they agree to rounding.
            // Where the texture directions run along the normal it
            // normalises a zero vector into NaN (null in the facts); we
            // keep the zero vector.
            let mut zero = 0;
            for v in 0..m.vertex_count() {
                let ours = tangents.vertex4(v, false);
                let theirs = &reference[&corner_key(&m, v)]["tangent"];
                if theirs[0].is_null() {
                    assert_eq!(&ours[..3], &[0.0; 3], "{}", what("zero tangent"));
                    assert_eq!(ours[3], theirs[3].as_f64().unwrap());
                    zero += 1;
                    continue;
                }
                close(&ours, &floats(theirs), 1e-5, &what("tangent"));
            }
            eprintln!("{name}: tangents agree ({zero} zero where the reference has NaN)");
        } else {
            // Given tangents: the reference writes output vertex i the
            // file's i-th vx (`remapindex<IQM_TANGENT>` returns i, not the
            // source vertex), whatever vertex i came from. We write each
            // vertex its own: the file's vx of a vertex at its position.
            let given = &iqe.attributes.tangents;
            let theirs = floats(&f["array_values"]["tangent"]);
            for v in 0..m.vertex_count() {
                let t = given[v].map(|x| x as f32 as f64);
                assert_eq!(
                    &theirs[4 * v..4 * v + 4],
                    &t[..],
                    "{}",
                    what("reference's tangent")
                );
                let p = m.array(ArrayKind::Position).unwrap().vertex4(v, false);
                let source = iqe
                    .attributes
                    .positions
                    .iter()
                    .position(|q| (0..3).all(|k| q[k] as f32 as f64 == p[k]))
                    .unwrap();
                let own = given[source].map(|x| x as f32 as f64);
                assert_eq!(tangents.vertex4(v, false), own, "{}", what("our tangent"));
            }
            eprintln!("{name}: given tangents: the reference's by output number, ours by vertex");
        }
        // Every other array's values as stored, in order.
        for a in &m.vertex_arrays {
            let label = m.array_name(a);
            if label == "tangent" {
                continue;
            }
            // As f32: every array here holds f32 or narrower values, and
            // serde_json reads decimals to within one f64 step.
            let theirs: Vec<f32> = floats(&f["array_values"][&label])
                .iter()
                .map(|&x| x as f32)
                .collect();
            let ours: Vec<f32> = a.values().iter().map(|&x| x as f32).collect();
            assert_eq!(ours, theirs, "{}", what(&label));
        }
        for frame in 0..m.num_frames as usize {
            let skin = m.skin_matrices(Some(frame)).unwrap();
            let points = m.skinned_positions(&skin);
            for (v, p) in points.iter().enumerate() {
                let key = corner_key(&m, v);
                let theirs = reference
                    .get(&key)
                    .unwrap_or_else(|| panic!("{name}: vertex {key} not in the reference"));
                close(
                    &p.map(f64::from),
                    &floats(&theirs["skinned"][frame]),
                    1e-4,
                    &what("skinned"),
                );
            }
        }

        assert_eq!(
            String::from_utf8_lossy(&m.comment).trim_end_matches('\0'),
            f["comment"].as_str().unwrap()
        );
    }
}

#[test]
fn the_committed_models_are_the_generators() {
    // The IQE files are committed; they must be what make_iqe.py writes
    // (checked by their first lines here; regenerate with the script).
    for name in ["rig.iqe", "scaled.iqe", "extras.iqe"] {
        let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
        assert!(text.starts_with("# Inter-Quake Export\n"));
        assert!(text.contains("make_iqe.py"));
    }
}
