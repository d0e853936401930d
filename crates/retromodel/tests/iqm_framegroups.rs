//! DarkPlaces' `.framegroups` on the corpus's `raylib_guy.iqm` (122
//! frames by `iqm/facts.json`: two animations of 61): a file written here
//! in the form of Xonotic's `models/player/erebus.iqm.framegroups`
//! (`start length fps loop // name`, 0-based), its groups replacing the
//! model's animations as DarkPlaces' `Mod_FrameGroupify` stores them, and
//! `Model::read_with` finding `raylib_guy.iqm.framegroups` beside the
//! model.

#![cfg(feature = "textures")]

use retromodel::iqm::{parse_framegroups, Iqm};
use retromodel::texture::MemorySource;
use retromodel::{Model, ReadContext, Severity};
use retromodel_testkit::corpus::corpus_dir;

/// In erebus's form: the trailing `// name` is a comment.
const GROUPS: &str = "0 61 24.000000 1 // jump\n61 61 30.000000 0 // dance\n";

fn guy() -> Option<Vec<u8>> {
    Some(std::fs::read(corpus_dir()?.join("iqm/raylib_guy.iqm")).unwrap())
}

#[test]
fn erebus_style_lines_parse_as_darkplaces_reads_them() {
    let (groups, problems) = parse_framegroups(GROUPS.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(groups.len(), 2);
    assert_eq!(
        (
            groups[0].first,
            groups[0].count,
            groups[0].fps,
            groups[0].looped
        ),
        (0, 61, 24.0, true)
    );
    assert_eq!(
        (
            groups[1].first,
            groups[1].count,
            groups[1].fps,
            groups[1].looped
        ),
        (61, 61, 30.0, false)
    );
    // `// dance` is a comment: the name is DarkPlaces' default.
    assert_eq!(groups[1].name, "groupified_1_anim");
    // Defaults: fps 20, loop on; a name token; /* */ comments; a line
    // without a length is skipped with a warning; extra tokens ignored.
    let (groups, problems) = parse_framegroups(b"/* all */ 5 10\n7\n1 2 15 0 \"run fast\" extra\n");
    assert_eq!(groups.len(), 2);
    assert_eq!((groups[0].fps, groups[0].looped), (20.0, true));
    assert_eq!(groups[1].name, "run fast");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "framegroups.line[2]");
    assert_eq!(problems[0].severity, Severity::Warning);
    // Garbage never fails.
    let (_, problems) = parse_framegroups(&[0xff, b'x', b'\n', b'"']);
    assert!(problems.iter().all(|p| p.severity == Severity::Warning));
}

#[test]
fn the_groups_replace_guys_animations() {
    let Some(bytes) = guy() else { return };
    let mut guy = Iqm::from_bytes(&bytes).unwrap();
    assert_eq!(guy.num_frames, 122);
    let problems = guy.apply_framegroups(GROUPS.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    let anims: Vec<_> = guy
        .anims
        .iter()
        .map(|a| {
            (
                guy.name(a.name),
                a.first_frame,
                a.num_frames,
                a.framerate,
                a.loops(),
            )
        })
        .collect();
    assert_eq!(
        anims,
        [
            ("groupified_0_anim".to_string(), 0, 61, 24.0, true),
            ("groupified_1_anim".to_string(), 61, 61, 30.0, false),
        ]
    );
    // A group past the 122 frames is bounded as DarkPlaces stores it
    // (first ≤ 121, length ≤ what is left), with a warning; fps ≥ 1.
    let problems = guy.apply_framegroups(b"100 40 0.5 1 long\n200 5 20 1 late\n");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(
        (
            guy.anims[0].first_frame,
            guy.anims[0].num_frames,
            guy.anims[0].framerate
        ),
        (100, 22, 1.0)
    );
    assert_eq!(
        (guy.anims[1].first_frame, guy.anims[1].num_frames),
        (121, 1)
    );
    // No group: the file is ignored, the animations stay.
    let before = guy.anims.clone();
    let problems = guy.apply_framegroups(b"// nothing\n");
    assert_eq!(problems.len(), 1);
    assert_eq!(guy.anims, before);
}

#[test]
fn reading_finds_the_framegroups_beside_the_model() {
    let Some(bytes) = guy() else { return };
    let read = |groups: &str| {
        let mut source = MemorySource::new();
        source
            .add("raylib_guy.iqm.framegroups", groups.as_bytes().to_vec())
            .unwrap();
        let context = ReadContext {
            file_name: "raylib_guy.iqm",
            resources: Some(&source),
        };
        match Model::read_with(&bytes, &context).unwrap() {
            Model::Iqm(m) => m.anims.iter().map(|a| m.name(a.name)).collect::<Vec<_>>(),
            other => panic!("{:?}", other.format()),
        }
    };
    assert_eq!(read(GROUPS), ["groupified_0_anim", "groupified_1_anim"]);
    // One that draws a warning is left out: the file's own animations.
    assert_eq!(read("0 61 24 1 jump\n61\n"), ["jump", "dance"]);
    assert_eq!(read("0 400 24 1 all\n"), ["jump", "dance"]);
}
