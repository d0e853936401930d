//! What is wrong with an MD5 model that reading lets through: quaternions
//! whose `w` cannot be had, weights that do not sum to 1, weights of one
//! vertex that disagree on where it is, bounds that do not contain the
//! posed mesh, anims whose hierarchy is not the mesh's, and the
//! `.md5scale`'s joints and frames.

use glam::{DVec3, Vec3};

use super::{Animation, Md5Model};
use crate::problem::{Collector, Problem};

/// How far from 1 a vertex's biases may sum (exporters print 6 decimals).
pub const WEIGHT_SUM_TOLERANCE: f32 = 1e-3;

/// How far, as a fraction of the model's extent (and at least 1e-4
/// units), posed vertices may lie outside a frame's bounds and a weight's
/// point from its vertex's bind position.
pub const POSITION_TOLERANCE: f32 = 1e-3;

/// `x² + y² + z²` past which the file's quaternion has no `w`.
const UNIT_TOLERANCE: f32 = 1e-3;

fn check_quat(c: &mut Collector, path: String, xyz: [f32; 3], line: Option<usize>) {
    let n = Vec3::from(xyz).length_squared();
    if n > 1.0 + UNIT_TOLERANCE {
        let at = line.map_or(String::new(), |l| format!(" (line {l})"));
        c.warn(
            path,
            format!("orientation x² + y² + z² = {n:.4} is more than 1{at}: its w = -√(1 − x² − y² − z²) does not exist, engines take 0"),
            None,
        );
    }
}

