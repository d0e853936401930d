//! The IQM loaders of the Quake ports and the other engines:
//! QuakeSpasm-Spiked, DarkPlaces, GZDoom and raylib (see the parent
//! module for the rules and where each is read; ioquake3's, the Daemon
//! engine's and FTE's are in `loaders`).

use super::{Check, Outcome, MAX_BONES, QSS_GPU_BONES, QSS_MAX_VERTEXES, RAYLIB_NAME_BYTES};
use crate::iqm::{ArrayFormat, ArrayKind, ANIM_SIZE, BOUNDS_SIZE, TRIANGLE_SIZE};
use crate::problem::Severity;

use super::loaders::relative_indices;
use ArrayFormat::{Float, Int, Ubyte};

/// QuakeSpasm-Spiked, `Quake/gl_mesh.c`, `Mod_LoadIQMModel`.
pub(super) fn quakespasm_spiked(k: &mut Check) {
    let f = Outcome::Fatal("Sys_Error");
    let m = k.m;
    if m.meshes.is_empty() {
        let at = k.field("num_meshes");
        k.fail(f, "num_meshes", "no mesh (an animation-only file)", at);
    }
    if u64::from(m.num_vertexes) > QSS_MAX_VERTEXES {
        let at = k.field("num_vertexes");
        k.fail(
            f,
            "num_vertexes",
            &format!("{} vertices, more than {QSS_MAX_VERTEXES}", m.num_vertexes),
            at,
        );
    }
    let both = !m.joints.is_empty() || !m.poses.is_empty();
    if both && m.joints.len() != m.poses.len() {
        let at = k.field("num_poses");
        k.warn(
            "num_poses",
            &format!(
                "{} poses for {} joints: QuakeSpasm-Spiked drops the skeleton and the animation",
                m.poses.len(),
                m.joints.len()
            ),
            at,
        );
    } else if m.joints.len() > MAX_BONES {
        let at = k.field("num_joints");
        k.fail(
            Outcome::Overflows,
            "num_joints",
            &format!(
                "{} joints, more than its {MAX_BONES}-entry base pose array (on the stack)",
                m.joints.len()
            ),
            at,
        );
    } else if m.joints.len() > QSS_GPU_BONES {
        k.warn(
            "num_joints",
            &format!("{} joints, more than {QSS_GPU_BONES}: QuakeSpasm-Spiked skins the model without the GPU (r_alias.c, MAXBONES)", m.joints.len()),
            k.field("num_joints"),
        );
    }
    k.later_parents(
        Severity::Warning,
        "QuakeSpasm-Spiked does not check it and reads a base pose not yet computed",
    );
    let expected = |kind| match kind {
        ArrayKind::Position | ArrayKind::Normal => Some(3),
        ArrayKind::Texcoord => Some(2),
        ArrayKind::Color | ArrayKind::BlendIndexes | ArrayKind::BlendWeights => Some(4),
        _ => None,
    };
    for (i, a) in m.vertex_arrays.iter().enumerate() {
        let kind = ArrayKind::of(a.kind);
        let Some(size) = expected(kind) else { continue };
        let f = a.array_format();
        let format_ok = match kind {
            ArrayKind::BlendIndexes => {
                matches!(f, Some(Ubyte | ArrayFormat::Ushort | ArrayFormat::Uint))
            }
            _ => matches!(f, Some(Ubyte | Float | ArrayFormat::Double)),
        };
        if a.size != size || !format_ok {
            let at = k.array_at(i, 8);
            k.warn(
                &format!("vertexarrays[{i}].format"),
                &format!(
                    "{kind} in {} × {}: QuakeSpasm-Spiked ignores it",
                    f.map_or("an undefined format", ArrayFormat::name),
                    a.size
                ),
                at,
            );
        }
    }
    if !m.anims.is_empty() {
        let (looping, once) = k.loop_counts();
        k.warn(
            "anims",
            &format!("{looping} animations marked to loop and {once} not: QuakeSpasm-Spiked ignores the loop flag (IQM_LOOP)"),
            k.field("num_anims"),
        );
    }
    for (i, a) in m.anims.iter().enumerate() {
        if a.framerate == 0.0 {
            let at = k.record(7, i, ANIM_SIZE, 12);
            k.warn(
                &format!("anims[{i}].framerate"),
                "0: QuakeSpasm-Spiked plays it at 20 frames per second",
                at,
            );
        }
    }
    if m.flags != 0 {
        k.warn(
            "flags",
            &format!("{:#x}: QuakeSpasm-Spiked uses the header's flags as Quake model effects (EF_ROCKET …)", m.flags),
            k.field("flags"),
        );
    }
}

