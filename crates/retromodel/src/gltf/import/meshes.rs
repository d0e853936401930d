//! Meshes: one scene mesh per (node of the default scene, primitive of its
//! mesh), with positions, normals, texture coordinates, triangles, morph
//! targets, skin weights and the mesh's extras.

use std::collections::HashMap;

use serde_json::Value;

use super::accessor::{allowed, Component};
use super::json::{err, escape, At, Json};
use super::materials::Materials;
use super::nodes::{Included, Skins};
use super::skin_weights::{skin_weights, MaxJoint};
use super::Ctx;
use crate::error::Result;
use crate::scene::{Mesh, MorphTarget, Scene, SkinWeights};

/// Which scene meshes each document node instances.
#[derive(Default)]
pub(crate) struct Instances {
    /// Document node → its scene meshes, in primitive order.
    pub by_node: HashMap<usize, Vec<usize>>,
}

/// A primitive made into a scene mesh, before it is placed by a node.
struct Built {
    /// Index of the first scene mesh made from it.
    first: usize,
    /// The largest joint index with a non-zero weight (skinned meshes).
    max_joint: Option<MaxJoint>,
    /// The mesh's default morph weights (a node's own replace them).
    weights: Vec<f32>,
    /// The skin weights, kept here when the first node to use the mesh
    /// has no skin (so that later nodes with one still get them).
    unused_skin: Option<SkinWeights>,
}

/// Bytes a mesh's arrays take (for the output budget).
fn mesh_bytes(m: &Mesh) -> u64 {
    let n = m.positions.len() as u64;
    let targets: u64 = m
        .morph_targets
        .iter()
        .map(|t| (t.positions.len() + t.normals.len()) as u64 * 12)
        .sum();
    let skin = m.skin.as_ref().map_or(0, |s| {
        s.sets().map(|(j, _)| j.len() as u64).sum::<u64>() * 24
    });
    256 + n * 12
        + m.normals.len() as u64 * 12
        + m.uvs.len() as u64 * 8
        + m.indices.len() as u64 * 4
        + targets
        + skin
}

/// Adds the meshes of every included node.
pub(crate) fn add_meshes(
    ctx: &Ctx,
    included: &Included,
    materials: &Materials,
    scene: &mut Scene,
) -> Result<Instances> {
    let mut instances = Instances::default();
    let mut skins = Skins::default();
    // Document mesh → its primitives as built (None: skipped).
    let mut built: HashMap<usize, Vec<Option<Built>>> = HashMap::new();
    let mut warned_unskinned = false;
    for &node in &included.nodes {
        let at = ctx.item("nodes", node, String::new)?;
        let Some(mesh) = at.opt_usize("mesh")? else {
            if at.opt_usize("skin")?.is_some() {
                ctx.warn(
                    format!("/nodes/{node}/skin"),
                    "a skin on a node without a mesh; ignored",
                );
            }
            continue;
        };
        let mesh_at = ctx.item("meshes", mesh, || format!("/nodes/{node}/mesh"))?;
        if let std::collections::hash_map::Entry::Vacant(e) = built.entry(mesh) {
            e.insert(build_mesh(ctx, mesh, &mesh_at, materials, scene)?);
        }
        let Some(prims) = built.get_mut(&mesh) else {
            continue;
        };
        let skin = match at.opt_usize("skin")? {
            Some(s) => Some(skins.get(ctx, s, included, scene, &|| format!("/nodes/{node}/skin"))?),
            None => None,
        };
        let node_weights = weights_list(&at, "weights")?;
        let scene_node = included.scene_index[node];
        let mut mine = Vec::new();
        for p in prims.iter_mut().flatten() {
            // The first node to use a primitive takes the mesh built for
            // it; later ones get a copy.
            let index = if scene.meshes[p.first].node.is_none() {
                p.first
            } else {
                let mut copy = scene.meshes[p.first].clone();
                if copy.skin.is_none() {
                    copy.skin.clone_from(&p.unused_skin);
                }
                ctx.charge(mesh_bytes(&copy), || format!("/nodes/{node}/mesh"))?;
                scene.meshes.push(copy);
                scene.meshes.len() - 1
            };
            let m = &mut scene.meshes[index];
            m.node = scene_node;
            m.morph_weights = match &node_weights {
                Some(w) => fit_weights(ctx, w, m.morph_targets.len(), || {
                    format!("/nodes/{node}/weights")
                }),
                None => p.weights.clone(),
            };
            match (skin, m.skin.as_mut()) {
                (Some(s), Some(weights)) => {
                    weights.skin = s;
                    let joints = scene.skins[s].joints.len();
                    if let Some(j) = p
                        .max_joint
                        .as_ref()
                        .filter(|j| usize::from(j.joint) >= joints)
                    {
                        return Err(err(
                            j.path.clone(),
                            format!(
                                "vertex {} uses joint {}, but skin {} (/nodes/{node}/skin) has {joints} joints",
                                j.vertex,
                                j.joint,
                                at.opt_usize("skin")?.unwrap_or(0)
                            ),
                        ));
                    }
                }
                (None, Some(_)) => {
                    let taken = m.skin.take();
                    if p.unused_skin.is_none() {
                        p.unused_skin = taken;
                    }
                    if !std::mem::replace(&mut warned_unskinned, true) {
                        ctx.warn(
                            format!("/nodes/{node}"),
                            format!("mesh {mesh} has JOINTS and WEIGHTS but the node has no skin; they are ignored"),
                        );
                    }
                }
                _ => {}
            }
            mine.push(index);
        }
        instances.by_node.insert(node, mine);
    }
    Ok(instances)
}

