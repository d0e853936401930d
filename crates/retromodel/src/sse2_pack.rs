//! Packing four `[x, y, z, _]` SSE2 vectors into the twelve floats of
//! four three-float vertices, the step every vertex decoder shares
//! (MD2's and MD3's): three 16-byte stores that do not overlap, rather
//! than four that do.
//!
//! Only on x86 with SSE2 (every x86-64 CPU), through `safe_arch`: no
//! `unsafe` here.

use safe_arch::{m128, shuffle_abi_f32_all_m128};

/// Packs four `[x, y, z, _]` vectors into `[x0 y0 z0 x1] [y1 z1 x2 y2]
/// [z2 x3 y3 z3]`. `shufps` takes its first two lanes from the first
/// operand and the last two from the second; each mask lists the chosen
/// lanes from last to first, two bits each.
///
/// ```ignore
/// // (a private module: shown, not run)
/// let v = |k: f32| m128::from_array([k, k + 0.1, k + 0.2, -1.0]);
/// let [a, b, c] = pack([v(0.0), v(1.0), v(2.0), v(3.0)]);
/// assert_eq!(a.to_array(), [0.0, 0.1, 0.2, 1.0]);
/// ```
#[inline(always)]
pub(crate) fn pack([a, b, c, d]: [m128; 4]) -> [m128; 3] {
    let z0_x1 = shuffle_abi_f32_all_m128::<0b00_00_10_10>(a, b); // [z0 z0 x1 x1]
    let first = shuffle_abi_f32_all_m128::<0b10_00_01_00>(a, z0_x1);
    let second = shuffle_abi_f32_all_m128::<0b01_00_10_01>(b, c);
    let z2_x3 = shuffle_abi_f32_all_m128::<0b00_00_10_10>(c, d); // [z2 z2 x3 x3]
    let third = shuffle_abi_f32_all_m128::<0b10_01_10_00>(z2_x3, d);
    [first, second, third]
}

/// Writes three packed vectors ([`pack`]) as four vertices' 12 floats.
#[inline(always)]
pub(crate) fn store(out: &mut [f32; 12], [first, second, third]: [m128; 3]) {
    out[..4].copy_from_slice(&first.to_array());
    out[4..8].copy_from_slice(&second.to_array());
    out[8..].copy_from_slice(&third.to_array());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_vertices_pack_into_twelve_floats_in_order() {
        let v = |k: f32| m128::from_array([k, k + 0.25, k + 0.5, -1.0]);
        let mut out = [0.0; 12];
        store(&mut out, pack([v(0.0), v(1.0), v(2.0), v(3.0)]));
        assert_eq!(
            out,
            [0.0, 0.25, 0.5, 1.0, 1.25, 1.5, 2.0, 2.25, 2.5, 3.0, 3.25, 3.5]
        );
    }
}
