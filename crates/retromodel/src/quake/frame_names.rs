//! What Quake's model formats (MDL, MD2) share about frame names: they
//! store no animation list, so animations are runs of frames whose names
//! share a prefix (`run1`..`run6`).

use std::collections::{HashMap, HashSet};

/// A named run of frames.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Animation {
    /// The name, e.g. `run` or `pain2`.
    pub name: String,
    /// Index of the first frame.
    pub first_frame: usize,
    /// Number of frames.
    pub frame_count: usize,
}

impl Animation {
    /// The frame indices of this animation.
    pub fn frames(&self) -> std::ops::Range<usize> {
        self.first_frame..self.first_frame + self.frame_count
    }
}

/// Splits `name` into its prefix and trailing decimal digits.
pub(crate) fn split_digits(name: &str) -> (&str, &str) {
    let cut = name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    name.split_at(cut)
}

/// Groups frame names into runs (no table of any game): contiguous frames
/// with the same prefix (the name without trailing digits) form an
/// animation; a run is split where its frame number restarts, so
/// `pain101..pain104, pain201..pain204` give `pain1` and `pain2` (the
/// digits before the last two name the part); frames whose names are all
/// alike form one animation; names are made unique (`attack`,
/// `attack_2`).
///
/// ```
/// use retromodel::quake::animations_from_runs;
/// let anims = animations_from_runs(["walk1", "walk2", "flame1", "flame2"]);
/// let summary: Vec<_> = anims.iter().map(|a| (a.name.as_str(), a.first_frame, a.frame_count)).collect();
/// assert_eq!(summary, [("walk", 0, 2), ("flame", 2, 2)]);
/// ```
pub fn animations_from_runs<'a, I>(names: I) -> Vec<Animation>
where
    I: IntoIterator<Item = &'a str>,
{
    let names: Vec<&str> = names.into_iter().collect();
    group_runs(&names)
}

/// A run of frames being collected.
struct Run<'a> {
    prefix: &'a str,
    first: usize,
    numbers: Vec<&'a str>,
}

/// Whether frame number `next` continues a run whose last number is
/// `prev`: it must grow, and not by restarting its low two digits
/// (`104` → `201` restarts; `199` → `200` continues).
fn continues(prev: &str, next: &str) -> bool {
    if prev == next {
        // Names that are all alike (`FRAME 000` throughout) stay together.
        return true;
    }
    let (Ok(p), Ok(n)) = (prev.parse::<u64>(), next.parse::<u64>()) else {
        return false;
    };
    n > p && (n == p + 1 || n % 100 > p % 100)
}

pub(crate) fn group_runs(names: &[&str]) -> Vec<Animation> {
    let mut runs: Vec<Run> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let (prefix, number) = split_digits(name);
        match runs.last_mut() {
            Some(run)
                if run.prefix == prefix
                    && run
                        .numbers
                        .last()
                        .is_some_and(|prev| continues(prev, number)) =>
            {
                run.numbers.push(number);
            }
            _ => runs.push(Run {
                prefix,
                first: i,
                numbers: vec![number],
            }),
        }
    }
    // Counted up front, and names kept in sets: thousands of short runs
    // (a hostile file) must not cost quadratic or cubic time.
    let mut runs_per_prefix = HashMap::<&str, usize>::new();
    for run in &runs {
        *runs_per_prefix.entry(run.prefix).or_default() += 1;
    }
    let mut taken = HashSet::<String>::new();
    // For each name, the suffix to try next: every smaller one is taken.
    let mut next_suffix = HashMap::<String, usize>::new();
    let mut out: Vec<Animation> = Vec::with_capacity(runs.len());
    for run in &runs {
        let numbered = run.numbers.iter().any(|n| !n.is_empty());
        let base = display_name(run.prefix, numbered);
        let base = if base.is_empty() { "frames" } else { base };
        let shared_prefix = runs_per_prefix.get(run.prefix).is_some_and(|&n| n > 1);
        let mut name = base.to_string();
        if shared_prefix {
            // `pain101..pain104`: the digits before the last two name the part.
            if let Some(head) = common_head(&run.numbers) {
                name.push_str(head);
            }
        }
        let mut unique = name.clone();
        let k = next_suffix.entry(name.clone()).or_insert(2);
        while taken.contains(&unique) {
            unique = format!("{name}_{k}");
            *k += 1;
        }
        taken.insert(unique.clone());
        out.push(Animation {
            name: unique,
            first_frame: run.first,
            frame_count: run.numbers.len(),
        });
    }
    out
}

/// A readable animation name from a frame-name prefix: separators at the
/// end are dropped, and so is a number left at the end of frame names
/// that carry no frame number of their own (`FRAME 000......` →
/// `FRAME`). Where the frames are numbered (`numbered`), a number before
/// the separator is part of the name: `attack2_01`, `attack2_02` are the
/// frames of `attack2` (the convention `md2::compile` writes names that
/// end in digits with).
fn display_name(prefix: &str, numbered: bool) -> &str {
    let trimmed = prefix.trim_end_matches(['_', ' ', '-', '.']);
    let without_digits = trimmed.trim_end_matches(|c: char| c.is_ascii_digit());
    if !numbered && without_digits.len() < trimmed.len() {
        let again = without_digits.trim_end_matches(['_', ' ', '-', '.']);
        if !again.is_empty() {
            return again;
        }
    }
    trimmed
}

/// The digits before the last two, when every number in the run has at
/// least three digits and they all share them.
fn common_head<'a>(numbers: &[&'a str]) -> Option<&'a str> {
    let first = numbers.first()?;
    if first.len() < 3 {
        return None;
    }
    let head = &first[..first.len() - 2];
    numbers
        .iter()
        .all(|n| n.len() == first.len() && n.starts_with(head))
        .then_some(head)
}
