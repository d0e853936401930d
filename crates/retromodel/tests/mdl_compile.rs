//! `mdl::compile` on the corpus's glTFs and an MD2, checked against
//! oracles independent of the compiler: the MDL's bytes are decoded here
//! (byte × scale + origin, the seam's shift, the skin's indices), and the
//! source positions and texture coordinates are read here from the glTF's
//! accessors (morph targets weighted by the animation's own sampler) or
//! from the MD2's bytes.

#![cfg(all(feature = "scene", feature = "gltf", feature = "textures"))]

use retromodel::mdl::compile::{compile, CompileOptions, Compiled, Limits};
use retromodel::mdl::Mdl;
use retromodel::scene::Scene;
use retromodel::texture::Palette;
use retromodel_testkit::corpus::corpus_dir;
use retromodel_testkit::glb::{parse_glb, sample, Doc};

// ---------------------------------------------------------------------
// An MDL decoder of its own (IDPO 6, as /work/shared/formats/MDL.md lays
// it out), so that the test does not read the file with the code under
// test.

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

struct Decoded {
    scale: [f32; 3],
    origin: [f32; 3],
    skin_width: i32,
    skin_height: i32,
    /// Skin images (palette indices).
    skins: Vec<Vec<u8>>,
    /// (onseam, s, t) per vertex.
    texcoords: Vec<(i32, i32, i32)>,
    /// (facesfront, vertices) per triangle.
    triangles: Vec<(i32, [usize; 3])>,
    /// Top-level frame entries: (is group, intervals, simple frames).
    entries: Vec<(bool, Vec<f32>, Vec<DecodedFrame>)>,
}

struct DecodedFrame {
    name: String,
    /// (bytes, normal index) per vertex.
    vertices: Vec<([u8; 3], u8)>,
}

impl Decoded {
    fn frames(&self) -> impl Iterator<Item = &DecodedFrame> {
        self.entries.iter().flat_map(|e| e.2.iter())
    }
    fn position(&self, b: [u8; 3]) -> [f32; 3] {
        [0, 1, 2].map(|k| f32::from(b[k]) * self.scale[k] + self.origin[k])
    }
    /// The skin texel (continuous, its centre) a triangle's corner
    /// samples, as id's renderers compute it.
    fn corner_st(&self, t: usize, k: usize) -> [f32; 2] {
        let (front, v) = self.triangles[t];
        let (onseam, s, tt) = self.texcoords[v[k]];
        let s = if onseam != 0 && front == 0 {
            s + self.skin_width / 2
        } else {
            s
        };
        [s as f32 + 0.5, tt as f32 + 0.5]
    }
}

