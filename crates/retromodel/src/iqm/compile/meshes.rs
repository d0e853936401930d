//! The IQM's meshes and vertex arrays from the scene's meshes (see
//! [`compile`](super)).

use glam::DVec3;

use super::skeleton::{quake_axes, Skeleton};
use super::IqmCompileWarning;
use crate::error::{Error, Result};
use crate::iqm::{ArrayFormat, ArrayKind, Iqm, Mesh, VertexArray};
use crate::scene::Scene;

/// Every vertex of the IQM, attribute by attribute.
#[derive(Default)]
struct Vertices {
    positions: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    normals: Vec<[f32; 3]>,
    joints: Vec<[u8; 4]>,
    weights: Vec<[u8; 4]>,
}

/// A vertex's influences as (IQM joint, weight): the four largest,
/// renormalised and made bytes that sum to 255. `None` when it has no
/// positive weight.
fn blend(mut influences: Vec<(usize, f32)>) -> Option<([usize; 4], [u8; 4], bool)> {
    influences.retain(|&(_, w)| w > 0.0 && w.is_finite());
    // Merge repeats of a joint.
    influences.sort_by_key(|&(j, _)| j);
    influences.dedup_by(|a, b| {
        if a.0 == b.0 {
            b.1 += a.1;
            true
        } else {
            false
        }
    });
    influences.sort_by(|a, b| b.1.total_cmp(&a.1));
    let reduced = influences.len() > 4;
    influences.truncate(4);
    let sum: f32 = influences.iter().map(|x| x.1).sum();
    if influences.is_empty() || sum <= 0.0 {
        return None;
    }
    let mut joints = [0usize; 4];
    let mut bytes = [0u8; 4];
    for (k, &(j, w)) in influences.iter().enumerate() {
        joints[k] = j;
        bytes[k] = (w / sum * 255.0).round().clamp(0.0, 255.0) as u8;
    }
    // The largest takes what rounding left over, so they sum to 255.
    let total: i32 = bytes.iter().map(|&b| i32::from(b)).sum();
    bytes[0] = (i32::from(bytes[0]) + 255 - total).clamp(0, 255) as u8;
    Some((joints, bytes, reduced))
}

