//! Decoding stored vertices to floats: positions in model units and
//! normals exactly as ioquake3 decodes them.
//!
//! [`decode_into`] is what [`Surface::decode_frames`](super::Surface::decode_frames)
//! runs. On x86 with SSE2 (every x86-64 CPU) four vertices are decoded
//! at a time with vector instructions and written as three 16-byte
//! stores per buffer; elsewhere a vertex at a time. Both give the same
//! floats bit for bit (the tests compare them).

use super::{sine_table, XyzNormal, MD3_XYZ_SCALE};

/// [`byte_tables`]: per latitude byte `[cos, sin, 1, 0]`, per longitude
/// byte `[sin, sin, cos, 0]`.
type ByteTables = ([[f32; 4]; 256], [[f32; 4]; 256]);

/// Per byte, the table's cosine and sine of its angle as a latitude and
/// as a longitude ([`decode_normal`](super::decode_normal)'s look-ups),
/// laid out so that their product is the normal (and a fourth float 0),
/// computed once (8 KiB): a normal is then two look-ups and one four-wide
/// product, the same floats bit for bit (each is the same two table
/// entries multiplied, or the longitude's cosine × 1).
fn byte_tables() -> &'static ByteTables {
    static TABLES: std::sync::OnceLock<ByteTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let sine = sine_table();
        let sin = |i: usize| sine[i & 1023];
        let mut lat = [[0.0; 4]; 256];
        let mut lng = [[0.0; 4]; 256];
        for b in 0..256 {
            lat[b] = [sin(b * 4 + 256), sin(b * 4), 1.0, 0.0];
            lng[b] = [sin(b * 4), sin(b * 4), sin(b * 4 + 256), 0.0];
        }
        (lat, lng)
    })
}

/// A stored position in model units (× [`MD3_XYZ_SCALE`]), and a fourth
/// float of no meaning (the normal word scaled alike).
#[inline(always)]
fn position4(v: &XyzNormal) -> [f32; 4] {
    [
        f32::from(v.xyz[0]) * MD3_XYZ_SCALE,
        f32::from(v.xyz[1]) * MD3_XYZ_SCALE,
        f32::from(v.xyz[2]) * MD3_XYZ_SCALE,
        f32::from(v.normal as i16) * MD3_XYZ_SCALE,
    ]
}

/// The normal of a stored word from the per-byte tables, and a fourth
/// float 0.
#[inline(always)]
fn normal4((lat_table, lng_table): &ByteTables, normal: u16) -> [f32; 4] {
    let lat = lat_table[usize::from(normal >> 8)];
    let lng = lng_table[usize::from(normal & 0xff)];
    [
        lat[0] * lng[0],
        lat[1] * lng[1],
        lat[2] * lng[2],
        lat[3] * lng[3],
    ]
}

/// Decodes `vertices` into `positions` and `normals`, three floats per
/// vertex each; decodes as many vertices as all three have room for.
pub(super) fn decode_into(vertices: &[XyzNormal], positions: &mut [f32], normals: &mut [f32]) {
    let count = vertices
        .len()
        .min(positions.len() / 3)
        .min(normals.len() / 3);
    let (vertices, positions, normals) = (
        &vertices[..count],
        &mut positions[..3 * count],
        &mut normals[..3 * count],
    );
    let tables = byte_tables();
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))]
    let (vertices, positions, normals) = {
        let done = sse2::decode_groups(tables, vertices, positions, normals);
        (
            &vertices[done..],
            &mut positions[3 * done..],
            &mut normals[3 * done..],
        )
    };
    decode_one_by_one(tables, vertices, positions, normals);
}

/// A vertex at a time: every vertex but the last is stored as four
/// floats at once (one 16-byte store, where three 4-byte stores would
/// not let the compiler vectorise); the fourth lands on the next vertex's
/// first float, which the next store overwrites. `positions` and
/// `normals` hold exactly three floats per vertex.
fn decode_one_by_one(
    tables: &ByteTables,
    vertices: &[XyzNormal],
    positions: &mut [f32],
    normals: &mut [f32],
) {
    let Some((last, init)) = vertices.split_last() else {
        return;
    };
    for (i, v) in init.iter().enumerate() {
        let at = 3 * i;
        let (Some(p), Some(n)) = (
            positions.get_mut(at..).and_then(<[f32]>::first_chunk_mut),
            normals.get_mut(at..).and_then(<[f32]>::first_chunk_mut),
        ) else {
            // Never: a vertex follows, so four floats remain.
            break;
        };
        *p = position4(v);
        *n = normal4(tables, v.normal);
    }
    let at = 3 * init.len();
    let (p, n) = (position4(last), normal4(tables, last.normal));
    if let (Some(pd), Some(nd)) = (positions.get_mut(at..at + 3), normals.get_mut(at..at + 3)) {
        pd.copy_from_slice(&p[..3]);
        nd.copy_from_slice(&n[..3]);
    }
}

