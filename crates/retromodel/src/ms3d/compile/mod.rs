//! Compiling any [`Scene`] into an MS3D, as exactly as the format allows
//! (feature `scene`).
//!
//! [`compile`] makes MilkShape joints of the scene's skins and animated
//! nodes, groups of its meshes, materials with their texture files, and
//! keys on MilkShape's one timeline that MilkShape's own evaluation
//! ([`Skeleton`](crate::ms3d::Skeleton) and
//! [`Influences`](crate::ms3d::Influences), as its viewer poses and skins)
//! turns into the source's motion; then checks the result against the
//! source ([`Pose`](crate::scene::Pose)) and against MilkShape's limits
//! ([`Ms3d::validate_for_milkshape`]).
//!
//! ```
//! use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
//! use retromodel::scene::Scene;
//! use retromodel::ms3d::Ms3dSceneOptions;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let original = retromodel::ms3d::sample::sample_model();
//! let scene = Scene::from_ms3d(&original, &Ms3dSceneOptions::default())?;
//! let compiled = compile(&scene, &Ms3dCompileOptions::default())?;
//! // The scene came from an MS3D: its keys come back as they were.
//! assert_eq!(compiled.model.joints.len(), original.joints.len());
//! assert_eq!(compiled.model.joints[1].rotation_keys.len(), original.joints[1].rotation_keys.len());
//! assert!(compiled.report.max_error() < 1e-5);
//! assert!(compiled.model.validate_for_milkshape().is_empty());
//! # Ok(()) }
//! ```
//!
//! # Conventions
//!
//! - **Axes and winding**: MilkShape's are the scene's
//!   ([`ms3d_axes`](crate::ms3d::ms3d_axes), the identity); nothing
//!   changes.
//! - **Groups, vertices, corners, smoothing groups**: see the `geometry`
//!   and `smoothing` notes below — one group per scene mesh; vertices
//!   welded per group by position and influences (normals and texture
//!   coordinates live in the triangles' corners, so seams cost nothing);
//!   smoothing groups from the source's normals.
//! - **Joints and bind pose**: one joint per skin joint (several skins
//!   merge when they bind shared nodes alike; otherwise the compile fails),
//!   one per animated node that places a mesh without a skin (its vertices
//!   bound rigidly), parents first; non-joint ancestors folded in; the
//!   helper joints of `Scene::from_ms3d` turned back into MilkShape's
//!   meaning. A skin's constant bind shape (what every joint's rest
//!   global times its inverse bind matrix gives, such as the
//!   dequantisation `gltf-transform quantize` folds into them) is baked
//!   into the vertices, so MilkShape's bind pose is the source's rest
//!   pose; bind locals from the rest pose, or from the inverse bind
//!   matrices for joints whose rest is not their bind; only a scale that
//!   changes over time is left out (with a warning naming the joint).
//!   A joint scaled to 0 poses as MilkShape can (its vertices do not
//!   collapse), never refused.
//! - **Weights**: vertex extras subversion 2 (10-byte records; see
//!   [`WEIGHTS_SUBVERSION`]), whole percentages: of the roundings of a
//!   vertex's weights (each down or up, summing to 100) the one that keeps
//!   the vertex nearest to the source over a few poses of the animations,
//!   largest remainder where none is nearer.
//! - **Timeline and clips**: animations one after another from frame 1,
//!   stored as the model comment's clip line
//!   ([`CLIP_LINE_PREFIX`](crate::ms3d::CLIP_LINE_PREFIX)).
//! - **Keys**: the source's key times (a step's doubled a tiny time
//!   apart), refined where MilkShape's interpolation strays and reduced
//!   where keys are not needed, checked at every frame and each quarter
//!   between; an MS3D's own keys come back as they are.
//! - **Materials and textures**: diffuse, emissive, transparency,
//!   shininess from roughness; textures written beside the model as
//!   `.\NAME.png`.
//! - **Limits**: MilkShape 1.8's own (see
//!   [`Ms3d::validate_for_milkshape`]); a model over one is refused with
//!   which limit, by how much and what to do.
//!
//! Morph targets have no place in an MS3D: meshes are written at their
//! default morph weights, and animations of morph weights alone are left
//! out, with a warning (MD2 stores vertex animation).

