//! ioquake3's, the Daemon engine's and FTE's IQM loaders, one function
//! each, and the checks several loaders share (see the parent module for
//! the rules and where each is read; the other engines are in `ports`).

use super::{
    Check, Outcome, IOQUAKE3_MAX_JOINTS, MAX_BONES, MAX_RELATIVE_INDEX, SHADER_MAX_INDEXES,
    SHADER_MAX_VERTEXES,
};
use crate::iqm::{ArrayFormat, ArrayKind, ANIM_SIZE};
use crate::problem::Severity;

use ArrayFormat::{Float, Int, Ubyte};

/// The arrays ioquake3's `R_LoadIQM` takes (its `switch` on the type;
/// other types pass with any readable format).
pub(super) fn ioquake3_arrays(kind: ArrayKind) -> &'static [(ArrayFormat, u32)] {
    match kind {
        ArrayKind::Position | ArrayKind::Normal => &[(Float, 3)],
        ArrayKind::Tangent => &[(Float, 4)],
        ArrayKind::Texcoord => &[(Float, 2)],
        ArrayKind::BlendIndexes => &[(Int, 4), (Ubyte, 4)],
        ArrayKind::BlendWeights => &[(Float, 4), (Ubyte, 4)],
        ArrayKind::Color => &[(Ubyte, 4)],
        _ => &[],
    }
}

/// The arrays the Daemon engine's `LoadIQMFile` takes: ioquake3's, with
/// blend arrays in ubyte only.
pub(super) fn daemon_arrays(kind: ArrayKind) -> &'static [(ArrayFormat, u32)] {
    match kind {
        ArrayKind::BlendIndexes | ArrayKind::BlendWeights => &[(Ubyte, 4)],
        other => ioquake3_arrays(other),
    }
}

/// ioquake3, `code/renderergl1/tr_model_iqm.c`, `R_LoadIQM`.
pub(super) fn ioquake3(k: &mut Check) {
    let r = Outcome::Refuses;
    let m = k.m;
    k.filesize_within(r);
    if m.joints.len() > IOQUAKE3_MAX_JOINTS {
        let at = k.field("num_joints");
        k.fail(
            r,
            "num_joints",
            &format!(
                "{} joints, more than IQM_MAX_JOINTS ({IOQUAKE3_MAX_JOINTS})",
                m.joints.len()
            ),
            at,
        );
    }
    if !m.meshes.is_empty() {
        zero_counts(k, r);
        k.q3_array_formats(r);
        k.array_kinds(ioquake3_arrays, Some(r), "");
        let has = |k: &Check, kind| k.has(kind, |_, _| true);
        if !(has(k, ArrayKind::Position)
            && has(k, ArrayKind::Normal)
            && has(k, ArrayKind::Texcoord))
        {
            k.fail(
                r,
                "vertexarrays",
                "no position, normal or texcoord array",
                None,
            );
        }
        let blends = has(k, ArrayKind::BlendIndexes) && has(k, ArrayKind::BlendWeights);
        if !m.joints.is_empty() && !blends {
            k.fail(
                r,
                "vertexarrays",
                "joints but no blend index or weight array",
                None,
            );
        }
        if !m.joints.is_empty() && k.has(ArrayKind::BlendIndexes, |f, _| f == Some(Int)) {
            k.warn(
                "vertexarrays",
                "int blend indexes: ioquake3 accepts them but reads them as bytes (the wrong joints)",
                None,
            );
        }
        if !has(k, ArrayKind::Tangent) {
            k.warn(
                "vertexarrays",
                "no tangent array: ioquake3's opengl2 renderer does not load the model (its default opengl1 does)",
                None,
            );
        }
        k.q3_triangle_indices(r);
        for (i, mesh) in m.meshes.iter().enumerate() {
            let (v, t) = (u64::from(mesh.num_vertexes), u64::from(mesh.num_triangles));
            if v >= SHADER_MAX_VERTEXES {
                let at = k.mesh_at(i, 12);
                k.fail(
                    r,
                    &format!("meshes[{i}].num_vertexes"),
                    &format!(
                        "{v} vertices, more than {} (SHADER_MAX_VERTEXES {SHADER_MAX_VERTEXES})",
                        SHADER_MAX_VERTEXES - 1
                    ),
                    at,
                );
            }
            if t * 3 >= SHADER_MAX_INDEXES {
                let at = k.mesh_at(i, 20);
                k.fail(
                    r,
                    &format!("meshes[{i}].num_triangles"),
                    &format!(
                        "{t} triangles, more than {} (SHADER_MAX_INDEXES {SHADER_MAX_INDEXES})",
                        SHADER_MAX_INDEXES / 3 - 1
                    ),
                    at,
                );
            }
        }
        k.q3_mesh_ranges(r);
    }
    poses_zero_or_joints(k, r);
    k.q3_joints(r);
    k.later_parents(
        Severity::Warning,
        "ioquake3 does not check the order and builds the joint from a parent matrix not yet computed",
    );
    bounds_without_frames(k, r);
    sections_within_filesize(k, r);
    if k.mask_channels() > u64::from(m.num_framechannels) && m.num_frames > 0 {
        let at = k.field("num_framechannels");
        k.warn(
            "num_framechannels",
            "fewer than the poses' masks take: ioquake3 reads each frame by the masks, unchecked, past the frame data",
            at,
        );
    }
    if !m.anims.is_empty() {
        let at = k.field("num_anims");
        k.warn(
            "anims",
            &format!(
                "{} animations: ioquake3 reads none (no names, frame rates or loop flags: frames are played by number)",
                m.anims.len()
            ),
            at,
        );
    }
}

