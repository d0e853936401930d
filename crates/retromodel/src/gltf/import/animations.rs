//! Animations: each channel's keys as stored (STEP, LINEAR or
//! CUBICSPLINE), not resampled. A `weights` channel targets a node; it
//! becomes one channel per scene mesh of that node with morph targets.

use super::accessor::{allowed, Allowed};
use super::json::{err, At, Path};
use super::meshes::Instances;
use super::nodes::Included;
use super::Ctx;
use crate::error::Result;
use crate::scene::{Animation, Channel, Interpolation, Scene, Target};

/// Adds every animation of the document.
pub(crate) fn add_animations(
    ctx: &Ctx,
    included: &Included,
    instances: &Instances,
    scene: &mut Scene,
) -> Result<()> {
    let count = ctx.list("animations")?.len();
    for a in 0..count {
        let at = ctx.item("animations", a, String::new)?;
        let mut animation = Animation {
            name: at.opt_str("name")?.unwrap_or_default().to_string(),
            channels: Vec::new(),
            extras: at.extras(),
        };
        let samplers = at.opt_array("samplers")?.unwrap_or(&[]);
        let mut warned_outside = false;
        let mut warned_matrix = false;
        for (c, channel) in at.items("channels")?.enumerate() {
            let cpath = |key: &str| format!("/animations/{a}/channels/{c}/{key}");
            let s = channel.usize("sampler")?;
            if s >= samplers.len() {
                return Err(err(
                    cpath("sampler"),
                    format!("sampler {s} does not exist ({} samplers)", samplers.len()),
                ));
            }
            let target = channel
                .opt_object("target")?
                .ok_or_else(|| err(cpath("target"), "missing (required)"))?;
            let property = target
                .opt_str("path")?
                .ok_or_else(|| err(cpath("target/path"), "missing (required)"))?;
            let Some(node) = target.opt_usize("node")? else {
                ctx.warn(
                    cpath("target"),
                    "a channel without a target node (an extension's target?); skipped",
                );
                continue;
            };
            let Some(&scene_node) = included.scene_index.get(node) else {
                return Err(err(
                    cpath("target/node"),
                    format!(
                        "node {node} does not exist ({} nodes)",
                        included.scene_index.len()
                    ),
                ));
            };
            let Some(scene_node) = scene_node else {
                if !std::mem::replace(&mut warned_outside, true) {
                    ctx.warn(
                        cpath("target/node"),
                        format!(
                            "node {node} is not in the default scene; its channels are skipped"
                        ),
                    );
                }
                continue;
            };
            let (targets, allowed, components): (Vec<Target>, &Allowed, usize) = match property {
                "translation" => (
                    vec![Target::Translation { node: scene_node }],
                    &allowed::TRANSLATION,
                    3,
                ),
                "rotation" => (
                    vec![Target::Rotation { node: scene_node }],
                    &allowed::ROTATION,
                    4,
                ),
                "scale" => (vec![Target::Scale { node: scene_node }], &allowed::SCALE, 3),
                "weights" => {
                    let meshes: Vec<usize> = instances
                        .by_node
                        .get(&node)
                        .map(|m| {
                            m.iter()
                                .copied()
                                .filter(|&m| !scene.meshes[m].morph_targets.is_empty())
                                .collect()
                        })
                        .unwrap_or_default();
                    let Some(&first) = meshes.first() else {
                        ctx.warn(
                            cpath("target"),
                            format!("node {node} has no mesh with morph targets for its weights; skipped"),
                        );
                        continue;
                    };
                    let t = scene.meshes[first].morph_targets.len();
                    (
                        meshes
                            .into_iter()
                            .map(|mesh| Target::MorphWeights { mesh })
                            .collect(),
                        &allowed::WEIGHTS_OUTPUT,
                        t,
                    )
                }
                other => {
                    ctx.warn(
                        cpath("target/path"),
                        format!("{other:?} is not a property the scene animates; skipped"),
                    );
                    continue;
                }
            };
            if property != "weights" && !warned_matrix {
                let n = ctx.item("nodes", node, || cpath("target/node"))?;
                if n.get("matrix")?.is_some() {
                    warned_matrix = true;
                    ctx.warn(
                        cpath("target/node"),
                        format!("node {node} has a matrix, which glTF forbids on animated nodes; its decomposition is animated"),
                    );
                }
            }
            let (interpolation, times, values) = sampler(ctx, a, s, allowed, components)?;
            for (k, target) in targets.into_iter().enumerate() {
                if k > 0 {
                    ctx.charge((times.len() + values.len()) as u64 * 4, || cpath("target"))?;
                }
                animation.channels.push(Channel {
                    target,
                    interpolation,
                    times: times.clone(),
                    values: values.clone(),
                });
            }
        }
        scene.animations.push(animation);
    }
    Ok(())
}

