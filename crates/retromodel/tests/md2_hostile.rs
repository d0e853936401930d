//! Hostile input: every truncation of every corpus MD2 and header fields
//! set to huge, negative and overlapping values must give an error (or,
//! where the change is harmless, a model that writes back unchanged) without
//! panicking, quickly, and within a memory bound.
//!
//! Memory is measured with a counting global allocator: it tracks, per
//! thread, the bytes currently allocated and their peak, so each parse's
//! peak (the model it returns included) can be compared with the input's
//! size while other tests run on other threads.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use retromodel::md2::{Layout, Md2};
use retromodel::Error;
use retromodel_testkit::corpus::{corpus_dir, fact_u64, facts, facts_of, md2_files};
use retromodel_testkit::md2_builder::{frame_record, le_i32, name16, Field, Md2Builder, Sec};

// ---------------------------------------------------------------------------
// Counting allocator (test code: `unsafe` only to implement GlobalAlloc).
// ---------------------------------------------------------------------------

struct Counting;

thread_local! {
    static CURRENT: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grow(n: usize) {
    // `try_with`: never panic inside the allocator, even while a thread's
    // locals are being torn down (these have no destructors anyway).
    let _ = CURRENT.try_with(|c| {
        let now = c.get() + n;
        c.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

fn shrink(n: usize) {
    // Memory freed on another thread than it was allocated on would
    // underflow; saturate instead.
    let _ = CURRENT.try_with(|c| c.set(c.get().saturating_sub(n)));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: AllocLayout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What one parse cost.
struct Measured {
    result: Result<Md2, Error>,
    /// Peak bytes allocated during the parse above what was allocated
    /// before it (the returned model included).
    peak: usize,
    time: Duration,
}

fn parse_measured(data: &[u8]) -> Measured {
    let before = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let start = Instant::now();
    let result = Md2::from_bytes(data);
    let time = start.elapsed();
    let peak = PEAK.with(Cell::get) - before;
    Measured { result, peak, time }
}

thread_local! {
    /// The largest peak / input ratio seen on this thread: (ratio, peak,
    /// input length), for the report.
    static WORST: Cell<(f64, usize, usize)> = const { Cell::new((0.0, 0, 0)) };
}

/// The allowed peak for an input of `len` bytes.
fn memory_bound(len: usize) -> usize {
    8 * len + 64 * 1024
}

/// Generous even for a debug build on a busy 2-core machine; a parse that
/// loops or allocates per claimed (not present) element would blow it.
const TIME_BOUND: Duration = Duration::from_secs(2);

/// Parses `data`, asserting the memory and time bounds.
fn parse_bounded(data: &[u8], what: &dyn Fn() -> String) -> Result<Md2, Error> {
    let m = parse_measured(data);
    WORST.with(|w| {
        let ratio = m.peak as f64 / data.len().max(1) as f64;
        if ratio > w.get().0 {
            w.set((ratio, m.peak, data.len()));
        }
    });
    assert!(
        m.peak <= memory_bound(data.len()),
        "{}: parse peaked at {} bytes for {} input bytes",
        what(),
        m.peak,
        data.len()
    );
    assert!(m.time <= TIME_BOUND, "{}: parse took {:?}", what(), m.time);
    m.result
}

#[test]
fn the_allocator_counts() {
    let m = parse_measured(&[0u8; 10]);
    assert!(m.result.is_err());
    let before = CURRENT.with(Cell::get);
    let v = vec![0u8; 100_000];
    assert!(CURRENT.with(Cell::get) >= before + 100_000);
    drop(v);
    assert_eq!(CURRENT.with(Cell::get), before);
}

// ---------------------------------------------------------------------------
// Inputs: the corpus, plus one hand-made file so the messages tested below
// do not depend on the corpus being present.
// ---------------------------------------------------------------------------

/// Sections of a file by its header, read by hand: (name, offset, length)
/// of each non-empty one.
fn sections(file: &[u8]) -> Vec<(&'static str, usize, usize)> {
    let get = |f: Field| le_i32(file, f.offset());
    let frame_size = get(Field::FrameSize) as usize;
    let names = ["skins", "texcoords", "triangles", "frames", "gl_commands"];
    Sec::STANDARD
        .iter()
        .zip(names)
        .filter_map(|(&sec, name)| {
            let size = match sec {
                Sec::Skins => 64,
                Sec::TexCoords | Sec::GlCommands => 4,
                Sec::Triangles => 12,
                Sec::Frames => frame_size,
            };
            let len = get(sec.count_field()) as usize * size;
            (len > 0).then(|| (name, get(sec.offset_field()) as usize, len))
        })
        .collect()
}

/// A small valid file: 2 skins, 3 texcoords, 2 triangles, 2 frames of 4
/// vertices, a GL list, in the order texcoords, frames, skins, triangles,
/// GL commands, with a gap and trailing bytes.
fn hand_made() -> Vec<u8> {
    let verts = [[0, 0, 0, 1], [9, 9, 9, 2], [255, 0, 3, 3], [1, 2, 3, 4]];
    let frames = [
        frame_record([1.0; 3], [0.0; 3], name16(b"a1"), &verts, &[]),
        frame_record([0.5; 3], [1.0; 3], name16(b"a2"), &verts, &[]),
    ];
    let mut b = Md2Builder::new();
    b.vertices(4)
        .skins(&[b"one.pcx", b"two.pcx"])
        .texcoords(&[(0, 0), (1, 1), (2, 2)])
        .triangles(&[([0, 1, 2], [0, 1, 2]), ([0, 2, 3], [0, 2, 1])])
        .frames(&frames)
        .gl_commands(&[(-3i32) as u32, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0])
        .layout(
            &[
                Sec::TexCoords,
                Sec::Frames,
                Sec::Skins,
                Sec::Triangles,
                Sec::GlCommands,
            ],
            &[0, 6],
        );
    let end = b.get(Field::OfsEnd) as usize;
    b.bytes_at(end, b"tail");
    b.build()
}

/// (name, bytes) of every input: the hand-made file and the corpus.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![("hand-made".to_string(), hand_made())];
    if let Some(dir) = corpus_dir() {
        let facts = facts(&dir);
        for file in md2_files(&dir) {
            let bytes = file.read();
            assert_eq!(
                bytes.len() as u64,
                fact_u64(facts_of(&facts, &file.key), "size")
            );
            out.push((file.key, bytes));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Truncation.
// ---------------------------------------------------------------------------

/// Prefix lengths to try for a file: all up to 4096, each section boundary
/// ±1, `ofs_end` ±1, and a stride through the rest.
fn prefix_lengths(file: &[u8]) -> Vec<usize> {
    let len = file.len();
    let mut lens: Vec<usize> = (0..len.min(4097)).collect();
    let mut marks = vec![68, len];
    for (_, ofs, n) in sections(file) {
        marks.extend([ofs, ofs + n]);
    }
    marks.push(le_i32(file, Field::OfsEnd.offset()).max(0) as usize);
    for m in marks {
        lens.extend([m.saturating_sub(1), m, m + 1]);
    }
    let stride = (len / 200).max(1);
    lens.extend((4097..len).step_by(stride));
    lens.retain(|&l| l < len);
    lens.sort_unstable();
    lens.dedup();
    lens
}

#[test]
fn every_truncated_prefix_is_an_error() {
    let start = Instant::now();
    let mut parses = 0;
    for (name, file) in inputs() {
        let data_end = sections(&file)
            .iter()
            .map(|&(_, ofs, n)| ofs + n)
            .max()
            .unwrap_or(68)
            .max(68);
        let section_starts: Vec<usize> = sections(&file).iter().map(|s| s.1).collect();
        let ofs_end = le_i32(&file, Field::OfsEnd.offset()) as usize;
        for len in prefix_lengths(&file) {
            let prefix = &file[..len];
            let what = || format!("{name} cut to {len} bytes");
            parses += 1;
            match parse_bounded(prefix, &what) {
                Err(Error::Truncated {
                    context,
                    offset,
                    needed,
                    file_len,
                }) => {
                    assert_eq!(file_len, len as u64, "{}", what());
                    assert!(offset + needed > len as u64, "{}", what());
                    if len < 68 {
                        assert_eq!((context.as_str(), offset), ("header", 0), "{}", what());
                    } else if context.starts_with("data up to header.ofs_end") {
                        // Every section fits, but the header says the data
                        // goes on to ofs_end: the file was cut short.
                        assert!(len >= data_end && len < ofs_end, "{}", what());
                        assert_eq!((offset, needed), (0, ofs_end as u64), "{}", what());
                    } else {
                        // It names a section that really starts there.
                        assert!(context.contains(" section"), "{}: {context}", what());
                        assert!(
                            section_starts.contains(&(offset as usize)),
                            "{}: offset {offset}",
                            what()
                        );
                    }
                }
                Err(other) => panic!("{}: not a truncation error: {other}", what()),
                Ok(model) => {
                    // Only a cut at or after ofs_end can parse (it just
                    // shortens the trailing bytes); a cut between the last
                    // section and ofs_end (the crafted zero-vertices file has
                    // 136 bytes there) is a truncation error above.
                    assert!(len >= data_end && len >= ofs_end, "{}: parsed", what());
                    assert!(!model.validate().iter().any(|p| p.path == "header.ofs_end"));
                    assert_eq!(model.trailing, file[ofs_end..len], "{}", what());
                }
            }
        }
    }
    eprintln!(
        "{parses} truncated parses in {:?}; worst (peak/input, peak, input) {:?}",
        start.elapsed(),
        WORST.with(Cell::get)
    );
}

// ---------------------------------------------------------------------------
// Header mutations.
// ---------------------------------------------------------------------------

fn with_field(file: &[u8], field: Field, value: i32) -> Vec<u8> {
    let mut out = file.to_vec();
    out[field.offset()..field.offset() + 4].copy_from_slice(&value.to_le_bytes());
    out
}

/// Values to try in `field` of `file`: huge, negative, small, the file's
/// length, and (for offsets) the other sections' offsets and points inside
/// them.
fn mutations(file: &[u8], field: Field) -> Vec<i32> {
    let len = file.len() as i32;
    let mut values = vec![
        i32::MAX,
        0x7fff_fff0,
        0x4000_0000,
        0x1000_0000,
        len,
        len - 1,
        len + 1,
        0,
        1,
        67,
        -1,
        -68,
        i32::MIN,
    ];
    if field.index() >= Field::OfsSkins.index() {
        for (_, ofs, n) in sections(file) {
            let ofs = ofs as i32;
            values.extend([ofs, ofs + 4, ofs - 4, ofs + n as i32 - 4]);
        }
    }
    values.sort_unstable();
    values.dedup();
    values
}

#[test]
fn mutated_header_fields_give_errors_or_harmless_models() {
    let start = Instant::now();
    let (mut errors, mut models) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    for (name, file) in inputs() {
        // The 3.6 MB file parses in tens of milliseconds in a debug build;
        // mutating it 300 times adds nothing the smaller files do not test.
        // The game-tree copies are the same bytes as files in md2/.
        if file.len() > 1_000_000 || !seen.insert(file.clone()) {
            continue;
        }
        for field in Field::ALL {
            for value in mutations(&file, field) {
                let mutated = with_field(&file, field, value);
                let what = || format!("{name}: header.{} = {value}", field.name());
                match parse_bounded(&mutated, &what) {
                    Err(err) => {
                        errors += 1;
                        // Every read error points at an offset inside the
                        // input or at the header field at fault.
                        let offset = err.offset().unwrap_or_else(|| panic!("{}: {err}", what()));
                        assert!(err.to_string().contains(&format!("offset {offset:#x}")));
                        if let Error::Invalid { context, .. } = &err {
                            if context.starts_with("header.") {
                                assert!(offset < 68, "{}: {err}", what());
                            }
                        }
                    }
                    Ok(model) => {
                        models += 1;
                        // Harmless: the model writes back to exactly the
                        // mutated bytes.
                        let _ = model.validate();
                        let out = model
                            .to_bytes_with(Layout::Original)
                            .unwrap_or_else(|e| panic!("{}: cannot write: {e}", what()));
                        assert!(out == mutated, "{}: Original layout differs", what());
                    }
                }
            }
        }
    }
    eprintln!(
        "{} mutated parses ({errors} errors, {models} models) in {:?}; worst (peak/input, peak, input) {:?}",
        errors + models,
        start.elapsed(),
        WORST.with(Cell::get)
    );
    assert!(errors > 0 && models > 0);
}

#[test]
fn counts_claiming_more_than_the_file_holds_fail_before_allocating() {
    // Each count set to i32::MAX with a section offset inside the file:
    // the claimed bytes are gigabytes, the file a few hundred.
    let file = hand_made();
    for sec in Sec::STANDARD {
        let mutated = with_field(&file, sec.count_field(), i32::MAX);
        let m = parse_measured(&mutated);
        assert!(
            matches!(
                m.result,
                Err(Error::Truncated { .. }) | Err(Error::Invalid { .. })
            ),
            "{sec:?}: {:?}",
            m.result
        );
        assert!(m.peak < 4096, "{sec:?}: {} bytes allocated", m.peak);
    }
}

// ---------------------------------------------------------------------------
// Error messages: what, where, at which offset.
// ---------------------------------------------------------------------------

fn message(file: &[u8]) -> String {
    match Md2::from_bytes(file) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("parsed"),
    }
}

#[test]
fn error_messages_name_the_field_or_section_and_the_offset() {
    let file = hand_made();
    let secs = sections(&file);
    let find = |n: &str| *secs.iter().find(|s| s.0 == n).unwrap();

    assert_eq!(
        message(&with_field(&file, Field::NumFrames, -1)),
        "header.num_frames: negative count -1 at offset 0x28"
    );
    assert_eq!(
        message(&with_field(&file, Field::NumSkins, i32::MIN)),
        "header.num_skins: negative count -2147483648 at offset 0x14"
    );
    assert_eq!(
        message(&with_field(&file, Field::FrameSize, 55)),
        "header.frame_size: frame size 55 cannot hold 40 + 4 × 4 vertex bytes (56) at offset 0x10"
    );
    assert_eq!(
        message(&with_field(&file, Field::OfsSkins, -1)),
        "header.ofs_skins: skins section at offset -1 overlaps the 68-byte header at offset 0x2c"
    );
    assert_eq!(
        message(&with_field(&file, Field::OfsFrames, 10)),
        "header.ofs_frames: frames section at offset 10 overlaps the 68-byte header at offset 0x38"
    );

    // A count past the end: the section, its size and where it starts.
    let (_, tri_ofs, _) = find("triangles");
    assert_eq!(
        message(&with_field(&file, Field::NumTriangles, i32::MAX)),
        format!(
            "triangles section (2147483647 × 12 bytes): needs {} bytes at offset {tri_ofs:#x} but the file is {} bytes long",
            2147483647u64 * 12,
            file.len()
        )
    );

    // Texture coordinates moved onto the frames: the later-starting of the
    // two is reported, with the range of the other.
    let (_, st_ofs, _) = find("texcoords");
    let (_, fr_ofs, _) = find("frames");
    assert_eq!(st_ofs, 68);
    let moved = with_field(&file, Field::OfsTexCoords, fr_ofs as i32 + 4);
    assert_eq!(
        message(&moved),
        format!(
            "texcoords section: overlaps the frames section ({fr_ofs:#x}..{:#x}) at offset {:#x}",
            fr_ofs + 2 * 56,
            fr_ofs + 4
        )
    );

    let mut bad = file.clone();
    bad[4] = 7;
    assert_eq!(
        message(&bad),
        "MD2 version 7 is not supported (supported: 8) at offset 0x4"
    );
    bad[..4].copy_from_slice(b"IDP3");
    assert_eq!(
        message(&bad),
        "not a MD2 file: magic \"IDP3\" at offset 0x0, expected \"IDP2\""
    );
    assert_eq!(
        message(&file[..67]),
        "header: needs 68 bytes at offset 0x0 but the file is 67 bytes long"
    );
}

/// A file full of bad indices lists at most `MAX_LISTED_PROBLEMS`
/// problems and counts the rest in one last error, so validating it takes
/// bounded memory. One problem per bad index (checked on a small model
/// first), so 30 000 triangles with three bad vertex indices each give
/// 90 000 problems, plus one for more triangles than Quake II allows:
/// 10 000 listed, 80 001 counted; with one error among the rest, the count
/// is an error.
#[test]
fn validate_lists_at_most_the_limit_and_counts_the_rest() {
    use retromodel::{Severity, MAX_LISTED_PROBLEMS};
    let mut model = retromodel::md2::sample::sample_model();
    assert!(model.validate().is_empty());
    let bad = retromodel::md2::Triangle {
        vertices: [60_000, 60_001, 60_002],
        texcoords: [0, 0, 0],
    };
    model.triangles = vec![bad; 10];
    assert_eq!(model.validate().len(), 30, "one problem per bad index");

    model.triangles = vec![bad; 30_000];
    let problems = model.validate();
    assert_eq!(MAX_LISTED_PROBLEMS, 10_000);
    assert_eq!(problems.len(), MAX_LISTED_PROBLEMS + 1);
    let last = problems.last().unwrap();
    // Out-of-range triangle indices are warnings in MD2 (renderers skip
    // such triangles), so the count is one too.
    assert_eq!(last.severity, Severity::Warning);
    assert_eq!(last.path, "(not listed)");
    assert!(
        last.message
            .starts_with("80001 more problems (0 errors, 80001 warnings)"),
        "{}",
        last.message
    );
    assert_eq!(problems[0].path, "header.num_triangles");
    assert!(problems[1..MAX_LISTED_PROBLEMS]
        .iter()
        .all(|p| p.path.starts_with("triangles[")));

    // An error past the limit (a frame scale that is not a number is one;
    // frames are checked after triangles) makes the count an error.
    model.frames[1].scale[0] = f32::NAN;
    let problems = model.validate();
    assert_eq!(problems.len(), MAX_LISTED_PROBLEMS + 1);
    let last = problems.last().unwrap();
    assert_eq!(last.severity, Severity::Error, "{}", last.message);
    assert!(
        last.message
            .starts_with("80002 more problems (1 errors, 80001 warnings)"),
        "{}",
        last.message
    );
}

#[test]
fn a_frame_whose_positions_overflow_when_decoded_is_an_error_naming_the_vertex() {
    use retromodel::Severity;
    // A finite scale and translate that decode a used byte to infinity:
    // every engine's float decode overflows, so the model is corrupt.
    let mut model = retromodel::md2::sample::sample_model();
    assert!(model.frames.len() >= 2 && model.vertex_count() >= 3);
    let frame = &mut model.frames[1];
    frame.scale[1] = -2.6e38;
    frame.translate[1] = 0.0;
    for v in &mut frame.vertices {
        v.position[1] = 1; // 1 × -2.6e38: finite
    }
    frame.vertices[2].position[1] = 2; // -5.2e38: -inf
    let bytes = model.to_bytes().expect("writes");
    let read = Md2::from_bytes(&bytes).expect("reads: the frame's fields are all finite");
    let problems = read.validate();
    let p = problems
        .iter()
        .find(|p| p.path.starts_with("frames[1].vertices"))
        .unwrap_or_else(|| panic!("no problem with the frame's vertices: {problems:?}"));
    assert_eq!(p.severity, Severity::Error);
    assert_eq!(p.path, "frames[1].vertices[2]");
    assert!(p.message.contains("decodes to -inf on y"), "{}", p.message);
    // The offset of that vertex's y byte, from the header's fields.
    let field = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as u64;
    let (frame_size, ofs_frames) = (field(16), field(56));
    assert_eq!(p.offset, Some(ofs_frames + frame_size + 40 + 4 * 2 + 1));
    // Only the bytes used count: with none at 2, nothing overflows.
    model.frames[1].vertices[2].position[1] = 1;
    let problems = model.validate();
    assert!(
        !problems
            .iter()
            .any(|p| p.path.starts_with("frames[1].vertices")),
        "{problems:?}"
    );
}
