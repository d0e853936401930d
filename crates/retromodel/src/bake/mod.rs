//! Baking a [`Scene`] into frames, below the formats that store frames
//! of 8-bit vertices (Quake's MDL, Quake II's MD2): which poses become
//! frames ([`plan`]), posing the scene for every frame, the 8-bit grids
//! positions are quantised to ([`grid`]) with their error tally
//! ([`tally`]), and welding vertices whose bytes agree in every frame
//! ([`weld`]). Each format's compiler builds its file from these; no
//! format calls another.
//!
//! Every mesh of the scene takes part, posed by [`Pose`] (skinning, morph
//! weights and the node transforms of the mesh's ancestors). Only the
//! vertices that a triangle uses become model vertices; triangles with an
//! index out of range are left out. Positions and normals are mapped with
//! [`to_quake`] to Quake's axes (the same in Quake and Quake II).
//! A mesh without normals gets, in each frame, the area-weighted sum of
//! its posed counter-clockwise triangles' normals.

pub(crate) mod grid;
pub(crate) mod plan;
pub(crate) mod table;
pub(crate) mod tally;
pub(crate) mod weld;

use glam::Vec3;

use crate::error::{Error, Result};
use crate::scene::{Pose, Scene};
use plan::Plan;

/// The most vertex positions (frames × vertices) a compile bakes: 12
/// bytes each, so about 600 MB. Far above any model an engine loads.
pub(crate) const MAX_SAMPLES: usize = 50_000_000;

/// Scene axes (glTF's: Y up) to Quake's (Z up): `(y, z, x)` back to
/// `(x, y, z)`, a rotation (the inverse of the axes the MD2 and MDL
/// readers lift with).
pub(crate) fn to_quake(v: [f32; 3]) -> [f32; 3] {
    [v[2], v[0], v[1]]
}

/// The vertices and triangles that take part.
#[derive(Debug, Clone, Default)]
pub(crate) struct Source {
    /// Per used vertex: (mesh, vertex of that mesh).
    pub vertices: Vec<(usize, u32)>,
    /// Per used vertex: its texture coordinate (zero when the mesh has
    /// none).
    pub uvs: Vec<[f32; 2]>,
    /// Triangles over used vertices, counter-clockwise as in the scene.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle: the mesh's material.
    pub materials: Vec<Option<usize>>,
    /// Per triangle: its mesh and its index among the mesh's triangles.
    pub origins: Vec<(usize, usize)>,
    /// Triangles left out for indices out of range.
    pub dropped: usize,
    /// Per mesh: the used-vertex index of each of its vertices.
    remap: Vec<Vec<Option<u32>>>,
    /// The format compiled to, as messages name it (`MD2`, `MDL`).
    format: &'static str,
}

impl Source {
    /// Per mesh, per vertex: the model vertex it became, given each used
    /// vertex's model vertex.
    pub fn vertex_map(&self, md2_vertex_of_used: &[u32]) -> Vec<Vec<Option<u32>>> {
        self.remap
            .iter()
            .map(|m| {
                m.iter()
                    .map(|u| u.and_then(|u| md2_vertex_of_used.get(u as usize).copied()))
                    .collect()
            })
            .collect()
    }

    /// The used vertices and triangles of `scene`, compiled to `format`
    /// (as messages name it: `MD2`, `MDL`).
    pub fn new(scene: &Scene, format: &'static str) -> Source {
        Source::of_meshes(scene, format, |_| true)
    }

