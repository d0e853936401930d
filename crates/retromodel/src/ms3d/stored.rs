//! The MS3D's own record of its stored names, carried through a scene so
//! that [`compile`](super::compile::compile) writes them back byte for
//! byte.
//!
//! MilkShape's names are fixed fields of bytes in no stated encoding
//! (Chinese tools write GBK) and may hold bytes after their NUL; a
//! scene's (and glTF's) names are UTF-8 text, so
//! [`Scene::from_ms3d`](crate::scene::Scene::from_ms3d) names things by
//! the lossy decoding and, where that text would not give the same bytes
//! back, records the field as stored, in hexadecimal, under `extras["ms3d"]`
//! of the item (glTF exports extras as they are, and imports them back):
//!
//! - a node (joint): `name` (32 bytes) and `parent` (32 bytes: the parent
//!   name field when it is not the parent joint's name field, e.g. `none`
//!   on a root or bytes after the NUL that differ);
//! - a mesh (group): `name`; a material: `name`, `texture` and `alphamap`
//!   (128 bytes);
//! - empty names too (a compile names nameless items otherwise), so
//!   they stay empty where nothing refers to them by name;
//! - the scene (model comment), a node, mesh or material (its comment):
//!   `comment`, the comment's bytes when they are not UTF-8.
//!
//! A field is written back as recorded only where it still says what the
//! item is called: the recorded bytes (up to the NUL) decode lossily to
//! the item's name (a renamed joint gets its new name), and a recorded
//! parent names the joint's parent, or no joint when the joint is a root.
//! A record that is not hexadecimal of the field's size is ignored with a
//! warning.
//!
//! ```
//! use retromodel::ms3d::compile::{compile, Ms3dCompileOptions};
//! use retromodel::ms3d::sample::sample_model;
//! use retromodel::ms3d::Name32;
//! use retromodel::scene::Scene;
//! use retromodel::ms3d::Ms3dSceneOptions;
//!
//! # fn main() -> Result<(), retromodel::Error> {
//! let mut model = sample_model();
//! // "中" in GBK, then bytes an exporter left after the NUL.
//! let mut field = [0u8; 32];
//! field[..2].copy_from_slice(&[0xd6, 0xd0]);
//! field[5] = 0x7f;
//! model.joints[0].name = Name32(field);
//! model.joints[1].parent = Name32(field);
//! let scene = Scene::from_ms3d(&model, &Ms3dSceneOptions::default())?;
//! assert_eq!(scene.nodes[0].name, "\u{fffd}\u{fffd}");
//! let compiled = compile(&scene, &Ms3dCompileOptions::default())?;
//! assert_eq!(compiled.model.joints[0].name.0, field);
//! assert_eq!(compiled.model.joints[1].parent.0, field);
//! # Ok(()) }
//! ```

use serde_json::{json, Map, Value};

use super::compile::Ms3dCompileWarning;
use super::{Group, Joint, Material, Name128, Name32};

/// The key of the record in an item's extras.
pub(crate) const KEY: &str = "ms3d";

/// Whether `stored` (up to its NUL) is what the text `name` says: its
/// lossy decoding is `name`.
pub(crate) fn says(stored: &[u8], name: &str) -> bool {
    String::from_utf8_lossy(stored) == name
}

/// The field's hexadecimal when writing its lossy text back would not
/// give the same bytes, or when the name is empty (a compile names
/// nameless items).
fn field32(f: &Name32) -> Option<String> {
    (f.as_bytes().is_empty() || *f != Name32::new(&f.to_string_lossy())).then(|| f.hex())
}

fn field128(f: &Name128) -> Option<String> {
    (*f != Name128::new(&f.to_string_lossy())).then(|| f.hex())
}

/// The hexadecimal of a comment that is not UTF-8.
fn comment(text: Option<&[u8]>) -> Option<String> {
    text.filter(|t| std::str::from_utf8(t).is_err())
        .map(crate::name::to_hex)
}

/// A record of the fields given (`None` when there is nothing to record).
fn record(fields: &[(&str, Option<String>)]) -> Option<Value> {
    let map: Map<String, Value> = fields
        .iter()
        .filter_map(|(k, v)| Some((k.to_string(), Value::String(v.clone()?))))
        .collect();
    (!map.is_empty()).then_some(Value::Object(map))
}

/// The record of joint `j`, whose parent field resolved to `parent`.
pub(crate) fn joint(j: &Joint, parent: Option<&Joint>, text: Option<&[u8]>) -> Option<Value> {
    let expected = parent.map_or_else(Name32::default, |p| p.name);
    record(&[
        ("name", field32(&j.name)),
        ("parent", (j.parent != expected).then(|| j.parent.hex())),
        ("comment", comment(text)),
    ])
}

/// The record of group `g`.
pub(crate) fn group(g: &Group, text: Option<&[u8]>) -> Option<Value> {
    record(&[("name", field32(&g.name)), ("comment", comment(text))])
}

/// The record of material `m`.
pub(crate) fn material(m: &Material, text: Option<&[u8]>) -> Option<Value> {
    record(&[
        ("name", field32(&m.name)),
        ("texture", field128(&m.texture)),
        ("alphamap", field128(&m.alphamap)),
        ("comment", comment(text)),
    ])
}

