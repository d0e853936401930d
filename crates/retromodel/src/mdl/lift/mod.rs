//! MDL → [`Scene`]: one mesh whose morph targets are every simple frame,
//! one animation per frame-name run and per frame group, the skins decoded
//! with a Quake palette, fullbright texels as emission.

use std::collections::HashMap;

use serde_json::{json, Value};

mod skins;

use super::{Frame, Mdl, Variant};
use crate::quake::{animations_from_runs, normal};
use crate::scene::{
    repair_normals, AlphaMode, Animation, Channel, Interpolation, Material, Mesh, MorphTarget,
    Scene, Target, Texture, TextureImage,
};
use crate::texture::Palette;
use skins::{hex, skin_textures, SkinTextures};

/// Quake plays a model's frames at 10 per second: QuakeC's frame macros
/// (`void() army_run1 = [$run1, army_run2] {...}`) compile to `OP_STATE`,
/// which sets `nextthink = time + 0.1` (id's `WinQuake/pr_exec.c`,
/// `PR_ExecuteProgram`).
pub const DEFAULT_FPS: f32 = 10.0;

/// QuakeSpasm's (and MarkV's, QSS's, Ironwail's, vkQuake's) `MF_HOLEY`
/// flag: palette index 255 is transparent on this model's skins
/// (QuakeSpasm `Quake/gl_model.h`, used in `Mod_LoadAllSkins`).
pub const FLAG_HOLEY: i32 = 1 << 14;

/// The most bytes [`Scene::from_mdl`] gives the morph targets' positions
/// and normals (1 GiB: a real model of 65536 vertices and 256 frames
/// needs 400 MiB).
pub const MAX_MORPH_BYTES: u64 = 1 << 30;

/// The key under which a scene's extras (and its mesh's) carry what the
/// MDL holds that glTF cannot.
pub const MDL_KEY: &str = "mdl";
/// The vertex attribute holding each scene vertex's MDL vertex index.
pub const VERTEX_ATTRIBUTE: &str = "_MDL_VERTEX";

/// Maps a Quake vector to the scene's axes: Quake's X forward, Y left,
/// Z up become glTF's +Z forward, +X left, +Y up, so `(x, y, z)` becomes
/// `(y, z, x)` (a rotation, never a mirror). The same mapping as MD2's,
/// whose axes are Quake's.
///
/// ```
/// use retromodel::mdl::mdl_axes;
/// assert_eq!(mdl_axes([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
/// ```
///
/// Quake draws triangles whose corners run clockwise seen from outside as
/// front faces; the scene's run counter-clockwise, so [`Scene::from_mdl`]
/// reverses each triangle's corners.
pub fn mdl_axes(v: [f32; 3]) -> [f32; 3] {
    [v[1], v[2], v[0]]
}

/// Options for [`Scene::from_mdl`].
#[derive(Debug, Clone, PartialEq)]
pub struct MdlSceneOptions {
    /// Frames per second of the frame-name animations ([`DEFAULT_FPS`]);
    /// frame groups keep their own intervals.
    pub fps: f32,
    /// Whether each frame-name animation gets one more key, one frame
    /// after its last, back at its first frame, and each frame group's
    /// end key is its first frame rather than its last held (for looping
    /// players).
    pub close_loops: bool,
    /// Name of the scene and of its mesh.
    pub name: String,
    /// The palette the skins index (Quake's `gfx/palette.lmp`). Without
    /// it the skins stay undecoded: the textures have no image (and no
    /// path), and the scene's extras say `"palette": "missing"`.
    pub palette: Option<Palette>,
}

impl Default for MdlSceneOptions {
    fn default() -> Self {
        MdlSceneOptions {
            fps: DEFAULT_FPS,
            close_loops: false,
            name: "mdl".to_string(),
            palette: None,
        }
    }
}

/// The scene's vertices: one per distinct (MDL vertex, skin `s`, `t`)
/// after the seam rule, and the triangles over them in file order.
struct Corners {
    /// Each scene vertex's MDL vertex.
    source: Vec<u32>,
    /// Each scene vertex's texture coordinates.
    uvs: Vec<[f32; 2]>,
    /// Three scene vertices per kept triangle, as stored (clockwise).
    indices: Vec<u32>,
    /// Triangles left out: a vertex or texture coordinate index out of
    /// range (only in malformed files; `validate` reports them).
    skipped: Vec<u32>,
}