fn decode(b: &[u8]) -> Decoded {
    assert_eq!(&b[0..4], b"IDPO");
    assert_eq!(i32_at(b, 4), 6);
    let v3 = |at: usize| [0, 1, 2].map(|k| f32_at(b, at + 4 * k));
    let (scale, origin) = (v3(8), v3(20));
    let (num_skins, sw, sh) = (i32_at(b, 48), i32_at(b, 52), i32_at(b, 56));
    let (nv, nt, nf) = (
        i32_at(b, 60) as usize,
        i32_at(b, 64) as usize,
        i32_at(b, 68) as usize,
    );
    let mut at = 84;
    let size = (sw * sh) as usize;
    let mut skins = Vec::new();
    for _ in 0..num_skins {
        let kind = i32_at(b, at);
        at += 4;
        if kind == 0 {
            skins.push(b[at..at + size].to_vec());
            at += size;
        } else {
            let n = i32_at(b, at) as usize;
            at += 4 + 4 * n;
            for _ in 0..n {
                skins.push(b[at..at + size].to_vec());
                at += size;
            }
        }
    }
    let texcoords = (0..nv)
        .map(|i| {
            let o = at + 12 * i;
            (i32_at(b, o), i32_at(b, o + 4), i32_at(b, o + 8))
        })
        .collect();
    at += 12 * nv;
    let triangles = (0..nt)
        .map(|i| {
            let o = at + 16 * i;
            (
                i32_at(b, o),
                [1, 2, 3].map(|k| i32_at(b, o + 4 * k) as usize),
            )
        })
        .collect();
    at += 16 * nt;
    let simple = |at: &mut usize| {
        *at += 8;
        let raw = &b[*at..*at + 16];
        let name = String::from_utf8_lossy(&raw[..raw.iter().position(|&c| c == 0).unwrap_or(16)])
            .into_owned();
        *at += 16;
        let vertices = (0..nv)
            .map(|i| {
                let o = *at + 4 * i;
                ([b[o], b[o + 1], b[o + 2]], b[o + 3])
            })
            .collect();
        *at += 4 * nv;
        DecodedFrame { name, vertices }
    };
    let mut entries = Vec::new();
    for _ in 0..nf {
        let kind = i32_at(b, at);
        at += 4;
        if kind == 0 {
            entries.push((false, Vec::new(), vec![simple(&mut at)]));
        } else {
            let n = i32_at(b, at) as usize;
            at += 4 + 8;
            let intervals = (0..n).map(|i| f32_at(b, at + 4 * i)).collect();
            at += 4 * n;
            let frames = (0..n).map(|_| simple(&mut at)).collect();
            entries.push((true, intervals, frames));
        }
    }
    assert_eq!(at, b.len(), "bytes after the last frame");
    Decoded {
        scale,
        origin,
        skin_width: sw,
        skin_height: sh,
        skins,
        texcoords,
        triangles,
        entries,
    }
}

// ---------------------------------------------------------------------

fn corpus() -> Option<std::path::PathBuf> {
    let dir = corpus_dir();
    if dir.is_none() {
        eprintln!("no corpus: skipped");
    }
    dir
}

fn palette(corpus: &std::path::Path) -> Palette {
    Palette::from_raw_768(&std::fs::read(corpus.join("quake/palette.lmp")).unwrap()).unwrap()
}

fn options(corpus: &std::path::Path) -> CompileOptions {
    CompileOptions {
        palette: Some(palette(corpus)),
        ..CompileOptions::default()
    }
}

/// Scene (Y up) to Quake (Z up) axes, as the documentation states.
fn to_quake(p: [f32; 3]) -> [f32; 3] {
    [p[2], p[0], p[1]]
}

/// The frame times of an animation of `duration` seconds sampled at
/// `fps`, by the documented rule.
fn frame_times(duration: f64, fps: f64) -> Vec<f64> {
    let intervals = duration * fps;
    let m = intervals.round().max(1.0) as usize;
    let whole = (intervals - m as f64).abs() <= 1e-3;
    (0..=m)
        .map(|j| {
            if j == m {
                duration
            } else if whole {
                j as f64 / fps
            } else {
                j as f64 * duration / m as f64
            }
        })
        .collect()
}

/// Every check that needs no source: bytes agree with the value, the
/// reader reads them back, the validator finds no error, no fullbright
/// texel.
fn check_common(name: &str, c: &Compiled) -> Decoded {
    let bytes = c.model.to_bytes().unwrap();
    let back = Mdl::from_bytes(&bytes).unwrap();
    assert_eq!(back, c.model, "{name}: read back");
    let errors: Vec<_> = c
        .model
        .validate()
        .into_iter()
        .filter(|p| p.severity == retromodel::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}");
    let d = decode(&bytes);
    assert_eq!(d.skin_width % 4, 0, "{name}: skin width");
    for skin in &d.skins {
        assert!(
            skin.iter().all(|&i| i < 224),
            "{name}: a fullbright texel in a skin of no emissive material"
        );
    }
    for f in d.frames() {
        assert!(f.name.len() <= 15, "{name}: {}", f.name);
        assert!(f.vertices.iter().all(|v| v.1 < 162));
    }
    assert!(
        c.report.max_step_fraction <= 0.5 + 1e-3,
        "{name}: {:?}",
        c.report
    );
    d
}

