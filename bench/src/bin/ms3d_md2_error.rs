//! MS3D → MD2 error against MilkShape's own skinning (`ms3d::Skeleton` +
//! `Influences`), for retromodel's compiler and for an MD2 another tool
//! made from the same file (Maverick Model 3D: `mm3d --batch --convert md2
//! FILE`), side by side:
//!
//!   ms3d_md2_error MODEL.ms3d [OTHER.md2] [FPS]
//!
//! Ours: compiled at FPS (default 10; Woman4's 2133 frames need 5 to fit
//! any engine's frame limit); each frame is compared vertex by vertex
//! (through `Compiled::vertex_map`) with the skinning at its time, in
//! Quake units (the scene's axes mapped as the compiler maps them).
//! Other: each of its frames is compared with the skinning at the time
//! its frame number gives at the model's fps, as a point set (largest
//! distance from a skinned vertex to the nearest MD2 vertex, under the
//! best of the 48 axis permutations and signs, since another tool may map
//! axes otherwise), which can only flatter it.

use glam::Mat4;
use retromodel::md2::compile::{compile, CompileOptions, Engine, SkinFormat};
use retromodel::md2::Md2;
use retromodel::ms3d::Ms3dSceneOptions;
use retromodel::ms3d::{GroupMesh, Influences, Ms3d, Skeleton};
use retromodel::scene::Scene;

fn skinned(model: &Ms3d, skeleton: &Skeleton, influences: &Influences, t: f32) -> Vec<[f32; 3]> {
    let mut joints = vec![Mat4::IDENTITY; skeleton.joint_count()];
    skeleton.pose_at_time(t, &mut joints);
    skeleton.skinning_matrices(&mut joints);
    let mut out = vec![[0.0; 3]; model.vertices.len()];
    influences.skin_positions(model, &joints, &mut out);
    out
}

/// Scene (MilkShape) axes to Quake's, as the compiler maps them.
fn quake(v: [f32; 3]) -> [f32; 3] {
    [v[2], v[0], v[1]]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: ms3d_md2_error MODEL.ms3d [OTHER.md2]");
        std::process::exit(2);
    };
    let model = Ms3d::from_bytes(&std::fs::read(path).expect("read")).expect("an MS3D");
    let skeleton = Skeleton::new(&model).expect("a skeleton");
    let influences = Influences::new(&model);
    let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default()).expect("a scene");
    let groups = GroupMesh::build_all(&model);
    let mut options = CompileOptions::default();
    if let Some(fps) = args.get(2).and_then(|f| f.parse().ok()) {
        options.fps = fps;
    }
    options.skin.format = SkinFormat::Png;
    let compiled = Engine::MD2
        .iter()
        .find_map(|&engine| {
            compile(
                &scene,
                &CompileOptions {
                    engine,
                    ..options.clone()
                },
            )
            .ok()
        })
        .expect("compiles for some engine");
    let m = &compiled.model;
    let (mut worst, mut worst_steps) = (0.0f32, 0.0f32);
    for a in &compiled.report.animations {
        for (j, &t) in a.times.iter().enumerate() {
            let f = &m.frames[a.first_frame + j];
            let want = skinned(&model, &skeleton, &influences, t);
            for (g, map) in groups.iter().zip(&compiled.vertex_map) {
                for (i, v) in map.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let got = f.position(*v as usize).expect("a vertex");
                    let w = quake(want[g.source_vertices[i] as usize]);
                    for k in 0..3 {
                        let e = (got[k] - w[k]).abs();
                        worst = worst.max(e);
                        if f.scale[k] > 0.0 {
                            worst_steps = worst_steps.max(e / f.scale[k]);
                        }
                    }
                }
            }
        }
    }
    let frames: usize = compiled.report.animations.iter().map(|a| a.frames).sum();
    let extent = {
        let p = skinned(&model, &skeleton, &influences, 0.0);
        (0..3)
            .map(|k| {
                let (lo, hi) = p
                    .iter()
                    .fold((f32::MAX, f32::MIN), |(l, h), q| (l.min(q[k]), h.max(q[k])));
                hi - lo
            })
            .fold(0.0f32, f32::max)
    };
    println!(
        "{path}: extent {extent:.3}; ours: {frames} frames, {} vertices, largest error {worst:.5} ({:.2e} of extent, {worst_steps:.3} grid steps)",
        m.vertex_count(),
        worst / extent
    );
    let Some(other) = args.get(1).filter(|o| o.as_str() != "-") else {
        return;
    };
    let o = Md2::from_bytes(&std::fs::read(other).expect("read")).expect("an MD2");
    let fps = model.effective_fps();
    let mut permutations = Vec::new();
    for perm in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        for signs in 0..8u8 {
            permutations.push((perm, signs));
        }
    }
    let apply = |(perm, signs): ([usize; 3], u8), v: [f32; 3]| -> [f32; 3] {
        std::array::from_fn(|k| {
            let x = v[perm[k]];
            if signs & (1 << k) != 0 {
                -x
            } else {
                x
            }
        })
    };
    let frame0: Vec<[f32; 3]> = (0..o.vertex_count())
        .filter_map(|v| o.frames[0].position(v))
        .collect();
    let hausdorff = |md2: &[[f32; 3]], want: &[[f32; 3]], p| {
        want.iter()
            .map(|&w| {
                let w = apply(p, w);
                md2.iter()
                    .map(|q| (0..3).map(|k| (q[k] - w[k]).abs()).fold(0.0f32, f32::max))
                    .fold(f32::MAX, f32::min)
            })
            .fold(0.0f32, f32::max)
    };
    let rest = skinned(&model, &skeleton, &influences, 0.0);
    let best = *permutations
        .iter()
        .min_by(|a, b| hausdorff(&frame0, &rest, **a).total_cmp(&hausdorff(&frame0, &rest, **b)))
        .expect("permutations");
    let mut other_worst = 0.0f32;
    for (k, f) in o.frames.iter().enumerate() {
        let md2: Vec<[f32; 3]> = (0..o.vertex_count())
            .filter_map(|v| f.position(v))
            .collect();
        let want = skinned(&model, &skeleton, &influences, k as f32 / fps);
        other_worst = other_worst.max(hausdorff(&md2, &want, best));
    }
    // What the whole animation asks of a tool that keeps only frames it
    // made: the skinning at our frame times against its nearest frame.
    let mut animation_worst = 0.0f32;
    for a in &compiled.report.animations {
        for &t in &a.times {
            let want = skinned(&model, &skeleton, &influences, t);
            let nearest = ((t * fps).round() as usize).min(o.frames.len() - 1);
            let md2: Vec<[f32; 3]> = (0..o.vertex_count())
                .filter_map(|v| o.frames[nearest].position(v))
                .collect();
            animation_worst = animation_worst.max(hausdorff(&md2, &want, best));
        }
    }
    println!(
        "{other}: {} frames, {} vertices; its frames against the skinning at their times: {other_worst:.5} ({:.2e} of extent); the animation at our {frames} frame times: {animation_worst:.5} ({:.2e} of extent)",
        o.frames.len(),
        o.vertex_count(),
        other_worst / extent,
        animation_worst / extent
    );
}