mod bind;
mod geometry;
mod joints;
mod keys;
mod layout;
mod materials;
mod names;
mod poses;
mod report;
mod rigid;
mod smoothing;
mod times;
mod track;
mod verify;
mod weights;

pub use report::{Ms3dAnimationReport, Ms3dCompileReport, Ms3dCompileWarning};

use glam::Vec3;
use serde_json::Value;

use crate::advice::{Advice, Limit, Quantity, Remedy};
use crate::error::{Error, Result};
use crate::ms3d::{
    limits, stored, with_clip_line, Comment, Comments, Extras, Group, Influence, Joint,
    JointExtras, ModelComment, ModelExtras, Ms3d, VertexExtras,
};
use crate::scene::{Scene, Target};
use crate::Severity;

/// The vertex extras subversion written: 2, whose 10-byte records
/// (`bone ids[3]`, `weights[3]` in percent, one `u32` extra) every reader
/// agrees on. MilkShape 1.8.5's specification gives every subversion
/// percent weights, but subversion 1 was specified as 0–255 in 1.8.2 (some
/// readers scale by 255), and subversion 3's records are 14 bytes for
/// MilkShape but read as 10 by Blender's and Irrlicht's loaders, so both
/// are ambiguous; MilkShape itself reads 2 as written.
pub const WEIGHTS_SUBVERSION: i32 = 2;

/// How [`compile`] turns a scene into an MS3D.
#[derive(Debug, Clone, PartialEq)]
pub struct Ms3dCompileOptions {
    /// The frame rate stored (and the one clips' frames count in);
    /// `None` for the MS3D's the scene came from, else 24 (MilkShape's
    /// default). Key times are seconds either way.
    pub fps: Option<f32>,
    /// The animations to put on the timeline, in this order (exact names,
    /// else ASCII case-insensitive; an unknown name is an error listing
    /// the scene's); empty for all, in scene order.
    pub animations: Vec<String>,
    /// The largest vertex error allowed, as a fraction of the model's
    /// extent (its bounding box's diagonal): keys are added until
    /// MilkShape's evaluation is within it at every sample. Default 1e-3.
    pub tolerance: f32,
    /// Keep the keys of animations that `Scene::from_ms3d` made as they
    /// are (they are MilkShape's already), and their places on the
    /// timeline. Default true.
    pub reuse_ms3d_keys: bool,
    /// The stem texture files are named by (`STEM.png`, then `STEM_2.png`,
    /// ...; characters other than `[A-Za-z0-9_.-]` become `_`), e.g. the
    /// model file's, so that models written side by side keep their own
    /// textures; `None` (the default): each texture's own name's stem.
    pub texture_stem: Option<String>,
}

impl Default for Ms3dCompileOptions {
    fn default() -> Self {
        Ms3dCompileOptions {
            fps: None,
            animations: Vec::new(),
            tolerance: 1e-3,
            reuse_ms3d_keys: true,
            texture_stem: None,
        }
    }
}

/// A texture file to write beside the model.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureFile {
    /// Its file name (`NAME.png`); the model names it `.\NAME.png`.
    pub name: String,
    /// The PNG bytes.
    pub bytes: Vec<u8>,
}

/// What [`compile`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct Ms3dCompiled {
    /// The model: no error in [`Ms3d::validate_for_milkshape`].
    pub model: Ms3d,
    /// The texture files its materials name.
    pub textures: Vec<TextureFile>,
    /// Counts, keys and errors.
    pub report: Ms3dCompileReport,
    /// What had to change.
    pub warnings: Vec<Ms3dCompileWarning>,
    /// For each scene mesh, for each of its vertices, the MS3D vertex it
    /// became (`None` for a vertex no triangle uses).
    pub vertex_map: Vec<Vec<Option<u32>>>,
}

