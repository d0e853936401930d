//! Checks of the glTF importer (feature `export`: the library's `gltf`):
//!
//! - [`assert_round_trip`]: a scene exported by our exporter and imported
//!   again is the same scene (the exporter's extra nodes aside), compared
//!   field by field and by posing both with `Pose` at many times;
//! - [`exercise_import`]: what the `gltf_import` fuzz target runs on any
//!   bytes: an import that succeeds gives a scene that poses, exports and
//!   imports again.
//!
//! Every check panics on failure.

use retromodel::gltf::{import, to_glb, ImportOptions};
use retromodel::scene::{Pose, Scene};

/// How close two posed scenes must be.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// Positions, as a fraction of the scene's extent.
    pub position: f32,
    /// Normal components (unit vectors).
    pub normal: f32,
}

impl Tolerance {
    /// Float exports: the same floats.
    pub const EXACT: Tolerance = Tolerance {
        position: 1e-6,
        normal: 1e-6,
    };
    /// `KHR_mesh_quantization`: positions on a grid of 1/16383 of half the
    /// extent (half a step of error per component, plus float rounding),
    /// normal displacements as normalised bytes (1/254 per component,
    /// more after renormalising).
    pub const QUANTIZED: Tolerance = Tolerance {
        position: 1.0 / 16383.0,
        normal: 0.02,
    };
}

/// Which export of a scene is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Floats: everything exact.
    Plain,
    /// `GltfOptions::quantize`: morphed meshes on a grid.
    Quantized,
    /// Quantized and `EXT_meshopt_compression` (lossless, but triangles
    /// may come back rotated).
    QuantizedCompressed,
}

/// Each triangle rotated to start at its smallest index (same winding).
pub fn canonical_triangles(indices: &[u32]) -> Vec<u32> {
    let mut out = indices.to_vec();
    for t in out.chunks_exact_mut(3) {
        let rotations = [[t[0], t[1], t[2]], [t[1], t[2], t[0]], [t[2], t[0], t[1]]];
        let smallest = rotations
            .iter()
            .min()
            .copied()
            .unwrap_or([t[0], t[1], t[2]]);
        t.copy_from_slice(&smallest);
    }
    out
}

/// Asserts that two lists are equal, naming the first difference (not
/// printing thousands of elements).
#[track_caller]
pub fn assert_same_list<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T], what: &str) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: element {i} is {:?}, expected {:?}",
            got[i], want[i]
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: lengths");
}

/// The largest extent of the base positions of every mesh.
fn extent(scene: &Scene) -> f32 {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for m in &scene.meshes {
        for p in &m.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
    }
    (0..3)
        .map(|k| hi[k] - lo[k])
        .fold(0.0f32, f32::max)
        .max(1e-6)
}

/// The meshes the exporter writes (those with vertices and triangles), in
/// order: the imported scene has one mesh for each.
fn written_meshes(scene: &Scene) -> Vec<usize> {
    (0..scene.meshes.len())
        .filter(|&i| !scene.meshes[i].positions.is_empty() && !scene.meshes[i].indices.is_empty())
        .collect()
}

/// Posed vertices of `mesh`.
fn posed(pose: &Pose, scene: &Scene, mesh: usize) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let n = scene.meshes[mesh].positions.len();
    let mut p = vec![[0.0; 3]; n];
    let mut q = vec![[0.0; 3]; n];
    pose.mesh_vertices(scene, mesh, &mut p, &mut q);
    (p, q)
}

