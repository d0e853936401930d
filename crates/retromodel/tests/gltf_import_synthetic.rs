//! The glTF importer on documents made here with
//! `retromodel_testkit::gltf_builder` (JSON and bytes written from the glTF
//! 2.0 specification, not by our exporter). Every expected value is
//! computed here from the spec's rules (normalisation formulas, strip and
//! fan numbering, `KHR_texture_transform`'s matrix, TRS composition ...)
//! or is the raw data put in.

#![cfg(feature = "gltf")]

use glam::{Mat4, Quat, Vec3};
use retromodel::gltf::{import, Import, ImportOptions};
use retromodel::scene::{Interpolation, Pose, Target};
use retromodel_testkit::gltf_builder::{
    component as c, f32_bytes, i16_bytes, u16_bytes, u32_bytes, Builder,
};
use serde_json::{json, Value};

fn imp(bytes: &[u8]) -> Import {
    import(bytes, None, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn imp_err(bytes: &[u8]) -> String {
    match import(bytes, None, &ImportOptions::default()) {
        Ok(i) => panic!("imported, expected an error; warnings {:?}", i.warnings),
        Err(e) => e.to_string(),
    }
}

fn warned(i: &Import, path: &str, text: &str) -> bool {
    i.warnings
        .iter()
        .any(|w| w.path == path && w.message.contains(text))
}

/// A triangle's three positions.
const TRIANGLE: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];

fn quantized(b: &mut Builder) {
    b.json["extensionsUsed"] = json!(["KHR_mesh_quantization"]);
    b.json["extensionsRequired"] = json!(["KHR_mesh_quantization"]);
}

/// Every integer component type, normalised or not, as POSITION (which
/// `KHR_mesh_quantization` allows in all of them), converted as glTF 2.0
/// §3.11 says: `max(c / 127, −1)`, `c / 255`, `max(c / 32767, −1)`,
/// `c / 65535`, and the plain value when not normalised.
#[test]
fn component_types_and_normalisation_as_the_spec_says() {
    let bytes: [(u32, Vec<u8>, [f64; 9]); 4] = [
        (
            c::I8,
            vec![0x80, 0x81, 0xff, 0, 1, 127, 0x7f, 0x40, 0xc0],
            [-128.0, -127.0, -1.0, 0.0, 1.0, 127.0, 127.0, 64.0, -64.0],
        ),
        (
            c::U8,
            vec![0, 1, 255, 128, 64, 200, 7, 8, 9],
            [0.0, 1.0, 255.0, 128.0, 64.0, 200.0, 7.0, 8.0, 9.0],
        ),
        (
            c::I16,
            i16_bytes(&[i16::MIN, -32767, -1, 0, 1, 32767, 1000, -1000, 12345]),
            [
                -32768.0, -32767.0, -1.0, 0.0, 1.0, 32767.0, 1000.0, -1000.0, 12345.0,
            ],
        ),
        (
            c::U16,
            u16_bytes(&[0, 1, 65535, 32768, 2, 3, 4, 5, 60000]),
            [0.0, 1.0, 65535.0, 32768.0, 2.0, 3.0, 4.0, 5.0, 60000.0],
        ),
    ];
    for (component, raw, ints) in bytes {
        for normalized in [false, true] {
            let size = raw.len() / 9;
            // Vertex attributes are aligned to 4 bytes: pad each element.
            let stride = (3 * size).next_multiple_of(4);
            let mut padded = Vec::new();
            for e in raw.chunks(3 * size) {
                padded.extend_from_slice(e);
                padded.resize(padded.len().next_multiple_of(4), 0);
            }
            let mut b = Builder::new();
            quantized(&mut b);
            let view = b.view(&padded, Some(stride));
            let pos = b.accessor(Some(view), 0, component, "VEC3", 3, normalized);
            let index = b.view(&[0, 1, 2, 0], None);
            let indices = b.accessor(Some(index), 0, c::U8, "SCALAR", 3, false);
            b.triangle_mesh(json!({"POSITION": pos}), Some(indices), 4);
            let i = imp(&b.glb());
            assert!(i.warnings.is_empty(), "{:?}", i.warnings);
            let got: Vec<f32> = i.scene.meshes[0]
                .positions
                .iter()
                .flatten()
                .copied()
                .collect();
            let want: Vec<f32> = ints
                .iter()
                .map(|&x| {
                    let v = match (component, normalized) {
                        (_, false) => x,
                        (c::I8, true) => (x / 127.0).max(-1.0),
                        (c::U8, true) => x / 255.0,
                        (c::I16, true) => (x / 32767.0).max(-1.0),
                        _ => x / 65535.0,
                    };
                    v as f32
                })
                .collect();
            assert_eq!(got, want, "component {component} normalized {normalized}");
            assert_eq!(
                i.scene.meshes[0].indices,
                [0, 1, 2],
                "UNSIGNED_BYTE indices"
            );
        }
    }
    // Without KHR_mesh_quantization declared: read, with one warning.
    let mut b = Builder::new();
    let view = b.view(&[1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0], Some(4));
    let pos = b.accessor(Some(view), 0, c::I8, "VEC3", 3, false);
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let i = imp(&b.glb());
    assert_eq!(i.scene.meshes[0].positions[2], [7.0, 8.0, 9.0]);
    assert!(warned(
        &i,
        "/meshes/0/primitives/0/attributes/POSITION",
        "KHR_mesh_quantization"
    ));
    // A type glTF does not allow for POSITION at all is an error.
    let mut b = Builder::new();
    let view = b.view(&u32_bytes(&[1, 2, 3]), None);
    let pos = b.accessor(Some(view), 0, c::U32, "VEC3", 1, false);
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let e = imp_err(&b.glb());
    assert!(e.starts_with("glTF /meshes/0/primitives/0/attributes/POSITION: POSITION accessor 0 is UNSIGNED_INT, expected FLOAT"), "{e}");
}

/// Texture coordinates as normalised bytes and shorts, indices of every
/// width, weights as normalised bytes.
#[test]
fn core_integer_attributes() {
    for (component, bytes, want) in [
        (
            c::U8,
            vec![0u8, 255, 51, 102, 255, 0, 0, 0],
            [[0.0, 1.0], [0.2, 0.4], [1.0, 0.0]],
        ),
        (
            c::U16,
            u16_bytes(&[0, 65535, 13107, 26214, 65535, 0]),
            [[0.0, 1.0], [0.2, 0.4], [1.0, 0.0]],
        ),
    ] {
        for indices in [c::U8, c::U16, c::U32] {
            let mut b = Builder::new();
            let pos = b.floats(&TRIANGLE, "VEC3");
            let stride = 4; // two components of 1 or 2 bytes, padded to 4
            let mut data = Vec::new();
            let size = if component == c::U8 { 1 } else { 2 };
            for e in bytes.chunks(2 * size).take(3) {
                data.extend_from_slice(e);
                data.resize(data.len().next_multiple_of(4), 0);
            }
            let view = b.view(&data, Some(stride));
            let uv = b.accessor(Some(view), 0, component, "VEC2", 3, true);
            let ix: Vec<u8> = match indices {
                c::U8 => vec![2, 1, 0],
                c::U16 => u16_bytes(&[2, 1, 0]),
                _ => u32_bytes(&[2, 1, 0]),
            };
            let iv = b.view(&ix, None);
            let ia = b.accessor(Some(iv), 0, indices, "SCALAR", 3, false);
            b.json["materials"] = json!([{"pbrMetallicRoughness": {}}]);
            let mesh = b.triangle_mesh(json!({"POSITION": pos, "TEXCOORD_0": uv}), Some(ia), 4);
            b.json["meshes"][mesh]["primitives"][0]["material"] = json!(0);
            let i = imp(&b.glb());
            assert!(i.warnings.is_empty(), "{:?}", i.warnings);
            let m = &i.scene.meshes[0];
            assert_eq!(m.indices, [2, 1, 0]);
            for (g, w) in m.uvs.iter().zip(want) {
                assert!(
                    (g[0] - w[0]).abs() < 1e-6 && (g[1] - w[1]).abs() < 1e-6,
                    "{g:?} vs {w:?}"
                );
            }
        }
    }
}

/// Positions and normals interleaved in one view (stride 24), texture
/// coordinates at an offset in a padded one (stride 16).
#[test]
fn byte_strides_and_offsets() {
    let mut b = Builder::new();
    let mut inter = Vec::new();
    for k in 0..3 {
        inter.extend(f32_bytes(&TRIANGLE[3 * k..3 * k + 3]));
        inter.extend(f32_bytes(&[0.0, 0.0, 1.0]));
    }
    let v = b.view(&inter, Some(24));
    let pos = b.accessor(Some(v), 0, c::F32, "VEC3", 3, false);
    let nor = b.accessor(Some(v), 12, c::F32, "VEC3", 3, false);
    let mut uvs = vec![0u8; 8];
    for k in 0..3 {
        uvs.extend(f32_bytes(&[k as f32 / 2.0, 1.0 - k as f32]));
        uvs.extend([0xee; 8]);
    }
    let v2 = b.view(&uvs, Some(16));
    let uv = b.accessor(Some(v2), 8, c::F32, "VEC2", 3, false);
    b.triangle_mesh(
        json!({"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": uv}),
        None,
        4,
    );
    let i = imp(&b.glb());
    let m = &i.scene.meshes[0];
    assert_eq!(
        m.positions,
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    );
    assert_eq!(m.normals, [[0.0, 0.0, 1.0]; 3]);
    assert_eq!(m.uvs, [[0.0, 1.0], [0.5, 0.0], [1.0, -1.0]]);
    assert_eq!(m.indices, [0, 1, 2], "no indices: 0..n");
}

/// Sparse accessors: substitutions over a buffer view, and over no view
/// (zeros), as morph target displacements too.
#[test]
fn sparse_accessors() {
    let mut b = Builder::new();
    let base = b.view(
        &f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0]),
        None,
    );
    let pos = b.accessor(Some(base), 0, c::F32, "VEC3", 4, false);
    let si = b.view(&[1, 3, 0, 0], None);
    let sv = b.view(&f32_bytes(&[5.0, 5.0, 5.0, 7.0, 7.0, 7.0]), None);
    b.json["accessors"][pos]["sparse"] = json!({
        "count": 2,
        "indices": {"bufferView": si, "componentType": c::U8},
        "values": {"bufferView": sv}
    });
    let ti = b.view(&u16_bytes(&[2]), None);
    let tv = b.view(&f32_bytes(&[0.0, 0.0, 9.0]), None);
    let target = b.accessor(None, 0, c::F32, "VEC3", 4, false);
    b.json["accessors"][target]["sparse"] = json!({
        "count": 1,
        "indices": {"bufferView": ti, "componentType": c::U16},
        "values": {"bufferView": tv}
    });
    let ix = b.u16s(&[0, 1, 2, 2, 1, 3]);
    let mesh = b.triangle_mesh(json!({"POSITION": pos}), Some(ix), 4);
    b.json["meshes"][mesh]["primitives"][0]["targets"] = json!([{"POSITION": target}]);
    let i = imp(&b.glb());
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
    let m = &i.scene.meshes[0];
    assert_eq!(
        m.positions,
        [
            [0.0, 0.0, 0.0],
            [5.0, 5.0, 5.0],
            [0.0, 1.0, 0.0],
            [7.0, 7.0, 7.0]
        ]
    );
    assert_eq!(
        m.morph_targets[0].positions,
        [[0.0; 3], [0.0; 3], [0.0, 0.0, 9.0], [0.0; 3]]
    );
}

