//! Baking: every frame of a planned scene posed, in Quake axes and
//! scaled as the options say.

use super::prepared::Prepared;
use super::{bake, CompileOptions};
use crate::error::{Error, Result};

impl Prepared<'_> {
    /// Poses every frame: the positions (scaled as the options say) and,
    /// up to `keep_normals` positions, the normals.
    pub(super) fn pose(&mut self, options: &CompileOptions, keep_normals: usize) -> Result<()> {
        let (scene, plan, source) = (self.scene, &self.plan, &self.source);
        let frames = plan.frame_count();
        let used = source.vertices.len();
        let keep_normals = frames * used <= keep_normals;
        let mut positions = vec![[0.0f32; 3]; frames * used];
        let mut normals = vec![[0.0f32; 3]; if keep_normals { frames * used } else { 0 }];
        // Pieces of the frame range are posed at once (a pose depends only
        // on its time).
        let mut tasks = Vec::new();
        let (mut rest_positions, mut rest_normals) = (&mut positions[..], &mut normals[..]);
        for range in crate::parallel::ranges(frames, crate::parallel::pieces(frames, frames * used))
        {
            let (p, p_rest) = rest_positions.split_at_mut(range.len() * used);
            let n_len = if keep_normals { range.len() * used } else { 0 };
            let (n, n_rest) = rest_normals.split_at_mut(n_len);
            (rest_positions, rest_normals) = (p_rest, n_rest);
            tasks.push((range, p, n));
        }
        let posed = crate::parallel::map(tasks, |(range, positions, normals)| {
            let start = range.start;
            bake::for_frames(scene, plan, source, keep_normals, range, |f, p, n| {
                let at = (f - start) * used;
                positions[at..at + used].copy_from_slice(p);
                if !n.is_empty() {
                    normals[at..at + used].copy_from_slice(n);
                }
            })
        });
        posed.into_iter().collect::<Result<()>>()?;
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

/// How tall the points are: the span of their z over every frame (`NaN`
/// or infinite when they hold no finite height).
fn height(positions: &[[f32; 3]]) -> f32 {
    let (lo, hi) = positions
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p[2]), hi.max(p[2]))
        });
    hi - lo
}
