//! Skinning as MilkShape's viewer does it.
//!
//! A vertex's influences are `[bone_id, bone_ids[0], bone_ids[1],
//! bone_ids[2]]` with weights `[w0, w1, w2, 100 − w0 − w1 − w2]` percent
//! (`[100, 0, 0, 0]` when the three stored weights are all 0, or when the
//! file has no vertex extras). They are used in order until the first one
//! whose weight is not positive or whose joint does not exist; if that
//! leaves none, the first takes 100 %. A vertex whose own bone is −1 or
//! out of range does not move.

use super::Ms3d;
use glam::{Mat4, Vec3};

/// The joints and weights that move one vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Influence {
    /// Joint indices; only the first `count` are used.
    pub joints: [u16; 4],
    /// Weights (fractions, from the stored percentages); zero past `count`.
    pub weights: [f32; 4],
    /// How many influences apply; 0 means the vertex stays put.
    pub count: u8,
}

/// The influences of every vertex of a model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Influences {
    /// One entry per vertex.
    pub vertices: Vec<Influence>,
}

impl Influence {
    /// The influence the viewer derives from a vertex's own bone id, its
    /// extra bone ids and its stored weights.
    ///
    /// ```
    /// use retromodel::ms3d::Influence;
    /// // 60 % joint 1, 40 % joint 2.
    /// let i = Influence::from_stored(1, [2, -1, -1], [60, 0, 0], 3);
    /// assert_eq!(i.count, 1); // the second weight is 0: only the first is used
    /// let i = Influence::from_stored(1, [2, -1, -1], [60, 40, 0], 3);
    /// assert_eq!((i.count, i.joints[..2].to_vec(), i.weights[..2].to_vec()), (2, vec![1, 2], vec![0.6, 0.4]));
    /// let i = Influence::from_stored(-1, [0, 0, 0], [0, 0, 0], 3);
    /// assert_eq!(i.count, 0);
    /// ```
    pub fn from_stored(
        bone_id: i8,
        bone_ids: [i8; 3],
        weights: [u8; 3],
        joint_count: usize,
    ) -> Influence {
        let ids = [bone_id, bone_ids[0], bone_ids[1], bone_ids[2]];
        let percent: [i32; 4] = if weights == [0, 0, 0] {
            [100, 0, 0, 0]
        } else {
            let [a, b, c] = weights.map(i32::from);
            [a, b, c, 100 - (a + b + c)]
        };
        let valid = |id: i8| id >= 0 && (id as usize) < joint_count;
        let mut out = Influence::default();
        if !valid(bone_id) {
            return out;
        }
        let mut count = 0;
        for k in 0..4 {
            if percent[k] > 0 && valid(ids[k]) {
                out.joints[k] = ids[k] as u16;
                out.weights[k] = percent[k] as f32 / 100.0;
                count += 1;
            } else {
                break;
            }
        }
        if count == 0 {
            out.joints[0] = bone_id as u16;
            out.weights[0] = 1.0;
            count = 1;
        }
        out.count = count;
        out
    }
}

impl Influences {
    /// The influences of every vertex of `model`.
    pub fn new(model: &Ms3d) -> Influences {
        let extras = model.extras.vertices.as_ref();
        let vertices = model
            .vertices
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let (ids, weights) = extras
                    .and_then(|x| x.records.get(i))
                    .map_or(([0; 3], [0; 3]), |r| (r.bone_ids, r.weights));
                Influence::from_stored(v.bone_id, ids, weights, model.joints.len())
            })
            .collect();
        Influences { vertices }
    }

    /// Skins every vertex position of `model` with `skinning` matrices
    /// (from [`super::Skeleton::skinning_matrices`]) into `out`:
    /// `v' = Σ wᵢ · Mᵢ · v`. Vertices without a bone keep their position.
    ///
    /// # Panics
    /// When `out` does not have one entry per vertex.
    pub fn skin_positions(&self, model: &Ms3d, skinning: &[Mat4], out: &mut [[f32; 3]]) {
        assert_eq!(out.len(), model.vertices.len(), "position buffer length");
        for ((o, v), inf) in out.iter_mut().zip(&model.vertices).zip(&self.vertices) {
            let p = Vec3::from(v.position);
            *o = self.blend(inf, skinning, p, |m, p| m.transform_point3(p));
        }
    }

    /// Skins the normal `normal` of vertex `vertex` (rotation parts only,
    /// not renormalised, as the viewer does).
    pub fn skin_normal(&self, vertex: usize, skinning: &[Mat4], normal: [f32; 3]) -> [f32; 3] {
        match self.vertices.get(vertex) {
            Some(inf) => self.blend(inf, skinning, Vec3::from(normal), |m, n| {
                m.transform_vector3(n)
            }),
            None => normal,
        }
    }

    fn blend(
        &self,
        inf: &Influence,
        skinning: &[Mat4],
        v: Vec3,
        apply: impl Fn(&Mat4, Vec3) -> Vec3,
    ) -> [f32; 3] {
        if inf.count == 0 {
            return v.to_array();
        }
        let mut sum = Vec3::ZERO;
        for k in 0..inf.count as usize {
            match skinning.get(inf.joints[k] as usize) {
                Some(m) => sum += apply(m, v) * inf.weights[k],
                None => return v.to_array(),
            }
        }
        sum.to_array()
    }
}