/// Signed area (×2) of a triangle's projection on the xy plane.
fn area(p: &[[f32; 3]], t: &[u32]) -> f32 {
    let (a, b, c) = (p[t[0] as usize], p[t[1] as usize], p[t[2] as usize]);
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// TRIANGLE_STRIP and TRIANGLE_FAN become triangles numbered as glTF 2.0
/// §3.7.2.1 says (strip triangle i: `v[i], v[i+(1+i%2)], v[i+(2−i%2)]`; fan:
/// `v[i+1], v[i+2], v[0]`): for a counter-clockwise strip and fan in the
/// xy plane every triangle comes out counter-clockwise.
#[test]
fn strips_and_fans_keep_the_specs_winding() {
    let strip: Vec<f32> = (0..6)
        .flat_map(|k| [(k % 2) as f32, (k / 2) as f32, 0.0])
        .collect();
    let fan: Vec<f32> = std::iter::once([0.0f32, 0.0, 0.0])
        .chain((0..5).map(|k| {
            let a = std::f32::consts::FRAC_PI_4 * k as f32;
            [a.cos(), a.sin(), 0.0]
        }))
        .flatten()
        .collect();
    for (mode, positions, want) in [
        (5, strip, vec![0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4]),
        (6, fan, vec![1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5, 0]),
    ] {
        for indexed in [false, true] {
            let mut b = Builder::new();
            let pos = b.floats(&positions, "VEC3");
            let ix = indexed.then(|| b.u16s(&[0, 1, 2, 3, 4, 5]));
            b.triangle_mesh(json!({"POSITION": pos}), ix, mode);
            let i = imp(&b.glb());
            let m = &i.scene.meshes[0];
            assert_eq!(m.indices, want, "mode {mode} indexed {indexed}");
            for t in m.indices.chunks(3) {
                assert!(
                    area(&m.positions, t) > 0.0,
                    "mode {mode}: {t:?} is clockwise"
                );
            }
        }
    }
}

#[test]
fn points_and_lines_are_skipped_with_a_warning() {
    for (mode, what) in [
        (0, "points"),
        (1, "lines"),
        (2, "a line loop"),
        (3, "a line strip"),
    ] {
        let mut b = Builder::new();
        let pos = b.floats(&TRIANGLE, "VEC3");
        let mesh = b.triangle_mesh(json!({"POSITION": pos}), None, 4);
        let extra = json!({"attributes": {"POSITION": pos}, "mode": mode});
        b.json["meshes"][mesh]["primitives"]
            .as_array_mut()
            .unwrap()
            .insert(0, extra);
        let i = imp(&b.glb());
        assert_eq!(i.scene.meshes.len(), 1, "the triangles only");
        assert!(
            warned(&i, "/meshes/0/primitives/0/mode", what),
            "{:?}",
            i.warnings
        );
    }
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 7);
    assert_eq!(
        imp_err(&b.glb()),
        "glTF /meshes/0/primitives/0/mode: 7 is not a primitive mode (0 to 6)"
    );
}