/// Asserts that `imported` (our export of `original`, imported) is
/// `original`: the same nodes (first, in order; the exporter's mesh nodes
/// and `skeleton_root` after them), meshes (exact with
/// `exact_meshes`, else as posed), morph target names, skins, materials,
/// texture PNG bytes, animations (channel for channel) and extras, and the
/// same posed vertices in the rest pose and at 25 times of every
/// animation. `what` names the case in messages.
pub fn assert_round_trip(original: &Scene, imported: &Scene, variant: Variant, what: &str) {
    let (tolerance, exact_meshes) = match variant {
        Variant::Plain => (Tolerance::EXACT, true),
        Variant::Quantized | Variant::QuantizedCompressed => (Tolerance::QUANTIZED, false),
    };
    assert_eq!(imported.name, original.name, "{what}: scene name");
    assert_eq!(imported.extras, original.extras, "{what}: scene extras");
    // Nodes: the original's first, exactly.
    assert!(
        imported.nodes.len() >= original.nodes.len(),
        "{what}: nodes"
    );
    for (i, (a, b)) in original.nodes.iter().zip(&imported.nodes).enumerate() {
        // A root may have been gathered under a `skeleton_root` (identity)
        // by the exporter.
        let gathered = a.parent.is_none()
            && b.parent.is_some_and(|p| {
                p >= original.nodes.len()
                    && imported.nodes[p].name == "skeleton_root"
                    && imported.nodes[p].parent.is_none()
                    && imported.nodes[p].translation == [0.0; 3]
                    && imported.nodes[p].rotation == [0.0, 0.0, 0.0, 1.0]
                    && imported.nodes[p].scale == [1.0; 3]
            });
        let b = retromodel::scene::Node {
            parent: if gathered { None } else { b.parent },
            ..b.clone()
        };
        assert_eq!(a, &b, "{what}: node {i}");
    }
    let written = written_meshes(original);
    assert_eq!(imported.meshes.len(), written.len(), "{what}: mesh count");
    // The exporter's own nodes: one per mesh, and skeleton roots.
    for (i, node) in imported.nodes.iter().enumerate().skip(original.nodes.len()) {
        let places_a_mesh = imported.meshes.iter().any(|m| m.node == Some(i));
        // A scene with nothing to draw gets one empty node.
        let placeholder =
            written.is_empty() && original.nodes.is_empty() && node.name == original.name;
        assert!(
            places_a_mesh || node.name == "skeleton_root" || placeholder,
            "{what}: extra node {i} {:?} is neither a mesh's node nor skeleton_root",
            node.name
        );
    }
    // Meshes.
    for (j, &i) in written.iter().enumerate() {
        let (a, b) = (&original.meshes[i], &imported.meshes[j]);
        let w = format!("{what}: mesh {i} ({:?})", a.name);
        assert_eq!(b.name, a.name, "{w}: name");
        if variant == Variant::QuantizedCompressed {
            // meshoptimizer's index codec may rotate a triangle (keeping
            // its winding).
            assert_same_list(
                &canonical_triangles(&b.indices),
                &canonical_triangles(&a.indices),
                &format!("{w}: triangles"),
            );
        } else {
            assert_same_list(&b.indices, &a.indices, &format!("{w}: indices"));
        }
        assert_eq!(b.extras, a.extras, "{w}: extras");
        assert_eq!(b.morph_targets.len(), a.morph_targets.len(), "{w}: targets");
        for (t, (x, y)) in a.morph_targets.iter().zip(&b.morph_targets).enumerate() {
            assert_eq!(y.name, x.name, "{w}: target {t} name");
        }
        let weights = |m: &retromodel::scene::Mesh| {
            let mut v = vec![0.0; m.morph_targets.len()];
            for (o, x) in v.iter_mut().zip(&m.morph_weights) {
                *o = *x;
            }
            v
        };
        assert_eq!(weights(b), weights(a), "{w}: default weights");
        assert_same_list(&b.uvs, &a.uvs, &format!("{w}: uvs"));
        if exact_meshes {
            assert_same_list(&b.positions, &a.positions, &format!("{w}: positions"));
            assert_same_list(&b.normals, &a.normals, &format!("{w}: normals"));
            for (t, (x, y)) in a.morph_targets.iter().zip(&b.morph_targets).enumerate() {
                assert_same_list(
                    &y.positions,
                    &x.positions,
                    &format!("{w}: target {t} positions"),
                );
                assert_same_list(&y.normals, &x.normals, &format!("{w}: target {t} normals"));
            }
        } else {
            assert_eq!(b.normals.len(), a.normals.len(), "{w}: normals");
        }
        match (&a.skin, &b.skin) {
            (None, None) => {}
            (Some(x), Some(y)) => {
                // Every set of four influences (JOINTS_0/WEIGHTS_0, …).
                assert_eq!(y.more.len(), x.more.len(), "{w}: influence sets");
                for (set, ((xj, xw), (yj, yw))) in x.sets().zip(y.sets()).enumerate() {
                    assert_same_list(yj, xj, &format!("{w}: joints (set {set})"));
                    assert_eq!(xw.len(), yw.len(), "{w}: weights (set {set})");
                    for (k, (p, q)) in xw.iter().zip(yw).enumerate() {
                        for c in 0..4 {
                            assert!(
                                (p[c] - q[c]).abs() <= 1e-5,
                                "{w}: vertex {k} weights (set {set}) {p:?} vs {q:?}"
                            );
                        }
                    }
                }
                assert_eq!(
                    imported.skins[y.skin].joints, original.skins[x.skin].joints,
                    "{w}: skin joints"
                );
                assert_eq!(
                    imported.skins[y.skin].inverse_bind_matrices,
                    original.skins[x.skin].inverse_bind_matrices,
                    "{w}: inverse bind matrices"
                );
                assert_eq!(imported.skins[y.skin].extras, original.skins[x.skin].extras);
                assert_eq!(imported.skins[y.skin].name, original.skins[x.skin].name);
            }
            _ => panic!("{w}: skinned in one scene only"),
        }
        // Materials and their textures' images.
        let (ma, mb) = (
            a.material.map(|m| &original.materials[m]),
            b.material.map(|m| &imported.materials[m]),
        );
        if let (Some(ma), Some(mb)) = (ma, mb) {
            assert_eq!(mb.name, ma.name, "{w}: material name");
            assert_eq!(mb.base_color, ma.base_color, "{w}: base colour");
            assert_eq!(mb.alpha_mode, ma.alpha_mode, "{w}: alpha mode");
            assert_eq!(mb.emissive, ma.emissive, "{w}: emissive");
            assert_eq!(mb.metallic, ma.metallic, "{w}: metallic");
            assert_eq!(mb.roughness, ma.roughness, "{w}: roughness");
            assert_eq!(mb.double_sided, ma.double_sided, "{w}: double sided");
            assert_eq!(mb.extras, ma.extras, "{w}: material extras");
            let png_a = ma
                .texture
                .map(|t| &original.textures[t])
                .filter(|t| t.has_image());
            let png_b = mb.texture.map(|t| &imported.textures[t]);
            match (png_a, png_b) {
                (None, None) => {}
                (Some(x), Some(y)) => {
                    // The PNG the export wrote (pixels encoded as the
                    // exporter encodes them) is the PNG imported back.
                    let png = |t: &retromodel::scene::Texture| {
                        t.image.as_ref().map(|i| i.to_png().unwrap().into_owned())
                    };
                    assert!(png(x) == png(y), "{w}: texture PNG bytes differ");
                    assert!(
                        matches!(y.image, Some(retromodel::scene::TextureImage::Png(_))),
                        "{w}: an exported PNG imports as it is"
                    );
                    assert_eq!(y.path, x.path, "{w}: texture path");
                }
                (x, y) => panic!(
                    "{w}: texture {:?} vs {:?}",
                    x.map(|t| &t.path),
                    y.map(|t| &t.path)
                ),
            }
        } else {
            assert!(ma.is_none() || mb.is_some(), "{w}: material lost");
        }
    }
    // Every material, in order (the exporter writes them all).
    assert!(
        imported.materials.len() >= original.materials.len(),
        "{what}: materials"
    );
    for (k, (a, b)) in original
        .materials
        .iter()
        .zip(&imported.materials)
        .enumerate()
    {
        assert_eq!(b.name, a.name, "{what}: material {k}");
        assert_eq!(b.extras, a.extras, "{what}: material {k} extras");
    }
    // Animations, channel for channel, targets mapped (the exporter
    // leaves out channels of meshes it does not write, and animations
    // left with none).
    let map_target = |t: retromodel::scene::Target| match t {
        retromodel::scene::Target::MorphWeights { mesh } => written
            .iter()
            .position(|&i| i == mesh)
            .map(|mesh| retromodel::scene::Target::MorphWeights { mesh }),
        other => Some(other),
    };
    let mut animations = Vec::new();
    for (k, a) in original.animations.iter().enumerate() {
        let channels: Vec<_> = a
            .channels
            .iter()
            .filter_map(|c| Some((c, map_target(c.target)?)))
            .collect();
        if channels.is_empty() {
            continue;
        }
        let kb = animations.len();
        animations.push((k, kb));
        let b = imported
            .animations
            .get(kb)
            .unwrap_or_else(|| panic!("{what}: animation {k} missing"));
        assert_eq!(b.name, a.name, "{what}: animation {k} name");
        assert_eq!(b.extras, a.extras, "{what}: animation {k} extras");
        assert_eq!(
            b.channels.len(),
            channels.len(),
            "{what}: animation {k} channels"
        );
        for (c, ((x, mapped), y)) in channels.iter().zip(&b.channels).enumerate() {
            assert_eq!(
                y.target, *mapped,
                "{what}: animation {k} channel {c} target"
            );
            assert_eq!(
                y.interpolation, x.interpolation,
                "{what}: animation {k} channel {c}"
            );
            assert_same_list(
                &y.times,
                &x.times,
                &format!("{what}: animation {k} channel {c} times"),
            );
            assert_same_list(
                &y.values,
                &x.values,
                &format!("{what}: animation {k} channel {c} values"),
            );
        }
    }
    assert_eq!(
        imported.animations.len(),
        animations.len(),
        "{what}: animations"
    );
    if exact_meshes {
        assert_same_poses(original, imported, &written, &animations, tolerance, what);
    } else {
        // The exporter clamps quantized normal displacements to ±1 per
        // component (GltfOptions::quantize says so): compare with the
        // original so clamped.
        let mut clamped = original.clone();
        for m in &mut clamped.meshes {
            for t in &mut m.morph_targets {
                for n in &mut t.normals {
                    *n = n.map(|x| x.clamp(-1.0, 1.0));
                }
            }
        }
        assert_same_poses(&clamped, imported, &written, &animations, tolerance, what);
    }
}

