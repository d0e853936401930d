//! Compiling any [`Scene`] into a Quake MDL (features `scene` and
//! `textures`).
//!
//! [`compile`] poses the scene for every frame (the posing, grids and
//! welding the MD2 compiler uses too, shared below both formats), puts
//! every frame on **one** grid, lays texture coordinates out per vertex
//! with the seam, quantises the skin to the palette and checks the
//! engine's limits.
//!
//! # Conventions
//!
//! - **Axes and winding** as the MD2 compiler: scene (Y up) to Quake (Z
//!   up) by a rotation, each counter-clockwise scene triangle `[a, b, c]`
//!   becomes `[a, c, b]`, Quake's clockwise front face.
//! - **Frames.** Each chosen animation is sampled at `fps` (an animation
//!   lasting `D` seconds: `round(D · fps) + 1` frames over `[0, D]`, the
//!   first at 0 and the last at `D`); no animation: one frame, the rest
//!   pose. An animation named in [`CompileOptions::frame_groups`], or
//!   whose name ends in [`GROUP_SUFFIX`], is one **frame group**: one
//!   entry of the frame list whose frames the engine plays by itself,
//!   frame `j` ending at `(j + 1) / fps` seconds. Frame names are
//!   Quake's: `run1`..`run8` (see the `names` module: at most 15 bytes of
//!   text, no digit before the number). With
//!   [`CompileOptions::player`], the frames are instead Quake's player
//!   table ([`PLAYER_FRAMES`]: the 143 frames of id's `player.mdl`, named
//!   and numbered as its QuakeC expects), each entry filled from the
//!   scene animation of its name or an alias, resampled to its count.
//! - **One grid.** Every frame shares the header's scale and origin. Per
//!   axis, the grid over all frames' positions with the smallest largest
//!   error among the bounding-box grids (`origin = min`, `scale = extent
//!   / k`, `k` in 240..=255, as qdata and modelgen do for `k = 255`) and
//!   the centred grid (`scale = extent / 256`, `origin = min + scale /
//!   2`, whose error bound `extent / 512` beats the box's `extent /
//!   510`); each position takes the byte whose decoded value is nearest. So no coordinate errs by more than half a step
//!   ([`CompileReport::max_step_fraction`] ≤ 0.5), reported in units and
//!   in steps.
//! - **Welding.** Vertices whose bytes agree in every frame are one
//!   position; triangles that then have two equal corners are left out,
//!   with a warning.
//! - **Seams** (texture coordinates per vertex, `onseam`, `facesfront`):
//!   see the `seams` module. In short, a triangle whose corners all lie in
//!   the right half of the skin faces back; a position whose back corners
//!   sit exactly half a skin right of its front corners is one onseam
//!   vertex; any other difference splits it.
//! - **Normals.** Per frame and position: the normalised sum of its
//!   source vertices' posed normals (a mesh without normals: its
//!   triangles' area-weighted normals), the nearest of the 162 table
//!   normals; `+Z` where the sum is zero.
//! - **Skin**: see the `skin` module (one image of the used materials'
//!   textures, quantised to the palette away from the fullbright indices
//!   unless the material is emissive, padded to a width that is a
//!   multiple of 4).
//! - **Header.** Scale and origin from the grid; bounding radius: the
//!   largest distance of a decoded position from the model's origin over
//!   every frame; eye position from the options (default `0 0 0`); flags
//!   and sync type from the options; `size`: the average area of the
//!   first frame's triangles (what id's modelgen stores; engines ignore
//!   it).
//! - **Limits** ([`Limits`], id's by default): frames (every simple
//!   frame), triangles and vertices (after seams split them) past the
//!   limit are an error that says by how much and what would help.

mod names;
mod options;
mod player;
mod record;
mod report;
mod seams;
mod skin;
mod table;

pub use options::{CompileOptions, Limits, GROUP_SUFFIX};
pub use player::{PLAYER_FRAMES, PLAYER_HEIGHT, PLAYER_HEIGHT_RANGE};
pub use report::{AnimationReport, CompileReport, CompileWarning};
pub use table::FrameTable;

