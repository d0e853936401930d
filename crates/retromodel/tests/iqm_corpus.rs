//! The IQM reader on the corpus's real models (raylib's guy and its
//! animation-only twin, lsalzman's mrfixit), against `iqm/facts.json`
//! from an independent reader: counts, arrays, joint names, animations
//! and the bind pose's box; then byte-exact rewrites, the standard
//! layout, and what the reference compiler computed into the files
//! (adjacency and per-frame bounds) recomputed.

use retromodel::iqm::{compute_adjacency, ArrayKind, Iqm, Layout};
use retromodel::Model;
use retromodel_testkit::corpus::corpus_dir;
use serde_json::Value;

fn iqm_facts() -> Option<(std::path::PathBuf, Vec<Value>)> {
    let dir = corpus_dir()?.join("iqm");
    let facts: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.join("facts.json")).unwrap()).unwrap();
    Some((dir, facts))
}

#[test]
fn every_corpus_iqm_reads_as_its_facts_say() {
    let Some((dir, facts)) = iqm_facts() else {
        return;
    };
    assert_eq!(facts.len(), 3);
    for f in &facts {
        let name = f["file"].as_str().unwrap();
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let m = Iqm::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(u64::from(super_version()), f["version"].as_u64().unwrap());
        assert_eq!(
            m.meshes.len() as u64,
            f["meshes"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            u64::from(m.num_vertexes),
            f["vertexes"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            m.triangles.len() as u64,
            f["triangles"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            m.joints.len() as u64,
            f["joints"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(m.poses.len() as u64, f["poses"].as_u64().unwrap(), "{name}");
        assert_eq!(
            u64::from(m.num_frames),
            f["frames"].as_u64().unwrap(),
            "{name}"
        );
        let anims: Vec<(String, u64, f64)> = m
            .anims
            .iter()
            .map(|a| {
                (
                    m.name(a.name),
                    u64::from(a.num_frames),
                    f64::from(a.framerate),
                )
            })
            .collect();
        let want: Vec<(String, u64, f64)> = f["anims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a[0].as_str().unwrap().to_string(),
                    a[1].as_u64().unwrap(),
                    a[2].as_f64().unwrap(),
                )
            })
            .collect();
        assert_eq!(anims, want, "{name}");
        let mut arrays: Vec<String> = m.vertex_arrays.iter().map(|a| m.array_name(a)).collect();
        arrays.sort();
        let want: Vec<&str> = f["arrays"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(arrays, want, "{name}");
        if let Some(names) = f.get("joint_names").and_then(Value::as_array) {
            let got: Vec<String> = m.joints.iter().map(|j| m.name(j.name)).collect();
            let want: Vec<&str> = names.iter().map(|n| n.as_str().unwrap()).collect();
            assert_eq!(got, want, "{name}");
        }
        if let Some(materials) = f.get("materials").and_then(Value::as_array) {
            let got: Vec<String> = m.meshes.iter().map(|x| m.name(x.material)).collect();
            let want: Vec<&str> = materials.iter().map(|n| n.as_str().unwrap()).collect();
            assert_eq!(got, want, "{name}");
        }
        if let Some(bb) = f.get("bind_box").and_then(Value::as_array) {
            let info = m.info(&bytes);
            let (lo, hi) = info.bind_box.unwrap();
            for k in 0..3 {
                assert!(
                    (f64::from(lo[k]) - bb[0][k].as_f64().unwrap()).abs() < 1e-3,
                    "{name}"
                );
                assert!(
                    (f64::from(hi[k]) - bb[1][k].as_f64().unwrap()).abs() < 1e-3,
                    "{name}"
                );
            }
        }
        // Read, then written in the stored layout: the same bytes.
        assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), bytes, "{name}");
        let model = Model::from_bytes(&bytes).unwrap();
        assert_eq!(model.to_bytes().unwrap(), bytes, "{name}");
        // The standard layout reads back as the same model.
        let standard = m.to_bytes_with(Layout::Standard).unwrap();
        let again = Iqm::from_bytes(&standard).unwrap();
        assert_eq!(
            again.text,
            m.text
                .iter()
                .copied()
                .chain(std::iter::repeat(0))
                .take(again.text.len())
                .collect::<Vec<_>>()
        );
        assert_eq!(
            again
                .vertex_arrays
                .iter()
                .map(|a| &a.data)
                .collect::<Vec<_>>(),
            m.vertex_arrays.iter().map(|a| &a.data).collect::<Vec<_>>()
        );
        assert_eq!(
            (
                &again.joints,
                &again.poses,
                &again.anims,
                &again.frames,
                &again.bounds,
                &again.adjacency
            ),
            (
                &m.joints,
                &m.poses,
                &m.anims,
                &m.frames,
                &m.bounds,
                &m.adjacency
            ),
            "{name}"
        );
        // Every offset of the standard layout on a 4-byte boundary.
        assert!(again.header.offsets.iter().all(|o| o % 4 == 0), "{name}");
        let errors: Vec<_> = m
            .validate()
            .into_iter()
            .filter(|p| p.severity == retromodel::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

fn super_version() -> u32 {
    retromodel::iqm::VERSION
}

#[test]
fn the_reference_compilers_adjacency_and_bounds_are_recomputed() {
    let Some((dir, _)) = iqm_facts() else { return };
    for name in ["lsalzman_mrfixit.iqm", "raylib_guy.iqm"] {
        let m = Iqm::from_bytes(&std::fs::read(dir.join(name)).unwrap()).unwrap();
        let computed = compute_adjacency(&m);
        // Each neighbour names this triangle back across an edge with the
        // same two positions.
        let pos = m.array(ArrayKind::Position).unwrap();
        let at = |v: u32| pos.vertex4(v as usize, false);
        let mut linked = 0;
        for (i, t) in computed.iter().enumerate() {
            for (k, &n) in t.iter().enumerate() {
                if n == u32::MAX {
                    continue;
                }
                linked += 1;
                assert!(
                    computed[n as usize].contains(&(i as u32)),
                    "{name}: {i} → {n} not back"
                );
                let tri = m.triangles[i];
                let (a, b) = (at(tri[k]), at(tri[(k + 1) % 3]));
                let other = m.triangles[n as usize].map(at);
                assert!(
                    other.contains(&a) && other.contains(&b),
                    "{name}: {i} edge {k}"
                );
            }
        }
        assert!(linked > computed.len(), "{name}: {linked} links");
        if let Some(stored) = &m.adjacency {
            // The reference keys edges by source vertices before welding
            // (`makeneighbors`), which the file no longer holds: most
            // edges agree, not all.
            let same = stored
                .iter()
                .flatten()
                .zip(computed.iter().flatten())
                .filter(|(a, b)| a == b)
                .count();
            eprintln!(
                "{name}: adjacency {same} of {} edges agree with the stored",
                3 * stored.len()
            );
            assert!(same * 4 > 3 * 3 * stored.len(), "{name}: {same}");
        }
        if let Some(bounds) = &m.bounds {
            // The reference bounds the poses before it quantises them to
            // 16 bits; from the file's quantised poses they agree within
            // 1/1000 of the model's size.
            let extent = bounds.iter().map(|b| b.radius).fold(0.0, f32::max);
            let mut worst = 0.0f32;
            for (k, b) in bounds.iter().enumerate() {
                let c = m.compute_bounds(k).unwrap();
                for i in 0..3 {
                    worst = worst
                        .max((c.min[i] - b.min[i]).abs())
                        .max((c.max[i] - b.max[i]).abs());
                }
                let close = |a: f32, b: f32| (a - b).abs() <= 1e-3 * extent;
                let ok = (0..3).all(|i| close(c.min[i], b.min[i]) && close(c.max[i], b.max[i]))
                    && close(c.radius, b.radius)
                    && close(c.xy_radius, b.xy_radius);
                assert!(ok, "{name} frame {k}: stored {b:?}, computed {c:?}");
            }
            eprintln!("{name}: bounds within {worst} of the stored (model radius {extent})");
        }
    }
}

#[test]
fn front_faces_are_clockwise_against_the_stored_normals() {
    let Some((dir, _)) = iqm_facts() else { return };
    let m = Iqm::from_bytes(&std::fs::read(dir.join("lsalzman_mrfixit.iqm")).unwrap()).unwrap();
    let p = m.array(ArrayKind::Position).unwrap();
    let n = m.array(ArrayKind::Normal).unwrap();
    let (mut agree, mut total) = (0, 0);
    for t in &m.triangles {
        let v: Vec<[f64; 4]> = t.iter().map(|&i| p.vertex4(i as usize, false)).collect();
        let e1 = [v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]];
        let e2 = [v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]];
        let face = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        let normal: [f64; 3] = t.iter().fold([0.0; 3], |acc, &i| {
            let x = n.vertex4(i as usize, false);
            [acc[0] + x[0], acc[1] + x[1], acc[2] + x[2]]
        });
        let dot = face[0] * normal[0] + face[1] * normal[1] + face[2] * normal[2];
        total += 1;
        if dot < 0.0 {
            agree += 1;
        }
    }
    eprintln!("clockwise faces agreeing with normals: {agree} of {total}");
    assert!(agree * 10 > total * 9, "{agree} of {total}");
}

#[test]
fn every_truncated_prefix_of_a_corpus_iqm_is_a_clean_error() {
    let Some((dir, _)) = iqm_facts() else { return };
    let bytes = std::fs::read(dir.join("raylib_guy.iqm")).unwrap();
    for len in 0..bytes.len() {
        let err = Iqm::from_bytes(&bytes[..len]).expect_err("a prefix is missing sections");
        let o = err.offset().unwrap_or(0);
        assert!(o <= bytes.len() as u64, "{len}: {err}");
    }
}
