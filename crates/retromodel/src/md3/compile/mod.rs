//! Compiling any [`Scene`] into a Quake III MD3 (feature `scene`).
//!
//! [`compile`] poses the scene for every frame (the posing the MD2 and
//! MDL compilers use, shared below the formats in `bake`), writes each
//! scene mesh as one surface, welds its vertices, stores positions in
//! MD3's 1/64-unit fixed point, places the tags and checks the format's
//! and the engine's limits.
//!
//! ```
//! use retromodel::md3::compile::{compile, CompileOptions};
//! use retromodel::scene::{Mesh, Scene};
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let scene = Scene {
//!     meshes: vec![Mesh {
//!         name: "body".into(),
//!         positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
//!         indices: vec![0, 1, 2],
//!         ..Mesh::default()
//!     }],
//!     ..Scene::default()
//! };
//! let compiled = compile(&scene, &CompileOptions::default())?;
//! assert_eq!(compiled.model.surfaces.len(), 1);
//! assert_eq!(compiled.model.frames.len(), 1);
//! assert!(compiled.report.max_error <= 1.0 / 128.0);
//! let bytes = compiled.model.to_bytes()?;
//! assert_eq!(&bytes[..4], b"IDP3");
//! # Ok(()) }
//! ```
//!
//! # Conventions
//!
//! - **Axes and winding.** Scene positions (glTF's: Y up) map to Quake's
//!   axes (Z up) by the inverse of [`md3_axes`], a rotation; each
//!   counter-clockwise scene triangle `[a, b, c]` becomes `[a, c, b]`,
//!   the clockwise front face ioquake3 draws (`R_LoadMD3` copies the
//!   indices as stored; the lift reverses them back). Texture
//!   coordinates are written as they are: MD3's `st` and glTF's UV both
//!   have `t` = 0 at the image's top.
//! - **Frames.** Each chosen animation (all, in scene order, by default)
//!   is sampled at `fps` (default [`DEFAULT_FPS`], 15: what most
//!   `animation.cfg` lines give): an animation lasting `D` seconds is
//!   `round(D · fps) + 1` frames over `[0, D]`, the first at 0 and the
//!   last at `D`; no animation: one frame, the rest pose.
//!   [`CompileReport::animations`] lists each animation's first frame and
//!   frame count, what an `animation.cfg` line needs. Frame names are the
//!   animation's name and the frame's number from 1 (`walk1`..`walk12`),
//!   printable ASCII, cut to fit 15 bytes.
//! - **Surfaces.** Each scene mesh with a triangle is one surface, in
//!   scene order, named after the mesh (else its material, else
//!   `surfaceN`); its one shader is the path of its material's texture
//!   (empty without one: a `.skin` file then names the image). Names longer than 63 bytes
//!   (64 with the NUL, `MAX_QPATH`) are cut, with a
//!   [`CompileWarning::NameCut`].
//! - **Welding.** Within a surface, vertices are one MD3 vertex when
//!   their stored positions and normals are the same in every frame and
//!   their texture coordinates are the same; a triangle whose corners then
//!   coincide is left out (with a warning).
//! - **Positions.** Each coordinate (scaled) × 64, rounded to the nearest
//!   `i16`: no coordinate errs by more than 1/128 unit
//!   ([`CompileReport::max_error`], measured against the baked
//!   positions). A coordinate beyond −512..511.98 units does not fit and
//!   is an error advising a smaller scale.
//! - **Normals.** Each vertex's posed normal (a mesh without normals:
//!   its triangles' area-weighted normals), encoded with
//!   [`encode_normal`].
//! - **Frame records.** Per frame the bounding box of its stored
//!   positions, `localOrigin` 0 and as radius the length of the box's
//!   corner farthest from the origin per axis (`RadiusFromBounds`), as
//!   Quake III's tools write them (439 of the 476 first three frames of
//!   OpenArena's MD3s have `localOrigin` 0 and exactly that radius; all
//!   have `localOrigin` 0): ioquake3 culls with a sphere of that radius
//!   around `localOrigin`, which then holds every vertex.
//! - **Tags.** Each node named `tag_*` (ASCII case-insensitive, the first
//!   of each name) is a tag, in node order: its scene-space transform at
//!   each frame, brought to Quake's axes as the mesh is (`A⁻¹ · M · A`
//!   with `A` the lift's [`md3_axes`]): the origin (scaled) and the
//!   node's local +Z, +X and +Y axes as forward, left and up, normalised.
//! - **Size.** Scene units times [`CompileOptions::scale`], or scaled
//!   so that all frames' bounding box is [`CompileOptions::fit_height`]
//!   units tall; about the origin.
//! - **Splitting.** A surface past the per-surface vertex or triangle
//!   limit (the engine's, else the format's) is split, when
//!   [`CompileOptions::split_surfaces`] (the default), into parts of the
//!   same name and shader, triangles in order, a new part begun where the
//!   next triangle would pass a limit (a [`CompileWarning::SurfaceSplit`]):
//!   a `.skin` line naming the surface skins every part.
//! - **Limits.** The format's `MD3_MAX_*` ([`limits`])
//!   and the [`CompileOptions::engine`]'s loader (ioquake3 by default:
//!   fewer than 1000 vertices and 2000 triangles per surface): past one,
//!   an error naming the limit, by how much, and what would help.
//!
//! [`md3_axes`]: crate::md3::md3_axes

mod options;
mod origin;
mod player;
mod player_plan;
mod report;
mod split;
mod tags;

pub use options::{CompileOptions, DEFAULT_FPS};
pub use player::{compile_player, CompiledPlayer, PlayerNote, PlayerOptions, PlayerReport};
pub use player_plan::{LineSource, PlayerLine, FALLBACK};
pub use report::{AnimationReport, CompileReport, CompileWarning, SurfaceReport};

use std::collections::HashMap;

use crate::advice::{Advice, Quantity, Remedy};
use crate::bake::{self, limit_error, plan};
use crate::error::{Error, Result};
use crate::md3::{
    encode_normal, limits, Frame, FrameName, Md3, QPath, Shader, Surface, XyzNormal, MAGIC,
};
use crate::scene::Scene;

/// What [`compile`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The model (write it with [`Md3::to_bytes`]).
    pub model: Md3,
    /// Frames, surfaces, the fixed point's error.
    pub report: CompileReport,
    /// What had to change.
    pub warnings: Vec<CompileWarning>,
    /// Per surface, per MD3 triangle: the scene mesh and the index of the
    /// triangle among that mesh's triangles it came from (its corners
    /// `[a, b, c]` are the MD3 triangle's `[a, c, b]`).
    pub triangle_sources: Vec<Vec<(usize, usize)>>,
}

