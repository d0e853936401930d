//! Hand-made glTF 2.0 documents for the importer's tests: a JSON object
//! and one binary buffer, written out as a GLB, as a `.gltf` whose buffer
//! is a `data:` URI, or as a `.gltf` with an external `.bin`. Written from
//! the glTF 2.0 and GLB specifications; it shares no code with the
//! library's exporter.
//!
//! ```
//! use retromodel_testkit::gltf_builder::{f32_bytes, Builder};
//! let mut b = Builder::new();
//! let pos = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
//! b.triangle_mesh(serde_json::json!({"POSITION": pos}), None, 4);
//! let glb = b.glb();
//! assert_eq!(&glb[..4], b"glTF");
//! assert_eq!(f32_bytes(&[1.0]), 1.0f32.to_le_bytes());
//! ```

use serde_json::{json, Value};

/// glTF component type codes.
pub mod component {
    /// BYTE.
    pub const I8: u32 = 5120;
    /// UNSIGNED_BYTE.
    pub const U8: u32 = 5121;
    /// SHORT.
    pub const I16: u32 = 5122;
    /// UNSIGNED_SHORT.
    pub const U16: u32 = 5123;
    /// UNSIGNED_INT.
    pub const U32: u32 = 5125;
    /// FLOAT.
    pub const F32: u32 = 5126;
}

/// Little-endian bytes of floats.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of u16s.
pub fn u16_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of i16s.
pub fn i16_bytes(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of u32s.
pub fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Standard base64 with padding (RFC 4648), for `data:` URIs.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A GLB container of `json` and, when given, a BIN chunk (each padded
/// to 4 bytes: the JSON with spaces, the BIN with zeros).
pub fn glb_container(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    let pad = |n: usize| n.next_multiple_of(4);
    let total = 12 + 8 + pad(json.len()) + bin.map_or(0, |b| 8 + pad(b.len()));
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(pad(json.len()) as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(20 + pad(json.len()), b' ');
    if let Some(bin) = bin {
        out.extend_from_slice(&(pad(bin.len()) as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    out
}

/// A document being built.
#[derive(Debug, Clone)]
pub struct Builder {
    /// The JSON document (without `buffers`, added when written out).
    pub json: Value,
    /// Buffer 0.
    pub bin: Vec<u8>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// `{"asset": {"version": "2.0"}}` and an empty buffer.
    pub fn new() -> Builder {
        Builder {
            json: json!({"asset": {"version": "2.0"}}),
            bin: Vec::new(),
        }
    }

    /// Appends `value` to the top-level array `key`; returns its index.
    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let list = self.json[key].as_array_mut();
        match list {
            Some(list) => {
                list.push(value);
                list.len() - 1
            }
            None => {
                self.json[key] = json!([value]);
                0
            }
        }
    }

    /// Appends `bytes` to the buffer (at a multiple of 4) as a buffer view
    /// with an optional stride; returns the view.
    pub fn view(&mut self, bytes: &[u8], stride: Option<usize>) -> usize {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let mut v = json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()});
        if let Some(s) = stride {
            v["byteStride"] = json!(s);
        }
        self.push("bufferViews", v)
    }

    /// An accessor; returns it.
    pub fn accessor(
        &mut self,
        view: Option<usize>,
        offset: usize,
        component: u32,
        kind: &str,
        count: usize,
        normalized: bool,
    ) -> usize {
        let mut a = json!({"componentType": component, "type": kind, "count": count});
        if let Some(v) = view {
            a["bufferView"] = json!(v);
        }
        if offset > 0 {
            a["byteOffset"] = json!(offset);
        }
        if normalized {
            a["normalized"] = json!(true);
        }
        self.push("accessors", a)
    }

    /// Floats in a view of their own, `kind` elements of them; returns the
    /// accessor.
    pub fn floats(&mut self, values: &[f32], kind: &str) -> usize {
        let n = match kind {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" | "MAT2" => 4,
            "MAT3" => 9,
            _ => 16,
        };
        let view = self.view(&f32_bytes(values), None);
        self.accessor(Some(view), 0, component::F32, kind, values.len() / n, false)
    }

    /// u16 scalars (indices) in a view of their own; returns the accessor.
    pub fn u16s(&mut self, values: &[u16]) -> usize {
        let view = self.view(&u16_bytes(values), None);
        self.accessor(Some(view), 0, component::U16, "SCALAR", values.len(), false)
    }

    /// A mesh of one primitive with `attributes` (indices and mode as
    /// given), a node showing it and scene 0 holding every node that has
    /// no parent; returns the mesh.
    pub fn triangle_mesh(&mut self, attributes: Value, indices: Option<usize>, mode: u32) -> usize {
        let mut p = json!({"attributes": attributes, "mode": mode});
        if let Some(i) = indices {
            p["indices"] = json!(i);
        }
        let mesh = self.push("meshes", json!({"primitives": [p]}));
        let node = self.push("nodes", json!({"mesh": mesh}));
        self.scene_root(node);
        mesh
    }

    /// Adds `node` to scene 0 (made if needed) and makes it the default.
    pub fn scene_root(&mut self, node: usize) {
        if self.json["scenes"].as_array().is_none_or(Vec::is_empty) {
            self.json["scenes"] = json!([{"nodes": []}]);
            self.json["scene"] = json!(0);
        }
        if let Some(nodes) = self.json["scenes"][0]["nodes"].as_array_mut() {
            nodes.push(json!(node));
        }
    }

    /// The document with `buffers` set to buffer 0 of `uri` (or none, for
    /// a GLB), as JSON text.
    fn text(&self, uri: Option<String>) -> String {
        let mut doc = self.json.clone();
        if !self.bin.is_empty() {
            let mut buffer = json!({"byteLength": self.bin.len()});
            if let Some(u) = uri {
                buffer["uri"] = json!(u);
            }
            let extra = doc["buffers"].as_array().cloned().unwrap_or_default();
            let mut buffers = vec![buffer];
            buffers.extend(extra);
            doc["buffers"] = Value::Array(buffers);
        }
        serde_json::to_string(&doc).expect("JSON")
    }

    /// The document as a GLB (buffer 0 in the BIN chunk).
    pub fn glb(&self) -> Vec<u8> {
        let text = self.text(None);
        glb_container(
            text.as_bytes(),
            (!self.bin.is_empty()).then_some(&self.bin[..]),
        )
    }

    /// The document as a `.gltf` with buffer 0 as a base64 `data:` URI.
    pub fn gltf_embedded(&self) -> String {
        self.text(Some(format!(
            "data:application/octet-stream;base64,{}",
            base64(&self.bin)
        )))
    }

    /// The document as a `.gltf` naming buffer 0 `uri` (write the bytes
    /// beside it under the name it stands for).
    pub fn gltf_external(&self, uri: &str) -> (String, Vec<u8>) {
        (self.text(Some(uri.to_string())), self.bin.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc_4648_vectors() {
        for (plain, text) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), text);
        }
    }
}
