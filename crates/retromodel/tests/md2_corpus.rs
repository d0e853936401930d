//! Every MD2 file of the shared corpus against `facts.json`, the header
//! facts an independent Python reader wrote: counts, names, layout, what is
//! wrong with each file, and animations. Also write → read round trips,
//! checked against the original file's bytes.

use retromodel::md2::gl_commands::GlFault;
use retromodel::md2::{Layout, Md2};
use retromodel::{Problem, Severity};
use retromodel_testkit::corpus::{
    corpus_dir, fact_str, fact_u64, facts, facts_of, md2_files, CorpusFile,
};
use retromodel_testkit::md2_builder::{le_i32, PLAYER_TABLE};
use serde_json::Value;

/// A corpus file, its facts, its bytes and the model parsed from them.
type Entry = (CorpusFile, Value, Vec<u8>, Md2);

/// Every corpus MD2 with its facts and parsed model; `None` when the
/// corpus is missing (the test is then skipped).
fn corpus() -> Option<Vec<Entry>> {
    let dir = corpus_dir()?;
    let facts = facts(&dir);
    let out = md2_files(&dir)
        .into_iter()
        .map(|file| {
            let entry = facts_of(&facts, &file.key).clone();
            let bytes = file.read();
            let model = Md2::from_bytes(&bytes)
                .unwrap_or_else(|e| panic!("{}: does not parse: {e}", file.key));
            (file, entry, bytes, model)
        })
        .collect::<Vec<_>>();
    // 28 flat MD2 files and 3 game-tree copies; a short list would
    // silently weaken every test here.
    assert_eq!(out.len(), 31, "corpus MD2 files");
    Some(out)
}

