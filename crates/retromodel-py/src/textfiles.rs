//! `qc_frames` and `modeldef`: the text files a game's code or data needs
//! beside a model (QuakeC's `$frame` list, GZDoom's MODELDEF block), made
//! by the library's `textfiles` from an MD2, MDL or MD3 and worded here
//! with this module's keyword arguments.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use retromodel::advice::{Advice, Limit, Quantity, Remedy};
use retromodel::textfiles::modeldef::{
    is_actor_name, ModeldefProblem, DEFAULT_HEIGHT, FRAME_CHARS,
};
use retromodel::textfiles::{
    modeldef as make_modeldef, qc_frames as make_qc, ModelFacts, ModeldefOptions, NameIssue, QcNote,
};

use crate::advice::{limit_dict, remedies_list, worded};
use crate::errors::{to_py, Error};
use crate::model::{format_name, Model};
use crate::source::Source;

/// A model's `$frame` list, made by `qc_frames`.
#[pyclass(module = "retromodel", frozen)]
pub struct QcFrames {
    /// The `.qc` file's text: `$skin` lines, then one `$frame` line per
    /// animation, so that `$name` is the number of the frame of that name.
    #[pyo3(get)]
    pub text: String,
    /// Each frame's name as declared, in frame order (`names[n]` is
    /// numbered `n`).
    #[pyo3(get)]
    pub names: Vec<String>,
    /// Frame names that had to change, one line each.
    #[pyo3(get)]
    pub warnings: Vec<String>,
    notes: Vec<QcNote>,
}

#[pymethods]
impl QcFrames {
    /// The warnings as data: `{"message", "issue", "frame", "name",
    /// "declared"}` for a renamed frame (`issue`: `"empty"`,
    /// `"not_identifier"`, `"too_long"`, `"directive"` or `"duplicate"`),
    /// `{"message", "issue": "too_many_for_id_qcc", "frames"}` for more
    /// frames than id's qcc holds.
    #[getter]
    fn warning_details<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.notes
            .iter()
            .zip(&self.warnings)
            .map(|(note, message)| {
                let d = PyDict::new(py);
                d.set_item("message", message)?;
                match note {
                    QcNote::Renamed {
                        frame,
                        from,
                        to,
                        issue,
                    } => {
                        d.set_item("issue", issue_key(*issue))?;
                        d.set_item("frame", frame)?;
                        d.set_item("name", from)?;
                        d.set_item("declared", to)?;
                    }
                    QcNote::TooManyForIdQcc { frames } => {
                        d.set_item("issue", "too_many_for_id_qcc")?;
                        d.set_item("frames", frames)?;
                    }
                    _ => d.set_item("issue", "other")?,
                }
                Ok(d)
            })
            .collect()
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!(
            "<retromodel.QcFrames: {} frames, {} warning(s)>",
            self.names.len(),
            self.warnings.len()
        )
    }
}

/// A model's MODELDEF block, made by `modeldef`.
#[pyclass(module = "retromodel", frozen)]
pub struct Modeldef {
    /// The text: a comment listing each animation's sprite frames, then
    /// the `Model ACTOR { ... }` block.
    #[pyo3(get)]
    pub text: String,
    /// The actor class the block is for.
    #[pyo3(get)]
    pub actor: String,
    /// The folder `Path` names (where the model and its skins go).
    #[pyo3(get)]
    pub path: String,
    /// The model's file name, as `Model 0` names it.
    #[pyo3(get)]
    pub model_file: String,
    /// The `Scale` written (the same on every axis).
    #[pyo3(get)]
    pub scale: f32,
    /// The `ZOffset` written, in map units.
    #[pyo3(get)]
    pub z_offset: f32,
    sprites: Vec<retromodel::textfiles::AnimationSprites>,
}

