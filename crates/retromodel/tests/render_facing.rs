//! Facing and handedness: models drawn from a named view show the side
//! that view names. The facts come from the formats, not from the
//! renderer: Quake II models face +X with +Y on their left and +Z up
//! (id's `AngleVectors`: yaw 0 looks along +X, 90 along +Y, which is
//! left of +X seen from above); two people facing each other see each
//! other's left on their right. A mirrored axis anywhere (scene mapping,
//! camera, viewport) swaps a left/right or front/back answer here.
#![cfg(feature = "render")]

use retromodel::md2::sample::{sample_model, sample_skin_pcx};
use retromodel::md2::Md2SceneOptions;
use retromodel::md2::{encode_frame, Md2, TexCoord, Triangle};
use retromodel::render::encode::write_png;
use retromodel::render::{Moment, RenderOptions, Shading, Stage, View, DEFAULT_FOV_Y};
use retromodel::scene::Scene;

const SIZE: u32 = 256;

fn draw(scene: &Scene, view: View, shading: Shading) -> Vec<u8> {
    let mut stage = Stage::new(scene).expect("stage");
    let options = RenderOptions {
        width: SIZE,
        height: SIZE,
        shading,
        ..RenderOptions::default()
    };
    let camera = stage
        .camera(view.angle(), &options, DEFAULT_FOV_Y)
        .expect("camera");
    let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
    stage
        .render(Moment::Rest, &camera, &options, &mut pixels)
        .expect("render");
    pixels
}

fn covered(pixels: &[u8], x: u32, y: u32) -> bool {
    pixels[((y * SIZE + x) * 4 + 3) as usize] >= 128
}

/// Mean x and y of the covered pixels inside the rectangle (image
/// coordinates, y down), or `None` when nothing is covered there.
fn centroid(pixels: &[u8], x0: u32, x1: u32, y0: u32, y1: u32) -> Option<(f64, f64)> {
    let (mut sx, mut sy, mut n) = (0f64, 0f64, 0f64);
    for y in y0..y1 {
        for x in x0..x1 {
            if covered(pixels, x, y) {
                sx += f64::from(x);
                sy += f64::from(y);
                n += 1.0;
            }
        }
    }
    (n > 0.0).then(|| (sx / n, sy / n))
}

/// Eight corners and twelve triangles (both windings, so culling does
/// not matter for the silhouette) of a box from `min` to `max`.
fn push_box(min: [f32; 3], max: [f32; 3], positions: &mut Vec<[f32; 3]>, tris: &mut Vec<[u16; 3]>) {
    let base = positions.len() as u16;
    for k in 0..8 {
        positions.push([
            if k & 1 == 0 { min[0] } else { max[0] },
            if k & 2 == 0 { min[1] } else { max[1] },
            if k & 4 == 0 { min[2] } else { max[2] },
        ]);
    }
    let faces = [
        [0, 1, 3, 2],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 3, 7, 5],
    ];
    for f in faces {
        for [a, b, c] in [[f[0], f[1], f[2]], [f[0], f[2], f[3]]] {
            tris.push([base + a, base + b, base + c]);
            tris.push([base + a, base + c, base + b]);
        }
    }
}

/// An MD2 (Quake axes: +X forward, +Y left, +Z up) of a body 40 high, a
/// tall pillar on its left side reaching 70, and a nose sticking out in
/// front at head height.
fn asymmetric_md2() -> Md2 {
    let (mut positions, mut tris) = (Vec::new(), Vec::new());
    push_box(
        [-5.0, -10.0, 0.0],
        [5.0, 10.0, 40.0],
        &mut positions,
        &mut tris,
    ); // body
    push_box(
        [-3.0, 14.0, 0.0],
        [3.0, 20.0, 70.0],
        &mut positions,
        &mut tris,
    ); // pillar, +Y: left
    push_box(
        [5.0, -2.0, 30.0],
        [25.0, 2.0, 36.0],
        &mut positions,
        &mut tris,
    ); // nose, +X: front
    let normals = vec![[0.0, 0.0, 1.0]; positions.len()];
    Md2 {
        skin_width: 8,
        skin_height: 8,
        texcoords: vec![TexCoord { s: 4, t: 4 }],
        triangles: tris
            .iter()
            .map(|&vertices| Triangle {
                vertices,
                texcoords: [0; 3],
            })
            .collect(),
        frames: vec![encode_frame("still", &positions, &normals)],
        num_vertices: positions.len(),
        ..Md2::default()
    }
}

fn asymmetric_scene() -> Scene {
    Scene::from_md2(&asymmetric_md2(), &Md2SceneOptions::default())
}

#[test]
fn from_the_front_the_model_s_left_is_on_the_image_s_right() {
    let pixels = draw(&asymmetric_scene(), View::Front, Shading::Lit);
    // Only the pillar reaches the top part of the picture.
    let (x, _) = centroid(&pixels, 0, SIZE, 0, SIZE / 4).expect("the pillar's top is drawn");
    let (body_x, _) = centroid(&pixels, 0, SIZE, SIZE * 3 / 4, SIZE).expect("the body");
    assert!(
        x > body_x + 10.0,
        "pillar at x {x:.1}, body at {body_x:.1}: the model's left must be on the image's right"
    );
}

#[test]
fn from_behind_the_model_s_left_is_on_the_image_s_left() {
    let pixels = draw(&asymmetric_scene(), View::Back, Shading::Lit);
    let (x, _) = centroid(&pixels, 0, SIZE, 0, SIZE / 4).expect("the pillar's top is drawn");
    let (body_x, _) = centroid(&pixels, 0, SIZE, SIZE * 3 / 4, SIZE).expect("the body");
    assert!(x + 10.0 < body_x, "pillar at x {x:.1}, body at {body_x:.1}");
}

