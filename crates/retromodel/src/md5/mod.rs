//! id Tech 4 MD5 models, as the Quake II (2023) and Quake (2021)
//! rereleases load them beside the classic model: `md5mesh` (joints and
//! weighted meshes), `md5anim` (a hierarchy, a base frame and frames) and
//! the rerelease's `.md5scale` JSON sidecar.
//!
//! - [`Md5Mesh::parse`], [`Md5Anim::parse`], [`Md5Scale::parse`]: readers
//!   that check every count before allocating and every index (parent,
//!   joint, weight range, vertex, component), with typed errors naming the
//!   line ([`Error::Md5`](crate::Error::Md5)); no input makes them panic
//!   or loop.
//! - [`Md5Mesh::bind_pose`], [`Md5Anim::pose`],
//!   [`Md5Mesh::posed_vertices`]: the model evaluated as the engines do.
//! - [`Md5Model`]: a mesh with its animations, as
//!   the library's `Model::Md5` holds it; `validate`, `info` and the
//!   lift to a [`Scene`](crate::scene::Scene) (feature `scene`).
//!
//! Which anims belong to a mesh: the rerelease loads `tris.md5anim` beside
//! `tris.md5mesh` (Q2PRO `src/refresh/models.c`, `MOD_LoadMD5`), so
//! `Model::read_with` (above the formats) reads the md5anim with the
//! mesh's stem and its `.md5scale`, through the read context's file source;
//! more anims are added with [`Md5Model::add_animation`].

mod anim;
#[cfg(feature = "scene")]
pub mod compile;
mod info;
mod lexer;
mod mesh;
mod pose;
mod rerelease;
mod scale;
#[cfg(feature = "scene")]
mod to_scene;
mod validate;
mod write;

pub use anim::{BaseJoint, HierarchyJoint, Md5Anim, COMPONENT_BITS};
pub use info::{AnimationInfo, Info};
pub use mesh::{Joint, Md5Mesh, Mesh, Vertex, Weight, MD5_VERSION};
pub use pose::{quat, JointPose, LocalJoint};
pub use rerelease::{RereleaseLimits, Q2PRO_LIMITS};
pub use scale::{JointScale, Md5Scale};
#[cfg(feature = "scene")]
pub use to_scene::md5_axes;

/// The most joint-frames (joints × frames of one anim) that posing every
/// frame (`validate`, the lift to a scene) takes on: the frames' numbers
/// grow with the file, but joints × frames can grow with its square
/// (a file of 30,000 joints and 30,000 empty frames is 1 MB). 16 M is
/// 50 times Doom 3's longest cinematics (about 100 joints × 3,000 frames).
pub const MAX_JOINT_FRAMES: usize = 1 << 24;

/// The most weight-frames (weights of the mesh × frames) `validate` poses
/// to check an anim's bounds; past it the frames after are not checked
/// (and a warning says so).
pub const MAX_WEIGHT_FRAMES: usize = 1 << 26;

/// One animation of an [`Md5Model`]: an md5anim and its optional
/// `.md5scale`.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Name (the md5anim's file stem).
    pub name: String,
    /// The anim.
    pub anim: Md5Anim,
    /// Its scales, if a `.md5scale` came with it.
    pub scale: Option<Md5Scale>,
}

/// An md5anim file given with a model (beyond the one named like the
/// mesh, which `Model::read_with` finds): its
/// animation's name, its bytes and its `.md5scale`'s, for
/// the converter's `with_md5_animations` and [`Md5Model::add_animation`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimationFile {
    /// The animation's name (the file's stem).
    pub name: String,
    /// The md5anim's bytes.
    pub anim: Vec<u8>,
    /// The `.md5scale`'s bytes, if there is one.
    pub scale: Option<Vec<u8>>,
}

/// An md5mesh with the md5anims that play on it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md5Model {
    /// The mesh.
    pub mesh: Md5Mesh,
    /// Its animations, in the order added.
    pub animations: Vec<Animation>,
}

impl Md5Model {
    /// Reads an md5mesh with no animations.
    pub fn from_mesh_bytes(bytes: &[u8]) -> crate::Result<Md5Model> {
        Ok(Md5Model {
            mesh: Md5Mesh::parse(bytes)?,
            animations: Vec::new(),
        })
    }

    /// Reads `anim` (and `scale`, a `.md5scale`, when given; feature
    /// `scene` reads it, without it the scale is ignored) and adds it as
    /// animation `name`. Whether its hierarchy agrees with the mesh is
    /// `validate`'s business: posing uses the joints both have.
    ///
    /// ```
    /// use retromodel::md5::Md5Model;
    /// let mesh = "MD5Version 10 commandline \"\" numJoints 1 numMeshes 0
    /// joints { \"root\" -1 ( 0 0 0 ) ( 0 0 0 ) }";
    /// let anim = "MD5Version 10 commandline \"\" numFrames 2 numJoints 1 frameRate 24
    /// numAnimatedComponents 1 hierarchy { \"root\" -1 1 0 }
    /// bounds { ( 0 0 0 ) ( 1 1 1 ) ( 0 0 0 ) ( 1 1 1 ) } baseframe { ( 0 0 0 ) ( 0 0 0 ) }
    /// frame 0 { 0 } frame 1 { 1 }";
    /// let mut model = Md5Model::from_mesh_bytes(mesh.as_bytes())?;
    /// model.add_animation("idle", anim.as_bytes(), None)?;
    /// assert_eq!(model.animations[0].anim.num_frames, 2);
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn add_animation(
        &mut self,
        name: &str,
        anim: &[u8],
        scale: Option<&[u8]>,
    ) -> crate::Result<()> {
        let anim = Md5Anim::parse(anim)?;
        let scale = match scale {
            Some(bytes) => {
                let names: Vec<&str> = anim.hierarchy.iter().map(|h| h.name.as_str()).collect();
                Some(Md5Scale::parse(bytes, &names)?)
            }
            None => None,
        };
        self.animations.push(Animation {
            name: name.to_string(),
            anim,
            scale,
        });
        Ok(())
    }

    /// [`Md5Model::add_animation`] of an [`AnimationFile`].
    pub fn add_animation_file(&mut self, file: &AnimationFile) -> crate::Result<()> {
        self.add_animation(&file.name, &file.anim, file.scale.as_deref())
    }
}