/// The seam rule and GLQuake's texel centres, as id's `BuildTris`
/// (`WinQuake/gl_mesh.c`, called by `GL_MakeAliasModelDisplayLists`) and
/// Hexen II's (uHexen2 `engine/h2shared/gl_mesh.c`) compute them: an
/// onseam coordinate on a triangle that does not face front moves right
/// by `skinwidth / 2` (integer division), then `u = (s + 0.5) / width`,
/// `v = (t + 0.5) / height`.
fn corners(model: &Mdl, vertex_count: usize) -> Corners {
    let w = model.skin_width;
    let h = model.skin_height;
    let (fw, fh) = (w.max(1) as f32, h.max(1) as f32);
    let mut map: HashMap<(u32, i32, i32), u32> = HashMap::new();
    let mut out = Corners {
        source: Vec::new(),
        uvs: Vec::new(),
        indices: Vec::with_capacity(3 * model.triangles.len()),
        skipped: Vec::new(),
    };
    for (ti, tri) in model.triangles.iter().enumerate() {
        let mut corner = [0u32; 3];
        let mut ok = true;
        for (k, slot) in corner.iter_mut().enumerate() {
            let v = tri.vertices[k];
            let tc = match model.variant {
                Variant::Hexen2 => tri.texcoords[k],
                _ => v,
            };
            let vi = usize::try_from(v).ok().filter(|&v| v < vertex_count);
            let st = usize::try_from(tc)
                .ok()
                .and_then(|i| model.texcoords.get(i));
            let (Some(vi), Some(st)) = (vi, st) else {
                ok = false;
                break;
            };
            let mut s = st.s;
            if st.onseam != 0 && tri.faces_front == 0 {
                s = s.saturating_add(w / 2);
            }
            let key = (vi as u32, s, st.t);
            let next = out.source.len() as u32;
            *slot = *map.entry(key).or_insert_with(|| {
                out.source.push(vi as u32);
                out.uvs
                    .push([(s as f32 + 0.5) / fw, (st.t as f32 + 0.5) / fh]);
                next
            });
        }
        if ok {
            out.indices.extend(corner);
        } else {
            out.skipped.push(ti as u32);
        }
    }
    out
}

/// One simple frame's positions and normals for each scene vertex, in
/// the scene's axes (a vertex the frame lacks: the origin, zero normal).
/// A QuakeForge 16-bit frame adds its low bytes: `low × scale / 256`, as
/// FTE's `Q1MDL_LoadPoseQF16` (`engine/common/com_mesh.c`) does.
fn frame_vertices(
    model: &Mdl,
    frame: &super::SimpleFrame,
    source: &[u32],
) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    source
        .iter()
        .map(|&v| match frame.vertices.get(v as usize) {
            Some(p) => {
                let mut pos = model.decode_position(*p);
                if let Some(low) = frame.vertices_low.get(v as usize) {
                    for ((p, &l), s) in pos.iter_mut().zip(&low.position).zip(model.scale) {
                        *p += f32::from(l) * (s / 256.0);
                    }
                }
                (mdl_axes(pos), mdl_axes(normal(p.normal_index)))
            }
            None => ([0.0; 3], [0.0; 3]),
        })
        .unzip()
}

