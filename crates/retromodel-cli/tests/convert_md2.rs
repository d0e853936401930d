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

/// The Z extent, in Quake units, of every frame of an MD2, decoded from
/// its bytes (header fields 5 framesize, 6 num_xyz, 10 num_frames, 14
/// ofs_frames; each frame is scale, translate, a 16-byte name, then 4
/// bytes per vertex: x y z and a normal index).
fn md2_height(path: &Path) -> f32 {
    let b = std::fs::read(path).unwrap();
    let field = |i: usize| i32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()) as usize;
    let f32_at = |at: usize| f32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let (size, verts, frames, ofs) = (field(4), field(6), field(10), field(14));
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for f in 0..frames {
        let at = ofs + f * size;
        let (scale, translate) = (f32_at(at + 8), f32_at(at + 20));
        for v in 0..verts {
            let z = f32::from(b[at + 40 + 4 * v + 2]) * scale + translate;
            lo = lo.min(z);
            hi = hi.max(z);
        }
    }
    hi - lo
}

/// Blender's walker is in metres: as a player it would be under 2 Quake
/// units tall. The conversion says so, naming `--fit-height 56`, and with
/// `--fit-height 56` it is a player's size and says nothing.
#[test]
fn a_player_far_from_a_players_size_is_a_warning_naming_fit_height() {
    let Some(corpus) = corpus_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("tris.md2");
    let glb = corpus.join("gltf/blender_walker.glb");
    let (glb, out) = (glb.to_str().unwrap(), out_path.to_str().unwrap());
    let o = run(&["convert", "--player", glb, out]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let height = md2_height(&out_path);
    assert!(
        height > 1.0 && height < 3.0,
        "metres as Quake units: {height}"
    );
    let warning = stderr(&o)
        .lines()
        .find(|l| l.contains("units tall"))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no size warning: {}", stderr(&o)));
    assert!(warning.contains("warning"), "{warning}");
    assert!(
        warning.contains("a Quake II player is about 56"),
        "{warning}"
    );
    assert!(warning.ends_with("; --fit-height 56"), "{warning}");
    // The height the warning gives is the file's, to its 3 decimals.
    let said: f32 = warning
        .split("is ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{warning}"));
    assert!((said - height).abs() < 0.05, "{said} vs {height}");

    let o = run(&[
        "convert",
        "--force",
        "--player",
        "--fit-height",
        "56",
        glb,
        out,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("units tall"), "{}", stderr(&o));
    let height = md2_height(&out_path);
    // 56 units on 8-bit grids: within a grid step (56 / 240) of it.
    assert!((height - 56.0).abs() < 0.25, "{height}");
}