/// The meshes of `scene` into `model`: vertex arrays, meshes, triangles.
pub(super) fn build(
    scene: &Scene,
    skeleton: &Skeleton,
    limits: (Option<usize>, Option<usize>),
    model: &mut Iqm,
    warnings: &mut Vec<IqmCompileWarning>,
) -> Result<Vec<(usize, usize)>> {
    let mut v = Vertices::default();
    let mut sources = Vec::new();
    let (mut reduced, mut unweighted) = (0, 0);
    let has_joints = !skeleton.joints.is_empty();
    for (mi, m) in scene.meshes.iter().enumerate() {
        if m.indices.len() < 3 || m.positions.is_empty() {
            continue;
        }
        let skin = m
            .skin
            .as_ref()
            .filter(|s| s.skin < scene.skins.len() && s.fits(m.positions.len()));
        let rigid = m.node.and_then(|n| skeleton.joint_of(n));
        let holder = rigid.or(skeleton.origin).unwrap_or(0);
        let place = if skin.is_none() {
            rigid.map(|j| skeleton.joints[j].bind)
        } else {
            None
        };
        let normal_matrix = place.map(|p| p.inverse().transpose());
        let base = v.positions.len();
        for (i, p) in m.positions.iter().enumerate() {
            let mut p = DVec3::from(p.map(f64::from));
            let mut n = DVec3::from(
                m.normals
                    .get(i)
                    .copied()
                    .unwrap_or([0.0, 1.0, 0.0])
                    .map(f64::from),
            );
            if let (Some(place), Some(nm)) = (place, normal_matrix) {
                p = place.transform_point3(p);
                n = nm.transform_vector3(n).normalize_or_zero();
            }
            v.positions.push(quake_axes(p.as_vec3().to_array()));
            v.normals.push(quake_axes(n.as_vec3().to_array()));
            v.uvs.push(m.uvs.get(i).copied().unwrap_or([0.0; 2]));
            if !has_joints {
                continue;
            }
            let influences: Vec<(usize, f32)> = match skin {
                Some(s) => s
                    .influences(i)
                    .filter_map(|(k, w)| {
                        let node = *scene.skins[s.skin].joints.get(usize::from(k))?;
                        Some((skeleton.joint_of(node)?, w))
                    })
                    .collect(),
                None => vec![(holder, 1.0)],
            };
            let (joints, weights) = match blend(influences) {
                Some((j, w, r)) => {
                    reduced += usize::from(r);
                    (j, w)
                }
                None => {
                    unweighted += 1;
                    ([holder, 0, 0, 0], [255, 0, 0, 0])
                }
            };
            let mut ix = [0u8; 4];
            for k in 0..4 {
                if weights[k] == 0 {
                    continue;
                }
                ix[k] = u8::try_from(joints[k]).map_err(|_| {
                    Error::unwritable(
                        format!("meshes[{mi}] vertex {i}"),
                        format!("it follows joint {}, but IQM's blend indexes are bytes (joints 0 to 255)", joints[k]),
                    )
                })?;
            }
            v.joints.push(ix);
            v.weights.push(weights);
        }
        let material = m.material.and_then(|k| scene.materials.get(k));
        let material_name = material
            .and_then(|x| x.texture)
            .and_then(|t| scene.textures.get(t))
            .map(|t| t.path.clone())
            .filter(|p| !p.is_empty())
            .or_else(|| material.map(|x| x.name.clone()))
            .unwrap_or_default();
        // Clockwise front faces, as the engines draw an IQM.
        let triangles: Vec<[u32; 3]> = m
            .indices
            .chunks_exact(3)
            .filter(|t| t.iter().all(|&i| (i as usize) < m.positions.len()))
            .map(|t| [t[0], t[2], t[1]])
            .collect();
        let parts = split(&triangles, limits);
        if parts.len() > 1 {
            warnings.push(IqmCompileWarning::MeshSplit {
                mesh: m.name.clone(),
                parts: parts.len(),
            });
        }
        for part in parts {
            let order = add_part(model, &mut v, base, &part, &m.name, &material_name)?;
            sources.extend(order.into_iter().map(|i| (mi, i)));
        }
        // The scene mesh's own vertices were only a source for the parts.
        let own = m.positions.len();
        for list in [&mut v.positions, &mut v.normals] {
            list.drain(base..base + own);
        }
        v.uvs.drain(base..base + own);
        if has_joints {
            v.joints.drain(base..base + own);
            v.weights.drain(base..base + own);
        }
    }
    if reduced > 0 {
        warnings.push(IqmCompileWarning::InfluencesReduced { vertices: reduced });
    }
    if unweighted > 0 {
        warnings.push(IqmCompileWarning::Unweighted {
            vertices: unweighted,
        });
    }
    write_arrays(model, &v)?;
    Ok(sources)
}

