//! `md2::compile` on hand-built scenes: winding under the axis mapping,
//! welding across seams and meshes, node animation, shared grids that
//! keep still vertices still, frame names, the player table, skins
//! packed and written as PCX, engine limits.

#![cfg(all(feature = "scene", feature = "textures"))]

use glam::{Quat, Vec3};
use retromodel::advice::{Limit, Quantity, Remedy};
use retromodel::md2::compile::{
    compile, compile_together, CompileOptions, CompileWarning, Compiled, Engine, FrameGrid, Grid,
    GridSource, SkinFormat, SkinOptions,
};
use retromodel::md2::md2_axes;
use retromodel::md2::{nearest_normal_index, Md2, PLAYER_ANIMATIONS};
use retromodel::scene::{
    Animation, Channel, Interpolation, Material, Mesh, Node, Scene, Target, Texture,
};
use retromodel::texture::{decode, Palette, Rgba8Image};

/// Checks what every compiled model must be, and returns the model read
/// back from its bytes.
fn written(c: &Compiled, engine: Engine) -> Md2 {
    assert!(
        c.model.validate_for(engine).is_empty(),
        "{:?}",
        c.model.validate_for(engine)
    );
    if engine == Engine::Quake2 {
        assert!(c.model.validate().is_empty(), "{:?}", c.model.validate());
    }
    let bytes = c.model.to_bytes().unwrap();
    let back = Md2::from_bytes(&bytes).unwrap();
    assert_eq!(back.frames, c.model.frames);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    back
}

/// Decoded positions of every frame.
fn decoded(m: &Md2) -> Vec<Vec<[f32; 3]>> {
    m.frames
        .iter()
        .map(|f| {
            let mut p = vec![[0.0; 3]; m.vertex_count()];
            f.decode_positions(&mut p);
            p
        })
        .collect()
}

/// A cube of side `size` at `center` with four vertices per face (24:
/// every edge a UV and normal seam), faces counter-clockwise from
/// outside, normals per face.
fn cube(name: &str, center: [f32; 3], size: f32) -> Mesh {
    let h = size / 2.0;
    let c = Vec3::from(center);
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    let mut indices = Vec::new();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let n = Vec3::from(std::array::from_fn(|k| if k == axis { sign } else { 0.0 }));
            // Two axes spanning the face, ordered so u × v = n.
            let u = Vec3::from(std::array::from_fn(|k| {
                if k == (axis + 1) % 3 {
                    1.0
                } else {
                    0.0
                }
            }));
            let v = n.cross(u);
            let base = positions.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                positions.push((c + (n + u * a + v * b) * h).to_array());
                normals.push(n.to_array());
                uvs.push([(a + 1.0) / 2.0, (b + 1.0) / 2.0]);
            }
            indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    Mesh {
        name: name.into(),
        positions,
        normals,
        uvs,
        indices,
        material: Some(0),
        ..Mesh::default()
    }
}

fn channel(target: Target, times: &[f32], values: &[f32]) -> Channel {
    Channel {
        target,
        interpolation: Interpolation::Linear,
        times: times.to_vec(),
        values: values.to_vec(),
    }
}

fn animation(name: &str, channels: Vec<Channel>) -> Animation {
    Animation {
        name: name.into(),
        channels,
        extras: serde_json::Value::Null,
    }
}

/// A node that some animation moves, so an animation of `duration`
/// seconds can be made of it.
fn clock(node: usize, duration: f32) -> Channel {
    channel(
        Target::Translation { node },
        &[0.0, duration],
        &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    )
}

#[test]
fn a_triangle_facing_plus_z_faces_the_quake_direction_md2_axes_maps_to_plus_z() {
    let scene = Scene {
        meshes: vec![Mesh {
            positions: vec![[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]],
            uvs: vec![[0.0; 2]; 3],
            indices: vec![0, 1, 2],
            ..Mesh::default()
        }],
        ..Scene::default()
    };
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let m = written(&c, Engine::Quake2);
    let p = &decoded(&m)[0];
    let t = m.triangles[0]
        .vertices
        .map(|v| Vec3::from(p[usize::from(v)]));
    // Quake's front faces are clockwise: the front normal of [a, b, c]
    // is (c − a) × (b − a).
    let front = (t[2] - t[0]).cross(t[1] - t[0]).normalize();
    let in_scene = md2_axes(front.to_array());
    assert!((in_scene[2] - 1.0).abs() < 1e-6, "{in_scene:?}");
    // The vertex normal (computed from the triangle: the mesh has none)
    // is the table normal nearest to that direction.
    let want = nearest_normal_index(front.to_array());
    assert!(m.frames[0].vertices.iter().all(|v| v.normal_index == want));
}

