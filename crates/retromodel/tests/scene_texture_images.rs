//! A scene's textures carry decoded pixels once attached, and each
//! consumer takes the form it needs: the glTF writer a PNG of exactly
//! those pixels, the renderer the pixels (drawing the same as from the
//! PNG). The expected pixels are made here and checked with the `image`
//! crate's PNG decoder, not retromodel's.

#![cfg(all(feature = "gltf", feature = "textures"))]

use std::sync::Arc;

use retromodel::md2::Md2SceneOptions;
use retromodel::scene::{Scene, TextureImage, TextureLookup, UserSkin};
use retromodel::texture::MemorySource;

/// A 4×2 picture with every pixel different, opaque.
fn picture() -> Vec<u8> {
    (0..8u8)
        .flat_map(|i| [i * 30, 255 - i * 20, i * 7 + 3, 255])
        .collect()
}

/// The picture as PNG, written by the `image` crate.
fn picture_png() -> Vec<u8> {
    let image = image::RgbaImage::from_raw(4, 2, picture()).unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).unwrap();
    png.into_inner()
}

/// The sample MD2's scene with the picture attached as its skin.
fn attached() -> Scene {
    let mut scene = Scene::from_md2(
        &retromodel::md2::sample::sample_model(),
        &Md2SceneOptions::default(),
    );
    let skin = UserSkin {
        path: "picture.png".into(),
        name: "picture.png".into(),
        data: Ok(Arc::from(picture_png())),
    };
    let source = MemorySource::new();
    let warnings = scene.attach_textures(&TextureLookup {
        source: &source,
        model_file_name: "sample.md2",
        named_like_model: false,
        user_skin: Some(&skin),
    });
    assert!(warnings.is_empty(), "{warnings:?}");
    scene
}

#[test]
fn attached_textures_are_the_decoded_pixels() {
    let scene = attached();
    let Some(TextureImage::Pixels(image)) = &scene.textures[0].image else {
        panic!("not pixels: {:?}", scene.textures[0].image);
    };
    assert_eq!((image.width(), image.height()), (4, 2));
    assert_eq!(image.pixels(), picture().as_slice());
}

#[test]
fn the_glb_embeds_a_png_of_those_pixels() {
    let scene = attached();
    let glb = retromodel::gltf::to_glb(&scene).unwrap();
    let imported = retromodel::gltf::import(&glb, None, &Default::default()).unwrap();
    let Some(TextureImage::Png(png)) = &imported.scene.textures[0].image else {
        panic!("no PNG: {:?}", imported.scene.textures[0].image);
    };
    let decoded = image::load_from_memory(png).unwrap().to_rgba8();
    assert_eq!(decoded.dimensions(), (4, 2));
    assert_eq!(decoded.as_raw(), &picture());
}

#[cfg(feature = "render")]
#[test]
fn pixels_and_their_png_render_alike() {
    use retromodel::render::{Moment, RenderOptions, Stage, View, DEFAULT_FOV_Y};
    let draw = |scene: &Scene| {
        let mut stage = Stage::new(scene).unwrap();
        assert!(stage.warnings().is_empty(), "{:?}", stage.warnings());
        let options = RenderOptions {
            width: 64,
            height: 64,
            ..RenderOptions::default()
        };
        let camera = stage
            .camera(View::Front.angle(), &options, DEFAULT_FOV_Y)
            .unwrap();
        let mut pixels = vec![0u8; 64 * 64 * 4];
        stage
            .render(Moment::Rest, &camera, &options, &mut pixels)
            .unwrap();
        pixels
    };
    let pixels = attached();
    let mut png = pixels.clone();
    png.textures[0].image = Some(TextureImage::Png(picture_png()));
    let mut untextured = pixels.clone();
    untextured.textures[0].image = None;
    let drawn = draw(&pixels);
    assert_eq!(drawn, draw(&png));
    assert_ne!(drawn, draw(&untextured), "the texture is drawn");
}
