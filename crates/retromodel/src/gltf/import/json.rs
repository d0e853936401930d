//! Reading the glTF JSON with a JSON pointer for every value, so that every
//! error says where it is (`/accessors/12/count: expected a non-negative
//! integer, found "abc"`).
//!
//! The document is parsed by `serde_json` into a `Value` (its recursion
//! limit of 128 levels keeps a deeply nested document from overflowing the
//! stack); this module only looks values up and checks their types.

use serde_json::{Map, Value};

use crate::error::{Error, Result};

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
pub(crate) fn describe(value: &Value) -> String {
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
    pub value: &'a Value,
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
    pub fn root(value: &'a Value) -> At<'a> {
        At {
            value,
            path: Path::Root,
        }
    }

    /// Element `index` of the top-level array `key` (`/meshes/3`).
    pub fn item(key: &'static str, index: usize, value: &'a Value) -> At<'a> {
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
    pub fn object(&self) -> Result<&'a Map<String, Value>> {
        self.value.as_object().ok_or_else(|| {
            err(
                self.path.text(),
                format!("expected an object, found {}", describe(self.value)),
            )
        })
    }

    /// The member `key` (absent and `null` alike give `None`); an error
    /// when this is not an object.
    pub fn get(&self, key: &'a str) -> Result<Option<&'a Value>> {
        Ok(self.object()?.get(key).filter(|v| !v.is_null()))
    }

    /// An error about member `key`.
    pub fn err_at(&self, key: &str, message: impl Into<String>) -> Error {
        err(key_path(&self.path, key), message)
    }

    fn expected(&self, key: &str, what: &str, found: &Value) -> Error {
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
    pub fn opt_array(&self, key: &'a str) -> Result<Option<&'a [Value]>> {
        match self.get(key)? {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
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
    pub fn extension(&self, name: &str) -> Result<Option<&'a Value>> {
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
            None | Some(Value::Null) => Ok(None),
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
            .cloned()
            .unwrap_or(Value::Null)
    }
}

/// Element `index` of the top-level array `key` of the document (`/meshes/3`),
/// checked to be an object.
pub(crate) fn element<'a>(
    list: &'a [Value],
    key: &'static str,
    index: usize,
    referrer: impl FnOnce() -> String,
) -> Result<&'a Value> {
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
    use serde_json::json;

    #[test]
    fn paths_and_messages() {
        let v = json!({"a": {"b/c": [1, -2, "x"]}, "n": "abc"});
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
        let list = json!({"p": [{"x": "y"}]});
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