/// DarkPlaces, `model_alias.c`, `Mod_INTERQUAKEMODEL_Load`.
pub(super) fn darkplaces(k: &mut Check) {
    let m = k.m;
    k.later_parents(Severity::Error, &k.words(Outcome::Fatal("Host_Error")));
    let has = |k: &Check, kind, f, s| k.has(kind, |af, as_| af == Some(f) && as_ == s);
    let positions = has(k, ArrayKind::Position, Float, 3) && has(k, ArrayKind::Texcoord, Float, 2);
    let blends =
        has(k, ArrayKind::BlendIndexes, Ubyte, 4) && has(k, ArrayKind::BlendWeights, Ubyte, 4);
    let animated = m.num_frames > 0 || !m.anims.is_empty();
    if m.num_vertexes > 0 && !(positions && (blends || !animated)) {
        k.c.error(
            "vertexarrays",
            "missing vertex array data (a float × 3 position, a float × 2 texcoord, and with animation ubyte × 4 blend indexes and weights): DarkPlaces leaves the model empty",
            None,
        );
    }
    k.array_kinds(
        |kind| match kind {
            ArrayKind::Position | ArrayKind::Normal => &[(Float, 3)],
            ArrayKind::Texcoord => &[(Float, 2)],
            ArrayKind::Tangent => &[(Float, 4)],
            ArrayKind::BlendIndexes | ArrayKind::BlendWeights => &[(Ubyte, 4)],
            ArrayKind::Color => &[(Float, 4), (Ubyte, 4)],
            _ => &[],
        },
        None,
        "DarkPlaces skips the array",
    );
    let nv = u64::from(m.num_vertexes);
    let bad = m
        .triangles
        .iter()
        .filter(|t| t.iter().any(|&v| u64::from(v) >= nv))
        .count();
    if bad > 0 {
        let at = k.record(3, 0, TRIANGLE_SIZE, 0);
        k.warn("triangles", &format!("{bad} triangles use vertices past the {nv}: DarkPlaces sets those indices to 0 (Mod_ValidateElements)"), at);
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
    let scaled_joint = m.joints.iter().any(|j| j.scale.iter().any(|&s| s != 1.0));
    let scaled_pose = m.poses.iter().any(|p| {
        (7..10).any(|c| {
            p.channel_offset[c] != 1.0 || (p.mask & (1 << c) != 0 && p.channel_scale[c] != 0.0)
        })
    });
    if scaled_joint || scaled_pose {
        k.warn(
            "joints",
            "a joint or pose scale other than 1: DarkPlaces ignores scale",
            None,
        );
    }
}

/// GZDoom, `src/common/models/models_iqm.cpp`, `IQMModel::Load` and
/// `IQMModel::LoadGeometry`.
pub(super) fn gzdoom(k: &mut Check) {
    let r = Outcome::Refuses;
    let f = Outcome::Fatal("I_FatalError");
    let m = k.m;
    let text = k.num_text();
    if text == 0 {
        k.fail(r, "num_text", "no text", k.field("num_text"));
    }
    let mut names: Vec<(String, u32, Option<u64>)> = Vec::new();
    for (i, x) in m.meshes.iter().enumerate() {
        names.push((format!("meshes[{i}].name"), x.name, k.mesh_at(i, 0)));
        names.push((format!("meshes[{i}].material"), x.material, k.mesh_at(i, 4)));
    }
    for (i, j) in m.joints.iter().enumerate() {
        names.push((format!("joints[{i}].name"), j.name, k.joint_at(i, 0)));
    }
    for (i, a) in m.anims.iter().enumerate() {
        names.push((
            format!("anims[{i}].name"),
            a.name,
            k.record(7, i, ANIM_SIZE, 0),
        ));
    }
    for (path, name, at) in names {
        if text > 0 && u64::from(name) >= text {
            k.fail(
                r,
                &path,
                &format!("name at {name} outside the {text} bytes of text"),
                at,
            );
        }
    }
    if k.read {
        let len = m.header.file_len;
        let o = m.header.offsets;
        let nt = m.triangles.len() as u64;
        if u64::from(o[4]) + nt * TRIANGLE_SIZE as u64 > len {
            let at = k.field("ofs_adjacency");
            k.fail(
                r,
                "ofs_adjacency",
                "the adjacency (read always, from offset 0 when there is none) runs past the file",
                at,
            );
        }
        if u64::from(o[9]) + u64::from(m.num_frames) * BOUNDS_SIZE as u64 > len {
            let at = k.field("ofs_bounds");
            k.fail(
                r,
                "ofs_bounds",
                "the bounds (read always, from offset 0 when there are none) run past the file",
                at,
            );
        }
    }
    k.later_parents(Severity::Error, &k.words(f));
    k.array_kinds(
        |kind| match kind {
            ArrayKind::Position | ArrayKind::Normal => &[(Float, 3)],
            ArrayKind::Texcoord => &[(Float, 2)],
            ArrayKind::BlendIndexes => &[(Ubyte, 4), (Int, 4)],
            ArrayKind::BlendWeights => &[(Ubyte, 4), (Float, 4)],
            _ => &[],
        },
        Some(f),
        "",
    );
    if let Some(ix) = m.array(ArrayKind::BlendIndexes) {
        if ix.array_format() == Some(Int)
            && (0..m.vertex_count()).any(|v| ix.vertex4(v, false).iter().any(|&j| j > 255.0))
        {
            k.warn(
                "vertexarrays",
                "int blend indexes above 255: GZDoom keeps 8 bits of each",
                None,
            );
        }
    }
    if m.num_frames > 0 && m.poses.len() != m.joints.len() {
        let at = k.field("num_poses");
        k.warn(
            "num_poses",
            &format!("{} poses for {} joints: GZDoom reads each frame's poses as if there were one per joint", m.poses.len(), m.joints.len()),
            at,
        );
    }
    for (i, a) in m.anims.iter().enumerate() {
        if u64::from(a.first_frame) + u64::from(a.num_frames) > u64::from(m.num_frames) {
            let at = k.record(7, i, ANIM_SIZE, 8);
            k.warn(
                &format!("anims[{i}].num_frames"),
                "past the file's frames: GZDoom does not check it",
                at,
            );
        }
    }
}

/// raylib, `src/rmodels.c`, `LoadIQM` and `LoadModelAnimationsIQM`.
pub(super) fn raylib(k: &mut Check) {
    let m = k.m;
    let mut names: Vec<(String, u32)> = Vec::new();
    for (i, x) in m.meshes.iter().enumerate() {
        names.push((format!("meshes[{i}].name"), x.name));
        names.push((format!("meshes[{i}].material"), x.material));
    }
    for (i, j) in m.joints.iter().enumerate() {
        names.push((format!("joints[{i}].name"), j.name));
    }
    for (i, a) in m.anims.iter().enumerate() {
        names.push((format!("anims[{i}].name"), a.name));
    }
    for (path, name) in names {
        let len = m.name_bytes(name).len();
        if len >= RAYLIB_NAME_BYTES {
            k.warn(
                &path,
                &format!("{len} bytes: raylib copies {RAYLIB_NAME_BYTES} into a {RAYLIB_NAME_BYTES}-byte buffer, without the terminating NUL (at most {} fit)", RAYLIB_NAME_BYTES - 1),
                None,
            );
        }
    }
    k.array_kinds(
        |kind| match kind {
            ArrayKind::Position | ArrayKind::Normal => &[(Float, 3)],
            ArrayKind::Texcoord => &[(Float, 2)],
            ArrayKind::BlendIndexes => &[(Ubyte, 4), (ArrayFormat::Byte, 4)],
            ArrayKind::BlendWeights | ArrayKind::Color => &[(Ubyte, 4)],
            _ => &[],
        },
        None,
        "raylib reads it as that format regardless (misread)",
    );
    relative_indices(
        k,
        "raylib keeps 16 bits of it (the triangle points at the wrong vertex)",
    );
    k.later_parents(
        Severity::Warning,
        "raylib skips the bone (BuildPoseFromParentJoints)",
    );
    if m.joints.len() > MAX_BONES {
        k.warn(
            "num_joints",
            &format!(
                "{} joints: raylib's bone indices are bytes (256 bones at most)",
                m.joints.len()
            ),
            k.field("num_joints"),
        );
    }
    if m.num_frames > 0 && k.mask_channels() != u64::from(m.num_framechannels) {
        k.warn(
            "num_framechannels",
            &format!("{} but the poses' masks take {}: raylib steps through the frames by num_framechannels (misread)", m.num_framechannels, k.mask_channels()),
            k.field("num_framechannels"),
        );
    }
    if !m.anims.is_empty() {
        k.warn(
            "anims",
            "raylib ignores the animations' frame rates and loop flags (frames are played by number)",
            k.field("num_anims"),
        );
        if !m.joints.is_empty() && m.poses.len() != m.joints.len() {
            k.warn(
                "num_poses",
                &format!("{} poses for {} joints: raylib does not apply these animations to this model (IsModelAnimationValid)", m.poses.len(), m.joints.len()),
                k.field("num_poses"),
            );
        }
    }
}
