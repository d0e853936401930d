//! MD2 → [`Scene`]: one mesh whose morph targets are the frames, one
//! animation per frame-name animation.

use serde_json::{json, Value};

use super::{normal, Md2, RenderMesh, DEFAULT_FPS, NORMAL_COUNT};
use crate::scene::{
    repair_normals, Animation, Channel, Interpolation, Material, Mesh, MorphTarget, Scene, Target,
    Texture,
};

/// Maps a Quake II vector to the scene's axes.
///
/// Quake's model axes are X forward, Y left, Z up (right-handed); glTF's
/// are +Z forward, +X left, +Y up (right-handed). So `(x, y, z)` becomes
/// `(y, z, x)`: a cyclic permutation of the axes, a proper rotation
/// (determinant +1), never a mirror. Positions and normals map alike.
///
/// ```
/// use retromodel::md2::md2_axes;
/// assert_eq!(md2_axes([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
/// ```
///
/// Quake draws the triangles whose corners run clockwise as seen from
/// outside as front faces; the scene's front faces are counter-clockwise,
/// so [`Scene::from_md2`] also reverses each triangle's corners (a rotation
/// does not change the winding).
pub fn md2_axes(v: [f32; 3]) -> [f32; 3] {
    [v[1], v[2], v[0]]
}

/// Options for [`Scene::from_md2`].
#[derive(Debug, Clone, PartialEq)]
pub struct Md2SceneOptions {
    /// Frames per second of the animations ([`DEFAULT_FPS`], Quake II's 10,
    /// by default).
    pub fps: f32,
    /// Whether each animation gets one more key, one frame after its last,
    /// going back to its first frame, so that a player looping the
    /// animation blends from the last frame to the first as Quake does.
    /// Off by default: an animation then lasts `(frames − 1) / fps`.
    pub close_loops: bool,
    /// Name of the scene and of its mesh.
    pub name: String,
}

impl Default for Md2SceneOptions {
    fn default() -> Self {
        Md2SceneOptions {
            fps: DEFAULT_FPS,
            close_loops: false,
            name: "md2".to_string(),
        }
    }
}

/// Positions and normals of frame `frame` for each mesh vertex, mapped to
/// the scene's axes. A vertex the frame lacks decodes as the origin with a
/// zero normal (only in malformed models; `validate` reports them).
fn frame_vertices(model: &Md2, mesh: &RenderMesh, frame: usize) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let Some(f) = model.frames.get(frame) else {
        return (Vec::new(), Vec::new());
    };
    mesh.source_vertices
        .iter()
        .map(|&src| match f.vertices.get(src as usize) {
            Some(v) => {
                let p = f.position(src as usize).unwrap_or_default();
                (md2_axes(p), md2_axes(normal(v.normal_index)))
            }
            None => ([0.0; 3], [0.0; 3]),
        })
        .unzip()
}

