//! Names that fit MilkShape's 32-byte fields: at most 31 bytes (the NUL
//! takes the last), unique within their kind, shortened at a character
//! boundary.

use std::collections::HashSet;

use crate::ms3d::limits;

/// A name changed to fit: what it was and what it became.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Renamed {
    /// Index of the item.
    pub index: usize,
    /// The source's name.
    pub from: String,
    /// The name written.
    pub to: String,
}

/// The longest prefix of `s` of at most `max` bytes that ends at a
/// character boundary.
fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Names for `names`, in order: each at most [`limits::NAME`] bytes, none
/// empty (`fallback` and the index instead), NULs replaced by `_`, and
/// unique (ASCII case-insensitively, as MilkShape's joint lookups and
/// Windows file systems treat names): a name already taken gets `_2`,
/// `_3` ... (its text cut to make room). Every change is listed.
pub(crate) fn unique_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
    fallback: &str,
) -> (Vec<String>, Vec<Renamed>) {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    let mut renamed = Vec::new();
    for (index, name) in names.into_iter().enumerate() {
        let clean: String = name
            .chars()
            .map(|c| if c == '\0' { '_' } else { c })
            .collect();
        let base = if clean.trim().is_empty() {
            format!("{fallback}{index}")
        } else {
            clean
        };
        let mut candidate = cut(&base, limits::NAME).to_string();
        let mut n = 2usize;
        while taken.contains(&candidate.to_ascii_lowercase()) {
            let suffix = format!("_{n}");
            candidate = format!("{}{suffix}", cut(&base, limits::NAME - suffix.len()));
            n += 1;
        }
        taken.insert(candidate.to_ascii_lowercase());
        if candidate != name {
            renamed.push(Renamed {
                index,
                from: name.to_string(),
                to: candidate.clone(),
            });
        }
        out.push(candidate);
    }
    (out, renamed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_and_are_unique() {
        let long = "a_very_long_group_name_that_goes_on_and_on";
        let (names, renamed) = unique_names(
            [
                long,
                long,
                "Body",
                "body",
                "",
                "ok",
                "é".repeat(20).as_str(),
            ],
            "group",
        );
        assert_eq!(names[0], &long[..31]);
        assert_eq!(names[1], format!("{}_2", &long[..29]));
        assert_eq!(names[2], "Body");
        assert_eq!(names[3], "body_2");
        assert_eq!(names[4], "group4");
        assert_eq!(names[5], "ok");
        assert_eq!(names[6], "é".repeat(15), "cut at a character boundary");
        assert!(names.iter().all(|n| n.len() <= 31));
        assert_eq!(renamed.len(), 5);
        assert_eq!(renamed[0].index, 0);
    }
}
