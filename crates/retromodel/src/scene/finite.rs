//! Finding numbers that are not finite in a scene: formats such as glTF
//! hold only finite numbers, and a scene made from a corrupt file (a
//! frame whose scale overflows when decoded) can have infinities.

// The scene scan serves the glTF exporter; the compilers use only
// `all_finite`.
#![cfg_attr(not(feature = "gltf"), allow(dead_code))]

use super::{Channel, Mesh, Node, Scene, Skin};

/// The first number of `scene` that is not finite, with its path (such as
/// `meshes[0].morph_targets[126].positions[2]`): geometry, morph targets
/// and weights, node transforms, inverse bind matrices and animation keys,
/// in that order.
pub(crate) fn first_non_finite(scene: &Scene) -> Option<(String, f32)> {
    let meshes = scene.meshes.iter().enumerate();
    let in_meshes =
        meshes.filter_map(|(i, m)| in_mesh(m).map(|(p, x)| (format!("meshes[{i}].{p}"), x)));
    let nodes = scene.nodes.iter().enumerate();
    let in_nodes =
        nodes.filter_map(|(i, n)| in_node(n).map(|(p, x)| (format!("nodes[{i}].{p}"), x)));
    let skins = scene.skins.iter().enumerate();
    let in_skins =
        skins.filter_map(|(i, s)| in_skin(s).map(|(p, x)| (format!("skins[{i}].{p}"), x)));
    let animations = scene.animations.iter().enumerate();
    let in_animations = animations.filter_map(|(i, a)| {
        a.channels.iter().enumerate().find_map(|(c, ch)| {
            in_channel(ch).map(|(p, x)| (format!("animations[{i}].channels[{c}].{p}"), x))
        })
    });
    in_meshes
        .chain(in_nodes)
        .chain(in_skins)
        .chain(in_animations)
        .next()
}

/// The first element of `values` with a number that is not finite: its
/// index and that number.
fn first_in<const N: usize>(values: &[[f32; N]]) -> Option<(usize, f32)> {
    if all_finite(values.as_flattened()) {
        return None;
    }
    values
        .iter()
        .enumerate()
        .find_map(|(i, v)| v.iter().find(|x| !x.is_finite()).map(|&x| (i, x)))
}

/// Whether every number is finite, without an early exit (so the common
/// case runs in vector lanes).
pub(crate) fn all_finite(xs: &[f32]) -> bool {
    // `x · 0` is 0 for a finite `x` and NaN for an infinity or a NaN, so
    // sums of them stay 0 exactly when every number is finite; eight
    // independent sums vectorise on baseline x86-64 (SSE2).
    let (chunks, rest) = xs.as_chunks::<8>();
    let mut sums = [0.0f32; 8];
    for c in chunks {
        for j in 0..8 {
            sums[j] += c[j] * 0.0;
        }
    }
    let rest_sum: f32 = rest.iter().map(|x| x * 0.0).sum();
    sums.iter().all(|&s| s == 0.0) && rest_sum == 0.0
}

/// `name[i]` for the first element of `values` that is not finite.
fn named<const N: usize>(name: &str, values: &[[f32; N]]) -> Option<(String, f32)> {
    first_in(values).map(|(i, x)| (format!("{name}[{i}]"), x))
}

fn in_mesh(m: &Mesh) -> Option<(String, f32)> {
    named("positions", &m.positions)
        .or_else(|| named("normals", &m.normals))
        .or_else(|| named("uvs", &m.uvs))
        .or_else(|| {
            m.morph_targets.iter().enumerate().find_map(|(k, t)| {
                named("positions", &t.positions)
                    .or_else(|| named("normals", &t.normals))
                    .map(|(p, x)| (format!("morph_targets[{k}].{p}"), x))
            })
        })
        .or_else(|| {
            let w = m.morph_weights.as_chunks::<1>().0;
            named("morph_weights", w)
        })
        .or_else(|| {
            let w = m.skin.as_ref().map_or(&[][..], |s| &s.weights[..]);
            named("skin.weights", w)
        })
        .or_else(|| {
            let more = m.skin.as_ref().map_or(&[][..], |s| &s.more[..]);
            more.iter().enumerate().find_map(|(k, set)| {
                named("weights", &set.weights).map(|(p, x)| (format!("skin.more[{k}].{p}"), x))
            })
        })
}

fn in_node(n: &Node) -> Option<(String, f32)> {
    named("translation", &[n.translation])
        .or_else(|| named("rotation", &[n.rotation]))
        .or_else(|| named("scale", &[n.scale]))
        .map(|(p, x)| (p.trim_end_matches("[0]").to_string(), x))
}

fn in_skin(s: &Skin) -> Option<(String, f32)> {
    named("inverse_bind_matrices", &s.inverse_bind_matrices)
}

fn in_channel(c: &Channel) -> Option<(String, f32)> {
    named("times", c.times.as_chunks::<1>().0)
        .or_else(|| named("values", c.values.as_chunks::<1>().0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_finite_sees_infinities_and_nans_anywhere() {
        let mut xs = vec![1.0f32; 37];
        assert!(all_finite(&xs));
        for bad in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
            for i in [0, 17, 36] {
                xs[i] = bad;
                assert!(!all_finite(&xs), "{bad} at {i}");
                xs[i] = 1.0;
            }
        }
        assert!(all_finite(&[
            f32::MAX,
            f32::MIN,
            -0.0,
            f32::MIN_POSITIVE / 2.0
        ]));
    }
}
