//! Groups, vertices and triangles from the scene's meshes.
//!
//! - **Groups.** One per scene mesh, in order (a mesh without triangles
//!   too), drawn with the mesh's material.
//! - **Vertices.** MS3D keeps a normal and a texture coordinate per
//!   triangle corner, so a vertex is only a position and its joint
//!   influences: within a group, scene vertices with the same position
//!   (bit for bit) and the same stored influences are one MS3D vertex.
//!   UV seams and hard edges cost nothing. Groups do not share vertices
//!   (MilkShape's editor keeps a mesh's vertices to itself).
//! - **Positions.** Skinned meshes keep their bind-pose positions, with
//!   the mesh's default morph weights applied; meshes bound to one joint
//!   are baked into its bind space, static ones where they rest (their
//!   node's rest transform); normals by the inverse transpose.
//! - **Corners.** Normals and texture coordinates per corner, `t = v`
//!   (MilkShape's `t` runs top-down, as the scene's `v`; see
//!   `Scene::from_ms3d`), the winding kept (MilkShape's axes are the
//!   scene's: [`ms3d_axes`](crate::ms3d::ms3d_axes)). A mesh without
//!   normals is drawn faceted (glTF's rule): each corner gets its face's
//!   normal. A normal that is zero or not finite is replaced by the face
//!   normal, a texture coordinate that is not finite by 0 (counted).
//! - **Smoothing groups**: see [`super::smoothing`].
//! - **Weights**: see [`super::weights`].

use std::collections::HashMap;

use glam::{DMat3, DMat4, DVec3, Vec3};

use super::joints::{Binding, JointPlan, Slot};
use super::poses::{Near, Poses};
use super::smoothing::smoothing_groups;
use super::weights::{encode, encode_by, Stored};
use crate::error::{Error, Result};
use crate::ms3d::{Triangle, Vertex, VertexExtra};
use crate::scene::{Mesh, Scene};

/// The geometry of the model.
#[derive(Debug, Clone, Default)]
pub(crate) struct Geometry {
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// One vertex extra record per vertex.
    pub records: Vec<VertexExtra>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
    /// Per group (scene mesh): its triangles.
    pub group_triangles: Vec<Vec<u16>>,
    /// Per scene mesh, per vertex: its MS3D vertex.
    pub vertex_map: Vec<Vec<Option<u32>>>,
    /// Scene vertices that triangles use.
    pub source_vertices: usize,
    /// The largest weight rounding error, in percentage points.
    pub weight_error: f64,
    /// Vertices whose weights short of 100 % had to be made whole.
    pub made_whole: usize,
    /// Vertices with more than four influences (after merging).
    pub influences_dropped: usize,
    /// Normals replaced by face normals.
    pub normals_replaced: usize,
    /// Texture coordinates replaced by 0.
    pub uvs_replaced: usize,
    /// Triangles left out (an index out of range).
    pub triangles_dropped: usize,
    /// Smoothing regions that could not get a number of their own.
    pub smoothing_conflicts: usize,
    /// Meshes with morph targets (baked at their default weights).
    pub morphed_meshes: Vec<usize>,
}

/// Most vertices and triangles a compile builds before checking limits
/// (far above MilkShape's 65534; bounds memory for hostile scenes).
const MAX_BUILT: usize = 1 << 22;

/// The positions and normals of `mesh` as they go into the file.
fn baked(mesh: &Mesh, bake: Option<&DMat4>) -> (Vec<[f32; 3]>, Option<Vec<[f32; 3]>>) {
    let mut positions = mesh.positions.clone();
    let mut normals = (mesh.normals.len() == positions.len()).then(|| mesh.normals.clone());
    for (target, &w) in mesh.morph_targets.iter().zip(&mesh.morph_weights) {
        if w == 0.0 {
            continue;
        }
        for (p, d) in positions.iter_mut().zip(&target.positions) {
            *p = (Vec3::from(*p) + Vec3::from(*d) * w).to_array();
        }
        if let Some(normals) = normals.as_mut() {
            for (n, d) in normals.iter_mut().zip(&target.normals) {
                *n = (Vec3::from(*n) + Vec3::from(*d) * w).to_array();
            }
        }
    }
    if let Some(m) = bake.filter(|m| **m != DMat4::IDENTITY) {
        for p in positions.iter_mut() {
            let q = m.transform_point3(DVec3::from(p.map(f64::from)));
            *p = q.to_array().map(|x| x as f32);
        }
        let nm = DMat3::from_mat4(*m).inverse().transpose();
        if let Some(normals) = normals.as_mut() {
            for n in normals.iter_mut() {
                let q = nm * DVec3::from(n.map(f64::from));
                *n = q.to_array().map(|x| x as f32);
            }
        }
    }
    if let Some(normals) = normals.as_mut() {
        for n in normals.iter_mut() {
            let v = Vec3::from(*n);
            let l = v.length();
            if l.is_finite() && l > 0.0 && (l - 1.0).abs() > 1e-6 {
                *n = (v / l).to_array();
            }
        }
    }
    (positions, normals)
}

