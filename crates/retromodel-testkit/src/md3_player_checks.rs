//! Checks of a Quake III player written back (`lower.md3`, `upper.md3`,
//! `head.md3`, `animation.cfg`, `.skin` files) against the player it came
//! from, from the files' bytes and text alone: the cfg's lines read by
//! hand, the frames the game plays worked out as `CG_ParseAnimationFile`
//! (ioquake3 `code/cgame/cg_players.c`) does, and each surface's vertices
//! read by [`md3_geometry`](crate::md3_facts::md3_geometry).

use std::collections::{BTreeMap, BTreeSet};

use crate::md3_facts::{md3_geometry, md3_tags, SurfaceGeometry};

/// The animation lines of a cfg text, read by hand: lines whose first
/// token (comments cut) starts with a digit, four numbers each (first,
/// count, looping, fps).
pub fn cfg_lines(text: &str) -> Vec<[f64; 4]> {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            if !t.first()?.starts_with(|c: char| c.is_ascii_digit()) || t.len() < 4 {
                return None;
            }
            let n: Vec<f64> = t[..4].iter().filter_map(|s| s.parse().ok()).collect();
            n.try_into().ok()
        })
        .collect()
}

/// Where line `i` of `cfg` plays, as the game reads it: its first frame
/// in its part's file (a `LEGS_` line, 13..25, less `first(LEGS_WALKCR) -
/// first(TORSO_GESTURE)`), its frame count, and whether it plays in
/// `lower.md3` (`BOTH_` and `LEGS_`) and in `upper.md3` (`BOTH_` and
/// `TORSO_`: 6..13 and Team Arena's 25..).
pub fn line_in_part(cfg: &[[f64; 4]], i: usize) -> (i64, i64, [bool; 2]) {
    let skip = cfg[13][0] - cfg[6][0];
    let legs = (13..25).contains(&i);
    let torso = (6..13).contains(&i) || i >= 25;
    let first = if legs { cfg[i][0] - skip } else { cfg[i][0] };
    (first as i64, cfg[i][1].abs() as i64, [!torso, !legs])
}

/// The frames of `lower.md3` (`legs`) or `upper.md3` that `cfg`'s lines
/// play ([`line_in_part`]).
pub fn played_frames(cfg: &[[f64; 4]], legs: bool) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for i in 0..cfg.len() {
        let (first, count, plays) = line_in_part(cfg, i);
        if plays[usize::from(!legs)] {
            out.extend((0..count).map(|f| (first + f) as usize));
        }
    }
    out
}

/// Per surface that has a triangle (in order): its name and the set of
/// its vertices that triangles use, each as its texture coordinate's bits
/// and its 1/64-unit position in each of `frames`.
pub fn vertex_sets(
    surfaces: &[SurfaceGeometry],
    frames: &[usize],
) -> Vec<(String, BTreeSet<Vec<i32>>)> {
    surfaces
        .iter()
        .filter(|s| !s.triangles.is_empty())
        .map(|s| {
            let used: BTreeSet<usize> = s
                .triangles
                .iter()
                .flatten()
                .filter_map(|&i| usize::try_from(i).ok())
                .collect();
            let set = used
                .iter()
                .map(|&v| {
                    let mut key = vec![s.st[v][0].to_bits() as i32, s.st[v][1].to_bits() as i32];
                    for &f in frames {
                        key.extend(s.frames[f][v].map(i32::from));
                    }
                    key
                })
                .collect();
            (String::from_utf8_lossy(&s.name).into_owned(), set)
        })
        .collect()
}

/// A `.skin` file's `surface,image` lines, read by hand (tags and blank
/// lines left out), names lower case.
pub fn skin_images(bytes: &[u8]) -> BTreeMap<String, String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter_map(|l| {
            let (s, i) = l.trim().split_once(',')?;
            (!s.starts_with("tag_") && !s.is_empty())
                .then(|| (s.to_ascii_lowercase(), i.trim().to_ascii_lowercase()))
        })
        .collect()
}

