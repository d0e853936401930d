//! [`Scene`] → MD5: an md5mesh, ONE md5anim holding every frame asked
//! for on one timeline, and a `.md5scale` where a joint's scale animates,
//! as the Quake II rerelease loads them beside an MD2 (Q2PRO
//! `src/refresh/models.c`, `MOD_LoadMD5`: `md5/<model>.md5mesh` and
//! `.md5anim`, the sidecar named like the anim, `MD5_LoadScales`).
//!
//! - **Frames** are an input ([`Md5CompileOptions::frames`]): frame `k`
//!   of the anim is the scene posed at `frames[k]` (an animation and a
//!   time, or the rest pose). To make the MD5 that plays frame for frame
//!   like an MD2, pass the MD2 compile's frames
//!   (`md2::compile::frame_times`); the converter does.
//! - **Joints**: one per joint of every skin, parents before children
//!   (a joint's parent is its nearest ancestor in the same skin), then
//!   one per node that places a mesh without a skin (rigid parts, node
//!   animation), then, when a mesh has neither, one `origin` joint.
//!   Names are the nodes', made unique (the `.md5scale` finds joints by
//!   name). A joint's bind placement is the rigid part of the inverse of
//!   its inverse bind matrix; a skin whose inverse bind matrix is not
//!   finite or is singular (the inverse of no bind pose: glTF's are the
//!   inverses of the joints' bind transforms) is refused
//!   ([`Error::InvalidScene`] naming `skins[S].inverseBindMatrices[K]`
//!   and the joint).
//! - **Meshes**: one per material (scene meshes of one material are
//!   joined), every vertex with every weight it has in the scene (MD5
//!   has no cap; Q2PRO keeps up to 65,535 per vertex,
//!   `MD5_ParseMesh`); triangles turned to id Tech's clockwise front
//!   faces. Q2PRO skips the `shader` (`MD5_ParseMesh`) and draws the
//!   MD2's skins from `md5/` beside them (`MD5_LoadSkins`), so the
//!   shader is only a name for tools: [`Md5CompileOptions::shader`]
//!   (the converter gives the MD2's skin), else the material's texture
//!   path, else its name.
//! - **Exactness**: a joint's frame is the scene's skinning matrix (joint
//!   transform × inverse bind) carried by the joint's bind placement, so
//!   the engine's `Σ bias · (position + scale · orientation · point)`
//!   gives the scene's skinned vertex. Uniform scale goes to the
//!   `.md5scale` (`scale_positions` false: the scale multiplies the points
//!   a joint holds, Q2PRO `calc_skel_vert`); what is not a rotation times
//!   a uniform scale (non-uniform scale, shear, mirroring) cannot be, and
//!   the worst error it makes is a [`Md5CompileWarning::NotUniform`].
//! - **Axes**: Quake's, the inverse of [`md5_axes`](super::md5_axes), so
//!   reading the output back gives the scene's positions; orientations
//!   are stored with `w ≤ 0` as the engines rebuild `w` ([`quat`](super::quat)).
//! - **Bounds** per frame are those of the posed mesh, evaluated from
//!   what is written.
//! - **Morph targets** (shape keys) that an animation plays cannot be
//!   carried: MD5 has only joints. Such a scene is refused
//!   ([`Error::Unwritable`] naming the
//!   animation).
//!
//! ```
//! use retromodel::md5::compile::{compile, FrameTime, Md5CompileOptions};
//! use retromodel::ms3d::Ms3dSceneOptions;
//! use retromodel::scene::Scene;
//! let scene = Scene::from_ms3d(&retromodel::ms3d::sample::sample_model(), &Ms3dSceneOptions::default())?;
//! let options = Md5CompileOptions {
//!     frames: vec![FrameTime::rest(), FrameTime { animation: Some(0), seconds: 0.5 }],
//!     ..Md5CompileOptions::default()
//! };
//! let out = compile(&scene, &options)?;
//! let anim = &out.model.animations[0].anim;
//! assert_eq!(anim.num_frames, 2);
//! assert_eq!(anim.hierarchy.len(), out.model.mesh.joints.len());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod axes;
mod finish;
mod finite;
mod frames;
mod joints;
mod limits;
mod meshes;