#[test]
fn from_the_left_side_the_front_is_on_the_image_s_left() {
    // Standing at someone's left and facing them, their nose points to
    // your left.
    let pixels = draw(&asymmetric_scene(), View::Left, Shading::Lit);
    let (x, y) = centroid(&pixels, 0, SIZE, 0, SIZE).expect("drawn");
    // The nose is the only thing at head height that sticks out sideways:
    // the covered pixels at its height lean towards it.
    let (nose_row_x, _) = {
        let row_y = (0..SIZE)
            .filter(|&yy| (0..SIZE).filter(|&xx| covered(&pixels, xx, yy)).count() > 0)
            .max_by_key(|&yy| (0..SIZE).filter(|&xx| covered(&pixels, xx, yy)).count())
            .expect("a widest row");
        centroid(&pixels, 0, SIZE, row_y, row_y + 1).expect("row")
    };
    assert!(nose_row_x < x - 5.0, "widest row (the nose's) centred at {nose_row_x:.1}, model at {x:.1}, {y:.1}: the front must be on the left");
    // The pillar (on the model's left) stands in front of the body here,
    // so it is not told apart; from the right side the nose is on the right.
    let pixels = draw(&asymmetric_scene(), View::Right, Shading::Lit);
    let (x, _) = centroid(&pixels, 0, SIZE, 0, SIZE).expect("drawn");
    let row_y = (0..SIZE)
        .max_by_key(|&yy| (0..SIZE).filter(|&xx| covered(&pixels, xx, yy)).count())
        .expect("a widest row");
    let (nose_row_x, _) = centroid(&pixels, 0, SIZE, row_y, row_y + 1).expect("row");
    assert!(
        nose_row_x > x + 5.0,
        "from the right the nose must be on the right: {nose_row_x:.1} vs {x:.1}"
    );
}

#[test]
fn from_above_the_front_is_at_the_bottom_and_the_left_on_the_right() {
    let pixels = draw(&asymmetric_scene(), View::Top, Shading::Lit);
    let (cx, cy) = centroid(&pixels, 0, SIZE, 0, SIZE).expect("drawn");
    // The nose is the covered part farthest from the centre vertically.
    let lowest = (0..SIZE)
        .rev()
        .find(|&y| (0..SIZE).any(|x| covered(&pixels, x, y)))
        .expect("drawn");
    let highest = (0..SIZE)
        .find(|&y| (0..SIZE).any(|x| covered(&pixels, x, y)))
        .expect("drawn");
    assert!(
        f64::from(lowest) - cy > cy - f64::from(highest) + 10.0,
        "the nose (front) must reach farther down ({lowest}) than the back reaches up ({highest}) from {cy:.1}"
    );
    // Seen from above with the front at the bottom, the model's left is on
    // the image's right (as from the front): the pillar's column.
    let rightmost = (0..SIZE)
        .rev()
        .find(|&x| (0..SIZE).any(|y| covered(&pixels, x, y)))
        .expect("drawn");
    let leftmost = (0..SIZE)
        .find(|&x| (0..SIZE).any(|y| covered(&pixels, x, y)))
        .expect("drawn");
    assert!(
        f64::from(rightmost) - cx > cx - f64::from(leftmost) + 5.0,
        "the pillar (left) must reach farther right ({rightmost}) than the body's other side left ({leftmost}) from {cx:.1}"
    );
}

/// The sample figure from the front: its left leg (Quake +Y, the skin's
/// "left trouser" cell, palette colour (60, 60, 70)) is on the image's
/// right, its right leg ((70, 70, 80)) on the left.
#[test]
fn sample_from_the_front_shows_its_left_leg_on_the_right() {
    let mut scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let skin = retromodel::texture::decode(&sample_skin_pcx()).expect("sample skin");
    let mut png = Vec::new();
    write_png(&mut png, skin.width(), skin.height(), skin.pixels(), &[]).expect("png");
    scene.textures[0].image = Some(retromodel::scene::TextureImage::Png(png));
    let pixels = draw(&scene, View::Front, Shading::Unlit);
    // The legs: the covered runs of a row near the feet.
    let y = (0..SIZE)
        .rev()
        .find(|&y| (0..SIZE).filter(|&x| covered(&pixels, x, y)).count() > 10)
        .expect("feet")
        - 8;
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for x in 0..SIZE {
        if covered(&pixels, x, y) {
            match runs.last_mut() {
                Some(r) if r.1 + 1 == x => r.1 = x,
                _ => runs.push((x, x)),
            }
        }
    }
    assert_eq!(runs.len(), 2, "two legs in row {y}: {runs:?}");
    // The most common colour of each leg's middle.
    let mode = |(a, b): (u32, u32)| {
        let mut counts = std::collections::BTreeMap::new();
        for x in a + 2..b.saturating_sub(1) {
            for yy in y - 20..y {
                let i = ((yy * SIZE + x) * 4) as usize;
                *counts
                    .entry([pixels[i], pixels[i + 1], pixels[i + 2]])
                    .or_insert(0) += 1;
            }
        }
        counts
            .into_iter()
            .max_by_key(|&(_, n)| n)
            .map(|(c, _)| c)
            .expect("leg pixels")
    };
    let close = |c: [u8; 3], want: [u8; 3]| c.iter().zip(want).all(|(&a, b)| a.abs_diff(b) <= 2);
    let (image_left, image_right) = (mode(runs[0]), mode(runs[1]));
    assert!(
        close(image_right, [60, 60, 70]),
        "image's right leg {image_right:?} must be the left trouser (60, 60, 70)"
    );
    assert!(
        close(image_left, [70, 70, 80]),
        "image's left leg {image_left:?} must be the right trouser (70, 70, 80)"
    );
}
