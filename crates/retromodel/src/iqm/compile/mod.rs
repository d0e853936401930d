//! [`Scene`] → IQM: any skinned or node-animated model as an
//! Inter-Quake Model.
//!
//! - **Joints**: one per scene node, parents first (a skin's joints, the
//!   nodes that place rigid meshes and the nodes between), then an
//!   `origin` joint when a mesh has neither skin nor node. A skin joint's
//!   bind placement is the inverse of its inverse bind matrix; any other
//!   node's is its rest placement. So each joint's pose at a frame is the
//!   node's local transform at that moment, and the engines' `world ·
//!   inverse bind` is the scene's skinning matrix.
//! - **Meshes**: one per scene mesh (split where
//!   [`IqmCompileOptions::max_mesh_vertices`] demands), its material the
//!   scene material's texture path (engines find the image by that name
//!   beside the model), else its name. Up to four weights per vertex as
//!   bytes summing to 255: a vertex with more keeps its four largest,
//!   renormalised ([`IqmCompileWarning::InfluencesReduced`]).
//! - **Animations**: each scene animation sampled at its own frame rate
//!   (an IQM's or MD5's, kept in the animation's extras), at the rate its
//!   keys fall on, or at [`IqmCompileOptions::fps`]; the loop flag from
//!   the extras. Every joint's ten channels are quantised to 16 bits per
//!   channel over its range (a constant channel leaves the mask), as
//!   lsalzman/iqm's compiler does (`iqm.cpp`, `calcanimdata`).
//! - **Exactness** is measured, not assumed: every frame of the written
//!   file is skinned as the engines skin it and compared with the scene
//!   posed at the same time; [`IqmReport::largest_error`] is the worst
//!   distance.
//! - A scene whose animations play morph targets (MD2, MDL and MD3
//!   vertex animation) is refused: IQM moves vertices only with joints.
//!
//! ```
//! use retromodel::iqm::compile::{compile, IqmCompileOptions};
//! use retromodel::ms3d::Ms3dSceneOptions;
//! use retromodel::scene::Scene;
//! let scene = Scene::from_ms3d(&retromodel::ms3d::sample::sample_model(), &Ms3dSceneOptions::default())?;
//! let out = compile(&scene, &IqmCompileOptions::default())?;
//! assert_eq!(out.model.joints.len(), scene.nodes.len());
//! assert!(out.report.largest_error <= 1e-3 * out.report.extent.max(1.0));
//! # Ok::<(), retromodel::Error>(())
//! ```

mod carried;
mod frames;
mod meshes;
mod skeleton;

use super::{Iqm, LOOP};
use crate::error::{Error, Result};
use crate::scene::{Scene, Target};

/// How [`compile`] makes the IQM.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IqmCompileOptions {
    /// Frames per second for every animation; `None` for each animation's
    /// own rate (its extras' `fps`, else the rate its keys fall on, else
    /// [`DEFAULT_SAMPLE_FPS`]).
    pub fps: Option<f32>,
    /// Split meshes to at most this many vertices each (ioquake3 refuses
    /// a mesh of 1,000 or more); `None` for no limit (or the engine's).
    pub max_mesh_vertices: Option<usize>,
    /// The engine the model is for: meshes are split to its per-mesh
    /// limits (ioquake3's 999 vertices and 1,999 triangles, FTE's and
    /// raylib's 16-bit indices), and what its
    /// loader would refuse ([`Iqm::validate_for`]) is an error naming the
    /// engines whose loaders take it.
    pub engine: Option<crate::Engine>,
    /// The file's comment.
    pub comment: String,
}

/// The rate an animation whose keys fall on no common rate is sampled at.
pub const DEFAULT_SAMPLE_FPS: f32 = 30.0;