/// Accessor `i` of the GLB as f32 numbers.
fn accessor(doc: &Doc, i: u64) -> Vec<f32> {
    doc.read(i as usize)
}

#[test]
fn shapekeys_every_corner_within_half_a_step_and_its_own_texel() {
    let Some(corpus) = corpus() else { return };
    let bytes = std::fs::read(corpus.join("gltf/blender_shapekeys.glb")).unwrap();
    let scene = retromodel::gltf::import(&bytes, None, &Default::default())
        .unwrap()
        .scene;
    let c = compile(&scene, &options(&corpus)).unwrap();
    let d = check_common("shapekeys", &c);

    // The source, read here.
    let doc = parse_glb(&bytes);
    let j = &doc.json;
    assert!(j["nodes"][0].get("matrix").is_none() && j["nodes"][0].get("rotation").is_none());
    assert!(j["materials"][0].get("emissiveFactor").is_none());
    let prim = &j["meshes"][0]["primitives"][0];
    let base = doc.read3(prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    let uvs = accessor(&doc, prim["attributes"]["TEXCOORD_0"].as_u64().unwrap());
    let indices = accessor(&doc, prim["indices"].as_u64().unwrap());
    let targets: Vec<Vec<[f32; 3]>> = prim["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| doc.read3(t["POSITION"].as_u64().unwrap() as usize))
        .collect();
    let sampler = &j["animations"][0]["samplers"][0];
    let times = accessor(&doc, sampler["input"].as_u64().unwrap());
    let weights = accessor(&doc, sampler["output"].as_u64().unwrap());
    let image = &j["images"][0];
    let view = &j["bufferViews"][image["bufferView"].as_u64().unwrap() as usize];
    let (o, l) = (
        view["byteOffset"].as_u64().unwrap_or(0) as usize,
        view["byteLength"].as_u64().unwrap() as usize,
    );
    let texture = retromodel::texture::decode(&doc.bin[o..o + l]).unwrap();
    let (tw, th) = (texture.width() as f32, texture.height() as f32);

    // Frames: the one animation sampled at 10 fps.
    let duration = f64::from(*times.last().unwrap());
    let when = frame_times(duration, 10.0);
    let frames: Vec<&DecodedFrame> = d.frames().collect();
    assert_eq!(frames.len(), when.len());
    assert_eq!(d.entries.len(), when.len(), "single frames, no group");
    assert_eq!(frames[0].name, "morph_pulse1");

    let step = d.scale;
    let mut worst = 0.0f32;
    for (f, &t) in frames.iter().zip(&when) {
        let w = sample(&times, &weights, targets.len(), "LINEAR", t);
        for (tri, &(mesh, k)) in c.triangle_sources.iter().enumerate() {
            assert_eq!(mesh, 0);
            // MDL corners [a, c, b] of the scene's [a, b, c].
            let src = [0, 2, 1].map(|i| indices[3 * k + i] as usize);
            for (corner, &v) in src.iter().enumerate() {
                let mut p = base[v].map(f64::from);
                for (target, wk) in targets.iter().zip(&w) {
                    for a in 0..3 {
                        p[a] += wk * f64::from(target[v][a]);
                    }
                }
                let q = to_quake(p.map(|x| x as f32));
                let got = d.position(f.vertices[d.triangles[tri].1[corner]].0);
                for a in 0..3 {
                    let e = (got[a] - q[a]).abs();
                    worst = worst.max(e / step[a]);
                    assert!(
                        e <= 0.5 * step[a] + 1e-5 * (1.0 + q[a].abs()),
                        "frame {} triangle {tri} corner {corner} axis {a}: {} vs {} (step {})",
                        f.name,
                        got[a],
                        q[a],
                        step[a]
                    );
                }
                if f.name.ends_with('1') && f.name.len() == "morph_pulse1".len() {
                    let st = d.corner_st(tri, corner);
                    let want = [uvs[2 * v] * tw, uvs[2 * v + 1] * th];
                    for a in 0..2 {
                        assert!(
                            (st[a] - want[a]).abs() <= 1.0,
                            "triangle {tri} corner {corner}: texel {st:?}, source {want:?}"
                        );
                    }
                }
            }
        }
    }
    eprintln!(
        "shapekeys: worst {worst:.4} of a step; report {:.4} steps, {:.5} units; {} vertices ({} onseam) from {} welded",
        c.report.max_step_fraction, c.report.max_error, c.report.vertices, c.report.onseam_vertices, c.report.welded_vertices
    );
    assert!(worst <= 0.5 + 1e-3);
}

/// Frame counts and the seam on the other two glTFs (a skinned walker with
/// two actions, a node hierarchy with two materials): every corner's
/// decoded texel is the source UV's.
#[test]
fn walker_and_objects_frame_counts_and_texels() {
    let Some(corpus) = corpus() else { return };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("gltf/facts.json")).unwrap()).unwrap();
    for file in ["blender_walker.glb", "blender_objects.gltf"] {
        let path = corpus.join("gltf").join(file);
        let bytes = std::fs::read(&path).unwrap();
        let resolver = retromodel::texture::TextureResolver::new(corpus.join("gltf"));
        let imported =
            retromodel::gltf::import(&bytes, Some(&resolver), &Default::default()).unwrap();
        let scene: Scene = imported.scene;
        let c = compile(&scene, &options(&corpus)).unwrap();
        let d = check_common(file, &c);
        // Durations from the facts (an independent reader's).
        let durations: Vec<f64> = facts["files"][file]["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["duration_s"].as_f64().unwrap())
            .collect();
        let want: usize = durations.iter().map(|&t| frame_times(t, 10.0).len()).sum();
        assert!(!durations.is_empty());
        assert_eq!(d.frames().count(), want, "{file}");
        assert_eq!(c.report.simple_frames, want, "{file}");
        // Texels: each corner's source UV in its material's texture (one
        // textured material: the skin is that texture).
        for (tri, &(mesh, k)) in c.triangle_sources.iter().enumerate() {
            let m = &scene.meshes[mesh];
            let Some(tex) = m
                .material
                .and_then(|i| scene.materials[i].texture)
                .and_then(|t| scene.textures[t].image.as_ref())
            else {
                continue;
            };
            if c.report.skin_size.0 < 8 {
                continue;
            }
            let img = tex.to_pixels().unwrap();
            let one_material = scene.meshes.iter().all(|x| x.material == m.material);
            if !one_material {
                continue;
            }
            for (corner, i) in [0, 2, 1].into_iter().enumerate() {
                let v = m.indices[3 * k + i] as usize;
                let uv = m.uvs[v];
                let want = [
                    uv[0].clamp(0.0, 1.0) * img.width() as f32,
                    uv[1].clamp(0.0, 1.0) * img.height() as f32,
                ];
                let st = d.corner_st(tri, corner);
                for a in 0..2 {
                    assert!(
                        (st[a] - want[a]).abs() <= 1.0,
                        "{file} triangle {tri} corner {corner}: {st:?} vs {want:?}"
                    );
                }
            }
        }
        eprintln!(
            "{file}: {} frames, max error {:.5} units ({:.4} steps), {} vertices ({} onseam, {} welded), skin {:?}",
            want,
            c.report.max_error,
            c.report.max_step_fraction,
            c.report.vertices,
            c.report.onseam_vertices,
            c.report.welded_vertices,
            c.report.skin_size
        );
    }
}

/// An MD2 from the corpus (Sydney, 198 frames, her own skin): every MDL
/// corner within half an MDL step of the MD2's own decoded position (read
/// here from the MD2's bytes), on the MD2 corner's own texel.
#[test]
fn sydney_md2_to_mdl_within_half_a_step_of_the_md2() {
    let Some(corpus) = corpus() else { return };
    let md2_bytes = std::fs::read(corpus.join("md2/assimpdeb_sydney.md2")).unwrap();
    let md2 = retromodel::md2::Md2::from_bytes(&md2_bytes).unwrap();
    let mut scene = Scene::from_md2(&md2, &Default::default());
    let skin = retromodel::texture::decode(&std::fs::read(corpus.join("md2/sydney.bmp")).unwrap())
        .unwrap();
    scene.textures.push(retromodel::scene::Texture {
        path: "sydney.bmp".into(),
        image: Some(retromodel::scene::TextureImage::Pixels(skin)),
    });
    if scene.materials.is_empty() {
        scene.materials.push(Default::default());
    }
    let texture = scene.textures.len() - 1;
    for m in &mut scene.materials {
        m.texture = Some(texture);
    }
    for mesh in &mut scene.meshes {
        mesh.material = Some(0);
    }
    let c = compile(&scene, &options(&corpus)).unwrap();
    let d = check_common("sydney", &c);

    // The MD2, read here (Quake II's header: 17 i32 after the magic).
    let h = |i: usize| i32_at(&md2_bytes, 4 + 4 * i) as usize;
    let (skin_w, skin_h, framesize) = (h(1) as f32, h(2) as f32, h(3));
    let (num_frames, ofs_st, ofs_tris, ofs_frames) = (h(9), h(11), h(12), h(13));
    assert_eq!(d.frames().count(), num_frames);
    let md2_position = |f: usize, v: usize| {
        let at = ofs_frames + f * framesize;
        let s = [0, 1, 2].map(|k| f32_at(&md2_bytes, at + 4 * k));
        let t = [0, 1, 2].map(|k| f32_at(&md2_bytes, at + 12 + 4 * k));
        let b = &md2_bytes[at + 40 + 4 * v..];
        [0, 1, 2].map(|k| f32::from(b[k]) * s[k] + t[k])
    };
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([md2_bytes[at], md2_bytes[at + 1]]));
    let i16_at = |at: usize| i16::from_le_bytes([md2_bytes[at], md2_bytes[at + 1]]) as f32;
    let step = d.scale;
    let mut worst = 0.0f32;
    for (f, frame) in d.frames().enumerate() {
        for (tri, &(_, k)) in c.triangle_sources.iter().enumerate() {
            for corner in 0..3 {
                let v = u16_at(ofs_tris + 12 * k + 2 * corner);
                let want = md2_position(f, v);
                let got = d.position(frame.vertices[d.triangles[tri].1[corner]].0);
                for a in 0..3 {
                    let e = (got[a] - want[a]).abs();
                    worst = worst.max(e / step[a]);
                    assert!(
                        e <= 0.5 * step[a] + 1e-4 * (1.0 + want[a].abs()),
                        "frame {f} triangle {tri} corner {corner}: {got:?} vs {want:?}"
                    );
                }
                if f == 0 {
                    let st_index = u16_at(ofs_tris + 12 * k + 6 + 2 * corner);
                    let s = i16_at(ofs_st + 4 * st_index);
                    let t = i16_at(ofs_st + 4 * st_index + 2);
                    // The MD2's texel in its skin, in the texture's pixels.
                    let img_w = c.report.skin_size.0 as f32;
                    let want_st = [s / skin_w, t / skin_h];
                    let got_st = d.corner_st(tri, corner);
                    let _ = img_w;
                    let img = [skin_w, skin_h];
                    for a in 0..2 {
                        assert!(
                            (got_st[a] - want_st[a] * img[a]).abs() <= 1.0,
                            "triangle {tri} corner {corner}: {got_st:?} vs {:?}",
                            [s, t]
                        );
                    }
                }
            }
        }
    }
    eprintln!(
        "sydney: {} frames, worst {worst:.4} steps (report {:.4}, {:.5} units), {} vertices ({} onseam) from {} welded, {} triangles",
        num_frames,
        c.report.max_step_fraction,
        c.report.max_error,
        c.report.vertices,
        c.report.onseam_vertices,
        c.report.welded_vertices,
        c.report.triangles
    );
}

