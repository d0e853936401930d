//! Hand-made MD2 files (built byte by byte with the testkit's `Md2Builder`,
//! not with the library's writer): odd layouts, odd names, faults `validate`
//! must report at the right path and byte offset, animations from frame
//! names, and decoding checked against values worked out by hand.

use std::collections::HashSet;

use retromodel::md2::gl_commands::GlFault;
use retromodel::md2::{Layout, Md2, MeshVertex, RenderMesh};
use retromodel::{Problem, Severity};
use retromodel_testkit::md2_builder::{
    frame_record, le_i32, name16, skin_record, Field, Md2Builder, Sec, PLAYER_TABLE,
};

// ---------------------------------------------------------------------------
// A small model with every section filled.
// ---------------------------------------------------------------------------

const SKINS: [&[u8]; 2] = [b"models/a/skin.pcx", b"models/a/other.pcx"];
const TEXCOORDS: [(i16, i16); 5] = [(0, 0), (63, 0), (63, 63), (0, 63), (-4, 70)];
const TRIANGLES: [([u16; 3], [u16; 3]); 3] = [
    ([0, 1, 2], [0, 1, 2]),
    ([0, 2, 3], [0, 2, 3]),
    ([1, 3, 2], [4, 3, 2]),
];
const NUM_VERTICES: usize = 4;

/// A frame's scale, translate, raw name and packed vertices.
type FrameSpec = ([f32; 3], [f32; 3], [u8; 16], [[u8; 4]; NUM_VERTICES]);

/// The three frames of the base model.
fn frames() -> Vec<FrameSpec> {
    vec![
        (
            [0.5, 0.25, 2.0],
            [-10.0, 3.5, 100.0],
            name16(b"stand01"),
            [
                [0, 0, 0, 5],
                [255, 1, 128, 0],
                [10, 20, 30, 155],
                [1, 2, 3, 161],
            ],
        ),
        (
            [1.0, 1.0, 1.0],
            [0.0, 0.0, 0.0],
            name16(b"stand02"),
            [
                [10, 10, 10, 0],
                [20, 20, 20, 5],
                [30, 30, 30, 5],
                [40, 40, 40, 3],
            ],
        ),
        (
            [2.0, 2.0, 2.0],
            [100.0, 100.0, 100.0],
            name16(b"run1"),
            [[10, 10, 10, 5], [0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2]],
        ),
    ]
}