/// What [`compile`] could not carry exactly, as data for front ends to
/// word.
#[derive(Debug, Clone, PartialEq)]
pub enum IqmCompileWarning {
    /// Vertices with more than four weights kept their four largest,
    /// renormalised.
    InfluencesReduced {
        /// How many vertices.
        vertices: usize,
    },
    /// Skinned vertices with no weight on any joint: held by the root.
    Unweighted {
        /// How many vertices.
        vertices: usize,
    },
    /// A mesh split to keep each part within the vertex limit.
    MeshSplit {
        /// The mesh's name.
        mesh: String,
        /// Into how many parts.
        parts: usize,
    },
}

impl std::fmt::Display for IqmCompileWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IqmCompileWarning::InfluencesReduced { vertices } => write!(f, "{vertices} vertices have more than four weights: IQM keeps the four largest, renormalised"),
            IqmCompileWarning::Unweighted { vertices } => write!(f, "{vertices} skinned vertices have no weight on any joint: they follow the root joint"),
            IqmCompileWarning::MeshSplit { mesh, parts } => write!(f, "mesh {mesh:?} split into {parts} meshes to keep each within the vertex limit"),
        }
    }
}

/// One animation of an [`IqmReport`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IqmAnimationReport {
    /// Its name.
    pub name: String,
    /// Frames per second.
    pub fps: f32,
    /// Frames.
    pub frames: usize,
    /// Whether it loops.
    pub loops: bool,
}

/// What [`compile`] made, in numbers.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IqmReport {
    /// Meshes written.
    pub meshes: usize,
    /// Vertices written.
    pub vertices: usize,
    /// Joints written.
    pub joints: usize,
    /// Each animation, in order.
    pub animations: Vec<IqmAnimationReport>,
    /// The worst distance, in model units, between a vertex of the
    /// written file skinned as the engines skin it and the same vertex of
    /// the scene posed at the same moment, over every frame.
    pub largest_error: f32,
    /// The model's size: the largest distance of a bind-pose vertex from
    /// the origin (to read [`largest_error`](Self::largest_error) against).
    pub extent: f32,
}

/// What [`compile`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct IqmCompiled {
    /// The model.
    pub model: Iqm,
    /// What it holds and how exactly.
    pub report: IqmReport,
    /// What could not be carried exactly.
    pub warnings: Vec<IqmCompileWarning>,
}

/// Compiles `scene` into an IQM (see the [module documentation](self)).
pub fn compile(scene: &Scene, options: &IqmCompileOptions) -> Result<IqmCompiled> {
    check(scene, options)?;
    let skeleton = skeleton::Skeleton::new(scene)?;
    let mut model = Iqm::default();
    model.intern("");
    let mut warnings = Vec::new();
    let limits = mesh_limits(options);
    let sources = meshes::build(scene, &skeleton, limits, &mut model, &mut warnings)?;
    carried::add(scene, &mut model, &sources);
    skeleton.write_joints(&mut model);
    // Without joints nothing can move: the animations are left out.
    let plan = if skeleton.joints.is_empty() {
        Vec::new()
    } else {
        frames::plan(scene, options)?
    };
    let sampled = frames::sample(scene, &skeleton, &plan)?;
    model.set_frames(&sampled);
    for (a, p) in plan.iter().enumerate() {
        let name = model.intern(&scene.animations[a].name);
        model.anims.push(super::Anim {
            name,
            first_frame: p.first_frame as u32,
            num_frames: p.count as u32,
            framerate: p.fps,
            flags: if p.loops { LOOP } else { 0 },
        });
    }
    model.adjacency = Some(super::compute_adjacency(&model));
    if model.num_frames > 0 && !model.meshes.is_empty() {
        model.bounds = Some(
            (0..model.num_frames as usize)
                .filter_map(|k| model.compute_bounds(k))
                .collect(),
        );
    }
    model.comment = options.comment.as_bytes().to_vec();
    if !model.comment.is_empty() {
        model.comment.push(0);
    }
    // What the engines cannot read (a value that is not finite, a range
    // no 16-bit channel can span) is refused rather than written.
    if let Some(p) = model
        .validate()
        .into_iter()
        .find(|p| p.severity == crate::Severity::Error)
    {
        return Err(Error::unwritable(p.path, p.message));
    }
    if let Some(engine) = options.engine {
        refuse_for(&model, engine)?;
    }
    let (largest_error, extent) = frames::measure(scene, &model, &plan, &sources)?;
    if !largest_error.is_finite() || !extent.is_finite() {
        return Err(Error::unwritable(
            "positions",
            "skinned in 32-bit floats, as the engines skin them, some vertices leave the range of finite numbers: the model's coordinates or its joints' transforms are too large",
        ));
    }
    let report = IqmReport {
        meshes: model.meshes.len(),
        vertices: model.vertex_count(),
        joints: model.joints.len(),
        animations: plan
            .iter()
            .enumerate()
            .map(|(a, p)| IqmAnimationReport {
                name: scene.animations[a].name.clone(),
                fps: p.fps,
                frames: p.count,
                loops: p.loops,
            })
            .collect(),
        largest_error,
        extent,
    };
    Ok(IqmCompiled {
        model,
        report,
        warnings,
    })
}

