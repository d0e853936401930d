//! `retromodel.Model` and `retromodel.load`.

use std::path::PathBuf;
use std::sync::OnceLock;

use numpy::PyArrayDyn;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use retromodel::md2::{Engine, Layout, Md2};
use retromodel::mdl::Mdl;
use retromodel::ms3d::{Clip, Influences, Ms3d, Skeleton};
use retromodel::{Format, ReadContext};

use crate::arrays::{new_vec3_array, to_python};
use crate::errors::{to_py, Error};
use crate::mdl;
use crate::problem::Problem;
use crate::source::{Loaded, Source};

/// A model of any format retromodel reads, as read from one file.
///
/// Made by `retromodel.load`. Immutable: every method reads it; the
/// conversions return new bytes.
#[pyclass(module = "retromodel", frozen)]
pub struct Model {
    pub(crate) model: retromodel::Model,
    pub(crate) source: Loaded,
    /// An MS3D's skeleton and skin weights, prepared on first use.
    rig: OnceLock<Result<Rig, String>>,
}

/// What skinning an MS3D needs.
struct Rig {
    /// The binary model a MilkShape ASCII model converts to (`None` for a
    /// binary MS3D, which the model holds).
    converted: Option<Ms3d>,
    skeleton: Skeleton,
    influences: Influences,
}

/// Reads a model: `source` is a path (`str` or `os.PathLike`) or the
/// file's bytes. The format is told by the content (MD2, MS3D, MilkShape
/// 3D ASCII, glTF 2.0, OBJ, MDL, MD3); a glTF's buffers and an OBJ's
/// materials and textures are read from the file's folder only. `name`
/// names bytes (the default is `model`) or overrides the file's name.
///
/// A Quake III `.md3` path (or a player's folder, holding `lower.md3`,
/// `upper.md3` and `head.md3`) is read with the files beside it, names
/// compared without case: `animation.cfg` (its animations, named as in
/// the cfg, e.g. `LEGS_RUN`), the `.skin` files of the skin set `skin`
/// (`lower_default.skin` ...; an error when a set other than `"default"`
/// has none), and with `player=True`, when the file is `lower.md3`,
/// `upper.md3` or `head.md3` and the folder has all three, the whole
/// player: `to_glb()` joins the parts at their tags (nodes `lower`,
/// `upper`, `head`) and `weapon` (a weapon's `.md3` path) is held at
/// `tag_weapon`. `info()["md3_files"]` says what was found.
///
/// Raises `retromodel.Error` when the bytes are no model retromodel
/// reads, or `OSError` when the file cannot be read.
///
/// ```python
/// sarge = retromodel.load("models/players/sarge/", skin="red")
/// sarge.info()["md3_files"]["parts"]   # ['lower.md3', 'upper.md3', 'head.md3']
/// ```
#[pyfunction]
#[pyo3(signature = (source, name = None, *, skin = "default", weapon = None, player = true))]
pub fn load(
    py: Python<'_>,
    source: Source,
    name: Option<String>,
    skin: &str,
    weapon: Option<PathBuf>,
    player: bool,
) -> PyResult<Model> {
    let found = crate::md3_files::for_load(py, &source, skin, weapon.as_deref(), player)?;
    let mut loaded = match &found {
        Some(f) => Source::Path(f.model.clone()).load(py, name)?,
        None => source.load(py, name)?,
    };
    if let Some(f) = found {
        loaded.md3 = Some(f.companions);
        loaded.md3_facts = Some(f.facts);
    }
    let model = py.detach(|| read(&loaded)).map_err(to_py)?;
    Ok(Model {
        model,
        source: loaded,
        rig: OnceLock::new(),
    })
}

/// Reads `loaded`, finding the files it names beside it.
fn read(loaded: &Loaded) -> retromodel::Result<retromodel::Model> {
    let resolver = loaded
        .path
        .as_deref()
        .map(retromodel::texture::TextureResolver::for_model_file);
    let context = ReadContext {
        file_name: &loaded.file_name,
        resources: resolver
            .as_ref()
            .map(|r| r as &dyn retromodel::texture::TextureSource),
    };
    retromodel::Model::read_with(&loaded.bytes, &context)
}