fn frame_records(padding: &[u8]) -> Vec<Vec<u8>> {
    frames()
        .iter()
        .map(|(s, t, n, v)| frame_record(*s, *t, *n, v, padding))
        .collect()
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A fan over vertices 0, 1, 2 and a strip over 0, 2, 3, terminated.
fn gl_words() -> Vec<u32> {
    vec![
        (-3i32) as u32,
        f(0.0),
        f(0.0),
        0,
        f(1.0),
        f(0.0),
        1,
        f(1.0),
        f(1.0),
        2,
        3,
        f(0.0),
        f(0.0),
        0,
        f(1.0),
        f(1.0),
        2,
        f(0.0),
        f(1.0),
        3,
        0,
    ]
}

/// The model with its contents set but no section placed.
fn base() -> Md2Builder {
    let mut b = Md2Builder::new();
    b.vertices(NUM_VERTICES as i32)
        .skins(&SKINS)
        .texcoords(&TEXCOORDS)
        .triangles(&TRIANGLES)
        .frames(&frame_records(&[]))
        .gl_commands(&gl_words());
    b
}

fn parse(bytes: &[u8]) -> Md2 {
    Md2::from_bytes(bytes).unwrap_or_else(|e| panic!("does not parse: {e}"))
}

/// Asserts that `m` holds exactly the base model's contents.
fn assert_base_contents(m: &Md2) {
    assert_eq!(m.skin_width, 64);
    assert_eq!(m.skin_height, 64);
    let skins: Vec<[u8; 64]> = m.skins.iter().map(|s| s.0).collect();
    assert_eq!(skins, SKINS.map(skin_record));
    let st: Vec<(i16, i16)> = m.texcoords.iter().map(|t| (t.s, t.t)).collect();
    assert_eq!(st, TEXCOORDS);
    let tris: Vec<([u16; 3], [u16; 3])> = m
        .triangles
        .iter()
        .map(|t| (t.vertices, t.texcoords))
        .collect();
    assert_eq!(tris, TRIANGLES);
    assert_eq!(m.vertex_count(), NUM_VERTICES);
    assert_eq!(m.frames.len(), 3);
    for (frame, (scale, translate, name, vertices)) in m.frames.iter().zip(frames()) {
        assert_eq!(frame.scale, scale);
        assert_eq!(frame.translate, translate);
        assert_eq!(frame.name.0, name);
        let packed: Vec<[u8; 4]> = frame
            .vertices
            .iter()
            .map(|v| [v.position[0], v.position[1], v.position[2], v.normal_index])
            .collect();
        assert_eq!(packed, vertices);
        assert!(frame.padding.is_empty());
    }
    assert_eq!(m.gl_commands, gl_words());
    assert!(m.trailing.is_empty());
}

/// The section bytes of `file` by its own header (read by hand): skins,
/// texcoords, triangles, frames, GL commands.
fn sections_of(file: &[u8]) -> Vec<Vec<u8>> {
    let count = |field: Field| le_i32(file, field.offset()) as usize;
    let frame_size = count(Field::FrameSize);
    Sec::STANDARD
        .iter()
        .map(|&sec| {
            let size = match sec {
                Sec::Skins => 64,
                Sec::TexCoords => 4,
                Sec::Triangles => 12,
                Sec::Frames => frame_size,
                Sec::GlCommands => 4,
            };
            let len = count(sec.count_field()) * size;
            if len == 0 {
                return Vec::new();
            }
            let ofs = count(sec.offset_field());
            file[ofs..ofs + len].to_vec()
        })
        .collect()
}

fn without_source(m: &Md2) -> Md2 {
    Md2 {
        source: None,
        ..m.clone()
    }
}

// ---------------------------------------------------------------------------
// Layouts.
// ---------------------------------------------------------------------------

#[test]
fn the_base_model_is_valid_and_standard() {
    let mut b = base();
    b.standard();
    let bytes = b.build();
    let m = parse(&bytes);
    assert_base_contents(&m);
    assert_eq!(m.validate(), Vec::<Problem>::new());
    assert_eq!(m.to_bytes().unwrap(), bytes);
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), bytes);
}

#[test]
fn sections_in_unusual_orders() {
    use Sec::*;
    let orders: [[Sec; 5]; 4] = [
        [Frames, Skins, TexCoords, Triangles, GlCommands],
        [GlCommands, Skins, TexCoords, Triangles, Frames],
        [GlCommands, Frames, Triangles, TexCoords, Skins],
        [Triangles, GlCommands, Frames, Skins, TexCoords],
    ];
    for order in orders {
        let mut b = base();
        b.layout(&order, &[]);
        let bytes = b.build();
        let m = parse(&bytes);
        assert_base_contents(&m);
        assert_eq!(m.validate(), Vec::<Problem>::new(), "{order:?}");
        assert_eq!(
            m.to_bytes_with(Layout::Original).unwrap(),
            bytes,
            "{order:?}"
        );

        // The standard writer moves the sections into the standard order,
        // each with the same bytes.
        let out = m.to_bytes().unwrap();
        assert_eq!(out.len(), bytes.len(), "{order:?}");
        assert_eq!(sections_of(&out), sections_of(&bytes), "{order:?}");
        let mut pos = 68;
        for sec in Sec::STANDARD {
            assert_eq!(le_i32(&out, sec.offset_field().offset()), pos, "{order:?}");
            pos += sections_of(&out)[sec as usize].len() as i32;
        }
        assert_eq!(le_i32(&out, Field::OfsEnd.offset()), pos);
        assert_eq!(without_source(&parse(&out)), without_source(&m));
    }
}

