//! Decoding packed frames to floats, and blending two frames.
//!
//! Everything here writes into buffers the caller owns, so an animation
//! loop can run every frame without allocating.

use super::{Frame, Md2, PackedVertex};
use crate::quake::anorms::NORMALS_PADDED;
use crate::quake::normal;

/// Vertices per block in the decoding loops. A whole block is decoded by
/// a kernel whose bounds the compiler knows (the `sse2` module on x86 with SSE2,
/// `store_block` elsewhere), so it needs no checks and unrolls;
/// [`Frame::decode`] writes a block's positions, then its normals, so
/// each output buffer is written as one stream. 32 measured fastest (see
/// docs/benchmarks-history.md, "MD2 speed").
const DECODE_BLOCK: usize = 32;

/// Writes the first three lanes of `lanes(v)` for each vertex `v` into
/// `out`, which has one entry per vertex.
///
/// Every vertex but the last is stored as four lanes at once, a single
/// 16-byte store on x86-64 and AArch64: the fourth lane lands on the first
/// float of the next entry, which the next vertex's store then overwrites.
/// The last vertex stores only its three lanes. Storing whole vectors lets
/// the compiler turn each vertex into a handful of SIMD instructions,
/// which three separate 4-byte stores would not.
#[inline(always)]
fn store_lanes(
    out: &mut [[f32; 3]],
    vertices: &[PackedVertex],
    lanes: impl Fn(PackedVertex) -> [f32; 4],
) {
    let Some((&last, body)) = vertices.split_last() else {
        return;
    };
    let flat = out.as_flattened_mut();
    for (i, &v) in body.iter().enumerate() {
        // In bounds while `out` has an entry per vertex (callers assert it):
        // `i < n - 1`, so `3i + 4 <= 3n - 2`.
        let Some(o) = flat.get_mut(3 * i..3 * i + 4) else {
            break;
        };
        o.copy_from_slice(&lanes(v));
    }
    if let Some(o) = out.get_mut(body.len()) {
        let x = lanes(last);
        *o = [x[0], x[1], x[2]];
    }
}

/// [`store_lanes`] for a block of known size, where the compiler can see
/// that every index is in bounds (targets without the `sse2` kernel, and
/// the tests).
#[cfg(any(
    test,
    not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))
))]
#[inline(always)]
fn store_block<const N: usize>(
    out: &mut [[f32; 3]; N],
    vertices: &[PackedVertex; N],
    lanes: impl Fn(PackedVertex) -> [f32; 4],
) {
    let flat = out.as_flattened_mut();
    for (i, &v) in vertices.iter().take(N.saturating_sub(1)).enumerate() {
        if let Some(o) = flat.get_mut(3 * i..3 * i + 4) {
            o.copy_from_slice(&lanes(v));
        }
    }
    if let (Some(o), Some(&v)) = (out.last_mut(), vertices.last()) {
        let x = lanes(v);
        *o = [x[0], x[1], x[2]];
    }
}

/// Decodes `vertices` into `out` (one entry per vertex): whole blocks
/// with `block`, the rest with [`store_lanes`] and `lanes`.
#[inline(always)]
fn decode_into(
    out: &mut [[f32; 3]],
    vertices: &[PackedVertex],
    block: impl Fn(&mut [[f32; 3]; DECODE_BLOCK], &[PackedVertex; DECODE_BLOCK]),
    lanes: impl Fn(PackedVertex) -> [f32; 4],
) {
    let mut vertex_blocks = vertices.chunks_exact(DECODE_BLOCK);
    let mut out_blocks = out.chunks_exact_mut(DECODE_BLOCK);
    for (v, o) in (&mut vertex_blocks).zip(&mut out_blocks) {
        // Always `Ok`: `chunks_exact` gives whole blocks.
        if let (Ok(v), Ok(o)) = (
            <&[_; DECODE_BLOCK]>::try_from(v),
            <&mut [_; DECODE_BLOCK]>::try_from(o),
        ) {
            block(o, v);
        }
    }
    store_lanes(
        out_blocks.into_remainder(),
        vertex_blocks.remainder(),
        lanes,
    );
}