/// An optional list of numbers (morph weights).
fn weights_list(at: &At, key: &'static str) -> Result<Option<Vec<f32>>> {
    let Some(items) = at.opt_array(key)? else {
        return Ok(None);
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_f64()
                .map(|x| x as f32)
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    err(
                        format!("{}/{key}/{i}", at.path),
                        format!(
                            "expected a finite number, found {}",
                            super::json::describe(v)
                        ),
                    )
                })
        })
        .collect::<Result<Vec<f32>>>()
        .map(Some)
}

/// Default weights fitted to `targets` (a warning when the counts differ),
/// empty when all zero (the scene's convention).
fn fit_weights(ctx: &Ctx, w: &[f32], targets: usize, path: impl FnOnce() -> String) -> Vec<f32> {
    if w.len() != targets {
        ctx.warn(
            path(),
            format!(
                "{} weights for {targets} morph targets; {}",
                w.len(),
                if w.len() > targets {
                    "the extra ones are ignored"
                } else {
                    "the missing ones are 0"
                }
            ),
        );
    }
    let mut out = vec![0.0; targets];
    for (o, x) in out.iter_mut().zip(w) {
        *o = *x;
    }
    if out.iter().all(|&x| x == 0.0) {
        out.clear();
    }
    out
}

/// Builds every primitive of document mesh `mesh` as a scene mesh (not yet
/// placed by a node).
fn build_mesh(
    ctx: &Ctx,
    mesh: usize,
    at: &At,
    materials: &Materials,
    scene: &mut Scene,
) -> Result<Vec<Option<Built>>> {
    let mpath = format!("/meshes/{mesh}");
    let prims: Vec<At> = at.items("primitives")?.collect();
    if at.opt_array("primitives")?.is_none() {
        return Err(err(format!("{mpath}/primitives"), "missing (required)"));
    }
    // Every primitive has the same number of morph targets.
    let mut targets: Option<usize> = None;
    for (k, p) in prims.iter().enumerate() {
        p.object()?;
        let t = p.opt_array("targets")?.map_or(0, <[Json]>::len);
        match targets {
            None => targets = Some(t),
            Some(first) if first != t => {
                return Err(err(
                    format!("{mpath}/primitives/{k}/targets"),
                    format!("{t} morph targets, but primitive 0 has {first} (all primitives of a mesh have the same)"),
                ))
            }
            _ => {}
        }
    }
    let targets = targets.unwrap_or(0);
    let name = at.opt_str("name")?.unwrap_or_default().to_string();
    let weights = match weights_list(at, "weights")? {
        Some(w) => fit_weights(ctx, &w, targets, || format!("{mpath}/weights")),
        None => Vec::new(),
    };
    let mut extras = at.extras();
    let names = target_names(ctx, &mpath, &mut extras, targets);
    let mut out = Vec::with_capacity(prims.len());
    for (k, p) in prims.iter().enumerate() {
        let Some((mut m, max_joint)) = build_primitive(ctx, mesh, k, p, materials)? else {
            out.push(None);
            continue;
        };
        m.name = name.clone();
        m.morph_weights = weights.clone();
        for (t, n) in m.morph_targets.iter_mut().zip(&names) {
            t.name = n.clone();
        }
        m.extras = merge_attributes(ctx, &extras, std::mem::take(&mut m.extras), &mpath);
        let first = scene.meshes.len();
        scene.meshes.push(m);
        out.push(Some(Built {
            first,
            max_joint,
            weights: weights.clone(),
            unused_skin: None,
        }));
    }
    Ok(out)
}