/// The mesh: base = the first simple frame, one morph target per simple
/// frame (target `k` is simple frame `k` minus the base), triangles
/// reversed to counter-clockwise.
fn mdl_mesh(model: &Mdl, name: &str, c: &Corners, extras: Value) -> Mesh {
    let indices: Vec<u32> = c
        .indices
        .chunks_exact(3)
        .flat_map(|t| [t[0], t[2], t[1]])
        .collect();
    let (positions, mut normals) = match model.simple_frames().next() {
        Some(f) => frame_vertices(model, f, &c.source),
        None => (
            vec![[0.0; 3]; c.source.len()],
            vec![[0.0; 3]; c.source.len()],
        ),
    };
    repair_normals(&positions, &indices, &mut normals);
    let sub = |a: [f32; 3], b: &[f32; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let morph_targets = model
        .simple_frames()
        .map(|f| {
            let (p, mut n) = frame_vertices(model, f, &c.source);
            repair_normals(&p, &indices, &mut n);
            MorphTarget {
                name: f.name.to_string_lossy(),
                positions: p
                    .into_iter()
                    .zip(&positions)
                    .map(|(a, b)| sub(a, b))
                    .collect(),
                normals: n
                    .into_iter()
                    .zip(&normals)
                    .map(|(a, b)| sub(a, b))
                    .collect(),
            }
        })
        .collect();
    Mesh {
        name: name.to_string(),
        positions,
        normals,
        uvs: c.uvs.clone(),
        indices,
        material: Some(0),
        node: None,
        morph_targets,
        morph_weights: Vec::new(),
        skin: None,
        extras,
    }
}

/// A weights channel's values: key `i` puts weight 1 on target
/// `frames[i]`, 0 on every other.
fn one_hot(frames: &[usize], targets: usize) -> Vec<f32> {
    let mut values = vec![0.0f32; frames.len() * targets];
    for (i, &f) in frames.iter().enumerate() {
        values[i * targets + f] = 1.0;
    }
    values
}

/// Key times of a frame group: frame `k` shows from interval `k − 1`
/// (0 for the first) until interval `k`, its END time, and the group
/// loops after the last interval. That is id's software renderer
/// (`WinQuake/r_alias.c`, `R_AliasSetupFrame`: the frame shown is the
/// first whose interval exceeds the time modulo the last interval).
/// GLQuake (`WinQuake/gl_rmain.c`, `R_SetupAliasFrame`) shows each frame
/// for the FIRST interval only; the ports since follow the file's
/// intervals. The times end with one more key, at the last interval:
/// the last frame held, or (with `close_loops`) the first again, as the
/// engine loops the group. Intervals that are not positive, finite and
/// increasing (a malformed file) give `None`.
fn group_times(intervals: &[f32]) -> Option<Vec<f32>> {
    let mut prev = 0.0f32;
    for &t in intervals {
        if !(t.is_finite() && t > prev) {
            return None;
        }
        prev = t;
    }
    let mut times = Vec::with_capacity(intervals.len() + 1);
    times.push(0.0);
    times.extend_from_slice(intervals);
    Some(times)
}

/// The animations: each run of single frames named alike (the shared
/// frame-name rule) stepped at `fps`, and each frame group on its own
/// intervals (step interpolation: the engine does not blend a group's
/// frames).
fn mdl_animations(model: &Mdl, targets: usize, options: &MdlSceneOptions) -> Vec<Animation> {
    let fps = if options.fps.is_finite() && options.fps > 0.0 {
        options.fps
    } else {
        DEFAULT_FPS
    };
    let mut out: Vec<Animation> = Vec::new();
    // Runs of single frames: (simple index of each, names).
    let mut run: Vec<(usize, String)> = Vec::new();
    let flush = |run: &mut Vec<(usize, String)>, out: &mut Vec<Animation>| {
        let names: Vec<&str> = run.iter().map(|(_, n)| n.as_str()).collect();
        for a in animations_from_runs(names) {
            let mut frames: Vec<usize> = run[a.frames()].iter().map(|(k, _)| *k).collect();
            let first = frames[0];
            if options.close_loops && frames.len() > 1 {
                frames.push(first);
            }
            out.push(Animation {
                name: a.name,
                channels: vec![Channel {
                    target: Target::MorphWeights { mesh: 0 },
                    interpolation: Interpolation::Linear,
                    times: (0..frames.len()).map(|i| i as f32 / fps).collect(),
                    values: one_hot(&frames, targets),
                }],
                extras: json!({ "first_frame": first, "frame_count": a.frame_count, "fps": fps }),
            });
        }
        run.clear();
    };
    let mut simple = 0usize;
    for (top, frame) in model.frames.iter().enumerate() {
        match frame {
            Frame::Single(f) => {
                run.push((simple, f.name.to_string_lossy()));
                simple += 1;
            }
            Frame::Group { group, .. } => {
                flush(&mut run, &mut out);
                let n = group.frames.len();
                let first = simple;
                simple += n;
                if n == 0 {
                    continue;
                }
                let names: Vec<String> = group
                    .frames
                    .iter()
                    .map(|f| f.name.to_string_lossy())
                    .collect();
                let name = animations_from_runs(names.iter().map(String::as_str))
                    .into_iter()
                    .next()
                    .map_or_else(|| format!("group{top}"), |a| a.name);
                let valid = group.intervals.len() == n;
                let (times, fallback) = match group_times(&group.intervals).filter(|_| valid) {
                    Some(t) => (t, false),
                    None => ((0..=n).map(|i| i as f32 / fps).collect(), true),
                };
                let mut frames: Vec<usize> = (first..first + n).collect();
                // The end key: the group starts over (a looping player's
                // view, `close_loops`) or holds its last frame.
                frames.push(if options.close_loops {
                    first
                } else {
                    first + n - 1
                });
                out.push(Animation {
                    name,
                    channels: vec![Channel {
                        target: Target::MorphWeights { mesh: 0 },
                        interpolation: Interpolation::Step,
                        times,
                        values: one_hot(&frames, targets),
                    }],
                    extras: json!({
                        "first_frame": first,
                        "frame_count": n,
                        "frame_group": top,
                        "intervals": group.intervals,
                        "intervals_unusable": fallback,
                    }),
                });
            }
        }
    }
    flush(&mut run, &mut out);
    // Unique names: a group may share a run's prefix.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for a in &mut out {
        let count = seen.entry(a.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            let mut k = *count;
            let mut name = format!("{}_{k}", a.name);
            while seen.contains_key(&name) {
                k += 1;
                name = format!("{}_{k}", a.name);
            }
            seen.insert(name.clone(), 1);
            a.name = name;
        }
    }
    out
}

