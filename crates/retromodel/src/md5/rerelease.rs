//! Whether the Quake II rerelease loads an MD5 beside its MD2:
//! [`RereleaseLimits`] and [`Md5Model::validate_for_rerelease`].
//!
//! The rerelease's own engine is not public; its loading is read from the
//! source ports that reimplement it:
//!
//! - Q2PRO `src/refresh/models.c` (commit 3aa0d40, July 2025):
//!   `MOD_LoadMD5` looks for `md5/STEM.md5mesh` and `md5/STEM.md5anim`
//!   beside `STEM.md2` and loads neither without both; `MD5_ParseMesh` and
//!   `MD5_ParseAnim` read every count with `MD5_ParseUint(min, max)`, and a
//!   count out of range fails the MD5 (`MD5_ParseError`, then
//!   `MOD_LoadMD5` frees it and the MD2 is drawn instead). The limits are
//!   `src/refresh/gl.h`'s `MD5_MAX_JOINTS` 256, `MD5_MAX_JOINTNAME` 48,
//!   `MD5_MAX_MESHES` 32, `MD5_MAX_WEIGHTS` 8192, `MD5_MAX_FRAMES` 1024 and
//!   `TESS_MAX_VERTICES` 6144 (`TESS_MAX_INDICES` 3 × 6144).
//! - yquake2remaster `src/common/models/models_md5.c` (`ReadMD5Model`,
//!   `ReadMD5Anim`) sets no limit on the counts and
//!   `src/common/models/loadfile.c` (`Mod_LoadFileMD5Merge`) likewise wants
//!   both files (no md5anim: the MD5 is not used); it names the MD5's
//!   frames after the MD2's, by number. So Q2PRO's limits are the ones a
//!   model must meet.

use super::Md5Model;
use crate::problem::{Collector, Problem};

/// What the rerelease's MD5 loader accepts, as Q2PRO reimplements it (see
/// the module's sources). Counts are per file or per mesh as noted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RereleaseLimits {
    /// Most joints (`MD5_MAX_JOINTS`; `MD5_ParseMesh` and `MD5_ParseAnim`
    /// read `numJoints` as 1..=256).
    pub max_joints: usize,
    /// Most meshes (`MD5_MAX_MESHES`; `numMeshes` 1..=32).
    pub max_meshes: usize,
    /// Most vertices per mesh (`numverts` 0..=`TESS_MAX_VERTICES`).
    pub max_vertices: usize,
    /// Most triangles per mesh (`numtris` 0..=`TESS_MAX_INDICES / 3`).
    pub max_triangles: usize,
    /// Most weights per mesh (`numweights` 0..=`MD5_MAX_WEIGHTS`).
    pub max_weights: usize,
    /// Most frames (`MD5_MAX_FRAMES`; `numFrames` 1..=1024).
    pub max_frames: usize,
    /// Most numbers per frame (`numAnimatedComponents` 0..=
    /// `MD5_MAX_JOINTS × 6`, the size of `MD5_ParseAnim`'s frame buffer).
    pub max_animated_components: usize,
    /// Longest joint name kept whole, in bytes (`joint_info_t.name` is
    /// `MD5_MAX_JOINTNAME` 48 bytes with its NUL; `COM_ParseToken` cuts a
    /// longer one).
    pub max_joint_name: usize,
}

/// Q2PRO's limits (the numbers of [`RereleaseLimits`]' fields).
pub const Q2PRO_LIMITS: RereleaseLimits = RereleaseLimits {
    max_joints: 256,
    max_meshes: 32,
    max_vertices: 6144,
    max_triangles: 6144,
    max_weights: 8192,
    max_frames: 1024,
    max_animated_components: 256 * 6,
    max_joint_name: 47,
};

const ENGINE: &str = "the Quake II rerelease (as Q2PRO loads it)";
const REFUSES: &str = "it refuses the MD5 and draws the MD2";

impl Md5Model {
    /// Every problem of [`Md5Model::validate`] and every reason the Quake
    /// II rerelease would not load the MD5 beside its MD2, or would play
    /// it wrong ([`Q2PRO_LIMITS`]; see the module's sources). `md2_frames`
    /// is the frame count of the MD2 it replaces, when known: the engine
    /// plays MD5 frame k for MD2 frame k, so the counts should agree.
    ///
    /// ```
    /// use retromodel::md5::Md5Model;
    /// let mesh = "MD5Version 10 commandline \"\" numJoints 1 numMeshes 1
    /// joints { \"root\" -1 ( 0 0 0 ) ( 0 0 0 ) }
    /// mesh { shader \"s\" numverts 1 vert 0 ( 0 0 ) 0 1 numtris 0 numweights 1
    ///   weight 0 0 1 ( 1 2 3 ) }";
    /// let anim = "MD5Version 10 commandline \"\" numFrames 2 numJoints 1 frameRate 10
    /// numAnimatedComponents 0 hierarchy { \"root\" -1 0 0 }
    /// bounds { ( 0 0 0 ) ( 2 3 4 ) ( 0 0 0 ) ( 2 3 4 ) } baseframe { ( 0 0 0 ) ( 0 0 0 ) }
    /// frame 0 { } frame 1 { }";
    /// let mut model = Md5Model::from_mesh_bytes(mesh.as_bytes())?;
    /// // No md5anim: the engine does not load the MD5.
    /// assert!(model.validate_for_rerelease(None).iter().any(|p| p.path == "md5anim"));
    /// model.add_animation("tris", anim.as_bytes(), None)?;
    /// assert!(model.validate_for_rerelease(Some(2)).is_empty());
    /// let p = model.validate_for_rerelease(Some(3));
    /// assert!(p[0].message.contains("fewer frames"), "{p:?}");
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn validate_for_rerelease(&self, md2_frames: Option<usize>) -> Vec<Problem> {
        let mut c = Collector::default();
        for p in self.validate() {
            c.push(p.severity, p.path, p.message, p.offset);
        }
        check_mesh(self, &Q2PRO_LIMITS, &mut c);
        check_anims(self, &Q2PRO_LIMITS, md2_frames, &mut c);
        c.finish()
    }
}