#[pymethods]
impl Modeldef {
    /// The sprite frames each animation's frames are, for the actor's
    /// states: `[{"animation": "run", "parts": [("RU00", 6, 6)],
    /// "states": "RU00 GHIJKL"}]`; a part is a sprite, the index of its
    /// first frame letter (0 for `A`) and how many letters follow.
    #[getter]
    fn sprites<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.sprites
            .iter()
            .map(|a| {
                let d = PyDict::new(py);
                d.set_item("animation", &a.name)?;
                d.set_item("parts", a.parts.clone())?;
                d.set_item("states", a.states())?;
                Ok(d)
            })
            .collect()
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!(
            "<retromodel.Modeldef: actor {}, {} animation(s)>",
            self.actor,
            self.sprites.len()
        )
    }
}

/// The facts of `source` (a `Model`, a path or bytes) and the model's
/// file name (`name`, else the file's, else `model.<format>`).
fn facts_of(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<String>,
) -> PyResult<(ModelFacts, String, &'static str)> {
    let owned;
    let (model, file_name) = match source.cast::<Model>() {
        Ok(m) => {
            let m = m.get();
            (&m.model, m.source.file_name.clone())
        }
        Err(_) => {
            let loaded = source.extract::<Source>()?.load(py, None)?;
            owned = py
                .detach(|| retromodel::Model::from_bytes(&loaded.bytes))
                .map_err(to_py)?;
            (&owned, loaded.file_name)
        }
    };
    let format = format_name(model.format());
    let facts = ModelFacts::from_model(model).ok_or_else(|| {
        Error::new_err(format!(
            "a {format} model has no frames to list: give an MD2, MDL or MD3"
        ))
    })?;
    let file_name = name.unwrap_or(file_name);
    let file_name = if file_name.is_empty() || !file_name.contains('.') {
        format!(
            "{}.{format}",
            if file_name.is_empty() {
                "model"
            } else {
                &file_name
            }
        )
    } else {
        file_name
    };
    Ok((facts, file_name, format))
}

/// QuakeC's `$frame` (and `$skin`) declarations for an MD2, MDL or MD3
/// (`source`: a path, bytes or a `Model`), numbered as QuakeC compilers
/// number them: `$name` is the number of the frame of that name (an MDL's
/// frame group is one frame), one `$frame` line per animation. `name`
/// names the model in the comment at the top (default: the file's name).
///
/// Frame names no compiler takes (not an identifier, longer than 15
/// characters, a `$` directive word, the same as an earlier one ignoring
/// case) are declared under a new name, and `warnings` says so.
///
/// Returns a `QcFrames` (`text`, `names`, `warnings`). Raises
/// `retromodel.Error` for a model without frames.
#[pyfunction]
#[pyo3(signature = (source, name = None))]
pub fn qc_frames(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<String>,
) -> PyResult<QcFrames> {
    let (facts, file_name, _) = facts_of(py, source, name)?;
    let qc = make_qc(&facts, &file_name);
    Ok(QcFrames {
        text: qc.text,
        names: qc.names,
        warnings: qc.notes.iter().map(ToString::to_string).collect(),
        notes: qc.notes,
    })
}

