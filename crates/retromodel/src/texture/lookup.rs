//! The texture lookup rules, apart from any storage: how an untrusted
//! texture name is checked and split, which names are tried in which
//! folders and in which order, how a folder entry matches a name and which
//! of several matches below a root comes first.
//!
//! [`TextureResolver`](super::TextureResolver) walks these steps on the
//! file system and [`MemorySource`](super::MemorySource) over files held in
//! memory (a web page's dropped files), so both find the same file for the
//! same name in the same tree.

use std::cmp::Ordering;

use super::resolve::{Refusal, IMAGE_EXTENSIONS};

/// Longest texture name accepted, in bytes.
pub(crate) const MAX_NAME_LEN: usize = 1024;

/// The two passes of a lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    /// The file name as written (or with each image extension when it has
    /// none).
    Exact,
    /// Other image extensions for a name that has one.
    OtherExtensions,
}

/// One step of the search in the model's folder and the roots: follow
/// `dirs` from a folder, then open the first of `files` there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FolderStep<'a> {
    /// The suffix of the name this step tries (`dirs` and the file name as
    /// written), for the list of places tried.
    pub suffix: &'a [String],
    /// The folders to follow, as written (matched case-insensitively).
    pub dirs: &'a [String],
    /// The file names to try, in order (matched case-insensitively).
    pub files: Vec<String>,
    /// The pass the step belongs to (places are listed for `Exact` only).
    pub pass: Pass,
}

/// One step of the search anywhere below the roots: every file called
/// `file` (lower case), the one whose folders match `dirs` best first
/// ([`closest_first`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AnywhereStep {
    /// The file name, lower case.
    pub file: String,
    /// The name's folders, lower case.
    pub dirs: Vec<String>,
}

/// The lookup of one texture name: its forms (as written and, for a
/// UFO:AI `.name`, without the dot), from which the steps follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lookup {
    forms: Vec<Vec<String>>,
}

impl Lookup {
    /// Checks and splits `name` (untrusted, as stored in a model).
    pub fn new(name: &str) -> Result<Lookup, Refusal> {
        let components = parse_name(name)?;
        let mut forms = vec![components.clone()];
        if let Some(last) = components.last() {
            let stripped = last.trim_start_matches('.');
            if last.starts_with('.') && !stripped.is_empty() && !stripped.contains('.') {
                let mut form = components.clone();
                if let Some(l) = form.last_mut() {
                    *l = stripped.to_owned();
                }
                forms.push(form);
            }
        }
        Ok(Lookup { forms })
    }

    /// The steps in the model's folder and the roots, in order: for each
    /// pass, each form, each ever shorter suffix of it. Each step is tried
    /// in every folder (the model's first) before the next.
    pub fn folder_steps(&self) -> impl Iterator<Item = FolderStep<'_>> {
        [Pass::Exact, Pass::OtherExtensions]
            .into_iter()
            .flat_map(move |pass| {
                self.forms.iter().flat_map(move |form| {
                    (0..form.len()).filter_map(move |start| {
                        let suffix = &form[start..];
                        let (file, dirs) = suffix.split_last()?;
                        let files = alternatives(file, pass);
                        (!files.is_empty()).then_some(FolderStep {
                            suffix,
                            dirs,
                            files,
                            pass,
                        })
                    })
                })
            })
    }

    /// The steps anywhere below the roots, in order: for each pass, each
    /// form, each file name of the pass.
    pub fn anywhere_steps(&self) -> impl Iterator<Item = AnywhereStep> + '_ {
        [Pass::Exact, Pass::OtherExtensions]
            .into_iter()
            .flat_map(move |pass| {
                self.forms
                    .iter()
                    .filter_map(|form| form.split_last())
                    .flat_map(move |(file, dirs)| {
                        let dirs: Vec<String> = dirs.iter().map(|d| d.to_lowercase()).collect();
                        alternatives(file, pass)
                            .into_iter()
                            .map(move |alt| AnywhereStep {
                                file: alt.to_lowercase(),
                                dirs: dirs.clone(),
                            })
                    })
            })
    }
}

/// The file names tried beside a model for a skin named like it
/// (`tris.md2` → `tris.pcx`, `tris.png`, ... in [`IMAGE_EXTENSIONS`]
/// order), with the stem; refused as texture names are.
pub(crate) fn beside_model_names(model_file_name: &str) -> Result<(String, Vec<String>), Refusal> {
    let file_name = model_file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(model_file_name);
    let stem = match file_name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => file_name,
    };
    let components = parse_name(stem)?;
    let [stem] = components.as_slice() else {
        return Err(Refusal::NoFileName);
    };
    let names = IMAGE_EXTENSIONS
        .iter()
        .map(|ext| format!("{stem}.{ext}"))
        .collect();
    Ok((stem.clone(), names))
}

