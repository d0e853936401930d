//! How far a model reaches over all its animations: the box a camera
//! frames, so that it does not move from frame to frame.

use crate::error::Result;
use crate::scene::{Pose, Scene};

use super::timeline::{model_rate, sample_times};

/// Rate at which animations are sampled for their bounds (besides their
/// keys), in frames per second.
pub const BOUNDS_RATE: f32 = 10.0;

/// At most this many moments per animation are sampled for the bounds.
pub const MAX_BOUNDS_SAMPLES: usize = 4096;

/// An axis-aligned box in scene space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The smallest coordinates.
    pub min: [f32; 3],
    /// The largest coordinates.
    pub max: [f32; 3],
}

impl Bounds {
    /// The box around the points of `positions` that `used` marks, with
    /// `self` (`None` for no point so far). Points that are not finite are
    /// left out.
    fn extend(this: Option<Bounds>, positions: &[[f32; 3]], used: &[bool]) -> Option<Bounds> {
        let mut b = this;
        for (p, _) in positions.iter().zip(used).filter(|(_, &u)| u) {
            if !p.iter().all(|v| v.is_finite()) {
                continue;
            }
            b = Some(match b {
                None => Bounds { min: *p, max: *p },
                Some(b) => Bounds {
                    min: [b.min[0].min(p[0]), b.min[1].min(p[1]), b.min[2].min(p[2])],
                    max: [b.max[0].max(p[0]), b.max[1].max(p[1]), b.max[2].max(p[2])],
                },
            });
        }
        b
    }

    /// The box around every vertex that a triangle of `scene` uses, posed
    /// at rest and at every key of every animation and every `1 /
    /// BOUNDS_RATE` seconds of it (at most [`MAX_BOUNDS_SAMPLES`] moments
    /// per animation): where the model reaches over all of its
    /// animations. `None` when no triangle has a finite corner.
    ///
    /// Fails when the scene cannot be posed (a cycle of parents).
    pub fn of_animations(scene: &Scene) -> Result<Option<Bounds>> {
        let all: Vec<usize> = (0..scene.animations.len()).collect();
        Bounds::of_some_animations(scene, &all)
    }

    /// Like [`Bounds::of_animations`], over the rest pose and the
    /// animations `animations` only (indices that are no animation are
    /// left out; none: the rest pose alone).
    pub fn of_some_animations(scene: &Scene, animations: &[usize]) -> Result<Option<Bounds>> {
        let mut pose = Pose::new(scene)?;
        let used: Vec<Vec<bool>> = scene
            .meshes
            .iter()
            .map(|m| {
                let mut used = vec![false; m.positions.len()];
                for &i in &m.indices {
                    if let Some(u) = used.get_mut(i as usize) {
                        *u = true;
                    }
                }
                used
            })
            .collect();
        let largest = scene
            .meshes
            .iter()
            .map(|m| m.positions.len())
            .max()
            .unwrap_or(0);
        let mut positions = vec![[0.0f32; 3]; largest];
        let mut normals = vec![[0.0f32; 3]; largest];
        let mut bounds = None;
        let mut measure = |pose: &Pose, bounds: &mut Option<Bounds>| {
            for (m, used) in used.iter().enumerate() {
                if !used.contains(&true) {
                    continue;
                }
                let n = scene.meshes[m].positions.len();
                pose.mesh_vertices(scene, m, &mut positions[..n], &mut normals[..n]);
                *bounds = Bounds::extend(*bounds, &positions[..n], used);
            }
        };
        measure(&pose, &mut bounds);
        for &a in animations {
            let Some(animation) = scene.animations.get(a) else {
                continue;
            };
            let rate = BOUNDS_RATE.min(model_rate(animation));
            for t in sample_times(animation, rate, MAX_BOUNDS_SAMPLES) {
                pose.sample(scene, a, t);
                measure(&pose, &mut bounds);
            }
        }
        Ok(bounds)
    }

    /// The centre.
    pub fn centre(&self) -> [f32; 3] {
        [0, 1, 2].map(|k| self.min[k] * 0.5 + self.max[k] * 0.5)
    }

    /// The size along each axis.
    pub fn size(&self) -> [f32; 3] {
        [0, 1, 2].map(|k| self.max[k] - self.min[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_to_draw_has_no_bounds() {
        assert_eq!(Bounds::of_animations(&Scene::default()).unwrap(), None);
    }
}
