//! What `retromodel.Model` gives of a Quake MDL (and Hexen II's): frames
//! with groups flattened, the frame list as QuakeC selects it, skins as
//! palette indices or RGBA, and the header's fields in Python's words.

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use retromodel::mdl::{flags, Frame, Mdl, SimpleFrame, Skin};
use retromodel::texture::Palette;

use crate::errors::Error;
use crate::source::Source;

/// The effect flags by the names `flags=` and `Model.flag_names` use, in
/// bit order.
pub const FLAG_NAMES: [(&str, i32); 8] = [
    ("rocket", flags::ROCKET),
    ("grenade", flags::GRENADE),
    ("gib", flags::GIB),
    ("rotate", flags::ROTATE),
    ("tracer", flags::TRACER),
    ("zombie_gib", flags::ZOMGIB),
    ("tracer2", flags::TRACER2),
    ("tracer3", flags::TRACER3),
];

/// The names of the flags set in `value` (bits no name stands for are
/// left out; `Model.flags` has them all).
pub fn flag_names(value: i32) -> Vec<&'static str> {
    FLAG_NAMES
        .iter()
        .filter(|(_, bit)| value & bit != 0)
        .map(|(name, _)| *name)
        .collect()
}

/// The flags given as `flags=`: a list of names, or the number itself.
#[derive(FromPyObject)]
pub enum FlagsArg {
    /// The header's number as it is.
    Bits(i32),
    /// Names of `FLAG_NAMES`.
    Names(Vec<String>),
}

impl FlagsArg {
    /// The header's number, or an error listing the names.
    pub fn bits(&self) -> PyResult<i32> {
        match self {
            FlagsArg::Bits(b) => Ok(*b),
            FlagsArg::Names(names) => names.iter().try_fold(0, |acc, name| {
                let bit = FLAG_NAMES
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
                    .map(|(_, b)| *b)
                    .ok_or_else(|| {
                        let known: Vec<&str> = FLAG_NAMES.iter().map(|(n, _)| *n).collect();
                        Error::new_err(format!(
                            "flags: {name:?} is not one of {} (or give the number)",
                            known.join(", ")
                        ))
                    })?;
                Ok(acc | bit)
            }),
        }
    }
}

/// `sync_type=` as the header's number: `"sync"` 0, `"random"` 1.
pub fn sync_type_number(name: &str) -> PyResult<i32> {
    match name {
        "sync" => Ok(0),
        "random" => Ok(1),
        other => Err(Error::new_err(format!(
            "sync_type {other:?}: not one of sync, random"
        ))),
    }
}

/// The number of vertices each frame has.
pub fn vertex_count(m: &Mdl) -> usize {
    m.vertex_count()
}

/// Simple frame `index` (groups flattened), or `IndexError`.
pub fn frame(m: &Mdl, index: usize) -> PyResult<&SimpleFrame> {
    m.simple_frames().nth(index).ok_or_else(|| {
        PyIndexError::new_err(format!(
            "frame {index}: the model has {} frames",
            m.simple_frames().count()
        ))
    })
}

/// A frame's positions, `byte × scale + origin`, in Quake's axes (a
/// QuakeForge 16-bit file's low bytes added as fractions of a step).
pub fn decode_positions(m: &Mdl, f: &SimpleFrame, out: &mut [[f32; 3]]) {
    for (o, v) in out.iter_mut().zip(&f.vertices) {
        *o = m.decode_position(*v);
    }
    for (o, low) in out.iter_mut().zip(&f.vertices_low) {
        for ((c, l), s) in o.iter_mut().zip(low.position).zip(m.scale) {
            *c += f32::from(l) / 256.0 * s;
        }
    }
}

/// A frame's normals from the 162-entry table (zeros for an index outside
/// it).
pub fn decode_normals(f: &SimpleFrame, out: &mut [[f32; 3]]) {
    for (o, v) in out.iter_mut().zip(&f.vertices) {
        *o = retromodel::md2::NORMALS
            .get(usize::from(v.normal_index))
            .copied()
            .unwrap_or([0.0; 3]);
    }
}

/// Fills `out` (frames × vertices) with every frame's positions or
/// normals.
pub fn decode_all(m: &Mdl, normals: bool, out: &mut [[f32; 3]]) {
    let n = vertex_count(m);
    if n == 0 {
        return;
    }
    for (f, o) in m.simple_frames().zip(out.chunks_exact_mut(n)) {
        if normals {
            decode_normals(f, o);
        } else {
            decode_positions(m, f, o);
        }
    }
}

/// The frame list as dicts: one per entry QuakeC's `self.frame` selects,
/// with the simple frames it spans and a group's intervals.
pub fn frame_list<'py>(py: Python<'py>, m: &Mdl) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let mut first = 0usize;
    let mut out = Vec::with_capacity(m.frames.len());
    for (index, entry) in m.frames.iter().enumerate() {
        let d = PyDict::new(py);
        d.set_item("index", index)?;
        d.set_item("first_frame", first)?;
        let count = match entry {
            Frame::Single(f) => {
                d.set_item("name", f.name.to_string())?;
                d.set_item("intervals", py.None())?;
                1
            }
            Frame::Group { group, .. } => {
                let name = group.frames.first().map(|f| f.name.to_string());
                d.set_item("name", name.unwrap_or_default())?;
                d.set_item("intervals", group.intervals.clone())?;
                group.frames.len()
            }
        };
        d.set_item("frame_count", count)?;
        first += count;
        out.push(d);
    }
    Ok(out)
}

