//! MDL → Scene against independent facts: the corpus's `facts.json`
//! (simple frame counts), the file bytes parsed here (positions, skin
//! indices), `quake/palette.lmp` read here (colours), and a model built
//! byte by byte here (the seam rule).

#![cfg(all(feature = "gltf", feature = "textures"))]

use retromodel::mdl::{Mdl, MdlSceneOptions, VERTEX_ATTRIBUTE};
use retromodel::scene::{Scene, TextureImage};
use retromodel::texture::{Palette, Rgba8Image};
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("RETROMODEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/corpus"
            ))
        });
    if dir.join("mdl").is_dir() && dir.join("quake/palette.lmp").is_file() {
        Some(dir)
    } else {
        assert!(std::env::var_os("CI").is_none(), "corpus missing under CI");
        eprintln!("skipped: no MDL corpus at {}", dir.display());
        None
    }
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// What this test reads from an IDPO file itself: scale, origin, skin
/// size, the first skin's indices, and every simple frame's vertex bytes.
struct Raw {
    scale: [f32; 3],
    origin: [f32; 3],
    w: usize,
    h: usize,
    skin0: Vec<u8>,
    frames: Vec<Vec<[u8; 4]>>,
}

fn parse(b: &[u8]) -> Raw {
    assert_eq!(&b[..4], b"IDPO");
    let scale = [f32_at(b, 8), f32_at(b, 12), f32_at(b, 16)];
    let origin = [f32_at(b, 20), f32_at(b, 24), f32_at(b, 28)];
    let (skins, w, h) = (
        i32_at(b, 48),
        i32_at(b, 52) as usize,
        i32_at(b, 56) as usize,
    );
    let (nv, nt, nf) = (
        i32_at(b, 60) as usize,
        i32_at(b, 64) as usize,
        i32_at(b, 68) as usize,
    );
    let mut at = 84;
    let mut skin0 = Vec::new();
    for s in 0..skins {
        let kind = i32_at(b, at);
        at += 4;
        let n = if kind == 0 {
            1
        } else {
            let n = i32_at(b, at) as usize;
            at += 4 + 4 * n;
            n
        };
        if s == 0 {
            skin0 = b[at..at + w * h].to_vec();
        }
        at += n * w * h;
    }
    at += 12 * nv + 16 * nt;
    let mut frames = Vec::new();
    let simple = |at: &mut usize, frames: &mut Vec<Vec<[u8; 4]>>| {
        *at += 24;
        frames.push(
            (0..nv)
                .map(|i| b[*at + 4 * i..*at + 4 * i + 4].try_into().unwrap())
                .collect(),
        );
        *at += 4 * nv;
    };
    for _ in 0..nf {
        let kind = i32_at(b, at);
        at += 4;
        if kind == 0 {
            simple(&mut at, &mut frames);
        } else {
            let n = i32_at(b, at) as usize;
            at += 4 + 8 + 4 * n;
            for _ in 0..n {
                simple(&mut at, &mut frames);
            }
        }
    }
    Raw {
        scale,
        origin,
        w,
        h,
        skin0,
        frames,
    }
}

fn pixels(t: &Option<TextureImage>) -> &Rgba8Image {
    match t {
        Some(TextureImage::Pixels(p)) => p,
        other => panic!("expected decoded pixels, got {other:?}"),
    }
}

fn facts(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("mdl/facts.json")).unwrap()).unwrap()
}

