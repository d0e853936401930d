//! A Quake mod's monster as an MD3 (Ironwail and vkQuake load
//! `progs/NAME.md3` in place of `progs/NAME.mdl`): Blender 3.4 models a
//! small skinned creature headless (`tools/make_quake_mod_md3.py`: one
//! mesh, one material with an image texture it makes, an armature with the
//! actions `stand`, `walk`, `run`, `pain`, `death` keyed at 10 fps), exports
//! it as glTF and writes its own evaluation of the mesh at every frame of
//! every action; `retromodel convert creature.glb creature.md3 --fps 10
//! --engine ironwail --anim stand ...` makes the MD3. Everything is made in
//! the test's temp folder; nothing is committed.
//!
//! The MD3 is checked against oracles that share no code with the library:
//!
//! - the test kit's independent reader (`md3_facts`, `md3_geometry`): one
//!   surface, the counts, the shader named after Blender's image, the frame
//!   names `stand1`..`stand9`, `walk1`..`walk8` ... in the monster's order;
//!   every vertex of every frame within half of 1/64 unit of Blender's own
//!   posed vertex (its depsgraph with the armature modifier applied),
//!   every triangle one of Blender's with Quake's clockwise winding, every
//!   texture coordinate Blender's with `v` flipped, every normal of the
//!   rigid boxes (decoded as ioquake3 does) within 2° of its posed face;
//! - assimp's MD3 importer (`assimp info`, `assimp export` to OBJ): the
//!   triangle count, the texture name, frame 0's bounds and every frame-0
//!   vertex against Blender's `stand` frame 0;
//! - `validate --engine ironwail` and `--engine vkquake`: no problem.
//!
//! Skipped (with a note) where `blender` is not installed, except under
//! CI (`CI` set), where that fails: `.ci/run` installs Debian's Blender.

use std::path::Path;
use std::process::{Command, Output};

use retromodel_testkit::cli::{repo, run_os};
use retromodel_testkit::md3_facts::{md3_facts, md3_geometry};
use serde_json::Value;

/// Half of 1/64 unit, the most a rounded coordinate may be off, plus what
/// Blender's and the compile's single-precision skinning may differ by.
const HALF_STEP: f64 = 1.0 / 128.0 + 1e-4;

/// The monster's animations in its order: name and frame count (what the
/// script keys; the test reads them back from Blender's JSON too).
const MONSTER: [(&str, usize); 5] = [
    ("stand", 9),
    ("walk", 8),
    ("run", 6),
    ("pain", 4),
    ("death", 8),
];

fn blender_available() -> bool {
    let found = Command::new("blender")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "blender is not installed (apt-get install blender python3-numpy); CI must run the Blender-made MD3 test"
        );
        eprintln!("note: blender not found; skipping");
    }
    found
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

/// Blender's axes to Quake's: glTF's exporter maps Blender `(x, y, z)` to
/// `(x, z, −y)`, and the MD3 compile glTF `(x, y, z)` to Quake `(z, x, y)`
/// (docs/formats.md, "Axes"): Blender `(x, y, z)` is Quake `(−y, x, z)`.
fn quake(b: &[f64]) -> [f64; 3] {
    [-b[1], b[0], b[2]]
}

/// Runs the script: `creature.glb` and Blender's frames, parsed.
fn make(dir: &Path) -> Value {
    let script = repo().join("tools/make_quake_mod_md3.py");
    let o = Command::new("blender")
        .args(["-b", "--factory-startup", "--python"])
        .arg(&script)
        .arg("--")
        .arg(dir)
        .output()
        .unwrap();
    let json = dir.join("creature_frames.json");
    assert!(
        dir.join("creature.glb").is_file() && json.is_file(),
        "blender: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap()
}

/// Blender's posed vertices, animation after animation, frame after frame,
/// in Quake's axes: `[frame][vertex]`.
fn blender_frames(made: &Value) -> Vec<Vec<[f64; 3]>> {
    let mut out = Vec::new();
    for (name, count) in MONSTER {
        let frames = made["frames"][name].as_array().unwrap();
        assert_eq!(frames.len(), count, "Blender's {name}");
        for frame in frames {
            out.push(
                frame
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| {
                        let v: Vec<f64> = v
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|c| c.as_f64().unwrap())
                            .collect();
                        quake(&v)
                    })
                    .collect(),
            );
        }
    }
    out
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f64::max)
}

