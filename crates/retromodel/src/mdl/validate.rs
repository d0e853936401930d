//! `Mdl::validate`: every problem in a model, with a path and an offset.

use super::Mdl;
use crate::problem::Problem;

impl Mdl {
    /// Every problem in the model.
    pub fn validate(&self) -> Vec<Problem> {
        Vec::new()
    }
}