#[test]
fn zero_skins_and_zero_gl_commands() {
    let mut b = base();
    b.skins(&[]).gl_commands(&[]).standard();
    let bytes = b.build();
    assert_eq!(le_i32(&bytes, Field::OfsTexCoords.offset()), 68);
    let m = parse(&bytes);
    assert!(m.skins.is_empty());
    assert!(m.gl_commands.is_empty());
    assert_eq!(m.texcoords.len(), TEXCOORDS.len());
    assert_eq!(m.to_bytes().unwrap(), bytes);
    // No GL commands: one warning, about that, with no offset.
    let problems = m.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].severity, Severity::Warning);
    assert_eq!(problems[0].path, "gl_commands");
    assert_eq!(problems[0].offset, None);
}

#[test]
fn an_empty_section_may_point_anywhere() {
    for ofs in [0, 10, 67, 1_000_000, i32::MAX, -1, -68, i32::MIN] {
        let mut b = base();
        b.skins(&[]).standard().set(Field::OfsSkins, ofs);
        let bytes = b.build();
        let m = parse(&bytes);
        assert!(m.skins.is_empty(), "ofs_skins {ofs}");
        assert_eq!(m.frames.len(), 3);
        // Original keeps the odd offset; Standard puts the section at 68.
        assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), bytes);
        let out = m.to_bytes().unwrap();
        assert_eq!(le_i32(&out, Field::OfsSkins.offset()), 68);
        assert_eq!(out[..44], bytes[..44]);
        assert_eq!(out[48..], bytes[48..]);
    }
    // The same for empty GL commands put first and for no frames at all.
    let mut b = base();
    b.gl_commands(&[])
        .layout(
            &[Sec::Skins, Sec::TexCoords, Sec::Triangles, Sec::Frames],
            &[],
        )
        .set(Field::OfsGlCommands, -7);
    let bytes = b.build();
    assert_eq!(
        parse(&bytes).to_bytes_with(Layout::Original).unwrap(),
        bytes
    );
}

#[test]
fn skin_name_of_64_bytes_without_nul() {
    let long: Vec<u8> = (0..64).map(|i| b'a' + (i % 26) as u8).collect();
    // A second name with garbage after its NUL.
    let mut stale = skin_record(b"short.pcx");
    stale[20..27].copy_from_slice(b"garbage");
    let mut b = base();
    b.content(Sec::Skins, 2, [long.clone(), stale.to_vec()].concat())
        .standard();
    let bytes = b.build();
    let m = parse(&bytes);
    assert!(m.skins[0].is_unterminated());
    assert_eq!(m.skins[0].as_bytes(), &long[..]);
    assert_eq!(
        m.skins[0].to_string_lossy(),
        String::from_utf8(long).unwrap()
    );
    assert_eq!(m.skins[1].to_string_lossy(), "short.pcx");
    assert_eq!(m.skins[1].0, stale);
    assert_eq!(m.to_bytes().unwrap(), bytes);
}

#[test]
fn frame_names_keep_bytes_after_the_nul() {
    let raw: [u8; 16] = *b"run1\0\xab\xcdstale!!\0\x01";
    let mut records = frame_records(&[]);
    records[1][24..40].copy_from_slice(&raw);
    let mut b = base();
    b.frames(&records).standard();
    let bytes = b.build();
    let m = parse(&bytes);
    assert_eq!(m.frames[1].name(), "run1");
    assert_eq!(m.frames[1].name.0, raw);
    let out = m.to_bytes().unwrap();
    assert_eq!(out, bytes);
    let ofs = le_i32(&out, Field::OfsFrames.offset()) as usize;
    let frame_size = le_i32(&out, Field::FrameSize.offset()) as usize;
    assert_eq!(out[ofs + frame_size + 24..ofs + frame_size + 40], raw);
}

#[test]
fn trailing_bytes_after_ofs_end_are_kept() {
    let mut b = base();
    b.standard();
    let end = b.get(Field::OfsEnd) as usize;
    b.bytes_at(end, b"TRAILER\x00\xff junk");
    let bytes = b.build();
    let m = parse(&bytes);
    assert_eq!(m.trailing, b"TRAILER\x00\xff junk");
    assert_eq!(m.to_bytes().unwrap(), bytes);
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), bytes);
    assert!(m.validate().is_empty(), "{:?}", m.validate());
}