/// The target names in `extras.targetNames` (the convention Blender,
/// three.js and our exporter use), which leave the extras (the scene keeps
/// them as the targets' names).
fn target_names(ctx: &Ctx, mpath: &str, extras: &mut Value, targets: usize) -> Vec<String> {
    let mut names = vec![String::new(); targets];
    if targets == 0 {
        return names;
    }
    let Some(obj) = extras.as_object_mut() else {
        return names;
    };
    let Some(list) = obj.get("targetNames") else {
        return names;
    };
    let path = format!("{mpath}/extras/targetNames");
    let Some(list) = list.as_array() else {
        ctx.warn(path, "not an array of names; kept in the extras");
        return names;
    };
    if list.len() != targets {
        ctx.warn(
            path.clone(),
            format!("{} names for {targets} morph targets", list.len()),
        );
    }
    for (n, v) in names.iter_mut().zip(list) {
        match v.as_str() {
            Some(s) => *n = s.to_string(),
            None => ctx.warn(
                path.clone(),
                format!("a name that is {}", super::json::describe_value(v)),
            ),
        }
    }
    obj.remove("targetNames");
    if obj.is_empty() {
        *extras = Value::Null;
    }
    names
}

/// The mesh's extras with a primitive's application-specific attributes
/// under `attributes`.
fn merge_attributes(ctx: &Ctx, extras: &Value, attributes: Value, mpath: &str) -> Value {
    let Value::Object(attrs) = attributes else {
        return extras.clone();
    };
    let mut out = match extras {
        Value::Null => serde_json::Map::new(),
        Value::Object(o) => o.clone(),
        _ => {
            ctx.warn(
                format!("{mpath}/extras"),
                "the mesh's extras are not an object; its application-specific attributes are not kept",
            );
            return extras.clone();
        }
    };
    match out.get_mut("attributes") {
        None => {
            out.insert("attributes".to_string(), Value::Object(attrs));
        }
        Some(Value::Object(o)) => o.extend(attrs),
        Some(_) => ctx.warn(
            format!("{mpath}/extras/attributes"),
            "the mesh's extras have an `attributes` that is not an object; the application-specific attributes are not kept",
        ),
    }
    Value::Object(out)
}

/// One primitive as a scene mesh (with the largest joint it uses), or
/// `None` when it is skipped (points, lines, no positions). Its
/// application-specific attributes come back in `extras`.
fn build_primitive(
    ctx: &Ctx,
    mesh: usize,
    k: usize,
    p: &At,
    materials: &Materials,
) -> Result<Option<(Mesh, Option<MaxJoint>)>> {
    let ppath = format!("/meshes/{mesh}/primitives/{k}");
    let mode = p.opt_usize("mode")?.unwrap_or(4);
    match mode {
        0..=3 => {
            let what = ["points", "lines", "a line loop", "a line strip"][mode];
            ctx.warn(
                format!("{ppath}/mode"),
                format!(
                    "the primitive draws {what}; only triangles are imported, so it is skipped"
                ),
            );
            return Ok(None);
        }
        4..=6 => {}
        other => {
            return Err(p.err_at("mode", format!("{other} is not a primitive mode (0 to 6)")));
        }
    }
    let attributes = p
        .opt_object("attributes")?
        .ok_or_else(|| p.err_at("attributes", "missing (required)"))?;
    let apath = |key: &str| format!("{ppath}/attributes/{}", escape(key));
    let Some(position) = attributes.opt_usize("POSITION")? else {
        ctx.warn(ppath.clone(), "the primitive has no POSITION; skipped");
        return Ok(None);
    };
    let pos = ctx.accessor(position, &|| apath("POSITION"))?;
    ctx.check(&pos, &allowed::POSITION, &|| apath("POSITION"))?;
    let positions = ctx.read_floats::<3>(&pos)?;
    let n = positions.len();
    // An attribute accessor, checked and of n elements.
    let attribute = |key: &str,
                     allowed: &super::accessor::Allowed|
     -> Result<Option<super::accessor::Accessor>> {
        let Some(index) = attributes.get(key)? else {
            return Ok(None);
        };
        let index = index
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| err(apath(key), "expected an accessor index"))?;
        let a = ctx.accessor(index, &|| apath(key))?;
        ctx.check(&a, allowed, &|| apath(key))?;
        if a.count != n {
            return Err(err(
                apath(key),
                format!(
                    "accessor {index} has {} elements, but POSITION has {n}",
                    a.count
                ),
            ));
        }
        Ok(Some(a))
    };
    // Normals stored as normalised integers are unit length only to their
    // precision.
    let mut normal_tolerance = 1e-3f32;
    let mut normals = match attribute("NORMAL", &allowed::NORMAL)? {
        Some(a) => {
            if a.component == Component::I8 {
                normal_tolerance = 0.02;
            }
            ctx.read_floats::<3>(&a)?
        }
        None => Vec::new(),
    };
    let material = p.opt_usize("material")?;
    if let Some(m) = material.filter(|&m| m >= materials.len()) {
        return Err(p.err_at(
            "material",
            format!(
                "material {m} does not exist ({} materials)",
                materials.len()
            ),
        ));
    }
    let usage = materials.usage(material);
    let set_key = format!("TEXCOORD_{}", usage.tex_coord);
    let mut uvs = match attribute(&set_key, &allowed::TEXCOORD)? {
        Some(a) => ctx.read_floats::<2>(&a)?,
        None => {
            if usage.textured {
                ctx.warn(
                    apath(&set_key),
                    format!(
                        "the material's base colour texture reads {set_key}, which the primitive does not have"
                    ),
                );
            }
            Vec::new()
        }
    };
    if let (Some([a, b, c, d, e, f]), true) = (usage.transform, usage.textured) {
        for uv in &mut uvs {
            let [u, v] = *uv;
            *uv = [a * u + b * v + c, d * u + e * v + f];
        }
    }
    let (skin, max_joint) = skin_weights(ctx, &attributes, n, &attribute, &apath)?;
    let indices = triangles(ctx, p, &ppath, mode, n)?;
    repair_normals(
        ctx,
        &positions,
        &indices,
        &mut normals,
        normal_tolerance,
        &|| apath("NORMAL"),
    );
    let morph_targets = morph_targets(ctx, p, &ppath, n)?;
    let extras = application_attributes(ctx, &attributes, n, &apath)?;
    for (key, _) in attributes.object()?.iter() {
        if key.starts_with("COLOR_") {
            ctx.warn(
                apath(key),
                "vertex colours are not imported (the scene has none)",
            );
            break;
        }
    }
    let material = Some(material.unwrap_or_else(|| materials.default_index()));
    Ok(Some((
        Mesh {
            name: String::new(),
            positions,
            normals,
            uvs,
            indices,
            material,
            node: None,
            morph_targets,
            morph_weights: Vec::new(),
            skin,
            extras,
        },
        max_joint,
    )))
}

