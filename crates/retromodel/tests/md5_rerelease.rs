//! `validate --engine quake2-rerelease` for MD5: every count at the
//! rerelease's limit passes and one past it is refused; the md5anim must
//! be there; its frame count is checked against the MD2's.
//!
//! The limits below are written from Q2PRO's source (commit 3aa0d40,
//! `src/refresh/gl.h` and `src/refresh/models.c`), not from the library:
//! `MD5_MAX_JOINTS 256`, `MD5_MAX_MESHES 32`, `MD5_MAX_WEIGHTS 8192`,
//! `MD5_MAX_FRAMES 1024`, `MD5_MAX_JOINTNAME 48` (with its NUL),
//! `TESS_MAX_VERTICES 6144` and `TESS_MAX_INDICES (3 * 6144)` for
//! `numtris`, `numAnimatedComponents <= MD5_MAX_JOINTS * 6`, and
//! `numJoints`, `numMeshes`, `numFrames` at least 1.

use retromodel::md5::Md5Model;
use retromodel::{Model, Problem, Severity};
use retromodel_testkit::md5_sized::*;

fn model(mesh: &SizedMesh, frames: usize) -> Md5Model {
    let mut m = Md5Model::from_mesh_bytes(sized_md5mesh(mesh).as_bytes()).unwrap();
    let anim = sized_md5anim(mesh.joints, mesh.name_len, frames);
    m.add_animation("tris", anim.as_bytes(), None).unwrap();
    m
}

fn errors_at(problems: &[Problem], path: &str) -> usize {
    problems
        .iter()
        .filter(|p| p.severity == Severity::Error && p.path == path)
        .count()
}

/// `count` passes at `limit` and fails one past it, on `path`.
fn at_and_past(limit: usize, path: &str, build: impl Fn(usize) -> Md5Model) {
    let p = build(limit).validate_for_rerelease(None);
    assert_eq!(errors_at(&p, path), 0, "{limit} on {path}: {p:#?}");
    assert!(
        p.iter().all(|p| p.severity == Severity::Warning),
        "{limit} on {path}: {p:#?}"
    );
    let p = build(limit + 1).validate_for_rerelease(None);
    assert_eq!(errors_at(&p, path), 1, "{} on {path}: {p:#?}", limit + 1);
    let e = p.iter().find(|p| p.path == path).unwrap();
    assert!(e.message.contains("by 1"), "{}", e.message);
}

#[test]
fn joints_up_to_256() {
    at_and_past(256, "md5mesh.numJoints", |n| {
        model(&SizedMesh::new(n, 3, 1, 3), 1)
    });
}

#[test]
fn meshes_up_to_32() {
    at_and_past(32, "md5mesh.numMeshes", |n| {
        let spec = SizedMesh {
            joints: 2,
            name_len: 0,
            meshes: vec![(3, 1, 3); n],
        };
        model(&spec, 1)
    });
}

#[test]
fn vertices_triangles_and_weights_per_mesh() {
    at_and_past(6144, "md5mesh.meshes[0].numverts", |n| {
        model(&SizedMesh::new(4, n, 1, n), 1)
    });
    at_and_past(6144, "md5mesh.meshes[0].numtris", |n| {
        model(&SizedMesh::new(4, 3, n, 3), 1)
    });
    at_and_past(8192, "md5mesh.meshes[0].numweights", |n| {
        model(&SizedMesh::new(4, 3, 1, n), 1)
    });
}

#[test]
fn frames_from_1_to_1024() {
    at_and_past(1024, "md5anim \"tris\".numFrames", |n| {
        model(&SizedMesh::new(1, 3, 1, 3), n)
    });
    let p = model(&SizedMesh::new(1, 3, 1, 3), 0).validate_for_rerelease(None);
    assert_eq!(errors_at(&p, "md5anim \"tris\".numFrames"), 1, "{p:#?}");
}

#[test]
fn animated_components_up_to_1536() {
    // One joint animating all six components, frames padded to `n`
    // numbers: Q2PRO reads them all into its 256 × 6 buffer.
    at_and_past(1536, "md5anim \"tris\".numAnimatedComponents", |n| {
        let mut m =
            Md5Model::from_mesh_bytes(sized_md5mesh(&SizedMesh::new(1, 3, 1, 3)).as_bytes())
                .unwrap();
        let pad = " 0".repeat(n - 6);
        let anim = format!(
            "MD5Version 10 commandline \"\" numFrames 1 numJoints 1 frameRate 10 \
             numAnimatedComponents {n} hierarchy {{ \"j0\" -1 63 0 }} \
             bounds {{ ( -9 -9 -9 ) ( 9 9 9 ) }} baseframe {{ ( 0 0 0 ) ( 0 0 0 ) }} \
             frame 0 {{ 0 0 0 0 0 0{pad} }}"
        );
        m.add_animation("tris", anim.as_bytes(), None).unwrap();
        m
    });
}

