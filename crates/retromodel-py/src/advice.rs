//! The library's advice ([`retromodel::advice`]) and its problems with
//! conversion options for Python: worded with the keyword arguments of
//! `compile_md2`, `compile_ms3d`, `to_obj` and `to_glb`, and as data
//! (`limit` and `remedies` dicts) so that a caller such as the Blender
//! add-on can word it with its own labels.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use retromodel::advice::{Advice, Limit, Quantity, Remedy};
use retromodel::convert::{ConvertOption, OptionProblem};

/// One remedy, naming its keyword argument.
fn word(remedy: &Remedy) -> String {
    match remedy {
        Remedy::LowerFps => "lower fps (default 10)".to_string(),
        Remedy::FewerAnimations => "bake fewer animations (anims=[...])".to_string(),
        Remedy::Engine { engine, allows } => format!(
            "engine=\"{}\" ({})",
            engine.name(),
            allows.map_or_else(|| "no limit".to_string(), |n| format!("allows {n}"))
        ),
        Remedy::SkinSize => "give skin_size=(width, height)".to_string(),
        Remedy::SkinName => "give one short skin_name".to_string(),
        Remedy::Palette => "give palette= (the bytes of a PCX such as Quake II's \
                            pics/colormap.pcx, which retromodel does not ship)"
            .to_string(),
        Remedy::SkinPngOrTga => "skin_format=\"png\" or \"tga\" for an engine that loads them \
                                 (yquake2, q2pro, kmquake2, ufoai)"
            .to_string(),
        Remedy::FitHeight { units } => format!("fit_height={units}"),
        Remedy::QuakePalette => "give palette= (Quake's gfx/palette.lmp, a path or its 768 \
                                 bytes; retromodel does not ship it), or put it beside the \
                                 model as gfx/palette.lmp"
            .to_string(),
        other => other.to_string(),
    }
}

/// A conversion option named by its keyword argument (`to_obj`'s
/// `frame=`, `to_glb`'s `quantize=`, `info`'s `clips=` ...); options that
/// no function here takes keep the library's neutral name.
fn keyword(option: ConvertOption) -> String {
    match option {
        ConvertOption::Quantize => "quantize=".to_string(),
        ConvertOption::Compress => "compress=".to_string(),
        ConvertOption::Clip => "clips=".to_string(),
        ConvertOption::Frame => "frame=".to_string(),
        ConvertOption::Anim => "anim=".to_string(),
        ConvertOption::Time => "time=".to_string(),
        ConvertOption::Compile => "compile_md2's keyword arguments".to_string(),
        other => format!("the {} option", other.name()),
    }
}

/// A problem with the options of a conversion, in Python's words.
pub fn option_problem(problem: &OptionProblem) -> String {
    problem.words(keyword)
}

/// `text` followed by the remedies of `advice` in Python's words.
pub fn worded(text: String, advice: Option<&Advice>) -> String {
    match advice {
        Some(a) if !a.remedies.is_empty() => format!("{text}; {}", a.words(word)),
        _ => text,
    }
}

/// A remedy's key for Python (`"lower_fps"`, `"engine"` ...).
fn key(remedy: &Remedy) -> &'static str {
    match remedy {
        Remedy::LowerFps => "lower_fps",
        Remedy::FewerAnimations => "fewer_animations",
        Remedy::Engine { .. } => "engine",
        Remedy::SkinSize => "skin_size",
        Remedy::SkinName => "skin_name",
        Remedy::Palette => "palette",
        Remedy::QuakePalette => "quake_palette",
        Remedy::SkinPngOrTga => "skin_png_or_tga",
        Remedy::MergeVertices => "merge_vertices",
        Remedy::Decimate => "decimate",
        Remedy::SplitModel => "split_model",
        Remedy::SmallerTextures => "smaller_textures",
        Remedy::FewerSeams => "fewer_seams",
        Remedy::JoinMeshes => "join_meshes",
        Remedy::MergeMaterials => "merge_materials",
        Remedy::FewerJoints => "fewer_joints",
        Remedy::FitHeight { .. } => "fit_height",
        _ => "other",
    }
}

/// A quantity's key for Python (`"frames"`, `"skin_width"` ...).
fn quantity_key(q: Quantity) -> &'static str {
    match q {
        Quantity::Frames => "frames",
        Quantity::Vertices => "vertices",
        Quantity::Triangles => "triangles",
        Quantity::Skins => "skins",
        Quantity::SkinNameBytes => "skin_name_bytes",
        Quantity::SkinWidth => "skin_width",
        Quantity::SkinHeight => "skin_height",
        Quantity::FileBytes => "file_bytes",
        Quantity::Groups => "groups",
        Quantity::Materials => "materials",
        Quantity::Joints => "joints",
        Quantity::Samples => "samples",
        Quantity::GltfJsonBytes => "gltf_json_bytes",
        Quantity::GltfBufferBytes => "gltf_buffer_bytes",
        Quantity::GltfOutputBytes => "gltf_output_bytes",
        Quantity::Surfaces => "surfaces",
        Quantity::Tags => "tags",
        _ => "other",
    }
}

/// `{"quantity", "max", "actual", "over"}`, or `None`.
pub fn limit_dict<'py>(py: Python<'py>, limit: Option<&Limit>) -> PyResult<Bound<'py, PyAny>> {
    let Some(l) = limit else {
        return Ok(py.None().into_bound(py));
    };
    let d = PyDict::new(py);
    d.set_item("quantity", quantity_key(l.quantity))?;
    d.set_item("max", l.max)?;
    d.set_item("actual", l.actual)?;
    d.set_item("over", l.over())?;
    Ok(d.into_any())
}

/// `[{"remedy": key, "text": neutral words, ...}]`; an engine's also has
/// `"engine"` (its command-line name) and `"allows"` (`None`: no limit).
pub fn remedies_list<'py>(
    py: Python<'py>,
    advice: Option<&Advice>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let mut out = Vec::new();
    for r in advice.map_or(&[][..], |a| &a.remedies[..]) {
        let d = PyDict::new(py);
        d.set_item("remedy", key(r))?;
        d.set_item("text", r.to_string())?;
        if let Remedy::Engine { engine, allows } = r {
            d.set_item("engine", engine.name())?;
            d.set_item("allows", *allows)?;
        }
        if let Remedy::FitHeight { units } = r {
            d.set_item("units", *units)?;
        }
        out.push(d);
    }
    Ok(out)
}

/// A warning as data: its `message` (what happened), `limit` and
/// `remedies`, as for `retromodel.Error`.
#[derive(Debug, Clone)]
pub struct Detail {
    pub message: String,
    pub advice: Option<Advice>,
}

impl Detail {
    /// The dict Python sees.
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("message", &self.message)?;
        d.set_item(
            "limit",
            limit_dict(py, self.advice.as_ref().and_then(|a| a.limit.as_ref()))?,
        )?;
        d.set_item("remedies", remedies_list(py, self.advice.as_ref())?)?;
        Ok(d)
    }
}