use glam::Vec3;

use crate::advice::{Advice, Quantity, Remedy};
use crate::bake::{self, grid, limit_error, plan, weld};
use crate::error::{Error, Result};
use crate::mdl::{Frame, FrameGroup, Mdl, SimpleFrame, Skin, TriVertex, Variant, VERSION_QUAKE};
use crate::quake::nearest_normal_index;
use crate::scene::Scene;

/// What [`compile`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The model.
    pub model: Mdl,
    /// Frame counts, the grid's error, seams.
    pub report: CompileReport,
    /// What had to change.
    pub warnings: Vec<CompileWarning>,
    /// Per MDL triangle: the scene mesh and the index of the triangle
    /// among that mesh's triangles it came from (its corners `[a, b, c]`
    /// are the MDL triangle's `[a, c, b]`): what lets a caller compare the
    /// MDL with the source corner by corner.
    pub triangle_sources: Vec<(usize, usize)>,
}

/// Up to how many positions (frames × vertices) a compile keeps every
/// frame's normals from posing the frames once (4 M, 48 MB of normals),
/// rather than posing them a second time for the normals.
const KEEP_NORMALS: usize = 4_000_000;

/// The error for a model whose grid or decoded positions do not fit in
/// 32-bit floats (coordinates near ±3.4e38: the file would hold
/// infinities, which every engine and `validate` reject).
fn too_far() -> Error {
    Error::unwritable(
        "header.scale",
        "the model's coordinates span more than a 32-bit float holds once packed on one grid (byte × scale + origin would overflow): scale it down",
    )
    .advised(Advice::new(None, vec![Remedy::FitHeight { units: 56 }]))
}

/// Whether plan group `name` is to be a frame group, and its name.
fn group_name(name: &str, options: &CompileOptions) -> (bool, String) {
    if let Some(stem) = name.strip_suffix(GROUP_SUFFIX) {
        return (true, stem.to_string());
    }
    let listed = options
        .frame_groups
        .iter()
        .any(|g| g.eq_ignore_ascii_case(name));
    (listed, name.to_string())
}

/// The pose each entry of the MDL frame list [`compile`] makes with
/// `options` stands for, in order: a scene animation (or `None`, the rest
/// pose) and seconds into it. A frame group is one entry, its first pose
/// (QuakeC selects the group as one frame; the engine plays the rest by
/// itself). What the Quake rerelease's MD5 beside the MDL plays: the ports
/// draw MD5 frame `k` for MDL frame `k` (`mdl::rerelease`).
///
/// ```
/// use retromodel::mdl::compile::{frame_times, CompileOptions};
/// use retromodel::scene::Scene;
/// let scene = Scene::default();
/// // A scene without animations is one frame, the rest pose.
/// assert_eq!(frame_times(&scene, &CompileOptions::default())?, vec![(None, 0.0)]);
/// # Ok::<(), retromodel::Error>(())
/// ```
pub fn frame_times(scene: &Scene, options: &CompileOptions) -> Result<Vec<(Option<usize>, f32)>> {
    options::check_options(options)?;
    let plan = frame_plan(scene, options, &mut Vec::new())?;
    let mut times = Vec::new();
    let mut any_group = false;
    for g in &plan.groups {
        if group_name(&g.name, options).0 {
            any_group = true;
            times.extend(g.poses.first().map(|p| (p.animation, p.time)));
        } else {
            times.extend(g.poses.iter().map(|p| (p.animation, p.time)));
        }
    }
    // A scene lifted from an MDL gets its frame groups back (record.rs),
    // as does a compile laid out like a model that has groups.
    if !any_group && !options.player {
        let record = match &options.frames_like {
            Some(table) => Some(table.record().clone()),
            None => record::record_of(scene),
        };
        if let Some(starts) = record.and_then(|r| r.entry_starts(options, times.len())) {
            return Ok(starts
                .into_iter()
                .filter_map(|k| times.get(k).copied())
                .collect());
        }
    }
    Ok(times)
}

