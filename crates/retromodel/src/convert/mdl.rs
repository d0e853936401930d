//! Any scene (but an MDL's own) to a Quake MDL.

use super::outputs::Plan;
use super::{Conversion, ConvertOptions, Warning};
use crate::error::Result;
use crate::scene::Scene;

/// Compiles `scene` into the MDL `output_name` with the options'
/// [`mdl`](ConvertOptions::mdl) compile options (its animations, when
/// empty, those of [`anim`](ConvertOptions::anim)).
pub(super) fn compile_mdl(
    scene: &Scene,
    output_name: &str,
    options: &ConvertOptions,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    let mut compile = options.mdl.clone().unwrap_or_default();
    if compile.animations.is_empty() {
        compile.animations = options.anim.clone();
    }
    let compiled = crate::mdl::compile::compile(scene, &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::MdlCompile));
    let bytes = compiled.model.to_bytes()?;
    Ok(Conversion {
        plan: Plan::whole(vec![(output_name.to_string(), bytes)]),
        warnings,
        repair: None,
        report: None,
        ms3d_report: None,
        mdl_repair: None,
        mdl_report: Some(compiled.report),
    })
}
