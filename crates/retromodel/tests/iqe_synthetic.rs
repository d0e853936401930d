//! Hand-made IQE inputs with hand-worked answers, errors that name the
//! line, and damaged inputs that must fail cleanly.

use retromodel::iqm::iqe::Iqe;
use retromodel::iqm::Iqm;
use retromodel::Error;

fn compile(text: &str) -> Result<Iqm, Error> {
    Iqe::parse(text.as_bytes())?.to_iqm()
}

fn line_of(e: Error) -> Option<usize> {
    match e {
        Error::Iqe { line, .. } => line,
        other => panic!("not an IQE error: {other}"),
    }
}

const HEAD: &str = "# Inter-Quake Export\n";

#[test]
fn a_channel_is_quantised_over_its_frames() {
    // One joint whose x translation is 0, 1, 3 over three frames: offset
    // 0, scale 3/65535, values 0, 1·65535/3 + 0.5 → 21845, 65535. The
    // rest is constant: no mask bit, the value in the offset.
    let text = format!(
        "{HEAD}joint a\npq 0 0 0 0 0 0 1\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvb 0 1\nvb 0 1\nvb 0 1\nfm 0 1 2\n\
         animation go\nframerate 5\nloop\nframe\npq 0 2 0 0 0 0 1\nframe\npq 1 2 0 0 0 0 1\nframe\npq 3 2 0 0 0 0 1\n"
    );
    let m = compile(&text).unwrap();
    assert_eq!(m.poses.len(), 1);
    assert_eq!(m.poses[0].mask, 1);
    assert_eq!(m.poses[0].channel_offset[0], 0.0);
    assert_eq!(m.poses[0].channel_scale[0], 3.0 / 65535.0);
    assert_eq!(m.poses[0].channel_offset[1], 2.0);
    // pq flips a quaternion with w > 0: the identity is stored as w = −1.
    assert_eq!(m.poses[0].channel_offset[6], -1.0);
    assert_eq!(m.frames, vec![0, 21845, 65535]);
    assert_eq!(m.num_framechannels, 1);
    assert_eq!(m.anims[0].framerate, 5.0);
    assert!(m.anims[0].loops());
    // The triangle's x extent is 0..1 bound to the joint, moved by x.
    let b = m.bounds.as_ref().unwrap();
    assert_eq!(b.len(), 3);
    assert_eq!(b[2].min, [3.0, 2.0, 0.0]);
    assert_eq!(b[2].max, [4.0, 3.0, 0.0]);
}