/// Compares one part written back (`after`) with the one read
/// (`before`) in `frames` (those past the original's last left out):
/// see [`compare_frames`].
pub fn compare_part(
    before: &[u8],
    after: &[u8],
    frames: &BTreeSet<usize>,
) -> Result<usize, String> {
    let a = md3_geometry(before).ok_or("the original does not read")?;
    let count = a.iter().map(|s| s.frames.len()).max().unwrap_or(0);
    let frames: Vec<usize> = frames.iter().copied().filter(|&f| f < count).collect();
    compare_frames(before, &frames, after, &frames)
}

/// Compares frames `frames_before` of `before` with `frames_after` of
/// `after` (the same number, in order): the same surfaces that have
/// triangles, each with the same set of vertices (texture coordinate and
/// 1/64-unit positions), and every tag of `before` at the same place
/// (origin within `2e-3`, unit axes within `2e-3`). Returns how many
/// vertex-frames were compared, or what differs.
pub fn compare_frames(
    before: &[u8],
    frames_before: &[usize],
    after: &[u8],
    frames_after: &[usize],
) -> Result<usize, String> {
    if frames_before.len() != frames_after.len() {
        return Err(format!(
            "{} frames against {}",
            frames_before.len(),
            frames_after.len()
        ));
    }
    let a = md3_geometry(before).ok_or("the original does not read")?;
    let b = md3_geometry(after).ok_or("the one written does not read")?;
    let has = |s: &[SurfaceGeometry], frames: &[usize]| {
        s.iter().all(|s| frames.iter().all(|&f| f < s.frames.len()))
    };
    if !has(&a, frames_before) || !has(&b, frames_after) {
        return Err("a frame compared is not in the file".to_string());
    }
    let (sa, sb) = (
        vertex_sets(&a, frames_before),
        vertex_sets(&b, frames_after),
    );
    if sa.len() != sb.len() {
        return Err(format!("{} surfaces were, {} are", sa.len(), sb.len()));
    }
    let mut compared = 0;
    for ((name_a, set_a), (name_b, set_b)) in sa.iter().zip(&sb) {
        if name_a != name_b {
            return Err(format!("surface {name_a:?} is now {name_b:?}"));
        }
        if set_a != set_b {
            return Err(format!(
                "{name_a}: {} vertices were, {} are; {} differ",
                set_a.len(),
                set_b.len(),
                set_a.symmetric_difference(set_b).count()
            ));
        }
        compared += set_a.len() * frames_before.len();
    }
    let (ta, tb) = (
        md3_tags(before).ok_or("the original's tags do not read")?,
        md3_tags(after).ok_or("the tags written do not read")?,
    );
    let near = |x: [f32; 3], y: [f32; 3]| x.iter().zip(y).all(|(a, b)| (a - b).abs() <= 2e-3);
    for (&f, &g) in frames_before.iter().zip(frames_after) {
        for t in ta.get(f).map_or(&[][..], Vec::as_slice) {
            let u = tb
                .get(g)
                .and_then(|tags| tags.iter().find(|u| u.name.eq_ignore_ascii_case(&t.name)))
                .ok_or_else(|| format!("tag {:?} lost", String::from_utf8_lossy(&t.name)))?;
            if !near(t.origin, u.origin) {
                return Err(format!("frame {f}: {t:?} is now {u:?}"));
            }
            for (x, y) in t.axes.iter().zip(u.axes) {
                // The lift makes damaged axes orthonormal; a sound tag's
                // come back.
                let len = x.iter().map(|c| c * c).sum::<f32>().sqrt();
                if (len - 1.0).abs() < 1e-3 && !near(*x, y) {
                    return Err(format!("frame {f}: {t:?} is now {u:?}"));
                }
            }
        }
    }
    Ok(compared)
}
