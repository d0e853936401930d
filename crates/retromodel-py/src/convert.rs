//! The compile functions (`compile_md2`, `compile_ms3d`, `compile_md5`,
//! `compile_mdl`; `compile_md3` in `convert_md3`) and their output
//! classes, through the library's `Converter` as the command line uses it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use retromodel::convert::{CompileOptions, ConvertOptions, OutputFormat};
use retromodel::md2::compile::{Grid, SkinFormat};
use retromodel::texture::Palette;

use crate::advice::{worded, Detail};
use crate::arrays::to_python;
use crate::conversion::{convert, files_dict};
use crate::errors::{to_py, Error};
use crate::model::{engine_named, Model};
use crate::source::{Loaded, Source};

/// Declares a compiler's output class: the file's bytes under `$main`,
/// the files to write beside it under `$beside`, the report and the
/// warnings (the compilers' outputs differ only in those names).
macro_rules! compile_output {
    (
        $(#[$class_doc:meta])*
        $name:ident {
            $(#[$main_doc:meta])* $main:ident,
            $(#[$beside_doc:meta])* $beside:ident ($what:literal),
            $(#[$report_doc:meta])*
        }
    ) => {
        $(#[$class_doc])*
        #[pyclass(module = "retromodel", frozen)]
        pub struct $name {
            $main: Vec<u8>,
            $beside: Vec<(String, Vec<u8>)>,
            report: Option<serde_json::Value>,
            warnings: Vec<Detail>,
        }

        #[pymethods]
        impl $name {
            $(#[$main_doc])*
            #[getter]
            fn $main<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, &self.$main)
            }

            $(#[$beside_doc])*
            #[getter]
            fn $beside<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                files_dict(py, &self.$beside)
            }

            $(#[$report_doc])*
            #[getter]
            fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                report_to_python(py, self.report.as_ref())
            }

            /// What the compiler had to change, one line each (with
            /// what would help, naming this module's keyword arguments).
            #[getter]
            fn warnings(&self) -> Vec<String> {
                self.warnings
                    .iter()
                    .map(|w| worded(w.message.clone(), w.advice.as_ref()))
                    .collect()
            }

            /// The warnings as data: `[{"message": what happened,
            /// "limit": ..., "remedies": [...]}]`, as the attributes of
            /// `retromodel.Error` have them, for a caller to word the
            /// remedies its own way.
            #[getter]
            fn warning_details<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
                self.warnings.iter().map(|w| w.to_dict(py)).collect()
            }

            fn __repr__(&self) -> String {
                format!(
                    concat!("<retromodel.", stringify!($name), ": {} bytes, {} ", $what, " file(s), {} warning(s)>"),
                    self.$main.len(),
                    self.$beside.len(),
                    self.warnings.len()
                )
            }
        }
    };
}

pub(crate) use compile_output;

compile_output! {
    /// What `compile_md2` made: the MD2, its skin files, the compile report
    /// and the warnings.
    Md2Output {
        /// The MD2 file's bytes.
        md2,
        /// The skin files to write beside it: `{file name: bytes}` (empty when
        /// the source has no texture).
        skins("skin"),
        /// The compile report (frames and quantisation error per animation,
        /// vertex and triangle counts), as `retromodel convert --json` prints
        /// it; `None` for an MD2 rewritten as it is.
    }
}

compile_output! {
    /// What `compile_ms3d` made: the MS3D, its texture files, the compile
    /// report and the warnings.
    Ms3dOutput {
        /// The MS3D file's bytes.
        ms3d,
        /// The texture files to write beside it, as the model names them:
        /// `{file name: bytes}` (empty when the source has no texture).
        textures("texture"),
        /// The compile report (vertices, joints, keys written against the
        /// source's, largest error per animation), as `retromodel convert
        /// --json` prints it; `None` for an MS3D rewritten as it is.
    }
}

compile_output! {
    /// What `compile_md5` made: the md5mesh, the files that go beside it
    /// (the md5anim, and the `.md5scale` when a joint's scale animates)
    /// and the warnings.
    Md5Output {
        /// The md5mesh file's bytes.
        md5mesh,
        /// The files to write beside it: `{file name: bytes}` (the
        /// `.md5anim`, and the `.md5scale` when there is one).
        files("MD5"),
        /// Always `None` (the MD5 compile keeps no report).
    }
}

/// Compiles any model retromodel reads (a `.glb` from Blender, an MS3D,
/// an OBJ, an MD2) into a Quake II MD2, as `retromodel convert x.md2`
/// does. `source` is a path, bytes or a `Model`.
///
/// - `fps`: frames per second the animations are baked at (default 10);
///   without it an MD2's, MDL's or MD3's frames are kept one for one.
/// - `engine`: whose limits the model must meet (`quake2`, `yquake2`,
///   `q2pro`, `kmquake2`, `ufoai`).
/// - `grid`: which frames share an 8-bit grid: `"frame"`, `"animation"`
///   (vertices that do not move do not wobble) or `"model"`.
/// - `player`: lay the animations out as the 198-frame player table.
/// - `anims`: the animations to bake, in order (default all).
/// - `scale` or `fit_height`: multiply units, or fit to this height.
/// - `skin_format`: `"pcx"` (needs `palette`), `"png"` or `"tga"`
///   (default pcx with a palette, else png); `skin_name`: the skin path
///   written in the model; `palette`: a PCX or 768 bytes of RGB.
/// - `skin_size`: `(width, height)` of the skin in pixels when there is
///   no skin image to take it from (default: a source MD2's, else
///   256×256).
/// - `name`: the MD2's file name (the skin is named after it).
///
/// Returns an `Md2Output`. Raises `retromodel.Error` when the model
/// cannot be compiled (an engine limit exceeded, an unknown animation).
#[pyfunction]
#[pyo3(signature = (source, fps = None, engine = "quake2", grid = "animation", player = false, anims = None, scale = None, fit_height = None, skin_format = None, skin_name = None, palette = None, skin_size = None, name = "model.md2"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub fn compile_md2(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    fps: Option<f32>,
    engine: &str,
    grid: &str,
    player: bool,
    anims: Option<Vec<String>>,
    scale: Option<f32>,
    fit_height: Option<f32>,
    skin_format: Option<&str>,
    skin_name: Option<String>,
    palette: Option<Vec<u8>>,
    skin_size: Option<(u32, u32)>,
    name: &str,
) -> PyResult<Md2Output> {
    if let Some((w, h)) = skin_size {
        if !((1..=65536).contains(&w) && (1..=65536).contains(&h)) {
            return Err(Error::new_err(format!(
                "skin_size ({w}, {h}): each must be 1 to 65536 pixels"
            )));
        }
    }
    let keep_source_frames = fps.is_none();
    let fps = fps.unwrap_or(retromodel::md2::DEFAULT_FPS);
    check_frames_and_size(fps, scale, fit_height)?;
    let mut o = CompileOptions {
        fps,
        keep_source_frames,
        player,
        scale,
        fit_height,
        animations: anims.clone().unwrap_or_default(),
        engine: engine_named(engine)?,
        grid: match grid {
            "frame" => Grid::Frame,
            "animation" => Grid::Animation,
            "model" => Grid::Model,
            other => {
                return Err(Error::new_err(format!(
                    "grid {other:?}: not one of frame, animation, model"
                )))
            }
        },
        ..CompileOptions::default()
    };
    if let Some(bytes) = &palette {
        let p = if bytes.len() == 768 {
            Palette::from_raw_768(bytes)
        } else {
            Palette::from_pcx(bytes)
        };
        o.skin.palette = Some(p.map_err(|e| Error::new_err(format!("palette: {e}")))?);
    }
    o.skin.format = match skin_format {
        Some("pcx") => SkinFormat::Pcx,
        Some("png") => SkinFormat::Png,
        Some("tga") => SkinFormat::Tga,
        Some(other) => {
            return Err(Error::new_err(format!(
                "skin_format {other:?}: not one of pcx, png, tga"
            )))
        }
        None if palette.is_some() => SkinFormat::Pcx,
        None => SkinFormat::Png,
    };
    o.skin.name = skin_name;
    o.skin.size = skin_size;
    let options = ConvertOptions {
        anim: anims.unwrap_or_default(),
        compile: Some(o),
        ..ConvertOptions::default()
    };
    let compiled = compile_source(py, source, &options, OutputFormat::Md2, name)?;
    Ok(Md2Output {
        md2: compiled.main,
        skins: compiled.beside,
        report: compiled.report,
        warnings: compiled.warnings,
    })
}

/// Compiles a glTF or OBJ model (a `.glb` from Blender, say) into a
/// MilkShape 3D MS3D, as `retromodel convert x.ms3d` does: the skeleton,
/// weights, every animation laid on MilkShape's one timeline (their names
/// and ranges in the model comment) and the materials, with the textures
/// as files beside it. `source` is a path, bytes or a `Model`; an MS3D or
/// MilkShape ASCII model is written as it is.
///
/// - `anims`: the animations to put on the timeline, in order (default
///   all).
/// - `name`: the MS3D's file name (the textures are named after it).
///
/// Returns an `Ms3dOutput`. Raises `retromodel.Error` when the model
/// cannot be compiled (an MD2's vertex animation, MilkShape's limits
/// exceeded, an unknown animation).
#[pyfunction]
#[pyo3(signature = (source, anims = None, name = "model.ms3d"))]
pub fn compile_ms3d(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    anims: Option<Vec<String>>,
    name: &str,
) -> PyResult<Ms3dOutput> {
    let options = ConvertOptions {
        anim: anims.unwrap_or_default(),
        ..ConvertOptions::default()
    };
    let compiled = compile_source(py, source, &options, OutputFormat::Ms3d, name)?;
    Ok(Ms3dOutput {
        ms3d: compiled.main,
        textures: compiled.beside,
        report: compiled.report,
        warnings: compiled.warnings,
    })
}

/// Refuses a frame rate or sizes the compilers cannot use, naming the
/// keywords.
pub(crate) fn check_frames_and_size(
    fps: f32,
    scale: Option<f32>,
    fit_height: Option<f32>,
) -> PyResult<()> {
    if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
        return Err(Error::new_err(format!(
            "fps {fps}: must be a number of frames per second above 0 (at most 1000)"
        )));
    }
    if scale.is_some() && fit_height.is_some() {
        return Err(Error::new_err("scale and fit_height: give one"));
    }
    Ok(())
}

/// Compiles any model with a skeleton (a `.glb` from Blender, an MS3D,
/// an MD5) into the Quake II rerelease's MD5 replacement, as `retromodel
/// convert x.md5mesh` does: the md5mesh, one md5anim whose frame k is
/// frame k of the MD2 that `compile_md2` makes with the same `fps`,
/// `player`, `anims`, `scale` and `fit_height` (same animations, order
/// and times), and a `.md5scale` when a joint's scale animates. The
/// rerelease loads them from `md5/` beside the MD2, named like it
/// (`players/hero/md5/tris.md5mesh` for `players/hero/tris.md2`). Every
/// weight a vertex has is kept; one MD5 mesh per material.
///
/// - `name`: the md5mesh's file name (the other files share its stem).
///
/// Returns an `Md5Output`. Raises `retromodel.Error` when the model
/// cannot be an MD5 (shape-key animation has no joints to become).
#[pyfunction]
#[pyo3(signature = (source, fps = None, player = false, anims = None, scale = None, fit_height = None, name = "model.md5mesh"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub fn compile_md5(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    fps: Option<f32>,
    player: bool,
    anims: Option<Vec<String>>,
    scale: Option<f32>,
    fit_height: Option<f32>,
    name: &str,
) -> PyResult<Md5Output> {
    let keep_source_frames = fps.is_none();
    let fps = fps.unwrap_or(retromodel::md2::DEFAULT_FPS);
    check_frames_and_size(fps, scale, fit_height)?;
    let options = ConvertOptions {
        anim: anims.clone().unwrap_or_default(),
        compile: Some(CompileOptions {
            fps,
            keep_source_frames,
            player,
            scale,
            fit_height,
            animations: anims.unwrap_or_default(),
            ..CompileOptions::default()
        }),
        ..ConvertOptions::default()
    };
    let compiled = compile_source(py, source, &options, OutputFormat::Md5, name)?;
    Ok(Md5Output {
        md5mesh: compiled.main,
        files: compiled.beside,
        report: compiled.report,
        warnings: compiled.warnings,
    })
}