/// Whether a normal can be stored as it is.
fn usable(n: [f32; 3]) -> bool {
    let l = Vec3::from(n).length();
    l.is_finite() && l > 0.5
}

/// Where set `set` of a [`crate::scene::SkinWeights`] is, after
/// `meshes[m].skin`: nothing for the first, `.more[k]` for the others.
fn set_path(set: usize) -> String {
    match set {
        0 => String::new(),
        s => format!(".more[{}]", s - 1),
    }
}

/// The stored influences of each vertex of skinned mesh `m`, whose
/// vertices are at `positions` (baked): each vertex's weights rounded to
/// the whole percents that keep it nearest to the source over `poses`
/// (see [`super::weights::encode_by`]).
fn influences(
    scene: &Scene,
    plan: &JointPlan,
    m: usize,
    positions: &[[f32; 3]],
    poses: &Poses,
    geometry: &mut Geometry,
) -> Result<Vec<Stored>> {
    let mesh = &scene.meshes[m];
    let bad = |path: String, message: String| Error::InvalidScene { path, message };
    let Some(sw) = &mesh.skin else {
        return Ok(Vec::new());
    };
    let slots = &plan.slots[sw.skin];
    let n = mesh.positions.len();
    if let Some((set, (joints, weights))) = sw
        .sets()
        .enumerate()
        .find(|(_, (j, w))| j.len() != n || w.len() != n)
    {
        return Err(bad(
            format!("meshes[{m}].skin{}", set_path(set)),
            format!(
                "{} joint and {} weight sets for {n} vertices",
                joints.len(),
                weights.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(n);
    let mut near = Near::new(poses);
    let mut done = HashMap::new();
    for i in 0..n {
        let mut list: Vec<(u8, f64)> = Vec::with_capacity(4);
        let mut remainder = 0.0f64;
        // Every influence of every set of four (MilkShape keeps four of
        // them, below).
        let all = sw
            .sets()
            .enumerate()
            .flat_map(|(set, (j, w))| j[i].iter().zip(&w[i]).map(move |(&j, &w)| (set, j, w)));
        for (set, joint, w) in all {
            let w = f64::from(w);
            if !w.is_finite() || w < 0.0 {
                return Err(bad(
                    format!("meshes[{m}].skin{}.weights[{i}]", set_path(set)),
                    format!("weight {w} is not a finite non-negative number"),
                ));
            }
            if w == 0.0 {
                continue;
            }
            let slot = slots.get(usize::from(joint)).copied().ok_or_else(|| {
                bad(
                    format!("meshes[{m}].skin{}.joints[{i}]", set_path(set)),
                    format!("joint {joint} out of range 0..{}", slots.len()),
                )
            })?;
            match slot {
                Slot::Joint(j) => {
                    let j = u8::try_from(j).map_err(|_| {
                        bad(
                            format!("meshes[{m}].skin"),
                            "joint index past 255".to_string(),
                        )
                    })?;
                    match list.iter_mut().find(|e| e.0 == j) {
                        Some(e) => e.1 += w,
                        None => list.push((j, w)),
                    }
                }
                Slot::Still => {}
                Slot::Remainder => remainder += w,
            }
        }
        let total: f64 = list.iter().map(|e| e.1).sum::<f64>() + remainder;
        if list.len() > 4 {
            geometry.influences_dropped += 1;
            let mut by_weight = list.clone();
            by_weight.sort_by(|a, b| b.1.total_cmp(&a.1));
            by_weight.truncate(4);
            list.retain(|e| by_weight.contains(e));
        }
        if total > 0.0 {
            for e in list.iter_mut() {
                e.1 /= total;
            }
        }
        let posed =
            !poses.is_empty() && list.len() > 1 && list.iter().all(|e| poses.has(usize::from(e.0)));
        let (stored, report) = if posed {
            // Vertices of one place and weights (a seam's) round alike.
            let mut key = ([0u32; 3], [(0u8, 0u64); 4]);
            key.0 = positions[i].map(f32::to_bits);
            for (k, e) in list.iter().enumerate() {
                key.1[k] = (e.0, e.1.to_bits());
            }
            *done.entry(key).or_insert_with(|| {
                near.prepare(DVec3::from(positions[i].map(f64::from)), &list);
                encode_by(
                    &list,
                    Some(&mut |stored: &[(u8, u32)]| near.distance(stored)),
                )
            })
        } else {
            encode(&list)
        };
        geometry.weight_error = geometry.weight_error.max(report.error);
        geometry.made_whole += usize::from(report.made_whole);
        out.push(stored);
    }
    Ok(out)
}

/// Builds the geometry of `scene` with the joints of `plan`, whose
/// skinning matrices at a few poses are `poses` (for the weights'
/// rounding).
pub(crate) fn build(scene: &Scene, plan: &JointPlan, poses: &Poses) -> Result<Geometry> {
    let mut g = Geometry::default();
    let bad = |path: String, message: String| Error::InvalidScene { path, message };
    let mut corner_normals: Vec<[[f32; 3]; 3]> = Vec::new();
    for (m, mesh) in scene.meshes.iter().enumerate() {
        if !mesh.morph_targets.is_empty() {
            g.morphed_meshes.push(m);
        }
        let n = mesh.positions.len();
        let (positions, normals) = match &plan.bindings[m] {
            Binding::Skinned { bake } | Binding::Rigid { bake, .. } | Binding::Static { bake } => {
                baked(mesh, Some(bake))
            }
        };
        let stored: Vec<Stored> = match &plan.bindings[m] {
            Binding::Skinned { .. } => influences(scene, plan, m, &positions, poses, &mut g)?,
            Binding::Rigid { joint, .. } => {
                let (s, _) = encode(&[(u8::try_from(*joint).unwrap_or(u8::MAX), 1.0)]);
                vec![s; n]
            }
            Binding::Static { .. } => vec![encode(&[]).0; n],
        };
        let mut map: Vec<Option<u32>> = vec![None; n];
        let mut weld: HashMap<([u32; 3], Stored), u32> = HashMap::new();
        let mut corners: Vec<[u32; 3]> = Vec::new();
        let mut faces: Vec<[f32; 3]> = Vec::new();
        let first_triangle = g.triangles.len();
        corner_normals.clear();
        for t in mesh.indices.chunks_exact(3) {
            if t.iter().any(|&i| i as usize >= n) {
                g.triangles_dropped += 1;
                continue;
            }
            if g.triangles.len() >= MAX_BUILT {
                return Err(Error::unwritable(
                    "triangles",
                    format!("more than {MAX_BUILT} triangles"),
                ));
            }
            let mut tri = Triangle::default();
            let mut corner = [0u32; 3];
            for (k, &i) in t.iter().enumerate() {
                let i = i as usize;
                let p = positions[i];
                if p.iter().any(|x| !x.is_finite()) {
                    return Err(bad(
                        format!("meshes[{m}].positions[{i}]"),
                        format!("{p:?} is not a finite position"),
                    ));
                }
                let bits = p.map(|x| if x == 0.0 { 0 } else { x.to_bits() });
                let v = match map[i] {
                    Some(v) => v,
                    None => {
                        let next = g.vertices.len() as u32;
                        let v = *weld.entry((bits, stored[i])).or_insert_with(|| {
                            g.vertices.push(Vertex {
                                flags: 0,
                                position: p,
                                bone_id: stored[i].bone_id,
                                reference_count: 0,
                            });
                            g.records.push(stored[i].extra);
                            next
                        });
                        if g.vertices.len() > MAX_BUILT {
                            return Err(Error::unwritable(
                                "vertices",
                                format!("more than {MAX_BUILT} vertices"),
                            ));
                        }
                        map[i] = Some(v);
                        g.source_vertices += 1;
                        v
                    }
                };
                corner[k] = v;
                let uv = mesh.uvs.get(i).copied().unwrap_or([0.0; 2]);
                let uv = if uv.iter().all(|x| x.is_finite()) {
                    uv
                } else {
                    g.uvs_replaced += 1;
                    [0.0; 2]
                };
                tri.s[k] = uv[0];
                tri.t[k] = uv[1];
                tri.normals[k] = normals.as_ref().map_or([f32::NAN; 3], |n| n[i]);
            }
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(positions[t[k] as usize]));
            let face = (b - a)
                .cross(c - a)
                .try_normalize()
                .unwrap_or(Vec3::Y)
                .to_array();
            for k in 0..3 {
                if !usable(tri.normals[k]) {
                    if normals.is_some() {
                        g.normals_replaced += 1;
                    }
                    tri.normals[k] = face;
                }
            }
            tri.vertices = corner.map(|v| v as u16);
            tri.group = u8::try_from(m).unwrap_or(u8::MAX);
            corners.push(corner);
            faces.push(face);
            corner_normals.push(tri.normals);
            for &v in &corner {
                let r = &mut g.vertices[v as usize].reference_count;
                *r = r.saturating_add(1);
            }
            g.triangles.push(tri);
        }
        let (groups, conflicts) = smoothing_groups(&corners, &corner_normals, &faces);
        g.smoothing_conflicts += conflicts;
        for (t, sg) in g.triangles[first_triangle..].iter_mut().zip(groups) {
            t.smoothing_group = sg;
        }
        g.group_triangles.push(
            (first_triangle..g.triangles.len())
                .map(|t| t as u16)
                .collect(),
        );
        g.vertex_map.push(map);
    }
    Ok(g)
}