/// What the MDL holds that the scene's own fields cannot: the header's
/// fields as stored, every simple frame's raw 16-byte name and bounding
/// box (8 bytes: min then max, each x y z normal), the frame and skin
/// structure (groups with their kind and intervals), the triangles'
/// facesfront flags and the texture coordinates as stored (onseam, s, t),
/// the bytes after the last frame, and the palette indices of any skin
/// image whose colours would not give them back (`skin_indices`, by
/// texture; see `skins::nearest_recovers`).
fn mdl_record(model: &Mdl, c: &Corners, skins: &SkinTextures, palette: bool) -> Value {
    let mut names = Vec::new();
    let mut boxes = Vec::new();
    for f in model.simple_frames() {
        names.extend_from_slice(&f.name.0);
        for b in [f.bbox_min, f.bbox_max] {
            boxes.extend_from_slice(&b.position);
            boxes.push(b.normal_index);
        }
    }
    let frames: Vec<Value> = model
        .frames
        .iter()
        .map(|f| match f {
            Frame::Single(_) => json!({ "kind": 0, "count": 1 }),
            Frame::Group { kind, group } => {
                let mut b = Vec::new();
                for v in [group.bbox_min, group.bbox_max] {
                    b.extend_from_slice(&v.position);
                    b.push(v.normal_index);
                }
                json!({
                    "kind": kind,
                    "count": group.frames.len(),
                    "intervals": group.intervals,
                    "bbox": hex(&b),
                })
            }
        })
        .collect();
    let texcoords: Vec<i32> = model
        .texcoords
        .iter()
        .flat_map(|t| [t.onseam, t.s, t.t])
        .collect();
    let faces_front: Vec<i32> = model.triangles.iter().map(|t| t.faces_front).collect();
    let mut record = json!({
        "variant": match model.variant {
            Variant::Hexen2 => "hexen2",
            Variant::QuakeForge16 => "quakeforge16",
            Variant::QTest => "qtest",
            _ => "quake",
        },
        "version": model.version,
        "scale": model.scale,
        "origin": model.origin,
        "bounding_radius": model.bounding_radius,
        "eye_position": model.eye_position,
        "skin_width": model.skin_width,
        "skin_height": model.skin_height,
        "num_vertices": model.num_vertices,
        "num_triangles": model.num_triangles,
        "num_frames": model.num_frames,
        "sync_type": model.sync_type,
        "flags": model.flags,
        "size": model.size,
        "frame_names": hex(&names),
        "frame_bboxes": hex(&boxes),
        "frames": frames,
        "skins": skins.layout,
        "texcoords": texcoords,
        "faces_front": faces_front,
        "palette": if palette { "given" } else { "missing" },
    });
    if model.variant == Variant::Hexen2 {
        let tc: Vec<i32> = model.triangles.iter().flat_map(|t| t.texcoords).collect();
        record["triangle_texcoords"] = json!(tc);
    }
    if !model.trailing.is_empty() {
        record["trailing"] = json!(hex(&model.trailing));
    }
    if !c.skipped.is_empty() {
        record["skipped_triangles"] = json!(c.skipped);
    }
    if !skins.undecodable.is_empty() {
        record["undecodable_textures"] = json!(skins.undecodable);
    }
    if !skins.indices.is_empty() {
        let map: serde_json::Map<String, Value> = skins
            .indices
            .iter()
            .map(|(t, h)| (t.to_string(), json!(h)))
            .collect();
        record["skin_indices"] = Value::Object(map);
    }
    record
}

