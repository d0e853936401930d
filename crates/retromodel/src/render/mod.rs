//! Software rendering (feature `render`): a posed [`Scene`] seen by a
//! perspective [`Camera`] drawn into RGBA8 pixels, deterministically, in
//! pure Rust; and the images encoded as PNG, animated PNG or GIF, or laid
//! out as labelled contact sheets. What `retromodel render` does.
//!
//! ```
//! use retromodel::render::{Moment, RenderOptions, Stage, View, DEFAULT_FOV_Y};
//! use retromodel::scene::Scene;
//! use retromodel::md2::Md2SceneOptions;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
//! let mut stage = Stage::new(&scene)?;
//! let options = RenderOptions { width: 64, height: 64, ..RenderOptions::default() };
//! let camera = stage.camera(View::Front.angle(), &options, DEFAULT_FOV_Y)?;
//! let mut pixels = vec![0u8; 64 * 64 * 4];
//! stage.render(Moment::Rest, &camera, &options, &mut pixels)?;
//! // The figure is in the middle, the corners are background.
//! assert_eq!(pixels[3], 0);
//! assert_eq!(pixels[(32 * 64 + 32) * 4 + 3], 255);
//! # Ok(()) }
//! ```
//!
//! ## Conventions
//!
//! - **Camera** ([`Camera`]): OpenGL's. `eye`, `target`, `up` as
//!   `gluLookAt`, a vertical field of view ([`DEFAULT_FOV_Y`] = 30°) and
//!   `near`/`far` as `gluPerspective` (clip `z` from `−w` to `w`). three.js
//!   reproduces it with `new PerspectiveCamera(fov_y_degrees, width /
//!   height, near, far)`, `camera.position.set(...eye)`,
//!   `camera.up.set(...up)`, `camera.lookAt(...target)`.
//! - **Views** ([`View`], [`ViewAngle`]): yaw about +Y from the front
//!   (+Z, where models face) towards the model's left (+X), pitch above
//!   the horizontal; [`Camera::framing`] puts the target at the centre of
//!   the box around everything the animations drawn reach ([`Bounds`],
//!   sampled at every key and 10 times a second; [`Framing`], for a still
//!   [`Framing::for_still`]: the animation it is in), at the
//!   distance where the box's corners fill 90 % of the image, so the
//!   camera stays put from frame to frame.
//! - **Rasterisation**: as OpenGL: counter-clockwise front faces, back
//!   faces culled for single-sided materials, pixel centres at
//!   `(x + ½, y + ½)`, top-left fill rule, depth test `LESS`, one sample
//!   per pixel (no anti-aliasing), perspective-correct attributes, the
//!   near plane clipped.
//! - **Textures**: glTF's default sampler, as a GPU applies it: repeat,
//!   bilinear magnification, trilinear mipmaps (levels box-filtered in
//!   linear light), `v` top-down as scenes store it; sRGB images, filtered
//!   and lit in linear light.
//! - **Light** ([`Light`], [`Shading::Lit`]): a directional light fixed to
//!   the camera (from the viewer's upper left, `normalize(−1, 1, 2)` in
//!   camera space) of strength 0.7 plus ambient 0.35, on the
//!   interpolated vertex normals: Lambert, as three.js's
//!   `MeshLambertMaterial`. [`Shading::Unlit`] is texture × base colour.
//! - **Transparency**: glTF's alpha modes. `OPAQUE` ignores alpha; `MASK`
//!   discards pixels under the cutoff; `BLEND` triangles are drawn after
//!   the others, farthest first (by their centre; per triangle, so a
//!   model's own transparent parts overlap correctly), blended
//!   (`src · α + dst · (1 − α)`) onto a premultiplied buffer, without
//!   writing depth. The output is straight RGBA; the background is
//!   transparent unless [`RenderOptions::background`] says otherwise.
//! - **Deterministic**: one thread per image, no time stamps; the same
//!   inputs give the same bytes however many images are drawn at once.
//!
//! ## Why a rasteriser of its own
//!
//! Of the pure-Rust options, `tiny-skia` draws 2D paths only (no depth
//! buffer, no perspective-correct attributes), and `euc` 0.5 (the software
//! 3D pipeline crate) indexes its buffers with `unsafe` unchecked reads,
//! does not clip to the near plane, has no mipmapping and brings a second
//! maths library (`vek`) beside `glam`. What this module needs is small (a
//! clipped, perspective-correct triangle loop with a depth buffer is about
//! 300 lines here) and must never panic on hostile input (NaN, 10³⁰,
//! degenerate or huge triangles: every loop is bounded by the image), so
//! it is written here. The encoders are crates: `png` (PNG, APNG and text
//! chunks), `gif` with `color_quant`'s NeuQuant for the palette, and
//! `noto-sans-mono-bitmap` for labels (see [`encode`] and [`sheet`]).
//!
//! [`Scene`]: crate::scene::Scene

mod bounds;
mod camera;
pub mod encode;
mod raster;
mod renderer;
mod sampler;
pub mod sheet;
mod stage;
pub mod timeline;

pub use bounds::{Bounds, BOUNDS_RATE, MAX_BOUNDS_SAMPLES};
pub use camera::{Camera, View, ViewAngle, DEFAULT_FOV_Y, FILL};
pub use renderer::{check_size, Light, RenderOptions, Renderer, Shading, MAX_PIXELS, MAX_SIDE};
pub use sampler::MAX_TEXTURE_SIDE;
pub use stage::{animation_index, Framing, Moment, Stage};

/// The light direction of [`Light`] in scene space for `camera` (what to
/// give another renderer's directional light).
pub fn light_direction_in_scene(camera: &Camera) -> [f32; 3] {
    camera::camera_to_scene(camera, Light::DIRECTION).map(|v| v as f32)
}
