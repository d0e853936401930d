//! Names that fit MilkShape's 32-byte fields: at most 31 bytes (the NUL
//! takes the last), unique within their kind, shortened at a character
//! boundary; or the fields the source MS3D stored, where they still apply
//! (`ms3d::stored`).

use std::collections::HashSet;

use serde_json::Value;

use super::joints::JointPlan;
use super::report::Ms3dCompileWarning;
use crate::ms3d::{limits, stored, Name32};
use crate::scene::Scene;

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

/// The key a name is taken by: its bytes, ASCII lower-cased.
fn key(bytes: &[u8]) -> Vec<u8> {
    bytes.to_ascii_lowercase()
}

/// Name fields for `names` (each the item's text and, when the source
/// MS3D recorded it, the field as stored), in order. A recorded field is
/// written as it was (bytes after the NUL included) when it says the text
/// (see [`stored::says`]), has its NUL and is not taken (an empty name
/// takes nothing: nothing finds an item by it).
/// Else the text: at most [`limits::NAME`] bytes, none empty (`fallback`
/// and the index instead), NULs replaced by `_`, and unique (ASCII
/// case-insensitively, as MilkShape's joint lookups and Windows file
/// systems treat names): a name already taken gets `_2`, `_3` ... (its
/// text cut to make room). Every change is listed.
pub(crate) fn unique_names<'a>(
    names: impl IntoIterator<Item = (&'a str, Option<Name32>)>,
    fallback: &str,
) -> (Vec<Name32>, Vec<Renamed>) {
    let mut taken: HashSet<Vec<u8>> = HashSet::new();
    let mut out = Vec::new();
    let mut renamed = Vec::new();
    for (index, (name, recorded)) in names.into_iter().enumerate() {
        let exact = recorded.filter(|r| {
            !r.is_unterminated()
                && stored::says(r.as_bytes(), name)
                && !taken.contains(&key(r.as_bytes()))
        });
        if let Some(field) = exact {
            if !field.as_bytes().is_empty() {
                taken.insert(key(field.as_bytes()));
            }
            out.push(field);
            continue;
        }
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
        while taken.contains(&key(candidate.as_bytes())) {
            let suffix = format!("_{n}");
            candidate = format!("{}{suffix}", cut(&base, limits::NAME - suffix.len()));
            n += 1;
        }
        taken.insert(key(candidate.as_bytes()));
        if candidate != name {
            renamed.push(Renamed {
                index,
                from: name.to_string(),
                to: candidate.clone(),
            });
        }
        out.push(Name32::new(&candidate));
    }
    (out, renamed)
}

/// The parent fields of joints whose parents are `parents` and names
/// `names`: the parent's name field (all zeros for a root), or the field
/// the source MS3D recorded (`recorded`, e.g. `none` on a root) where it
/// names the same parent: the parent's name, or, for a root, no joint.
pub(crate) fn parent_fields(
    parents: &[Option<usize>],
    names: &[Name32],
    recorded: &[Option<Name32>],
) -> Vec<Name32> {
    parents
        .iter()
        .enumerate()
        .map(|(i, parent)| {
            let computed = parent.and_then(|p| names.get(p).copied());
            let fits = |r: &Name32| {
                !r.is_unterminated()
                    && match computed {
                        Some(p) => r.as_bytes() == p.as_bytes(),
                        None => {
                            r.as_bytes().is_empty()
                                || !names.iter().any(|n| n.as_bytes() == r.as_bytes())
                        }
                    }
            };
            match recorded.get(i).copied().flatten().filter(fits) {
                Some(r) => r,
                None => computed.unwrap_or_default(),
            }
        })
        .collect()
}

/// The records of stored names (`ms3d::stored`) of the scene's meshes,
/// materials, joints (in plan order) and the scene itself.
pub(crate) struct StoredRecords<'a> {
    pub meshes: Vec<stored::Reader<'a>>,
    pub materials: Vec<stored::Reader<'a>>,
    pub joints: Vec<stored::Reader<'a>>,
    pub model: stored::Reader<'a>,
}

fn stored_records<'a>(
    scene: &'a Scene,
    plan: &JointPlan,
    warnings: &mut Vec<Ms3dCompileWarning>,
) -> StoredRecords<'a> {
    let mut reader = |x: &'a Value, what: String| stored::Reader::new(x, what, warnings);
    StoredRecords {
        meshes: (scene.meshes.iter().enumerate())
            .map(|(i, m)| reader(&m.extras, format!("meshes[{i}]")))
            .collect(),
        materials: (scene.materials.iter().enumerate())
            .map(|(i, m)| reader(&m.extras, format!("materials[{i}]")))
            .collect(),
        joints: (plan.joints.iter())
            .map(|j| reader(&scene.nodes[j.node].extras, format!("nodes[{}]", j.node)))
            .collect(),
        model: reader(&scene.extras, "scene".to_string()),
    }
}

/// The name fields of a compile, and the records they came from (for the
/// comments).
pub(crate) struct Named<'a> {
    pub records: StoredRecords<'a>,
    /// Per scene mesh.
    pub groups: Vec<Name32>,
    /// Per scene material.
    pub materials: Vec<Name32>,
    /// Per planned joint.
    pub joints: Vec<Name32>,
    /// Per planned joint: its parent field.
    pub parents: Vec<Name32>,
}