/// Section lengths in bytes per facts.json, in the order skins, texcoords,
/// triangles, frames, GL commands, with the facts key of each offset.
fn fact_sections(f: &Value) -> [(&'static str, u64); 5] {
    [
        ("skins", 64 * fact_u64(f, "skins")),
        ("st", 4 * fact_u64(f, "st")),
        ("tris", 12 * fact_u64(f, "tris")),
        ("frames", fact_u64(f, "framesize") * fact_u64(f, "frames")),
        ("glcmds", 4 * fact_u64(f, "glcmds")),
    ]
}

/// Whether facts.json says the file is in the standard layout: standard
/// section order and every offset (empty sections included) the running
/// offset from the header on, `ofs_end` right after the GL commands.
fn is_standard_layout(f: &Value) -> bool {
    if fact_str(f, "section_order") != "skins,st,tris,frames,glcmds" {
        return false;
    }
    let mut pos = 68;
    for (key, len) in fact_sections(f) {
        if fact_u64(f, &format!("ofs.{key}")) != pos {
            return false;
        }
        pos += len;
    }
    fact_u64(f, "ofs.end") == pos
}

#[test]
fn counts_and_names_match_facts() {
    let Some(corpus) = corpus() else { return };
    for (file, f, bytes, m) in &corpus {
        let k = &file.key;
        assert_eq!(bytes.len() as u64, fact_u64(f, "size"), "{k}: size");
        assert_eq!(m.skins.len() as u64, fact_u64(f, "skins"), "{k}: skins");
        assert_eq!(m.vertex_count() as u64, fact_u64(f, "verts"), "{k}: verts");
        assert_eq!(m.texcoords.len() as u64, fact_u64(f, "st"), "{k}: st");
        assert_eq!(m.triangles.len() as u64, fact_u64(f, "tris"), "{k}: tris");
        assert_eq!(m.frames.len() as u64, fact_u64(f, "frames"), "{k}: frames");
        assert_eq!(
            m.gl_commands.len() as u64,
            fact_u64(f, "glcmds"),
            "{k}: GL command words"
        );
        for frame in &m.frames {
            assert_eq!(frame.vertices.len() as u64, fact_u64(f, "verts"), "{k}");
        }
        let frame_size = 40 + 4 * m.vertex_count() + m.frames[0].padding.len();
        assert_eq!(
            frame_size as u64,
            fact_u64(f, "framesize"),
            "{k}: framesize"
        );
        assert_eq!(m.skin_width as u64, fact_u64(f, "skin_w"), "{k}: skin_w");
        assert_eq!(m.skin_height as u64, fact_u64(f, "skin_h"), "{k}: skin_h");

        let skins: Vec<String> = m.skins.iter().map(|s| s.to_string_lossy()).collect();
        let fact_skins: Vec<&str> = f["skin_names"]
            .as_array()
            .expect("skin_names")
            .iter()
            .map(|v| v.as_str().expect("skin name"))
            .collect();
        // facts.json lists at most the first 8 names.
        assert_eq!(
            fact_skins.len(),
            skins.len().min(8),
            "{k}: skin names listed"
        );
        assert_eq!(skins[..fact_skins.len()], fact_skins, "{k}: skin names");
        assert_eq!(m.frames[0].name(), fact_str(f, "first_frame"), "{k}");
        assert_eq!(
            m.frames.last().map(|fr| fr.name()).as_deref(),
            Some(fact_str(f, "last_frame")),
            "{k}"
        );

        // "s[0..501] t[0..512]": the range of the texture coordinates.
        if let Some(range) = f.get("st_range").and_then(Value::as_str) {
            let (smin, smax) = min_max(m.texcoords.iter().map(|st| st.s));
            let (tmin, tmax) = min_max(m.texcoords.iter().map(|st| st.t));
            let ours = format!("s[{smin}..{smax}] t[{tmin}..{tmax}]");
            assert_eq!(ours, range, "{k}: st_range");
        }
    }
}

fn min_max(values: impl Iterator<Item = i16>) -> (i16, i16) {
    values.fold((i16::MAX, i16::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

#[test]
fn gl_command_stats_match_facts() {
    let Some(corpus) = corpus() else { return };
    let mut checked = 0;
    for (file, f, _, m) in &corpus {
        // "strips=667 fans=0 glverts=2010 terminated=True trailing_words=0"
        let Some(gl) = f.get("gl").and_then(Value::as_str) else {
            continue;
        };
        let d = m.decode_gl_commands();
        let s = d.stats(m.gl_commands.len());
        let trailing = d
            .faults
            .iter()
            .find_map(|fault| match fault {
                GlFault::TrailingWords { count } => Some(*count),
                _ => None,
            })
            .unwrap_or(0);
        let terminated = if d.terminated { "True" } else { "False" };
        let ours = format!(
            "strips={} fans={} glverts={} terminated={terminated} trailing_words={trailing}",
            s.strips, s.fans, s.gl_vertices
        );
        assert_eq!(ours, gl, "{}", file.key);
        checked += 1;
    }
    assert_eq!(checked, 14, "files with GL facts");
}

#[test]
fn standard_layout_files_rewrite_byte_identical() {
    let Some(corpus) = corpus() else { return };
    let mut checked = 0;
    for (file, f, bytes, m) in &corpus {
        if !is_standard_layout(f) {
            continue;
        }
        let out = m.to_bytes().expect("to_bytes");
        assert!(
            out == *bytes,
            "{}: to_bytes differs from the file",
            file.key
        );
        checked += 1;
    }
    // 15 of the 31 corpus files are laid out the standard way.
    assert_eq!(checked, 15);
}

#[test]
fn other_files_keep_every_section_byte_for_byte() {
    let Some(corpus) = corpus() else { return };
    let mut checked = 0;
    for (file, f, bytes, m) in &corpus {
        if is_standard_layout(f) {
            continue;
        }
        let k = &file.key;
        let out = m.to_bytes().expect("to_bytes");
        assert_ne!(
            out, *bytes,
            "{k}: a non-standard layout cannot come out unchanged"
        );
        // The output's header, read by hand: counts as in the input.
        assert_eq!(&out[..8], &bytes[..8], "{k}: magic and version");
        for field in 0..9 {
            let at = 8 + 4 * field;
            assert_eq!(
                le_i32(&out, at),
                le_i32(bytes, at),
                "{k}: header field {field}"
            );
        }
        let out_offsets = [44, 48, 52, 56, 60].map(|at| le_i32(&out, at) as usize);
        for ((key, len), out_ofs) in fact_sections(f).into_iter().zip(out_offsets) {
            if len == 0 {
                continue;
            }
            let len = len as usize;
            let ofs = fact_u64(f, &format!("ofs.{key}")) as usize;
            assert!(
                bytes[ofs..ofs + len] == out[out_ofs..out_ofs + len],
                "{k}: section {key} differs after writing"
            );
        }
        // The bytes after ofs_end come after the output's end.
        let end = fact_u64(f, "ofs.end") as usize;
        let out_end = le_i32(&out, 64) as usize;
        assert_eq!(
            &out[out_end..],
            &bytes[end.min(bytes.len())..],
            "{k}: trailing"
        );
        checked += 1;
    }
    assert_eq!(checked, 16);
}

#[test]
fn original_layout_reproduces_every_file() {
    let Some(corpus) = corpus() else { return };
    for (file, _, bytes, m) in &corpus {
        let out = m.to_bytes_with(Layout::Original).expect("to_bytes_with");
        assert!(
            out == *bytes,
            "{}: Layout::Original differs from the file",
            file.key
        );
    }
}

#[test]
fn rewritten_files_parse_to_the_same_model() {
    let Some(corpus) = corpus() else { return };
    for (file, _, _, m) in &corpus {
        for layout in [Layout::Standard, Layout::Original] {
            let out = m.to_bytes_with(layout).expect("write");
            let mut again = Md2::from_bytes(&out)
                .unwrap_or_else(|e| panic!("{}: {layout:?} output does not parse: {e}", file.key));
            assert!(again.source.is_some());
            again.source = None;
            let mut original = m.clone();
            original.source = None;
            assert!(
                again == original,
                "{}: {layout:?} output parses to a different model",
                file.key
            );
        }
    }
}

fn warnings_with<'a>(problems: &'a [Problem], pred: impl Fn(&Problem) -> bool + 'a) -> usize {
    problems
        .iter()
        .filter(|p| p.severity == Severity::Warning && pred(p))
        .count()
}

/// Whether `path` is `prefix[<n>]<rest>` for some number n (and rest
/// matching `rest_pred`).
fn indexed<'a>(path: &'a str, prefix: &str) -> Option<(usize, &'a str)> {
    let rest = path.strip_prefix(prefix)?.strip_prefix('[')?;
    let close = rest.find(']')?;
    Some((rest[..close].parse().ok()?, &rest[close + 1..]))
}

fn is_normal_index(p: &Problem) -> bool {
    indexed(&p.path, "frames")
        .and_then(|(_, rest)| indexed(rest, ".vertices"))
        .is_some_and(|(_, rest)| rest == ".normal_index")
}

fn is_gl_vertex_index(p: &Problem) -> bool {
    indexed(&p.path, "gl_commands")
        .and_then(|(_, rest)| indexed(rest, ".vertices"))
        .is_some_and(|(_, rest)| rest == ".index")
}

fn is_triangle_index(p: &Problem, part: &str) -> bool {
    indexed(&p.path, "triangles")
        .and_then(|(_, rest)| indexed(rest, part))
        .is_some_and(|(_, rest)| rest.is_empty())
}

/// The number in a facts problem such as "990 vertex normal indices >161"
/// or "glcmd vertex idx out of range x6228".
fn number_in(problem: &str, marker: &str) -> usize {
    let at = problem.find(marker).expect("marker") + marker.len();
    problem[at..]
        .split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no number after {marker:?} in {problem:?}"))
}

#[test]
fn validate_agrees_with_the_facts_problems() {
    let Some(corpus) = corpus() else { return };
    let mut seen = [0usize; 3];
    for (file, f, bytes, m) in &corpus {
        let k = &file.key;
        let problems = m.validate();
        let facts_problems: Vec<&str> = f["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .map(|p| p.as_str().expect("problem"))
            .collect();

        let normals = warnings_with(&problems, is_normal_index);
        let gl = warnings_with(&problems, is_gl_vertex_index);
        let tri_v = warnings_with(&problems, |p| is_triangle_index(p, ".vertices"));
        let tri_st = warnings_with(&problems, |p| is_triangle_index(p, ".texcoords"));

        let mut want = (0, 0, 0, 0);
        for p in &facts_problems {
            if p.contains("normal indices") {
                // "990 vertex normal indices >161"
                want.0 = number_in(p, "");
                seen[0] += 1;
            } else if p.starts_with("glcmd vertex idx out of range") {
                want.1 = number_in(p, " x");
                seen[1] += 1;
            } else if p.starts_with("tri idx out of range") {
                // "tri idx out of range: vert 3 st 3"
                want.2 = number_in(p, "vert ");
                want.3 = number_in(p, " st ");
                seen[2] += 1;
            } else {
                panic!("{k}: facts problem {p:?} not understood by this test");
            }
        }
        assert_eq!(
            (normals, gl, tri_v, tri_st),
            want,
            "{k}: (normal, GL index, triangle vertex, triangle st) warnings"
        );

        // Each warning's offset points at the offending byte or word of the
        // original file.
        for p in &problems {
            let Some(at) = p.offset.map(|o| o as usize) else {
                continue;
            };
            if is_normal_index(p) {
                assert!(bytes[at] >= 162, "{k}: {p}: byte {}", bytes[at]);
            } else if is_gl_vertex_index(p) {
                let idx = le_i32(bytes, at);
                assert!(
                    idx < 0 || idx as usize >= m.vertex_count(),
                    "{k}: {p}: word {idx}"
                );
            } else if is_triangle_index(p, ".vertices") {
                let idx = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
                assert!(idx >= m.vertex_count(), "{k}: {p}: index {idx}");
            } else if is_triangle_index(p, ".texcoords") {
                let idx = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
                assert!(idx >= m.texcoords.len(), "{k}: {p}: index {idx}");
            }
        }

        // "degenerate_tris": triangles with a repeated vertex index.
        if let Some(n) = f.get("degenerate_tris").and_then(Value::as_u64) {
            let ours = warnings_with(&problems, |p| {
                indexed(&p.path, "triangles").is_some_and(|(_, rest)| rest.is_empty())
                    && p.message.starts_with("degenerate")
            });
            assert_eq!(ours as u64, n, "{k}: degenerate triangles");
        }
    }
    // valve; grass, plant, barrel; the zero-vertices file.
    assert_eq!(seen, [1, 3, 1], "facts problems of each kind");
}

#[test]
fn named_files_have_the_expected_problems() {
    let Some(corpus) = corpus() else { return };
    let find = |name: &str| {
        corpus
            .iter()
            .find(|(file, ..)| file.key == format!("md2/{name}"))
            .unwrap_or_else(|| panic!("{name} not in corpus"))
    };
    let count = |name: &str, pred: fn(&Problem) -> bool| {
        let (_, _, _, m) = find(name);
        warnings_with(&m.validate(), pred)
    };
    assert_eq!(
        count("ufoai_objects_industrial_valve_valve.md2", is_normal_index),
        990
    );
    assert_eq!(
        count("ufoai_objects_vegi_grass2_grass.md2", is_gl_vertex_index),
        12
    );
    assert_eq!(
        count(
            "ufoai_objects_vegi_plants2_plant_01.md2",
            is_gl_vertex_index
        ),
        117
    );
    assert_eq!(
        count(
            "ufoai_objects_barrel_fuel_barrel_fuel.md2",
            is_gl_vertex_index
        ),
        6228
    );
    let (_, _, _, zero) = find("assimp_malformed_zero_numvertices.md2");
    let problems = zero.validate();
    let paths: Vec<&str> = problems
        .iter()
        .filter(|p| is_triangle_index(p, ".vertices"))
        .map(|p| p.path.as_str())
        .collect();
    assert_eq!(
        paths,
        [
            "triangles[0].vertices[0]",
            "triangles[0].vertices[1]",
            "triangles[0].vertices[2]"
        ]
    );
    // Triangles start at offset 68 in that file: index k sits at 68 + 2k.
    let offsets: Vec<Option<u64>> = problems
        .iter()
        .filter(|p| is_triangle_index(p, ".vertices"))
        .map(|p| p.offset)
        .collect();
    assert_eq!(offsets, [Some(68), Some(70), Some(72)]);
}

fn anim_summary(m: &Md2) -> Vec<(String, usize, usize)> {
    m.animations()
        .into_iter()
        .map(|a| (a.name, a.first_frame, a.frame_count))
        .collect()
}

fn table(entries: usize) -> Vec<(String, usize, usize)> {
    PLAYER_TABLE[..entries]
        .iter()
        .map(|&(n, a, b)| (n.to_string(), a, b))
        .collect()
}

/// "stand:40 die:46 ..." as (name, first frame, count). Names may hold
/// spaces ("FRAME 000......:372"), so items are cut after each count.
fn facts_anims(list: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut first = 0;
    let mut rest = list;
    while !rest.is_empty() {
        let (name, after) = rest.split_once(':').expect("name:count");
        let end = after.find(' ').unwrap_or(after.len());
        let n: usize = after[..end].parse().expect("count");
        out.push((name.to_string(), first, n));
        first += n;
        rest = after[end..].strip_prefix(' ').unwrap_or(&after[end..]);
    }
    out
}

#[test]
fn animations_of_named_files() {
    let Some(corpus) = corpus() else { return };
    let get = |name: &str| {
        corpus
            .iter()
            .find(|(file, ..)| file.key == format!("md2/{name}"))
            .unwrap_or_else(|| panic!("{name} not in corpus"))
    };
    // Sanity of the typed table: it covers 198 frames without holes.
    let mut next = 0;
    for &(_, first, n) in &PLAYER_TABLE {
        assert_eq!(first, next);
        next += n;
    }
    assert_eq!(next, 198);

    let (_, f, _, faerie) = get("assimpdeb_faerie.md2");
    assert_eq!(fact_u64(f, "frames"), 198);
    assert_eq!(anim_summary(faerie), table(20));
    assert_eq!(anim_summary(faerie)[3], ("pain1".to_string(), 54, 4));
    assert_eq!(anim_summary(faerie)[19], ("death3".to_string(), 190, 8));

    let (_, f, _, weapon) = get("glscene_weaponWaste.md2");
    assert_eq!(fact_u64(f, "frames"), 173);
    assert_eq!(anim_summary(weapon), table(16));

    let (_, f, _, spider) = get("blobandconquer_spiderBlob.md2");
    let list = fact_str(f, "anim_list");
    assert_eq!(list, "stand:40 die:46 alt_die:40 get_up:31 empty:41");
    assert_eq!(anim_summary(spider), facts_anims(list));

    let (_, f, _, blood) = get("ufoai_aliens_bloodspider_bloodspider.md2");
    let list = fact_str(f, "anim_list");
    assert_eq!(list, "walk:34 shoot_melee:22 death:40");
    assert_eq!(anim_summary(blood), facts_anims(list));
}

#[test]
fn animations_cover_every_file_in_order() {
    let Some(corpus) = corpus() else { return };
    for (file, f, _, m) in &corpus {
        let anims = m.animations();
        let mut next = 0;
        for a in &anims {
            assert_eq!(a.first_frame, next, "{}: {a:?}", file.key);
            assert!(a.frame_count > 0, "{}: {a:?}", file.key);
            next += a.frame_count;
        }
        assert_eq!(next as u64, fact_u64(f, "frames"), "{}", file.key);
        // facts.json groups runs of frames by name prefix. Outside the
        // player table, our runs must be the same frames.
        let ours: Vec<(usize, usize)> = anims
            .iter()
            .map(|a| (a.first_frame, a.frame_count))
            .collect();
        let theirs: Vec<(usize, usize)> = facts_anims(fact_str(f, "anim_list"))
            .into_iter()
            .map(|(_, a, n)| (a, n))
            .collect();
        assert_eq!(
            theirs.len() as u64,
            fact_u64(f, "anim_groups"),
            "{}",
            file.key
        );
        let summary = anim_summary(m);
        if summary != table(20) && summary != table(16) {
            assert_eq!(ours, theirs, "{}", file.key);
        }
    }
}
