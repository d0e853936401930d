//! Reading the glTF JSON with a JSON pointer for every value, so that every
//! error says where it is (`/accessors/12/count: expected a non-negative
//! integer, found "abc"`).
//!
//! The document is parsed by `serde_json`'s parser (its recursion limit of
//! 128 levels keeps a deeply nested document from overflowing the stack)
//! into a [`Json`] tree, which borrows its strings from the input where it
//! can and keeps each object's members in a sorted `Vec`: the same values,
//! member order and duplicate-key rule (the last wins) as a
//! `serde_json::Value`, at a fraction of the allocations. `extras` are
//! handed out as `Value`s. This module only looks values up and checks
//! their types.

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

use crate::error::{Error, Result};

/// A JSON value, as `serde_json::Value` but borrowing from the input.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as `serde_json` keeps it.
    Number(Number),
    /// A string (borrowed unless it has escapes).
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object.
    Object(Object<'a>),
}

/// An object's members, sorted by key, each key once (the last of
/// duplicates), as in a `serde_json::Map` without `preserve_order`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Object<'a> {
    members: Vec<(Cow<'a, str>, Json<'a>)>,
}

impl<'a> Object<'a> {
    /// The member `key` (a scan: glTF objects have a few members, and
    /// comparing lengths first rules most out without a `memcmp`).
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.members
            .iter()
            .find(|(k, _)| k.len() == key.len() && k.as_bytes() == key.as_bytes())
            .map(|(_, v)| v)
    }

    /// The members in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.members.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|(k, _)| k.as_ref())
    }
}

impl<'a> Json<'a> {
    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The number as `u64`, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// The number as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    /// The same value as a `serde_json::Value` (recursion as deep as the
    /// parser allowed: at most 128 levels).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(a) => Value::Array(a.iter().map(Json::to_value).collect()),
            Json::Object(o) => Value::Object(
                o.members
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] with the same visits as `serde_json::Value`'s.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> std::result::Result<Json<'de>, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<Json<'de>, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<Json<'de>, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> std::result::Result<Json<'de>, E> {
        Ok(Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> std::result::Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v)))
    }

    fn visit_none<E>(self) -> std::result::Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Json<'de>, D::Error> {
        serde::Deserialize::deserialize(d)
    }

    fn visit_unit<E>(self) -> std::result::Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Json<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let value = map.next_value()?;
            members.push((key, value));
        }
        // Sorted by key (stable: duplicates stay in document order), then
        // each run of duplicates keeps the last value, as a `BTreeMap`'s
        // inserts would.
        if !members.is_sorted_by(|a, b| a.0 < b.0) {
            members.sort_by(|a, b| a.0.cmp(&b.0));
            members.dedup_by(|later, kept| {
                if later.0 == kept.0 {
                    std::mem::swap(&mut later.1, &mut kept.1);
                    true
                } else {
                    false
                }
            });
        }
        Ok(Json::Object(Object { members }))
    }
}

/// An object's key, borrowed when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

/// See [`KeySeed`].
struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> std::result::Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// An error at `path`.
pub(crate) fn err(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::Gltf {
        path: path.into(),
        message: message.into(),
    }
}

/// `key` escaped for a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub(crate) fn escape(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}

/// A short description of a value for messages: its type and, for small
/// values, the value (`string "abc"`, `a number (-1)`, `an object`).
pub(crate) fn describe(value: &Json) -> String {
    match value {
        Json::Null => "null".to_string(),
        Json::Bool(b) => format!("{b}"),
        Json::Number(n) => format!("the number {n}"),
        Json::String(s) if s.len() <= 40 => format!("the string {s:?}"),
        Json::String(_) => "a string".to_string(),
        Json::Array(a) => format!("an array of {}", a.len()),
        Json::Object(_) => "an object".to_string(),
    }
}

/// [`describe`] for a `serde_json::Value` (extras, which are kept as such).
pub(crate) fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.len() <= 40 => format!("the string {s:?}"),
        Value::String(_) => "a string".to_string(),
        Value::Array(a) => format!("an array of {}", a.len()),
        Value::Object(_) => "an object".to_string(),
    }
}

/// A JSON value with its pointer.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    /// The value.
    pub value: &'a Json<'a>,
    /// Where it is; the pointer's text is built only for messages.
    pub path: Path<'a>,
}

