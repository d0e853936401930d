//! Encoding float geometry into MD2's packed frames.

use super::{Frame, FrameName, PackedVertex};
use crate::quake::nearest_normal_index;

/// Packs one frame the way id's qdata does: per axis `translate = min`,
/// `scale = (max − min) / 255`, `byte = round((x − min) / scale)` clamped to
/// 0..=255 (rounded, not truncated), and each normal mapped to the nearest of
/// the 162 table normals. An axis with no extent gets scale 0 and byte 0,
/// which decodes exactly.
///
/// `normals` may be shorter than `positions` (missing normals get index 0);
/// compute them with [`vertex_normals`](crate::quake::vertex_normals) when the source has none.
///
/// ```
/// use retromodel::md2::encode_frame;
/// let positions = [[0.0, 0.0, 5.0], [10.0, -2.0, 5.0], [2.5, 1.0, 5.0]];
/// let normals = [[0.0, 0.0, 1.0]; 3];
/// let frame = encode_frame("stand01", &positions, &normals);
/// let mut decoded = [[0.0; 3]; 3];
/// frame.decode_positions(&mut decoded);
/// for (a, b) in decoded.iter().zip(&positions) {
///     for k in 0..3 {
///         assert!((a[k] - b[k]).abs() <= frame.scale[k] / 2.0 + 1e-6);
///     }
/// }
/// assert_eq!(frame.vertices[0].normal_index, 5);
/// assert_eq!(frame.name.to_string(), "stand01");
/// ```
pub fn encode_frame(name: &str, positions: &[[f32; 3]], normals: &[[f32; 3]]) -> Frame {
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for p in positions {
        for k in 0..3 {
            if p[k].is_finite() {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
    }
    let mut scale = [0.0f32; 3];
    let mut translate = [0.0f32; 3];
    for k in 0..3 {
        if min[k] <= max[k] {
            translate[k] = min[k];
            scale[k] = (max[k] - min[k]) / 255.0;
        }
    }
    let vertices = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut packed = [0u8; 3];
            for k in 0..3 {
                if scale[k] > 0.0 {
                    let q = ((p[k] - translate[k]) / scale[k]).round();
                    // NaN clamps to 0 through `as`.
                    packed[k] = q.clamp(0.0, 255.0) as u8;
                }
            }
            let normal_index = normals.get(i).map_or(0, |n| nearest_normal_index(*n));
            PackedVertex {
                position: packed,
                normal_index,
            }
        })
        .collect();
    Frame {
        scale,
        translate,
        name: FrameName::new(name),
        vertices,
        padding: Vec::new(),
    }
}
