//! A tiny hand-made IQM for examples and tests: one triangle skinned to
//! two joints, and a two-frame `wave` animation that turns the second
//! joint.

use super::{Anim, Iqm, Joint, Mesh, Pose, VertexArray, LOOP};

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The sample model: 3 vertices (position, texcoord, normal, blend
/// indexes and weights), 1 triangle, 2 joints (`root`, `arm`), 2 frames
/// in one looping animation, `wave`, at 10 fps.
///
/// ```
/// let model = retromodel::iqm::sample::sample_model();
/// assert_eq!(model.joints.len(), 2);
/// assert_eq!(model.num_frames, 2);
/// ```
pub fn sample_model() -> Iqm {
    let mut m = Iqm::default();
    let mesh_name = m.intern("body");
    let material = m.intern("skin.png");
    let root = m.intern("root");
    let arm = m.intern("arm");
    let wave = m.intern("wave");
    m.num_vertexes = 3;
    m.meshes = vec![Mesh {
        name: mesh_name,
        material,
        first_vertex: 0,
        num_vertexes: 3,
        first_triangle: 0,
        num_triangles: 1,
    }];
    let array = |kind: u32, format: u32, size: u32, data: Vec<u8>| VertexArray {
        kind,
        flags: 0,
        format,
        size,
        offset: 0,
        data,
    };
    m.vertex_arrays = vec![
        array(
            0,
            7,
            3,
            floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
        ),
        array(1, 7, 2, floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0])),
        array(
            2,
            7,
            3,
            floats(&[0.0, -1.0, 0.0, 0.0, -1.0, 0.0, 0.0, -1.0, 0.0]),
        ),
        array(4, 1, 4, vec![0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]),
        array(5, 1, 4, vec![255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0]),
    ];
    m.triangles = vec![[0, 1, 2]];
    m.joints = vec![
        Joint {
            name: root,
            parent: -1,
            translate: [0.0; 3],
            rotate: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
        },
        Joint {
            name: arm,
            parent: 0,
            translate: [0.0, 0.0, 0.5],
            rotate: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
        },
    ];
    // Root: constant. Arm: rotation z and w vary (a quarter turn about Z
    // in frame 1).
    let still = Pose {
        parent: -1,
        mask: 0,
        channel_offset: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
        channel_scale: [0.0; 10],
    };
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let mut turning = still;
    turning.parent = 0;
    turning.channel_offset[2] = 0.5;
    turning.mask = (1 << 5) | (1 << 6);
    turning.channel_offset[6] = half;
    turning.channel_scale[5] = half / 65535.0;
    turning.channel_scale[6] = (1.0 - half) / 65535.0;
    m.poses = vec![still, turning];
    m.num_frames = 2;
    m.num_framechannels = 2;
    m.frames = vec![0, 65535, 65535, 0];
    m.anims = vec![Anim {
        name: wave,
        first_frame: 0,
        num_frames: 2,
        framerate: 10.0,
        flags: LOOP,
    }];
    m
}
