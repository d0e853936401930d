//! Hand-made skinned glTFs for the MS3D compiler's bind-pose cases (what
//! other tools write): a strip of quads along +Y skinned to a root, a
//! bending child and a third joint, as a GLB.
//!
//! - [`quantized`] — positions as 16-bit integers (`KHR_mesh_quantization`),
//!   the dequantisation `D` folded into every inverse bind matrix (as
//!   `gltf-transform quantize` writes it);
//! - [`zero_scaled`] — the third joint scaled to 0 at rest (how glTF hides
//!   a part), or animated from 1 to 0 and back; some vertices bound to it
//!   alone;
//! - [`remainder_as_blender_writes_it`] — `Scene::from_ms3d`'s
//!   `weight_remainder` joint after Blender: no note, rest scale 1, every
//!   key scale 0.
//!
//! ```
//! let glb = retromodel_testkit::gltf_skin_cases::zero_scaled(true);
//! assert_eq!(&glb[..4], b"glTF");
//! ```

use serde_json::json;

use crate::gltf_builder::{component, i16_bytes, Builder};

/// Rows of the strip (4 quads: rows 0–4 at y = 0..4).
const ROWS: usize = 5;

/// The dequantisation of [`quantized`]: `p = SCALE · q + OFFSET`.
pub const SCALE: f32 = 1.0 / 4096.0;
/// See [`SCALE`].
pub const OFFSET: [f32; 3] = [-0.5, 0.25, 0.0];

fn column(m: [[f32; 4]; 4]) -> Vec<f32> {
    m.iter().flatten().copied().collect()
}

/// Translation by `t` (column-major).
fn translation(t: [f32; 3]) -> [[f32; 4]; 4] {
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [t[0], t[1], t[2], 1.0],
    ]
}

/// `a · b` (column-major).
fn mul(a: [[f32; 4]; 4], b: [[f32; 4]; 4]) -> [[f32; 4]; 4] {
    let mut out = [[0.0f32; 4]; 4];
    for (c, col) in out.iter_mut().enumerate() {
        for (r, x) in col.iter_mut().enumerate() {
            *x = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    out
}

/// The strip: positions, indices, joints and weights per vertex. Rows 0
/// and 1 on joint 0, row 2 half 0 half 1, row 3 on 1, row 4 on joint
/// `last` alone (`None`: on 1).
fn strip(last: Option<(u8, [f32; 4])>) -> (Vec<[f32; 3]>, Vec<u16>, Vec<u8>, Vec<f32>) {
    let mut positions = Vec::new();
    let (mut joints, mut weights) = (Vec::new(), Vec::new());
    for row in 0..ROWS {
        for x in [0.0f32, 1.0] {
            positions.push([x, row as f32, 0.0]);
            let (j, w) = match row {
                0 | 1 => ([0u8, 0, 0, 0], [1.0f32, 0.0, 0.0, 0.0]),
                2 => ([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]),
                3 => ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
                _ => match last {
                    Some((j, w)) => ([1, j, 0, 0], w),
                    None => ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
                },
            };
            joints.extend(j);
            weights.extend(w);
        }
    }
    let mut indices = Vec::new();
    for i in 0..(ROWS - 1) as u16 {
        let (a, b, c, d) = (2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3);
        indices.extend([a, b, d, a, d, c]);
    }
    (positions, indices, joints, weights)
}

/// Adds the skinned mesh, its skin of three joints (root at the origin,
/// `bend` at y = 2 turning about z by 0.8 rad over 1 s, `third` at y = 4
/// with `third_scale` at rest) and the animation (with `third_keys`, scale
/// keys of the third joint at 0, 0.5 and 1 s, when given); positions
/// through `position`, inverse binds times `ibm_tail`.
fn skinned(
    b: &mut Builder,
    position: usize,
    ibm_tail: [[f32; 4]; 4],
    joints_weights: (&[u8], &[f32]),
    third_scale: [f32; 3],
    third_keys: Option<[f32; 3]>,
) {
    let (_, indices, _, _) = strip(None);
    let idx = b.u16s(&indices);
    let jv = b.view(joints_weights.0, None);
    let joints = b.accessor(
        Some(jv),
        0,
        component::U8,
        "VEC4",
        joints_weights.0.len() / 4,
        false,
    );
    let weights = b.floats(joints_weights.1, "VEC4");
    let mesh = b.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": position, "JOINTS_0": joints, "WEIGHTS_0": weights}, "indices": idx}]}),
    );
    let ibms: Vec<f32> = [[0.0f32, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, -4.0, 0.0]]
        .iter()
        .flat_map(|&t| column(mul(translation(t), ibm_tail)))
        .collect();
    let ibm = b.floats(&ibms, "MAT4");
    let root = b.push("nodes", json!({"name": "root", "children": [1]}));
    b.push(
        "nodes",
        json!({"name": "bend", "translation": [0.0, 2.0, 0.0], "children": [2]}),
    );
    b.push(
        "nodes",
        json!({"name": "third", "translation": [0.0, 2.0, 0.0], "scale": third_scale}),
    );
    let skin = b.push(
        "skins",
        json!({"joints": [0, 1, 2], "inverseBindMatrices": ibm}),
    );
    let holder = b.push(
        "nodes",
        json!({"name": "strip", "mesh": mesh, "skin": skin}),
    );
    b.scene_root(root);
    b.scene_root(holder);
    let times = b.floats(&[0.0, 0.5, 1.0], "SCALAR");
    let (s, c) = (0.4f32.sin(), 0.4f32.cos());
    let (s2, c2) = (0.2f32.sin(), 0.2f32.cos());
    let turn = b.floats(
        &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s2, c2, 0.0, 0.0, s, c],
        "VEC4",
    );
    let mut samplers = vec![json!({"input": times, "output": turn})];
    let mut channels = vec![json!({"sampler": 0, "target": {"node": 1, "path": "rotation"}})];
    if let Some(k) = third_keys {
        let v = b.floats(
            &[k[0], k[0], k[0], k[1], k[1], k[1], k[2], k[2], k[2]],
            "VEC3",
        );
        samplers.push(json!({"input": times, "output": v}));
        channels.push(json!({"sampler": 1, "target": {"node": 2, "path": "scale"}}));
    }
    b.push(
        "animations",
        json!({"name": "bend", "samplers": samplers, "channels": channels}),
    );
}