/// The record of the model (its comment).
pub(crate) fn model(text: Option<&[u8]>) -> Option<Value> {
    record(&[("comment", comment(text))])
}

/// Puts `record` into `extras` (made an object if it is `null`; an
/// object the caller made, so never anything else).
pub(crate) fn attach(extras: &mut Value, record: Option<Value>) {
    let Some(record) = record else { return };
    if extras.is_null() {
        *extras = json!({});
    }
    if let Some(map) = extras.as_object_mut() {
        map.insert(KEY.to_string(), record);
    }
}

/// Reads the record of one item back; every problem is a warning.
pub(crate) struct Reader<'a> {
    /// The item's path, e.g. `nodes[3]`.
    pub what: String,
    /// The item's extras.
    pub extras: &'a Value,
    /// The record, if any.
    record: Option<&'a Value>,
}

impl<'a> Reader<'a> {
    /// The record in `extras` of the item at `what`.
    pub fn new(
        extras: &'a Value,
        what: String,
        warnings: &mut Vec<Ms3dCompileWarning>,
    ) -> Reader<'a> {
        let record = extras.get(KEY);
        let record = match record {
            Some(r) if !r.is_object() => {
                warnings.push(Ms3dCompileWarning::StoredNameIgnored {
                    what: format!("{what}.extras.{KEY}"),
                    reason: "not an object".to_string(),
                });
                None
            }
            r => r,
        };
        Reader {
            what,
            extras,
            record,
        }
    }

    /// The bytes of `key`, when recorded as hexadecimal of `len` bytes
    /// (any length when `None`).
    fn bytes(
        &self,
        key: &str,
        len: Option<usize>,
        warnings: &mut Vec<Ms3dCompileWarning>,
    ) -> Option<Vec<u8>> {
        let value = self.record?.get(key)?;
        let ignored = |reason: String, warnings: &mut Vec<Ms3dCompileWarning>| {
            warnings.push(Ms3dCompileWarning::StoredNameIgnored {
                what: format!("{}.extras.{KEY}.{key}", self.what),
                reason,
            });
        };
        let Some(text) = value.as_str() else {
            ignored("not text".to_string(), warnings);
            return None;
        };
        let Some(bytes) = crate::name::from_hex(text) else {
            ignored("not hexadecimal".to_string(), warnings);
            return None;
        };
        match len {
            Some(n) if bytes.len() != n => {
                ignored(
                    format!("{} bytes, not the field's {n}", bytes.len()),
                    warnings,
                );
                None
            }
            _ => Some(bytes),
        }
    }

    /// A recorded 32-byte field.
    pub fn name32(&self, key: &str, warnings: &mut Vec<Ms3dCompileWarning>) -> Option<Name32> {
        let b = self.bytes(key, Some(32), warnings)?;
        Some(Name32(<[u8; 32]>::try_from(b.as_slice()).ok()?))
    }

    /// A recorded 128-byte field.
    pub fn name128(&self, key: &str, warnings: &mut Vec<Ms3dCompileWarning>) -> Option<Name128> {
        let b = self.bytes(key, Some(128), warnings)?;
        Some(Name128(<[u8; 128]>::try_from(b.as_slice()).ok()?))
    }

    /// The recorded bytes of a comment whose text is `text`: used when
    /// they say it (decode lossily to it).
    pub fn comment(&self, text: &str, warnings: &mut Vec<Ms3dCompileWarning>) -> Option<Vec<u8>> {
        self.bytes("comment", None, warnings)
            .filter(|b| says(b, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_fields_text_cannot_give_back_are_recorded() {
        let mut j = Joint {
            name: Name32::new("arm"),
            parent: Name32::new("none"),
            ..Joint::default()
        };
        let root = Joint {
            name: Name32::new("root"),
            ..Joint::default()
        };
        // `none` on a root: recorded; a plain name: not.
        let r = joint(&j, None, None).unwrap();
        assert_eq!(r, json!({ "parent": Name32::new("none").hex() }));
        j.parent = Name32::new("root");
        assert_eq!(joint(&j, Some(&root), Some(b"ok")), None);
        // GBK and a comment that is not UTF-8.
        j.name = Name32::new("");
        j.name.0[..2].copy_from_slice(&[0xd6, 0xd0]);
        let r = joint(&j, Some(&root), Some(&[0xff])).unwrap();
        assert_eq!(r["name"], json!(format!("d6d0{}", "00".repeat(30))));
        assert_eq!(r["comment"], json!("ff"));
    }

    #[test]
    fn bad_records_are_ignored_with_a_warning() {
        let mut warnings = Vec::new();
        let extras = json!({ "ms3d": {
            "name": "zz", "parent": "00", "comment": 3, "texture": "00".repeat(128)
        }});
        let r = Reader::new(&extras, "nodes[0]".to_string(), &mut warnings);
        assert_eq!(r.name32("name", &mut warnings), None);
        assert_eq!(r.name32("parent", &mut warnings), None);
        assert_eq!(r.comment("x", &mut warnings), None);
        assert_eq!(
            r.name128("texture", &mut warnings),
            Some(Name128::default())
        );
        assert_eq!(r.name32("absent", &mut warnings), None);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        let extras = json!({ "ms3d": [1] });
        Reader::new(&extras, "meshes[0]".to_string(), &mut warnings);
        assert_eq!(warnings.len(), 4);
    }
}
