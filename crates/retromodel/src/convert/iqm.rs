//! Any scene (but an IQM's own, which is rewritten) to an Inter-Quake
//! Model.

use super::outputs::Plan;
use super::{Conversion, ConvertOptions, Warning};
use crate::error::Result;
use crate::scene::Scene;

/// Compiles `scene` into the IQM (or, for `.iqe`, its text) `output_name` with the options'
/// [`iqm`](ConvertOptions::iqm) compile options. With `skins_inside` (an
/// MDL source, whose skins are palette indices inside the file), the
/// skin images are written beside the IQM as PNG under the material's
/// name, where the engines look for a material's image.
pub(super) fn compile_iqm(
    scene: &Scene,
    output_name: &str,
    format: super::OutputFormat,
    options: &ConvertOptions,
    skins_inside: bool,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    let compile = options.iqm.clone().unwrap_or_default();
    let (named, mut files) = if skins_inside {
        super::md3::image_files(scene, output_name)?
    } else {
        (None, Vec::new())
    };
    let compiled = crate::iqm::compile::compile(named.as_ref().unwrap_or(scene), &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::IqmCompile));
    let bytes = if format == super::OutputFormat::Iqe {
        compiled.model.to_iqe().into_bytes()
    } else {
        compiled.model.to_bytes_with(crate::iqm::Layout::Standard)?
    };
    files.push((output_name.to_string(), bytes));
    Ok(Conversion {
        iqm_report: Some(compiled.report),
        ..Conversion::of_plan(Plan::whole(files), warnings)
    })
}
