//! The bounds a camera frames ([`Bounds`]) hold every frame of a model
//! (moved here from `render/bounds.rs`, which names no format).
#![cfg(feature = "render")]

use retromodel::md2::Md2SceneOptions;
use retromodel::render::Bounds;
use retromodel::scene::Scene;

#[test]
fn the_sample_models_bounds_cover_every_frame() {
    let model = retromodel::md2::sample::sample_model();
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let b = Bounds::of_animations(&scene).unwrap().unwrap();
    // Every decoded frame lies inside (the MD2's own decoding, mapped to
    // the scene's axes).
    for f in &model.frames {
        for i in 0..model.vertex_count() {
            let p = retromodel::md2::md2_axes(f.position(i).unwrap());
            for (k, v) in p.iter().enumerate() {
                assert!(*v >= b.min[k] - 1e-4 && *v <= b.max[k] + 1e-4);
            }
        }
    }
    // The figure stands on its feet (z ≈ 0 in Quake, y in the scene).
    assert!(b.min[1].abs() < 0.5 && b.max[1] > 50.0, "{b:?}");
}
