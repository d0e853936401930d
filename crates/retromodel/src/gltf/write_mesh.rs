//! Export of one mesh: its attributes, morph targets (quantised with
//! [`GltfOptions::quantize`]), skin weights, custom attributes and the
//! node that places it.

use json::accessor::Type;
use json::buffer::Target as BufferTarget;
use json::validation::Checked::Valid;
use json::Index;
use serde_json::Value;

use super::builder::{self, Builder};
use super::{extras, json, name, quantize, skin_index, GltfOptions};
use crate::error::{Error, Result};
use crate::scene::{Mesh, Scene};

/// `[f32; N]` elements as one slice of numbers (no copy).
fn flat<const N: usize>(v: &[[f32; N]]) -> &[f32] {
    v.as_flattened()
}

/// Writes a mesh and its node; `None` (nothing written) for a mesh
/// without triangles or vertices.
pub(super) fn write_mesh<'a>(
    b: &mut Builder<'a>,
    scene: &Scene,
    mesh: &'a Mesh,
    options: &GltfOptions,
) -> Result<Option<Index<json::Node>>> {
    use json::mesh::Semantic;
    let n = mesh.positions.len();
    if n == 0 || mesh.indices.is_empty() {
        return Ok(None);
    }
    check_lengths(mesh)?;
    let mut attributes = std::collections::BTreeMap::new();
    let mut node_transform = None;
    let quantized = options.quantize && !mesh.morph_targets.is_empty();
    let targets = if quantized {
        let q = quantize::Grid::new(mesh);
        let (base, targets) = q.write(b, mesh);
        attributes.insert(Valid(Semantic::Positions), base);
        node_transform = Some(q.node_transform());
        if !b
            .root
            .extensions_used
            .iter()
            .any(|e| e == quantize::EXTENSION)
        {
            b.root.extensions_used.push(quantize::EXTENSION.to_string());
            b.root
                .extensions_required
                .push(quantize::EXTENSION.to_string());
        }
        targets
    } else {
        let pos = b.floats(
            flat(&mesh.positions),
            Type::Vec3,
            Some(BufferTarget::ArrayBuffer),
            true,
        );
        attributes.insert(Valid(Semantic::Positions), pos);
        write_float_targets(b, mesh)
    };
    if mesh.normals.len() == n {
        let a = b.floats(
            flat(&mesh.normals),
            Type::Vec3,
            Some(BufferTarget::ArrayBuffer),
            false,
        );
        attributes.insert(Valid(Semantic::Normals), a);
    }
    if mesh.uvs.len() == n {
        let a = b.floats(
            flat(&mesh.uvs),
            Type::Vec2,
            Some(BufferTarget::ArrayBuffer),
            false,
        );
        attributes.insert(Valid(Semantic::TexCoords(0)), a);
    }
    let skin_index = mesh.skin.as_ref().and_then(|w| skin_index(scene, w.skin));
    if let (Some(skin), Some(_)) = (&mesh.skin, skin_index) {
        // Every set of four: JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, …
        for (set, (joints, weights)) in (0u32..).zip(skin.sets()) {
            let joints: Vec<[i64; 4]> = joints.iter().map(|j| j.map(i64::from)).collect();
            let layout = builder::Layout {
                component: json::accessor::ComponentType::U16,
                kind: Type::Vec4,
                normalized: false,
            };
            let a = b.vertex_ints(&joints, layout, None);
            attributes.insert(Valid(Semantic::Joints(set)), a);
            let a = b.floats(
                flat(weights),
                Type::Vec4,
                Some(BufferTarget::ArrayBuffer),
                false,
            );
            attributes.insert(Valid(Semantic::Weights(set)), a);
        }
    }
    let mut mesh_extras = if mesh.extras.is_null() {
        serde_json::json!({})
    } else {
        mesh.extras.clone()
    };
    write_custom_attributes(b, &mut mesh_extras, n, &mut attributes);
    let indices = b.indices(&mesh.indices);
    let material = mesh
        .material
        .filter(|&m| m < scene.materials.len())
        .map(|m| Index::new(m as u32));
    let target_names: Vec<&str> = mesh.morph_targets.iter().map(|t| t.name.as_str()).collect();
    if !target_names.is_empty() {
        // The convention three.js, Blender and others read target names from.
        mesh_extras["targetNames"] = serde_json::json!(target_names);
    }
    let weights = (!mesh.morph_targets.is_empty()).then(|| {
        let mut w = vec![0.0; mesh.morph_targets.len()];
        for (w, &d) in w.iter_mut().zip(&mesh.morph_weights) {
            *w = d;
        }
        w
    });
    let mesh_index = b.root.push(json::Mesh {
        extensions: None,
        extras: extras(&mesh_extras).filter(|_| mesh_extras != serde_json::json!({})),
        name: name(&mesh.name),
        primitives: vec![json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: None,
            indices: Some(indices),
            material,
            mode: Valid(json::mesh::Mode::Triangles),
            targets,
        }],
        weights,
    });
    let (translation, scale) = match node_transform {
        Some((t, s)) => (Some(t), Some(s)),
        None => (None, None),
    };
    let skin = skin_index.map(Index::new);
    Ok(Some(b.root.push(json::Node {
        mesh: Some(mesh_index),
        name: name(&mesh.name),
        skin,
        translation,
        scale,
        ..Default::default()
    })))
}