/// Four vertices at a time with SSE2, which every x86-64 CPU has (and
/// 32-bit x86 targets built with it).
///
/// A group's 32 bytes are two vectors of eight 16-bit words. Each word
/// is unpacked into the high half of a 32-bit lane (the word × 65536,
/// sign included), converted to float (exact: 16 significant bits) and
/// scaled by 2⁻²² (exact: a power of two), which is the word × 1/64 bit
/// for bit. The four `[x y z _]` vectors, and the four normals' table
/// products, are packed into `[x0 y0 z0 x1] [y1 z1 x2 y2] [z2 x3 y3 z3]`
/// and written as three 16-byte stores that do not overlap. Measured in
/// `bench/md3_compare.sh`: a fifth faster than a vertex at a time.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
mod sse2 {
    use super::{ByteTables, XyzNormal, MD3_XYZ_SCALE};
    use crate::sse2_pack::{pack, store};
    use safe_arch::{
        convert_to_m128_from_i32_m128i, m128, m128i, mul_m128, set_splat_m128,
        unpack_high_i16_m128i, unpack_low_i16_m128i, zeroed_m128i,
    };

    /// The positions of a group of four vertices.
    #[inline(always)]
    fn group_positions(group: &[XyzNormal; 4]) -> [m128; 3] {
        // Each word sits in the high half of its lane, so is read × 65536.
        let scale = set_splat_m128(MD3_XYZ_SCALE / 65536.0);
        let [low, high] = bytemuck::cast::<[XyzNormal; 4], [[u8; 16]; 2]>(*group).map(m128i::from);
        let zero = zeroed_m128i();
        let lanes = [
            unpack_low_i16_m128i(zero, low),
            unpack_high_i16_m128i(zero, low),
            unpack_low_i16_m128i(zero, high),
            unpack_high_i16_m128i(zero, high),
        ];
        pack(lanes.map(|words| mul_m128(convert_to_m128_from_i32_m128i(words), scale)))
    }

    /// The normals of a group of four vertices. Each record is read as
    /// one little-endian 64-bit word, whose top 16 bits are the normal:
    /// shifting and masking it gives each byte × 16 directly, the byte
    /// offset of its 16-byte entry in the tables seen as bytes (two
    /// instructions per look-up; masked to at most 4080, so the 16-byte
    /// read is known in bounds).
    #[inline(always)]
    fn group_normals(
        lat_table: &[u8; 4096],
        lng_table: &[u8; 4096],
        group: &[XyzNormal; 4],
    ) -> [m128; 3] {
        let entry = |table: &[u8; 4096], at: u64| {
            let at = (at & 0xff0) as usize;
            m128::from_array(bytemuck::pod_read_unaligned(&table[at..at + 16]))
        };
        let records = bytemuck::cast::<[XyzNormal; 4], [u64; 4]>(*group);
        pack(records.map(|r| mul_m128(entry(lat_table, r >> 52), entry(lng_table, r >> 44))))
    }

    /// Decodes every whole group of four vertices; returns how many
    /// vertices that was. `positions` and `normals` hold three floats per
    /// vertex.
    pub(super) fn decode_groups(
        tables: &ByteTables,
        vertices: &[XyzNormal],
        positions: &mut [f32],
        normals: &mut [f32],
    ) -> usize {
        let (groups, _) = vertices.as_chunks::<4>();
        let (position_groups, _) = positions.as_chunks_mut::<12>();
        let (normal_groups, _) = normals.as_chunks_mut::<12>();
        let lat_table = bytemuck::cast_ref::<[[f32; 4]; 256], [u8; 4096]>(&tables.0);
        let lng_table = bytemuck::cast_ref::<[[f32; 4]; 256], [u8; 4096]>(&tables.1);
        let mut done = 0;
        for ((group, p), n) in groups.iter().zip(position_groups).zip(normal_groups) {
            store(p, group_positions(group));
            store(n, group_normals(lat_table, lng_table, group));
            done += 4;
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vertices covering every normal word and every value of each
    /// coordinate.
    fn every_word() -> Vec<XyzNormal> {
        (0..=u16::MAX)
            .map(|w| XyzNormal {
                xyz: [w as i16, (w ^ 0x5555) as i16, w.rotate_left(7) as i16],
                normal: w,
            })
            .collect()
    }

    #[test]
    fn the_vector_path_and_the_one_by_one_path_agree_bit_for_bit() {
        let words = every_word();
        // Lengths that leave each remainder after groups of four.
        for len in [words.len(), words.len() - 1, 6, 5, 3, 1, 0] {
            let v = &words[..len];
            let (mut p, mut n) = (vec![f32::NAN; 3 * len], vec![f32::NAN; 3 * len]);
            decode_into(v, &mut p, &mut n);
            let (mut p1, mut n1) = (vec![f32::NAN; 3 * len], vec![f32::NAN; 3 * len]);
            decode_one_by_one(byte_tables(), v, &mut p1, &mut n1);
            let bits = |x: &[f32]| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&p), bits(&p1), "positions, {len} vertices");
            assert_eq!(bits(&n), bits(&n1), "normals, {len} vertices");
        }
    }
}
