//! The vertex arrays a scene has no place for (colours, custom arrays,
//! reserved types), and the standard ones stored in another format than
//! the scene's floats (a half-float texcoord, a short normal, whose
//! values a trip through glTF would change), carried through a scene in
//! each mesh's `extras["iqm"]` so that the way back (`iqm::compile`)
//! writes them again: IQM → glTF → IQM keeps them byte for byte.
//!
//! The record, per mesh: `{"iqm": {"arrays": [{"type": "color" |
//! "custom" | "reserved" | "position" | "texcoord" | "normal" |
//! "tangent", "name": custom name, "code": reserved type, "format": IQM
//! format code, "size": components, "flags": …, "values": [every
//! vertex's components, as stored]}]}}`. Values are the stored numbers
//! (integers as themselves, half floats widened), so each format writes
//! them back exactly; a record whose length is not the mesh's vertex
//! count (a mesh edited since) is left out.

use serde_json::{json, Value};

use super::{ArrayFormat, ArrayKind, Iqm, VertexArray};

/// The most values a record may hold (its JSON is as big as the model's
/// arrays; a scene from elsewhere may claim anything).
pub const MAX_CARRIED_VALUES: usize = 1 << 24;

/// One carried array: what it is and its values for some vertices.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Carried {
    /// `"color"`, `"custom"`, `"reserved"`, or a standard array's name.
    pub kind: String,
    /// A custom array's name.
    pub name: String,
    /// A reserved array's type.
    pub code: u32,
    /// The component format.
    pub format: ArrayFormat,
    /// Components per vertex.
    pub size: usize,
    /// The flags as stored.
    pub flags: u32,
    /// `size` values per vertex.
    pub values: Vec<f64>,
}

impl Carried {
    /// The key that says two records are the same array.
    pub fn key(&self) -> (String, String, u32, u32, usize) {
        (
            self.kind.clone(),
            self.name.clone(),
            self.code,
            self.format.code(),
            self.size,
        )
    }
}

/// The record of vertices `range` of `model`'s arrays that a scene mesh
/// has no place for; `Value::Null` for none.
pub(crate) fn record(model: &Iqm, range: std::ops::Range<usize>) -> Value {
    let mut arrays = Vec::new();
    for a in &model.vertex_arrays {
        let Some(format) = a.array_format() else {
            continue;
        };
        let kind = ArrayKind::of(a.kind);
        let (type_name, name, code) = match kind {
            ArrayKind::Color => ("color".to_string(), String::new(), 0),
            ArrayKind::Custom(_) => ("custom".to_string(), model.array_name(a), 0),
            ArrayKind::Reserved(k) => ("reserved".to_string(), String::new(), k),
            ArrayKind::Position | ArrayKind::Texcoord | ArrayKind::Normal | ArrayKind::Tangent
                if kind.portable() != Some((format, a.size)) =>
            {
                (kind.to_string(), String::new(), 0)
            }
            _ => continue,
        };
        let size = a.size as usize;
        let values = a.values();
        let Some(values) = values.get(range.start * size..range.end * size) else {
            continue;
        };
        arrays.push(json!({
            "type": type_name, "name": name, "code": code, "format": format.code(),
            "size": a.size, "flags": a.flags, "values": values,
        }));
    }
    if arrays.is_empty() {
        return Value::Null;
    }
    json!({ "iqm": { "arrays": arrays } })
}

