//! `Md2::repair`: fixing the faults lenient reading lets through.

use super::{gl_commands, vertex_normals, Md2, NORMAL_COUNT};
use crate::quake::nearest_normal_index;

/// What [`Md2::repair`] changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RepairReport {
    /// Triangles removed because an index pointed outside the model (as
    /// Q2PRO drops them when loading).
    pub dropped_triangles: usize,
    /// Normal indices ≥ 162 replaced by the table normal nearest to the
    /// vertex's computed normal.
    pub fixed_normals: usize,
    /// Whether the GL command list was rebuilt from the triangles (it was
    /// missing or faulty, or triangles were dropped).
    pub rebuilt_gl_commands: bool,
}

impl RepairReport {
    /// Whether nothing needed repair.
    pub fn is_empty(&self) -> bool {
        *self == RepairReport::default()
    }
}

impl Md2 {
    /// Repairs what [`Md2::validate`] warns about and can be repaired:
    /// drops triangles with out-of-range indices, replaces out-of-range
    /// normal indices with the nearest table normal to the vertex normal
    /// computed from the frame's triangles, and rebuilds a missing or
    /// faulty GL command list. Everything else is left as it is.
    ///
    /// ```
    /// use retromodel::md2::sample::sample_model;
    /// let mut model = sample_model();
    /// let original = model.clone();
    /// model.frames[2].vertices[5].normal_index = 170;
    /// model.triangles[0].vertices[1] = 0xffff;
    /// let report = model.repair();
    /// assert_eq!((report.dropped_triangles, report.fixed_normals), (1, 1));
    /// assert!(report.rebuilt_gl_commands);
    /// assert!(model.validate().is_empty());
    /// assert_eq!(model.frames[2].vertices[5], original.frames[2].vertices[5]);
    /// ```
    pub fn repair(&mut self) -> RepairReport {
        let mut report = RepairReport::default();
        let (nv, nt) = (self.num_vertices, self.texcoords.len());
        let before = self.triangles.len();
        self.triangles.retain(|t| {
            t.vertices.iter().all(|&v| (v as usize) < nv)
                && t.texcoords.iter().all(|&s| (s as usize) < nt)
        });
        report.dropped_triangles = before - self.triangles.len();

        let index_triangles: Vec<[u16; 3]> = self.triangles.iter().map(|t| t.vertices).collect();
        let mut positions = vec![[0.0f32; 3]; self.vertex_count()];
        for frame in &mut self.frames {
            if frame.vertices.len() != nv
                || frame
                    .vertices
                    .iter()
                    .all(|v| (v.normal_index as usize) < NORMAL_COUNT)
            {
                continue;
            }
            frame.decode_positions(&mut positions);
            let normals = vertex_normals(&positions, &index_triangles, true);
            for (v, n) in frame.vertices.iter_mut().zip(&normals) {
                if v.normal_index as usize >= NORMAL_COUNT {
                    v.normal_index = nearest_normal_index(*n);
                    report.fixed_normals += 1;
                }
            }
        }

        let gl = self.decode_gl_commands();
        if self.gl_commands.is_empty() || !gl.faults.is_empty() || report.dropped_triangles > 0 {
            self.gl_commands = gl_commands::build(self);
            report.rebuilt_gl_commands = true;
        }
        report
    }
}
