//! `EXT_meshopt_compression`: buffer views whose bytes are meshoptimizer
//! streams (vertex codec for `ATTRIBUTES`, index codecs for `TRIANGLES`
//! and `INDICES`, then the `OCTAHEDRAL`, `QUATERNION` or `EXPONENTIAL`
//! filter), decoded with `meshoptimizer-rs` (its checked decoders reject
//! malformed streams and are held to our byte budget).

use meshoptimizer_rs::codec::{BufferView, Filter, Mode};
use meshoptimizer_rs::{Limits, Workspace};

use super::json::{err, At, Json, Path};
use super::Ctx;
use crate::error::Result;

/// Decodes the stream that the extension object `ext` of buffer view
/// `index` describes; `length` and `stride` are the view's own
/// `byteLength` and `byteStride`, which must agree with it.
pub(crate) fn decode(
    ctx: &Ctx,
    index: usize,
    ext: &Json,
    length: usize,
    stride: Option<usize>,
) -> Result<Vec<u8>> {
    let view_path = Path::Item("bufferViews", index);
    let extensions = Path::Key(&view_path, "extensions");
    let at = At {
        value: ext,
        path: Path::Key(&extensions, "EXT_meshopt_compression"),
    };
    let path = || at.path.text();
    let buffer = at.usize("buffer")?;
    let offset = at.opt_usize("byteOffset")?.unwrap_or(0);
    let byte_length = at.usize("byteLength")?;
    let byte_stride = at.usize("byteStride")?;
    let count = at.usize("count")?;
    let mode_name = at
        .opt_str("mode")?
        .ok_or_else(|| at.err_at("mode", "missing (required)"))?;
    let mode = Mode::parse(mode_name).map_err(|_| {
        at.err_at(
            "mode",
            format!("{mode_name:?} is not ATTRIBUTES, TRIANGLES or INDICES"),
        )
    })?;
    let filter_name = at.opt_str("filter")?.unwrap_or("NONE");
    let filter = Filter::parse(filter_name).map_err(|_| {
        at.err_at(
            "filter",
            format!("{filter_name:?} is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL"),
        )
    })?;
    let layout = BufferView::new(mode, filter, count, byte_stride).map_err(|e| {
        err(
            path(),
            format!(
                "{mode_name} with filter {filter_name}, {count} elements of {byte_stride} bytes: {e}"
            ),
        )
    })?;
    layout.validate_parent(length, stride).map_err(|_| {
        err(
            path(),
            format!(
                "{count} elements of {byte_stride} bytes do not match the buffer view's byteLength {length}{}",
                stride.map_or(String::new(), |s| format!(" and byteStride {s}"))
            ),
        )
    })?;
    let data = ctx
        .buffer(buffer, &|| format!("{}/buffer", path()))?
        .ok_or_else(|| {
            err(
                format!("{}/buffer", path()),
                format!("buffer {buffer} is a fallback buffer without data"),
            )
        })?;
    let source = offset
        .checked_add(byte_length)
        .and_then(|end| data.get(offset..end))
        .ok_or_else(|| {
            err(
                path(),
                format!(
                    "bytes {offset}..{} are past the end of buffer {buffer} ({} bytes)",
                    offset as u128 + byte_length as u128,
                    data.len()
                ),
            )
        })?;
    let decoded_len = layout.byte_length() as u64;
    ctx.charge_buffer(decoded_len, path)?;
    let room = ctx
        .options
        .max_buffer_bytes
        .saturating_sub(ctx.buffer_bytes.get())
        .saturating_add(decoded_len);
    let mut workspace = Workspace::new(Limits {
        // The decoded bytes (already counted) plus the decoder's scratch.
        max_bytes: usize::try_from(room.saturating_add(1 << 20)).unwrap_or(usize::MAX),
        ..Limits::default()
    });
    layout.decode(source, &mut workspace).map_err(|e| {
        err(
            path(),
            format!("the compressed stream does not decode: {e}"),
        )
    })
}