/// Application-specific vertex attributes: each entry of
/// `extras["attributes"]` whose name starts with `_` and whose value is
/// one number per vertex becomes the vertex attribute of that name
/// (SCALAR; UNSIGNED_SHORT when every value is an integer in 0..=65535,
/// else FLOAT), as glTF allows for names starting with `_`, and leaves
/// the extras. `Scene::from_md2`'s `_MD2_VERTEX` is one; glTF importers
/// give such attributes back in the same place.
fn write_custom_attributes(
    b: &mut Builder<'_>,
    extras: &mut Value,
    n: usize,
    attributes: &mut std::collections::BTreeMap<
        json::validation::Checked<json::mesh::Semantic>,
        Index<json::Accessor>,
    >,
) {
    let Some(map) = extras.get_mut("attributes").and_then(Value::as_object_mut) else {
        return;
    };
    let names: Vec<String> = map.keys().cloned().collect();
    for name in names {
        let Some(rest) = name.strip_prefix('_').filter(|r| !r.is_empty()) else {
            continue;
        };
        let Some(values) = map.get(&name).and_then(Value::as_array) else {
            continue;
        };
        let numbers: Option<Vec<f64>> = values.iter().map(Value::as_f64).collect();
        let Some(numbers) = numbers.filter(|v| v.len() == n) else {
            continue;
        };
        let short = numbers
            .iter()
            .all(|&x| x.fract() == 0.0 && (0.0..=65535.0).contains(&x));
        let accessor = if short {
            let ints: Vec<[i64; 1]> = numbers.iter().map(|&x| [x as i64]).collect();
            let layout = builder::Layout {
                component: json::accessor::ComponentType::U16,
                kind: Type::Scalar,
                normalized: false,
            };
            b.vertex_ints(&ints, layout, None)
        } else {
            let floats: Vec<f32> = numbers.iter().map(|&x| x as f32).collect();
            if floats.iter().any(|x| !x.is_finite()) {
                continue;
            }
            b.floats(floats, Type::Scalar, Some(BufferTarget::ArrayBuffer), false)
        };
        attributes.insert(
            Valid(json::mesh::Semantic::Extras(rest.to_string())),
            accessor,
        );
        map.remove(&name);
    }
    if map.is_empty() {
        if let Some(object) = extras.as_object_mut() {
            object.remove("attributes");
        }
    }
}

/// Fails when a mesh's per-vertex arrays or indices disagree with its
/// positions.
fn check_lengths(mesh: &Mesh) -> Result<()> {
    let n = mesh.positions.len();
    let bad = |what: &str, len: usize| {
        Err(Error::unwritable(
            format!("mesh {:?} {what}", mesh.name),
            format!("{len} entries for {n} vertices"),
        ))
    };
    if let Some(&i) = mesh.indices.iter().find(|&&i| i as usize >= n) {
        return bad("indices", i as usize);
    }
    if !mesh.indices.len().is_multiple_of(3) {
        return bad("indices (not whole triangles)", mesh.indices.len());
    }
    if let Some(s) = &mesh.skin {
        if !s.fits(n) {
            let mut lengths = s.sets().flat_map(|(j, w)| [j.len(), w.len()]);
            return bad("skin", lengths.find(|&l| l != n).unwrap_or(0));
        }
    }
    for t in &mesh.morph_targets {
        if t.positions.len() != n || !(t.normals.is_empty() || t.normals.len() == n) {
            return bad("morph target", t.positions.len());
        }
    }
    Ok(())
}

/// Float morph targets; all-zero ones need no bytes.
fn write_float_targets<'a>(
    b: &mut Builder<'a>,
    mesh: &'a Mesh,
) -> Option<Vec<json::mesh::MorphTarget>> {
    if mesh.morph_targets.is_empty() {
        return None;
    }
    let layout = builder::Layout {
        component: json::accessor::ComponentType::F32,
        kind: Type::Vec3,
        normalized: false,
    };
    let n = mesh.positions.len();
    let write = |b: &mut Builder<'a>, v: &'a [[f32; 3]], min_max: bool| {
        if v.iter().all(|x| *x == [0.0; 3]) {
            let mm = min_max.then(|| (vec![0.0; 3], vec![0.0; 3]));
            b.zeros(n, layout, mm)
        } else {
            b.floats(
                flat(v),
                Type::Vec3,
                Some(BufferTarget::ArrayBuffer),
                min_max,
            )
        }
    };
    let targets = mesh
        .morph_targets
        .iter()
        .map(|t| json::mesh::MorphTarget {
            positions: Some(write(b, &t.positions, true)),
            normals: (!t.normals.is_empty()).then(|| write(b, &t.normals, false)),
            tangents: None,
        })
        .collect();
    Some(targets)
}