/// The Daemon engine, `src/engine/renderer/tr_model_iqm.cpp`,
/// `LoadIQMFile` and `R_LoadIQModel`.
pub(super) fn daemon(k: &mut Check) {
    let r = Outcome::Refuses;
    let m = k.m;
    k.filesize_within(r);
    if m.meshes.is_empty() {
        let at = k.field("num_meshes");
        k.fail(r, "num_meshes", "no mesh (an animation-only file)", at);
    }
    zero_counts(k, r);
    k.q3_array_formats(r);
    k.array_kinds(daemon_arrays, Some(r), "");
    k.q3_triangle_indices(r);
    k.q3_mesh_ranges(r);
    k.q3_joints(r);
    k.later_parents(Severity::Error, &k.words(r));
    for (i, j) in m.joints.iter().enumerate() {
        if !daemon_scale_ok(j.scale) {
            let at = k.joint_at(i, 36);
            k.fail(
                r,
                &format!("joints[{i}].scale"),
                &format!("scale {:?} is negative or not uniform", j.scale),
                at,
            );
        }
    }
    if let Some((frame, pose, scale)) = (0..m.num_frames as usize).find_map(|f| {
        let p = m.frame_pose(f)?;
        p.locals
            .iter()
            .position(|t| !daemon_scale_ok(t.scale))
            .map(|i| (f, i, p.locals[i].scale))
    }) {
        k.fail(
            r,
            &format!("frames[{frame}].poses[{pose}].scale"),
            &format!("scale {scale:?} is negative or not uniform"),
            None,
        );
    }
    if m.poses.len() > m.joints.len() {
        let at = k.field("num_poses");
        k.fail(
            Outcome::Overflows,
            "num_poses",
            &format!(
                "{} poses for {} joints: the poses are stored for the joints only",
                m.poses.len(),
                m.joints.len()
            ),
            at,
        );
    }
    bounds_without_frames(k, r);
    for (i, a) in m.anims.iter().enumerate() {
        let at = k.record(7, i, ANIM_SIZE, 8);
        if a.num_frames == 0 {
            k.fail(
                r,
                &format!("anims[{i}].num_frames"),
                "an animation with no frames",
                at,
            );
        }
        if u64::from(a.name) >= k.num_text() {
            let at = k.record(7, i, ANIM_SIZE, 0);
            k.warn(
                &format!("anims[{i}].name"),
                "name outside the text: the Daemon engine reads it unchecked",
                at,
            );
        }
    }
    if m.joints.len() > MAX_BONES {
        let at = k.field("num_joints");
        k.warn(
            "num_joints",
            &format!("{} joints, more than MAX_BONES ({MAX_BONES}): the Daemon engine loads the model but cannot build its skeleton (IQMCheckSkeleton)", m.joints.len()),
            at,
        );
    }
    if let Some(w) = m.array(ArrayKind::BlendWeights) {
        let off = (0..m.vertex_count())
            .filter(|&v| {
                w.data
                    .get(4 * v..4 * v + 4)
                    .is_some_and(|b| b.iter().map(|&x| u32::from(x)).sum::<u32>() != 255)
            })
            .count();
        if off > 0 && w.array_format() == Some(Ubyte) && w.size == 4 {
            k.warn(
                "vertexarrays",
                &format!("{off} vertices' blend weights do not sum to 255: the Daemon engine rewrites each first weight as 255 minus the others"),
                None,
            );
        }
    }
}