/// GZDoom's MODELDEF block for an MD2 or MD3 (`source`: a path, bytes or
/// a `Model`; an MDL, which GZDoom does not load, is refused): every
/// model frame one `FrameIndex` line, each animation's frames sprite
/// frames (`sprites` lists them for the actor's states), `Scale` and
/// `ZOffset` standing frame 0 `height` map units tall on the floor.
///
/// - `actor`: the actor class (default: from the file's name).
/// - `height`: frame 0's height in map units (default 56, a Doom
///   player's).
/// - `path`: the folder `Path` names (default `models/<actor>`, lower
///   case).
/// - `name`: the model's file name as `Model 0` names it (default: the
///   file's name).
///
/// Returns a `Modeldef`. Raises `retromodel.Error` for a bad `actor`,
/// `height`, `path` or `name`, or too many frames.
#[pyfunction]
#[pyo3(signature = (source, actor = None, height = None, path = None, name = None))]
pub fn modeldef(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    actor: Option<String>,
    height: Option<f32>,
    path: Option<String>,
    name: Option<String>,
) -> PyResult<Modeldef> {
    if let Some(a) = &actor {
        if !is_actor_name(a) {
            return Err(Error::new_err(format!(
                "actor={a:?}: not a class name (letters, digits and _, not a digit first)"
            )));
        }
    }
    if let Some(h) = height {
        if !(h.is_finite() && h > 0.0) {
            return Err(Error::new_err(format!(
                "height={h}: must be a height in map units above 0"
            )));
        }
    }
    let (facts, file_name, format) = facts_of(py, source, name)?;
    if format == "mdl" {
        return Err(Error::new_err(
            "GZDoom loads MD2 and MD3 models, not MDL: compile_md2 or compile_md3 it first",
        ));
    }
    let actor = actor.unwrap_or_else(|| actor_from_file(&file_name));
    let mut options = ModeldefOptions::new(&actor, &file_name);
    options.height = height.unwrap_or(DEFAULT_HEIGHT);
    if let Some(p) = path {
        options.path = p;
    }
    let m = make_modeldef(&facts, &options).map_err(|e| modeldef_error(&e))?;
    Ok(Modeldef {
        text: m.text,
        actor,
        path: options.path,
        model_file: file_name,
        scale: m.scale,
        z_offset: m.z_offset,
        sprites: m.sprites,
    })
}

/// An actor class name from a file name's stem: letters, digits and `_`,
/// not a digit first.
fn actor_from_file(file_name: &str) -> String {
    let stem = std::path::Path::new(file_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name.insert(0, 'M');
    }
    name
}

/// Why a MODELDEF block cannot be written, as a `retromodel.Error`
/// naming the keyword to change; its `reason`, `limit` and `remedies` as
/// data (too many frames: fewer animations or a lower fps), as the
/// compile functions' errors have them.
fn modeldef_error(problem: &ModeldefProblem) -> PyErr {
    let (reason, advice) = match problem {
        ModeldefProblem::BadActor(a) => (
            format!("{a:?} is not an actor class name (letters, digits and _, not a digit first)"),
            None,
        ),
        ModeldefProblem::BadName(n) => (
            format!(
                "{n:?} cannot be written in MODELDEF (it holds a quote or a line break, or is the \
                 word model): give another path= or name="
            ),
            None,
        ),
        ModeldefProblem::TooManyFrames(n) => {
            let max = 100 * FRAME_CHARS.len();
            (
                format!("{n} frames: MODELDEF's 100 sprites of 29 frames hold {max}"),
                Some(Advice::new(
                    Some(Limit {
                        quantity: Quantity::Frames,
                        max: max as u64,
                        actual: *n as u64,
                    }),
                    vec![Remedy::LowerFps, Remedy::FewerAnimations],
                )),
            )
        }
        other => (other.to_string(), None),
    };
    let err = Error::new_err(worded(reason.clone(), advice.as_ref()));
    Python::attach(|py| {
        let value = err.value(py);
        // Attributes on a fresh exception: the message says it all if
        // one could not be set.
        let _ = value.setattr("offset", py.None());
        let _ = value.setattr("path", py.None());
        let _ = value.setattr("line", py.None());
        let _ = value.setattr("reason", reason);
        if let Ok(limit) = limit_dict(py, advice.as_ref().and_then(|a| a.limit.as_ref())) {
            let _ = value.setattr("limit", limit);
        }
        if let Ok(remedies) = remedies_list(py, advice.as_ref()) {
            let _ = value.setattr("remedies", remedies);
        }
    });
    err
}

/// A rename's reason as `warning_details` keys it.
fn issue_key(issue: NameIssue) -> &'static str {
    match issue {
        NameIssue::Empty => "empty",
        NameIssue::NotIdentifier => "not_identifier",
        NameIssue::TooLong => "too_long",
        NameIssue::Directive => "directive",
        NameIssue::Duplicate => "duplicate",
        _ => "other",
    }
}
