//! What a vertex array's type and format fields mean, and its values.

use std::fmt;

use super::VertexArray;

/// What a vertex array holds (its `type` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    /// Positions (`IQM_POSITION`, float × 3).
    Position,
    /// Texture coordinates (`IQM_TEXCOORD`, float × 2, `v` down).
    Texcoord,
    /// Normals (`IQM_NORMAL`, float × 3).
    Normal,
    /// Tangents with the bitangent's sign (`IQM_TANGENT`, float × 4).
    Tangent,
    /// Joint indices (`IQM_BLENDINDEXES`, ubyte × 4).
    BlendIndexes,
    /// Joint weights (`IQM_BLENDWEIGHTS`, ubyte × 4 summing to 255).
    BlendWeights,
    /// Vertex colours (`IQM_COLOR`, ubyte × 4).
    Color,
    /// A type reserved for later versions (7 to 15).
    Reserved(u32),
    /// A custom array, named by the text at this offset (`type − 0x10`).
    Custom(u32),
}

impl ArrayKind {
    /// The kind a stored `type` stands for.
    pub fn of(kind: u32) -> ArrayKind {
        match kind {
            0 => ArrayKind::Position,
            1 => ArrayKind::Texcoord,
            2 => ArrayKind::Normal,
            3 => ArrayKind::Tangent,
            4 => ArrayKind::BlendIndexes,
            5 => ArrayKind::BlendWeights,
            6 => ArrayKind::Color,
            7..=15 => ArrayKind::Reserved(kind),
            _ => ArrayKind::Custom(kind - 0x10),
        }
    }

    /// The stored `type`.
    pub fn code(self) -> u32 {
        match self {
            ArrayKind::Position => 0,
            ArrayKind::Texcoord => 1,
            ArrayKind::Normal => 2,
            ArrayKind::Tangent => 3,
            ArrayKind::BlendIndexes => 4,
            ArrayKind::BlendWeights => 5,
            ArrayKind::Color => 6,
            ArrayKind::Reserved(k) => k,
            ArrayKind::Custom(offset) => offset.saturating_add(0x10),
        }
    }

    /// The format and size the specification recommends for portable
    /// models (`iqm.txt`); `None` for custom and reserved kinds.
    pub fn portable(self) -> Option<(ArrayFormat, u32)> {
        match self {
            ArrayKind::Position | ArrayKind::Normal => Some((ArrayFormat::Float, 3)),
            ArrayKind::Texcoord => Some((ArrayFormat::Float, 2)),
            ArrayKind::Tangent => Some((ArrayFormat::Float, 4)),
            ArrayKind::BlendIndexes | ArrayKind::BlendWeights | ArrayKind::Color => {
                Some((ArrayFormat::Ubyte, 4))
            }
            _ => None,
        }
    }
}

impl fmt::Display for ArrayKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArrayKind::Position => f.write_str("position"),
            ArrayKind::Texcoord => f.write_str("texcoord"),
            ArrayKind::Normal => f.write_str("normal"),
            ArrayKind::Tangent => f.write_str("tangent"),
            ArrayKind::BlendIndexes => f.write_str("blendindexes"),
            ArrayKind::BlendWeights => f.write_str("blendweights"),
            ArrayKind::Color => f.write_str("color"),
            ArrayKind::Reserved(k) => write!(f, "reserved type {k}"),
            ArrayKind::Custom(offset) => write!(f, "custom (name at text offset {offset})"),
        }
    }
}

/// A vertex array's component format (its `format` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayFormat {
    /// `IQM_BYTE`.
    Byte,
    /// `IQM_UBYTE`.
    Ubyte,
    /// `IQM_SHORT`.
    Short,
    /// `IQM_USHORT`.
    Ushort,
    /// `IQM_INT`.
    Int,
    /// `IQM_UINT`.
    Uint,
    /// `IQM_HALF`: IEEE 754 half precision.
    Half,
    /// `IQM_FLOAT`.
    Float,
    /// `IQM_DOUBLE`.
    Double,
}

impl ArrayFormat {
    /// The format a stored `format` stands for; `None` for one the
    /// specification does not define.
    pub fn of(format: u32) -> Option<ArrayFormat> {
        Some(match format {
            0 => ArrayFormat::Byte,
            1 => ArrayFormat::Ubyte,
            2 => ArrayFormat::Short,
            3 => ArrayFormat::Ushort,
            4 => ArrayFormat::Int,
            5 => ArrayFormat::Uint,
            6 => ArrayFormat::Half,
            7 => ArrayFormat::Float,
            8 => ArrayFormat::Double,
            _ => return None,
        })
    }

