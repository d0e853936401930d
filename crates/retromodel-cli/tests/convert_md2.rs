//! `convert IN OUT.md2` from other formats: what a modder runs. Counts
//! are read back from the written bytes here (header fields), not through
//! the library.

use std::path::Path;
use std::process::Output;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::corpus_dir;

fn run(args: &[&str]) -> Output {
    run_os(env!("CARGO_BIN_EXE_retromodel"), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Header field `i` (0 = magic) of an MD2 file.
fn header(path: &Path, i: usize) -> i32 {
    let b = std::fs::read(path).unwrap();
    i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap())
}

/// An OBJ of 1000 triangles over the 3000 first points of a 15×15×15
/// lattice: 3000 positions that stay distinct on any 8-bit grid.
fn lattice_obj() -> String {
    let mut s = String::new();
    for p in 0..3000 {
        let (x, y, z) = (p % 15, (p / 15) % 15, p / 225);
        s += &format!("v {x} {y} {z}\n");
    }
    for t in 0..1000 {
        s += &format!("f {} {} {}\n", 3 * t + 1, 3 * t + 2, 3 * t + 3);
    }
    s
}

#[test]
fn a_mesh_over_the_engines_vertex_limit_is_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("big.obj");
    std::fs::write(&obj, lattice_obj()).unwrap();
    let out_path = dir.path().join("big.md2");
    let (obj, out) = (obj.to_str().unwrap(), out_path.to_str().unwrap());
    let o = run(&["convert", obj, out]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("3000 vertices (after welding) exceed Quake II's limit of 2048 (by 952)"),
        "{}",
        stderr(&o)
    );
    assert!(!out_path.exists(), "nothing written");
    // KMQuake2 has no such limit: the same mesh loads there.
    let o = run(&["convert", "--engine", "kmquake2", obj, out]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(header(&out_path, 6), 3000, "num_vertices");
    assert_eq!(header(&out_path, 8), 1000, "num_triangles");
    assert_eq!(
        header(&out_path, 10),
        1,
        "one frame: an OBJ has no animation"
    );
    let o = run(&["validate", "--strict", "--engine", "kmquake2", out]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn blenders_walker_becomes_a_player_model_with_the_standard_table() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("walker.md2");
    let glb = corpus.join("gltf/blender_walker.glb");
    let o = run(&[
        "convert",
        "--player",
        "--fit-height",
        "56",
        "--json",
        glb.to_str().unwrap(),
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The walker has `idle` (→ stand) and `walk` (no standard name):
    // the other 19 entries are filled, with a warning.
    assert!(stderr(&o).contains("walk"), "{}", stderr(&o));
    assert_eq!(header(&out_path, 10), 198, "198 frames");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["animations"].as_array().unwrap().len(), 20);
    // Our own reader recognises the standard table in the written file.
    let o = run(&["info", "--json", out_path.to_str().unwrap()]);
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = info["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 20);
    assert_eq!(&names[..4], ["stand", "run", "attack", "pain1"]);
    assert_eq!(info["animations"][0]["frame_count"], 40);
    // 56 Quake units tall over all frames.
    let tall = report["scale"].as_f64().unwrap();
    assert!(
        tall > 20.0 && tall < 40.0,
        "about 31 units per metre: {tall}"
    );
    // The skin was written beside it.
    assert!(dir.path().join("walker.png").is_file());
}

#[test]
fn a_hostile_gltf_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("x.md2");
    for (name, bytes, wanted) in [
        ("cut.glb", b"glTF\x02\0\0\0\xff\0\0\0".to_vec(), "glTF"),
        (
            "cycle.gltf",
            br#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"children":[1]},{"children":[0]}]}"#.to_vec(),
            "/nodes/",
        ),
        (
            "draco.gltf",
            br#"{"asset":{"version":"2.0"},"extensionsRequired":["KHR_draco_mesh_compression"],"extensionsUsed":["KHR_draco_mesh_compression"]}"#.to_vec(),
            "KHR_draco_mesh_compression",
        ),
        (
            "bin.gltf",
            br#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
                "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
                "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
                "bufferViews":[{"buffer":0,"byteLength":36}],
                "buffers":[{"uri":"../../etc/passwd","byteLength":36}]}"#.to_vec(),
            "refused",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let start = std::time::Instant::now();
        let o = run(&["convert", path.to_str().unwrap(), out_path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(wanted), "{name}: {}", stderr(&o));
        assert!(start.elapsed().as_secs() < 5, "{name}");
        assert!(!out_path.exists(), "{name}: nothing written");
    }
}