pub use limits::{Md5Limit, MD5_ENGINE_LIMITS};

use super::{Animation, Md5Model};
use crate::error::{Error, Result};
use crate::scene::{Scene, Target};

/// A frame to make: the scene posed `seconds` into an animation, or the
/// rest pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameTime {
    /// Index into the scene's animations; `None` for the rest pose.
    pub animation: Option<usize>,
    /// Seconds into it.
    pub seconds: f32,
}

impl FrameTime {
    /// The rest pose.
    pub fn rest() -> FrameTime {
        FrameTime {
            animation: None,
            seconds: 0.0,
        }
    }
}

/// How [`compile`] makes the MD5.
#[derive(Debug, Clone, PartialEq)]
pub struct Md5CompileOptions {
    /// The anim's frames in order; empty for one frame, the rest pose
    /// (the engines need at least one: Q2PRO `MD5_ParseAnim`).
    pub frames: Vec<FrameTime>,
    /// The anim's `frameRate` (the engines play the MD5 on the MD2's
    /// frame clock and ignore it: Q2PRO `MD5_ParseAnim` skips it; tools
    /// use it). Quake II plays models at 10. Where the frames of an
    /// animation are spread evenly at another interval (the MD2 compile
    /// spreads an animation whose length is not a whole number of frames
    /// over `[0, length]`), the rate is still `fps`: it is the rate the
    /// game plays both models at, so the MD5 keeps the MD2's timing
    /// rather than the source's.
    pub fps: f32,
    /// Multiply scene units by this (the MD2 compile's scale, so that
    /// both models are the same size).
    pub scale: f32,
    /// The shader every mesh names; `None` for each material's texture
    /// path (else its name).
    pub shader: Option<String>,
    /// The name of the anim ([`Animation::name`](super::Animation)),
    /// usually the file stem.
    pub name: String,
    /// The `commandline` both files store.
    pub commandline: String,
}

impl Default for Md5CompileOptions {
    fn default() -> Self {
        Md5CompileOptions {
            frames: Vec::new(),
            fps: 10.0,
            scale: 1.0,
            shader: None,
            name: "tris".to_string(),
            commandline: "retromodel".to_string(),
        }
    }
}

/// Something [`compile`] could not carry exactly or that an engine will
/// not load, as data for front ends to word.
#[derive(Debug, Clone, PartialEq)]
pub enum Md5CompileWarning {
    /// A joint's transform is not a rotation times a uniform scale
    /// (non-uniform scale, shear or mirroring) at some frames: the MD5
    /// gets the nearest one; `error` is the worst distance (model units,
    /// after scaling) a point it holds moves, at frame `frame`.
    NotUniform {
        /// The joint's name.
        joint: String,
        /// The frame of the worst error.
        frame: usize,
        /// The worst error.
        error: f32,
    },
    /// More of something than Q2PRO loads ([`MD5_ENGINE_LIMITS`]).
    OverLimit {
        /// Which limit.
        limit: Md5Limit,
        /// How many the model has.
        count: usize,
    },
    /// Vertices with a share on a joint scaled to nothing at every frame
    /// (MilkShape's weights that fall short of 100 %, `weight_remainder`
    /// in a scene from an MS3D): that share is placed at the joint, as
    /// the source poses it, so the vertex's weights do not agree on one
    /// bind point (validation reports each such vertex).
    ShareAtHiddenJoint {
        /// How many vertices.
        vertices: usize,
    },
    /// Skinned vertices with no weight on any joint (every weight 0, or
    /// naming a joint the skin lacks; glTF requires weights that sum to
    /// 1): held by the `origin` joint at the origin, where glTF viewers
    /// (three.js) and the MD2 bake put them.
    Unweighted {
        /// How many vertices.
        vertices: usize,
    },
}