#[test]
fn corpus_frames_positions_and_skins_match_the_bytes() {
    let Some(dir) = corpus() else { return };
    let facts = facts(&dir);
    let pal_bytes = std::fs::read(dir.join("quake/palette.lmp")).unwrap();
    let palette = Palette::from_raw_768(&pal_bytes).unwrap();
    let options = MdlSceneOptions {
        palette: Some(palette),
        ..MdlSceneOptions::default()
    };
    let facts = facts.as_object().unwrap();
    let mut checked = (0, 0, 0, 0);
    let mut facing = (0u64, 0u64);
    for (name, fact) in facts {
        let bytes = std::fs::read(dir.join("mdl").join(name)).unwrap();
        let model = Mdl::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = Scene::from_mdl(&model, &options).unwrap();
        let mesh = &scene.meshes[0];
        assert_eq!(
            mesh.morph_targets.len() as u64,
            fact["simple_frames"].as_u64().unwrap(),
            "{name}: morph targets = simple frames"
        );
        let raw = parse(&bytes);
        assert_eq!(raw.frames.len(), mesh.morph_targets.len(), "{name}");
        let source: Vec<usize> = mesh.extras["attributes"][VERTEX_ATTRIBUTE]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        // Positions: byte × scale + origin, Quake (x, y, z) → (y, z, x).
        for (k, target) in mesh.morph_targets.iter().enumerate() {
            for (i, &src) in source.iter().enumerate() {
                let v = raw.frames[k][src];
                let q: [f32; 3] = [0, 1, 2].map(|a| f32::from(v[a]) * raw.scale[a] + raw.origin[a]);
                let want = [q[1], q[2], q[0]];
                let got = [0, 1, 2].map(|a| mesh.positions[i][a] + target.positions[i][a]);
                for a in 0..3 {
                    assert!(
                        (got[a] - want[a]).abs() <= 1e-4 * (1.0 + want[a].abs()),
                        "{name}: frame {k} vertex {src}: {got:?} != {want:?}"
                    );
                }
            }
        }
        // Skin texels: palette.lmp's triple of the stored index.
        let skin = pixels(&scene.textures[0].image);
        assert_eq!(
            (skin.width() as usize, skin.height() as usize),
            (raw.w, raw.h)
        );
        for (p, &index) in raw.skin0.iter().enumerate() {
            let (x, y) = ((p % raw.w) as u32, (p / raw.w) as u32);
            let rgb = &pal_bytes[3 * usize::from(index)..3 * usize::from(index) + 3];
            assert_eq!(
                &skin.pixel(x, y).unwrap()[..3],
                rgb,
                "{name}: texel {x},{y}"
            );
        }
        // Nothing of the skin is lost: its colours give back its indices
        // (the lowest index of each colour, computed here), or the extras
        // keep them.
        let mut lowest = std::collections::HashMap::new();
        for (j, rgb) in pal_bytes.chunks_exact(3).enumerate() {
            lowest.entry(rgb.to_vec()).or_insert(j as u8);
        }
        let from_colours: Vec<u8> = (0..raw.skin0.len())
            .map(|p| {
                let px = skin.pixel((p % raw.w) as u32, (p / raw.w) as u32).unwrap();
                lowest[&px[..3].to_vec()]
            })
            .collect();
        match scene.extras["mdl"]["skin_indices"].get("0") {
            Some(kept) => {
                let kept = kept.as_str().unwrap();
                let bytes: Vec<u8> = (0..kept.len() / 2)
                    .map(|k| u8::from_str_radix(&kept[2 * k..2 * k + 2], 16).unwrap())
                    .collect();
                assert_eq!(bytes, raw.skin0, "{name}: kept indices");
                assert_ne!(from_colours, raw.skin0, "{name}: kept without need");
                checked.3 += 1;
            }
            None => assert_eq!(from_colours, raw.skin0, "{name}: skin indices lost"),
        }
        // Fullbright texels (224..=255) are the emissive map, black elsewhere.
        let has_fullbright = raw.skin0.iter().any(|&i| i >= 224);
        let material = &scene.materials[0];
        assert_eq!(
            material.emissive_texture.is_some(),
            has_fullbright,
            "{name}"
        );
        if let Some(e) = material.emissive_texture {
            let glow = pixels(&scene.textures[e].image);
            for (p, &index) in raw.skin0.iter().enumerate() {
                let (x, y) = ((p % raw.w) as u32, (p / raw.w) as u32);
                let want: &[u8] = if index >= 224 {
                    &pal_bytes[3 * usize::from(index)..3 * usize::from(index) + 3]
                } else {
                    &[0, 0, 0]
                };
                assert_eq!(
                    &glow.pixel(x, y).unwrap()[..3],
                    want,
                    "{name}: glow {x},{y}"
                );
            }
            checked.2 += 1;
        }
        // Winding: the scene's counter-clockwise triangles face where the
        // file's own normals point (read from the bytes, through the 162
        // table), for nearly every triangle of the first frame.
        for t in mesh.indices.chunks_exact(3) {
            let p = |k: usize| glam::Vec3::from(mesh.positions[t[k] as usize]);
            let face = (p(1) - p(0)).cross(p(2) - p(0));
            let stored: glam::Vec3 = t
                .iter()
                .map(|&c| {
                    let n = retromodel::quake::NORMALS
                        [usize::from(raw.frames[0][source[c as usize]][3]).min(161)];
                    glam::Vec3::new(n[1], n[2], n[0])
                })
                .sum();
            if face.length() > 1e-6 {
                if face.dot(stored) > 0.0 {
                    facing.0 += 1;
                } else {
                    facing.1 += 1;
                }
            }
        }
        checked.0 += 1;
        checked.1 += mesh.morph_targets.len();
    }
    assert_eq!(checked.0, facts.len());
    assert!(checked.2 > 0, "no corpus model has fullbright texels?");
    assert!(
        facing.0 > 9 * facing.1,
        "triangles facing along / against their normals: {facing:?}"
    );
    eprintln!(
        "{} models, {} frames, {} with fullbrights, {} skins keeping their indices, facing {facing:?}",
        checked.0, checked.1, checked.2, checked.3
    );
}