#[test]
fn seams_and_meshes_weld_into_the_eight_corners_of_a_cube() {
    // One cube split into two meshes (faces 0-2 and 3-5), 24 vertices.
    let whole = cube("cube", [0.0, 1.0, 0.0], 2.0);
    let split = |faces: std::ops::Range<usize>| Mesh {
        indices: whole.indices[faces.start * 6..faces.end * 6].to_vec(),
        ..whole.clone()
    };
    let scene = Scene {
        meshes: vec![split(0..3), split(3..6)],
        materials: vec![Material::default()],
        ..Scene::default()
    };
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let m = written(&c, Engine::Quake2);
    assert_eq!(c.report.source_vertices, 24);
    assert_eq!(m.vertex_count(), 8);
    assert_eq!(m.triangles.len(), 12);
    // Each corner's normal is the sum of its three faces' normals: the
    // cube's diagonal through it.
    let p = &decoded(&m)[0];
    let center = Vec3::from(md2_axes_inverse([0.0, 1.0, 0.0]));
    for (v, packed) in m.frames[0].vertices.iter().enumerate() {
        let diagonal = (Vec3::from(p[v]) - center).normalize();
        assert_eq!(
            packed.normal_index,
            nearest_normal_index(diagonal.to_array()),
            "vertex {v}"
        );
    }
    // Every texcoord is a corner of the 256×256 default skin.
    for st in &m.texcoords {
        assert!(
            [0, 256].contains(&st.s) && [0, 256].contains(&st.t),
            "{st:?}"
        );
    }
}

/// Scene axes to Quake's, from `md2_axes`' definition: Quake `(x, y, z)`
/// is scene `(y, z, x)`.
fn md2_axes_inverse(v: [f32; 3]) -> [f32; 3] {
    [v[2], v[0], v[1]]
}

/// A cube placed by a child node of a root that an animation turns 90°
/// about +Y (scene up) in one second, the child sliding 1 along x; and a
/// second cube that nothing moves.
fn hierarchy() -> Scene {
    let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2).to_array();
    Scene {
        nodes: vec![
            Node {
                name: "root".into(),
                ..Node::default()
            },
            Node {
                name: "arm".into(),
                parent: Some(0),
                translation: [3.0, 0.0, 0.0],
                ..Node::default()
            },
        ],
        meshes: vec![
            Mesh {
                node: Some(1),
                ..cube("moving", [0.0, 0.0, 0.0], 1.0)
            },
            cube("still", [-5.0, 0.0, 0.0], 2.0),
        ],
        materials: vec![Material::default()],
        animations: vec![animation(
            "turn",
            vec![
                channel(
                    Target::Rotation { node: 0 },
                    &[0.0, 1.0],
                    &[[0.0, 0.0, 0.0, 1.0], quarter].concat(),
                ),
                channel(
                    Target::Translation { node: 1 },
                    &[0.0, 1.0],
                    &[3.0, 0.0, 0.0, 4.0, 0.0, 0.0],
                ),
            ],
        )],
        ..Scene::default()
    }
}

#[test]
fn node_animation_of_the_meshes_ancestors_is_baked() {
    let scene = hierarchy();
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let m = written(&c, Engine::Quake2);
    assert_eq!(m.frames.len(), 11);
    assert_eq!(c.report.animations[0].name, "turn");
    // At 1 s the moving cube's centre is the child's (4, 0, 0) turned 90°
    // about +Y: (0, 0, −4) in the scene.
    let last = decoded(&m).pop().unwrap();
    let want = Vec3::from(md2_axes_inverse([0.0, 0.0, -4.0]));
    let frame = m.frames.last().unwrap();
    let step = Vec3::from(frame.scale).max_element();
    let near: Vec<&[f32; 3]> = last
        .iter()
        .filter(|p| (Vec3::from(**p) - want).length() < 0.5 * 3f32.sqrt() + step)
        .collect();
    assert_eq!(near.len(), 8, "the moving cube's corners around {want:?}");
    let mean = near.iter().fold(Vec3::ZERO, |a, p| a + Vec3::from(**p)) / 8.0;
    assert!((mean - want).length() <= step, "{mean:?} vs {want:?}");
    assert!(c.report.max_step_fraction() <= 0.5 + 1e-4);
}