/// A compile's report as Python objects, `None` when there is none.
pub(crate) fn report_to_python<'py>(
    py: Python<'py>,
    report: Option<&serde_json::Value>,
) -> PyResult<Bound<'py, PyAny>> {
    match report {
        Some(r) => to_python(py, r),
        None => Ok(py.None().into_bound(py)),
    }
}

/// What a compile to MD2 or MS3D made.
pub(crate) struct Compiled {
    /// The model file's bytes.
    pub main: Vec<u8>,
    /// The files to write beside it (skins, textures).
    pub beside: Vec<(String, Vec<u8>)>,
    /// The compile report.
    pub report: Option<serde_json::Value>,
    /// The warnings, worded for Python.
    pub warnings: Vec<Detail>,
}

/// Converts `source` (a `Model`, a path or bytes) to `format` with
/// `options`, the model named `name`.
pub(crate) fn compile_source(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    options: &ConvertOptions,
    format: OutputFormat,
    name: &str,
) -> PyResult<Compiled> {
    let owned;
    let loaded: &Loaded = match source.cast::<Model>() {
        Ok(model) => &model.get().source,
        Err(_) => {
            owned = source.extract::<Source>()?.load(py, None)?;
            &owned
        }
    };
    let (mut files, warnings, report) = py
        .detach(|| convert(loaded, options, format, name))
        .map_err(to_py)?;
    let main = files.pop().map(|(_, b)| b).unwrap_or_default();
    Ok(Compiled {
        main,
        beside: files,
        report,
        warnings,
    })
}

