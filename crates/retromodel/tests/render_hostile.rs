//! Odd and hostile inputs to the renderer: a clear error or a sensible
//! picture, never a panic, a hang or unbounded memory.
#![cfg(feature = "render")]

use std::time::{Duration, Instant};

use retromodel::convert::prepare_scene;
use retromodel::md2::sample::sample_model;
use retromodel::md2::Md2SceneOptions;
use retromodel::md2::{encode_frame, Md2, TexCoord, Triangle};
use retromodel::render::encode::write_png;
use retromodel::render::{
    check_size, Camera, Moment, RenderOptions, Renderer, Shading, Stage, View, DEFAULT_FOV_Y,
    MAX_PIXELS, MAX_SIDE,
};
use retromodel::scene::{Pose, Scene};
use retromodel_testkit::ms3d_builder::{SGroup, STri, SVertex, Spec};

fn options(size: u32) -> RenderOptions {
    RenderOptions {
        width: size,
        height: size,
        ..RenderOptions::default()
    }
}

/// Draws `scene` from the front at rest; the pixels and the time taken.
fn draw(scene: &Scene, size: u32) -> (Vec<u8>, Duration) {
    let start = Instant::now();
    let mut stage = Stage::new(scene).expect("stage");
    let options = options(size);
    let camera = stage
        .camera(View::Front.angle(), &options, DEFAULT_FOV_Y)
        .expect("camera");
    let mut pixels = vec![0u8; (size * size * 4) as usize];
    stage
        .render(Moment::Rest, &camera, &options, &mut pixels)
        .expect("render");
    (pixels, start.elapsed())
}

fn covered(pixels: &[u8]) -> usize {
    pixels.chunks_exact(4).filter(|p| p[3] >= 128).count()
}

fn md2_of(positions: &[[f32; 3]], tris: &[[u16; 3]]) -> Md2 {
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
        frames: vec![encode_frame(
            "f",
            positions,
            &vec![[0.0, 0.0, 1.0]; positions.len()],
        )],
        num_vertices: positions.len(),
        ..Md2::default()
    }
}

#[test]
fn zero_triangles_draw_an_empty_picture() {
    let model = md2_of(&[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], &[]);
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let (pixels, _) = draw(&scene, 32);
    assert!(
        pixels.iter().all(|&b| b == 0),
        "nothing to draw: all transparent"
    );
    // An empty scene too.
    let (pixels, _) = draw(&Scene::default(), 16);
    assert!(pixels.iter().all(|&b| b == 0));
}

#[test]
fn the_corpus_file_with_zero_vertices_is_an_error_or_an_empty_picture() {
    let Some(corpus) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let bytes = std::fs::read(corpus.join("md2/assimp_malformed_zero_numvertices.md2"))
        .expect("corpus file");
    match prepare_scene(&bytes, "zero.md2", None, None) {
        Err(e) => assert!(!e.to_string().is_empty()),
        Ok(prepared) => {
            let (pixels, _) = draw(&prepared.scene, 32);
            assert_eq!(covered(&pixels), 0);
        }
    }
}

#[test]
fn degenerate_triangles_draw_nothing_and_do_not_panic() {
    // Zero-area triangles: a repeated vertex, three collinear points.
    let positions = [
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [20.0, 0.0, 0.0],
        [0.0, 0.0, 10.0],
    ];
    let tris = [[0, 0, 0], [0, 1, 2], [1, 1, 3], [3, 3, 0]];
    let scene = Scene::from_md2(&md2_of(&positions, &tris), &Md2SceneOptions::default());
    let (pixels, _) = draw(&scene, 64);
    assert!(
        covered(&pixels) <= 64,
        "zero-area triangles cover at most a line: {}",
        covered(&pixels)
    );
    // Out-of-range indices in a scene built by hand are left out.
    let mut scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    scene.meshes[0].indices.extend([0, 1, 1_000_000]);
    let (pixels, _) = draw(&scene, 64);
    assert!(
        covered(&pixels) > 100,
        "the valid triangles are still drawn"
    );
}