/// The morph target of frame `frame`: its positions and normals minus the
/// base's. A frame whose normals all come from the table (always unit
/// length) is decoded whole into `scratch` (the fast path of
/// [`super::Frame::decode`]) and gathered; one with a missing vertex
/// or a normal index past the table goes through [`frame_vertices`] and
/// [`repair_normals`] as the base does.
fn frame_target(
    model: &Md2,
    mesh: &RenderMesh,
    frame: usize,
    indices: &[u32],
    base: (&[[f32; 3]], &[[f32; 3]]),
    scratch: &mut (Vec<[f32; 3]>, Vec<[f32; 3]>),
) -> MorphTarget {
    let Some(f) = model.frames.get(frame) else {
        return MorphTarget::default();
    };
    let sub = |a: [f32; 3], b: &[f32; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let clean = mesh.source_vertices.iter().all(|&src| {
        f.vertices
            .get(src as usize)
            .is_some_and(|v| usize::from(v.normal_index) < NORMAL_COUNT)
    });
    let (positions, normals) = if clean {
        let count = f.vertices.len();
        scratch.0.resize(count, [0.0; 3]);
        scratch.1.resize(count, [0.0; 3]);
        f.decode(&mut scratch.0, &mut scratch.1);
        let gather = |decoded: &[[f32; 3]], base: &[[f32; 3]]| -> Vec<[f32; 3]> {
            mesh.source_vertices
                .iter()
                .zip(base)
                .map(|(&src, b)| {
                    let v = decoded.get(src as usize).copied().unwrap_or_default();
                    sub(md2_axes(v), b)
                })
                .collect()
        };
        (gather(&scratch.0, base.0), gather(&scratch.1, base.1))
    } else {
        let (p, mut n) = frame_vertices(model, mesh, frame);
        repair_normals(&p, indices, &mut n);
        let positions = p.into_iter().zip(base.0).map(|(a, b)| sub(a, b)).collect();
        let normals = n.into_iter().zip(base.1).map(|(a, b)| sub(a, b)).collect();
        (positions, normals)
    };
    MorphTarget {
        name: f.name.to_string_lossy(),
        positions,
        normals,
    }
}

/// The mesh: base = frame 0, one morph target per frame (target `k` is
/// frame `k` minus frame 0, so target 0 is all zeros and target indices are
/// frame indices), triangles reversed to counter-clockwise.
fn md2_mesh(model: &Md2, name: &str) -> Mesh {
    let render = RenderMesh::new(model);
    let indices: Vec<u32> = render
        .indices
        .chunks_exact(3)
        .flat_map(|t| [t[0], t[2], t[1]])
        .collect();
    let (positions, mut normals) = frame_vertices(model, &render, 0);
    repair_normals(&positions, &indices, &mut normals);
    let extras = md2_record(model, &render);
    let mut scratch = Default::default();
    let morph_targets = (0..model.frames.len())
        .map(|k| {
            let base = (positions.as_slice(), normals.as_slice());
            frame_target(model, &render, k, &indices, base, &mut scratch)
        })
        .collect();
    Mesh {
        name: name.to_string(),
        positions,
        normals,
        uvs: render.uvs,
        indices,
        material: Some(0),
        node: None,
        morph_targets,
        morph_weights: Vec::new(),
        skin: None,
        extras,
    }
}

/// What compiling the scene back to MD2 needs to give the same frames
/// (see `md2::compile`'s `source` module for the format): each scene
/// vertex's MD2 vertex as the vertex attribute `_MD2_VERTEX`, and the
/// frames' grids and raw names, the skin names and size, and the MD2
/// vertices no triangle uses (no scene vertex carries them) with their
/// bytes in every frame.
fn md2_record(model: &Md2, render: &RenderMesh) -> Value {
    use super::compile::{source, FrameGrid};
    let mut headers = Vec::with_capacity(40 * model.frames.len());
    for f in &model.frames {
        let grid = FrameGrid {
            scale: f.scale,
            translate: f.translate,
        };
        headers.extend_from_slice(&source::frame_header_bytes(&grid, &f.name));
    }
    let skins: Vec<String> = model.skins.iter().map(|s| s.to_string_lossy()).collect();
    let raw_skins: Vec<u8> = model.skins.iter().flat_map(|s| s.0).collect();
    let mut record = json!({
        "num_vertices": model.vertex_count(),
        "skin_width": model.skin_width,
        "skin_height": model.skin_height,
        "skins": skins,
        "skins_raw": source::to_hex(&raw_skins),
        "frame_headers": source::to_hex(&headers),
    });
    let (unused, packed) = unused_vertices(model, render);
    if !unused.is_empty() {
        record[source::UNUSED_KEY] = json!(unused);
        record[source::UNUSED_FRAMES_KEY] = json!(source::to_hex(&packed));
    }
    let raw_normals = raw_normals(model);
    if !raw_normals.is_empty() {
        record[source::RAW_NORMALS_KEY] = json!(raw_normals);
    }
    json!({
        source::MD2_KEY: record,
        "attributes": { source::VERTEX_ATTRIBUTE: render.source_vertices },
    })
}

/// Every normal index past the table (corrupt: the scene shows a
/// repaired normal) as `frame, vertex, index`, frame by frame.
fn raw_normals(model: &Md2) -> Vec<u32> {
    let mut out = Vec::new();
    for (f, frame) in model.frames.iter().enumerate() {
        for (v, p) in frame.vertices.iter().enumerate() {
            if usize::from(p.normal_index) >= NORMAL_COUNT {
                out.extend([f as u32, v as u32, u32::from(p.normal_index)]);
            }
        }
    }
    out
}

/// The MD2 vertices no scene vertex comes from (no triangle uses them),
/// in order, and their packed bytes (`x, y, z, normal index`) frame by
/// frame: what the scene cannot show but the MD2 holds. A vertex a
/// frame lacks (a malformed file) is four zero bytes.
fn unused_vertices(model: &Md2, render: &RenderMesh) -> (Vec<u32>, Vec<u8>) {
    let count = model.vertex_count();
    let mut used = vec![false; count];
    for &v in &render.source_vertices {
        if let Some(u) = used.get_mut(v as usize) {
            *u = true;
        }
    }
    let unused: Vec<u32> = (0..count as u32).filter(|&v| !used[v as usize]).collect();
    let mut packed = Vec::with_capacity(4 * unused.len() * model.frames.len());
    if !unused.is_empty() {
        for f in &model.frames {
            for &v in &unused {
                let p = f.vertices.get(v as usize).copied().unwrap_or_default();
                packed.extend_from_slice(&p.position);
                packed.push(p.normal_index);
            }
        }
    }
    (unused, packed)
}

/// One weights channel per animation: key `i` at `i / fps` puts weight 1
/// on the target of the animation's `i`-th frame and 0 on every other, with
/// linear interpolation, which is Quake's blend of two frames.
fn md2_animation(
    anim: &super::Animation,
    frame_count: usize,
    options: &Md2SceneOptions,
) -> Animation {
    let fps = if options.fps > 0.0 {
        options.fps
    } else {
        DEFAULT_FPS
    };
    let mut frames: Vec<usize> = anim.frames().filter(|&f| f < frame_count).collect();
    if options.close_loops && frames.len() > 1 {
        frames.push(frames[0]);
    }
    let times = (0..frames.len()).map(|i| i as f32 / fps).collect();
    let mut values = vec![0.0f32; frames.len() * frame_count];
    for (i, &f) in frames.iter().enumerate() {
        values[i * frame_count + f] = 1.0;
    }
    Animation {
        name: anim.name.clone(),
        channels: vec![Channel {
            target: Target::MorphWeights { mesh: 0 },
            interpolation: Interpolation::Linear,
            times,
            values,
        }],
        extras: json!({ "first_frame": anim.first_frame, "frame_count": anim.frame_count, "fps": fps }),
    }
}

impl Scene {
    /// The scene of an MD2 model.
    ///
    /// - One mesh over the unique (vertex, texture coordinate) pairs of
    ///   [`RenderMesh`], its base the first frame, mapped through
    ///   [`md2_axes`], triangles reversed to counter-clockwise.
    /// - One morph target per frame, **every** frame, as displacements from
    ///   frame 0 (target 0 is all zeros, kept so that target `k` is frame
    ///   `k`); normals too.
    /// - One animation per entry of [`Md2::animations`], stepping through
    ///   its frames at `options.fps` with linear blending.
    /// - `u = s / skin_width`, `v = t / skin_height` (no flip).
    /// - One material, textured with the first skin when there is one; every
    ///   skin becomes a [`Texture`] (path only).
    /// - The mesh's extras record what compiling the scene back
    ///   (`md2::compile`) needs to reproduce the frames byte for byte:
    ///   `extras["attributes"]["_MD2_VERTEX"]`, the MD2 vertex of each
    ///   scene vertex (the glTF exporter writes it as a vertex attribute),
    ///   and `extras["md2"]` with the frames' scale, translate and raw
    ///   names, the skin names and the skin size, the bytes of the MD2
    ///   vertices no triangle uses (which no scene vertex shows) and the
    ///   normal indices past the table (which the scene shows repaired).
    pub fn from_md2(model: &Md2, options: &Md2SceneOptions) -> Scene {
        let textures: Vec<Texture> = model
            .skins
            .iter()
            .map(|s| Texture {
                path: s.to_string_lossy(),
                image: None,
            })
            .collect();
        let material = Material {
            name: "skin".to_string(),
            texture: (!textures.is_empty()).then_some(0),
            ..Material::default()
        };
        let frame_count = model.frames.len();
        let animations = if frame_count == 0 {
            Vec::new()
        } else {
            model
                .animations()
                .iter()
                .map(|a| md2_animation(a, frame_count, options))
                .collect()
        };
        Scene {
            name: options.name.clone(),
            meshes: vec![md2_mesh(model, &options.name)],
            materials: vec![material],
            textures,
            nodes: Vec::new(),
            skins: Vec::new(),
            animations,
            extras: json!({
                "source": "MD2",
                "skin_width": model.skin_width,
                "skin_height": model.skin_height,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::md2::Md2SceneOptions;
    use crate::scene::{first_non_finite, Scene};

    #[test]
    fn names_the_first_number_that_is_not_finite() {
        let model = crate::md2::sample::sample_model();
        let mut scene = Scene::from_md2(&model, &Md2SceneOptions::default());
        assert_eq!(first_non_finite(&scene), None);
        let last = scene.meshes[0].morph_targets.len() - 1;
        scene.meshes[0].morph_targets[last].positions[2][1] = f32::NEG_INFINITY;
        assert_eq!(
            first_non_finite(&scene),
            Some((
                format!("meshes[0].morph_targets[{last}].positions[2]"),
                f32::NEG_INFINITY
            ))
        );
        scene.nodes.push(crate::scene::Node {
            rotation: [0.0, f32::NAN, 0.0, 1.0],
            ..Default::default()
        });
        scene.meshes[0].morph_targets[last].positions[2][1] = 0.0;
        let (path, x) = first_non_finite(&scene).expect("the NaN is found");
        assert_eq!(path, format!("nodes[{}].rotation", scene.nodes.len() - 1));
        assert!(x.is_nan());
    }
}
