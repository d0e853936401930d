//! The renderer's output depends only on its inputs: the same scene,
//! moment, camera and options give the same bytes whether images are
//! drawn one after another or on several threads at once, and twice in a
//! row with the same renderer.
#![cfg(feature = "render")]

use retromodel::md2::sample::{sample_model, sample_skin_pcx};
use retromodel::md2::Md2SceneOptions;
use retromodel::render::encode::write_png;
use retromodel::render::{Moment, RenderOptions, Stage, View, DEFAULT_FOV_Y};
use retromodel::scene::Scene;

fn scene() -> Scene {
    let mut scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let skin = retromodel::texture::decode(&sample_skin_pcx()).expect("skin");
    let mut png = Vec::new();
    write_png(&mut png, skin.width(), skin.height(), skin.pixels(), &[]).expect("png");
    scene.textures[0].image = Some(retromodel::scene::TextureImage::Png(png));
    scene
}

/// Frame `k` of 12 of the `run` animation, from a view that turns with k.
fn frame(scene: &Scene, k: usize) -> Vec<u8> {
    let mut stage = Stage::new(scene).expect("stage");
    let options = RenderOptions {
        width: 96,
        height: 80,
        wireframe: k.is_multiple_of(2).then_some([255, 255, 0, 128]),
        ..RenderOptions::default()
    };
    let mut angle = View::ThreeQuarter.angle();
    angle.yaw += 30.0 * k as f32;
    let camera = stage
        .camera(angle, &options, DEFAULT_FOV_Y)
        .expect("camera");
    let mut pixels = vec![0u8; 96 * 80 * 4];
    stage
        .render(
            Moment::At {
                animation: 1,
                seconds: k as f32 * 0.05,
            },
            &camera,
            &options,
            &mut pixels,
        )
        .expect("render");
    pixels
}

#[test]
fn the_same_bytes_on_one_thread_and_on_many() {
    let scene = scene();
    let sequential: Vec<Vec<u8>> = (0..12).map(|k| frame(&scene, k)).collect();
    for threads in [2, 5] {
        let parallel: Vec<Vec<u8>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let scene = &scene;
                    s.spawn(move || {
                        (t..12)
                            .step_by(threads)
                            .map(|k| (k, frame(scene, k)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let mut all: Vec<(usize, Vec<u8>)> = handles
                .into_iter()
                .flat_map(|h| h.join().expect("thread"))
                .collect();
            all.sort_by_key(|(k, _)| *k);
            all.into_iter().map(|(_, p)| p).collect()
        });
        assert!(parallel == sequential, "{threads} threads drew other bytes");
    }
    // The frames differ from one another (the test would be empty otherwise).
    assert!(sequential.windows(2).all(|w| w[0] != w[1]));
}

#[test]
fn one_stage_draws_a_frame_the_same_again_after_others() {
    let scene = scene();
    let mut stage = Stage::new(&scene).expect("stage");
    let options = RenderOptions {
        width: 64,
        height: 64,
        ..RenderOptions::default()
    };
    let camera = stage
        .camera(View::Front.angle(), &options, DEFAULT_FOV_Y)
        .expect("camera");
    let mut first = vec![0u8; 64 * 64 * 4];
    let mut other = first.clone();
    let mut again = first.clone();
    let at = |s| Moment::At {
        animation: 0,
        seconds: s,
    };
    stage
        .render(at(0.1), &camera, &options, &mut first)
        .expect("render");
    stage
        .render(at(0.7), &camera, &options, &mut other)
        .expect("render");
    stage
        .render(at(0.1), &camera, &options, &mut again)
        .expect("render");
    assert_eq!(first, again);
    assert_ne!(first, other);
}