impl std::fmt::Display for Md5CompileWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Md5CompileWarning::NotUniform {
                joint,
                frame,
                error,
            } => write!(
                f,
                "joint {joint:?} scales unevenly or shears (frame {frame}): MD5 joints hold only a uniform scale, points move up to {error} units"
            ),
            Md5CompileWarning::OverLimit { limit, count } => write!(
                f,
                "{count} {} exceed the rerelease engines' limit of {}",
                limit.what, limit.max
            ),
            Md5CompileWarning::Unweighted { vertices } => write!(
                f,
                "{vertices} skinned vertices have no weight on any joint: they stay at the origin, where glTF viewers put them (paint their weights in the modelling tool)"
            ),
            Md5CompileWarning::ShareAtHiddenJoint { vertices } => write!(
                f,
                "{vertices} vertices have weights that fall short of the whole (a share on a joint scaled to nothing): that share stays at the joint, as the source poses it, so their weights do not meet at one bind point and validation reports them"
            ),
        }
    }
}

/// What [`compile`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct Md5Compiled {
    /// The mesh and its one animation (with its `.md5scale` when a
    /// joint's scale animates).
    pub model: Md5Model,
    /// Where each scene mesh went: the MD5 mesh and the index of its
    /// first vertex there (its vertices follow in order).
    pub mesh_places: Vec<(usize, usize)>,
    /// What could not be carried exactly or will not load.
    pub warnings: Vec<Md5CompileWarning>,
}

/// Compiles `scene` into an MD5 model (see the [module documentation](self)).
pub fn compile(scene: &Scene, options: &Md5CompileOptions) -> Result<Md5Compiled> {
    check(scene, options)?;
    let frames = if options.frames.is_empty() {
        vec![FrameTime::rest()]
    } else {
        options.frames.clone()
    };
    let skeleton = joints::Skeleton::new(scene, options.scale)?;
    let (meshes, mesh_places) = meshes::build(scene, &skeleton, options)?;
    let posed = frames::pose(scene, &skeleton, &frames, options.scale)?;
    let mut warnings = frames::uniformity_warnings(&skeleton, &meshes, &posed);
    let (mesh, anim, scale, shared) = finish::assemble(&skeleton, meshes, posed, options);
    if shared > 0 {
        warnings.push(Md5CompileWarning::ShareAtHiddenJoint { vertices: shared });
    }
    let unweighted = joints::unweighted(scene, &skeleton.skin_joints);
    if unweighted > 0 {
        warnings.push(Md5CompileWarning::Unweighted {
            vertices: unweighted,
        });
    }
    finite::check(&mesh, &anim, scale.as_ref())?;
    warnings.extend(limits::check(&mesh, &anim));
    Ok(Md5Compiled {
        model: Md5Model {
            mesh,
            animations: vec![Animation {
                name: options.name.clone(),
                anim,
                scale,
            }],
        },
        mesh_places,
        warnings,
    })
}

fn check(scene: &Scene, options: &Md5CompileOptions) -> Result<()> {
    let bad = |message: String| Err(Error::InvalidOptions { message });
    if !(options.fps.is_finite() && options.fps > 0.0) {
        return bad(format!("fps {} is not a positive number", options.fps));
    }
    if !(options.scale.is_finite() && options.scale > 0.0) {
        return bad(format!("scale {} is not a positive number", options.scale));
    }
    if let Some(f) = options.frames.iter().position(|f| {
        !f.seconds.is_finite() || f.animation.is_some_and(|a| a >= scene.animations.len())
    }) {
        return bad(format!(
            "frame {f}: not an animation of the scene, or not a finite time"
        ));
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
                format!(
                    "it plays mesh {mesh}'s morph targets (shape keys, vertex animation): an MD5 model moves vertices only with joints"
                ),
            ));
        }
    }
    if scene.meshes.iter().all(|m| m.indices.len() < 3) {
        return bad("the scene has no triangles to compile".to_string());
    }
    Ok(())
}
