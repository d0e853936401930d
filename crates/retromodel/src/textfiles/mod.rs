//! Text files a game's code or data needs beside a model: QuakeC's
//! `$frame` list ([`qc`]) and GZDoom's MODELDEF block ([`modeldef()`]).
//!
//! The writers take [`ModelFacts`], what they need to know of a written
//! model (frame names, animations, skin names, frame 0's bounds), so that
//! they name no format; [`ModelFacts::from_model`] reads those facts from
//! a model of any format that has frames (MD2, MDL, MD3).
//!
//! ```
//! use retromodel::textfiles::ModelFacts;
//! use retromodel::Model;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let bytes = retromodel::md2::sample::sample_model().to_bytes()?;
//! let facts = ModelFacts::from_model(&Model::from_bytes(&bytes)?).unwrap();
//! assert_eq!(facts.frame_names.len(), 16);
//! assert_eq!(facts.animations[1].name, "run");
//! # Ok(()) }
//! ```

pub mod modeldef;
pub mod qc;

pub use modeldef::{modeldef, AnimationSprites, Modeldef, ModeldefOptions};
pub use qc::{qc_frames, NameIssue, QcFrames, QcNote};

use crate::quake::{animations_from_runs, Animation};
use crate::{Format, Model};

/// What the text writers need to know of a model, in no format's terms.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelFacts {
    /// Each frame's name as stored, in frame order (an MDL frame group is
    /// one frame, named as its first picture).
    pub frame_names: Vec<String>,
    /// Runs of frames, from the frame names, in frame order.
    pub animations: Vec<Animation>,
    /// The model's skin names (an MD2's skin paths; an MDL's skins, which
    /// have no names, as `skin0`, `skin1` ...).
    pub skins: Vec<String>,
    /// Per surface, the image it names (an MD3 surface's first shader;
    /// empty when it names none). Empty for a one-surface format.
    pub surface_skins: Vec<String>,
    /// The lowest and highest corner of frame 0, in the file's axes (z
    /// up); `None` for a model without vertices.
    pub bounds: Option<[[f32; 3]; 2]>,
}

impl ModelFacts {
    /// The facts of `model`, for a format with frames (MD2, MDL, MD3);
    /// `None` for any other.
    pub fn from_model(model: &Model) -> Option<ModelFacts> {
        match model {
            Model::Md2(m) => {
                let frame_names = m.frames.iter().map(|f| f.name.to_string_lossy()).collect();
                let bounds = m.frames.first().and_then(|f| {
                    bounds(f.vertices.iter().map(|v| {
                        let mut p = [0f32; 3];
                        for (k, out) in p.iter_mut().enumerate() {
                            *out = f32::from(v.position[k]) * f.scale[k] + f.translate[k];
                        }
                        p
                    }))
                });
                Some(ModelFacts {
                    frame_names,
                    animations: m.animations(),
                    skins: m.skins.iter().map(|s| s.to_string_lossy()).collect(),
                    surface_skins: Vec::new(),
                    bounds,
                })
            }
            Model::Mdl(m) => {
                let frame_names = m.frame_names();
                let first = m.frames.first().and_then(|f| match f {
                    crate::mdl::Frame::Single(s) => Some(s),
                    crate::mdl::Frame::Group { group, .. } => group.frames.first(),
                });
                let bounds =
                    first.and_then(|s| bounds(s.vertices.iter().map(|&v| m.decode_position(v))));
                Some(ModelFacts {
                    animations: runs(&frame_names),
                    frame_names,
                    skins: (0..m.skins.len()).map(|i| format!("skin{i}")).collect(),
                    surface_skins: Vec::new(),
                    bounds,
                })
            }
            Model::Md3(m) => {
                let frame_names: Vec<String> =
                    m.frames.iter().map(|f| f.name.to_string_lossy()).collect();
                let frames = m.frames.len().max(1);
                let bounds = bounds(m.surfaces.iter().flat_map(|s| {
                    let per_frame = s.xyz_normals.len() / frames;
                    s.xyz_normals[..per_frame].iter().map(|v| {
                        [
                            f32::from(v.xyz[0]) / 64.0,
                            f32::from(v.xyz[1]) / 64.0,
                            f32::from(v.xyz[2]) / 64.0,
                        ]
                    })
                }));
                Some(ModelFacts {
                    animations: runs(&frame_names),
                    frame_names,
                    skins: Vec::new(),
                    surface_skins: m
                        .surfaces
                        .iter()
                        .map(|s| {
                            s.shaders
                                .first()
                                .map(|sh| sh.name.to_string_lossy())
                                .unwrap_or_default()
                        })
                        .collect(),
                    bounds,
                })
            }
            _ => None,
        }
    }

    /// Whether `format` is one [`ModelFacts::from_model`] reads.
    pub fn reads(format: Format) -> bool {
        matches!(format, Format::Md2 | Format::Mdl | Format::Md3)
    }
}

/// Animations from frame names.
fn runs(names: &[String]) -> Vec<Animation> {
    animations_from_runs(names.iter().map(String::as_str))
}

/// The lowest and highest corner of `points`; `None` when there are none.
fn bounds(points: impl Iterator<Item = [f32; 3]>) -> Option<[[f32; 3]; 2]> {
    let mut out: Option<[[f32; 3]; 2]> = None;
    for p in points.filter(|p| p.iter().all(|c| c.is_finite())) {
        let b = out.get_or_insert([p, p]);
        for k in 0..3 {
            b[0][k] = b[0][k].min(p[k]);
            b[1][k] = b[1][k].max(p[k]);
        }
    }
    out
}

/// Frame indices 0..n cut into lines: a new line where an animation
/// starts; every frame once, in order, whatever the animations cover.
pub(crate) fn frame_lines(
    frames: usize,
    animations: &[Animation],
) -> Vec<(String, std::ops::Range<usize>)> {
    let mut starts: Vec<(usize, &str)> = animations
        .iter()
        .filter(|a| a.first_frame < frames && a.frame_count > 0)
        .map(|a| (a.first_frame, a.name.as_str()))
        .collect();
    starts.sort_by_key(|s| s.0);
    starts.dedup_by_key(|s| s.0);
    if starts.first().is_none_or(|s| s.0 != 0) {
        starts.insert(0, (0, "frames"));
    }
    let mut lines = Vec::new();
    for (i, &(first, name)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(frames, |s| s.0);
        if first < end {
            lines.push((name.to_string(), first..end));
        }
    }
    lines
}
