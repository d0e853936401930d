//! Reading our GLB output back, written here from the GLB and glTF 2.0
//! specifications (not with the exporter's code, which this module must
//! never call): the container, the accessors, and checks that every buffer
//! view and accessor lies inside the buffer with the alignment the spec
//! demands; glTF's sampler interpolation, to check animations.

use gltf_json::accessor::{ComponentType, Type};
use gltf_json::validation::Checked;

/// A parsed GLB: the JSON document and the binary chunk.
pub struct Doc {
    /// The JSON chunk, typed.
    pub root: gltf_json::Root,
    /// The JSON chunk, untyped.
    pub json: serde_json::Value,
    /// The BIN chunk (empty when there is none).
    pub bin: Vec<u8>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Parses a GLB container by hand (GLB spec: 12-byte header, JSON chunk,
/// optional BIN chunk, every chunk padded to 4 bytes).
pub fn parse_glb(glb: &[u8]) -> Doc {
    assert_eq!(&glb[0..4], b"glTF", "magic");
    assert_eq!(u32_at(glb, 4), 2, "version");
    assert_eq!(u32_at(glb, 8) as usize, glb.len(), "declared length");
    let json_len = u32_at(glb, 12) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    assert_eq!(json_len % 4, 0, "JSON chunk padded");
    let json_bytes = &glb[20..20 + json_len];
    let mut bin = Vec::new();
    let rest = 20 + json_len;
    if rest < glb.len() {
        let bin_len = u32_at(glb, rest) as usize;
        assert_eq!(&glb[rest + 4..rest + 8], b"BIN\0");
        assert_eq!(bin_len % 4, 0, "BIN chunk padded");
        assert_eq!(rest + 8 + bin_len, glb.len(), "BIN chunk ends the file");
        bin = glb[rest + 8..].to_vec();
    }
    let root = gltf_json::Root::from_slice(json_bytes).expect("JSON parses as glTF");
    let json = serde_json::from_slice(json_bytes).unwrap();
    Doc { root, json, bin }
}

fn component_size(c: ComponentType) -> usize {
    match c {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

fn components(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

fn valid<T: Copy>(c: &Checked<T>) -> T {
    match c {
        Checked::Valid(v) => *v,
        Checked::Invalid => panic!("invalid enum value"),
    }
}

impl Doc {
    /// Asserts that every buffer view lies in the buffer and starts at a
    /// multiple of 4, and every accessor lies in its view, aligned to its
    /// component size, with a stride that is a multiple of 4 when given.
    pub fn check_layout(&self) {
        let declared = self
            .root
            .buffers
            .first()
            .map_or(0, |b| b.byte_length.0 as usize);
        assert!(
            declared <= self.bin.len(),
            "buffer length {declared} > BIN {}",
            self.bin.len()
        );
        for (i, v) in self.root.buffer_views.iter().enumerate() {
            let off = v.byte_offset.map_or(0, |o| o.0 as usize);
            let len = v.byte_length.0 as usize;
            assert_eq!(off % 4, 0, "bufferViews[{i}] offset {off} not 4-aligned");
            assert!(
                off + len <= declared,
                "bufferViews[{i}] ends at {} > {declared}",
                off + len
            );
            if let Some(s) = v.byte_stride {
                assert_eq!(s.0 % 4, 0, "bufferViews[{i}] stride");
            }
        }
        // A vertex buffer view shared by several accessors must state its
        // stride (glTF 2.0, 3.6.2.4).
        let mut users = vec![0usize; self.root.buffer_views.len()];
        for a in &self.root.accessors {
            if let Some(v) = a.buffer_view {
                users[v.value()] += 1;
            }
        }
        for (i, v) in self.root.buffer_views.iter().enumerate() {
            let vertex = matches!(
                v.target,
                Some(Checked::Valid(gltf_json::buffer::Target::ArrayBuffer))
            );
            assert!(
                !(vertex && users[i] > 1) || v.byte_stride.is_some(),
                "bufferViews[{i}] is shared by {} accessors without a byteStride",
                users[i]
            );
        }
        for (i, a) in self.root.accessors.iter().enumerate() {
            let Some(view) = a.buffer_view else { continue };
            let v = &self.root.buffer_views[view.value()];
            let size = component_size(valid(&a.component_type).0);
            let elem = size * components(valid(&a.type_));
            let stride = v.byte_stride.map_or(elem, |s| s.0);
            let off = a.byte_offset.map_or(0, |o| o.0 as usize);
            let count = a.count.0 as usize;
            assert!(count > 0, "accessors[{i}] is empty");
            assert_eq!(off % size, 0, "accessors[{i}] misaligned");
            assert!(
                off + stride * (count - 1) + elem <= v.byte_length.0 as usize,
                "accessors[{i}] runs past its view"
            );
        }
    }

    /// Accessor `index` as floats, `components` per element: floats as
    /// they are, integers as their value or, when normalised, as glTF
    /// maps them (`max(c / 32767, −1)` for i16, `/ 127` for i8, `/ 255`,
    /// `/ 65535` unsigned). An accessor without a view is zeros.
    pub fn read(&self, index: usize) -> Vec<f32> {
        let a = &self.root.accessors[index];
        let ct = valid(&a.component_type).0;
        let n = components(valid(&a.type_));
        let count = a.count.0 as usize;
        let Some(view) = a.buffer_view else {
            return vec![0.0; count * n];
        };
        let v = &self.root.buffer_views[view.value()];
        let size = component_size(ct);
        let stride = v.byte_stride.map_or(size * n, |s| s.0);
        let base =
            v.byte_offset.map_or(0, |o| o.0 as usize) + a.byte_offset.map_or(0, |o| o.0 as usize);
        let mut out = Vec::with_capacity(count * n);
        for e in 0..count {
            for c in 0..n {
                let at = base + e * stride + c * size;
                let b = &self.bin[at..at + size];
                let x = match ct {
                    ComponentType::F32 => f32::from_le_bytes(b.try_into().unwrap()),
                    ComponentType::U32 => u32::from_le_bytes(b.try_into().unwrap()) as f32,
                    ComponentType::U16 => {
                        let x = u16::from_le_bytes(b.try_into().unwrap()) as f32;
                        if a.normalized {
                            x / 65535.0
                        } else {
                            x
                        }
                    }
                    ComponentType::I16 => {
                        let x = i16::from_le_bytes(b.try_into().unwrap()) as f32;
                        if a.normalized {
                            (x / 32767.0).max(-1.0)
                        } else {
                            x
                        }
                    }
                    ComponentType::U8 => {
                        let x = b[0] as f32;
                        if a.normalized {
                            x / 255.0
                        } else {
                            x
                        }
                    }
                    ComponentType::I8 => {
                        let x = b[0] as i8 as f32;
                        if a.normalized {
                            (x / 127.0).max(-1.0)
                        } else {
                            x
                        }
                    }
                };
                out.push(x);
            }
        }
        out
    }

    /// Accessor `index` as `[f32; 3]` elements.
    pub fn read3(&self, index: usize) -> Vec<[f32; 3]> {
        self.read(index)
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect()
    }

    /// Asserts that the accessor's min and max are those of its data.
    pub fn check_min_max(&self, index: usize) {
        let a = &self.root.accessors[index];
        let n = components(valid(&a.type_));
        let data = self.read(index);
        let (min, max) = (a.min.as_ref().expect("min"), a.max.as_ref().expect("max"));
        for c in 0..n {
            let lo = data
                .iter()
                .skip(c)
                .step_by(n)
                .fold(f32::INFINITY, |m, &x| m.min(x));
            let hi = data
                .iter()
                .skip(c)
                .step_by(n)
                .fold(f32::NEG_INFINITY, |m, &x| m.max(x));
            assert_eq!(
                min[c].as_f64().unwrap() as f32,
                lo,
                "accessors[{index}].min[{c}]"
            );
            assert_eq!(
                max[c].as_f64().unwrap() as f32,
                hi,
                "accessors[{index}].max[{c}]"
            );
        }
    }

    /// The `attribute` accessor of primitive 0 of mesh `mesh`.
    pub fn attribute(&self, mesh: usize, attribute: &str) -> usize {
        self.json["meshes"][mesh]["primitives"][0]["attributes"][attribute]
            .as_u64()
            .unwrap_or_else(|| panic!("mesh {mesh} has no {attribute}")) as usize
    }

    /// The index accessor of primitive 0 of mesh `mesh`, read.
    pub fn indices(&self, mesh: usize) -> Vec<u32> {
        let i = self.json["meshes"][mesh]["primitives"][0]["indices"]
            .as_u64()
            .unwrap() as usize;
        self.read(i).iter().map(|&x| x as u32).collect()
    }
}

/// Value of a glTF sampler at time `t` (glTF 2.0 spec, Appendix C):
/// `values` flat with `n` numbers per element, CUBICSPLINE as (in tangent,
/// value, out tangent) triples. Rotations (`n == 4`, LINEAR) are slerped.
pub fn sample(times: &[f32], values: &[f32], n: usize, interpolation: &str, t: f64) -> Vec<f64> {
    let cubic = interpolation == "CUBICSPLINE";
    let value = |k: usize| -> Vec<f64> {
        let at = if cubic { (3 * k + 1) * n } else { k * n };
        values[at..at + n].iter().map(|&x| x as f64).collect()
    };
    let last = times.len() - 1;
    if t <= times[0] as f64 {
        return value(0);
    }
    if t >= times[last] as f64 {
        return value(last);
    }
    let k = times.iter().rposition(|&x| x as f64 <= t).unwrap();
    let (t0, t1) = (times[k] as f64, times[k + 1] as f64);
    let td = t1 - t0;
    let s = (t - t0) / td;
    match interpolation {
        "STEP" => value(k),
        "LINEAR" if n == 4 => slerp(&value(k), &value(k + 1), s),
        "LINEAR" => {
            let (a, b) = (value(k), value(k + 1));
            (0..n).map(|i| a[i] + s * (b[i] - a[i])).collect()
        }
        "CUBICSPLINE" => {
            let (v0, v1) = (value(k), value(k + 1));
            let b0 = &values[(3 * k + 2) * n..(3 * k + 3) * n];
            let a1 = &values[(3 * (k + 1)) * n..(3 * (k + 1) + 1) * n];
            let (s2, s3) = (s * s, s * s * s);
            (0..n)
                .map(|i| {
                    (2.0 * s3 - 3.0 * s2 + 1.0) * v0[i]
                        + td * (s3 - 2.0 * s2 + s) * b0[i] as f64
                        + (-2.0 * s3 + 3.0 * s2) * v1[i]
                        + td * (s3 - s2) * a1[i] as f64
                })
                .collect()
        }
        other => panic!("unknown interpolation {other}"),
    }
}

/// Spherical linear interpolation along the shorter arc.
pub fn slerp(a: &[f64], b: &[f64], s: f64) -> Vec<f64> {
    let mut d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let mut b = b.to_vec();
    if d < 0.0 {
        d = -d;
        b.iter_mut().for_each(|x| *x = -*x);
    }
    let (wa, wb) = if d > 0.999_999 {
        (1.0 - s, s)
    } else {
        let th = d.acos();
        (((1.0 - s) * th).sin() / th.sin(), (s * th).sin() / th.sin())
    };
    let q: Vec<f64> = (0..4).map(|i| wa * a[i] + wb * b[i]).collect();
    let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    q.iter().map(|x| x / l).collect()
}

impl Doc {
    /// Checks what glTF 2.0 asks of every skin (`skins`: "joints ... must
    /// have a common root"), without trusting the Khronos validator, which
    /// misses it depending on the joints' order: walking up from every
    /// joint of a skin through the nodes' `children` lists ends at one and
    /// the same node, which is a root of the default scene. Panics naming
    /// the skin and the roots found otherwise. Returns the common root of
    /// each skin.
    pub fn check_skin_roots(&self) -> Vec<usize> {
        let nodes = self.json["nodes"].as_array().map_or(&[][..], Vec::as_slice);
        let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            for c in n["children"].as_array().into_iter().flatten() {
                let c = c.as_u64().unwrap() as usize;
                assert!(parent[c].is_none(), "node {c} has two parents");
                parent[c] = Some(i);
            }
        }
        let top = |mut n: usize| {
            for _ in 0..nodes.len() {
                match parent[n] {
                    Some(p) => n = p,
                    None => return n,
                }
            }
            panic!("the node hierarchy has a cycle at node {n}");
        };
        let scene_roots: Vec<usize> = self.json["scenes"][0]["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| n.as_u64().unwrap() as usize)
            .collect();
        let skins = self.json["skins"].as_array().map_or(&[][..], Vec::as_slice);
        skins
            .iter()
            .enumerate()
            .map(|(s, skin)| {
                let mut tops: Vec<usize> = skin["joints"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|j| top(j.as_u64().unwrap() as usize))
                    .collect();
                tops.sort_unstable();
                tops.dedup();
                assert_eq!(
                    tops.len(),
                    1,
                    "skin {s}: its joints lie below several roots: {tops:?}"
                );
                assert!(
                    scene_roots.contains(&tops[0]),
                    "skin {s}: root {} is not in the scene",
                    tops[0]
                );
                if let Some(k) = skin.get("skeleton").and_then(|k| k.as_u64()) {
                    assert_eq!(
                        top(k as usize),
                        tops[0],
                        "skin {s}: `skeleton` is not the joints' root"
                    );
                }
                tops[0]
            })
            .collect()
    }
}
