//! [`Stage`]: one scene ready to draw at any moment from any angle, the
//! camera framed once on everything its animations reach.

use super::bounds::Bounds;
use super::camera::{Camera, ViewAngle};
use super::renderer::{RenderOptions, Renderer};
use crate::error::{Error, Result};
use crate::scene::{Pose, Scene};

/// A moment of a scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Moment {
    /// The rest pose (an MD2's first frame, an MS3D's bind pose).
    Rest,
    /// The rest pose with weight 1 on morph target `k` of every morphed
    /// mesh (an MD2's frame `k`).
    MorphTarget(usize),
    /// `seconds` into animation `animation`.
    At {
        /// Index into [`Scene::animations`].
        animation: usize,
        /// Seconds from the animation's start.
        seconds: f32,
    },
}

/// What the camera frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Framing {
    /// The rest pose only (thumbnails of still models).
    RestPose,
    /// The rest pose and everything every animation reaches.
    AllAnimations,
    /// The rest pose and everything these animations reach.
    Animations(Vec<usize>),
}

/// A scene with its pose, renderer and bounds.
#[derive(Debug, Clone)]
pub struct Stage<'s> {
    scene: &'s Scene,
    pose: Pose,
    renderer: Renderer,
    bounds: Option<Bounds>,
}

impl<'s> Stage<'s> {
    /// Prepares `scene`: decodes its textures and measures how far it
    /// reaches over all its animations ([`Bounds::of_animations`]), so
    /// that the camera stays put whatever is drawn.
    ///
    /// Fails when the scene cannot be posed (its node parents form a cycle
    /// or name no node).
    pub fn new(scene: &'s Scene) -> Result<Stage<'s>> {
        Stage::framed(scene, &Framing::AllAnimations)
    }

    /// Like [`Stage::new`], the camera framing what `framing` says.
    pub fn framed(scene: &'s Scene, framing: &Framing) -> Result<Stage<'s>> {
        let bounds = match framing {
            Framing::RestPose => Bounds::of_some_animations(scene, &[])?,
            Framing::AllAnimations => Bounds::of_animations(scene)?,
            Framing::Animations(a) => Bounds::of_some_animations(scene, a)?,
        };
        Ok(Stage {
            scene,
            pose: Pose::new(scene)?,
            renderer: Renderer::new(scene),
            bounds,
        })
    }

    /// The scene.
    pub fn scene(&self) -> &'s Scene {
        self.scene
    }

    /// The box around everything the model's animations reach; `None`
    /// when there is nothing to draw.
    pub fn bounds(&self) -> Option<Bounds> {
        self.bounds
    }

    /// What went wrong decoding textures.
    pub fn warnings(&self) -> &[String] {
        self.renderer.warnings()
    }

    /// The camera that frames the model from `angle` in an image of
    /// `options`' size ([`Camera::framing`]; a model with nothing to draw
    /// is framed as a unit box at the origin).
    pub fn camera(
        &self,
        angle: ViewAngle,
        options: &RenderOptions,
        fov_y_degrees: f32,
    ) -> Result<Camera> {
        let bounds = self.bounds.unwrap_or(Bounds {
            min: [-0.5; 3],
            max: [0.5; 3],
        });
        let aspect = options.width as f32 / options.height.max(1) as f32;
        Camera::framing(&bounds, angle, aspect, fov_y_degrees)
    }

    /// Draws the scene at `moment` into `pixels` ([`Renderer::render`]).
    pub fn render(
        &mut self,
        moment: Moment,
        camera: &Camera,
        options: &RenderOptions,
        pixels: &mut [u8],
    ) -> Result<()> {
        match moment {
            Moment::Rest => self.pose.reset(self.scene),
            Moment::MorphTarget(k) => {
                self.pose.reset(self.scene);
                for m in 0..self.scene.meshes.len() {
                    let weights = self.pose.morph_weights_mut(m);
                    if k < weights.len() {
                        weights.fill(0.0);
                        weights[k] = 1.0;
                    }
                }
            }
            Moment::At { animation, seconds } => {
                if !(seconds.is_finite() && seconds >= 0.0) {
                    return Err(Error::InvalidOptions {
                        message: format!(
                            "time {seconds}: must be a non-negative number of seconds"
                        ),
                    });
                }
                self.pose.sample(self.scene, animation, seconds)
            }
        }
        self.renderer
            .render(self.scene, &self.pose, camera, options, pixels)
    }
}

/// The index of `scene`'s animation called `name`, or an error listing
/// them.
pub fn animation_index(scene: &Scene, name: &str) -> Result<usize> {
    scene
        .animations
        .iter()
        .position(|a| a.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = scene.animations.iter().map(|a| a.name.as_str()).collect();
            Error::InvalidOptions {
                message: format!(
                    "no animation {name:?} (the model has: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            }
        })
}