#[test]
fn omitted_w_is_negative_and_polygons_fan() {
    let iqe = Iqe::parse(
        format!(
            "{HEAD}joint a\npq 1 2 3 0.6 0 0\nvp 0 0 0\nvp 1 0 0\nvp 1 1 0\nvp 0 1 0\nfm 0 1 2 3\n"
        )
        .as_bytes(),
    )
    .unwrap();
    assert_eq!(iqe.poses[0].rotate, [0.6, 0.0, 0.0, -0.8]);
    assert_eq!(iqe.poses[0].scale, [1.0; 3]);
    let tris: Vec<[u32; 3]> = iqe.triangles.iter().map(|t| t.vertices).collect();
    assert_eq!(tris, vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn equal_vertices_weld_and_degenerate_triangles_go() {
    // Six vp lines, two of them copies: four vertices; the triangle over
    // a copy and its original is degenerate and dropped.
    let text = format!(
        "{HEAD}mesh m\nmaterial x\nvp 0 0 0\nvp 1 0 0\nvp 1 1 0\nvp 0 0 0\nvp 1 1 0\nvp 0 1 0\n\
         fm 0 1 2\nfm 3 4 5\nfm 0 3 1\n"
    );
    let m = compile(&text).unwrap();
    assert_eq!(m.num_vertexes, 4);
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
    assert_eq!(m.name(m.meshes[0].material), "x");
    assert_eq!(
        m.adjacency,
        Some(vec![[u32::MAX, u32::MAX, 1], [0, u32::MAX, u32::MAX]])
    );
}

#[test]
fn fa_counts_from_the_file_and_fm_from_the_mesh() {
    let text = format!(
        "{HEAD}mesh a\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\nmesh b\nvp 5 0 0\nvp 6 0 0\nvp 5 1 0\nfm 0 1 2\nfa 3 4 1\nfm -3 -2 -1\n"
    );
    let iqe = Iqe::parse(text.as_bytes()).unwrap();
    let tris: Vec<[u32; 3]> = iqe.triangles.iter().map(|t| t.vertices).collect();
    assert_eq!(tris, vec![[0, 1, 2], [3, 4, 5], [3, 4, 1], [3, 4, 5]]);
    assert_eq!(iqe.meshes.len(), 2);
}

#[test]
fn the_comment_runs_to_the_end() {
    let m = compile(&format!("{HEAD}comment\nmade by hand\nvp 1 2 3\n")).unwrap();
    assert_eq!(m.comment, b"made by hand\nvp 1 2 3\n\0");
}

#[test]
fn errors_name_their_line() {
    assert_eq!(line_of(Iqe::parse(b"vp 0 0 0\n").unwrap_err()), Some(1));
    assert_eq!(line_of(Iqe::parse(b"").unwrap_err()), Some(1));
    let e = compile(&format!("{HEAD}vp 0 0 0\nvp 1 0 0\nvp 0 1 0\n\nfm 0 1 5\n")).unwrap_err();
    assert_eq!(line_of(e), Some(6));
    let e = Iqe::parse(format!("{HEAD}\nvb 300 1\n").as_bytes()).unwrap_err();
    assert_eq!(line_of(e), Some(3));
    let e = Iqe::parse(format!("{HEAD}vp nan 0 0\n").as_bytes()).unwrap_err();
    assert_eq!(line_of(e), Some(2));
    let e = compile(&format!("{HEAD}joint a 1\njoint b -1\n")).unwrap_err();
    assert_eq!(line_of(e), Some(2));
    let e = compile(&format!("{HEAD}vp 0 0 0\nvp 1 0 0\nvt 0 0\nfa 0 1 0\n")).unwrap_err();
    assert!(e.to_string().contains("vt"), "{e}");
    let e = compile(&format!("{HEAD}joint a\nvp 0 0 0\nvb 3 1\n")).unwrap_err();
    assert!(e.to_string().contains("joint 3"), "{e}");
    let e = Iqe::parse(format!("{HEAD}pm 0 0 0 0 0 0 0 0 0 0 0 0\n").as_bytes()).unwrap_err();
    assert_eq!(line_of(e), Some(2));
}

#[test]
fn too_many_frame_values_are_refused_before_allocating() {
    // 20000 joints × 400 one-pose frames × 10 channels is over the limit.
    let mut text = String::from(HEAD);
    text.push_str("vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n");
    for i in 0..20000 {
        text.push_str(&format!("joint j{i}\n"));
    }
    text.push_str("animation a\n");
    for _ in 0..400 {
        text.push_str("frame\npq 0 0 0 0 0 0\n");
    }
    let e = compile(&text).unwrap_err();
    assert!(e.to_string().contains("more than"), "{e}");
}

#[test]
fn damaged_models_fail_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/iqm_reference");
    let good = std::fs::read(dir.join("rig.iqe")).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for cut in (0..good.len()).step_by(97) {
        let _ = Iqe::parse(&good[..cut]).and_then(|i| i.to_iqm());
    }
    for _ in 0..300 {
        let mut bad = good.clone();
        for _ in 0..4 {
            let at = (next() % bad.len() as u64) as usize;
            bad[at] = b"0123456789- .\n\"ef#x"[(next() % 19) as usize];
        }
        let _ = Iqe::parse(&bad).and_then(|i| i.to_iqm());
    }
}

#[test]
fn iqe_is_detected_by_its_header_and_extension() {
    use retromodel::Format;
    assert_eq!(Format::detect(HEAD.as_bytes()).unwrap(), Format::Iqe);
    assert_eq!(
        Format::detect(b"  # Inter-Quake Export  \r\n").unwrap(),
        Format::Iqe
    );
    assert_eq!(Format::from_extension("IQE"), Some(Format::Iqe));
    let model = retromodel::Model::read_with(
        format!("{HEAD}vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n").as_bytes(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(model.format(), Format::Iqm);
}