/// The format's name, as `info()["format"]` spells the model formats.
pub(crate) fn format_name(format: Format) -> &'static str {
    match format {
        Format::Md2 => "md2",
        Format::Ms3d => "ms3d",
        Format::Ms3dAscii => "ms3d_ascii",
        Format::Gltf => "gltf",
        Format::Obj => "obj",
        Format::Mdl => "mdl",
        Format::Md3 => "md3",
        Format::Iqm => "iqm",
        Format::Md5 => "md5",
        _ => "unknown",
    }
}

#[pymethods]
impl Model {
    /// The format: `"mdl"`, `"md2"`, `"ms3d"`, `"ms3d_ascii"`, `"gltf"` or
    /// `"obj"`.
    #[getter]
    fn format(&self) -> &'static str {
        format_name(self.model.format())
    }

    /// The file name the model was read from (or the `name` given to
    /// `load` with bytes).
    #[getter]
    fn name(&self) -> &str {
        &self.source.file_name
    }

    /// The path the model was read from, or `None` for bytes.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.source.path.clone()
    }

    /// The number of vertices: an MDL's or MD2's per frame, an MS3D's, an
    /// MD3's per frame in all its surfaces.
    #[getter]
    fn vertex_count(&self) -> usize {
        match &self.model {
            retromodel::Model::Mdl(m) => mdl::vertex_count(m),
            retromodel::Model::Md3(m) => m.surfaces.iter().map(|s| s.vertex_count()).sum(),
            retromodel::Model::Md2(m) => m.vertex_count(),
            retromodel::Model::Ms3d(m) => m.vertices.len(),
            retromodel::Model::Ms3dAscii(m) => m.to_ms3d().map_or(0, |b| b.vertices.len()),
            retromodel::Model::Iqm(m) => m.vertex_count(),
            _ => 0,
        }
    }

    /// The number of MD2, MDL or MD3 frames (an MDL's frame groups
    /// counted frame by frame; 0 for other formats).
    #[getter]
    fn frame_count(&self) -> usize {
        match &self.model {
            retromodel::Model::Md2(m) => m.frames.len(),
            retromodel::Model::Md3(m) => m.frames.len(),
            retromodel::Model::Mdl(m) => m.simple_frames().count(),
            retromodel::Model::Iqm(m) => m.num_frames as usize,
            _ => 0,
        }
    }

    /// The MD2, MDL or MD3 frames' names, in order (an MDL's groups
    /// flattened).
    #[getter]
    fn frame_names(&self) -> PyResult<Vec<String>> {
        match self.frames()? {
            Frames::Md2(m) => Ok(m.frames.iter().map(|f| f.name()).collect()),
            Frames::Mdl(m) => Ok(m.simple_frames().map(|f| f.name.to_string()).collect()),
            Frames::Md3(m) => Ok(m.frames.iter().map(|f| f.name.to_string_lossy()).collect()),
            // An IQM's frames are named by the animation they are in.
            Frames::Iqm(m) => Ok((0..m.num_frames)
                .map(|f| {
                    m.anims
                        .iter()
                        .find(|a| {
                            (a.first_frame..a.first_frame.saturating_add(a.num_frames)).contains(&f)
                        })
                        .map_or_else(
                            || format!("frame{f}"),
                            |a| format!("{}{}", m.name(a.name), f - a.first_frame),
                        )
                })
                .collect()),
        }
    }

    /// MDL: the frame list as QuakeC's `self.frame` selects it, one dict
    /// per entry: `index`, `name` (a group's first frame's), `first_frame`
    /// and `frame_count` (the frames of `frame_positions` it spans) and
    /// `intervals` (a frame group's end times in seconds, which the engine
    /// plays by itself; `None` for a single frame).
    fn frame_list<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        mdl::frame_list(py, self.mdl()?)
    }

    /// MDL: the number of skin images (a skin group's images each count).
    #[getter]
    fn skin_count(&self) -> usize {
        match &self.model {
            retromodel::Model::Mdl(m) => mdl::skin_images(m).len(),
            _ => 0,
        }
    }

    /// MDL: skin image `index` (skin groups flattened) as a `(height,
    /// width)` uint8 array of palette indices, as stored.
    fn skin_indices<'py>(
        &self,
        py: Python<'py>,
        index: usize,
    ) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        mdl::skin_indices(py, self.mdl()?, index)
    }

    /// MDL: skin image `index` as a `(height, width, 4)` uint8 RGBA array,
    /// coloured by `palette` (a path or the bytes of Quake's
    /// `gfx/palette.lmp`, or a PCX with a palette).
    fn skin_rgba<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        palette: Source,
    ) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let m = self.mdl()?;
        let palette = mdl::palette_arg(py, palette)?;
        mdl::skin_rgba(py, m, index, &palette)
    }

    /// MDL: the header's effect flags as the number stored.
    #[getter]
    fn flags(&self) -> PyResult<i32> {
        Ok(self.mdl()?.flags)
    }

    /// MDL: the effect flags set, by name (`rocket`, `grenade`, `gib`,
    /// `rotate`, `tracer`, `zombie_gib`, `tracer2`, `tracer3`), as
    /// `compile_mdl(flags=...)` takes them.
    #[getter]
    fn flag_names(&self) -> PyResult<Vec<&'static str>> {
        Ok(mdl::flag_names(self.mdl()?.flags))
    }

    /// MDL: `"sync"` (frame and skin groups animate together on every
    /// entity) or `"random"` (each entity starts at its own time).
    #[getter]
    fn sync_type(&self) -> PyResult<&'static str> {
        Ok(if self.mdl()?.sync_type == 0 {
            "sync"
        } else {
            "random"
        })
    }

    /// MDL: the eye position `(x, y, z)` as stored.
    #[getter]
    fn eye_position(&self) -> PyResult<(f32, f32, f32)> {
        let [x, y, z] = self.mdl()?.eye_position;
        Ok((x, y, z))
    }

    /// MDL: `"quake"` (IDPO version 6), `"hexen2"` (RAPO version 50),
    /// `"quakeforge16"` (QuakeForge's 16-bit MD16) or `"qtest"` (IDPO
    /// version 3).
    #[getter]
    fn variant(&self) -> PyResult<&'static str> {
        use retromodel::mdl::Variant;
        Ok(match self.mdl()?.variant {
            Variant::Hexen2 => "hexen2",
            Variant::QuakeForge16 => "quakeforge16",
            Variant::QTest => "qtest",
            _ => "quake",
        })
    }

    /// The MD2's or MDL's animations as its frame names group them
    /// (`run01`..`run06` is `run`): a list of `(name, first_frame,
    /// frame_count)` (an MDL's over its frame list, as `frame_list()`
    /// numbers it).
    fn animations(&self) -> PyResult<Vec<(String, usize, usize)>> {
        if let retromodel::Model::Iqm(m) = &self.model {
            return Ok(m
                .anims
                .iter()
                .map(|a| {
                    (
                        m.name(a.name),
                        a.first_frame as usize,
                        a.num_frames as usize,
                    )
                })
                .collect());
        }
        if let retromodel::Model::Mdl(m) = &self.model {
            return Ok(m
                .info(&self.source.bytes)
                .animations
                .into_iter()
                .map(|a| (a.name, a.first_frame, a.frame_count))
                .collect());
        }
        Ok(self
            .md2()?
            .animations()
            .into_iter()
            .map(|a| (a.name, a.first_frame, a.frame_count))
            .collect())
    }

    /// A summary of the model as a dict: the same fields as
    /// `retromodel info --json`. `clips` are named ranges of an MS3D's
    /// timeline, `"name:first-last"` in frames, measured and checked.
    #[pyo3(signature = (clips = None))]
    fn info<'py>(
        &self,
        py: Python<'py>,
        clips: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let clips = parse_clips(clips.unwrap_or_default())?;
        let info = self.model.info(&self.source.bytes, &clips);
        match &self.source.md3_facts {
            Some(facts) => {
                let mut value = serde_json::to_value(&info)
                    .map_err(|e| Error::new_err(format!("info: {e}")))?;
                if let Some(map) = value.as_object_mut() {
                    map.insert("md3_files".to_string(), facts.clone());
                }
                to_python(py, &value)
            }
            None => to_python(py, &info),
        }
    }

    /// Every problem in the model, as a list of `Problem` (empty when the
    /// model is as its format asks). With `engine` (`"quake2"`,
    /// `"yquake2"`, `"q2pro"`, `"kmquake2"`, `"ufoai"`): whether the MD2
    /// loads in that engine, judged on the file's bytes as that engine's
    /// loader reads them (its layout checks included); an MDL with
    /// `"winquake"`, `"glquake"`, `"quakespasm"`, `"quakespasm-spiked"`,
    /// `"ironwail"`, `"vkquake"`, `"fte"`, `"quake-rerelease"` or
    /// `"hexen2"`: the limits that engine's loader has and what it does
    /// past them. The Quake engines say whether they load the format, and
    /// check an MD5 as the Quake rerelease's replacement
    /// (`"quake-rerelease"`, `"ironwail"`, `"vkquake"`).
    #[pyo3(signature = (engine = None))]
    fn validate(&self, engine: Option<&str>) -> PyResult<Vec<Problem>> {
        let problems = match engine {
            None => self.model.validate(),
            Some(name) => {
                let engine = engine_named(name)?;
                let bytes = &self.source.bytes;
                match &self.model {
                    retromodel::Model::Mdl(m) if engine.mdl_limits().is_some() => {
                        let mut problems = m.validate();
                        problems.extend(m.validate_for(engine));
                        problems
                    }
                    retromodel::Model::Md2(_) if bytes.starts_with(b"IDP2") => {
                        retromodel::md2::Md2::validate_bytes_for(bytes, engine)
                            .unwrap_or_else(|_| self.model.validate_for(engine))
                    }
                    _ => self.model.validate_for(engine),
                }
            }
        };
        Ok(problems.into_iter().map(Problem::from).collect())
    }

    /// The model written in its own format. An MD2's sections go where the
    /// file had them (`layout="original"`: the same bytes as the file) or
    /// in the standard order (`"standard"`: header, skins, texture
    /// coordinates, triangles, frames, GL commands). Raises
    /// `retromodel.Error` for glTF and OBJ, which are read into a scene
    /// (convert them instead).
    #[pyo3(signature = (layout = "original"))]
    fn to_bytes<'py>(&self, py: Python<'py>, layout: &str) -> PyResult<Bound<'py, PyBytes>> {
        let layout = match layout {
            "original" => Layout::Original,
            "standard" => Layout::Standard,
            other => {
                return Err(Error::new_err(format!(
                    "layout {other:?}: not one of original, standard"
                )))
            }
        };
        let bytes = py
            .detach(|| match &self.model {
                retromodel::Model::Md2(m) => m.to_bytes_with(layout),
                retromodel::Model::Mdl(m) => m.to_bytes_with(match layout {
                    Layout::Original => retromodel::mdl::Layout::Original,
                    _ => retromodel::mdl::Layout::Standard,
                }),
                other => other.to_bytes(),
            })
            .map_err(to_py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// MD2, MDL or MD3: the vertex positions of frame `frame` as a
    /// `(vertices, 3)` float32 array, decoded as `byte * scale +
    /// translate` (an MD2's frame's grid, an MDL's one grid for every
    /// frame) or `int16 / 64` (an MD3's surfaces one after another) in
    /// Quake's axes (X forward, Y left, Z up; glTF and OBJ exports use
    /// `(y, z, x)`). An MDL's frame groups are flattened: `frame` counts
    /// every frame.
    fn frame_positions<'py>(
        &self,
        py: Python<'py>,
        frame: usize,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        match self.frames()? {
            Frames::Md2(_) => {
                let f = self.frame(frame)?;
                new_vec3_array(py, &[f.vertices.len(), 3], |out| f.decode_positions(out))
            }
            Frames::Mdl(m) => {
                let f = mdl::frame(m, frame)?;
                new_vec3_array(py, &[f.vertices.len(), 3], |out| {
                    mdl::decode_positions(m, f, out)
                })
            }
            Frames::Md3(m) => {
                md3_frame_index(m, frame)?;
                new_vec3_array(py, &[md3_vertex_count(m), 3], |out| {
                    md3_decode(m, frame, false, out)
                })
            }
            Frames::Iqm(m) => {
                iqm_frame_index(m, frame)?;
                new_vec3_array(py, &[m.vertex_count(), 3], |out| {
                    iqm_decode(m, frame, false, out)
                })
            }
        }
    }

    /// MD2, MDL or MD3: the vertex normals of frame `frame` (from the
    /// 162-entry normal table, an index outside it giving zeros; an MD3's
    /// latitude/longitude as ioquake3 decodes them) as a `(vertices, 3)`
    /// float32 array, in Quake's axes.
    fn frame_normals<'py>(
        &self,
        py: Python<'py>,
        frame: usize,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        match self.frames()? {
            Frames::Md2(_) => {
                let f = self.frame(frame)?;
                new_vec3_array(py, &[f.vertices.len(), 3], |out| f.decode_normals(out))
            }
            Frames::Mdl(m) => {
                let f = mdl::frame(m, frame)?;
                new_vec3_array(py, &[f.vertices.len(), 3], |out| {
                    mdl::decode_normals(f, out)
                })
            }
            Frames::Md3(m) => {
                md3_frame_index(m, frame)?;
                new_vec3_array(py, &[md3_vertex_count(m), 3], |out| {
                    md3_decode(m, frame, true, out)
                })
            }
            Frames::Iqm(m) => {
                iqm_frame_index(m, frame)?;
                new_vec3_array(py, &[m.vertex_count(), 3], |out| {
                    iqm_decode(m, frame, true, out)
                })
            }
        }
    }

    /// MD2, MDL or MD3: every frame's vertex positions as one `(frames,
    /// vertices, 3)` float32 array (decoded straight into the array's
    /// memory).
    fn all_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        self.all_decoded(py, false)
    }

    /// MD2, MDL or MD3: every frame's vertex normals as one `(frames,
    /// vertices, 3)` float32 array.
    fn all_normals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        self.all_decoded(py, true)
    }

    /// The number of MS3D joints (0 for other formats).
    #[getter]
    fn joint_count(&self) -> usize {
        if let retromodel::Model::Iqm(m) = &self.model {
            return m.joints.len();
        }
        match self.ms3d() {
            Ok((m, _)) => m.joints.len(),
            Err(_) => 0,
        }
    }

    /// The MS3D timeline's frame rate (frames per second, at least 1).
    #[getter]
    fn fps(&self) -> PyResult<f32> {
        Ok(self.rig()?.skeleton.fps())
    }

    /// MS3D (binary or ASCII): the vertex positions at `time` seconds into
    /// the timeline, skinned as MilkShape's viewer does (up to four
    /// weighted joints per vertex), as a `(vertices, 3)` float32 array in
    /// MilkShape's axes (the same as glTF's). A negative time gives the
    /// bind pose; past the last key the last key holds.
    fn skinned_positions<'py>(
        &self,
        py: Python<'py>,
        time: f32,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        if !time.is_finite() {
            return Err(Error::new_err(format!(
                "time {time}: must be a finite number of seconds"
            )));
        }
        let (model, _) = self.ms3d()?;
        let rig = self.rig()?;
        let model = rig.converted.as_ref().unwrap_or(model);
        let mut joints = vec![glam::Mat4::IDENTITY; rig.skeleton.joint_count()];
        rig.skeleton.pose_at_time(time, &mut joints);
        rig.skeleton.skinning_matrices(&mut joints);
        new_vec3_array(py, &[model.vertices.len(), 3], |out| {
            rig.influences.skin_positions(model, &joints, out)
        })
    }

    /// The model as binary glTF 2.0 (`retromodel convert x.glb`): MD2
    /// frames as morph targets with their animations, MS3D skeletons and
    /// animations, textures found beside the file embedded. `quantize`:
    /// `KHR_mesh_quantization`; `compress`: `EXT_meshopt_compression`.
    /// `clips` (`"name:first-last"` in frames): an MS3D's timeline cut into
    /// one animation per clip instead of the clips the file stores (or the
    /// whole timeline); other formats ignore them. `palette`: the Quake
    /// palette an MDL's skins index (a path or the bytes of
    /// `gfx/palette.lmp`; default: `gfx/palette.lmp` found beside the model
    /// or in the game folder above `progs/`, else the skins come without
    /// images and a warning).
    ///
    /// ```python
    /// glb = retromodel.load("walker.ms3d").to_glb(clips=["walk:1-31", "run:32-50"])
    /// ```
    #[pyo3(signature = (quantize = false, compress = false, clips = None, palette = None))]
    fn to_glb<'py>(
        &self,
        py: Python<'py>,
        quantize: bool,
        compress: bool,
        clips: Option<Vec<String>>,
        palette: Option<Source>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let options = retromodel::convert::ConvertOptions {
            quantize,
            compress,
            clip: parse_clips(clips.unwrap_or_default())?,
            palette: palette.map(|p| mdl::palette_arg(py, p)).transpose()?,
            ..Default::default()
        };
        crate::conversion::glb(py, &self.source, &options)
    }

    /// The model as Wavefront OBJ, posed as `retromodel convert x.obj`
    /// poses it: an MD2 at `frame` (within animation `anim` when given;
    /// default frame 0), an MS3D or glTF at `time` seconds (default the
    /// rest pose). Returns `{file name: bytes}`: the `.mtl`, PNG textures
    /// and the `.obj` (named `name`, last), in glTF's axes. `palette`: an
    /// MDL's, as for `to_glb`.
    #[pyo3(signature = (frame = None, anim = None, time = None, name = "model.obj", palette = None))]
    fn to_obj<'py>(
        &self,
        py: Python<'py>,
        frame: Option<usize>,
        anim: Option<String>,
        time: Option<f32>,
        name: &str,
        palette: Option<Source>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = retromodel::convert::ConvertOptions {
            frame,
            anim: anim.into_iter().collect(),
            time,
            palette: palette.map(|p| mdl::palette_arg(py, p)).transpose()?,
            ..Default::default()
        };
        let files = crate::conversion::run(
            py,
            &self.source,
            &options,
            retromodel::convert::OutputFormat::Obj,
            name,
        )?;
        crate::conversion::files_dict(py, &files)
    }

    fn __repr__(&self) -> String {
        format!(
            "<retromodel.Model {} {:?}: {} vertices, {} frames>",
            self.format(),
            self.source.file_name,
            self.vertex_count(),
            self.frame_count()
        )
    }
}