/// The poses that become frames: Quake's player table, or the chosen
/// animations sampled at `fps` (an MDL's frame groups, lifted, come back
/// one frame per key).
fn frame_plan(
    scene: &Scene,
    options: &CompileOptions,
    warnings: &mut Vec<CompileWarning>,
) -> Result<plan::Plan> {
    if options.player {
        return Ok(player::player_plan(scene, warnings));
    }
    if let Some(table) = &options.frames_like {
        // A lifted frame group fills its entry one frame per key.
        let mut plan = table.plan(scene, warnings);
        record::key_poses(scene, &mut plan, true);
        return Ok(plan);
    }
    let mut plan = plan::animations_plan(
        scene,
        &options.animations,
        options.fps,
        options.keep_source_frames,
    )?;
    record::key_poses(scene, &mut plan, false);
    Ok(plan)
}

/// Compiles `scene` into a Quake MDL (see the [module documentation](self)).
pub fn compile(scene: &Scene, options: &CompileOptions) -> Result<Compiled> {
    compile_keeping_normals(scene, options, KEEP_NORMALS)
}

/// [`compile`], keeping the frames' normals from the first posing up to
/// `keep` positions.
fn compile_keeping_normals(
    scene: &Scene,
    options: &CompileOptions,
    keep: usize,
) -> Result<Compiled> {
    options::check_options(options)?;
    let limits = options.limits;
    let Some(palette) = options.palette.as_ref() else {
        return Err(Error::InvalidOptions {
            message: "an MDL skin is palette indices: give a 256-colour palette (Quake's gfx/palette.lmp)".into(),
        })
        .map_err(|e: Error| e.advised(Advice::new(None, vec![Remedy::QuakePalette])));
    };
    let mut warnings = Vec::new();
    let plan = frame_plan(scene, options, &mut warnings)?;
    let frames = plan.frame_count();
    if frames > limits.max_frames {
        return Err(limit_error(
            "header.num_frames",
            Quantity::Frames,
            limits.max_frames,
            frames,
            limits.title,
            [Remedy::LowerFps, Remedy::FewerAnimations]
                .into_iter()
                .chain(options::engines_allowing(
                    |l| l.max_frames,
                    limits.max_frames,
                    frames,
                ))
                .collect(),
        ));
    }
    let source = bake::Source::new(scene, "MDL");
    if source.triangles.is_empty() {
        return Err(Error::InvalidOptions {
            message: "the scene has no triangles to compile".to_string(),
        });
    }
    bake::check_size(frames, source.vertices.len())?;
    let n = source.vertices.len();

    // Pose, scale.
    // Normals kept from this posing up to KEEP_NORMALS positions; past
    // that the frames are posed again for them, one at a time.
    let keep_normals = frames * n <= keep;
    let (mut positions, normals) = bake::pose_all(scene, &plan, &source, keep_normals)?;
    let scale = match (options.scale, options.fit_height) {
        (Some(s), _) => s,
        (None, Some(h)) => {
            let height = bake::height(&positions);
            if !(height.is_finite() && height > 0.0) {
                return Err(Error::InvalidOptions {
                    message: "fit_height: the model has no height to scale".to_string(),
                });
            }
            h / height
        }
        (None, None) => 1.0,
    };
    if scale != 1.0 {
        for p in &mut positions {
            *p = p.map(|x| x * scale);
        }
    }
    if options.player && options.fit_height.is_none() {
        let height = bake::height(&positions);
        if height.is_finite() && !PLAYER_HEIGHT_RANGE.contains(&height) {
            warnings.push(CompileWarning::PlayerSize { height });
        }
    }

    // One grid, quantise, weld.
    let model_grid = grid::model_grid_of(&positions);
    let (bytes, errors) = bake::quantize_all(&positions, n, &vec![model_grid; frames]);
    let grid_finite = model_grid
        .scale
        .iter()
        .chain(&model_grid.translate)
        .all(|x| x.is_finite());
    if !grid_finite || errors.iter().any(|e| !e.max_step_fraction.is_finite()) {
        return Err(too_far());
    }
    let (vertex_of, welded) = weld::by_trajectory(&bytes, n, frames);

    // Triangles in Quake's order, degenerate ones left out.
    let mut tris = Vec::with_capacity(source.triangles.len());
    let mut kept = Vec::with_capacity(source.triangles.len());
    for (t, tri) in source.triangles.iter().enumerate() {
        let w = [tri[0], tri[2], tri[1]].map(|u| vertex_of[u as usize]);
        if w[0] == w[1] || w[1] == w[2] || w[0] == w[2] {
            continue;
        }
        tris.push(w);
        kept.push(t);
    }
    let dropped = source.triangles.len() - kept.len() + source.dropped;
    if dropped > 0 {
        warnings.push(CompileWarning::TrianglesDropped { count: dropped });
    }
    if tris.len() > limits.max_triangles {
        return Err(limit_error(
            "header.num_triangles",
            Quantity::Triangles,
            limits.max_triangles,
            tris.len(),
            limits.title,
            [Remedy::Decimate]
                .into_iter()
                .chain(options::engines_allowing(
                    |l| l.max_triangles,
                    limits.max_triangles,
                    tris.len(),
                ))
                .collect(),
        ));
    }
    if tris.is_empty() {
        return Err(Error::unwritable(
            "header.num_triangles",
            "no triangles: every triangle of the scene is degenerate (its corners weld into one point or a line), so there is nothing to draw",
        ));
    }

    // Skin and texture coordinates.
    let mut used_materials: Vec<Option<usize>> = Vec::new();
    for &t in &kept {
        let m = source.materials[t];
        if !used_materials.contains(&m) {
            used_materials.push(m);
        }
    }
    let skin = skin::build(
        scene,
        &used_materials,
        palette,
        limits.max_skin_height,
        limits.max_skin_pixels,
        &mut warnings,
    )?;
    let (sw, sh) = (skin.width as i32, skin.height as i32);
    let mut clamped = 0usize;
    let mut corner_st = Vec::with_capacity(kept.len() * 3);
    for &t in &kept {
        let tri = source.triangles[t];
        for u in [tri[0], tri[2], tri[1]] {
            let ([s, tt], c) = skin.texel(source.materials[t], source.uvs[u as usize]);
            clamped += usize::from(c);
            corner_st.push([s.clamp(0, sw - 1), tt.clamp(0, sh - 1)]);
        }
    }
    if clamped > 0 {
        warnings.push(CompileWarning::UvsClamped { corners: clamped });
    }
    let seams = seams::lay_out(&tris, &corner_st, sw);
    let num_vertices = seams.welded_of.len();
    if num_vertices > limits.max_vertices {
        return Err(limit_error(
            "header.num_vertices",
            Quantity::Vertices,
            limits.max_vertices,
            num_vertices,
            limits.title,
            [Remedy::FewerSeams, Remedy::MergeVertices, Remedy::Decimate]
                .into_iter()
                .chain(options::engines_allowing(
                    |l| l.max_vertices,
                    limits.max_vertices,
                    num_vertices,
                ))
                .collect(),
        ));
    }

    // Frames.
    let mut first_copy = vec![usize::MAX; welded];
    for (u, &w) in vertex_of.iter().enumerate() {
        if first_copy[w as usize] == usize::MAX {
            first_copy[w as usize] = u;
        }
    }
    let mut sums = vec![Vec3::ZERO; welded];
    let mut simple = Vec::with_capacity(frames);
    // Each position's table normal in the frame before (none yet: an
    // index past the table).
    let mut normal_of = vec![u8::MAX; welded];
    let mut frame = |f: usize, frame_normals: &[[f32; 3]]| {
        sums.fill(Vec3::ZERO);
        for (u, &w) in vertex_of.iter().enumerate() {
            sums[w as usize] += Vec3::from(frame_normals[u]);
        }
        for (w, s) in sums.iter().enumerate() {
            // The frame before's normal is surely the answer while the
            // direction stays close to it (most vertices, frame to frame):
            // one dot product instead of a look-up.
            let unit = s.try_normalize().unwrap_or(Vec3::Z).to_array();
            normal_of[w] = crate::quake::nearest::nearest_near(unit, normal_of[w])
                .unwrap_or_else(|| nearest_normal_index(unit));
        }
        let vertices: Vec<TriVertex> = seams
            .welded_of
            .iter()
            .map(|&w| TriVertex {
                position: bytes[f * n + first_copy[w as usize]],
                normal_index: normal_of[w as usize],
            })
            .collect();
        simple.push(vertices);
    };
    if keep_normals {
        for f in 0..frames {
            frame(f, &normals[f * n..(f + 1) * n]);
        }
    } else {
        bake::for_each_frame(scene, &plan, &source, true, |f, _, nrm| frame(f, nrm))?;
    }

    // Frame list: names, groups.
    let mut group_flags = Vec::new();
    let mut wanted = Vec::new();
    for g in &plan.groups {
        let (is_group, name) = group_name(&g.name, options);
        group_flags.push(is_group);
        wanted.push((name, g.poses.len()));
    }
    let names = names::animation_names(&wanted, &mut warnings);
    let mut frame_list = Vec::new();
    let mut animations = Vec::new();
    let mut at = 0usize;
    let mut simple_iter = simple.into_iter();
    for (gi, g) in plan.groups.iter().enumerate() {
        let count = g.poses.len();
        let made: Vec<SimpleFrame> = (0..count)
            .filter_map(|k| simple_iter.next().map(|v| (k, v)))
            .map(|(k, vertices)| {
                let (bbox_min, bbox_max) = bbox(&vertices);
                SimpleFrame {
                    bbox_min,
                    bbox_max,
                    name: g.kept_name(k).map_or_else(
                        || names::frame_name(&names[gi], k + 1),
                        crate::mdl::FrameName::new,
                    ),
                    vertices,
                    vertices_low: Vec::new(),
                }
            })
            .collect();
        animations.push(AnimationReport {
            name: names[gi].clone(),
            source: g.source.clone(),
            first_frame: frame_list.len(),
            frames: count,
            group: group_flags[gi],
        });
        if group_flags[gi] {
            let all: Vec<TriVertex> = made.iter().flat_map(|f| [f.bbox_min, f.bbox_max]).collect();
            let (bbox_min, bbox_max) = bbox(&all);
            frame_list.push(Frame::Group {
                kind: 1,
                group: FrameGroup {
                    bbox_min,
                    bbox_max,
                    intervals: (1..=count).map(|j| j as f32 / options.fps).collect(),
                    frames: made,
                },
            });
        } else {
            frame_list.extend(made.into_iter().map(Frame::Single));
        }
        at += count;
    }
    debug_assert_eq!(at, frames);

    // Header facts.
    let mut model = Mdl {
        variant: Variant::Quake,
        version: VERSION_QUAKE,
        scale: model_grid.scale,
        origin: model_grid.translate,
        bounding_radius: 0.0,
        eye_position: options.eye_position.unwrap_or([0.0; 3]),
        skin_width: sw,
        skin_height: sh,
        num_vertices: num_vertices as i32,
        num_triangles: seams.triangles.len() as i32,
        num_frames: frame_list.len() as i32,
        sync_type: i32::from(options.random_sync),
        flags: options.flags,
        size: 0.0,
        skins: vec![Skin::Single(skin.indices)],
        texcoords: seams.texcoords,
        triangles: seams.triangles,
        frames: frame_list,
        trailing: Vec::new(),
    };
    let radius = model
        .simple_frames()
        .flat_map(|f| f.vertices.iter())
        .map(|&v| Vec3::from(model.decode_position(v)).length())
        .fold(0.0f32, f32::max);
    if !radius.is_finite() {
        return Err(too_far());
    }
    model.bounding_radius = radius;
    let size = model.simple_frames().next().map_or(0.0, |f| {
        let area: f32 = model
            .triangles
            .iter()
            .map(|t| {
                let p = t
                    .vertices
                    .map(|v| Vec3::from(model.decode_position(f.vertices[v as usize])));
                (p[1] - p[0]).cross(p[2] - p[0]).length() / 2.0
            })
            .sum();
        area / model.triangles.len().max(1) as f32
    });
    model.size = size;
    // What the MDL the scene was lifted from held that glTF cannot.
    if let Some(record) = record::record_of(scene) {
        record::apply(&record, &mut model, options);
    }
    if let Some(table) = &options.frames_like {
        record::apply_frames(table.record(), &mut model, options);
    }

    // Report.
    let squares: f64 = errors.iter().map(|e| f64::from(e.squares)).sum();
    let report = CompileReport {
        animations,
        simple_frames: frames,
        source_vertices: n,
        welded_vertices: welded,
        vertices: num_vertices,
        onseam_vertices: model.texcoords.iter().filter(|t| t.onseam != 0).count(),
        triangles: model.triangles.len(),
        front_triangles: model
            .triangles
            .iter()
            .filter(|t| t.faces_front != 0)
            .count(),
        step: model_grid.scale,
        max_error: errors.iter().map(|e| e.max_error).fold(0.0, f32::max),
        max_step_fraction: errors
            .iter()
            .map(|e| e.max_step_fraction)
            .fold(0.0, f32::max),
        rms_error: (squares / (3 * n * frames).max(1) as f64).sqrt() as f32,
        scale,
        skin_size: (skin.width, skin.height),
    };
    let triangle_sources = kept.iter().map(|&t| source.origins[t]).collect();
    Ok(Compiled {
        model,
        report,
        warnings,
        triangle_sources,
    })
}

