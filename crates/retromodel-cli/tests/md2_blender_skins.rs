//! A modder's round trip through Blender: `convert x.md2 a.glb`, Blender
//! 3.4 imports `a.glb` and exports `b.glb` with custom properties (mesh
//! extras) on, `convert b.glb y.md2`. Blender drops the `_MD2_VERTEX`
//! attribute, so the frames are compiled afresh (without a warning: the
//! mesh is the user's now), but the skin names and
//! size, kept in the mesh's extras, must come back: checked against the
//! corpus's `facts.json`. Skipped (with a note) where `blender` is not
//! installed.

use std::path::Path;
use std::process::Command;

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::{corpus_dir, fact_u64, facts, facts_of};
use retromodel_testkit::md2_builder::le_i32;

/// Blender's script: import, export with extras. Debian's Blender 3.4
/// runs its glTF add-on on a newer numpy without `np.bool`.
const SCRIPT: &str = r#"
import sys
import numpy as np
if not hasattr(np, "bool"):
    np.bool = bool
import bpy
src, dst = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.gltf(filepath=dst, export_format="GLB", export_extras=True)
"#;

fn blender_available() -> bool {
    let found = Command::new("blender")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("note: blender not found; skipping");
    }
    found
}

#[test]
fn skin_names_and_size_survive_an_edit_in_blender() {
    let Some(corpus) = corpus_dir() else { return };
    if !blender_available() {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_retromodel");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let key = "md2/glscene_weaponWaste.md2";
    let a = dir.join("a.glb");
    let o = run_os(
        bin,
        &[
            "convert".as_ref(),
            corpus.join(key).as_os_str(),
            a.as_os_str(),
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let script = dir.join("roundtrip.py");
    std::fs::write(&script, SCRIPT).unwrap();
    let b = dir.join("b.glb");
    let o = Command::new("blender")
        .args(["-b", "--factory-startup", "--python"])
        .arg(&script)
        .arg("--")
        .args([&a, &b])
        .output()
        .unwrap();
    assert!(b.is_file(), "{}", String::from_utf8_lossy(&o.stderr));
    let md2 = dir.join("y.md2");
    let o = run_os(bin, &["convert".as_ref(), b.as_os_str(), md2.as_os_str()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // The frames are compiled afresh (the record's grids are not reused),
    // which is what an edited mesh needs: nothing to warn about, and no
    // attribute name a user never saw.
    let said = format!("{err}{}", String::from_utf8_lossy(&o.stdout));
    assert!(!said.contains("grids and vertices reused"), "{said}");
    assert!(!said.contains("_MD2_VERTEX"), "{said}");
    assert!(!said.contains("MD2 source data is not used"), "{said}");
    let bytes = std::fs::read(&md2).unwrap();
    let facts = facts(&corpus);
    let fact = facts_of(&facts, key);
    let h = |i: usize| le_i32(&bytes, 8 + 4 * i);
    assert_eq!(h(0) as u64, fact_u64(fact, "skin_w"));
    assert_eq!(h(1) as u64, fact_u64(fact, "skin_h"));
    assert_eq!(h(3) as u64, fact_u64(fact, "skins"));
    assert_eq!(h(8) as u64, fact_u64(fact, "frames"));
    let ofs_skins = h(9) as usize;
    let name = &bytes[ofs_skins..ofs_skins + 64];
    let name = &name[..name.iter().position(|&c| c == 0).unwrap()];
    assert_eq!(name, fact["skin_names"][0].as_str().unwrap().as_bytes());
    // No skin file: the model names the game's own.
    let written: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            !Path::new(n)
                .extension()
                .is_some_and(|e| e == "glb" || e == "py")
        })
        .collect();
    assert_eq!(written, ["y.md2"]);
}