/// A node with a matrix: TRS from it, so that the node's scene-space
/// matrix is the matrix (a mirror too, as a negative scale); shear is
/// approximated with a warning.
#[test]
fn matrix_nodes_are_decomposed() {
    let exact = [
        Mat4::from_scale_rotation_translation(
            Vec3::new(2.0, 0.5, 3.0),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
            Vec3::new(1.0, -2.0, 3.0),
        ),
        Mat4::from_scale_rotation_translation(
            Vec3::new(-1.5, 1.0, 1.0),
            Quat::from_rotation_y(0.7),
            Vec3::new(0.0, 4.0, 0.0),
        ),
        Mat4::IDENTITY,
        Mat4::from_scale(Vec3::new(0.0, 1.0, 1.0)),
    ];
    for m in exact {
        let mut b = Builder::new();
        let pos = b.floats(&TRIANGLE, "VEC3");
        b.triangle_mesh(json!({"POSITION": pos}), None, 4);
        b.json["nodes"][0]["matrix"] = json!(m.to_cols_array());
        let i = imp(&b.glb());
        assert!(i.warnings.is_empty(), "{m:?}: {:?}", i.warnings);
        let pose = Pose::new(&i.scene).unwrap();
        let got = Mat4::from_cols_array(&pose.node_matrix(0).unwrap());
        assert!(got.abs_diff_eq(m, 1e-5), "{got:?} vs {m:?}");
    }
    // Shear: x' = x + y.
    let shear = Mat4::from_cols_array(&[
        1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    b.json["nodes"][0]["matrix"] = json!(shear.to_cols_array());
    b.json["nodes"][0]["translation"] = json!([1, 2, 3]);
    let i = imp(&b.glb());
    assert!(warned(&i, "/nodes/0/matrix", "shear"), "{:?}", i.warnings);
    assert!(warned(&i, "/nodes/0/matrix", "the matrix is used"));
    let n = &i.scene.nodes[0];
    let q = Quat::from_array(n.rotation);
    assert!((q.length() - 1.0).abs() < 1e-5 && n.scale.iter().all(|s| s.is_finite() && *s > 0.0));
    // The rotation nearest to a shear of 1 turns by atan(1/2) about z.
    let (axis, angle) = q.to_axis_angle();
    assert!(
        (angle - 0.5f32.atan()).abs() < 1e-4 && axis.z.abs() > 0.999,
        "{axis:?} {angle}"
    );
}

/// `KHR_texture_transform` on the base colour texture: the UVs become
/// `T · R · S · (u, v, 1)` with the spec's matrices (translation by the
/// offset, rotation `[cos sin; −sin cos]`, scale); its `texCoord` picks the
/// set.
#[test]
fn texture_transform_is_baked_into_the_uvs() {
    let (offset, rotation, scale) = ([0.1f32, 0.2], 0.5f32, [2.0f32, 3.0]);
    let uv0 = [0.0f32, 0.0, 0.25, 0.5, 1.0, 1.0];
    let uv1 = [0.5f32, 0.5, 0.75, 0.0, 0.0, 0.125];
    let t = glam::Mat3::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, offset[0], offset[1], 1.0]);
    let r = glam::Mat3::from_cols_array(&[
        rotation.cos(),
        -rotation.sin(),
        0.0,
        rotation.sin(),
        rotation.cos(),
        0.0,
        0.0,
        0.0,
        1.0,
    ]);
    let s = glam::Mat3::from_diagonal(Vec3::new(scale[0], scale[1], 1.0));
    let matrix = t * r * s;
    for set in [None, Some(1)] {
        let mut b = Builder::new();
        b.json["extensionsUsed"] = json!(["KHR_texture_transform"]);
        let pos = b.floats(&TRIANGLE, "VEC3");
        let a0 = b.floats(&uv0, "VEC2");
        let a1 = b.floats(&uv1, "VEC2");
        let png = retromodel_testkit::gltf_builder::base64(&tiny_png());
        b.json["images"] = json!([{"uri": format!("data:image/png;base64,{png}")}]);
        b.json["textures"] = json!([{"source": 0}]);
        let mut tt = json!({"offset": offset, "rotation": rotation, "scale": scale});
        if let Some(s) = set {
            tt["texCoord"] = json!(s);
        }
        b.json["materials"] = json!([
            {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": tt}}}},
            {}
        ]);
        let mesh = b.triangle_mesh(
            json!({"POSITION": pos, "TEXCOORD_0": a0, "TEXCOORD_1": a1}),
            None,
            4,
        );
        b.json["meshes"][mesh]["primitives"][0]["material"] = json!(0);
        let other = json!({"attributes": {"POSITION": pos, "TEXCOORD_0": a0}, "material": 1});
        b.json["meshes"][mesh]["primitives"]
            .as_array_mut()
            .unwrap()
            .push(other);
        let i = imp(&b.glb());
        assert!(i.warnings.is_empty(), "{:?}", i.warnings);
        let source = if set == Some(1) { uv1 } else { uv0 };
        for (k, got) in i.scene.meshes[0].uvs.iter().enumerate() {
            let want = matrix * Vec3::new(source[2 * k], source[2 * k + 1], 1.0);
            assert!(
                (got[0] - want.x).abs() < 1e-6 && (got[1] - want.y).abs() < 1e-6,
                "{got:?} vs {want:?}"
            );
        }
        // The other primitive's material has no transform: its own copy of
        // the same accessor is untouched.
        let plain: Vec<f32> = i.scene.meshes[1].uvs.iter().flatten().copied().collect();
        assert_eq!(plain, uv0);
    }
}

/// A 2×2 PNG made by the library's encoder (feature `textures`), else a
/// fixed one.
fn tiny_png() -> Vec<u8> {
    #[cfg(feature = "textures")]
    {
        retromodel::texture::Rgba8Image::new(
            2,
            2,
            vec![
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128,
            ],
        )
        .unwrap()
        .to_png()
        .unwrap()
    }
    #[cfg(not(feature = "textures"))]
    {
        // 1×1 RGBA PNG (zlib stored block), made by hand.
        vec![
            0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, b'I', b'H', b'D', b'R', 0,
            0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 13, b'I', b'D',
            b'A', b'T', 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0, 0x05, 0x00, 0x01, 0xff,
            0x89, 0x99, 0x3d, 0x1d, 0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82,
        ]
    }
}

/// A `.gltf` whose buffer and image are `data:` URIs.
#[test]
fn data_uris() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let png = tiny_png();
    b.json["images"] = json!([{"uri": format!("data:image/png;base64,{}", retromodel_testkit::gltf_builder::base64(&png)), "name": "tiny"}]);
    b.json["textures"] = json!([{"source": 0}]);
    b.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    let mesh = b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    b.json["meshes"][mesh]["primitives"][0]["material"] = json!(0);
    let text = b.gltf_embedded();
    let i = imp(text.as_bytes());
    assert_eq!(i.scene.meshes[0].positions[1], [1.0, 0.0, 0.0]);
    assert_eq!(
        i.scene.textures[0].image,
        Some(retromodel::scene::TextureImage::Png(png)),
        "a PNG is kept as it is"
    );
    assert_eq!(i.scene.textures[0].path, "tiny");
    assert_eq!(i.scene.materials[0].texture, Some(0));
    // The base colour texture reads TEXCOORD_0, which is missing: a warning.
    assert!(warned(
        &i,
        "/meshes/0/primitives/0/attributes/TEXCOORD_0",
        "does not have"
    ));
    // A data: URI over the limit.
    let mut o = ImportOptions::default();
    o.max_data_uri_bytes = 16;
    let e = import(text.as_bytes(), None, &o).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "glTF /buffers/0/uri: a data: URI of about 36 bytes is more than the import's limit of 16 bytes"
        ),
        "{e}"
    );
}