/// The Daemon engine's scale rule (`LoadIQMFile`, `R_LoadIQModel`):
/// `scale[0] < 0`, or `(int)` of the difference of two neighbouring
/// components not 0, refuses.
pub(super) fn daemon_scale_ok(s: [f32; 3]) -> bool {
    // `as i32` truncates towards zero, as C's (int) does.
    let negative = s[0] < 0.0;
    !negative && (s[0] - s[1]) as i32 == 0 && (s[1] - s[2]) as i32 == 0
}

/// FTE, `engine/common/com_mesh.c`, `Mod_ParseIQMMeshModel`.
pub(super) fn fte(k: &mut Check) {
    let r = Outcome::Refuses;
    let m = k.m;
    if k.read && u64::from(m.header.filesize) != m.header.file_len {
        let at = k.field("filesize");
        k.fail(
            r,
            "filesize",
            &format!(
                "the header says {} bytes but the file is {}",
                m.header.filesize, m.header.file_len
            ),
            at,
        );
    }
    let has = |k: &Check, kind| k.has(kind, |_, _| true);
    if m.num_vertexes > 0 && !(has(k, ArrayKind::Position) && has(k, ArrayKind::Texcoord)) {
        k.fail(
            r,
            "vertexarrays",
            "vertices without a position or texcoord array",
            None,
        );
    }
    let blends = has(k, ArrayKind::BlendIndexes) && has(k, ArrayKind::BlendWeights);
    if !m.meshes.is_empty()
        && !blends
        && (m.num_frames > 0 || !m.anims.is_empty() || !m.joints.is_empty())
    {
        k.fail(
            r,
            "vertexarrays",
            "an animated model without blend indexes and weights",
            None,
        );
    }
    for (field, n) in [("num_joints", m.joints.len()), ("num_poses", m.poses.len())] {
        if n > MAX_BONES {
            let at = k.field(field);
            k.fail(
                r,
                field,
                &format!("{n}, more than MAX_BONES ({MAX_BONES})"),
                at,
            );
        }
    }
    if !m.joints.is_empty() && !m.poses.is_empty() && m.joints.len() != m.poses.len() {
        let at = k.field("num_poses");
        k.fail(
            r,
            "num_poses",
            &format!("{} poses for {} joints", m.poses.len(), m.joints.len()),
            at,
        );
    }
    if !m.meshes.is_empty() && has(k, ArrayKind::BlendWeights) && m.joints.is_empty() {
        k.fail(
            r,
            "num_joints",
            "blend weights but no joint",
            k.field("num_joints"),
        );
    }
    if m.num_frames > 0 && m.poses.is_empty() {
        k.fail(r, "num_poses", "frames but no pose", k.field("num_poses"));
    }
    k.later_parents(Severity::Warning, "FTE makes the joint a root");
    if m.num_frames > 0 && k.mask_channels() != u64::from(m.num_framechannels) {
        let at = k.field("num_framechannels");
        k.warn(
            "num_framechannels",
            &format!(
                "{} but the poses' masks take {}: FTE warns and does not decode the poses",
                m.num_framechannels,
                k.mask_channels()
            ),
            at,
        );
    }
    relative_indices(k, "FTE drops the triangle (its own build's 16-bit indices)");
    if let Some(ix) = m.array(ArrayKind::BlendIndexes) {
        let limit = m.joints.len().min(MAX_BONES);
        let bad = (0..m.vertex_count())
            .filter(|&v| {
                ix.vertex4(v, false)
                    .iter()
                    .take(ix.size.min(4) as usize)
                    .any(|&j| j >= limit as f64)
            })
            .count();
        if bad > 0 && !m.joints.is_empty() {
            k.warn(
                "vertexarrays",
                &format!(
                    "{bad} vertices have blend indexes not below {limit}: FTE sets them to joint 0"
                ),
                None,
            );
        }
        if matches!(
            ix.array_format(),
            Some(ArrayFormat::Half | Float | ArrayFormat::Double)
        ) {
            k.warn(
                "vertexarrays",
                "float blend indexes: FTE reads only integer formats",
                None,
            );
        }
    }
    for (i, a) in m.anims.iter().enumerate() {
        if u64::from(a.first_frame) + u64::from(a.num_frames) > u64::from(m.num_frames) {
            let at = k.record(7, i, ANIM_SIZE, 8);
            k.warn(
                &format!("anims[{i}].num_frames"),
                "past the file's frames: FTE shortens it",
                at,
            );
        }
        if a.framerate <= 0.0 {
            let at = k.record(7, i, ANIM_SIZE, 12);
            k.warn(
                &format!("anims[{i}].framerate"),
                &format!("{}: FTE plays it at 10 frames per second", a.framerate),
                at,
            );
        }
    }
}