    /// [`Source::new`] over the meshes `keep` takes only (by index); the
    /// others' vertices and triangles take no part.
    pub fn of_meshes(scene: &Scene, format: &'static str, keep: impl Fn(usize) -> bool) -> Source {
        let mut s = Source {
            format,
            ..Source::default()
        };
        for (m, mesh) in scene.meshes.iter().enumerate() {
            let n = mesh.positions.len();
            let mut remap = vec![None; n];
            let triangles = if keep(m) {
                mesh.indices.as_slice()
            } else {
                &[]
            };
            for (k, t) in triangles.chunks_exact(3).enumerate() {
                if t.iter().any(|&i| i as usize >= n) {
                    s.dropped += 1;
                    continue;
                }
                let mut tri = [0u32; 3];
                for (k, &i) in t.iter().enumerate() {
                    tri[k] = *remap[i as usize].get_or_insert_with(|| {
                        s.vertices.push((m, i));
                        s.uvs
                            .push(mesh.uvs.get(i as usize).copied().unwrap_or([0.0; 2]));
                        (s.vertices.len() - 1) as u32
                    });
                }
                s.triangles.push(tri);
                s.materials.push(mesh.material);
                s.origins.push((m, k));
            }
            s.remap.push(remap);
        }
        s
    }
}

/// Poses `scene` for every frame of `plan` and calls `visit(frame,
/// positions, normals)` with the used vertices' positions and unit
/// normals in Quake's axes (unscaled). `with_normals` false skips the
/// normals (the slice is then empty).
pub(crate) fn for_each_frame(
    scene: &Scene,
    plan: &Plan,
    source: &Source,
    with_normals: bool,
    visit: impl FnMut(usize, &[[f32; 3]], &[[f32; 3]]),
) -> Result<()> {
    let all = 0..plan.frame_count();
    for_frames(scene, plan, source, with_normals, all, visit)
}

/// [`for_each_frame`] for the frames in `frames` only (a pose depends
/// only on its time, so ranges can be posed apart, and at once).
pub(crate) fn for_frames(
    scene: &Scene,
    plan: &Plan,
    source: &Source,
    with_normals: bool,
    frames: std::ops::Range<usize>,
    mut visit: impl FnMut(usize, &[[f32; 3]], &[[f32; 3]]),
) -> Result<()> {
    let mut pose = Pose::new(scene)?;
    let longest = scene
        .meshes
        .iter()
        .map(|m| m.positions.len())
        .max()
        .unwrap_or(0);
    let mut mesh_positions = vec![[0.0f32; 3]; longest];
    let mut mesh_normals = vec![[0.0f32; 3]; longest];
    let used = source.vertices.len();
    let mut positions = vec![[0.0f32; 3]; used];
    let mut normals = vec![[0.0f32; 3]; if with_normals { used } else { 0 }];
    let poses = plan.poses().enumerate().skip(frames.start);
    for (f, fp) in poses.take(frames.len()) {
        match fp.animation {
            Some(a) => pose.sample(scene, a, fp.time),
            None => pose.reset(scene),
        }
        for (m, mesh) in scene.meshes.iter().enumerate() {
            let remap = &source.remap[m];
            if remap.iter().all(Option::is_none) {
                continue;
            }
            let n = mesh.positions.len();
            pose.mesh_vertices(scene, m, &mut mesh_positions[..n], &mut mesh_normals[..n]);
            if with_normals && mesh.normals.len() != n {
                face_normals(&mesh_positions[..n], &mesh.indices, &mut mesh_normals[..n]);
            }
            for (i, slot) in remap.iter().enumerate() {
                if let Some(u) = slot {
                    positions[*u as usize] = to_quake(mesh_positions[i]);
                    if with_normals {
                        normals[*u as usize] = to_quake(mesh_normals[i]);
                    }
                }
            }
        }
        if !crate::scene::all_finite(positions.as_flattened()) {
            return Err(not_finite(scene, source, &positions, f, &fp));
        }
        visit(f, &positions, &normals);
    }
    Ok(())
}

