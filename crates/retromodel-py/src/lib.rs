//! `retromodel` for Python: read, validate, rewrite and convert Quake MDL,
//! Quake II MD2 and MD5, Quake III MD3 and MilkShape 3D MS3D models, with
//! frames and poses as NumPy arrays.
//!
//! The module is a thin layer over the Rust library: [`retromodel::Model`]
//! reads any supported file, [`retromodel::convert::Converter`] makes every
//! output the command line makes (as bytes), and the errors are the
//! library's, raised as `retromodel.Error` (a `ValueError`).

mod advice;
mod arrays;
mod cli;
mod conversion;
mod convert;
mod convert_iqm;
mod convert_md3;
mod errors;
mod md3_files;
mod mdl;
mod model;
mod problem;
mod source;
mod textfiles;

use pyo3::prelude::*;

/// The Python module `retromodel`.
#[pymodule]
#[pyo3(name = "retromodel")]
fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "__doc__",
        "Quake MDL, Quake II MD2 and MD5, Quake III MD3 and MilkShape 3D MS3D models: read,\n\
         validate, rewrite, convert.\n\n\
         load(path_or_bytes) reads any supported file (MDL, MD2, MD3, MS3D, MilkShape 3D\n\
         ASCII, MD5, IQM, glTF 2.0, OBJ; a Quake III player's folder) into a Model: info() and validate() summarise and check it,\n\
         to_bytes() writes it back (byte-identical for files read as they are), MD2\n\
         frames, IQM frames and MS3D skinned poses come as float32 NumPy arrays, to_glb() and\n\
         to_obj() export it, compile_md2() turns any model (a .glb from\n\
         Blender, say) into a Quake II MD2 and its skin, and compile_ms3d() a\n\
         glTF or OBJ into a MilkShape 3D MS3D with its skeleton and animations;\n\
         compile_md5() writes the Quake II rerelease's MD5 replacement of the MD2;\n\
         compile_mdl() makes a Quake MDL (its skin quantised to Quake's palette).\n\
         compile_md3() makes a Quake III MD3, compile_iqm() an Inter-Quake Model. qc_frames() writes an MD2's, MDL's or MD3's\n\
         QuakeC $frame list, modeldef() an MD2's or MD3's GZDoom MODELDEF block.\n\n\
         Bad input raises retromodel.Error (a ValueError) with the library's message,\n\
         which names the section, the field path and the byte offset.",
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", m.py().get_type::<errors::Error>())?;
    m.add_class::<model::Model>()?;
    m.add_class::<problem::Problem>()?;
    m.add_class::<convert::Md2Output>()?;
    m.add_class::<convert::Ms3dOutput>()?;
    m.add_class::<convert::Md5Output>()?;
    m.add_class::<convert::MdlOutput>()?;
    m.add_class::<convert_md3::Md3Output>()?;
    m.add_class::<convert_iqm::IqmOutput>()?;
    m.add_class::<textfiles::QcFrames>()?;
    m.add_class::<textfiles::Modeldef>()?;
    m.add_function(wrap_pyfunction!(model::load, m)?)?;
    m.add_function(wrap_pyfunction!(convert::compile_md2, m)?)?;
    m.add_function(wrap_pyfunction!(convert::compile_ms3d, m)?)?;
    m.add_function(wrap_pyfunction!(convert::compile_md5, m)?)?;
    m.add_function(wrap_pyfunction!(convert::compile_mdl, m)?)?;
    m.add_function(wrap_pyfunction!(convert_md3::compile_md3, m)?)?;
    m.add_function(wrap_pyfunction!(convert_iqm::compile_iqm, m)?)?;
    m.add_function(wrap_pyfunction!(textfiles::qc_frames, m)?)?;
    m.add_function(wrap_pyfunction!(textfiles::modeldef, m)?)?;
    m.add_function(wrap_pyfunction!(cli::cli, m)?)?;
    m.add_function(wrap_pyfunction!(cli::cli_main, m)?)?;
    Ok(())
}
