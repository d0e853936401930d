//! GL command generation checked against the models' own triangles (read
//! straight from the file bytes, not through the library), against the GL
//! command lists stored in corpus files written by qdata-like tools, and
//! against `facts.json` (an independent Python reader).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use retromodel::md2::gl_commands::{build, build_qdata, decode, Decoded, PrimitiveKind, Stats};
use retromodel::md2::sample::sample_model;
use retromodel::md2::Md2;

/// The corpus folder, or `None` (with a note) when it is missing outside CI.
fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("RETROMODEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.join("md2").is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("corpus not found at {}", dir.display());
    }
    eprintln!("note: corpus not found at {}; skipping", dir.display());
    None
}

/// Every `.md2` under `md2/` and `gametrees/`, sorted.
fn corpus_md2s(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md2"))
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&dir.join("md2"), &mut out);
    walk(&dir.join("gametrees"), &mut out);
    out.sort();
    out
}

/// A triangle as GL draws it: per corner the vertex index and the bit
/// patterns of the two texture coordinates, rotated so that the smallest
/// corner comes first (which keeps the winding).
type Drawn = [(i32, u32, u32); 3];

fn normalized(c: Drawn) -> Drawn {
    let rots = [c, [c[1], c[2], c[0]], [c[2], c[0], c[1]]];
    rots.into_iter().min().unwrap_or(c)
}

/// The triangles a model should draw, read from the file bytes: those whose
/// indices are all in range, with texture coordinates `(s + 0.5) / width`
/// as qdata writes them. Also returns how many of them are degenerate.
fn expected_from_bytes(bytes: &[u8]) -> (BTreeMap<Drawn, usize>, usize, usize) {
    let int = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let short = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
    let (skin_w, skin_h) = (int(8), int(12));
    let (num_xyz, num_st, num_tris) = (int(24) as usize, int(28) as usize, int(32) as usize);
    let (ofs_st, ofs_tris) = (int(48) as usize, int(52) as usize);
    let norm = |p: i16, size: i32| ((f64::from(p) + 0.5) / f64::from(size.max(1))) as f32;
    let mut out = BTreeMap::new();
    let (mut valid, mut degenerate) = (0, 0);
    for i in 0..num_tris {
        let at = ofs_tris + 12 * i;
        let xyz = [short(at), short(at + 2), short(at + 4)];
        let st = [short(at + 6), short(at + 8), short(at + 10)];
        if xyz.iter().any(|&v| v as usize >= num_xyz) || st.iter().any(|&s| s as usize >= num_st) {
            continue;
        }
        valid += 1;
        if xyz[0] == xyz[1] || xyz[1] == xyz[2] || xyz[0] == xyz[2] {
            degenerate += 1;
        }
        let corner = |k: usize| {
            let sa = ofs_st + 4 * st[k] as usize;
            let (s, t) = (short(sa) as i16, short(sa + 2) as i16);
            (
                i32::from(xyz[k]),
                norm(s, skin_w).to_bits(),
                norm(t, skin_h).to_bits(),
            )
        };
        *out.entry(normalized([corner(0), corner(1), corner(2)]))
            .or_insert(0) += 1;
    }
    (out, valid, degenerate)
}

/// The triangles a decoded list draws.
fn drawn(d: &Decoded) -> BTreeMap<Drawn, usize> {
    let mut out = BTreeMap::new();
    for p in &d.primitives {
        for tri in p.triangles() {
            let c = tri.map(|k| {
                let v = p.vertices[k];
                (v.vertex, v.s.to_bits(), v.t.to_bits())
            });
            *out.entry(normalized(c)).or_insert(0) += 1;
        }
    }
    out
}

/// Checks one built list; returns its statistics.
fn check_list(
    what: &str,
    words: &[u32],
    num_vertices: usize,
    expected: &BTreeMap<Drawn, usize>,
    valid: usize,
) -> Stats {
    let d = decode(words, num_vertices);
    assert!(d.faults.is_empty(), "{what}: {:?}", d.faults);
    assert!(d.terminated, "{what}: not terminated");
    assert_eq!(words.last(), Some(&0), "{what}: last word");
    assert!(
        d.primitives.iter().all(|p| p.vertices.len() >= 3),
        "{what}: short primitive"
    );
    assert!(
        drawn(&d) == *expected,
        "{what}: the list does not draw exactly the model's valid triangles"
    );
    let stats = d.stats(words.len());
    // Each primitive of k triangles sends k + 2 vertices.
    assert_eq!(
        stats.gl_vertices,
        valid + 2 * (stats.strips + stats.fans),
        "{what}"
    );
    stats
}

fn commands(s: &Stats) -> usize {
    s.strips + s.fans
}

#[test]
fn sample_model_lists_draw_its_triangles() {
    let model = sample_model();
    let bytes = model.to_bytes().unwrap();
    let (expected, valid, _) = expected_from_bytes(&bytes);
    assert_eq!(valid, model.triangles.len());
    let q = check_list(
        "sample qdata",
        &build_qdata(&model),
        model.vertex_count(),
        &expected,
        valid,
    );
    let o = check_list(
        "sample ours",
        &build(&model),
        model.vertex_count(),
        &expected,
        valid,
    );
    assert!(commands(&o) <= commands(&q));
    assert!(o.gl_vertices <= q.gl_vertices);
    // Six closed boxes of twelve triangles: no list can do with fewer than
    // one primitive per box.
    assert!(commands(&o) >= 6, "{o:?}");
}