#[test]
fn nan_and_huge_vertices_are_left_out_and_the_rest_drawn() {
    let mut scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let (clean, _) = draw(&scene, 64);
    let positions = &mut scene.meshes[0].positions;
    positions.push([f32::NAN, 0.0, 0.0]);
    positions.push([1e30, -1e30, 1e30]);
    positions.push([f32::INFINITY, 0.0, 0.0]);
    let n = positions.len() as u32;
    scene.meshes[0].normals.extend([[f32::NAN; 3]; 3]);
    scene.meshes[0].uvs.extend([[f32::NAN; 2]; 3]);
    for t in &mut scene.meshes[0].morph_targets {
        t.positions.extend([[0.0; 3]; 3]);
        if !t.normals.is_empty() {
            t.normals.extend([[0.0; 3]; 3]);
        }
    }
    scene.meshes[0]
        .indices
        .extend([n - 3, n - 2, n - 1, 0, n - 2, 1, 0, 1, n - 3]);
    let (pixels, took) = draw(&scene, 64);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    // The bounds leave the non-finite corner out but keep 1e30, so the
    // camera may move far away: a sensible picture is the old one or an
    // empty one, never a panic; with the triangles left out it is the old.
    assert!(covered(&pixels) <= covered(&clean) + 64);
}

#[test]
fn a_one_pixel_skin_colours_the_whole_model() {
    let mut scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let mut png = Vec::new();
    write_png(&mut png, 1, 1, &[200, 40, 40, 255], &[]).expect("png");
    scene.textures[0].image = Some(retromodel::scene::TextureImage::Png(png));
    let mut stage = Stage::new(&scene).expect("stage");
    let options = RenderOptions {
        shading: Shading::Unlit,
        ..options(48)
    };
    let camera = stage
        .camera(View::Front.angle(), &options, DEFAULT_FOV_Y)
        .expect("camera");
    let mut pixels = vec![0u8; 48 * 48 * 4];
    stage
        .render(Moment::Rest, &camera, &options, &mut pixels)
        .expect("render");
    let drawn: Vec<&[u8]> = pixels.chunks_exact(4).filter(|p| p[3] == 255).collect();
    assert!(drawn.len() > 100);
    for p in drawn {
        assert!(
            p[0].abs_diff(200) <= 1 && p[1].abs_diff(40) <= 1 && p[2].abs_diff(40) <= 1,
            "{p:?}"
        );
    }
}

#[test]
fn an_undecodable_skin_is_a_warning_and_the_model_is_drawn_untextured() {
    let mut scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    scene.textures[0].image = Some(retromodel::scene::TextureImage::Png(
        b"\x89PNG\r\n\x1a\nnot really".to_vec(),
    ));
    let renderer = Renderer::new(&scene);
    assert_eq!(renderer.warnings().len(), 1, "{:?}", renderer.warnings());
    let (pixels, _) = draw(&scene, 32);
    assert!(covered(&pixels) > 20);
}