/// A refusal: what is over which limit, by how much, and what to do.
fn over_limit(quantity: Quantity, n: usize, limit: usize, remedies: Vec<Remedy>) -> Error {
    let what = quantity.noun();
    Error::unwritable(
        what,
        format!(
            "{n} {what} exceed MilkShape 1.8's limit of {limit} (by {})",
            n - limit
        ),
    )
    .advised(Advice::new(
        Some(Limit {
            quantity,
            max: limit as u64,
            actual: n as u64,
        }),
        remedies,
    ))
}

fn check_options(options: &Ms3dCompileOptions) -> Result<()> {
    let bad = |message: String| Err(Error::InvalidOptions { message });
    if let Some(f) = options.fps {
        if !(f.is_finite() && f > 0.0) {
            return bad(format!("fps {f} is not a positive number"));
        }
    }
    if !(options.tolerance.is_finite() && options.tolerance > 0.0) {
        return bad(format!(
            "tolerance {} is not a positive number",
            options.tolerance
        ));
    }
    Ok(())
}

/// The animations to compile, by index (see
/// [`Ms3dCompileOptions::animations`]).
fn chosen(scene: &Scene, names: &[String]) -> Result<Vec<usize>> {
    if names.is_empty() {
        return Ok((0..scene.animations.len()).collect());
    }
    names
        .iter()
        .map(|name| {
            scene
                .animations
                .iter()
                .position(|a| a.name == *name)
                .or_else(|| {
                    scene
                        .animations
                        .iter()
                        .position(|a| a.name.eq_ignore_ascii_case(name))
                })
                .ok_or_else(|| Error::InvalidOptions {
                    message: format!(
                        "no animation {name:?}; the scene has {:?}",
                        scene.animations.iter().map(|a| &a.name).collect::<Vec<_>>()
                    ),
                })
        })
        .collect()
}

/// A comment from an item's extras (`extras.comment`).
fn comment_of(extras: &Value) -> Option<String> {
    extras
        .get("comment")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}

/// The comments of a list of items, by index: the bytes the source MS3D
/// stored where they still say the text.
fn comments(items: &[stored::Reader], warnings: &mut Vec<Ms3dCompileWarning>) -> Vec<Comment> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let text = comment_of(r.extras)?;
            Some(Comment {
                index: i32::try_from(i).ok()?,
                text: r
                    .comment(&text, warnings)
                    .unwrap_or_else(|| text.into_bytes()),
            })
        })
        .collect()
}

/// Per joint: the distance from it of the farthest vertex that it or its
/// descendants move, and of its descendants' origins.
fn radii(
    joints: &[joints::PlannedJoint],
    vertices: &[crate::ms3d::Vertex],
    records: &[crate::ms3d::VertexExtra],
) -> Vec<f64> {
    let origins: Vec<glam::DVec3> = joints.iter().map(|j| j.bind_global.t).collect();
    let mut radius = vec![0.0f64; joints.len()];
    let reach = |mut j: usize, p: glam::DVec3, radius: &mut [f64]| {
        for _ in 0..=joints.len() {
            radius[j] = radius[j].max((p - origins[j]).length());
            match joints[j].parent {
                Some(parent) => j = parent,
                None => break,
            }
        }
    };
    for (v, r) in vertices.iter().zip(records) {
        let inf = Influence::from_stored(v.bone_id, r.bone_ids, r.weights, joints.len());
        let p = glam::DVec3::from(v.position.map(f64::from));
        for k in 0..usize::from(inf.count) {
            reach(usize::from(inf.joints[k]), p, &mut radius);
        }
    }
    for (j, o) in origins.iter().enumerate() {
        reach(j, *o, &mut radius);
    }
    radius
}