/// External files through the resolver, confined to the document's folder;
/// `load_resource` is exact (no other extensions, no search by name).
#[test]
fn external_files_through_a_confined_resolver() {
    use retromodel::texture::{ResolveError, TextureResolver, TextureSource};
    let top = tempfile::tempdir().unwrap();
    let dir = top.path().join("model");
    std::fs::create_dir_all(dir.join("sub dir")).unwrap();
    std::fs::write(top.path().join("secret.bin"), vec![0x55; 64]).unwrap();
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.json["images"] = json!([{"uri": "sub%20dir/tex.png"}]);
    b.json["textures"] = json!([{"source": 0}]);
    b.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    let mesh = b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    b.json["meshes"][mesh]["primitives"][0]["material"] = json!(0);
    let (text, bin) = b.gltf_external("x.bin");
    std::fs::write(dir.join("x.bin"), &bin).unwrap();
    std::fs::write(dir.join("sub dir/tex.png"), tiny_png()).unwrap();
    let resolver = TextureResolver::new(&dir);
    let i = import(text.as_bytes(), Some(&resolver), &ImportOptions::default()).unwrap();
    assert_eq!(i.scene.meshes[0].positions[2], [0.0, 1.0, 0.0]);
    assert_eq!(
        i.scene.textures[0].path, "sub dir/tex.png",
        "the decoded URI"
    );
    assert_eq!(
        i.scene.textures[0].image,
        Some(retromodel::scene::TextureImage::Png(tiny_png()))
    );

    let with_uri = |uri: &str| text.replace("\"x.bin\"", &format!("{uri:?}"));
    // Refused before the file system is touched, or because the real path
    // leads outside.
    for (uri, why) in [
        ("../secret.bin", "it has a `..` component"),
        ("..%2Fsecret.bin", "it has a `..` component"),
        ("/etc/passwd", "it is an absolute path"),
        ("%2Fetc%2Fpasswd", "it is an absolute path"),
    ] {
        let e = import(
            with_uri(uri).as_bytes(),
            Some(&resolver),
            &ImportOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "glTF /buffers/0/uri: buffer {:?} refused: {why}",
                uri.replace("%2F", "/")
            ),
            "{uri}"
        );
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(top.path().join("secret.bin"), dir.join("link.bin")).unwrap();
        let e = import(
            with_uri("link.bin").as_bytes(),
            Some(&resolver),
            &ImportOptions::default(),
        )
        .unwrap_err();
        let e = e.to_string();
        assert!(
            e.starts_with("glTF /buffers/0/uri: buffer \"link.bin\" refused: every match leads outside the allowed folders"),
            "{e}"
        );
    }
    let e = import(
        with_uri("http://example.com/x.bin").as_bytes(),
        Some(&resolver),
        &ImportOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("the http: scheme is not supported"), "{e}");
    let e = import(
        with_uri("missing.bin").as_bytes(),
        Some(&resolver),
        &ImportOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("glTF /buffers/0/uri: buffer \"missing.bin\" not found"),
        "{e}"
    );
    // A file shorter than the buffer's byteLength.
    std::fs::write(dir.join("short.bin"), [0u8; 8]).unwrap();
    let e = import(
        with_uri("short.bin").as_bytes(),
        Some(&resolver),
        &ImportOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "glTF /buffers/0/byteLength: 36 bytes declared, but the data has 8"
    );

    // load_resource is exact; load searches.
    std::fs::write(dir.join("skin.png"), tiny_png()).unwrap();
    assert!(
        resolver.load("skin.pcx").is_ok(),
        "load tries other extensions"
    );
    assert!(matches!(
        resolver.load_resource("skin.pcx"),
        Err(ResolveError::NotFound { .. })
    ));
    assert!(matches!(
        resolver.load_resource("SKIN.PNG"),
        Err(ResolveError::NotFound { .. })
    ));
    let rooted = TextureResolver::new(&dir).with_root(top.path());
    assert!(
        rooted.load("tex.png").is_ok(),
        "load searches below the roots"
    );
    assert!(rooted.load_resource("tex.png").is_err());
    assert!(
        rooted.load_resource("model/sub dir/tex.png").is_ok(),
        "exact paths below a root"
    );
}