#[test]
fn gaps_between_sections_are_reproduced_by_original_layout() {
    let mut b = base();
    b.fill = 0xEE;
    b.layout(
        &[
            Sec::GlCommands,
            Sec::Skins,
            Sec::TexCoords,
            Sec::Frames,
            Sec::Triangles,
        ],
        &[3, 0, 7, 13, 1],
    );
    let ofs_frames = b.offset_of(Sec::Frames);
    b.bytes_at(ofs_frames - 13, b"gap content");
    let bytes = b.build();
    assert_eq!(&bytes[68..71], [0xEE; 3]);
    let m = parse(&bytes);
    assert_base_contents(&m);
    assert_eq!(m.to_bytes_with(Layout::Original).unwrap(), bytes);
    // The standard layout drops the 24 gap bytes and keeps every section.
    let out = m.to_bytes().unwrap();
    assert_eq!(out.len(), bytes.len() - 24);
    assert_eq!(sections_of(&out), sections_of(&bytes));
}

#[test]
fn frame_size_larger_than_needed_keeps_the_padding() {
    let padding = [1u8, 2, 3, 4, 0, 0xff, 7, 9];
    let mut b = base();
    b.frames(&frame_records(&padding)).standard();
    assert_eq!(b.get(Field::FrameSize), 40 + 4 * 4 + 8);
    let bytes = b.build();
    let m = parse(&bytes);
    for frame in &m.frames {
        assert_eq!(frame.padding, padding);
        assert_eq!(frame.vertices.len(), NUM_VERTICES);
    }
    assert_eq!(m.frames[2].name(), "run1");
    assert_eq!(m.to_bytes().unwrap(), bytes);
    let problems = m.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "header.frame_size");
    assert_eq!(problems[0].offset, Some(16));
}

// ---------------------------------------------------------------------------
// Animations from frame names.
// ---------------------------------------------------------------------------

/// A model whose frames carry `names` (one vertex each).
fn named_frames(names: &[String]) -> Md2 {
    let records: Vec<Vec<u8>> = names
        .iter()
        .map(|n| {
            frame_record(
                [1.0; 3],
                [0.0; 3],
                name16(n.as_bytes()),
                &[[0, 0, 0, 0]],
                &[],
            )
        })
        .collect();
    let mut b = Md2Builder::new();
    b.vertices(1).frames(&records).standard();
    parse(&b.build())
}

fn summary(m: &Md2) -> Vec<(String, usize, usize)> {
    m.animations()
        .into_iter()
        .map(|a| (a.name, a.first_frame, a.frame_count))
        .collect()
}

/// Frame names as id's tools wrote them: `stand01`..`stand40`, `run1`..,
/// `pain101`..`pain104`, `pain201`.., `death301`..`death308`.
fn qdata_names(count: usize) -> Vec<String> {
    let mut names = Vec::new();
    for &(anim, _, n) in &PLAYER_TABLE {
        for k in 1..=n {
            let name = match anim {
                "pain1" | "pain2" | "pain3" | "death1" | "death2" | "death3" => {
                    format!("{anim}{k:02}")
                }
                _ if n >= 10 => format!("{anim}{k:02}"),
                _ => format!("{anim}{k}"),
            };
            names.push(name);
        }
    }
    assert_eq!(names.len(), 198);
    assert_eq!(names[54], "pain101");
    assert_eq!(names[197], "death308");
    names.truncate(count);
    names
}

fn table(entries: usize) -> Vec<(String, usize, usize)> {
    PLAYER_TABLE[..entries]
        .iter()
        .map(|&(n, a, c)| (n.to_string(), a, c))
        .collect()
}

#[test]
fn player_table_is_recognised_from_names() {
    let m = named_frames(&qdata_names(198));
    assert_eq!(summary(&m), table(20));
}

#[test]
fn weapon_table_is_recognised_from_names() {
    let m = named_frames(&qdata_names(173));
    let anims = summary(&m);
    assert_eq!(anims, table(16));
    assert_eq!(anims[15], ("crpain".to_string(), 169, 4));
}

#[test]
fn names_that_break_the_table_fall_back_to_runs() {
    // "stand" running one frame into "run": no longer the table.
    let mut names = qdata_names(198);
    names[40] = "stand41".to_string();
    let anims = summary(&named_frames(&names));
    assert_ne!(anims, table(20));
    assert_eq!(anims[0], ("stand".to_string(), 0, 41));
    assert_eq!(anims[1], ("run".to_string(), 41, 5));
}