impl Scene {
    /// The scene of a Quake (or Hexen II) MDL model.
    ///
    /// - One mesh over the distinct (vertex, texture coordinate) pairs,
    ///   after the seam rule: on a triangle whose `faces_front` is 0, an
    ///   onseam coordinate's `s` moves by half the skin width. `u = (s +
    ///   0.5) / width`, `v = (t + 0.5) / height`, as GLQuake samples
    ///   (id's `gl_mesh.c`, `BuildTris`). Positions `byte × scale +
    ///   origin` through [`mdl_axes`], triangles reversed to
    ///   counter-clockwise.
    /// - One morph target per **simple** frame, frame groups flattened in
    ///   file order (target `k` is simple frame `k` minus the first; target
    ///   0 is zeros), normals too.
    /// - Animations: each run of single frames named alike
    ///   ([`animations_from_runs`]) at
    ///   `options.fps` with linear blending, and each frame group on its
    ///   intervals with step keys (interval `k` is frame `k`'s end time).
    /// - Textures: every image of every skin, decoded with
    ///   `options.palette`, in file order; the material uses the first,
    ///   and the first's fullbright texels (indices 224–255, on black)
    ///   are its emissive texture (factor 1). A skin group's other images
    ///   are textures no material uses (a glTF keeps them as images);
    ///   which textures each skin is and a group's intervals are in the
    ///   extras. With `MF_HOLEY` ([`FLAG_HOLEY`]) index 255 is transparent
    ///   and the material alpha-tested. Without a palette the textures
    ///   have no image.
    /// - The mesh's extras: `attributes._MDL_VERTEX` (each scene vertex's
    ///   MDL vertex); the scene's extras: `source: "MDL"` and under `mdl`
    ///   the header's fields as stored (flags, synctype, eye position,
    ///   bounding radius, size ...), the raw frame names (with the bytes
    ///   after their NUL), bounding boxes, frame and skin structure,
    ///   texture coordinates and facesfront flags as stored, trailing
    ///   bytes, and the palette indices of skin images that use the
    ///   second of a palette's duplicate colours (the colours alone would
    ///   not give them back).
    ///
    /// Fails only when the morph targets would take more than
    /// [`MAX_MORPH_BYTES`] (a hostile file: few bytes per frame, many
    /// distinct vertex and texture coordinate pairs).
    pub fn from_mdl(model: &Mdl, options: &MdlSceneOptions) -> crate::Result<Scene> {
        let vertex_count = model
            .simple_frames()
            .map(|f| f.vertices.len())
            .max()
            .unwrap_or(0)
            .max(usize::try_from(model.num_vertices).unwrap_or(0));
        let c = corners(model, vertex_count);
        let frames = model.simple_frames().count() as u64;
        let need = frames
            .saturating_mul(c.source.len() as u64)
            .saturating_mul(24);
        if need > MAX_MORPH_BYTES {
            return Err(crate::Error::InvalidScene {
                path: "meshes[0].morph_targets".to_string(),
                message: format!(
                    "{frames} frames of {} vertices would take {need} bytes, over the {} MiB limit",
                    c.source.len(),
                    MAX_MORPH_BYTES >> 20
                ),
            });
        }
        let skins = skin_textures(model, options.palette.as_ref(), &options.name);
        let record = mdl_record(model, &c, &skins, options.palette.is_some());
        let mesh_extras = json!({ "attributes": { VERTEX_ATTRIBUTE: c.source } });
        let mesh = mdl_mesh(model, &options.name, &c, mesh_extras);
        let targets = mesh.morph_targets.len();
        let mut textures = skins.textures;
        let has_image = textures.first().is_some_and(Texture::has_image);
        let mut material = Material {
            name: "skin".to_string(),
            texture: has_image.then_some(0),
            ..Material::default()
        };
        if model.flags & FLAG_HOLEY != 0 {
            material.alpha_mode = AlphaMode::Mask { cutoff: 0.5 };
        }
        if let Some((path, glow)) = skins.glow {
            textures.push(Texture {
                path,
                image: Some(TextureImage::Pixels(glow)),
            });
            material.emissive = [1.0; 3];
            material.emissive_texture = Some(textures.len() - 1);
        }
        let animations = if targets == 0 {
            Vec::new()
        } else {
            mdl_animations(model, targets, options)
        };
        Ok(Scene {
            name: options.name.clone(),
            meshes: vec![mesh],
            materials: vec![material],
            textures,
            nodes: Vec::new(),
            skins: Vec::new(),
            animations,
            extras: json!({ "source": "MDL", MDL_KEY: record }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdl::{FrameGroup, SimpleFrame, TriVertex};

    fn grouped(intervals: Vec<f32>) -> Mdl {
        let frame = |x: u8| SimpleFrame {
            vertices: vec![TriVertex {
                position: [x, 0, 0],
                normal_index: 5,
            }],
            ..SimpleFrame::default()
        };
        Mdl {
            scale: [1.0; 3],
            num_vertices: 1,
            frames: vec![
                Frame::Single(frame(9)),
                Frame::Group {
                    kind: 1,
                    group: FrameGroup {
                        intervals,
                        frames: vec![frame(1), frame(2), frame(3)],
                        ..FrameGroup::default()
                    },
                },
            ],
            ..Mdl::default()
        }
    }

    /// The key frame of each key of the group's one channel.
    fn keys(a: &Animation, targets: usize) -> Vec<usize> {
        a.channels[0]
            .values
            .chunks(targets)
            .map(|w| w.iter().position(|&x| x == 1.0).unwrap())
            .collect()
    }

    #[test]
    fn a_frame_group_plays_on_its_intervals_as_end_times() {
        let model = grouped(vec![0.1, 0.3, 0.35]);
        let scene = Scene::from_mdl(&model, &MdlSceneOptions::default()).unwrap();
        let group = &scene.animations[1];
        let c = &group.channels[0];
        assert_eq!(c.interpolation, Interpolation::Step);
        // Frame k from interval k − 1 (0 first) to interval k; the last held.
        assert_eq!(c.times, [0.0, 0.1, 0.3, 0.35]);
        assert_eq!(keys(group, 4), [1, 2, 3, 3]);
        // A looping player's view: the group starts over at its end.
        let looping = MdlSceneOptions {
            close_loops: true,
            ..MdlSceneOptions::default()
        };
        let scene = Scene::from_mdl(&model, &looping).unwrap();
        assert_eq!(keys(&scene.animations[1], 4), [1, 2, 3, 1]);
    }

    #[test]
    fn unusable_intervals_fall_back_to_tenths_and_say_so() {
        for bad in [
            vec![0.1, 0.1, 0.2],
            vec![0.0, 0.1, 0.2],
            vec![0.1, f32::NAN, 0.3],
            vec![0.1],
        ] {
            let scene =
                Scene::from_mdl(&grouped(bad.clone()), &MdlSceneOptions::default()).unwrap();
            let group = &scene.animations[1];
            assert_eq!(group.channels[0].times, [0.0, 0.1, 0.2, 0.3], "{bad:?}");
            assert_eq!(group.extras["intervals_unusable"], true);
        }
    }
}