/// Four-vertex decoding with SSE2, which every x86-64 CPU has (and
/// 32-bit x86 targets built with it, such as `i686`).
///
/// The 12 floats the output holds for a group of four vertices are built
/// as three vectors, `[x0 y0 z0 x1] [y1 z1 x2 y2] [z2 x3 y3 z3]`, and
/// written with three 16-byte stores that do not overlap: fewer
/// instructions than a vertex at a time, and the output is written as one
/// plain stream, which matters once it no longer fits the cache. Positions
/// are packed as integers and then converted, so each lane is multiplied
/// and offset by its own axis's factors (`byte × scale`, then
/// `+ translate`, each rounded to `f32`: the scalar code's arithmetic, so
/// the results are bit-identical); normals are packed from their table
/// entries.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
mod sse2 {
    use super::{Frame, PackedVertex, NORMALS_PADDED};
    use crate::sse2_pack::{pack, store};
    use safe_arch::{
        add_m128, cast_to_m128_from_m128i, cast_to_m128i_from_m128, convert_to_m128_from_i32_m128i,
        m128, m128i, mul_m128, unpack_high_i16_m128i, unpack_high_i8_m128i, unpack_low_i16_m128i,
        unpack_low_i8_m128i, zeroed_m128i,
    };

    /// Writes `group(vertices)` for every whole group of four vertices of
    /// the block; returns how many vertices were written.
    #[inline(always)]
    fn store_groups<const N: usize>(
        out: &mut [[f32; 3]; N],
        vertices: &[PackedVertex; N],
        group: impl Fn([PackedVertex; 4]) -> [m128; 3],
    ) -> usize {
        let (groups, _) = vertices.as_chunks::<4>();
        let (out_groups, _) = out.as_flattened_mut().as_chunks_mut::<12>();
        for (vertices, o) in groups.iter().zip(out_groups) {
            store(o, group(*vertices));
        }
        4 * groups.len()
    }

    /// Decodes the positions of a block.
    #[inline(always)]
    pub(super) fn store_positions<const N: usize>(
        out: &mut [[f32; 3]; N],
        vertices: &[PackedVertex; N],
        frame: &Frame,
    ) {
        let [sx, sy, sz] = frame.scale;
        let [tx, ty, tz] = frame.translate;
        // The axes of the three packed vectors' lanes.
        let scale = [[sx, sy, sz, sx], [sy, sz, sx, sy], [sz, sx, sy, sz]].map(m128::from_array);
        let translate =
            [[tx, ty, tz, tx], [ty, tz, tx, ty], [tz, tx, ty, tz]].map(m128::from_array);
        let zero = zeroed_m128i();
        let done = store_groups(out, vertices, |group| {
            let bytes = m128i::from(bytemuck::cast::<[PackedVertex; 4], [u8; 16]>(group));
            let (low, high) = (
                unpack_low_i8_m128i(bytes, zero),
                unpack_high_i8_m128i(bytes, zero),
            );
            // Each vertex's bytes as four 32-bit integers, packed as floats'
            // bits (a shuffle moves bits unchanged).
            let ints = [
                unpack_low_i16_m128i(low, zero),
                unpack_high_i16_m128i(low, zero),
                unpack_low_i16_m128i(high, zero),
                unpack_high_i16_m128i(high, zero),
            ]
            .map(cast_to_m128_from_m128i);
            let packed = pack(ints);
            std::array::from_fn(|k| {
                let floats = convert_to_m128_from_i32_m128i(cast_to_m128i_from_m128(packed[k]));
                add_m128(mul_m128(floats, scale[k]), translate[k])
            })
        });
        let lanes = frame.position_lanes();
        for (o, &v) in out.iter_mut().zip(vertices).skip(done) {
            let x = lanes(v);
            *o = [x[0], x[1], x[2]];
        }
    }