#[test]
fn pain101_and_pain201_give_pain1_and_pain2() {
    let names: Vec<String> = [
        "stand01", "stand02", "stand03", "pain101", "pain102", "pain103", "pain104", "pain201",
        "pain202", "pain203",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(
        summary(&named_frames(&names)),
        [
            ("stand".to_string(), 0, 3),
            ("pain1".to_string(), 3, 4),
            ("pain2".to_string(), 7, 3)
        ]
    );
}

// ---------------------------------------------------------------------------
// Faults at their paths and offsets.
// ---------------------------------------------------------------------------

fn warnings(m: &Md2) -> Vec<Problem> {
    let problems = m.validate();
    assert!(
        problems.iter().all(|p| p.severity == Severity::Warning),
        "{problems:?}"
    );
    problems
}

#[test]
fn normal_index_162_and_above_is_a_warning_at_its_byte() {
    let mut b = base();
    // Frames away from the header, after a gap, to make offsets non-trivial.
    b.layout(
        &[
            Sec::Skins,
            Sec::GlCommands,
            Sec::Frames,
            Sec::TexCoords,
            Sec::Triangles,
        ],
        &[0, 0, 20],
    );
    let ofs_frames = b.offset_of(Sec::Frames);
    let frame_size = b.get(Field::FrameSize) as usize;
    assert_eq!(frame_size, 56);
    let at = |frame: usize, vertex: usize| ofs_frames + frame * frame_size + 40 + 4 * vertex + 3;
    b.bytes_at(at(0, 2), &[162])
        .bytes_at(at(1, 3), &[200])
        .bytes_at(at(2, 0), &[255]);
    let bytes = b.build();
    let m = parse(&bytes);
    let got: Vec<(String, String, Option<u64>)> = warnings(&m)
        .into_iter()
        .map(|p| (p.path, p.message, p.offset))
        .collect();
    let want = |frame: usize, vertex: usize, value: u8| {
        (
            format!("frames[{frame}].vertices[{vertex}].normal_index"),
            format!("normal index {value} out of range 0..162"),
            Some(at(frame, vertex) as u64),
        )
    };
    assert_eq!(got, [want(0, 2, 162), want(1, 3, 200), want(2, 0, 255)]);
    // The offsets really point at those bytes.
    for (_, _, ofs) in &got {
        assert!(bytes[ofs.unwrap() as usize] >= 162);
    }
    // 161 is the last valid index: frame 0 vertex 3 holds it, unreported.
    assert_eq!(bytes[at(0, 3)], 161);
}

#[test]
fn triangle_indices_out_of_range_are_warnings_at_their_bytes() {
    let mut tris = TRIANGLES;
    tris[1].0[2] = 4; // vertex index == num_vertices
    tris[2].1[0] = 0xffff; // texcoord index
    let mut b = base();
    b.triangles(&tris).layout(
        &[
            Sec::Frames,
            Sec::Triangles,
            Sec::Skins,
            Sec::TexCoords,
            Sec::GlCommands,
        ],
        &[0, 5],
    );
    let ofs = b.offset_of(Sec::Triangles);
    let bytes = b.build();
    let m = parse(&bytes);
    let got: Vec<(String, String, Option<u64>)> = warnings(&m)
        .into_iter()
        .map(|p| (p.path, p.message, p.offset))
        .collect();
    assert_eq!(
        got,
        [
            (
                "triangles[1].vertices[2]".to_string(),
                "vertex index 4 out of range 0..4".to_string(),
                Some((ofs + 12 + 4) as u64)
            ),
            (
                "triangles[2].texcoords[0]".to_string(),
                "texcoord index 65535 out of range 0..5".to_string(),
                Some((ofs + 24 + 6) as u64)
            ),
        ]
    );
    assert_eq!(u16::from_le_bytes([bytes[ofs + 16], bytes[ofs + 17]]), 4);
    assert_eq!(
        u16::from_le_bytes([bytes[ofs + 30], bytes[ofs + 31]]),
        0xffff
    );
    // The render mesh leaves both bad triangles out.
    assert_eq!(RenderMesh::new(&m).indices.len(), 3);
}

fn gl_model(words: &[u32]) -> (Md2, usize) {
    let mut b = base();
    b.gl_commands(words).layout(
        &[
            Sec::Skins,
            Sec::TexCoords,
            Sec::GlCommands,
            Sec::Triangles,
            Sec::Frames,
        ],
        &[0, 0, 4],
    );
    let ofs = b.offset_of(Sec::GlCommands);
    (parse(&b.build()), ofs)
}

#[test]
fn gl_commands_without_terminator() {
    let mut words = gl_words();
    assert_eq!(words.pop(), Some(0));
    let (m, _) = gl_model(&words);
    let d = m.decode_gl_commands();
    assert!(!d.terminated);
    assert_eq!(d.primitives.len(), 2);
    assert_eq!(d.faults, [GlFault::Unterminated]);
    let problems = warnings(&m);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "gl_commands");
    assert_eq!(problems[0].message, "the list has no terminating 0");
}