/// A JSON pointer, kept as a chain of borrowed parts so that walking the
/// document allocates nothing until a message needs the text.
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    /// The document.
    Root,
    /// A member of an object.
    Key(&'a Path<'a>, &'a str),
    /// An element of an array.
    Index(&'a Path<'a>, usize),
    /// An element of a top-level array (`/meshes/3`).
    Item(&'static str, usize),
    /// Element of an array member of an object (`…/primitives/1`).
    KeyIndex(&'a Path<'a>, &'a str, usize),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Iterative: the chain is as deep as the JSON (at most 128).
        let mut parts: Vec<&Path> = Vec::new();
        let mut at = self;
        loop {
            parts.push(at);
            match at {
                Path::Root | Path::Item(..) => break,
                Path::Key(p, _) | Path::Index(p, _) | Path::KeyIndex(p, _, _) => at = p,
            }
        }
        for part in parts.iter().rev() {
            match part {
                Path::Root => {}
                Path::Item(k, i) => write!(f, "/{k}/{i}")?,
                Path::Key(_, k) => write!(f, "/{}", escape(k))?,
                Path::Index(_, i) => write!(f, "/{i}")?,
                Path::KeyIndex(_, k, i) => write!(f, "/{}/{i}", escape(k))?,
            }
        }
        Ok(())
    }
}

impl Path<'_> {
    /// The pointer's text.
    pub fn text(&self) -> String {
        self.to_string()
    }
}

/// The pointer of `key` below `path` as text.
pub(crate) fn key_path(path: &Path, key: &str) -> String {
    format!("{path}/{}", escape(key))
}

impl<'a> At<'a> {
    /// The document's root.
    pub fn root(value: &'a Json<'a>) -> At<'a> {
        At {
            value,
            path: Path::Root,
        }
    }

    /// Element `index` of the top-level array `key` (`/meshes/3`).
    pub fn item(key: &'static str, index: usize, value: &'a Json<'a>) -> At<'a> {
        At {
            value,
            path: Path::Item(key, index),
        }
    }

    /// The elements of array member `key`, each with its path (none when
    /// absent).
    pub fn items<'b>(&'b self, key: &'a str) -> Result<impl Iterator<Item = At<'b>> + 'b>
    where
        'a: 'b,
    {
        let list = self.opt_array(key)?.unwrap_or(&[]);
        let parent: &'b Path<'b> = &self.path;
        Ok(list.iter().enumerate().map(move |(i, value)| At {
            value,
            path: Path::KeyIndex(parent, key, i),
        }))
    }

    /// The value as an object, or an error.
    pub fn object(&self) -> Result<&'a Object<'a>> {
        self.value.as_object().ok_or_else(|| {
            err(
                self.path.text(),
                format!("expected an object, found {}", describe(self.value)),
            )
        })
    }

    /// The member `key` (absent and `null` alike give `None`); an error
    /// when this is not an object.
    pub fn get(&self, key: &'a str) -> Result<Option<&'a Json<'a>>> {
        Ok(self.object()?.get(key).filter(|v| !v.is_null()))
    }

    /// An error about member `key`.
    pub fn err_at(&self, key: &str, message: impl Into<String>) -> Error {
        err(key_path(&self.path, key), message)
    }

    fn expected(&self, key: &str, what: &str, found: &Json) -> Error {
        self.err_at(key, format!("expected {what}, found {}", describe(found)))
    }

    /// A non-negative integer member (an index or a count).
    pub fn opt_usize(&self, key: &'a str) -> Result<Option<usize>> {
        match self.get(key)? {
            None => Ok(None),
            Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
                Some(n) => Ok(Some(n)),
                None => Err(self.expected(key, "a non-negative integer", v)),
            },
        }
    }

    /// A required non-negative integer member.
    pub fn usize(&self, key: &'a str) -> Result<usize> {
        self.opt_usize(key)?
            .ok_or_else(|| self.err_at(key, "missing (required)"))
    }

    /// A number member.
    pub fn opt_f64(&self, key: &'a str) -> Result<Option<f64>> {
        match self.get(key)? {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| self.expected(key, "a number", v)),
        }
    }

    /// A number member as `f32`, which must be finite.
    pub fn opt_f32(&self, key: &'a str) -> Result<Option<f32>> {
        match self.opt_f64(key)? {
            None => Ok(None),
            Some(x) => {
                let f = x as f32;
                if f.is_finite() {
                    Ok(Some(f))
                } else {
                    Err(self.err_at(key, format!("{x} is not a finite 32-bit float")))
                }
            }
        }
    }

    /// A boolean member.
    pub fn opt_bool(&self, key: &'a str) -> Result<Option<bool>> {
        match self.get(key)? {
            None => Ok(None),
            Some(v) => v
                .as_bool()
                .map(Some)
                .ok_or_else(|| self.expected(key, "true or false", v)),
        }
    }

    /// A string member.
    pub fn opt_str(&self, key: &'a str) -> Result<Option<&'a str>> {
        match self.get(key)? {
            None => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| self.expected(key, "a string", v)),
        }
    }

    /// An object member, with its path (which borrows this one's).
    pub fn opt_object<'b>(&'b self, key: &'a str) -> Result<Option<At<'b>>>
    where
        'a: 'b,
    {
        match self.get(key)? {
            None => Ok(None),
            Some(v) if v.is_object() => Ok(Some(At {
                value: v,
                path: Path::Key(&self.path, key),
            })),
            Some(v) => Err(self.expected(key, "an object", v)),
        }
    }

    /// An array member.
    pub fn opt_array(&self, key: &'a str) -> Result<Option<&'a [Json<'a>]>> {
        match self.get(key)? {
            None => Ok(None),
            Some(Json::Array(a)) => Ok(Some(a)),
            Some(v) => Err(self.expected(key, "an array", v)),
        }
    }

    /// A member holding exactly `N` finite numbers.
    pub fn opt_floats<const N: usize>(&self, key: &'a str) -> Result<Option<[f32; N]>> {
        let Some(items) = self.opt_array(key)? else {
            return Ok(None);
        };
        if items.len() != N {
            return Err(self.err_at(key, format!("expected {N} numbers, found {}", items.len())));
        }
        let mut out = [0.0f32; N];
        for (i, (o, v)) in out.iter_mut().zip(items).enumerate() {
            let x = v.as_f64().ok_or_else(|| {
                self.err_at(
                    key,
                    format!("element {i}: expected a number, found {}", describe(v)),
                )
            })?;
            *o = x as f32;
            if !o.is_finite() {
                return Err(self.err_at(
                    key,
                    format!("element {i}: {x} is not a finite 32-bit float"),
                ));
            }
        }
        Ok(Some(out))
    }

    /// A member holding non-negative integers (indices).
    pub fn opt_indices(&self, key: &'a str) -> Result<Option<Vec<usize>>> {
        let Some(items) = self.opt_array(key)? else {
            return Ok(None);
        };
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        err(
                            format!("{}/{i}", key_path(&self.path, key)),
                            format!("expected a non-negative integer, found {}", describe(v)),
                        )
                    })
            })
            .collect::<Result<Vec<usize>>>()
            .map(Some)
    }

    /// The object `extensions.NAME`, if there is one (an error when
    /// `extensions` or it is not an object).
    pub fn extension(&self, name: &str) -> Result<Option<&'a Json<'a>>> {
        let Some(ext) = self.get("extensions")? else {
            return Ok(None);
        };
        let Some(map) = ext.as_object() else {
            return Err(self.err_at(
                "extensions",
                format!("expected an object, found {}", describe(ext)),
            ));
        };
        match map.get(name) {
            None | Some(Json::Null) => Ok(None),
            Some(v) if v.is_object() => Ok(Some(v)),
            Some(v) => Err(err(
                format!("{}/extensions/{}", self.path, escape(name)),
                format!("expected an object, found {}", describe(v)),
            )),
        }
    }

    /// The `extras` member as it is (`Value::Null` when absent).
    pub fn extras(&self) -> Value {
        self.value
            .as_object()
            .and_then(|o| o.get("extras"))
            .map_or(Value::Null, Json::to_value)
    }
}