#[test]
fn required_extensions_retromodel_lacks_are_errors() {
    for name in [
        "KHR_draco_mesh_compression",
        "KHR_texture_basisu",
        "EXT_texture_webp",
    ] {
        let mut b = Builder::new();
        let pos = b.floats(&TRIANGLE, "VEC3");
        b.triangle_mesh(json!({"POSITION": pos}), None, 4);
        b.json["extensionsUsed"] = json!(["KHR_texture_transform", name]);
        b.json["extensionsRequired"] = json!([name]);
        assert_eq!(
            imp_err(&b.glb()),
            format!("glTF /extensionsRequired/0: the document requires the extension {name}, but retromodel does not support it")
        );
        // Optional: a warning, and the model.
        b.json["extensionsRequired"] = json!([]);
        let i = imp(&b.glb());
        assert!(warned(
            &i,
            "/extensionsUsed/1",
            &format!("extension {name}: not supported; ignored")
        ));
        assert_eq!(i.scene.meshes.len(), 1);
    }
}

/// Two JOINTS/WEIGHTS sets with eight influences: both sets are kept as
/// they are stored (no influence dropped), the weights renormalised over
/// all eight when they do not sum to 1.
#[test]
fn more_than_four_weights_keep_every_set() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let j0 = b.view(&u16_bytes(&[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]), None);
    let j1 = b.view(&u16_bytes(&[4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7]), None);
    let ja = b.accessor(Some(j0), 0, c::U16, "VEC4", 3, false);
    let jb = b.accessor(Some(j1), 0, c::U16, "VEC4", 3, false);
    let wa = b.floats(
        &[0.05, 0.3, 0.05, 0.1, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0],
        "VEC4",
    );
    // Vertex 0 sums to 1.5 over both sets.
    let wb = b.floats(
        &[0.4, 0.2, 0.3, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    b.triangle_mesh(
        json!({"POSITION": pos, "JOINTS_0": ja, "WEIGHTS_0": wa, "JOINTS_1": jb, "WEIGHTS_1": wb}),
        None,
        4,
    );
    let joints: Vec<usize> = (0..8)
        .map(|k| b.push("nodes", json!({"name": format!("j{k}")})))
        .collect();
    b.json["nodes"][0]["skin"] = json!(0);
    b.json["skins"] = json!([{"joints": joints}]);
    for j in &joints {
        b.scene_root(*j);
    }
    let i = imp(&b.glb());
    assert!(
        !i.warnings.iter().any(|w| w.message.contains("more than 4")),
        "{:?}",
        i.warnings
    );
    let s = i.scene.meshes[0].skin.as_ref().unwrap();
    assert_eq!(s.more.len(), 1, "JOINTS_1/WEIGHTS_1 kept");
    assert_eq!(s.joints, vec![[0, 1, 2, 3]; 3]);
    assert_eq!(s.more[0].joints, vec![[4, 5, 6, 7]; 3]);
    // Vertex 0: all eight weights divided by their sum, 1.5.
    let want = [0.05, 0.3, 0.05, 0.1, 0.4, 0.2, 0.3, 0.1].map(|w: f32| w / 1.5);
    let got: Vec<f32> = s.weights[0]
        .iter()
        .chain(&s.more[0].weights[0])
        .copied()
        .collect();
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{got:?}");
    }
    assert_eq!(s.weights[1], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(s.weights[2], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(s.more[0].weights[1], [0.0; 4]);
    assert_eq!(
        i.scene.skins[0].inverse_bind_matrices,
        vec![Mat4::IDENTITY.to_cols_array(); 8],
        "identity when absent"
    );
    // Scene joints are the joint nodes.
    let names: Vec<&str> = i.scene.skins[0]
        .joints
        .iter()
        .map(|&j| i.scene.nodes[j].name.as_str())
        .collect();
    assert_eq!(names, ["j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7"]);
}

/// Morph targets: names from `extras.targetNames` (which leave the extras),
/// default weights from the mesh unless the node has its own; a weights
/// channel animates every scene mesh of its node.
#[test]
fn morph_targets_names_weights_and_channels() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let d0 = b.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC3");
    let d1 = b.floats(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0], "VEC3");
    let prim =
        json!({"attributes": {"POSITION": pos}, "targets": [{"POSITION": d0}, {"POSITION": d1}]});
    b.json["meshes"] = json!([{
        "name": "blob",
        "primitives": [prim, prim],
        "weights": [0.5, 0.25],
        "extras": {"targetNames": ["up", "right"], "note": "kept"}
    }]);
    let a = b.push("nodes", json!({"mesh": 0, "weights": [1.0, 0.0]}));
    let n = b.push("nodes", json!({"mesh": 0}));
    b.scene_root(a);
    b.scene_root(n);
    let times = b.floats(&[0.0, 1.0], "SCALAR");
    let values = b.floats(&[0.0, 0.0, 1.0, 1.0], "SCALAR");
    b.json["animations"] = json!([{
        "name": "grow",
        "channels": [{"sampler": 0, "target": {"node": 1, "path": "weights"}}],
        "samplers": [{"input": times, "output": values}]
    }]);
    let i = imp(&b.glb());
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
    let s = &i.scene;
    assert_eq!(s.meshes.len(), 4, "2 nodes × 2 primitives");
    for m in &s.meshes {
        assert_eq!(m.name, "blob");
        let names: Vec<&str> = m.morph_targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["up", "right"]);
        assert_eq!(m.extras, json!({"note": "kept"}));
    }
    assert_eq!(s.meshes[0].morph_weights, [1.0, 0.0], "the node's");
    assert_eq!(s.meshes[2].morph_weights, [0.5, 0.25], "the mesh's");
    let targets: Vec<Target> = s.animations[0].channels.iter().map(|c| c.target).collect();
    assert_eq!(
        targets,
        [
            Target::MorphWeights { mesh: 2 },
            Target::MorphWeights { mesh: 3 }
        ]
    );
    let mut pose = Pose::new(s).unwrap();
    pose.sample(s, 0, 0.5);
    assert_eq!(pose.morph_weights(3), [0.5, 0.5]);
    assert_eq!(pose.morph_weights(0), [1.0, 0.0], "node 0 is not animated");
}

