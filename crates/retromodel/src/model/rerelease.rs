//! [`Model::validate_for_rerelease`]: an MD2 and the MD5 the Quake II
//! rerelease loads beside it (`md5/STEM.md5mesh`), checked as a pair.

use super::Model;
use crate::problem::{Problem, Severity};

impl Model {
    /// Every problem of the model as the Quake II rerelease loads it, with
    /// `companion` the other half of the pair when there is one (the
    /// front end finds it: for `x/tris.md2` the MD5 is
    /// `x/md5/tris.md5mesh`, for an md5mesh in `md5/` the MD2 is
    /// `../STEM.md2`):
    ///
    /// - an MD5: [`Md5Model::validate_for_rerelease`], with the MD2's
    ///   frame count when `companion` is the MD2;
    /// - an MD2: its problems as Q2PRO (the port reimplementing the
    ///   rerelease) loads it ([`Md2::validate_for`]), and the companion
    ///   MD5's, paths under `md5.`;
    /// - any other format: one error.
    ///
    /// [`Md5Model::validate_for_rerelease`]: crate::md5::Md5Model::validate_for_rerelease
    /// [`Md2::validate_for`]: crate::md2::Md2::validate_for
    ///
    /// ```
    /// use retromodel::Model;
    /// let md2 = Model::Md2(retromodel::md2::sample::sample_model());
    /// // Without its MD5, an MD2 is checked as Q2PRO loads it.
    /// assert!(md2.validate_for_rerelease(None).is_empty());
    /// ```
    pub fn validate_for_rerelease(&self, companion: Option<&Model>) -> Vec<Problem> {
        let md2_frames = |m: Option<&Model>| match m {
            Some(Model::Md2(m)) => Some(m.frames.len()),
            _ => None,
        };
        match self {
            Model::Md5(m) => m.validate_for_rerelease(md2_frames(companion)),
            Model::Md2(md2) => {
                let mut problems = md2.validate_for(crate::md2::Engine::Q2pro);
                if let Some(Model::Md5(m)) = companion {
                    problems.extend(
                        m.validate_for_rerelease(Some(md2.frames.len()))
                            .into_iter()
                            .map(|p| Problem {
                                path: format!("md5.{}", p.path),
                                ..p
                            }),
                    );
                }
                problems
            }
            other => vec![Problem {
                severity: Severity::Error,
                path: "format".to_string(),
                message: format!(
                    "{} is neither MD2 nor MD5: the Quake II rerelease loads an MD2 and the MD5 beside it",
                    other.format()
                ),
                offset: None,
            }],
        }
    }
}
