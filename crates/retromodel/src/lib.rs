//! # retromodel
//!
//! Read, validate, write and animate the classic animated model formats
//! **Quake II MD2** and **MilkShape 3D MS3D**.
//!
//! - Lossless: a model keeps everything its file holds (raw names with the
//!   bytes after their NUL, GL commands as stored, bytes after the end), so
//!   writing it back reproduces the file.
//! - Hardened: parsing never panics, never loops forever and never
//!   allocates more than the input's size justifies; errors say what, where
//!   and at which byte offset.
//! - Lenient where real files need it: repairable faults are kept and
//!   reported by `validate()` with a path such as
//!   `frames[12].vertices[301].normal_index`.
//! - Ready for a renderer: frames decode and blend into caller buffers
//!   without allocating, and [`md2::RenderMesh`] fills `bytemuck::Pod`
//!   vertices.
//! - Skins and textures (feature `textures`, on by default): the
//!   `texture` module decodes PCX, PNG, JPEG, TGA and BMP to RGBA8,
//!   encodes PNG, and finds the file a skin name stands for without ever
//!   leaving the model's folder and the search roots you allow.
//! - glTF 2.0 export (feature `gltf`, on by default): every MD2 frame as a
//!   morph target, MS3D skeletons and animations; `KHR_mesh_quantization`
//!   and, with feature `meshopt` (on by default),
//!   `EXT_meshopt_compression` (`gltf::GltfOptions`). And import
//!   (`gltf::import`): `.glb` and `.gltf` documents into the same `Scene`,
//!   hardened like the parsers.
//! - Rendering (feature `render`, on by default): `render::Renderer`
//!   draws any posed scene into RGBA8 pixels in pure Rust (perspective,
//!   depth buffer, mipmapped textures, alpha test and blending), and
//!   `render::encode` writes PNG, animated PNG and GIF.
//!
//! ## Example
//!
//! ```
//! use retromodel::md2::{Md2, MeshVertex, RenderMesh};
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! # let bytes = retromodel::md2::sample::sample_model().to_bytes()?;
//! // let bytes = std::fs::read("tris.md2")?;
//! let model = Md2::from_bytes(&bytes)?;
//! for problem in model.validate() {
//!     eprintln!("{problem}");
//! }
//!
//! // Play the "run" animation at Quake II's 10 frames per second.
//! let run = model.animations().into_iter().find(|a| a.name == "run").unwrap();
//! let mesh = RenderMesh::new(&model);
//! let mut vertices = vec![MeshVertex::default(); mesh.vertex_count()];
//! let time = 0.25; // seconds
//! let pos = time * retromodel::md2::DEFAULT_FPS;
//! let (k, t) = (pos.floor() as usize, pos.fract());
//! let from = run.first_frame + k % run.frame_count;
//! let to = run.first_frame + (k + 1) % run.frame_count;
//! mesh.fill_interpolated(&model, from, to, t, &mut vertices);
//! let gpu_bytes: &[u8] = bytemuck::cast_slice(&vertices);
//! assert_eq!(gpu_bytes.len(), 32 * mesh.vertex_count());
//!
//! // Writing gives back the same bytes.
//! assert_eq!(model.to_bytes()?, bytes);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[macro_use]
mod name;
pub mod advice;
#[cfg(feature = "scene")]
mod bake;
mod bytes;
mod claims;
mod clip;
#[cfg(feature = "scene")]
pub mod convert;
mod engine;
mod error;
mod format;
mod format_kind;
#[cfg(feature = "gltf")]
pub mod gltf;
pub mod iqm;
pub mod md2;
pub mod md3;
pub mod md5;
pub mod mdl;
mod model;
pub mod ms3d;
#[cfg(feature = "scene")]
pub mod obj;
#[cfg(feature = "scene")]
mod option_problem;
mod parallel;
mod problem;
pub mod quake;
#[cfg(feature = "render")]
pub mod render;
#[cfg(feature = "scene")]
pub mod scene;
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
mod sse2_pack;
pub mod textfiles;
#[cfg(any(feature = "textures", feature = "scene"))]
pub mod texture;

pub use engine::{Engine, EngineFormat};
pub use error::{Error, Result};
pub use format::Format;
#[cfg(feature = "scene")]
pub use model::Imported;
pub use model::{Info, Model, ReadContext};
pub use problem::{Problem, Severity, MAX_LISTED_PROBLEMS};

/// The Rust examples of the library guide, `docs/library.md`, compiled
/// as doctests (`cargo test --doc`) so that the guide cannot drift from
/// the API. They read files, so they are compiled, not run.
#[cfg(all(doctest, feature = "gltf", feature = "textures"))]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryGuide;
