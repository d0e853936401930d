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
    // Per axis: the largest error of ours, and every source coordinate
    // (for the bounding-box grid's error, the baseline).
    let mut ours = [0.0f32; 3];
    let mut coords: [Vec<f32>; 3] = Default::default();
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
                    ours[a] = ours[a].max(e);
                    coords[a].push(q[a]);
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
    // The baseline: each axis on the bounding box of every frame, 255
    // steps, each coordinate on its nearest byte. Ours is no worse on any
    // axis.
    for a in 0..3 {
        let (lo, hi) = coords[a]
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let s = (hi - lo) / 255.0;
        let baseline = coords[a]
            .iter()
            .map(|&x| {
                let b = ((x - lo) / s).round().clamp(0.0, 255.0);
                (b * s + lo - x).abs()
            })
            .fold(0.0f32, f32::max);
        eprintln!(
            "shapekeys axis {a}: largest error {:.6} (ours) vs {:.6} (bounding-box grid), step {:.6} vs {:.6}",
            ours[a], baseline, step[a], s
        );
        assert!(
            ours[a] <= baseline * 1.0001 + 1e-7,
            "axis {a}: {} > {baseline}",
            ours[a]
        );
    }
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

/// Blender's skinned walker against three.js (GLTFLoader, AnimationMixer,
/// skinning on the CPU: `acceptance/skin_three.mjs`): compiled at 30 fps,
/// every frame of `idle` (at k / 30 s, where three.js poses it) and the
/// first and last frame of `walk` decode to within half a step of
/// three.js's vertex positions, corner by corner. Skipped without node
/// and `acceptance/node_modules` (required under CI).
#[test]
fn walker_within_half_a_step_of_three_js() {
    let Some(corpus) = corpus() else { return };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if !retromodel_testkit::node::node_with_three(&root) {
        eprintln!("skipped: node or acceptance/node_modules missing");
        return;
    }
    let file = corpus.join("gltf/blender_walker.glb");
    let dir = std::env::temp_dir().join(format!("retromodel-mdl-three-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("walker.json");
    let ran = std::process::Command::new("node")
        .arg(root.join("acceptance/skin_three.mjs"))
        .arg(&file)
        .arg(&json)
        .status()
        .unwrap();
    assert!(ran.success());
    let three: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let scene = retromodel::gltf::import(&bytes, None, &Default::default())
        .unwrap()
        .scene;
    let c = compile(
        &scene,
        &CompileOptions {
            fps: 30.0,
            ..options(&corpus)
        },
    )
    .unwrap();
    let d = check_common("walker at 30 fps", &c);
    let frames: Vec<&DecodedFrame> = d.frames().collect();
    let indices: Vec<usize> = three["meshes"][0]["indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    let anims = three["animations"].as_array().unwrap();
    let by_name = |n: &str| anims.iter().find(|a| a["name"] == n).unwrap();
    let (idle, walk) = (by_name("idle"), by_name("walk"));
    // idle: 31 frames at k / 30; walk: 1.25 s, 38 intervals, frames 31..=69.
    assert_eq!(frames.len(), 31 + 39);
    let walk_last = idle["times"].as_array().unwrap().len() + 38;
    let walk_times = walk["times"].as_array().unwrap();
    let checks: Vec<(usize, &serde_json::Value)> = (0..31)
        .map(|k| (k, &idle["poses"][k][0]))
        .chain([
            (31, &walk["poses"][0][0]),
            (walk_last, &walk["poses"][walk_times.len() - 1][0]),
        ])
        .collect();
    assert_eq!(
        walk_times.last().unwrap().as_f64().unwrap(),
        1.25,
        "three.js poses the end"
    );
    let step = d.scale;
    let mut worst = 0.0f32;
    for (f, pose) in checks {
        let p = pose.as_array().unwrap();
        for (tri, &(mesh, k)) in c.triangle_sources.iter().enumerate() {
            assert_eq!(mesh, 0);
            for (corner, i) in [0, 2, 1].into_iter().enumerate() {
                let v = indices[3 * k + i];
                let q = to_quake([0, 1, 2].map(|a| p[3 * v + a].as_f64().unwrap() as f32));
                let got = d.position(frames[f].vertices[d.triangles[tri].1[corner]].0);
                for a in 0..3 {
                    let e = (got[a] - q[a]).abs();
                    worst = worst.max(e / step[a]);
                    assert!(
                        e <= 0.5 * step[a] + 2e-5 * (1.0 + q[a].abs()),
                        "frame {f} triangle {tri} corner {corner} axis {a}: {} vs three.js {} (step {})",
                        got[a],
                        q[a],
                        step[a]
                    );
                }
            }
        }
    }
    eprintln!("walker vs three.js: worst {worst:.4} of a step over 33 frames");
}

/// Odd input never crashes and is said: texture coordinates that are
/// `NaN` or outside 0..1 are clamped (with a warning), a skin 6 pixels wide
/// is padded to 8 with its last column (the texels keep their place), a
/// skin 1,000 pixels tall is scaled to id's 480 (with a warning naming
/// smaller textures), and every corner still decodes inside the skin.
#[test]
fn odd_uvs_and_skin_sizes_are_clamped_padded_and_scaled_with_warnings() {
    use retromodel::mdl::compile::CompileWarning;
    use retromodel::scene::{Material, Mesh, Texture, TextureImage};
    let grey = Palette::new(std::array::from_fn(|i| [i as u8; 3]));
    let scene_with = |w: u32, h: u32, uvs: Vec<[f32; 2]>| {
        // Column x of the texture has grey level 10·x.
        let pixels: Vec<u8> = (0..h)
            .flat_map(|_| {
                (0..w).flat_map(|x| [(10 * x) as u8, (10 * x) as u8, (10 * x) as u8, 255])
            })
            .collect();
        Scene {
            meshes: vec![Mesh {
                positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
                uvs,
                indices: vec![0, 1, 2],
                material: Some(0),
                ..Default::default()
            }],
            materials: vec![Material {
                texture: Some(0),
                ..Default::default()
            }],
            textures: vec![Texture {
                path: "t.png".into(),
                image: Some(TextureImage::Pixels(
                    retromodel::texture::Rgba8Image::new(w, h, pixels).unwrap(),
                )),
            }],
            ..Default::default()
        }
    };
    let options = CompileOptions {
        palette: Some(grey),
        ..CompileOptions::default()
    };
    // NaN and out-of-range coordinates on a 6×2 texture.
    let c = compile(
        &scene_with(6, 2, vec![[f32::NAN, 0.5], [7.0, -3.0], [0.5, 0.5]]),
        &options,
    )
    .unwrap();
    assert!(
        c.warnings
            .contains(&CompileWarning::UvsClamped { corners: 2 }),
        "{:?}",
        c.warnings
    );
    assert!(
        c.warnings
            .contains(&CompileWarning::SkinPadded { from: 6, to: 8 }),
        "{:?}",
        c.warnings
    );
    let d = decode(&c.model.to_bytes().unwrap());
    assert_eq!((d.skin_width, d.skin_height), (8, 2));
    // Columns 0..6 keep their grey (10·x), 6 and 7 repeat column 5.
    let row: Vec<u8> = d.skins[0][..8].to_vec();
    assert_eq!(row, [0, 10, 20, 30, 40, 50, 50, 50]);
    for t in 0..d.triangles.len() {
        for k in 0..3 {
            let st = d.corner_st(t, k);
            assert!(
                st[0] > 0.0 && st[0] < 6.0 && st[1] > 0.0 && st[1] < 2.0,
                "{st:?}"
            );
        }
    }
    // A texture taller than id's 480.
    let c = compile(
        &scene_with(4, 1000, vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
        &options,
    )
    .unwrap();
    let scaled = c
        .warnings
        .iter()
        .find(|w| matches!(w, CompileWarning::SkinScaled { .. }))
        .expect("a scaled skin is said");
    assert!(scaled.advice().is_some());
    assert_eq!(c.model.skin_height, 480);
    assert_eq!(c.model.skin_width % 4, 0);
}

/// The bounding box of a decoded frame's vertices, in Quake units.
fn frame_box(d: &Decoded, f: &DecodedFrame) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for v in &f.vertices {
        let p = d.position(v.0);
        for a in 0..3 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    (lo, hi)
}

/// id's player through the player table: the scene lifted from the
/// corpus's player.mdl, its animations shuffled, some renamed to aliases
/// and one removed, compiles back to the 143 frames in QuakeC's order. The
/// frame names are the independent reader's (`mdl/facts.json`), each
/// frame's box is the source frame's within half a step of each grid, and
/// the missing axe run shows the rocket run's frames.
#[test]
fn quake_player_table_puts_every_frame_where_quakec_expects_it() {
    let Some(corpus) = corpus() else { return };
    let name = "c0burn_progs_player.mdl";
    let src_bytes = std::fs::read(corpus.join("mdl").join(name)).unwrap();
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("mdl/facts.json")).unwrap()).unwrap();
    let want_names: Vec<&str> = facts[name]["frame_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(want_names.len(), 143);

    let mdl = Mdl::from_bytes(&src_bytes).unwrap();
    let mut scene = Scene::from_mdl(&mdl, &retromodel::mdl::MdlSceneOptions::default()).unwrap();
    // Nothing of the source MDL's own record: the names must come from
    // the table.
    scene.extras = serde_json::Value::Null;
    scene.animations.reverse();
    scene.animations.retain(|a| a.name != "axrun");
    for a in &mut scene.animations {
        a.name = match a.name.as_str() {
            "rockrun" => "Run".into(),
            "stand" => "idle".into(),
            "deatha" => "death".into(),
            "shotatt" => "SHOTATT".into(),
            other => other.into(),
        };
    }
    let c = compile(
        &scene,
        &CompileOptions {
            player: true,
            ..options(&corpus)
        },
    )
    .unwrap();
    let d = check_common(name, &c);
    let got_names: Vec<&str> = d.frames().map(|f| f.name.as_str()).collect();
    assert_eq!(got_names, want_names);
    assert!(
        c.warnings.iter().any(|w| {
            let t = w.to_string();
            t.contains("\"axrun\"") && t.contains("rockrun")
        }),
        "{:?}",
        c.warnings
    );
    // Every other entry had its animation; nothing was left out; the
    // player is a player's size.
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);

    let src = decode(&src_bytes);
    let src_frames: Vec<&DecodedFrame> = src.frames().collect();
    for (k, frame) in d.frames().enumerate() {
        // The axe run (0..6) shows the rocket run (6..12).
        let from = if k < 6 { k + 6 } else { k };
        let (lo, hi) = frame_box(&d, frame);
        let (slo, shi) = frame_box(&src, src_frames[from]);
        for a in 0..3 {
            let tol = 0.5 * d.scale[a] + 1e-3;
            assert!(
                (lo[a] - slo[a]).abs() <= tol && (hi[a] - shi[a]).abs() <= tol,
                "frame {k} ({}) axis {a}: {lo:?}..{hi:?} vs source {from}: {slo:?}..{shi:?}",
                frame.name
            );
        }
    }

    // The same player in metres is far from a player's height: a warning
    // whose advice is to fit the height.
    let c = compile(
        &scene,
        &CompileOptions {
            player: true,
            scale: Some(0.03),
            ..options(&corpus)
        },
    )
    .unwrap();
    let size = c
        .warnings
        .iter()
        .find(|w| w.to_string().contains("units tall"))
        .expect("a size warning");
    assert!(size.advice().is_some(), "{size}");
    // Frame groups cannot be asked for with the table.
    let err = compile(
        &scene,
        &CompileOptions {
            player: true,
            frame_groups: vec!["light".into()],
            ..options(&corpus)
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("player"), "{err}");
}

/// A monster laid out like the model it replaces (`frames_like`): the
/// corpus's ogre lifted, its animations reversed in the scene and its
/// `pain` animations removed, compiles back to the ogre's 147 frames in
/// QuakeC's order, named as the independent reader lists them, each frame
/// the source frame's box within half a step; the removed entries show
/// the first pose of `stand`. The flame, one frame list entry holding two
/// frame groups, gets its groups back with the file's intervals.
#[test]
fn a_monster_laid_out_like_the_model_it_replaces() {
    use retromodel::mdl::compile::FrameTable;
    let Some(corpus) = corpus() else { return };
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("mdl/facts.json")).unwrap()).unwrap();
    for name in ["c0burn_progs_ogre.mdl", "c0burn_progs_flame2.mdl"] {
        let src_bytes = std::fs::read(corpus.join("mdl").join(name)).unwrap();
        let want_names: Vec<&str> = facts[name]["frame_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        let mdl = Mdl::from_bytes(&src_bytes).unwrap();
        let mut scene =
            Scene::from_mdl(&mdl, &retromodel::mdl::MdlSceneOptions::default()).unwrap();
        scene.extras = serde_json::Value::Null;
        scene.animations.reverse();
        let before = scene.animations.len();
        scene.animations.retain(|a| !a.name.starts_with("pain"));
        let removed = before - scene.animations.len();
        let table = FrameTable::of_model(&mdl, "ogre.mdl");
        let c = compile(
            &scene,
            &CompileOptions {
                frames_like: Some(table.clone()),
                ..options(&corpus)
            },
        )
        .unwrap();
        let d = check_common(name, &c);
        let got_names: Vec<&str> = d.frames().map(|f| f.name.as_str()).collect();
        assert_eq!(got_names, want_names, "{name}");
        assert_eq!(
            c.warnings
                .iter()
                .filter(|w| w.to_string().contains("frame table of ogre.mdl"))
                .count(),
            removed,
            "{name}: {:?}",
            c.warnings
        );
        let src = decode(&src_bytes);
        // The frame list: the same entries, groups with the file's
        // intervals.
        assert_eq!(d.entries.len(), src.entries.len(), "{name}");
        for (e, s) in d.entries.iter().zip(&src.entries) {
            assert_eq!((e.0, &e.1, e.2.len()), (s.0, &s.1, s.2.len()), "{name}");
        }
        let stand = table
            .entries()
            .iter()
            .position(|e| e.0 == "stand")
            .map(|_| 0);
        let mut k = 0;
        let src_frames: Vec<&DecodedFrame> = src.frames().collect();
        for (entry, count) in table.entries() {
            for j in 0..*count {
                let from = if entry.starts_with("pain") {
                    stand.expect("the ogre stands")
                } else {
                    k + j
                };
                let frame = d.frames().nth(k + j).unwrap();
                let (lo, hi) = frame_box(&d, frame);
                let (slo, shi) = frame_box(&src, src_frames[from]);
                for a in 0..3 {
                    let tol = 0.5 * d.scale[a] + 1e-3;
                    assert!(
                        (lo[a] - slo[a]).abs() <= tol && (hi[a] - shi[a]).abs() <= tol,
                        "{name} frame {} axis {a}: {lo:?}..{hi:?} vs source {from}: {slo:?}..{shi:?}",
                        k + j
                    );
                }
            }
            k += count;
        }
    }
}