/// A model built here: an 8×2 skin whose left half is index 1 and right
/// half index 2; three vertices, two of them onseam; one triangle facing
/// front and the same corners again not facing front.
fn seam_model() -> Vec<u8> {
    let mut b = Vec::new();
    let f = |b: &mut Vec<u8>, x: f32| b.extend_from_slice(&x.to_le_bytes());
    let i = |b: &mut Vec<u8>, x: i32| b.extend_from_slice(&x.to_le_bytes());
    b.extend_from_slice(b"IDPO");
    i(&mut b, 6);
    for x in [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0] {
        f(&mut b, x); // scale, origin, radius, eye
    }
    for x in [1, 8, 2, 3, 2, 1, 0, 0] {
        i(&mut b, x); // skins, w, h, verts, tris, frames, synctype, flags
    }
    f(&mut b, 0.0); // size
    i(&mut b, 0); // skin type
    for _row in 0..2 {
        b.extend_from_slice(&[1, 1, 1, 1, 2, 2, 2, 2]);
    }
    for (onseam, s, t) in [(0x20, 0, 0), (0, 2, 0), (0x20, 1, 1)] {
        i(&mut b, onseam);
        i(&mut b, s);
        i(&mut b, t);
    }
    for faces_front in [0x10, 0] {
        i(&mut b, faces_front);
        for v in [0, 1, 2] {
            i(&mut b, v);
        }
    }
    i(&mut b, 0); // frame type
    b.extend_from_slice(&[0, 0, 0, 0, 9, 9, 9, 0]);
    b.extend_from_slice(b"base1\0stale\0\0\0\0\0");
    for v in [[0u8, 0, 0, 5], [9, 0, 0, 5], [0, 9, 0, 5]] {
        b.extend_from_slice(&v);
    }
    b
}

#[test]
fn the_back_triangle_samples_the_right_half_of_the_skin() {
    let bytes = seam_model();
    let model = Mdl::from_bytes(&bytes).unwrap();
    let mut colors = [[0u8; 3]; 256];
    colors[1] = [10, 20, 30];
    colors[2] = [200, 100, 50];
    let scene = Scene::from_mdl(
        &model,
        &MdlSceneOptions {
            palette: Some(Palette::new(colors)),
            ..MdlSceneOptions::default()
        },
    )
    .unwrap();
    let mesh = &scene.meshes[0];
    let skin = pixels(&scene.textures[0].image);
    let source: Vec<u64> = mesh.extras["attributes"][VERTEX_ATTRIBUTE]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let sample = |uv: [f32; 2]| {
        let (x, y) = ((uv[0] * 8.0).floor() as u32, (uv[1] * 2.0).floor() as u32);
        skin.pixel(x, y).unwrap()
    };
    // Triangle 0 faces front: every corner keeps its s (GLQuake's texel
    // centres: (s + 0.5) / 8).
    let front: Vec<u32> = mesh.indices[..3].to_vec();
    let back: Vec<u32> = mesh.indices[3..6].to_vec();
    for &c in &front {
        let uv = mesh.uvs[c as usize];
        let want_s = [0.0, 2.0, 1.0][source[c as usize] as usize];
        assert_eq!(uv[0], (want_s + 0.5) / 8.0);
        assert_eq!(&sample(uv)[..3], &[10, 20, 30]);
    }
    // Triangle 1 does not face front: its onseam corners (vertices 0 and
    // 2) move by 8 / 2 = 4 texels into the right half; vertex 1 stays.
    for &c in &back {
        let uv = mesh.uvs[c as usize];
        match source[c as usize] {
            0 => assert_eq!(uv, [4.5 / 8.0, 0.5 / 2.0]),
            1 => assert_eq!(uv, [2.5 / 8.0, 0.5 / 2.0]),
            2 => assert_eq!(uv, [5.5 / 8.0, 1.5 / 2.0]),
            v => panic!("vertex {v}"),
        }
        if source[c as usize] != 1 {
            assert_eq!(&sample(uv)[..3], &[200, 100, 50]);
        }
    }
    // The onseam vertices are split, the other is shared: 5 scene vertices.
    assert_eq!(mesh.positions.len(), 5);
    // The raw name keeps its stale bytes in the extras.
    let names = scene.extras["mdl"]["frame_names"].as_str().unwrap();
    assert_eq!(names, "6261736531007374616c650000000000");
}