/// A sampler's interpolation, key times (checked to increase) and values
/// (`components` per key, three groups per key for CUBICSPLINE).
fn sampler(
    ctx: &Ctx,
    a: usize,
    s: usize,
    allowed: &Allowed,
    components: usize,
) -> Result<(Interpolation, Vec<f32>, Vec<f32>)> {
    let at = ctx.item("animations", a, String::new)?;
    let samplers = at.opt_array("samplers")?.unwrap_or(&[]);
    let spath = |key: &str| format!("/animations/{a}/samplers/{s}/{key}");
    let animation = Path::Item("animations", a);
    let list = Path::Key(&animation, "samplers");
    let sampler = At {
        value: &samplers[s],
        path: Path::Index(&list, s),
    };
    sampler.object()?;
    let interpolation = match sampler.opt_str("interpolation")?.unwrap_or("LINEAR") {
        "LINEAR" => Interpolation::Linear,
        "STEP" => Interpolation::Step,
        "CUBICSPLINE" => Interpolation::CubicSpline,
        other => {
            return Err(err(
                spath("interpolation"),
                format!("{other:?} is not LINEAR, STEP or CUBICSPLINE"),
            ))
        }
    };
    let (input, output) = (sampler.usize("input")?, sampler.usize("output")?);
    let ipath = || spath("input");
    let ia = ctx.accessor(input, &ipath)?;
    ctx.check(&ia, &allowed::TIMES, &ipath)?;
    let times: Vec<f32> = ctx.read_floats::<1>(&ia)?.into_flattened();
    let mut warned_equal = false;
    for k in 1..times.len() {
        if times[k] < times[k - 1] {
            return Err(err(
                ipath(),
                format!(
                    "key {k} at {} s comes before key {} at {} s (times must increase)",
                    times[k],
                    k - 1,
                    times[k - 1]
                ),
            ));
        }
        if times[k] == times[k - 1] && !std::mem::replace(&mut warned_equal, true) {
            ctx.warn(
                ipath(),
                format!("keys {} and {k} are both at {} s", k - 1, times[k]),
            );
        }
    }
    if times.first().is_some_and(|&t| t < 0.0) {
        ctx.warn(
            ipath(),
            format!("the first key is at {} s, before 0", times[0]),
        );
    }
    let opath = || spath("output");
    let oa = ctx.accessor(output, &opath)?;
    ctx.check(&oa, allowed, &opath)?;
    // Weights are scalars, `components` (the morph target count) per key.
    let values: Vec<f32> = match oa.kind.components() {
        3 => ctx.read_floats::<3>(&oa)?.into_flattened(),
        4 => ctx.read_floats::<4>(&oa)?.into_flattened(),
        _ => ctx.read_floats::<1>(&oa)?.into_flattened(),
    };
    let per_key = components
        * if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
    let expected = times.len() as u128 * per_key as u128;
    if values.len() as u128 != expected {
        return Err(err(
            opath(),
            format!(
                "accessor {output} has {} values, but {} keys of {per_key} need {expected}",
                values.len(),
                times.len()
            ),
        ));
    }
    Ok((interpolation, times, values))
}
