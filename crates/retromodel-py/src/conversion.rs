//! Conversions through the library's `Converter`, as the command line
//! makes them: every output file as bytes (used by `Model`'s methods and
//! by the compile functions).

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use retromodel::convert::{Conversion, ConvertOptions, Converter, OutputFormat};
use retromodel::texture::{TextureResolver, TextureSource};

use crate::advice::Detail;
use crate::errors::{to_py, Error};
use crate::source::Loaded;

/// Converts `loaded` to `format` with `options`, the main output named
/// `output_name`; textures are found beside the file it was read from.
/// Returns `(file name, bytes)` for every output file, the main one last.
pub fn run(
    py: Python<'_>,
    loaded: &Loaded,
    options: &ConvertOptions,
    format: OutputFormat,
    output_name: &str,
) -> PyResult<Vec<(String, Vec<u8>)>> {
    py.detach(|| convert(loaded, options, format, output_name))
        .map(|(files, _, _)| files)
        .map_err(to_py)
}

/// Output files as `{name: bytes}`, in order.
pub fn files_dict<'py>(
    py: Python<'py>,
    files: &[(String, Vec<u8>)],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, bytes) in files {
        dict.set_item(name, PyBytes::new(py, bytes))?;
    }
    Ok(dict)
}

/// The files, the warnings and the compile report (MD2, MS3D or MDL, as JSON)
/// of one conversion.
type Converted = (
    Vec<(String, Vec<u8>)>,
    Vec<Detail>,
    Option<serde_json::Value>,
);

pub fn convert(
    loaded: &Loaded,
    options: &ConvertOptions,
    format: OutputFormat,
    output_name: &str,
) -> retromodel::Result<Converted> {
    let conversion = conversion(loaded, options, format, output_name)?;
    let files = conversion
        .files()?
        .iter()
        .map(|f| (f.name.clone(), f.to_vec()))
        .collect();
    let warnings = conversion
        .warnings()
        .iter()
        .map(|w| Detail {
            message: w.to_string(),
            advice: w.advice(),
        })
        .collect();
    let report = match (
        conversion.compile_report(),
        conversion.ms3d_compile_report(),
        conversion.mdl_compile_report(),
    ) {
        (Some(r), _, _) => serde_json::to_value(r).ok(),
        (None, Some(r), _) => serde_json::to_value(r).ok(),
        (None, None, Some(r)) => Some(crate::mdl::report_json(r)),
        (None, None, None) => match conversion.md3_player_report() {
            Some(r) => serde_json::to_value(r).ok(),
            None => conversion
                .md3_compile_report()
                .and_then(|r| serde_json::to_value(r).ok())
                .or_else(|| {
                    conversion
                        .iqm_compile_report()
                        .and_then(|r| serde_json::to_value(r).ok())
                }),
        },
    };
    Ok((files, warnings, report))
}

/// The conversion of `loaded`, its files not made yet.
fn conversion(
    loaded: &Loaded,
    options: &ConvertOptions,
    format: OutputFormat,
    output_name: &str,
) -> retromodel::Result<Conversion> {
    let resolver = loaded.path.as_deref().map(TextureResolver::for_model_file);
    let mut converter = Converter::new(options);
    if let Some(r) = &resolver {
        converter = converter.with_textures(r as &dyn TextureSource);
    }
    if let Some(c) = &loaded.md3 {
        converter = converter.with_md3_companions(c);
    }
    converter.convert(&loaded.bytes, &loaded.file_name, format, output_name)
}

/// `loaded` as one GLB, streamed from the scene straight into the Python
/// `bytes` object (no copy in between).
pub fn glb<'py>(
    py: Python<'py>,
    loaded: &Loaded,
    options: &ConvertOptions,
) -> PyResult<Bound<'py, PyBytes>> {
    let conversion = py
        .detach(|| conversion(loaded, options, OutputFormat::Glb, "model.glb"))
        .map_err(to_py)?;
    let files = conversion.files().map_err(to_py)?;
    let main = files
        .last()
        .ok_or_else(|| Error::new_err("the conversion made no GLB"))?;
    PyBytes::new_with(py, main.byte_len(), |mut buffer: &mut [u8]| {
        main.write_to(&mut buffer)
            .map_err(|e| Error::new_err(format!("GLB: {e}")))?;
        if buffer.is_empty() {
            Ok(())
        } else {
            Err(Error::new_err("GLB shorter than its announced length"))
        }
    })
}