/// The strip with integer positions and the dequantisation in the
/// inverse bind matrices (see the module documentation).
pub fn quantized() -> Vec<u8> {
    let (positions, _, joints, weights) = strip(None);
    let q: Vec<i16> = positions
        .iter()
        .flat_map(|p| (0..3).map(move |k| ((p[k] - OFFSET[k]) / SCALE).round() as i16))
        .collect();
    let mut b = Builder::new();
    b.json["extensionsUsed"] = json!(["KHR_mesh_quantization"]);
    b.json["extensionsRequired"] = json!(["KHR_mesh_quantization"]);
    // 16-bit positions padded to 8 bytes (vertex attributes align to 4).
    let mut padded = Vec::new();
    for p in i16_bytes(&q).chunks(6) {
        padded.extend_from_slice(p);
        padded.extend_from_slice(&[0, 0]);
    }
    let view = b.view(&padded, Some(8));
    let position = b.accessor(
        Some(view),
        0,
        component::I16,
        "VEC3",
        positions.len(),
        false,
    );
    let lo: Vec<i16> = (0..3)
        .map(|k| q.iter().skip(k).step_by(3).copied().min().unwrap_or(0))
        .collect();
    let hi: Vec<i16> = (0..3)
        .map(|k| q.iter().skip(k).step_by(3).copied().max().unwrap_or(0))
        .collect();
    b.json["accessors"][position]["min"] = json!(lo);
    b.json["accessors"][position]["max"] = json!(hi);
    let d = [
        [SCALE, 0.0, 0.0, 0.0],
        [0.0, SCALE, 0.0, 0.0],
        [0.0, 0.0, SCALE, 0.0],
        [OFFSET[0], OFFSET[1], OFFSET[2], 1.0],
    ];
    skinned(&mut b, position, d, (&joints, &weights), [1.0; 3], None);
    b.glb()
}

/// The strip with its top row bound to the third joint alone, scaled to
/// 0 at rest (`animated`: 1 at rest, keys 1 → 0 → 1).
pub fn zero_scaled(animated: bool) -> Vec<u8> {
    let (positions, _, joints, weights) = strip(Some((2, [0.0, 1.0, 0.0, 0.0])));
    let mut b = Builder::new();
    let flat: Vec<f32> = positions.iter().flatten().copied().collect();
    let position = b.floats(&flat, "VEC3");
    let (rest, keys) = if animated {
        ([1.0; 3], Some([1.0, 0.0, 1.0]))
    } else {
        ([0.0; 3], None)
    };
    skinned(
        &mut b,
        position,
        translation([0.0; 3]),
        (&joints, &weights),
        rest,
        keys,
    );
    b.glb()
}

/// The strip with the top row's weights short of 100 %: a fifth on a
/// root node `weight_remainder` as Blender exports `Scene::from_ms3d`'s
/// helper (no note, rest scale 1, scale 0 at every key).
pub fn remainder_as_blender_writes_it() -> Vec<u8> {
    let (positions, _, joints, weights) = strip(Some((2, [0.8, 0.2, 0.0, 0.0])));
    let mut b = Builder::new();
    let flat: Vec<f32> = positions.iter().flatten().copied().collect();
    let position = b.floats(&flat, "VEC3");
    skinned(
        &mut b,
        position,
        translation([0.0; 3]),
        (&joints, &weights),
        [1.0; 3],
        Some([0.0; 3]),
    );
    // The third joint becomes a root at the origin named weight_remainder,
    // with an identity inverse bind.
    b.json["nodes"][1]["children"] = json!([]);
    b.json["nodes"][2]["name"] = json!("weight_remainder");
    b.json["nodes"][2]["translation"] = json!([0.0, 0.0, 0.0]);
    b.scene_root(2);
    let ibms: Vec<f32> = [[0.0f32, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.0]]
        .iter()
        .flat_map(|&t| column(translation(t)))
        .collect();
    let ibm = b.floats(&ibms, "MAT4");
    b.json["skins"][0]["inverseBindMatrices"] = json!(ibm);
    b.glb()
}