/// Application-specific attributes: scalar integers kept in the mesh's
/// extras (the MD2 compiler reads `_MD2_VERTEX`), others warned about.
#[test]
fn application_attributes_are_kept_in_extras() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let v = b.view(&u16_bytes(&[7, 7, 65535, 0]), None);
    let md2 = b.accessor(Some(v), 0, c::U16, "SCALAR", 3, false);
    let v32 = b.view(&u32_bytes(&[1, 100_000, 4_000_000_000]), None);
    let big = b.accessor(Some(v32), 0, c::U32, "SCALAR", 3, false);
    let floaty = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(
        json!({"POSITION": pos, "_MD2_VERTEX": md2, "_BIG": big, "_FLOATY": floaty}),
        None,
        4,
    );
    b.json["meshes"][0]["extras"] = json!({"comment": "hi"});
    let i = imp(&b.glb());
    assert_eq!(
        i.scene.meshes[0].extras,
        json!({"comment": "hi", "attributes": {"_MD2_VERTEX": [7, 7, 65535], "_BIG": [1, 100000, 4000000000u64]}})
    );
    assert!(warned(
        &i,
        "/meshes/0/primitives/0/attributes/_FLOATY",
        "only scalar integer attributes are kept"
    ));
}

/// Extras of the document, nodes, meshes, materials, skins and animations
/// are kept as they are.
#[test]
fn extras_are_kept() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    b.json["extras"] = json!({"doc": [1, 2]});
    b.json["asset"]["extras"] = json!({"asset": true});
    b.json["nodes"][0]["extras"] = json!({"node": "n"});
    b.json["nodes"][0]["skin"] = json!(0);
    b.json["meshes"][0]["extras"] = json!("just text");
    b.json["materials"] = json!([{"name": "m", "extras": {"mat": 1}}]);
    b.json["meshes"][0]["primitives"][0]["material"] = json!(0);
    b.json["skins"] = json!([{"joints": [0], "extras": {"skin": 2}}]);
    let t = b.floats(&[0.0], "SCALAR");
    let v = b.floats(&[0.0, 1.0, 0.0], "VEC3");
    b.json["animations"] = json!([{"extras": {"anim": 3}, "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}], "samplers": [{"input": t, "output": v, "interpolation": "STEP"}]}]);
    let i = imp(&b.glb());
    let s = &i.scene;
    assert_eq!(s.extras, json!({"doc": [1, 2], "asset": {"asset": true}}));
    assert_eq!(s.nodes[0].extras, json!({"node": "n"}));
    assert_eq!(s.meshes[0].extras, json!("just text"));
    assert_eq!(s.materials[0].extras, json!({"mat": 1}));
    assert_eq!(s.skins[0].extras, json!({"skin": 2}));
    assert_eq!(s.animations[0].extras, json!({"anim": 3}));
    // The document's metallic default is glTF's (1), not the scene's.
    assert_eq!(
        (s.materials[0].metallic, s.materials[0].roughness),
        (1.0, 1.0)
    );
}

/// The default scene: `scene`, else scene 0, else every root node; nodes
/// (and their meshes) outside it are left out; a primitive without a
/// material gets glTF's default one.
#[test]
fn default_scene_selection() {
    let doc = |scene: Value, scenes: Value| {
        let mut b = Builder::new();
        let pos = b.floats(&TRIANGLE, "VEC3");
        b.json["meshes"] =
            json!([{"name": "m", "primitives": [{"attributes": {"POSITION": pos}}]}]);
        b.json["nodes"] = json!([{"name": "a", "mesh": 0}, {"name": "b", "children": [2]}, {"name": "c", "mesh": 0}]);
        b.json["scene"] = scene;
        b.json["scenes"] = scenes;
        imp(&b.glb())
    };
    let names = |i: &Import| {
        i.scene
            .nodes
            .iter()
            .map(|n| n.name.clone())
            .collect::<Vec<_>>()
    };
    let i = doc(
        json!(1),
        json!([{"nodes": [0]}, {"nodes": [1], "name": "second"}]),
    );
    assert_eq!(names(&i), ["b", "c"]);
    assert_eq!(i.scene.name, "second");
    assert_eq!(i.scene.nodes[1].parent, Some(0));
    assert_eq!(i.scene.meshes.len(), 1);
    assert_eq!(i.scene.meshes[0].node, Some(1));
    let i = doc(Value::Null, json!([{"nodes": [0]}, {"nodes": [1]}]));
    assert_eq!(names(&i), ["a"]);
    let i = doc(Value::Null, Value::Null);
    assert_eq!(names(&i), ["a", "b", "c"]);
    assert_eq!(i.scene.meshes.len(), 2);
    let m = &i.scene.materials[i.scene.meshes[0].material.unwrap()];
    assert_eq!(
        (m.name.as_str(), m.metallic, m.roughness, m.base_color),
        ("default", 1.0, 1.0, [1.0; 4])
    );
}

/// Node animation channels keep their keys (STEP, LINEAR, CUBICSPLINE);
/// rotations stored as normalised shorts become `c / 32767`.
#[test]
fn animation_channels_as_stored() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    let times = b.floats(&[0.0, 0.5, 2.0], "SCALAR");
    let cubic = b.floats(&(0..27).map(|k| k as f32).collect::<Vec<_>>(), "VEC3");
    let rot = b.view(
        &i16_bytes(&[0, 0, 0, 32767, 0, 23170, 0, 23170, 0, -32767, 0, 0]),
        None,
    );
    let rot = b.accessor(Some(rot), 0, c::I16, "VEC4", 3, true);
    let scale = b.floats(&[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0], "VEC3");
    b.json["animations"] = json!([{"name": "a", "channels": [
        {"sampler": 0, "target": {"node": 0, "path": "translation"}},
        {"sampler": 1, "target": {"node": 0, "path": "rotation"}},
        {"sampler": 2, "target": {"node": 0, "path": "scale"}}
    ], "samplers": [
        {"input": times, "output": cubic, "interpolation": "CUBICSPLINE"},
        {"input": times, "output": rot},
        {"input": times, "output": scale, "interpolation": "STEP"}
    ]}]);
    let i = imp(&b.glb());
    let ch = &i.scene.animations[0].channels;
    assert_eq!(ch[0].interpolation, Interpolation::CubicSpline);
    assert_eq!(ch[0].times, [0.0, 0.5, 2.0]);
    assert_eq!(ch[0].values, (0..27).map(|k| k as f32).collect::<Vec<_>>());
    assert_eq!(ch[1].target, Target::Rotation { node: 0 });
    let want: Vec<f32> = [0, 0, 0, 32767, 0, 23170, 0, 23170, 0, -32767, 0, 0]
        .iter()
        .map(|&x| (x as f32 / 32767.0).max(-1.0))
        .collect();
    assert_eq!(ch[1].values, want);
    assert_eq!(
        (ch[2].interpolation, ch[2].target),
        (Interpolation::Step, Target::Scale { node: 0 })
    );
    assert_eq!(i.scene.animations[0].duration(), 2.0);
}

/// `EXT_meshopt_compression` with every mode and filter, encoded here with
/// meshoptimizer-rs's encoders: the import gives back the data encoded
/// (exactly, or within the filter's precision).
#[cfg(feature = "meshopt")]
#[test]
fn meshopt_modes_and_filters() {
    use meshoptimizer_rs::codec::{
        encode_filter_exp, encode_filter_oct, encode_filter_quat, encode_index_buffer,
        encode_index_sequence, encode_vertex_buffer, ExpMode, IndexEncoding, VertexEncoding,
    };
    use meshoptimizer_rs::{Limits, Workspace};
    let mut ws = Workspace::new(Limits::default());
    let n = 6usize;
    let positions: Vec<f32> = (0..n)
        .flat_map(|k| {
            [
                k as f32 * 0.37,
                (k * k) as f32 * 0.11 - 1.0,
                3.25 - k as f32,
            ]
        })
        .collect();
    let normals: Vec<[f32; 3]> = (0..n)
        .map(|k| {
            let a = k as f32;
            Vec3::new(a.cos(), a.sin(), 0.5 * a - 1.0)
                .normalize()
                .to_array()
        })
        .collect();
    let rotations: Vec<Quat> = (0..n)
        .map(|k| {
            Quat::from_euler(
                glam::EulerRot::XYZ,
                0.3 * k as f32,
                -0.2,
                1.0 - 0.4 * k as f32,
            )
        })
        .collect();
    let triangles: Vec<u32> = vec![0, 1, 2, 2, 1, 3, 3, 4, 5, 5, 4, 0];
    // Filters, then the vertex codec (version 0).
    let exp = encode_filter_exp(n, 12, 20, &positions, ExpMode::Separate, &mut ws).unwrap();
    let oct_in: Vec<f32> = normals
        .iter()
        .flat_map(|v| [v[0], v[1], v[2], 0.0])
        .collect();
    let oct = encode_filter_oct(n, 4, 8, &oct_in, &mut ws).unwrap();
    let quat_in: Vec<f32> = rotations.iter().flat_map(|q| q.to_array()).collect();
    let quat = encode_filter_quat(n, 8, 12, &quat_in, &mut ws).unwrap();
    let enc = VertexEncoding::new(0, 2).unwrap();
    let vb = |bytes: &[u8], stride: usize, ws: &mut Workspace| {
        encode_vertex_buffer(bytes, n, stride, enc, ws).unwrap()
    };
    let streams = [
        (vb(&exp, 12, &mut ws), 12, "ATTRIBUTES", "EXPONENTIAL", n),
        (vb(&oct, 4, &mut ws), 4, "ATTRIBUTES", "OCTAHEDRAL", n),
        (vb(&quat, 8, &mut ws), 8, "ATTRIBUTES", "QUATERNION", n),
        (
            encode_index_buffer(&triangles, IndexEncoding::DEFAULT, &mut ws).unwrap(),
            4,
            "TRIANGLES",
            "NONE",
            12,
        ),
        (
            encode_index_sequence(&triangles, IndexEncoding::DEFAULT, &mut ws).unwrap(),
            4,
            "INDICES",
            "NONE",
            12,
        ),
    ];
    let mut b = Builder::new();
    b.json["extensionsUsed"] = json!(["EXT_meshopt_compression", "KHR_mesh_quantization"]);
    b.json["extensionsRequired"] = json!(["EXT_meshopt_compression", "KHR_mesh_quantization"]);
    let mut fallback = 0usize;
    let mut views = Vec::new();
    for (data, stride, mode, filter, count) in &streams {
        // The compressed stream in buffer 0; the view itself in buffer 1,
        // the fallback buffer without data.
        b.bin.resize(b.bin.len().next_multiple_of(4), 0);
        let offset = b.bin.len();
        b.bin.extend_from_slice(data);
        let length = count * stride;
        let mut view = json!({"buffer": 1, "byteOffset": fallback, "byteLength": length, "extensions": {"EXT_meshopt_compression": {
            "buffer": 0, "byteOffset": offset, "byteLength": data.len(), "byteStride": stride, "count": count, "mode": mode, "filter": filter
        }}});
        if *mode == "ATTRIBUTES" {
            view["byteStride"] = json!(stride);
        }
        views.push(b.push("bufferViews", view));
        fallback += length.next_multiple_of(4);
    }
    b.json["buffers"] = json!([{"byteLength": fallback, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}]);
    let pos = b.accessor(Some(views[0]), 0, c::F32, "VEC3", n, false);
    let nor = b.accessor(Some(views[1]), 0, c::I8, "VEC3", n, true);
    let rot = b.accessor(Some(views[2]), 0, c::I16, "VEC4", n, true);
    let tri = b.accessor(Some(views[3]), 0, c::U32, "SCALAR", 12, false);
    let seq = b.accessor(Some(views[4]), 0, c::U32, "SCALAR", 12, false);
    let mesh = b.triangle_mesh(json!({"POSITION": pos, "NORMAL": nor}), Some(tri), 4);
    let again = json!({"attributes": {"POSITION": pos}, "indices": seq});
    b.json["meshes"][mesh]["primitives"]
        .as_array_mut()
        .unwrap()
        .push(again);
    let times = b.floats(&(0..n).map(|k| k as f32).collect::<Vec<_>>(), "SCALAR");
    b.json["animations"] = json!([{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}], "samplers": [{"input": times, "output": rot}]}]);
    // The buffers: 0 = BIN (stream data), 1 = fallback.
    let glb = {
        let mut doc = b.json.clone();
        let mut buffers = vec![json!({"byteLength": b.bin.len()})];
        buffers.extend(doc["buffers"].as_array().unwrap().iter().cloned());
        doc["buffers"] = Value::Array(buffers);
        retromodel_testkit::gltf_builder::glb_container(
            serde_json::to_string(&doc).unwrap().as_bytes(),
            Some(&b.bin),
        )
    };
    let i = imp(&glb);
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
    let m = &i.scene.meshes[0];
    for (got, want) in m.positions.iter().flatten().zip(&positions) {
        // 20 bits of mantissa.
        assert!(
            (got - want).abs() <= want.abs() * 2e-6 + 1e-6,
            "{got} vs {want}"
        );
    }
    for (got, want) in m.normals.iter().zip(&normals) {
        for k in 0..3 {
            assert!((got[k] - want[k]).abs() < 0.02, "{got:?} vs {want:?}");
        }
    }
    let meshopt_rotations = &i.scene.animations[0].channels[0].values;
    for (k, q) in rotations.iter().enumerate() {
        let got = Quat::from_slice(&meshopt_rotations[4 * k..4 * k + 4]);
        assert!(got.dot(*q).abs() > 0.9999, "{got:?} vs {q:?}");
    }
    // The index codecs may rotate triangles (keeping the winding); the
    // sequence codec keeps the order.
    assert_eq!(
        retromodel_testkit::import_checks::canonical_triangles(&m.indices),
        retromodel_testkit::import_checks::canonical_triangles(&triangles)
    );
    assert_eq!(i.scene.meshes[1].indices, triangles);

    // A stream whose header byte is wrong does not decode: an error, not
    // garbage. (The first stream starts the BIN chunk.)
    let mut broken = glb.clone();
    let at = broken.len() - b.bin.len().next_multiple_of(4);
    assert_eq!(broken[at] & 0xf0, 0xa0, "the vertex codec's header");
    broken[at] = 0x00;
    let e = import(&broken, None, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "glTF /bufferViews/0/extensions/EXT_meshopt_compression: the compressed stream does not decode: invalid encoded stream"
    );
}

