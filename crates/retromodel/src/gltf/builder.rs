//! The binary buffer and the accessors over it.
//!
//! The buffer is not built in memory: it is a list of pieces, most of them
//! borrowed from the scene, written out in order when the document is
//! saved. A 2.7 MB buffer of 198 MD2 frames thus costs no second copy (on
//! a machine where touching fresh memory costs about 0.45 ms a megabyte,
//! that copy was a third of the conversion time).

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::{Target as BufferTarget, View};
use json::validation::{Checked::Valid, USize64};
use json::Index;
use std::borrow::Cow;
use std::io::{IoSlice, Write};

/// Zero bytes to write from.
static ZEROS: [u8; 4096] = [0; 4096];

/// Writes every byte of `slices` with gathered writes (what the unstable
/// `Write::write_all_vectored` does).
fn write_all_vectored(out: &mut dyn Write, mut slices: &mut [IoSlice<'_>]) -> std::io::Result<()> {
    while !slices.is_empty() {
        match out.write_vectored(slices) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A piece of the binary buffer.
pub(crate) enum Piece<'a> {
    /// 4-byte floats, written little-endian.
    Floats(Cow<'a, [f32]>),
    /// Bytes as they are.
    Bytes(Cow<'a, [u8]>),
    /// This many zero bytes.
    Zeros(usize),
}

impl Piece<'_> {
    /// The bytes, little-endian (borrowed where they already are).
    #[cfg(feature = "meshopt")]
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Piece::Floats(v) if cfg!(target_endian = "little") => {
                Cow::Borrowed(bytemuck::cast_slice(v.as_ref()))
            }
            Piece::Floats(v) => Cow::Owned(v.iter().flat_map(|x| x.to_le_bytes()).collect()),
            Piece::Bytes(b) => Cow::Borrowed(b.as_ref()),
            Piece::Zeros(n) => Cow::Owned(vec![0; *n]),
        }
    }

    /// Length in bytes.
    fn len(&self) -> usize {
        match self {
            Piece::Floats(v) => v.len() * 4,
            Piece::Bytes(b) => b.len(),
            Piece::Zeros(n) => *n,
        }
    }

    /// Writes the bytes.
    fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match self {
            Piece::Floats(v) if cfg!(target_endian = "little") => {
                out.write_all(bytemuck::cast_slice(v.as_ref()))
            }
            Piece::Floats(v) => {
                for chunk in v.chunks(1024) {
                    let bytes: Vec<u8> = chunk.iter().flat_map(|x| x.to_le_bytes()).collect();
                    out.write_all(&bytes)?;
                }
                Ok(())
            }
            Piece::Bytes(b) => out.write_all(b),
            Piece::Zeros(n) => {
                let mut left = *n;
                while left > 0 {
                    let k = left.min(ZEROS.len());
                    out.write_all(&ZEROS[..k])?;
                    left -= k;
                }
                Ok(())
            }
        }
    }
}

/// Buffer 0: its pieces in order and its total length.
#[derive(Default)]
pub(crate) struct Bin<'a> {
    pieces: Vec<Piece<'a>>,
    len: usize,
}

impl<'a> Bin<'a> {
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pieces, in order.
    #[cfg(feature = "meshopt")]
    pub fn pieces(&self) -> &[Piece<'a>] {
        &self.pieces
    }

    /// The pieces, in order, taken out.
    #[cfg(feature = "meshopt")]
    pub fn into_pieces(self) -> Vec<Piece<'a>> {
        self.pieces
    }

    /// Appends a piece.
    pub(crate) fn push(&mut self, piece: Piece<'a>) {
        self.len += piece.len();
        self.pieces.push(piece);
    }

    /// How many pieces (for the GLB container's tests).
    #[cfg(test)]
    pub fn pieces_for_test(&self) -> usize {
        self.pieces.len()
    }

    /// Appends a piece (for the GLB container's tests).
    #[cfg(test)]
    pub fn push_for_test(&mut self, piece: Piece<'a>) {
        self.push(piece);
    }

    /// Writes every piece in order. On little-endian machines the pieces
    /// go out as one gathered write (`writev`), straight from the scene's
    /// arrays: a `BufWriter` passes a write larger than its buffer through
    /// rather than copying it.
    pub fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if cfg!(target_endian = "big") {
            return self.pieces.iter().try_for_each(|p| p.write_to(out));
        }
        let mut slices: Vec<IoSlice<'_>> = Vec::with_capacity(self.pieces.len());
        for piece in &self.pieces {
            match piece {
                Piece::Floats(v) => slices.push(IoSlice::new(bytemuck::cast_slice(v.as_ref()))),
                Piece::Bytes(b) => slices.push(IoSlice::new(b)),
                Piece::Zeros(n) => {
                    let mut left = *n;
                    while left > 0 {
                        let k = left.min(ZEROS.len());
                        slices.push(IoSlice::new(&ZEROS[..k]));
                        left -= k;
                    }
                }
            }
        }
        slices.retain(|s| !s.is_empty());
        write_all_vectored(out, &mut slices)
    }

    /// The whole buffer in one vector.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.len);
        // Writing to a vector cannot fail.
        let _ = self.write_to(&mut v);
        v
    }
}

