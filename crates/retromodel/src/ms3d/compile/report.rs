//! What an MS3D compile made ([`Ms3dCompileReport`]) and what it had to
//! change or leave out ([`Ms3dCompileWarning`]).

use std::fmt;

/// One scene animation on the MS3D timeline.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ms3dAnimationReport {
    /// The scene animation's name (the clip's).
    pub name: String,
    /// The MilkShape frames it covers (the clip stored in the comment).
    pub first_frame: f32,
    /// See `first_frame`.
    pub last_frame: f32,
    /// Keys of the source animation's node channels (every channel's
    /// key count, added up).
    pub source_keys: usize,
    /// Rotation and position keys written within its frames, over all
    /// joints.
    pub keys: usize,
    /// How many times it was checked at: every MilkShape frame it covers
    /// and every half frame, its end included, and four times per frame
    /// between the times the keys were fitted to (a sixteenth of a frame
    /// after each quarter); none within a step (see `steps`).
    pub checked_times: usize,
    /// Its steps: the key times of its `STEP` channels. glTF jumps there;
    /// MilkShape, which interpolates every key, moves from the old value
    /// to the new within `ε` seconds before it (`ε` = 1e-4 s, more on a
    /// timeline over 25 s); the check leaves out the `3ε` around each
    /// step, and `max_error` is the error away from them.
    pub steps: usize,
    /// The largest distance between a vertex as MilkShape's viewer skins
    /// it (`ms3d::Skeleton` + `Influences`) and the source scene's
    /// (`scene::Pose`) at those times, divided by the model's extent.
    pub max_error: f32,
}

/// What [`compile`](super::compile) produced.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ms3dCompileReport {
    /// Scene vertices that triangles use.
    pub source_vertices: usize,
    /// MS3D vertices after welding.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Groups.
    pub groups: usize,
    /// Materials.
    pub materials: usize,
    /// Joints.
    pub joints: usize,
    /// The stored frame rate.
    pub fps: f32,
    /// The timeline's length in frames.
    pub total_frames: i32,
    /// One entry per animation, in timeline order.
    pub animations: Vec<Ms3dAnimationReport>,
    /// The diagonal of the model's bounding box (bind pose), the unit of
    /// the errors.
    pub extent: f32,
    /// The largest difference between a stored percent weight and the
    /// source's, in percentage points (below 1 by the apportionment).
    pub weight_error: f32,
    /// The bind-pose error: the largest distance between a vertex in
    /// MilkShape's bind pose and the source's rest pose, divided by the
    /// extent (0 when the rest pose is the bind pose).
    pub rest_error: f32,
    /// Whether the joints' bind pose is the scene's rest pose (else it
    /// comes from the inverse bind matrices).
    pub rest_is_bind: bool,
}

impl Ms3dCompileReport {
    /// The largest [`Ms3dAnimationReport::max_error`].
    pub fn max_error(&self) -> f32 {
        self.animations
            .iter()
            .map(|a| a.max_error)
            .fold(0.0, f32::max)
    }

    /// Keys written, over all animations.
    pub fn keys(&self) -> usize {
        self.animations.iter().map(|a| a.keys).sum()
    }

    /// Keys of the source, over all animations.
    pub fn source_keys(&self) -> usize {
        self.animations.iter().map(|a| a.source_keys).sum()
    }
}