/// Poses both scenes in the rest pose and at 25 times across (and past)
/// every animation and compares every written mesh's vertices.
fn assert_same_poses(
    original: &Scene,
    imported: &Scene,
    written: &[usize],
    animations: &[(usize, usize)],
    tolerance: Tolerance,
    what: &str,
) {
    let size = extent(original);
    let mut pa = Pose::new(original).expect("the original poses");
    let mut pb = Pose::new(imported).expect("the imported scene poses");
    let mut cases: Vec<(Option<(usize, usize)>, f32)> = vec![(None, 0.0)];
    for &(k, kb) in animations {
        let d = original.animations[k].duration();
        for s in 0..25 {
            cases.push((Some((k, kb)), d * s as f32 / 22.0 - 0.01));
        }
    }
    let mut worst = (0.0f32, 0.0f32);
    for (anim, t) in cases {
        match anim {
            None => {
                pa.reset(original);
                pb.reset(imported);
            }
            Some((k, kb)) => {
                pa.sample(original, k, t);
                pb.sample(imported, kb, t);
            }
        }
        for (j, &i) in written.iter().enumerate() {
            let (p, n) = posed(&pa, original, i);
            let (q, m) = posed(&pb, imported, j);
            let raw = raw_normal_lengths(&pa, original, i);
            for v in 0..p.len() {
                for c in 0..3 {
                    let dp = (p[v][c] - q[v][c]).abs();
                    worst.0 = worst.0.max(dp / size);
                    assert!(
                        dp <= tolerance.position * size + 1e-6 * p[v][c].abs(),
                        "{what}: mesh {i} vertex {v} at {anim:?}/{t}: {:?} vs {:?} (extent {size})",
                        p[v],
                        q[v]
                    );
                    if !original.meshes[i].normals.is_empty() {
                        // A blended normal is renormalised: the shorter
                        // it was, the more a small error turns it.
                        let dn = (n[v][c] - m[v][c]).abs() * raw[v].min(1.0);
                        worst.1 = worst.1.max(dn);
                        assert!(
                            dn <= tolerance.normal,
                            "{what}: mesh {i} normal {v} at {anim:?}/{t}: {:?} vs {:?}",
                            n[v],
                            m[v]
                        );
                    }
                }
            }
        }
    }
}

