//! Times `ms3d::compile` on a model: an MS3D through `Scene::from_ms3d`,
//! or a glTF (`.glb`, `.gltf`) through `gltf::import`; prints the report.
//!
//! ```sh
//! cargo run --release --example ms3d_compile_timing -- ../shared/corpus/gltf/blender_walker.glb
//! cargo run --release --example ms3d_compile_timing -- ../shared/corpus/ms3d/glscene_Woman4.ms3d
//! ```

use std::time::Instant;

use retromodel::gltf::{import, ImportOptions};
use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
use retromodel::ms3d::Ms3d;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;
use retromodel::texture::TextureResolver;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: ms3d_compile_timing MODEL")?;
    let bytes = std::fs::read(&path)?;
    let scene = if path.to_ascii_lowercase().ends_with(".ms3d") {
        Scene::from_ms3d(&Ms3d::from_bytes(&bytes)?, &Ms3dSceneOptions::default())?
    } else {
        let resolver = TextureResolver::for_model_file(std::path::Path::new(&path));
        import(&bytes, Some(&resolver), &ImportOptions::default())?.scene
    };
    let options = Ms3dCompileOptions::default();
    // One warm-up run, then the best of five.
    let compiled = compile(&scene, &options)?;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        let c = compile(&scene, &options)?;
        best = best.min(start.elapsed().as_secs_f64());
        assert_eq!(c.model.joints.len(), compiled.model.joints.len());
    }
    let r = &compiled.report;
    println!(
        "{path}: {} vertices ({} source), {} triangles, {} groups, {} joints; compile {:.1} ms (best of 5)",
        r.vertices, r.source_vertices, r.triangles, r.groups, r.joints, best * 1e3
    );
    for a in &r.animations {
        println!(
            "  {} frames {}-{}: {} keys written, {} in the source, largest error {:.2e} of the extent at {} times",
            a.name, a.first_frame, a.last_frame, a.keys, a.source_keys, a.max_error, a.checked_times
        );
    }
    println!(
        "  weights: largest rounding {:.2} points; rest pose {:.2e}; rest is bind: {}",
        r.weight_error, r.rest_error, r.rest_is_bind
    );
    for w in &compiled.warnings {
        println!("  warning: {w}");
    }
    Ok(())
}