/// The carried arrays of a mesh's extras, checked (a format IQM has, a
/// size from 1 to 16, one value per component of every one of
/// `vertices`); what does not fit is left out.
pub(crate) fn read(extras: &Value, vertices: usize) -> Vec<Carried> {
    let Some(list) = extras
        .get("iqm")
        .and_then(|x| x.get("arrays"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|a| {
            let kind = a.get("type")?.as_str()?.to_string();
            if !matches!(
                kind.as_str(),
                "color" | "custom" | "reserved" | "position" | "texcoord" | "normal" | "tangent"
            ) {
                return None;
            }
            let format = ArrayFormat::of(u32::try_from(a.get("format")?.as_u64()?).ok()?)?;
            let size = usize::try_from(a.get("size")?.as_u64()?)
                .ok()
                .filter(|s| (1..=16).contains(s))?;
            let values = a.get("values")?.as_array()?;
            if values.len() != vertices.checked_mul(size)? || values.len() > MAX_CARRIED_VALUES {
                return None;
            }
            Some(Carried {
                kind,
                name: a
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                code: a
                    .get("code")
                    .and_then(Value::as_u64)
                    .and_then(|c| u32::try_from(c).ok())
                    .unwrap_or(0),
                format,
                size,
                flags: a
                    .get("flags")
                    .and_then(Value::as_u64)
                    .and_then(|c| u32::try_from(c).ok())
                    .unwrap_or(0),
                values: values.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect(),
            })
        })
        .collect()
}

/// `values` encoded in `format`, little-endian: integers rounded and
/// clamped to the format's range, half floats rounded to nearest.
pub(crate) fn encode(format: ArrayFormat, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * format.bytes());
    for &v in values {
        let v = if v.is_nan() { 0.0 } else { v };
        match format {
            ArrayFormat::Byte => out.push((v.round().clamp(-128.0, 127.0) as i8) as u8),
            ArrayFormat::Ubyte => out.push(v.round().clamp(0.0, 255.0) as u8),
            ArrayFormat::Short => {
                out.extend((v.round().clamp(-32768.0, 32767.0) as i16).to_le_bytes())
            }
            ArrayFormat::Ushort => out.extend((v.round().clamp(0.0, 65535.0) as u16).to_le_bytes()),
            ArrayFormat::Int => {
                out.extend((v.round().clamp(-2147483648.0, 2147483647.0) as i32).to_le_bytes())
            }
            ArrayFormat::Uint => {
                out.extend((v.round().clamp(0.0, 4294967295.0) as u32).to_le_bytes())
            }
            ArrayFormat::Half => out.extend(f32_to_half(v as f32).to_le_bytes()),
            ArrayFormat::Float => out.extend((v as f32).to_le_bytes()),
            ArrayFormat::Double => out.extend(v.to_le_bytes()),
        }
    }
    out
}

/// An `f32` as IEEE 754 half precision, rounded to nearest (ties to
/// even); beyond the range, infinity.
///
/// ```text
/// 1.0 → 0x3c00, -2.0 → 0xc000, 65504.0 → 0x7bff, 1e6 → 0x7c00
/// ```
pub(crate) fn f32_to_half(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal: the implicit bit shifted in, rounded to nearest even.
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let up = rest > mid || (rest == mid && half & 1 == 1);
        return sign | (half + u32::from(up)) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    let up = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    sign | (half + u32::from(up)) as u16
}

/// The vertex array of `carried` values (already per IQM vertex).
pub(crate) fn array(model: &mut Iqm, c: &Carried, values: &[f64]) -> VertexArray {
    let kind = match c.kind.as_str() {
        "color" => ArrayKind::Color.code(),
        "position" => ArrayKind::Position.code(),
        "texcoord" => ArrayKind::Texcoord.code(),
        "normal" => ArrayKind::Normal.code(),
        "tangent" => ArrayKind::Tangent.code(),
        "reserved" => c.code,
        _ => model.intern(&c.name).saturating_add(0x10),
    };
    VertexArray {
        kind,
        flags: c.flags,
        format: c.format.code(),
        size: c.size as u32,
        offset: 0,
        data: encode(c.format, values),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iqm::vertex_array::half_to_f32;

    #[test]
    fn half_floats_round_trip_and_round_to_nearest() {
        for h in [0x3c00u16, 0xc000, 0x7bff, 0x0001, 0x03ff, 0x3555, 0x8000] {
            assert_eq!(f32_to_half(half_to_f32(h)), h, "{h:#x}");
        }
        assert_eq!(f32_to_half(1e6), 0x7c00);
        // 1 + 2^-11 is halfway between 1 and the next half: ties to even.
        assert_eq!(f32_to_half(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_half(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    }
}