impl Md5Model {
    /// Every problem of the mesh and its animations.
    pub fn validate(&self) -> Vec<Problem> {
        let mut c = Collector::default();
        let mesh = &self.mesh;
        for (i, j) in mesh.joints.iter().enumerate() {
            check_quat(
                &mut c,
                format!("md5mesh.joints[{i}].orientation"),
                j.orientation,
                Some(j.line),
            );
        }
        let bind = mesh.bind_pose();
        let extent = self.extent();
        let tolerance = (POSITION_TOLERANCE * extent).max(1e-4);
        for (m, part) in mesh.meshes.iter().enumerate() {
            for (v, vertex) in part.vertices.iter().enumerate() {
                let path = format!("md5mesh.meshes[{m}].vertices[{v}]");
                if vertex.weight_count == 0 {
                    c.error(path, "has no weights: no joint places it", None);
                    continue;
                }
                let weights =
                    &part.weights[vertex.first_weight..vertex.first_weight + vertex.weight_count];
                let sum: f32 = weights.iter().map(|w| w.bias).sum();
                if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
                    c.warn(
                        path.clone(),
                        format!("weights sum to {sum:.6}, not 1"),
                        None,
                    );
                }
                if let Some(w) = weights.iter().find(|w| w.bias < 0.0) {
                    c.warn(
                        path.clone(),
                        format!("a weight on joint {} is negative ({})", w.joint, w.bias),
                        None,
                    );
                }
                // In f64, the sum too: a point far out (10²⁸, which f32 holds)
                // squares past f32's range, and f32's sum would lose what a
                // weight adds to it (1 unit at 10¹⁹).
                let points: Vec<(f64, DVec3)> = weights
                    .iter()
                    .filter_map(|w| {
                        let j = bind.get(w.joint)?;
                        let at = j.position.as_dvec3()
                            + j.orientation.as_dquat() * Vec3::from(w.position).as_dvec3();
                        Some((f64::from(w.bias), at))
                    })
                    .collect();
                let p: DVec3 = points.iter().map(|&(b, at)| at * b).sum();
                let far = points
                    .iter()
                    .map(|&(_, at)| at.distance(p))
                    .fold(0.0f64, f64::max);
                if far > f64::from(tolerance) {
                    c.warn(
                        path,
                        format!("its weights put it at points up to {far:.4} units apart from their sum: skinning formats that bind a vertex at one point (glTF) move it differently"),
                        None,
                    );
                }
            }
        }
        for a in &self.animations {
            self.validate_animation(&mut c, a, tolerance);
        }
        c.finish()
    }

    /// The largest extent of the bind-posed mesh (1 for an empty one).
    pub(crate) fn extent(&self) -> f32 {
        let bind = self.mesh.bind_pose();
        // In f64: points near f32's ends are `f32::MAX` apart or more,
        // which f32 would call infinite (and the tolerance would shrink to
        // that of a 1-unit model).
        let (mut lo, mut hi) = (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN));
        for m in 0..self.mesh.meshes.len() {
            for p in self.mesh.posed_vertices(m, &bind) {
                lo = lo.min(Vec3::from(p).as_dvec3());
                hi = hi.max(Vec3::from(p).as_dvec3());
            }
        }
        let e = (hi - lo).max_element();
        if e.is_finite() && e > 0.0 {
            e.min(f64::from(f32::MAX)) as f32
        } else {
            1.0
        }
    }

    fn validate_animation(&self, c: &mut Collector, a: &Animation, tolerance: f32) {
        let anim = &a.anim;
        let base = format!("md5anim {:?}", a.name);
        if anim.frame_rate.is_nan() || anim.frame_rate <= 0.0 {
            c.error(
                format!("{base}.frameRate"),
                format!("frame rate {} is not positive", anim.frame_rate),
                None,
            );
        }
        if anim.num_frames == 0 {
            c.warn(
                format!("{base}.numFrames"),
                "no frames (the rerelease needs at least 1: Q2PRO MD5_ParseAnim)",
                None,
            );
        }
        let joints = &self.mesh.joints;
        if anim.hierarchy.len() != joints.len() {
            c.error(
                format!("{base}.numJoints"),
                format!(
                    "{} joints but the md5mesh has {}",
                    anim.hierarchy.len(),
                    joints.len()
                ),
                None,
            );
        }
        for (i, (h, j)) in anim.hierarchy.iter().zip(joints).enumerate() {
            let path = format!("{base}.hierarchy[{i}]");
            if h.name != j.name {
                c.error(
                    path.clone(),
                    format!(
                        "named {:?} (line {}) but the md5mesh's joint {i} is {:?}",
                        h.name, h.line, j.name
                    ),
                    None,
                );
            }
            if h.parent != j.parent {
                let show = |p: Option<usize>| p.map_or("none".to_string(), |p| p.to_string());
                c.error(
                    path.clone(),
                    format!(
                        "parent {} (line {}) but the md5mesh's is {}",
                        show(h.parent),
                        h.line,
                        show(j.parent)
                    ),
                    None,
                );
            }
            if h.flags >> super::COMPONENT_BITS != 0 {
                c.warn(
                    path,
                    format!(
                        "flags {} set bits past the six components (line {})",
                        h.flags, h.line
                    ),
                    None,
                );
            }
        }
        for (i, b) in anim.base_frame.iter().enumerate() {
            check_quat(
                c,
                format!("{base}.baseframe[{i}].orientation"),
                b.orientation,
                None,
            );
        }
        if let Some(scale) = &a.scale {
            for j in &scale.joints {
                if j.index.is_none() {
                    c.warn(
                        format!("{base}.md5scale"),
                        format!("names joint {:?}, which the anim lacks", j.joint),
                        None,
                    );
                }
                for (f, s) in &j.frames {
                    if *f >= anim.num_frames as u64 {
                        c.warn(
                            format!("{base}.md5scale"),
                            format!(
                                "joint {:?}: frame {f} past the anim's {} frames",
                                j.joint, anim.num_frames
                            ),
                            None,
                        );
                    }
                    // Zero is a hide, not damage: Q2PRO `src/refresh/mesh.c`,
                    // `calc_skel_vert`, places a weight at `pos + scale * offset`,
                    // so scale 0 puts the joint's points on the joint (what a
                    // glTF joint scaled to nothing does); `MD5_LoadScales`
                    // takes any number. A negative scale turns the points
                    // inside out, and a non-finite one sends them away.
                    if !s.is_finite() || *s < 0.0 {
                        c.warn(
                            format!("{base}.md5scale"),
                            format!(
                                "joint {:?}: frame {f}: scale {s} is negative or not a number",
                                j.joint
                            ),
                            None,
                        );
                    }
                }
            }
        }
        if anim.hierarchy.len() != joints.len() {
            return;
        }
        if anim.num_frames.saturating_mul(joints.len()) > super::MAX_JOINT_FRAMES {
            c.warn(
                format!("{base}.frames"),
                format!(
                    "{} joints × {} frames is more than {} joint-frames: the frames are not checked",
                    joints.len(),
                    anim.num_frames,
                    super::MAX_JOINT_FRAMES
                ),
                None,
            );
            return;
        }
        let weights: usize = self.mesh.meshes.iter().map(|m| m.weights.len()).sum();
        let checked = (super::MAX_WEIGHT_FRAMES / weights.max(1)).min(anim.num_frames);
        if checked < anim.num_frames {
            c.warn(
                format!("{base}.bounds"),
                format!(
                    "only the first {checked} of {} frames are checked against their bounds ({weights} weights each)",
                    anim.num_frames
                ),
                None,
            );
        }
        for k in 0..anim.num_frames {
            for i in 0..anim.hierarchy.len() {
                let x = anim.components_of(k, i);
                check_quat(
                    c,
                    format!("{base}.frames[{k}].joints[{i}].orientation"),
                    [x[3], x[4], x[5]],
                    None,
                );
            }
            if k >= checked {
                continue;
            }
            let pose = anim.pose(k, a.scale.as_ref());
            let [lo, hi] = anim.bounds[k];
            let (lo, hi) = (Vec3::from(lo) - tolerance, Vec3::from(hi) + tolerance);
            let mut worst = 0.0f32;
            for m in 0..self.mesh.meshes.len() {
                for p in self.mesh.posed_vertices(m, &pose) {
                    let p = Vec3::from(p);
                    let out = (lo - p).max(p - hi).max_element();
                    worst = worst.max(out);
                }
            }
            if worst > 0.0 {
                c.warn(
                    format!("{base}.bounds[{k}]"),
                    format!(
                        "the posed mesh reaches {:.4} units outside the frame's bounds",
                        worst + tolerance
                    ),
                    None,
                );
            }
        }
    }
}