/// The file names tried for `file` in a pass.
pub(crate) fn alternatives(file: &str, pass: Pass) -> Vec<String> {
    let split = file
        .rsplit_once('.')
        .filter(|(stem, ext)| !stem.is_empty() && !ext.is_empty());
    let with = |stem: &str| -> Vec<String> {
        IMAGE_EXTENSIONS
            .iter()
            .map(|ext| format!("{stem}.{ext}"))
            .collect()
    };
    match (split, pass) {
        (None, Pass::Exact) => with(file),
        (None, Pass::OtherExtensions) => Vec::new(),
        (Some(_), Pass::Exact) => vec![file.to_owned()],
        (Some((stem, ext)), Pass::OtherExtensions) => {
            let ext = ext.to_ascii_lowercase();
            if IMAGE_EXTENSIONS.contains(&ext.as_str()) {
                // `skin.pcx` → `skin.png`, ...
                let mut alts = with(stem);
                alts.retain(|alt| !alt.eq_ignore_ascii_case(file));
                alts
            } else {
                // `body.001` → `body.001.png`, ...
                with(file)
            }
        }
    }
}

/// Splits an untrusted texture name (or a path relative to a folder) into
/// plain components, or refuses it: absolute and root-relative paths,
/// drive prefixes, `..` components (and components of dots and spaces
/// that Windows may read as `..`), control characters and `:`.
pub(crate) fn parse_name(name: &str) -> Result<Vec<String>, Refusal> {
    let name = name.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    if name.len() > MAX_NAME_LEN {
        return Err(Refusal::TooLong);
    }
    if name.starts_with(['/', '\\']) {
        return Err(Refusal::Absolute);
    }
    let bytes = name.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Err(Refusal::DrivePrefix);
    }
    if let Some(c) = name.chars().find(|&c| c.is_control() || c == ':') {
        return Err(Refusal::ForbiddenCharacter(c));
    }
    let mut components = Vec::new();
    for part in name.split(['/', '\\']) {
        if part.is_empty() || part == "." {
            continue;
        }
        if part.contains("..") && part.chars().all(|c| c == '.' || c == ' ') {
            return Err(Refusal::ParentComponent);
        }
        components.push(part.to_owned());
    }
    // A trailing separator names a folder.
    if components.is_empty() || name.ends_with(['/', '\\']) {
        return Err(Refusal::NoFileName);
    }
    Ok(components)
}

/// The entries of one folder, for case-insensitive matching: (lower-case
/// name, name), sorted by name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
    entries: Vec<(String, String)>,
}

impl Listing {
    /// The listing of the entries `names`.
    pub fn new(names: impl IntoIterator<Item = String>) -> Listing {
        let mut entries: Vec<(String, String)> = names
            .into_iter()
            .map(|name| (name.to_lowercase(), name))
            .collect();
        entries.sort_by(|a, b| a.1.cmp(&b.1));
        entries.dedup_by(|a, b| a.1 == b.1);
        Listing { entries }
    }

    /// The entry called `name`: exactly, or else the first (by name) whose
    /// name matches case-insensitively.
    pub fn find(&self, name: &str) -> Option<&str> {
        if let Ok(i) = self.entries.binary_search_by(|e| e.1.as_str().cmp(name)) {
            return Some(&self.entries[i].1);
        }
        self.find_ignoring_case(name)
    }

    /// The first entry (by name) whose name matches `name`
    /// case-insensitively.
    pub fn find_ignoring_case(&self, name: &str) -> Option<&str> {
        let wanted = name.to_lowercase();
        self.entries
            .iter()
            .find(|(lower, _)| *lower == wanted)
            .map(|(_, entry)| entry.as_str())
    }
}

/// Orders the files found below the roots for a name whose folders are
/// `wanted` (lower case): the most trailing folders in common with the
/// name first, then the shallowest, then by `tie` (their paths, so the
/// order is the same in every run).
pub(crate) fn closest_first<T>(
    matches: &mut [T],
    wanted: &[String],
    dirs_of: impl Fn(&T) -> &[String],
    tie: impl Fn(&T, &T) -> Ordering,
) {
    matches.sort_by(|a, b| {
        let (da, db) = (dirs_of(a), dirs_of(b));
        common_suffix(db, wanted)
            .cmp(&common_suffix(da, wanted))
            .then(da.len().cmp(&db.len()))
            .then_with(|| tie(a, b))
    });
}