/// A glTF document being built: the JSON root and its one binary buffer.
pub(crate) struct Builder<'a> {
    /// The JSON document.
    pub root: json::Root,
    /// Buffer 0.
    pub bin: Bin<'a>,
    /// Views of zeros already written, by (length, stride), shared by
    /// every all-zero accessor that fits.
    zero_views: std::collections::HashMap<(usize, Option<usize>), Index<View>>,
    /// For each buffer view, the index of its piece in `bin`.
    pub view_pieces: Vec<usize>,
}

/// The component type and per-element byte size of data to store.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// Component type.
    pub component: ComponentType,
    /// Element type (SCALAR, VEC3 ...).
    pub kind: Type,
    /// Whether integers are normalised to 0..1 or −1..1.
    pub normalized: bool,
}

/// Bytes per component.
pub(crate) fn component_size(c: ComponentType) -> usize {
    match c {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

/// Components per element.
pub(crate) fn component_count(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// Per-component minimum and maximum of `values` taken `n` at a time
/// (NaNs are passed over).
pub(crate) fn min_max(values: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    match n {
        1 => min_max_of::<1>(values),
        2 => min_max_of::<2>(values),
        3 => min_max_of::<3>(values),
        4 => min_max_of::<4>(values),
        _ => {
            let mut min = vec![f32::INFINITY; n];
            let mut max = vec![f32::NEG_INFINITY; n];
            for element in values.chunks_exact(n.max(1)) {
                for (i, &v) in element.iter().enumerate() {
                    min[i] = min[i].min(v);
                    max[i] = max[i].max(v);
                }
            }
            (min, max)
        }
    }
}

/// [`min_max`] for a component count known at compile time, which lets the
/// compiler keep the bounds in registers (it is run over every morph
/// target).
fn min_max_of<const N: usize>(values: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let mut min = [f32::INFINITY; N];
    let mut max = [f32::NEG_INFINITY; N];
    let (elements, _) = values.as_chunks::<N>();
    for e in elements {
        for i in 0..N {
            // Comparisons rather than f32::min/max: NaN fails both, so it is
            // passed over just the same, and they vectorise.
            min[i] = if e[i] < min[i] { e[i] } else { min[i] };
            max[i] = if e[i] > max[i] { e[i] } else { max[i] };
        }
    }
    (min.to_vec(), max.to_vec())
}

impl<'a> Builder<'a> {
    /// An empty document (asset version 2.0, generator retromodel).
    pub fn new() -> Builder<'a> {
        let mut root = json::Root::default();
        root.asset.generator = Some(format!("retromodel {}", env!("CARGO_PKG_VERSION")));
        Builder {
            root,
            bin: Bin::default(),
            zero_views: Default::default(),
            view_pieces: Vec::new(),
        }
    }

    /// Pads the buffer with zeros to a multiple of 4 bytes.
    pub fn align(&mut self) {
        let pad = self.bin.len().next_multiple_of(4) - self.bin.len();
        if pad > 0 {
            self.bin.push(Piece::Zeros(pad));
        }
    }

    /// Appends `piece` as a new buffer view (4-byte aligned).
    pub fn view(
        &mut self,
        piece: Piece<'a>,
        stride: Option<usize>,
        target: Option<BufferTarget>,
    ) -> Index<View> {
        self.align();
        let offset = self.bin.len();
        let length = piece.len();
        self.view_pieces.push(self.bin.pieces.len());
        self.bin.push(piece);
        self.root.push(View {
            buffer: Index::new(0),
            byte_length: USize64::from(length),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: stride.map(json::buffer::Stride),
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor over `view` (or all zeros when `view` is `None`).
    pub fn accessor(
        &mut self,
        view: Option<Index<View>>,
        count: usize,
        layout: Layout,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<json::Accessor> {
        self.accessor_at(view, 0, count, layout, min_max)
    }

    /// An accessor over `view` starting `offset` bytes into it.
    pub fn accessor_at(
        &mut self,
        view: Option<Index<View>>,
        offset: usize,
        count: usize,
        layout: Layout,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<json::Accessor> {
        let (min, max) = match min_max {
            Some((a, b)) => (Some(serde_json::json!(a)), Some(serde_json::json!(b))),
            None => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: view,
            byte_offset: (offset > 0).then(|| USize64::from(offset)),
            count: USize64::from(count),
            component_type: Valid(GenericComponentType(layout.component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(layout.kind),
            min,
            max,
            name: None,
            normalized: layout.normalized,
            sparse: None,
        })
    }

    /// An accessor of `count` zero elements over a shared view of zeros.
    /// (glTF allows an accessor without a view to mean zeros, but some
    /// loaders, such as the `gltf` crate, reject it.)
    pub fn zeros(
        &mut self,
        count: usize,
        layout: Layout,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<json::Accessor> {
        let elem = component_size(layout.component) * component_count(layout.kind);
        // Shared by several accessors, so the view must state its stride.
        let stride = elem.div_ceil(4) * 4;
        let explicit = Some(stride);
        let len = stride * count;
        let view = match self.zero_views.get(&(len, explicit)) {
            Some(&v) => v,
            None => {
                let v = self.view(Piece::Zeros(len), explicit, Some(BufferTarget::ArrayBuffer));
                self.zero_views.insert((len, explicit), v);
                v
            }
        };
        self.accessor(Some(view), count, layout, min_max)
    }

    /// Stores floats, `kind` elements of them, optionally with their
    /// per-component min and max.
    pub fn floats(
        &mut self,
        values: impl Into<Cow<'a, [f32]>>,
        kind: Type,
        target: Option<BufferTarget>,
        with_min_max: bool,
    ) -> Index<json::Accessor> {
        let values = values.into();
        let n = component_count(kind);
        let layout = Layout {
            component: ComponentType::F32,
            kind,
            normalized: false,
        };
        let mm = with_min_max.then(|| min_max(&values, n));
        let count = values.len() / n;
        let view = self.view(Piece::Floats(values), None, target);
        self.accessor(Some(view), count, layout, mm)
    }

    /// Stores scalars as normalised unsigned bytes (`byte / 255`), as an
    /// animation output (no vertex-attribute padding).
    pub fn unit_bytes(&mut self, bytes: Vec<u8>) -> Index<json::Accessor> {
        let count = bytes.len();
        let view = self.view(Piece::Bytes(Cow::Owned(bytes)), None, None);
        let layout = Layout {
            component: ComponentType::U8,
            kind: Type::Scalar,
            normalized: true,
        };
        self.accessor(Some(view), count, layout, None)
    }

    /// Stores triangle indices as u16 when every index fits, else u32.
    pub fn indices(&mut self, indices: &[u32]) -> Index<json::Accessor> {
        let small = indices.iter().all(|&i| i <= u32::from(u16::MAX - 1));
        let component = if small {
            ComponentType::U16
        } else {
            ComponentType::U32
        };
        let bytes: Vec<u8> = if small {
            indices
                .iter()
                .flat_map(|&i| (i as u16).to_le_bytes())
                .collect()
        } else {
            indices.iter().flat_map(|i| i.to_le_bytes()).collect()
        };
        let target = Some(BufferTarget::ElementArrayBuffer);
        let view = self.view(Piece::Bytes(Cow::Owned(bytes)), None, target);
        let layout = Layout {
            component,
            kind: Type::Scalar,
            normalized: false,
        };
        self.accessor(Some(view), indices.len(), layout, None)
    }

    /// Stores integer vectors of `component` type, padding each element to
    /// a multiple of 4 bytes (as vertex attributes must be). Values are
    /// truncated to the component's size.
    pub fn vertex_ints<const N: usize>(
        &mut self,
        elements: &[[i64; N]],
        layout: Layout,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<json::Accessor> {
        let size = component_size(layout.component);
        let stride = (size * N).div_ceil(4) * 4;
        let explicit_stride = (stride != size * N).then_some(stride);
        let target = Some(BufferTarget::ArrayBuffer);
        let mut bytes = Vec::with_capacity(stride * elements.len());
        for e in elements {
            let start = bytes.len();
            for &x in e {
                match size {
                    1 => bytes.push(x as u8),
                    2 => bytes.extend_from_slice(&(x as u16).to_le_bytes()),
                    _ => bytes.extend_from_slice(&(x as u32).to_le_bytes()),
                }
            }
            bytes.resize(start + stride, 0);
        }
        let view = self.view(Piece::Bytes(Cow::Owned(bytes)), explicit_stride, target);
        self.accessor(Some(view), elements.len(), layout, min_max)
    }
}

#[cfg(test)]
mod tests {
    use super::min_max;

    #[test]
    fn min_max_per_component_passes_over_nan() {
        let v = [1.0, -2.0, 3.0, f32::NAN, 5.0, -6.0, -1.0, 0.5, 9.0];
        assert_eq!(
            min_max(&v, 3),
            (vec![-1.0, -2.0, -6.0], vec![1.0, 5.0, 9.0])
        );
        assert_eq!(min_max(&v[..4], 2), (vec![1.0, -2.0], vec![3.0, -2.0]));
        let matrix: Vec<f32> = (0..32).map(|i| i as f32).collect();
        let (lo, hi) = min_max(&matrix, 16);
        assert_eq!(lo, (0..16).map(|i| i as f32).collect::<Vec<_>>());
        assert_eq!(hi, (16..32).map(|i| i as f32).collect::<Vec<_>>());
        assert_eq!(
            min_max(&[], 1),
            (vec![f32::INFINITY], vec![f32::NEG_INFINITY])
        );
    }
}
