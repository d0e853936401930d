//! Frame 0 of two corpus models decoded by us versus Debian's assimp.
//!
//! # How the fixtures were made
//!
//! `tests/fixtures/assimp_{faerie,sydney}_frame0.txt` were generated once,
//! with Debian's `assimp-utils` 5.2.5~ds0-1+b1 (`assimp version` prints
//! "Version 5.2 -debug -shared -st (GIT commit 0)"; the OBJ header says
//! "assimp v5.2.0"):
//!
//! ```sh
//! for n in faerie sydney; do
//!   assimp export $CORPUS/md2/assimpdeb_$n.md2 /tmp/asx/$n.obj
//!   grep -E '^(v|f) ' /tmp/asx/$n.obj \
//!     | sed -E 's#/[0-9]*/[0-9]*##g; s/^f +/f /' \
//!     > tests/fixtures/assimp_${n}_frame0.txt
//! done
//! ```
//!
//! That keeps the OBJ's `v x y z` lines exactly as assimp printed them and
//! its `f` lines with only the position index of each corner (texture
//! coordinate and normal indices dropped).
//!
//! # What assimp does with an MD2 (found by comparing, documented here)
//!
//! - Its MD2 importer loads frame 0 only and expands the mesh to one vertex
//!   per triangle corner; the OBJ exporter then merges equal positions, so
//!   the `v` lines are the distinct positions (366 for faerie, 342 for
//!   sydney: exactly `num_vertices`) and each `f` line is one MD2 triangle,
//!   in file order.
//! - Axes: OBJ `(x, y, z)` = MD2 `(x, z, −y)`, i.e. MD2 `(x, y, z)` = OBJ
//!   `(x, −z, y)`.
//! - Winding is reversed: OBJ face `i`, corner `c` is MD2 triangle `i`,
//!   vertex `2 − c`.
//!
//! # Tolerance
//!
//! assimp prints 9 significant digits, enough to give back its `f32`
//! exactly when parsed as `f32`. Both sides compute `byte × scale +
//! translate` in `f32`: two roundings of at most half an ulp of the
//! operands' magnitude each. So each axis may differ by at most
//! `2 × f32::EPSILON × (|byte × scale| + |translate|)` (whichever order
//! or fused form either side uses), and by nothing more.

use std::collections::HashSet;

use retromodel::md2::Md2;
use retromodel_testkit::corpus::corpus_dir;

struct ObjFixture {
    positions: Vec<[f32; 3]>,
    faces: Vec<[usize; 3]>,
}

fn load_fixture(name: &str) -> ObjFixture {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut fixture = ObjFixture {
        positions: Vec::new(),
        faces: Vec::new(),
    };
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        match parts.next() {
            Some("v") => {
                let v: Vec<f32> = parts.map(|x| x.parse().expect("float")).collect();
                fixture.positions.push(v.try_into().expect("3 coordinates"));
            }
            Some("f") => {
                // OBJ indices are 1-based.
                let f: Vec<usize> = parts
                    .map(|x| x.parse::<usize>().expect("index") - 1)
                    .collect();
                fixture.faces.push(f.try_into().expect("triangles only"));
            }
            _ => panic!("{path}: unexpected line {line:?}"),
        }
    }
    fixture
}

fn check(model_file: &str, fixture_file: &str, num_vertices: usize, num_triangles: usize) {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let bytes = std::fs::read(dir.join("md2").join(model_file)).expect("corpus file");
    let model = Md2::from_bytes(&bytes).expect("parse");
    let obj = load_fixture(fixture_file);
    assert_eq!(model.vertex_count(), num_vertices);
    assert_eq!(model.triangles.len(), num_triangles);
    assert_eq!(obj.positions.len(), num_vertices, "distinct positions");
    assert_eq!(obj.faces.len(), num_triangles, "one face per triangle");

    let frame = &model.frames[0];
    let mut ours = vec![[0.0f32; 3]; model.vertex_count()];
    frame.decode_positions(&mut ours);

    let mut referenced = HashSet::new();
    let mut worst = 0.0f32;
    for (i, (face, tri)) in obj.faces.iter().zip(&model.triangles).enumerate() {
        for (c, &corner) in face.iter().enumerate() {
            let v = tri.vertices[2 - c] as usize;
            referenced.insert(v);
            let o = obj.positions[corner];
            let expected = [o[0], -o[2], o[1]];
            let packed = frame.vertices[v].position;
            for k in 0..3 {
                let scaled = packed[k] as f32 * frame.scale[k];
                let tol = 2.0 * f32::EPSILON * (scaled.abs() + frame.translate[k].abs());
                let diff = (ours[v][k] - expected[k]).abs();
                worst = worst.max(diff / tol.max(f32::MIN_POSITIVE));
                assert!(
                    diff <= tol,
                    "{model_file}: triangle {i} corner {c} (vertex {v}) axis {k}: ours {} assimp {} (tolerance {tol})",
                    ours[v][k],
                    expected[k]
                );
            }
        }
    }
    // Every vertex is on some triangle, so every one was compared.
    assert_eq!(referenced.len(), num_vertices);
    // Our positions are as distinct as assimp's merged list says.
    let distinct: HashSet<[u32; 3]> = ours.iter().map(|p| p.map(f32::to_bits)).collect();
    assert_eq!(distinct.len(), num_vertices);
    eprintln!("{model_file}: worst difference {worst:.3} of the tolerance");
}

#[test]
fn faerie_frame0_matches_assimp() {
    check("assimpdeb_faerie.md2", "assimp_faerie_frame0.txt", 366, 654);
}

#[test]
fn sydney_frame0_matches_assimp() {
    check("assimpdeb_sydney.md2", "assimp_sydney_frame0.txt", 342, 679);
}