/// Triangles in parts of at most `limits.0` distinct vertices and
/// `limits.1` triangles each.
fn split(triangles: &[[u32; 3]], limits: (Option<usize>, Option<usize>)) -> Vec<Vec<[u32; 3]>> {
    if limits == (None, None) {
        return vec![triangles.to_vec()];
    }
    let max = limits.0.unwrap_or(usize::MAX);
    let max_triangles = limits.1.unwrap_or(usize::MAX);
    let mut parts = vec![Vec::new()];
    let mut used = std::collections::HashSet::new();
    for t in triangles {
        let new = t.iter().filter(|v| !used.contains(*v)).count();
        let full = parts
            .last()
            .is_some_and(|p: &Vec<[u32; 3]>| p.len() >= max_triangles);
        if used.len() + new > max || full {
            parts.push(Vec::new());
            used.clear();
        }
        used.extend(t.iter().copied());
        if let Some(p) = parts.last_mut() {
            p.push(*t);
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// One IQM mesh: the part's vertices (copied from the scene mesh's,
/// which start at `base`) appended, and its triangles.
/// Returns the scene mesh's vertex of each vertex added.
fn add_part(
    model: &mut Iqm,
    v: &mut Vertices,
    base: usize,
    part: &[[u32; 3]],
    name: &str,
    material: &str,
) -> Result<Vec<usize>> {
    let first_vertex = model.num_vertexes;
    let mut remap = std::collections::HashMap::new();
    let mut out_tris = Vec::with_capacity(part.len());
    let mut order = Vec::new();
    for t in part {
        let mut o = [0u32; 3];
        for (k, &i) in t.iter().enumerate() {
            let next = first_vertex + remap.len() as u32;
            o[k] = *remap.entry(i).or_insert_with(|| {
                order.push(i as usize);
                next
            });
        }
        out_tris.push(o);
    }
    let first_triangle = model.triangles.len() as u32;
    model.triangles.extend(out_tris);
    let name = model.intern(name);
    let material = model.intern(material);
    model.meshes.push(Mesh {
        name,
        material,
        first_vertex,
        num_vertexes: order.len() as u32,
        first_triangle,
        num_triangles: part.len() as u32,
    });
    model.num_vertexes = first_vertex
        .checked_add(order.len() as u32)
        .ok_or_else(|| Error::unwritable("vertices", "more than 2³² vertices"))?;
    // Appended after everything (the scene mesh's own block is dropped
    // later): kept in a side list until then.
    for &i in &order {
        let at = base + i;
        v.positions.push(v.positions[at]);
        v.normals.push(v.normals[at]);
        v.uvs.push(v.uvs[at]);
        if !v.joints.is_empty() {
            v.joints.push(v.joints[at]);
            v.weights.push(v.weights[at]);
        }
    }
    Ok(order)
}

/// Per-vertex tangents (`xyz` and the bitangent's sign), from the
/// triangles' texture directions, as the reference compiler adds them
/// (`iqm.cpp`, `calctangents`): ioquake3's second renderer needs them.
fn tangents(model: &Iqm, v: &Vertices) -> Vec<[f32; 4]> {
    let n = v.positions.len();
    let mut tan = vec![DVec3::ZERO; n];
    let mut bit = vec![DVec3::ZERO; n];
    for t in &model.triangles {
        let [a, b, c] = t.map(|i| i as usize);
        if a >= n || b >= n || c >= n {
            continue;
        }
        let p = |i: usize| DVec3::from(v.positions[i].map(f64::from));
        let (e1, e2) = (p(b) - p(a), p(c) - p(a));
        let (u1, v1) = (
            f64::from(v.uvs[b][0] - v.uvs[a][0]),
            f64::from(v.uvs[b][1] - v.uvs[a][1]),
        );
        let (u2, v2) = (
            f64::from(v.uvs[c][0] - v.uvs[a][0]),
            f64::from(v.uvs[c][1] - v.uvs[a][1]),
        );
        let det = u1 * v2 - u2 * v1;
        if det.abs() < 1e-12 {
            continue;
        }
        let s = (e1 * v2 - e2 * v1) / det;
        let tt = (e2 * u1 - e1 * u2) / det;
        for i in [a, b, c] {
            tan[i] += s;
            bit[i] += tt;
        }
    }
    (0..n)
        .map(|i| {
            let normal = DVec3::from(v.normals[i].map(f64::from));
            let t = (tan[i] - normal * normal.dot(tan[i])).normalize_or_zero();
            let t = if t == DVec3::ZERO {
                normal.any_orthonormal_vector()
            } else {
                t
            };
            let w = if normal.cross(t).dot(bit[i]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            [t.x as f32, t.y as f32, t.z as f32, w]
        })
        .collect()
}

fn write_arrays(model: &mut Iqm, v: &Vertices) -> Result<()> {
    let floats = |values: &mut dyn Iterator<Item = f32>| -> Vec<u8> {
        values.flat_map(f32::to_le_bytes).collect()
    };
    let array = |kind: ArrayKind, format: ArrayFormat, size: u32, data: Vec<u8>| VertexArray {
        kind: kind.code(),
        flags: 0,
        format: format.code(),
        size,
        offset: 0,
        data,
    };
    if v.positions.is_empty() {
        return Ok(());
    }
    let tangents = tangents(model, v);
    model.vertex_arrays = vec![
        array(
            ArrayKind::Position,
            ArrayFormat::Float,
            3,
            floats(&mut v.positions.iter().flatten().copied()),
        ),
        array(
            ArrayKind::Texcoord,
            ArrayFormat::Float,
            2,
            floats(&mut v.uvs.iter().flatten().copied()),
        ),
        array(
            ArrayKind::Normal,
            ArrayFormat::Float,
            3,
            floats(&mut v.normals.iter().flatten().copied()),
        ),
        array(
            ArrayKind::Tangent,
            ArrayFormat::Float,
            4,
            floats(&mut tangents.iter().flatten().copied()),
        ),
    ];
    if !v.joints.is_empty() {
        model.vertex_arrays.push(array(
            ArrayKind::BlendIndexes,
            ArrayFormat::Ubyte,
            4,
            v.joints.iter().flatten().copied().collect(),
        ));
        model.vertex_arrays.push(array(
            ArrayKind::BlendWeights,
            ArrayFormat::Ubyte,
            4,
            v.weights.iter().flatten().copied().collect(),
        ));
    }
    Ok(())
}
