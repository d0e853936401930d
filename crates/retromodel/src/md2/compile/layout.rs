//! The model but its frames: the vertex count checked, the skin's texture
//! coordinates, the triangles in Quake's winding and the frame names.

use std::collections::HashMap;

use super::prepared::Prepared;
use super::refusal::{limit, limit_error};
use super::{names, CompileOptions, CompileWarning, SkinFile};
use crate::advice::Quantity;
use crate::error::{Error, Result};
use crate::md2::{FrameName, Md2, TexCoord, Triangle};

impl Prepared<'_> {
    /// Everything of the model but its frames and GL commands: the
    /// vertex count checked, the skin, texture coordinates, triangles and
    /// frame names.
    pub(super) fn layout(
        &mut self,
        vertex_of: &[u32],
        num_vertices: usize,
        options: &CompileOptions,
    ) -> Result<Layout> {
        let engine = options.engine;
        let limits = engine.limits();
        let n = self.source.vertices.len();
        if num_vertices > limits.max_vertices {
            return Err(limit_error(
                "header.num_vertices",
                format!(
                    "{num_vertices} vertices (after welding) exceed {}'s limit of {} (by {})",
                    engine.title(),
                    limits.max_vertices,
                    num_vertices - limits.max_vertices
                ),
                engine,
                limit(Quantity::Vertices, limits.max_vertices, num_vertices),
            ));
        }
        // Skin and texture coordinates.
        let mut skin_warnings = Vec::new();
        let mut skin = self.skin(options, &mut skin_warnings)?;
        self.warnings.append(&mut skin_warnings);
        let (skin_width, skin_height) = skin.size;
        let mut texcoords: Vec<TexCoord> = Vec::new();
        let mut texcoord_of: HashMap<TexCoord, u16> = HashMap::new();
        let mut st_of_vertex = Vec::with_capacity(n);
        for (u, uv) in self.source.uvs.iter().enumerate() {
            let px = skin.map(u, *uv, &self.source, self.scene);
            let tc = TexCoord {
                s: round_i16(px[0]),
                t: round_i16(px[1]),
            };
            let next = texcoords.len();
            let index = *texcoord_of.entry(tc).or_insert_with(|| {
                texcoords.push(tc);
                next as u16
            });
            st_of_vertex.push(index);
            if texcoords.len() > 65536 {
                return Err(Error::Unwritable {
                    context: "texcoords".to_string(),
                    message: "more than 65536 texture coordinates".to_string(),
                });
            }
        }
        if skin.clamped > 0 {
            self.warnings.push(CompileWarning::UvsClamped {
                vertices: skin.clamped,
            });
        }
        // Triangles, Quake's winding.
        let mut triangles = Vec::with_capacity(self.source.triangles.len());
        let mut dropped = self.source.dropped;
        for t in &self.source.triangles {
            let corners = [t[0], t[2], t[1]];
            let v = corners.map(|c| vertex_of[c as usize]);
            // On an MD2 record, a triangle over one MD2 vertex twice is
            // the file's own: kept, so the model comes back as it was.
            let degenerate = v[0] == v[1] || v[1] == v[2] || v[0] == v[2];
            if degenerate && self.md2.is_none() {
                dropped += 1;
                continue;
            }
            triangles.push(Triangle {
                vertices: v.map(|x| x as u16),
                texcoords: corners.map(|c| st_of_vertex[c as usize]),
            });
        }
        if dropped > 0 {
            self.warnings
                .push(CompileWarning::TrianglesDropped { count: dropped });
        }
        let names = self.frame_names();
        let model = Md2 {
            skin_width,
            skin_height,
            skins: skin.names,
            texcoords,
            triangles,
            frames: Vec::new(),
            gl_commands: Vec::new(),
            trailing: Vec::new(),
            source: None,
            num_vertices,
        };
        Ok(Layout {
            model,
            skin: skin.file,
            names,
        })
    }

    /// A frame format's frame names, every frame kept one for one, when
    /// they group back (by name, [`animations_from_names`]) into exactly
    /// the planned animations: then they are written as they were.
    ///
    /// [`animations_from_names`]: crate::md2::animations_from_names
    fn kept_frame_names(&self, groups: &[(String, usize)]) -> Option<Vec<FrameName>> {
        let mut kept = Vec::new();
        for g in &self.plan.groups {
            for k in 0..g.poses.len() {
                kept.push(g.kept_name(k)?);
            }
        }
        let back: Vec<(String, usize)> = crate::md2::animations_from_names(kept.iter().copied())
            .into_iter()
            .map(|a| (a.name, a.frame_count))
            .collect();
        (back == groups).then(|| kept.into_iter().map(FrameName::new).collect())
    }

    fn frame_names(&mut self) -> Vec<FrameName> {
        if let Some(s) = &self.md2 {
            return s.frames.iter().map(|f| f.name).collect();
        }
        let mut out = Vec::new();
        let groups: Vec<(String, usize)> = self
            .plan
            .groups
            .iter()
            .map(|g| (g.name.clone(), g.poses.len()))
            .collect();
        if self.plan.groups.iter().all(|g| g.player_entry.is_some()) {
            for g in &self.plan.groups {
                out.extend(names::player_frame_names(g.player_entry.unwrap_or(0)));
            }
            let expected: Vec<(String, usize)> = groups;
            names::check_grouping(&out, &expected, &mut self.warnings);
            return out;
        }
        if let Some(kept) = self.kept_frame_names(&groups) {
            return kept;
        }
        let written = names::animation_names(&groups, &mut self.warnings);
        for (name, (_, count)) in written.iter().zip(&groups) {
            out.extend(names::frame_names(name, *count));
        }
        let expected: Vec<(String, usize)> = written
            .into_iter()
            .zip(groups)
            .map(|(n, (_, c))| (n, c))
            .collect();
        names::check_grouping(&out, &expected, &mut self.warnings);
        out
    }
}

/// Everything of the model but its frames and GL commands, from
/// [`Prepared::layout`].
pub(super) struct Layout {
    pub(super) model: Md2,
    pub(super) skin: Option<SkinFile>,
    pub(super) names: Vec<FrameName>,
}

fn round_i16(x: f32) -> i16 {
    if x.is_nan() {
        0
    } else {
        x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
    }
}