#[test]
fn without_a_palette_the_skins_have_no_image_and_the_extras_say_so() {
    let model = Mdl::from_bytes(&seam_model()).unwrap();
    let scene = Scene::from_mdl(&model, &MdlSceneOptions::default()).unwrap();
    assert!(!scene.textures.iter().any(|t| t.has_image()));
    assert_eq!(scene.materials[0].texture, None);
    assert_eq!(scene.extras["mdl"]["palette"], "missing");
}

/// The glb of two corpus models (a soldier's single frames, a flame's
/// frame groups) passes the Khronos validator, and three.js, posing it at
/// each animation key, puts every vertex where the file's bytes (decoded
/// here) put that key's frame: frame groups on their intervals as read
/// from the bytes here. Skipped without `acceptance/node_modules`.
#[test]
fn the_glb_validates_and_three_js_poses_it_as_the_bytes_say() {
    use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    let Some(dir) = corpus() else { return };
    let acceptance = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../acceptance");
    if !acceptance.join("node_modules/gltf-validator").is_dir() {
        eprintln!("skipped: no acceptance/node_modules (cd acceptance && npm ci)");
        return;
    }
    let facts = facts(&dir);
    let pal = std::fs::read(dir.join("quake/palette.lmp")).unwrap();
    let options = ConvertOptions {
        palette: Some(Palette::from_raw_768(&pal).unwrap()),
        ..ConvertOptions::default()
    };
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for name in ["c0burn_progs_soldier.mdl", "c0burn_progs_flame2.mdl"] {
        let bytes = std::fs::read(dir.join("mdl").join(name)).unwrap();
        let raw = parse(&bytes);
        let conversion = Converter::new(&options)
            .convert(&bytes, name, OutputFormat::Glb, "x.glb")
            .unwrap();
        assert!(
            conversion.warnings().is_empty(),
            "{:?}",
            conversion.warnings()
        );
        let files = conversion.files().unwrap();
        let glb = tmp.join(name.replace(".mdl", ".glb"));
        let glb_bytes = files.last().unwrap().to_vec();
        std::fs::write(&glb, &glb_bytes).unwrap();
        // The glTF's morph targets: facts.json's simple frame count.
        let json_len = u32::from_le_bytes(glb_bytes[12..16].try_into().unwrap()) as usize;
        let doc: serde_json::Value = serde_json::from_slice(&glb_bytes[20..20 + json_len]).unwrap();
        assert_eq!(
            doc["meshes"][0]["primitives"][0]["targets"]
                .as_array()
                .unwrap()
                .len() as u64,
            facts[name]["simple_frames"].as_u64().unwrap(),
            "{name}"
        );
        let out = std::process::Command::new("node")
            .arg(acceptance.join("validate.mjs"))
            .arg(&glb)
            .output()
            .expect("node runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: validator: {text}");

        // The glb read back: the material's emissive map is the lift's
        // fullbright image, pixel for pixel.
        let back = retromodel::gltf::import(&glb_bytes, None, &Default::default()).unwrap();
        let lifted = conversion.scene().unwrap();
        let glow = |s: &Scene| {
            s.materials[0].emissive_texture.map(|t| {
                s.textures[t]
                    .image
                    .as_ref()
                    .unwrap()
                    .to_pixels()
                    .unwrap()
                    .into_owned()
            })
        };
        assert_eq!(
            glow(&back.scene),
            glow(lifted),
            "{name}: emissive map read back"
        );
        if name.contains("flame") {
            assert!(glow(lifted).is_some(), "{name}: a flame has fullbrights");
        }

        // The frame groups' intervals, read from the bytes here: after the
        // skins, texcoords and triangles, each frame's type, then for a
        // group its count, bounding box and intervals.
        let scene = conversion.scene().unwrap();
        let source: Vec<usize> = scene.meshes[0].extras["attributes"][VERTEX_ATTRIBUTE]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let groups = group_intervals(&bytes);
        let mut cases = Vec::new();
        let mut group = 0;
        for a in &scene.animations {
            let first = a.extras["first_frame"].as_u64().unwrap() as usize;
            let count = a.extras["frame_count"].as_u64().unwrap() as usize;
            let times: Vec<f32> = if a.extras.get("frame_group").is_some() {
                let iv = &groups[group];
                group += 1;
                assert_eq!(iv.len(), count, "{name}: {}", a.name);
                std::iter::once(0.0)
                    .chain(iv[..count - 1].iter().copied())
                    .collect()
            } else {
                (0..count).map(|i| i as f32 / 10.0).collect()
            };
            let stepped = a.extras.get("frame_group").is_some();
            // A group's frames do not blend: halfway to the next key the
            // frame is still the key's.
            let mut keys: Vec<(usize, f32)> = times.iter().copied().enumerate().collect();
            if stepped {
                for i in 0..times.len().saturating_sub(1) {
                    keys.push((i, (times[i] + times[i + 1]) / 2.0));
                }
            }
            for (i, t) in keys {
                let frame = &raw.frames[first + i];
                let positions: Vec<f32> = source
                    .iter()
                    .flat_map(|&v| {
                        let q: [f32; 3] = [0, 1, 2]
                            .map(|a| f32::from(frame[v][a]) * raw.scale[a] + raw.origin[a]);
                        [q[1], q[2], q[0]]
                    })
                    .collect();
                cases.push(serde_json::json!({
                    "animation": a.name, "time": t, "positions": positions,
                }));
            }
        }
        assert_eq!(
            group,
            groups.len(),
            "{name}: every frame group is an animation"
        );
        let spec = tmp.join(name.replace(".mdl", "_three.json"));
        std::fs::write(
            &spec,
            serde_json::to_vec(&serde_json::json!({
                "file": glb, "tolerance": 1e-3, "cases": cases,
            }))
            .unwrap(),
        )
        .unwrap();
        let out = std::process::Command::new("node")
            .arg(acceptance.join("mdl_three.mjs"))
            .arg(&spec)
            .output()
            .expect("node runs");
        let text = String::from_utf8_lossy(&out.stdout);
        eprintln!("{name}: {} cases\n{text}", cases.len());
        assert!(
            out.status.success(),
            "{name}: three.js: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Each frame group's intervals, in file order, read from an IDPO file.
fn group_intervals(b: &[u8]) -> Vec<Vec<f32>> {
    let (skins, w, h) = (
        i32_at(b, 48),
        i32_at(b, 52) as usize,
        i32_at(b, 56) as usize,
    );
    let (nv, nt, nf) = (
        i32_at(b, 60) as usize,
        i32_at(b, 64) as usize,
        i32_at(b, 68) as usize,
    );
    let mut at = 84;
    for _ in 0..skins {
        let kind = i32_at(b, at);
        at += 4;
        let n = if kind == 0 {
            1
        } else {
            let n = i32_at(b, at) as usize;
            at += 4 + 4 * n;
            n
        };
        at += n * w * h;
    }
    at += 12 * nv + 16 * nt;
    let mut out = Vec::new();
    for _ in 0..nf {
        let kind = i32_at(b, at);
        at += 4;
        if kind == 0 {
            at += 24 + 4 * nv;
        } else {
            let n = i32_at(b, at) as usize;
            at += 4 + 8;
            out.push((0..n).map(|k| f32_at(b, at + 4 * k)).collect());
            at += 4 * n + n * (24 + 4 * nv);
        }
    }
    out
}

/// A Hexen II (`RAPO` 50) model built here: triangles index texture
/// coordinates apart from vertices (16-bit), so the same vertex takes a
/// different coordinate on each triangle; the seam rule still applies.
#[test]
fn hexen_ii_triangles_index_their_own_texture_coordinates() {
    let mut b = Vec::new();
    let f = |b: &mut Vec<u8>, x: f32| b.extend_from_slice(&x.to_le_bytes());
    let i = |b: &mut Vec<u8>, x: i32| b.extend_from_slice(&x.to_le_bytes());
    let u = |b: &mut Vec<u8>, x: u16| b.extend_from_slice(&x.to_le_bytes());
    b.extend_from_slice(b"RAPO");
    i(&mut b, 50);
    for x in [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0] {
        f(&mut b, x);
    }
    for x in [1, 8, 2, 3, 2, 1, 0, 0] {
        i(&mut b, x); // skins, w, h, verts, tris, frames, synctype, flags
    }
    f(&mut b, 0.0); // size
    i(&mut b, 4); // num_st_verts
    i(&mut b, 0);
    b.extend_from_slice(&[1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2]);
    for (onseam, s, t) in [(0, 0, 0), (0, 2, 0), (0, 1, 1), (0x20, 3, 1)] {
        i(&mut b, onseam);
        i(&mut b, s);
        i(&mut b, t);
    }
    for (faces_front, st) in [(0x10, [0u16, 1, 2]), (0, [3, 1, 0])] {
        i(&mut b, faces_front);
        for v in [0u16, 1, 2] {
            u(&mut b, v);
        }
        for t in st {
            u(&mut b, t);
        }
    }
    i(&mut b, 0);
    b.extend_from_slice(&[0, 0, 0, 0, 9, 9, 9, 0]);
    b.extend_from_slice(b"base1\0\0\0\0\0\0\0\0\0\0\0");
    for v in [[0u8, 0, 0, 5], [9, 0, 0, 5], [0, 9, 0, 5]] {
        b.extend_from_slice(&v);
    }
    let model = Mdl::from_bytes(&b).unwrap();
    let scene = Scene::from_mdl(&model, &MdlSceneOptions::default()).unwrap();
    let mesh = &scene.meshes[0];
    let source: Vec<u64> = mesh.extras["attributes"][VERTEX_ATTRIBUTE]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let uv_of = |tri: usize, vertex: u64| {
        let c = mesh.indices[3 * tri..3 * tri + 3]
            .iter()
            .find(|&&c| source[c as usize] == vertex)
            .unwrap();
        mesh.uvs[*c as usize]
    };
    // Triangle 0: texcoords 0, 1, 2 as stored.
    assert_eq!(uv_of(0, 0), [0.5 / 8.0, 0.5 / 2.0]);
    assert_eq!(uv_of(0, 2), [1.5 / 8.0, 1.5 / 2.0]);
    // Triangle 1 (back): vertex 0 takes texcoord 3, onseam: 3 + 4 = 7;
    // vertex 2 takes texcoord 0 (not onseam: unmoved).
    assert_eq!(uv_of(1, 0), [7.5 / 8.0, 1.5 / 2.0]);
    assert_eq!(uv_of(1, 1), [2.5 / 8.0, 0.5 / 2.0]);
    assert_eq!(uv_of(1, 2), [0.5 / 8.0, 0.5 / 2.0]);
    assert_eq!(scene.extras["mdl"]["variant"], "hexen2");
}

/// OBJ of a model with fullbrights: the MTL names the emissive map
/// (`map_Ke`) beside the skin (`map_Kd`), and that PNG holds the
/// fullbright texels of the file's skin (indices ≥ 224, read here), black
/// elsewhere.
#[test]
fn the_obj_names_the_fullbright_map() {
    use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    let Some(dir) = corpus() else { return };
    let pal = std::fs::read(dir.join("quake/palette.lmp")).unwrap();
    let options = ConvertOptions {
        palette: Some(Palette::from_raw_768(&pal).unwrap()),
        ..ConvertOptions::default()
    };
    let bytes = std::fs::read(dir.join("mdl/c0burn_progs_flame2.mdl")).unwrap();
    let raw = parse(&bytes);
    let conversion = Converter::new(&options)
        .convert(&bytes, "flame2.mdl", OutputFormat::Obj, "flame2.obj")
        .unwrap();
    let files = conversion.files().unwrap();
    let mtl = files
        .iter()
        .find(|f| f.name.ends_with(".mtl"))
        .unwrap()
        .to_vec();
    let mtl = String::from_utf8(mtl).unwrap();
    let glow_name = mtl
        .lines()
        .find_map(|l| l.strip_prefix("map_Ke "))
        .unwrap_or_else(|| panic!("no map_Ke in {mtl}"));
    let png = files.iter().find(|f| f.name == glow_name).unwrap().to_vec();
    let glow = retromodel::texture::decode(&png).unwrap();
    for (p, &index) in raw.skin0.iter().enumerate() {
        let (x, y) = ((p % raw.w) as u32, (p / raw.w) as u32);
        let want: &[u8] = if index >= 224 {
            &pal[3 * usize::from(index)..3 * usize::from(index) + 3]
        } else {
            &[0, 0, 0]
        };
        assert_eq!(&glow.pixel(x, y).unwrap()[..3], want, "texel {x},{y}");
    }
}

/// A hostile Hexen II file of about a megabyte (one vertex, 60000 texture
/// coordinates that 20000 triangles use, 800 frames of four bytes) whose
/// scene would need 1.1 GiB of morph targets: an error naming the limit,
/// at once, not an allocation.
#[test]
fn a_morph_bomb_is_refused() {
    let (st, tris, frames) = (60_000u16, 20_000usize, 800);
    let mut b = Vec::new();
    let f = |b: &mut Vec<u8>, x: f32| b.extend_from_slice(&x.to_le_bytes());
    let i = |b: &mut Vec<u8>, x: i32| b.extend_from_slice(&x.to_le_bytes());
    b.extend_from_slice(b"RAPO");
    i(&mut b, 50);
    for x in [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0] {
        f(&mut b, x);
    }
    for x in [1, 4, 1, 1, tris as i32, frames, 0, 0] {
        i(&mut b, x);
    }
    f(&mut b, 0.0);
    i(&mut b, i32::from(st));
    i(&mut b, 0);
    b.extend_from_slice(&[0; 4]);
    for k in 0..st {
        i(&mut b, 0);
        i(&mut b, i32::from(k % 4));
        i(&mut b, i32::from(k / 4));
    }
    for t in 0..tris {
        i(&mut b, 1);
        for _ in 0..3 {
            b.extend_from_slice(&0u16.to_le_bytes());
        }
        for k in 0..3 {
            b.extend_from_slice(&((3 * t + k) as u16).to_le_bytes());
        }
    }
    for _ in 0..frames {
        i(&mut b, 0);
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(b"f\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
        b.extend_from_slice(&[0, 0, 0, 5]);
    }
    let model = Mdl::from_bytes(&b).unwrap();
    let started = std::time::Instant::now();
    let err = Scene::from_mdl(&model, &MdlSceneOptions::default()).unwrap_err();
    assert!(err.to_string().contains("limit"), "{err}");
    assert!(started.elapsed().as_secs_f32() < 2.0);
}

/// Corpus files with bytes flipped at random (a fixed seed): whatever
/// the reader accepts, the lift maps without panicking, and every index
/// of the scene it makes is in range.
#[test]
fn mutated_files_never_panic_the_lift() {
    let Some(dir) = corpus() else { return };
    let pal = std::fs::read(dir.join("quake/palette.lmp")).unwrap();
    let options = MdlSceneOptions {
        palette: Some(Palette::from_raw_768(&pal).unwrap()),
        ..MdlSceneOptions::default()
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut read, mut lifted) = (0, 0);
    for name in ["c0burn_progs_flame2.mdl", "c0burn_progs_armor.mdl"] {
        let original = std::fs::read(dir.join("mdl").join(name)).unwrap();
        for _ in 0..120 {
            let mut bytes = original.clone();
            for _ in 0..1 + next() % 8 {
                // Mostly the header and the sections after the skins.
                let at = if next() % 2 == 0 {
                    (next() % 84) as usize
                } else {
                    (next() % bytes.len() as u64) as usize
                };
                bytes[at] = next() as u8;
            }
            let Ok(model) = Mdl::from_bytes(&bytes) else {
                continue;
            };
            read += 1;
            let Ok(scene) = Scene::from_mdl(&model, &options) else {
                continue;
            };
            lifted += 1;
            let mesh = &scene.meshes[0];
            let n = mesh.positions.len();
            assert!(mesh.indices.iter().all(|&i| (i as usize) < n), "{name}");
            assert_eq!(mesh.uvs.len(), n);
            for t in &mesh.morph_targets {
                assert_eq!(t.positions.len(), n);
            }
            for a in &scene.animations {
                for c in &a.channels {
                    assert!(
                        c.times.windows(2).all(|w| w[0] < w[1]),
                        "{name}: {}",
                        a.name
                    );
                    assert_eq!(c.values.len(), c.times.len() * mesh.morph_targets.len());
                }
            }
        }
    }
    eprintln!("{read} mutated files read, {lifted} lifted");
    assert!(lifted > 0);
}
