//! The MD5 reader, evaluation, validation and glTF lift against the
//! testkit's hand-made rig (`retromodel_testkit::md5_builder`: text
//! written from the format's description) and its independent evaluator.

use retromodel::md5::{Md5Anim, Md5Mesh, Md5Model};
use retromodel_testkit::md5_builder::*;

fn rig(with_scale: bool) -> Md5Model {
    let mut m = Md5Model::from_mesh_bytes(rig_md5mesh().as_bytes()).unwrap();
    let scale = rig_md5scale();
    m.add_animation(
        "walk",
        rig_md5anim().as_bytes(),
        with_scale.then_some(scale.as_bytes()),
    )
    .unwrap();
    m
}

fn assert_close(ours: &[[f32; 3]], reference: &[[f64; 3]], what: &str) -> f64 {
    assert_eq!(ours.len(), reference.len(), "{what}: vertex count");
    let mut worst = 0.0f64;
    for (i, (a, b)) in ours.iter().zip(reference).enumerate() {
        for c in 0..3 {
            let d = (f64::from(a[c]) - b[c]).abs();
            worst = worst.max(d);
            assert!(
                d < 1e-4,
                "{what}: vertex {i} axis {c}: ours {} reference {}",
                a[c],
                b[c]
            );
        }
    }
    worst
}

#[test]
fn dump_rig() {
    if let Some(dir) = std::env::var_os("MD5_RIG_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::write(dir.join("rig.md5mesh"), rig_md5mesh()).unwrap();
        std::fs::write(dir.join("rig.md5anim"), rig_md5anim()).unwrap();
        std::fs::write(dir.join("rig.md5scale"), rig_md5scale()).unwrap();
    }
}

#[test]
fn counts_are_the_builders() {
    let m = rig(false);
    let info = m.info(rig_md5mesh().as_bytes());
    assert_eq!(
        (info.joints, info.meshes, info.vertices, info.triangles),
        (5, 2, 16, 12)
    );
    assert_eq!(
        (info.min_weights_per_vertex, info.max_weights_per_vertex),
        (1, 5)
    );
    assert_eq!(info.animations.len(), 1);
    assert_eq!(info.animations[0].frames, RIG_FRAMES);
    assert_eq!(f64::from(info.animations[0].frame_rate), RIG_FPS);
    assert_eq!(info.shaders, ["models/rig/body", "models/rig/arm"]);
}

#[test]
fn clean_rig_validates_clean() {
    assert_eq!(rig(false).validate(), vec![]);
    // The builder's bounds are of the unscaled frames: the arm grows 1.5×
    // and 2× at frames 3 and 4 (outside them, as the independent
    // evaluator's scaled poses show), the head shrinks at frame 5 (inside).
    let table = rig_scale_table();
    let outside: Vec<String> = (0..RIG_FRAMES)
        .filter(|&k| {
            let anim = rig_md5anim();
            let bounds = reference_pose(&rig_md5mesh(), &anim, None, k);
            let scaled = reference_pose(&rig_md5mesh(), &anim, Some(&table[..]), k);
            let (lo, hi) = extent(&bounds);
            scaled
                .iter()
                .flatten()
                .any(|p| (0..3).any(|c| p[c] < lo[c] - 0.01 || p[c] > hi[c] + 0.01))
        })
        .map(|k| format!("md5anim \"walk\".bounds[{k}]"))
        .collect();
    assert_eq!(
        outside,
        ["md5anim \"walk\".bounds[3]", "md5anim \"walk\".bounds[4]"]
    );
    let found: Vec<String> = rig(true).validate().into_iter().map(|p| p.path).collect();
    assert_eq!(found, outside);
}

fn extent(points: &[Vec<[f64; 3]>]) -> ([f64; 3], [f64; 3]) {
    let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
    for p in points.iter().flatten() {
        for c in 0..3 {
            lo[c] = lo[c].min(p[c]);
            hi[c] = hi[c].max(p[c]);
        }
    }
    (lo, hi)
}

#[test]
fn validation_finds_what_is_wrong() {
    let mesh = rig_md5mesh();
    // Biases of vertex 1 of mesh 0 (weights 1 and 2) no longer sum to 1.
    let bad = mesh.replacen("weight 1 0 0.5000000000", "weight 1 0 0.4000000000", 1);
    assert_ne!(bad, mesh);
    let m = Md5Model::from_mesh_bytes(bad.as_bytes()).unwrap();
    let problems: Vec<String> = m.validate().iter().map(ToString::to_string).collect();
    assert!(
        problems.iter().any(
            |p| p.contains("md5mesh.meshes[0].vertices[1]") && p.contains("weights sum to 0.9")
        ),
        "{problems:?}"
    );
    // An orientation with x² + y² + z² > 1 has no w.
    let bad = mesh.replacen(
        "( -0.0000000000 -0.0000000000 -0.2588190451 )",
        "( 0.9 0.9 0.0 )",
        1,
    );
    assert_ne!(bad, mesh);
    let m = Md5Model::from_mesh_bytes(bad.as_bytes()).unwrap();
    assert!(m
        .validate()
        .iter()
        .any(|p| p.path == "md5mesh.joints[0].orientation"));
    // An anim whose hierarchy's parents are not the mesh's.
    let anim = rig_md5anim().replacen("\"hand\"\t2 ", "\"hand\"\t1 ", 1);
    assert_ne!(anim, rig_md5anim());
    let mut m = Md5Model::from_mesh_bytes(mesh.as_bytes()).unwrap();
    m.add_animation("bad", anim.as_bytes(), None).unwrap();
    assert!(m
        .validate()
        .iter()
        .any(|p| p.path == "md5anim \"bad\".hierarchy[4]" && p.message.contains("parent 1")));
    #[cfg(feature = "scene")]
    assert!(m.to_scene("x").is_err());
}

