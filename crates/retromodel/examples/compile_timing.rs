//! Times `md2::compile` on a model: an MD2 through `Scene::from_md2`, an
//! MS3D through `Scene::from_ms3d`, or a glTF (`.glb`, `.gltf`, such as an
//! MD2 converted to glTF, for MD2 -> glb -> MD2) through `gltf::import`.
//!
//! ```sh
//! cargo run --release --example compile_timing -- ../shared/corpus/md2/assimpdeb_faerie.md2
//! cargo run --release --example compile_timing -- ../shared/corpus/gltf/blender_walker.glb
//! cargo run --release --example compile_timing -- ../shared/corpus/ms3d/glscene_Woman4.ms3d 5 ufoai
//! ```
//!
//! Arguments: the model, the fps (10), the engine (quake2).

use std::time::Instant;

use retromodel::gltf::{import, ImportOptions};
use retromodel::md2::compile::{compile, CompileOptions, Engine, SkinFormat};
use retromodel::md2::Md2;
use retromodel::md2::Md2SceneOptions;
use retromodel::ms3d::Ms3d;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::scene::Scene;
use retromodel::texture::TextureResolver;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: compile_timing MODEL [FPS] [ENGINE]")?;
    let fps: f32 = args.next().map_or(Ok(10.0), |s| s.parse())?;
    let engine = match args.next() {
        Some(name) => Engine::from_name(&name).ok_or("unknown engine")?,
        None => Engine::Quake2,
    };
    let bytes = std::fs::read(&path)?;
    let lower = path.to_ascii_lowercase();
    let scene = if lower.ends_with(".ms3d") {
        Scene::from_ms3d(&Ms3d::from_bytes(&bytes)?, &Ms3dSceneOptions::default())?
    } else if lower.ends_with(".glb") || lower.ends_with(".gltf") {
        let resolver = TextureResolver::for_model_file(std::path::Path::new(&path));
        import(&bytes, Some(&resolver), &ImportOptions::default())?.scene
    } else {
        Scene::from_md2(&Md2::from_bytes(&bytes)?, &Md2SceneOptions::default())
    };
    let mut options = CompileOptions {
        fps,
        engine,
        ..CompileOptions::default()
    };
    // As `retromodel convert` compiles: a PNG skin (an 8-bit PCX needs the
    // game's palette, which only the user can give).
    options.skin.format = SkinFormat::Png;
    // One warm-up run, then the best of five.
    let compiled = compile(&scene, &options)?;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        let c = compile(&scene, &options)?;
        best = best.min(start.elapsed().as_secs_f64());
        assert_eq!(c.model.frames.len(), compiled.model.frames.len());
    }
    let r = &compiled.report;
    println!(
        "{path}: {} frames, {} source vertices -> {} MD2 vertices, {} triangles; compile {:.1} ms (best of 5); largest error {:.4} units ({:.3} steps); reused MD2 source: {}",
        compiled.model.frames.len(),
        r.source_vertices,
        r.vertices,
        r.triangles,
        best * 1e3,
        r.max_error(),
        r.max_step_fraction(),
        r.reused_md2_source
    );
    Ok(())
}
