//! Whether an MD2 fits the model memory of each of Q2PRO's renderer paths.
//!
//! Q2PRO (`src/refresh/models.c`, `MOD_LoadMD2` through `MOD_HunkBegin`
//! and `MOD_AllocMesh`) loads an MD2 into fixed-size hunks whose cap
//! depends on how it interpolates frames (`src/refresh/gl.h`):
//!
//! - **GPU lerp** (the default with the GLSL backend on OpenGL 4.3, and
//!   always on a core profile such as macOS's): vertex data (positions of
//!   every frame, texture coordinates) in a hunk of `MOD_MAXSIZE_GPU`,
//!   16 MiB; the rest outside any hunk.
//! - **CPU lerp** (`gl_shaders 0`, the legacy backend, or OpenGL before
//!   4.3): everything in one hunk of `MOD_MAXSIZE_CPU`, 8 MiB.
//!
//! Each allocation is rounded up to 64 bytes (`gl_static.hunk_align`,
//! `Hunk_TryAlloc`); a model whose allocations do not fit fails to load
//! (`Q_ERR(ENOMEM)`), which is not fatal to the game. The sizes, per
//! `MOD_LoadMD2`: the mesh record (56 bytes), 52 bytes a frame, 8 bytes a
//! vertex a frame (`maliasvert_t`), 8 bytes a vertex of texture
//! coordinates, 2 bytes an index, and per skin an image pointer (8) and
//! its name (`MAX_QPATH`, 64). A vertex is a distinct (position index,
//! s, t) corner of a valid triangle ([`render_vertex_count`]).
//!
//! [`render_vertex_count`]: super::engine::render_vertex_count

use super::Md2;

/// `MOD_MAXSIZE_CPU`: the one hunk of the CPU-lerp path (8 MiB).
pub(crate) const CPU_HUNK: u64 = 0x80_0000;
/// `MOD_MAXSIZE_GPU`: the vertex-data hunk of the GPU-lerp path (16 MiB).
pub(crate) const GPU_HUNK: u64 = 0x100_0000;

/// `x` rounded up to Q2PRO's hunk alignment of 64 bytes.
fn align(x: u64) -> u64 {
    x.div_ceil(64) * 64
}

/// The bytes Q2PRO's two renderer paths allocate for a model: what the
/// CPU-lerp hunk holds, and what the GPU-lerp vertex hunk holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Q2proMemory {
    /// All of the model, in the CPU-lerp path's hunk (cap [`CPU_HUNK`]).
    pub cpu: u64,
    /// Positions and texture coordinates, in the GPU-lerp path's vertex
    /// hunk (cap [`GPU_HUNK`]).
    pub gpu_vertices: u64,
}

/// What `model` needs of Q2PRO's hunks, with `vertices` its render
/// vertices and `valid_triangles` its triangles whose indices are all in
/// range.
pub(crate) fn q2pro_memory(model: &Md2, vertices: usize, valid_triangles: usize) -> Q2proMemory {
    let (v, f) = (vertices as u64, model.frames.len() as u64);
    let skins = model.skins.len() as u64;
    let positions = align(8 * v * f);
    let texcoords = align(8 * v);
    let cpu = align(56)
        + align(52 * f)
        + positions
        + texcoords
        + align(2 * 3 * valid_triangles as u64)
        + align(8 * skins)
        + align(64 * skins);
    Q2proMemory {
        cpu,
        gpu_vertices: positions + texcoords,
    }
}