/// Element `index` of the top-level array `key` of the document (`/meshes/3`),
/// checked to be an object.
pub(crate) fn element<'a>(
    list: &'a [Json<'a>],
    key: &'static str,
    index: usize,
    referrer: impl FnOnce() -> String,
) -> Result<&'a Json<'a>> {
    match list.get(index) {
        Some(v) if v.is_object() => Ok(v),
        Some(v) => Err(err(
            format!("/{key}/{index}"),
            format!("expected an object, found {}", describe(v)),
        )),
        None => Err(err(
            referrer(),
            format!(
                "{} {index} does not exist ({} {key})",
                singular(key),
                list.len()
            ),
        )),
    }
}

/// `accessors` → `accessor`, ...
pub(crate) fn singular(key: &str) -> &str {
    match key {
        "accessors" => "accessor",
        "animations" => "animation",
        "buffers" => "buffer",
        "bufferViews" => "buffer view",
        "images" => "image",
        "materials" => "material",
        "meshes" => "mesh",
        "nodes" => "node",
        "samplers" => "sampler",
        "scenes" => "scene",
        "skins" => "skin",
        "textures" => "texture",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Json<'_> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn paths_and_messages() {
        let v = json(r#"{"a": {"b/c": [1, -2, "x"]}, "n": "abc"}"#);
        let root = At::root(&v);
        let a = root.opt_object("a").unwrap().unwrap();
        assert_eq!(a.path.text(), "/a");
        let e = a.opt_indices("b/c").unwrap_err();
        assert_eq!(
            e.to_string(),
            "glTF /a/b~1c/1: expected a non-negative integer, found the number -2"
        );
        let e = root.opt_usize("n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "glTF /n: expected a non-negative integer, found the string \"abc\""
        );
        assert_eq!(root.opt_usize("missing").unwrap(), None);
        let list = json(r#"{"p": [{"x": "y"}]}"#);
        let root2 = At::root(&list);
        let first = root2.items("p").unwrap().next().unwrap();
        assert_eq!(first.path.text(), "/p/0");
        assert_eq!(
            first.opt_usize("x").unwrap_err().to_string(),
            "glTF /p/0/x: expected a non-negative integer, found the string \"y\""
        );
        let e = root.opt_floats::<2>("a").unwrap_err();
        assert_eq!(e.to_string(), "glTF /a: expected an array, found an object");
    }
}