#[test]
fn hostile_inputs_fail_with_lines() {
    let mesh = rig_md5mesh();
    let cases: [(String, &str); 6] = [
        (
            mesh.replacen("numJoints 5", "numJoints 4000000000", 1),
            "md5mesh line 4: numJoints 4000000000 cannot fit",
        ),
        (
            mesh.replacen("\"spine\"\t0", "\"spine\"\t3", 1),
            "md5mesh line 9: joint 1 (\"spine\"): parent 3 is not an earlier joint",
        ),
        (
            mesh.replacen("tri 0 0 1 2", "tri 0 0 1 9", 1),
            "md5mesh line 30: tri 0: vertex 9 is not in 0..8",
        ),
        (
            mesh.replacen(
                "vert 7 ( 0.8750000000 0.0000000000 ) 17 2",
                "vert 7 ( 0.8750000000 0.0000000000 ) 17 9",
                1,
            ),
            "vert 7 uses weights 17..26 but there are 19",
        ),
        (
            mesh.replacen("weight 0 0 ", "weight 0 7 ", 1),
            "md5mesh line 38: weight 0: joint 7 is not in 0..5",
        ),
        (
            mesh.replacen("vert 1 ", "vert 2 ", 1),
            "md5mesh line 21: vert 2 out of order: expected vert 1",
        ),
    ];
    for (text, expected) in cases {
        assert_ne!(text, mesh, "{expected}");
        let err = Md5Mesh::parse(text.as_bytes()).unwrap_err().to_string();
        assert!(err.contains(expected), "{err} / {expected}");
    }
    let anim = rig_md5anim();
    let cases: [(String, &str); 3] = [
        (
            anim.replacen(
                "numAnimatedComponents 14",
                "numAnimatedComponents 99999999999",
                1,
            ),
            "numAnimatedComponents × numFrames 799999999992 cannot fit",
        ),
        (
            anim.replacen("\"hand\"\t2 34 12", "\"hand\"\t2 34 13", 1),
            "joint 4 (\"hand\"): components 13..15 are not within numAnimatedComponents 14",
        ),
        (
            anim.replacen("frame 3 {", "frame 4 {", 1),
            "frame 4 out of order: expected frame 3",
        ),
    ];
    for (text, expected) in cases {
        assert_ne!(text, anim, "{expected}");
        let err = Md5Anim::parse(text.as_bytes()).unwrap_err().to_string();
        assert!(err.starts_with("md5anim line "), "{err}");
        assert!(err.contains(expected), "{err} / {expected}");
    }
}

#[test]
fn bind_pose_matches_the_independent_evaluator() {
    let m = rig(false);
    let reference = reference_bind(&rig_md5mesh());
    let bind = m.mesh.bind_pose();
    for (k, r) in reference.iter().enumerate() {
        assert_close(
            &m.mesh.posed_vertices(k, &bind),
            r,
            &format!("bind mesh {k}"),
        );
    }
}

#[test]
fn every_frame_matches_the_independent_evaluator() {
    for with_scale in [false, true] {
        let m = rig(with_scale);
        let a = &m.animations[0];
        let table = rig_scale_table();
        for k in 0..RIG_FRAMES {
            let reference = reference_pose(
                &rig_md5mesh(),
                &rig_md5anim(),
                with_scale.then_some(&table[..]),
                k,
            );
            let pose = a.anim.pose(k, a.scale.as_ref());
            for (mesh, r) in reference.iter().enumerate() {
                assert_close(
                    &m.mesh.posed_vertices(mesh, &pose),
                    r,
                    &format!("frame {k} mesh {mesh} scale {with_scale}"),
                );
            }
        }
    }
}

#[test]
fn every_truncation_fails_with_a_line_or_parses() {
    for text in [rig_md5mesh(), rig_md5anim()] {
        let bytes = text.as_bytes();
        for n in 0..bytes.len() {
            let cut = &bytes[..n];
            for r in [Md5Mesh::parse(cut).err(), Md5Anim::parse(cut).err()] {
                if let Some(retromodel::Error::Md5 { line, .. }) = &r {
                    assert!(line.is_some());
                }
            }
        }
    }
}
