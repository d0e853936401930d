//! `validate --engine q2pro` against Q2PRO's model memory, at its limits
//! and one past, on models built byte by byte here.
//!
//! The sizes are Q2PRO's (skullernet/q2pro `src/refresh/models.c`,
//! `MOD_LoadMD2` and `MOD_AllocMesh`; caps in `src/refresh/gl.h`), worked
//! out by hand for the models below: every allocation rounded up to 64
//! bytes (`Hunk_TryAlloc`); the mesh record 56 bytes, 52 a frame, 8 a
//! vertex a frame, 8 a vertex of texture coordinates, 2 an index. The
//! CPU-lerp path holds it all in 8 MiB (`MOD_MAXSIZE_CPU`), the GPU-lerp
//! path the vertex data in 16 MiB (`MOD_MAXSIZE_GPU`).

use retromodel::md2::{Engine, Md2};
use retromodel::Severity;
use retromodel_testkit::md2_builder::Md2Builder;

/// A fan of `v` vertices (`v - 2` triangles, each vertex its own texture
/// coordinate, so Q2PRO builds `v` vertices) over `f` frames, no skin.
fn fan(v: usize, f: usize) -> Md2 {
    let st: Vec<(i16, i16)> = (0..v).map(|i| ((i % 64) as i16, (i / 64) as i16)).collect();
    let tris: Vec<([u16; 3], [u16; 3])> = (1..v - 1)
        .map(|i| {
            let t = [0, i as u16, i as u16 + 1];
            (t, t)
        })
        .collect();
    let mut frame = vec![0u8; 40 + 4 * v];
    frame[..12].copy_from_slice(&[0, 0, 128, 63, 0, 0, 128, 63, 0, 0, 128, 63]);
    for (i, vert) in frame[40..].chunks_exact_mut(4).enumerate() {
        vert.copy_from_slice(&[(i % 256) as u8, (i / 256) as u8, 0, 0]);
    }
    let mut b = Md2Builder::new();
    b.vertices(v as i32)
        .texcoords(&st)
        .triangles(&tris)
        .frames(&vec![frame; f])
        .gl_commands(&[0])
        .standard();
    Md2::from_bytes(&b.build()).unwrap()
}

/// The problems `validate --engine q2pro` finds on the frame count.
fn memory_problems(model: &Md2) -> Vec<(Severity, String)> {
    model
        .validate_for(Engine::Q2pro)
        .into_iter()
        .filter(|p| p.path == "header.num_frames")
        .map(|p| (p.severity, p.message))
        .collect()
}

#[test]
fn past_the_cpu_hunk_only_the_gpu_renderer_loads_it() {
    // 1024 vertices, 1022 triangles: 64 + 52F (aligned) + 8192F + 8192 +
    // 6144 (6132 aligned). 1015 frames: 8 382 080 bytes, within 8 MiB
    // (8 388 608); 1016 frames: 8 390 336, over.
    assert!(memory_problems(&fan(1024, 1015)).is_empty());
    let p = memory_problems(&fan(1024, 1016));
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, Severity::Warning);
    assert!(p[0].1.contains("gl_shaders 0"), "{}", p[0].1);
}

#[test]
fn past_the_gpu_vertex_hunk_no_renderer_loads_it() {
    // 1024 frames: 8 × 2046 × 1024 + 8 × 2046 (16 368, aligned 16 384) =
    // 16 777 216 bytes, exactly 16 MiB; 2047 vertices: 16 785 408, over.
    let at = memory_problems(&fan(2046, 1024));
    assert!(at.iter().all(|(s, _)| *s == Severity::Warning), "{at:?}");
    let past = memory_problems(&fan(2047, 1024));
    assert_eq!(past.len(), 1, "{past:?}");
    assert_eq!(past[0].0, Severity::Error);
    assert!(past[0].1.contains("every renderer"), "{}", past[0].1);
}
