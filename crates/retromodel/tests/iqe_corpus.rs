//! The corpus's IQM files written as IQE (`Iqm::to_iqe`) and compiled
//! back (`Iqe::to_iqm`), checked against the original file's own decoded
//! data: joints, every pose at every frame (within the 16-bit
//! quantisation of both files), animations, and each mesh's triangles
//! corner by corner (position, texture coordinate, normal, blend), and
//! the tangents of every corner in a mesh where no vertex was welded.

use retromodel::iqm::iqe::Iqe;
use retromodel::iqm::{ArrayKind, Iqm};
use retromodel::{Format, Model};
use retromodel_testkit::corpus::corpus_dir;

/// A corner's attributes as exact bits (blend pairs sorted by joint).
/// Not the tangent: the reference welds vertices equal in everything
/// else (`sharedvert`'s comparison leaves tangents out), keeping the
/// first one's tangent, and so do we.
fn corner(m: &Iqm, v: u32, tangent: bool) -> Vec<u64> {
    let v = v as usize;
    let mut k = Vec::new();
    let kinds = [
        ArrayKind::Position,
        ArrayKind::Texcoord,
        ArrayKind::Normal,
        ArrayKind::Tangent,
    ];
    for kind in &kinds[..if tangent { 4 } else { 3 }] {
        let kind = *kind;
        if let Some(a) = m.array(kind) {
            let c = a.vertex4(v, false);
            k.extend(c[..a.size as usize].iter().map(|x| (x + 0.0).to_bits()));
        }
    }
    if let (Some(ix), Some(wt)) = (
        m.array(ArrayKind::BlendIndexes),
        m.array(ArrayKind::BlendWeights),
    ) {
        let (ix, wt) = (ix.vertex4(v, false), wt.vertex4(v, false));
        let mut pairs: Vec<(u64, u64)> = (0..4)
            .filter(|&k| wt[k] > 0.0)
            .map(|k| (ix[k] as u64, wt[k] as u64))
            .collect();
        pairs.sort();
        k.extend(pairs.into_iter().flat_map(|(j, w)| [j, w]));
    }
    k
}

#[test]
fn corpus_iqm_survive_iqe() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let dir = dir.join("iqm");
    for name in [
        "lsalzman_mrfixit.iqm",
        "raylib_guy.iqm",
        "raylib_guyanim.iqm",
    ] {
        let original = Iqm::from_bytes(&std::fs::read(dir.join(name)).unwrap()).unwrap();
        let text = original.to_iqe();
        assert_eq!(Format::detect(text.as_bytes()).unwrap(), Format::Iqe);
        let back = match Model::read_with(text.as_bytes(), &Default::default()) {
            Ok(Model::Iqm(m)) => m,
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(back, Iqe::parse(text.as_bytes()).unwrap().to_iqm().unwrap());
        assert!(back.validate().is_empty(), "{name}: {:?}", back.validate());

        // Joints.
        assert_eq!(back.joints.len(), original.joints.len(), "{name}");
        for (a, b) in back.joints.iter().zip(&original.joints) {
            assert_eq!(back.name(a.name), original.name(b.name));
            assert_eq!(a.parent, b.parent);
            assert_eq!(a.translate, b.translate);
            assert_eq!(a.scale, b.scale);
            let sign = if b.rotate[3] > 0.0 { -1.0 } else { 1.0 };
            assert_eq!(a.rotate, b.rotate.map(|c| c * sign), "{name}");
        }

        // Animations and every pose at every frame.
        assert_eq!(back.anims.len(), original.anims.len());
        for (a, b) in back.anims.iter().zip(&original.anims) {
            assert_eq!(back.name(a.name), original.name(b.name));
            assert_eq!(
                (a.first_frame, a.num_frames, a.framerate, a.flags),
                (b.first_frame, b.num_frames, b.framerate, b.flags)
            );
        }
        assert_eq!(back.num_frames, original.num_frames);
        assert_eq!(back.poses.len(), original.poses.len());
        let mut worst = 0.0f32;
        for f in 0..original.num_frames as usize {
            let (a, b) = (back.frame_pose(f).unwrap(), original.frame_pose(f).unwrap());
            for (p, ((x, y), (pa, pb))) in a
                .locals
                .iter()
                .zip(&b.locals)
                .zip(back.poses.iter().zip(&original.poses))
                .enumerate()
            {
                assert_eq!(pa.parent, pb.parent);
                let (cx, cy) = (x.channels(), y.channels());
                let dot: f32 = (3..7).map(|k| cx[k] * cy[k]).sum();
                let sign = if dot < 0.0 { -1.0 } else { 1.0 };
                for k in 0..10 {
                    let theirs = if (3..7).contains(&k) {
                        cy[k] * sign
                    } else {
                        cy[k]
                    };
                    let step = pa.channel_scale[k] + pb.channel_scale[k];
                    let d = (cx[k] - theirs).abs();
                    worst = worst.max(d);
                    assert!(
                        d <= step + 1e-6 * (1.0 + theirs.abs()),
                        "{name} frame {f} pose {p} channel {k}: {} vs {theirs}",
                        cx[k]
                    );
                }
            }
        }
        eprintln!(
            "{name}: poses within {worst} over {} frames",
            original.num_frames
        );

        // Meshes and their triangles, corner by corner.
        assert_eq!(back.meshes.len(), original.meshes.len(), "{name}");
        for (a, b) in back.meshes.iter().zip(&original.meshes) {
            assert_eq!(back.name(a.name), original.name(b.name));
            assert_eq!(back.name(a.material), original.name(b.material));
            // Both compilers order triangles for the vertex cache (the
            // original maybe from other input): compare them as sorted
            // lists, with tangents where no vertex was welded.
            let tangent = a.num_vertexes == b.num_vertexes;
            let tris = |m: &Iqm, mesh: &retromodel::iqm::Mesh| -> Vec<[Vec<u64>; 3]> {
                let first = mesh.first_triangle as usize;
                let mut t: Vec<[Vec<u64>; 3]> = m.triangles
                    [first..first + mesh.num_triangles as usize]
                    .iter()
                    .map(|t| t.map(|v| corner(m, v, tangent)))
                    // Welding makes a triangle with two equal corners
                    // degenerate: compilers drop those.
                    .filter(|c| c[0] != c[1] && c[1] != c[2] && c[2] != c[0])
                    .collect();
                t.sort();
                t
            };
            let (ours, theirs) = (tris(&back, a), tris(&original, b));
            assert_eq!(ours.len(), theirs.len(), "{name}");
            if let Some(i) = (0..ours.len()).find(|&i| ours[i] != theirs[i]) {
                panic!("{name}: triangle {i}: {:?} vs {:?}", ours[i], theirs[i]);
            }
            assert!(a.num_vertexes <= b.num_vertexes);
        }
        eprintln!(
            "{name}: {} vertices → {}, {} triangles → {}",
            original.num_vertexes,
            back.num_vertexes,
            original.triangles.len(),
            back.triangles.len()
        );
    }
}
