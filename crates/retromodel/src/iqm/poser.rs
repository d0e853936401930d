//! Posing every frame without allocating: what a game loop or an
//! exporter calls once per frame ([`Poser::skin_into`]).

use glam::{Affine3A, Quat, Vec3};

use super::Iqm;

/// The skinning matrices of any frame of one model, into a caller's
/// buffer: each pose's channels decoded from the frame's 16-bit values,
/// `T·R·S` chained to its parent, times the joint's inverse bind matrix
/// (as ioquake3's `ComputePoseMats` and lsalzman/iqm's demo compute them).
/// Made once per model ([`Poser::new`]), then used for every frame.
///
/// ```
/// use glam::Affine3A;
/// use retromodel::iqm::Poser;
///
/// let model = retromodel::iqm::sample::sample_model();
/// let poser = Poser::new(&model);
/// let mut matrices = vec![Affine3A::IDENTITY; poser.joint_count()];
/// assert!(poser.skin_into(&model, 1, &mut matrices));
/// // Frame 1 turns the arm a quarter about Z around its joint at z = 0.5:
/// // the vertex at (1, 0, 0), bound to it, goes to (0, 1, 0).
/// let p = matrices[1].transform_point3(glam::Vec3::X);
/// assert!((p - glam::Vec3::Y).length() < 1e-4);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Poser {
    inverse_bind: Vec<Affine3A>,
    parents: Vec<Option<usize>>,
}

impl Poser {
    /// The poser of `model`: its joints' inverse bind matrices and its
    /// poses' parents (a parent that is not an earlier pose makes a root).
    pub fn new(model: &Iqm) -> Poser {
        let mut bind: Vec<Affine3A> = Vec::with_capacity(model.joints.len());
        for (i, j) in model.joints.iter().enumerate() {
            let local = affine(j.translate, j.rotate, j.scale);
            let world = match usize::try_from(j.parent) {
                Ok(p) if p < i => bind[p] * local,
                _ => local,
            };
            bind.push(world);
        }
        let n = model.poses.len().max(model.joints.len());
        Poser {
            inverse_bind: (0..n)
                .map(|j| bind.get(j).map_or(Affine3A::IDENTITY, Affine3A::inverse))
                .collect(),
            parents: (0..n)
                .map(|j| {
                    let p = model.poses.get(j).map_or_else(
                        || model.joints.get(j).map_or(-1, |x| x.parent),
                        |x| x.parent,
                    );
                    usize::try_from(p).ok().filter(|&p| p < j)
                })
                .collect(),
        }
    }

    /// How many matrices [`skin_into`](Self::skin_into) writes.
    pub fn joint_count(&self) -> usize {
        self.parents.len()
    }

    /// Writes frame `frame`'s skinning matrices into `out` (one per
    /// joint; a shorter buffer gets the first ones). Returns `false`,
    /// writing nothing, past the last frame. A frame shorter than the
    /// poses' masks ask reads the missing values as 0 (`validate` reports
    /// such a file).
    pub fn skin_into(&self, model: &Iqm, frame: usize, out: &mut [Affine3A]) -> bool {
        if frame >= model.num_frames as usize {
            return false;
        }
        let nc = model.num_framechannels as usize;
        let start = frame.saturating_mul(nc);
        let values = model
            .frames
            .get(start..start.saturating_add(nc))
            .unwrap_or(&[]);
        let mut at = 0;
        let n = out.len().min(self.parents.len());
        for j in 0..self.parents.len() {
            let Some(pose) = model.poses.get(j) else {
                break;
            };
            let count = (pose.mask & 0x3ff).count_ones() as usize;
            let mine = values.get(at..).unwrap_or(&[]);
            let t = super::pose::decoded(pose, &mine[..count.min(mine.len())]);
            at += count;
            if j >= n {
                continue;
            }
            let local = affine(t.translate, t.rotate, t.scale);
            out[j] = match self.parents[j] {
                Some(p) => out[p] * local,
                None => local,
            };
        }
        for (m, inverse) in out[..n].iter_mut().zip(&self.inverse_bind) {
            *m *= *inverse;
        }
        true
    }
}

/// `T·R·S`, the rotation normalised (a zero quaternion is the identity).
fn affine(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Affine3A {
    let q = Quat::from_array(r);
    let q = if q.length_squared() > 0.0 {
        q.normalize()
    } else {
        Quat::IDENTITY
    };
    Affine3A::from_scale_rotation_translation(Vec3::from(s), q, Vec3::from(t))
}