    /// The stored `format`.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// Bytes per component.
    pub fn bytes(self) -> usize {
        match self {
            ArrayFormat::Byte | ArrayFormat::Ubyte => 1,
            ArrayFormat::Short | ArrayFormat::Ushort | ArrayFormat::Half => 2,
            ArrayFormat::Int | ArrayFormat::Uint | ArrayFormat::Float => 4,
            ArrayFormat::Double => 8,
        }
    }

    /// The format's name as `iqm.txt` gives it (`ubyte`, `float` …).
    pub fn name(self) -> &'static str {
        match self {
            ArrayFormat::Byte => "byte",
            ArrayFormat::Ubyte => "ubyte",
            ArrayFormat::Short => "short",
            ArrayFormat::Ushort => "ushort",
            ArrayFormat::Int => "int",
            ArrayFormat::Uint => "uint",
            ArrayFormat::Half => "half",
            ArrayFormat::Float => "float",
            ArrayFormat::Double => "double",
        }
    }

    /// The largest value of an integer format, by which a normalised
    /// attribute (weights, colours) is divided; 1 for floating formats.
    pub fn unit(self) -> f64 {
        match self {
            ArrayFormat::Byte => 127.0,
            ArrayFormat::Ubyte => 255.0,
            ArrayFormat::Short => 32767.0,
            ArrayFormat::Ushort => 65535.0,
            ArrayFormat::Int => 2147483647.0,
            ArrayFormat::Uint => 4294967295.0,
            _ => 1.0,
        }
    }
}

impl VertexArray {
    /// The component format, if the stored one is defined.
    pub fn array_format(&self) -> Option<ArrayFormat> {
        ArrayFormat::of(self.format)
    }

    /// Every component's value, as stored (integers as themselves, half
    /// floats widened), vertex by vertex; empty for an undefined format.
    ///
    /// ```
    /// use retromodel::iqm::VertexArray;
    /// let half_one_and_two = VertexArray { format: 6, size: 2, data: vec![0x00, 0x3c, 0x00, 0x40], ..Default::default() };
    /// assert_eq!(half_one_and_two.values(), vec![1.0, 2.0]);
    /// ```
    pub fn values(&self) -> Vec<f64> {
        let Some(format) = self.array_format() else {
            return Vec::new();
        };
        self.data
            .chunks_exact(format.bytes())
            .map(|c| component(format, c))
            .collect()
    }

    /// The values of vertex `v` (`size` of them, at most 4 used; missing
    /// ones 0): normalised to 0–1 (or −1–1) for integer formats when
    /// `normalise`.
    pub fn vertex4(&self, v: usize, normalise: bool) -> [f64; 4] {
        let mut out = [0.0; 4];
        let Some(format) = self.array_format() else {
            return out;
        };
        let size = self.size as usize;
        let bytes = format.bytes();
        let start = v.saturating_mul(size).saturating_mul(bytes);
        for (k, slot) in out.iter_mut().enumerate().take(size.min(4)) {
            let at = start + k * bytes;
            if let Some(c) = self.data.get(at..at + bytes) {
                let x = component(format, c);
                *slot = if normalise { x / format.unit() } else { x };
            }
        }
        out
    }
}

/// One component's value from its bytes (exactly `format.bytes()` of them).
fn component(format: ArrayFormat, c: &[u8]) -> f64 {
    let b2 = || [c[0], c[1]];
    let b4 = || [c[0], c[1], c[2], c[3]];
    match format {
        ArrayFormat::Byte => f64::from(c[0] as i8),
        ArrayFormat::Ubyte => f64::from(c[0]),
        ArrayFormat::Short => f64::from(i16::from_le_bytes(b2())),
        ArrayFormat::Ushort => f64::from(u16::from_le_bytes(b2())),
        ArrayFormat::Int => f64::from(i32::from_le_bytes(b4())),
        ArrayFormat::Uint => f64::from(u32::from_le_bytes(b4())),
        ArrayFormat::Half => f64::from(half_to_f32(u16::from_le_bytes(b2()))),
        ArrayFormat::Float => f64::from(f32::from_le_bytes(b4())),
        ArrayFormat::Double => f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]),
    }
}

/// An IEEE 754 half-precision value widened to `f32`.
pub(crate) fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    match exponent {
        0 => sign * mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_floats_widen_exactly() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(half_to_f32(0x7bff), 65504.0);
        assert!(half_to_f32(0x7c01).is_nan());
    }

    #[test]
    fn kinds_round_trip_their_codes() {
        for code in [0, 1, 2, 3, 4, 5, 6, 9, 0x10, 0x25] {
            assert_eq!(ArrayKind::of(code).code(), code);
        }
    }
}