/// Every skin image, groups flattened, in file order.
pub fn skin_images(m: &Mdl) -> Vec<&[u8]> {
    m.skins
        .iter()
        .flat_map(|s| match s {
            Skin::Single(image) => vec![image.as_slice()],
            Skin::Group { images, .. } => images.iter().map(Vec::as_slice).collect(),
        })
        .collect()
}

/// Skin image `index`, or `IndexError`.
fn skin_image(m: &Mdl, index: usize) -> PyResult<&[u8]> {
    let images = skin_images(m);
    let count = images.len();
    images.get(index).copied().ok_or_else(|| {
        PyIndexError::new_err(format!("skin {index}: the model has {count} skin images"))
    })
}

/// The skin's height and width in pixels.
fn skin_shape(m: &Mdl, image: &[u8]) -> PyResult<[usize; 2]> {
    let w = usize::try_from(m.skin_width).unwrap_or(0);
    let h = usize::try_from(m.skin_height).unwrap_or(0);
    if w.checked_mul(h) != Some(image.len()) {
        return Err(Error::new_err(format!(
            "skin of {} bytes is not {w} × {h} pixels",
            image.len()
        )));
    }
    Ok([h, w])
}

/// Skin image `index` as a `(height, width)` array of palette indices.
pub fn skin_indices<'py>(
    py: Python<'py>,
    m: &Mdl,
    index: usize,
) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
    let image = skin_image(m, index)?;
    let shape = skin_shape(m, image)?;
    PyArray1::from_slice(py, image).reshape(shape.to_vec())
}

/// Skin image `index` as `(height, width, 4)` RGBA through `palette`.
pub fn skin_rgba<'py>(
    py: Python<'py>,
    m: &Mdl,
    index: usize,
    palette: &Palette,
) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
    let image = skin_image(m, index)?;
    let [h, w] = skin_shape(m, image)?;
    let colors = palette.colors();
    let rgba: Vec<u8> = py.detach(|| {
        image
            .iter()
            .flat_map(|&i| {
                let [r, g, b] = colors[usize::from(i)];
                [r, g, b, 255]
            })
            .collect()
    });
    PyArray1::from_vec(py, rgba).reshape(vec![h, w, 4])
}

/// A palette given as `palette=`: a path or the bytes of a Quake
/// `gfx/palette.lmp` (768 bytes of RGB) or of a PCX with a palette.
pub fn palette_arg(py: Python<'_>, palette: Source) -> PyResult<Palette> {
    let loaded = palette.load(py, None)?;
    palette_from_bytes(&loaded.bytes)
}

/// A palette from a `palette.lmp` (768 bytes) or a PCX's bytes.
pub fn palette_from_bytes(bytes: &[u8]) -> PyResult<Palette> {
    let p = if bytes.len() == 768 {
        Palette::from_raw_768(bytes)
    } else {
        Palette::from_pcx(bytes)
    };
    p.map_err(|e| {
        Error::new_err(format!(
            "palette: {e} (give Quake's gfx/palette.lmp, 768 bytes of RGB, or a PCX)"
        ))
    })
}

/// The compile limits of `engine`'s MDL loader (the library's, as the
/// command line's `--engine` takes them), or an error naming the engines
/// that load MDL.
pub fn compile_limits(engine: retromodel::Engine) -> PyResult<retromodel::mdl::compile::Limits> {
    retromodel::mdl::compile::Limits::for_engine(engine).ok_or_else(|| {
        let names: Vec<&str> = retromodel::Engine::MDL.iter().map(|e| e.name()).collect();
        Error::new_err(format!(
            "engine {:?}: loads no MDL (one of {})",
            engine.name(),
            names.join(", ")
        ))
    })
}

/// The MDL compile's report as the dict `MdlOutput.report` gives.
pub fn report_json(r: &retromodel::mdl::compile::CompileReport) -> serde_json::Value {
    serde_json::json!({
        "animations": r.animations.iter().map(|a| serde_json::json!({
            "name": a.name,
            "source": a.source,
            "first_frame": a.first_frame,
            "frames": a.frames,
            "group": a.group,
        })).collect::<Vec<_>>(),
        "simple_frames": r.simple_frames,
        "source_vertices": r.source_vertices,
        "welded_vertices": r.welded_vertices,
        "vertices": r.vertices,
        "onseam_vertices": r.onseam_vertices,
        "triangles": r.triangles,
        "front_triangles": r.front_triangles,
        "step": r.step,
        "max_error": r.max_error,
        "max_step_fraction": r.max_step_fraction,
        "rms_error": r.rms_error,
        "scale": r.scale,
        "skin_size": [r.skin_size.0, r.skin_size.1],
    })
}