/// A count over (or under) the engine's range: an error, the MD5 refused.
fn range(c: &mut Collector, path: String, what: &str, count: usize, min: usize, max: usize) {
    if count > max {
        c.error(
            path,
            format!(
                "{count} {what} exceed {ENGINE}'s limit of {max} (by {}): {REFUSES}",
                count - max
            ),
            None,
        );
    } else if count < min {
        c.error(
            path,
            format!("{count} {what}: {ENGINE} needs at least {min}: {REFUSES}"),
            None,
        );
    }
}

fn check_mesh(model: &Md5Model, l: &RereleaseLimits, c: &mut Collector) {
    let mesh = &model.mesh;
    // MD5_ParseMesh: numJoints 1..=MD5_MAX_JOINTS, numMeshes
    // 1..=MD5_MAX_MESHES.
    let joints = mesh.joints.len();
    range(
        c,
        "md5mesh.numJoints".into(),
        "joints",
        joints,
        1,
        l.max_joints,
    );
    let meshes = mesh.meshes.len();
    range(
        c,
        "md5mesh.numMeshes".into(),
        "meshes",
        meshes,
        1,
        l.max_meshes,
    );
    // MD5_ParseMesh: numverts 0..=TESS_MAX_VERTICES, numtris
    // 0..=TESS_MAX_INDICES / 3, numweights 0..=MD5_MAX_WEIGHTS (a
    // vertex's weight start and count, read as 0..=UINT16_MAX, then fit).
    for (m, part) in mesh.meshes.iter().enumerate() {
        let path = |f: &str| format!("md5mesh.meshes[{m}].{f}");
        let n = part.vertices.len();
        range(c, path("numverts"), "vertices", n, 0, l.max_vertices);
        let n = part.triangles.len();
        range(c, path("numtris"), "triangles", n, 0, l.max_triangles);
        let n = part.weights.len();
        range(c, path("numweights"), "weights", n, 0, l.max_weights);
    }
}

fn check_anims(
    model: &Md5Model,
    l: &RereleaseLimits,
    md2_frames: Option<usize>,
    c: &mut Collector,
) {
    // MOD_LoadMD5: "don't bother if we don't have both".
    if model.animations.is_empty() {
        c.error(
            "md5anim",
            format!("no md5anim named like the md5mesh: {ENGINE} loads the MD5 only with its md5anim, and draws the MD2"),
            None,
        );
    }
    for (n, a) in model.animations.iter().enumerate() {
        let base = format!("md5anim {:?}", a.name);
        if n > 0 {
            // MOD_LoadMD5 loads one md5anim, named like the mesh.
            c.warn(
                base.clone(),
                format!(
                    "{ENGINE} loads one md5anim, named like the md5mesh: this one is not played"
                ),
                None,
            );
        }
        let anim = &a.anim;
        // MD5_ParseAnim: numFrames 1..=MD5_MAX_FRAMES ("MD5 replacements
        // need at least 1 frame"), numAnimatedComponents
        // 0..=q_countof(anim_frame_data) = MD5_MAX_JOINTS * 6.
        range(
            c,
            format!("{base}.numFrames"),
            "frames",
            anim.num_frames,
            1,
            l.max_frames,
        );
        range(
            c,
            format!("{base}.numAnimatedComponents"),
            "animated components",
            anim.num_animated_components,
            0,
            l.max_animated_components,
        );
        // MD5_ParseMesh skips the joints' names; MD5_ParseAnim keeps the
        // hierarchy's in joint_info_t.name[MD5_MAX_JOINTNAME] (cut by
        // COM_ParseToken), which MD5_LoadScales compares with the
        // .md5scale's names: only a scaled model notices.
        for (i, h) in anim.hierarchy.iter().enumerate() {
            let len = h.name.len();
            if len > l.max_joint_name && a.scale.is_some() {
                c.warn(
                    format!("{base}.hierarchy[{i}]"),
                    format!(
                        "joint name of {len} bytes (line {}) is cut to {} bytes by {ENGINE}: the .md5scale's entry for it is not found",
                        h.line, l.max_joint_name
                    ),
                    None,
                );
            }
        }
        if let Some(md2) = md2_frames {
            frame_count(c, &base, anim.num_frames, md2);
        }
    }
}

/// MD5 frame k plays as MD2 frame k. Q2PRO `MD5_ParseAnim` warns (not
/// fatal) when the md5anim has fewer frames than the MD2 ("has less
/// frames than"), and `src/refresh/mesh.c` (`draw_alias_skeleton`,
/// `lerp_alias_skeleton`) then plays MD5 frame `k % numFrames`; frames
/// past the MD2's are never asked for. Both load, so both are warnings.
fn frame_count(c: &mut Collector, base: &str, md5: usize, md2: usize) {
    if md5 < md2 {
        c.warn(
            format!("{base}.numFrames"),
            format!("{md5} frames, fewer frames than the MD2's {md2}: {ENGINE} plays MD5 frame k for MD2 frame k, so MD2 frames {md5} and on play MD5 frame k mod {md5}"),
            None,
        );
    } else if md5 > md2 {
        c.warn(
            format!("{base}.numFrames"),
            format!("{md5} frames, more than the MD2's {md2}: {ENGINE} plays MD5 frame k for MD2 frame k, so frames {md2} and on are never played"),
            None,
        );
    }
}
