//! Accessors: typed views of buffer data, read straight into
//! `Vec<[f32; N]>` or `Vec<u32>` after every byte they cover is checked to
//! exist.
//!
//! Every component type, `normalized` (converted as the spec says:
//! `max(c / 127, −1)` for bytes, `c / 255` for unsigned bytes, and so on),
//! `byteStride`, matrices with padded columns, and sparse accessors (also
//! over no buffer view, which means zeros) are read.

use super::json::{err, At, Json};
use super::Ctx;
use crate::error::Result;

/// A component type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Component {
    I8,
    U8,
    I16,
    U16,
    U32,
    F32,
}

impl Component {
    fn from_code(code: usize) -> Option<Component> {
        Some(match code {
            5120 => Component::I8,
            5121 => Component::U8,
            5122 => Component::I16,
            5123 => Component::U16,
            5125 => Component::U32,
            5126 => Component::F32,
            _ => return None,
        })
    }

    /// Bytes per component.
    pub fn size(self) -> usize {
        match self {
            Component::I8 | Component::U8 => 1,
            Component::I16 | Component::U16 => 2,
            Component::U32 | Component::F32 => 4,
        }
    }

    /// The spec's name.
    pub fn name(self) -> &'static str {
        match self {
            Component::I8 => "BYTE",
            Component::U8 => "UNSIGNED_BYTE",
            Component::I16 => "SHORT",
            Component::U16 => "UNSIGNED_SHORT",
            Component::U32 => "UNSIGNED_INT",
            Component::F32 => "FLOAT",
        }
    }
}

/// An element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Scalar,
    Vec2,
    Vec3,
    Vec4,
    Mat2,
    Mat3,
    Mat4,
}

impl Kind {
    fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "SCALAR" => Kind::Scalar,
            "VEC2" => Kind::Vec2,
            "VEC3" => Kind::Vec3,
            "VEC4" => Kind::Vec4,
            "MAT2" => Kind::Mat2,
            "MAT3" => Kind::Mat3,
            "MAT4" => Kind::Mat4,
            _ => return None,
        })
    }

    /// Components per element.
    pub fn components(self) -> usize {
        match self {
            Kind::Scalar => 1,
            Kind::Vec2 => 2,
            Kind::Vec3 => 3,
            Kind::Vec4 | Kind::Mat2 => 4,
            Kind::Mat3 => 9,
            Kind::Mat4 => 16,
        }
    }

    /// Rows of a matrix column (a vector is one column).
    fn rows(self) -> usize {
        match self {
            Kind::Mat2 => 2,
            Kind::Mat3 => 3,
            Kind::Mat4 => 4,
            other => other.components(),
        }
    }

    fn is_matrix(self) -> bool {
        matches!(self, Kind::Mat2 | Kind::Mat3 | Kind::Mat4)
    }

    /// The spec's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Scalar => "SCALAR",
            Kind::Vec2 => "VEC2",
            Kind::Vec3 => "VEC3",
            Kind::Vec4 => "VEC4",
            Kind::Mat2 => "MAT2",
            Kind::Mat3 => "MAT3",
            Kind::Mat4 => "MAT4",
        }
    }
}

/// A component type with its `normalized` flag.
pub(crate) type Format = (Component, bool);

/// The allowed formats of one use of an accessor.
pub(crate) struct Allowed {
    /// What uses it, for messages (`POSITION`, `indices` ...).
    pub what: &'static str,
    /// The element types allowed.
    pub kinds: &'static [Kind],
    /// Formats of core glTF.
    pub core: &'static [Format],
    /// Formats that `KHR_mesh_quantization` adds.
    pub quantized: &'static [Format],
}

/// Shorthands for the tables below.
const F: Format = (Component::F32, false);
const B: Format = (Component::I8, false);
const BN: Format = (Component::I8, true);
const UB: Format = (Component::U8, false);
const UBN: Format = (Component::U8, true);
const S: Format = (Component::I16, false);
const SN: Format = (Component::I16, true);
const US: Format = (Component::U16, false);
const USN: Format = (Component::U16, true);
const UI: Format = (Component::U32, false);