    /// Decodes the normals of a block.
    #[inline(always)]
    pub(super) fn store_normals<const N: usize>(
        out: &mut [[f32; 3]; N],
        vertices: &[PackedVertex; N],
    ) {
        let entry = |v: PackedVertex| NORMALS_PADDED[usize::from(v.normal_index)];
        let done = store_groups(out, vertices, |group| {
            pack(group.map(|v| m128::from_array(entry(v))))
        });
        for (o, &v) in out.iter_mut().zip(vertices).skip(done) {
            let x = entry(v);
            *o = [x[0], x[1], x[2]];
        }
    }
}

/// The block kernels of this target: [`sse2`] on x86 with SSE2.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
use sse2 as kernel;

/// The block kernels of this target: `scalar` (no SIMD kernel here).
#[cfg(not(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
)))]
use scalar as kernel;

/// Block kernels for targets without a four-vertex kernel: [`store_block`]
/// with [`Frame::position_lanes`] and [`normal_lanes`].
#[cfg(not(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
)))]
mod scalar {
    use super::{normal_lanes, store_block, Frame, PackedVertex};

    /// Decodes the positions of a block.
    #[inline(always)]
    pub(super) fn store_positions<const N: usize>(
        out: &mut [[f32; 3]; N],
        vertices: &[PackedVertex; N],
        frame: &Frame,
    ) {
        store_block(out, vertices, frame.position_lanes());
    }

    /// Decodes the normals of a block.
    #[inline(always)]
    pub(super) fn store_normals<const N: usize>(
        out: &mut [[f32; 3]; N],
        vertices: &[PackedVertex; N],
    ) {
        store_block(out, vertices, normal_lanes);
    }
}

/// The normal of `v` as four lanes (see [`NORMALS_PADDED`]).
#[inline(always)]
fn normal_lanes(v: PackedVertex) -> [f32; 4] {
    NORMALS_PADDED[v.normal_index as usize]
}

impl Frame {
    /// The position of vertex `index`: `byte × scale + translate` per axis.
    ///
    /// Returns `None` when the frame has no such vertex.
    pub fn position(&self, index: usize) -> Option<[f32; 3]> {
        let v = self.vertices.get(index)?;
        Some(self.unpack(v.position))
    }

    #[inline]
    fn unpack(&self, p: [u8; 3]) -> [f32; 3] {
        [
            p[0] as f32 * self.scale[0] + self.translate[0],
            p[1] as f32 * self.scale[1] + self.translate[1],
            p[2] as f32 * self.scale[2] + self.translate[2],
        ]
    }

    /// A function giving a vertex's position in the first three of four
    /// lanes, computed exactly as [`Frame::unpack`] does. The fourth lane
    /// converts the normal index with z's factors: its value is never
    /// used, but a lane the compiler cannot prove constant lets it convert
    /// all four bytes of the vertex with one vector instruction.
    #[inline(always)]
    pub(crate) fn position_lanes(&self) -> impl Fn(PackedVertex) -> [f32; 4] + Copy {
        let [sx, sy, sz] = self.scale;
        let [tx, ty, tz] = self.translate;
        move |v: PackedVertex| {
            let [x, y, z] = v.position;
            [
                x as f32 * sx + tx,
                y as f32 * sy + ty,
                z as f32 * sz + tz,
                v.normal_index as f32 * sz + tz,
            ]
        }
    }

    /// Decodes every vertex position into `out`.
    ///
    /// # Panics
    /// When `out.len()` differs from the number of vertices.
    ///
    /// ```
    /// use retromodel::md2::{Frame, PackedVertex};
    /// let frame = Frame {
    ///     scale: [0.5, 1.0, 2.0],
    ///     translate: [1.0, 0.0, -1.0],
    ///     vertices: vec![PackedVertex { position: [2, 3, 4], normal_index: 5 }],
    ///     ..Frame::default()
    /// };
    /// let mut out = [[0.0; 3]];
    /// frame.decode_positions(&mut out);
    /// assert_eq!(out[0], [2.0, 3.0, 7.0]);
    /// ```
    pub fn decode_positions(&self, out: &mut [[f32; 3]]) {
        assert_eq!(out.len(), self.vertices.len(), "position buffer length");
        decode_into(
            out,
            &self.vertices,
            |o, v| kernel::store_positions(o, v, self),
            self.position_lanes(),
        );
    }