#[test]
fn with_one_grid_per_animation_a_still_vertex_decodes_bit_identically_in_every_frame() {
    let scene = hierarchy();
    let options = CompileOptions {
        grid: Grid::Animation,
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    let m = written(&c, Engine::Quake2);
    let frames = decoded(&m);
    // The still cube's corners are the vertices whose x is below −3
    // (Quake y = scene x).
    let still: Vec<usize> = (0..m.vertex_count())
        .filter(|&v| frames[0][v][1] < -3.0)
        .collect();
    assert_eq!(still.len(), 8);
    for f in &frames {
        for &v in &still {
            assert_eq!(f[v].map(f32::to_bits), frames[0][v].map(f32::to_bits));
        }
    }
    // Per-frame grids err less, but the still cube may wobble.
    let per_frame = compile(&scene, &CompileOptions::default()).unwrap();
    assert!(per_frame.report.max_error() <= c.report.max_error() + 1e-6);
}

#[test]
fn frame_names_give_back_the_animation_names_and_counts() {
    let names = [
        ("attack2", 0.7),
        ("pain1", 0.3),
        ("idle", 0.0),
        ("a_very_long_animation_name", 0.5),
        ("crattak", 0.8),
    ];
    let scene = Scene {
        nodes: vec![Node::default()],
        meshes: vec![cube("c", [0.0; 3], 1.0)],
        materials: vec![Material::default()],
        animations: names
            .iter()
            .map(|&(n, d)| animation(n, if d > 0.0 { vec![clock(0, d)] } else { vec![] }))
            .collect(),
        ..Scene::default()
    };
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let m = written(&c, Engine::Quake2);
    let got: Vec<(String, usize)> = m
        .animations()
        .into_iter()
        .map(|a| (a.name, a.frame_count))
        .collect();
    let want: Vec<(String, usize)> = [
        ("attack2", 8),
        ("pain1", 4),
        ("idle", 1),
        ("a_very_long_a", 6),
        ("crattak", 9),
    ]
    .iter()
    .map(|&(n, c)| (n.to_string(), c))
    .collect();
    assert_eq!(got, want);
    let renames: Vec<&CompileWarning> = c
        .warnings
        .iter()
        .filter(|w| matches!(w, CompileWarning::AnimationRenamed { .. }))
        .collect();
    assert_eq!(
        renames,
        [&CompileWarning::AnimationRenamed {
            from: "a_very_long_animation_name".into(),
            to: "a_very_long_a".into(),
            reason: "too long for 15-byte frame names",
        }]
    );
    // The chosen animations only, in the chosen order.
    let options = CompileOptions {
        animations: vec!["pain1".into(), "ATTACK2".into()],
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    let got: Vec<String> = c.model.animations().into_iter().map(|a| a.name).collect();
    assert_eq!(got, ["pain1", "attack2"]);
}

#[test]
fn player_models_are_the_standard_table() {
    let anims = [
        ("Stand", 3.9),
        ("run", 0.5),
        ("idle", 1.0),
        ("death3", 0.7),
        ("dance", 1.0),
    ];
    let scene = Scene {
        nodes: vec![Node::default()],
        meshes: vec![cube("c", [0.0; 3], 1.0)],
        materials: vec![Material::default()],
        animations: anims
            .iter()
            .map(|&(n, d)| animation(n, vec![clock(0, d)]))
            .collect(),
        ..Scene::default()
    };
    let options = CompileOptions {
        player: true,
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    let m = written(&c, Engine::Quake2);
    let got: Vec<(String, usize, usize)> = m
        .animations()
        .into_iter()
        .map(|a| (a.name, a.first_frame, a.frame_count))
        .collect();
    let want: Vec<(String, usize, usize)> = PLAYER_ANIMATIONS
        .iter()
        .map(|&(n, f, c)| (n.to_string(), f, c))
        .collect();
    assert_eq!(got, want);
    // stand comes from "Stand" (the exact name beats the alias "idle"),
    // run resampled to 6 frames over its 0.5 s.
    assert_eq!(c.report.animations[0].source, "Stand");
    assert_eq!(c.report.animations[1].times, [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    assert_eq!(c.report.animations[19].source, "death3");
    let missing = c
        .warnings
        .iter()
        .filter(|w| matches!(w, CompileWarning::PlayerAnimationMissing { .. }))
        .count();
    assert_eq!(missing, 17);
    assert!(c.warnings.contains(&CompileWarning::PlayerAnimationUnused {
        name: "idle".into()
    }));
    assert!(c.warnings.contains(&CompileWarning::PlayerAnimationUnused {
        name: "dance".into()
    }));
}

fn png(w: u32, h: u32, rgba: [u8; 4]) -> Vec<u8> {
    Rgba8Image::new(w, h, rgba.repeat((w * h) as usize))
        .unwrap()
        .to_png()
        .unwrap()
}

/// Three cubes: one with a red 16×16 texture, one with a blue 8×8
/// texture whose UVs run past 1, one untextured green.
fn textured() -> Scene {
    let mut wide = cube("blue", [3.0, 0.0, 0.0], 1.0);
    for uv in &mut wide.uvs {
        uv[0] *= 2.0;
    }
    wide.material = Some(1);
    Scene {
        name: "boxes".into(),
        meshes: vec![
            cube("red", [0.0; 3], 1.0),
            wide,
            Mesh {
                material: Some(2),
                ..cube("green", [6.0, 0.0, 0.0], 1.0)
            },
        ],
        materials: vec![
            Material {
                texture: Some(0),
                ..Material::default()
            },
            Material {
                texture: Some(1),
                ..Material::default()
            },
            Material {
                base_color: [0.0, 1.0, 0.0, 1.0],
                ..Material::default()
            },
        ],
        textures: vec![
            Texture {
                path: "red.png".into(),
                image: Some(retromodel::scene::TextureImage::Png(png(
                    16,
                    16,
                    [255, 0, 0, 255],
                ))),
            },
            Texture {
                path: "blue.png".into(),
                image: Some(retromodel::scene::TextureImage::Png(png(
                    8,
                    8,
                    [0, 0, 255, 255],
                ))),
            },
        ],
        ..Scene::default()
    }
}

fn test_palette() -> Palette {
    let mut colors = [[128u8; 3]; 256];
    colors[10] = [250, 0, 0];
    colors[20] = [0, 0, 250];
    colors[30] = [0, 250, 0];
    colors[0xc5] = [1, 2, 3];
    Palette::new(colors)
}

#[test]
fn several_textures_are_packed_into_one_pcx_skin() {
    let options = CompileOptions {
        skin: SkinOptions {
            palette: Some(test_palette()),
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    let c = compile(&textured(), &options).unwrap();
    let m = written(&c, Engine::Quake2);
    let skin = c.skin.as_ref().unwrap();
    assert_eq!(skin.name, "boxes.pcx");
    assert_eq!(m.skins[0].to_string(), "boxes.pcx");
    assert!(c
        .warnings
        .iter()
        .any(|w| matches!(w, CompileWarning::UvsClamped { vertices } if *vertices > 0)));
    // Decoded by our PCX decoder: the header's skin size, the palette's
    // colours.
    let image = decode(&skin.bytes).unwrap();
    assert_eq!(
        (image.width() as i32, image.height() as i32),
        (m.skin_width, m.skin_height)
    );
    // Every triangle's texcoords fall inside one tile of one colour.
    for t in &m.triangles {
        let colours: Vec<[u8; 4]> = t
            .texcoords
            .iter()
            .map(|&i| {
                let st = m.texcoords[usize::from(i)];
                // Sample just inside the corner, towards the centre.
                let centre: (i32, i32) = t.texcoords.iter().fold((0, 0), |a, &j| {
                    let s = m.texcoords[usize::from(j)];
                    (a.0 + i32::from(s.s), a.1 + i32::from(s.t))
                });
                let x = (i32::from(st.s) * 2 + centre.0 / 3) / 3;
                let y = (i32::from(st.t) * 2 + centre.1 / 3) / 3;
                image.pixel(x as u32, y as u32).unwrap()
            })
            .collect();
        assert!(colours.windows(2).all(|w| w[0] == w[1]), "{colours:?}");
        assert!(
            [[250, 0, 0, 255], [0, 0, 250, 255], [0, 250, 0, 255]].contains(&colours[0]),
            "{colours:?}"
        );
    }
    // The layout bytes, by hand: header, rows, palette.
    let b = &skin.bytes;
    let w = u16::from_le_bytes([b[8], b[9]]) + 1;
    let h = u16::from_le_bytes([b[10], b[11]]) + 1;
    assert_eq!(&b[..4], &[0x0a, 5, 1, 8], "ZSoft, version 5, RLE, 8 bits");
    assert_eq!((i32::from(w), i32::from(h)), (m.skin_width, m.skin_height));
    assert_eq!(b[65], 1, "one plane");
    assert_eq!(u16::from_le_bytes([b[66], b[67]]), w, "no row padding");
    let palette_at = b.len() - 769;
    assert_eq!(b[palette_at], 0x0c);
    assert_eq!(&b[palette_at + 1..], &test_palette().to_bytes()[..]);
    // Rows as id's LoadPCX reads them: exactly w bytes each, runs
    // inside a row.
    let mut at = 128;
    for y in 0..u32::from(h) {
        let mut x = 0u32;
        while x < u32::from(w) {
            let (n, v) = if b[at] & 0xc0 == 0xc0 {
                at += 2;
                (u32::from(b[at - 2] & 0x3f), b[at - 1])
            } else {
                at += 1;
                (1, b[at - 1])
            };
            assert!(x + n <= u32::from(w), "run crosses row {y}");
            for k in 0..n {
                let c = test_palette().colors()[usize::from(v)];
                assert_eq!(image.pixel(x + k, y).unwrap(), [c[0], c[1], c[2], 255]);
            }
            x += n;
        }
    }
    assert_eq!(at, palette_at, "pixel data ends at the palette");
}

#[test]
fn a_pcx_skin_without_a_palette_says_how_to_give_one_and_png_needs_none() {
    let err = compile(&textured(), &CompileOptions::default()).unwrap_err();
    assert!(err.to_string().contains("colormap.pcx"), "{err}");
    let options = CompileOptions {
        engine: Engine::Q2pro,
        skin: SkinOptions {
            format: SkinFormat::Png,
            name: Some("models/boxes/skin.png".into()),
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    let c = compile(&textured(), &options).unwrap();
    let skin = c.skin.unwrap();
    assert_eq!(skin.name, "models/boxes/skin.png");
    assert_eq!(&skin.bytes[..4], b"\x89PNG");
    let image = decode(&skin.bytes).unwrap();
    assert_eq!(
        (image.width() as i32, image.height() as i32),
        (c.model.skin_width, c.model.skin_height)
    );
}

#[test]
fn a_corpus_palette_maps_its_own_image_back_exactly() {
    let Some(dir) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let pcx = std::fs::read(dir.join("skins/editp01.pcx")).unwrap();
    let palette = Palette::from_pcx(&pcx).unwrap();
    let image = decode(&pcx).unwrap();
    let mut scene = textured();
    scene.meshes.truncate(1);
    scene.textures[0].image = Some(retromodel::scene::TextureImage::Pixels(image.clone()));
    let options = CompileOptions {
        engine: Engine::Yquake2,
        skin: SkinOptions {
            palette: Some(palette),
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    // One texture: the skin is the image as it is, pixel for pixel.
    let back = decode(&c.skin.unwrap().bytes).unwrap();
    assert_eq!(back, image);
    // The Pillow reference agrees.
    let reference =
        decode(&std::fs::read(dir.join("skins/editp01.reference.png")).unwrap()).unwrap();
    assert_eq!(back.pixels(), reference.pixels());
}

#[test]
fn a_player_and_its_weapon_share_grids() {
    let player = hierarchy();
    let mut weapon = hierarchy();
    weapon.meshes.remove(1);
    for p in &mut weapon.meshes[0].positions {
        p[1] += 0.25;
    }
    let options = CompileOptions::default();
    let both = compile_together(&[&player, &weapon], &options).unwrap();
    for (a, b) in both[0].model.frames.iter().zip(&both[1].model.frames) {
        assert_eq!((a.scale, a.translate), (b.scale, b.translate));
    }
    assert!(both
        .iter()
        .all(|c| c.report.max_step_fraction() <= 0.5 + 1e-4));
    // Or onto a model made before: its grids, kept.
    let alone = compile(&player, &options).unwrap();
    let onto = CompileOptions {
        grid_from: Some(GridSource::Frames(FrameGrid::of_model(&alone.model))),
        ..CompileOptions::default()
    };
    let w = compile(&weapon, &onto).unwrap();
    for (a, b) in alone.model.frames.iter().zip(&w.model.frames) {
        assert_eq!((a.scale, a.translate), (b.scale, b.translate));
    }
    assert!(
        w.report.max_step_fraction() <= 0.5 + 1e-4,
        "the weapon is inside the player's box"
    );
    // Different frame counts cannot share.
    let mut short = weapon.clone();
    short.animations[0].channels[0].times[1] = 0.5;
    short.animations[0].channels[1].times[1] = 0.5;
    assert!(compile_together(&[&player, &short], &options).is_err());
}

#[test]
fn fit_height_scales_the_whole_animation_to_quake_units() {
    // A 1.8 m tall box standing on the ground, as from Blender.
    let scene = Scene {
        meshes: vec![cube("human", [0.0, 0.9, 0.0], 1.8)],
        materials: vec![Material::default()],
        ..Scene::default()
    };
    let options = CompileOptions {
        fit_height: Some(56.0),
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    let p = &decoded(&c.model)[0];
    let lo = p.iter().map(|v| v[2]).fold(f32::INFINITY, f32::min);
    let hi = p.iter().map(|v| v[2]).fold(f32::NEG_INFINITY, f32::max);
    assert!((hi - lo - 56.0).abs() < 1e-3, "{lo}..{hi}");
    assert!((c.report.scale - 56.0 / 1.8).abs() < 1e-4);
    let both = CompileOptions {
        scale: Some(2.0),
        ..options
    };
    assert!(compile(&scene, &both).is_err());
}

#[test]
fn limits_are_refused_with_which_by_how_much_and_what_to_do() {
    let scene = Scene {
        nodes: vec![Node::default()],
        meshes: vec![cube("c", [0.0; 3], 1.0)],
        materials: vec![Material::default()],
        animations: vec![animation("long", vec![clock(0, 60.0)])],
        ..Scene::default()
    };
    let error = compile(&scene, &CompileOptions::default()).unwrap_err();
    let err = error.to_string();
    assert!(
        err.contains("601 frames exceed Quake II's limit of 512 (by 89)"),
        "{err}"
    );
    // The advice as data: 60 s at 10 frames per second and both ends make
    // 601 frames; id's MAX_FRAMES is 512 (qfiles.h), UFO:AI 2.5's loader
    // wants fewer than MD2_MAX_FRAMES (1024).
    let advice = error.advice().expect("advice");
    assert_eq!(
        advice.limit,
        Some(Limit {
            quantity: Quantity::Frames,
            max: 512,
            actual: 601
        })
    );
    // yquake2 bounds no frame count (src/client/refresh/files/models.c,
    // Mod_LoadMD2), Q2PRO allows 1024 (inc/format/md2.h MD2_MAX_FRAMES,
    // checked `<=` in MOD_ValidateMD2), UFO:AI 1023 (`< 1024`).
    assert_eq!(
        advice.remedies,
        [
            Remedy::LowerFps,
            Remedy::FewerAnimations,
            Remedy::Engine {
                engine: Engine::Yquake2,
                allows: Some(65536)
            },
            Remedy::Engine {
                engine: Engine::Q2pro,
                allows: Some(1024)
            },
            Remedy::Engine {
                engine: Engine::UfoAi,
                allows: Some(1023)
            }
        ]
    );
    assert!(!err.contains("::"), "{err}");
    assert!(err.contains("target UFO:AI (allows 1023)"), "{err}");
    // UFO:AI takes 1023 frames, and needs a skin name.
    let ufo = CompileOptions {
        engine: Engine::UfoAi,
        ..CompileOptions::default()
    };
    let err = compile(&scene, &ufo).unwrap_err().to_string();
    assert!(err.contains("at least 1 skin"), "{err}");
    let named = CompileOptions {
        skin: SkinOptions {
            name: Some("models/c/skin.pcx".into()),
            size: Some((64, 64)),
            ..SkinOptions::default()
        },
        ..ufo
    };
    let c = compile(&scene, &named).unwrap();
    written(&c, Engine::UfoAi);
    assert_eq!(c.model.frames.len(), 601);
    // A skin name over 63 bytes.
    let long_name = CompileOptions {
        skin: SkinOptions {
            name: Some("x".repeat(64)),
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    let short = Scene {
        animations: vec![],
        ..scene
    };
    let err = compile(&short, &long_name).unwrap_err().to_string();
    assert!(err.contains("64 bytes exceeds"), "{err}");
}

#[test]
fn validate_for_tells_which_corpus_models_load_where() {
    let Some(dir) = retromodel_testkit::corpus::corpus_dir() else {
        return;
    };
    let load = |n: &str| Md2::from_bytes(&std::fs::read(dir.join("md2").join(n)).unwrap()).unwrap();
    // 1007 frames (the corpus README): UFO:AI (under 1024, qfiles.h),
    // Q2PRO (up to 1024 since f6bb3a8 "Bump MD2_MAX_FRAMES", 2023,
    // inc/format/md2.h) and yquake2 (no bound in Mod_LoadMD2) take them.
    let soldier = load("ufoai_soldiers_male_body.md2");
    let frames = |e: Engine| {
        soldier
            .validate_for(e)
            .iter()
            .any(|p| p.path == "header.num_frames" && p.severity == retromodel::Severity::Error)
    };
    assert!(frames(Engine::Quake2) && frames(Engine::Kmquake2));
    assert!(!frames(Engine::UfoAi) && !frames(Engine::Q2pro) && !frames(Engine::Yquake2));
    // Q2PRO loads it in its GPU-lerp renderer only: its frames need more
    // than the compatibility path's 8 MiB hunk (md2_q2pro_memory.rs).
    let memory = soldier.validate_for(Engine::Q2pro);
    assert!(
        memory
            .iter()
            .any(|p| p.severity == retromodel::Severity::Warning && p.message.contains("8 MiB")),
        "{memory:?}"
    );
    // A 492-pixel-tall skin: over id's and yquake2's 480, fine for Q2PRO.
    let fern = load("ufoai_objects_vegi_fern_fern.md2");
    let tall = |e: Engine| {
        fern.validate_for(e)
            .iter()
            .any(|p| p.path == "header.skin_height" && p.severity == retromodel::Severity::Error)
    };
    assert!(tall(Engine::Quake2) && tall(Engine::Yquake2));
    assert!(!tall(Engine::Q2pro));
}

/// A texture larger than the engine allows is scaled down to fit, and the
/// texture coordinates follow it: a 1024×512 image on a cube gives id's
/// Quake II (skins ≤ 640×480) a 640×320 skin whose texcoords are the
/// source UVs times 640 and 320.
#[test]
fn a_skin_over_the_engines_limit_is_scaled_down_with_its_texcoords() {
    let scene = Scene {
        name: "big".into(),
        meshes: vec![cube("box", [0.0; 3], 1.0)],
        materials: vec![Material {
            texture: Some(0),
            ..Material::default()
        }],
        textures: vec![Texture {
            path: "big.png".into(),
            image: Some(retromodel::scene::TextureImage::Png(png(
                1024,
                512,
                [200, 100, 50, 255],
            ))),
        }],
        ..Scene::default()
    };
    let options = CompileOptions {
        skin: SkinOptions {
            format: SkinFormat::Png,
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).unwrap();
    let m = written(&c, Engine::Quake2);
    assert_eq!((m.skin_width, m.skin_height), (640, 320));
    let skin = decode(&c.skin.as_ref().unwrap().bytes).unwrap();
    assert_eq!((skin.width(), skin.height()), (640, 320));
    assert_eq!(skin.pixel(300, 100), Some([200, 100, 50, 255]));
    assert!(c
        .warnings
        .iter()
        .any(|w| w.to_string().contains("scaled down to 640x320")));
    // Every source UV, scaled to the new size, is one of the texcoords.
    let uvs = &scene.meshes[0].uvs;
    for uv in uvs {
        let want = (
            (uv[0] * 640.0).round() as i16,
            (uv[1] * 320.0).round() as i16,
        );
        assert!(
            m.texcoords.iter().any(|t| (t.s, t.t) == want),
            "{want:?} not in {:?}",
            m.texcoords
        );
    }
}

#[test]
fn a_png_texture_used_as_it_is_is_the_png_skin_byte_for_byte() {
    let source = png(64, 32, [10, 200, 30, 255]);
    let scene = |color: [f32; 4]| Scene {
        name: "crate".into(),
        meshes: vec![cube("box", [0.0; 3], 1.0)],
        materials: vec![Material {
            texture: Some(0),
            base_color: color,
            ..Material::default()
        }],
        textures: vec![Texture {
            path: "crate.png".into(),
            image: Some(retromodel::scene::TextureImage::Png(source.clone())),
        }],
        ..Scene::default()
    };
    let options = CompileOptions {
        skin: SkinOptions {
            format: SkinFormat::Png,
            ..SkinOptions::default()
        },
        ..CompileOptions::default()
    };
    // White base colour: the skin is the texture's file as it is.
    let c = compile(&scene([1.0; 4]), &options).unwrap();
    assert_eq!(c.skin.as_ref().unwrap().bytes, source);
    assert_eq!((c.model.skin_width, c.model.skin_height), (64, 32));
    // A tint changes the pixels: encoded anew, with the tinted colour.
    let c = compile(&scene([0.5, 1.0, 1.0, 1.0]), &options).unwrap();
    let skin = &c.skin.as_ref().unwrap().bytes;
    assert_ne!(skin, &source);
    let image = decode(skin).unwrap();
    assert_eq!(image.pixel(5, 5), Some([7, 200, 30, 255]));
}

#[test]
fn a_scene_that_poses_to_infinity_is_refused_naming_the_vertex_and_the_frame() {
    use retromodel::md2::Md2SceneOptions;
    let model = retromodel::md2::sample::sample_model();
    let mut scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let last = scene.meshes[0].morph_targets.len() - 1;
    scene.meshes[0].morph_targets[last].positions[2][0] = f32::INFINITY;
    for reuse_md2_source in [true, false] {
        let options = CompileOptions {
            reuse_md2_source,
            ..CompileOptions::default()
        };
        let message = compile(&scene, &options)
            .expect_err("infinity cannot be quantised")
            .to_string();
        assert!(
            message.starts_with("scene meshes[0] (\"md2\") vertex 2: posed at ")
                && message.contains("not a finite position")
                && message.contains(&format!("(MD2 frame {last})")),
            "{message}"
        );
    }
}

#[cfg(feature = "gltf")]
#[test]
fn a_scene_with_infinity_is_not_exported_as_gltf() {
    use retromodel::md2::Md2SceneOptions;
    let model = retromodel::md2::sample::sample_model();
    let mut scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    scene.meshes[0].morph_targets[1].normals[0][2] = f32::NAN;
    let message = retromodel::gltf::to_glb(&scene)
        .expect_err("glTF cannot hold NaN")
        .to_string();
    assert_eq!(
        message,
        "cannot write glTF: scene meshes[0].morph_targets[1].normals[0] is NaN: glTF holds only \
         finite numbers (the source is corrupt)"
    );
}

#[test]
fn errors_on_a_mirrored_grid_are_reported_in_steps() {
    // The sample's own grids mirrored on x (negative scale) and moved by
    // a third of a step: every x lies a third of a step from the grid,
    // which the report says (it said "infinitely many steps" for any
    // error on a negative scale).
    use retromodel::md2::Md2SceneOptions;
    let model = retromodel::md2::sample::sample_model();
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let grids: Vec<FrameGrid> = FrameGrid::of_model(&model)
        .into_iter()
        .map(|g| {
            let s = g.scale[0];
            FrameGrid {
                scale: [-s, g.scale[1], g.scale[2]],
                translate: [
                    g.translate[0] + 255.0 * s + s / 3.0,
                    g.translate[1],
                    g.translate[2],
                ],
            }
        })
        .collect();
    assert!(grids.iter().all(|g| g.scale[0] < 0.0));
    let options = CompileOptions {
        grid_from: Some(GridSource::Frames(grids)),
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).expect("compiles on the given grids");
    let steps = c.report.max_step_fraction();
    assert!((0.33..0.34).contains(&steps), "{steps}");
    assert!(
        !c.warnings
            .iter()
            .any(|w| matches!(w, CompileWarning::PositionsClamped { .. })),
        "{:?}",
        c.warnings
    );
}

#[test]
fn a_shared_grid_asked_for_is_used_rather_than_the_md2_record() {
    use retromodel::md2::Md2SceneOptions;
    let model = retromodel::md2::sample::sample_model();
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let distinct = |m: &Md2| {
        let mut grids: Vec<[u32; 6]> = m
            .frames
            .iter()
            .map(|f| {
                let g = [f.scale, f.translate].concat();
                std::array::from_fn(|i| g[i].to_bits())
            })
            .collect();
        grids.sort_unstable();
        grids.dedup();
        grids.len()
    };
    assert!(
        distinct(&model) > 1,
        "the sample's frames have grids of their own"
    );
    let options = CompileOptions {
        grid: Grid::Model,
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).expect("compiles");
    assert!(!c.report.reused_md2_source);
    assert_eq!(distinct(&c.model), 1, "one grid for the model");
    assert!(
        c.warnings
            .iter()
            .any(|w| matches!(w, CompileWarning::Md2SourceIgnored { reason }
            if reason == "frames are to share grids, not keep the recorded one per frame")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn a_record_finer_than_the_scene_can_tell_apart_is_not_used() {
    // Frame 1's x grid spans 1e-9 to 3.55e-9 while frame 0 sits at 10 or
    // more: posed as frame 0 plus a displacement, frame 1's x comes out
    // as 0, a hundred steps below its recorded grid yet within the
    // record check's f32 slack. Kept, the record put those positions
    // a hundred steps off; now the model is compiled afresh.
    use retromodel::md2::Md2SceneOptions;
    let mut model = retromodel::md2::sample::sample_model();
    model.frames[0].translate[0] = 10.0;
    let frame = &mut model.frames[1];
    frame.scale[0] = 1e-11;
    frame.translate[0] = 1e-9;
    for (i, v) in frame.vertices.iter_mut().enumerate() {
        v.position[0] = (i * 37 % 256) as u8;
    }
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let c = compile(&scene, &CompileOptions::default()).expect("compiles");
    assert!(!c.report.reused_md2_source);
    assert!(
        c.warnings
            .iter()
            .any(|w| matches!(w, CompileWarning::Md2SourceIgnored { reason }
            if reason == "positions more than half a step from the recorded grids")),
        "{:?}",
        c.warnings
    );
    let steps = c.report.max_step_fraction();
    assert!(steps <= 0.5 + 1e-3, "{steps}");
}

#[test]
fn a_player_layout_does_not_take_the_frame_names_of_a_record_that_is_no_player() {
    // 198 frames (the player table's count) named as two animations, walk
    // and idle: laid out as a player model, the frames are the table's
    // (walk and idle match no entry), so the record's names, which the
    // compile once wrote over them, would say walk and idle where stand,
    // run ... are. The record is left unused and the names are id's.
    use retromodel::md2::FrameName;
    use retromodel::md2::Md2SceneOptions;
    let mut model = retromodel::md2::sample::sample_model();
    let first = model.frames[0].clone();
    model.frames = (0..198)
        .map(|f| {
            let mut frame = first.clone();
            frame.name = if f < 100 {
                FrameName::new(&format!("walk{:03}", f + 1))
            } else {
                FrameName::new(&format!("idle{:02}", f - 99))
            };
            frame
        })
        .collect();
    let recorded: Vec<(String, usize)> = model
        .animations()
        .into_iter()
        .map(|a| (a.name, a.frame_count))
        .collect();
    assert_eq!(
        recorded,
        [("walk".to_string(), 100), ("idle".to_string(), 98)]
    );
    let scene = Scene::from_md2(&model, &Md2SceneOptions::default());
    let options = CompileOptions {
        player: true,
        ..CompileOptions::default()
    };
    let c = compile(&scene, &options).expect("compiles");
    assert!(!c.report.reused_md2_source);
    assert!(
        c.warnings
            .iter()
            .any(|w| matches!(w, CompileWarning::Md2SourceIgnored { reason }
            if reason == "the frames compiled are other animations than the recorded frames name")),
        "{:?}",
        c.warnings
    );
    let written: Vec<(String, usize)> = c
        .model
        .animations()
        .into_iter()
        .map(|a| (a.name, a.frame_count))
        .collect();
    let table: Vec<(String, usize)> = PLAYER_ANIMATIONS
        .iter()
        .map(|&(name, _, count)| (name.to_string(), count))
        .collect();
    assert_eq!(written, table);
}

/// A mesh that kept its MD2 record but lost the vertex map (Blender keeps
/// a mesh's extras as custom properties, not the `_MD2_VERTEX` attribute)
/// is the user's mesh now: its frames are baked afresh with no warning
/// about the record, and the record's skin names and size still come
/// back (read here from the sample's own header bytes).
#[test]
fn a_record_without_its_vertex_map_is_baked_afresh_without_a_warning() {
    use retromodel::md2::Md2SceneOptions;
    let original = retromodel::md2::sample::sample_model();
    let bytes = original.to_bytes().unwrap();
    let mut scene = Scene::from_md2(&original, &Md2SceneOptions::default());
    let extras = scene.meshes[0].extras.as_object_mut().unwrap();
    assert!(extras.remove("attributes").is_some());
    let c = compile(&scene, &CompileOptions::default()).expect("compiles");
    assert!(!c.report.reused_md2_source);
    assert!(
        !c.warnings
            .iter()
            .any(|w| matches!(w, CompileWarning::Md2SourceIgnored { .. })),
        "{:?}",
        c.warnings
    );
    // The header's skin width, height and count (bytes 8, 12, 20), and
    // the first skin name (64 bytes at ofs_skins, byte 44).
    let le = |o: usize| i32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    assert_eq!(c.model.skin_width, le(8));
    assert_eq!(c.model.skin_height, le(12));
    assert_eq!(c.model.skins.len() as i32, le(20));
    let at = le(44) as usize;
    let name = &bytes[at..at + 64];
    let name = &name[..name.iter().position(|&b| b == 0).unwrap()];
    assert_eq!(c.model.skins[0].as_bytes(), name);
    assert_eq!(c.model.frames.len(), original.frames.len());
}
