//! Any scene (but an MD3's own, which is rewritten) to a Quake III MD3.

use super::outputs::Plan;
use super::{Conversion, ConvertOptions, Warning};
use crate::error::Result;
use crate::scene::Scene;

/// Compiles `scene` into the MD3 `output_name` with the options'
/// [`md3`](ConvertOptions::md3) compile options (their animations, when
/// empty, those of [`anim`](ConvertOptions::anim)).
pub(super) fn compile_md3(
    scene: &Scene,
    output_name: &str,
    options: &ConvertOptions,
    mut warnings: Vec<Warning>,
) -> Result<Conversion> {
    let mut compile = options.md3.clone().unwrap_or_default();
    if compile.animations.is_empty() {
        compile.animations = options.anim.clone();
    }
    let compiled = crate::md3::compile::compile(scene, &compile)?;
    warnings.extend(compiled.warnings.into_iter().map(Warning::Md3Compile));
    Ok(Conversion {
        plan: Plan::whole(vec![(output_name.to_string(), compiled.model.to_bytes()?)]),
        warnings,
        repair: None,
        report: None,
        ms3d_report: None,
        mdl_repair: None,
        #[cfg(feature = "textures")]
        mdl_report: None,
        md3_report: Some(compiled.report),
    })
}