/// A model with frames of packed vertices.
enum Frames<'a> {
    Md2(&'a Md2),
    Mdl(&'a Mdl),
    Md3(&'a retromodel::md3::Md3),
    Iqm(&'a retromodel::iqm::Iqm),
}

/// Frame `frame` of an IQM skinned as the engines skin it (up to four
/// weighted joints), positions or normals, in Quake's axes.
fn iqm_decode(m: &retromodel::iqm::Iqm, frame: usize, normals: bool, out: &mut [[f32; 3]]) {
    let matrices = m.skin_matrices(Some(frame)).unwrap_or_default();
    let values = if normals {
        m.skinned_normals(&matrices)
    } else {
        m.skinned_positions(&matrices)
    };
    for (o, v) in out.iter_mut().zip(values) {
        *o = v;
    }
}

/// `Ok` when the IQM has frame `frame`, else `IndexError`.
fn iqm_frame_index(m: &retromodel::iqm::Iqm, frame: usize) -> PyResult<()> {
    if frame < m.num_frames as usize {
        Ok(())
    } else {
        Err(PyIndexError::new_err(format!(
            "frame {frame}: the model has {} frames",
            m.num_frames
        )))
    }
}

/// The vertices of every surface of an MD3, one after another: its
/// "vertex count" as the frames' arrays hold them.
fn md3_vertex_count(m: &retromodel::md3::Md3) -> usize {
    m.surfaces.iter().map(|s| s.vertex_count()).sum()
}

/// Decodes frame `frame` of every surface (surfaces one after another)
/// into `out`: positions, or normals as ioquake3 decodes them.
fn md3_decode(m: &retromodel::md3::Md3, frame: usize, normals: bool, out: &mut [[f32; 3]]) {
    let mut at = 0;
    for s in &m.surfaces {
        let Some(vertices) = s.frame(frame) else {
            at += s.vertex_count();
            continue;
        };
        let start = at.min(out.len());
        for (v, o) in vertices.iter().zip(out[start..].iter_mut()) {
            *o = if normals {
                v.decode_normal()
            } else {
                v.position()
            };
        }
        at += s.vertex_count();
    }
}

/// `Ok` when the MD3 has frame `frame`, else `IndexError`.
fn md3_frame_index(m: &retromodel::md3::Md3, frame: usize) -> PyResult<()> {
    if frame < m.frames.len() {
        Ok(())
    } else {
        Err(PyIndexError::new_err(format!(
            "frame {frame}: the model has {} frames",
            m.frames.len()
        )))
    }
}

impl Model {
    /// The MD2 or MDL, or an error saying the model has no frames.
    fn frames(&self) -> PyResult<Frames<'_>> {
        match &self.model {
            retromodel::Model::Md2(m) => Ok(Frames::Md2(m)),
            retromodel::Model::Mdl(m) => Ok(Frames::Mdl(m)),
            retromodel::Model::Md3(m) => Ok(Frames::Md3(m)),
            retromodel::Model::Iqm(m) => Ok(Frames::Iqm(m)),
            other => Err(Error::new_err(format!(
                "{} is {}, not MD2, MDL, MD3 or IQM: frames are theirs (use skinned_positions for MS3D)",
                self.source.file_name,
                other.format()
            ))),
        }
    }

    /// Every frame's positions (or normals) in one array.
    fn all_decoded<'py>(
        &self,
        py: Python<'py>,
        normals: bool,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        match self.frames()? {
            Frames::Md2(m) => {
                let n = m.vertex_count();
                new_vec3_array(py, &[m.frames.len(), n, 3], |out| {
                    if n > 0 {
                        for (f, o) in m.frames.iter().zip(out.chunks_exact_mut(n)) {
                            if normals {
                                f.decode_normals(o);
                            } else {
                                f.decode_positions(o);
                            }
                        }
                    }
                })
            }
            Frames::Mdl(m) => {
                let shape = [m.simple_frames().count(), mdl::vertex_count(m), 3];
                new_vec3_array(py, &shape, |out| mdl::decode_all(m, normals, out))
            }
            Frames::Md3(m) => {
                let n = md3_vertex_count(m);
                new_vec3_array(py, &[m.frames.len(), n, 3], |out| {
                    if n > 0 {
                        for (f, o) in out.chunks_exact_mut(n).enumerate() {
                            md3_decode(m, f, normals, o);
                        }
                    }
                })
            }
            Frames::Iqm(m) => {
                let n = m.vertex_count();
                new_vec3_array(py, &[m.num_frames as usize, n, 3], |out| {
                    if n > 0 {
                        for (f, o) in out.chunks_exact_mut(n).enumerate() {
                            iqm_decode(m, f, normals, o);
                        }
                    }
                })
            }
        }
    }

    /// The MDL, or an error saying the model is another format.
    fn mdl(&self) -> PyResult<&Mdl> {
        match &self.model {
            retromodel::Model::Mdl(m) => Ok(m),
            other => Err(Error::new_err(format!(
                "{} is {}, not a Quake MDL",
                self.source.file_name,
                other.format()
            ))),
        }
    }

    /// The MD2, or an error saying the model is another format.
    fn md2(&self) -> PyResult<&Md2> {
        match &self.model {
            retromodel::Model::Md2(m) => Ok(m),
            other => Err(Error::new_err(format!(
                "{} is {}, not MD2: frames are MD2's (use skinned_positions for MS3D)",
                self.source.file_name,
                other.format()
            ))),
        }
    }

    /// MD2 frame `index`, or `IndexError`.
    fn frame(&self, index: usize) -> PyResult<&retromodel::md2::Frame> {
        let m = self.md2()?;
        m.frames.get(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "frame {index}: the model has {} frames",
                m.frames.len()
            ))
        })
    }

    /// The binary MS3D, when the model is one (the flag says it is).
    fn ms3d(&self) -> PyResult<(&Ms3d, bool)> {
        match &self.model {
            retromodel::Model::Ms3d(m) => Ok((m, true)),
            retromodel::Model::Ms3dAscii(_) => {
                let rig = self.rig()?;
                rig.converted
                    .as_ref()
                    .map(|m| (m, false))
                    .ok_or_else(|| Error::new_err("MilkShape ASCII model without its binary form"))
            }
            other => Err(Error::new_err(format!(
                "{} is {}, not MS3D: skinning is MS3D's (use frame_positions for MD2)",
                self.source.file_name,
                other.format()
            ))),
        }
    }

    /// The skeleton and weights, prepared once.
    fn rig(&self) -> PyResult<&Rig> {
        self.rig
            .get_or_init(|| make_rig(&self.model))
            .as_ref()
            .map_err(|m| Error::new_err(m.clone()))
    }
}

