//! The IQM engine profiles (`Iqm::validate_for`) on files made byte by
//! byte from `iqm.txt` (`retromodel_testkit::iqm_bytes`, not the library's
//! writer): every numeric limit at the limit and one past, per engine,
//! with the numbers taken from the engines' sources (cited in
//! `src/iqm/engine.rs`); then the corpus's three IQM files, their mesh
//! sizes read here from the bytes by hand.

use retromodel::iqm::Iqm;
use retromodel::{Engine, Model, Problem, Severity};
use retromodel_testkit::iqm_bytes::{format, kind, AnimSpec, IqmSpec};

fn check(spec: &IqmSpec, engine: Engine) -> Vec<Problem> {
    let bytes = spec.to_bytes();
    let iqm = Iqm::from_bytes(&bytes).unwrap_or_else(|e| panic!("the reader refuses it: {e}"));
    iqm.validate_for(engine)
}

fn errors(spec: &IqmSpec, engine: Engine) -> Vec<Problem> {
    check(spec, engine)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect()
}

/// Loads: no error. Refused (or fatal): an error at `path`.
fn loads(spec: &IqmSpec, engine: Engine) {
    let e = errors(spec, engine);
    assert!(e.is_empty(), "{engine}: {e:#?}");
}

fn refused_at(spec: &IqmSpec, engine: Engine, path: &str) -> Problem {
    let e = errors(spec, engine);
    e.into_iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("{engine}: no error at {path}: {:#?}", check(spec, engine)))
}

fn warned_at(spec: &IqmSpec, engine: Engine, path: &str) -> Problem {
    check(spec, engine)
        .into_iter()
        .find(|p| p.path == path && p.severity == Severity::Warning)
        .unwrap_or_else(|| panic!("{engine}: no warning at {path}: {:#?}", check(spec, engine)))
}

/// A mesh with joints: blend arrays, a chain of `n` joints with a pose
/// each, one frame.
fn skinned(n: usize) -> IqmSpec {
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.blend_arrays();
    s.chain(n, true, 1);
    s
}

#[test]
fn ioquake3_takes_999_vertices_and_1999_triangles_a_mesh() {
    let e = Engine::Ioquake3;
    loads(&IqmSpec::static_meshes(&[(999, 1999)]), e);
    let p = refused_at(
        &IqmSpec::static_meshes(&[(1000, 1)]),
        e,
        "meshes[0].num_vertexes",
    );
    assert!(p.message.contains("does not load"), "{}", p.message);
    refused_at(
        &IqmSpec::static_meshes(&[(3, 2000)]),
        e,
        "meshes[0].num_triangles",
    );
    // The limit is per mesh: two meshes of 999 load.
    loads(&IqmSpec::static_meshes(&[(999, 1), (999, 1)]), e);
}

#[test]
fn ioquake3_takes_128_joints() {
    loads(&skinned(128), Engine::Ioquake3);
    refused_at(&skinned(129), Engine::Ioquake3, "num_joints");
}

#[test]
fn ioquake3_and_daemon_take_a_header_filesize_up_to_the_file_and_16_mib() {
    for e in [Engine::Ioquake3, Engine::Daemon] {
        let mut s = IqmSpec::static_meshes(&[(3, 1)]);
        let len = s.to_bytes().len() as u32;
        s.filesize = Some(len + 4);
        refused_at(&s, e, "filesize");
        s.filesize = Some(len);
        loads(&s, e);
        // 16 MiB exactly loads; 4 bytes more is refused.
        let base = s.len_without_comment();
        s.filesize = None;
        s.comment = vec![0; (16 << 20) - base];
        assert_eq!(s.to_bytes().len(), 16 << 20);
        loads(&s, e);
        s.comment.extend([0; 4]);
        refused_at(&s, e, "filesize");
    }
}

#[test]
fn ioquake3_lets_an_index_equal_to_the_vertex_count_through() {
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.triangles[0][2] = 3;
    let p = warned_at(&s, Engine::Ioquake3, "triangles[0]");
    assert!(p.message.contains("one past"), "{}", p.message);
    assert!(errors(&s, Engine::Ioquake3).is_empty());
    s.triangles[0][2] = 4;
    refused_at(&s, Engine::Ioquake3, "triangles[0]");
}

