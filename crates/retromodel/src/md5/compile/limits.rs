//! What the rerelease engines load: Q2PRO `src/refresh/gl.h`
//! (`MD5_MAX_JOINTS` 256, `MD5_MAX_MESHES` 32, `MD5_MAX_WEIGHTS` 8192 per
//! mesh, `MD5_MAX_FRAMES` 1024), checked by `MD5_ParseMesh` and
//! `MD5_ParseAnim` in `src/refresh/models.c`. Per vertex the weight count
//! is read up to 65,535 (`UINT16_MAX`), so every weight is kept.

use crate::md5::{Md5Anim, Md5Mesh};

/// One limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Md5Limit {
    /// What is counted, in words (`joints`, `meshes` ...).
    pub what: &'static str,
    /// The most the engine loads.
    pub max: usize,
}

/// Q2PRO's limits (see the module).
pub const MD5_ENGINE_LIMITS: [Md5Limit; 4] = [
    Md5Limit {
        what: "joints",
        max: 256,
    },
    Md5Limit {
        what: "meshes (materials)",
        max: 32,
    },
    Md5Limit {
        what: "weights in one mesh",
        max: 8192,
    },
    Md5Limit {
        what: "frames",
        max: 1024,
    },
];

pub(super) fn check(mesh: &Md5Mesh, anim: &Md5Anim) -> Vec<super::Md5CompileWarning> {
    let weights = mesh
        .meshes
        .iter()
        .map(|m| m.weights.len())
        .max()
        .unwrap_or(0);
    let counts = [
        mesh.joints.len(),
        mesh.meshes.len(),
        weights,
        anim.num_frames,
    ];
    MD5_ENGINE_LIMITS
        .iter()
        .zip(counts)
        .filter(|(l, c)| *c > l.max)
        .map(|(l, count)| super::Md5CompileWarning::OverLimit { limit: *l, count })
        .collect()
}
