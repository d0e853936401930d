//! Writing MD5 files: parse → write → parse gives the same values, every
//! float bit for bit, on the testkit's hand-written rig (md5mesh, md5anim,
//! `.md5scale`) and on Debian assimp-testmodels' `SimpleCube.md5mesh`
//! (read in place, never copied; skipped with a note when not installed,
//! a failure under `CI`). The written text is also read by the testkit's
//! own tokenizer and evaluator, which must pose it as it poses the
//! original.

use retromodel::md5::{Md5Anim, Md5Mesh, Md5Scale};
use retromodel_testkit::md5_builder as rig;

/// The mesh with the line numbers (where the text put items) cleared.
fn unlined(mut m: Md5Mesh) -> Md5Mesh {
    for j in &mut m.joints {
        j.line = 0;
    }
    for x in &mut m.meshes {
        x.line = 0;
    }
    m
}

fn unlined_anim(mut a: Md5Anim) -> Md5Anim {
    for h in &mut a.hierarchy {
        h.line = 0;
    }
    a
}

/// Two evaluations of the same model agree within f32 rounding (the
/// original texts carry more digits than an `f32` keeps).
fn close(a: &[Vec<[f64; 3]>], b: &[Vec<[f64; 3]>]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.len(), y.len());
        for (p, q) in x.iter().zip(y) {
            for c in 0..3 {
                let tol = 1e-6 * (1.0 + p[c].abs());
                assert!((p[c] - q[c]).abs() <= tol, "{p:?} vs {q:?}");
            }
        }
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn rig_mesh_round_trips_exactly() {
    let text = rig::rig_md5mesh();
    let mesh = Md5Mesh::parse(text.as_bytes()).unwrap();
    let written = mesh.to_text();
    let again = Md5Mesh::parse(written.as_bytes()).unwrap();
    assert_eq!(unlined(again.clone()), unlined(mesh.clone()));
    for (a, b) in again.meshes.iter().zip(&mesh.meshes) {
        let wa: Vec<f32> = a.weights.iter().flat_map(|w| w.position).collect();
        let wb: Vec<f32> = b.weights.iter().flat_map(|w| w.position).collect();
        assert_eq!(bits(&wa), bits(&wb));
    }
    // The independent evaluator poses both texts alike.
    close(&rig::reference_bind(&written), &rig::reference_bind(&text));
}

#[test]
fn rig_anim_and_scale_round_trip_exactly() {
    let text = rig::rig_md5anim();
    let anim = Md5Anim::parse(text.as_bytes()).unwrap();
    let written = anim.to_text();
    let again = Md5Anim::parse(written.as_bytes()).unwrap();
    assert_eq!(bits(&again.components), bits(&anim.components));
    assert_eq!(unlined_anim(again), unlined_anim(anim.clone()));
    let mesh = rig::rig_md5mesh();
    let table = rig::rig_scale_table();
    for k in 0..anim.num_frames {
        close(
            &rig::reference_pose(&mesh, &written, Some(&table), k),
            &rig::reference_pose(&mesh, &text, Some(&table), k),
        );
    }
    let names: Vec<&str> = anim.hierarchy.iter().map(|h| h.name.as_str()).collect();
    let scale = Md5Scale::parse(rig::rig_md5scale().as_bytes(), &names).unwrap();
    let json = scale.to_bytes();
    assert_eq!(Md5Scale::parse(&json, &names).unwrap(), scale);
    // Plain JSON any reader takes.
    let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert!(value.is_object());
}

#[test]
fn awkward_floats_round_trip_without_exponents() {
    let values = [
        1e-30f32,
        -0.0,
        f32::MIN_POSITIVE,
        1.0e30,
        0.1,
        1.0 / 3.0,
        -123456.79,
        f32::MAX,
        f32::MIN_POSITIVE / 8.0, // subnormal
    ];
    let mut anim = Md5Anim::parse(rig::rig_md5anim().as_bytes()).unwrap();
    let n = anim.components.len().min(values.len());
    anim.components[..n].copy_from_slice(&values[..n]);
    let text = anim.to_text();
    let numbers = text.split_whitespace().filter(|t| t.parse::<f32>().is_ok());
    assert!(numbers.clone().all(|t| !t.contains(['e', 'E'])));
    let again = Md5Anim::parse(text.as_bytes()).unwrap();
    assert_eq!(bits(&again.components[..n]), bits(&values[..n]));
}

#[test]
fn assimp_testmodels_simple_cube_round_trips() {
    let path = std::path::Path::new("/usr/share/assimp/models/MD5/SimpleCube.md5mesh");
    let Ok(bytes) = std::fs::read(path) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing; CI installs assimp-testmodels",
            path.display()
        );
        eprintln!(
            "note: {} not found (Debian assimp-testmodels); skipping",
            path.display()
        );
        return;
    };
    let mesh = Md5Mesh::parse(&bytes).unwrap();
    let written = mesh.to_text();
    let again = Md5Mesh::parse(written.as_bytes()).unwrap();
    assert_eq!(unlined(again), unlined(mesh));
    let original = String::from_utf8_lossy(&bytes);
    close(
        &rig::reference_bind(&written),
        &rig::reference_bind(&original),
    );
}
