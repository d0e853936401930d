//! The rerelease's MD5 files of a conversion: compiled by
//! [`md5::compile`](crate::md5::compile) on the frames the MD2 compile
//! makes of the same scene and options
//! ([`md2::compile::frame_times`](crate::md2::compile::frame_times)), at
//! the MD2's scale, so that frame `k` of the md5anim is frame `k` of the
//! MD2 (this layer joins the two compilers, which know nothing of each
//! other).

use super::{stem, Warning};
use crate::error::Result;
use crate::md2::compile::{frame_times, CompileOptions};
use crate::md5::compile::{compile, FrameTime, Md5CompileOptions};
use crate::scene::Scene;

/// Files (names and bytes) and the warnings of making them.
pub(super) type Files = (Vec<(String, Vec<u8>)>, Vec<Warning>);

/// The files (`<prefix><stem>.md5anim`, `.md5scale` when a joint's scale
/// animates, then `.md5mesh`), and the compile's warnings.
pub(super) fn md5_files(
    scene: &Scene,
    options: &CompileOptions,
    scale: f32,
    shader: Option<String>,
    output_name: &str,
    prefix: &str,
) -> Result<Files> {
    let frames = frame_times(scene, options)?;
    md5_files_on(
        scene,
        &frames,
        options.fps,
        scale,
        shader,
        output_name,
        prefix,
    )
}

/// The MD5 files of `scene` posed at `frames` (an animation, or `None` for
/// the rest pose, and seconds into it: frame `k` of the md5anim), at
/// `scale`, named after `output_name` with `prefix`; as [`md5_files`].
pub(super) fn md5_files_on(
    scene: &Scene,
    frames: &[(Option<usize>, f32)],
    fps: f32,
    scale: f32,
    shader: Option<String>,
    output_name: &str,
    prefix: &str,
) -> Result<Files> {
    let frames = frames
        .iter()
        .map(|&(animation, seconds)| FrameTime { animation, seconds })
        .collect();
    let name = stem(output_name);
    let compiled = compile(
        scene,
        &Md5CompileOptions {
            frames,
            fps,
            scale,
            shader,
            name: name.clone(),
            ..Md5CompileOptions::default()
        },
    )?;
    let base = format!("{prefix}{name}");
    let mut files = Vec::new();
    let mut model = compiled.model;
    if let Some(a) = model.animations.pop() {
        files.push((format!("{base}.md5anim"), a.anim.to_bytes()));
        if let Some(s) = a.scale {
            files.push((format!("{base}.md5scale"), s.to_bytes()));
        }
    }
    files.push((format!("{base}.md5mesh"), model.mesh.to_bytes()));
    let warnings = compiled
        .warnings
        .into_iter()
        .map(Warning::Md5Compile)
        .collect();
    Ok((files, warnings))
}

/// The scale the MD2 compile applies: `scale`, or what makes the model
/// `fit_height` tall (which takes posing every frame: the MD2 compile
/// does it).
pub(super) fn md2_scale(scene: &Scene, options: &CompileOptions) -> Result<f32> {
    match (options.scale, options.fit_height) {
        (Some(s), _) => Ok(s),
        (None, Some(_)) => {
            // Only the scale is wanted: a PNG skin needs no palette.
            let mut options = options.clone();
            options.skin.format = crate::md2::compile::SkinFormat::Png;
            Ok(crate::md2::compile::compile(scene, &options)?.report.scale)
        }
        (None, None) => Ok(1.0),
    }
}