#[test]
fn no_joints_no_meshes_no_anim() {
    let empty = "MD5Version 10 commandline \"\" numJoints 0 numMeshes 0 joints { }";
    let m = Md5Model::from_mesh_bytes(empty.as_bytes()).unwrap();
    let p = m.validate_for_rerelease(None);
    for path in ["md5mesh.numJoints", "md5mesh.numMeshes", "md5anim"] {
        assert_eq!(errors_at(&p, path), 1, "{path}: {p:#?}");
    }
}

#[test]
fn joint_names_of_47_bytes_reach_the_scale_and_48_do_not() {
    for (len, warned) in [(47, false), (48, true)] {
        let spec = SizedMesh {
            joints: 2,
            name_len: len,
            meshes: vec![(3, 1, 3)],
        };
        let mut m = Md5Model::from_mesh_bytes(sized_md5mesh(&spec).as_bytes()).unwrap();
        let scale = format!("{{\"{}\": {{\"0\": 1.5}}}}", joint_name(1, len));
        let anim = sized_md5anim(2, len, 1);
        m.add_animation("tris", anim.as_bytes(), Some(scale.as_bytes()))
            .unwrap();
        let p = m.validate_for_rerelease(None);
        let hit = p
            .iter()
            .any(|p| p.path == "md5anim \"tris\".hierarchy[1]" && p.severity == Severity::Warning);
        assert_eq!(hit, warned, "{len}: {p:#?}");
        // Without a .md5scale the name's length does not matter.
        let mut m = Md5Model::from_mesh_bytes(sized_md5mesh(&spec).as_bytes()).unwrap();
        m.add_animation("tris", anim.as_bytes(), None).unwrap();
        assert!(m.validate_for_rerelease(None).is_empty());
    }
}

/// A joint scaled to 0 is a hide (Q2PRO `src/refresh/mesh.c`,
/// `calc_skel_vert`: a weight lands at `pos + scale * offset`, so the points
/// fall on the joint; `MD5_LoadScales` takes any number): no warning. A
/// negative scale turns the points inside out: a warning on that frame.
#[test]
fn a_zero_scale_hides_a_negative_one_is_warned() {
    let spec = SizedMesh {
        joints: 2,
        name_len: 8,
        meshes: vec![(3, 1, 3)],
    };
    let name = joint_name(1, 8);
    for (value, warned) in [("0", false), ("0.0", false), ("1.5", false), ("-1", true)] {
        let mut m = Md5Model::from_mesh_bytes(sized_md5mesh(&spec).as_bytes()).unwrap();
        let scale = format!("{{\"{name}\": {{\"0\": {value}}}}}");
        let anim = sized_md5anim(2, 8, 1);
        m.add_animation("tris", anim.as_bytes(), Some(scale.as_bytes()))
            .unwrap();
        let p = m.validate_for_rerelease(None);
        let hit = p
            .iter()
            .any(|p| p.path == "md5anim \"tris\".md5scale" && p.message.contains("frame 0"));
        assert_eq!(hit, warned, "scale {value}: {p:#?}");
        if !warned {
            assert!(p.is_empty(), "scale {value}: {p:#?}");
        }
    }
}

/// The MD2's frame count, from its header's bytes (`num_frames` at 40).
fn md2_with_frames() -> (Model, usize) {
    let bytes = retromodel::md2::sample::sample_model().to_bytes().unwrap();
    let frames = retromodel_testkit::md2_builder::le_i32(&bytes, 40) as usize;
    (Model::from_bytes(&bytes).unwrap(), frames)
}

#[test]
fn frame_count_against_the_md2s() {
    let (md2, n) = md2_with_frames();
    assert!(n > 1);
    let path = "md5anim \"tris\".numFrames";
    for (frames, warned) in [(n, false), (n - 1, true), (n + 1, true)] {
        let md5 = Model::Md5(model(&SizedMesh::new(3, 3, 1, 3), frames));
        let p = md5.validate_for_rerelease(Some(&md2));
        let w: Vec<_> = p.iter().filter(|p| p.path == path).collect();
        assert_eq!(w.len(), usize::from(warned), "{frames} vs {n}: {p:#?}");
        assert!(w.iter().all(|p| p.severity == Severity::Warning));
        // From the MD2's side: the same, under `md5.`.
        let p = md2.validate_for_rerelease(Some(&md5));
        let w = p.iter().filter(|p| p.path == format!("md5.{path}")).count();
        assert_eq!(w, usize::from(warned), "{frames} vs {n}: {p:#?}");
    }
    // Without the MD2 the count is not compared.
    let md5 = Model::Md5(model(&SizedMesh::new(3, 3, 1, 3), n + 1));
    assert!(md5.validate_for_rerelease(None).is_empty());
}

#[test]
fn only_the_anim_named_like_the_mesh_plays() {
    let mut m = model(&SizedMesh::new(2, 3, 1, 3), 2);
    m.add_animation("wave", sized_md5anim(2, 0, 2).as_bytes(), None)
        .unwrap();
    let p = m.validate_for_rerelease(None);
    assert_eq!(p.len(), 1, "{p:#?}");
    assert_eq!(p[0].path, "md5anim \"wave\"");
    assert_eq!(p[0].severity, Severity::Warning);
}