/// Triangles whose index relative to their mesh's first vertex is past
/// [`MAX_RELATIVE_INDEX`] (below the first vertex wraps past it too).
pub(super) fn relative_indices(k: &mut Check, then: &str) {
    let m = k.m;
    for (i, mesh) in m.meshes.iter().enumerate() {
        let first = mesh.first_triangle as usize;
        let end = first
            .saturating_add(mesh.num_triangles as usize)
            .min(m.triangles.len());
        let Some(tris) = m.triangles.get(first..end) else {
            continue;
        };
        let bad = tris
            .iter()
            .filter(|t| {
                t.iter()
                    .any(|&v| u64::from(v.wrapping_sub(mesh.first_vertex)) > MAX_RELATIVE_INDEX)
            })
            .count();
        if bad > 0 {
            let at = k.mesh_at(i, 20);
            k.warn(
                &format!("meshes[{i}].triangles"),
                &format!("{bad} triangles use a vertex more than {MAX_RELATIVE_INDEX} past the mesh's first: {then}"),
                at,
            );
        }
    }
}

/// No vertex array, no vertex or no triangle: `IQM_CheckRange` refuses a
/// count of 0 (ioquake3 checks these when there are meshes, the Daemon
/// engine always).
pub(super) fn zero_counts(k: &mut Check, r: Outcome) {
    let m = k.m;
    for (field, n) in [
        ("num_vertexarrays", m.vertex_arrays.len() as u64),
        ("num_vertexes", u64::from(m.num_vertexes)),
        ("num_triangles", m.triangles.len() as u64),
    ] {
        if n == 0 {
            let at = k.field(field);
            k.fail(r, field, "0 (IQM_CheckRange refuses a count of 0)", at);
        }
    }
}

/// Poses neither 0 nor as many as the joints (ioquake3).
pub(super) fn poses_zero_or_joints(k: &mut Check, r: Outcome) {
    let (np, nj) = (k.m.poses.len(), k.m.joints.len());
    if np != 0 && np != nj {
        let at = k.field("num_poses");
        k.fail(
            r,
            "num_poses",
            &format!("{np} poses for {nj} joints (0 or as many as the joints)"),
            at,
        );
    }
}

/// Bounds present (`ofs_bounds` set) with no frame: `IQM_CheckRange`
/// fails on a count of 0.
pub(super) fn bounds_without_frames(k: &mut Check, r: Outcome) {
    if k.read && k.m.header.offsets[9] != 0 && k.m.num_frames == 0 {
        let at = k.field("ofs_bounds");
        k.fail(
            r,
            "ofs_bounds",
            "bounds with no frame (IQM_CheckRange refuses a count of 0)",
            at,
        );
    }
}

/// Every section ioquake3 checks, against the header's `filesize` (not
/// the file's length): its end must not be past it.
pub(super) fn sections_within_filesize(k: &mut Check, r: Outcome) {
    if !k.read {
        return;
    }
    let m = k.m;
    let size = u64::from(m.header.filesize);
    let o = m.header.offsets;
    let mut sections: Vec<(String, u64, u64)> = Vec::new();
    if !m.meshes.is_empty() {
        sections.push((
            "ofs_vertexarrays".into(),
            u64::from(o[2]),
            m.vertex_arrays.len() as u64 * 20,
        ));
        for (i, a) in m.vertex_arrays.iter().enumerate() {
            sections.push((
                format!("vertexarrays[{i}].offset"),
                u64::from(a.offset),
                a.data.len() as u64,
            ));
        }
        sections.push((
            "ofs_triangles".into(),
            u64::from(o[3]),
            m.triangles.len() as u64 * 12,
        ));
        sections.push((
            "ofs_meshes".into(),
            u64::from(o[1]),
            m.meshes.len() as u64 * 24,
        ));
    }
    if !m.joints.is_empty() {
        sections.push((
            "ofs_joints".into(),
            u64::from(o[5]),
            m.joints.len() as u64 * 48,
        ));
    }
    if !m.poses.is_empty() {
        sections.push((
            "ofs_poses".into(),
            u64::from(o[6]),
            m.poses.len() as u64 * 88,
        ));
    }
    if o[9] != 0 {
        sections.push((
            "ofs_bounds".into(),
            u64::from(o[9]),
            u64::from(m.num_frames) * 32,
        ));
    }
    for (path, ofs, len) in sections {
        if ofs + len > size {
            k.fail(
                r,
                &path,
                &format!("ends at byte {}, past the header's filesize {size} (ioquake3 checks against it)", ofs + len),
                None,
            );
        }
    }
}
