//! `compile_iqm` and its output class, `IqmOutput`: an Inter-Quake Model
//! through the library's `Converter` as the command line uses it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use retromodel::convert::{ConvertOptions, OutputFormat};

use crate::advice::{worded, Detail};
use crate::conversion::files_dict;
use crate::convert::{compile_output, compile_source, report_to_python};
use crate::errors::Error;
use crate::model::engine_named;

compile_output! {
    /// What `compile_iqm` made: the IQM, the files beside it, the compile
    /// report and the warnings.
    IqmOutput {
        /// The IQM file's bytes.
        iqm,
        /// The files to write beside it: a Quake MDL's skins as PNG, named
        /// as the IQM's materials name them; empty otherwise.
        files("skin"),
        /// The compile report (`None` for an IQM written as it is):
        /// `meshes`, `vertices`, `joints`, `animations` (`name`, `fps`,
        /// `frames`, `loops`), the largest distance of a vertex from the
        /// source's at any frame (`largest_error`, in units) and the
        /// model's `extent`.
    }
}

/// Compiles any skinned or node-animated model retromodel reads (a
/// `.glb` from Blender, an MS3D, an MD5, an IQM) into an Inter-Quake
/// Model: a joint per node, up to four weights per vertex, every
/// animation sampled at its own frame rate (an IQM's or MD5's, else the
/// rate its keys fall on) and quantised to 16 bits per channel. `source`
/// is a path, bytes or a `Model` (an IQM is written as it is).
///
/// - `fps`: the rate every animation is sampled at instead.
/// - `engine`: the engine the model is for (`"ioquake3"`, `"daemon"`,
///   `"fte"`, `"quakespasm-spiked"`, `"darkplaces"`, `"gzdoom"`,
///   `"raylib"`): meshes split to its loader's per-mesh limits (ioquake3:
///   999 vertices, 1,999 triangles), and what it would refuse raises
///   naming the engines that load it. Default: none.
/// - `name`: the model's file name (names the scene).
///
/// The same file as `retromodel convert SOURCE NAME.iqm` with the matching
/// flags. Returns an `IqmOutput`. Raises `retromodel.Error` when the
/// model cannot be compiled (vertex animation, which IQM cannot hold; a
/// vertex following a joint past 255).
#[pyfunction]
#[pyo3(signature = (source, fps = None, engine = None, name = "model.iqm"))]
pub fn compile_iqm(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    fps: Option<f32>,
    engine: Option<&str>,
    name: &str,
) -> PyResult<IqmOutput> {
    if let Some(f) = fps.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(Error::new_err(format!("fps {f}: a positive number")));
    }
    let engine = match engine {
        None => None,
        Some(e) if e.eq_ignore_ascii_case("none") => None,
        Some(e) => {
            let engine = engine_named(e)?;
            if !retromodel::Engine::IQM.contains(&engine) {
                let known: Vec<&str> = retromodel::Engine::IQM.iter().map(|e| e.name()).collect();
                return Err(Error::new_err(format!(
                    "engine {e:?}: it loads no IQM ({}, or \"none\")",
                    known.join(", ")
                )));
            }
            Some(engine)
        }
    };
    let options = ConvertOptions {
        iqm: Some(retromodel::iqm::compile::IqmCompileOptions {
            fps,
            engine,
            ..Default::default()
        }),
        ..ConvertOptions::default()
    };
    let compiled = compile_source(py, source, &options, OutputFormat::Iqm, name)?;
    Ok(IqmOutput {
        iqm: compiled.main,
        files: compiled.beside,
        report: compiled.report,
        warnings: compiled.warnings,
    })
}