#[test]
fn gl_command_count_running_past_the_end() {
    // The fan (10 words), then a strip promising 5 vertices with only 4
    // words after its count.
    let mut words = gl_words()[..10].to_vec();
    words.extend_from_slice(&[5, f(0.5), f(0.5), 1]);
    let (m, ofs) = gl_model(&words);
    let d = m.decode_gl_commands();
    assert_eq!(d.primitives.len(), 1);
    assert!(d.faults.contains(&GlFault::Truncated {
        command: 1,
        word: 10
    }));
    let truncated: Vec<Problem> = warnings(&m)
        .into_iter()
        .filter(|p| p.path == "gl_commands[1]")
        .collect();
    assert_eq!(truncated.len(), 1);
    assert_eq!(truncated[0].offset, Some((ofs + 40) as u64));
    assert_eq!(
        truncated[0].message,
        "the command has more vertices than words remain"
    );
}

#[test]
fn gl_command_vertex_index_out_of_range() {
    let mut words = gl_words();
    // Command 0, vertex 1: its index is word 1 + 3 × 1 + 2 = 6.
    assert_eq!(words[6], 1);
    words[6] = 9;
    // Command 1 (count at word 10), vertex 2: word 10 + 1 + 6 + 2 = 19.
    assert_eq!(words[19], 3);
    words[19] = (-1i32) as u32;
    let (m, ofs) = gl_model(&words);
    let got: Vec<(String, String, Option<u64>)> = warnings(&m)
        .into_iter()
        .map(|p| (p.path, p.message, p.offset))
        .collect();
    assert_eq!(
        got,
        [
            (
                "gl_commands[0].vertices[1].index".to_string(),
                "vertex index 9 out of range 0..4".to_string(),
                Some((ofs + 24) as u64)
            ),
            (
                "gl_commands[1].vertices[2].index".to_string(),
                "vertex index -1 out of range 0..4".to_string(),
                Some((ofs + 76) as u64)
            ),
        ]
    );
}

// ---------------------------------------------------------------------------
// Decoding, interpolation and the render mesh, against values worked out
// by hand.
// ---------------------------------------------------------------------------

/// Entries of id's `anorms.h`, copied from the Quake II source.
const ANORM_0: [f32; 3] = [-0.525731, 0.000000, 0.850651];
const ANORM_5: [f32; 3] = [0.000000, 0.000000, 1.000000];
const ANORM_155: [f32; 3] = [-0.850651, 0.000000, -0.525731];
const ANORM_161: [f32; 3] = [-0.688191, -0.587785, -0.425325];

fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= tol)
}

fn standard_base() -> Md2 {
    let mut b = base();
    b.standard();
    parse(&b.build())
}

/// The base model with frame 1 vertex 3's normal index set to 200.
fn standard_base_with_bad_normal() -> Md2 {
    let mut b = base();
    b.standard();
    let at = b.offset_of(Sec::Frames) + 56 + 40 + 4 * 3 + 3;
    b.bytes_at(at, &[200]);
    let m = parse(&b.build());
    assert_eq!(m.frames[1].vertices[3].normal_index, 200);
    m
}