/// Formats of each use (glTF 2.0 §3.7.2.1 and §3.11, `KHR_mesh_quantization`).
pub(crate) mod allowed {
    use super::*;
    pub const POSITION: Allowed = Allowed {
        what: "POSITION",
        kinds: &[Kind::Vec3],
        core: &[F],
        quantized: &[B, BN, UB, UBN, S, SN, US, USN],
    };
    pub const NORMAL: Allowed = Allowed {
        what: "NORMAL",
        kinds: &[Kind::Vec3],
        core: &[F],
        quantized: &[BN, SN],
    };
    pub const TEXCOORD: Allowed = Allowed {
        what: "TEXCOORD",
        kinds: &[Kind::Vec2],
        core: &[F, UBN, USN],
        quantized: &[B, BN, UB, S, SN, US],
    };
    pub const JOINTS: Allowed = Allowed {
        what: "JOINTS",
        kinds: &[Kind::Vec4],
        core: &[UB, US],
        quantized: &[],
    };
    pub const WEIGHTS: Allowed = Allowed {
        what: "WEIGHTS",
        kinds: &[Kind::Vec4],
        core: &[F, UBN, USN],
        quantized: &[],
    };
    pub const TARGET_POSITION: Allowed = Allowed {
        what: "morph target POSITION",
        kinds: &[Kind::Vec3],
        core: &[F],
        quantized: &[B, BN, S, SN],
    };
    pub const TARGET_NORMAL: Allowed = Allowed {
        what: "morph target NORMAL",
        kinds: &[Kind::Vec3],
        core: &[F],
        quantized: &[BN, SN],
    };
    pub const INDICES: Allowed = Allowed {
        what: "indices",
        kinds: &[Kind::Scalar],
        core: &[UB, US, UI],
        quantized: &[],
    };
    pub const INVERSE_BIND: Allowed = Allowed {
        what: "inverseBindMatrices",
        kinds: &[Kind::Mat4],
        core: &[F],
        quantized: &[],
    };
    pub const TIMES: Allowed = Allowed {
        what: "animation sampler input",
        kinds: &[Kind::Scalar],
        core: &[F],
        quantized: &[],
    };
    pub const TRANSLATION: Allowed = Allowed {
        what: "translation output",
        kinds: &[Kind::Vec3],
        core: &[F],
        quantized: &[],
    };
    pub const SCALE: Allowed = Allowed {
        what: "scale output",
        kinds: &[Kind::Vec3],
        core: &[F],
        quantized: &[],
    };
    pub const ROTATION: Allowed = Allowed {
        what: "rotation output",
        kinds: &[Kind::Vec4],
        core: &[F, BN, UBN, SN, USN],
        quantized: &[],
    };
    pub const WEIGHTS_OUTPUT: Allowed = Allowed {
        what: "weights output",
        kinds: &[Kind::Scalar],
        core: &[F, BN, UBN, SN, USN],
        quantized: &[],
    };
    /// Application-specific attributes kept in extras: scalar integers.
    pub const APPLICATION: Allowed = Allowed {
        what: "application-specific attribute",
        kinds: &[Kind::Scalar],
        core: &[B, UB, S, US, UI],
        quantized: &[],
    };
}

/// A parsed accessor.
#[derive(Clone, Copy)]
pub(crate) struct Accessor<'a> {
    /// Its index.
    pub index: usize,
    pub component: Component,
    pub kind: Kind,
    pub normalized: bool,
    /// Elements (at least 1).
    pub count: usize,
    view: Option<usize>,
    offset: usize,
    sparse: Option<&'a Json<'a>>,
}

/// Where each component of an element is, relative to the element's start
/// (matrix columns start at multiples of 4 bytes), and the element's size.
fn layout(component: Component, kind: Kind) -> ([usize; 16], usize) {
    let size = component.size();
    let rows = kind.rows();
    let column = if kind.is_matrix() {
        (rows * size).next_multiple_of(4)
    } else {
        rows * size
    };
    let mut offsets = [0usize; 16];
    for (c, o) in offsets.iter_mut().enumerate().take(kind.components()) {
        *o = (c / rows) * column + (c % rows) * size;
    }
    let columns = kind.components() / rows;
    (offsets, columns * column)
}

/// A component's conversion to `f32`, as the spec defines for normalised
/// integers.
fn to_f32(component: Component, normalized: bool) -> fn(&[u8]) -> f32 {
    match (component, normalized) {
        (Component::F32, _) => |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        (Component::I8, false) => |b| f32::from(b[0] as i8),
        (Component::I8, true) => |b| (f32::from(b[0] as i8) / 127.0).max(-1.0),
        (Component::U8, false) => |b| f32::from(b[0]),
        (Component::U8, true) => |b| f32::from(b[0]) / 255.0,
        (Component::I16, false) => |b| f32::from(i16::from_le_bytes([b[0], b[1]])),
        (Component::I16, true) => {
            |b| (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0)
        }
        (Component::U16, false) => |b| f32::from(u16::from_le_bytes([b[0], b[1]])),
        (Component::U16, true) => |b| f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0,
        // Never normalised (the accessor is refused).
        (Component::U32, _) => |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
    }
}