/// How many trailing folder names `a` and `b` share.
fn common_suffix(a: &[String], b: &[String]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_split_and_checked() {
        let ok = |s: &str| parse_name(s).unwrap();
        assert_eq!(
            ok("players/male/grunt.pcx"),
            ["players", "male", "grunt.pcx"]
        );
        assert_eq!(ok(".\\jeep1.jpg"), ["jeep1.jpg"]);
        assert_eq!(ok("textures\\skin.tga"), ["textures", "skin.tga"]);
        assert_eq!(ok(".alientank"), [".alientank"]);
        assert_eq!(ok("a//./b.png"), ["a", "b.png"]);
        assert_eq!(ok("...png"), ["...png"]);
        let no = |s: &str| parse_name(s).unwrap_err();
        assert_eq!(no("../x.pcx"), Refusal::ParentComponent);
        assert_eq!(no("a/../../x.pcx"), Refusal::ParentComponent);
        assert_eq!(no("a\\..\\x.pcx"), Refusal::ParentComponent);
        assert_eq!(no("a/.. /x.pcx"), Refusal::ParentComponent);
        assert_eq!(no("a/.../x.pcx"), Refusal::ParentComponent);
        assert_eq!(no("/etc/passwd"), Refusal::Absolute);
        assert_eq!(no("\\\\server\\share\\x.pcx"), Refusal::Absolute);
        assert_eq!(no("C:\\Windows\\x.pcx"), Refusal::DrivePrefix);
        assert_eq!(no("c:x.pcx"), Refusal::DrivePrefix);
        assert_eq!(no("x.pcx:stream"), Refusal::ForbiddenCharacter(':'));
        assert_eq!(no("x\u{1}.pcx"), Refusal::ForbiddenCharacter('\u{1}'));
        assert_eq!(no(""), Refusal::NoFileName);
        assert_eq!(no(".\\"), Refusal::NoFileName);
        assert_eq!(no("players/nehe/"), Refusal::NoFileName);
        assert_eq!(no(&"a".repeat(2000)), Refusal::TooLong);
    }

    #[test]
    fn alternatives_per_pass() {
        assert_eq!(alternatives("skin.pcx", Pass::Exact), ["skin.pcx"]);
        assert_eq!(
            alternatives("skin.PCX", Pass::OtherExtensions),
            ["skin.png", "skin.tga", "skin.jpg", "skin.jpeg", "skin.bmp"]
        );
        assert_eq!(alternatives("alientank", Pass::Exact).len(), 6);
        assert!(alternatives("alientank", Pass::OtherExtensions).is_empty());
        assert_eq!(
            alternatives("body.001", Pass::OtherExtensions)[0],
            "body.001.pcx"
        );
    }

    #[test]
    fn steps_go_pass_by_pass_then_form_by_form_then_suffix_by_suffix() {
        let lookup = Lookup::new("models/.tank").unwrap();
        let steps: Vec<(Vec<String>, Vec<String>, Pass)> = lookup
            .folder_steps()
            .map(|s| (s.suffix.to_vec(), s.files.clone(), s.pass))
            .collect();
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        // `.tank` has no extension: each image extension, in the first pass.
        assert_eq!(steps[0].0, v(&["models", ".tank"]));
        assert_eq!(steps[0].1[0], ".tank.pcx");
        assert_eq!(steps[1].0, v(&[".tank"]));
        // Then the form without the dot.
        assert_eq!(steps[2].0, v(&["models", "tank"]));
        assert_eq!(steps[2].1[1], "tank.png");
        assert_eq!(steps[3].0, v(&["tank"]));
        // No second pass for names without an extension.
        assert_eq!(steps.len(), 4);
        assert!(steps.iter().all(|s| s.2 == Pass::Exact));

        let lookup = Lookup::new("A/Skin.PCX").unwrap();
        let anywhere: Vec<AnywhereStep> = lookup.anywhere_steps().collect();
        assert_eq!(anywhere[0].file, "skin.pcx");
        assert_eq!(anywhere[0].dirs, ["a"]);
        assert_eq!(anywhere[1].file, "skin.png");
        assert_eq!(anywhere.len(), 6);
    }

    #[test]
    fn listings_match_exactly_then_ignoring_case() {
        let l = Listing::new(["skin.PCX", "Skin.pcx", "b.png"].map(String::from));
        assert_eq!(l.find("skin.PCX"), Some("skin.PCX"));
        // Sorted by name: "Skin.pcx" < "skin.PCX".
        assert_eq!(l.find("SKIN.pcx"), Some("Skin.pcx"));
        assert_eq!(l.find("c.png"), None);
    }

    #[test]
    fn closest_matches_come_first() {
        let d = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut found = [d(&["zz", "a"]), d(&["textures"]), d(&["zz", "monster"])];
        closest_first(&mut found, &d(&["monster"]), |x| x, |a, b| a.cmp(b));
        assert_eq!(found[0], d(&["zz", "monster"]));
        assert_eq!(found[1], d(&["textures"]));
        closest_first(&mut found, &[], |x| x, |a, b| a.cmp(b));
        assert_eq!(found[0], d(&["textures"]));
    }

    #[test]
    fn skins_beside_a_model_are_named_like_it() {
        let (stem, names) = beside_model_names("models/Tris.MD2").unwrap();
        assert_eq!(stem, "Tris");
        assert_eq!(names[0], "Tris.pcx");
        assert_eq!(names.len(), IMAGE_EXTENSIONS.len());
        assert_eq!(
            beside_model_names("c:tris.md2").unwrap_err(),
            Refusal::DrivePrefix
        );
    }
}
