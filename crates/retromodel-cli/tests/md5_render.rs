//! `retromodel render` of an MD5: the testkit's rig posed at a frame of
//! its md5anim (found by the mesh's name). The silhouette's bounding box
//! must be where the rig's vertices, posed by the testkit's independent
//! evaluator (`reference_pose`, from the format's description) and
//! projected here through the camera `--verbose` reports, fall.

use retromodel_testkit::cli::run_os;
use retromodel_testkit::md5_builder::*;
use std::path::Path;

const BIN: &str = env!("CARGO_BIN_EXE_retromodel");

type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn unit(a: V) -> V {
    let l = dot(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

/// Pixel box (x0, y0, x1, y1) of the image's opaque pixels.
fn silhouette(path: &Path) -> [f64; 4] {
    let img = image::open(path).unwrap().to_rgba8();
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for (x, y, p) in img.enumerate_pixels() {
        if p.0[3] > 0 {
            b = [
                b[0].min(f64::from(x)),
                b[1].min(f64::from(y)),
                b[2].max(f64::from(x) + 1.0),
                b[3].max(f64::from(y) + 1.0),
            ];
        }
    }
    assert!(b[0] < b[2], "{}: nothing drawn", path.display());
    b
}

/// Each mesh's triangles, read from the md5mesh's `tri` lines.
fn triangles(mesh: &str) -> Vec<Vec<[usize; 3]>> {
    let mut out: Vec<Vec<[usize; 3]>> = Vec::new();
    for line in mesh.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.as_slice() {
            ["mesh", ..] => out.push(Vec::new()),
            ["tri", _, a, b, c] => out
                .last_mut()
                .unwrap()
                .push([a, b, c].map(|x| x.parse().unwrap())),
            _ => {}
        }
    }
    out
}

/// Pixel box (x0, y0, x1, y1) of the front faces of `meshes` (posed
/// vertices in Quake axes, and triangles) seen through `camera` (the
/// scene's axes, glTF's: Quake's x forward, y left, z up are the scene's
/// z, x, y) on a `w`×`h` image: a perspective look-at camera. id Tech's
/// front faces run clockwise (Q2PRO `MD5_ComputeNormals` takes the
/// normal as (v2 − v0) × (v1 − v0)): clockwise on the image with y up.
fn projected(
    meshes: &[Vec<V>],
    tris: &[Vec<[usize; 3]>],
    camera: &serde_json::Value,
    w: f64,
    h: f64,
) -> [f64; 4] {
    let v = |k: &str| -> V {
        let a = camera[k].as_array().unwrap();
        [0, 1, 2].map(|i| a[i].as_f64().unwrap())
    };
    assert_eq!(camera["projection"], "perspective");
    let (eye, target, up) = (v("eye"), v("target"), v("up"));
    let f = unit(sub(target, eye));
    let r = unit(cross(f, up));
    let u = cross(r, f);
    let t = (camera["fov_y_degrees"].as_f64().unwrap().to_radians() / 2.0).tan();
    let ndc = |p: V| {
        let p = sub([p[1], p[2], p[0]], eye);
        let (x, y, z) = (dot(p, r), dot(p, u), dot(p, f));
        (x / (z * t * w / h), y / (z * t))
    };
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for (points, tris) in meshes.iter().zip(tris) {
        for tri in tris {
            let [a, c, d] = tri.map(|i| ndc(points[i]));
            let area = (c.0 - a.0) * (d.1 - a.1) - (c.1 - a.1) * (d.0 - a.0);
            if area >= 0.0 {
                continue; // counter-clockwise: a back face
            }
            for (nx, ny) in [a, c, d] {
                let (px, py) = ((nx + 1.0) / 2.0 * w, (1.0 - ny) / 2.0 * h);
                b = [b[0].min(px), b[1].min(py), b[2].max(px), b[3].max(py)];
            }
        }
    }
    b
}

#[test]
fn an_md5_still_is_drawn_where_its_posed_vertices_project() {
    let dir = tempfile::tempdir().unwrap();
    let (mesh, anim) = (rig_md5mesh(), rig_md5anim());
    std::fs::write(dir.path().join("rig.md5mesh"), &mesh).unwrap();
    std::fs::write(dir.path().join("rig.md5anim"), &anim).unwrap();
    let size = 160.0;
    let mut boxes = Vec::new();
    for frame in [0, 3, RIG_FRAMES - 1] {
        let out = dir.path().join(format!("f{frame}.png"));
        let o = run_os(
            BIN,
            &[
                "render".as_ref(),
                "-v".as_ref(),
                "--size".as_ref(),
                "160".as_ref(),
                "--anim".as_ref(),
                "rig".as_ref(),
                "--frame".as_ref(),
                frame.to_string().as_ref(),
                dir.path().join("rig.md5mesh").as_os_str(),
                out.as_os_str(),
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(info["moment"]["frame"], frame);
        let posed = reference_pose(&mesh, &anim, None, frame);
        let want = projected(&posed, &triangles(&mesh), &info["camera"], size, size);
        let got = silhouette(&out);
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= 1.5,
                "frame {frame}: drawn {got:?}, projected {want:?}"
            );
        }
        boxes.push(got);
    }
    // The frames differ: the test sees the animation, not only the rest pose.
    assert_ne!(boxes[0], boxes[2]);
}