compile_output! {
    /// What `compile_mdl` made: the MDL (its skins inside it), the files
    /// of the rerelease's replacement, the compile report and the
    /// warnings.
    MdlOutput {
        /// The MDL file's bytes (its skin, quantised to the palette, inside).
        mdl,
        /// With `rerelease=True`, the Quake rerelease's files to write beside
        /// the MDL, by name: `NAME.md5mesh`, `NAME.md5anim` and the skins as
        /// `NAME_00_00.png` (with `NAME_00_00_luma.png` where the skin has
        /// fullbright texels); empty otherwise.
        files("rerelease"),
        /// The compile report (`None` for an MDL written as it is): the animations (`name`, `first_frame`,
        /// `frames`, `group`), frame, vertex and triangle counts, the one
        /// grid's step (`step`, per axis) and the largest and RMS distance
        /// of a vertex from the source (`max_error`, `rms_error`, in Quake
        /// units; `max_step_fraction`, at most 0.5 of a step), `skin_size`.
    }
}

/// Compiles any model retromodel reads (a `.glb` from Blender, an MS3D,
/// an MD2, an OBJ) into a Quake MDL: one grid for every frame (chosen for
/// the smallest error, reported), seams as Quake draws them, the skin
/// quantised to the Quake palette (fullbright colours only where the
/// source glows). `source` is a path, bytes or a `Model`.
///
/// - `palette`: Quake's `gfx/palette.lmp` (a path or its 768 bytes, or a
///   PCX); required, since an MDL's skin is palette indices.
/// - `fps`: frames per second the animations are baked at (Quake's
///   monsters: 10, the default); without it an MD2's, MDL's or MD3's
///   frames are kept one for one.
/// - `anims`: the animations to bake, in order (default all).
/// - `groups`: animations written as frame groups (one frame QuakeC
///   selects, played by the engine at its times); an animation named
///   `NAME@group` is one too.
/// - `scale` or `fit_height`: multiply units, or fit to this height in
///   Quake units.
/// - `flags`: the effect flags, by name (`rocket`, `grenade`, `gib`,
///   `rotate`, `tracer`, `zombie_gib`, `tracer2`, `tracer3`) or as the
///   number.
/// - `sync_type`: `"sync"` (frame and skin groups in step on every
///   entity) or `"random"`.
/// - `eye_position`: the header's `(x, y, z)` (default `(0, 0, 0)`).
/// - `engine`: whose limits the model must meet (`winquake`, `glquake`,
///   `quakespasm`, `quakespasm-spiked`, `ironwail`, `vkquake`, `fte`,
///   `quake-rerelease`, `hexen2`; default id's Quake).
/// - `name`: the model's file name (names the scene).
/// - `frames_like`: the MDL the model replaces (a path or its bytes): the
///   frames are laid out as its (its animations in its order and frame
///   counts, filled from the animations by name, `idle` also filling
///   `stand`; its frame names and frame groups), since QuakeC selects a
///   monster's frames by number; `fps` and `anims` are then not used, and
///   `groups` and `player` cannot be given.
/// - `rerelease`: also make the Quake rerelease's MD5 replacement (the
///   `files` of the result, to write beside the MDL in `progs/`), frame
///   `k` of its anim being frame `k` of the MDL.
/// - `player`: lay the frames out as Quake's player table (the 143 frames
///   of id's `player.mdl` that QuakeC numbers: `axrun`, `rockrun`,
///   `stand`, ... `axattd`), filled from the animations by name (`idle`,
///   `run`, `death`, `attack` fit too); `fps` and `anims` are then not
///   used, and `groups` cannot be given.
///
/// The same file as `retromodel convert SOURCE NAME.mdl --palette ...`
/// with the matching flags. Returns an `MdlOutput`. Raises `retromodel.Error` when the model
/// cannot be compiled (no palette, an engine limit exceeded, an unknown
/// animation).
#[pyfunction]
#[pyo3(signature = (source, palette = None, fps = None, anims = None, groups = None, scale = None, fit_height = None, flags = None, sync_type = "sync", eye_position = None, engine = None, name = "model.mdl", player = false, rerelease = false, frames_like = None))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub fn compile_mdl(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    palette: Option<Source>,
    fps: Option<f32>,
    anims: Option<Vec<String>>,
    groups: Option<Vec<String>>,
    scale: Option<f32>,
    fit_height: Option<f32>,
    flags: Option<crate::mdl::FlagsArg>,
    sync_type: &str,
    eye_position: Option<(f32, f32, f32)>,
    engine: Option<&str>,
    name: &str,
    player: bool,
    rerelease: bool,
    frames_like: Option<Source>,
) -> PyResult<MdlOutput> {
    use retromodel::mdl::compile::{CompileOptions as MdlOptions, FrameTable, Limits};

    let keep_source_frames = fps.is_none();
    let fps = fps.unwrap_or(10.0);
    check_frames_and_size(fps, scale, fit_height)?;
    if player && groups.as_ref().is_some_and(|g| !g.is_empty()) {
        return Err(Error::new_err(
            "player=True and groups: the Quake player's frames are single frames that QuakeC numbers one by one",
        ));
    }
    let palette = match palette {
        Some(p) => crate::mdl::palette_arg(py, p)?,
        None => {
            return Err(Error::new_err(
                "palette: an MDL's skin is palette indices: give Quake's gfx/palette.lmp \
                 (palette=\"id1/gfx/palette.lmp\" or its 768 bytes)",
            ))
        }
    };
    let frames_like = match frames_like {
        None => None,
        Some(_) if player => {
            return Err(Error::new_err(
                "player=True and frames_like: choose one frame table",
            ))
        }
        Some(_) if groups.as_ref().is_some_and(|g| !g.is_empty()) => {
            return Err(Error::new_err(
                "frames_like and groups: the frame groups are those of the frames_like model",
            ))
        }
        Some(source) => {
            let loaded = source.load(py, None)?;
            let model = retromodel::mdl::Mdl::from_bytes(&loaded.bytes)
                .map_err(|e| Error::new_err(format!("frames_like: {e} (give a Quake MDL)")))?;
            Some(FrameTable::of_model(&model, &loaded.file_name))
        }
    };
    let limits = match engine {
        None => Limits::QUAKE,
        Some(e) => crate::mdl::compile_limits(engine_named(e)?)?,
    };
    if let Some((x, y, z)) = eye_position {
        if ![x, y, z].iter().all(|v| v.is_finite()) {
            return Err(Error::new_err(format!(
                "eye_position ({x}, {y}, {z}): must be three finite numbers"
            )));
        }
    }
    let options = MdlOptions {
        fps,
        keep_source_frames,
        animations: anims.unwrap_or_default(),
        frame_groups: groups.unwrap_or_default(),
        scale,
        fit_height,
        palette: Some(palette),
        eye_position: eye_position.map(|(x, y, z)| [x, y, z]),
        flags: flags.as_ref().map_or(Ok(0), crate::mdl::FlagsArg::bits)?,
        random_sync: crate::mdl::sync_type_number(sync_type)? == 1,
        limits,
        player,
        frames_like,
    };
    let anim = options.animations.clone();
    let options = ConvertOptions {
        anim,
        mdl: Some(options),
        rerelease,
        ..ConvertOptions::default()
    };
    let compiled = compile_source(py, source, &options, OutputFormat::Mdl, name)?;
    Ok(MdlOutput {
        mdl: compiled.main,
        files: compiled.beside,
        report: compiled.report,
        warnings: compiled.warnings,
    })
}
