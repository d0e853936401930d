//! The glb we make from an MD5 model, played by three.js
//! (`acceptance/skin_three.mjs`: GLTFLoader, AnimationMixer, skinning on
//! the CPU, at every 1/30 s), against the testkit's independent MD5
//! evaluator at every frame of the rig's anim (10 fps: every third
//! sample), with and without its `.md5scale`. three.js skins with four
//! influences (`JOINTS_0`/`WEIGHTS_0` only), so vertices with five weights
//! are compared only in the bind pose. Skipped without node and
//! `acceptance/node_modules` (required under CI).

#![cfg(all(feature = "gltf", feature = "scene"))]

use std::path::Path;

use retromodel::md5::md5_axes as md2_axes;
use retromodel::md5::Md5Model;
use retromodel_testkit::md5_builder::*;
use retromodel_testkit::node::node_with_three;
use serde_json::Value;

fn weight_counts(mesh: usize) -> Vec<usize> {
    let m = Md5Model::from_mesh_bytes(rig_md5mesh().as_bytes()).unwrap();
    m.mesh.meshes[mesh]
        .vertices
        .iter()
        .map(|v| v.weight_count)
        .collect()
}

fn check(with_scale: bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if !node_with_three(&root) {
        eprintln!("skipped: node or acceptance/node_modules missing");
        return;
    }
    let mut model = Md5Model::from_mesh_bytes(rig_md5mesh().as_bytes()).unwrap();
    let scale = rig_md5scale();
    model
        .add_animation(
            "walk",
            rig_md5anim().as_bytes(),
            with_scale.then_some(scale.as_bytes()),
        )
        .unwrap();
    let glb = retromodel::gltf::to_glb(&model.to_scene("rig").unwrap()).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "retromodel-md5-three-{}-{with_scale}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rig.glb"), &glb).unwrap();
    let ran = std::process::Command::new("node")
        .arg(root.join("acceptance/skin_three.mjs"))
        .arg(dir.join("rig.glb"))
        .arg(dir.join("rig.json"))
        .status()
        .unwrap();
    assert!(ran.success());
    let three: Value =
        serde_json::from_slice(&std::fs::read(dir.join("rig.json")).unwrap()).unwrap();
    let table = rig_scale_table();
    let compare = |ours: &[Vec<[f64; 3]>], theirs: &Value, all: bool, what: &str| {
        let mut worst = 0.0f64;
        for (m, reference) in ours.iter().enumerate() {
            let p = theirs[m].as_array().unwrap();
            assert_eq!(
                p.len(),
                3 * reference.len(),
                "{what}: mesh {m} vertex count"
            );
            let counts = weight_counts(m);
            for (i, r) in reference.iter().enumerate() {
                if !all && counts[i] > 4 {
                    continue;
                }
                let r = md2_axes([r[0] as f32, r[1] as f32, r[2] as f32]);
                for c in 0..3 {
                    let d = (p[3 * i + c].as_f64().unwrap() - f64::from(r[c])).abs();
                    worst = worst.max(d);
                    assert!(
                        d < 1e-4 * 6.0,
                        "{what}: mesh {m} vertex {i} axis {c}: three.js {} reference {}",
                        p[3 * i + c],
                        r[c]
                    );
                }
            }
        }
        worst
    };
    let bind = compare(
        &reference_bind(&rig_md5mesh()),
        &three["rest"],
        true,
        "bind",
    );
    let anim = &three["animations"][0];
    let times = anim["times"].as_array().unwrap();
    let mut worst = 0.0f64;
    for k in 0..RIG_FRAMES {
        let sample = times
            .iter()
            .position(|t| (t.as_f64().unwrap() - k as f64 / RIG_FPS).abs() < 1e-6)
            .unwrap_or_else(|| panic!("three.js sampled no time {}", k as f64 / RIG_FPS));
        let reference = reference_pose(
            &rig_md5mesh(),
            &rig_md5anim(),
            with_scale.then_some(&table[..]),
            k,
        );
        worst = worst.max(compare(
            &reference,
            &anim["poses"][sample],
            false,
            &format!("frame {k}"),
        ));
    }
    eprintln!("md5 rig (scale {with_scale}): bind within {bind:.1e}, {RIG_FRAMES} frames within {worst:.1e} (extent about 6)");
}

#[test]
fn three_js_plays_the_rig_as_the_independent_evaluator_poses_it() {
    check(false);
}

#[test]
fn three_js_plays_the_scaled_rig_as_the_independent_evaluator_poses_it() {
    check(true);
}