/// Something an MS3D compile changed, approximated or left out.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum Ms3dCompileWarning {
    /// A name (group, material, joint, texture path) did not fit or was
    /// taken: written as `to`.
    NameShortened {
        /// What, e.g. `groups[3].name`.
        what: String,
        /// The source's name.
        from: String,
        /// The name written.
        to: String,
    },
    /// Morph targets, which MS3D cannot store: the mesh is written at its
    /// default morph weights.
    MorphTargets {
        /// The scene meshes that have them.
        meshes: Vec<usize>,
    },
    /// Animations that only animate morph weights, which an MS3D cannot
    /// play: left out (MD2 stores vertex animation: `md2::compile`).
    MorphAnimations {
        /// Their names.
        names: Vec<String>,
    },
    /// Scale or shear in the source's motion, which MilkShape's rigid
    /// joints cannot store: the rigid part was kept.
    NonRigidMotion {
        /// The joint (its source node's name) where the left-out part
        /// moves vertices most.
        joint: String,
        /// The largest distance the left-out part moves a vertex,
        /// divided by the model's extent.
        error: f32,
    },
    /// Weights MilkShape cannot store as given.
    Weights {
        /// Vertices whose weights fall short of 100 % (the helper joint
        /// `weight_remainder`) with four influences: made whole.
        made_whole: usize,
        /// Vertices with more than four influences: the four largest kept.
        dropped: usize,
    },
    /// Values that were not finite or were zero: normals replaced by the
    /// face's normal, texture coordinates by 0.
    Replaced {
        /// Normals replaced.
        normals: usize,
        /// Texture coordinates replaced.
        uvs: usize,
    },
    /// Triangles left out because an index was out of range.
    TrianglesDropped {
        /// How many.
        count: usize,
    },
    /// Smooth regions that could not get a smoothing group of their own
    /// (more than 32 regions meet at a vertex).
    SmoothingGroups {
        /// How many regions share a number with a neighbour.
        conflicts: usize,
    },
    /// An animation MilkShape's evaluation does not reproduce within the
    /// tolerance (scale in the motion, or more keys than could be added).
    Inexact {
        /// The animation.
        name: String,
        /// Its error, relative to the extent, away from its steps.
        error: f32,
        /// Its steps (`STEP` key times), near which it was not checked
        /// (see [`Ms3dAnimationReport::steps`]).
        steps: usize,
    },
    /// A name's bytes as the source MS3D stored them (recorded in the
    /// scene's extras by `Scene::from_ms3d`) that cannot be read: the
    /// name is written from its text instead.
    StoredNameIgnored {
        /// Where, e.g. `nodes[3].extras.ms3d.name`.
        what: String,
        /// Why, e.g. `not hexadecimal`.
        reason: String,
    },
}

impl fmt::Display for Ms3dCompileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ms3dCompileWarning::NameShortened { what, from, to } => {
                write!(f, "{what}: {from:?} is written as {to:?} (31 bytes at most, unique)")
            }
            Ms3dCompileWarning::MorphTargets { meshes } => write!(
                f,
                "meshes {meshes:?} have morph targets, which MS3D cannot store: written at their default weights"
            ),
            Ms3dCompileWarning::MorphAnimations { names } => write!(
                f,
                "animations {names:?} only animate morph targets, which an MS3D cannot play: left out (MD2 stores vertex animation: compile to .md2)"
            ),
            Ms3dCompileWarning::NonRigidMotion { joint, error } => write!(
                f,
                "the animation scales or shears joint {joint:?} (the most), which MilkShape cannot store: the rigid part is kept (moves vertices by up to {error:.2e} of the extent)"
            ),
            Ms3dCompileWarning::Weights { made_whole, dropped } => write!(
                f,
                "{made_whole} vertices with four influences whose weights fall short of 100 % were made whole; {dropped} vertices kept their four largest influences"
            ),
            Ms3dCompileWarning::Replaced { normals, uvs } => write!(
                f,
                "{normals} normals (zero or not finite) replaced by their face's normal, {uvs} texture coordinates (not finite) by 0"
            ),
            Ms3dCompileWarning::TrianglesDropped { count } => {
                write!(f, "{count} triangles with indices out of range left out")
            }
            Ms3dCompileWarning::SmoothingGroups { conflicts } => write!(
                f,
                "{conflicts} smooth regions share a smoothing group with a neighbour (more than 32 meet at a vertex)"
            ),
            Ms3dCompileWarning::Inexact { name, error, steps } => {
                write!(
                    f,
                    "animation {name:?}: MilkShape's evaluation is off by up to {error:.2e} of the extent (checked at every frame, half frame and between the fitted keys"
                )?;
                if *steps > 0 {
                    write!(
                        f,
                        ", away from its {steps} steps, where glTF jumps and MilkShape moves within 0.1 ms"
                    )?;
                }
                write!(f, ")")
            }
            Ms3dCompileWarning::StoredNameIgnored { what, reason } => write!(
                f,
                "{what}: the bytes recorded from the original MS3D are {reason}; the name is written from its text"
            ),
        }
    }
}
