use super::*;
use crate::engine::Engine;
use crate::scene::{Animation, Channel, Interpolation, Mesh, MorphTarget, Node, Target};

/// A quad that bends up by a morph target over 1 s.
fn bending_quad() -> Scene {
    Scene {
        meshes: vec![Mesh {
            name: "quad".into(),
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 0.0, 1.0],
                [0.0, 0.0, 1.0],
            ],
            uvs: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
            indices: vec![0, 1, 2, 0, 2, 3],
            morph_targets: vec![MorphTarget {
                positions: vec![[0.0; 3], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0; 3]],
                ..Default::default()
            }],
            ..Default::default()
        }],
        nodes: vec![Node {
            name: "tag_weapon".into(),
            translation: [0.0, 2.0, 0.0],
            ..Node::default()
        }],
        animations: vec![Animation {
            name: "bend".into(),
            channels: vec![
                Channel {
                    target: Target::MorphWeights { mesh: 0 },
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 1.0],
                    values: vec![0.0, 1.0],
                },
                Channel {
                    target: Target::Translation { node: 0 },
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 1.0],
                    values: vec![0.0, 2.0, 0.0, 0.0, 3.0, 0.0],
                },
            ],
            extras: serde_json::Value::Null,
        }],
        ..Default::default()
    }
}

#[test]
fn a_bending_quad_makes_sixteen_frames_a_tag_and_valid_bytes() {
    let compiled = compile(&bending_quad(), &CompileOptions::default()).unwrap();
    let m = &compiled.model;
    assert_eq!(m.frames.len(), 16);
    assert_eq!(m.surfaces.len(), 1);
    assert_eq!(m.surfaces[0].vertex_count(), 4);
    // Scene [0, 1, 2] is written [0, 2, 1]: vertices numbered as they
    // come, so MD3 vertex 1 is scene vertex 2 and 2 is 1.
    assert_eq!(m.surfaces[0].triangles[0], [0, 1, 2]);
    assert_eq!(m.surfaces[0].texcoords[1], [1.0, 0.0]);
    assert_eq!(m.surfaces[0].texcoords[2], [1.0, 1.0]);
    assert_eq!(m.frames[0].name.to_string_lossy(), "bend1");
    assert_eq!(m.frames[15].name.to_string_lossy(), "bend16");
    // The tag rises from 2 to 3 units (scene Y is Quake's Z).
    assert_eq!(m.num_tags, 1);
    assert_eq!(m.frame_tags(0).unwrap()[0].origin, [0.0, 0.0, 2.0]);
    assert_eq!(m.frame_tags(15).unwrap()[0].origin, [0.0, 0.0, 3.0]);
    // Vertex 2 (scene (1, 0, 0) rising by 1): Quake (0, 1, 0) to (0, 1, 1).
    assert_eq!(m.surfaces[0].frame(0).unwrap()[2].xyz, [0, 64, 0]);
    assert_eq!(m.surfaces[0].frame(15).unwrap()[2].xyz, [0, 64, 64]);
    assert!(compiled.report.max_error <= 1.0 / 128.0);
    let bytes = m.to_bytes().unwrap();
    let back = Md3::from_bytes(&bytes).unwrap();
    assert!(back.validate().is_empty(), "{:?}", back.validate());
    assert!(back.validate_for(Engine::Ioquake3).is_empty());
}

#[test]
fn a_thousand_vertices_split_for_ioquake3_or_are_refused() {
    // 334 separate triangles: 1002 vertices in one surface.
    let mut mesh = Mesh {
        name: "soup".into(),
        ..Mesh::default()
    };
    for i in 0..334u32 {
        let x = i as f32;
        mesh.positions
            .extend([[x, 0.0, 0.0], [x + 0.5, 0.0, 0.0], [x, 0.5, 0.0]]);
        mesh.indices.extend([3 * i, 3 * i + 1, 3 * i + 2]);
    }
    let scene = Scene {
        meshes: vec![mesh],
        ..Scene::default()
    };
    // Split: 333 triangles (999 vertices) and 1, both named "soup".
    let c = compile(&scene, &CompileOptions::default()).unwrap();
    let counts: Vec<(usize, usize)> = c
        .model
        .surfaces
        .iter()
        .map(|s| (s.vertex_count(), s.triangles.len()))
        .collect();
    assert_eq!(counts, [(999, 333), (3, 1)]);
    assert!(c
        .model
        .surfaces
        .iter()
        .all(|s| s.name.to_string_lossy() == "soup"));
    assert!(matches!(
        c.warnings[0],
        CompileWarning::SurfaceSplit {
            parts: 2,
            vertices: 1002,
            ..
        }
    ));
    assert_eq!(c.triangle_sources[1], [(0, 333)]);
    assert!(c.model.validate_for(Engine::Ioquake3).is_empty());
    let no_split = CompileOptions {
        split_surfaces: false,
        ..CompileOptions::default()
    };
    let text = compile(&scene, &no_split).unwrap_err().to_string();
    assert!(
        text.contains("1002 vertices exceed ioquake3's limit of 999 (by 3)"),
        "{text}"
    );
    let options = CompileOptions {
        engine: Some(Engine::Vkquake),
        ..no_split
    };
    assert_eq!(compile(&scene, &options).unwrap().report.vertices, 1002);
}

