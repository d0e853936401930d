//! `EXT_meshopt_compression`: vertex attribute and index buffer views
//! compressed with meshoptimizer's codecs (through `meshoptimizer-rs`, a
//! pure-Rust port whose output is byte-identical to meshoptimizer 1.3's).
//!
//! The codecs are lossless: a loader that decodes a compressed view gets
//! back exactly the bytes the view would hold uncompressed. Every view
//! that can be compressed is: vertex attributes whose elements are a
//! multiple of 4 bytes up to 256 and other data whose length is a multiple
//! of 4 (animation keys, matrices; as 4-byte records unless their elements
//! are a multiple of 4) with the vertex codec, version 0 as the extension
//! requires, and triangle index lists with the index codec. Images (PNG,
//! compressed already) stay as they are.
//!
//! Layout, as the extension specifies: buffer 0 holds the compressed
//! streams and the views left uncompressed; buffer 1 is a fallback buffer
//! with no data (`"fallback": true`) that gives the compressed views the
//! offsets and lengths of their decoded bytes. The extension is required:
//! a loader without it cannot read the file.

use super::builder::{component_count, component_size, Bin, Builder, Piece};
use crate::error::{Error, Result};
use gltf_json as json;
use json::buffer::Target as BufferTarget;
use json::validation::{Checked::Valid, USize64};
use meshoptimizer_rs::codec::{
    encode_index_buffer, encode_vertex_buffer, IndexEncoding, VertexEncoding,
};
use meshoptimizer_rs::{Limits, Workspace};
use serde_json::json;
use std::borrow::Cow;

/// The extension's name.
pub(crate) const EXTENSION: &str = "EXT_meshopt_compression";

/// What a view holds, from the accessors over it.
#[derive(Clone, Copy)]
struct Element {
    /// Bytes per element, or 0 when accessors disagree.
    size: usize,
    /// Whether it holds indices (and their byte size).
    index_size: Option<usize>,
}

/// Encodes a vertex stream of `stride`-byte vertices with the vertex
/// codec, version 0 (the one the extension allows), when the codec takes
/// that stride (a multiple of 4 up to 256).
fn encode_attribute(bytes: &[u8], stride: usize) -> Option<Vec<u8>> {
    if stride == 0 || bytes.is_empty() || !bytes.len().is_multiple_of(stride) {
        return None;
    }
    let encoding = VertexEncoding::new(0, 2).ok()?;
    let mut workspace = Workspace::new(Limits::default());
    encode_vertex_buffer(
        bytes,
        bytes.len() / stride,
        stride,
        encoding,
        &mut workspace,
    )
    .ok()
}

/// Encodes a triangle list of `size`-byte indices with the index codec.
fn encode_triangles(bytes: &[u8], size: usize) -> Option<Vec<u8>> {
    let indices: Vec<u32> = match size {
        2 => bytes
            .chunks_exact(2)
            .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
            .collect(),
        4 => bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        _ => return None,
    };
    if indices.is_empty() || !indices.len().is_multiple_of(3) || indices.len() * size != bytes.len()
    {
        return None;
    }
    let mut workspace = Workspace::new(Limits::default());
    encode_index_buffer(&indices, IndexEncoding::DEFAULT, &mut workspace).ok()
}

/// The element of each buffer view, from the accessors over it.
fn elements(root: &json::Root) -> Vec<Option<Element>> {
    let mut out: Vec<Option<Element>> = vec![None; root.buffer_views.len()];
    for a in &root.accessors {
        let (Some(view), Valid(component), Valid(kind)) =
            (a.buffer_view, &a.component_type, &a.type_)
        else {
            continue;
        };
        let size = component_size(component.0) * component_count(*kind);
        let Some(slot) = out.get_mut(view.value()) else {
            continue;
        };
        let element = Element {
            size,
            index_size: None,
        };
        *slot = match slot {
            None => Some(element),
            Some(e) if e.size == size => Some(*e),
            Some(_) => Some(Element {
                size: 0,
                index_size: None,
            }),
        };
    }
    for (e, view) in out.iter_mut().zip(&root.buffer_views) {
        if let (Some(e), Some(Valid(BufferTarget::ElementArrayBuffer))) = (e, &view.target) {
            e.index_size = Some(e.size);
        }
    }
    out
}