#[test]
fn positions_decode_as_byte_times_scale_plus_translate() {
    let m = standard_base();
    let mut p = vec![[0.0; 3]; NUM_VERTICES];
    m.frames[0].decode_positions(&mut p);
    // Frame 0: scale (0.5, 0.25, 2), translate (−10, 3.5, 100).
    //   [0, 0, 0]      → (−10, 3.5, 100)
    //   [255, 1, 128]  → (117.5, 3.75, 356)
    //   [10, 20, 30]   → (−5, 8.5, 160)
    //   [1, 2, 3]      → (−9.5, 4, 106)
    // (all exact in binary, so compared exactly)
    assert_eq!(
        p,
        [
            [-10.0, 3.5, 100.0],
            [117.5, 3.75, 356.0],
            [-5.0, 8.5, 160.0],
            [-9.5, 4.0, 106.0]
        ]
    );
    assert_eq!(m.frames[0].position(1), Some([117.5, 3.75, 356.0]));
    assert_eq!(m.frames[0].position(4), None);
    m.frames[2].decode_positions(&mut p);
    // Frame 2: scale 2, translate 100: [10, 10, 10] → 120.
    assert_eq!(p[0], [120.0; 3]);
    assert_eq!(p[1], [100.0; 3]);
}

#[test]
fn normals_decode_from_the_162_entry_table() {
    let m = standard_base_with_bad_normal();
    let mut n = vec![[9.0; 3]; NUM_VERTICES];
    m.frames[0].decode_normals(&mut n);
    // Frame 0 normal indices: 5, 0, 155, 161.
    for (got, want) in n.iter().zip([ANORM_5, ANORM_0, ANORM_155, ANORM_161]) {
        assert!(close(*got, want, 1e-6), "{got:?} vs {want:?}");
    }
    // Frame 1 vertex 3 has index 200: the zero vector.
    m.frames[1].decode_normals(&mut n);
    assert_eq!(n[3], [0.0; 3]);
}

