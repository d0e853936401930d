//! Building GL command lists from triangles.

use crate::md2::Md2;

/// Builds a GL command list with id's qdata algorithm (the baseline).
pub fn build_qdata(model: &Md2) -> Vec<u32> {
    build(model)
}

/// Builds a compact GL command list for `model`'s triangles.
///
/// Each triangle becomes one fan of 3 vertices (placeholder until the
/// stripifier lands).
pub fn build(model: &Md2) -> Vec<u32> {
    let (w, h) = (
        model.skin_width.max(1) as f32,
        model.skin_height.max(1) as f32,
    );
    let mut out = Vec::new();
    for tri in &model.triangles {
        out.push((-3i32) as u32);
        for k in 0..3 {
            let st = model
                .texcoords
                .get(tri.texcoords[k] as usize)
                .copied()
                .unwrap_or_default();
            out.push(((st.s as f32 + 0.5) / w).to_bits());
            out.push(((st.t as f32 + 0.5) / h).to_bits());
            out.push(tri.vertices[k] as u32);
        }
    }
    out.push(0);
    out
}