/// The smallest and largest bytes of `vertices` per axis (normal bytes 0).
fn bbox(vertices: &[TriVertex]) -> (TriVertex, TriVertex) {
    let mut lo = [u8::MAX; 3];
    let mut hi = [0u8; 3];
    for v in vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v.position[k]);
            hi[k] = hi[k].max(v.position[k]);
        }
    }
    if vertices.is_empty() {
        lo = [0; 3];
    }
    (
        TriVertex {
            position: lo,
            normal_index: 0,
        },
        TriVertex {
            position: hi,
            normal_index: 0,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Animation, Channel, Interpolation, Mesh, MorphTarget, Target};
    use crate::texture::Palette;

    /// A quad that bends up by a morph target over 1 s.
    fn bending_quad() -> Scene {
        Scene {
            meshes: vec![Mesh {
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
            animations: vec![Animation {
                name: "bend".into(),
                channels: vec![Channel {
                    target: Target::MorphWeights { mesh: 0 },
                    interpolation: Interpolation::Linear,
                    times: vec![0.0, 1.0],
                    values: vec![0.0, 1.0],
                }],
                extras: serde_json::Value::Null,
            }],
            ..Default::default()
        }
    }

    #[test]
    fn posing_again_for_the_normals_makes_the_same_model() {
        let colors = std::array::from_fn(|i| [i as u8; 3]);
        let options = CompileOptions {
            palette: Some(Palette::new(colors)),
            ..CompileOptions::default()
        };
        let scene = bending_quad();
        let kept = compile_keeping_normals(&scene, &options, usize::MAX).unwrap();
        let posed_again = compile_keeping_normals(&scene, &options, 0).unwrap();
        assert_eq!(kept, posed_again);
        assert_eq!(kept.model.frames.len(), 11);
        // The quad bends: its normals change between the first and last
        // frame.
        let normals = |f: &SimpleFrame| {
            f.vertices
                .iter()
                .map(|v| v.normal_index)
                .collect::<Vec<_>>()
        };
        let frames: Vec<&SimpleFrame> = kept.model.simple_frames().collect();
        assert_ne!(normals(frames[0]), normals(frames[10]));
    }
}
