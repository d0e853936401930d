//! Frame 0 of corpus MDLs decoded by us versus Debian's assimp
//! (`assimp-utils` 5.2), run at test time on the corpus file (nothing of
//! it is stored here). Skipped when `assimp` is not installed.
//!
//! What assimp does with an MDL (found by comparing, documented here):
//! - Its MDL importer (`MDLLoader.cpp`, `InternReadFile_Quake1`) reads the
//!   first frame only (of a group: the group's first frame) and expands
//!   the mesh to one vertex per triangle corner; the OBJ exporter merges
//!   equal positions again, so each `f` line is one MDL triangle, in file
//!   order, with its corners' positions.
//! - Axes: OBJ `(x, y, z)` = MDL `(x, z, −y)`.
//! - Winding is reversed: OBJ face `i`, corner `c` is triangle `i`, vertex
//!   `2 − c`.
//!
//! Tolerance: assimp prints 9 significant digits (its `f32` exactly); both
//! sides compute `byte × scale + origin` in `f32`, so an axis may differ
//! by two roundings: `2 × f32::EPSILON × (|byte × scale| + |origin|)`.

use std::process::Command;

use retromodel::mdl::{Frame, Mdl};
use retromodel_testkit::corpus::corpus_dir;

struct Obj {
    positions: Vec<[f32; 3]>,
    faces: Vec<[usize; 3]>,
}

fn assimp_obj(model: &std::path::Path, name: &str) -> Option<Obj> {
    let dir = std::env::temp_dir().join(format!("retromodel_mdl_assimp_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("{name}.obj"));
    let run = Command::new("assimp")
        .arg("export")
        .arg(model)
        .arg(&out)
        .output()
        .ok()?;
    assert!(
        run.status.success(),
        "assimp export {}: {}",
        model.display(),
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let mut obj = Obj {
        positions: Vec::new(),
        faces: Vec::new(),
    };
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        match parts.next() {
            Some("v") => {
                let v: Vec<f32> = parts.map(|x| x.parse().unwrap()).collect();
                obj.positions.push([v[0], v[1], v[2]]);
            }
            Some("f") => {
                let f: Vec<usize> = parts
                    .map(|c| c.split('/').next().unwrap().parse::<usize>().unwrap() - 1)
                    .collect();
                obj.faces.push([f[0], f[1], f[2]]);
            }
            _ => {}
        }
    }
    Some(obj)
}

#[test]
fn frame0_positions_match_assimp() {
    let Some(corpus) = corpus_dir() else { return };
    let mut compared = 0;
    // A weapon item, the player, a model whose frames are all groups, a
    // head gib, a monster.
    for name in [
        "c0burn_progs_grenade.mdl",
        "c0burn_progs_player.mdl",
        "c0burn_progs_flame2.mdl",
        "c0burn_progs_h_ogre.mdl",
        "c0burn_progs_shambler.mdl",
    ] {
        let path = corpus.join("mdl").join(name);
        let bytes = std::fs::read(&path).unwrap();
        let m = Mdl::from_bytes(&bytes).unwrap();
        let Some(obj) = assimp_obj(&path, name) else {
            eprintln!("note: assimp not installed; skipping");
            return;
        };
        let frame0 = match &m.frames[0] {
            Frame::Single(f) => f,
            Frame::Group { group, .. } => &group.frames[0],
        };
        assert_eq!(obj.faces.len(), m.triangles.len(), "{name}");
        for (i, (face, tri)) in obj.faces.iter().zip(&m.triangles).enumerate() {
            for (c, &corner) in face.iter().enumerate() {
                let v = frame0.vertices[tri.vertices[2 - c] as usize];
                let ours = m.decode_position(v);
                let mapped = [ours[0], ours[2], -ours[1]];
                let theirs = obj.positions[corner];
                let axis_of = [0, 2, 1];
                for a in 0..3 {
                    let k = axis_of[a];
                    let magnitude =
                        (f32::from(v.position[k]) * m.scale[k]).abs() + m.origin[k].abs();
                    let bound = 2.0 * f32::EPSILON * magnitude + f32::MIN_POSITIVE;
                    assert!(
                        (mapped[a] - theirs[a]).abs() <= bound,
                        "{name}: triangle {i} corner {c} axis {a}: ours {} assimp {} (bound {bound})",
                        mapped[a],
                        theirs[a]
                    );
                }
            }
        }
        compared += 1;
    }
    assert_eq!(compared, 5);
}
