//! The binary buffer and the accessors over it.

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::{Target as BufferTarget, View};
use json::validation::{Checked::Valid, USize64};
use json::Index;

/// A glTF document being built: the JSON root and its one binary buffer.
pub(crate) struct Builder {
    /// The JSON document.
    pub root: json::Root,
    /// The bytes of buffer 0.
    pub bin: Vec<u8>,
    /// Views of zeros already written, by (length, stride), shared by
    /// every all-zero accessor that fits.
    zero_views: std::collections::HashMap<(usize, Option<usize>), Index<View>>,
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
fn component_size(c: ComponentType) -> usize {
    match c {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

/// Components per element.
fn component_count(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// Per-component minimum and maximum of `values` taken `n` at a time.
pub(crate) fn min_max(values: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let mut min = vec![f32::INFINITY; n];
    let mut max = vec![f32::NEG_INFINITY; n];
    for element in values.chunks_exact(n) {
        for (i, &v) in element.iter().enumerate() {
            min[i] = min[i].min(v);
            max[i] = max[i].max(v);
        }
    }
    (min, max)
}

impl Builder {
    /// An empty document (asset version 2.0, generator retromodel).
    pub fn new() -> Builder {
        let mut root = json::Root::default();
        root.asset.generator = Some(format!("retromodel {}", env!("CARGO_PKG_VERSION")));
        Builder {
            root,
            bin: Vec::new(),
            zero_views: Default::default(),
        }
    }

    /// Pads the buffer with zeros to a multiple of 4 bytes.
    pub fn align(&mut self) {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
    }

    /// Appends `bytes` as a new buffer view (4-byte aligned).
    pub fn view(
        &mut self,
        bytes: &[u8],
        stride: Option<usize>,
        target: Option<BufferTarget>,
    ) -> Index<View> {
        self.align();
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: stride.map(json::buffer::Stride),
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// Stores `bytes` (already laid out per `layout`, elements packed or
    /// padded to `stride`) as an accessor of `count` elements.
    #[allow(clippy::too_many_arguments)]
    pub fn accessor_bytes(
        &mut self,
        bytes: &[u8],
        count: usize,
        layout: Layout,
        stride: Option<usize>,
        target: Option<BufferTarget>,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<json::Accessor> {
        let view = self.view(bytes, stride, target);
        self.accessor(Some(view), count, layout, min_max)
    }

    /// An accessor over `view` (or all zeros when `view` is `None`).
    pub fn accessor(
        &mut self,
        view: Option<Index<View>>,
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
            byte_offset: None,
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
                let v = self.view(&vec![0; len], explicit, Some(BufferTarget::ArrayBuffer));
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
        values: &[f32],
        kind: Type,
        target: Option<BufferTarget>,
        with_min_max: bool,
    ) -> Index<json::Accessor> {
        let n = component_count(kind);
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let layout = Layout {
            component: ComponentType::F32,
            kind,
            normalized: false,
        };
        let mm = with_min_max.then(|| min_max(values, n));
        self.accessor_bytes(&bytes, values.len() / n, layout, None, target, mm)
    }

    /// Stores triangle indices as u16 when every index fits, else u32.
    pub fn indices(&mut self, indices: &[u32]) -> Index<json::Accessor> {
        let small = indices.iter().all(|&i| i <= u32::from(u16::MAX - 1));
        let (bytes, component): (Vec<u8>, _) = if small {
            let b = indices
                .iter()
                .flat_map(|&i| (i as u16).to_le_bytes())
                .collect();
            (b, ComponentType::U16)
        } else {
            (
                indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
                ComponentType::U32,
            )
        };
        let layout = Layout {
            component,
            kind: Type::Scalar,
            normalized: false,
        };
        let target = Some(BufferTarget::ElementArrayBuffer);
        self.accessor_bytes(&bytes, indices.len(), layout, None, target, None)
    }

    /// Stores integer vectors of `component` type, padding each element to
    /// a multiple of 4 bytes (as vertex attributes must be).
    pub fn vertex_ints(
        &mut self,
        elements: &[Vec<i64>],
        layout: Layout,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<json::Accessor> {
        let size = component_size(layout.component);
        let n = component_count(layout.kind);
        let stride = (size * n).div_ceil(4) * 4;
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
        let explicit_stride = (stride != size * n).then_some(stride);
        let target = Some(BufferTarget::ArrayBuffer);
        self.accessor_bytes(
            &bytes,
            elements.len(),
            layout,
            explicit_stride,
            target,
            min_max,
        )
    }
}