    /// Decodes every vertex normal into `out`; an index outside the
    /// 162-entry table gives the zero vector.
    ///
    /// # Panics
    /// When `out.len()` differs from the number of vertices.
    pub fn decode_normals(&self, out: &mut [[f32; 3]]) {
        assert_eq!(out.len(), self.vertices.len(), "normal buffer length");
        decode_into(out, &self.vertices, kernel::store_normals, normal_lanes);
    }

    /// Decodes positions and normals in one call (the same values as
    /// [`Frame::decode_positions`] and [`Frame::decode_normals`]).
    ///
    /// # Panics
    /// When a buffer's length differs from the number of vertices.
    pub fn decode(&self, positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) {
        assert_eq!(
            positions.len(),
            self.vertices.len(),
            "position buffer length"
        );
        assert_eq!(normals.len(), self.vertices.len(), "normal buffer length");
        let position_lanes = self.position_lanes();
        let mut vertex_blocks = self.vertices.chunks_exact(DECODE_BLOCK);
        let mut position_blocks = positions.chunks_exact_mut(DECODE_BLOCK);
        let mut normal_blocks = normals.chunks_exact_mut(DECODE_BLOCK);
        for ((v, p), n) in (&mut vertex_blocks)
            .zip(&mut position_blocks)
            .zip(&mut normal_blocks)
        {
            // Always `Ok`: `chunks_exact` gives whole blocks.
            if let (Ok(v), Ok(p), Ok(n)) = (
                <&[_; DECODE_BLOCK]>::try_from(v),
                <&mut [_; DECODE_BLOCK]>::try_from(p),
                <&mut [_; DECODE_BLOCK]>::try_from(n),
            ) {
                kernel::store_positions(p, v, self);
                kernel::store_normals(n, v);
            }
        }
        let rest = vertex_blocks.remainder();
        store_lanes(position_blocks.into_remainder(), rest, position_lanes);
        store_lanes(normal_blocks.into_remainder(), rest, normal_lanes);
    }

    /// The frame's name as text, up to the first NUL.
    pub fn name(&self) -> String {
        self.name.to_string_lossy()
    }
}

/// Linear interpolation of two points.
#[inline]
fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// `v` scaled to unit length; the zero vector stays zero.
#[inline]
pub(crate) fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        [0.0; 3]
    }
}

/// Blends vertex `i` of two frames: positions lerped (each frame decoded
/// with its own scale and translate), normals lerped and renormalised.
#[inline]
pub(crate) fn blend_vertex(a: &Frame, b: &Frame, i: usize, t: f32) -> Option<([f32; 3], [f32; 3])> {
    let (&va, &vb) = (a.vertices.get(i)?, b.vertices.get(i)?);
    Some(blend_packed(a, b, va, vb, t))
}

/// [`blend_vertex`] for vertex `va` of frame `a` and `vb` of frame `b`.
#[inline(always)]
fn blend_packed(
    a: &Frame,
    b: &Frame,
    va: PackedVertex,
    vb: PackedVertex,
    t: f32,
) -> ([f32; 3], [f32; 3]) {
    let p = lerp3(a.unpack(va.position), b.unpack(vb.position), t);
    let n = normalize(lerp3(normal(va.normal_index), normal(vb.normal_index), t));
    (p, n)
}

