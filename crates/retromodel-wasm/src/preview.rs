//! The MD2 a model would become (`retromodel convert MODEL OUT.md2`),
//! shown as the glTF of that MD2, with every MD2 vertex's quantisation
//! error: the compiled frames decoded and compared with the source scene
//! posed at each frame's time, vertex by vertex through the compiler's
//! vertex map.

use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
use retromodel::md2::compile::{compile, CompileReport, Compiled};
#[cfg(test)]
use retromodel::md2::md2_axes;
use retromodel::scene::{Pose, Scene};
use retromodel::texture::MemorySource;

use crate::options::WebOptions;
use crate::session::{warning_entry, Session, WarningEntry};

/// The MD2 compiled from a model, ready to show.
#[derive(Debug, Clone)]
pub struct Md2Preview {
    /// The MD2 file, as `convert MODEL STEM.md2` writes it.
    pub md2: Vec<u8>,
    /// Its skin file (name, bytes), when the scene had textures.
    pub skin: Option<(String, Vec<u8>)>,
    /// The MD2 as GLB, as `convert STEM.md2 STEM.glb` writes it with the
    /// skin beside it: what the page draws. Its mesh has the vertex
    /// attribute `_MD2_VERTEX`, each vertex's MD2 vertex.
    pub glb: Vec<u8>,
    /// For each MD2 vertex, its largest error over every frame and axis
    /// as a fraction of that frame's grid step on that axis (rounding to
    /// the grid gives at most 0.5).
    pub step_error: Vec<f32>,
    /// For each MD2 vertex, its largest distance from the source position
    /// over every frame, in the source's units.
    pub distance: Vec<f32>,
    /// The compiler's report (per animation: frames, largest error).
    pub report: CompileReport,
    /// What the conversion passed over or changed.
    pub warnings: Vec<WarningEntry>,
}

/// Compiles the session's model to MD2 with `options` and measures it.
pub fn md2_preview(session: &Session, options: &WebOptions) -> Result<Md2Preview, String> {
    let name = session.file_name();
    let convert_options = options.to_convert_options(session.files())?;
    let (scene, warnings) = Converter::new(&convert_options)
        .with_textures(session.files())
        .scene(session.bytes(), name, OutputFormat::Md2)
        .map_err(|e| format!("{name}: {e}"))?;
    let compiled =
        compile(&scene, &convert_options.compile_options()).map_err(|e| format!("{name}: {e}"))?;
    let (step_error, distance) = vertex_errors(&scene, &compiled)?;
    let md2 = compiled
        .model
        .to_bytes()
        .map_err(|e| format!("{name}: {e}"))?;
    let skin = compiled.skin.as_ref().map(|s| {
        let file = s.name.rsplit(['/', '\\']).next().unwrap_or(&s.name);
        (file.to_string(), s.bytes.clone())
    });
    // The MD2 read back and exported as the command line would, with its
    // skin beside it.
    let mut beside = MemorySource::new();
    let md2_name = format!("{}.md2", session.stem());
    beside
        .add(&md2_name, md2.clone())
        .map_err(|e| e.to_string())?;
    if let Some((file, bytes)) = &skin {
        beside.add(file, bytes.clone()).map_err(|e| e.to_string())?;
    }
    beside
        .set_model_file(&md2_name)
        .map_err(|e| e.to_string())?;
    let plain = ConvertOptions::default();
    let glb_name = format!("{}.glb", session.stem());
    let conversion = Converter::new(&plain)
        .with_textures(&beside)
        .convert(&md2, &md2_name, OutputFormat::Glb, &glb_name)
        .map_err(|e| format!("{md2_name}: {e}"))?;
    let glb = conversion
        .files()
        .map_err(|e| format!("{md2_name}: {e}"))?
        .pop()
        .map(|f| f.to_vec())
        .unwrap_or_default();
    let mut warnings: Vec<WarningEntry> = warnings.iter().map(warning_entry).collect();
    warnings.extend(
        compiled
            .warnings
            .iter()
            .map(|w| warning_entry(&retromodel::convert::Warning::Compile(w.clone()))),
    );
    Ok(Md2Preview {
        md2,
        skin,
        glb,
        step_error,
        distance,
        report: compiled.report,
        warnings,
    })
}

/// Scene coordinates (glTF's axes) to Quake's: the inverse of
/// [`md2_axes`].
fn quake_axes(v: [f32; 3]) -> [f32; 3] {
    [v[2], v[0], v[1]]
}

/// Per MD2 vertex: the largest error as a fraction of the grid step and
/// the largest distance in scene units, over every frame.
pub fn vertex_errors(scene: &Scene, compiled: &Compiled) -> Result<(Vec<f32>, Vec<f32>), String> {
    let model = &compiled.model;
    let scale = compiled.report.scale;
    if !(scale.is_finite() && scale > 0.0) {
        return Err(format!(
            "the compile's scale {scale} is not a positive number"
        ));
    }
    let mut steps = vec![0.0f32; model.vertex_count()];
    let mut distance = vec![0.0f32; model.vertex_count()];
    let mut pose = Pose::new(scene).map_err(|e| e.to_string())?;
    let mut positions: Vec<Vec<[f32; 3]>> = scene
        .meshes
        .iter()
        .map(|m| vec![[0.0; 3]; m.positions.len()])
        .collect();
    let mut normals = positions.clone();
    for a in &compiled.report.animations {
        // A filler or the rest pose has no source: an index past the end
        // samples the rest pose.
        let animation = scene
            .animations
            .iter()
            .position(|x| !a.source.is_empty() && x.name == a.source)
            .unwrap_or(usize::MAX);
        for (j, &time) in a.times.iter().enumerate() {
            let Some(frame) = model.frames.get(a.first_frame + j) else {
                continue;
            };
            pose.sample(scene, animation, time);
            for (m, map) in compiled.vertex_map.iter().enumerate() {
                let (Some(p), Some(n)) = (positions.get_mut(m), normals.get_mut(m)) else {
                    continue;
                };
                pose.mesh_vertices(scene, m, p, n);
                for (v, md2_vertex) in map.iter().enumerate() {
                    let (Some(md2_vertex), Some(source)) = (md2_vertex, p.get(v)) else {
                        continue;
                    };
                    let i = *md2_vertex as usize;
                    let Some(got) = frame.position(i) else {
                        continue;
                    };
                    let want = quake_axes(source.map(|x| x * scale));
                    let mut squared = 0.0f32;
                    for k in 0..3 {
                        let e = (got[k] - want[k]).abs();
                        squared += e * e;
                        let step = frame.scale[k].abs();
                        let fraction = if step > 0.0 { e / step } else { 0.0 };
                        steps[i] = steps[i].max(fraction);
                    }
                    distance[i] = distance[i].max(squared.sqrt() / scale);
                }
            }
        }
    }
    Ok((steps, distance))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_axes_undo_the_exporters_rotation() {
        let v = [1.0, 2.0, 3.0];
        assert_eq!(md2_axes(quake_axes(v)), v);
        assert_eq!(quake_axes(md2_axes(v)), v);
    }
}