/// Makes normals unit length as glTF requires: ones far from it are
/// normalised, and zero or very short ones (which give no direction) are
/// replaced by the normalised sum of their triangles' normals, with a
/// warning that counts them (normals stored as normalised bytes, unit
/// length only to 1/127, are normalised without one).
fn repair_normals(
    ctx: &Ctx,
    positions: &[[f32; 3]],
    indices: &[u32],
    normals: &mut [[f32; 3]],
    tolerance: f32,
    path: &dyn Fn() -> String,
) {
    let (mut short, mut off, mut near) = (0usize, 0usize, 0usize);
    for n in normals.iter() {
        let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if !(l.is_finite() && l > 0.5) {
            short += 1;
        } else if (l - 1.0).abs() > tolerance {
            off += 1;
        } else if (l - 1.0).abs() > 1e-3 {
            near += 1;
        }
    }
    if short + off + near == 0 {
        return;
    }
    // Normalises those off by more than 1e-3 (quantized ones within their
    // precision silently), rebuilds the short ones.
    crate::scene::repair_normals(positions, indices, normals);
    if short + off == 0 {
        return;
    }
    let mut parts = Vec::new();
    if short > 0 {
        parts.push(format!(
            "{short} normals are zero or shorter than 0.5: replaced by their triangles' normals"
        ));
    }
    if off > 0 {
        parts.push(format!("{off} normals are not unit length: normalised"));
    }
    ctx.warn(path(), parts.join("; "));
}