#[test]
fn corpus_lists_draw_exactly_the_valid_triangles() {
    let Some(dir) = corpus() else { return };
    let files = corpus_md2s(&dir);
    assert!(files.len() >= 25, "only {} corpus MD2s", files.len());
    let mut checked = 0;
    let mut degenerate_seen = 0;
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let bytes = std::fs::read(path).unwrap();
        let Ok(model) = Md2::from_bytes(&bytes) else {
            continue;
        };
        let (expected, valid, degenerate) = expected_from_bytes(&bytes);
        let nv = model.vertex_count();
        let q = check_list(
            &format!("{name} qdata"),
            &build_qdata(&model),
            nv,
            &expected,
            valid,
        );
        let o = check_list(
            &format!("{name} ours"),
            &build(&model),
            nv,
            &expected,
            valid,
        );
        assert!(
            commands(&o) <= commands(&q) && o.gl_vertices <= q.gl_vertices,
            "{name}: ours {o:?} vs qdata {q:?}"
        );
        assert_eq!(build(&model), build(&model), "{name}: not deterministic");
        checked += usize::from(valid > 0);
        degenerate_seen += degenerate;
    }
    assert!(checked >= 25, "only {checked} models with valid triangles");
    // The fern has degenerate triangles; they are drawn, not dropped.
    assert!(degenerate_seen > 0);
}

/// `strips=30 fans=166 glverts=1046` from facts.json.
fn facts_gl(dir: &Path, key: &str) -> (usize, usize, usize) {
    let text = std::fs::read_to_string(dir.join("facts.json")).unwrap();
    let facts: serde_json::Value = serde_json::from_str(&text).unwrap();
    let gl = facts[key]["gl"].as_str().unwrap_or_default().to_string();
    let get = |field: &str| -> usize {
        gl.split_whitespace()
            .find_map(|kv| kv.strip_prefix(field))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{key}: no {field} in {gl:?}"))
    };
    (get("strips="), get("fans="), get("glverts="))
}

fn load(dir: &Path, name: &str) -> Md2 {
    Md2::from_bytes(&std::fs::read(dir.join("md2").join(name)).unwrap()).unwrap()
}

#[test]
fn qdata_rebuilds_the_stored_lists_of_qdata_made_files_word_for_word() {
    let Some(dir) = corpus() else { return };
    for name in [
        "assimpdeb_faerie.md2",
        "assimpdeb_sydney.md2",
        "glscene_waste.md2",
    ] {
        let model = load(&dir, name);
        let stored = model.decode_gl_commands();
        assert!(stored.faults.is_empty(), "{name}");
        let s = stored.stats(model.gl_commands.len());
        assert_eq!(
            (s.strips, s.fans, s.gl_vertices),
            facts_gl(&dir, &format!("md2/{name}")),
            "{name}: stored list vs facts.json"
        );
        let built = build_qdata(&model);
        assert_eq!(built.len(), model.gl_commands.len(), "{name}: words");
        let first_difference = built
            .iter()
            .zip(&model.gl_commands)
            .position(|(a, b)| a != b);
        assert_eq!(first_difference, None, "{name}");

        // Ours needs fewer commands and vertices than the stored list.
        let ours = decode(&build(&model), model.vertex_count()).stats(0);
        assert!(commands(&ours) < s.strips + s.fans, "{name}");
        assert!(ours.gl_vertices < s.gl_vertices, "{name}");
    }
}

#[test]
fn qdata_matches_the_primitives_of_files_with_other_texture_coordinates() {
    // GLScene's and Maverick Model 3D's writers pick the same strips and
    // fans as qdata (same kinds, same vertex order) but compute the
    // texture coordinates their own way.
    let Some(dir) = corpus() else { return };
    for name in ["glscene_weaponWaste.md2", "mm3d_from_nehe_Model.md2"] {
        let model = load(&dir, name);
        let stored = model.decode_gl_commands();
        assert!(stored.faults.is_empty(), "{name}");
        let s = stored.stats(model.gl_commands.len());
        assert_eq!(
            (s.strips, s.fans, s.gl_vertices),
            facts_gl(&dir, &format!("md2/{name}")),
            "{name}: stored list vs facts.json"
        );
        let built = decode(&build_qdata(&model), model.vertex_count());
        let shape = |d: &Decoded| -> Vec<(PrimitiveKind, Vec<i32>)> {
            d.primitives
                .iter()
                .map(|p| (p.kind, p.vertices.iter().map(|v| v.vertex).collect()))
                .collect()
        };
        assert_eq!(shape(&built), shape(&stored), "{name}");
        assert_ne!(build_qdata(&model), model.gl_commands, "{name}");
    }
}

#[test]
fn stored_lists_of_other_tools_are_not_better_than_ours() {
    // Lists written by other tools, where they are valid: ours needs no
    // more commands or vertices than any of them.
    let Some(dir) = corpus() else { return };
    for path in corpus_md2s(&dir) {
        let Ok(model) = Md2::from_bytes(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        let stored = model.decode_gl_commands();
        if model.gl_commands.len() <= 1 || !stored.faults.is_empty() {
            continue;
        }
        let s = stored.stats(model.gl_commands.len());
        let ours = decode(&build(&model), model.vertex_count()).stats(0);
        // cube2_debris joins triangles whose texture coordinates differ at
        // the shared corners, which we never do: compare only lists that
        // draw the same triangles as ours.
        if drawn(&stored) != drawn(&decode(&build(&model), model.vertex_count())) {
            continue;
        }
        assert!(
            commands(&ours) <= commands(&s) && ours.gl_vertices <= s.gl_vertices,
            "{}: ours {ours:?} stored {s:?}",
            path.display()
        );
    }
}