/// MS3D's largest model: 65 535 vertices (its `u16` count) in 21 845
/// triangles; drawn at once, in bounded time.
#[test]
fn a_65535_vertex_ms3d_is_drawn_quickly() {
    let n = 65_535usize;
    let verts: Vec<SVertex> = (0..n)
        .map(|i| {
            let (a, b) = ((i % 256) as f32, (i / 256) as f32);
            SVertex {
                flags: 0,
                pos: [
                    a + if i % 3 == 1 { 0.9 } else { 0.0 },
                    b + if i % 3 == 2 { 0.9 } else { 0.0 },
                    0.0,
                ],
                bone: -1,
                refs: 1,
            }
        })
        .collect();
    let tris: Vec<STri> = (0..n / 3)
        .map(|t| {
            let v = [3 * t as u16, 3 * t as u16 + 1, 3 * t as u16 + 2];
            STri {
                flags: 0,
                v,
                n: [[0.0, 0.0, 1.0]; 3],
                s: [0.0; 3],
                t: [0.0; 3],
                smoothing: 1,
                group: 0,
            }
        })
        .collect();
    let spec = Spec {
        version: 4,
        groups: vec![SGroup {
            flags: 0,
            name: retromodel_testkit::ms3d_builder::field(b"all"),
            tris: (0..tris.len() as u16).collect(),
            material: -1,
        }],
        verts,
        tris,
        materials: Vec::new(),
        fps: 24.0,
        cur_time: 0.0,
        total_frames: 1,
        joints: Vec::new(),
        comments: None,
        vertex_extras: None,
        joint_extras: None,
        model_extras: None,
        trailing: Vec::new(),
    };
    let (bytes, _) = spec.build();
    let prepared = prepare_scene(&bytes, "big.ms3d", None, None).expect("a valid MS3D");
    let (pixels, took) = draw(&prepared.scene, 256);
    assert!(covered(&pixels) > 1000, "drawn: {}", covered(&pixels));
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    for (w, h) in [
        (0, 10),
        (10, 0),
        (MAX_SIDE + 1, 1),
        (1, MAX_SIDE + 1),
        (MAX_SIDE, MAX_SIDE),
    ] {
        if u64::from(w) * u64::from(h) <= MAX_PIXELS
            && w > 0
            && h > 0
            && w <= MAX_SIDE
            && h <= MAX_SIDE
        {
            continue;
        }
        let e = check_size(w, h).expect_err("refused");
        assert!(e.to_string().contains(&w.to_string()), "{e}");
    }
    assert!(check_size(512, 512).is_ok());
    // A buffer of the wrong length is an error, not a panic.
    let scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let stage = Stage::new(&scene).expect("stage");
    let options = options(16);
    let camera = stage
        .camera(View::Front.angle(), &options, DEFAULT_FOV_Y)
        .expect("camera");
    let mut small = vec![0u8; 16 * 16 * 4 - 1];
    let mut renderer = Renderer::new(&scene);
    let pose = Pose::new(&scene).expect("pose");
    assert!(renderer
        .render(&scene, &pose, &camera, &options, &mut small)
        .is_err());
}

#[test]
fn unusable_cameras_and_times_are_errors() {
    let scene = Scene::from_md2(&sample_model(), &Md2SceneOptions::default());
    let mut renderer = Renderer::new(&scene);
    let pose = Pose::new(&scene).expect("pose");
    let options = options(16);
    let mut pixels = vec![0u8; 16 * 16 * 4];
    let good = Camera {
        eye: [0.0, 0.0, 100.0],
        target: [0.0; 3],
        up: [0.0, 1.0, 0.0],
        fov_y_degrees: 30.0,
        near: 1.0,
        far: 1000.0,
    };
    assert!(renderer
        .render(&scene, &pose, &good, &options, &mut pixels)
        .is_ok());
    for bad in [
        Camera {
            eye: [f32::NAN, 0.0, 0.0],
            ..good
        },
        Camera {
            eye: [0.0; 3],
            ..good
        },
        Camera {
            up: [0.0, 0.0, 1.0],
            ..good
        },
        Camera { near: 0.0, ..good },
        Camera { far: 0.5, ..good },
        Camera {
            fov_y_degrees: 180.0,
            ..good
        },
        Camera {
            fov_y_degrees: 0.0,
            ..good
        },
    ] {
        assert!(
            renderer
                .render(&scene, &pose, &bad, &options, &mut pixels)
                .is_err(),
            "{bad:?} must be refused"
        );
    }
    let mut stage = Stage::new(&scene).expect("stage");
    for t in [f32::NAN, -1.0, f32::INFINITY] {
        assert!(stage
            .render(
                Moment::At {
                    animation: 0,
                    seconds: t
                },
                &good,
                &options,
                &mut pixels
            )
            .is_err());
    }
    // A time long past the end and an animation that does not exist draw
    // something sensible.
    stage
        .render(
            Moment::At {
                animation: 0,
                seconds: 1e9,
            },
            &good,
            &options,
            &mut pixels,
        )
        .expect("clamped");
    stage
        .render(
            Moment::At {
                animation: 99,
                seconds: 0.0,
            },
            &good,
            &options,
            &mut pixels,
        )
        .expect("rest pose");
    stage
        .render(Moment::MorphTarget(1_000_000), &good, &options, &mut pixels)
        .expect("rest pose");
}