/// A synthetic scene: one emissive and one plain material. The emissive
/// one's texels take fullbright indices, the plain one's never; a frame
/// group by the `@group` suffix; id's limits refuse too many frames.
#[test]
fn emissive_texels_are_fullbright_groups_and_limits() {
    use retromodel::scene::{
        Animation, Channel, Interpolation, Material, Mesh, MorphTarget, Target, Texture,
        TextureImage,
    };
    let Some(corpus) = corpus() else { return };
    let red = retromodel::texture::Rgba8Image::new(4, 4, [255, 40, 40, 255].repeat(16)).unwrap();
    let quad = |x: f32, material: usize| Mesh {
        positions: vec![
            [x, 0.0, 0.0],
            [x + 1.0, 0.0, 0.0],
            [x + 1.0, 1.0, 0.0],
            [x, 1.0, 0.0],
        ],
        uvs: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
        indices: vec![0, 1, 2, 0, 2, 3],
        material: Some(material),
        morph_targets: vec![MorphTarget {
            // Up (glTF's +Y, Quake's +Z) by 1.
            positions: vec![[0.0, 1.0, 0.0]; 4],
            ..Default::default()
        }],
        ..Default::default()
    };
    let scene = Scene {
        meshes: vec![quad(0.0, 0), quad(2.0, 1)],
        materials: vec![
            Material {
                texture: Some(0),
                ..Default::default()
            },
            Material {
                texture: Some(0),
                emissive: [1.0, 1.0, 1.0],
                ..Default::default()
            },
        ],
        textures: vec![Texture {
            path: "red.png".into(),
            image: Some(TextureImage::Pixels(red)),
        }],
        animations: vec![Animation {
            name: "flame@group".into(),
            channels: vec![Channel {
                target: Target::MorphWeights { mesh: 0 },
                interpolation: Interpolation::Linear,
                times: vec![0.0, 0.3],
                values: vec![0.0, 1.0],
            }],
            extras: serde_json::Value::Null,
        }],
        ..Default::default()
    };
    let c = compile(&scene, &options(&corpus)).unwrap();
    let bytes = c.model.to_bytes().unwrap();
    let d = decode(&bytes);
    // Skin: two 4×4 tiles side by side; left plain, right emissive.
    assert_eq!((d.skin_width, d.skin_height), (8, 4));
    for row in d.skins[0].chunks_exact(8) {
        assert!(row[..4].iter().all(|&i| i < 224), "{row:?}");
        assert!(row[4..].iter().all(|&i| (224..255).contains(&i)), "{row:?}");
    }
    // One group of 4 frames (0.3 s at 10 fps), intervals 0.1 .. 0.4.
    assert_eq!(d.entries.len(), 1);
    let (group, intervals, frames) = &d.entries[0];
    assert!(*group);
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0].name, "flame1");
    for (j, i) in intervals.iter().enumerate() {
        assert!((i - (j + 1) as f32 / 10.0).abs() < 1e-6);
    }
    // The first quad rises by 1 over the group (its top from 1 to 2);
    // the second stays (top at 1).
    let z_top = |f: &DecodedFrame| {
        f.vertices
            .iter()
            .map(|v| d.position(v.0)[2])
            .fold(f32::MIN, f32::max)
    };
    assert!((z_top(&frames[0]) - 1.0).abs() <= d.scale[2] / 2.0 + 1e-5);
    assert!((z_top(&frames[3]) - 2.0).abs() <= d.scale[2] / 2.0 + 1e-5);
    // Limits: three frames allowed, four asked.
    let tight = CompileOptions {
        limits: Limits {
            max_frames: 3,
            ..Limits::QUAKE
        },
        ..options(&corpus)
    };
    let err = compile(&scene, &tight).unwrap_err();
    assert!(
        err.to_string()
            .contains("4 frames exceed Quake's limit of 3 (by 1)"),
        "{err}"
    );
    // No palette: an error that says to give one.
    let err = compile(&scene, &CompileOptions::default()).unwrap_err();
    assert!(err.to_string().contains("palette"), "{err}");
}