impl Md2 {
    /// Decodes every frame into `positions` and `normals`, frame after
    /// frame (frame `k`'s vertices at `k × vertex_count()`), as a loader
    /// that keeps all keyframes does; the same as calling [`Frame::decode`]
    /// on each frame.
    ///
    /// # Panics
    /// When a buffer's length differs from `frames.len() × vertex_count()`.
    ///
    /// ```
    /// use retromodel::md2::sample::sample_model;
    /// let model = sample_model();
    /// let n = model.frames.len() * model.vertex_count();
    /// let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    /// model.decode_all_frames(&mut p, &mut nrm);
    /// let mut one = vec![[0.0; 3]; model.vertex_count()];
    /// model.frames[3].decode_positions(&mut one);
    /// assert_eq!(&p[3 * model.vertex_count()..4 * model.vertex_count()], &one[..]);
    /// ```
    pub fn decode_all_frames(&self, positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) {
        let n = self.vertex_count();
        let total = n * self.frames.len();
        assert_eq!(positions.len(), total, "position buffer length");
        assert_eq!(normals.len(), total, "normal buffer length");
        if n == 0 {
            return;
        }
        for ((f, p), q) in self
            .frames
            .iter()
            .zip(positions.chunks_exact_mut(n))
            .zip(normals.chunks_exact_mut(n))
        {
            f.decode(p, q);
        }
    }

    /// Blends frames `from` and `to` at `t` (0 gives `from`, 1 gives `to`)
    /// into `positions` and `normals`, without allocating. Positions are
    /// interpolated linearly; normals are interpolated and renormalised
    /// (smoother than the original engine's nearest-frame normals).
    ///
    /// Returns `false` (and writes nothing) when a frame index is out of
    /// range.
    ///
    /// # Panics
    /// When a buffer's length differs from [`Md2::vertex_count`].
    ///
    /// ```
    /// use retromodel::md2::sample::sample_model;
    /// let model = sample_model();
    /// let n = model.vertex_count();
    /// let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    /// assert!(model.interpolate(0, 1, 0.25, &mut p, &mut nrm));
    /// assert!(!model.interpolate(0, 9999, 0.25, &mut p, &mut nrm));
    /// ```
    pub fn interpolate(
        &self,
        from: usize,
        to: usize,
        t: f32,
        positions: &mut [[f32; 3]],
        normals: &mut [[f32; 3]],
    ) -> bool {
        assert_eq!(
            positions.len(),
            self.vertex_count(),
            "position buffer length"
        );
        assert_eq!(normals.len(), self.vertex_count(), "normal buffer length");
        let (Some(a), Some(b)) = (self.frames.get(from), self.frames.get(to)) else {
            return false;
        };
        // Vertices past the shorter frame (a malformed model) are left as
        // they are. The same arithmetic as `blend_vertex`, over iterators
        // so that no index needs a check.
        for (((p, n), &va), &vb) in positions
            .iter_mut()
            .zip(normals.iter_mut())
            .zip(&a.vertices)
            .zip(&b.vertices)
        {
            (*p, *n) = blend_packed(a, b, va, vb, t);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Frame, PackedVertex, NORMALS};

    /// A frame of `n` vertices with pseudo-random bytes (normal indices
    /// over the whole byte range, so some are past the table).
    fn frame(n: usize, seed: u32) -> Frame {
        let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        let mut byte = || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        };
        Frame {
            scale: [0.25, -1.5, 0.0078125],
            translate: [-12.5, 3.0, 100.25],
            vertices: (0..n)
                .map(|_| PackedVertex {
                    position: [byte(), byte(), byte()],
                    normal_index: byte(),
                })
                .collect(),
            ..Frame::default()
        }
    }

