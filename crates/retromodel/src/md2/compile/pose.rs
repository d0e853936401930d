//! Baking: every frame of a planned scene posed, in Quake axes and
//! scaled as the options say.

use super::prepared::Prepared;
use super::{bake, CompileOptions};
use crate::error::{Error, Result};
use bake::height;

impl Prepared<'_> {
    /// Poses every frame: the positions (scaled as the options say) and,
    /// up to `keep_normals` positions, the normals.
    pub(super) fn pose(&mut self, options: &CompileOptions, keep_normals: usize) -> Result<()> {
        let (scene, plan, source) = (self.scene, &self.plan, &self.source);
        let keep_normals = plan.frame_count() * source.vertices.len() <= keep_normals;
        let (mut positions, normals) = bake::pose_all(scene, plan, source, keep_normals)?;
        let scale = match (options.scale, options.fit_height) {
            (Some(s), _) => s,
            (None, Some(h)) => {
                let height = height(&positions);
                if !(height.is_finite() && height > 0.0) {
                    return Err(Error::InvalidOptions {
                        message: "fit_height: the model has no height to scale".to_string(),
                    });
                }
                h / height
            }
            (None, None) => 1.0,
        };
        if scale != 1.0 {
            for p in &mut positions {
                *p = p.map(|x| x * scale);
            }
        }
        if options.player && options.fit_height.is_none() {
            let height = height(&positions);
            if height.is_finite() && !super::PLAYER_HEIGHT_RANGE.contains(&height) {
                self.warnings
                    .push(super::CompileWarning::PlayerSize { height });
            }
        }
        self.positions = positions;
        self.normals = keep_normals.then_some(normals);
        self.scale = scale;
        Ok(())
    }
}
