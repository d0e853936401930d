//! Writes a `.glb` for each MD2 or MS3D model given, into a folder:
//!
//! ```text
//! cargo run -p retromodel --example export_gltf -- [--quantize] OUT_DIR MODEL...
//! ```
//!
//! Prints the sizes of each model and its GLB. Used to feed the Khronos
//! validator (`acceptance/validate.mjs`).

use std::path::Path;

use retromodel::gltf::{to_glb_with, GltfOptions};
use retromodel::md2::Md2SceneOptions;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;

fn scene_of(path: &Path, bytes: &[u8]) -> Result<Scene, retromodel::Error> {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    if bytes.starts_with(b"IDP2") {
        let model = retromodel::md2::Md2::from_bytes(bytes)?;
        let options = Md2SceneOptions {
            name: stem,
            ..Md2SceneOptions::default()
        };
        Ok(Scene::from_md2(&model, &options))
    } else {
        let model = retromodel::ms3d::Ms3d::from_bytes(bytes)?;
        let options = Ms3dSceneOptions {
            name: stem,
            ..Ms3dSceneOptions::default()
        };
        Scene::from_ms3d(&model, &options)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let quantize = args.first().is_some_and(|a| a == "--quantize");
    if quantize {
        args.remove(0);
    }
    let Some((out, models)) = args.split_first() else {
        eprintln!("usage: export_gltf [--quantize] OUT_DIR MODEL...");
        std::process::exit(2);
    };
    std::fs::create_dir_all(out)?;
    for model in models {
        let path = Path::new(model);
        let bytes = std::fs::read(path)?;
        let scene = match scene_of(path, &bytes) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{model}: {e}");
                continue;
            }
        };
        let glb = to_glb_with(
            &scene,
            &GltfOptions {
                quantize,
                ..GltfOptions::default()
            },
        )?;
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
            + ".glb";
        std::fs::write(Path::new(out).join(&name), &glb)?;
        println!(
            "{model}: {} bytes -> {name}: {} bytes",
            bytes.len(),
            glb.len()
        );
    }
    Ok(())
}