#[test]
fn ioquake3_wants_no_poses_or_one_per_joint_and_reads_no_animation() {
    let mut s = skinned(2);
    loads(&s, Engine::Ioquake3);
    s.poses.pop();
    refused_at(&s, Engine::Ioquake3, "num_poses");
    let mut s = skinned(2);
    s.poses.clear();
    s.num_frames = 0;
    loads(&s, Engine::Ioquake3);
    let mut s = skinned(2);
    let name = s.name("idle");
    s.anims.push(AnimSpec {
        name,
        first_frame: 0,
        num_frames: 1,
        framerate: 24.0,
        flags: 1,
    });
    warned_at(&s, Engine::Ioquake3, "anims");
}

#[test]
fn ioquake3_refuses_a_mesh_without_normals_and_joints_without_blend_arrays() {
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.arrays.retain(|a| a.kind != kind::NORMAL);
    refused_at(&s, Engine::Ioquake3, "vertexarrays");
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.chain(1, true, 1);
    refused_at(&s, Engine::Ioquake3, "vertexarrays");
}

#[test]
fn daemon_refuses_animation_only_files_and_later_parents() {
    let e = Engine::Daemon;
    let mut anim_only = IqmSpec::new();
    anim_only.chain(2, true, 1);
    anim_only.joints.clear();
    refused_at(&anim_only, e, "num_meshes");
    let mut s = skinned(3);
    loads(&s, e);
    s.joints[1].parent = 2;
    refused_at(&s, e, "joints[1].parent");
}

#[test]
fn daemon_takes_a_scale_whose_components_differ_by_less_than_one() {
    let e = Engine::Daemon;
    let mut s = skinned(2);
    s.joints[1].scale = [1.0, 1.99, 1.0];
    loads(&s, e);
    s.joints[1].scale = [1.0, 2.0, 1.0];
    refused_at(&s, e, "joints[1].scale");
    s.joints[1].scale = [-0.5, -0.5, -0.5];
    refused_at(&s, e, "joints[1].scale");
}

#[test]
fn daemon_builds_a_skeleton_of_256_bones_and_wants_ubyte_blends_and_frames() {
    let e = Engine::Daemon;
    let s = skinned(256);
    assert!(check(&s, e).iter().all(|p| p.path != "num_joints"));
    warned_at(&skinned(257), e, "num_joints");
    let mut s = skinned(2);
    let name = s.name("idle");
    s.anims.push(AnimSpec {
        name,
        first_frame: 0,
        num_frames: 1,
        framerate: 24.0,
        flags: 0,
    });
    loads(&s, e);
    s.anims[0].num_frames = 0;
    refused_at(&s, e, "anims[0].num_frames");
    let mut s = skinned(2);
    s.arrays.retain(|a| a.kind != kind::BLENDINDEXES);
    s.array(kind::BLENDINDEXES, format::INT, 4, vec![0; 4 * 4 * 3]);
    refused_at(&s, e, "vertexarrays[4].format");
    // ioquake3 takes int indexes (and misreads them).
    loads(&s, Engine::Ioquake3);
}

#[test]
fn fte_takes_256_joints_and_only_the_exact_filesize() {
    let e = Engine::Fte;
    loads(&skinned(256), e);
    refused_at(&skinned(257), e, "num_joints");
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.comment = b"end\0".to_vec();
    loads(&s, e);
    s.filesize = Some(s.to_bytes().len() as u32 - 4);
    refused_at(&s, e, "filesize");
    // ioquake3 takes a header filesize below the file's while the
    // sections it checks end by it (the comment is not one of them);
    // 4 bytes less and the triangles end past it.
    loads(&s, Engine::Ioquake3);
    s.filesize = Some(s.to_bytes().len() as u32 - 8);
    refused_at(&s, Engine::Ioquake3, "ofs_triangles");
}

