//! `convert MODEL.iqm OUT --anim-file ANIMS.iqm`: raylib's guy with the
//! animations of its animation-only twin, guyanim.iqm. Checked from the
//! files' bytes (iqm.txt's layout, read here): the output holds the
//! guy's animations and then guyanim's, by name, and every added frame's
//! channels equal guyanim's own, decoded the same way.

use retromodel_testkit::cli::run_os;
use retromodel_testkit::corpus::corpus_dir;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn field(b: &[u8], k: usize) -> usize {
    u32_at(b, 16 + 4 * k) as usize
}

/// The animations: name, first frame, frame count.
fn anims(b: &[u8]) -> Vec<(String, usize, usize)> {
    let text = field(b, 4);
    (0..field(b, 17))
        .map(|i| {
            let at = field(b, 18) + 20 * i;
            let s = &b[text + u32_at(b, at) as usize..];
            let name =
                String::from_utf8_lossy(&s[..s.iter().position(|&c| c == 0).unwrap()]).into_owned();
            (name, u32_at(b, at + 4) as usize, u32_at(b, at + 8) as usize)
        })
        .collect()
}

/// Every frame's ten channels per pose.
fn frames(b: &[u8]) -> Vec<Vec<[f32; 10]>> {
    let (poses, ofs_poses, n, channels, ofs) = (
        field(b, 15),
        field(b, 16),
        field(b, 19),
        field(b, 20),
        field(b, 21),
    );
    (0..n)
        .map(|f| {
            let mut at = ofs + 2 * f * channels;
            (0..poses)
                .map(|p| {
                    let base = ofs_poses + 88 * p;
                    let mask = u32_at(b, base + 4);
                    let mut c = [0f32; 10];
                    for (k, slot) in c.iter_mut().enumerate() {
                        *slot = f32_at(b, base + 8 + 4 * k);
                        if mask & (1 << k) != 0 {
                            *slot += f32::from(u16::from_le_bytes([b[at], b[at + 1]]))
                                * f32_at(b, base + 48 + 4 * k);
                            at += 2;
                        }
                    }
                    c
                })
                .collect()
        })
        .collect()
}

#[test]
fn an_animation_only_iqm_plays_on_the_model_of_its_skeleton() {
    let Some(corpus) = corpus_dir() else { return };
    let bin = env!("CARGO_BIN_EXE_retromodel");
    let tmp = tempfile::tempdir().unwrap();
    let (guy, guyanim) = (
        corpus.join("iqm/raylib_guy.iqm"),
        corpus.join("iqm/raylib_guyanim.iqm"),
    );
    let out = tmp.path().join("both.iqm");
    let o = run_os(
        bin,
        &[
            std::ffi::OsStr::new("convert"),
            guy.as_os_str(),
            out.as_os_str(),
            "--anim-file".as_ref(),
            guyanim.as_os_str(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (source, extra, both) = (
        std::fs::read(&guy).unwrap(),
        std::fs::read(&guyanim).unwrap(),
        std::fs::read(&out).unwrap(),
    );
    let (a, b) = (anims(&source), anims(&extra));
    let n = field(&source, 19);
    let mut want = a.clone();
    want.extend(
        b.iter()
            .map(|(name, first, count)| (name.clone(), first + n, *count)),
    );
    assert_eq!(anims(&both), want);
    assert_eq!(field(&both, 19), n + field(&extra, 19));
    let (fb, fx) = (frames(&both), frames(&extra));
    for (f, (got, expect)) in fb[n..].iter().zip(&fx).enumerate() {
        for (p, (g, e)) in got.iter().zip(expect).enumerate() {
            for k in 0..10 {
                // Re-quantised over both files' ranges: within 2 steps of
                // the wider range.
                assert!(
                    (g[k] - e[k]).abs() < 2e-3,
                    "frame {f} pose {p} channel {k}: {} vs {}",
                    g[k],
                    e[k]
                );
            }
        }
    }
    // Anything but an IQM refuses the flag, naming it.
    let md2 = corpus.join("md2/assimpdeb_sydney.md2");
    let o = run_os(
        bin,
        &[
            std::ffi::OsStr::new("convert"),
            md2.as_os_str(),
            tmp.path().join("x.glb").as_os_str(),
            "--anim-file".as_ref(),
            guyanim.as_os_str(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--anim-file") && err.contains("Inter-Quake"),
        "{err}"
    );
    // A skeleton of other joints is refused, saying so.
    let mrfixit = corpus.join("iqm/lsalzman_mrfixit.iqm");
    let o = run_os(
        bin,
        &[
            std::ffi::OsStr::new("convert"),
            mrfixit.as_os_str(),
            tmp.path().join("y.iqm").as_os_str(),
            "--anim-file".as_ref(),
            guyanim.as_os_str(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("skeleton"), "{err}");
}