#[test]
fn a_blender_monster_converts_to_an_md3_ironwail_and_vkquake_load() {
    if !blender_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let made = make(dir);
    let glb = dir.join("creature.glb");
    let md3 = dir.join("creature.md3");
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "convert".as_ref(),
        glb.as_os_str(),
        md3.as_os_str(),
        "--fps".as_ref(),
        "10".as_ref(),
        "--engine".as_ref(),
        "ironwail".as_ref(),
    ];
    for (name, _) in &MONSTER {
        args.push("--anim".as_ref());
        args.push(std::ffi::OsStr::new(name));
    }
    let o = run(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bytes = std::fs::read(&md3).unwrap();

    // The independent reader: counts, names, the monster's frame list.
    let facts = md3_facts(&bytes).expect("the test kit reads the MD3");
    let names: Vec<String> = MONSTER
        .iter()
        .flat_map(|(n, c)| (1..=*c).map(move |k| format!("{n}{k}")))
        .collect();
    let stored: Vec<String> = facts
        .frame_names
        .iter()
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    assert_eq!(stored, names);
    assert_eq!(facts.num_frames as usize, names.len());
    assert_eq!(facts.num_tags, 0);
    assert_eq!(facts.surfaces.len(), 1, "one mesh, one surface");
    let surface = &facts.surfaces[0];
    assert_eq!(surface.name, b"creature");
    assert_eq!(surface.num_frames, facts.num_frames);
    let image = made["image"].as_str().unwrap();
    assert_eq!(surface.shaders, [image.as_bytes()]);
    let triangles = made["triangles"].as_array().unwrap();
    assert_eq!(surface.num_triangles as usize, triangles.len());

    // Every vertex of every frame against Blender's evaluation.
    let geometry = md3_geometry(&bytes).expect("every surface in the file");
    let g = &geometry[0];
    assert_eq!(g.frames.len(), names.len());
    let posed = blender_frames(&made);
    let ours = |f: usize, v: usize| g.frames[f][v].map(|c| f64::from(c) / 64.0);
    // Each MD3 vertex is the Blender vertex nearest over all frames at once
    // (the exporter and the compile split and weld vertices their own way).
    let nv = g.st.len();
    let mut worst = 0.0f64;
    let to_blender: Vec<usize> = (0..nv)
        .map(|v| {
            let (best, far) = (0..posed[0].len())
                .map(|b| {
                    let far = (0..posed.len())
                        .map(|f| dist(ours(f, v), posed[f][b]))
                        .fold(0.0, f64::max);
                    (b, far)
                })
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            assert!(
                far <= HALF_STEP,
                "vertex {v} is {far} units from Blender's nearest in some frame"
            );
            worst = worst.max(far);
            best
        })
        .collect();
    let mut seen = vec![false; posed[0].len()];
    to_blender.iter().for_each(|&b| seen[b] = true);
    assert!(
        seen.iter().all(|&s| s),
        "every Blender vertex is in the MD3"
    );
    eprintln!(
        "{nv} vertices × {} frames within {worst:.5} units of Blender's",
        posed.len()
    );

    // Triangles: Blender's, wound clockwise as Quake draws front faces;
    // texture coordinates Blender's with v flipped (MD3's t runs down).
    let corner = |c: &Value| -> (usize, [f64; 2]) {
        let c = c.as_array().unwrap();
        let v = c[0].as_u64().unwrap() as usize;
        (v, [c[1].as_f64().unwrap(), 1.0 - c[2].as_f64().unwrap()])
    };
    let mut unmatched: Vec<Vec<(usize, [f64; 2])>> = triangles
        .iter()
        .map(|t| t.as_array().unwrap().iter().map(corner).collect())
        .collect();
    for (i, t) in g.triangles.iter().enumerate() {
        let md3: Vec<(usize, [f64; 2])> = t
            .iter()
            .map(|&v| {
                let st = g.st[v as usize];
                (to_blender[v as usize], st.map(f64::from))
            })
            .collect();
        // Blender's [a, b, c] is Quake's [a, c, b] (or a rotation of it).
        let found = unmatched.iter().position(|b| {
            let reversed = [b[0], b[2], b[1]];
            (0..3).any(|r| {
                (0..3).all(|k| {
                    let (bv, buv) = reversed[(k + r) % 3];
                    let (mv, muv) = md3[k];
                    bv == mv && (0..2).all(|j| (buv[j] - muv[j]).abs() < 1e-6)
                })
            })
        });
        let k = found.unwrap_or_else(|| panic!("triangle {i} {md3:?} is none of Blender's"));
        unmatched.swap_remove(k);
    }
    assert!(unmatched.is_empty());

    // Normals: each corner's stored normal, decoded as ioquake3's
    // `LerpMeshVertexes` does (the second byte the latitude, the first the
    // longitude, 256 steps a turn: (cos lat · sin lng, sin lat · sin lng,
    // cos lng)), against the face normal of Blender's posed triangle. Only
    // the rigid boxes (Blender vertices 8 and on: the body box, vertices
    // 0..8, bends with the head, so its faces are not flat when posed).
    let decode = |n: [u8; 2]| {
        let lat = f64::from(n[1]) * std::f64::consts::TAU / 256.0;
        let lng = f64::from(n[0]) * std::f64::consts::TAU / 256.0;
        [lat.cos() * lng.sin(), lat.sin() * lng.sin(), lng.cos()]
    };
    let mut worst_angle = 0.0f64;
    for (f, frame) in posed.iter().enumerate() {
        for t in &g.triangles {
            let [a, b, c] = t.map(|v| to_blender[v as usize]);
            if a < 8 {
                continue;
            }
            let (pa, pb, pc) = (frame[a], frame[b], frame[c]);
            let u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
            let w = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
            // Quake's clockwise triangle [a, b, c]: the front is w × u.
            let n = [
                w[1] * u[2] - w[2] * u[1],
                w[2] * u[0] - w[0] * u[2],
                w[0] * u[1] - w[1] * u[0],
            ];
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            for &v in t {
                let d = decode(g.normals[f][v as usize]);
                let cos = (d[0] * n[0] + d[1] * n[1] + d[2] * n[2]) / len;
                worst_angle = worst_angle.max(cos.clamp(-1.0, 1.0).acos().to_degrees());
            }
        }
    }
    // One step of 256 a turn is 1.4°.
    assert!(worst_angle < 2.0, "a normal {worst_angle}° off its face");
    eprintln!("normals of the rigid boxes within {worst_angle:.2}° of Blender's faces");

    // assimp's MD3 importer, frame 0 (Blender's stand frame 0), in its axes
    // (x, z, −y) of Quake's.
    if Command::new("assimp").arg("version").output().is_ok() {
        let assimp = |q: [f64; 3]| [q[0], q[2], -q[1]];
        let want: Vec<[f64; 3]> = posed[0].iter().map(|&q| assimp(q)).collect();
        let o = Command::new("assimp")
            .arg("info")
            .arg(&md3)
            .arg("-raw")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        let line = |label: &str| {
            text.lines()
                .find(|l| l.starts_with(label))
                .unwrap_or_else(|| panic!("assimp info: no {label}: {text}"))
                .to_string()
        };
        let number = |label: &str| -> usize {
            line(label)
                .split_whitespace()
                .last()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert_eq!(number("Meshes:"), 1);
        assert_eq!(number("Faces:"), triangles.len());
        assert!(text.contains(&format!("'{image}'")), "{text}");
        let point = |label: &str| -> [f64; 3] {
            let l = line(label);
            let inner = l.split('(').nth(1).unwrap().trim_end_matches(')');
            let v: Vec<f64> = inner
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            [v[0], v[1], v[2]]
        };
        let (lo, hi) = (point("Minimum point"), point("Maximum point"));
        for k in 0..3 {
            let min = want.iter().map(|p| p[k]).fold(f64::MAX, f64::min);
            let max = want.iter().map(|p| p[k]).fold(f64::MIN, f64::max);
            assert!((lo[k] - min).abs() <= HALF_STEP, "{lo:?} {min}");
            assert!((hi[k] - max).abs() <= HALF_STEP, "{hi:?} {max}");
        }
        let obj = dir.join("assimp.obj");
        let o = Command::new("assimp")
            .arg("export")
            .arg(&md3)
            .arg(&obj)
            .output()
            .unwrap();
        assert!(obj.is_file(), "{}", String::from_utf8_lossy(&o.stderr));
        let points: Vec<[f64; 3]> = std::fs::read_to_string(&obj)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("v "))
            .map(|l| {
                let v: Vec<f64> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
                [v[0], v[1], v[2]]
            })
            .collect();
        assert!(!points.is_empty());
        let nearest = |p: [f64; 3], set: &[[f64; 3]]| {
            set.iter().map(|&q| dist(p, q)).fold(f64::MAX, f64::min)
        };
        for &p in &points {
            assert!(nearest(p, &want) <= HALF_STEP, "assimp's {p:?}");
        }
        for &q in &want {
            assert!(nearest(q, &points) <= HALF_STEP, "Blender's {q:?}");
        }
    } else {
        eprintln!("note: assimp not installed; its checks skipped");
    }

    // The engines the file is for: no problem at all.
    for engine in ["ironwail", "vkquake"] {
        let o = run(&[
            "validate".as_ref(),
            "--engine".as_ref(),
            engine.as_ref(),
            md3.as_os_str(),
        ]);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(0), "{engine}: {said}");
        assert_eq!(said.trim(), format!("{}: ok", md3.display()), "{engine}");
    }
}