/// The error for frame `f`, whose posed `positions` are not all finite
/// (a position or transform that overflows, a singular skin matrix):
/// there is nothing to quantise, and a grid made around infinity would
/// be a model that draws nothing.
fn not_finite(
    scene: &Scene,
    source: &Source,
    positions: &[[f32; 3]],
    f: usize,
    fp: &plan::FramePose,
) -> Error {
    let u = positions
        .iter()
        .position(|p| !crate::scene::all_finite(p))
        .unwrap_or_default();
    let (m, v) = source.vertices.get(u).copied().unwrap_or_default();
    let mesh = scene.meshes.get(m).map_or("", |mesh| mesh.name.as_str());
    let when = match fp.animation.and_then(|a| scene.animations.get(a)) {
        Some(a) => format!("animation {:?} at {} s", a.name, fp.time),
        None => "the rest pose".to_string(),
    };
    Error::InvalidScene {
        path: format!("meshes[{m}] ({mesh:?}) vertex {v}"),
        message: format!(
            "posed at {:?} in {when} ({} frame {f}): not a finite position, so there is nothing \
             to quantise (a position, transform or skin that overflows)",
            positions.get(u).copied().unwrap_or_default(),
            source.format
        ),
    }
}

/// Posed frames: positions and normals, frame after frame.
pub(crate) type Posed = (Vec<[f32; 3]>, Vec<[f32; 3]>);

/// Every frame of `plan` posed: frames × used vertices positions in
/// Quake's axes (unscaled) and, when `with_normals`, their unit normals
/// (else an empty vector). Pieces of the frame range are posed at once
/// (a pose depends only on its time).
pub(crate) fn pose_all(
    scene: &Scene,
    plan: &Plan,
    source: &Source,
    with_normals: bool,
) -> Result<Posed> {
    let frames = plan.frame_count();
    let used = source.vertices.len();
    let mut positions = vec![[0.0f32; 3]; frames * used];
    let mut normals = vec![[0.0f32; 3]; if with_normals { frames * used } else { 0 }];
    let mut tasks = Vec::new();
    let (mut rest_positions, mut rest_normals) = (&mut positions[..], &mut normals[..]);
    for range in crate::parallel::ranges(frames, crate::parallel::pieces(frames, frames * used)) {
        let (p, p_rest) = rest_positions.split_at_mut(range.len() * used);
        let n_len = if with_normals { range.len() * used } else { 0 };
        let (n, n_rest) = rest_normals.split_at_mut(n_len);
        (rest_positions, rest_normals) = (p_rest, n_rest);
        tasks.push((range, p, n));
    }
    let posed = crate::parallel::map(tasks, |(range, positions, normals)| {
        let start = range.start;
        for_frames(scene, plan, source, with_normals, range, |f, p, n| {
            let at = (f - start) * used;
            positions[at..at + used].copy_from_slice(p);
            if !n.is_empty() {
                normals[at..at + used].copy_from_slice(n);
            }
        })
    });
    posed.into_iter().collect::<Result<()>>()?;
    Ok((positions, normals))
}

/// How tall the points are: the span of their z over every frame (`NaN`
/// or infinite when they hold no finite height).
pub(crate) fn height(positions: &[[f32; 3]]) -> f32 {
    let (lo, hi) = positions
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p[2]), hi.max(p[2]))
        });
    hi - lo
}

/// The bytes of every position of `frames × n` positions (frame `f` on
/// `grids[f]`) and each frame's errors, pieces of the frame range at
/// once.
pub(crate) fn quantize_all(
    positions: &[[f32; 3]],
    n: usize,
    grids: &[grid::FrameGrid],
) -> (Vec<[u8; 3]>, Vec<tally::FrameErrors>) {
    let frames = grids.len();
    let pieces = crate::parallel::ranges(frames, crate::parallel::pieces(frames, positions.len()));
    let quantized = crate::parallel::map(pieces, |range| {
        let positions = &positions[range.start * n..range.end * n];
        quantize_frames(positions, n, &grids[range])
    });
    let mut bytes = Vec::with_capacity(positions.len());
    let mut errors = Vec::with_capacity(frames);
    for (b, e) in quantized {
        bytes.extend_from_slice(&b);
        errors.extend(e);
    }
    (bytes, errors)
}