/// `n` separate triangles in one mesh: `3n` vertices.
fn soup(n: u32) -> Scene {
    let mut mesh = Mesh {
        name: "soup".into(),
        ..Mesh::default()
    };
    for i in 0..n {
        let x = (i % 500) as f32;
        let y = (i / 500) as f32;
        mesh.positions
            .extend([[x, y, 0.0], [x + 0.5, y, 0.0], [x, y + 0.5, 0.0]]);
        mesh.indices.extend([3 * i, 3 * i + 1, 3 * i + 2]);
    }
    Scene {
        meshes: vec![mesh],
        ..Scene::default()
    }
}

fn parts(c: &Compiled) -> Vec<(usize, usize)> {
    c.model
        .surfaces
        .iter()
        .map(|s| (s.vertex_count(), s.triangles.len()))
        .collect()
}

#[test]
fn rtcw_splits_past_3999_vertices_its_multiplayer_past_999_and_fte_never() {
    let with = |engine, split_surfaces| CompileOptions {
        engine: Some(engine),
        split_surfaces,
        ..CompileOptions::default()
    };
    // 1333 triangles, 3999 vertices: one surface for RTCW's single player.
    let c = compile(&soup(1333), &with(Engine::Rtcw, false)).unwrap();
    assert_eq!(parts(&c), [(3999, 1333)]);
    assert!(c.model.validate_for(Engine::Rtcw).is_empty());
    // One triangle more: split (or refused).
    let scene = soup(1334);
    let c = compile(&scene, &with(Engine::Rtcw, true)).unwrap();
    assert_eq!(parts(&c), [(3999, 1333), (3, 1)]);
    assert!(c.model.validate_for(Engine::Rtcw).is_empty());
    let text = compile(&scene, &with(Engine::Rtcw, false))
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("4002 vertices exceed Return to Castle Wolfenstein's limit of 3999 (by 3)"),
        "{text}"
    );
    // Multiplayer: ioquake3's 999.
    let c = compile(&scene, &with(Engine::RtcwMp, true)).unwrap();
    assert_eq!(
        parts(&c),
        [(999, 333), (999, 333), (999, 333), (999, 333), (6, 2)]
    );
    assert!(c.model.validate_for(Engine::RtcwMp).is_empty());
    // FTE has no limit: one surface.
    let c = compile(&scene, &with(Engine::Fte, false)).unwrap();
    assert_eq!(parts(&c), [(4002, 1334)]);
    assert!(c.model.validate_for(Engine::Fte).is_empty());
}

#[test]
fn coordinates_beyond_512_units_are_refused_with_advice() {
    let mut scene = bending_quad();
    scene.meshes[0].positions[2] = [1.0, 0.0, 512.0];
    let err = compile(&scene, &CompileOptions::default()).unwrap_err();
    assert!(err.to_string().contains("-512..511.98"), "{err}");
    let options = CompileOptions {
        scale: Some(0.5),
        ..CompileOptions::default()
    };
    let compiled = compile(&scene, &options).unwrap();
    assert!(compiled.report.max_error <= 1.0 / 128.0);
}

#[test]
fn long_names_are_cut_to_63_bytes_with_a_warning() {
    let mut scene = bending_quad();
    scene.meshes[0].name = "x".repeat(70);
    let compiled = compile(&scene, &CompileOptions::default()).unwrap();
    assert_eq!(
        compiled.model.surfaces[0].name.to_string_lossy(),
        "x".repeat(63)
    );
    assert!(matches!(
        &compiled.warnings[0],
        CompileWarning::NameCut { field, .. } if field == "surfaces[0].name"
    ));
}

#[test]
fn texture_coordinates_that_are_not_numbers_are_written_as_zero_with_a_warning() {
    let mut scene = bending_quad();
    scene.meshes[0].uvs[1] = [f32::NAN, 1.0];
    scene.meshes[0].uvs[3] = [0.0, f32::INFINITY];
    let compiled = compile(&scene, &CompileOptions::default()).unwrap();
    let t = &compiled.model.surfaces[0].texcoords;
    assert!(t.iter().flatten().all(|x| x.is_finite()), "{t:?}");
    assert!(t.contains(&[0.0, 1.0]) && t.contains(&[0.0, 0.0]), "{t:?}");
    assert!(compiled.model.validate().is_empty());
    assert!(compiled.warnings.contains(&CompileWarning::UvsNotFinite {
        surface: "quad".into(),
        count: 2
    }));
}
