//! Reading a vertex's influences across every set of four of a
//! [`SkinWeights`].

use super::SkinWeights;

impl SkinWeights {
    /// The sets of four, first to last: `(joints, weights)` of the first
    /// set, then of each of [`more`](Self::more).
    ///
    /// ```
    /// use retromodel::scene::{InfluenceSet, SkinWeights};
    /// let w = SkinWeights {
    ///     joints: vec![[0; 4]],
    ///     weights: vec![[1.0, 0.0, 0.0, 0.0]],
    ///     more: vec![InfluenceSet::default()],
    ///     ..SkinWeights::default()
    /// };
    /// assert_eq!(w.sets().count(), 2);
    /// ```
    pub fn sets(&self) -> impl Iterator<Item = (&[[u16; 4]], &[[f32; 4]])> + '_ {
        std::iter::once((&self.joints[..], &self.weights[..]))
            .chain(self.more.iter().map(|s| (&s.joints[..], &s.weights[..])))
    }

    /// The influences of vertex `vertex` with a non-zero weight, as
    /// `(joint, weight)`, over every set in order; none for a vertex past
    /// the end.
    ///
    /// ```
    /// use retromodel::scene::SkinWeights;
    /// let w = SkinWeights {
    ///     joints: vec![[3, 1, 0, 0]],
    ///     weights: vec![[0.75, 0.25, 0.0, 0.0]],
    ///     ..SkinWeights::default()
    /// };
    /// assert_eq!(w.influences(0).collect::<Vec<_>>(), [(3, 0.75), (1, 0.25)]);
    /// assert_eq!(w.influences(1).count(), 0);
    /// ```
    pub fn influences(&self, vertex: usize) -> impl Iterator<Item = (u16, f32)> + '_ {
        self.sets()
            .filter_map(move |(j, w)| Some((j.get(vertex)?, w.get(vertex)?)))
            .flat_map(|(j, w)| j.iter().copied().zip(w.iter().copied()))
            .filter(|&(_, w)| w != 0.0)
    }

    /// Whether every set has one joint entry and one weight entry for each
    /// of `vertices` vertices.
    ///
    /// ```
    /// use retromodel::scene::SkinWeights;
    /// let w = SkinWeights {
    ///     joints: vec![[0; 4]; 2],
    ///     weights: vec![[1.0, 0.0, 0.0, 0.0]; 2],
    ///     ..SkinWeights::default()
    /// };
    /// assert!(w.fits(2) && !w.fits(3));
    /// ```
    pub fn fits(&self, vertices: usize) -> bool {
        self.sets()
            .all(|(j, w)| j.len() == vertices && w.len() == vertices)
    }

    /// The most influences (non-zero weights) any one vertex has.
    ///
    /// ```
    /// use retromodel::scene::{InfluenceSet, SkinWeights};
    /// let w = SkinWeights {
    ///     joints: vec![[0, 1, 2, 3]; 2],
    ///     weights: vec![[0.25; 4], [1.0, 0.0, 0.0, 0.0]],
    ///     more: vec![InfluenceSet {
    ///         joints: vec![[4, 0, 0, 0]; 2],
    ///         weights: vec![[0.0; 4], [0.0; 4]],
    ///     }],
    ///     ..SkinWeights::default()
    /// };
    /// assert_eq!(w.max_influences(), 4);
    /// ```
    pub fn max_influences(&self) -> usize {
        (0..self.joints.len())
            .map(|i| self.influences(i).count())
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::InfluenceSet;
    use super::*;

    #[test]
    fn influences_run_over_every_set_in_order() {
        let w = SkinWeights {
            skin: 0,
            joints: vec![[0, 1, 2, 3], [7, 0, 0, 0]],
            weights: vec![[0.1, 0.0, 0.2, 0.1], [1.0, 0.0, 0.0, 0.0]],
            more: vec![
                InfluenceSet {
                    joints: vec![[4, 5, 6, 7], [0; 4]],
                    weights: vec![[0.1, 0.1, 0.1, 0.1], [0.0; 4]],
                },
                InfluenceSet {
                    joints: vec![[8, 0, 0, 0], [0; 4]],
                    weights: vec![[0.2, 0.0, 0.0, 0.0], [0.0; 4]],
                },
            ],
        };
        let got: Vec<u16> = w.influences(0).map(|(j, _)| j).collect();
        assert_eq!(got, [0, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(w.influences(1).collect::<Vec<_>>(), [(7, 1.0)]);
        assert_eq!(w.max_influences(), 8);
        assert!(w.fits(2));
        let mut short = w.clone();
        short.more[1].weights.pop();
        assert!(!short.fits(2));
    }
}