/// The triangles of a primitive: its indices (or 0..n without), with
/// strips and fans turned into triangles as the spec numbers them (strip
/// triangle i is `v[i], v[i + 1 + i % 2], v[i + 2 - i % 2]`, fan triangle
/// i is `v[i + 1], v[i + 2], v[0]`), every index checked against `n`.
fn triangles(ctx: &Ctx, p: &At, ppath: &str, mode: usize, n: usize) -> Result<Vec<u32>> {
    let ipath = || format!("{ppath}/indices");
    let vertices: Vec<u32> = match p.opt_usize("indices")? {
        Some(i) => {
            let a = ctx.accessor(i, &ipath)?;
            ctx.check(&a, &allowed::INDICES, &ipath)?;
            let v = ctx.read_uints(&a)?;
            if let Some((k, &bad)) = v.iter().enumerate().find(|(_, &x)| x as usize >= n) {
                return Err(err(
                    ipath(),
                    format!(
                        "index {k} of accessor {i} is {bad}, out of range for the {n} vertices"
                    ),
                ));
            }
            v
        }
        None => {
            ctx.charge(n as u64 * 4, ipath)?;
            (0..n as u32).collect()
        }
    };
    let len = vertices.len();
    let out = match mode {
        4 => {
            if !len.is_multiple_of(3) {
                ctx.warn(
                    ipath(),
                    format!(
                        "{len} vertices are not whole triangles; the last {} are dropped",
                        len % 3
                    ),
                );
            }
            let mut v = vertices;
            v.truncate(len / 3 * 3);
            v
        }
        5 | 6 => {
            let count = len.saturating_sub(2);
            ctx.charge(count as u64 * 12, ipath)?;
            let mut out = Vec::with_capacity(count * 3);
            for i in 0..count {
                let t = if mode == 5 {
                    if i % 2 == 0 {
                        [vertices[i], vertices[i + 1], vertices[i + 2]]
                    } else {
                        [vertices[i], vertices[i + 2], vertices[i + 1]]
                    }
                } else {
                    [vertices[i + 1], vertices[i + 2], vertices[0]]
                };
                out.extend_from_slice(&t);
            }
            out
        }
        _ => Vec::new(),
    };
    if out.is_empty() {
        ctx.warn(ipath(), "the primitive has no whole triangle");
    }
    Ok(out)
}

/// Morph targets: position and normal displacements (a target without
/// positions displaces none).
fn morph_targets(ctx: &Ctx, p: &At, ppath: &str, n: usize) -> Result<Vec<MorphTarget>> {
    let mut out = Vec::new();
    for (t, target) in p.items("targets")?.enumerate() {
        target.object()?;
        let tpath = |key: &str| format!("{ppath}/targets/{t}/{key}");
        let read = |key: &'static str,
                    allowed: &super::accessor::Allowed|
         -> Result<Option<Vec<[f32; 3]>>> {
            let Some(index) = target.opt_usize(key)? else {
                return Ok(None);
            };
            let a = ctx.accessor(index, &|| tpath(key))?;
            ctx.check(&a, allowed, &|| tpath(key))?;
            if a.count != n {
                return Err(err(
                    tpath(key),
                    format!(
                        "accessor {index} has {} elements, but POSITION has {n}",
                        a.count
                    ),
                ));
            }
            ctx.read_floats::<3>(&a).map(Some)
        };
        let positions = match read("POSITION", &allowed::TARGET_POSITION)? {
            Some(p) => p,
            None => {
                ctx.charge(n as u64 * 12, || tpath("POSITION"))?;
                vec![[0.0; 3]; n]
            }
        };
        let normals = read("NORMAL", &allowed::TARGET_NORMAL)?.unwrap_or_default();
        out.push(MorphTarget {
            name: String::new(),
            positions,
            normals,
        });
    }
    Ok(out)
}
/// integers, as `{"attributes": {"_NAME": [numbers]}}`; others are warned
/// about and left out.
fn application_attributes(
    ctx: &Ctx,
    attributes: &At,
    n: usize,
    apath: &dyn Fn(&str) -> String,
) -> Result<Value> {
    let mut out = serde_json::Map::new();
    for (key, value) in attributes.object()?.iter() {
        if !key.starts_with('_') {
            continue;
        }
        let path = || apath(key);
        let Some(index) = value.as_u64().and_then(|i| usize::try_from(i).ok()) else {
            return Err(err(path(), "expected an accessor index"));
        };
        let a = ctx.accessor(index, &path)?;
        if let Err(e) = ctx.check(&a, &allowed::APPLICATION, &path) {
            ctx.warn(
                path(),
                format!(
                    "{}; only scalar integer attributes are kept",
                    match e {
                        crate::Error::Gltf { message, .. } => message,
                        other => other.to_string(),
                    }
                ),
            );
            continue;
        }
        if a.count != n {
            ctx.warn(
                path(),
                format!(
                    "accessor {index} has {} elements, but POSITION has {n}; not kept",
                    a.count
                ),
            );
            continue;
        }
        ctx.charge(a.count as u64 * 32, path)?;
        let numbers: Vec<Value> = match a.component {
            Component::I8 | Component::I16 => ctx
                .read_floats::<1>(&a)?
                .into_iter()
                .map(|[x]| Value::from(x as i64))
                .collect(),
            _ => ctx.read_uints(&a)?.into_iter().map(Value::from).collect(),
        };
        out.insert(key.to_string(), Value::Array(numbers));
    }
    Ok(if out.is_empty() {
        Value::Null
    } else {
        Value::Object(out)
    })
}
