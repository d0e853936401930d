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

impl Framing {
    /// What a still of `scene` at `moment` is framed on: the animation the
    /// moment is in, so that every still of one animation (and its GIF)
    /// has the same camera and the model fills the image as much as that
    /// animation allows.
    ///
    /// - [`Moment::At`]: that animation.
    /// - [`Moment::MorphTarget`] `k` (an MD2's frame `k`): the animations
    ///   whose keys give target `k` a weight (the animation the frame
    ///   belongs to); every animation when none does.
    /// - [`Moment::Rest`]: the first animation (an MD2's rest pose is its
    ///   first frame, which starts its first animation, so a still of the
    ///   rest pose is that animation's first frame, framed alike); the rest
    ///   pose alone for a scene without animations.
    ///
    /// Each with the rest pose ([`Framing::Animations`]).
    ///
    /// ```
    /// use retromodel::render::{Framing, Moment};
    /// use retromodel::scene::Scene;
    /// use retromodel::md2::Md2SceneOptions;
    ///
    /// let scene = Scene::from_md2(&retromodel::md2::sample::sample_model(), &Md2SceneOptions::default());
    /// // The sample's frames: `stand` 0-9, `run` 10-15.
    /// assert_eq!(Framing::for_still(&scene, Moment::Rest), Framing::Animations(vec![0]));
    /// assert_eq!(Framing::for_still(&scene, Moment::MorphTarget(12)), Framing::Animations(vec![1]));
    /// let at = Moment::At { animation: 1, seconds: 0.2 };
    /// assert_eq!(Framing::for_still(&scene, at), Framing::Animations(vec![1]));
    /// ```
    pub fn for_still(scene: &Scene, moment: Moment) -> Framing {
        match moment {
            Moment::At { animation, .. } => Framing::Animations(vec![animation]),
            Moment::MorphTarget(k) => {
                let reaching: Vec<usize> = scene
                    .animations
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.channels.iter().any(|c| weighs_target(scene, c, k)))
                    .map(|(i, _)| i)
                    .collect();
                if reaching.is_empty() {
                    Framing::AllAnimations
                } else {
                    Framing::Animations(reaching)
                }
            }
            Moment::Rest if scene.animations.is_empty() => Framing::RestPose,
            Moment::Rest => Framing::Animations(vec![0]),
        }
    }
}

/// Whether `channel` gives morph target `k` of its mesh a weight other
/// than 0 at some key (its values are the weights of every target, key by
/// key; for cubic splines the tangents too, each group as wide).
fn weighs_target(scene: &Scene, channel: &crate::scene::Channel, k: usize) -> bool {
    let crate::scene::Target::MorphWeights { mesh } = channel.target else {
        return false;
    };
    let targets = scene.meshes.get(mesh).map_or(0, |m| m.morph_targets.len());
    k < targets
        && channel
            .values
            .iter()
            .skip(k)
            .step_by(targets)
            .any(|&w| w != 0.0)
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