/// The tighter of the format's limit and the engine's: `(max, whose)`.
fn tighter(format: usize, engine: Option<(usize, &'static str)>) -> (usize, &'static str) {
    match engine {
        Some((e, title)) if e < format => (e, title),
        _ => (format, "MD3"),
    }
}

/// Checks `actual` against the format's `format_max` and the engine's.
fn check(
    path: &str,
    quantity: Quantity,
    actual: usize,
    format_max: usize,
    engine_max: Option<(usize, &'static str)>,
    remedies: Vec<Remedy>,
) -> Result<()> {
    let (max, title) = tighter(format_max, engine_max);
    if actual > max {
        return Err(limit_error(path, quantity, max, actual, title, remedies));
    }
    Ok(())
}

/// `text` as a 64-byte name: printable as given, cut to 63 bytes (at a
/// character boundary) so a NUL ends it, with a warning when cut.
fn qpath(field: String, text: &str, warnings: &mut Vec<CompileWarning>) -> QPath {
    let mut end = text.len().min(crate::md3::MAX_QPATH - 1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if end < text.len() {
        warnings.push(CompileWarning::NameCut {
            field,
            from: text.to_string(),
            to: text[..end].to_string(),
        });
    }
    QPath::new(&text[..end])
}

/// Frame `k` (from 1) of animation `name`: printable ASCII, 15 bytes.
fn frame_name(name: &str, k: usize) -> FrameName {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
        .collect();
    let number = k.to_string();
    let room = 15usize.saturating_sub(number.len());
    let stem: String = clean.chars().take(room).collect();
    FrameName::new(&format!("{stem}{number}"))
}

/// The error for a coordinate that does not fit MD3's 16 bits.
fn too_far(value: f32, frame: usize) -> Error {
    Error::unwritable(
        format!("frames[{frame}]"),
        format!(
            "a coordinate of {value} units is beyond MD3's range of -512..511.98 units (16 bits of 1/64 unit): scale the model down"
        ),
    )
    .advised(Advice::new(None, vec![Remedy::FitHeight { units: 56 }]))
}

/// Compiles `scene` into an MD3 (see the [module documentation](self)).
pub fn compile(scene: &Scene, options: &CompileOptions) -> Result<Compiled> {
    options::check_options(options)?;
    let plan = plan::animations_plan(
        scene,
        &options.animations,
        options.fps,
        options.keep_source_frames,
    )?;
    let whole = Selection {
        meshes: vec![true; scene.meshes.len()],
        tags: tags::tag_nodes(scene, |_| true)
            .into_iter()
            .map(|n| (n, scene.nodes[n].name.clone()))
            .collect(),
        origin: None,
        shaders_from_extras: false,
        allow_empty: false,
    };
    compile_planned(scene, options, &plan, &whole)
}

/// What of a scene one compile takes: a Quake III player's part, or all.
pub(crate) struct Selection {
    /// Per scene mesh: whether it takes part.
    pub meshes: Vec<bool>,
    /// The tags, in the order written: each a node and the name written.
    pub tags: Vec<(usize, String)>,
    /// The node whose frame (as posed in each frame, see `origin`) the
    /// model is stored in; `None`: scene space.
    pub origin: Option<usize>,
    /// Name each surface's shader after its material's first
    /// `md3_shaders` extra (what the lift kept) when it has one, rather
    /// than after its texture (a player's `.skin` names the image).
    pub shaders_from_extras: bool,
    /// Write a model of no surface (only tags) when nothing selected has
    /// a triangle, rather than fail.
    pub allow_empty: bool,
}

/// [`compile`] of the frames `plan` lays out, of what `part` selects.
pub(crate) fn compile_planned(
    scene: &Scene,
    options: &CompileOptions,
    plan: &plan::Plan,
    part: &Selection,
) -> Result<Compiled> {
    let engine = options.engine.and_then(|e| e.md3_limits().map(|l| (e, l)));
    let engine_max =
        |f: fn(&crate::md3::Md3EngineLimits) -> Option<usize>| -> Option<(usize, &'static str)> {
            engine.and_then(|(e, l)| f(&l).map(|m| (m, e.title())))
        };
    let mut warnings = Vec::new();
    let frames = plan.frame_count();
    check(
        "header.num_frames",
        Quantity::Frames,
        frames,
        limits::MAX_FRAMES,
        engine_max(|l| l.max_frames),
        vec![Remedy::LowerFps, Remedy::FewerAnimations],
    )?;
    let source = bake::Source::of_meshes(scene, "MD3", |m| {
        part.meshes.get(m).copied().unwrap_or(false)
    });
    if source.triangles.is_empty() && !part.allow_empty {
        return Err(Error::InvalidOptions {
            message: "the scene has no triangles to compile".to_string(),
        });
    }
    bake::check_size(frames, source.vertices.len())?;
    let n = source.vertices.len();
    let (mut positions, mut normals) = bake::pose_all(scene, plan, &source, true)?;
    let inverses = match part.origin {
        Some(node) => {
            let inverses = origin::inverse_frames(scene, plan, node)?;
            origin::apply(&inverses, &mut positions, &mut normals, n);
            Some(inverses)
        }
        None => None,
    };
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

    // Fixed point, normals, error.
    let mut stored = Vec::with_capacity(positions.len());
    let (mut max_error, mut squares) = (0.0f32, 0.0f64);
    for (i, (p, nrm)) in positions.iter().zip(&normals).enumerate() {
        let mut xyz = [0i16; 3];
        for k in 0..3 {
            let q = (p[k] * 64.0).round();
            if !(q >= f32::from(i16::MIN) && q <= f32::from(i16::MAX)) {
                return Err(too_far(p[k], i / n));
            }
            xyz[k] = q as i16;
            let e = (f32::from(xyz[k]) / 64.0 - p[k]).abs();
            max_error = max_error.max(e);
            squares += f64::from(e) * f64::from(e);
        }
        stored.push(XyzNormal {
            xyz,
            normal: encode_normal(*nrm),
        });
    }

    // Surfaces: one per scene mesh, over its run of triangles.
    let mut surfaces = Vec::new();
    let mut surface_reports = Vec::new();
    let mut triangle_sources = Vec::new();
    let mut dropped = source.dropped;
    let mut t = 0;
    while t < source.triangles.len() {
        let mesh = source.origins[t].0;
        let end = (t..source.triangles.len())
            .find(|&k| source.origins[k].0 != mesh)
            .unwrap_or(source.triangles.len());
        let s = surfaces.len();
        let (surface, sources, lost, report) = surface(
            scene,
            part.shaders_from_extras,
            &source,
            &stored,
            frames,
            mesh,
            t..end,
            s,
            &mut warnings,
        );
        dropped += lost;
        t = end;
        if surface.triangles.is_empty() {
            continue;
        }
        let parts = if options.split_surfaces {
            let max_v = tighter(limits::MAX_VERTS, engine_max(|l| l.max_vertices)).0;
            let max_t = tighter(limits::MAX_TRIANGLES, engine_max(|l| l.max_triangles)).0;
            split::split(surface, sources, max_v, max_t)
        } else {
            vec![(surface, sources)]
        };
        if parts.len() > 1 {
            warnings.push(CompileWarning::SurfaceSplit {
                name: report.name.clone(),
                vertices: report.vertices,
                triangles: report.triangles,
                parts: parts.len(),
            });
        }
        for (surface, sources) in parts {
            let s = surfaces.len();
            check(
                &format!("surfaces[{s}].num_verts"),
                Quantity::Vertices,
                surface.vertex_count(),
                limits::MAX_VERTS,
                engine_max(|l| l.max_vertices),
                vec![Remedy::MergeVertices, Remedy::FewerSeams, Remedy::Decimate],
            )?;
            check(
                &format!("surfaces[{s}].num_triangles"),
                Quantity::Triangles,
                surface.triangles.len(),
                limits::MAX_TRIANGLES,
                engine_max(|l| l.max_triangles),
                vec![Remedy::Decimate, Remedy::SplitModel],
            )?;
            surface_reports.push(SurfaceReport {
                vertices: surface.vertex_count(),
                triangles: surface.triangles.len(),
                ..report.clone()
            });
            surfaces.push(surface);
            triangle_sources.push(sources);
        }
    }
    if dropped > 0 {
        warnings.push(CompileWarning::TrianglesDropped { count: dropped });
    }
    if surfaces.is_empty() && !part.allow_empty {
        return Err(Error::unwritable(
            "header.num_surfaces",
            "no triangles: every triangle of the scene is degenerate (its corners weld into one point), so there is nothing to draw",
        ));
    }
    check(
        "header.num_surfaces",
        Quantity::Surfaces,
        surfaces.len(),
        limits::MAX_SURFACES,
        engine_max(|l| l.max_surfaces),
        vec![Remedy::JoinMeshes, Remedy::MergeMaterials],
    )?;

    // Tags.
    let tag_nodes: Vec<usize> = part.tags.iter().map(|t| t.0).collect();
    check(
        "header.num_tags",
        Quantity::Tags,
        tag_nodes.len(),
        limits::MAX_TAGS,
        engine_max(|l| l.max_tags),
        vec![],
    )?;
    let tag_names: Vec<QPath> = part
        .tags
        .iter()
        .enumerate()
        .map(|(i, (_, name))| qpath(format!("tags[{i}].name"), name, &mut warnings))
        .collect();
    let tags = tags::tag_frames(
        scene,
        plan,
        &tag_nodes,
        &tag_names,
        scale,
        inverses.as_deref(),
    )?;

    // Frames.
    let mut frame_records = Vec::with_capacity(frames);
    let mut animations = Vec::new();
    for g in &plan.groups {
        animations.push(AnimationReport {
            name: g.source.clone(),
            first_frame: frame_records.len(),
            frames: g.poses.len(),
            // Frames kept one for one play at their source's rate.
            fps: g.kept.as_ref().map_or(options.fps, |kept| kept.fps),
        });
        for k in 0..g.poses.len() {
            let f = frame_records.len();
            let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
            for s in &surfaces {
                for v in s.frame(f).unwrap_or(&[]) {
                    let p = v.position();
                    for a in 0..3 {
                        lo[a] = lo[a].min(p[a]);
                        hi[a] = hi[a].max(p[a]);
                    }
                }
            }
            if lo[0] > hi[0] {
                // No vertex: a box and radius of nothing at the origin.
                (lo, hi) = ([0.0; 3], [0.0; 3]);
            }
            let corner: [f32; 3] = std::array::from_fn(|a| lo[a].abs().max(hi[a].abs()));
            let radius = corner.iter().map(|c| c * c).sum::<f32>().sqrt();
            frame_records.push(Frame {
                min: lo,
                max: hi,
                local_origin: [0.0; 3],
                radius,
                name: g
                    .kept_name(k)
                    .map_or_else(|| frame_name(&g.name, k + 1), FrameName::new),
            });
        }
    }
    let name = options.name.clone().unwrap_or_else(|| scene.name.clone());
    let model = Md3 {
        name: qpath("name".to_string(), &name, &mut warnings),
        flags: 0,
        num_skins: 0,
        num_tags: tag_nodes.len() as i32,
        frames: frame_records,
        tags,
        surfaces,
        ..Md3::default()
    };
    let report = CompileReport {
        animations,
        frames,
        vertices: model.surfaces.iter().map(Surface::vertex_count).sum(),
        triangles: model.surfaces.iter().map(|s| s.triangles.len()).sum(),
        surfaces: surface_reports,
        source_vertices: n,
        tags: tag_nodes.len(),
        max_error,
        rms_error: (squares / (3 * n * frames).max(1) as f64).sqrt() as f32,
        scale,
    };
    Ok(Compiled {
        model,
        report,
        warnings,
        triangle_sources,
    })
}

/// What one surface made: the surface, its triangles' sources, how many
/// triangles it left out, its report line.
type Made = (Surface, Vec<(usize, usize)>, usize, SurfaceReport);

/// Surface `s` of the source triangles `range` (all of scene mesh
/// `mesh`): welded vertices, Quake's winding.
#[allow(clippy::too_many_arguments)]
fn surface(
    scene: &Scene,
    shaders_from_extras: bool,
    source: &bake::Source,
    stored: &[XyzNormal],
    frames: usize,
    mesh: usize,
    range: std::ops::Range<usize>,
    s: usize,
    warnings: &mut Vec<CompileWarning>,
) -> Made {
    let n = source.vertices.len();
    let m = scene.meshes.get(mesh);
    let material = m
        .and_then(|m| m.material)
        .and_then(|i| scene.materials.get(i));
    let mesh_name = m.map_or("", |m| m.name.as_str());
    let name = if !mesh_name.is_empty() {
        mesh_name.to_string()
    } else if let Some(mat) = material.filter(|mat| !mat.name.is_empty()) {
        mat.name.clone()
    } else {
        format!("surface{s}")
    };
    let kept = material
        .filter(|_| shaders_from_extras)
        .and_then(|mat| mat.extras.get("md3_shaders"))
        .and_then(|s| s.get(0))
        .and_then(|s| s.as_str());
    let shader = material
        .and_then(|mat| mat.texture)
        .and_then(|t| scene.textures.get(t))
        .map(|t| t.path.clone())
        .unwrap_or_default();
    let shader = kept.map_or(shader, str::to_string);
    // Weld: the key is the texture coordinate and every frame's stored
    // vertex.
    let mut ids: HashMap<Vec<u16>, u32> = HashMap::new();
    let mut first: Vec<u32> = Vec::new();
    let mut of: HashMap<u32, u32> = HashMap::new();
    let mut key = Vec::with_capacity(4 + frames * 4);
    let mut triangles = Vec::with_capacity(range.len());
    let mut sources = Vec::with_capacity(range.len());
    let mut lost = 0;
    // A texture coordinate that is not a finite number (a damaged source)
    // is written as 0, with a warning: `validate` refuses none.
    let uv = |u: u32| source.uvs[u as usize].map(|x| if x.is_finite() { x } else { 0.0 });
    for t in range {
        let tri = source.triangles[t];
        let mut corners = [0u32; 3];
        for (c, u) in [tri[0], tri[2], tri[1]].into_iter().enumerate() {
            corners[c] = *of.entry(u).or_insert_with(|| {
                key.clear();
                let [a, b] = uv(u).map(f32::to_bits);
                key.extend([a as u16, (a >> 16) as u16, b as u16, (b >> 16) as u16]);
                for f in 0..frames {
                    let v = stored[f * n + u as usize];
                    key.extend(v.xyz.map(|c| c as u16));
                    key.push(v.normal);
                }
                let next = ids.len() as u32;
                *ids.entry(key.clone()).or_insert_with(|| {
                    first.push(u);
                    next
                })
            });
        }
        if corners[0] == corners[1] || corners[1] == corners[2] || corners[0] == corners[2] {
            lost += 1;
            continue;
        }
        triangles.push(corners.map(|c| c as i32));
        sources.push(source.origins[t]);
    }
    let nv = first.len();
    let not_finite = first
        .iter()
        .filter(|&&u| !source.uvs[u as usize].iter().all(|x| x.is_finite()))
        .count();
    if not_finite > 0 {
        warnings.push(CompileWarning::UvsNotFinite {
            surface: name.clone(),
            count: not_finite,
        });
    }
    let mut xyz_normals = Vec::with_capacity(frames * nv);
    for f in 0..frames {
        xyz_normals.extend(first.iter().map(|&u| stored[f * n + u as usize]));
    }
    let surface = Surface {
        ident: MAGIC,
        name: qpath(format!("surfaces[{s}].name"), &name, warnings),
        flags: 0,
        shaders: vec![Shader {
            name: qpath(format!("surfaces[{s}].shaders[0]"), &shader, warnings),
            index: 0,
        }],
        texcoords: first.iter().map(|&u| uv(u)).collect(),
        num_frames: frames as i32,
        xyz_normals,
        triangles,
        ..Surface::default()
    };
    let report = SurfaceReport {
        name: surface.name.to_string_lossy(),
        shader: surface.shaders[0].name.to_string_lossy(),
        vertices: nv,
        triangles: surface.triangles.len(),
    };
    (surface, sources, lost, report)
}

#[cfg(test)]
mod tests;