/// Compresses every view of `b` that the codecs take, rebuilding buffer 0
/// and describing buffer 1 (the fallback). Call before buffer 0 is
/// declared; returns the fallback buffer's length, which the caller
/// declares as buffer 1 with [`fallback_buffer`]. Returns `Ok(None)` when
/// no view could be compressed (nothing changes then).
pub(crate) fn compress<'a>(b: &mut Builder<'a>) -> Result<Option<usize>> {
    let elements = elements(&b.root);
    let images: Vec<usize> = b
        .root
        .images
        .iter()
        .filter_map(|i| i.buffer_view.map(|v| v.value()))
        .collect();
    let mut encoded: Vec<Option<(Vec<u8>, usize, &'static str)>> = Vec::new();
    for (i, view) in b.root.buffer_views.iter().enumerate() {
        let piece = b.view_pieces.get(i).and_then(|&p| b.bin.pieces().get(p));
        let (Some(piece), Some(Some(element))) = (piece, elements.get(i)) else {
            encoded.push(None);
            continue;
        };
        let bytes = piece.bytes();
        let stride = view.byte_stride.map_or(element.size, |s| s.0);
        let result = match (element.index_size, &view.target) {
            (Some(size), _) if stride == size => {
                encode_triangles(&bytes, size).map(|e| (e, size, "TRIANGLES"))
            }
            (None, Some(Valid(BufferTarget::ArrayBuffer))) if element.size > 0 => {
                encode_attribute(&bytes, stride).map(|e| (e, stride, "ATTRIBUTES"))
            }
            // Other data (animation keys, matrices) goes through the vertex
            // codec too, as records of its element size when the codec
            // takes that, else of 4 bytes (the decoded bytes are the same
            // either way).
            (None, None) if !images.contains(&i) => {
                let stride = if element.size.is_multiple_of(4) && element.size <= 256 {
                    element.size
                } else {
                    4
                };
                encode_attribute(&bytes, stride).map(|e| (e, stride, "ATTRIBUTES"))
            }
            _ => None,
        };
        encoded.push(result);
    }
    if encoded.iter().all(Option::is_none) {
        return Ok(None);
    }
    let mut old: Vec<Option<Piece<'a>>> = std::mem::take(&mut b.bin)
        .into_pieces()
        .into_iter()
        .map(Some)
        .collect();
    let mut bin = Bin::default();
    let mut fallback_len = 0usize;
    for (i, view) in b.root.buffer_views.iter_mut().enumerate() {
        let piece = b
            .view_pieces
            .get(i)
            .and_then(|&p| old.get_mut(p))
            .and_then(Option::take);
        let pad = bin.len().next_multiple_of(4) - bin.len();
        if pad > 0 {
            bin.push(Piece::Zeros(pad));
        }
        let offset = bin.len();
        match encoded.get_mut(i).and_then(Option::take) {
            Some((data, stride, mode)) => {
                let length = view.byte_length.0 as usize;
                let count = length / stride;
                let data_len = data.len();
                bin.push(Piece::Bytes(Cow::Owned(data)));
                let mut others = json::extensions::buffer::View::default();
                others.others.insert(
                    EXTENSION.to_string(),
                    json!({
                        "buffer": 0,
                        "byteOffset": offset,
                        "byteLength": data_len,
                        "byteStride": stride,
                        "count": count,
                        "mode": mode,
                    }),
                );
                fallback_len = fallback_len.next_multiple_of(4);
                view.buffer = json::Index::new(1);
                view.byte_offset = Some(USize64::from(fallback_len));
                view.extensions = Some(others);
                fallback_len += length;
            }
            None => {
                // A view of zeros shared by several accessors is one
                // view, so each piece is taken once.
                let piece = piece.ok_or_else(|| {
                    Error::unwritable("glTF buffer view", "a view without its data")
                })?;
                bin.push(piece);
                view.byte_offset = Some(USize64::from(offset));
            }
        }
    }
    b.bin = bin;
    b.view_pieces.clear();
    for name in [&mut b.root.extensions_used, &mut b.root.extensions_required] {
        if !name.iter().any(|e| e == EXTENSION) {
            name.push(EXTENSION.to_string());
        }
    }
    Ok(Some(fallback_len.max(1)))
}

/// Buffer 1: `length` bytes that are never stored (the extension's
/// fallback buffer).
pub(crate) fn fallback_buffer(length: usize) -> json::Buffer {
    let mut extensions = json::extensions::buffer::Buffer::default();
    extensions
        .others
        .insert(EXTENSION.to_string(), json!({ "fallback": true }));
    json::Buffer {
        byte_length: USize64::from(length),
        name: None,
        uri: None,
        extensions: Some(extensions),
        extras: None,
    }
}