/// Without the `meshopt` feature, a document that requires the extension
/// is an error naming it.
#[cfg(not(feature = "meshopt"))]
#[test]
fn meshopt_needs_its_feature() {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    b.triangle_mesh(json!({"POSITION": pos}), None, 4);
    b.json["extensionsUsed"] = json!(["EXT_meshopt_compression"]);
    b.json["extensionsRequired"] = json!(["EXT_meshopt_compression"]);
    assert!(imp_err(&b.glb()).contains(
        "EXT_meshopt_compression, but retromodel was built without its `meshopt` feature"
    ));
}

/// A GLB whose one material's base colour texture is the PNG `png`,
/// embedded through a buffer view.
fn glb_with_png(png: &[u8]) -> Vec<u8> {
    let mut b = Builder::new();
    let pos = b.floats(&TRIANGLE, "VEC3");
    let uv = b.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2");
    let view = b.view(png, None);
    b.json["images"] = json!([{"bufferView": view, "mimeType": "image/png"}]);
    b.json["textures"] = json!([{"source": 0}]);
    b.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    let mesh = b.triangle_mesh(json!({"POSITION": pos, "TEXCOORD_0": uv}), None, 4);
    b.json["meshes"][mesh]["primitives"][0]["material"] = json!(0);
    b.glb()
}