#[test]
fn fte_and_raylib_keep_16_bit_indices_relative_to_the_mesh() {
    let mut s = IqmSpec::static_meshes(&[(65537, 1)]);
    s.triangles[0] = [0, 1, 65535];
    for e in [Engine::Fte, Engine::Raylib] {
        assert!(
            check(&s, e).iter().all(|p| p.path != "meshes[0].triangles"),
            "{e}"
        );
    }
    s.triangles[0] = [0, 1, 65536];
    for e in [Engine::Fte, Engine::Raylib] {
        warned_at(&s, e, "meshes[0].triangles");
        loads(&s, e);
    }
}

#[test]
fn fte_makes_a_later_parent_a_root() {
    let mut s = skinned(3);
    s.joints[0].parent = 2;
    s.poses[0].parent = 2;
    warned_at(&s, Engine::Fte, "joints[0].parent");
    loads(&s, Engine::Fte);
}

#[test]
fn quakespasm_spiked_stops_past_65535_vertices_and_without_a_mesh() {
    let e = Engine::QuakespasmSpiked;
    loads(&IqmSpec::static_meshes(&[(65535, 1)]), e);
    let p = refused_at(&IqmSpec::static_meshes(&[(65536, 1)]), e, "num_vertexes");
    assert!(
        p.message.contains("fatal error (Sys_Error)"),
        "{}",
        p.message
    );
    let mut anim_only = IqmSpec::new();
    anim_only.chain(2, true, 1);
    anim_only.joints.clear();
    refused_at(&anim_only, e, "num_meshes");
}

#[test]
fn quakespasm_spiked_takes_256_joints_and_skins_64_on_the_gpu() {
    let e = Engine::QuakespasmSpiked;
    loads(&skinned(256), e);
    refused_at(&skinned(257), e, "num_joints");
    assert!(check(&skinned(64), e)
        .iter()
        .all(|p| p.path != "num_joints"));
    warned_at(&skinned(65), e, "num_joints");
}

#[test]
fn quakespasm_spiked_drops_the_animation_of_unequal_poses_and_ignores_loops() {
    let e = Engine::QuakespasmSpiked;
    let mut s = skinned(3);
    s.poses.pop();
    let p = warned_at(&s, e, "num_poses");
    assert!(p.message.contains("drops"), "{}", p.message);
    loads(&s, e);
    let mut s = skinned(2);
    let name = s.name("run");
    s.anims.push(AnimSpec {
        name,
        first_frame: 0,
        num_frames: 1,
        framerate: 0.0,
        flags: 1,
    });
    assert!(warned_at(&s, e, "anims").message.contains("IQM_LOOP"));
    warned_at(&s, e, "anims[0].framerate");
}

#[test]
fn darkplaces_ends_the_session_on_a_later_parent_and_wants_texcoords() {
    let e = Engine::Darkplaces;
    let mut s = skinned(3);
    loads(&s, e);
    s.joints[1].parent = 1;
    let p = refused_at(&s, e, "joints[1].parent");
    assert!(p.message.contains("Host_Error"), "{}", p.message);
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.arrays.retain(|a| a.kind != kind::TEXCOORD);
    refused_at(&s, e, "vertexarrays");
    // Animated without blend arrays.
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.chain(1, true, 1);
    refused_at(&s, e, "vertexarrays");
}

#[test]
fn gzdoom_stops_on_a_later_parent_and_on_positions_not_in_floats() {
    let e = Engine::Gzdoom;
    let mut s = skinned(2);
    loads(&s, e);
    s.joints[0].parent = 0;
    let p = refused_at(&s, e, "joints[0].parent");
    assert!(p.message.contains("I_FatalError"), "{}", p.message);
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.arrays[0] = retromodel_testkit::iqm_bytes::ArraySpec {
        kind: kind::POSITION,
        format: format::UBYTE,
        size: 3,
        data: vec![0; 9],
    };
    refused_at(&s, e, "vertexarrays[0].format");
}

#[test]
fn raylib_names_fit_in_31_bytes() {
    let e = Engine::Raylib;
    let mut s = IqmSpec::static_meshes(&[(3, 1)]);
    s.meshes[0].material = s.name(&"a".repeat(31));
    assert!(check(&s, e).iter().all(|p| p.path != "meshes[0].material"));
    s.meshes[0].material = s.name(&"a".repeat(32));
    warned_at(&s, e, "meshes[0].material");
    loads(&s, e);
}