    /// The MD2 formulas, vertex by vertex: `byte × scale + translate`, and
    /// the table entry (zero past the table).
    fn expected(f: &Frame) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
        let positions = f
            .vertices
            .iter()
            .map(|v| {
                let p = v.position;
                [
                    f32::from(p[0]) * f.scale[0] + f.translate[0],
                    f32::from(p[1]) * f.scale[1] + f.translate[1],
                    f32::from(p[2]) * f.scale[2] + f.translate[2],
                ]
            })
            .collect();
        let normals = f
            .vertices
            .iter()
            .map(|v| {
                NORMALS
                    .get(usize::from(v.normal_index))
                    .copied()
                    .unwrap_or([0.0; 3])
            })
            .collect();
        (positions, normals)
    }

    #[test]
    fn decoding_matches_the_formulas_around_block_sizes() {
        let block = super::DECODE_BLOCK;
        for n in [
            0,
            1,
            2,
            3,
            block - 1,
            block,
            block + 1,
            2 * block,
            2 * block + 5,
            366,
        ] {
            let f = frame(n, n as u32);
            let (want_p, want_n) = expected(&f);
            // Start from NaN so that a vertex left unwritten shows.
            let (mut p, mut q) = (vec![[f32::NAN; 3]; n], vec![[f32::NAN; 3]; n]);
            f.decode(&mut p, &mut q);
            assert_eq!(p, want_p, "decode positions, {n} vertices");
            assert_eq!(q, want_n, "decode normals, {n} vertices");
            let (mut p, mut q) = (vec![[f32::NAN; 3]; n], vec![[f32::NAN; 3]; n]);
            f.decode_positions(&mut p);
            f.decode_normals(&mut q);
            assert_eq!(p, want_p, "decode_positions, {n} vertices");
            assert_eq!(q, want_n, "decode_normals, {n} vertices");
        }
    }

    /// The scalar block code that targets without the SSE2 kernel use,
    /// tested here too so that it is checked on every CI machine.
    #[test]
    fn scalar_block_code_matches_the_formulas() {
        const B: usize = super::DECODE_BLOCK;
        let f = frame(B, 7);
        let (want_p, want_n) = expected(&f);
        let Ok(vertices) = <&[_; B]>::try_from(&f.vertices[..]) else {
            panic!("one block of vertices");
        };
        let (mut p, mut q) = ([[f32::NAN; 3]; B], [[f32::NAN; 3]; B]);
        super::store_block(&mut p, vertices, f.position_lanes());
        super::store_block(&mut q, vertices, super::normal_lanes);
        assert_eq!(p.to_vec(), want_p);
        assert_eq!(q.to_vec(), want_n);
    }

    #[test]
    fn interpolation_matches_the_formulas() {
        let (a, b) = (frame(70, 1), frame(70, 2));
        let model = super::super::Md2 {
            frames: vec![a.clone(), b.clone()],
            num_vertices: 70,
            ..Default::default()
        };
        let ((pa, na), (pb, nb)) = (expected(&a), expected(&b));
        for t in [0.0f32, 0.3, 1.0] {
            let (mut p, mut n) = (vec![[f32::NAN; 3]; 70], vec![[f32::NAN; 3]; 70]);
            assert!(model.interpolate(0, 1, t, &mut p, &mut n));
            for i in 0..70 {
                let want: [f32; 3] = std::array::from_fn(|k| pa[i][k] + (pb[i][k] - pa[i][k]) * t);
                assert_eq!(p[i], want, "position {i} at t = {t}");
                let m: [f32; 3] = std::array::from_fn(|k| na[i][k] + (nb[i][k] - na[i][k]) * t);
                let len = (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]).sqrt();
                let want = if len > 0.0 {
                    m.map(|c| c / len)
                } else {
                    [0.0; 3]
                };
                assert_eq!(n[i], want, "normal {i} at t = {t}");
            }
        }
    }

    #[test]
    fn interpolation_leaves_vertices_past_a_short_frame() {
        let model = super::super::Md2 {
            frames: vec![frame(10, 3), frame(8, 4)],
            num_vertices: 10,
            ..Default::default()
        };
        let (mut p, mut n) = (vec![[7.0; 3]; 10], vec![[7.0; 3]; 10]);
        assert!(model.interpolate(0, 1, 0.5, &mut p, &mut n));
        assert_ne!(p[7], [7.0; 3]);
        assert_eq!(&p[8..], &[[7.0; 3]; 2]);
        assert_eq!(&n[8..], &[[7.0; 3]; 2]);
    }

    #[test]
    #[should_panic(expected = "position buffer length")]
    fn decode_rejects_a_short_buffer() {
        let f = frame(40, 7);
        let (mut p, mut q) = (vec![[0.0; 3]; 39], vec![[0.0; 3]; 40]);
        f.decode(&mut p, &mut q);
    }
}