/// A component's value as `u32` (for integer components).
fn to_u32(component: Component) -> fn(&[u8]) -> u32 {
    match component {
        Component::U8 | Component::I8 => |b| u32::from(b[0]),
        Component::U16 | Component::I16 => |b| u32::from(u16::from_le_bytes([b[0], b[1]])),
        Component::U32 | Component::F32 => |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// One element of `N` components starting at `bytes[0]` (components past
/// the end of `bytes` are left at the default; callers check the length).
#[inline(always)]
fn element<T: Copy + Default, const N: usize>(
    bytes: &[u8],
    offsets: &[usize; 16],
    convert: impl Fn(&[u8]) -> T,
    size: usize,
) -> [T; N] {
    let mut element = [T::default(); N];
    for (c, e) in element.iter_mut().enumerate() {
        let at = offsets[c];
        if let Some(b) = bytes.get(at..at + size) {
            *e = convert(b);
        }
    }
    element
}

/// Reads `count` elements of `N` components from `bytes` (which holds at
/// least `stride × (count − 1) + element size` bytes: checked by the
/// caller), appending them to `out`. Generic over the conversion, so that
/// each component type gets its own loop with the conversion inlined.
fn gather<T: Copy + Default, const N: usize>(
    bytes: &[u8],
    stride: usize,
    count: usize,
    offsets: &[usize; 16],
    convert: impl Fn(&[u8]) -> T + Copy,
    size: usize,
    out: &mut Vec<[T; N]>,
) {
    for i in 0..count {
        let start = (i * stride).min(bytes.len());
        out.push(element(&bytes[start..], offsets, convert, size));
    }
}

/// [`gather`] of floats, with the conversion of `component` (normalised or
/// not) chosen once, outside the loop.
#[allow(clippy::too_many_arguments)]
fn gather_f32<const N: usize>(
    bytes: &[u8],
    stride: usize,
    count: usize,
    offsets: &[usize; 16],
    component: Component,
    normalized: bool,
    out: &mut Vec<[f32; N]>,
) {
    let size = component.size();
    macro_rules! go {
        ($f:expr) => {
            gather(bytes, stride, count, offsets, $f, size, out)
        };
    }
    let in_order = (0..N).all(|c| offsets[c] == 4 * c);
    match (component, normalized) {
        // Tightly packed floats on a little-endian machine: the bytes are
        // the values, one copy.
        (Component::F32, _)
            if in_order
                && stride == 4 * N
                && cfg!(target_endian = "little")
                && bytes.len() >= count * 4 * N =>
        {
            let packed = &bytes[..count * 4 * N];
            match bytemuck::try_cast_slice::<u8, f32>(packed) {
                // Aligned (the usual case): appended without zeroing first.
                Ok(floats) => out.extend_from_slice(floats.as_chunks::<N>().0),
                Err(_) => {
                    let start = out.len();
                    out.resize(start + count, [0.0; N]);
                    bytemuck::cast_slice_mut::<f32, u8>(out[start..].as_flattened_mut())
                        .copy_from_slice(packed);
                }
            }
        }
        // Interleaved floats, components in order: whole elements at a
        // time.
        (Component::F32, _) if in_order => {
            out.reserve(count);
            for i in 0..count {
                let start = i * stride;
                let to_f32 = |b: &[u8]| f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                out.push(match bytes.get(start..start + 4 * N) {
                    Some(b) => std::array::from_fn(|c| to_f32(&b[4 * c..])),
                    // Not reached (callers check the length); as `gather`.
                    None => element(&bytes[start.min(bytes.len())..], offsets, to_f32, 4),
                });
            }
        }
        (Component::F32, _) => go!(|b: &[u8]| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        (Component::I8, false) => go!(|b: &[u8]| f32::from(b[0] as i8)),
        (Component::I8, true) => go!(|b: &[u8]| (f32::from(b[0] as i8) / 127.0).max(-1.0)),
        (Component::U8, false) => go!(|b: &[u8]| f32::from(b[0])),
        (Component::U8, true) => go!(|b: &[u8]| f32::from(b[0]) / 255.0),
        (Component::I16, false) => go!(|b: &[u8]| f32::from(i16::from_le_bytes([b[0], b[1]]))),
        (Component::I16, true) => {
            go!(|b: &[u8]| (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0))
        }
        (Component::U16, false) => go!(|b: &[u8]| f32::from(u16::from_le_bytes([b[0], b[1]]))),
        (Component::U16, true) => {
            go!(|b: &[u8]| f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0)
        }
        (Component::U32, _) => {
            go!(|b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32)
        }
    }
}

/// Whether every value is finite (its exponent bits not all ones), in
/// blocks without an early exit inside, on the bits as integers (which the
/// compiler turns into vector operations).
fn all_finite(values: &[f32]) -> bool {
    values.chunks(64).all(|block| {
        block.iter().fold(0u32, |any, x| {
            any | u32::from(x.to_bits() & 0x7f80_0000 == 0x7f80_0000)
        }) == 0
    })
}

impl<'a> Ctx<'a> {
    /// Accessor `index`, parsed and checked (not read yet).
    pub fn accessor(&self, index: usize, referrer: &dyn Fn() -> String) -> Result<Accessor<'a>> {
        let at = self.item("accessors", index, referrer)?;
        let code = at.usize("componentType")?;
        let component = Component::from_code(code)
            .ok_or_else(|| at.err_at("componentType", format!("{code} is not a component type")))?;
        let kind_name = at
            .opt_str("type")?
            .ok_or_else(|| at.err_at("type", "missing (required)"))?;
        let kind = Kind::from_name(kind_name)
            .ok_or_else(|| at.err_at("type", format!("{kind_name:?} is not an accessor type")))?;
        let mut normalized = at.opt_bool("normalized")?.unwrap_or(false);
        if normalized && component == Component::F32 {
            self.warn(
                format!("/accessors/{index}/normalized"),
                "FLOAT data cannot be normalized; the flag is ignored",
            );
            normalized = false;
        }
        if normalized && component == Component::U32 {
            return Err(at.err_at("normalized", "UNSIGNED_INT data cannot be normalized"));
        }
        let count = at.usize("count")?;
        if count == 0 {
            return Err(at.err_at("count", "must be at least 1"));
        }
        Ok(Accessor {
            index,
            component,
            kind,
            normalized,
            count,
            view: at.opt_usize("bufferView")?,
            offset: at.opt_usize("byteOffset")?.unwrap_or(0),
            sparse: at.get("sparse")?,
        })
    }

    /// Checks that `a` has a type and format that `allowed` permits (a
    /// quantized format in a document that does not declare
    /// `KHR_mesh_quantization` is read, with one warning).
    pub fn check(&self, a: &Accessor, allowed: &Allowed, path: &dyn Fn() -> String) -> Result<()> {
        if !allowed.kinds.contains(&a.kind) {
            let kinds: Vec<&str> = allowed.kinds.iter().map(|k| k.name()).collect();
            return Err(err(
                path(),
                format!(
                    "{} accessor {} is {}, expected {}",
                    allowed.what,
                    a.index,
                    a.kind.name(),
                    kinds.join(" or ")
                ),
            ));
        }
        let format = (a.component, a.normalized);
        if allowed.core.contains(&format) {
            return Ok(());
        }
        let describe =
            |f: &Format| format!("{}{}", f.0.name(), if f.1 { " normalized" } else { "" });
        if allowed.quantized.contains(&format) {
            if !self.quantization && !self.warned_quantization.replace(true) {
                self.warn(
                    path(),
                    format!(
                        "{} accessor {} is {}, which needs KHR_mesh_quantization; the document does not declare it (read anyway)",
                        allowed.what,
                        a.index,
                        describe(&format)
                    ),
                );
            }
            return Ok(());
        }
        let all: Vec<String> = allowed
            .core
            .iter()
            .chain(allowed.quantized)
            .map(describe)
            .collect();
        Err(err(
            path(),
            format!(
                "{} accessor {} is {}, expected {}",
                allowed.what,
                a.index,
                describe(&format),
                all.join(", ")
            ),
        ))
    }

    /// The bytes an accessor reads from its view (from its `byteOffset`),
    /// and the stride, after checking that all its elements are there.
    fn region(&self, a: &Accessor, view: usize, element: usize) -> Result<(&[u8], usize)> {
        let apath = || format!("/accessors/{}", a.index);
        let v = self.view(view, &|| format!("{}/bufferView", apath()))?;
        let stride = v.stride.unwrap_or(element);
        if stride < element {
            return Err(err(
                format!("/bufferViews/{view}/byteStride"),
                format!(
                    "stride {stride} is shorter than the {element}-byte elements of accessor {}",
                    a.index
                ),
            ));
        }
        let needed = a.offset as u128 + stride as u128 * (a.count as u128 - 1) + element as u128;
        if needed > v.bytes.len() as u128 {
            return Err(err(
                format!("{}/count", apath()),
                format!(
                    "{} elements of {element} bytes (stride {stride}) from byte {} need {needed} bytes but buffer view {view} has {}",
                    a.count,
                    a.offset,
                    v.bytes.len()
                ),
            ));
        }
        Ok((&v.bytes[a.offset..needed as usize], stride))
    }

    /// Reads accessor `a` as floats, `N` components per element (which the
    /// caller has checked with [`Ctx::check`]). Non-finite values are an
    /// error.
    pub fn read_floats<const N: usize>(&self, a: &Accessor) -> Result<Vec<[f32; N]>> {
        let apath = || format!("/accessors/{}", a.index);
        if a.kind.components() != N {
            return Err(err(
                apath(),
                format!("expected {N} components, found {}", a.kind.name()),
            ));
        }
        let (offsets, element_size) = layout(a.component, a.kind);
        let convert = to_f32(a.component, a.normalized);
        let size = a.component.size();
        // The bytes first (the precise error), then the budget, then the
        // allocation.
        let region = a
            .view
            .map(|v| self.region(a, v, element_size))
            .transpose()?;
        self.charge((a.count as u64).saturating_mul(N as u64 * 4), apath)?;
        let mut out: Vec<[f32; N]> = Vec::with_capacity(a.count);
        match region {
            Some((bytes, stride)) => {
                gather_f32(
                    bytes,
                    stride,
                    a.count,
                    &offsets,
                    a.component,
                    a.normalized,
                    &mut out,
                );
            }
            None => out.resize(a.count, [0.0; N]),
        }
        if let Some(sparse) = a.sparse {
            self.apply_sparse(a, sparse, element_size, &mut out, |bytes, out| {
                *out = element(bytes, &offsets, convert, size);
            })?;
        }
        if a.component == Component::F32 && !all_finite(out.as_flattened()) {
            if let Some((i, c, x)) = out.iter().enumerate().find_map(|(i, e)| {
                e.iter()
                    .enumerate()
                    .find(|(_, x)| !x.is_finite())
                    .map(|(c, x)| (i, c, *x))
            }) {
                return Err(err(
                    apath(),
                    format!("element {i} component {c} is {x}, not a finite number"),
                ));
            }
        }
        Ok(out)
    }

    /// Reads accessor `a` of unsigned integers as `u32`, every component of
    /// every element in a row (indices, joints).
    pub fn read_uints(&self, a: &Accessor) -> Result<Vec<u32>> {
        let apath = || format!("/accessors/{}", a.index);
        if matches!(a.component, Component::F32) || a.normalized {
            return Err(err(
                apath(),
                format!("expected integers, found {}", a.component.name()),
            ));
        }
        let n = a.kind.components();
        let (offsets, element_size) = layout(a.component, a.kind);
        let region = a
            .view
            .map(|v| self.region(a, v, element_size))
            .transpose()?;
        self.charge((a.count as u64).saturating_mul(n as u64 * 4), apath)?;
        let convert = to_u32(a.component);
        let size = a.component.size();
        let mut flat: Vec<u32>;
        // Scalars and VEC4 (the common cases) go straight into the output.
        macro_rules! read_n {
            ($n:literal) => {{
                let mut v: Vec<[u32; $n]> = Vec::with_capacity(a.count);
                match region {
                    Some((bytes, stride)) => {
                        gather(bytes, stride, a.count, &offsets, convert, size, &mut v);
                    }
                    None => v.resize(a.count, [0; $n]),
                }
                if let Some(sparse) = a.sparse {
                    self.apply_sparse(a, sparse, element_size, &mut v, |bytes, out| {
                        *out = element(bytes, &offsets, convert, size);
                    })?;
                }
                flat = v.into_flattened();
            }};
        }
        match n {
            1 => read_n!(1),
            2 => read_n!(2),
            3 => read_n!(3),
            4 => read_n!(4),
            _ => {
                read_n!(16);
                flat = flat
                    .chunks_exact(16)
                    .flat_map(|c| c[..n].to_vec())
                    .collect();
            }
        }
        Ok(flat)
    }

    /// Applies a sparse accessor's substitutions to `out`: `set` decodes one
    /// element from its bytes (tightly packed values, `element` bytes each).
    fn apply_sparse<T>(
        &self,
        a: &Accessor,
        sparse: &Json,
        element: usize,
        out: &mut [T],
        set: impl Fn(&[u8], &mut T),
    ) -> Result<()> {
        let accessor_path = super::json::Path::Item("accessors", a.index);
        let at = At {
            value: sparse,
            path: super::json::Path::Key(&accessor_path, "sparse"),
        };
        let spath = || at.path.text();
        let count = at.usize("count")?;
        if count == 0 || count > a.count {
            return Err(at.err_at(
                "count",
                format!("{count} is not from 1 to the accessor's count {}", a.count),
            ));
        }
        let indices = at
            .opt_object("indices")?
            .ok_or_else(|| at.err_at("indices", "missing (required)"))?;
        let values = at
            .opt_object("values")?
            .ok_or_else(|| at.err_at("values", "missing (required)"))?;
        let code = indices.usize("componentType")?;
        let index_type = match Component::from_code(code) {
            Some(c @ (Component::U8 | Component::U16 | Component::U32)) => c,
            _ => {
                return Err(indices.err_at(
                    "componentType",
                    format!("{code} is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT"),
                ))
            }
        };
        let slice = |part: &At, size: usize, what: &str| -> Result<&[u8]> {
            let view = part.usize("bufferView")?;
            let offset = part.opt_usize("byteOffset")?.unwrap_or(0);
            let v = self.view(view, &|| format!("{}/{what}/bufferView", spath()))?;
            let need = offset as u128 + count as u128 * size as u128;
            if need > v.bytes.len() as u128 {
                return Err(err(
                    format!("{}/{what}", spath()),
                    format!(
                        "{count} {what} of {size} bytes from byte {offset} need {need} bytes but buffer view {view} has {}",
                        v.bytes.len()
                    ),
                ));
            }
            Ok(&v.bytes[offset..need as usize])
        };
        let index_bytes = slice(&indices, index_type.size(), "indices")?;
        let value_bytes = slice(&values, element, "values")?;
        let read_index = to_u32(index_type);
        let mut previous: Option<u32> = None;
        let mut warned = false;
        for k in 0..count {
            let at_i = k * index_type.size();
            let i = read_index(&index_bytes[at_i..at_i + index_type.size()]);
            let Some(slot) = out.get_mut(i as usize) else {
                return Err(err(
                    format!("{}/indices", spath()),
                    format!(
                        "index {k} is {i}, out of range for the {} elements",
                        a.count
                    ),
                ));
            };
            if previous.is_some_and(|p| p >= i) && !warned {
                warned = true;
                self.warn(
                    format!("{}/indices", spath()),
                    format!("index {k} ({i}) does not increase; substitutions are made in order"),
                );
            }
            previous = Some(i);
            set(&value_bytes[k * element..(k + 1) * element], slot);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_columns_are_padded_to_four_bytes() {
        let (o, size) = layout(Component::U8, Kind::Mat2);
        assert_eq!((&o[..4], size), (&[0, 1, 4, 5][..], 8));
        let (o, size) = layout(Component::I16, Kind::Mat3);
        assert_eq!((&o[..9], size), (&[0, 2, 4, 8, 10, 12, 16, 18, 20][..], 24));
        let (o, size) = layout(Component::F32, Kind::Mat4);
        assert_eq!((o[15], size), (60, 64));
        let (o, size) = layout(Component::U8, Kind::Vec3);
        assert_eq!((&o[..3], size), (&[0, 1, 2][..], 3));
    }

    #[test]
    fn normalised_integers_as_the_spec_says() {
        let f = to_f32(Component::I8, true);
        assert_eq!(f(&[0x80]), -1.0);
        assert_eq!(f(&[0x81]), -1.0);
        assert_eq!(f(&[127]), 1.0);
        let f = to_f32(Component::U16, true);
        assert_eq!(f(&[0xff, 0xff]), 1.0);
        let f = to_f32(Component::I16, true);
        assert_eq!(f(&[0x00, 0x80]), -1.0);
        assert_eq!(f(&[0xff, 0x7f]), 1.0);
        let f = to_f32(Component::I16, false);
        assert_eq!(f(&[0x00, 0x80]), -32768.0);
    }
}
