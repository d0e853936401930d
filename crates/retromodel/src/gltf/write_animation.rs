//! Export of one animation: its samplers and channels, morph weights as
//! normalised bytes where that is exact.

use json::accessor::Type;
use json::animation::{Interpolation as JsonInterpolation, Property};
use json::validation::Checked::Valid;
use json::Index;

use super::builder::Builder;
use super::{extras, json, name, GltfOptions};
use crate::error::{Error, Result};
use crate::scene::{Animation, Interpolation, Scene, Target};

/// `values` as normalised unsigned bytes (`v = byte / 255`) when every
/// value is exactly one of those (MD2 frame weights are all 0 or 1), else
/// `None`. glTF allows morph weights in this form in core 2.0.
fn exact_unit_bytes(values: &[f32]) -> Option<Vec<u8>> {
    values
        .iter()
        .map(|&v| {
            let byte = (v * 255.0).round();
            ((0.0..=255.0).contains(&byte) && byte / 255.0 == v).then_some(byte as u8)
        })
        .collect()
}

/// One glTF animation.
pub(super) fn write_animation<'a>(
    b: &mut Builder<'a>,
    scene: &Scene,
    anim: &'a Animation,
    nodes: &[Index<json::Node>],
    mesh_nodes: &[Option<Index<json::Node>>],
    options: &GltfOptions,
) -> Result<()> {
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    for c in &anim.channels {
        let (node, path, targets) = match c.target {
            Target::MorphWeights { mesh } => {
                let node = mesh_nodes.get(mesh).copied().flatten();
                let targets = scene.meshes.get(mesh).map_or(0, |m| m.morph_targets.len());
                (node, Property::MorphTargetWeights, targets)
            }
            Target::Translation { node } => (nodes.get(node).copied(), Property::Translation, 0),
            Target::Rotation { node } => (nodes.get(node).copied(), Property::Rotation, 0),
            Target::Scale { node } => (nodes.get(node).copied(), Property::Scale, 0),
        };
        let Some(node) = node else { continue };
        let components = c.components(targets);
        let per_key = if c.interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        } * components;
        if c.times.is_empty() || components == 0 || c.values.len() != c.times.len() * per_key {
            return Err(Error::unwritable(
                format!("animation {:?} channel {:?}", anim.name, c.target),
                format!(
                    "{} values for {} keys of {per_key}",
                    c.values.len(),
                    c.times.len()
                ),
            ));
        }
        let input = b.floats(c.times.as_slice(), Type::Scalar, None, true);
        let kind = match path {
            Property::MorphTargetWeights => Type::Scalar,
            Property::Rotation => Type::Vec4,
            _ => Type::Vec3,
        };
        let bytes = match path {
            Property::MorphTargetWeights if options.quantize => exact_unit_bytes(&c.values),
            _ => None,
        };
        let output = match bytes {
            Some(bytes) => b.unit_bytes(bytes),
            None => b.floats(c.values.as_slice(), kind, None, false),
        };
        let interpolation = match c.interpolation {
            Interpolation::Linear => JsonInterpolation::Linear,
            Interpolation::Step => JsonInterpolation::Step,
            Interpolation::CubicSpline => JsonInterpolation::CubicSpline,
        };
        let sampler = Index::push(
            &mut samplers,
            json::animation::Sampler {
                extensions: None,
                extras: None,
                input,
                interpolation: Valid(interpolation),
                output,
            },
        );
        channels.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                extensions: None,
                extras: None,
                node,
                path: Valid(path),
            },
            extensions: None,
            extras: None,
        });
    }
    if channels.is_empty() {
        return Ok(());
    }
    b.root.push(json::Animation {
        extensions: None,
        extras: extras(&anim.extras),
        channels,
        name: name(&anim.name),
        samplers,
    });
    Ok(())
}