fn normalize(v: [f64; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [
        (v[0] / len) as f32,
        (v[1] / len) as f32,
        (v[2] / len) as f32,
    ]
}

fn lerp_normal(a: [f32; 3], b: [f32; 3], t: f64) -> [f32; 3] {
    normalize([0, 1, 2].map(|k| a[k] as f64 + (b[k] as f64 - a[k] as f64) * t))
}

#[test]
fn interpolation_at_0_half_and_1() {
    let m = standard_base_with_bad_normal();
    let (mut p, mut n) = (vec![[0.0; 3]; NUM_VERTICES], vec![[0.0; 3]; NUM_VERTICES]);

    // Frames 1 → 2: scale 1 / translate 0 versus scale 2 / translate 100.
    assert!(m.interpolate(1, 2, 0.0, &mut p, &mut n));
    assert_eq!(p, [[10.0; 3], [20.0; 3], [30.0; 3], [40.0; 3]]);
    assert!(close(n[0], ANORM_0, 1e-6));
    assert!(close(n[1], ANORM_5, 1e-6));
    assert_eq!(n[3], [0.0; 3], "index 200 has no normal");

    assert!(m.interpolate(1, 2, 1.0, &mut p, &mut n));
    assert_eq!(p, [[120.0; 3], [100.0; 3], [102.0; 3], [104.0; 3]]);
    assert!(close(n[0], ANORM_5, 1e-6));
    assert!(close(n[1], ANORM_0, 1e-6));

    // Halfway: each frame decoded with its own scale, then averaged.
    // (Lerping bytes, scale and translate instead would give vertex 1,
    // bytes 20 → 0, 10 × 1.5 + 50 = 65 instead of (20 + 100) / 2 = 60.)
    assert!(m.interpolate(1, 2, 0.5, &mut p, &mut n));
    assert_eq!(p, [[65.0; 3], [60.0; 3], [66.0; 3], [72.0; 3]]);
    // Normals: lerped then renormalised (indices 0 → 5 and 5 → 0).
    let half = lerp_normal(ANORM_0, ANORM_5, 0.5);
    assert!(close(n[0], half, 1e-6), "{:?} vs {half:?}", n[0]);
    assert!(close(n[1], half, 1e-6));
    // That is the normal halfway round the 31.7° arc between them.
    assert!(close(half, [-0.273267, 0.0, 0.961938], 1e-6), "{half:?}");
    // Index 200 (zero) with index 2: the renormalised table normal 2.
    let n2 = lerp_normal([0.0; 3], [-0.295242, 0.000000, 0.955423], 0.5);
    assert!(close(n[3], n2, 1e-6), "{:?} vs {n2:?}", n[3]);
    for v in &n {
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        assert!((len - 1.0).abs() < 1e-6, "{v:?}");
    }

    assert!(!m.interpolate(0, 3, 0.5, &mut p, &mut n));
}

#[test]
fn render_mesh_reproduces_the_triangles() {
    let m = standard_base();
    let mesh = RenderMesh::new(&m);
    // Unique (vertex, texcoord) pairs, counted here.
    let pairs: HashSet<(u16, u16)> = TRIANGLES
        .iter()
        .flat_map(|(v, st)| (0..3).map(move |k| (v[k], st[k])))
        .collect();
    assert_eq!(pairs.len(), 5);
    assert_eq!(mesh.vertex_count(), 5);
    assert_eq!(mesh.indices.len(), 9);
    let (w, h) = (64.0, 64.0);
    for (t, (verts, sts)) in TRIANGLES.iter().enumerate() {
        for k in 0..3 {
            let i = mesh.indices[3 * t + k] as usize;
            assert_eq!(
                mesh.source_vertices[i], verts[k] as u32,
                "triangle {t} corner {k}"
            );
            let (s, tt) = TEXCOORDS[sts[k] as usize];
            assert_eq!(mesh.uvs[i], [s as f32 / w, tt as f32 / h]);
        }
    }
    // Vertex 1 appears with two texture coordinates: two mesh vertices.
    assert_eq!(mesh.source_vertices.iter().filter(|&&v| v == 1).count(), 2);

    let mut out = vec![MeshVertex::default(); mesh.vertex_count()];
    let mut p = vec![[0.0; 3]; NUM_VERTICES];
    let mut n = vec![[0.0; 3]; NUM_VERTICES];
    for frame in 0..3 {
        assert!(mesh.fill_frame(&m, frame, &mut out));
        m.frames[frame].decode(&mut p, &mut n);
        for (v, &src) in out.iter().zip(&mesh.source_vertices) {
            assert_eq!(v.position, p[src as usize]);
            assert_eq!(v.normal, n[src as usize]);
        }
    }
    assert!(!mesh.fill_frame(&m, 3, &mut out));

    // Interpolated fill at 0.5 agrees with Md2::interpolate.
    assert!(mesh.fill_interpolated(&m, 1, 2, 0.5, &mut out));
    assert!(m.interpolate(1, 2, 0.5, &mut p, &mut n));
    for (v, &src) in out.iter().zip(&mesh.source_vertices) {
        assert_eq!(v.position, p[src as usize]);
        assert_eq!(v.normal, n[src as usize]);
    }
}

/// A header may claim any vertex count when there are no frames to hold
/// them; buffers sized by `vertex_count()` must not follow it.
#[test]
fn frameless_header_vertex_count_does_not_size_buffers() {
    let mut bytes = vec![0u8; 68];
    bytes[..4].copy_from_slice(b"IDP2");
    bytes[4..8].copy_from_slice(&8i32.to_le_bytes());
    bytes[24..28].copy_from_slice(&i32::MAX.to_le_bytes()); // num_vertices
    bytes[64..68].copy_from_slice(&68i32.to_le_bytes()); // ofs_end
    let mut model = retromodel::md2::Md2::from_bytes(&bytes).unwrap();
    assert_eq!(model.num_vertices, i32::MAX as usize);
    assert_eq!(model.vertex_count(), 0);
    assert!(!model.interpolate(0, 0, 0.5, &mut [], &mut []));
    let report = model.repair(); // must not allocate i32::MAX positions
    assert_eq!(report.fixed_normals, 0);
    assert_eq!(model.to_bytes().unwrap()[24..28], i32::MAX.to_le_bytes());
}