/// A PNG whose header (signature and `IHDR`, a 2×2 image) is whole and
/// whose image data is not there: only decoding finds it broken.
#[cfg(feature = "textures")]
fn png_broken_after_its_header() -> Vec<u8> {
    let mut png = tiny_png()[..33].to_vec();
    assert_eq!(&png[12..16], b"IHDR");
    png.extend_from_slice(b"\0\0\0\x04IDAT\x78\x9c\xff\xff\0\0\0\0");
    png
}

#[cfg(feature = "textures")]
#[test]
fn a_png_is_decoded_to_check_it_unless_the_caller_decodes_it_later() {
    let broken = png_broken_after_its_header();
    assert!(retromodel::texture::decode(&broken).is_err());
    let glb = glb_with_png(&broken);
    // Checked (the default): the image does not decode, a warning, no image.
    let checked = imp(&glb);
    assert_eq!(checked.scene.textures[0].image, None);
    assert!(
        warned(&checked, "/images/0", "no image"),
        "{:?}",
        checked.warnings
    );
    // Not checked: kept as it is, for a caller that decodes it.
    let mut o = ImportOptions::default();
    o.check_images = false;
    let kept = import(&glb, None, &o).unwrap();
    assert!(kept.warnings.is_empty(), "{:?}", kept.warnings);
    assert_eq!(
        kept.scene.textures[0].image,
        Some(retromodel::scene::TextureImage::Png(broken.clone()))
    );
    // A good PNG is the same either way.
    let good = tiny_png();
    let glb = glb_with_png(&good);
    for o in [ImportOptions::default(), o] {
        let i = import(&glb, None, &o).unwrap();
        assert!(i.warnings.is_empty(), "{:?}", i.warnings);
        assert_eq!(
            i.scene.textures[0].image,
            Some(retromodel::scene::TextureImage::Png(good.clone()))
        );
    }
}

#[test]
fn an_unchecked_png_is_still_held_to_its_header_and_the_size_limits() {
    let mut o = ImportOptions::default();
    o.check_images = false;
    o.max_image_bytes = 3;
    let i = import(&glb_with_png(&tiny_png()), None, &o).unwrap();
    assert_eq!(i.scene.textures[0].image, None, "a pixel is 4 bytes");
    assert!(
        warned(&i, "/images/0", "past the image limits"),
        "{:?}",
        i.warnings
    );
    let mut not_ihdr = tiny_png();
    not_ihdr[12..16].copy_from_slice(b"IDAT");
    o.max_image_bytes = ImportOptions::default().max_image_bytes;
    let i = import(&glb_with_png(&not_ihdr), None, &o).unwrap();
    assert_eq!(i.scene.textures[0].image, None);
    assert!(warned(&i, "/images/0", "IHDR"), "{:?}", i.warnings);
    let i = import(&glb_with_png(&tiny_png()[..20]), None, &o).unwrap();
    assert_eq!(i.scene.textures[0].image, None);
    assert!(warned(&i, "/images/0", "too short"), "{:?}", i.warnings);
}

#[cfg(all(feature = "textures", feature = "scene"))]
#[test]
fn converting_to_md2_decodes_each_skin_image_once_and_reports_one_that_fails() {
    use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    let options = ConvertOptions::default();
    let converter = Converter::new(&options);
    // A good PNG: the skin is that file, byte for byte.
    let good = tiny_png();
    let c = converter
        .convert(&glb_with_png(&good), "m.glb", OutputFormat::Md2, "m.md2")
        .unwrap();
    let files = c.files().unwrap();
    let skin = files.iter().find(|f| f.name.ends_with(".png")).unwrap();
    assert_eq!(skin.to_vec(), good);
    // A PNG broken after its header: the import keeps it unchecked, the
    // compiler fails to decode it and says so, and the model is written
    // without a skin image.
    let c = converter
        .convert(
            &glb_with_png(&png_broken_after_its_header()),
            "m.glb",
            OutputFormat::Md2,
            "m.md2",
        )
        .unwrap();
    let said: Vec<String> = c.warnings().iter().map(ToString::to_string).collect();
    assert!(
        said.iter().any(|w| w.contains("cannot be decoded")),
        "{said:?}"
    );
    let files = c.files().unwrap();
    assert!(files.iter().any(|f| f.name == "m.md2"));
    assert!(
        !files.iter().any(|f| f.name.ends_with(".png")),
        "no skin file"
    );
}
