//! The report: each animation's errors, and the model checked against
//! the engine's loader.

use super::prepared::Prepared;
use super::refusal::{self, limit_error};
use super::tally::FrameErrors;
use super::SkinFile;
use super::{checked, AnimationReport, CompileOptions, CompileReport, CompileWarning, Compiled};
use crate::error::Result;
use crate::md2::Md2;
use crate::Severity;

impl Prepared<'_> {
    /// Each animation's report from its frames' errors, and how many
    /// positions were clamped.
    pub(super) fn reports(&self, errors: &[FrameErrors]) -> (Vec<AnimationReport>, usize) {
        let n = self.source.vertices.len();
        let mut reports = Vec::new();
        let mut clamped = 0usize;
        let mut f = 0;
        for g in &self.plan.groups {
            let mut r = AnimationReport {
                source: g.source.clone(),
                first_frame: f,
                frames: g.poses.len(),
                times: g.poses.iter().map(|p| p.time).collect(),
                ..AnimationReport::default()
            };
            let mut squares = 0.0f64;
            for e in &errors[f..f + g.poses.len()] {
                r.max_error = r.max_error.max(e.max_error);
                r.max_step_fraction = r.max_step_fraction.max(e.max_step_fraction);
                clamped += e.clamped;
                squares += f64::from(e.squares);
            }
            f += g.poses.len();
            let samples = (g.poses.len() * n).max(1) as f64;
            r.rms_error = (squares / samples).sqrt() as f32;
            reports.push(r);
        }
        (reports, clamped)
    }

    /// The model checked against the engine, with its report.
    pub(super) fn conclude(
        mut self,
        model: Md2,
        skin: Option<SkinFile>,
        mut reports: Vec<AnimationReport>,
        vertex_of: &[u32],
        options: &CompileOptions,
    ) -> Result<Compiled> {
        let engine = options.engine;
        for p in checked::grouped(model.validate_for(engine)) {
            match p.severity {
                Severity::Error => {
                    let l = refusal::limit_of(&model, engine, &p.path);
                    return Err(limit_error(&p.path, p.message, engine, l));
                }
                Severity::Warning => self.warnings.push(CompileWarning::Skin {
                    message: format!("{}: {}", p.path, p.message),
                }),
            }
        }
        // Names of the MD2's animations, for the report.
        let found = model.animations();
        for (r, a) in reports.iter_mut().zip(&found) {
            r.name = a.name.clone();
        }
        let report = CompileReport {
            animations: reports,
            source_vertices: self.source.vertices.len(),
            vertices: model.num_vertices,
            triangles: model.triangles.len(),
            texcoords: model.texcoords.len(),
            scale: self.scale,
            reused_md2_source: self.md2.is_some(),
        };
        let vertex_map = self.source.vertex_map(vertex_of);
        Ok(Compiled {
            model,
            skin,
            report,
            warnings: self.warnings,
            vertex_map,
        })
    }
}