/// Prepares an MS3D's (or MilkShape ASCII model's) skeleton and weights.
fn make_rig(model: &retromodel::Model) -> Result<Rig, String> {
    match model {
        retromodel::Model::Ms3d(m) => rig_of(m, None),
        retromodel::Model::Ms3dAscii(a) => {
            let m = a.to_ms3d().map_err(|e| e.to_string())?;
            let (skeleton, influences) = skin_of(&m)?;
            Ok(Rig {
                converted: Some(m),
                skeleton,
                influences,
            })
        }
        other => Err(format!(
            "the model is {}, not MS3D: skinning is MS3D's",
            other.format()
        )),
    }
}

fn rig_of(m: &Ms3d, converted: Option<Ms3d>) -> Result<Rig, String> {
    let (skeleton, influences) = skin_of(m)?;
    Ok(Rig {
        converted,
        skeleton,
        influences,
    })
}

fn skin_of(m: &Ms3d) -> Result<(Skeleton, Influences), String> {
    Ok((
        Skeleton::new(m).map_err(|e| e.to_string())?,
        Influences::new(m),
    ))
}

/// Clips given as `name:first-last`.
pub fn parse_clips(clips: Vec<String>) -> PyResult<Vec<Clip>> {
    clips
        .iter()
        .map(|c| {
            c.parse::<Clip>()
                .map_err(|e| Error::new_err(format!("clip {c:?}: {e}")))
        })
        .collect()
}

/// The engine called `name`, or an error listing them.
pub fn engine_named(name: &str) -> PyResult<Engine> {
    Engine::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
        Error::new_err(format!("engine {name:?}: not one of {}", names.join(", ")))
    })
}
