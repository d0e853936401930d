//! A small rigged model made by this crate itself: a bar of three boxes
//! along +x, one joint each (`root` → `elbow` → `wrist`), with rotation
//! and position keys, per-vertex weights and every 1.8 extra. It serves
//! the documentation, tests and the fuzzers' seeds.

use super::{
    Comment, Comments, Extras, Group, Joint, JointExtras, Key, Material, ModelComment, ModelExtras,
    Ms3d, Name128, Name32, Triangle, Vertex, VertexExtra, VertexExtras,
};

/// Corners of a box spanning `x0..x1` in x and −1..1 in y and z.
fn box_corners(x0: f32, x1: f32) -> [[f32; 3]; 8] {
    let mut out = [[0.0; 3]; 8];
    for (k, c) in out.iter_mut().enumerate() {
        *c = [
            if k & 1 == 0 { x0 } else { x1 },
            if k & 2 == 0 { -1.0 } else { 1.0 },
            if k & 4 == 0 { -1.0 } else { 1.0 },
        ];
    }
    out
}

/// The faces of a box as corner indices, counter-clockwise from outside,
/// with their outward normals.
const FACES: [([u16; 4], [f32; 3]); 6] = [
    ([0, 4, 6, 2], [-1.0, 0.0, 0.0]),
    ([1, 3, 7, 5], [1.0, 0.0, 0.0]),
    ([0, 1, 5, 4], [0.0, -1.0, 0.0]),
    ([2, 6, 7, 3], [0.0, 1.0, 0.0]),
    ([0, 2, 3, 1], [0.0, 0.0, -1.0]),
    ([4, 5, 7, 6], [0.0, 0.0, 1.0]),
];

fn key(time: f32, value: [f32; 3]) -> Key {
    Key { time, value }
}

/// Builds the sample model (version 4, 24 vertices, 36 triangles, 3
/// groups, 1 material, 3 joints, 30 frames at 10 fps, all extras with
/// vertex subversion 3).
///
/// ```
/// use retromodel::ms3d::sample::sample_model;
/// let m = sample_model();
/// assert_eq!((m.vertices.len(), m.triangles.len(), m.joints.len()), (24, 36, 3));
/// assert_eq!(m.model_comment().as_deref(), Some("wave:1-30"));
/// ```
pub fn sample_model() -> Ms3d {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let mut groups = Vec::new();
    let mut records = Vec::new();
    for part in 0..3u16 {
        let x0 = 4.0 * part as f32;
        for p in box_corners(x0, x0 + 4.0) {
            vertices.push(Vertex {
                flags: 0,
                position: p,
                bone_id: part as i8,
                reference_count: 0,
            });
            // The box's far end shares a quarter of its weight with the
            // next joint; the last box is fully its own.
            let far = p[0] > x0 + 2.0 && part < 2;
            records.push(VertexExtra {
                bone_ids: if far {
                    [part as i8 + 1, -1, -1]
                } else {
                    [-1, -1, -1]
                },
                weights: if far { [75, 25, 0] } else { [100, 0, 0] },
                extra: [0, 0],
            });
        }
        let base = 8 * part;
        let mut group_tris = Vec::new();
        for (face, normal) in FACES {
            for [a, b, c] in [[0, 1, 2], [0, 2, 3]] {
                group_tris.push(triangles.len() as u16);
                let corners = [face[a], face[b], face[c]];
                triangles.push(Triangle {
                    flags: 0,
                    vertices: corners.map(|k| base + k),
                    normals: [normal; 3],
                    s: [a, b, c].map(|k| if k == 1 || k == 2 { 1.0 } else { 0.0 }),
                    t: [a, b, c].map(|k| if k >= 2 { 1.0 } else { 0.0 }),
                    smoothing_group: 1,
                    group: part as u8,
                });
            }
        }
        groups.push(Group {
            flags: 0,
            name: Name32::new(["upper", "lower", "hand"][part as usize]),
            triangles: group_tris,
            material: 0,
        });
    }
    for v in &mut vertices {
        v.reference_count = 6;
    }
    let material = Material {
        name: Name32::new("skin"),
        ambient: [0.2, 0.2, 0.2, 1.0],
        diffuse: [0.8, 0.6, 0.4, 1.0],
        specular: [0.0, 0.0, 0.0, 1.0],
        emissive: [0.0, 0.0, 0.0, 1.0],
        shininess: 10.0,
        transparency: 1.0,
        mode: 0,
        texture: Name128::new(".\\skin.png"),
        alphamap: Name128::default(),
    };
    let quarter = std::f32::consts::FRAC_PI_2;
    let joints = vec![
        Joint {
            name: Name32::new("root"),
            rotation_keys: vec![key(0.1, [0.0; 3]), key(3.0, [0.0; 3])],
            position_keys: vec![key(0.1, [0.0; 3]), key(3.0, [0.0; 3])],
            ..Joint::default()
        },
        Joint {
            name: Name32::new("elbow"),
            parent: Name32::new("root"),
            position: [4.0, 0.0, 0.0],
            rotation_keys: vec![
                key(0.1, [0.0; 3]),
                key(1.0, [0.0, 0.0, quarter]),
                key(3.0, [0.0; 3]),
            ],
            position_keys: vec![
                key(0.1, [0.0; 3]),
                key(1.0, [0.0, 1.0, 0.0]),
                key(2.0, [0.0, 2.0, 0.0]),
                key(3.0, [0.0; 3]),
            ],
            ..Joint::default()
        },
        Joint {
            name: Name32::new("wrist"),
            parent: Name32::new("elbow"),
            rotation: [0.0, 0.0, 0.3],
            position: [4.0, 0.0, 0.0],
            rotation_keys: vec![key(0.1, [0.0; 3]), key(2.0, [quarter, 0.0, 0.0])],
            ..Joint::default()
        },
    ];
    let extras = Extras {
        comments: Some(Comments {
            subversion: 1,
            groups: vec![Comment {
                index: 2,
                text: b"the hand".to_vec(),
            }],
            materials: Vec::new(),
            joints: vec![Comment {
                index: 1,
                text: b"bends 90 degrees".to_vec(),
            }],
            model: ModelComment::LengthText(b"wave:1-30".to_vec()),
        }),
        vertices: Some(VertexExtras {
            subversion: 3,
            record_size: 14,
            records,
        }),
        joints: Some(JointExtras {
            subversion: 1,
            colors: vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        }),
        model: Some(ModelExtras {
            subversion: 1,
            joint_size: 0.5,
            transparency_mode: 0,
            alpha_ref: 0.5,
        }),
    };
    Ms3d {
        version: 4,
        vertices,
        triangles,
        groups,
        materials: vec![material],
        fps: 10.0,
        current_time: 1.0,
        total_frames: 30,
        joints,
        extras,
        trailing: Vec::new(),
    }
}