#[test]
fn an_engine_without_iqm_says_so() {
    let bytes = IqmSpec::static_meshes(&[(3, 1)]).to_bytes();
    let model = Model::from_bytes(&bytes).unwrap();
    let p = model.validate_for(Engine::Quake2);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].severity, Severity::Error);
    // An engine that loads IQM: its checks, then the model's own.
    let p = model.validate_for(Engine::Ioquake3);
    assert!(p.iter().all(|p| p.severity == Severity::Warning), "{p:?}");
}

/// `(num_meshes, each mesh's (num_vertexes, num_triangles), num_joints,
/// num_poses)`, read here from the header and mesh records by byte
/// offset (`iqm.txt`).
fn by_hand(bytes: &[u8]) -> (u32, Vec<(u32, u32)>, u32, u32) {
    let u = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let (n, ofs) = (u(36), u(40) as usize);
    let meshes = (0..n as usize)
        .map(|i| (u(ofs + 24 * i + 12), u(ofs + 24 * i + 20)))
        .collect();
    (n, meshes, u(68), u(76))
}

#[test]
fn the_corpus_models_per_engine() {
    let Some(dir) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let dir = dir.join("iqm");
    let read = |name: &str| {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let facts = by_hand(&bytes);
        (Iqm::from_bytes(&bytes).unwrap(), facts)
    };
    let no_errors = |m: &Iqm, e: Engine| {
        m.validate_for(e)
            .iter()
            .all(|p| p.severity != Severity::Error)
    };

    // mrfixit: ioquake3 refuses it exactly when a mesh has 1000 vertices or
    // more, or 2000 triangles or more (its 75 joints are within 128).
    let (mrfixit, (n, meshes, joints, poses)) = read("lsalzman_mrfixit.iqm");
    assert_eq!((n, joints, poses), (2, 75, 75));
    let over = meshes.iter().any(|&(v, t)| v >= 1000 || t >= 2000);
    assert!(over, "{meshes:?}"); // 1861 vertices over two meshes
    assert_eq!(!no_errors(&mrfixit, Engine::Ioquake3), over);
    // Every other engine loads it.
    for e in [
        Engine::Daemon,
        Engine::Fte,
        Engine::QuakespasmSpiked,
        Engine::Darkplaces,
        Engine::Gzdoom,
        Engine::Raylib,
    ] {
        assert!(
            no_errors(&mrfixit, e),
            "{e}: {:#?}",
            mrfixit.validate_for(e)
        );
    }

    // guy: one mesh of 240 vertices, 14 joints and poses: every engine
    // loads it; ioquake3 reads none of its two animations, and
    // QuakeSpasm-Spiked ignores their loop flags.
    let (guy, (n, meshes, joints, poses)) = read("raylib_guy.iqm");
    assert_eq!((n, meshes, joints, poses), (1, vec![(240, 120)], 14, 14));
    for e in Engine::IQM {
        assert!(no_errors(&guy, e), "{e}: {:#?}", guy.validate_for(e));
    }
    assert!(guy
        .validate_for(Engine::Ioquake3)
        .iter()
        .any(|p| p.path == "anims"));

    // guyanim: no mesh, no joint, 14 poses. The Daemon engine refuses a
    // file without a mesh, QuakeSpasm-Spiked stops on one, ioquake3
    // refuses poses that are neither 0 nor the joints' count, DarkPlaces
    // sizes its pose storage by the joints (0) and writes 14 poses a
    // frame into it; FTE, GZDoom and raylib take it (as animations to
    // apply).
    let (anim, (n, _, joints, poses)) = read("raylib_guyanim.iqm");
    assert_eq!((n, joints, poses), (0, 0, 14));
    for (e, ok) in [
        (Engine::Daemon, false),
        (Engine::QuakespasmSpiked, false),
        (Engine::Ioquake3, false),
        (Engine::Fte, true),
        (Engine::Darkplaces, false),
        (Engine::Gzdoom, true),
        (Engine::Raylib, true),
    ] {
        assert_eq!(no_errors(&anim, e), ok, "{e}: {:#?}", anim.validate_for(e));
    }
}