/// The scene's last material when it is the one `gltf::import` adds for
/// primitives without a material (glTF's default: white, metallic and
/// roughness 1, named `default`): MilkShape's "no material" (−1), which
/// is what an MS3D group without a material becomes in glTF.
fn gltf_default_material(scene: &Scene) -> Option<usize> {
    let last = scene.materials.len().checked_sub(1)?;
    let default = crate::scene::Material {
        name: "default".to_string(),
        metallic: 1.0,
        roughness: 1.0,
        ..crate::scene::Material::default()
    };
    (scene.materials[last] == default).then_some(last)
}

/// Compiles `scene` into an MS3D (see the [module documentation](self)).
///
/// Fails on a scene whose parts do not fit together (a node hierarchy
/// with a cycle, indices out of range, positions that are not finite,
/// skins that bind one node differently) and on a model over one of
/// MilkShape's limits, saying which, by how much and what to do.
pub fn compile(scene: &Scene, options: &Ms3dCompileOptions) -> Result<Ms3dCompiled> {
    check_options(options)?;
    // The node hierarchy (cycles, parents out of range).
    crate::scene::Pose::new(scene)?;
    let mut warnings = Vec::new();
    let mut chosen = chosen(scene, &options.animations)?;
    let morph_only: Vec<usize> = chosen
        .iter()
        .copied()
        .filter(|&a| {
            let c = &scene.animations[a].channels;
            !c.is_empty()
                && c.iter()
                    .all(|c| matches!(c.target, Target::MorphWeights { .. }))
        })
        .collect();
    if !morph_only.is_empty() {
        warnings.push(Ms3dCompileWarning::MorphAnimations {
            names: morph_only
                .iter()
                .map(|&a| scene.animations[a].name.clone())
                .collect(),
        });
        chosen.retain(|a| !morph_only.contains(a));
    }
    if scene.meshes.len() > limits::GROUPS {
        return Err(over_limit(
            Quantity::Groups,
            scene.meshes.len(),
            limits::GROUPS,
            vec![Remedy::JoinMeshes],
        ));
    }
    if scene.materials.len() > limits::MATERIALS {
        return Err(over_limit(
            Quantity::Materials,
            scene.materials.len(),
            limits::MATERIALS,
            vec![Remedy::MergeMaterials],
        ));
    }
    let animated = joints::animated_nodes(scene, &chosen);
    let plan = joints::plan(scene, &animated, &chosen)?;
    if plan.joints.len() > limits::JOINTS {
        return Err(over_limit(
            Quantity::Joints,
            plan.joints.len(),
            limits::JOINTS,
            vec![Remedy::FewerJoints],
        ));
    }
    let layout = layout::layout(scene, &chosen, options.fps, options.reuse_ms3d_keys);
    let poses = poses::Poses::new(scene, &plan, &layout);
    let geometry = geometry::build(scene, &plan, &poses)?;
    if geometry.vertices.len() > limits::VERTICES {
        return Err(over_limit(
            Quantity::Vertices,
            geometry.vertices.len(),
            limits::VERTICES,
            vec![Remedy::Decimate, Remedy::SplitModel],
        ));
    }
    if geometry.triangles.len() > limits::TRIANGLES {
        return Err(over_limit(
            Quantity::Triangles,
            geometry.triangles.len(),
            limits::TRIANGLES,
            vec![Remedy::Decimate, Remedy::SplitModel],
        ));
    }
    if !geometry.morphed_meshes.is_empty() {
        warnings.push(Ms3dCompileWarning::MorphTargets {
            meshes: geometry.morphed_meshes.clone(),
        });
    }
    if geometry.made_whole + geometry.influences_dropped > 0 {
        warnings.push(Ms3dCompileWarning::Weights {
            made_whole: geometry.made_whole,
            dropped: geometry.influences_dropped,
        });
    }
    if geometry.normals_replaced + geometry.uvs_replaced > 0 {
        warnings.push(Ms3dCompileWarning::Replaced {
            normals: geometry.normals_replaced,
            uvs: geometry.uvs_replaced,
        });
    }
    if geometry.triangles_dropped > 0 {
        warnings.push(Ms3dCompileWarning::TrianglesDropped {
            count: geometry.triangles_dropped,
        });
    }
    if geometry.smoothing_conflicts > 0 {
        warnings.push(Ms3dCompileWarning::SmoothingGroups {
            conflicts: geometry.smoothing_conflicts,
        });
    }
    // Names: the fields the source MS3D stored where they still apply.
    let names::Named {
        records,
        groups: group_names,
        materials: material_names,
        joints: joint_names,
        parents: parent_names,
    } = names::name_all(scene, &plan, &mut warnings);
    let model_name: String = scene
        .name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        .collect();
    let model_name = if model_name.is_empty() {
        "model".to_string()
    } else {
        model_name
    };
    let mut mats = materials::build(
        scene,
        &material_names,
        &model_name,
        options.texture_stem.as_deref(),
        &mut warnings,
    )?;
    let no_material = gltf_default_material(scene);
    if no_material.is_some() {
        mats.materials.pop();
    }
    // Extent and tolerances.
    let (lo, hi) = geometry.vertices.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| {
            (
                lo.min(Vec3::from(v.position)),
                hi.max(Vec3::from(v.position)),
            )
        },
    );
    let diagonal = (hi - lo).length();
    let extent = if diagonal.is_finite() && diagonal > 0.0 {
        diagonal
    } else {
        1.0
    };
    let radius = radii(&plan.joints, &geometry.vertices, &geometry.records);
    let targets = keys::targets(scene, &plan, &layout, &radius)?;
    let budget = f64::from(options.tolerance) * f64::from(extent);
    // The budget shared out along a chain of one joint first (errors down
    // a chain seldom add up), then of more until the check agrees. A
    // looser fit is kept when the check finds it within the tolerance
    // (the check looks between the fitted samples too); the last (the
    // whole chain's, which keeps errors within the budget by itself)
    // whatever the check finds.
    let chains = keys::chains(targets.depth);
    let mut fitted = keys::fit(scene, &plan, &layout, &radius, &targets, budget, chains[0]);
    if fitted.nonrigid > f64::from(options.tolerance * extent) {
        warnings.push(Ms3dCompileWarning::NonRigidMotion {
            joint: plan
                .joints
                .get(fitted.nonrigid_joint)
                .map(|j| scene.nodes[j.node].name.clone())
                .unwrap_or_default(),
            error: (fitted.nonrigid / f64::from(extent)) as f32,
        });
    }
    // The model.
    let joints: Vec<Joint> = plan
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| Joint {
            flags: 0,
            name: joint_names[i],
            parent: parent_names[i],
            rotation: j.euler,
            position: j.position,
            rotation_keys: fitted.rotation_keys[i].clone(),
            position_keys: fitted.position_keys[i].clone(),
        })
        .collect();
    let groups: Vec<Group> = scene
        .meshes
        .iter()
        .enumerate()
        .map(|(m, mesh)| Group {
            flags: 0,
            name: group_names[m],
            triangles: geometry.group_triangles[m].clone(),
            material: mesh
                .material
                .filter(|&i| i < scene.materials.len() && Some(i) != no_material)
                .map_or(-1, |i| i as i8),
        })
        .collect();
    let clips = layout.clips();
    let source_comment = scene
        .extras
        .get("comment")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let model_comment = with_clip_line(source_comment, &clips);
    // The comment's bytes as stored, when it still says the same.
    let model_comment = match records.model.comment(source_comment, &mut warnings) {
        Some(bytes) if model_comment == source_comment => bytes,
        _ => model_comment.into_bytes(),
    };
    let joint_colors = scene
        .extras
        .get("joint_colors")
        .and_then(|c| serde_json::from_value::<Vec<[f32; 3]>>(c.clone()).ok())
        .filter(|c| c.len() == joints.len() && layout::from_ms3d(scene))
        .unwrap_or_else(|| vec![[1.0, 1.0, 0.0]; joints.len()]);
    let joint_size = scene
        .extras
        .get("model_extras")
        .and_then(|m| m.get("joint_size"))
        .and_then(Value::as_f64)
        .map(|s| s as f32)
        .filter(|s| s.is_finite())
        .unwrap_or(1.0);
    let extras = Extras {
        comments: Some(Comments {
            subversion: 1,
            groups: comments(&records.meshes, &mut warnings),
            materials: comments(&records.materials, &mut warnings),
            joints: comments(&records.joints, &mut warnings),
            model: if model_comment.is_empty() {
                ModelComment::None(0)
            } else {
                ModelComment::LengthText(model_comment)
            },
        }),
        vertices: Some(VertexExtras {
            subversion: WEIGHTS_SUBVERSION,
            record_size: 10,
            records: geometry.records.clone(),
        }),
        joints: Some(JointExtras {
            subversion: 1,
            colors: joint_colors,
        }),
        model: Some(ModelExtras {
            subversion: 1,
            joint_size,
            transparency_mode: mats.transparency_mode,
            alpha_ref: mats.alpha_ref,
        }),
    };
    let mut model = Ms3d {
        version: 4,
        vertices: geometry.vertices.clone(),
        triangles: geometry.triangles.clone(),
        groups,
        materials: mats.materials,
        fps: layout.fps,
        current_time: 0.0,
        total_frames: layout.total_frames,
        joints,
        extras,
        trailing: Vec::new(),
    };
    // Checked against the source.
    let mut checked = verify::check(scene, &model, &layout, &geometry.vertex_map, extent)?;
    for &chain in &chains[1..] {
        if checked.animations.iter().all(|&e| e <= options.tolerance) {
            break;
        }
        fitted = keys::fit(scene, &plan, &layout, &radius, &targets, budget, chain);
        for (j, joint) in model.joints.iter_mut().enumerate() {
            joint.rotation_keys.clone_from(&fitted.rotation_keys[j]);
            joint.position_keys.clone_from(&fitted.position_keys[j]);
        }
        checked = verify::check(scene, &model, &layout, &geometry.vertex_map, extent)?;
    }
    for p in model.validate_for_milkshape() {
        if p.severity == Severity::Error {
            return Err(Error::Unwritable {
                context: p.path.clone(),
                message: format!("{}; the compile made a model MilkShape refuses", p.message),
            });
        }
    }
    let animations: Vec<Ms3dAnimationReport> = layout
        .placed
        .iter()
        .enumerate()
        .map(|(p, placed)| Ms3dAnimationReport {
            name: placed.name.clone(),
            first_frame: placed.first_frame,
            last_frame: placed.last_frame,
            source_keys: fitted.source_keys[p],
            keys: fitted.written_keys[p],
            checked_times: checked.times[p],
            steps: checked.steps[p],
            max_error: checked.animations[p],
        })
        .collect();
    for a in &animations {
        if a.max_error > options.tolerance {
            warnings.push(Ms3dCompileWarning::Inexact {
                name: a.name.clone(),
                error: a.max_error,
                steps: a.steps,
            });
        }
    }
    let report = Ms3dCompileReport {
        source_vertices: geometry.source_vertices,
        vertices: model.vertices.len(),
        triangles: model.triangles.len(),
        groups: model.groups.len(),
        materials: model.materials.len(),
        joints: model.joints.len(),
        fps: model.fps,
        total_frames: model.total_frames,
        animations,
        extent,
        weight_error: geometry.weight_error as f32,
        rest_error: checked.rest,
        rest_is_bind: plan.rest_is_bind,
    };
    Ok(Ms3dCompiled {
        model,
        textures: mats.files,
        report,
        warnings,
        vertex_map: geometry.vertex_map,
    })
}