/// The most vertices and triangles a mesh may have: the options', else
/// the engine's (ioquake3's `R_LoadIQM` refuses a mesh of
/// `SHADER_MAX_VERTEXES` vertices or `SHADER_MAX_INDEXES` indices; FTE's
/// and raylib's indices are 16-bit relative to the mesh's first vertex).
fn mesh_limits(options: &IqmCompileOptions) -> (Option<usize>, Option<usize>) {
    use crate::Engine;
    let (vertices, triangles) = match options.engine {
        Some(Engine::Ioquake3) => (
            Some(super::SHADER_MAX_VERTEXES as usize - 1),
            Some((super::SHADER_MAX_INDEXES as usize - 1) / 3),
        ),
        Some(Engine::Fte | Engine::Raylib) => (Some(super::MAX_RELATIVE_INDEX as usize + 1), None),
        _ => (None, None),
    };
    (options.max_mesh_vertices.or(vertices), triangles)
}

/// An error when `engine`'s loader refuses `model`, naming the engines
/// that load it.
fn refuse_for(model: &Iqm, engine: crate::Engine) -> Result<()> {
    let refuses = |e: crate::Engine| {
        model
            .validate_for(e)
            .into_iter()
            .find(|p| p.severity == crate::Severity::Error)
    };
    let Some(p) = refuses(engine) else {
        return Ok(());
    };
    let others: Vec<&str> = crate::Engine::IQM
        .iter()
        .copied()
        .filter(|&e| e != engine && refuses(e).is_none())
        .map(crate::Engine::name)
        .collect();
    Err(Error::unwritable(
        p.path,
        format!(
            "{} refuses it: {}{}",
            engine.title(),
            p.message,
            if others.is_empty() {
                String::new()
            } else {
                format!(" (these load it: {})", others.join(", "))
            }
        ),
    ))
}

fn check(scene: &Scene, options: &IqmCompileOptions) -> Result<()> {
    let bad = |message: String| Err(Error::InvalidOptions { message });
    if let Some(fps) = options.fps {
        if !(fps.is_finite() && fps > 0.0) {
            return bad(format!("fps {fps} is not a positive number"));
        }
    }
    if options.max_mesh_vertices.is_some_and(|m| m < 3) {
        return bad("a mesh needs at least 3 vertices".to_string());
    }
    for (a, anim) in scene.animations.iter().enumerate() {
        let morphs = anim.channels.iter().find_map(|c| match c.target {
            Target::MorphWeights { mesh } => scene
                .meshes
                .get(mesh)
                .filter(|m| !m.morph_targets.is_empty())
                .map(|_| mesh),
            _ => None,
        });
        if let Some(mesh) = morphs {
            return Err(Error::unwritable(
                format!("animations[{a}] ({:?})", anim.name),
                format!("it plays mesh {mesh}'s morph targets (shape keys, vertex animation): an IQM moves vertices only with joints"),
            ));
        }
    }
    Ok(())
}