/// Names every group, material and joint of the compile of `scene`
/// ([`unique_names`], [`parent_fields`]), each change a warning.
pub(crate) fn name_all<'a>(
    scene: &'a Scene,
    plan: &JointPlan,
    warnings: &mut Vec<Ms3dCompileWarning>,
) -> Named<'a> {
    let records = stored_records(scene, plan, warnings);
    let recorded = |r: &[stored::Reader], key: &str, warnings: &mut Vec<_>| -> Vec<_> {
        r.iter().map(|r| r.name32(key, warnings)).collect()
    };
    let stored_groups = recorded(&records.meshes, "name", warnings);
    let stored_materials = recorded(&records.materials, "name", warnings);
    let mut stored_joints = recorded(&records.joints, "name", warnings);
    // An empty name stays empty only on a joint no joint names as parent.
    for j in &plan.joints {
        if let Some(s) = j.parent.and_then(|p| stored_joints.get_mut(p)) {
            if s.is_some_and(|n| n.as_bytes().is_empty()) {
                *s = None;
            }
        }
    }
    let stored_parents = recorded(&records.joints, "parent", warnings);
    let mut named = |kind: &str, names: Vec<&str>, stored: Vec<_>, fallback: &str| {
        let (out, renamed) = unique_names(names.into_iter().zip(stored), fallback);
        for r in renamed {
            warnings.push(Ms3dCompileWarning::NameShortened {
                what: format!("{kind}[{}].name", r.index),
                from: r.from,
                to: r.to,
            });
        }
        out
    };
    let groups = named(
        "groups",
        scene.meshes.iter().map(|m| m.name.as_str()).collect(),
        stored_groups,
        "group",
    );
    let materials = named(
        "materials",
        scene.materials.iter().map(|m| m.name.as_str()).collect(),
        stored_materials,
        "material",
    );
    let joints = named(
        "joints",
        plan.joints
            .iter()
            .map(|j| scene.nodes[j.node].name.as_str())
            .collect(),
        stored_joints,
        "joint",
    );
    let parents: Vec<Option<usize>> = plan.joints.iter().map(|j| j.parent).collect();
    let parents = parent_fields(&parents, &joints, &stored_parents);
    Named {
        records,
        groups,
        materials,
        joints,
        parents,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_and_are_unique() {
        let long = "a_very_long_group_name_that_goes_on_and_on";
        let e20 = "é".repeat(20);
        let (names, renamed) = unique_names(
            [long, long, "Body", "body", "", "ok", e20.as_str()].map(|n| (n, None)),
            "group",
        );
        let names: Vec<String> = names.iter().map(Name32::to_string_lossy).collect();
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

    /// A field with `bytes` and then `tail` after the NUL.
    fn field(bytes: &[u8], tail: &[u8]) -> Name32 {
        let mut f = [0u8; 32];
        f[..bytes.len()].copy_from_slice(bytes);
        f[bytes.len() + 1..bytes.len() + 1 + tail.len()].copy_from_slice(tail);
        Name32(f)
    }

    #[test]
    fn recorded_fields_come_back_where_they_still_say_the_name() {
        // Two GBK names ("中", "文") decode to the same text.
        let head = field(&[0xd6, 0xd0], b"junk");
        let hand = field(&[0xce, 0xc4], b"");
        let lossy = head.to_string_lossy();
        assert_eq!(lossy, hand.to_string_lossy());
        let full = Name32([b'a'; 32]);
        let (names, renamed) = unique_names(
            [
                (lossy.as_str(), Some(head)),
                (lossy.as_str(), Some(hand)),
                ("renamed", Some(head)),
                (lossy.as_str(), Some(head)),
                (&"a".repeat(32), Some(full)),
                ("", Some(field(b"", b"tail"))),
                ("", Some(field(b"", b""))),
                ("", None),
            ],
            "joint",
        );
        assert_eq!(names[0], head, "bytes after the NUL too");
        assert_eq!(names[1], hand);
        assert_eq!(names[2], Name32::new("renamed"), "the new name wins");
        assert_eq!(
            names[3],
            Name32::new(&lossy),
            "the field is taken: the text"
        );
        assert_eq!(names[4], Name32::new(&"a".repeat(31)), "no NUL: cut");
        assert_eq!(names[5], field(b"", b"tail"), "empty as stored");
        assert_eq!(names[6], Name32::default(), "empty takes nothing");
        assert_eq!(names[7], Name32::new("joint7"), "nameless: named");
        assert_eq!(renamed.len(), 2);
        // Parents: the recorded field where it names the same parent.
        let none = Name32::new("none");
        let parents = parent_fields(
            &[None, Some(0), Some(1), None],
            &names[..4],
            &[
                Some(none),
                Some(field(&[0xd6, 0xd0], b"x")),
                Some(head),
                Some(hand),
            ],
        );
        assert_eq!(parents[0], none, "a root whose parent field says none");
        assert_eq!(parents[1], field(&[0xd6, 0xd0], b"x"));
        assert_eq!(
            parents[2], hand,
            "recorded parent no longer the parent's name"
        );
        assert_eq!(parents[3], Name32::default(), "would name a joint");
    }
}