/// The length of each vertex's morphed normal before it is renormalised
/// (1 for meshes without normal targets).
fn raw_normal_lengths(pose: &Pose, scene: &Scene, mesh: usize) -> Vec<f32> {
    let m = &scene.meshes[mesh];
    let mut n: Vec<[f32; 3]> = m.normals.clone();
    n.resize(m.positions.len(), [0.0; 3]);
    let mut blended = false;
    for (t, &w) in m.morph_targets.iter().zip(pose.morph_weights(mesh)) {
        if w == 0.0 || t.normals.is_empty() {
            continue;
        }
        blended = true;
        for (o, d) in n.iter_mut().zip(&t.normals) {
            for k in 0..3 {
                o[k] += w * d[k];
            }
        }
    }
    n.iter()
        .map(|v| {
            if blended {
                (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
            } else {
                1.0
            }
        })
        .collect()
}

/// Small limits, so that a fuzzed document cannot make the import take
/// more than some hundreds of megabytes.
pub fn fuzz_options() -> ImportOptions {
    let mut o = ImportOptions::default();
    o.max_json_bytes = 8 << 20;
    o.max_data_uri_bytes = 16 << 20;
    o.max_buffer_bytes = 64 << 20;
    o.max_output_bytes = 64 << 20;
    o.max_image_side = 2048;
    o.max_image_bytes = 16 << 20;
    o
}

/// Imports `data` (no resources); when that succeeds, the scene is
/// consistent: it poses at several times of every animation, and it
/// exports and imports again with the same meshes. Returns whether the
/// import succeeded.
pub fn exercise_import(data: &[u8]) -> bool {
    let Ok(imported) = import(data, None, &fuzz_options()) else {
        return false;
    };
    let scene = imported.scene;
    for w in &imported.warnings {
        assert!(
            w.path.is_empty()
                || w.path.starts_with('/')
                || w.path.starts_with("GLB")
                || w.path == "document",
            "warning path {:?}",
            w.path
        );
    }
    for m in &scene.meshes {
        let n = m.positions.len();
        assert!(
            m.indices.iter().all(|&i| (i as usize) < n),
            "index out of range"
        );
        assert!(m.indices.len() % 3 == 0, "whole triangles");
        assert!(m.normals.is_empty() || m.normals.len() == n);
        assert!(m.uvs.is_empty() || m.uvs.len() == n);
        assert!(m.material.is_none_or(|x| x < scene.materials.len()));
        assert!(m.node.is_none_or(|x| x < scene.nodes.len()));
        for t in &m.morph_targets {
            assert_eq!(t.positions.len(), n);
            assert!(t.normals.is_empty() || t.normals.len() == n);
        }
        if let Some(s) = &m.skin {
            assert!(s.skin < scene.skins.len());
            assert_eq!(s.joints.len(), n);
            assert_eq!(s.weights.len(), n);
            assert!(s.fits(n), "every set of influences has {n} entries");
        }
    }
    let mut pose = Pose::new(&scene).expect("an imported scene has a valid hierarchy");
    for (k, a) in scene.animations.iter().enumerate() {
        for t in [0.0, a.duration() / 2.0, a.duration()] {
            pose.sample(&scene, k, t);
            for m in 0..scene.meshes.len() {
                let _ = posed(&pose, &scene, m);
            }
        }
    }
    let glb = to_glb(&scene).expect("an imported scene exports");
    let again = import(&glb, None, &ImportOptions::default()).expect("its export imports");
    assert_eq!(
        again.scene.meshes.len(),
        written_meshes(&scene).len(),
        "meshes after a second round"
    );
    true
}