/// The bytes of frames of `n` positions each (frame `f` on `grids[f]`)
/// and each frame's errors.
fn quantize_frames(
    positions: &[[f32; 3]],
    n: usize,
    grids: &[grid::FrameGrid],
) -> (Vec<[u8; 3]>, Vec<tally::FrameErrors>) {
    use tally::{ErrorTally, LaneTally};
    let mut bytes = Vec::with_capacity(positions.len());
    let mut errors = Vec::with_capacity(grids.len());
    if n == 0 {
        return (
            bytes,
            grids.iter().map(|g| ErrorTally::new(g).finish()).collect(),
        );
    }
    let mut frame_bytes = Vec::with_capacity(n);
    for (frame, grid) in positions.chunks_exact(n).zip(grids) {
        let mut tally = ErrorTally::new(grid);
        let mut lanes = LaneTally::<true>::new(&tally);
        grid::quantize_fast(grid, frame, &mut frame_bytes, |x, d, used| {
            lanes.add(x, d, used)
        });
        lanes.add_to(&mut tally);
        bytes.extend_from_slice(&frame_bytes);
        errors.push(tally.finish());
    }
    (bytes, errors)
}

/// Fails when baking `frames` frames of `vertices` vertices would take
/// more than [`MAX_SAMPLES`] positions.
pub(crate) fn check_size(frames: usize, vertices: usize) -> Result<()> {
    match frames.checked_mul(vertices) {
        Some(n) if n <= MAX_SAMPLES => Ok(()),
        _ => Err(Error::InvalidOptions {
            message: format!(
                "{frames} frames of {vertices} vertices are more than the {MAX_SAMPLES} positions a compile bakes: \
                 lower fps, choose fewer animations or decimate the meshes"
            ),
        }),
    }
}

/// Unit normals from the counter-clockwise triangles (area-weighted);
/// +Y where a vertex has none.
fn face_normals(positions: &[[f32; 3]], indices: &[u32], out: &mut [[f32; 3]]) {
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for t in indices.chunks_exact(3) {
        let p = |k: usize| positions.get(t[k] as usize).map(|&p| Vec3::from(p));
        let (Some(a), Some(b), Some(c)) = (p(0), p(1), p(2)) else {
            continue;
        };
        let n = (b - a).cross(c - a);
        if !n.is_finite() {
            continue;
        }
        for &v in t {
            if let Some(s) = sums.get_mut(v as usize) {
                *s += n;
            }
        }
    }
    for (o, s) in out.iter_mut().zip(sums) {
        *o = s.try_normalize().unwrap_or(Vec3::Y).to_array();
    }
}

/// The error for a limit an engine sets passed: what, by how much, and
/// `remedies` (shared by the compilers of every format).
pub(crate) fn limit_error(
    path: &str,
    quantity: crate::advice::Quantity,
    max: usize,
    actual: usize,
    title: &str,
    remedies: Vec<crate::advice::Remedy>,
) -> Error {
    Error::unwritable(
        path,
        format!(
            "{actual} {} exceed {title}'s limit of {max} (by {})",
            quantity.noun(),
            actual - max
        ),
    )
    .advised(crate::advice::Advice::new(
        Some(crate::advice::Limit {
            quantity,
            max: max as u64,
            actual: actual as u64,
        }),
        remedies,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_quake_turns_y_up_into_z_up() {
        // glTF's up (+Y) is Quake's up (+Z); glTF's +Z (towards the
        // viewer) is Quake's +X (forward); glTF's +X is Quake's +Y (left).
        assert_eq!(to_quake([0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]);
        assert_eq!(to_quake([0.0, 0.0, 1.0]), [1.0, 0.0, 0.0]);
        assert_eq!(to_quake([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]);
    }
}
